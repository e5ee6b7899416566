//! Nothing a server or an input sends reaches the terminal raw: every
//! human-facing line (errors, traces, menus, extract output) goes through
//! one escape. Each case runs the binary against a hostile server and
//! greps both outputs for ESC, BEL and CR.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Output, Stdio};

fn rfc1738(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rfc1738"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

/// A server that answers each connection with `script`: lines it sends,
/// each after reading one line when its flag says so.
fn server(script: Vec<(bool, &'static [u8])>, connections: usize) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for _ in 0..connections {
            let Ok((s, _)) = listener.accept() else { return };
            let mut w: TcpStream = s.try_clone().unwrap();
            let mut r = BufReader::new(s);
            for (read_first, bytes) in &script {
                if *read_first {
                    let mut line = String::new();
                    if r.read_line(&mut line).unwrap_or(0) == 0 {
                        break;
                    }
                }
                if w.write_all(bytes).is_err() {
                    break;
                }
            }
            // End of the reply; then wait for the client to close.
            let _ = w.shutdown(std::net::Shutdown::Write);
            let _ = r.read_to_end(&mut Vec::new());
        }
    });
    port
}

fn assert_clean(what: &str, out: &Output) {
    for (name, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        for raw in [0x1b, 0x07, b'\r'] {
            assert!(
                !bytes.contains(&raw),
                "{what}: raw {raw:#04x} on {name}: {:?}",
                String::from_utf8_lossy(bytes)
            );
        }
    }
}

#[test]
fn server_text_is_escaped_in_errors_and_traces() {
    let http = server(vec![(true, b"HTTP/1.1 404 \x1b[2J\x07gone\r\n\r\n")], 2);
    let bad_status = server(vec![(true, b"\x1b]0;owned\x07 HTTP\r\n\r\n")], 1);
    let ftp = server(vec![(false, b"220 hi\r\n"), (true, b"530 \x1b[31mno\x07 way\r\n")], 2);
    let nntp = server(vec![(false, b"502 \x1b[5mgo away\x07\r\n")], 1);
    let gopher_plus = server(vec![(true, b"-1\r\n\x1b[31mno such item\x07\r\n")], 1);
    let cases = [
        vec!["fetch".to_string(), format!("http://127.0.0.1:{http}/")],
        vec!["fetch".to_string(), "--trace".into(), format!("http://127.0.0.1:{http}/")],
        vec!["fetch".to_string(), format!("http://127.0.0.1:{bad_status}/")],
        vec!["fetch".to_string(), format!("ftp://127.0.0.1:{ftp}/f")],
        vec!["fetch".to_string(), "--trace".into(), format!("ftp://127.0.0.1:{ftp}/f")],
        vec!["fetch".to_string(), "--news-server".into(), format!("127.0.0.1:{nntp}"), "news:*".into()],
        vec!["fetch".to_string(), format!("gopher://127.0.0.1:{gopher_plus}/0x%09%09+")],
    ];
    for args in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = rfc1738(&args, b"");
        assert_ne!(out.status.code(), Some(0), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
        assert_clean(&format!("{args:?}"), &out);
    }
}

#[test]
fn gopher_menu_items_are_escaped_and_their_urls_built_by_the_library() {
    let menu: &'static [u8] = b"0\x1b[31mred\x07\t/a\th.example\t70\r\n\
        0Evil\t/b\tevil\rQUIT\t70\r\n\
        0Other\t/c\tevil.example/x:25@y\t70\r\n\
        0Fine\t/d e\th.example\t7070\r\n.\r\n";
    let port = server(vec![(true, menu)], 1);
    let out = rfc1738(&["fetch", &format!("gopher://127.0.0.1:{port}/1")], b"");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_clean("menu", &out);
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "0\t\\x1B[31mred\\x07\tgopher://h.example/0/a");
    // A host that is not a host makes no URL.
    assert_eq!(lines[1], "0\tEvil\t");
    assert_eq!(lines[2], "0\tOther\t");
    assert_eq!(lines[3], "0\tFine\tgopher://h.example:7070/0/d%20e");
}

#[test]
fn extract_output_is_escaped() {
    let out = rfc1738(&["extract"], b"see <URL:http://a.dom/\x1b[31mx\x07> and http://b.dom/\x1b\n");
    assert_clean("extract", &out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("http://b.dom/\n"), "{text}");
}

#[test]
fn parse_keep_lines_escapes_the_invalid_input_it_writes() {
    // The block of an invalid line starts with the input: on stdout, so
    // escaped as everything else an input brings.
    let out = rfc1738(&["parse", "--keep-lines"], b"http://a.dom/\x1b[31mx\x07\r\n");
    assert_eq!(out.status.code(), Some(1));
    assert_clean("parse --keep-lines", &out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("http://a.dom/\\x1B[31mx\\x07\n"), "{text}");
}

//! `rfc1738 fetch`, run as the real binary.

use std::path::PathBuf;
use std::process::{Command, Output};

fn rfc1738(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rfc1738")).args(args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn plan_shows_the_rfc_exchange() {
    let out = rfc1738(&["fetch", "--plan", "ftp://myname@host.dom/%2Fetc/motd"]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("connect host.dom:21\n> USER myname\n"), "{stdout}");
    assert!(stdout.contains("> CWD /etc\n> EPSV\n"), "{stdout}");
    assert!(stdout.ends_with("> RETR motd\n> QUIT\n"), "{stdout}");
}

#[test]
fn section_6_refusals_exit_1_before_connecting() {
    for args in [
        &["fetch", "gopher://127.0.0.1:25/0x"][..],
        &["fetch", "--plan", "gopher://127.0.0.1:25/0x"],
        &["fetch", "ftp://127.0.0.1:2121/a%0D%0ADELE%20x/f"],
    ] {
        let out = rfc1738(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(stderr.starts_with("rfc1738: ") && stderr.contains("refused"), "{stderr}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn schemes_it_does_not_access_are_explained() {
    let out = rfc1738(&["fetch", "mailto:someone@example.org"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("fetch does not"));
    let out = rfc1738(&["fetch", "--plan", "telnet://host.example/"]);
    assert!(out.status.success());
    assert!(text(&out.stdout).starts_with("# telnet: a client would open an interactive terminal session"));
}

#[test]
fn local_files_to_stdout_and_to_a_file() {
    let dir = std::env::temp_dir().join(format!("rfc1738-fetch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("in.txt");
    std::fs::write(&src, "local content\n").unwrap();
    let url = format!("file://localhost{}", src.display());
    let out = rfc1738(&["fetch", &url]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "local content\n");
    let dst = dir.join("out.txt");
    let out = rfc1738(&["fetch", &url, "-o", dst.to_str().unwrap()]);
    assert!(out.status.success());
    assert_eq!(std::fs::read_to_string(&dst).unwrap(), "local content\n");
    let out = rfc1738(&["fetch", "file://elsewhere.example/etc/motd"]);
    assert_eq!(out.status.code(), Some(1));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The port of a server started by `scripts/test-servers start`, if any.
fn server_port(key: &str) -> Option<String> {
    let env = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/test-servers/env");
    let Ok(text) = std::fs::read_to_string(&env) else {
        // Once, and past the harness's capture, so that it is seen.
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            use std::io::Write;
            let msg = "skipped: fetch against real servers; run scripts/test-servers install && scripts/test-servers start\n";
            let _ = std::io::stderr().write_all(msg.as_bytes());
        });
        return None;
    };
    text.lines().find_map(|l| l.strip_prefix(key)?.strip_prefix('=')).map(str::to_string)
}

#[test]
fn trace_against_a_real_ftp_server() {
    let Some(port) = server_port("FTP_PORT") else { return };
    let out = rfc1738(&["fetch", "--trace", &format!("ftp://127.0.0.1:{port}/pub/motd")]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "motd of /pub\n");
    let stderr = text(&out.stderr);
    let sent: Vec<&str> = stderr.lines().filter_map(|l| l.strip_prefix("> ")).collect();
    assert_eq!(sent[0], "USER anonymous");
    assert_eq!(sent[2..], ["CWD pub", "EPSV", "RETR motd", "QUIT"]);
    assert!(stderr.contains("< 226 "), "{stderr}");
}

#[test]
fn gopher_menus_list_items_with_their_urls() {
    let Some(port) = server_port("GOPHER_PORT") else { return };
    let out = rfc1738(&["fetch", &format!("gopher://127.0.0.1:{port}/1/docs")]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains(&format!("\tgopher://127.0.0.1:{port}/0/docs/readme.txt\n")), "{stdout}");
}

/// A server on a free loopback port that reads the request, then runs `send`.
fn hostile(send: impl FnOnce(&mut std::net::TcpStream) + Send + 'static) -> u16 {
    use std::io::Read;
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        if let Ok((mut s, _)) = listener.accept() {
            let _ = s.read(&mut [0u8; 1024]);
            send(&mut s);
        }
    });
    port
}

#[test]
fn max_time_holds_against_a_trickling_server() {
    use std::io::Write;
    let port = hostile(|s| {
        for b in b"HTTP/1.1 200 OK\r\n\r\n" {
            if s.write_all(&[*b]).is_err() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(700));
        }
    });
    let start = std::time::Instant::now();
    let out = rfc1738(&["fetch", "--timeout", "3", "--max-time", "2", &format!("http://127.0.0.1:{port}/")]);
    let elapsed = start.elapsed();
    assert_eq!(out.status.code(), Some(2));
    assert!(elapsed < std::time::Duration::from_millis(3500), "{elapsed:?}");
    assert!(
        text(&out.stderr).contains("the whole access took longer than its limit of 2 s"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn header_limits_are_flags() {
    use std::io::Write;
    let port = hostile(|s| {
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\n");
        for _ in 0..1000 {
            if s.write_all(b"X-Filler: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n").is_err() {
                return;
            }
        }
    });
    let out = rfc1738(&[
        "fetch",
        "--max-header-bytes",
        "1000",
        "--max-headers",
        "5000",
        &format!("http://127.0.0.1:{port}/"),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("longer than the limit of 1000 bytes (max_header_bytes)"),
        "{}",
        text(&out.stderr)
    );
}

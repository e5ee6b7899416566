//! Oracle for `rfc1738 serve`'s connection layer: the input is what a
//! client sends on one connection, byte for byte (any number of
//! requests, heads and bodies, cut anywhere), and it goes through
//! everything a socket goes through (`rfc1738_serve::serve_stream`:
//! hyper's HTTP/1, the body reader with its deadline and limits, the
//! write watch, the routes), in memory, the clock paused so that every
//! deadline passes at once. Whatever the bytes:
//! - the server ends the connection (no hang), and never panics;
//! - what it sends is a sequence of whole HTTP/1 answers, each framed
//!   by `content-length`, chunked, or by the close, each with the
//!   security headers;
//! - no answer is a server error but 503 (busy, a deadline), and 505 to
//!   a connection that opens with the HTTP/2 preface;
//! - every answer of 400 and above is JSON `{"error": {"kind", "message"}}`;
//! - a request without `Host` in HTTP/1.1, or with two, is never 200.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rfc1738_serve::{serve_stream, Config};
use serde_json::Value;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Small limits, so that short inputs reach them.
fn config() -> Config {
    Config {
        max_body: 2048,
        max_lines: 40,
        max_url: 200,
        timeout: Duration::from_secs(5),
        header_timeout: Duration::from_secs(1),
        body_timeout: Duration::from_secs(1),
        write_timeout: Duration::from_secs(1),
        ..Config::default()
    }
}

/// The client: sends the input, then closes its half; reads everything.
async fn exchange(input: Vec<u8>) -> Vec<u8> {
    let (mut client, server) = tokio::io::duplex(16 << 10);
    let local = SocketAddr::from(([127, 0, 0, 1], 8738));
    let serving = tokio::spawn(async move { serve_stream(server, &config(), local).await });
    let (mut rx, mut tx) = tokio::io::split(&mut client);
    let send = async move {
        let _ = tx.write_all(&input).await;
        let _ = tx.shutdown().await;
    };
    let receive = async move {
        let mut got = Vec::new();
        let _ = rx.read_to_end(&mut got).await;
        got
    };
    let ((), got) = tokio::join!(send, receive);
    serving.await.expect("the connection's task never panics");
    got
}

/// The position of `needle` in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// One answer off the front of `out`: its status, its head (lower case)
/// and its body; the rest after it.
fn answer(out: &[u8]) -> (u16, String, Vec<u8>, &[u8]) {
    let end = find(out, b"\r\n\r\n").expect("a whole head") + 4;
    let head = std::str::from_utf8(&out[..end]).expect("a head in ASCII").to_ascii_lowercase();
    assert!(head.starts_with("http/1.1 ") || head.starts_with("http/1.0 "), "{head}");
    let status: u16 = head[9..12].parse().expect("a status");
    let header = |name: &str| {
        head.lines().find_map(|l| l.strip_prefix(name).and_then(|v| v.strip_prefix(": ")).map(str::to_string))
    };
    let mut rest = &out[end..];
    let mut body = Vec::new();
    if let Some(n) = header("content-length") {
        let n: usize = n.parse().expect("a length");
        assert!(rest.len() >= n, "a body cut short: {head}");
        body.extend_from_slice(&rest[..n]);
        rest = &rest[n..];
    } else if header("transfer-encoding").as_deref() == Some("chunked") {
        loop {
            let Some(line) = find(rest, b"\r\n") else {
                // A streamed answer may end where the connection ended.
                rest = &[];
                break;
            };
            let size =
                usize::from_str_radix(std::str::from_utf8(&rest[..line]).unwrap(), 16).expect("a chunk size");
            rest = &rest[line + 2..];
            if size == 0 {
                rest = rest.strip_prefix(b"\r\n").unwrap_or(rest);
                break;
            }
            if rest.len() < size + 2 {
                rest = &[];
                break;
            }
            body.extend_from_slice(&rest[..size]);
            rest = &rest[size + 2..];
        }
    } else {
        // Neither: the body runs to the close (a streamed answer to
        // HTTP/1.0, which has no chunks).
        assert!(head.contains("\r\nconnection: close\r\n") || head.starts_with("http/1.0 "), "{head}");
        body.extend_from_slice(rest);
        rest = &[];
    }
    (status, head, body, rest)
}

/// The requests of the input that name no `Host`, or two, in HTTP/1.1,
/// counted roughly: any head in the input that has neither or two.
fn host_trouble(input: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(input) else { return false };
    text.split("\r\n\r\n").any(|head| {
        head.contains(" HTTP/1.1\r\n") && {
            let hosts = head.to_ascii_lowercase().matches("\r\nhost:").count();
            hosts != 1
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().start_paused(true).build().unwrap();
    let out = runtime.block_on(exchange(data.to_vec()));
    let trouble = host_trouble(data);
    let mut rest = &out[..];
    let mut answers = 0;
    while !rest.is_empty() {
        let (status, head, body, after) = answer(rest);
        rest = after;
        answers += 1;
        let h2 = status == 505 && answers == 1 && data.starts_with(b"PRI * HTTP/2.0\r\n");
        assert!(!(500..600).contains(&status) || status == 503 || h2, "{head}");
        assert!(head.contains("\r\ncontent-security-policy: default-src 'none'"), "{head}");
        assert!(head.contains("\r\nx-content-type-options: nosniff\r\n"), "{head}");
        if status >= 400 {
            assert!(head.contains("\r\ncontent-type: application/json\r\n"), "{head}");
            let v: Value = serde_json::from_slice(&body).expect("an error's body is JSON");
            assert!(v["error"]["kind"].is_string() && v["error"]["message"].is_string(), "{v}");
        }
        if trouble
            && answers == 1
            && data.starts_with(b"GET / HTTP/1.1\r\n")
            && !data.windows(6).any(|w| w.eq_ignore_ascii_case(b"\nhost:"))
        {
            assert_eq!(status, 400, "{head}");
        }
    }
});

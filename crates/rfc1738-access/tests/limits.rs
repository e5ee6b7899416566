//! Time limits on every exchange, against local listeners that accept and
//! then say nothing, or say too much.

use rfc1738_access::{fetch, AccessError, NoTrace, Options};
use std::io::{Read, Write};
use std::net::TcpListener;
use std::thread;
use std::time::Duration;

fn quick() -> Options {
    Options { io_timeout: Duration::from_millis(300), ..Options::default() }
}

/// A server that accepts one connection and runs `serve` on it.
fn server(serve: impl FnOnce(std::net::TcpStream) + Send + 'static) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    thread::spawn(move || {
        if let Ok((stream, _)) = listener.accept() {
            serve(stream);
        }
    });
    port
}

#[test]
fn a_silent_server_times_out() {
    for scheme in ["ftp", "gopher", "http", "nntp"] {
        let port = server(|s| {
            thread::sleep(Duration::from_secs(3));
            drop(s);
        });
        let path = if scheme == "nntp" { "g/1" } else { "x" };
        let r =
            fetch(&format!("{scheme}://127.0.0.1:{port}/{path}"), &quick(), &mut NoTrace, &mut Vec::new());
        assert!(matches!(r, Err(AccessError::Timeout)), "{scheme}: {r:?}");
    }
}

#[test]
fn a_slow_drip_hits_the_total_limit() {
    let port = server(|mut s| {
        let mut request = [0u8; 64];
        let _ = s.read(&mut request);
        for _ in 0..40 {
            if s.write_all(b"x").is_err() {
                return;
            }
            thread::sleep(Duration::from_millis(100));
        }
    });
    let opts = Options { total_timeout: Duration::from_millis(500), ..quick() };
    let r = fetch(&format!("gopher://127.0.0.1:{port}/0x"), &opts, &mut NoTrace, &mut Vec::new());
    assert!(matches!(r, Err(AccessError::Deadline { .. })), "{r:?}");
}

#[test]
fn an_endless_line_is_refused() {
    let port = server(|mut s| {
        let chunk = vec![b'2'; 64 * 1024];
        for _ in 0..4 {
            if s.write_all(&chunk).is_err() {
                return;
            }
        }
    });
    let r = fetch(&format!("ftp://127.0.0.1:{port}/x"), &quick(), &mut NoTrace, &mut Vec::new());
    assert!(matches!(r, Err(AccessError::Limit { option: "max_line", .. })), "{r:?}");
}

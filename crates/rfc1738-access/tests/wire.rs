//! The recorder of `fetch_recorded`: the bytes of each connection as they
//! crossed the wire, before the transfer coding is undone.

use rfc1738_access::{fetch_recorded, NoTrace, Options, Wire};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::thread;

#[test]
fn an_http_exchange_is_recorded_as_it_crossed_the_wire() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let response: &[u8] =
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n";
    thread::spawn(move || {
        let (s, _) = listener.accept().unwrap();
        let mut r = BufReader::new(s.try_clone().unwrap());
        let mut line = String::new();
        while r.read_line(&mut line).is_ok_and(|n| n > 2) {
            line.clear();
        }
        (&s).write_all(response).unwrap();
    });
    let wire = Wire::default();
    let mut out = Vec::new();
    let url = format!("http://127.0.0.1:{port}/x?y");
    fetch_recorded(&url, &Options::default(), &mut NoTrace, &mut out, &wire).unwrap();
    assert_eq!(out, b"hello world", "the content, decoded");
    assert_eq!(wire.connections(), 1);
    assert_eq!(wire.bytes(0, false), response, "the response, as received");
    let sent = String::from_utf8(wire.bytes(0, true)).unwrap();
    assert!(sent.starts_with("GET /x?y HTTP/1.1\r\nHost: 127.0.0.1:"), "{sent}");
    assert!(sent.ends_with("\r\n\r\n"), "{sent}");
}

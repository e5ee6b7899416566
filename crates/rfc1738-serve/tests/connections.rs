//! What one client, or many, may hold of the server: each test starts its
//! own server on a free loopback port with short limits, and measures the
//! time a connection is kept against them.

use rfc1738_serve::Config;
use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::mpsc;
use std::time::{Duration, Instant};

fn start(config: Config) -> SocketAddr {
    let config = Config { listen: "127.0.0.1:0".parse().unwrap(), ..config };
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || rfc1738_serve::run(&config, |addr| tx.send(addr).unwrap()).unwrap());
    rx.recv_timeout(Duration::from_secs(10)).unwrap()
}

/// Everything the server sends until it closes, and how long that took.
fn until_closed(mut s: TcpStream) -> (String, Duration) {
    let t = Instant::now();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let mut got = Vec::new();
    match s.read_to_end(&mut got) {
        Ok(_) => {}
        Err(e) if e.kind() == ErrorKind::ConnectionReset => {}
        Err(e) => panic!("the server kept the connection: {e}"),
    }
    (String::from_utf8_lossy(&got).into_owned(), t.elapsed())
}

fn get(addr: SocketAddr, path: &str) -> (String, Duration) {
    let t = Instant::now();
    let mut s = TcpStream::connect(addr).unwrap();
    // A server that refuses a connection may close it before the request
    // is written: its answer is still there to read.
    let _ = write!(s, "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    let (answer, _) = until_closed(s);
    (answer, t.elapsed())
}

#[test]
fn a_head_sent_too_slowly_and_a_silent_connection_are_closed() {
    let limit = Duration::from_secs(1);
    let addr = start(Config { header_timeout: limit, ..Config::default() });
    let opened = Instant::now();
    let mut slow = TcpStream::connect(addr).unwrap();
    slow.write_all(b"GET /api/parse?url=x HTTP/1.1\r\nHost: 127.0").unwrap();
    let silent = TcpStream::connect(addr).unwrap();
    for (what, s) in [("half a head", slow), ("nothing", silent)] {
        let (answer, _) = until_closed(s);
        let took = opened.elapsed();
        assert!(
            took >= limit - Duration::from_millis(100) && took < limit * 3,
            "{what}: closed after {took:?}"
        );
        assert!(!answer.contains("200 OK"), "{what}: {answer}");
    }
    // A connection kept alive after an answer waits the same time at most.
    let mut kept = TcpStream::connect(addr).unwrap();
    write!(kept, "GET /api/parse?url=x HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let (answer, took) = until_closed(kept);
    assert!(answer.starts_with("HTTP/1.1 200 OK"), "{answer}");
    assert!(took < limit * 3, "an idle kept-alive connection closed after {took:?}");
}

/// The soft limit of open files of this process, from /proc/self/limits.
fn open_files_limit() -> usize {
    let limits = std::fs::read_to_string("/proc/self/limits").unwrap_or_default();
    let line = limits.lines().find(|l| l.starts_with("Max open files")).unwrap_or("");
    line.split_whitespace().nth(3).and_then(|n| n.parse().ok()).unwrap_or(1024)
}

#[test]
fn slow_clients_never_keep_out_a_fast_one() {
    // A long header timeout: only making room can let the fast one in.
    let addr =
        start(Config { header_timeout: Duration::from_secs(60), max_connections: 64, ..Config::default() });
    // 1 100 slow clients (fewer if this process may not open that many:
    // each is two descriptors here, one in the test, one in the server).
    let count = 1100.min(open_files_limit().saturating_sub(200) / 2);
    assert!(count > 64 * 2, "too few files allowed for this test: {count}");
    let mut slow = Vec::new();
    for _ in 0..count {
        let mut s = TcpStream::connect(addr).unwrap();
        s.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ").unwrap();
        slow.push(s);
    }
    for _ in 0..5 {
        let (answer, took) = get(addr, "/api/parse?url=http://a.dom/");
        assert!(answer.starts_with("HTTP/1.1 200 OK"), "{answer}");
        assert!(took < Duration::from_secs(2), "a normal request took {took:?} among {count} slow clients");
    }
    // The slow clients that gave way were closed, not left hanging.
    let mut closed = 0;
    for s in &mut slow {
        s.set_read_timeout(Some(Duration::from_millis(1))).unwrap();
        match s.read(&mut [0; 1]) {
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            _ => closed += 1,
        }
    }
    assert!(closed >= count - 64, "{closed} of {count} slow clients closed");
}

#[test]
fn a_body_that_never_comes_gets_408_and_gives_way_to_others() {
    let limit = Duration::from_secs(1);
    let addr = start(Config { max_connections: 3, body_timeout: limit, ..Config::default() });
    // Bodies announced and never sent: the server waits for the client.
    let stalled: Vec<TcpStream> = (0..3)
        .map(|_| {
            let mut s = TcpStream::connect(addr).unwrap();
            write!(s, "POST /api/check HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 10\r\n\r\nh").unwrap();
            s
        })
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    let (answer, took) = get(addr, "/api/parse?url=x");
    assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
    assert!(took < Duration::from_secs(1), "{took:?}");
    // One gave way (closed, nothing said); the others get 408 at the deadline.
    let mut timed_out = 0;
    for s in stalled {
        let (answer, _) = until_closed(s);
        if answer.starts_with("HTTP/1.1 408 Request Timeout\r\n") {
            assert!(
                answer.contains(
                    r#"{"error":{"kind":"body-timeout","message":"the body did not come whole within 1 s"#
                ),
                "{answer}"
            );
            timed_out += 1;
        }
    }
    assert_eq!(timed_out, 2);
}

#[test]
fn a_client_that_does_not_read_is_dropped_after_the_write_timeout() {
    let limit = Duration::from_secs(1);
    let addr = start(Config { write_timeout: limit, ..Config::default() });
    // Text with a URL every few bytes: the answer is ten times the text.
    let text = "http://a.dom/x ".repeat((4 << 20) / 15);
    let mut s = TcpStream::connect(addr).unwrap();
    write!(s, "POST /api/extract HTTP/1.1\r\nHost: {addr}\r\nContent-Length: {}\r\n\r\n", text.len())
        .unwrap();
    s.write_all(text.as_bytes()).unwrap();
    // Read nothing for longer than the limit, then everything: the answer
    // stops short, where the server gave up.
    std::thread::sleep(limit * 3);
    let t = Instant::now();
    let mut got = Vec::new();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let _ = s.read_to_end(&mut got);
    assert!(t.elapsed() < Duration::from_secs(5), "the connection stayed open");
    let answer = String::from_utf8_lossy(&got);
    assert!(answer.starts_with("HTTP/1.1 200 OK"), "{}", &answer[..answer.len().min(200)]);
    let whole = text.len() / 15 * 60;
    assert!(got.len() < whole / 4, "{} bytes of about {whole} came", got.len());
}

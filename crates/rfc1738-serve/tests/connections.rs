//! What one client, or many, may hold of the server: each test starts its
//! own server on a free loopback port with short limits, and measures the
//! time a connection is kept against them.

use rfc1738_serve::Config;
use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tokio::net::TcpSocket;

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

/// A connection to `addr` from the loopback address `from` (all of
/// 127.0.0.0/8 is this machine), with a small receive buffer when asked:
/// a client that does not read then holds the server's writes at once.
fn connect_from(from: [u8; 4], addr: SocketAddr, small_window: bool) -> TcpStream {
    static RUNTIME: std::sync::OnceLock<tokio::runtime::Runtime> = std::sync::OnceLock::new();
    let runtime =
        RUNTIME.get_or_init(|| tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap());
    let s = runtime.block_on(async {
        let socket = TcpSocket::new_v4().unwrap();
        if small_window {
            socket.set_recv_buffer_size(4096).unwrap();
        }
        socket.bind(SocketAddr::from((from, 0))).unwrap();
        socket.connect(addr).await.unwrap()
    });
    let s = s.into_std().unwrap();
    s.set_nonblocking(false).unwrap();
    s
}

/// This process's resident memory, in bytes (/proc/self/status).
fn rss() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse::<usize>().unwrap() * 1024
}

/// The soft limit of open files raised to the hard one, for the many
/// connections of the attack (each is two descriptors here: the server
/// runs in this process).
fn raise_open_files() {
    let pid = std::process::id().to_string();
    let _ = std::process::Command::new("prlimit").args(["--pid", &pid, "--nofile=4096:"]).output();
}

const MB: usize = 1 << 20;

/// The attack: 100 clients (from 100 addresses) that send a text whose
/// answer is eight times as long and never read it, and 500 connections
/// (from 10 addresses) that announce a body of 1 MB and stall after 8
/// bytes. They stay open as long as the returned sockets.
fn attack(addr: SocketAddr) -> Vec<TcpStream> {
    let text = "http://a.dom/x ".repeat((128 << 10) / 15);
    let mut held = Vec::new();
    for k in 0..100u8 {
        let mut s = connect_from([127, 0, 1, k], addr, true);
        write!(s, "POST /api/extract HTTP/1.1\r\nHost: {addr}\r\nContent-Length: {}\r\n\r\n", text.len())
            .unwrap();
        s.write_all(text.as_bytes()).unwrap();
        held.push(s);
    }
    for k in 0..500 {
        let mut s = connect_from([127, 0, 2, (k % 10) as u8], addr, false);
        write!(s, "POST /api/check HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 1000000\r\n\r\nhttp://a")
            .unwrap();
        held.push(s);
    }
    std::thread::sleep(Duration::from_millis(300));
    held
}

/// 500 connections that stall their bodies and 100 clients that never
/// read their answers hold no one else out: a request from another
/// address is answered within a second. The server holds less than
/// 64 MB more for all of them (a body of 128 kB, two pieces of 16 kB of
/// the answer and hyper's buffers each), and what it held is free once
/// they are gone: a second wave takes no more.
#[test]
fn stalled_bodies_and_clients_that_do_not_read_keep_no_one_out() {
    raise_open_files();
    assert!(open_files_limit() >= 1400, "too few files allowed: {}", open_files_limit());
    let addr = start(Config::default());
    // The server warmed up.
    for _ in 0..3 {
        assert!(get(addr, "/api/view?url=http://a.dom/").0.starts_with("HTTP/1.1 200 OK"));
    }
    let before = rss();
    let first = attack(addr);
    for path in ["/", "/api/view?url=ftp://h.dom/a;type=i", "/app.js"] {
        let (answer, took) = get(addr, path);
        assert!(answer.starts_with("HTTP/1.1 200 OK"), "{path}: {}", &answer[..answer.len().min(300)]);
        assert!(took < Duration::from_secs(1), "{path} took {took:?} among the attackers");
    }
    let t = Instant::now();
    let mut s = TcpStream::connect(addr).unwrap();
    let body = "http://a.dom/\nhttp://b.dom/ x\n";
    write!(
        s,
        "POST /api/check HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let (answer, _) = until_closed(s);
    assert!(answer.starts_with("HTTP/1.1 200 OK"), "{answer}");
    assert!(t.elapsed() < Duration::from_secs(1), "a POST took {:?}", t.elapsed());
    let during = rss();
    drop(first);
    std::thread::sleep(Duration::from_millis(500));
    let second = attack(addr);
    let again = rss();
    drop(second);
    eprintln!(
        "RSS: {} MB before, {} MB with the attackers, {} MB with a second wave",
        before / MB,
        during / MB,
        again / MB
    );
    let grown = during.saturating_sub(before);
    assert!(grown < 64 * MB, "the attackers made the server hold {} MB", grown / MB);
    assert!(again < during + 8 * MB, "the second wave took {} MB more", again.saturating_sub(during) / MB);
}

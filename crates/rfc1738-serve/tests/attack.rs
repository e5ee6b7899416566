//! The server under attack: connections that stall their bodies and
//! clients that never read their answers, from many addresses, while
//! others ask for the page and the API. A test binary of its own, so that
//! no other test competes for the server's threads while it measures.

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

/// Everything the server sends until it closes.
fn until_closed(mut s: TcpStream) -> String {
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let mut got = Vec::new();
    match s.read_to_end(&mut got) {
        Ok(_) => {}
        Err(e) if e.kind() == ErrorKind::ConnectionReset => {}
        Err(e) => panic!("the server kept the connection: {e}"),
    }
    String::from_utf8_lossy(&got).into_owned()
}

/// A request on a new connection: the answer, and the time it took.
fn get(addr: SocketAddr, path: &str) -> (String, Duration) {
    let t = Instant::now();
    let mut s = TcpStream::connect(addr).unwrap();
    let _ = write!(s, "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    let answer = until_closed(s);
    (answer, t.elapsed())
}

/// The soft limit of open files of this process, from /proc/self/limits.
fn open_files_limit() -> usize {
    let limits = std::fs::read_to_string("/proc/self/limits").unwrap_or_default();
    let line = limits.lines().find(|l| l.starts_with("Max open files")).unwrap_or("");
    line.split_whitespace().nth(3).and_then(|n| n.parse().ok()).unwrap_or(1024)
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
    // The answers made until the clients' windows are full: the server
    // is then idle, waiting on them.
    std::thread::sleep(Duration::from_millis(800));
    held
}

/// 500 connections that stall their bodies and 100 clients that never
/// read their answers hold no one else out: a request from another
/// address is answered within a second. The server holds less than
/// 96 MB more for all 600 of them (a client that does not read: its body
/// of 128 kB, at most 80 kB in hyper's write buffer and three pieces of
/// 16 kB; a stalled body: hyper's read buffer of 8 kB), and what it held
/// is free once they are gone: each wave that follows stays within the
/// same bound.
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
    let answer = until_closed(s);
    assert!(answer.starts_with("HTTP/1.1 200 OK"), "{answer}");
    assert!(t.elapsed() < Duration::from_secs(1), "a POST took {:?}", t.elapsed());
    let during = rss();
    drop(first);
    // Two waves more: what the first held was freed and is taken again,
    // so the server stays within the same bound (glibc keeps freed pages
    // in its arenas, one per thread, for the next allocations, rather
    // than give them all back to the system).
    let mut waves = Vec::new();
    for _ in 0..2 {
        std::thread::sleep(Duration::from_millis(300));
        let wave = attack(addr);
        waves.push(rss());
        drop(wave);
    }
    eprintln!(
        "RSS: {} MB before, {} MB with the attackers, {} MB and {} MB with two more waves",
        before / MB,
        during / MB,
        waves[0] / MB,
        waves[1] / MB
    );
    for (k, &held) in [during].iter().chain(&waves).enumerate() {
        let grown = held.saturating_sub(before);
        assert!(grown < 96 * MB, "wave {}: the attackers made the server hold {} MB", k + 1, grown / MB);
    }
    // Once they are gone, what they took is handed back to the system
    // (`malloc_trim`, every second), not kept for later.
    let gone = Instant::now();
    let mut after = rss();
    while after > before + 16 * MB && gone.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(250));
        after = rss();
    }
    eprintln!("RSS: {} MB {:?} after the last wave left", after / MB, gone.elapsed());
    if cfg!(all(target_os = "linux", target_env = "gnu")) {
        let kept = after.saturating_sub(before);
        assert!(kept <= 16 * MB, "{} MB still held after the attackers left", kept / MB);
    }
}

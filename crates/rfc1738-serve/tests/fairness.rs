//! What a few clients may take from everyone: the body pool, and the
//! threads that answer. A test binary of its own, so that no other test
//! competes for the server's threads while it measures.

use rfc1738_serve::Config;
use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tokio::net::TcpSocket;

fn start(config: Config) -> SocketAddr {
    let config = Config { listen: "127.0.0.1:0".parse().unwrap(), ..config };
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || rfc1738_serve::run(&config, |addr| tx.send(addr).unwrap()).unwrap());
    rx.recv_timeout(Duration::from_secs(10)).unwrap()
}

/// A connection to `addr` from the loopback address `from` (all of
/// 127.0.0.0/8 is this machine).
fn connect_from(from: [u8; 4], addr: SocketAddr) -> TcpStream {
    static RUNTIME: std::sync::OnceLock<tokio::runtime::Runtime> = std::sync::OnceLock::new();
    let runtime =
        RUNTIME.get_or_init(|| tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap());
    let s = runtime.block_on(async {
        let socket = TcpSocket::new_v4().unwrap();
        socket.bind(SocketAddr::from((from, 0))).unwrap();
        socket.connect(addr).await.unwrap()
    });
    let s = s.into_std().unwrap();
    s.set_nonblocking(false).unwrap();
    s
}

/// Everything the server sends until it closes, within `limit`.
fn until_closed(mut s: TcpStream, limit: Duration) -> String {
    s.set_read_timeout(Some(limit)).unwrap();
    let mut got = Vec::new();
    match s.read_to_end(&mut got) {
        Ok(_) => {}
        Err(e) if e.kind() == ErrorKind::ConnectionReset => {}
        Err(e) => panic!("the server kept the connection: {e}"),
    }
    String::from_utf8_lossy(&got).into_owned()
}

/// `POST path` of `body` from the address `from`, on a new connection:
/// the whole answer.
fn post_from(from: [u8; 4], addr: SocketAddr, path: &str, body: &[u8]) -> String {
    let mut s = connect_from(from, addr);
    write!(
        s,
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .unwrap();
    s.write_all(body).unwrap();
    until_closed(s, Duration::from_secs(60))
}

const MIB: usize = 1 << 20;

/// Eight bodies of 8 MiB less one byte, from four addresses, fill the
/// 64 MiB the server may hold of bodies, and stall. Another client's
/// POST still gets its answer: a body that made no progress for longest
/// gives way (it gets 503), and small bodies have a reserve.
#[test]
fn eight_stalled_bodies_do_not_block_every_post() {
    let addr = start(Config::default());
    let stalled: Vec<TcpStream> = (0..8u8)
        .map(|k| {
            let mut s = connect_from([127, 0, 3, 1 + k / 2], addr);
            write!(s, "POST /api/check HTTP/1.1\r\nHost: {addr}\r\nContent-Length: {}\r\n\r\n", 8 * MIB)
                .unwrap();
            // The last ones may find no room (an eighth of the pool is
            // kept for small bodies) and be refused before they are sent.
            let _ = s.write_all(&vec![b'a'; 8 * MIB - 1]);
            s
        })
        .collect();
    // The server has read them (all it had room for), and they are idle.
    std::thread::sleep(Duration::from_millis(1500));
    let small = b"http://a.dom/\nhttp://b.dom/ x\n";
    for k in 0..4u8 {
        let answer = post_from([127, 0, 4, 1 + k], addr, "/api/check", small);
        assert!(answer.starts_with("HTTP/1.1 200 OK"), "small POST {k}: {answer}");
        assert!(answer.contains(r#""line":2"#), "{answer}");
    }
    // A large body too: it finds room once stalled ones give way.
    let large = "http://a.dom/x\n".repeat(MIB / 15).into_bytes();
    let answer = post_from([127, 0, 4, 9], addr, "/api/check", &large);
    assert!(answer.starts_with("HTTP/1.1 200 OK"), "{}", &answer[..answer.len().min(300)]);
    // The bodies that gave way (or found no room) were told why, with the
    // error shape of every answer; the others still wait for their last byte.
    let mut gave_way = 0;
    for s in stalled {
        let _ = s.shutdown(Shutdown::Write);
        let answer = until_closed(s, Duration::from_secs(20));
        if answer.starts_with("HTTP/1.1 503 Service Unavailable") {
            assert!(answer.contains(r#"{"error":{"kind":"busy","message":"#), "{answer}");
            gave_way += 1;
        }
    }
    assert!(gave_way >= 1, "no stalled body gave way");
}

/// Checking is done off the threads that read requests: while six clients
/// post an 8 MB line each to check leniently (seconds of work for two
/// cores in a debug build), the page is still answered at once.
#[test]
fn the_page_is_answered_while_others_check_8_mb() {
    let addr = start(Config::default());
    let line = format!("http://a.dom/{}\n", "a".repeat(8_000_000 - 20));
    let (tx, rx) = mpsc::channel();
    for k in 0..6u8 {
        let (tx, line) = (tx.clone(), line.clone());
        std::thread::spawn(move || {
            let answer = post_from([127, 0, 5, 1 + k], addr, "/api/check?lenient=true", line.as_bytes());
            tx.send(answer[..answer.len().min(200)].to_string()).unwrap();
        });
    }
    drop(tx);
    // The posts are on their way.
    std::thread::sleep(Duration::from_millis(100));
    let mut times = Vec::new();
    let mut answers = Vec::new();
    let began = Instant::now();
    while answers.len() < 6 && began.elapsed() < Duration::from_secs(120) {
        let t = Instant::now();
        let mut s = TcpStream::connect(addr).unwrap();
        write!(s, "GET / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
        let page = until_closed(s, Duration::from_secs(30));
        assert!(page.starts_with("HTTP/1.1 200 OK"), "{page}");
        if answers.is_empty() {
            times.push(t.elapsed());
        }
        std::thread::sleep(Duration::from_millis(10));
        answers.extend(rx.try_iter());
    }
    answers.extend(rx.iter());
    for answer in &answers {
        assert!(answer.starts_with("HTTP/1.1 200 OK"), "{answer}");
    }
    times.sort();
    eprintln!("GET / while six clients check 8 MB: {} times, {times:?}", times.len());
    // On a quiet machine the checks take well under a second: at least
    // one page asked for while all six were still at work.
    assert!(!times.is_empty(), "the checks were done before the page was asked for: {times:?}");
    // The median under 100 ms, and none over a second: before, the page
    // waited for the checks, seconds.
    let median = times[times.len() / 2];
    assert!(median < Duration::from_millis(100), "GET / took {median:?} (median) during the checks");
    let worst = times[times.len() - 1];
    assert!(worst < Duration::from_secs(1), "GET / took {worst:?} during the checks");
}

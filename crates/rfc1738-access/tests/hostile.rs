//! Hostile servers, started by each test on a free loopback port: whatever
//! they send, an access keeps a bounded amount of it and ends by its
//! deadline, with an error that names the limit.

use rfc1738_access::{fetch, AccessError, Event, Options};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// A server that accepts one connection and runs `serve` on it; what
/// `serve` returns (say, the bytes it managed to send) comes back on the
/// channel.
fn server(serve: impl FnOnce(TcpStream) -> u64 + Send + 'static) -> (u16, mpsc::Receiver<u64>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        if let Ok((stream, _)) = listener.accept() {
            let _ = tx.send(serve(stream));
        }
    });
    (port, rx)
}

/// Writes `line` `count` times; the bytes written before the client
/// closed the connection.
fn flood(s: &mut TcpStream, line: &[u8], count: u64) -> u64 {
    let batch: Vec<u8> = line.repeat(1000);
    let mut sent = 0;
    for _ in 0..count / 1000 {
        if s.write_all(&batch).is_err() {
            return sent;
        }
        sent += batch.len() as u64;
    }
    sent
}

/// Sends `text` one byte at a time, `gap` apart.
fn trickle(s: &mut TcpStream, text: &[u8], gap: Duration) -> u64 {
    for (k, b) in text.iter().enumerate() {
        if s.write_all(&[*b]).is_err() {
            return k as u64;
        }
        thread::sleep(gap);
    }
    text.len() as u64
}

/// The options: `--timeout 3 --max-time 8 --max-bytes 1000000`.
fn options() -> Options {
    Options {
        io_timeout: Duration::from_secs(3),
        total_timeout: Duration::from_secs(8),
        max_bytes: 1_000_000,
        ..Options::default()
    }
}

/// What an access returned, how long it took, and the bytes of the lines
/// it received (what it kept of the protocol).
struct Outcome {
    result: Result<u64, AccessError>,
    elapsed: Duration,
    received: usize,
    written: usize,
}

fn access(url: &str, opts: &Options) -> Outcome {
    let mut received = 0;
    let mut trace = |e: &Event<'_>| {
        if let Event::Received(line) = e {
            received += line.len();
        }
    };
    let mut out = Vec::new();
    let start = Instant::now();
    let result = fetch(url, opts, &mut trace, &mut out).map(|f| f.bytes);
    Outcome { result, elapsed: start.elapsed(), received, written: out.len() }
}

fn read_request(s: &mut TcpStream) {
    let mut buf = [0u8; 4096];
    let _ = s.read(&mut buf);
}

/// A header line of 66 bytes, CR LF included.
const HEADER: &[u8] = b"X-Filler: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n";

#[test]
fn http_two_million_headers_stop_at_the_header_count() {
    assert_eq!(HEADER.len(), 66);
    let (port, sent) = server(|mut s| {
        read_request(&mut s);
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\n");
        flood(&mut s, HEADER, 2_000_000)
    });
    let o = access(&format!("http://127.0.0.1:{port}/"), &options());
    match &o.result {
        Err(AccessError::Limit { option: "max_headers", limit: 100, .. }) => {}
        other => panic!("{other:?}"),
    }
    assert!(o.elapsed < Duration::from_secs(2), "{:?}", o.elapsed);
    assert!(o.received <= 101 * HEADER.len(), "kept {} bytes", o.received);
    assert!(sent.recv().unwrap() < 2_000_000 * 66, "the client stopped reading");
}

#[test]
fn http_headers_stop_at_the_byte_limit() {
    let (port, _) = server(|mut s| {
        read_request(&mut s);
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\n");
        flood(&mut s, HEADER, 2_000_000)
    });
    let opts = Options { max_headers: usize::MAX, ..options() };
    let o = access(&format!("http://127.0.0.1:{port}/"), &opts);
    match &o.result {
        Err(e @ AccessError::Limit { option: "max_header_bytes", limit: 65536, .. }) => {
            assert!(
                e.to_string().contains("the http response head is longer than the limit of 65536 bytes"),
                "{e}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(o.received <= 64 << 10, "kept {} bytes", o.received);
}

#[test]
fn ftp_banner_of_two_million_lines_stops_at_the_reply_limit() {
    let (port, sent) = server(|mut s| {
        let _ = s.write_all(b"220-Welcome\r\n");
        flood(&mut s, b"220-a line of a banner that never ends, sixty-six bytes long....\r\n", 2_000_000)
    });
    let o = access(&format!("ftp://127.0.0.1:{port}/x"), &options());
    match &o.result {
        Err(AccessError::Limit { what: "an ftp reply", option: "max_header_bytes", .. }) => {}
        other => panic!("{other:?}"),
    }
    assert!(o.elapsed < Duration::from_secs(2), "{:?}", o.elapsed);
    assert!(o.received <= 64 << 10, "kept {} bytes", o.received);
    assert!(sent.recv().unwrap() < 2_000_000 * 66);
}

/// The deadline plus a margin for a loaded machine.
fn within_deadline(o: &Outcome, deadline: Duration) {
    assert!(matches!(o.result, Err(AccessError::Deadline { .. })), "{:?}", o.result);
    assert!(o.elapsed >= deadline - Duration::from_millis(100), "{:?}", o.elapsed);
    assert!(o.elapsed < deadline + Duration::from_millis(1500), "{:?}", o.elapsed);
}

#[test]
fn ftp_banner_one_byte_every_half_second_ends_at_the_deadline() {
    let (port, _) = server(|mut s| trickle(&mut s, &[b'2'; 100], Duration::from_millis(500)));
    let opts = Options { total_timeout: Duration::from_secs(2), ..options() };
    let o = access(&format!("ftp://127.0.0.1:{port}/x"), &opts);
    within_deadline(&o, Duration::from_secs(2));
    assert!(o.result.unwrap_err().to_string().contains("longer than its limit of 2 s"));
}

#[test]
fn http_status_line_one_byte_a_second_ends_at_the_deadline() {
    let (port, _) = server(|mut s| {
        read_request(&mut s);
        trickle(&mut s, b"HTTP/1.1 200 OK\r\n\r\n", Duration::from_secs(1))
    });
    let opts = Options { total_timeout: Duration::from_secs(2), ..options() };
    within_deadline(&access(&format!("http://127.0.0.1:{port}/"), &opts), Duration::from_secs(2));
}

#[test]
fn endless_body_stops_at_max_bytes() {
    let (port, _) = server(|mut s| {
        read_request(&mut s);
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 10000000000\r\n\r\n");
        flood(&mut s, &[b'x'; 1000], 10_000_000)
    });
    let o = access(&format!("http://127.0.0.1:{port}/"), &options());
    assert!(matches!(o.result, Err(AccessError::TooLarge { limit: 1_000_000 })), "{:?}", o.result);
    assert_eq!(o.written, 1_000_000);
}

#[test]
fn nntp_article_that_never_ends_stops_at_max_bytes() {
    let (port, _) = server(|s| {
        let mut w = s.try_clone().unwrap();
        let _ = w.write_all(b"200 hostile news\r\n");
        let mut lines = BufReader::new(s).lines();
        while let Some(Ok(line)) = lines.next() {
            let reply: &[u8] =
                if line.starts_with("GROUP") { b"211 1 1 1 g\r\n" } else { b"220 1 <a@b> article\r\n" };
            if w.write_all(reply).is_err() {
                return 0;
            }
            if line.starts_with("ARTICLE") {
                return flood(&mut w, b"a line of an article that goes on and on\r\n", 100_000_000);
            }
        }
        0
    });
    let o = access(&format!("nntp://127.0.0.1:{port}/g/1"), &options());
    assert!(matches!(o.result, Err(AccessError::TooLarge { limit: 1_000_000 })), "{:?}", o.result);
    assert!(o.written <= 1_000_000);
    assert!(o.elapsed < Duration::from_secs(3), "{:?}", o.elapsed);
}

#[test]
fn gopher_menu_line_without_an_end_stops_at_max_line() {
    let (port, sent) = server(|mut s| {
        read_request(&mut s);
        flood(&mut s, &[b'a'; 1000], 10_000_000)
    });
    let o = access(&format!("gopher://127.0.0.1:{port}/1"), &options());
    match &o.result {
        Err(AccessError::Limit { option: "max_line", limit, .. }) => assert_eq!(*limit, 16 << 10),
        other => panic!("{other:?}"),
    }
    assert_eq!(o.written, 0);
    assert!(o.elapsed < Duration::from_secs(2), "{:?}", o.elapsed);
    assert!(sent.recv().unwrap() < 10_000_000_000);
}

#[test]
fn every_limit_is_settable() {
    let (port, _) = server(|mut s| {
        read_request(&mut s);
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\n");
        flood(&mut s, HEADER, 10_000)
    });
    let opts = Options { max_headers: 3, ..options() };
    let o = access(&format!("http://127.0.0.1:{port}/"), &opts);
    assert!(
        matches!(o.result, Err(AccessError::Limit { option: "max_headers", limit: 3, .. })),
        "{:?}",
        o.result
    );
    let (port, _) = server(|mut s| {
        let _ = s.write_all(&[b'2'; 200]);
        0
    });
    let opts = Options { max_line: 100, ..options() };
    let o = access(&format!("ftp://127.0.0.1:{port}/x"), &opts);
    assert!(
        matches!(o.result, Err(AccessError::Limit { option: "max_line", limit: 100, .. })),
        "{:?}",
        o.result
    );
}

#[cfg(unix)]
#[test]
fn a_file_url_on_a_fifo_ends_at_the_deadline() {
    let dir = std::env::temp_dir().join(format!("rfc1738-fifo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    // No writer ever comes: the open itself would wait forever.
    let opts = Options { total_timeout: Duration::from_secs(1), ..options() };
    let o = access(&format!("file://{}", fifo.display()), &opts);
    assert!(matches!(o.result, Err(AccessError::Deadline { .. })), "{:?}", o.result);
    assert!(o.elapsed < Duration::from_millis(1800), "{:?}", o.elapsed);
    let _ = std::fs::remove_dir_all(&dir);
}

//! Crawls of hostile gopher servers, started by each test on a free
//! loopback port: an endless menu or body ends in a bounded, truncated
//! record and the run goes on; menu items that would break a protocol
//! line or aim at port 0 or 25 are refused and logged, never connected
//! to; a menu that links to itself is captured once. Scripted servers
//! also hold every item type to its Content-Type and bytes, and each
//! access to the wait after the one before.

use rfc1738_access::Options;
use rfc1738_warc::{read_records, Config, Crawl, ReadRecord, Scope, Summary, WarcWriter};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// What the server answers a selector: bytes, then the close; or a
/// stream it writes until the client goes away.
enum Answer {
    Bytes(Vec<u8>),
    Endless(Vec<u8>),
    Stall(Vec<u8>),
}

/// A gopher server on a free port that answers by `answer` and records
/// every request line it receives.
fn server(answer: impl Fn(&str, u16) -> Answer + Send + Sync + 'static) -> (u16, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let requests = Arc::new(Mutex::new(Vec::new()));
    let seen = requests.clone();
    let answer = Arc::new(answer);
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let (seen, answer) = (seen.clone(), answer.clone());
            thread::spawn(move || serve(stream, port, &seen, &*answer));
        }
    });
    (port, requests)
}

fn serve(stream: TcpStream, port: u16, seen: &Mutex<Vec<String>>, answer: &dyn Fn(&str, u16) -> Answer) {
    let mut line = String::new();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    if reader.read_line(&mut line).is_err() {
        return;
    }
    let selector = line.trim_end_matches(['\r', '\n']).to_string();
    seen.lock().unwrap().push(selector.clone());
    let mut s = stream;
    match answer(&selector, port) {
        Answer::Bytes(b) => drop(s.write_all(&b)),
        Answer::Endless(unit) => {
            let batch = unit.repeat(1000);
            while s.write_all(&batch).is_ok() {}
        }
        Answer::Stall(b) => {
            let _ = s.write_all(&b);
            thread::sleep(Duration::from_secs(10));
        }
    }
}

fn item(t: char, display: &str, selector: &str, port: impl std::fmt::Display) -> String {
    format!("{t}{display}\t{selector}\t127.0.0.1\t{port}\r\n")
}

fn crawl(dir: &Path, config: Config) -> (Summary, Vec<String>, Vec<ReadRecord>) {
    let mut writer = WarcWriter::new(&dir.join("h"), 1 << 30, Vec::new());
    let mut lines = Vec::new();
    let summary = Crawl::new(config, &mut writer, |l: &str| lines.push(l.to_string())).run().unwrap();
    let files = writer.finish().unwrap();
    (summary, lines, files.iter().flat_map(|f| read_records(f).unwrap()).collect())
}

fn config(seeds: Vec<String>) -> Config {
    let access = Options {
        io_timeout: Duration::from_secs(1),
        total_timeout: Duration::from_secs(5),
        max_bytes: 100_000,
        ..Options::default()
    };
    Config { seeds, wait: Duration::ZERO, scope: Scope::Any, access, ..Config::default() }
}

fn resource<'r>(records: &'r [ReadRecord], target: &str) -> &'r ReadRecord {
    records
        .iter()
        .find(|r| r.kind() == "resource" && r.target() == target)
        .unwrap_or_else(|| panic!("no resource {target}"))
}

#[test]
fn endless_menus_and_bodies_end_in_truncated_records_and_the_run_goes_on() {
    let (port, requests) = server(|sel, port| match sel {
        "/menu" => Answer::Endless(item('0', "again", "/ok", port).into_bytes()),
        "/flood" => Answer::Endless(b"x".to_vec()),
        "/stall" => Answer::Stall(b"partial".to_vec()),
        _ => Answer::Bytes(format!("{sel}\n").into_bytes()),
    });
    let g = format!("gopher://127.0.0.1:{port}");
    let dir = tempfile::tempdir().unwrap();
    let seeds =
        vec![format!("{g}/1/menu"), format!("{g}/0/flood"), format!("{g}/0/stall"), format!("{g}/0/after")];
    let start = Instant::now();
    let (summary, log, records) = crawl(dir.path(), config(seeds));
    assert!(start.elapsed() < Duration::from_secs(15), "{:?}", start.elapsed());
    let menu = resource(&records, &format!("{g}/1/menu"));
    assert_eq!(menu.get("WARC-Truncated"), Some("length"), "{log:#?}");
    assert_eq!(menu.block.len(), 100_000, "the menu is kept up to the limit, no further");
    let flood = resource(&records, &format!("{g}/0/flood"));
    assert_eq!((flood.get("WARC-Truncated"), flood.block.len()), (Some("length"), 100_000));
    let stall = resource(&records, &format!("{g}/0/stall"));
    assert_eq!((stall.get("WARC-Truncated"), stall.block.as_slice()), (Some("time"), &b"partial"[..]));
    // The run went on: the seed after them, and the item the endless
    // menu named (once, however many times it named it).
    assert_eq!(resource(&records, &format!("{g}/0/after")).block, b"/after\n");
    assert_eq!(resource(&records, &format!("{g}/0/ok")).block, b"/ok\n");
    assert_eq!(requests.lock().unwrap().iter().filter(|r| *r == "/ok").count(), 1);
    assert_eq!(summary.truncated, 3, "{log:#?}");
    assert!(log.iter().any(|l| l.starts_with(&format!("truncated {g}/0/stall (time)"))), "{log:#?}");
}

#[test]
fn items_that_break_a_line_or_aim_at_port_0_or_25_are_refused_and_logged() {
    let (port, requests) = server(|sel, port| match sel {
        "" => Answer::Bytes(
            [
                item('0', "carriage return", "/a\rQUIT", port),
                item('0', "carriage return", "/a\rQUIT", port),
                item('0', "port zero", "/b", 0),
                item('0', "mail server", "/c", 25),
                item('0', "line feed", "/d%0AQUIT", port),
                item('0', "fine", "/e", port),
                ".\r\n".to_string(),
            ]
            .concat()
            .into_bytes(),
        ),
        _ => Answer::Bytes(format!("{sel}\n").into_bytes()),
    });
    let g = format!("gopher://127.0.0.1:{port}");
    let dir = tempfile::tempdir().unwrap();
    let (summary, log, records) = crawl(dir.path(), config(vec![format!("{g}/")]));
    let refused: Vec<&String> = log.iter().filter(|l| l.starts_with("refused")).collect();
    assert_eq!(refused.len(), 3, "{log:#?}");
    assert!(refused.iter().any(|l| l.contains("\"carriage return\"")), "{refused:#?}");
    assert!(
        refused.iter().any(|l| l.contains("gopher://127.0.0.1:0/0/b") && l.contains("port 0")),
        "{refused:#?}"
    );
    assert!(
        refused.iter().any(|l| l.contains("gopher://127.0.0.1:25/0/c") && l.contains("§6")),
        "{refused:#?}"
    );
    assert_eq!(summary.refused, 3);
    // A "%0A" written in a selector is three characters, sent as such.
    let mut got: Vec<String> = requests.lock().unwrap().clone();
    got.sort_unstable();
    assert_eq!(got, ["", "/d%0AQUIT", "/e", "robots.txt"]);
    let targets: Vec<&str> =
        records.iter().filter(|r| r.kind() == "resource").map(ReadRecord::target).collect();
    assert_eq!(targets.len(), 4, "{targets:?}");
    // The refusals are in the run's log record too.
    let run_log = String::from_utf8_lossy(&records.last().unwrap().block).into_owned();
    assert!(run_log.contains("gopher://127.0.0.1:25/0/c"), "{run_log}");
}

#[test]
fn a_self_linking_menu_is_captured_once() {
    let (port, requests) = server(|sel, port| match sel {
        "/self" => Answer::Bytes(
            [
                item('1', "me", "/self", port),
                item('1', "me again", "/self", format!("0{port}")),
                item('0', "same bytes", "/twin-a", port),
                item('0', "same bytes", "/twin-b", port),
                ".\r\n".to_string(),
            ]
            .concat()
            .into_bytes(),
        ),
        _ => Answer::Bytes(b"twin\n".to_vec()),
    });
    let g = format!("gopher://127.0.0.1:{port}");
    let dir = tempfile::tempdir().unwrap();
    // The seed is written another way: %73 is "s", an unreserved
    // character, which the normal form decodes.
    let (summary, log, records) = crawl(dir.path(), config(vec![format!("{g}/1/%73elf")]));
    assert_eq!(requests.lock().unwrap().iter().filter(|r| *r == "/self").count(), 1, "{log:#?}");
    let menus =
        records.iter().filter(|r| r.target() == format!("{g}/1/self") && r.kind() == "resource").count();
    assert_eq!(menus, 1);
    // Two items with the same bytes: a resource and a revisit of it.
    let a = resource(&records, &format!("{g}/0/twin-a"));
    let b = records.iter().find(|r| r.target() == format!("{g}/0/twin-b")).unwrap();
    assert_eq!(b.kind(), "revisit");
    assert_eq!(b.get("WARC-Refers-To"), a.get("WARC-Record-ID"));
    assert_eq!(b.get("WARC-Refers-To-Target-URI"), Some(a.target()));
    assert_eq!(b.get("WARC-Payload-Digest"), a.get("WARC-Payload-Digest"));
    assert_eq!(
        b.get("WARC-Profile"),
        Some("http://netpreserve.org/warc/1.1/revisit/identical-payload-digest")
    );
    assert!(b.block.is_empty());
    assert_eq!((summary.captured, summary.revisits), (3, 1));
}

#[test]
fn robots_rules_of_a_gopher_server_are_obeyed_unless_told_not_to() {
    let (port, requests) = server(|sel, port| match sel {
        "robots.txt" => Answer::Bytes(b"User-agent: *\nDisallow: /private\nCrawl-delay: 0\n".to_vec()),
        "" => Answer::Bytes(
            [item('0', "secret", "/private/x", port), item('0', "open", "/public", port)]
                .concat()
                .into_bytes(),
        ),
        _ => Answer::Bytes(format!("{sel}\n").into_bytes()),
    });
    let g = format!("gopher://127.0.0.1:{port}");
    let dir = tempfile::tempdir().unwrap();
    let (summary, log, _) = crawl(dir.path(), config(vec![format!("{g}/")]));
    assert!(!requests.lock().unwrap().iter().any(|r| r == "/private/x"), "{log:#?}");
    assert!(requests.lock().unwrap().iter().any(|r| r == "/public"));
    assert!(log.iter().any(|l| l == &format!("disallowed by robots rules {g}/0/private/x")), "{log:#?}");
    assert_eq!(
        requests.lock().unwrap().iter().filter(|r| *r == "robots.txt").count(),
        1,
        "read once per server"
    );
    assert_eq!(summary.captured, 2);
    let dir = tempfile::tempdir().unwrap();
    let (summary, _, _) = crawl(dir.path(), Config { robots: false, ..config(vec![format!("{g}/")]) });
    assert_eq!(summary.captured, 3);
    assert!(requests.lock().unwrap().iter().any(|r| r == "/private/x"));
}

#[test]
fn the_item_byte_and_time_limits_of_a_run_stop_it_and_say_why() {
    let (port, _) = server(|sel, _| match sel {
        s if s.starts_with("/flood") => Answer::Endless(b"y".to_vec()),
        s if s.starts_with("/stall") => Answer::Stall(b"slow".to_vec()),
        _ => Answer::Bytes(format!("{sel}\n").into_bytes()),
    });
    let g = format!("gopher://127.0.0.1:{port}");
    let seeds = |name: &str| (1..=4).map(|i| format!("{g}/0/{name}{i}")).collect::<Vec<_>>();

    let dir = tempfile::tempdir().unwrap();
    let (summary, log, _) = crawl(dir.path(), Config { max_items: 2, ..config(seeds("file")) });
    assert_eq!(summary.captured, 2);
    assert!(summary.stopped.as_deref().is_some_and(|s| s.contains("--max-items")), "{log:#?}");
    assert!(
        log.iter().any(|l| l.starts_with("stopped:") && l.contains("2 queued urls not accessed")),
        "{log:#?}"
    );

    // 100 000 bytes an access, 150 000 in all: the second access is cut
    // at what is left, the third never made.
    let dir = tempfile::tempdir().unwrap();
    let (summary, log, records) =
        crawl(dir.path(), Config { max_total_bytes: 150_000, ..config(seeds("flood")) });
    let sizes: Vec<usize> = records
        .iter()
        .filter(|r| r.kind() == "resource" && r.target().contains("/flood"))
        .map(|r| r.block.len())
        .collect();
    assert_eq!(sizes, [100_000, 50_000], "{log:#?}");
    assert!(summary.stopped.as_deref().is_some_and(|s| s.contains("--max-total-bytes")), "{log:#?}");

    // Two seconds for the run: the servers that stall are cut by it.
    let dir = tempfile::tempdir().unwrap();
    let start = Instant::now();
    let mut cfg = Config { max_run_time: Duration::from_secs(2), ..config(seeds("stall")) };
    cfg.access.io_timeout = Duration::from_secs(30);
    let (summary, log, _) = crawl(dir.path(), cfg);
    assert!(start.elapsed() < Duration::from_secs(4), "{:?} {log:#?}", start.elapsed());
    assert!(summary.stopped.as_deref().is_some_and(|s| s.contains("--max-run-time")), "{log:#?}");
    assert!(summary.truncated >= 1);
}

#[test]
fn each_access_to_a_server_waits_after_the_last_one() {
    // Each connection's time of arrival, in order.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let arrivals = Arc::new(Mutex::new(Vec::new()));
    let seen = arrivals.clone();
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            seen.lock().unwrap().push(Instant::now());
            let mut line = String::new();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let _ = reader.read_line(&mut line);
            let menu: String = (1..=3).map(|i| item('0', "a file", &format!("/f{i}"), port)).collect();
            let answer = if line.trim_end().is_empty() { menu } else { "a file\r\n".to_string() };
            let _ = (&stream).write_all(answer.as_bytes());
        }
    });
    let wait = Duration::from_millis(300);
    let dir = tempfile::tempdir().unwrap();
    let cfg = Config { wait, ..config(vec![format!("gopher://127.0.0.1:{port}/")]) };
    let (summary, log, _) = crawl(dir.path(), cfg);
    assert_eq!(summary.captured, 4, "{log:#?}");
    let arrivals = arrivals.lock().unwrap();
    // robots.txt, the menu, its three items: one connection at a time,
    // each at least `wait` after the one before.
    // The times are taken when the server's thread runs, which a loaded
    // machine may delay for one arrival and not the next: a gap may read
    // up to that delay short (297 ms for 300 once, in CI).
    let jitter = Duration::from_millis(30);
    assert_eq!(arrivals.len(), 5);
    for pair in arrivals.windows(2) {
        assert!(pair[1] - pair[0] >= wait - jitter, "{:?} between two accesses", pair[1] - pair[0]);
    }
}

#[test]
fn every_item_type_is_archived_as_sent_with_its_content_type() {
    let binary: Vec<u8> = (0..=255u8).chain(*b"\r\n.\r\n").collect();
    let served = binary.clone();
    let (port, _) = server(move |sel, port| match sel {
        "" => Answer::Bytes(
            [
                item('0', "text", "/text", port),
                item('9', "binary", "/bin", port),
                item('g', "gif", "/gif", port),
                item('I', "image", "/img", port),
                item('5', "archive", "/zip", port),
                item('s', "sound", "/snd", port),
                item('M', "mail", "/mail", port),
                item('4', "binhex", "/hqx", port),
                item('6', "uuencoded", "/uu", port),
                item('h', "page", "/page", port),
            ]
            .concat()
            .into_bytes(),
        ),
        // A text item's lines as sent: a `.` line in the middle is kept.
        "/text" => Answer::Bytes(b"one\r\n.\r\ntwo\r\n.\r\n".to_vec()),
        // An h item's absolute link is followed; its relative one is not.
        "/page" => Answer::Bytes(
            format!("<a href=\"gopher://127.0.0.1:{port}/0/linked\">x</a><a href=rel.html>y</a>")
                .into_bytes(),
        ),
        _ => Answer::Bytes(served.clone()),
    });
    let g = format!("gopher://127.0.0.1:{port}");
    let dir = tempfile::tempdir().unwrap();
    let (summary, log, records) = crawl(dir.path(), config(vec![format!("{g}/")]));
    assert_eq!(summary.failed + summary.refused, 0, "{log:#?}");
    let text = resource(&records, &format!("{g}/0/text"));
    assert_eq!(
        (text.block.as_slice(), text.get("Content-Type")),
        (&b"one\r\n.\r\ntwo\r\n.\r\n"[..], Some("text/plain"))
    );
    let types = [
        ("9/bin", "application/octet-stream"),
        ("g/gif", "image/gif"),
        ("I/img", "application/octet-stream"),
        ("5/zip", "application/octet-stream"),
        ("s/snd", "application/octet-stream"),
        ("M/mail", "message/rfc822"),
        ("4/hqx", "application/mac-binhex40"),
        ("6/uu", "text/x-uuencode"),
    ];
    // The first of the identical payloads is a resource, the others revisits.
    let first = resource(&records, &format!("{g}/9/bin"));
    assert_eq!(first.block, binary, "byte for byte");
    for (path, kind) in types {
        let target = format!("{g}/{path}");
        let r = records.iter().find(|r| r.target() == target && r.kind() != "metadata").unwrap();
        assert_eq!(r.get("Content-Type"), Some(kind), "{target}");
        assert_eq!(r.get("WARC-Payload-Digest"), first.get("WARC-Payload-Digest"), "{target}");
    }
    assert_eq!(resource(&records, &format!("{g}/h/page")).get("Content-Type"), Some("text/html"));
    assert!(records.iter().any(|r| r.target() == format!("{g}/0/linked")), "{log:#?}");
    assert!(!log.iter().any(|l| l.contains("rel.html")), "{log:#?}");
}

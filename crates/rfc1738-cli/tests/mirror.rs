//! `rfc1738 mirror`, the real binary, against a gopher server of the
//! test's own: killed with SIGKILL in the middle of a large item, then
//! `--resume`d; every file whole, no URL captured twice.

use assert_cmd::cargo::CommandCargoExt;
use rfc1738_warc::read_records;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::{Duration, Instant};

const BIG: usize = 4 << 20;

/// A gopher server: a menu of eleven items, one of them large and slow
/// until `fast` is set; says on `started` when the large one begins.
fn server(fast: Arc<AtomicBool>, started: mpsc::Sender<()>) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let (fast, started) = (fast.clone(), started.clone());
            thread::spawn(move || {
                let mut line = String::new();
                if BufReader::new(&stream).read_line(&mut line).is_err() {
                    return;
                }
                let mut s = &stream;
                match line.trim_end() {
                    "" => {
                        let mut menu = String::new();
                        for i in 0..10 {
                            if i == 5 {
                                menu.push_str(&format!("9Large\t/big\t127.0.0.1\t{port}\r\n"));
                            }
                            menu.push_str(&format!("0File {i}\t/f{i}\t127.0.0.1\t{port}\r\n"));
                        }
                        let _ = s.write_all(menu.as_bytes());
                    }
                    "/big" => {
                        let _ = started.send(());
                        let chunk = vec![b'z'; 64 << 10];
                        for _ in 0..BIG / chunk.len() {
                            if s.write_all(&chunk).is_err() {
                                return;
                            }
                            if !fast.load(Ordering::SeqCst) {
                                thread::sleep(Duration::from_millis(100));
                            }
                        }
                    }
                    other => drop(s.write_all(format!("the file {other}\n").as_bytes())),
                }
            });
        }
    });
    port
}

fn rfc1738() -> Command {
    Command::cargo_bin("rfc1738").unwrap()
}

#[test]
fn a_run_killed_in_a_large_item_resumes_and_captures_nothing_twice() {
    let dir = tempfile::tempdir().unwrap();
    let fast = Arc::new(AtomicBool::new(false));
    let (tx, started) = mpsc::channel();
    let port = server(fast.clone(), tx);
    let seed = format!("gopher://127.0.0.1:{port}/");
    let name = dir.path().join("m");
    let args = |resume: bool| {
        let mut c = rfc1738();
        c.args(["mirror", "--wait", "0", "--warc"]).arg(&name).arg(&seed);
        if resume {
            c.arg("--resume");
        }
        c.stdout(Stdio::piped()).stderr(Stdio::piped());
        c
    };
    let mut child = args(false).spawn().unwrap();
    started.recv_timeout(Duration::from_secs(20)).expect("the large item was asked for");
    thread::sleep(Duration::from_millis(300));
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert!(dir.path().join("m-00000.warc.gz.open").exists(), "a killed run leaves its file open");
    // A new run under the same name is refused: it would overwrite.
    let again = args(false).output().unwrap();
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("--resume"), "{again:?}");

    fast.store(true, Ordering::SeqCst);
    let start = Instant::now();
    let out = args(true).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(start.elapsed() < Duration::from_secs(30));
    assert!(stderr.contains("resumed: 6 queued urls"), "{stderr}");
    assert!(!dir.path().join("m-00000.warc.gz.open").exists());

    let files: Vec<_> = String::from_utf8_lossy(&out.stdout).lines().map(std::path::PathBuf::from).collect();
    assert_eq!(files, [dir.path().join("m-00000.warc.gz")]);
    let records = read_records(&files[0]).expect("every record whole, every digest right");
    let mut captured: BTreeMap<String, usize> = BTreeMap::new();
    for r in records.iter().filter(|r| matches!(r.kind(), "resource" | "revisit")) {
        *captured.entry(r.target().to_string()).or_default() += 1;
    }
    captured.remove("urn:X-rfc1738:log");
    assert_eq!(captured.len(), 12, "{captured:#?}");
    assert!(captured.values().all(|&n| n == 1), "a URL captured twice: {captured:#?}");
    let big = records.iter().find(|r| r.target().ends_with("/9/big")).unwrap();
    assert_eq!((big.block.len(), big.get("WARC-Truncated")), (BIG, None));
    // warcio agrees, when the project's scripts installed it.
    let warcio = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/warc-tools/bin/warcio");
    if warcio.exists() {
        let check = Command::new(warcio).arg("check").args(&files).output().unwrap();
        assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stdout));
    }
}

#[test]
fn a_name_whose_file_exists_is_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("x-00000.warc.gz"), b"an earlier archive").unwrap();
    let out = rfc1738()
        .args(["mirror", "--warc"])
        .arg(dir.path().join("x"))
        .arg("gopher://127.0.0.1:9999/")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("x-00000.warc.gz exists"), "{out:?}");
    assert!(!dir.path().join("x.journal").exists(), "no journal left behind");
    assert_eq!(std::fs::read(dir.path().join("x-00000.warc.gz")).unwrap(), b"an earlier archive");
}

#[test]
fn plan_prints_the_checked_frontier_without_connecting() {
    let out = rfc1738()
        .args([
            "mirror",
            "--plan",
            "gopher://127.0.0.1:9/1x",
            "gopher://h.example:25/",
            "ftp://h.example/pub/",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "a refused seed");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("refuse gopher://127.0.0.1:9/1x: refused: port 9"), "{text}");
    assert!(lines[1].starts_with("refuse gopher://h.example:25/: refused: port 25"), "{text}");
    assert_eq!(lines[2], "queue ftp://h.example/pub/");
}

#[test]
fn a_status_line_shows_on_a_terminal_and_never_in_a_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let (tx, _started) = mpsc::channel();
    let port = server(Arc::new(AtomicBool::new(true)), tx);
    let seed = format!("gopher://127.0.0.1:{port}/0/f1");
    let bin = assert_cmd::cargo::cargo_bin("rfc1738");
    let piped = Command::new(&bin)
        .args(["mirror", "--wait", "0", "--warc"])
        .arg(dir.path().join("piped"))
        .arg(&seed)
        .output()
        .unwrap();
    assert_eq!(piped.status.code(), Some(0));
    assert!(!piped.stderr.contains(&0x1b), "{}", String::from_utf8_lossy(&piped.stderr));
    // util-linux's script(1) runs the command on a terminal of its own.
    let line =
        format!("{} mirror --wait 0 --warc {} {seed}", bin.display(), dir.path().join("tty").display());
    let Ok(tty) = Command::new("script").args(["-qec", &line, "/dev/null"]).output() else {
        eprintln!("skipped: no script(1) to run the command on a terminal");
        return;
    };
    let text = String::from_utf8_lossy(&tty.stdout);
    assert!(tty.status.success(), "{text}");
    assert!(text.contains("\r\x1b[K1 done, 0 queued, 13 bytes"), "{text:?}");
}

#[test]
fn cdxj_and_wacz_are_written_at_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let (tx, _started) = mpsc::channel();
    let port = server(Arc::new(AtomicBool::new(true)), tx);
    let out = rfc1738()
        .args(["mirror", "--wait", "0", "--warc"])
        .arg(dir.path().join("w"))
        .arg("--cdxj")
        .arg(dir.path().join("w.cdxj"))
        .arg("--wacz")
        .arg(dir.path().join("w.wacz"))
        .arg(format!("gopher://127.0.0.1:{port}/0/f1"))
        .arg(format!("gopher://127.0.0.1:{port}/0/f2"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let index = std::fs::read_to_string(dir.path().join("w.cdxj")).unwrap();
    let keys: Vec<&str> = index.lines().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(
        keys,
        [
            "gopher://(1,0,0,127:".to_string() + &port.to_string() + ")/0/f1",
            format!("gopher://(1,0,0,127:{port})/0/f2"),
            "urn:x-rfc1738:log".to_string()
        ]
    );
    let wacz = std::fs::read(dir.path().join("w.wacz")).unwrap();
    assert!(wacz.starts_with(b"PK\x03\x04"));
    let text = String::from_utf8_lossy(&wacz);
    assert!(text.contains("archive/w-00000.warc.gz") && text.contains("\"wacz_version\": \"1.1.1\""));
    assert!(
        text.contains(&format!("\"url\": \"gopher://127.0.0.1:{port}/0/f2\"")),
        "the seeds are the pages"
    );
}

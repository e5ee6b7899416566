//! Flags out of range, closed pipes and huge inputs: a clear usage error
//! or a bounded answer, never a wrap, a panic or memory that follows the
//! input.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_rfc1738");

fn rfc1738(args: &[&str]) -> Output {
    Command::new(BIN).args(args).stdin(Stdio::null()).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn numeric_flags_are_range_checked() {
    let huge = "18446744073709551615";
    let cases: &[&[&str]] = &[
        &["fetch", "--max-time", huge, "http://127.0.0.1:1/"],
        &["fetch", "--timeout", huge, "http://127.0.0.1:1/"],
        &["fetch", "--max-line", huge, "http://127.0.0.1:1/"],
        &["fetch", "--max-header-bytes", "0", "http://127.0.0.1:1/"],
        &["fetch", "--max-redirects=-1", "http://127.0.0.1:1/"],
        &["parse", "--max-len", huge, "http://a.dom/"],
        &["normalize", "--max-len", huge, "http://a.dom/"],
        &["lint", "--max-len", huge],
        &["check", "--max-len", huge],
        &["check", "--jobs", "0"],
        // A thread each: a million of them took minutes and gigabytes
        // before the first line was checked.
        &["check", "--jobs", "1000000"],
        &["resolve", "--max-len", huge, "http://a.dom/", "b"],
        &["extract", "--max-len", "0"],
        &["set", "--max-len", huge, "http://a.dom/", "host=b.dom"],
    ];
    for args in cases {
        let out = rfc1738(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out.stderr));
        let err = text(&out.stderr);
        assert!(err.contains("is not from") || err.contains("is not a whole number"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// Runs `rfc1738 ARGS` with its stdout a pipe already closed by the reader;
/// the exit status and stderr.
#[cfg(unix)]
fn into_closed_pipe(args: &[&str]) -> (Option<i32>, String) {
    let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    // `true` exits at once; the sleep makes sure the pipe is closed before
    // the first write.
    let script = format!("(sleep 0.3; exec '{BIN}' {}) | true; exit ${{PIPESTATUS[0]}}", quoted.join(" "));
    let out = Command::new("bash").args(["-c", &script]).stdin(Stdio::null()).output().unwrap();
    (out.status.code(), text(&out.stderr))
}

#[cfg(unix)]
#[test]
fn a_closed_pipe_is_no_panic() {
    let cases: &[&[&str]] = &[
        &["fetch", "--plan", "ftp://myname@host.dom//etc/motd"],
        &["completions", "zsh"],
        &["completions", "fish"],
        &["completions", "powershell"],
        &["completions", "bash"],
        &["man"],
        &["examples"],
        &["parse", "--json", "http://a.dom/"],
    ];
    for args in cases {
        let (code, err) = into_closed_pipe(args);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(code, Some(0), "{args:?}: {err}");
    }
}

/// Peak resident memory of a finished child, in kB, read from its
/// `/proc/PID/status` while it still exists (it is reaped after).
#[cfg(target_os = "linux")]
fn run_with_peak(
    args: &[&str],
    input: impl FnOnce(&mut std::process::ChildStdin) + Send + 'static,
) -> (Output, u64) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        input(&mut stdin);
    });
    let pid = child.id();
    let mut peak = 0;
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut { stdout }, &mut v).unwrap();
        v
    });
    loop {
        if let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) {
            if let Some(kb) = status.lines().find_map(|l| l.strip_prefix("VmHWM:")) {
                peak = peak.max(kb.trim().trim_end_matches(" kB").trim().parse().unwrap_or(0));
            }
        }
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    feeder.join().unwrap();
    let stdout = reader.join().unwrap();
    let mut stderr = Vec::new();
    std::io::Read::read_to_end(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    let status = child.wait().unwrap();
    (Output { status, stdout, stderr }, peak)
}

#[cfg(target_os = "linux")]
#[test]
fn extract_on_a_huge_line_stays_bounded() {
    // 200 MB on one line, no newline: a URL at the start, then letters.
    let (out, peak_kb) = run_with_peak(&["extract"], |stdin| {
        let _ = stdin.write_all(b"see http://a.dom/x and ");
        let block = vec![b'a'; 1 << 20];
        for _ in 0..200 {
            if stdin.write_all(&block).is_err() {
                return;
            }
        }
    });
    assert_eq!(text(&out.stdout), "http://a.dom/x\n");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("longer than the limit of 1048576 bytes (--max-len)"),
        "{}",
        text(&out.stderr)
    );
    assert!(peak_kb < 64 * 1024, "peak RSS {peak_kb} kB");
}

#[cfg(target_os = "linux")]
#[test]
fn lint_sarif_writes_each_result_as_found() {
    // 20 000 findings: held as values until the end, they took some
    // 130 MB; written as found, the log costs what one line does.
    let (out, peak_kb) = run_with_peak(&["lint", "--format", "sarif"], |stdin| {
        let _ = stdin.write_all("http://a b/\n".repeat(20_000).as_bytes());
    });
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(log["runs"][0]["results"].as_array().unwrap().len(), 20_000);
    assert_eq!(log["runs"][0]["tool"]["driver"]["rules"][0]["id"], "unsafe");
    assert!(peak_kb < 32 * 1024, "peak RSS {peak_kb} kB");
}

#[test]
fn a_diagnostic_shows_a_window_of_a_long_input() {
    let url = format!("http://h.dom/{}|{}\n", "a".repeat(1_000_000), "b".repeat(1_000_000));
    let mut child = Command::new(BIN)
        .args(["check", "--max-len", "4000000"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(url.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    // `check` writes its report on stdout, the summary included.
    let err = text(&out.stdout) + &text(&out.stderr);
    assert!(err.len() < 2000, "{} bytes of diagnostics", err.len());
    assert!(err.contains("<stdin>:1:1000014: "), "{err}");
}

#[cfg(target_os = "linux")]
#[test]
fn a_lenient_megabyte_of_spaces_stays_small() {
    let (out, peak_kb) = run_with_peak(&["parse", "--lenient", "--json", "--max-len", "2000000"], |stdin| {
        let _ = stdin.write_all(format!("http://h.dom/a{}b\n", " ".repeat(1 << 20)).as_bytes());
    });
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json = text(&out.stdout);
    // The URL in its three fields (input, url_path, http.path), and one
    // warning for the run.
    assert!(json.len() < 3 * (1 << 20) + 4096, "{} bytes of JSON", json.len());
    assert_eq!(json.matches("\"unsafe-char\"").count(), 1, "{}", &json[json.len() - 400..]);
    assert!(peak_kb < 48 * 1024, "peak RSS {peak_kb} kB");
}

#[cfg(target_os = "linux")]
#[test]
fn a_huge_gopher_menu_is_listed_in_bounded_memory() {
    use std::net::TcpListener;
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let Ok((mut s, _)) = listener.accept() else { return };
        let _ = std::io::Read::read(&mut s, &mut [0u8; 512]);
        let line = b"0A file of the menu\t/some/selector/of/the/item.txt\tgopher.example\t70\r\n";
        let block = line.repeat(10_000);
        // About 35 MB of menu.
        for _ in 0..50 {
            if s.write_all(&block).is_err() {
                return;
            }
        }
        let _ = s.write_all(b".\r\n");
    });
    let url = format!("gopher://127.0.0.1:{port}/1");
    let (out, peak_kb) = run_with_peak(&["fetch", &url], |_| {});
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(out.stdout.iter().filter(|&&b| b == b'\n').count(), 500_000);
    assert!(peak_kb < 16 * 1024, "peak RSS {peak_kb} kB");
    eprintln!("peak RSS {peak_kb} kB");
}

#[test]
fn the_column_of_a_diagnostic_is_that_of_the_whole_line() {
    // The diagnostic shows a window of a long line; its column still
    // counts from the start of the line, as the offset does.
    let line = format!("http://h.dom/{} x\n", "a".repeat(900));
    let run = |args: &[&str]| {
        let line = line.clone();
        let (out, _) = run_with_peak(args, move |stdin| stdin.write_all(line.as_bytes()).unwrap());
        text(&out.stdout) + &text(&out.stderr)
    };
    for args in [
        &["parse"][..],
        &["normalize"],
        &["set", "-", "host=b.dom"],
        &["check", "--keep-lines"],
        &["check", "--lenient"],
        &["normalize", "--lenient"],
    ] {
        let all = run(args);
        assert!(all.contains("<stdin>:1:914: "), "{args:?}: {all}");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn check_json_on_a_line_past_the_default_limit_holds_little_more_than_it() {
    // 12 MB on one line, allowed by --max-len: the line and its record,
    // no third copy (it was three times the line).
    const LINE: usize = 12 << 20;
    let (out, peak_kb) = run_with_peak(&["check", "--json", "--max-len", "16000000"], |stdin| {
        let mut line = b"http://h.dom/".to_vec();
        line.resize(LINE, b'a');
        line.extend_from_slice(b" b\n");
        let _ = stdin.write_all(&line);
    });
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(record["input"].as_str().unwrap().len(), LINE + 2);
    assert_eq!(record["error"]["kind"], "unsafe");
    // About 10 MB for the program itself, and twice the line.
    let limit_kb = 10 * 1024 + 5 * (LINE as u64 / 1024) / 2;
    assert!(peak_kb < limit_kb, "peak RSS {peak_kb} kB, limit {limit_kb} kB");
}

/// Runs `args` (the path of a FIFO last) while a thread writes `lines`
/// lines into the FIFO: its status and stdout, or `None` when it did not
/// end within 20 seconds.
#[cfg(unix)]
fn through_a_fifo(args: &[&str], lines: usize) -> Option<(Option<i32>, String)> {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("urls");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let path = fifo.clone();
    std::thread::spawn(move || {
        let mut w = std::fs::OpenOptions::new().write(true).open(path).unwrap();
        let _ = w.write_all("http://a.dom/x\n".repeat(lines).as_bytes());
    });
    let mut child = Command::new(BIN)
        .args(args)
        .arg(&fifo)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let out = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || std::io::read_to_string(out).unwrap());
    let start = std::time::Instant::now();
    while start.elapsed() < std::time::Duration::from_secs(20) {
        if let Some(status) = child.try_wait().unwrap() {
            return Some((status.code(), reader.join().unwrap()));
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // Unblock a writer still waiting for a reader.
    drop(std::fs::OpenOptions::new().read(true).custom_flags_nonblock(&fifo));
    None
}

/// Opens `path` for reading without waiting for a writer.
#[cfg(unix)]
trait NonBlock {
    fn custom_flags_nonblock(&mut self, path: &std::path::Path) -> std::io::Result<std::fs::File>;
}

#[cfg(unix)]
impl NonBlock for std::fs::OpenOptions {
    fn custom_flags_nonblock(&mut self, path: &std::path::Path) -> std::io::Result<std::fs::File> {
        use std::os::unix::fs::OpenOptionsExt;
        self.custom_flags(0o4000).open(path)
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_named_as_a_file_is_opened_once_and_read_whole() {
    // A FIFO opened twice loses what its writer wrote to the first
    // opening, and the second waits for a writer that never comes.
    let cases: &[&[&str]] = &[
        &["check", "--json"],
        &["check", "--decompress", "never", "--json"],
        &["lint", "--keep-lines"],
        &["extract"],
        &["parse", "--get", "{host}", "--url-file"],
        &["normalize", "--url-file"],
    ];
    // One line: written and closed at once; ten thousand: more than a
    // pipe holds (64 KiB), so the writer waits for the reader.
    for lines in [1, 10_000] {
        for args in cases {
            let Some((code, out)) = through_a_fifo(args, lines) else { panic!("{args:?}: no end in 20 s") };
            assert_eq!(code, Some(0), "{args:?}");
            assert_eq!(out.lines().count(), lines, "{args:?}");
        }
    }
}

/// Files whose size says 0 (`/proc`) are read to their end, as through
/// stdin: each of their lines is checked.
#[cfg(target_os = "linux")]
#[test]
fn a_file_whose_size_says_nothing_is_read() {
    let out = rfc1738(&["check", "--quiet", "/proc/self/mountinfo"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(!err.contains("checked 0 URLs"), "{err}");
    let piped = Command::new(BIN)
        .args(["check", "--quiet"])
        .stdin(std::fs::File::open("/proc/self/mountinfo").unwrap())
        .output()
        .unwrap();
    // The same count of lines either way (the mounts do not change).
    let count = |s: &str| s.lines().next().unwrap_or("").split(':').next().unwrap_or("").to_string();
    assert_eq!(count(&err), count(&text(&piped.stderr)));
}

/// A log cut by another program while `check` reads it (logrotate's
/// copytruncate) ends the run with a message naming the file, the
/// summary of the lines read, and exit 2: no SIGBUS, no silent success.
#[test]
fn a_file_cut_while_it_is_read_is_said_to_be_cut() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("access.log");
    let line = b"http://a.dom/some/path/of/a/usual/length\n";
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        for _ in 0..(64 << 20) / line.len() {
            f.write_all(line).unwrap();
        }
    }
    // JSON records are slow to write, and the reader stays a few blocks
    // ahead of the writer: the cut comes while the file is being read.
    let child = Command::new(BIN)
        .args(["check", "--json", "--jobs", "1", path.to_str().unwrap()])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    std::fs::File::options().write(true).open(&path).unwrap().set_len(1 << 20).unwrap();
    let out = child.wait_with_output().unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("access.log") && err.contains("shrank from"), "{err}");
    assert!(err.contains("checked "), "no summary: {err}");
}

/// `check --json` makes about ten bytes of output a byte of short lines;
/// the blocks waiting to be written in order are bounded in bytes, so
/// more jobs do not mean more memory.
#[cfg(target_os = "linux")]
#[test]
fn check_json_memory_does_not_grow_with_jobs() {
    let (out, peak_kb) = run_with_peak(&["check", "--json", "--jobs", "32"], |stdin| {
        let lines = b"http://a.b/\nftp://x/\n".repeat(1 << 16);
        for _ in 0..12 {
            if stdin.write_all(&lines).is_err() {
                return;
            }
        }
    });
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(out.stdout.iter().filter(|&&b| b == b'\n').count(), 12 << 17);
    // Twelve blocks of 1.3 MB make 16 MB of output each: all in flight
    // at once (as before the bound) is 200 MB and more.
    assert!(peak_kb < 150 * 1024, "peak RSS {peak_kb} kB");
}

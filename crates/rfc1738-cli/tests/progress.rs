//! Progress on a terminal, drawn on the pseudo-terminal of `script`
//! (util-linux): a compressed file's bar counts its compressed bytes
//! against its size, a pipe gets a spinner with lines and bytes, and
//! nothing is drawn with --quiet or over results on the terminal.

use std::io::Write;
use std::path::Path;
use std::process::Command;

/// What the terminal shows while `command` runs under `script`, in `dir`;
/// `None` (and a note) where `script` is missing.
fn on_terminal(dir: &Path, command: &str) -> Option<String> {
    let bin = env!("CARGO_BIN_EXE_rfc1738");
    let command = command.replace("rfc1738", bin);
    let o = match Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .current_dir(dir)
        .env("TERM", "xterm")
        .output()
    {
        Ok(o) => o,
        Err(e) => {
            eprintln!("skipped: no `script` to give the command a terminal ({e})");
            return None;
        }
    };
    Some(String::from_utf8_lossy(&o.stdout).replace('\r', "\n"))
}

fn files(dir: &Path) -> u64 {
    let text: String = (0..400).map(|i| format!("http://h{i}.dom/a\n")).collect();
    std::fs::write(dir.join("u.txt"), &text).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(text.as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    assert!(gz.len() < 1024 && text.len() > 1024, "sizes shown in bytes, apart: {}", gz.len());
    std::fs::write(dir.join("u.txt.gz"), &gz).unwrap();
    gz.len() as u64
}

#[test]
fn a_compressed_file_counts_its_compressed_bytes_against_its_size() {
    let dir = tempfile::tempdir().unwrap();
    let size = files(dir.path());
    for command in [
        "rfc1738 check u.txt.gz > /dev/null",
        "rfc1738 lint u.txt.gz > /dev/null",
        "rfc1738 normalize < u.txt.gz > /dev/null",
    ] {
        let Some(shown) = on_terminal(dir.path(), command) else { return };
        assert!(shown.contains(&format!("/{size} B")), "{command}: {shown}");
        // It ends full, not empty.
        assert!(shown.contains(&format!("{size} B/{size} B")) || shown.contains("[="), "{command}: {shown}");
    }
}

#[test]
fn a_pipe_gets_a_spinner_with_lines_and_bytes() {
    let dir = tempfile::tempdir().unwrap();
    files(dir.path());
    for command in [
        "cat u.txt | rfc1738 lint > /dev/null",
        "cat u.txt | rfc1738 normalize > /dev/null",
        "cat u.txt | rfc1738 check > /dev/null",
    ] {
        let Some(shown) = on_terminal(dir.path(), command) else { return };
        assert!(shown.contains("<stdin>: ") && shown.contains(" lines, "), "{command}: {shown}");
        assert!(!shown.contains("0 B/0 B"), "{command}: {shown}");
    }
}

#[test]
fn nothing_is_drawn_when_quiet_or_over_results_on_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    files(dir.path());
    for command in [
        "rfc1738 check -q u.txt.gz",
        "rfc1738 lint -q u.txt.gz",
        "rfc1738 normalize < u.txt",
        "rfc1738 check u.txt.gz",
    ] {
        let Some(shown) = on_terminal(dir.path(), command) else { return };
        assert!(!shown.contains(" B/") && !shown.contains(" lines, "), "{command}: {shown}");
    }
}

#[test]
fn nothing_is_drawn_between_lines_a_person_types() {
    use std::process::Stdio;
    let bin = env!("CARGO_BIN_EXE_rfc1738");
    let command = format!("{bin} check > /dev/null");
    let child = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("TERM", "xterm")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        eprintln!("skipped: no `script` to give the command a terminal");
        return;
    };
    let mut stdin = child.stdin.take().unwrap();
    // Typed: a line, a pause, then Ctrl-D.
    std::thread::sleep(std::time::Duration::from_millis(300));
    stdin.write_all(b"http://a.dom/\n").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    stdin.write_all(b"\x04").unwrap();
    drop(stdin);
    let o = child.wait_with_output().unwrap();
    let shown = String::from_utf8_lossy(&o.stdout);
    assert!(shown.contains("http://a.dom/"), "the terminal echoed the line: {shown}");
    assert!(!shown.contains(" B/") && !shown.contains(" B ") && !shown.contains("lines,"), "{shown}");
}

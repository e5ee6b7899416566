//! Runs the real `rfc1738` binary: exit codes, JSON, stdin, diagnostics.

use assert_cmd::Command;
use serde_json::Value;

fn rfc1738() -> Command {
    Command::cargo_bin("rfc1738").unwrap()
}

fn stdout_of(cmd: &mut Command) -> String {
    String::from_utf8(cmd.output().unwrap().stdout).unwrap()
}

fn json_lines(out: &str) -> Vec<Value> {
    out.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn no_arguments_explains_the_rfc_examples() {
    let out = rfc1738().assert().success().get_output().stdout.clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("CWD /etc\n"), "{text}");
    assert!(text.contains("NLST doc"));
    assert!(text.contains("search<TAB>rfc1738<CR><LF>"));
    assert!(text.contains("error[user-not-allowed]: this scheme allows no user name or password (in login)"));
}

#[test]
fn parse_json_follows_the_contract_for_every_scheme() {
    let urls = [
        ("ftp://myname@host.dom/%2Fetc/motd", "ftp"),
        ("http://h.dom/p?q", "http"),
        ("gopher://h.dom/7s%09q", "gopher"),
        ("mailto:a@b.dom", "mailto"),
        ("news:comp.lang.c", "news"),
        ("nntp://h.dom/comp.lang.c/12", "nntp"),
        ("telnet://u:p@h.dom/", "telnet"),
        ("wais://h.dom/db?s", "wais"),
        ("file:///etc/motd", "file"),
        ("prospero://h.dom//a;f=v", "prospero"),
        ("z39.50:x", "other"),
    ];
    let mut cmd = rfc1738();
    cmd.arg("parse").arg("--json").args(urls.iter().map(|u| u.0));
    let objs = json_lines(&stdout_of(&mut cmd));
    assert_eq!(objs.len(), urls.len());
    for (obj, (url, kind)) in objs.iter().zip(urls) {
        for key in ["input", "valid", "error", "scheme", "kind", "fragment", "warnings"] {
            assert!(obj.get(key).is_some(), "{url}: {key}");
        }
        assert_eq!(obj["input"], url);
        assert_eq!(obj["valid"], true, "{url}");
        assert_eq!(obj["kind"], kind);
        assert!(obj[kind].is_object(), "{url}: the {kind} object");
        let ip = !matches!(kind, "mailto" | "news") && !url.starts_with("z39");
        assert_eq!(obj.get("effective_port").is_some(), ip, "{url}");
    }
    let ftp = &objs[0]["ftp"];
    assert_eq!(ftp["commands"], serde_json::json!(["CWD /etc", "RETR motd"]));
    assert_eq!(ftp["cwd"], serde_json::json!(["/etc"]));
    assert_eq!(objs[0]["user"], "myname");
    assert_eq!(objs[0]["password"], Value::Null);
    assert_eq!(objs[2]["gopher"]["request"], "s\tq\r\n");
    assert_eq!(objs[3]["mailto"]["address"], "a@b.dom");
    assert_eq!(objs[5]["nntp"]["article"], 12);
    assert_eq!(objs[7]["wais"]["form"], "index");
    assert_eq!(objs[8]["file"]["is_local"], true);
    assert_eq!(objs[9]["prospero"]["fields"], serde_json::json!([["f", "v"]]));
    assert_eq!(objs[10]["other"]["reserved"], true);
}

#[test]
fn empty_and_absent_user_differ_in_json() {
    let mut cmd = rfc1738();
    cmd.args(["parse", "--json", "ftp://@host.com/", "ftp://host.com/", "ftp://foo:@host.com/"]);
    let objs = json_lines(&stdout_of(&mut cmd));
    assert_eq!((&objs[0]["user"], &objs[0]["password"]), (&Value::from(""), &Value::Null));
    assert_eq!((&objs[1]["user"], &objs[1]["password"]), (&Value::Null, &Value::Null));
    assert_eq!((&objs[2]["user"], &objs[2]["password"]), (&Value::from("foo"), &Value::from("")));
}

#[test]
fn parse_reads_stdin_and_reports_errors_with_a_caret() {
    let out = rfc1738()
        .arg("parse")
        .write_stdin("http://h.dom/ok\nhttp://h.dom/a b\n")
        .assert()
        .code(1)
        .get_output()
        .clone();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stdout.starts_with("http://h.dom/ok\n"));
    assert_eq!(
        stderr,
        "rfc1738: <stdin>:2:15: error[unsafe]: unsafe character must be encoded (in hpath)\n  http://h.dom/a b\n                ^\n\
         rfc1738: 1 of 2 URLs invalid\n",
        "each invalid line reported, and at the end how many"
    );
}

#[test]
fn parse_json_reports_errors_in_order() {
    let mut cmd = rfc1738();
    cmd.arg("parse").arg("--json").write_stdin("http://u@h.dom/\nnews:a\n");
    let objs = json_lines(&stdout_of(&mut cmd));
    assert_eq!(objs[0]["valid"], false);
    assert_eq!(
        objs[0]["error"],
        serde_json::json!({"offset": 7, "kind": "user-not-allowed", "rule": "login",
                           "message": "this scheme allows no user name or password", "column": 8})
    );
    assert_eq!(objs[1]["valid"], true);
}

#[test]
fn check_counts_failures_by_scheme_and_exits_1() {
    let out = rfc1738()
        .arg("check")
        .write_stdin(&b"http://a.dom/\nftp://b.dom/x;type=q\n\xff\nhttp://c.dom/\n"[..])
        .assert()
        .code(1)
        .get_output()
        .clone();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout
            .starts_with("rfc1738: <stdin>:2:20: error[invalid-typecode]: expected \";type=\" and one of a, i, d (in ftptype)\n"),
        "{stdout}"
    );
    assert!(stdout.contains("rfc1738: <stdin>:3:1: error["));
    assert!(stdout.contains("checked 4 URLs: 2 valid, 2 invalid"));
    assert!(stdout.contains("  http                           2           0"));
}

#[test]
fn check_exits_0_when_all_valid_and_2_on_a_missing_file() {
    rfc1738().arg("check").write_stdin("http://a.dom/\nnews:*\n").assert().code(0);
    rfc1738().args(["check", "/nonexistent/urls.txt"]).assert().code(2);
    rfc1738().args(["parse", "--no-such-flag"]).assert().code(2);
}

#[test]
fn check_json_writes_one_object_per_line_in_order() {
    let input: String = (0..20_000)
        .map(|i| if i % 7 == 0 { format!("bad {i}\n") } else { format!("http://h{i}.dom/\n") })
        .collect();
    let out = rfc1738()
        .args(["check", "--json", "--jobs", "2"])
        .write_stdin(input)
        .assert()
        .code(1)
        .get_output()
        .clone();
    let objs = json_lines(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(objs.len(), 20_000);
    for (i, o) in objs.iter().enumerate() {
        assert_eq!(o["line"], i + 1);
        assert_eq!(o["valid"], i % 7 != 0, "line {}", i + 1);
    }
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("checked 20000 URLs: 17142 valid, 2858 invalid"), "{stderr}");
}

/// Runs `rfc1738 ARGS` reading a pipe and writes the `lines` into it one
/// at a time, as `tail -f access.log | rfc1738 ...` does: each line's
/// answer must come before the next line is written, let alone before the
/// input ends. `answer(line, output)` checks the output line. Returns the
/// exit code.
fn answers_each_line_as_it_arrives(
    args: &[&str],
    lines: &[&str],
    answer: impl Fn(&str, &str),
) -> Option<i32> {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    use std::sync::mpsc;
    use std::time::Duration;
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("rfc1738"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let (tx, rx) = mpsc::channel();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    std::thread::spawn(move || {
        for line in stdout.lines() {
            let _ = tx.send(line.unwrap());
        }
    });
    for line in lines {
        stdin.write_all(format!("{line}\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
        let out = rx.recv_timeout(Duration::from_secs(20)).unwrap_or_else(|_| {
            panic!("rfc1738 {}: no answer for {line:?} before the input ends", args.join(" "))
        });
        answer(line, &out);
    }
    drop(stdin);
    child.wait().unwrap().code()
}

/// The JSON object `out` answers `line` with; its `input` must be the line.
fn json_answer(line: &str, out: &str) -> Value {
    let obj: Value = serde_json::from_str(out).unwrap();
    assert_eq!(obj["input"], line);
    obj
}

#[test]
fn check_answers_each_line_as_it_arrives_on_a_pipe() {
    // The answer for a line comes before the input ends, whatever the block size.
    let lines = ["http://a.dom/", "news:a b", "ftp://h.dom/f"];
    let code = answers_each_line_as_it_arrives(&["check", "--json"], &lines, |line, out| {
        assert_eq!(json_answer(line, out)["valid"], line != "news:a b");
    });
    assert_eq!(code, Some(1));
}

#[test]
fn extract_answers_each_line_as_it_arrives_on_a_pipe() {
    // A log has no blank lines: the URL of a line comes before the next line
    // is written; a wrapper open at the end of a line, with the line that
    // closes it.
    let chunks = ["GET http://a.dom/x 200", "see <URL:http://b.dom/\n  y> here", "ftp://h.dom/f;type=x"];
    let code = answers_each_line_as_it_arrives(&["extract"], &chunks, |chunk, out| {
        let url = match chunk.as_bytes()[0] {
            b'G' => "http://a.dom/x",
            b's' => "http://b.dom/y",
            _ => "ftp://h.dom/f;type=x",
        };
        assert_eq!(out, url);
    });
    assert_eq!(code, Some(1));
}

#[test]
fn parse_normalize_and_lint_answer_each_line_as_it_arrives_on_a_pipe() {
    let lines = ["http://a.dom/", "news:a b", "ftp://h.dom/f"];
    let code = answers_each_line_as_it_arrives(&["parse", "--json"], &lines, |line, out| {
        json_answer(line, out);
    });
    assert_eq!(code, Some(1));
    let code = answers_each_line_as_it_arrives(
        &["normalize"],
        &["HTTP://a.dom/", "ftp://h.dom/%7e"],
        |line, out| {
            assert_eq!(out, line.replace("HTTP", "http").replace("%7e", "%7E"));
        },
    );
    assert_eq!(code, Some(0));
    let code = answers_each_line_as_it_arrives(
        &["lint", "--json"],
        &["http://u@a.dom/", "news:a b"],
        |line, out| {
            json_answer(line, out);
        },
    );
    assert_eq!(code, Some(1));
}

#[test]
fn check_writes_the_same_whatever_the_number_of_jobs() {
    // Several batches, invalid lines in each, more schemes than the summary
    // gives rows to (the first 32 seen get one), upper-case names counted
    // with their lower-case ones, and a line that is not UTF-8.
    let mut input = Vec::new();
    for i in 0..40_000u32 {
        let line = match i % 11 {
            0 => format!("s{}:x\n", i % 50),
            1 => format!("HTTP://h{i}.dom/a b\n"),
            2 => "http://h.dom/\u{e9}\n".to_string(),
            _ => format!("http://h{i}.dom/p?q={i}\n"),
        };
        input.extend_from_slice(line.as_bytes());
        if i == 20_000 {
            input.extend_from_slice(b"http://h.dom/\xff\n");
        }
    }
    let run = |jobs: &str| {
        let out = rfc1738().args(["check", "--jobs", jobs]).write_stdin(input.clone()).output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        out.stdout
    };
    let one = run("1");
    let text = String::from_utf8_lossy(&one);
    assert!(text.contains("checked 40001 URLs"), "{}", &text[text.len() - 2000..]);
    assert!(text.contains("(other schemes)"));
    assert!(text.contains("<stdin>:20002:"), "the line that is not UTF-8 is reported");
    assert_eq!(run("2"), one);
    assert_eq!(run("5"), one);
}

#[test]
fn lines_past_the_limit_are_invalid_not_held() {
    let long = format!("http://h.dom/{}\nhttp://ok.dom/\n", "a".repeat(5000));
    let out = rfc1738()
        .args(["check", "--json", "--max-len", "1000"])
        .write_stdin(long)
        .assert()
        .code(1)
        .get_output()
        .clone();
    let objs = json_lines(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(objs[0]["error"]["kind"], "too-long");
    assert_eq!(objs[1]["valid"], true);
}

#[test]
fn explain_gives_the_ftp_plan_and_the_gopher_request() {
    let mut cmd = rfc1738();
    cmd.args(["explain", "ftp://myname@host.dom//etc/motd", "gopher://h.dom/0x%09%09+"]);
    let out = stdout_of(&mut cmd);
    assert!(out.contains("  USER myname\n  PASS <ask the user>"), "{out}");
    assert!(out.contains("  CWD   (an empty segment"), "{out}");
    assert!(out.contains("  CWD etc\n  RETR motd"));
    assert!(out.contains("send x<TAB><TAB>+<CR><LF>"));
    rfc1738().args(["explain", "http://u@h/"]).assert().code(1);
}

/// `check` reads strict URLs with the bulk validator: every line's
/// verdict and error are the full parser's, with the vector code or the
/// portable one (`RFC1738_PORTABLE=1`), whatever the lines' lengths and
/// places in the blocks.
#[test]
fn check_gives_the_parsers_verdicts_with_and_without_the_vector_code() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut input = std::fs::read(root.join("benches/data/rfc1738-schemes.txt")).unwrap();
    input.extend(std::fs::read(root.join("crates/rfc1738/tests/bulk-sample.txt")).unwrap());
    input.extend_from_slice(b"http://h.dom/a\r\nhttp://h.dom/%4\r\n\r\nlast:line");
    let lines: Vec<&[u8]> =
        input.split(|&c| c == b'\n').map(|l| l.strip_suffix(b"\r").unwrap_or(l)).collect();
    let run = |portable: &str| {
        let out = rfc1738()
            .args(["check", "--json"])
            .env("RFC1738_PORTABLE", portable)
            .write_stdin(input.clone())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        out.stdout
    };
    let vector = run("0");
    assert_eq!(run("1"), vector);
    // An empty line holds no URL: an empty line answers it.
    let text = String::from_utf8(vector).unwrap();
    let objs: Vec<Value> = text
        .lines()
        .map(|l| if l.is_empty() { Value::Null } else { serde_json::from_str(l).unwrap() })
        .collect();
    assert_eq!(objs.len(), lines.len());
    for (obj, line) in objs.iter().zip(&lines) {
        if line.is_empty() {
            assert_eq!(obj, &Value::Null);
            continue;
        }
        let expected = rfc1738::validate_bytes(line);
        assert_eq!(obj["valid"], expected.is_ok(), "{obj}");
        if let Err(e) = expected {
            assert_eq!(obj["error"]["offset"], e.offset(), "{obj}");
        }
    }
}

/// With `--quiet` the reader does not count lines ahead of the workers:
/// the summary's examples still name the right line, in every block.
#[test]
fn check_quiet_names_the_same_lines_as_the_full_report() {
    let mut input = Vec::new();
    for i in 0..120_000u32 {
        let line = match i {
            70_001 => "http://h.dom/a b\n".to_string(),
            90_002 => "ftp://h.dom/a;type=x\n".to_string(),
            119_999 => "no scheme\n".to_string(),
            _ => format!("https://host{i}.example/some/path?q={i}\n"),
        };
        input.extend_from_slice(line.as_bytes());
    }
    assert!(input.len() > 4 << 20, "several blocks");
    let run = |args: &[&str]| {
        let out = rfc1738().arg("check").args(args).write_stdin(input.clone()).output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        String::from_utf8(out.stdout).unwrap()
    };
    let full = run(&[]);
    let summary = &full[full.find("checked ").unwrap()..];
    for jobs in ["1", "3"] {
        let quiet = run(&["--quiet", "--jobs", jobs]);
        assert_eq!(quiet, summary);
    }
    assert!(summary.contains("<stdin>:70002:"), "{summary}");
    assert!(summary.contains("<stdin>:90003:"), "{summary}");
    assert!(summary.contains("<stdin>:120000:"), "{summary}");
}

/// A fresh directory named after `tag` holding `a.txt` and `b.txt`: the
/// directory, and the names of `a.txt`, `b.txt`, a missing file and the
/// directory itself (the two that cannot be read as files of lines).
fn readable_and_not(tag: &str, a_text: &str, b_text: &str) -> (std::path::PathBuf, [String; 4]) {
    let dir = std::env::temp_dir().join(format!("rfc1738-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (a, b) = (dir.join("a.txt"), dir.join("b.txt"));
    std::fs::write(&a, a_text).unwrap();
    std::fs::write(&b, b_text).unwrap();
    let missing = dir.join("missing.txt");
    let names = [&a, &b, &missing, &dir].map(|p| p.to_str().unwrap().to_string());
    (dir, names)
}

#[test]
fn a_file_that_cannot_be_read_is_reported_and_the_next_is_read() {
    // As ripgrep does: each unreadable file (missing, a directory) is named
    // on stderr, the others are read, and the exit status is 2.
    let (dir, [a, b, missing, dir_s]) =
        readable_and_not("unreadable", "http://a.dom/ x\n", "http://b.dom/ y\n");
    for cmd in ["check", "lint", "extract"] {
        let out = rfc1738().args([cmd, &a, &missing, &dir_s, &b]).output().unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert_eq!(out.status.code(), Some(2), "{cmd}: {stdout}{stderr}");
        assert!(stderr.contains(&format!("rfc1738: {missing}: ")), "{cmd}: {stderr}");
        assert!(stderr.contains(&format!("rfc1738: {dir_s}: ")), "{cmd}: {stderr}");
        let both = stdout.to_string() + &stderr;
        for (file, url) in [(&a, "http://a.dom/"), (&b, "http://b.dom/")] {
            assert!(both.contains(url) || both.contains(&format!("{file}:1:")), "{cmd}: {both}");
        }
    }
    let out = rfc1738().args(["check", "--quiet", &a, &missing, &b]).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("checked 2 URLs: 0 valid, 2 invalid"), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_url_file_that_cannot_be_read_is_reported_and_the_next_is_read() {
    // The subcommands that read --url-file do as `check` does above: each
    // unreadable file named on stderr, the others read, exit status 2.
    let (dir, [a, b, missing, dir_s]) =
        readable_and_not("unreadable-url-file", "http://a.dom/\n", "http://b.dom/\n");
    let files = ["--url-file", &a, "--url-file", &missing, "--url-file", &dir_s, "--url-file", &b];
    let cases: &[&[&str]] = &[
        &["parse"],
        &["parse", "--json"],
        &["normalize"],
        &["explain"],
        &["set", "port=1"],
        &["resolve", "http://c.dom/"],
    ];
    for args in cases {
        let out = rfc1738().args(*args).args(files).output().unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stdout}{stderr}");
        assert!(stderr.contains(&format!("rfc1738: {missing}: ")), "{args:?}: {stderr}");
        assert!(stderr.contains(&format!("rfc1738: {dir_s}: ")), "{args:?}: {stderr}");
        let (at_a, at_b) = (stdout.find("a.dom"), stdout.find("b.dom"));
        assert!(at_a.is_some() && at_a < at_b, "{args:?}: {stdout}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unreadable_stdin_is_named() {
    // `rfc1738 parse < some/dir`: the read error says which input.
    let dir = std::env::temp_dir();
    let cases: &[&[&str]] = &[
        &["parse"],
        &["normalize"],
        &["set", "-", "port=1"],
        &["resolve", "http://a.dom/"],
        &["check"],
        &["lint"],
        &["extract"],
    ];
    for args in cases {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_rfc1738"))
            .args(*args)
            .stdin(std::fs::File::open(&dir).unwrap())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("rfc1738: <stdin>: "), "{args:?}: {err}");
    }
}

#[test]
fn set_with_a_part_no_url_has_is_a_usage_error() {
    // A part of another scheme is the URL's error (exit 1); a name no
    // scheme has is the command line's (exit 2), like a change without `=`.
    for (args, code, says) in [
        (&["set", "http://a.dom/", "nosuch=1"][..], 2, "nosuch"),
        (&["set", "http://a.dom/", "noequals"][..], 2, "noequals"),
        (&["set", "http://a.dom/", "ftp.name=x"][..], 1, "ftp.name"),
    ] {
        let out = rfc1738().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// A file named on the command line is mapped into memory, stdin is read:
/// the same lines, verdicts and summary either way, over several blocks,
/// with a line past `--max-len` and a last line without a line break.
#[test]
fn check_says_the_same_of_a_mapped_file_as_of_stdin() {
    let mut input = b"\xEF\xBB\xBF".to_vec();
    for i in 0..60_000u32 {
        let line = match i % 9 {
            0 => format!("http://h{i}.dom/a b\r\n"),
            1 if i % 20_000 == 1 => format!("http://h.dom/{}\n", "x".repeat(3000)),
            2 => format!("NEWS:comp.{i}\n"),
            _ => format!("https://host{i}.example/some/path?q={i}\n"),
        };
        input.extend_from_slice(line.as_bytes());
    }
    input.extend_from_slice(b"ftp://last.dom/x;type=q");
    let path = std::env::temp_dir().join(format!("rfc1738-mapped-{}.txt", std::process::id()));
    std::fs::write(&path, &input).unwrap();
    let path_s = path.to_str().unwrap();
    for args in [&["--max-len", "2000"][..], &["--quiet", "--jobs", "3"][..]] {
        let run = |from_file: bool| {
            let mut cmd = rfc1738();
            cmd.arg("check").args(args);
            if from_file {
                cmd.arg(path_s);
            } else {
                cmd.write_stdin(input.clone());
            }
            let out = cmd.output().unwrap();
            assert_eq!(out.status.code(), Some(1));
            String::from_utf8(out.stdout).unwrap()
        };
        let (mapped, read) = (run(true), run(false));
        assert!(mapped.contains("checked 60001 URLs"), "{}", &mapped[mapped.len().saturating_sub(2000)..]);
        assert_eq!(mapped.replace(path_s, "<stdin>"), read, "{args:?}");
    }
    std::fs::remove_file(&path).unwrap();
}

/// A byte-order mark is dropped by every reader of text, even one a pipe
/// delivers a byte at a time: `extract`'s offsets count from after it,
/// and no U+FEFF is left before the first URL.
#[test]
fn extract_drops_a_byte_order_mark_split_across_reads() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    use std::time::Duration;
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("rfc1738"))
        .args(["extract", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for piece in [&b"\xEF"[..], b"\xBB", b"\xBFhttp://h.dom/x\n"] {
        stdin.write_all(piece).unwrap();
        stdin.flush().unwrap();
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let o: Value = serde_json::from_str(stdout.lines().next().expect("one URL")).unwrap();
    assert_eq!(
        (o["url"].as_str(), o["start"].as_u64(), o["column"].as_u64()),
        (Some("http://h.dom/x"), Some(0), Some(1)),
        "{o}"
    );
}

/// `--decompress` belongs to the subcommands that read lines of text, and
/// only to them: `fetch`, `serve`, `man` and `completions` read none.
#[test]
fn only_the_subcommands_that_read_text_take_decompress() {
    for sub in
        ["parse", "check", "explain", "extract", "normalize", "same", "lint", "resolve", "set", "relative"]
    {
        let out = rfc1738().args([sub, "--help"]).output().unwrap();
        assert!(String::from_utf8_lossy(&out.stdout).contains("--decompress <WHEN>"), "{sub}");
    }
    for sub in ["fetch", "serve", "man", "completions"] {
        let out = rfc1738().args([sub, "--help"]).output().unwrap();
        assert!(!String::from_utf8_lossy(&out.stdout).contains("--decompress"), "{sub}");
    }
    let out = rfc1738().args(["fetch", "--decompress", "never", "http://h.dom/"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// Errors of files say what the shell says: no "(os error N)", and a
/// directory that is a file is "Not a directory".
#[test]
fn file_errors_read_as_the_shell_says_them() {
    let out = rfc1738().args(["man", "--dir", "/dev/null"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end(), "rfc1738: /dev/null: Not a directory");
    let out = rfc1738().args(["check", "/nonexistent-dir/x"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(err.contains("/nonexistent-dir/x: No such file or directory"), "{err}");
    assert!(!err.contains("os error"), "{err}");
}

#[test]
fn set_answers_the_shared_table_of_cases() {
    // tests/fixtures/set-cases.jsonl: the cases the Python package's
    // `Url.replace` answers alike (crates/rfc1738-py/tests/test_relative.py).
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/set-cases.jsonl");
    let cases = std::fs::read_to_string(path).unwrap();
    let mut n = 0;
    for line in cases.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).unwrap();
        let url = case["url"].as_str().unwrap();
        let changes: Vec<&str> =
            case["set"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
        let out = rfc1738().arg("set").arg(url).args(&changes).output().unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        if let Some(expect) = case["expect"].as_str() {
            assert_eq!(out.status.code(), Some(0), "{line}: {stderr}");
            assert_eq!(stdout.trim_end(), expect, "{line}");
        } else {
            let part = case["error"].as_str().unwrap();
            assert_eq!(out.status.code(), Some(1), "{line}: {stdout}");
            assert!(stderr.contains(part), "{line}: {stderr}");
        }
        n += 1;
    }
    assert!(n >= 20, "{n} cases");
}

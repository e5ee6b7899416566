//! Runs the real binary: `rfc1738 extract` and `rfc1738 check --input-format clf`.

use assert_cmd::Command;
use serde_json::{json, Value};
use std::io::Write;

fn rfc1738() -> Command {
    Command::cargo_bin("rfc1738").unwrap()
}

fn json_lines(out: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(out).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

const APPENDIX: &str = "   Examples:

      Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;
      type=d> but you can probably pick it up from <URL:ftp://ds.in
      ternic.net/rfc>. Note the warning in <URL:http://ds.internic.
      net/instructions/overview.html#WARNING>.
";

#[test]
fn extract_the_appendix_example_from_stdin() {
    let out = rfc1738().arg("extract").write_stdin(APPENDIX).assert().success().get_output().clone();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "ftp://info.cern.ch/pub/www/doc;type=d\n\
         ftp://ds.internic.net/rfc\n\
         http://ds.internic.net/instructions/overview.html#WARNING\n"
    );
    assert!(out.stderr.is_empty());
}

#[test]
fn extract_json_follows_the_contract() {
    let text = "Mail mailto:joe@a.org.\n\n<URL:ftp://a.org/internet-\n  drafts> or <http://a.org/~joe>\n";
    let out = rfc1738().args(["extract", "--json"]).write_stdin(text).assert().code(1).get_output().clone();
    let objs = json_lines(&out.stdout);
    assert_eq!(objs.len(), 3);
    for obj in &objs {
        for key in ["url", "start", "end", "form", "hyphen_break", "valid", "scheme"] {
            assert!(obj.get(key).is_some(), "{obj}: {key}");
        }
    }
    assert_eq!(
        objs[0],
        json!({"url": "mailto:joe@a.org", "start": 5, "end": 21, "form": "bare", "hyphen_break": null,
               "valid": true, "scheme": "mailto", "error": null, "warnings": [], "file": "<stdin>", "line": 1,
               "column": 6})
    );
    assert_eq!(objs[1]["url"], "ftp://a.org/internet-drafts");
    assert_eq!(objs[1]["hyphen_break"], "ftp://a.org/internetdrafts");
    assert_eq!(
        (&objs[1]["form"], &objs[1]["start"], &objs[1]["end"]),
        (&json!("url-prefix"), &json!(24), &json!(60))
    );
    assert_eq!(&text[24..60], "<URL:ftp://a.org/internet-\n  drafts>");
    assert_eq!(objs[1]["line"], 3);
    assert_eq!((&objs[2]["form"], &objs[2]["valid"]), (&json!("angle"), &json!(false)));
    assert_eq!(objs[2]["error"]["kind"], "unsafe");
    // With --json, stderr stays quiet.
    assert!(out.stderr.is_empty());
}

#[test]
fn extract_reports_invalid_urls_at_their_place_in_the_text() {
    let text = "line one\nsee <URL:http://a.org/\n   ~joe/> now\n";
    let out = rfc1738().arg("extract").write_stdin(text).assert().code(1).get_output().clone();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "http://a.org/~joe/\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("rfc1738: <stdin>:3:4: error[unsafe]: "), "{err}");
    assert!(err.contains("  http://a.org/~joe/\n"), "{err}");
}

#[test]
fn extract_files_offsets_lines_and_bytes_that_are_not_utf8() {
    let dir = std::env::temp_dir().join(format!("rfc1738-extract-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let a = dir.join("a.txt");
    let b = dir.join("b.txt");
    std::fs::File::create(&a).unwrap().write_all(b"x\n\n\xff http://a.org/\xe9t\xe9 news:b.c\n").unwrap();
    std::fs::write(&b, "para\n\n\npara <URL:gopher://a.org/\n 1>\n").unwrap();
    let out = rfc1738().args(["extract", "--json"]).arg(&a).arg(&b).assert().success().get_output().clone();
    let got: Vec<_> = json_lines(&out.stdout)
        .iter()
        .map(|o| (o["url"].as_str().unwrap().to_owned(), o["start"].clone(), o["line"].clone()))
        .collect();
    assert_eq!(
        got,
        [
            ("http://a.org/".to_owned(), json!(5), json!(3)),
            ("news:b.c".to_owned(), json!(22), json!(3)),
            ("gopher://a.org/1".to_owned(), json!(12), json!(4)),
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn extract_wrapped_only_and_errors() {
    let out = rfc1738()
        .args(["extract", "--wrapped-only"])
        .write_stdin("http://a.org/ <URL:http://b.org/> <news:c.d>")
        .assert()
        .success()
        .get_output()
        .clone();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "http://b.org/\nnews:c.d\n");
    rfc1738().args(["extract", "/nonexistent/file"]).assert().code(2);
    // No URL at all is not an error.
    rfc1738().arg("extract").write_stdin("3:2 C:\\ a ratio of 16:9").assert().success().stdout("");
}

const LOG: &str = r#"127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326
10.0.0.2 - - [10/Oct/2000:13:55:37 -0700] "GET /~joe/index.html HTTP/1.0" 200 512
10.0.0.3 - - [10/Oct/2000:13:55:38 -0700] "-" 408 0
10.0.0.4 - - [10/Oct/2000:13:55:39 -0700] "GET http://a.org/x?y HTTP/1.0" 200 5 "http://ref.org/" "Mozilla/4.0"
"#;

#[test]
fn check_clf_validates_the_request_url_of_each_line() {
    let out = rfc1738()
        .args(["check", "--input-format", "clf"])
        .write_stdin(LOG)
        .assert()
        .code(1)
        .get_output()
        .clone();
    let text = String::from_utf8_lossy(&out.stdout);
    // Line 2: the "~" at byte 48 of the line, column 49.
    assert!(
        text.contains("rfc1738: <stdin>:2:49: error[unsafe]: unsafe character must be encoded"),
        "{text}"
    );
    assert!(
        text.contains("<stdin>:3:44: error[") && text.contains("the server logged no request line"),
        "{text}"
    );
    assert!(text.contains("checked 4 log lines: 2 valid, 2 invalid"), "{text}");

    let out = rfc1738()
        .args(["check", "--input-format", "clf", "--json"])
        .write_stdin(LOG)
        .assert()
        .code(1)
        .get_output()
        .clone();
    let objs = json_lines(&out.stdout);
    let valid: Vec<_> = objs.iter().map(|o| (o["line"].clone(), o["valid"].clone())).collect();
    assert_eq!(
        valid,
        [
            (json!(1), json!(true)),
            (json!(2), json!(false)),
            (json!(3), json!(false)),
            (json!(4), json!(true))
        ]
    );
    assert_eq!(objs[1]["error"]["offset"], 48);
    assert_eq!(objs[2]["error"]["kind"], "clf-no-request-line");
}

#[test]
fn extract_goes_on_after_a_line_too_long_to_search() {
    // A long line with no space in its first --max-len bytes keeps none
    // of them; the lines after it are still searched.
    let input = "http://a.dom/aaaaaaaaaaaaaaaaaaaa\nsee http://b.dom/\n";
    let out = rfc1738().args(["extract", "--max-len", "20"]).write_stdin(input).assert().code(1);
    let out = out.get_output();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "http://b.dom/\n");
    // The line has 33 bytes, none of them searched (its `\n` is no byte of it).
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("<stdin>:1: ") && err.contains("; 33 bytes of it were not searched"), "{err}");
    let out =
        rfc1738().args(["extract", "--keep-lines", "--max-len", "20"]).write_stdin(input).assert().code(1);
    assert_eq!(String::from_utf8_lossy(&out.get_output().stdout), "\nhttp://b.dom/\n");
}

#[test]
fn extract_reads_a_line_of_max_len_bytes_ended_by_crlf_whole() {
    // `--max-len` counts the line's bytes, not its `\r\n`, as every
    // command that reads lines does.
    let out = rfc1738()
        .args(["extract", "--keep-lines", "--max-len", "20"])
        .write_stdin("http://a.dom/aaaaaaa\r\nhttp://a.dom/aaaaaaaa\r\nhttp://c.dom/\r\n")
        .assert()
        .code(1);
    let out = out.get_output();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "http://a.dom/aaaaaaa\n\nhttp://c.dom/\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("<stdin>:2: ") && !err.contains("<stdin>:1: "), "{err}");
}

#[test]
fn extract_keep_lines_writes_a_line_for_a_long_line_after_others() {
    // A line cut at --max-len with nothing of it kept still has its
    // (empty) output line when lines come before it in the same read.
    let input = "http://x.dom/\nhttp://a.dom/aaaaaaaaaaaaaaaaaaaa\nhttp://b.dom/\n";
    let out =
        rfc1738().args(["extract", "--keep-lines", "--max-len", "20"]).write_stdin(input).assert().code(1);
    assert_eq!(String::from_utf8_lossy(&out.get_output().stdout), "http://x.dom/\n\nhttp://b.dom/\n");
}

#[test]
fn quiet_prints_nothing_and_the_status_says_whether_every_url_found_is_valid() {
    for (text, code) in
        [("see <URL:http://h.dom/a>\n", 0), ("see <URL:http://h.dom/a%zz>\n", 1), ("no URL\n", 0)]
    {
        for flag in ["-q", "--quiet"] {
            let out = rfc1738().args(["extract", flag]).write_stdin(text).output().unwrap();
            assert_eq!(out.status.code(), Some(code), "{text}");
            assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{flag} {text}: {out:?}");
        }
    }
    // An unreadable file is still said: quiet silences results, not failures.
    let out = rfc1738().args(["extract", "-q", "/nonexistent/file"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(!out.stderr.is_empty());
}

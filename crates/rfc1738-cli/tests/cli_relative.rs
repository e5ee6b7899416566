//! Runs the real binary: `resolve` and `relative` (RFC 1808).

use assert_cmd::Command;
use serde_json::Value;

fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    let out = Command::cargo_bin("rfc1738").unwrap().args(args).write_stdin(stdin).output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn resolve_arguments_and_errors() {
    let (code, out, err) = run(&["resolve", "http://a/b/c/d;p?q#f", "../g", ";x", "a b"], "");
    assert_eq!((code, out.as_str()), (1, "http://a/b/g\nhttp://a/b/c/d;x\n"));
    assert!(err.contains("cannot resolve \"a b\": at offset 1 of the reference"), "{err}");
    assert!(err.contains("  a b\n   ^"), "{err}");
}

#[test]
fn resolve_reads_stdin_and_writes_json() {
    let (code, out, _) = run(&["resolve", "--json", "ftp://h.dom/pub/dir/f;type=a"], "../x\nhttp:g\n");
    assert_eq!(code, 1);
    let lines: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[0]["url"], "ftp://h.dom/pub/x");
    assert_eq!(lines[1]["resolved"], "http:g");
    assert_eq!(lines[1]["offset"], 5);
}

#[test]
fn resolve_refuses_a_non_hierarchical_base() {
    let (code, out, err) = run(&["resolve", "news:comp.lang", "x"], "");
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.contains("news URLs have no hierarchical path"), "{err}");
}

#[test]
fn relative_gives_the_shortest_reference() {
    let (code, out, _) = run(&["relative", "http://a/b/c/d;p?q", "http://a/b/g"], "");
    assert_eq!((code, out.as_str()), (0, "../g\n"));
    let (code, out, err) = run(&["relative", "mailto:a@b.dom", "http://a/"], "");
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.contains("no hierarchical path"), "{err}");
}

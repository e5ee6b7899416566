//! Runs the real binary: `normalize`, `same`, `lint`, and `--lenient` and
//! the warnings of `parse` and `check`.

use assert_cmd::Command;
use serde_json::Value;

fn rfc1738() -> Command {
    Command::cargo_bin("rfc1738").unwrap()
}

fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    let out = rfc1738().args(args).write_stdin(stdin).output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn normalize_writes_one_normal_form_per_url() {
    let (code, out, err) =
        run(&["normalize", "HTTP://WWW.Example.COM:80/%7euser/%41", "file://localhost/etc/motd"], "");
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (0, "http://www.example.com/%7Euser/A\nfile:///etc/motd\n", "")
    );
    let (code, out, err) = run(&["normalize"], "ftp://h.example:21/a;type=I\nhttp://a b/\n");
    assert_eq!((code, out.as_str()), (1, "ftp://h.example/a;type=i\n"));
    assert!(
        err.starts_with("rfc1738: <stdin>:2:9: error[unsafe]: unsafe character must be encoded (in host)"),
        "{err}"
    );
}

#[test]
fn normalize_lenient_encodes_what_it_can_and_warns() {
    let (code, out, err) = run(&["normalize", "--lenient", "http://h.example/~me/a b"], "");
    assert_eq!((code, out.as_str()), (0, "http://h.example/%7Eme/a%20b\n"));
    assert!(
        err.contains("<args>:1:18: warning[unsafe-char]")
            && err.contains("<args>:1:23: warning[unsafe-char]"),
        "{err}"
    );
    let (code, _, _) = run(&["normalize", "http://h.example/~me"], "");
    assert_eq!(code, 1, "strict by default");
}

#[test]
fn same_exits_0_for_equivalent_urls_1_for_different_or_invalid() {
    let (code, out, _) = run(&["same", "file://localhost/x", "FILE:///x"], "");
    assert_eq!((code, out.as_str()), (0, "equivalent: file:///x\n"));
    let (code, out, _) = run(&["same", "ftp://h.example/%2Fetc", "ftp://h.example//etc"], "");
    assert_eq!(code, 1);
    assert!(out.starts_with("different:\n"));
    assert_eq!(run(&["same", "-q", "http://h.example", "http://H.example:80/"], "").0, 0);
    assert_eq!(run(&["same", "--quiet", "http://h.example/a", "http://h.example/A"], "").1, "");
    let (code, _, err) = run(&["same", "http://a b/", "http://h.example/"], "");
    assert_eq!(code, 1, "not a URL: not equivalent; 2 is for usage errors");
    assert!(err.contains("rfc1738: <args>:1:9: error[unsafe]: unsafe character"), "{err}");
    // --quiet prints nothing at all: the exit status says it.
    assert_eq!(
        run(&["same", "-q", "http://a b/", "http://h.example/"], ""),
        (1, String::new(), String::new())
    );
    let lenient = run(&["same", "-q", "--lenient", "http://h.example/~x", "http://h.example/%7ex"], "");
    assert_eq!(lenient, (0, String::new(), String::new()), "no warning either");
    assert_eq!(run(&["same", "http://h.example/"], "").0, 2, "a usage error");
    assert_eq!(run(&["same", "--lenient", "http://h.example/~x", "http://h.example/%7ex"], "").0, 0);
}

#[test]
fn lint_reports_one_finding_per_line_and_exits_1() {
    let input = "gopher://mail.example:25/7x%09HELO%0D%0AQUIT\nhttp://h.example/\n\nhttp://a b/\n";
    let (code, out, _) = run(&["lint"], input);
    assert_eq!(code, 1);
    // Each finding: its head, the input, a caret.
    let lines: Vec<&str> = out.lines().step_by(3).collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(
        lines[0].starts_with("rfc1738: <stdin>:1:23: security[foreign-port]: port 25 (smtp)"),
        "{}",
        lines[0]
    );
    assert!(lines[1].starts_with("rfc1738: <stdin>:1:35: security[line-injection]: %0D decodes to CR"));
    assert!(lines[2].starts_with("rfc1738: <stdin>:1:38: security[line-injection]: %0A decodes to LF"));
    assert!(lines[3].starts_with("rfc1738: <stdin>:4:9: error[unsafe]: "));
    let (code, out, _) = run(&["lint"], "http://h.example/\nftp://ftp.example/pub/x;type=i\n");
    assert_eq!((code, out.as_str()), (0, ""));
}

/// §3.4.1: "Within the <gopher-path>, no characters are reserved": a
/// gopher search with "/" and "?" is valid (`check` exits 0), and `lint`
/// says where an RFC 3986 or WHATWG reader would split it.
#[test]
fn lint_notes_where_a_generic_reader_splits_a_gopher_search() {
    let input = "gopher://h.dom/7/a/b%09q/x?y\n";
    assert_eq!(run(&["check"], input).0, 0);
    let (code, out, _) = run(&["lint"], input);
    assert_eq!(code, 1);
    assert!(
        out.starts_with("rfc1738: <stdin>:1:25: security[gopher-search-delimiter]: \"/\" in a gopher search"),
        "{out}"
    );
    assert_eq!(out.lines().count(), 3, "{out}");
    assert_eq!(run(&["lint"], "gopher://h.dom/7/a/b%09q%2Fx%3Fy\n"), (0, String::new(), String::new()));
}

#[test]
fn lint_lenient_reports_deviations_and_json_hides_passwords() {
    let (code, out, _) = run(&["lint", "--lenient", "--json"], "ftp://me:s3cret@my_host.example:2121/~x\n");
    assert_eq!(code, 1);
    let objs: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let kinds: Vec<&str> = objs.iter().map(|o| o["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["password", "underscore-in-host", "non-default-port", "unsafe-char"]);
    assert_eq!(objs[0]["offset"], 9);
    assert_eq!(objs[0]["level"], "security");
    assert_eq!(objs[1]["level"], "warning");
    assert!(objs.iter().all(|o| o["input"] == "ftp://me:***@my_host.example:2121/~x"));
    assert!(!out.contains("s3cret"));
}

#[test]
fn lint_json_hides_the_password_of_an_invalid_line_too() {
    let (code, out, _) = run(
        &["lint", "--json"],
        "ftp://me:s3cret@h.example/a b
ftp://me:s3c@ret@h x/
",
    );
    assert_eq!(code, 1);
    let inputs: Vec<String> = out
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["input"].as_str().unwrap().into())
        .collect();
    assert_eq!(inputs, ["ftp://me:***@h.example/a b", "ftp://me:***@h x/"]);
    assert!(!out.contains("s3c"), "{out}");
}

#[test]
fn parse_json_lists_warnings_and_lenient_accepts_deviations() {
    let (code, out, _) = run(&["parse", "--json", "ftp://me:pw@h.example:2121/x"], "");
    assert_eq!(code, 0);
    let obj: Value = serde_json::from_str(out.trim()).unwrap();
    let w = obj["warnings"].as_array().unwrap();
    assert_eq!(w.len(), 2);
    assert_eq!(
        (&w[0]["kind"], &w[0]["offset"], &w[0]["security"]),
        (&"password".into(), &9.into(), &true.into())
    );
    assert_eq!(w[1]["kind"], "non-default-port");

    let (code, out, _) = run(&["parse", "--json", "--lenient", "http://u@h_x.example/"], "");
    assert_eq!(code, 0);
    let obj: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(obj["valid"], true);
    let kinds: Vec<&str> =
        obj["warnings"].as_array().unwrap().iter().map(|w| w["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["disallowed-user", "underscore-in-host"]);
    assert_eq!(run(&["parse", "--json", "http://u@h_x.example/"], "").0, 1, "strict by default");
}

#[test]
fn check_lenient_counts_deviations_as_valid() {
    let input = "http://a_b.example/\nhttp://h.example/a b\nhttp://h.example/a<b\n";
    let (code, out, _) = run(&["check", "--lenient"], input);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("checked 3 URLs: 2 valid, 1 invalid"), "{out}");
    let (_, out, _) = run(&["check"], input);
    assert!(out.contains("checked 3 URLs: 0 valid, 3 invalid"), "{out}");
}

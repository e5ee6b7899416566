//! One grammar for every subcommand (README, "The contract"): `-` is
//! stdin, `--url-file`, one rule for empty lines, positions as line and
//! byte column with the byte offset beside them in JSON, `--json` on every
//! per-line subcommand, `set` as `parse` reads a URL, the port read as §5
//! writes it, and control characters escaped on every line for people.

use assert_cmd::Command;
use serde_json::Value;

struct Run {
    code: i32,
    out: String,
    err: String,
}

fn run_in(dir: Option<&std::path::Path>, args: &[&str], stdin: &str) -> Run {
    let mut cmd = Command::cargo_bin("rfc1738").unwrap();
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    let o = cmd.env("NO_COLOR", "1").args(args).write_stdin(stdin).output().unwrap();
    Run {
        code: o.status.code().unwrap_or(-1),
        out: String::from_utf8(o.stdout).unwrap(),
        err: String::from_utf8(o.stderr).unwrap(),
    }
}

fn run(args: &[&str], stdin: &str) -> Run {
    run_in(None, args, stdin)
}

fn json(line: &str) -> Value {
    serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"))
}

#[test]
fn a_dash_is_stdin_for_every_subcommand() {
    for args in [
        &["parse", "--get", "{host}", "-"][..],
        &["normalize", "-"],
        &["explain", "-"],
        &["set", "-", "port=21"],
        &["resolve", "http://b.dom/", "-"],
        &["check", "-"],
        &["lint", "-"],
        &["extract", "-"],
    ] {
        let r = run(args, "http://a.dom/x\n");
        assert_eq!(r.code, 0, "{args:?}: {}", r.err);
        let answered = match args[0] {
            "check" => "checked 1 URLs: 1 valid",
            "lint" => "",
            _ => "a.dom",
        };
        assert!(r.out.contains(answered), "{args:?}: {}", r.out);
    }
    // Subcommands of two URLs: each `-` is the next line.
    let r = run(&["same", "-", "-"], "HTTP://a.dom:80/\n\nhttp://a.dom/\n");
    assert_eq!(r.code, 0, "{}", r.err);
    let r = run(&["relative", "http://a/b/c/d", "-"], "http://a/b/\n");
    assert_eq!(r.out, "..\n", "{}", r.err);
    // Arguments and stdin, in order.
    let r = run(&["parse", "--get", "{host}", "http://z.dom/", "-"], "http://a.dom/\n");
    assert_eq!(r.out, "z.dom\na.dom\n");
}

#[test]
fn url_file_reads_urls_where_arguments_may_be_urls() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("urls.txt"), "http://a.dom/\n\nhttp://b.dom/ x\n").unwrap();
    let d = Some(dir.path());
    let r = run_in(d, &["parse", "--get", "{host}", "--url-file", "urls.txt"], "");
    assert_eq!(r.out, "a.dom\n");
    assert!(r.err.contains("rfc1738: urls.txt:3:14: error[unsafe]: unsafe"), "{}", r.err);
    assert_eq!(r.code, 1);
    let r = run_in(d, &["normalize", "--url-file", "-"], "HTTP://A.dom:80/\n");
    assert_eq!(r.out, "http://a.dom/\n");
    let r = run_in(d, &["explain", "--url-file", "urls.txt"], "");
    assert!(r.out.contains("connect to a.dom"), "{}", r.out);
    let r = run_in(d, &["set", "--url-file", "urls.txt", "--keep-lines", "host=c.dom"], "");
    assert_eq!(r.out, "http://c.dom/\n\n\n");
    let r = run_in(d, &["resolve", "--url-file", "urls.txt", "http://base.dom/"], "");
    assert!(r.out.starts_with("http://a.dom/\n"), "{}", r.out);
    let r = run_in(d, &["parse", "--url-file", "missing.txt"], "");
    assert_eq!(r.code, 2, "{}", r.err);
}

/// An empty line holds no URL: skipped by every subcommand, counted by
/// none, answered by an empty line where output line N is input line N.
#[test]
fn an_empty_line_is_skipped_everywhere() {
    let input = "http://a.dom/\n\nhttp://b.dom/\n\n";
    for args in [
        &["check"][..],
        &["check", "--json"],
        &["check", "--keep-lines"],
        &["parse"],
        &["parse", "--json"],
        &["parse", "--format", "csv"],
        &["normalize"],
        &["normalize", "--json"],
        &["lint"],
        &["set", "-", "port=81"],
        &["resolve", "http://base.dom/"],
        &["extract"],
    ] {
        let r = run(args, input);
        assert_eq!(r.code, 0, "{args:?}: {}{}", r.out, r.err);
        assert!(!r.out.contains("empty-scheme") && !r.err.contains("empty"), "{args:?}: {}", r.out);
    }
    let r = run(&["check"], input);
    assert!(r.out.starts_with("checked 2 URLs: 2 valid, 0 invalid"), "{}", r.out);
    for args in [
        &["parse", "--json"][..],
        &["check", "--json"],
        &["normalize", "--keep-lines"],
        &["lint", "--keep-lines"],
    ] {
        let r = run(args, input);
        let lines: Vec<&str> = r.out.lines().collect();
        assert_eq!(lines.len(), 4, "{args:?}: {lines:?}");
        assert_eq!((lines[1], lines[3]), ("", ""), "{args:?}");
    }
    let r = run(&["parse", "--format", "tsv"], input);
    assert_eq!(r.out.lines().nth(2), Some(""), "{}", r.out);
}

#[test]
fn positions_are_line_and_byte_column_with_the_offset_in_json() {
    // `é` is two bytes: the byte column of the space is 16, its character column 15.
    let input = "\u{feff}see http://a.dom/ and\nhttp://h.dom/é x\n";
    let r = run(&["check"], "http://a.dom/\nhttp://h.dom/é x\n");
    assert!(r.out.starts_with("rfc1738: <stdin>:2:14: "), "{}", r.out);
    let r = run(&["check", "--json"], "http://h.dom/é x\n");
    let o = json(r.out.lines().next().unwrap());
    assert_eq!(
        (o["line"].as_u64(), o["error"]["column"].as_u64(), o["error"]["offset"].as_u64()),
        (Some(1), Some(14), Some(13))
    );
    let r = run(&["check", "--json", "--lenient"], "http://h.dom/~x\n");
    let w = &json(r.out.lines().next().unwrap())["warnings"][0];
    assert_eq!((w["column"].as_u64(), w["offset"].as_u64()), (Some(14), Some(13)), "{w}");
    let r = run(&["lint", "--json", "--lenient"], "http://h.dom/é x\n");
    let o = json(r.out.lines().next().unwrap());
    assert_eq!(
        (o["line"].as_u64(), o["column"].as_u64(), o["offset"].as_u64()),
        (Some(1), Some(14), Some(13)),
        "{o}"
    );
    // extract: a BOM is no text; line and column beside the offsets.
    let r = run(&["extract", "--json"], input);
    let o = json(r.out.lines().next().unwrap());
    assert_eq!(
        (o["start"].as_u64(), o["line"].as_u64(), o["column"].as_u64()),
        (Some(4), Some(1), Some(5)),
        "{o}"
    );
    let o = json(r.out.lines().nth(1).unwrap());
    assert_eq!(
        (o["start"].as_u64(), o["line"].as_u64(), o["column"].as_u64()),
        (Some(22), Some(2), Some(1)),
        "{o}"
    );
    let r = run(&["extract"], "x é <URL:http://a.dom/%zz>\n");
    assert!(r.err.contains("rfc1738: <stdin>:1:24: error[invalid-escape]"), "{}", r.err);
}

#[test]
fn normalize_and_set_write_json() {
    let r = run(&["normalize", "--json", "HTTP://A.dom:80/%7e", "http://a b/"], "");
    let lines: Vec<Value> = r.out.lines().map(json).collect();
    assert_eq!(lines[0]["normal"], "http://a.dom/%7E");
    assert_eq!(lines[1]["valid"], false);
    assert_eq!(lines[1]["error"]["kind"], "unsafe");
    assert_eq!(r.code, 1);
    let r = run(&["set", "--json", "-", "port=99"], "http://a.dom/\nmailto:x@y.dom\nhttp://a b/\n");
    let lines: Vec<Value> = r.out.lines().map(json).collect();
    assert_eq!(lines.len(), 3, "{}", r.out);
    assert_eq!(lines[0]["url"], "http://a.dom:99/");
    assert_eq!(lines[1]["url"], Value::Null);
    assert_eq!(lines[1]["error"]["part"], "port");
    assert_eq!(lines[2]["error"]["kind"], "unsafe");
    assert_eq!(r.code, 1);
}

#[test]
fn set_gets_a_template_and_sets_the_scheme() {
    let r = run(&["set", "ftp://h.dom/a/b", "host=k.dom", "--get", "{host} {ftp.name}"], "");
    assert_eq!((r.code, r.out.as_str()), (0, "k.dom b\n"), "{}", r.err);
    let r = run(&["set", "http://u.dom/a?q", "scheme=https"], "");
    assert_eq!(r.out, "https://u.dom/a?q\n", "{}", r.err);
    let r = run(&["set", "http://u.dom/a", "scheme=ftp", "user=me"], "");
    assert_eq!(r.out, "ftp://me@u.dom/a\n", "{}", r.err);
    // The rest of the URL must be one of the new scheme.
    let r = run(&["set", "mailto:a@b.dom", "scheme=http"], "");
    assert_eq!(r.code, 1);
    assert!(
        r.err.contains(
            "cannot set <args>:1 (mailto:a@b.dom): scheme: the rest of the URL, as written, is no http URL: \
             its ip-schemepart: expected \"//\" after the scheme (in scheme)"
        ),
        "{}",
        r.err
    );
}

#[test]
fn set_refuses_a_part_an_opaque_url_lacks_as_mailto_does() {
    let r = run(&["set", "x-other:opaque-part", "host=mirror.example"], "");
    assert_eq!(r.code, 1, "{}", r.out);
    assert!(r.err.contains("host: not a part set can change in this other URL"), "{}", r.err);
    let r = run(&["set", "mailto:a@b.dom", "host=mirror.example"], "");
    assert!(r.err.contains("host: not a part set can change in this mailto URL"), "{}", r.err);
    let r = run(&["set", "x-other:a", "other.scheme_specific_part=b c"], "");
    assert_eq!(r.out, "x-other:b%20c\n");
}

#[test]
fn port_errors_of_set_and_parse_say_the_same() {
    let p = run(&["parse", "http://h.dom:8x/"], "");
    let s = run(&["set", "http://h.dom/", "port=8x"], "");
    assert!(
        p.err.contains("<args>:1:15: error[invalid-char]: character not allowed here (in port)"),
        "{}",
        p.err
    );
    // The same kind and message; the column is the value's, in its change.
    assert!(
        s.err.contains("<args>:2:7: error[invalid-char]: cannot set <args>:1 (http://h.dom/): port: character not allowed here (in port)"),
        "{}",
        s.err
    );
}

/// §5 `port = digits` gives no range, as `hostnumber = digits "." ...`
/// gives none: valid with a located warning, refused by `fetch` before
/// connecting (docs/DIFFERENCES.md).
#[test]
fn a_port_above_65535_is_valid_with_a_warning_and_refused_by_fetch() {
    let url = "telnet://a.b:99999";
    let r = run(&["parse", "--json", url], "");
    let o = json(r.out.trim());
    assert_eq!((o["valid"].as_bool(), o["port"].as_u64()), (Some(true), Some(99999)), "{o}");
    assert_eq!(o["effective_port"], Value::Null);
    assert_eq!(o["warnings"][0]["kind"], "port-out-of-range");
    assert_eq!(o["warnings"][0]["offset"], 13);
    for portable in ["0", "1"] {
        let mut cmd = Command::cargo_bin("rfc1738").unwrap();
        let o = cmd
            .env("RFC1738_PORTABLE", portable)
            .args(["check", "-q"])
            .write_stdin(format!("{url}\nhttp://h.dom:65536/\n"))
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stdout));
    }
    let r = run(&["lint"], &format!("{url}\n"));
    assert_eq!(r.code, 1);
    assert!(
        r.out.starts_with("rfc1738: <stdin>:1:14: security[port-out-of-range]: port 99999 is above 65535"),
        "{}",
        r.out
    );
    let r = run(&["normalize", "http://h.dom:0099999/"], "");
    assert_eq!(r.out, "http://h.dom:99999/\n");
    for args in [&["fetch", "http://127.0.0.1:99999/"][..], &["fetch", "--plan", "ftp://127.0.0.1:70000/f"]] {
        let r = run(args, "");
        assert_eq!(r.code, 1, "{args:?}: {}", r.err);
        assert!(r.err.contains("port") && r.err.contains("above 65535"), "{}", r.err);
    }
}

#[test]
fn list_parts_keep_their_escaped_separators() {
    let r = run(&["parse", "--get", "{ftp.cwd}|{:ftp.cwd}", "ftp://h/a/b%2Fc/d/f"], "");
    assert_eq!(r.out, "a/b%2Fc/d|a/b%2Fc/d\n");
    let r = run(&["parse", "--json", "ftp://h/a/b%2Fc/d/f"], "");
    assert_eq!(json(r.out.trim())["ftp"]["cwd"], serde_json::json!(["a", "b/c", "d"]));
}

/// A file name is shown escaped on every line for people; a table too.
#[test]
fn control_characters_are_escaped_in_names_and_tables() {
    let dir = tempfile::tempdir().unwrap();
    let name = "x\x1b]0;pwned\x07.txt";
    std::fs::write(dir.path().join(name), "http://a b/\n<URL:http://a.dom/%zz>\n").unwrap();
    let d = Some(dir.path());
    let shown = "x\\x1B]0;pwned\\x07.txt";
    for (args, to) in [
        (&["check", name][..], "out"),
        (&["check", "--keep-lines", name], "out"),
        (&["lint", name], "out"),
        (&["extract", name], "err"),
        (&["parse", "--url-file", name], "err"),
        (&["check", "missing\x1b[2J"], "err"),
    ] {
        let r = run_in(d, args, "");
        let text = if to == "out" { &r.out } else { &r.err };
        assert!(!r.out.contains('\x1b') && !r.err.contains('\x1b'), "{args:?}: {text:?}");
        if !args[1].starts_with("missing") {
            assert!(text.contains(shown), "{args:?}: {text:?}");
        }
    }
    // JSON keeps the name as it is (JSON escapes it itself).
    let r = run_in(d, &["lint", "--json", name], "");
    assert_eq!(json(r.out.lines().next().unwrap())["file"], name);
    // CSV and TSV: `\xHH`, `\r`, `\n`, `\t`, and `\` doubled.
    for format in ["csv", "tsv"] {
        let r = run(&["parse", "--format", format, "http://h/\x1b[31m\\\t"], "");
        let row = r.out.lines().nth(1).unwrap();
        assert!(row.starts_with("http://h/\\x1B[31m\\\\\\t"), "{format}: {row:?}");
        assert!(!r.out.contains('\x1b'));
    }
}

#[test]
fn explain_reads_stdin_when_given_no_url() {
    let r = run(&["explain"], "ftp://h.dom/x\n");
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.contains("RETR x"), "{}", r.out);
}

#[test]
fn set_tells_a_change_from_a_url() {
    let r = run(&["set", "host=x.dom"], "http://a.dom/p\nftp://b.dom/\n");
    assert_eq!((r.code, r.out.as_str()), (0, "http://x.dom/p\nftp://x.dom/\n"), "{}", r.err);
    // A URL with `=` in it is still a URL; several URLs before the changes.
    let r = run(&["set", "http://a.dom/p?a=b", "http://c.dom/", "port=81"], "");
    assert_eq!(r.out, "http://a.dom:81/p?a=b\nhttp://c.dom:81/\n", "{}", r.err);
    // A change before a URL is a usage error, not a URL.
    let r = run(&["set", "host=x.dom", "http://a.dom/"], "");
    assert_eq!(r.code, 2, "{}", r.out);
}

#[test]
fn json_quiet_and_lenient_wherever_they_mean_something() {
    let r = run(&["explain", "--json", "ftp://h.dom/x", "ftp://h.dom/a b"], "");
    let lines: Vec<Value> = r.out.lines().map(json).collect();
    assert_eq!(lines.len(), 2, "{}", r.out);
    assert!(
        lines[0]["explain"].as_array().unwrap().iter().any(|l| l.as_str().unwrap().starts_with("RETR x")),
        "{}",
        lines[0]
    );
    assert_eq!(lines[1]["valid"], false);
    assert_eq!(lines[1]["error"]["column"], 14);
    assert_eq!(r.code, 1);

    let r = run(&["explain", "-q", "ftp://h.dom/x", "ftp://h.dom/a b"], "");
    assert_eq!((r.code, r.out.as_str(), r.err.as_str()), (1, "", ""));
    let r = run(&["explain", "--keep-lines", "ftp://h.dom/a b", "ftp://h.dom/x"], "");
    assert!(r.out.starts_with("ftp://h.dom/a b\n  error: "), "{}", r.out);

    let r = run(&["same", "--json", "HTTP://a.dom:80/", "http://a.dom/"], "");
    let v = json(r.out.trim());
    assert_eq!(
        (r.code, &v["equivalent"], &v["b"]["normal"]),
        (0, &Value::Bool(true), &"http://a.dom/".into())
    );
    let r = run(&["same", "--json", "http://a.dom/", "http://a b/"], "");
    let v = json(r.out.trim());
    assert_eq!((r.code, &v["equivalent"], &v["b"]["valid"]), (1, &Value::Bool(false), &Value::Bool(false)));

    let r = run(&["relative", "--json", "http://a/b/c/d", "http://a/b/"], "");
    let v = json(r.out.trim());
    assert_eq!((r.code, &v["reference"]), (0, &Value::from("..")), "{}", r.out);
    let r = run(&["relative", "--json", "http://a/b/c", "http://a/b c"], "");
    let v = json(r.out.trim());
    assert_eq!((r.code, &v["error"]["url"], &v["reference"]), (1, &Value::from("target"), &Value::Null));
    let r = run(&["relative", "http://a/b/c", "http://a/~d"], "");
    assert_eq!(r.code, 1, "{}", r.out);
    let r = run(&["relative", "--lenient", "http://a/b/c", "http://a/~d"], "");
    assert!(r.code == 0 && r.out.ends_with("~d\n"), "{}", r.err);
    assert!(r.err.contains("warning"), "{}", r.err);
    let r = run(&["relative", "-q", "http://a/b/c", "http://a/d"], "");
    assert_eq!((r.code, r.out.as_str()), (0, ""));

    let r = run(&["lint", "-q"], "ftp://u:p@h.dom/\n");
    assert_eq!((r.code, r.out.as_str(), r.err.as_str()), (1, "", ""));
    let r = run(&["lint", "--quiet"], "ftp://h.dom/\n");
    assert_eq!((r.code, r.out.as_str()), (0, ""));
}

#[test]
fn format_is_the_output_format_everywhere() {
    let line = "127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] \"GET /a HTTP/1.0\" 200 2326\n";
    let r = run(&["check", "--input-format", "clf", "--json"], line);
    assert_eq!(json(r.out.lines().next().unwrap())["target"], "/a", "{}", r.err);
    assert!(!r.err.contains("--input-format"), "{}", r.err);
    // The old spelling, taken with a note.
    let r = run(&["check", "--format", "clf", "--json"], line);
    assert_eq!(json(r.out.lines().next().unwrap())["target"], "/a", "{}", r.err);
    assert!(r.err.contains("check --format is now --input-format"), "{}", r.err);
    let r = run(&["check", "--help"], "");
    assert!(r.out.contains("--input-format") && !r.out.contains("--format <"), "{}", r.out);
    // Every visible --format is the output's.
    for sub in ["parse", "lint"] {
        let r = run(&[sub, "--help"], "");
        assert!(r.out.contains("--format <"), "{sub}");
    }
}

#[test]
fn quiet_prints_nothing_on_every_per_line_subcommand() {
    for args in [
        &["parse", "-q", "http://a b/", "http://ok.dom/"][..],
        &["parse", "-q", "--get", "{host}", "http://a b/"],
        &["normalize", "--quiet", "http://a b/", "http://ok.dom/"],
        &["set", "-q", "http://a b/", "port=1"],
        &["resolve", "-q", "http://a/", "x y", "z"],
        &["explain", "-q", "http://a b/"],
        &["relative", "-q", "http://a b/", "http://a/"],
        &["same", "-q", "http://a b/", "http://a/"],
        &["lint", "-q"],
    ] {
        let r = run(args, "http://a b/\n");
        assert_eq!((r.code, r.out.as_str(), r.err.as_str()), (1, "", ""), "{args:?}");
    }
    assert_eq!(run(&["normalize", "-q", "http://ok.dom/"], "").code, 0);
    // A file that cannot be read is still named: 2.
    let r = run(&["parse", "-q", "--url-file", "/no/such/file"], "");
    assert_eq!(r.code, 2);
    assert!(r.err.contains("/no/such/file"), "{}", r.err);
}

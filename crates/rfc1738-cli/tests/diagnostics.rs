//! One diagnostic shape for every subcommand, as rustc and ripgrep have
//! one: `rfc1738: FILE:LINE:COLUMN: LABEL[kind]: message (in rule)`, then
//! the input and a caret under the column.

use assert_cmd::Command;

fn run(args: &[&str], stdin: &str) -> (String, String) {
    let o = Command::cargo_bin("rfc1738")
        .unwrap()
        .env("NO_COLOR", "1")
        .args(args)
        .write_stdin(stdin)
        .output()
        .unwrap();
    (String::from_utf8(o.stdout).unwrap(), String::from_utf8(o.stderr).unwrap())
}

/// The place, label and kind of a head line, or why it is not one.
fn head(line: &str) -> Result<(String, u64, usize, String, String), String> {
    let rest = line.strip_prefix("rfc1738: ").ok_or("no `rfc1738: `")?;
    let mut fields = rest.splitn(4, ':');
    let file = fields.next().ok_or("no file")?.to_string();
    let line_no = fields.next().and_then(|n| n.parse().ok()).ok_or("no line")?;
    let column = fields.next().and_then(|n| n.parse().ok()).ok_or("no column")?;
    let rest = fields.next().ok_or("no label")?.strip_prefix(' ').ok_or("no space")?;
    let (label, rest) = rest.split_once('[').ok_or("no [kind]")?;
    let (kind, rest) = rest.split_once("]: ").ok_or("no ]: ")?;
    if !["error", "warning", "security"].contains(&label) {
        return Err(format!("label {label}"));
    }
    if kind.is_empty() || !kind.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-') {
        return Err(format!("kind {kind}"));
    }
    if label == "error" && !rest.ends_with(')') {
        return Err("an error ends with its rule".into());
    }
    if rest.contains(" at offset ") {
        return Err("the offset is JSON's; the text says the column".into());
    }
    Ok((file, line_no, column, label.to_string(), kind.to_string()))
}

/// Every diagnostic of `text`: a head, the input, a caret under the
/// column (ASCII inputs: one column a byte; with `caret_at_column`
/// false, anywhere: `extract`'s column is the text's and its caret sits
/// under the URL found in it). Returns the heads.
fn diagnostics_of(text: &str, caret_at_column: bool) -> Vec<(String, u64, usize, String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    let mut k = 0;
    while k < lines.len() {
        if !lines[k].starts_with("rfc1738: ") || lines[k].starts_with("rfc1738: 1 of ") {
            k += 1;
            continue;
        }
        let h = head(lines[k]).unwrap_or_else(|e| panic!("{e}: {}", lines[k]));
        let (input, caret) = (lines[k + 1], lines[k + 2]);
        assert!(input.starts_with("  "), "{text}");
        assert_eq!(caret.trim_start(), "^", "{text}");
        if caret_at_column {
            assert_eq!(caret.len() - 2, h.2, "the caret under column {}: {text}", h.2);
        }
        found.push(h);
        k += 3;
    }
    found
}

#[test]
fn every_subcommand_says_an_error_in_one_shape() {
    let bad = "http://h.dom/a b";
    for (args, stdin, out_or_err) in [
        (&["parse", bad][..], "", 1),
        (&["parse"], "http://h.dom/\nhttp://h.dom/a b\n", 1),
        (&["parse", "--get", "{host}"], "http://h.dom/a b\n", 1),
        (&["normalize", bad], "", 1),
        (&["explain"], "http://h.dom/a b\n", 1),
        (&["set", bad, "port=81"], "", 1),
        (&["same", "http://h.dom/", bad], "", 1),
        (&["relative", bad, "http://h.dom/"], "", 1),
        (&["resolve", bad, "x"], "", 1),
        (&["check"], "http://h.dom/a b\n", 0),
        (&["lint"], "http://h.dom/a b\n", 0),
        (&["extract"], "see <URL:http://h.dom/a%zz>\n", 1),
        (&["fetch", "--plan", bad], "", 1),
    ] {
        let (out, err) = run(args, stdin);
        let text = if out_or_err == 0 { &out } else { &err };
        let found = diagnostics_of(text, args[0] != "extract");
        assert_eq!(found.len(), 1, "{args:?}: {out}{err}");
        let (file, _, column, label, kind) = &found[0];
        assert!(file == "<args>" || file == "<stdin>", "{args:?}: {file}");
        assert_eq!(label, "error", "{args:?}");
        assert!(kind == "unsafe" || kind == "invalid-escape", "{args:?}: {kind}");
        let expected = if args[0] == "extract" { 24 } else { 15 };
        assert_eq!(*column, expected, "{args:?}: {text}");
    }
}

#[test]
fn warnings_and_findings_have_the_same_shape() {
    for (args, stdin, on_stdout) in [
        (&["check", "--lenient"][..], "http://h.dom/~me\n", true),
        (&["normalize", "--lenient"], "http://h.dom/~me\n", false),
        (&["explain", "--lenient"], "http://h.dom/~me\n", false),
        (&["parse", "--lenient", "--get", "{host}"], "http://h.dom/~me\n", false),
        (&["lint", "--lenient"], "http://h.dom/~me\n", true),
        (&["extract", "--lenient"], "<URL:http://h.dom/~me>\n", false),
    ] {
        let (out, err) = run(args, stdin);
        let found = diagnostics_of(if on_stdout { &out } else { &err }, args[0] != "extract");
        if args[0] == "parse" {
            // parse says its warnings in its records, not on stderr.
            continue;
        }
        assert_eq!(found.len(), 1, "{args:?}: {out}{err}");
        let expected = if args[0] == "extract" { 19 } else { 14 };
        assert_eq!(
            (found[0].3.as_str(), found[0].4.as_str(), found[0].2),
            ("warning", "unsafe-char", expected)
        );
    }
    // Past a password, the caret sits in the redacted input shown (the
    // column is the input's): the password is not said.
    let (out, _) = run(&["lint"], "ftp://u:pw@h.dom:25/\n");
    let found = diagnostics_of(&out, false);
    let carets: Vec<usize> = out.lines().filter(|l| l.trim() == "^").map(|l| l.len() - 3).collect();
    assert_eq!(carets, [8, 18], "{out}");
    assert_eq!(found.iter().map(|f| f.4.as_str()).collect::<Vec<_>>(), ["password", "foreign-port"], "{out}");
    assert!(found.iter().all(|f| f.3 == "security"));
    assert!(!out.contains("pw@"), "{out}");
}

#[test]
fn a_line_past_max_len_says_the_limit_column_and_no_offset_beside_it() {
    for sub in ["check", "parse", "normalize", "lint"] {
        let (out, err) = run(&[sub, "--max-len", "10"], "http://h.dom/aaaaaaaaaaaa\n");
        let line = out
            .lines()
            .chain(err.lines())
            .find(|l| l.contains("[too-long]"))
            .unwrap_or_else(|| panic!("{sub}: {out}{err}"));
        let (_, line_no, column, label, _) = head(line).unwrap();
        assert_eq!((line_no, column, label.as_str()), (1, 11, "error"), "{sub}: {line}");
    }
}

#[test]
fn keep_lines_rows_are_heads_without_the_prefix_and_warnings_have_columns() {
    let (out, _) = run(&["check", "--keep-lines", "--lenient"], "http://h.dom/~me\nftp://h.dom/x;type=q\n");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "<stdin>:1: valid; warning[unsafe-char] at column 14");
    head(&format!("rfc1738: {}", lines[1])).unwrap();
    let (out, _) = run(&["lint", "--keep-lines"], "ftp://u:pw@h.dom/\n");
    head(&format!("rfc1738: {}", out.trim_end())).unwrap();
}

/// A port on 127.0.0.1 that nothing listens on: bound, then let go.
fn closed_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

#[test]
fn fetch_says_refusals_and_network_errors_in_the_one_shape() {
    let closed = format!("http://127.0.0.1:{}/x", closed_port());
    for (url, kind, column) in [
        // §6: the caret under the port.
        ("http://127.0.0.1:25/x", "privileged-port", 18),
        ("gopher://127.0.0.1:7/1", "privileged-port", 20),
        // The server could not be reached: the caret under the host.
        (closed.as_str(), "connect", 8),
        // A file URL for another host (§3.10): under the host.
        ("file://elsewhere.dom/etc/motd", "foreign-file-host", 8),
        // A CR in an ftp directory name (§6): under its escape.
        ("ftp://127.0.0.1/a%0Db/c", "injection", 18),
        // A file name segment that decodes to "/" (§3.10): under it.
        ("file:///etc%2Fpasswd", "encoded-slash", 9),
        // A scheme whose access is described, not performed.
        ("mailto:a@h.dom", "not-automated", 1),
    ] {
        let (out, err) = run(&["fetch", url], "");
        assert!(out.is_empty(), "{url}: {out}");
        let found = diagnostics_of(&err, true);
        assert_eq!(found.len(), 1, "{url}: {err}");
        let (file, line, col, label, k) = &found[0];
        assert_eq!((file.as_str(), *line, label.as_str()), ("<args>", 1, "error"), "{url}: {err}");
        assert_eq!((k.as_str(), *col), (kind, column), "{url}: {err}");
    }
}

#[test]
fn set_says_a_value_it_cannot_take_under_that_change() {
    for (args, kind, arg, column) in [
        // A port that is not digits (§5): the caret under the first bad byte
        // of the value, in argument 2 (`port=8x`).
        (&["set", "http://h.dom/", "port=8x"][..], "invalid-char", 2, 7),
        // A host the builder refuses: under the value.
        (&["set", "http://h.dom/", "path=a", "host=a b"], "unsafe", 3, 6),
        // A part this scheme lacks: under the part's name.
        (&["set", "mailto:a@h.dom", "host=x.dom"], "unknown-part", 2, 1),
    ] {
        let (out, err) = run(args, "");
        assert!(out.is_empty(), "{args:?}: {out}");
        let found = diagnostics_of(&err, true);
        assert_eq!(found.len(), 1, "{args:?}: {err}");
        let (file, line, col, label, k) = &found[0];
        assert_eq!((file.as_str(), label.as_str()), ("<args>", "error"), "{args:?}: {err}");
        assert_eq!((k.as_str(), *line, *col), (kind, arg, column), "{args:?}: {err}");
        assert!(err.contains(args[1]), "the URL is named: {err}");
    }
    // A URL from stdin: the change's place is still an argument.
    let (_, err) = run(&["set", "port=8x"], "http://h.dom/\n");
    let found = diagnostics_of(&err, true);
    assert_eq!((found[0].0.as_str(), found[0].1, found[0].2), ("<args>", 1, 7), "{err}");
    assert!(err.contains("<stdin>:1"), "the URL's place is named: {err}");
}

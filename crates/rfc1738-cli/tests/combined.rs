//! The Combined log format through `check --input-format clf` (issue 50): the
//! referer checked as a URL and counted in a table of its own, the user
//! agent as text, `--fields`, status and bytes of every line, `OPTIONS *`
//! named `*` everywhere, and a gzip'd log read as its text.

use assert_cmd::Command;
use serde_json::Value;
use std::io::Write;

const LOG: &str = r#"192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] "GET /index.html HTTP/1.1" 200 2326 "http://www.example.com/start.html" "Mozilla/5.0 (X11)"
192.0.2.2 - - [10/Oct/2000:13:55:37 -0700] "GET /a b HTTP/1.1" 400 0 "-" "curl/8.0"
192.0.2.3 - - [10/Oct/2000:13:55:38 -0700] "GET /img.png HTTP/1.1" 200 512 "http://ref.example/a b" "Mozilla/5.0 \"quoted\""
192.0.2.4 - - [10/Oct/2000:13:55:39 -0700] "-" 408 0 "-" "-"
192.0.2.5 - - [10/Oct/2000:13:55:40 -0700] "OPTIONS * HTTP/1.1" 200 0 "-" "-"
192.0.2.6 - - [10/Oct/2000:13:55:41 -0700] "GET /x HTTP/1.1" 200 10 "android-app://com.example" "app"
"#;

fn run(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let o = Command::cargo_bin("rfc1738").unwrap().args(args).write_stdin(stdin.to_vec()).output().unwrap();
    (o.status.code().unwrap(), String::from_utf8(o.stdout).unwrap(), String::from_utf8(o.stderr).unwrap())
}

#[test]
fn each_record_has_the_referer_checked_and_the_user_agent() {
    let (code, out, _) = run(&["check", "--input-format", "clf", "--json"], LOG.as_bytes());
    assert_eq!(code, 1);
    let r: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(
        (&r[0]["referer"], &r[0]["referer_valid"]),
        (&"http://www.example.com/start.html".into(), &true.into())
    );
    assert_eq!(r[0]["user_agent"], "Mozilla/5.0 (X11)");
    // The whole referer, not cut at its space; invalid at the space.
    assert_eq!(
        (&r[2]["referer"], &r[2]["referer_valid"], &r[2]["valid"]),
        (&"http://ref.example/a b".into(), &false.into(), &false.into())
    );
    let at = r[2]["referer_error"]["offset"].as_u64().unwrap() as usize;
    assert_eq!(&LOG.lines().nth(2).unwrap()[at..=at], " ");
    assert_eq!(r[2]["user_agent"], r#"Mozilla/5.0 "quoted""#);
    // "-" is absent, not invalid.
    assert_eq!((&r[1]["referer"], &r[1]["referer_valid"]), (&Value::Null, &Value::Null));
    // Status and bytes whatever the request; `*` is `*`.
    assert_eq!((&r[3]["status"], &r[3]["bytes"]), (&408.into(), &0.into()));
    assert_eq!((&r[4]["scheme"], &r[4]["valid"]), (&"*".into(), &true.into()));
    assert_eq!(r[5]["referer_scheme"], "android-app");
}

#[test]
fn the_summary_has_a_referer_table_and_fields_chooses() {
    let (_, out, _) = run(&["check", "--input-format", "clf", "--quiet"], LOG.as_bytes());
    assert!(out.starts_with("checked 6 log lines: 3 valid, 3 invalid\n"), "{out}");
    assert!(out.contains("\n  referer                    valid     invalid\n  http                           1           1\n  android-app                    1           0\n"), "{out}");
    assert!(out.contains("\n  *                              1           0\n"), "{out}");
    // The referers' errors by kind, with the first line of each.
    assert!(out.contains("\n  referer error           rule           count  first\n  unsafe                  hpath              1  <stdin>:3: "), "{out}");
    // The request alone: the referer is neither checked nor counted.
    let (_, out, _) =
        run(&["check", "--input-format", "clf", "--quiet", "--fields", "request"], LOG.as_bytes());
    assert!(
        out.starts_with("checked 6 log lines: 4 valid, 2 invalid\n") && !out.contains("referer"),
        "{out}"
    );
    let (_, out, _) =
        run(&["check", "--input-format", "clf", "--quiet", "--fields", "referer"], LOG.as_bytes());
    assert!(out.starts_with("checked 6 log lines: 4 valid, 2 invalid\n") && out.contains("referer"), "{out}");
    let (_, out, _) =
        run(&["check", "--input-format", "clf", "--quiet", "--fields", "request,referer"], LOG.as_bytes());
    assert!(out.starts_with("checked 6 log lines: 3 valid, 3 invalid\n"), "{out}");
    // Without a log format the flag would change nothing: a usage error.
    let (code, out, err) = run(&["check", "--quiet", "--fields", "request"], LOG.as_bytes());
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("--fields") && err.contains("--input-format clf"), "{err}");
    let (_, out, _) = run(&["check", "--input-format", "clf", "--json", "--summary", "-q"], LOG.as_bytes());
    let s: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        s["summary"]["referers"][0],
        serde_json::json!({"scheme": "android-app", "valid": 1, "invalid": 0})
    );
    let e = &s["summary"]["referer_errors"][0];
    assert_eq!((&e["kind"], &e["first"]["line"]), (&"unsafe".into(), &3.into()));
    // Not a log: no referer keys.
    let (_, out, _) = run(&["check", "--json", "--summary", "-q"], b"http://a.dom/\n");
    assert!(!out.contains("referer"), "{out}");
}

#[test]
fn a_gzip_combined_log_reads_as_its_text() {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(LOG.as_bytes()).unwrap();
    let gz = e.finish().unwrap();
    let plain = run(&["check", "--input-format", "clf", "--keep-lines"], LOG.as_bytes());
    assert_eq!(run(&["check", "--input-format", "clf", "--keep-lines"], &gz), plain);
}

#[test]
fn log_format_takes_presets_and_server_strings_and_names_an_unknown_directive() {
    // The combined preset reads the Combined log as the line-by-line reader does.
    let plain = run(&["check", "--input-format", "clf", "--keep-lines"], LOG.as_bytes());
    assert_eq!(run(&["check", "--log-format", "combined", "--keep-lines"], LOG.as_bytes()), plain);
    // An nginx string with the virtual host first and a timing field.
    let nginx = r#"$host $remote_addr [$time_local] "$request" $status $body_bytes_sent $request_time "$http_referer" "$http_user_agent""#;
    let line = "h.dom 192.0.2.1 [10/Oct/2000:13:55:36 +0000] \"GET /a%zz HTTP/2.0\" 200 5 0.001 \"http://r.dom/\" \"ua\"\n";
    let (code, out, _) = run(&["check", "--log-format", nginx, "--json"], line.as_bytes());
    let o: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(
        (code, &o["target"], &o["error"]["offset"]),
        (1, &"/a%zz".into(), &line.find('%').unwrap().into())
    );
    // An Apache string, as written in a LogFormat line (`\"`).
    let apache = r#"%v %h %l %u %t \"%r\" %>s %b %D"#;
    let line = "v.dom 192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] \"GET /ok HTTP/1.1\" 200 5 1234\n";
    let (code, out, _) = run(&["check", "--log-format", apache, "--quiet"], line.as_bytes());
    assert_eq!((code, out.lines().next()), (0, Some("checked 1 log lines: 1 valid, 0 invalid")));
    // A line of another format is counted as not one of this.
    let (_, out, _) = run(&["check", "--log-format", "vhost_combined", "--quiet"], LOG.as_bytes());
    assert!(out.contains("(not clf)"), "{out}");
    // An unknown directive: a usage error naming it.
    let (code, _, err) = run(&["check", "--log-format", "%h %Z %r"], b"");
    assert_eq!(code, 2);
    assert!(err.contains("unknown directive %Z at offset 3"), "{err}");
    let (code, _, err) = run(&["check", "--log-format", "$remote_addr $nosuch"], b"");
    assert!(code == 2 && err.contains("unknown directive $nosuch"), "{err}");
}

#[test]
fn lines_checked_in_bulk_keep_their_place_beside_empty_and_long_ones() {
    // Log lines are checked in bulk, a block at a time; an empty line and
    // a line past --max-len between them are answered in their place.
    let long = format!(r#"192.0.2.9 - - [d] "GET /{} HTTP/1.1" 200 1"#, "a".repeat(300));
    let mut log = String::new();
    for (k, line) in LOG.lines().enumerate() {
        log.push_str(line);
        log.push('\n');
        if k == 1 {
            log.push('\n');
        }
        if k == 3 {
            log.push_str(&long);
            log.push('\n');
        }
    }
    let args = ["check", "--input-format", "clf", "--max-len", "200"];
    let (_, keep, _) = run(&[&args[..], &["--keep-lines"]].concat(), log.as_bytes());
    assert_eq!(keep.lines().count(), log.lines().count());
    assert_eq!(keep.lines().nth(2), Some(""));
    assert!(keep.lines().nth(5).unwrap().contains("--max-len"), "{keep}");
    let (code, json, _) = run(&[&args[..], &["--json"]].concat(), log.as_bytes());
    assert_eq!(code, 1);
    let records: Vec<Value> =
        json.lines().filter(|l| !l.is_empty()).map(|l| serde_json::from_str(l).unwrap()).collect();
    let numbers: Vec<u64> = records.iter().map(|r| r["line"].as_u64().unwrap()).collect();
    assert_eq!(numbers, [1, 2, 4, 5, 6, 7, 8]);
    let valid: Vec<bool> = records.iter().map(|r| r["valid"].as_bool().unwrap()).collect();
    assert_eq!(valid, [true, false, false, false, false, true, true]);
    assert_eq!(records[4]["error"]["kind"], "too-long");
}

#[test]
fn a_preset_is_named_without_regard_to_case_and_a_misspelt_one_is_a_usage_error() {
    let plain = run(&["check", "--log-format", "combined", "--keep-lines"], LOG.as_bytes());
    for name in ["Combined", "apache", "APACHE"] {
        assert_eq!(run(&["check", "--log-format", name, "--keep-lines"], LOG.as_bytes()), plain, "{name}");
    }
    let line = "192.0.2.1 - - [10/Oct/2000:13:55:36 +0000] \"GET /p HTTP/1.1\" 200 1 \"-\" \"ua\" \"-\"\n";
    let (code, out, _) = run(&["check", "--log-format", "nginx", "--quiet"], line.as_bytes());
    assert_eq!((code, out.lines().next()), (0, Some("checked 1 log lines: 1 valid, 0 invalid")));
    for name in ["combind", "vhost", "ngnix"] {
        let (code, _, err) = run(&["check", "--log-format", name], LOG.as_bytes());
        assert_eq!(code, 2, "{name}: {err}");
        assert!(err.contains("the presets: common, combined, vhost_combined, main"), "{err}");
    }
}

#[test]
fn bytes_that_are_no_request_line_are_no_request_not_an_http_error() {
    // TLS and RDP probes as nginx escapes them, a method with a control
    // byte, words after the target that are no protocol.
    let log = concat!(
        r#"192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] "\x16\x03\x01\x00\xA5\x01\x00\x00\xA1\x03\x03 \x02" 400 157 "-" "-""#,
        "\n",
        r#"192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] "G\x01T /x HTTP/1.1" 400 0 "-" "-""#,
        "\n",
        r#"192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] "GET / FOO/9 bar" 400 0 "-" "-""#,
        "\n",
        r#"x [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.0" 200 1"#,
        "\n",
    );
    let (code, out, _) = run(&["check", "--input-format", "clf", "--json"], log.as_bytes());
    assert_eq!(code, 1);
    let r: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    for o in &r[..3] {
        assert_eq!((&o["error"]["kind"], &o["method"]), (&"clf-not-a-request".into(), &Value::Null), "{o}");
    }
    assert_eq!((&r[3]["error"]["kind"], &r[3]["error"]["offset"]), (&"clf-no-ident".into(), &2.into()));
    let (_, out, _) = run(&["check", "--input-format", "clf", "--quiet"], log.as_bytes());
    assert!(!out.contains("http "), "no line is an http URL: {out}");
    assert!(out.contains("(no request)                   0           3"), "{out}");
    assert!(out.contains("(not clf)                      0           1"), "{out}");
}

#[test]
fn since_and_until_keep_the_lines_of_a_time_range_in_any_offset() {
    let log = concat!(
        "192.0.2.1 - - [10/Oct/2000:09:59:59 +0000] \"GET /a HTTP/1.1\" 200 1\n",
        "192.0.2.2 - - [10/Oct/2000:12:00:00 +0200] \"GET /b HTTP/1.1\" 200 1\n",
        "192.0.2.3 - - [10/Oct/2000:10:30:00 +0000] \"GET /c d HTTP/1.1\" 200 1\n",
        "192.0.2.4 - - [10/Oct/2000:04:00:00 -0700] \"GET /e HTTP/1.1\" 200 1\n",
        "not a log line\n",
    );
    let args = [
        "check",
        "--format",
        "clf",
        "--json",
        "--since",
        "2000-10-10T10:00:00Z",
        "--until",
        "2000-10-10T11:00:00+00:00",
    ];
    let (code, out, _) = run(&args, log.as_bytes());
    assert_eq!(code, 1);
    let clients: Vec<Value> = out
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["client"].clone())
        .collect();
    // 12:00 +0200 is 10:00Z (in); 04:00 -0700 is 11:00Z (the end, out);
    // a line with no time is kept (its error is still said).
    assert_eq!(clients, [Value::from("192.0.2.2"), "192.0.2.3".into(), Value::Null]);
    let r: Vec<Value> =
        out.lines().filter(|l| !l.is_empty()).map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(r[0]["time_iso"], "2000-10-10T12:00:00+02:00");
    let (_, out, _) = run(
        &["check", "--input-format", "clf", "--quiet", "--since", "10/Oct/2000:10:00:00 +0000"],
        log.as_bytes(),
    );
    assert!(out.starts_with("checked 4 log lines: 2 valid, 2 invalid"), "{out}");
    let (code, _, err) = run(&["check", "--input-format", "clf", "--since", "yesterday"], log.as_bytes());
    assert_eq!(code, 2);
    assert!(err.contains("is not a time"), "{err}");
}

#[test]
fn the_json_summary_gives_the_first_line_of_each_error_whole() {
    let line = format!(
        "192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] \"GET /{} b HTTP/1.1\" 200 1 \"http://r.dom/{} c\" \"ua\"",
        "a".repeat(200),
        "r".repeat(100)
    );
    let (_, out, _) = run(
        &["check", "--input-format", "clf", "--json", "--quiet", "--summary"],
        format!("{line}\n").as_bytes(),
    );
    let summary: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(summary["summary"]["errors"][0]["first"]["input"], line.as_str());
    assert_eq!(summary["summary"]["errors"][0]["first"]["bytes"], line.len());
    assert_eq!(summary["summary"]["referer_errors"][0]["first"]["input"], line.as_str());
    // The text summary cuts it to a line of a table, and says how long it is.
    let (_, out, _) = run(&["check", "--input-format", "clf", "--quiet"], format!("{line}\n").as_bytes());
    assert!(out.contains(&format!("{}... ({} bytes)", &line[..80], line.len())), "{out}");
}

#[test]
fn what_the_server_escaped_is_shown_as_written_and_raw_bytes_escaped_once() {
    // nginx writes a TLS hello's bytes as `\x16`, Apache a quote as `\"`.
    let escaped = r#"192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] "\x16\x03\x01" 400 226 "-" "-""#;
    let quoted = r#"192.0.2.2 - - [10/Oct/2000:13:55:36 -0700] "GET /a\"b HTTP/1.1" 400 0 "-" "-""#;
    let raw = "192.0.2.3 - - [10/Oct/2000:13:55:36 -0700] \"GET /a\x16b HTTP/1.1\" 400 0 \"-\" \"-\"";
    let log = format!("{escaped}\n{quoted}\n{raw}\n");
    let (_, out, err) = run(&["check", "--input-format", "clf"], log.as_bytes());
    for shown in [escaped, quoted, &raw.replace('\x16', r"\x16")] {
        assert!(out.contains(shown) || err.contains(shown), "{shown}\n{out}{err}");
    }
    assert!(!out.contains(r"\\") && !err.contains(r"\\"), "{out}{err}");
}

#[test]
fn several_files_get_a_row_each_in_the_summary() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.log"), dir.path().join("b.log"));
    std::fs::write(&a, LOG).unwrap();
    std::fs::write(&b, LOG.lines().take(2).collect::<Vec<_>>().join("\n")).unwrap();
    let args = ["check", "--input-format", "clf", a.to_str().unwrap(), b.to_str().unwrap()];
    let (_, out, _) = run(&args, b"");
    let row = |name: &std::path::Path, v: u64, i: u64| {
        let name = name.to_str().unwrap();
        out.lines().any(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            w == [name, &v.to_string(), &i.to_string()]
        })
    };
    assert!(out.contains("  file "), "{out}");
    assert!(row(&a, 3, 3) && row(&b, 1, 1), "{out}");
    let mut json = args.to_vec();
    json.extend(["--json", "--quiet", "--summary"]);
    let (_, out, _) = run(&json, b"");
    let summary: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        summary["summary"]["files"],
        serde_json::json!([
            {"file": a.to_str().unwrap(), "valid": 3, "invalid": 3},
            {"file": b.to_str().unwrap(), "valid": 1, "invalid": 1},
        ])
    );
    // One file: no row of its own.
    let (_, out, _) = run(&["check", "--input-format", "clf", a.to_str().unwrap()], b"");
    assert!(!out.contains("  file "), "{out}");
}

#[test]
fn the_other_fields_of_a_log_format_are_in_each_record_typed() {
    let nginx = r#"$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" $request_time "$http_x_forwarded_for""#;
    let log = concat!(
        r#"192.0.2.1 - - [10/Oct/2000:13:55:36 +0000] "GET /a HTTP/1.1" 200 5 "-" "ua" 0.012 "203.0.113.9""#,
        "\n",
        r#"192.0.2.2 - - [10/Oct/2000:13:55:37 +0000] "GET /b HTTP/1.1" 200 5 "-" "ua" - "-""#,
        "\n",
    );
    let (code, out, _) = run(&["check", "--log-format", nginx, "--json"], log.as_bytes());
    assert_eq!(code, 0, "{out}");
    let r: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(
        r[0]["fields"],
        serde_json::json!({"request_time": 0.012, "http_x_forwarded_for": "203.0.113.9"})
    );
    assert_eq!(r[1]["fields"], serde_json::json!({"request_time": null, "http_x_forwarded_for": null}));
    // A format with no other field: no `fields` key.
    let (_, out, _) = run(&["check", "--log-format", "combined", "--json"], LOG.as_bytes());
    assert!(!out.contains("\"fields\""), "{out}");
}

//! The log analyst's day, end to end through the real binary: a generated
//! Combined log of 100 000 lines (IPv6 clients, CONNECT lines, proxy
//! requests, garbage lines, lenient-only targets) through `check --format
//! clf --json`, `--summary`, `--keep-lines` and `--lenient`. Each record
//! is the one `rfc1738_report::clf::record` gives, the function the Python
//! reader (`arrow_clf_check`) and the Dask recipe (`clf_check_log`) read
//! every line through; `crates/rfc1738-py/tests/test_clf_day.py` feeds the
//! same lines to those two and to the command.

use assert_cmd::Command;
use rfc1738_report::clf;
use serde_json::Value;
use std::collections::BTreeMap;

const LINES: usize = 100_000;

/// The kinds of line the day's log holds.
const KINDS: usize = 10;

/// Line `i` of the log: its kind is `i % KINDS`, the rest varies with a
/// generator so that no two days' lines line up by accident.
fn line(i: usize, r: u64) -> String {
    let date = "[10/Oct/2000:13:55:36 -0700]";
    let v4 = format!("10.{}.{}.{}", r % 256, (r >> 8) % 256, (r >> 16) % 256);
    let v6 = format!("2001:db8::{:x}", r % 0xffff);
    let ua = "\"-\" \"Mozilla/5.0 (X11; Linux x86_64)\"";
    match i % KINDS {
        0 | 1 => format!("{v4} - - {date} \"GET /p/{r}?q={} HTTP/1.1\" 200 {} {ua}", r % 97, r % 5000),
        2 => format!("{v6} - - {date} \"GET /img/{r}.png HTTP/1.1\" 304 - \"http://ref.dom/\" \"ua\""),
        3 => format!("{v6} - - {date} \"CONNECT h{}.dom:443 HTTP/1.1\" 200 0 {ua}", r % 50),
        4 => format!("{v4} - - {date} \"GET http://proxy.dom/{r} HTTP/1.0\" 200 12"),
        5 => format!("{v4} - - {date} \"GET /~user{}/ HTTP/1.1\" 200 99 {ua}", r % 10),
        6 => format!("{v6} - john {date} \"GET /a b HTTP/1.1\" 400 0"),
        7 => match r % 3 {
            0 => "\"GET / HTTP/1.1\"".to_string(),
            1 => format!("garbage line {r}"),
            _ => format!("{v4} - - {date} \"GET /x HTTP/1.1\""),
        },
        8 => format!("{v4} - - {date} \"-\" 408 0"),
        _ => format!("fe80::{:x} - - {date} \"OPTIONS * HTTP/1.1\" 200 0", r % 4096),
    }
}

/// The day's log.
fn log() -> String {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut out = String::with_capacity(LINES * 110);
    for i in 0..LINES {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        out.push_str(&line(i, state % 1_000_000_007));
        out.push('\n');
    }
    out
}

fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    let o = Command::cargo_bin("rfc1738").unwrap().args(args).write_stdin(stdin).output().unwrap();
    (o.status.code().unwrap(), String::from_utf8(o.stdout).unwrap(), String::from_utf8(o.stderr).unwrap())
}

#[test]
fn the_day_a_log_goes_through_check() {
    let log = log();
    let lines: Vec<&str> = log.lines().collect();

    // Morning: one record per line, in order, each the library's record.
    let (code, out, _) = run(&["check", "--input-format", "clf", "--json", "--jobs", "2"], &log);
    assert_eq!(code, 1);
    let records: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(records.len(), LINES);
    let mut rows: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    for (i, (got, text)) in records.iter().zip(&lines).enumerate() {
        assert_eq!((&got["line"], &got["input"]), (&Value::from(i + 1), &Value::from(*text)));
        let want = clf::record_with(text.as_bytes(), false, clf::Fields::BOTH);
        let mut expected = serde_json::Map::new();
        expected.insert("file".into(), "<stdin>".into());
        expected.insert("line".into(), (i + 1).into());
        expected.insert("input".into(), (*text).into());
        expected.extend(want.to_json());
        assert_eq!(got, &Value::Object(expected), "line {}", i + 1);
        let row = rows.entry(want.row().to_owned()).or_default();
        if want.verdict.is_ok() {
            row.0 += 1;
        } else {
            row.1 += 1;
        }
        // The scheme is the request URL's, never the client's address;
        // `OPTIONS *` is `*` here as in the summary.
        let scheme = got["scheme"].as_str();
        // A line without a request URL: the summary's row, the same word.
        assert!(
            matches!(scheme, Some("http" | "*" | "(no request)" | "(not clf)")),
            "line {}: {scheme:?}",
            i + 1
        );
        assert_eq!(scheme, Some(want.row()), "line {}", i + 1);
        // A line that is not a log line is never a valid request.
        if i % KINDS == 7 {
            assert_eq!(got["valid"], false, "line {}", i + 1);
            assert!(got["error"]["kind"].as_str().unwrap().starts_with("clf-"), "line {}", i + 1);
        }
    }
    let per_kind = (LINES / KINDS) as u64;
    assert_eq!(rows["(not clf)"], (0, per_kind), "the garbage lines, under their own row");
    assert_eq!(rows["(no request)"], (0, per_kind));
    assert_eq!(rows["*"], (per_kind, 0));
    assert_eq!(rows["http"], (5 * per_kind, 2 * per_kind), "GET, proxy, CONNECT; ~ and space invalid");

    // Noon: the summary agrees with the records.
    let (_, out, _) = run(&["check", "--input-format", "clf", "--json", "--summary", "-q"], &log);
    let s: Value = serde_json::from_str(out.trim()).unwrap();
    let s = &s["summary"];
    assert_eq!(s["checked"], LINES);
    for row in s["schemes"].as_array().unwrap() {
        let name = row["scheme"].as_str().unwrap();
        assert_eq!((row["valid"].as_u64().unwrap(), row["invalid"].as_u64().unwrap()), rows[name], "{name}");
    }
    let valid: u64 = rows.values().map(|r| r.0).sum();
    assert_eq!(s["valid"], valid);

    // Afternoon: one line out per line in, to paste beside the log.
    let (_, out, err) = run(&["check", "--input-format", "clf", "--keep-lines"], &log);
    let kept: Vec<&str> = out.lines().collect();
    assert_eq!(kept.len(), LINES);
    for (i, (k, r)) in kept.iter().zip(&records).enumerate() {
        let place = format!("<stdin>:{}:", i + 1);
        assert!(k.starts_with(&place), "{k}");
        assert_eq!(k.ends_with(": valid"), r["valid"] == true, "{k}");
    }
    assert!(err.contains(&format!("checked {LINES} log lines")), "{err}");

    // Evening: leniently, the `~` and space targets are valid, and each
    // says why; the lines that hold no request stay invalid.
    let (_, out, _) = run(&["check", "--input-format", "clf", "--lenient", "--json", "--invalid-only"], &log);
    let invalid: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(invalid.len() as u64, 2 * per_kind, "garbage and dash, nothing else");
    let (_, out, _) =
        run(&["check", "--input-format", "clf", "--lenient", "--json", "--summary", "-q"], &log);
    let s: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(s["summary"]["warnings"][0]["kind"], "unsafe-char");
    assert_eq!(s["summary"]["warnings"][0]["count"], 2 * per_kind);
}

//! The contract every line-oriented subcommand holds (README, "The
//! contract"), run through the real binary: one output line per input line
//! with `--keep-lines`, `--lenient` never silent, Common Log Format
//! records, exit statuses, tables that keep absent apart from empty,
//! RFC 1808 where it allows, help that teaches, SARIF.

use assert_cmd::Command;
use serde_json::Value;

struct Run {
    code: i32,
    out: String,
    err: String,
}

fn run(args: &[&str], stdin: &str) -> Run {
    let o = Command::cargo_bin("rfc1738")
        .unwrap()
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .args(args)
        .write_stdin(stdin)
        .output()
        .unwrap();
    Run {
        code: o.status.code().unwrap_or(-1),
        out: String::from_utf8(o.stdout).unwrap(),
        err: String::from_utf8(o.stderr).unwrap(),
    }
}

fn json_lines(out: &str) -> Vec<Value> {
    out.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// Six lines: valid, invalid, valid, empty, lenient-only, valid.
const MIXED: &str = "http://a.dom/\nhttp://b.dom/ x\nftp://c.dom/f\n\nhttp://d.dom/~me\nnews:comp.lang.c\n";

#[test]
fn keep_lines_writes_one_line_per_input_line_in_every_subcommand() {
    let n = MIXED.lines().count();
    for args in [
        &["parse", "--keep-lines", "--get", "{valid} {host}"][..],
        &["normalize", "--keep-lines"],
        &["resolve", "--keep-lines", "http://base.dom/d/"],
        &["check", "--keep-lines"],
        &["check", "--keep-lines", "--input-format", "clf"],
        &["lint", "--keep-lines"],
        &["extract", "--keep-lines"],
        &["parse", "--json"],
        &["check", "--json"],
        &["resolve", "--json", "http://base.dom/d/"],
        &["lint", "--json", "--keep-lines"],
        &["extract", "--json", "--keep-lines"],
    ] {
        let r = run(args, MIXED);
        assert_eq!(r.out.lines().count(), n, "{args:?}:\n{}", r.out);
        // (extract finds `http://b.dom/` on line 2, a valid URL.)
        assert_eq!(r.code, i32::from(args[0] != "extract"), "{args:?}: something was invalid");
    }
    // The invalid line is an empty field, its error on stderr with its place.
    let r = run(&["normalize", "--keep-lines"], MIXED);
    assert_eq!(r.out.lines().nth(1), Some(""));
    assert!(r.err.contains("rfc1738: <stdin>:2:14: error[unsafe]: unsafe character"), "{}", r.err);
    let r = run(&["resolve", "--keep-lines", "http://base.dom/d/"], MIXED);
    assert_eq!(r.out.lines().collect::<Vec<_>>()[..3], ["http://a.dom/", "", "ftp://c.dom/f"]);
    assert!(
        r.err.contains("rfc1738: <stdin>:2:14: error[invalid-char]: cannot resolve \"http://b.dom/ x\""),
        "{}",
        r.err
    );
    // A line too long to keep has its column too, the first.
    let r = run(&["resolve", "--max-len", "5", "http://base.dom/d/"], "http://a.dom/\n");
    assert!(r.err.starts_with("rfc1738: <stdin>:1:1: "), "{}", r.err);
    let r = run(&["check", "--keep-lines"], MIXED);
    let lines: Vec<&str> = r.out.lines().collect();
    assert_eq!(lines[0], "<stdin>:1: valid");
    assert!(
        lines[1].starts_with("<stdin>:2:14: error[unsafe]: unsafe character must be encoded (in hpath)"),
        "{}",
        lines[1]
    );
    // The empty line holds no URL: not counted.
    assert!(r.err.contains("checked 5 URLs"), "the summary goes to stderr: {}", r.err);
    // Plain parse writes a block per input, the invalid ones too.
    let r = run(&["parse", "--keep-lines"], "http://a.dom/\nhttp://b.dom/ x\n");
    assert_eq!(r.out.matches("\n\n").count(), 2, "{}", r.out);
    assert!(r.out.contains("http://b.dom/ x\n  error           unsafe character"), "{}", r.out);
    // Without it, invalid lines write nothing on stdout.
    assert_eq!(run(&["normalize"], MIXED).out.lines().count(), 3);
}

#[test]
fn every_json_record_of_a_line_says_its_file_line_and_column() {
    // Line 2 is invalid at offset 8 (column 9); line 3 is empty.
    let lines = "http://a.dom/x\nftp://b/%zz\n\nhttp://c.dom/\n";
    for args in [
        &["normalize", "--json"][..],
        &["set", "--json", "-", "host=d.dom"],
        &["resolve", "--json", "http://base.dom/d/"],
        &["check", "--json"],
    ] {
        // The empty line is answered by an empty line, not a record.
        let out = run(args, lines).out;
        let records = json_lines(&out.lines().filter(|l| !l.is_empty()).collect::<Vec<_>>().join("\n"));
        let located: Vec<_> = records.iter().map(|r| (r["file"].as_str(), r["line"].as_u64())).collect();
        assert_eq!(located, [1, 2, 4].map(|l| (Some("<stdin>"), Some(l))), "{args:?}: {records:?}");
        // `file` and `line` come first, as in `check --json`.
        let first = serde_json::to_string(&records[0]).unwrap();
        assert!(first.starts_with(r#"{"file":"<stdin>","line":1,"#), "{args:?}: {first}");
        if args[0] != "resolve" {
            assert_eq!(records[1]["error"]["column"], 9, "{args:?}: {:?}", records[1]);
        }
    }
    // An argument has no file and no line.
    let r = run(&["normalize", "--json", "ftp://b/%zz"], "");
    let record = &json_lines(&r.out)[0];
    assert!(record.get("file").is_none() && record.get("line").is_none(), "{record}");
    assert_eq!(record["error"]["column"], 9);
    // `parse --json` gives the column; its `file` is a file URL's parts.
    let r = run(&["parse", "--json"], "ftp://b/%zz\nfile://h/p\n");
    let records = json_lines(&r.out);
    assert_eq!(records[0]["error"]["column"], 9);
    assert!(records[0].get("line").is_none());
    assert_eq!(records[1]["file"]["path"], "p");
}

#[test]
fn lenient_reports_every_deviation_in_text_json_and_summary() {
    let input = "http://a.dom/~me\nhttp://b_c.dom/\nhttp://ok.dom/\n";
    let r = run(&["check", "--lenient"], input);
    assert_eq!(r.code, 0);
    assert!(
        r.out.contains("rfc1738: <stdin>:1:14: warning[unsafe-char]: unsafe character \"~\""),
        "{}",
        r.out
    );
    assert!(r.out.contains("rfc1738: <stdin>:2:9: warning["), "{}", r.out);
    assert!(r.out.contains("unsafe-char") && r.out.contains("underscore-in-host"), "{}", r.out);
    let r = run(&["check", "--lenient", "--json"], input);
    let objs = json_lines(&r.out);
    assert_eq!(objs[0]["warnings"][0]["kind"], "unsafe-char");
    assert_eq!(objs[0]["warnings"][0]["offset"], 13);
    assert_eq!(objs[2]["warnings"], serde_json::json!([]));
    let r = run(&["check", "--lenient", "--json", "--summary", "-q"], input);
    let s: Value = serde_json::from_str(r.out.trim()).unwrap();
    let kinds: Vec<&str> =
        s["summary"]["warnings"].as_array().unwrap().iter().map(|w| w["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["unsafe-char", "underscore-in-host"]);
    // Strict by default: the same lines are invalid.
    assert_eq!(run(&["check"], input).code, 1);
    // Every other subcommand that parses takes it, and says what it accepted.
    let log = "h - - [d] \"GET /~joe/ HTTP/1.1\" 200 1\n";
    let r = run(&["check", "--input-format", "clf", "--lenient", "--json"], log);
    // The "~" at byte 16 of the line.
    assert_eq!((r.code, &json_lines(&r.out)[0]["warnings"][0]["offset"]), (0, &Value::from(16)));
    let r = run(&["resolve", "--lenient", "http://h.dom/a/b", "~me"], "");
    assert_eq!((r.code, r.out.as_str()), (0, "http://h.dom/a/~me\n"));
    assert!(r.err.contains("warning[unsafe-char]"), "{}", r.err);
    let r = run(&["explain", "--lenient", "http://h.dom/~me"], "");
    assert_eq!(r.code, 0);
    assert!(r.err.contains("warning[unsafe-char]"), "{}", r.err);
    let r = run(&["extract", "--lenient", "--json"], "see <URL:http://h.dom/a~b>\n");
    assert_eq!((r.code, &json_lines(&r.out)[0]["warnings"][0]["kind"]), (0, &Value::from("unsafe-char")));
    let r = run(&["set", "--lenient", "http://h.dom/~me", "host=k.dom"], "");
    assert_eq!((r.code, r.out.as_str()), (0, "http://k.dom/%7Eme\n"));
    assert!(r.err.contains("warning[unsafe-char]"), "{}", r.err);
    let r = run(&["resolve", "--lenient", "http://h_x.dom/a", "b"], "");
    assert!(
        r.err.matches("warning[underscore-in-host]").count() == 2,
        "the base's and the result's: {}",
        r.err
    );
    let r = run(&["same", "--lenient", "http://h.dom/~x", "http://h.dom/%7ex"], "");
    assert_eq!(r.code, 0);
    assert!(r.err.contains("warning[unsafe-char]"), "{}", r.err);
}

#[test]
fn clf_records_name_the_request_and_not_the_client() {
    let log = concat!(
        "2001:db8::1 - - [10/Oct/2000:13:55:36 -0700] \"GET /a?b HTTP/1.1\" 404 512 \"-\" \"ua\"\n",
        "\"GET / HTTP/1.1\"\n",
        "10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] \"CONNECT a.dom:443 HTTP/1.1\" 200 -\n",
        "10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] \"GET ftp://f.dom/x HTTP/1.0\" 200 5\n",
    );
    let r = run(&["check", "--input-format", "clf", "--json"], log);
    let objs = json_lines(&r.out);
    let o = &objs[0];
    assert_eq!((&o["scheme"], &o["method"], &o["target"]), (&"http".into(), &"GET".into(), &"/a?b".into()));
    assert_eq!((&o["protocol"], &o["status"], &o["bytes"]), (&"HTTP/1.1".into(), &404.into(), &512.into()));
    assert_eq!((&objs[1]["valid"], &objs[1]["error"]["kind"]), (&false.into(), &"clf-no-date".into()));
    assert_eq!((&objs[2]["method"], &objs[2]["bytes"]), (&"CONNECT".into(), &Value::Null));
    assert_eq!(objs[3]["scheme"], "ftp");
    // The summary counts the line that is not CLF under its own row.
    let r = run(&["check", "--input-format", "clf", "-q"], log);
    assert!(r.out.contains("checked 4 log lines: 3 valid, 1 invalid"), "{}", r.out);
    assert!(r.out.contains("  (not clf)  "), "{}", r.out);
    // --invalid-only: the invalid line alone.
    let r = run(&["check", "--input-format", "clf", "--json", "--invalid-only"], log);
    assert_eq!(json_lines(&r.out).iter().map(|o| o["line"].as_u64().unwrap()).collect::<Vec<_>>(), [2]);
    // Plain check on a log says to use --input-format clf.
    let r = run(&["check", "-q"], log);
    assert!(r.err.contains("add --input-format clf"), "{}", r.err);
    assert!(!run(&["check", "-q"], "http://a.dom/\n").err.contains("--input-format clf"));
}

#[test]
fn summary_columns_never_run_together() {
    let log = "h - - [d] \"GET /x HTTP/1.1 200 1\n";
    let r = run(&["check", "--input-format", "clf"], log);
    let row = r.out.lines().find(|l| l.starts_with("  clf-unterminated-request")).unwrap();
    assert!(row.contains("clf-unterminated-request  clf"), "{row}");
}

#[test]
fn exit_status_is_0_valid_1_invalid_2_usage_or_io() {
    let r = run(&["same", "http://a b/", "http://h.dom/"], "");
    assert_eq!(r.code, 1);
    assert!(r.err.contains("error[unsafe]"), "{}", r.err);
    let r = run(&["lint", "http://h.dom/"], "");
    assert_eq!(r.code, 2);
    assert!(r.err.contains("the arguments are files of URLs") && r.err.contains("echo"), "{}", r.err);
    assert_eq!(run(&["check", "http://h.dom/"], "").code, 2);
    assert_eq!(run(&["parse", "--no-such-flag"], "").code, 2);
    assert_eq!(run(&["parse", "http://h.dom/"], "").code, 0);
    assert_eq!(run(&["parse", "http://h dom/"], "").code, 1);
    // Results on stdout, diagnostics on stderr.
    let r = run(&["normalize", "HTTP://h.dom/", "http://h dom/"], "");
    assert_eq!((r.code, r.out.as_str()), (1, "http://h.dom/\n"));
    assert!(r.err.starts_with("rfc1738: <args>:2:9: error[unsafe]"), "{}", r.err);
}

#[test]
fn tables_keep_empty_apart_from_absent() {
    let r = run(&["parse", "--format", "csv", "ftp://@a.dom/", "ftp://a.dom/", "ftp://u:@a.dom/"], "");
    let rows: Vec<&str> = r.out.lines().collect();
    assert_ne!(rows[1], rows[2], "ftp://@a.dom/ and ftp://a.dom/ are different rows");
    // user, password: "" is empty, nothing is absent.
    assert!(rows[1].contains(",\"\",,a.dom,"), "{}", rows[1]);
    assert!(rows[2].contains(",,,a.dom,"), "{}", rows[2]);
    assert!(rows[3].contains(",u,\"\",a.dom,"), "{}", rows[3]);
    let r = run(&["parse", "--format", "tsv", "ftp://@a.dom/", "ftp://a.dom/"], "");
    let rows: Vec<&str> = r.out.lines().collect();
    assert!(rows[1].contains("\t\"\"\t\ta.dom\t"), "{:?}", rows[1]);
    assert!(rows[2].contains("\t\t\ta.dom\t"), "{:?}", rows[2]);
    // An RFC 4180 reader still reads every row.
    let table = run(&["parse", "--format", "csv", "http://a.dom/x,y"], "").out;
    let mut reader = csv::Reader::from_reader(table.as_bytes());
    assert_eq!(&reader.records().next().unwrap().unwrap()[0], "http://a.dom/x,y");
}

#[test]
fn resolve_and_relative_follow_rfc_1808_where_it_allows() {
    let r = run(&["resolve", "gopher://h.dom/1dir/sub", "other", "mailto:a@b.dom"], "");
    assert_eq!((r.code, r.out.as_str()), (0, "gopher://h.dom/1dir/other\nmailto:a@b.dom\n"));
    let r = run(&["resolve", "mailto:a@b.dom", "http://h.dom/", "#f", "x"], "");
    assert_eq!((r.code, r.out.as_str()), (1, "http://h.dom/\nmailto:a@b.dom#f\n"));
    assert!(r.err.contains("mailto URLs have no hierarchical path"), "{}", r.err);
    assert!(!r.err.contains(" a other "));
    let r = run(&["relative", "http://a/b/c/d", "http://a/b/"], "");
    assert_eq!((r.code, r.out.as_str()), (0, "..\n"));
    let r = run(&["relative", "http://a/b#f", "http://a/b#f"], "");
    assert_eq!((r.code, r.out.as_str()), (0, "\n"));
}

#[test]
fn set_changes_parts_through_the_builders() {
    let r = run(&["set", "ftp://h.dom/pub/x", "user=me@home", "ftp.name=a;b"], "");
    assert_eq!((r.code, r.out.as_str()), (0, "ftp://me%40home@h.dom/pub/a%3Bb\n"));
    let r = run(
        &["set", "--keep-lines", "-", "host=mirror.dom", "port="],
        "http://a.dom:81/x\nbad url\nftp://@b.dom/f\n",
    );
    assert_eq!((r.code, r.out.as_str()), (1, "http://mirror.dom/x\n\nftp://@mirror.dom/f\n"));
    assert!(r.err.contains("<stdin>:2:"), "{}", r.err);
    let r = run(&["set", "http://h.dom/", "user=me"], "");
    assert_eq!(r.code, 1);
    assert!(r.err.contains("user: not a part set can change in this http URL"), "{}", r.err);
    let r = run(&["set", "http://h.dom/", "host=a b"], "");
    assert_eq!(r.code, 1);
    assert!(r.err.contains("host"), "{}", r.err);
    assert_eq!(run(&["set", "http://h.dom/", "nonsense"], "").code, 2);
}

#[test]
fn set_keeps_a_port_too_large_for_any_integer() {
    // §3.1: `port = digits`, with no range: changing another part must
    // not drop a port of more digits than a u64 holds.
    let big = "99999999999999999999";
    let r = run(&["set", &format!("http://h.dom:{big}/a"), "host=k.dom"], "");
    assert_eq!((r.code, r.out.as_str()), (0, format!("http://k.dom:{big}/a\n").as_str()));
    let r = run(&["set", &format!("ftp://h.dom:{big}/x"), "ftp.name=y"], "");
    assert_eq!((r.code, r.out.as_str()), (0, format!("ftp://h.dom:{big}/y\n").as_str()));
    // Removed when asked.
    let r = run(&["set", &format!("http://h.dom:{big}/a"), "port="], "");
    assert_eq!((r.code, r.out.as_str()), (0, "http://h.dom/a\n"));
}

const SUBCOMMANDS: [&str; 14] = [
    "parse",
    "check",
    "explain",
    "extract",
    "normalize",
    "same",
    "lint",
    "resolve",
    "relative",
    "set",
    "fetch",
    "mirror",
    "serve",
    "man",
];

#[test]
fn every_help_ends_with_examples_and_every_man_page_has_the_sections() {
    for sub in SUBCOMMANDS {
        let r = run(&[sub, "--help"], "");
        assert_eq!(r.code, 0, "{sub}");
        let at = r.out.find("Examples:").unwrap_or_else(|| panic!("{sub} --help has no examples"));
        let examples = r.out[at..].lines().filter(|l| l.trim_start().starts_with("rfc1738 ")).count();
        assert!((2..=4).contains(&examples), "{sub}: {examples} examples");
        let r = run(&["man", sub], "");
        for section in [".SH EXAMPLES", ".SH \"EXIT STATUS\"", ".SH ENVIRONMENT"] {
            assert!(r.out.contains(section), "{sub}: {section}");
        }
    }
    let r = run(&["man"], "");
    assert!(r.out.contains(".SH \"EXIT STATUS\"") && r.out.contains("NO_COLOR"), "{}", r.out);
}

#[test]
fn lint_sarif_is_valid_sarif_2_1_0_with_file_line_and_column() {
    let dir = std::env::temp_dir().join(format!("rfc1738-sarif-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("urls list.txt");
    std::fs::write(&file, "gopher://mail.dom:25/7x%09HELO%0D%0A\nhttp://a b/\nhttp://h.dom/~me\n").unwrap();
    let r = run(&["lint", "--lenient", "--format", "sarif", file.to_str().unwrap()], "");
    assert_eq!(r.code, 1);
    let log: Value = serde_json::from_str(&r.out).unwrap();

    let schema: Value = serde_json::from_str(include_str!("fixtures/sarif-schema-2.1.0.json")).unwrap();
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler.add_resource("file:///sarif-schema-2.1.0.json", schema).unwrap();
    let index = compiler.compile("file:///sarif-schema-2.1.0.json", &mut schemas).unwrap();
    if let Err(e) = schemas.validate(&log, index) {
        panic!("not valid SARIF 2.1.0: {e:#}\n{}", r.out);
    }
    // A log that breaks the schema is caught: the validator is not idle.
    let mut broken = log.clone();
    broken["runs"][0]["results"][0]["level"] = "fatal".into();
    assert!(schemas.validate(&broken, index).is_err());

    let results = log["runs"][0]["results"].as_array().unwrap();
    let levels: Vec<&str> = results.iter().map(|r| r["level"].as_str().unwrap()).collect();
    assert_eq!(levels, ["warning", "warning", "warning", "error", "note"]);
    let place = &results[3]["locations"][0]["physicalLocation"];
    assert!(place["artifactLocation"]["uri"].as_str().unwrap().ends_with("/urls%20list.txt"));
    assert_eq!((&place["region"]["startLine"], &place["region"]["startColumn"]), (&2.into(), &9.into()));
    let rules = log["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules[results[3]["ruleIndex"].as_u64().unwrap() as usize]["id"], "unsafe");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The README and the command's guide (docs/GUIDE.md), read from the checkout.
fn readme() -> String {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../");
    ["README.md", "docs/GUIDE.md"]
        .map(|page| std::fs::read_to_string(format!("{root}{page}")).unwrap())
        .concat()
}

#[test]
fn the_readme_command_table_names_only_flags_the_binary_has() {
    let readme = readme();
    let start = readme.find("## The command\n").unwrap();
    let table = &readme[start..];
    let table = &table[table.find("```text\n").unwrap() + 8..];
    let table = &table[..table.find("```").unwrap()];
    let mut checked = 0;
    for line in table.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(sub) = words.get(1).filter(|w| w.chars().all(|c| c.is_ascii_lowercase())) else { continue };
        let help = run(&[sub, "--help"], "").out;
        for flag in words.iter().filter(|w| w.starts_with("[--") || w.starts_with("--")) {
            let flag = flag.trim_start_matches('[').split([']', ' ']).next().unwrap();
            assert!(help.contains(flag), "README: `rfc1738 {sub} {flag}`, but {sub} --help has no {flag}");
            checked += 1;
        }
    }
    assert!(checked >= 10, "{checked} flags checked");
}

/// Every console example of the README and the guide runs as shown, in a
/// copy of docs/examples/ (the files they read: `urls.txt`,
/// `access.log.gz`, `big.log.gz`...): its output, stdout and stderr as a
/// terminal shows them, is the one the page shows; `echo $?` the status
/// of the command before. Those that need the server (`curl`) are left
/// to tests/serve.rs.
#[test]
fn the_readme_and_guide_examples_give_what_they_show() {
    let bin = assert_cmd::cargo::cargo_bin("rfc1738");
    let path = format!("{}:{}", bin.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    let dir = tempfile::tempdir().unwrap();
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/examples");
    for entry in std::fs::read_dir(&examples).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), dir.path().join(entry.file_name())).unwrap();
    }
    let readme = readme();
    let (mut ran, mut status) = (0, 0);
    for block in readme.split("```console\n").skip(1) {
        let block = &block[..block.find("```").unwrap()];
        for example in block.split("\n$ ").map(|e| e.trim_start_matches("$ ")) {
            let mut lines = example.lines();
            let mut command = String::new();
            for line in lines.by_ref() {
                match line.strip_suffix('\\') {
                    Some(part) => command.push_str(part),
                    None => {
                        command.push_str(line);
                        break;
                    }
                }
            }
            let expected: Vec<&str> = lines.collect();
            if ["curl", "127.0.0.1"].iter().any(|w| command.contains(w)) {
                continue;
            }
            // Trailing tabs and spaces do not show in a page.
            let trim = |text: &str| text.lines().map(str::trim_end).collect::<Vec<_>>().join("\n");
            if command == "echo $?" {
                assert_eq!(
                    status.to_string(),
                    expected.join("\n").trim(),
                    "the status of the command before"
                );
                continue;
            }
            let o = std::process::Command::new("sh")
                .arg("-c")
                .arg(format!("{{ {command}\n}} 2>&1"))
                .current_dir(dir.path())
                .env("PATH", &path)
                .env_remove("NO_COLOR")
                .env_remove("CLICOLOR_FORCE")
                .output()
                .unwrap();
            status = o.status.code().unwrap_or(-1);
            let got = String::from_utf8(o.stdout).unwrap();
            assert_eq!(trim(&got).trim_end(), trim(&expected.join("\n")).trim_end(), "$ {command}");
            ran += 1;
        }
    }
    assert!(ran >= 16, "{ran} examples run");
}

/// Every page of docs/ is linked from the README, and every relative link
/// of the README and of those pages names a file that exists.
#[test]
fn every_page_is_reachable_from_the_readme_and_every_link_holds() {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let mut pages = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            assert!(readme.contains(&format!("](docs/{name})")), "README.md does not link docs/{name}");
            pages.push(path);
        }
    }
    let mut checked = 0;
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for link in text.split("](").skip(1).filter_map(|rest| rest.split(')').next()) {
            let target = link.split('#').next().unwrap();
            if target.is_empty() || target.contains("://") || target.contains(' ') {
                continue;
            }
            let file = page.parent().unwrap().join(target);
            assert!(file.exists(), "{}: the link {link} names no file", page.display());
            checked += 1;
        }
    }
    assert!(checked >= 20, "{checked} links checked");
}

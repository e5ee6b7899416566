//! The command for daily use, run as the real binary: `parse --get` and
//! `--format`, the `check` summaries, completions, manual pages, colour.

use assert_cmd::Command;
use serde_json::Value;
use std::fmt::Write as _;
use std::process::Command as Process;

/// The command, with the colour settings of the environment removed.
fn rfc1738() -> Command {
    let mut cmd = Command::cargo_bin("rfc1738").unwrap();
    cmd.env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE").env_remove("CLICOLOR");
    cmd
}

struct Run {
    code: i32,
    out: String,
    err: String,
}

fn run(cmd: &mut Command) -> Run {
    let o = cmd.output().unwrap();
    Run {
        code: o.status.code().unwrap_or(-1),
        out: String::from_utf8(o.stdout).unwrap(),
        err: String::from_utf8(o.stderr).unwrap(),
    }
}

fn get(template: &str, url: &str) -> String {
    let r = run(rfc1738().args(["parse", "--get", template, url]));
    assert_eq!(r.code, 0, "{url}: {}", r.err);
    r.out.strip_suffix('\n').unwrap().to_string()
}

#[test]
fn get_on_every_scheme() {
    let cases = [
        (
            "ftp://us%65r:p%40ss@h.dom:0021/pub/a%2Fb/f%20x;type=i",
            "{scheme} {host} {port} {:port} {effective_port}",
            "ftp h.dom 21 0021 21",
        ),
        (
            "ftp://us%65r:p%40ss@h.dom:0021/pub/a%2Fb/f%20x;type=i",
            "{user} {:user} {password}",
            "user us%65r p@ss",
        ),
        (
            "ftp://us%65r:p%40ss@h.dom:0021/pub/a%2Fb/f%20x;type=i",
            "{ftp.cwd}|{:ftp.cwd}|{ftp.name}|{ftp.typecode}",
            "pub/a%2Fb|pub/a%2Fb|f x|i",
        ),
        (
            "http://www.dom/a%20b?x=1",
            "{host}\\t{http.path}\\t{:http.path}\\t{http.search}",
            "www.dom\ta b\ta%20b\tx=1",
        ),
        (
            "gopher://h.dom/7sel%09query",
            "{gopher.type} {gopher.selector} {gopher.search} {effective_port}",
            "7 sel query 70",
        ),
        ("mailto:joe%2Bx@h.dom", "{mailto.address} {:mailto.address}", "joe+x@h.dom joe%2Bx@h.dom"),
        ("news:comp.lang.rust", "[{news.group}] [{news.article}]", "[comp.lang.rust] []"),
        ("news:1234@h.dom", "{news.article}", "1234@h.dom"),
        ("nntp://h.dom/comp.x/42", "{nntp.group} {nntp.article} {effective_port}", "comp.x 42 119"),
        ("telnet://u:p@h.dom:23/", "{user} {password} {host} {port}", "u p h.dom 23"),
        ("wais://h.dom/db/t/p", "{wais.form} {wais.database} {wais.wtype} {wais.wpath}", "doc db t p"),
        ("wais://h.dom/db?s%20t", "{wais.form} {wais.search}", "index s t"),
        ("file://h.dom/etc/motd", "{file.host} {file.path} {host}", "h.dom etc/motd h.dom"),
        ("prospero://h.dom/a%20b;k=v", "{prospero.hsoname} {prospero.fields}", "a b k=v"),
        ("x-mine:any/thing", "{scheme} {kind} {other.scheme_specific_part}", "x-mine other any/thing"),
        ("http://h.dom/#frag", "{fragment} {valid}", "frag true"),
    ];
    for (url, template, want) in cases {
        assert_eq!(get(template, url), want, "{url} with {template}");
    }
}

#[test]
fn get_keeps_each_url_on_one_line() {
    assert_eq!(get("{http.path}", "http://h.dom/a%0D%0Ab%FF%E2%82%AC"), "a%0D%0Ab%FF\u{20ac}");
    assert_eq!(get("{gopher.selector}", "gopher://h.dom/1a%01b"), "a%01b");
    assert_eq!(get("{{{scheme}}}", "http://h.dom/"), "{http}");
}

#[test]
fn get_skips_invalid_lines_unless_asked_to_keep_them() {
    let input = "http://a.dom/\nhttp://b.dom/ c\nftp://c.dom/x\n";
    let r = run(rfc1738().args(["parse", "--get", "{host}"]).write_stdin(input));
    assert_eq!((r.code, r.out.as_str()), (1, "a.dom\nc.dom\n"));
    assert!(
        r.err.contains("rfc1738: <stdin>:2:14: error[unsafe]: unsafe character must be encoded (in hpath)"),
        "{}",
        r.err
    );
    let r = run(rfc1738()
        .args(["parse", "--keep-lines", "--get", "{host}|{error.offset}|{error.kind}"])
        .write_stdin(input));
    assert_eq!((r.code, r.out.as_str()), (1, "a.dom||\n|13|unsafe\nc.dom||\n"));
}

#[test]
fn get_names_an_unknown_part_with_its_offset() {
    let r = run(rfc1738().args(["parse", "--get", "{host} {prot}", "http://h.dom/"]));
    assert_eq!(r.code, 2);
    assert!(r.err.contains("unknown part `{prot}`"), "{}", r.err);
    assert!(r.err.contains("at offset 7"), "{}", r.err);
    assert_eq!(r.out, "");
}

fn table(delimiter: u8, text: &str) -> Vec<Vec<String>> {
    let mut reader =
        csv::ReaderBuilder::new().delimiter(delimiter).has_headers(false).from_reader(text.as_bytes());
    reader.records().map(|r| r.unwrap().iter().map(str::to_string).collect()).collect()
}

#[test]
fn format_csv_quotes_commas_and_quotes() {
    let input = "http://a.dom/x,y\nhttp://a.dom/\"q\"\nftp://u:p@h.dom/f\n";
    let r = run(rfc1738().args(["parse", "--format", "csv"]).write_stdin(input));
    assert_eq!(r.code, 1);
    assert!(r.out.contains("\"http://a.dom/\"\"q\"\"\""), "{}", r.out);
    let rows = table(b',', &r.out);
    assert_eq!(rows.len(), 4);
    let header = &rows[0];
    assert_eq!(header[..4], ["input", "valid", "error.offset", "error.kind"]);
    let col = |row: &Vec<String>, name: &str| row[header.iter().position(|h| h == name).unwrap()].clone();
    assert_eq!(col(&rows[1], "input"), "http://a.dom/x,y");
    assert_eq!(col(&rows[1], "valid"), "true");
    assert_eq!(col(&rows[2], "input"), "http://a.dom/\"q\"");
    assert_eq!((col(&rows[2], "error.offset"), col(&rows[2], "error.kind")), ("13".into(), "unsafe".into()));
    assert_eq!(col(&rows[3], "user"), "u");
    assert_eq!(col(&rows[3], "warnings"), "password");
    assert_eq!(col(&rows[3], "effective_port"), "21");
}

#[test]
fn format_tsv_has_the_same_columns() {
    let csv = run(rfc1738().args(["parse", "--format", "csv", "http://a.dom/x,y", "gopher://h/"]));
    let tsv = run(rfc1738().args(["parse", "--format", "tsv", "http://a.dom/x,y", "gopher://h/"]));
    assert_eq!(tsv.code, 0);
    assert!(tsv.out.starts_with("input\tvalid\t"), "{}", tsv.out);
    assert_eq!(table(b'\t', &tsv.out), table(b',', &csv.out));
    // An empty input still has its header.
    let r = run(rfc1738().args(["parse", "--format", "csv"]).write_stdin(""));
    assert_eq!(r.out.lines().count(), 1);
}

/// A log of known errors: 60 valid lines, 25 with a space in the path,
/// 10 with a bad port, 5 without a scheme, in a fixed shuffle.
fn generated_log() -> String {
    let mut text = String::new();
    for i in 0..100 {
        let line = match i % 20 {
            0..=11 => format!("http://h{i}.dom/ok"),
            12..=16 => format!("http://h{i}.dom/a b"),
            17 | 18 => format!("ftp://h{i}.dom:x/f"),
            _ => format!("h{i}.dom/no-scheme"),
        };
        writeln!(text, "{line}").unwrap();
    }
    text
}

#[test]
fn check_summary_by_error_kind_and_rule() {
    let r = run(rfc1738().args(["check", "--quiet"]).write_stdin(generated_log()));
    assert_eq!(r.code, 1);
    assert!(r.out.starts_with("checked 100 URLs: 60 valid, 40 invalid\n"), "{}", r.out);
    assert!(!r.out.contains('^'), "--quiet writes no report:\n{}", r.out);
    let row =
        |kind: &str| r.out.lines().find(|l| l.trim_start().starts_with(kind)).unwrap_or_default().to_string();
    let unsafe_row = row("unsafe");
    assert!(
        unsafe_row.contains("hpath") && unsafe_row.contains(" 25 ") && unsafe_row.contains("62.5%"),
        "{unsafe_row}"
    );
    assert!(unsafe_row.ends_with("<stdin>:13: http://h12.dom/a b"), "{unsafe_row}");
    assert!(row("invalid-char").contains("port") && row("invalid-char").contains("25.0%"), "{}", r.out);
    assert!(row("missing-colon").contains(" 5 "), "{}", r.out);
    let r = run(rfc1738().args(["check", "-q", "--top", "1"]).write_stdin(generated_log()));
    assert!(r.out.contains("(2 more kinds of error: 15 lines; --top to list them)"), "{}", r.out);
    assert!(!r.out.contains("missing-colon"), "{}", r.out);
}

#[test]
fn check_json_summary_is_the_last_record() {
    let r = run(rfc1738().args(["check", "--json", "--summary"]).write_stdin(generated_log()));
    let records: Vec<Value> = r.out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(records.len(), 101);
    let s = &records[100]["summary"];
    assert_eq!(
        (s["checked"].as_u64(), s["valid"].as_u64(), s["invalid"].as_u64()),
        (Some(100), Some(60), Some(40))
    );
    let first = &s["errors"][0];
    assert_eq!(
        (first["kind"].as_str(), first["rule"].as_str(), first["count"].as_u64()),
        (Some("unsafe"), Some("hpath"), Some(25))
    );
    assert_eq!(first["share"].as_f64(), Some(62.5));
    assert_eq!(first["first"]["line"].as_u64(), Some(13));
    assert_eq!(s["errors"].as_array().unwrap().len(), 3);
    assert_eq!(r.err, "", "the summary record replaces the text on stderr");
    let r = run(rfc1738().args(["check", "--json", "--summary", "--quiet"]).write_stdin(generated_log()));
    assert_eq!(r.out.lines().count(), 1);
}

#[test]
fn check_clf_counts_the_request_urls_scheme() {
    let mut log = String::new();
    for i in 0..10 {
        let target = if i < 7 { "/ok".to_string() } else { format!("/bad {i}") };
        writeln!(log, "10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] \"GET {target} HTTP/1.0\" 200 1").unwrap();
    }
    log.push_str("10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] \"GET ftp://h.dom/x HTTP/1.0\" 200 1\n");
    log.push_str("not a log line\n");
    let r =
        run(rfc1738().args(["check", "--input-format", "clf", "--json", "--summary", "-q"]).write_stdin(log));
    let s: Value = serde_json::from_str(r.out.trim()).unwrap();
    let schemes = &s["summary"]["schemes"];
    let counts = |name: &str| {
        let row = schemes.as_array().unwrap().iter().find(|r| r["scheme"] == name).unwrap();
        (row["valid"].as_u64().unwrap(), row["invalid"].as_u64().unwrap())
    };
    assert_eq!(counts("http"), (7, 3));
    assert_eq!(counts("ftp"), (1, 0));
    assert_eq!(counts("(not clf)"), (0, 1), "a line that is not CLF counts under its own kind");
    assert_eq!(s["summary"]["errors"][0]["count"].as_u64(), Some(3));
}

#[test]
fn completions_parse_in_their_shell() {
    for (shell, checker) in [("bash", "bash"), ("zsh", "zsh"), ("fish", "fish")] {
        let r = run(rfc1738().args(["completions", shell]));
        assert_eq!(r.code, 0);
        assert!(r.out.contains("rfc1738") && r.out.contains("parse"), "{shell}");
        let path = std::env::temp_dir().join(format!("rfc1738-completion-{}.{shell}", std::process::id()));
        std::fs::write(&path, &r.out).unwrap();
        // bash is always here; zsh and fish are checked where installed.
        match Process::new(checker).arg("-n").arg(&path).output() {
            Ok(o) => assert!(o.status.success(), "{shell}: {}", String::from_utf8_lossy(&o.stderr)),
            Err(_) => assert_ne!(shell, "bash", "bash must be installed"),
        }
        let _ = std::fs::remove_file(path);
    }
    for shell in ["powershell", "elvish"] {
        assert!(!run(rfc1738().args(["completions", shell])).out.is_empty());
    }
}

#[test]
fn man_pages_for_the_command_and_each_subcommand() {
    let dir = std::env::temp_dir().join(format!("rfc1738-man-{}", std::process::id()));
    assert_eq!(run(rfc1738().args(["man", "--dir"]).arg(&dir)).code, 0);
    for name in ["rfc1738", "rfc1738-parse", "rfc1738-check", "rfc1738-fetch", "rfc1738-completions"] {
        let page = std::fs::read_to_string(dir.join(format!("{name}.1"))).unwrap();
        assert!(page.contains(&format!(".TH {name} 1")), "{name}");
    }
    let page = run(rfc1738().args(["man", "check"])).out;
    assert!(page.contains("\\-\\-summary") && page.contains(".SH OPTIONS"), "{page}");
    // groff reads every page without a warning, where it is installed.
    if let Ok(o) = Process::new("groff").args(["-man", "-ww", "-z"]).arg(dir.join("rfc1738-parse.1")).output()
    {
        assert!(o.status.success() && o.stderr.is_empty(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let _ = std::fs::remove_dir_all(dir);
    let r = run(rfc1738().args(["man", "nope"]));
    assert_eq!(r.code, 2);
    assert!(r.err.contains("no subcommand `nope`"), "{}", r.err);
}

const ESC: char = '\u{1b}';

#[test]
fn colour_only_when_asked_and_never_with_no_color() {
    let bad = ["parse", "http://h.dom/ a"];
    // Not a terminal: plain.
    assert!(!run(rfc1738().args(bad)).err.contains(ESC));
    // Forced, as on a terminal: the caret and the head in colour.
    let forced = run(rfc1738().args(bad).env("CLICOLOR_FORCE", "1")).err;
    assert!(forced.contains(&format!("{ESC}[")), "{forced:?}");
    // NO_COLOR wins over the forcing, and --color never over both.
    assert!(!run(rfc1738().args(bad).env("CLICOLOR_FORCE", "1").env("NO_COLOR", "1")).err.contains(ESC));
    assert!(!run(rfc1738().args(["--color", "never"]).args(bad).env("CLICOLOR_FORCE", "1"))
        .err
        .contains(ESC));
    assert!(run(rfc1738().args(["--color", "always"]).args(bad)).err.contains(ESC));
    // check's reports and lint's levels follow the same rule.
    let check = run(rfc1738().args(["check", "--color", "always"]).write_stdin("http://h.dom/ a\n")).out;
    assert!(check.contains(ESC), "{check:?}");
    let lint = run(rfc1738().args(["lint", "--color", "always"]).write_stdin("ftp://u:p@h.dom/\n")).out;
    assert!(lint.contains(&format!("{ESC}[")), "{lint:?}");
    let lint = run(rfc1738()
        .args(["lint"])
        .env("NO_COLOR", "1")
        .env("CLICOLOR_FORCE", "1")
        .write_stdin("ftp://u:p@h.dom/\n"))
    .out;
    assert!(!lint.contains(ESC) && lint.contains("security[password]"), "{lint:?}");
}

#[test]
fn man_dir_replaces_a_page_only_by_a_complete_one() {
    // Each page is written beside the old one and renamed over it: a
    // hard link to the old page keeps its bytes, and no temporary file is
    // left behind.
    let dir = std::env::temp_dir().join(format!("rfc1738-man-replace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let keep = dir.join("keep");
    std::fs::write(&keep, "OLD").unwrap();
    std::fs::hard_link(&keep, dir.join("rfc1738-check.1")).unwrap();
    assert_eq!(run(rfc1738().args(["man", "--dir"]).arg(&dir)).code, 0);
    assert_eq!(std::fs::read_to_string(&keep).unwrap(), "OLD");
    let page = std::fs::read_to_string(dir.join("rfc1738-check.1")).unwrap();
    assert!(page.contains(".TH rfc1738-check 1"), "{page}");
    let names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(names.iter().all(|n| !n.to_string_lossy().ends_with(".part")), "{names:?}");
    // A page that cannot be written is named, and the status is 2.
    std::fs::remove_file(dir.join("rfc1738-parse.1")).unwrap();
    std::fs::create_dir(dir.join("rfc1738-parse.1")).unwrap();
    let r = run(rfc1738().args(["man", "--dir"]).arg(&dir));
    assert_eq!(r.code, 2);
    assert!(r.err.contains("rfc1738-parse.1"), "{}", r.err);
    let _ = std::fs::remove_dir_all(dir);
}

//! Every example at the end of every `--help`, and in the EXAMPLES of
//! every manual page, runs as printed, in a directory holding the files
//! the examples name (`urls.txt`, `mail.txt`, `access.log`, `log.gz`, ...).
//!
//! An example is a command, two spaces or more, and what it gives: after
//! `=> `, its output line, compared with what it writes; otherwise words
//! for people, and then the command must run (exit 0 or 1: 2 is a usage
//! or I/O error), with the exit status the words name (`exit 0`). The
//! examples that reach the network or run until stopped (`fetch` without
//! `--plan`, `serve`) and those that read a page with `man` are parsed
//! and run up to their `rfc1738` part only where that part is offline.

use assert_cmd::Command;
use std::path::Path;

/// The subcommands, each with its help's examples.
const SUBCOMMANDS: [&str; 17] = [
    "parse",
    "check",
    "explain",
    "extract",
    "normalize",
    "same",
    "lint",
    "set",
    "resolve",
    "relative",
    "examples",
    "fetch",
    "mirror",
    "serve",
    "completions",
    "man",
    "",
];

fn rfc1738() -> Command {
    Command::cargo_bin("rfc1738").unwrap()
}

fn text_of(args: &[&str]) -> String {
    let o = rfc1738().args(args).env("NO_COLOR", "1").output().unwrap();
    assert!(o.status.success(), "{args:?}");
    String::from_utf8(o.stdout).unwrap()
}

/// The example lines at the end of a help: each a command, and what it
/// gives on the next line, indented (so that a help wrapped to the
/// terminal keeps them whole), joined as `command  what it gives`.
fn examples(help: &str) -> Vec<String> {
    let start = help.find("\nExamples:\n").expect("a help ends with examples") + "\nExamples:\n".len();
    let lines = help[start..].lines().take_while(|l| l.starts_with("  ")).map(|l| l[2..].to_string());
    pair(lines)
}

/// Lines of examples, a command at the margin and what it gives indented
/// below it, as `command  what it gives`.
fn pair(lines: impl Iterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in lines {
        match (line.strip_prefix("    "), out.last_mut()) {
            (Some(gives), Some(command)) => *command = format!("{command}  {}", gives.trim()),
            _ => out.push(line.trim().to_string()),
        }
    }
    out
}

/// The EXAMPLES section of a manual page, its roff escapes undone.
fn page_examples(page: &str) -> Vec<String> {
    let start = page.find(".SH EXAMPLES\n.nf\n").expect("a page has EXAMPLES") + ".SH EXAMPLES\n.nf\n".len();
    pair(
        page[start..]
            .lines()
            .take_while(|l| *l != ".fi")
            .map(|l| l.strip_prefix("\\&").unwrap_or(l).replace("\\-", "-").replace("\\e", "\\")),
    )
}

/// An example split into its command and what follows it: at the first
/// run of two spaces or more outside quotes.
fn split(example: &str) -> (String, String) {
    let b = example.as_bytes();
    let mut quote = None;
    for i in 0..b.len() {
        match (quote, b[i]) {
            (None, q @ (b'\'' | b'"')) => quote = Some(q),
            (Some(q), c) if c == q => quote = None,
            (None, b' ') if b.get(i + 1) == Some(&b' ') => {
                return (example[..i].to_string(), example[i..].trim().to_string());
            }
            _ => {}
        }
    }
    (example.to_string(), String::new())
}

/// The files the examples read, and a home for the ones that write there.
fn fixtures(dir: &Path) {
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    write(
        "urls.txt",
        "http://a.dom/\nftp://b.dom/x;type=i\n\ngopher://mail.dom:25/7x%09HELO%0D%0AQUIT\nnews:comp.lang.c\n",
    );
    write("refs.txt", "../g\n;x\nhttp://other.dom/\n");
    write("mail.txt", "See <URL:ftp://ftp.dom/pub/rfc/rfc1738.txt> and http://www.dom/x.\n");
    write("notes.txt", "<URL:http://a.dom/\n  b> and <http://c.dom/>\n");
    write(
        "access.log",
        "127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] \"GET /a.gif HTTP/1.0\" 200 2326\n\
         127.0.0.1 - - [10/Oct/2000:13:55:37 -0700] \"GET /b c HTTP/1.0\" 404 0\n",
    );
    // A rotated Combined log, compressed as servers leave it.
    let combined = "10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] \"GET /a.gif HTTP/1.0\" 200 2326 \
                    \"http://ref.dom/a b\" \"Mozilla/4.08\"\n";
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, combined.as_bytes()).unwrap();
    std::fs::write(dir.join("log.gz"), gz.finish().unwrap()).unwrap();
    for d in [".local/share/bash-completion", ".config/fish/completions"] {
        std::fs::create_dir_all(dir.join("home").join(d)).unwrap();
    }
}

/// Whether an example reaches the network or runs until stopped.
fn offline(command: &str) -> bool {
    let fetch = (command.contains("rfc1738 fetch") || command.contains("rfc1738 mirror"))
        && !command.contains("--plan");
    !(fetch || command.contains("rfc1738 serve"))
}

#[test]
fn every_help_example_runs_as_printed_and_gives_what_it_shows() {
    let dir = tempfile::tempdir().unwrap();
    fixtures(dir.path());
    let bin = Path::new(env!("CARGO_BIN_EXE_rfc1738")).parent().unwrap().to_owned();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let mut ran = 0;
    for sub in SUBCOMMANDS {
        let args: Vec<&str> = [sub, "--help"].into_iter().filter(|a| !a.is_empty()).collect();
        let help = examples(&text_of(&args));
        assert!(!help.is_empty(), "{sub}");
        // The manual page shows the same examples.
        let page: Vec<&str> = ["man", sub].into_iter().filter(|a| !a.is_empty()).collect();
        assert_eq!(page_examples(&text_of(&page)), help, "the page of {sub:?}");
        for example in help {
            let (command, shows) = split(&example);
            if !offline(&command) {
                continue;
            }
            // `| man -l -`: the page is written, not read.
            let command = command.split(" | man ").next().unwrap().to_string();
            let o = std::process::Command::new("sh")
                .arg("-c")
                .arg(&command)
                .current_dir(dir.path())
                .env("PATH", &path)
                .env("HOME", dir.path().join("home"))
                .env("NO_COLOR", "1")
                .env("a", "http://h.dom/")
                .env("b", "http://h.dom/x")
                .stdin(std::process::Stdio::null())
                .output()
                .unwrap();
            let code = o.status.code();
            let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
            assert!(matches!(code, Some(0 | 1)), "{command}: exit {code:?}\n{out}{err}");
            assert!(!err.contains("Usage:"), "{command}: {err}");
            // An example shows what it says: an invalid URL only where
            // its words speak of one.
            let speaks = ["invalid", "error", "fails"].iter().any(|w| shows.contains(w));
            let refused = out.contains("error[") || err.contains("error[");
            assert!(speaks || !refused, "{command}: {shows}\n{out}{err}");
            match shows.strip_prefix("=> ") {
                Some(line) => assert_eq!(out, format!("{line}\n"), "{command}"),
                None => {
                    for (words, status) in [("exit 0", 0), ("exit 1", 1)] {
                        if shows.contains(words) {
                            assert_eq!(code, Some(status), "{command}: {shows}");
                        }
                    }
                }
            }
            ran += 1;
        }
    }
    assert!(ran >= 35, "{ran} examples ran");
}

#[test]
fn help_is_wrapped_to_the_terminal_and_h_is_short() {
    for sub in SUBCOMMANDS {
        let help = |flag: &str, columns: &str| {
            let args: Vec<&str> = [sub, flag].into_iter().filter(|a| !a.is_empty()).collect();
            let o = rfc1738().args(&args).env("NO_COLOR", "1").env("COLUMNS", columns).output().unwrap();
            String::from_utf8(o.stdout).unwrap()
        };
        for columns in [60, 80] {
            let long = help("--help", &columns.to_string());
            for line in long.lines() {
                // No word is broken: every line fits, and so is cut at a space.
                assert!(line.chars().count() <= columns, "{sub} --help at {columns}: {line}");
            }
        }
        let (short, long) = (help("-h", "80"), help("--help", "80"));
        assert!(short.len() < long.len(), "{sub}: -h is shorter than --help");
        assert_eq!(examples(&short), examples(&long), "{sub}: -h ends with the same examples");
        // A flag, its first sentence alone: no description runs past
        // two lines at 80 columns (its defaults and values included).
        let options = short.split("\nOptions:\n").nth(1).unwrap_or("").split("\n\n").next().unwrap();
        let mut run = 0;
        for line in options.lines() {
            run = if line.trim_start().starts_with('-') { 0 } else { run + 1 };
            assert!(run <= 2, "{sub} -h: a long description\n{options}");
        }
    }
}

//! trurl's words where they mean something here: `path`, `query` and
//! `fragment` parts, `{url}`, a URL built from parts alone; `serve
//! --port` and `--listen PORT`; typo tips that point to the subcommand
//! meant; "an ftp URL".

use assert_cmd::Command;
use std::io::{BufRead, BufReader};
use std::process::Stdio;

fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    let o = Command::cargo_bin("rfc1738")
        .unwrap()
        .env("NO_COLOR", "1")
        .args(args)
        .write_stdin(stdin)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    )
}

#[test]
fn path_query_and_fragment_are_the_parts_each_scheme_reads() {
    let (code, out, err) = run(&["set", "http://h.dom/a?b#c", "path=x y", "query=q", "fragment=top"], "");
    assert_eq!((code, out.as_str()), (0, "http://h.dom/x%20y?q#top\n"), "{err}");
    let (_, out, _) = run(&["set", "gopher://h.dom/7s", "query=rfc"], "");
    assert_eq!(out, "gopher://h.dom/7s%09rfc\n");
    let (_, out, _) = run(&["set", "file:///etc/a", "path=etc/motd"], "");
    assert_eq!(out, "file:///etc/motd\n");
    // An empty fragment removes it.
    let (_, out, _) = run(&["set", "http://h.dom/#x", "fragment="], "");
    assert_eq!(out, "http://h.dom/\n");
    // Where the word means no one part: which parts do.
    let (code, _, err) = run(&["set", "ftp://h.dom/a/b", "path=c"], "");
    assert_eq!(code, 1);
    assert!(err.contains("an ftp URL has no single path; its path is ftp.cwd"), "{err}");
    let (code, _, err) = run(&["set", "ftp://h.dom/a", "query=c"], "");
    assert!(code == 1 && err.contains("http, gopher and wais"), "{err}");
}

#[test]
fn get_takes_url_path_and_query() {
    let (_, out, _) =
        run(&["parse", "--get", "{url}|{path}|{:path}|{query}", "HTTP://a.dom:80/x%41?q%20r"], "");
    assert_eq!(out, "http://a.dom/xA?q%20r|xA|x%41|q r\n");
    let (_, out, _) = run(&["parse", "--get", "{path}|{query}", "ftp://h.dom/a/b"], "");
    assert_eq!(out, "|\n");
    let (_, out, _) = run(&["set", "http://a.dom/x", "port=81", "--get", "{url}"], "");
    assert_eq!(out, "http://a.dom:81/x\n");
}

#[test]
fn a_url_is_built_from_parts_alone_when_none_is_given() {
    let (code, out, err) = run(&["set", "scheme=http", "host=a.dom", "path=x", "query=y"], "");
    assert_eq!((code, out.as_str()), (0, "http://a.dom/x?y\n"), "{err}");
    let (_, out, _) = run(&["set", "scheme=ftp", "host=a.dom", "user=me", "ftp.name=f"], "");
    assert_eq!(out, "ftp://me@a.dom/f\n");
    let (_, out, _) = run(&["set", "scheme=mailto", "mailto.address=me@a.dom"], "");
    assert_eq!(out, "mailto:me@a.dom\n");
    let (code, _, err) = run(&["set", "scheme=http", "port=81"], "");
    assert_eq!(code, 1);
    assert!(err.contains("needs a host"), "{err}");
    // Lines on stdin are the URLs to change, as everywhere.
    let (_, out, _) = run(&["set", "scheme=ftp", "host=a.dom"], "http://b.dom/x\n");
    assert_eq!(out, "ftp://a.dom/x\n");
}

#[test]
fn a_word_meant_for_another_subcommand_or_flag_says_which() {
    let (code, _, err) = run(&["validate", "x"], "");
    assert_eq!(code, 2);
    assert!(err.contains("`check` is the subcommand for that"), "{err}");
    assert!(!err.contains("'lint'"), "{err}");
    let (code, _, err) = run(&["parse", "--verify", "x"], "");
    assert_eq!(code, 2);
    assert!(err.contains("the subcommand `check`") && !err.contains("--version"), "{err}");
    // Clap's own tips still come where no word is known.
    let (_, _, err) = run(&["chek"], "");
    assert!(err.contains("check"), "{err}");
}

#[test]
fn the_article_is_said_by_sound() {
    let (_, out, _) = run(&["lint"], "ftp://h.dom:25/\n");
    assert!(out.contains("an ftp request"), "{out}");
}

/// The address `serve` says it listens on.
fn listening(args: &[&str]) -> String {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_rfc1738"))
        .arg("serve")
        .args(args)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap()).read_line(&mut line).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    line
}

#[test]
fn serve_takes_a_port_alone() {
    assert!(listening(&["--listen", "0"]).contains("http://127.0.0.1:"));
    assert!(listening(&["--listen", "localhost:0"]).contains("http://127.0.0.1:"));
    assert!(listening(&["--port", "0"]).contains("http://127.0.0.1:"));
    let (code, _, err) = run(&["serve", "--listen", "localhost:x"], "");
    assert_eq!(code, 2);
    assert!(err.contains("is not a port"), "{err}");
}

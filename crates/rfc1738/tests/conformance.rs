//! The data-driven conformance suite: every case in `tests/cases/*.txt`
//! (format in `tests/cases/README.md`), each citing its RFC section.

mod common;

use common::{case_files, read_cases, show, unescape, Case, Expect};
use rfc1738::{pct, FtpLogin, Url, WaisForm};
use std::fs;

fn opt(v: Option<&str>) -> String {
    match v {
        None => "-".into(),
        Some("") => "\"\"".into(),
        Some(s) => s.into(),
    }
}

fn list<I: IntoIterator<Item = String>>(items: I) -> String {
    let v: Vec<String> = items.into_iter().map(|s| if s.is_empty() { "\"\"".into() } else { s }).collect();
    if v.is_empty() {
        "[]".into()
    } else {
        v.join(" | ")
    }
}

/// The value of `key` for `url`, written as the cases file writes it.
fn describe(url: &Url, key: &str) -> String {
    let s = |v: &str| opt(Some(v));
    match key {
        "scheme" => url.scheme().into(),
        "kind" => url.kind().name().into(),
        "user" => opt(url.user()),
        "user.decoded" => opt(url.user_decoded().map(|u| show(&u)).as_deref()),
        "password" => opt(url.password()),
        "host" => opt(url.host()),
        "port" => url.port().map_or("-".into(), |p| p.to_string()),
        "effective_port" => url.effective_port().map_or("-".into(), |p| p.to_string()),
        "path" => opt(url.url_path()),
        "fragment" => opt(url.fragment()),
        "ssp" => s(url.scheme_specific_part()),
        "cwd" => list(url.ftp().unwrap().cwd().map(String::from)),
        "name" => s(url.ftp().unwrap().name()),
        "typecode" => url.ftp().unwrap().typecode().map_or("-".into(), |t| (t as char).to_string()),
        "commands" => {
            let cmds = url.ftp().unwrap().commands();
            cmds.iter().map(|c| show(&c.line())).collect::<Vec<_>>().join(" | ")
        }
        "login" => match url.ftp().unwrap().login() {
            FtpLogin::Anonymous => "anonymous".into(),
            FtpLogin::User { user, password: None } => format!("user {}", show(&user)),
            FtpLogin::User { user, password: Some(p) } => {
                format!("user {} password {}", show(&user), opt(Some(&show(&p))))
            }
        },
        "http.path" => opt(url.http().unwrap().path()),
        "http.search" => opt(url.http().unwrap().search()),
        "gopher.type" => (url.gopher().unwrap().gopher_type() as char).to_string(),
        "selector" => s(url.gopher().unwrap().selector()),
        "search" => match (url.gopher(), url.wais()) {
            (Some(g), _) => opt(g.search()),
            (_, Some(w)) => opt(w.search()),
            _ => panic!("search of {url}"),
        },
        "plus" => opt(url.gopher().unwrap().plus()),
        "request" => show(&url.gopher().unwrap().request()),
        "address" => show(&url.mailto().unwrap().address()),
        "group" => match (url.news(), url.nntp()) {
            (Some(n), _) => opt(n.group()),
            (_, Some(n)) => s(n.group()),
            _ => panic!("group of {url}"),
        },
        "article" => match (url.news(), url.nntp()) {
            (Some(n), _) => opt(n.article()),
            (_, Some(n)) => n.article().map_or("-".into(), |a| a.to_string()),
            _ => panic!("article of {url}"),
        },
        "all" => url.news().unwrap().is_all().to_string(),
        "form" => match url.wais().unwrap().form() {
            WaisForm::Database => "database".into(),
            WaisForm::Index => "index".into(),
            WaisForm::Doc => "doc".into(),
        },
        "database" => s(url.wais().unwrap().database()),
        "wtype" => opt(url.wais().unwrap().wtype()),
        "wpath" => opt(url.wais().unwrap().wpath()),
        "is_local" => url.file().unwrap().is_local().to_string(),
        "hsoname" => show(&url.prospero().unwrap().hsoname()),
        "fields" => list(url.prospero().unwrap().fields().map(|(n, v)| format!("{n}={v}"))),
        "reserved" => url.other().unwrap().is_reserved().to_string(),
        "experimental" => url.other().unwrap().is_experimental().to_string(),
        _ => panic!("unknown key {key}"),
    }
}

/// Runs one case; `Err` describes the mismatch.
fn run(case: &Case) -> Result<(), String> {
    let parsed = Url::parse(&case.input);
    assert_eq!(parsed.as_ref().err().copied(), rfc1738::validate(&case.input).err(), "validate agrees");
    match (&case.expect, parsed) {
        (Expect::Ok(keys), Ok(url)) => {
            url.check_invariants();
            assert_eq!(Url::parse(url.as_str()).as_ref(), Ok(&url), "round trip");
            for (k, want) in keys {
                let got = describe(&url, k);
                if &got != want {
                    return Err(format!("{k}: expected {want:?}, got {got:?}"));
                }
            }
            Ok(())
        }
        (Expect::Ok(_), Err(e)) => Err(format!("expected ok, got error {e} ({})", e.kind().id())),
        (Expect::Err { .. }, Ok(url)) => Err(format!("expected an error, parsed {url:?}")),
        (Expect::Err { offset, kind, rule }, Err(e)) => {
            let got = (e.offset(), e.kind().id(), e.rule().name());
            assert!(e.offset() <= case.input.len(), "offset inside the input");
            if got == (*offset, kind.as_str(), rule.as_str()) {
                Ok(())
            } else {
                Err(format!("expected {offset} {kind} {rule}, got {} {} {}", got.0, got.1, got.2))
            }
        }
    }
}

#[test]
fn conformance() {
    let dir = common::cases_dir();
    let known: Vec<String> = fs::read_to_string(dir.join("expected-failures.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(unescape)
        .collect();
    let files = case_files();
    let (mut total, mut failures) = (0, Vec::new());
    for file in &files {
        for case in read_cases(file) {
            total += 1;
            let name = format!(
                "{}:{} [{}] {}",
                file.file_name().unwrap().to_string_lossy(),
                case.line,
                case.section,
                show(case.input.as_bytes())
            );
            match (run(&case), known.contains(&case.input)) {
                (Ok(()), false) | (Err(_), true) => {}
                (Ok(()), true) => {
                    failures.push(format!("{name}: passes; remove it from expected-failures.txt"))
                }
                (Err(why), false) => failures.push(format!("{name}: {why}")),
            }
        }
    }
    assert!(total > 200, "only {total} cases found");
    assert!(failures.is_empty(), "{} of {total} cases failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn decoded_components_round_trip_through_encode() {
    let url = Url::parse("ftp://a%3Ab@h.dom/%2Fetc/m%6Ftd").unwrap();
    let user = url.user_decoded().unwrap();
    assert_eq!(&*user, b"a:b");
    assert_eq!(pct::encode(&user, pct::Context::User), "a%3Ab");
}

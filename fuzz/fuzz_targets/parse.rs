//! Oracle: parsing never panics; an accepted input satisfies
//! `check_invariants()` and `validate` agrees; the fast path of
//! `Url::parse` agrees with the rules alone (a strict `parse_with`); an error's offset lies
//! inside the input (at most its length, which means "ended too early").
//! The same for a lenient parse (options from the first byte), whose
//! warnings lie inside the input, and which reads every URL the strict
//! parse accepts with the same components.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

use common::options;
use rfc1738::{ParseOptions, Url};

fn components(u: &Url) -> [Option<String>; 7] {
    let s = |v: Option<&str>| v.map(str::to_string);
    [
        s(Some(u.as_str())),
        s(u.user()),
        s(u.password()),
        s(u.host()),
        s(u.port_str()),
        s(u.url_path()),
        s(u.fragment()),
    ]
}

fuzz_target!(|data: &[u8]| {
    let Some((&bits, rest)) = data.split_first() else { return };
    lenient(bits, &String::from_utf8_lossy(rest));
    // Bytes that are not UTF-8 cannot reach the parser (it takes `&str`);
    // read them lossily so that every input still exercises it.
    let input = String::from_utf8_lossy(data);
    let parsed = Url::parse(&input);
    assert_eq!(parsed.as_ref().err().copied(), rfc1738::validate(&input).err(), "validate disagrees");
    let rules = Url::parse_with(&input, &ParseOptions::strict()).map(|(url, _)| url);
    assert_eq!(parsed, rules, "the fast path and the rules disagree");
    match parsed {
        Ok(url) => {
            url.check_invariants();
            assert!(url.as_str().len() == input.len());
            // Every view must answer without panicking.
            let _ = format!("{url:?}");
            let _ = url.effective_port();
            if let Some(ftp) = url.ftp() {
                let _ = ftp.commands();
                let _ = ftp.login();
                let _ = ftp.typecode();
            }
            if let Some(g) = url.gopher() {
                let _ = g.request();
                let _ = g.gopher_type();
            }
            if let Some(h) = url.http() {
                let _ = h.request_target();
                let _ = h.segments().count();
            }
            if let Some(n) = url.news() {
                let _ = (n.group(), n.article(), n.is_all());
            }
            if let Some(n) = url.nntp() {
                let _ = (n.group(), n.article());
            }
            if let Some(w) = url.wais() {
                let _ = (w.form(), w.database(), w.search(), w.wtype(), w.wpath());
            }
            if let Some(p) = url.prospero() {
                let _ = (p.hsoname(), p.fields().count());
            }
            if let Some(m) = url.mailto() {
                let _ = m.address();
            }
            if let Some(f) = url.file() {
                let _ = (f.is_local(), f.segments().count());
            }
            if let Some(o) = url.other() {
                let _ = (o.is_reserved(), o.is_experimental());
            }
        }
        Err(e) => {
            assert!(e.offset() <= input.len(), "offset {} past the end of {input:?}", e.offset());
            assert!(!e.to_string().is_empty());
        }
    }
});

fn lenient(bits: u8, input: &str) {
    let opts = options(bits);
    let strict = Url::parse(input);
    match Url::parse_with(input, &opts) {
        Ok((url, warnings)) => {
            url.check_invariants();
            for w in &warnings {
                assert!(w.offset() <= input.len(), "warning {w} past the end of {input:?}");
            }
            if let Ok(s) = &strict {
                assert_eq!(components(&url), components(s), "lenient reads a strict URL differently");
            }
            let (again, _) = Url::parse_with(url.as_str(), &opts).expect("the stored text parses");
            assert_eq!(components(&again), components(&url));
        }
        Err(e) => {
            assert!(strict.is_err(), "lenient ({opts:?}) refuses what strict accepts: {e}");
            assert!(e.offset() <= input.len());
        }
    }
}

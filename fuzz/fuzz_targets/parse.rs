//! Oracle: parsing never panics; an accepted input satisfies
//! `check_invariants()` and `validate` agrees; an error's offset lies
//! inside the input (at most its length, which means "ended too early").
#![no_main]

use libfuzzer_sys::fuzz_target;
use rfc1738::Url;

fuzz_target!(|data: &[u8]| {
    // Bytes that are not UTF-8 cannot reach the parser (it takes `&str`);
    // read them lossily so that every input still exercises it.
    let input = String::from_utf8_lossy(data);
    let parsed = Url::parse(&input);
    assert_eq!(parsed.as_ref().err().copied(), rfc1738::validate(&input).err(), "validate disagrees");
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

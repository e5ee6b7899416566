//! Oracle for the Common Log Format reader of the report crate: whatever
//! the line, `check_line` never panics; a request it reads lies inside the
//! line; an error's offset lies inside the line; a valid request names a
//! scheme (but `*`); the byte reader and the text reader agree; the
//! lines checked in bulk (`check_lines`, the command's, the Python
//! reader's and the SQL functions') give the record of the line checked
//! on its own, for each choice of fields; the record's JSON written by
//! hand is `serde_json`'s, byte for byte; every field read lies in the
//! line; a time read writes and reads back as the same instant.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rfc1738_report::clf;
use rfc1738_report::logtime::LogTime;

fuzz_target!(|line: &[u8]| {
    let (verdict, scheme) = clf::check_line(line);
    if let Err(p) = &verdict {
        assert!(p.offset <= line.len(), "offset {} past {}", p.offset, line.len());
    }
    for fields in [clf::Fields::REQUEST, clf::Fields::BOTH, clf::Fields { request: false, referer: true }] {
        let mut n = 0;
        clf::check_lines([line, line], fields, |_, r| {
            assert_eq!(r, clf::record_with(line, false, fields));
            n += 1;
        });
        assert_eq!(n, 2);
    }
    if let Ok(r) = clf::raw_request(line) {
        let request_only = clf::record_with(line, false, clf::Fields::REQUEST).verdict;
        assert_eq!(clf::validate_request(&r).is_ok(), request_only.is_ok());
        // A line valid with its referer checked is valid without.
        assert!(request_only.is_ok() || verdict.is_err());
        // Every valid request but `OPTIONS *` is counted under a scheme.
        if verdict.is_ok() && r.target != b"*" {
            assert!(scheme.is_some(), "a valid request with no scheme: {line:?}");
        }
    }
    for lenient in [false, true] {
        let r = clf::record_with(line, lenient, clf::Fields::BOTH);
        let mut mine = Vec::new();
        r.write_json(&mut mine);
        let mut want = serde_json::to_vec(&r.to_json()).unwrap();
        want[0] = b',';
        want.pop();
        assert_eq!(mine, want);
        let a = r.around;
        for field in [a.client, a.ident, a.user, a.time].into_iter().flatten() {
            let at = field.as_ptr() as usize - line.as_ptr() as usize;
            assert!(at + field.len() <= line.len());
        }
        if let Some(t) = a.time.and_then(LogTime::clf) {
            let again = LogTime::parse(&t.to_string()).expect("the ISO text of a time reads back");
            assert_eq!(again.unix(), t.unix());
        }
    }
    if let Ok(text) = std::str::from_utf8(line) {
        let _ = LogTime::parse(text);
        if let Ok((url, at)) = clf::request_url(text) {
            assert!(at + url.len() <= text.len());
            assert_eq!(&text[at..at + url.len()], url);
        }
    }
});

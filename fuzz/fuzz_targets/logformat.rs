//! Oracle for the log format reader of the report crate
//! (`rfc1738_report::logformat`): the input is a format string, a line
//! feed, and a log line. Whatever they are, `LogFormat::parse` never
//! panics; a refusal names a directive that lies in the string at its
//! offset; an accepted format reads any line without panicking, every
//! offset of its record inside the line, and the presets read a line as
//! the Common Log Format reader does.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rfc1738_report::clf::{self, Fields};
use rfc1738_report::logformat::LogFormat;

fuzz_target!(|data: &[u8]| {
    let (format, line) = match data.iter().position(|&b| b == b'\n') {
        Some(k) => (&data[..k], &data[k + 1..]),
        None => (data, &b""[..]),
    };
    let Ok(format) = std::str::from_utf8(format) else { return };
    let lenient = line.first().is_some_and(|b| b & 1 == 1);
    match LogFormat::parse(format) {
        Err(e) => {
            assert!(format[e.offset..].starts_with(&e.directive), "{e:?} not at its offset in {format:?}");
        }
        Ok(f) => {
            let r = f.record(line, lenient, Fields::BOTH);
            if let Err(p) = &r.verdict {
                assert!(p.offset <= line.len(), "offset {} past {}", p.offset, line.len());
            }
            if let Ok(q) = &r.request {
                assert!(q.offset + q.target.len() <= line.len());
                assert_eq!(&line[q.offset..q.offset + q.target.len()], q.target);
            }
            if let Some(f) = &r.referer {
                assert_eq!(&line[f.offset..f.offset + f.text.len()], f.text);
            }
            for w in &r.warnings {
                assert!(w.offset <= line.len());
            }
            let _ = r.to_json();
        }
    }
    // The combined preset reads a line that the Common Log Format reader
    // reads as a Combined line the same way.
    let want = clf::record_with(line, false, Fields::BOTH);
    if want.request.is_ok() && want.around.agent.is_some() {
        let combined = LogFormat::parse("combined").unwrap();
        let got = combined.record(line, false, Fields::BOTH);
        if got.request.is_ok() && line.iter().filter(|&&b| b == b'"').count() == 6 && !line.contains(&b'\\') {
            assert_eq!(got.request, want.request, "{}", String::from_utf8_lossy(line));
        }
    }
});

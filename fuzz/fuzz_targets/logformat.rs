//! Oracle for the log format reader of the report crate
//! (`rfc1738_report::logformat`): the input is a format string, a line
//! feed, and a log line. Whatever they are, `LogFormat::parse` never
//! panics; a refusal names a directive that lies in the string at its
//! offset; an accepted format reads any line without panicking, every
//! offset of its record inside the line, and the presets read a line as
//! the Common Log Format reader does. The format's other fields
//! (`logfields`) have unique names, none of the record's own, and a
//! typed value each; a log table (`logtable`) gives a line a cell per
//! column, each of its column's type or null.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rfc1738_report::clf::{self, Fields};
use rfc1738_report::logfields::{Kind, Value, RECORD_KEYS};
use rfc1738_report::logformat::LogFormat;
use rfc1738_report::logtable::{Cell, LogTable, Type};

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
            let extras = f.extras();
            let values = f.extra_values(line);
            assert_eq!(values.len(), extras.len());
            for (k, (e, v)) in extras.iter().zip(&values).enumerate() {
                assert!(!RECORD_KEYS.contains(&e.name.as_str()), "{} is a record's key", e.name);
                assert!(extras[..k].iter().all(|o| o.name != e.name), "{} twice", e.name);
                match (e.kind, v) {
                    (_, Value::Null) | (Kind::Integer, Value::Integer(_)) | (Kind::Text, Value::Text(_)) => {}
                    (Kind::Number, Value::Number(n)) => assert!(n.is_finite()),
                    (kind, v) => panic!("{kind:?} field {} holds {v:?}", e.name),
                }
            }
            let _ = Value::object(extras, &values);
            let table = LogTable::new(format, lenient).expect("a format parsed once parses again");
            let mut rows = 0;
            table.rows("f", &[(1, line)], |cells| {
                rows += 1;
                assert_eq!(cells.len(), table.columns().len());
                for (c, cell) in table.columns().iter().zip(&cells) {
                    let fits = match (c.ty, cell) {
                        (_, Cell::Null) => true,
                        (Type::Text, Cell::Text(_)) | (Type::Boolean, Cell::Bool(_)) => true,
                        (Type::Integer | Type::Bigint, Cell::Int(_)) | (Type::Double, Cell::Float(_)) => true,
                        (Type::TimestampTz, Cell::Micros(_)) => true,
                        _ => false,
                    };
                    assert!(fits, "column {} of {:?} holds {cell:?}", c.name, c.ty);
                }
                assert_eq!(cells[3], Cell::Bool(r.verdict.is_ok()), "the row's verdict is the record's");
            });
            assert_eq!(rows, 1);
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

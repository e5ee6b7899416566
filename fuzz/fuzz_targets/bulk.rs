//! Oracle: the bulk validator (`rfc1738::bulk`) gives every URL the
//! verdict of `validate_bytes`, the full parser, whatever the URLs, their
//! lengths and where their boundaries fall in the blocks, through every
//! way of classifying the blocks the processor has (the portable one
//! always).
//!
//! The input: a first byte for the layout (bits 0-5: how many bytes come
//! before the first URL, 0 to 63, so that every alignment is reached;
//! bit 6: `\r\n` line ends), then URLs separated by `\n`. They are read
//! as lines (`bulk::lines`) as they stand, and as one column (the URLs
//! one after another, their ranges given, `bulk::Checker`); and what
//! `Checker::read` reads of each, against the borrowing parse.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rfc1738::bulk::{self, Checker, Path, Reading};

fuzz_target!(|data: &[u8]| {
    let Some((&layout, rest)) = data.split_first() else { return };
    let pad = usize::from(layout & 63);
    let crlf = layout & 64 != 0;
    let urls: Vec<&[u8]> = rest.split(|&c| c == b'\n').collect();
    let expected: Vec<bool> = urls.iter().map(|u| rfc1738::validate_bytes(u).is_ok()).collect();
    for path in Path::available() {
        // As lines, after `pad` empty lines: each line as `str::lines`
        // gives it (a `\r` before the `\n` dropped).
        let mut text = vec![b'\n'; pad];
        for u in &urls {
            text.extend_from_slice(u);
            text.extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
        }
        let lines: Vec<(&[u8], bool)> = bulk::lines_with_path(&text, path).skip(pad).collect();
        assert_eq!(lines.len(), urls.len(), "{path:?}");
        // The same lines and verdicts with the scheme named, and a name
        // only as the text before the first `:` spells it.
        for ((line, valid, known), &(line2, valid2)) in bulk::lines_known(&text, path).skip(pad).zip(&lines) {
            assert_eq!((line, valid), (line2, valid2), "{path:?}");
            if let Some(k) = known {
                let colon = line.iter().position(|&c| c == b':').expect("a named scheme ends at a colon");
                assert!(line[..colon].eq_ignore_ascii_case(k.name().as_bytes()), "{path:?}");
            }
        }
        for (u, (line, valid)) in urls.iter().zip(lines) {
            let u: &[u8] = if crlf { u } else { u.strip_suffix(b"\r").unwrap_or(u) };
            assert_eq!(line, u, "{path:?}");
            assert_eq!(
                valid,
                rfc1738::validate_bytes(u).is_ok(),
                "{path:?} {:?}",
                String::from_utf8_lossy(u)
            );
        }
        // As a column, after `pad` bytes of another value.
        let mut values = vec![b'%'; pad];
        let mut offsets = vec![pad];
        for u in &urls {
            values.extend_from_slice(u);
            offsets.push(values.len());
        }
        let mut checker = Checker::with_path(&values, path);
        for (k, w) in offsets.windows(2).enumerate() {
            assert_eq!(
                checker.is_valid(w[0]..w[1]),
                expected[k],
                "{path:?} {:?}",
                String::from_utf8_lossy(urls[k])
            );
        }
        // The same column read backwards: any order gives the same verdicts.
        for (k, w) in offsets.windows(2).enumerate().rev() {
            assert_eq!(checker.is_valid(w[0]..w[1]), expected[k], "{path:?} backwards");
        }
        // What the masks read of each: the parse's verdict, and its parts
        // where a login is read.
        let mut reader = Checker::with_path(&values, path);
        for (k, w) in offsets.windows(2).enumerate() {
            let reading = reader.read(w[0]..w[1]);
            let parsed = std::str::from_utf8(urls[k]).ok().and_then(|t| rfc1738::UrlRef::parse(t).ok());
            match (reading, parsed) {
                (Reading::Invalid, None) | (Reading::Parse, _) => {}
                (Reading::Opaque, Some(u)) => assert_eq!((u.host(), u.url_path()), (None, None)),
                (Reading::Login(l), Some(u)) => {
                    let t = u.as_str();
                    assert_eq!(u.host(), Some(&t[l.host_start..l.host_end]), "{path:?} {t:?}");
                    assert_eq!(
                        u.url_path(),
                        t.get(l.end + 1..).filter(|_| l.end < t.len()),
                        "{path:?} {t:?}"
                    );
                }
                (reading, parsed) => {
                    panic!("{path:?} {:?}: {reading:?}, parsed {}", urls[k], parsed.is_some())
                }
            }
        }
    }
});

//! Each error says why, and the reason is true of the byte it points at.
//!
//! For every input below, an error's kind states something about the
//! input at the error's offset ("the host is empty", "unsafe character
//! must be encoded"); `holds` checks that statement on the bytes, kind by
//! kind, from what each `ErrorKind` documents. A kind whose message does
//! not hold is a wrong reason even when the input is rightly refused:
//! `news:abc@[1.2.3.4]` once said "the host is empty" at the `[`.
//!
//! The inputs: every conformance case and every one-byte change of it to
//! a byte that matters to the grammar; the committed fuzz inputs
//! (`fuzz/corpus/*`, `fuzz/seeds`, `fuzz/regressions/*`), each whole and
//! line by line; and every line of the URL lists in `shared/corpus/` when
//! they are there (the rest runs without them).

mod common;

use rfc1738::{ErrorKind, ParseOptions, Rule, Url};
use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

/// `scheme = 1*[ lowalpha | digit | "+" | "-" | "." ]` (§5), in either
/// case (§2.1).
fn scheme_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.')
}

/// `alphadigit | "-"`: what a host label holds (§3.1).
fn label_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'-'
}

/// §2.2 "Unsafe": space, `< > " # % { } | \ ^ ~ [ ] \``.
fn unsafe_char(c: u8) -> bool {
    b" <>\"#%{}|\\^~[]`".contains(&c)
}

/// §2.2 reserved: `; / ? : @ = &`.
fn reserved(c: u8) -> bool {
    b";/?:@=&".contains(&c)
}

/// The rules of §5 without `escape`: a `%` is no character of theirs.
const NO_ESCAPES: [Rule; 9] = [
    Rule::Scheme,
    Rule::Host,
    Rule::Hostname,
    Rule::Hostnumber,
    Rule::Hostport,
    Rule::Port,
    Rule::Group,
    Rule::ArticleNumber,
    Rule::Ftptype,
];

/// Whether `%HH` starts at `o` (§2.2 `escape`).
fn escape_at(b: &[u8], o: usize) -> bool {
    b.get(o) == Some(&b'%') && b.get(o + 1..o + 3).is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
}

/// Whether what `kind` says holds of `b` at offset `o`; `Err` says what
/// does not.
///
/// `lenient`: the error is a lenient parse's, whose hosts may hold `"_"`
/// and end with `"."`.
fn holds(b: &[u8], o: usize, kind: ErrorKind, rule: Rule, lenient: bool) -> Result<(), String> {
    let label_char = |c: u8| label_char(c) || (lenient && c == b'_');
    // A byte of a `hostname` or `hostnumber` (§3.1).
    let host_char = |c: u8| label_char(c) || c == b'.';
    let at = b.get(o).copied();
    let before = o.checked_sub(1).and_then(|k| b.get(k)).copied();
    // The URL proper ends at the first "#" (§2.2).
    let end = b.iter().position(|&c| c == b'#').unwrap_or(b.len());
    let at_end = o >= end;
    let telnet = b.len() >= 7 && b[..7].eq_ignore_ascii_case(b"telnet:");
    let ok = match kind {
        ErrorKind::EmptyScheme => o == 0 && at.map_or(true, |c| !scheme_char(c)),
        ErrorKind::MissingColon => o > 0 && b[..o].iter().all(|&c| scheme_char(c)) && at != Some(b':'),
        ErrorKind::ControlChar => at.is_some_and(|c| c < 0x20 || c == 0x7f),
        ErrorKind::NonAscii => at.is_some_and(|c| c >= 0x80),
        ErrorKind::Unsafe => at.is_some_and(|c| unsafe_char(c) && c != b'%'),
        ErrorKind::Reserved => at.is_some_and(reserved),
        // A graphic character, for which no more telling kind applies (an
        // unsafe or reserved one has its own); or a `%`: an escape of an
        // octet the part refuses (`%0D` in a gopher selector), or any `%`
        // in a part whose rule has no escapes at all (a host, or what
        // follows telnet's final "/", §3.8).
        ErrorKind::InvalidChar => match at {
            Some(b'%') => escape_at(b, o) || NO_ESCAPES.contains(&rule) || (rule == Rule::Urlpath && telnet),
            Some(c) => c.is_ascii_graphic() && !unsafe_char(c) && !reserved(c),
            None => false,
        },
        ErrorKind::InvalidEscape => at == Some(b'%') && !escape_at(b, o),
        ErrorKind::UnexpectedEnd => at_end,
        ErrorKind::ExpectedDoubleSlash => before == Some(b':') && !b[o..end.max(o)].starts_with(b"//"),
        ErrorKind::ExpectedSlash => at_end || at != Some(b'/'),
        // No host byte at the offset: the host ends where it would start.
        ErrorKind::EmptyHost => {
            matches!(before, Some(b'/' | b'@')) && (at_end || matches!(at, Some(b'/' | b':')))
        }
        ErrorKind::EmptyLabel => at == Some(b'.') && matches!(before, Some(b'.' | b'/' | b'@')),
        ErrorKind::TrailingDot => at == Some(b'.') && b.get(o + 1).map_or(true, |&c| !host_char(c)),
        ErrorKind::LabelHyphen => {
            at == Some(b'-')
                && (before.map_or(true, |c| !label_char(c)) || b.get(o + 1).map_or(true, |&c| !label_char(c)))
        }
        // The 64th character of a label: it and the 63 before it.
        ErrorKind::LabelTooLong => {
            o >= 63 && at.is_some_and(label_char) && b[o - 63..o].iter().all(|&c| label_char(c))
        }
        ErrorKind::HostTooLong => o >= 253 && b[o - 253..o].iter().all(|&c| host_char(c)),
        ErrorKind::InvalidHostnumber => {
            // The host around the offset: its last label starts with a digit.
            let start = b[..o].iter().rposition(|&c| !host_char(c)).map_or(0, |k| k + 1);
            let stop = o + b[o..].iter().take_while(|&&c| host_char(c)).count();
            let host = &b[start..stop];
            let host = if lenient { host.strip_suffix(b".").unwrap_or(host) } else { host };
            let top = host.iter().rposition(|&c| c == b'.').map_or(0, |k| k + 1);
            host.get(top).is_some_and(u8::is_ascii_digit)
        }
        ErrorKind::EmptyPort => before == Some(b':') && at.map_or(true, |c| !c.is_ascii_digit()),
        ErrorKind::PortOutOfRange => {
            let digits: Vec<u8> = b[o..].iter().copied().take_while(u8::is_ascii_digit).collect();
            !digits.is_empty()
                && std::str::from_utf8(&digits).unwrap().parse::<u64>().map_or(true, |n| n > 65535)
        }
        ErrorKind::UserNotAllowed => {
            o >= 2 && &b[o - 2..o] == b"//" && {
                let login = &b[o..end.max(o)];
                let login = &login[..login.iter().position(|&c| c == b'/').unwrap_or(login.len())];
                login.contains(&b'@')
            }
        }
        ErrorKind::PortNotAllowed => at == Some(b':'),
        ErrorKind::InvalidTypecode => {
            let typed = o >= 6 && &b[o - 6..o] == b";type=";
            let one = |c: u8| matches!(c, b'a' | b'i' | b'd' | b'A' | b'I' | b'D');
            (typed && !(at.is_some_and(one) && o + 1 == end))
                || (at == Some(b';') && !b[o..].starts_with(b";type="))
        }
        ErrorKind::InvalidGroup => {
            matches!(before, Some(b':' | b'/')) && at.map_or(true, |c| !c.is_ascii_alphabetic())
        }
        ErrorKind::InvalidArticleNumber => {
            before == Some(b'/') && {
                let n = &b[o..end.max(o)];
                n.is_empty()
                    || !n.iter().all(u8::is_ascii_digit)
                    || std::str::from_utf8(n).unwrap().parse::<u64>().is_err()
            }
        }
        ErrorKind::EmptyArticleId => at == Some(b'@') && before == Some(b':'),
        ErrorKind::InvalidAddress => b.len() >= 7 && b[..7].eq_ignore_ascii_case(b"mailto:") && o >= 7,
        ErrorKind::TooLong => o == rfc1738::MAX_LEN,
        other => return Err(format!("no property written for {other:?}")),
    };
    if ok {
        Ok(())
    } else {
        Err(format!("\"{kind}\" does not hold at offset {o}"))
    }
}

/// `shared/corpus` files, one URL per line.
fn corpus_lines() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for dir in common::corpus_dirs() {
        let Ok(entries) = fs::read_dir(&dir) else { continue };
        for p in entries.map(|e| e.unwrap().path()) {
            if p.extension().is_some_and(|x| x == "txt" || x == "csv") {
                let text = fs::read(&p).unwrap();
                out.extend(text.split(|&c| c == b'\n').map(|l| l.strip_suffix(b"\r").unwrap_or(l).to_vec()));
            }
        }
        break;
    }
    out
}

/// The files under `dir` and its subdirectories.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else { return out };
    for p in entries.map(|e| e.unwrap().path()) {
        if p.is_dir() {
            out.extend(files_under(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// The committed fuzz inputs, whole, without their first byte (the
/// option bits of `parse` and `lenient`), and line by line.
fn fuzz_inputs() -> Vec<Vec<u8>> {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut out = Vec::new();
    for sub in ["corpus", "seeds", "regressions"] {
        for p in files_under(&fuzz.join(sub)) {
            let data = fs::read(&p).unwrap();
            if let Some((_, rest)) = data.split_first() {
                out.push(rest.to_vec());
            }
            out.extend(data.split(|&c| c == b'\n').filter(|l| l.len() < data.len()).map(<[u8]>::to_vec));
            out.push(data);
        }
    }
    out
}

/// Every conformance case, and every one-byte change of it.
fn case_inputs() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for case in common::case_files().iter().flat_map(|f| common::read_cases(f)) {
        let b = case.input.into_bytes();
        for i in 0..b.len() {
            for &c in b":/@.-%#?;_=[A1a~ \x00\xff" {
                let mut m = b.clone();
                m[i] = c;
                out.push(m.clone());
                m.remove(i);
                out.push(m);
            }
        }
        out.push(b);
    }
    out
}

/// Checks every input; returns how many errors were checked per kind and
/// the first few failures of each.
fn check(inputs: impl IntoIterator<Item = Vec<u8>>) -> (BTreeMap<&'static str, usize>, Vec<String>) {
    let mut seen = HashSet::new();
    let mut counts = BTreeMap::new();
    let mut failures: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    for input in inputs {
        if !seen.insert(input.clone()) {
            continue;
        }
        // Strict, and lenient (every option on: its errors come from the
        // same places).
        let lossy = String::from_utf8_lossy(&input);
        let lenient = Url::parse_with(&lossy, &ParseOptions::lenient()).err();
        let errors = [
            (input.as_slice(), rfc1738::validate_bytes(&input).err(), false),
            (lossy.as_bytes(), lenient, true),
        ];
        for (b, e, lenient) in errors {
            let Some(e) = e else { continue };
            *counts.entry(e.kind().id()).or_insert(0) += 1;
            if let Err(why) = holds(b, e.offset(), e.kind(), e.rule(), lenient) {
                let list = failures.entry(e.kind().id()).or_default();
                if list.len() < 5 {
                    list.push(format!("{}: {e}: {why}", common::show(&b[..b.len().min(120)])));
                }
            }
        }
    }
    (counts, failures.into_values().flatten().collect())
}

#[test]
fn every_error_reason_holds_at_its_offset() {
    let (counts, failures) = check(case_inputs().into_iter().chain(fuzz_inputs()).chain(corpus_lines()));
    assert!(failures.is_empty(), "{} reasons do not hold:\n{}", failures.len(), failures.join("\n"));
    // The inputs reach most kinds; the rest are checked by the cases below.
    assert!(counts.len() >= 20, "only {} kinds reached: {counts:?}", counts.len());
}

/// The reasons of a few errors, by hand: each kind's message, the input
/// and the offset, as a reader sees them.
#[test]
fn reasons_by_hand() {
    for (input, offset, kind) in [
        // §3.6 `article = 1*[ ... ] "@" host`: a host starts with a letter
        // or digit (§3.1), not "[", which is unsafe (§2.2).
        ("news:abc@[1.2.3.4]", 9, ErrorKind::Unsafe),
        ("news:abc@", 9, ErrorKind::EmptyHost),
        ("news:abc@_h", 9, ErrorKind::InvalidChar),
        ("news:abc@h.dom/x", 14, ErrorKind::Reserved),
        ("http://[::1]/", 7, ErrorKind::Unsafe),
        ("ftp://:21/", 6, ErrorKind::EmptyHost),
        ("http://u@/x", 7, ErrorKind::UserNotAllowed),
    ] {
        let e = rfc1738::validate(input).unwrap_err();
        assert_eq!((e.offset(), e.kind()), (offset, kind), "{input}: {e}");
        assert_eq!(holds(input.as_bytes(), offset, kind, e.rule(), false), Ok(()), "{input}");
    }
}

/// The checker itself: a reason that does not fit its byte is caught.
#[test]
fn a_wrong_reason_is_caught() {
    for (input, offset, kind, rule) in [
        // What this crate said before: the host is not empty, it starts with "[".
        ("news:abc@[1.2.3.4]", 9, ErrorKind::EmptyHost, Rule::Host),
        ("http://h.dom/a b", 14, ErrorKind::Reserved, Rule::Hpath),
        ("http://h.dom/a;b", 14, ErrorKind::Unsafe, Rule::Hpath),
        ("http://h.dom/a%zz", 14, ErrorKind::InvalidChar, Rule::Hpath),
        ("http://h.dom/%41", 13, ErrorKind::InvalidEscape, Rule::Hpath),
        ("http://h.dom/a", 13, ErrorKind::UnexpectedEnd, Rule::Hpath),
        ("ftp://a..b/", 6, ErrorKind::EmptyLabel, Rule::Hostname),
        ("nntp://h/a/12", 11, ErrorKind::InvalidArticleNumber, Rule::ArticleNumber),
    ] {
        assert!(holds(input.as_bytes(), offset, kind, rule, false).is_err(), "{input} {offset} {kind:?}");
    }
}

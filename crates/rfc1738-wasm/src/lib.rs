//! The `rfc1738` library for JavaScript: a WebAssembly module for
//! `wasm32-unknown-unknown` with a hand-written interface.
//!
//! No wasm-bindgen. JavaScript writes an input's UTF-8 into a buffer the
//! module owns ([`rfc1738_input`]), calls one function with its length,
//! and reads the answer from a table of `u32` ([`rfc1738_table`]) and, for
//! answers that are text, a byte buffer ([`rfc1738_out`], its length in
//! slot [`OUT_LEN`]). `npm/rfc1738.js` is the other half: it slices the
//! parts from the input string it still holds, so a parse copies no text
//! back.
//!
//! The table after [`rfc1738_parse`] of a URL:
//!
//! ```text
//!  slot:  0     1           2    3    4    5    6    7    8    9    10
//!         kind  scheme end  user      password  host      port      effective port
//!  slot:  11   12   13                   14             15
//!         url-path  end ('#' or length)  has fragment   lenient
//! ```
//!
//! A part is two slots, `start` and `end`, byte offsets in the input; an
//! absent part has `start` [`NONE`] (an empty one has `start == end`:
//! §3.1 keeps an empty user apart from an absent one). The effective
//! port is the explicit port or the scheme's default (§3); [`NONE`] when
//! there is none, or the port is above 65535 (§5 gives `port` no range).
//! The kind is an index into [`KINDS`].
//!
//! After a failure, slot 0 is the error's byte offset and the out buffer
//! holds `kind`, `rule` and `message`, each ended by a NUL.
//!
//! Only the exported symbols need `unsafe` (`#[no_mangle]`); the buffers
//! are plain `Vec`s that JavaScript writes and reads between calls, when
//! no Rust reference to them is alive.

use rfc1738::{ParseOptions, ResolveErrorKind, SchemeKind, UrlRef};
use rfc1738_report::outcome::{options, parse_bytes_with, Problem};
use rfc1738_report::{explain, json};
use serde_json::{json, Value};
use std::cell::RefCell;

#[cfg(feature = "explorer")]
mod explorer;

/// Slots in the table.
pub const TABLE_LEN: usize = 32;
/// The slot that holds the length of the out buffer's answer.
pub const OUT_LEN: usize = TABLE_LEN - 1;
/// An absent part's start, an absent port value.
pub const NONE: u32 = u32::MAX;

/// The scheme kinds, in the order of the table's slot 0.
pub const KINDS: [SchemeKind; 11] = [
    SchemeKind::Ftp,
    SchemeKind::Http,
    SchemeKind::Gopher,
    SchemeKind::Mailto,
    SchemeKind::News,
    SchemeKind::Nntp,
    SchemeKind::Telnet,
    SchemeKind::Wais,
    SchemeKind::File,
    SchemeKind::Prospero,
    SchemeKind::Other,
];

/// What the module holds between calls.
struct State {
    /// The input, written by JavaScript; never shrinks.
    input: Vec<u8>,
    /// A text answer (JSON, a URL, an error's words).
    out: Vec<u8>,
    /// Numbers of an answer.
    table: [u32; TABLE_LEN],
}

thread_local! {
    // wasm32-unknown-unknown has one thread: this is a plain static there.
    static STATE: RefCell<State> =
        const { RefCell::new(State { input: Vec::new(), out: Vec::new(), table: [0; TABLE_LEN] }) };
}

fn with<R>(f: impl FnOnce(&mut State) -> R) -> R {
    STATE.with(|s| f(&mut s.borrow_mut()))
}

/// The first `len` bytes of the input buffer (fewer if JavaScript asked
/// for more than it has written: never out of bounds).
fn input(s: &State, len: usize) -> &[u8] {
    &s.input[..len.min(s.input.len())]
}

/// Text the JavaScript side wrote: its `TextEncoder` gives UTF-8 (a lone
/// surrogate becomes U+FFFD), so this never fails there. Other bytes are
/// read up to their first octet that is not UTF-8.
pub(crate) fn text(bytes: &[u8]) -> &str {
    match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or(""),
    }
}

/// Exports each function under its own name, for JavaScript.
macro_rules! export {
    ($($(#[$doc:meta])* pub fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty $body:block)*) => {
        $(
            $(#[$doc])*
            // SAFETY: `no_mangle` only names the symbol; each name starts
            // with `rfc1738_`, so no other symbol of the module has it.
            #[allow(unsafe_code)]
            #[no_mangle]
            pub extern "C" fn $name($($arg: $ty),*) -> $ret $body
        )*
    };
}

export! {
    /// Makes the input buffer hold at least `len` bytes; returns where it
    /// starts (it moves when it grows).
    pub fn rfc1738_input(len: usize) -> *mut u8 {
        with(|s| {
            if s.input.len() < len {
                s.input.resize(len, 0);
            }
            s.input.as_mut_ptr()
        })
    }

    /// Where the table starts (it never moves).
    pub fn rfc1738_table() -> *const u32 {
        with(|s| s.table.as_ptr())
    }

    /// Where the out buffer's answer starts (it moves when it grows: ask
    /// after each call).
    pub fn rfc1738_out() -> *const u8 {
        with(|s| s.out.as_ptr())
    }

    /// Whether the input's first `len` bytes are a URL: 1 or 0.
    pub fn rfc1738_is_valid(len: usize, lenient: u32) -> u32 {
        with(|s| {
            let bytes = input(s, len);
            let ok = if lenient == 0 {
                rfc1738::validate_bytes(bytes).is_ok()
            } else {
                parse_bytes_with(bytes, &ParseOptions::lenient()).is_ok()
            };
            u32::from(ok)
        })
    }

    /// Parses: 1 and the parts in the table, or 0 and the error.
    pub fn rfc1738_parse(len: usize, lenient: u32) -> u32 {
        with(|s| {
            let State { input: buf, out, table } = s;
            let bytes = &buf[..len.min(buf.len())];
            if lenient == 0 {
                // The borrowing parse: nothing allocated for a URL.
                match std::str::from_utf8(bytes).map(UrlRef::parse) {
                    Ok(Ok(url)) => {
                        fill(table, &url, false);
                        1
                    }
                    Ok(Err(e)) => fail(table, out, &e.into()),
                    // Octets that are not UTF-8: the §2.2 non-ASCII error.
                    Err(_) => match rfc1738_report::outcome::validate_bytes(bytes) {
                        Err(p) => fail(table, out, &p),
                        Ok(()) => 1,
                    },
                }
            } else {
                match parse_bytes_with(bytes, &options(true)) {
                    Ok((url, _)) => {
                        fill(table, &url.as_url_ref(), url.is_lenient());
                        1
                    }
                    Err(p) => fail(table, out, &p),
                }
            }
        })
    }

    /// Validates: 1, or 0 and the error.
    pub fn rfc1738_validate(len: usize, lenient: u32) -> u32 {
        with(|s| {
            let State { input: buf, out, table } = s;
            let bytes = &buf[..len.min(buf.len())];
            let verdict = if lenient == 0 {
                rfc1738_report::outcome::validate_bytes(bytes)
            } else {
                parse_bytes_with(bytes, &options(true)).map(|_| ())
            };
            match verdict {
                Ok(()) => 1,
                Err(p) => fail(table, out, &p),
            }
        })
    }

    /// The `parse --json` record, in the out buffer; returns its length.
    pub fn rfc1738_record(len: usize, lenient: u32) -> usize {
        with(|s| {
            let bytes = input(s, len);
            let (result, warnings) = match parse_bytes_with(bytes, &options(lenient != 0)) {
                Ok((url, w)) => (Ok(url), w),
                Err(p) => (Err(p), Vec::new()),
            };
            let record = json::object(bytes, &result, &warnings);
            answer(s, &record)
        })
    }

    /// The normal form: 1 and its text in the out buffer, or 0 and the error.
    pub fn rfc1738_normalize(len: usize, lenient: u32) -> u32 {
        with(|s| {
            let State { input: buf, out, table } = s;
            match parse_bytes_with(&buf[..len.min(buf.len())], &options(lenient != 0)) {
                Ok((url, _)) => {
                    put_text(table, out, url.normalize().as_str());
                    1
                }
                Err(p) => fail(table, out, &p),
            }
        })
    }

    /// What a client does with the URL, one line each (RFC 1738 §3), as a
    /// JSON array in the out buffer: 1; or 0 and the error.
    pub fn rfc1738_explain(len: usize, lenient: u32) -> u32 {
        with(|s| match parse_bytes_with(input(s, len), &options(lenient != 0)) {
            Ok((url, _)) => {
                answer(s, &json!(explain::explain(&url)));
                1
            }
            Err(p) => {
                let State { out, table, .. } = s;
                fail(table, out, &p)
            }
        })
    }

    /// The reference (the `reference` bytes after the `base` bytes)
    /// resolved against the base (RFC 1808 §4): 1 and the URL's text; 0
    /// and the base's parse error; 2 and the resolve error (slot 0 its
    /// offset in the reference, or in the resolved text for kind
    /// `not-rfc1738`; the out buffer its kind, rule, message and the
    /// resolved text, each ended by a NUL).
    pub fn rfc1738_resolve(base: usize, reference: usize, lenient: u32) -> u32 {
        with(|s| {
            let State { input: buf, out, table } = s;
            let bytes = &buf[..(base + reference).min(buf.len())];
            let (base_bytes, reference_bytes) = bytes.split_at(base.min(bytes.len()));
            let opts = options(lenient != 0);
            let url = match parse_bytes_with(base_bytes, &opts) {
                Ok((url, _)) => url,
                Err(p) => return fail(table, out, &p),
            };
            match url.resolve_with(text(reference_bytes), &opts) {
                Ok((resolved, _)) => {
                    put_text(table, out, resolved.as_str());
                    1
                }
                Err(e) => {
                    let (kind, rule, resolved) = match e.kind() {
                        ResolveErrorKind::NotHierarchical(_) => ("not-hierarchical", "", ""),
                        ResolveErrorKind::InvalidChar => ("invalid-char", "", ""),
                        ResolveErrorKind::InvalidEscape => ("invalid-escape", "", ""),
                        ResolveErrorKind::NotRfc1738 { resolved, error } => {
                            ("not-rfc1738", error.rule().name(), resolved.as_str())
                        }
                        _ => ("resolve", "", ""),
                    };
                    out.clear();
                    for piece in [kind, rule, &e.to_string(), resolved] {
                        out.extend_from_slice(piece.as_bytes());
                        out.push(0);
                    }
                    table[0] = e.offset() as u32;
                    table[OUT_LEN] = out.len() as u32;
                    2
                }
            }
        })
    }

    /// The URLs in free text (RFC 1738 Appendix), a JSON array in the out
    /// buffer: `{url, start, end, form, hyphenBreaks, valid, scheme,
    /// error}`, offsets in bytes of the text. Returns how many.
    pub fn rfc1738_extract(len: usize) -> usize {
        with(|s| {
            let found: Vec<Value> = rfc1738::extract::find_iter(text(input(s, len)))
                .map(|m| {
                    let verdict = m.validate().map_err(Problem::from);
                    json!({
                        "url": m.as_str(),
                        "start": m.start(),
                        "end": m.end(),
                        "form": m.form().as_str(),
                        "hyphenBreaks": m.hyphen_breaks(),
                        "valid": verdict.is_ok(),
                        "scheme": m.scheme().to_ascii_lowercase(),
                        "error": verdict.err().map(|p| error_json(&p)),
                    })
                })
                .collect();
            let n = found.len();
            answer(s, &Value::Array(found));
            n
        })
    }

    /// Many URLs, one per line (split as `str::lines` splits), in one call.
    /// The out buffer: one byte per line (1 valid, 0 not), then a JSON
    /// array of the errors, `[line, offset, kind, rule, message]` each
    /// (the offset in bytes of the line). Returns the number of lines.
    pub fn rfc1738_check(len: usize, lenient: u32) -> usize {
        with(|s| {
            let State { input: buf, out, table } = s;
            let bytes = &buf[..len.min(buf.len())];
            out.clear();
            let mut errors = Vec::new();
            // Line by line: the bulk validator's gain is its vector code,
            // which wasm32 does not have, and it would double the module.
            for (k, line) in split_lines(bytes).enumerate() {
                let verdict = if lenient == 0 {
                    rfc1738_report::outcome::validate_bytes(line)
                } else {
                    parse_bytes_with(line, &options(true)).map(|_| ())
                };
                out.push(u8::from(verdict.is_ok()));
                if let Err(p) = verdict {
                    errors.push(json!([k, p.offset, p.kind, p.rule, p.message]));
                }
            }
            let n = out.len();
            // Writing to a `Vec` cannot fail.
            let _ = serde_json::to_writer(&mut *out, &Value::Array(errors));
            table[OUT_LEN] = out.len() as u32;
            n
        })
    }

    /// The warnings of a URL (deviations a lenient parse accepted, §6
    /// security warnings), a JSON array in the out buffer: `{offset, len,
    /// kind, security, message}`. Returns the out length; an input that
    /// is not a URL has none.
    pub fn rfc1738_warnings(len: usize, lenient: u32) -> usize {
        with(|s| {
            let notes: Vec<Value> = match parse_bytes_with(input(s, len), &options(lenient != 0)) {
                Ok((url, mut warnings)) => {
                    warnings.extend(url.security_warnings());
                    warnings.sort_by_key(rfc1738::Warning::offset);
                    warnings.iter().map(json::warning).collect()
                }
                Err(_) => Vec::new(),
            };
            answer(s, &Value::Array(notes))
        })
    }
}

/// Lines as `str::lines` gives them: split at `\n`, a `\r` before it
/// dropped, no last empty line.
fn split_lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let mut lines = (!bytes.is_empty()).then(|| body.split(|&b| b == b'\n'));
    std::iter::from_fn(move || lines.as_mut()?.next()).map(|l| l.strip_suffix(b"\r").unwrap_or(l))
}

/// The table of a parsed URL (the layout is in the crate docs).
fn fill(table: &mut [u32; TABLE_LEN], url: &UrlRef<'_>, lenient: bool) {
    let base = url.as_str().as_ptr() as usize;
    let mut part = |slot: usize, s: Option<&str>| {
        let (start, end) = match s {
            Some(s) => ((s.as_ptr() as usize - base) as u32, (s.as_ptr() as usize - base + s.len()) as u32),
            None => (NONE, NONE),
        };
        table[slot] = start;
        table[slot + 1] = end;
    };
    part(2, url.user());
    part(4, url.password());
    part(6, url.host());
    part(8, url.port_str());
    part(11, url.url_path());
    table[0] = KINDS.iter().position(|&k| k == url.kind()).unwrap_or(KINDS.len() - 1) as u32;
    table[1] = url.scheme().len() as u32;
    table[10] = url.effective_port().map_or(NONE, u32::from);
    table[13] = url.without_fragment().len() as u32;
    table[14] = u32::from(url.fragment().is_some());
    table[15] = u32::from(lenient);
}

/// The error in the table and out buffer; returns 0.
fn fail(table: &mut [u32; TABLE_LEN], out: &mut Vec<u8>, p: &Problem) -> u32 {
    out.clear();
    for piece in [p.kind, p.rule, &p.message] {
        out.extend_from_slice(piece.as_bytes());
        out.push(0);
    }
    table[0] = p.offset as u32;
    table[OUT_LEN] = out.len() as u32;
    0
}

/// A text answer in the out buffer.
fn put_text(table: &mut [u32; TABLE_LEN], out: &mut Vec<u8>, answer: &str) {
    out.clear();
    out.extend_from_slice(answer.as_bytes());
    table[OUT_LEN] = out.len() as u32;
}

/// A JSON answer in the out buffer; returns its length.
fn answer(s: &mut State, value: &Value) -> usize {
    s.out.clear();
    // Writing to a `Vec` cannot fail.
    let _ = serde_json::to_writer(&mut s.out, value);
    s.table[OUT_LEN] = s.out.len() as u32;
    s.out.len()
}

fn error_json(p: &Problem) -> Value {
    json!({"offset": p.offset, "kind": p.kind, "rule": p.rule, "message": p.message})
}

#[cfg(feature = "explorer")]
export! {
    /// The explorer's `GET /api/view`: its JSON in the out buffer; returns
    /// the length.
    pub fn rfc1738_api_view(len: usize, lenient: u32) -> usize {
        with(|s| {
            let State { input: buf, out, table } = s;
            explorer::view(&buf[..len.min(buf.len())], lenient != 0, out);
            table[OUT_LEN] = out.len() as u32;
            out.len()
        })
    }

    /// The explorer's `POST /api/check`: JSON lines in the out buffer;
    /// returns the format read, 0 a list of URLs, 1 a log. `format` asks
    /// for one: 0 either, 1 URLs, 2 a log.
    pub fn rfc1738_api_check(len: usize, lenient: u32, format: u32) -> u32 {
        with(|s| {
            let State { input: buf, out, table } = s;
            let read = explorer::check(&buf[..len.min(buf.len())], lenient != 0, format, out);
            table[OUT_LEN] = out.len() as u32;
            u32::from(read == rfc1738_api::Format::Clf)
        })
    }

    /// The explorer's `POST /api/extract`: JSON lines in the out buffer;
    /// returns the length.
    pub fn rfc1738_api_extract(len: usize) -> usize {
        with(|s| {
            let State { input: buf, out, table } = s;
            explorer::extract(&buf[..len.min(buf.len())], out);
            table[OUT_LEN] = out.len() as u32;
            out.len()
        })
    }
}

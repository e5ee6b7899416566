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
//!
//! Two modules are built from this crate. Without its default feature
//! `full`, it exports the parse alone (`isValid`, `parse`, `validate`,
//! `check`): the npm package's `rfc1738/core`, a third of the size.
//! With `full` (the default), also the record, the warnings, the normal
//! form, the explanation, resolution and extraction (the report crate
//! and `serde_json`); with `explorer`, the static page's requests.

use rfc1738::{ParseError, ParseOptions, Url, UrlRef};
use state::{fail, input, json_str, with, State};

pub use state::{KINDS, NONE, OUT_LEN, TABLE_LEN};

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

mod state;

#[cfg(feature = "explorer")]
mod explorer;
#[cfg(feature = "full")]
mod full;

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
        with(|s| u32::from(verdict(input(&s.input, len), lenient != 0).is_ok()))
    }

    /// Parses: 1 and the parts in the table, or 0 and the error.
    pub fn rfc1738_parse(len: usize, lenient: u32) -> u32 {
        with(|s| {
            let State { input: buf, out, table } = s;
            let bytes = input(buf, len);
            let parsed = std::str::from_utf8(bytes).map_err(|_| utf8_error(bytes));
            if lenient == 0 {
                // The borrowing parse: nothing allocated for a URL.
                match parsed.and_then(UrlRef::parse) {
                    Ok(url) => {
                        fill(table, &url, false);
                        1
                    }
                    Err(e) => parse_error(table, out, &e),
                }
            } else {
                match parsed.and_then(|t| Url::parse_with(t, &ParseOptions::lenient())) {
                    Ok((url, _)) => {
                        fill(table, &url.as_url_ref(), url.is_lenient());
                        1
                    }
                    Err(e) => parse_error(table, out, &e),
                }
            }
        })
    }

    /// Validates: 1, or 0 and the error.
    pub fn rfc1738_validate(len: usize, lenient: u32) -> u32 {
        with(|s| {
            let State { input: buf, out, table } = s;
            match verdict(input(buf, len), lenient != 0) {
                Ok(()) => 1,
                Err(e) => parse_error(table, out, &e),
            }
        })
    }

    /// Many URLs, one per line (split at `\n`, a `\r` before it
    /// dropped, no last empty line), in one call. The out buffer: one byte
    /// per line (1 valid, 0 not), then a JSON array of the errors, `[line,
    /// offset, kind, rule, message]` each (the offset in bytes of the
    /// line). Returns the number of lines.
    pub fn rfc1738_check(len: usize, lenient: u32) -> usize {
        with(|s| {
            let State { input: buf, out, table } = s;
            out.clear();
            let mut errors = Vec::new();
            // Line by line: the bulk validator's gain is its vector code,
            // which wasm32 does not have, and it would double the module.
            for (k, line) in split_lines(input(buf, len)).enumerate() {
                let verdict = verdict(line, lenient != 0);
                out.push(u8::from(verdict.is_ok()));
                if let Err(e) = verdict {
                    errors.push((k, e));
                }
            }
            let n = out.len();
            out.push(b'[');
            for (k, (line, e)) in errors.iter().enumerate() {
                if k > 0 {
                    out.push(b',');
                }
                out.extend_from_slice(format!("[{line},{},", e.offset()).as_bytes());
                for (j, word) in [e.kind().id(), e.rule().name(), e.kind().message()].into_iter().enumerate() {
                    if j > 0 {
                        out.push(b',');
                    }
                    json_str(out, word);
                }
                out.push(b']');
            }
            out.push(b']');
            table[OUT_LEN] = out.len() as u32;
            n
        })
    }
}

/// Whether `bytes` are a URL, strictly or leniently, and if not why.
fn verdict(bytes: &[u8], lenient: bool) -> Result<(), ParseError> {
    if !lenient {
        return rfc1738::validate_bytes(bytes);
    }
    let text = std::str::from_utf8(bytes).map_err(|_| utf8_error(bytes))?;
    Url::parse_with(text, &ParseOptions::lenient()).map(|_| ())
}

/// The error of bytes that are not UTF-8: each octet above 7F is the
/// §2.2 non-ASCII error at its offset, unless a rule fails before it.
#[cold]
fn utf8_error(bytes: &[u8]) -> ParseError {
    match rfc1738::validate_bytes(bytes) {
        Err(e) => e,
        // Not reached: such bytes hold an octet above 7F.
        Ok(()) => UrlRef::parse("").err().unwrap_or_else(|| unreachable!()),
    }
}

fn parse_error(table: &mut [u32; TABLE_LEN], out: &mut Vec<u8>, e: &ParseError) -> u32 {
    fail(table, out, e.offset(), [e.kind().id(), e.rule().name(), e.kind().message()])
}

/// Lines: split at `\n`, a `\r` before it dropped, no last empty line.
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

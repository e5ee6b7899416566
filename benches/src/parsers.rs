//! The parsers under measurement, each behind the same signature.

use std::hint::black_box;
use std::ops::Range;

use crate::subject;

/// One parser: a name for the table and a function that parses a batch.
#[derive(Clone, Copy)]
pub struct Parser {
    /// Short name printed in the tables.
    pub name: &'static str,
    /// What the parser does with each input, printed in the legend.
    pub what: &'static str,
    /// Parses every input once and returns how many were accepted.
    pub run: fn(&[&str]) -> usize,
    /// For a parser of many URLs at once: the whole file as one buffer
    /// and where its URLs lie; `parse-bench` calls it instead of `run`.
    pub batch: Option<Batch>,
}

/// Checks the URLs at the ranges of one buffer; how many are valid.
pub type Batch = fn(&str, &[Range<usize>]) -> usize;

/// Runs `accepts` over `inputs` and counts the inputs it accepted.
///
/// Generic so that each parser gets its own loop with the call inlined: the
/// loop costs the same for everyone and no parser pays for an indirect call.
#[inline(always)]
fn count(inputs: &[&str], accepts: impl Fn(&str) -> bool) -> usize {
    let mut accepted = 0;
    for &input in inputs {
        accepted += usize::from(accepts(black_box(input)));
    }
    accepted
}

/// Name of the parser every ratio is taken against.
pub const REFERENCE: &str = "rfc1738 parse";

/// Every parser in table order: `rfc1738` first, the floor last.
#[must_use]
pub fn all() -> Vec<Parser> {
    let mut list = Vec::new();
    if subject::PARSER_READY {
        list.push(Parser {
            name: REFERENCE,
            what: "rfc1738::Url::parse, full parse into an owned Url",
            run: |inputs| count(inputs, subject::parse),
            batch: None,
        });
        list.push(Parser {
            name: "rfc1738 borrow",
            what: "rfc1738::UrlRef::parse, the same full parse borrowing the input",
            run: |inputs| count(inputs, subject::parse_borrowed),
            batch: None,
        });
        list.push(Parser {
            name: "rfc1738 validate",
            what: "rfc1738::validate, the same checks without building a Url",
            run: |inputs| count(inputs, subject::validate),
            batch: None,
        });
        list.push(Parser {
            name: "rfc1738 bulk",
            what: "rfc1738::bulk::Checker over the whole file as one buffer, the URLs' ranges given",
            run: |inputs| count(inputs, |s| subject::bulk(s, std::slice::from_ref(&(0..s.len()))) == 1),
            batch: Some(subject::bulk),
        });
    }
    list.extend([
        Parser {
            name: "url",
            what: "url::Url::parse (WHATWG URL Standard, rust-url)",
            run: |inputs| count(inputs, |s| black_box(url::Url::parse(s)).is_ok()),
            batch: None,
        },
        Parser {
            name: "ada-url",
            what: "ada_url::Url::parse(s, None) (WHATWG, C++ ada through FFI)",
            run: |inputs| count(inputs, |s| black_box(ada_url::Url::parse(s, None)).is_ok()),
            batch: None,
        },
        Parser {
            name: "fluent-uri",
            what: "fluent_uri::Uri::parse (RFC 3986 absolute URI, borrowed)",
            run: |inputs| count(inputs, |s| black_box(fluent_uri::Uri::parse(s)).is_ok()),
            batch: None,
        },
        Parser {
            name: "oxiri",
            what: "oxiri::Iri::parse (RFC 3987 absolute IRI, borrowed)",
            run: |inputs| count(inputs, |s| black_box(oxiri::Iri::parse(s)).is_ok()),
            batch: None,
        },
        Parser {
            name: "http::Uri",
            what: "s.parse::<http::Uri>() (HTTP request-target forms, copies into Bytes)",
            run: |inputs| count(inputs, |s| black_box(s.parse::<http::Uri>()).is_ok()),
            batch: None,
        },
        Parser {
            name: "floor",
            what: "byte-class table scan touching every byte once (no grammar)",
            run: |inputs| count(inputs, floor),
            batch: None,
        },
    ]);
    list
}

/// Byte classes for [`floor`]: 1 for a byte RFC 1738 allows somewhere in a
/// URL (§2.2: alphanumerics, `$-_.+!*'(),`, the reserved `;/?:@=&`, `%` and
/// the fragment's `#`), 2 for every other byte.
const FLOOR_CLASS: [u8; 256] = {
    let mut table = [2u8; 256];
    let allowed = b"$-_.+!*'(),;/?:@=&%#";
    let mut i = 0;
    while i < allowed.len() {
        table[allowed[i] as usize] = 1;
        i += 1;
    }
    let mut b = 0;
    while b < 256 {
        if (b as u8).is_ascii_alphanumeric() {
            table[b] = 1;
        }
        b += 1;
    }
    table
};

/// The floor: looks every byte up in one class table, once, and accepts when
/// none is outside the URL alphabet. No grammar, no escapes, no allocation;
/// what any parser has to spend at least.
#[inline]
#[must_use]
pub fn floor(input: &str) -> bool {
    let mut seen = 0u8;
    for &b in input.as_bytes() {
        seen |= FLOOR_CLASS[usize::from(b)];
    }
    seen & 2 == 0
}

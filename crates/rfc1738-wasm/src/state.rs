//! What the module holds between calls, and how an answer is written
//! into it: the input buffer, the table, the out buffer.

use rfc1738::SchemeKind;
use std::cell::RefCell;

/// Slots in the table.
pub const TABLE_LEN: usize = 32;
/// The slot that holds the length of the out buffer's answer.
pub const OUT_LEN: usize = TABLE_LEN - 1;
/// An absent part's start, an absent port value.
pub const NONE: u32 = u32::MAX;

/// The scheme kinds, in the order of the table's slot 0.
pub const KINDS: [SchemeKind; 12] = [
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
    // Not of RFC 1738: read by http's rules, as RFC 2818 §2.4 gives it.
    SchemeKind::Https,
    SchemeKind::Other,
];

/// The buffers.
pub(crate) struct State {
    /// The input, written by JavaScript; never shrinks.
    pub(crate) input: Vec<u8>,
    /// A text answer (JSON, a URL, an error's words).
    pub(crate) out: Vec<u8>,
    /// Numbers of an answer.
    pub(crate) table: [u32; TABLE_LEN],
}

thread_local! {
    // wasm32-unknown-unknown has one thread: this is a plain static there.
    static STATE: RefCell<State> =
        const { RefCell::new(State { input: Vec::new(), out: Vec::new(), table: [0; TABLE_LEN] }) };
}

pub(crate) fn with<R>(f: impl FnOnce(&mut State) -> R) -> R {
    STATE.with(|s| f(&mut s.borrow_mut()))
}

/// The first `len` bytes of the input buffer (fewer if JavaScript asked
/// for more than it has written: never out of bounds).
pub(crate) fn input(buf: &[u8], len: usize) -> &[u8] {
    &buf[..len.min(buf.len())]
}

/// Text the JavaScript side wrote: its `TextEncoder` gives UTF-8 (a lone
/// surrogate becomes U+FFFD), so this never fails there. Other bytes are
/// read up to their first octet that is not UTF-8.
#[cfg(feature = "full")]
pub(crate) fn text(bytes: &[u8]) -> &str {
    match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or(""),
    }
}

/// An error in the table (slot 0, its offset) and the out buffer (kind,
/// rule and message, each ended by a NUL); returns 0.
pub(crate) fn fail(table: &mut [u32; TABLE_LEN], out: &mut Vec<u8>, offset: usize, words: [&str; 3]) -> u32 {
    out.clear();
    for piece in words {
        out.extend_from_slice(piece.as_bytes());
        out.push(0);
    }
    table[0] = offset as u32;
    table[OUT_LEN] = out.len() as u32;
    0
}

/// A text answer in the out buffer.
#[cfg(feature = "full")]
pub(crate) fn put_text(table: &mut [u32; TABLE_LEN], out: &mut Vec<u8>, answer: &str) {
    out.clear();
    out.extend_from_slice(answer.as_bytes());
    table[OUT_LEN] = out.len() as u32;
}

/// `text` as a JSON string, appended to `out`.
pub(crate) fn json_str(out: &mut Vec<u8>, text: &str) {
    out.push(b'"');
    for c in text.chars() {
        match c {
            '"' => out.extend_from_slice(b"\\\""),
            '\\' => out.extend_from_slice(b"\\\\"),
            c if (c as u32) < 0x20 => out.extend_from_slice(format!("\\u{:04x}", c as u32).as_bytes()),
            c => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::KINDS;
    use rfc1738::SchemeKind;

    /// Every kind of the library, by an exhaustive match: a kind added
    /// there stops this from compiling until it is added here and to
    /// `KINDS` (a kind missing from the table reads as `other`).
    fn every_kind() -> Vec<SchemeKind> {
        let all = [
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
            SchemeKind::Https,
            SchemeKind::Other,
        ];
        for k in all {
            match k {
                SchemeKind::Ftp
                | SchemeKind::Http
                | SchemeKind::Gopher
                | SchemeKind::Mailto
                | SchemeKind::News
                | SchemeKind::Nntp
                | SchemeKind::Telnet
                | SchemeKind::Wais
                | SchemeKind::File
                | SchemeKind::Prospero
                | SchemeKind::Https
                | SchemeKind::Other => {}
            }
        }
        all.to_vec()
    }

    #[test]
    fn the_table_holds_every_kind_of_the_library_once() {
        for k in every_kind() {
            assert_eq!(KINDS.iter().filter(|&&x| x == k).count(), 1, "{k:?}");
        }
        assert_eq!(KINDS.len(), every_kind().len());
    }

    #[test]
    fn the_javascript_names_are_the_table_in_its_order() {
        let js = include_str!("../npm/impl.js");
        let line = js.lines().find(|l| l.starts_with("const KINDS = [")).expect("KINDS in impl.js");
        let names: Vec<&str> = line.split('"').skip(1).step_by(2).collect();
        let ours: Vec<&str> = KINDS.iter().map(|k| k.name()).collect();
        assert_eq!(names, ours);
    }
}

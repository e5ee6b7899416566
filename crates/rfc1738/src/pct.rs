//! Percent-encoding (§2.2): encode octets for a BNF context, decode to octets.
//!
//! Decoding yields octets, never text: a decoded component need not be
//! UTF-8 (§2.2: parts of a URL "represent sequences of octets").

use crate::chars::{self, Class};
use std::borrow::Cow;

/// The part of a URL a value is encoded for: which characters may stay
/// unencoded there. Every other octet becomes `%HH` (upper-case hex).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Context {
    /// `user` and `password` (§3.1: `:`, `@` and `/` encoded).
    User,
    /// An ftp `fsegment` (cwd or name, §3.2.2: `/` and `;` encoded); also a
    /// file path segment and a prospero `psegment`.
    Fsegment,
    /// An http `hsegment` (§3.3: `/`, `;`... `?` encoded).
    Hsegment,
    /// An http or wais `search` (§3.3: `/` and `?` encoded); what the
    /// gopher builder writes for a search too, which §3.4.1 would let
    /// hold them raw but generic readers would split.
    Search,
    /// A gopher selector or gopher+ string (§3.4: nothing reserved, `*xchar`).
    Xchar,
    /// `uchar` only: wais database, wtype and wpath.
    Uchar,
    /// A prospero `fieldname` or `fieldvalue` (`;` and `=` encoded).
    Field,
    /// A news article id's unique part (`@` encoded).
    Article,
}

impl Context {
    /// Every context, for code that must hold for each (tests, fuzzing).
    pub const ALL: [Context; 8] = [
        Context::User,
        Context::Fsegment,
        Context::Hsegment,
        Context::Search,
        Context::Xchar,
        Context::Uchar,
        Context::Field,
        Context::Article,
    ];

    const fn class(self) -> Class {
        match self {
            Context::User => chars::USER,
            Context::Fsegment => chars::FSEGMENT,
            Context::Hsegment => chars::HSEGMENT,
            Context::Search => chars::SEARCH,
            Context::Xchar => chars::XCHAR,
            Context::Uchar => chars::UCHAR,
            Context::Field => chars::FIELD,
            Context::Article => chars::ARTICLE,
        }
    }
}

const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// Encodes `octets` for `context`: every octet the context does not allow
/// unencoded, and always `%`, is written as `%HH`.
///
/// # Examples
/// ```
/// use rfc1738::pct::{encode, Context};
/// assert_eq!(encode(b"a/b;c", Context::Fsegment), "a%2Fb%3Bc");
/// assert_eq!(encode("ü".as_bytes(), Context::Xchar), "%C3%BC");
/// ```
#[must_use]
pub fn encode(octets: &[u8], context: Context) -> String {
    let keep = context.class().literal();
    let mut out = String::with_capacity(octets.len());
    for &b in octets {
        if keep.contains(b) {
            out.push(b as char);
        } else {
            push_escape(&mut out, b);
        }
    }
    out
}

/// Appends `%HH` for `b` to `out`.
pub fn push_escape(out: &mut String, b: u8) {
    out.push('%');
    out.push(HEX_UPPER[usize::from(b >> 4)] as char);
    out.push(HEX_UPPER[usize::from(b & 15)] as char);
}

/// Decodes every `%HH` escape of `s` to its octet. Borrows when `s` has no
/// `%`. A `%` not followed by two hex digits is kept as it is (a parsed
/// [`crate::Url`] never has one).
///
/// # Examples
/// ```
/// use rfc1738::pct::decode;
/// assert_eq!(&*decode("%2Fetc"), b"/etc");
/// assert_eq!(&*decode("%ff"), &[0xff]);
/// ```
#[must_use]
pub fn decode(s: &str) -> Cow<'_, [u8]> {
    let b = s.as_bytes();
    match b.iter().position(|&c| c == b'%') {
        None => Cow::Borrowed(b),
        Some(first) => Cow::Owned(decode_from(b, first)),
    }
}

fn decode_from(b: &[u8], first: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(b.len());
    out.extend_from_slice(&b[..first]);
    let mut i = first;
    while i < b.len() {
        match escape_at(b, i) {
            Some(v) => {
                out.push(v);
                i += 3;
            }
            None => {
                out.push(b[i]);
                i += 1;
            }
        }
    }
    out
}

/// The octet of the escape at `i`, if `b[i..]` starts with `%HH`.
#[must_use]
#[inline]
pub fn escape_at(b: &[u8], i: usize) -> Option<u8> {
    let [b'%', h, l] = *b.get(i..)?.first_chunk::<3>()? else { return None };
    // Both digits by table and one test, not a branch per digit and case.
    let (hi, lo) = (HEX_VALUE[h as usize], HEX_VALUE[l as usize]);
    ((hi | lo) < 16).then_some(hi << 4 | lo)
}

/// Where the run of `class` from `i`, escapes within, ends: the first
/// byte from `i` that is no member of `class` written as itself, or a
/// `"%"` that starts no escape (§2.2: `escape = "%" hex hex`), or one
/// whose octet `stop` takes; else `end`. `class` has a run bit and takes
/// escapes.
///
/// Escapes one after another are read one by one; other bytes eight at
/// a time, as `chars::run_of` reads them. A word of members and escapes
/// (`"%"` counts as a member in `MEMBER`'s escaped bits) has its escapes
/// found by their `"%"` (a few operations on the word) and checked in
/// place: text with an escape here and there costs a check per escape,
/// not a new run.
#[inline(always)]
pub(crate) fn run(b: &[u8], mut i: usize, end: usize, class: Class, stop: impl Fn(u8) -> bool) -> usize {
    debug_assert!(class.1 != 0 && class.contains(b'%'));
    let (bit, escaped) = (class.1, class.1 << chars::ESCAPED);
    let b = &b[..end];
    loop {
        // Escapes one after another (a text escaped whole).
        while b.get(i) == Some(&b'%') {
            match escape_at(b, i) {
                Some(octet) if !stop(octet) => i += 3,
                _ => return i,
            }
        }
        if i >= end {
            return end;
        }
        // Zeros past the end: no member.
        let w = chars::chunk_from(b, i);
        let all = w.iter().fold(u32::MAX, |all, &c| all & chars::MEMBER[c as usize]);
        if all & bit != 0 {
            i += 8;
            continue;
        }
        let miss = chars::first_miss(&w, bit);
        if w[miss] != b'%' {
            return (i + miss).min(end);
        }
        if all & escaped == 0 {
            // A byte after the escape ends the run: on from the escape.
            i += miss;
            continue;
        }
        // Members and escapes only: each `"%"` (the top bit of its byte
        // in `pcts`) must start an escape that `stop` lets by.
        let x = u64::from_le_bytes(w) ^ (u64::from(b'%') * chars::LO);
        let mut pcts = !(((x & !chars::HI) + !chars::HI) | x) & chars::HI;
        while pcts != 0 {
            let k = i + pcts.trailing_zeros() as usize / 8;
            match escape_at(b, k) {
                Some(octet) if !stop(octet) => {}
                _ => return k,
            }
            pcts &= pcts - 1;
        }
        i += 8;
    }
}

/// `chars::hex_value` of every byte, 16 for a byte that is not `hex`.
static HEX_VALUE: [u8; 256] = {
    let mut t = [16u8; 256];
    let mut c = 0;
    while c < 256 {
        if let Some(v) = chars::hex_value(c as u8) {
            t[c] = v;
        }
        c += 1;
    }
    t
};

/// Decodes `s` and reads the octets as UTF-8, with U+FFFD for each octet
/// that is not (lossy, for display).
///
/// # Examples
/// ```
/// assert_eq!(rfc1738::pct::decode_lossy("caf%C3%A9%FF"), "café\u{FFFD}");
/// ```
#[must_use]
pub fn decode_lossy(s: &str) -> String {
    String::from_utf8_lossy(&decode(s)).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_stops_where_a_byte_at_a_time_does() {
        // The run a byte at a time: members, and escapes `stop` lets by.
        fn naive(b: &[u8], mut i: usize, class: Class, stop: impl Fn(u8) -> bool) -> usize {
            while let Some(&c) = b.get(i) {
                match escape_at(b, i) {
                    Some(octet) if !stop(octet) => i += 3,
                    _ if c != b'%' && class.contains(c) => i += 1,
                    _ => return i,
                }
            }
            i
        }
        let texts = crate::testing::random_texts(17_385, 20_000, 40, b"ab%%09DdAG/;?=~ \x80");
        let tab = |o: u8| o == b'\t' || o == 0x0d;
        for class in [chars::XCHAR, chars::UCHAR, chars::FIELD, chars::HPATH, chars::USER] {
            for text in &texts {
                for i in [0, 1, 5] {
                    let i = i.min(text.len());
                    let shown = String::from_utf8_lossy(text);
                    assert_eq!(
                        run(text, i, text.len(), class, |_| false),
                        naive(text, i, class, |_| false),
                        "{shown:?}"
                    );
                    assert_eq!(run(text, i, text.len(), class, tab), naive(text, i, class, tab), "{shown:?}");
                    // `end` cuts the text: an escape across it is none.
                    let end = text.len() * 2 / 3;
                    if i <= end {
                        let naive_end = naive(&text[..end], i, class, tab);
                        assert_eq!(run(text, i, end, class, tab), naive_end, "{shown:?} to {end}");
                    }
                }
            }
        }
    }

    #[test]
    fn escape_at_reads_every_pair_of_octets_as_the_hex_rule_does() {
        for h in 0..=255u8 {
            for l in 0..=255u8 {
                let want = chars::hex_value(h).zip(chars::hex_value(l)).map(|(h, l)| h << 4 | l);
                assert_eq!(escape_at(&[b'%', h, l], 0), want, "{h} {l}");
                assert_eq!(escape_at(&[b'x', b'%', h, l], 1), want, "{h} {l}");
                assert_eq!(escape_at(&[b'&', h, l], 0), None);
            }
        }
        assert_eq!(escape_at(b"%4", 0), None);
        assert_eq!(escape_at(b"%41", 1), None);
        assert_eq!(escape_at(b"%41", 3), None);
        assert_eq!(escape_at(b"%41", 9), None);
    }

    #[test]
    fn decode_of_encode_is_identity_for_every_context_and_octet() {
        let all: Vec<u8> = (0..=255).collect();
        for ctx in Context::ALL {
            let e = encode(&all, ctx);
            assert!(e.bytes().all(|b| b.is_ascii_graphic()));
            assert_eq!(&*decode(&e), &all[..], "{ctx:?}");
        }
    }

    #[test]
    fn context_reserved_characters_are_encoded() {
        assert_eq!(encode(b"a:b@c/d", Context::User), "a%3Ab%40c%2Fd");
        assert_eq!(encode(b"x?y;z", Context::Hsegment), "x%3Fy;z");
        assert_eq!(encode(b"a%b", Context::Xchar), "a%25b");
        assert_eq!(encode(b"\t", Context::Xchar), "%09");
    }

    #[test]
    fn bad_escapes_are_kept() {
        assert_eq!(&*decode("%4"), b"%4");
        assert_eq!(&*decode("%zz%41"), b"%zzA");
    }
}

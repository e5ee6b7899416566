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

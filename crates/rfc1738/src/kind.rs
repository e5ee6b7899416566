//! The scheme name (§2.1, §5 `scheme`): which of the schemes of §3 a
//! URL names, and where its `":"` is.

use crate::chars;

/// The schemes RFC 1738 §3 defines, `https` (RFC 2818 §2.4), and
/// `Other` for every other name (§5 `otherurl = genericurl`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SchemeKind {
    /// §3.2 File Transfer Protocol.
    Ftp,
    /// §3.3 Hypertext Transfer Protocol.
    Http,
    /// §3.4 The Gopher protocol.
    Gopher,
    /// §3.5 Electronic mail address.
    Mailto,
    /// §3.6 USENET news.
    News,
    /// §3.7 USENET news using NNTP access.
    Nntp,
    /// §3.8 Reference to interactive sessions.
    Telnet,
    /// §3.9 Wide Area Information Servers.
    Wais,
    /// §3.10 Host-specific file names.
    File,
    /// §3.11 Prospero Directory Service.
    Prospero,
    /// `https`: HTTP over TLS. RFC 1738 does not define it; its
    /// registration (RFC 2818 §2.4) gives it the syntax of §3.3 with
    /// port 443, so it is read by the http rules
    /// ([`ParseOptions::generic_https`](crate::ParseOptions::generic_https)
    /// reads it as any other scheme instead).
    Https,
    /// Any other scheme, read with the generic syntax.
    Other,
}

impl SchemeKind {
    /// The kind of a scheme name, compared without regard to case (§2.1).
    #[must_use]
    pub fn from_bytes(name: &[u8]) -> SchemeKind {
        SchemeKind::from_prefix(name, name.len())
    }

    /// The kind of the scheme name `b[..len]`: the name as one word, its
    /// letters lower-cased together, hashed to a slot of [`BY_SLOT`] and
    /// compared once. No string comparison, one branch.
    #[inline]
    pub(crate) fn from_prefix(b: &[u8], len: usize) -> SchemeKind {
        if len == 0 || len > 8 || len > b.len() {
            return SchemeKind::Other;
        }
        // `c | 0x20` is a lower-case letter only when `c` is a letter of
        // either case, and every name of §3 is letters, so the words are
        // equal exactly when the names are equal without regard to case.
        // The bytes past the name stay zero, which no name byte is.
        let w = (u64::from_le_bytes(chars::chunk_from(b, 0)) | 0x2020_2020_2020_2020)
            & (u64::MAX >> (64 - 8 * len));
        let (name, kind) = BY_SLOT[slot(w)];
        if name == w {
            kind
        } else {
            SchemeKind::Other
        }
    }

    /// The default port of §3 (none for mailto, news, file and others).
    #[must_use]
    pub const fn default_port(self) -> Option<u16> {
        match self {
            SchemeKind::Ftp => Some(21),
            SchemeKind::Http => Some(80),
            // RFC 2818 §2.4: "the default port is 443".
            SchemeKind::Https => Some(443),
            SchemeKind::Gopher => Some(70),
            SchemeKind::Nntp => Some(119),
            SchemeKind::Telnet => Some(23),
            SchemeKind::Wais => Some(210),
            SchemeKind::Prospero => Some(1525),
            SchemeKind::Mailto | SchemeKind::News | SchemeKind::File | SchemeKind::Other => None,
        }
    }

    /// The lower-case name (`"other"` for [`SchemeKind::Other`]).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            SchemeKind::Ftp => "ftp",
            SchemeKind::Http => "http",
            SchemeKind::Https => "https",
            SchemeKind::Gopher => "gopher",
            SchemeKind::Mailto => "mailto",
            SchemeKind::News => "news",
            SchemeKind::Nntp => "nntp",
            SchemeKind::Telnet => "telnet",
            SchemeKind::Wais => "wais",
            SchemeKind::File => "file",
            SchemeKind::Prospero => "prospero",
            SchemeKind::Other => "other",
        }
    }

    /// The article of the name as it is said: "an" before a vowel sound
    /// (an ftp, an http, an nntp URL), else "a".
    ///
    /// # Examples
    /// ```
    /// use rfc1738::SchemeKind;
    /// assert_eq!(SchemeKind::Ftp.article(), "an");
    /// assert_eq!(SchemeKind::Gopher.article(), "a");
    /// ```
    #[must_use]
    pub const fn article(self) -> &'static str {
        match self {
            SchemeKind::Ftp | SchemeKind::Http | SchemeKind::Https | SchemeKind::Nntp | SchemeKind::Other => {
                "an"
            }
            _ => "a",
        }
    }

    /// The section of RFC 1738 that defines the scheme (for `https`, the
    /// section whose rules RFC 2818 §2.4 gives it).
    #[must_use]
    pub const fn section(self) -> &'static str {
        match self {
            SchemeKind::Ftp => "3.2",
            // RFC 2818 §2.4: http's syntax, read by §3.3.
            SchemeKind::Http | SchemeKind::Https => "3.3",
            SchemeKind::Gopher => "3.4",
            SchemeKind::Mailto => "3.5",
            SchemeKind::News => "3.6",
            SchemeKind::Nntp => "3.7",
            SchemeKind::Telnet => "3.8",
            SchemeKind::Wais => "3.9",
            SchemeKind::File => "3.10",
            SchemeKind::Prospero => "3.11",
            SchemeKind::Other => "5",
        }
    }
}

/// The schemes of §3 by name, and `https` (RFC 2818 §2.4).
const NAMES: [(&[u8], SchemeKind); 11] = [
    (b"ftp", SchemeKind::Ftp),
    (b"http", SchemeKind::Http),
    (b"gopher", SchemeKind::Gopher),
    (b"mailto", SchemeKind::Mailto),
    (b"news", SchemeKind::News),
    (b"nntp", SchemeKind::Nntp),
    (b"telnet", SchemeKind::Telnet),
    (b"wais", SchemeKind::Wais),
    (b"file", SchemeKind::File),
    (b"prospero", SchemeKind::Prospero),
    (b"https", SchemeKind::Https),
];

/// A multiplier under which the eleven names fall in eleven different
/// slots of sixteen (a perfect hash; `BY_SLOT` fails to compile otherwise).
const HASH: u64 = 0xbaeb_41a5_e65a_8149;

/// The slot of a name word: the top four bits of the product.
#[inline]
const fn slot(w: u64) -> usize {
    (w.wrapping_mul(HASH) >> 60) as usize
}

/// Each name of §3 as a little-endian word, in its slot; `(0, Other)` in
/// the empty slots (no name word is 0).
static BY_SLOT: [(u64, SchemeKind); 16] = {
    let mut table = [(0u64, SchemeKind::Other); 16];
    let mut n = 0;
    while n < NAMES.len() {
        let (name, kind) = NAMES[n];
        let mut w = 0u64;
        let mut k = 0;
        while k < name.len() {
            w |= (name[k] as u64) << (8 * k);
            k += 1;
        }
        assert!(table[slot(w)].0 == 0, "two scheme names share a slot: choose another HASH");
        table[slot(w)] = (w, kind);
        n += 1;
    }
    table
};

/// How the text starts.
pub(crate) enum Scheme {
    /// A `scheme ":"`, the offset of the `":"`.
    Colon(usize),
    /// No `scheme ":"` at all: the text is not a URL. Where the scheme
    /// characters end.
    Error(usize),
}

/// A scheme other than http, and its `":"`: the `":"` found in the
/// first eight bytes without a loop, the name before it looked up whole
/// (`SchemeKind::from_prefix`); with no `":"` there, the eight bytes are
/// looked up as a name whose `":"` is the ninth ("prospero"). A name of
/// §3 is letters only, so a match needs no check of the scheme
/// characters; any other name before a `":"` in the first eight bytes is
/// checked in that word (`SchemeKind::Other`). `None` for anything else
/// (`scheme` reads it byte by byte): http and https, whose names the byte
/// loop reads as fast when most URLs have them, longer names, relative
/// references.
#[inline]
pub(crate) fn known_scheme(b: &[u8]) -> Option<(usize, SchemeKind)> {
    use chars::{HI, LO};
    let w = u64::from_le_bytes(chars::chunk_from(b, 0));
    if (w | 0x2020_2020) & 0xffff_ffff == u64::from(u32::from_le_bytes(*b"http")) {
        return None;
    }
    let x = w ^ (LO * u64::from(b':'));
    // The lowest set bit marks the first `":"` exactly (8: none).
    let colon = ((x.wrapping_sub(LO) & !x & HI).trailing_zeros() / 8) as usize;
    match SchemeKind::from_prefix(b, colon) {
        // Another name before a `":"` in the word: its bytes checked as
        // scheme characters in the word already read, not byte by byte
        // (nor as a run of a slice shorter than a word).
        SchemeKind::Other => {
            (colon > 0 && colon < 8 && chars::run_in_word(&w.to_le_bytes(), chars::SCHEME) == colon)
                .then_some((colon, SchemeKind::Other))
        }
        // No `":"` in the word: a name of eight letters ("prospero") when
        // the ninth byte is its `":"`.
        _ if colon == 8 && b.get(8) != Some(&b':') => None,
        kind => Some((colon, kind)),
    }
}

/// `scheme = 1*[ lowalpha | digit | "+" | "-" | "." ]` and its `":"`
/// (§5), in either case (§2.1: "programs interpreting URLs should
/// treat upper case letters as equivalent to lower case in scheme names";
/// the owned copy lower-cases it).
#[inline]
pub(crate) fn scheme(b: &[u8]) -> Scheme {
    let mut i = 0;
    while i < b.len() && chars::SCHEME.contains(b[i]) {
        i += 1;
    }
    match b.get(i) {
        Some(b':') if i > 0 => Scheme::Colon(i),
        _ => Scheme::Error(i),
    }
}

#[cfg(test)]
mod tests {
    use super::{SchemeKind, NAMES};

    /// The plain comparison the hash stands for.
    fn naive(name: &[u8]) -> SchemeKind {
        NAMES.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map_or(SchemeKind::Other, |&(_, k)| k)
    }

    #[test]
    fn from_bytes_is_a_case_insensitive_comparison() {
        let mut names: Vec<Vec<u8>> = vec![b"httpss".to_vec(), b"prosperos".to_vec(), Vec::new()];
        for (name, kind) in NAMES {
            assert_eq!(SchemeKind::from_bytes(name), kind);
            assert_eq!(SchemeKind::from_bytes(&name.to_ascii_uppercase()), kind);
            assert_eq!(kind.name().as_bytes(), name);
            names.push(name.to_vec());
        }
        // Every prefix, every one-byte change, every byte appended.
        let mut tried = 0;
        for name in names {
            for n in 0..=name.len() {
                assert_eq!(SchemeKind::from_bytes(&name[..n]), naive(&name[..n]));
            }
            for i in 0..=name.len() {
                for c in 0..=255u8 {
                    let mut m = name.clone();
                    if i < m.len() {
                        m[i] = c;
                    } else {
                        m.push(c);
                    }
                    assert_eq!(SchemeKind::from_bytes(&m), naive(&m), "{m:?}");
                    // The same name inside a longer text, as the parser reads it.
                    let mut text = m.clone();
                    text.extend_from_slice(b"://h");
                    assert_eq!(SchemeKind::from_prefix(&text, m.len()), naive(&m), "{m:?}");
                    tried += 1;
                }
            }
        }
        assert!(tried > 10_000);
    }
}

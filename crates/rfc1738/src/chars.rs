//! The character classes of RFC 1738 §5 as one `const` byte table.
//!
//! Every byte maps to a set of bits; every BNF class is a mask over those
//! bits. A scan asks one question per byte: `TABLE[b] & class != 0`.
//! Reserved characters each get a bit of their own because each scheme
//! allows a different subset of them (§2.2: "Many URL schemes reserve
//! certain characters for a special meaning").

/// A set of bytes: a mask over the bits of [`TABLE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Class(pub(crate) u16);

const ALPHA: u16 = 1 << 0;
const DIGIT: u16 = 1 << 1;
/// `safe = "$" | "-" | "_" | "." | "+"`
const SAFE: u16 = 1 << 2;
/// `extra = "!" | "*" | "'" | "(" | ")" | ","`
const EXTRA: u16 = 1 << 3;
/// `"%"`, the start of an escape; the scan loop checks the two hex digits.
const PCT: u16 = 1 << 4;
const SEMI: u16 = 1 << 5;
const SLASH: u16 = 1 << 6;
const QUEST: u16 = 1 << 7;
const COLON: u16 = 1 << 8;
const AT: u16 = 1 << 9;
const AMP: u16 = 1 << 10;
const EQ: u16 = 1 << 11;
/// `"-"`, needed alone for host names.
const HYPHEN: u16 = 1 << 12;
/// `"."`, needed alone for host names.
const DOT: u16 = 1 << 13;
/// `"+"`, needed alone for scheme names.
const PLUS: u16 = 1 << 14;
/// `hex = digit | "A" ... "F" | "a" ... "f"`
const HEX: u16 = 1 << 15;

const fn bits(b: u8) -> u16 {
    match b {
        b'a'..=b'f' | b'A'..=b'F' => ALPHA | HEX,
        b'g'..=b'z' | b'G'..=b'Z' => ALPHA,
        b'0'..=b'9' => DIGIT | HEX,
        b'$' | b'_' => SAFE,
        b'-' => SAFE | HYPHEN,
        b'.' => SAFE | DOT,
        b'+' => SAFE | PLUS,
        b'!' | b'*' | b'\'' | b'(' | b')' | b',' => EXTRA,
        b'%' => PCT,
        b';' => SEMI,
        b'/' => SLASH,
        b'?' => QUEST,
        b':' => COLON,
        b'@' => AT,
        b'&' => AMP,
        b'=' => EQ,
        _ => 0,
    }
}

const fn table() -> [u16; 256] {
    let mut t = [0u16; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = bits(i as u8);
        i += 1;
    }
    t
}

/// The class bits of every byte.
pub(crate) static TABLE: [u16; 256] = table();

impl Class {
    /// The union of two classes.
    #[must_use]
    pub const fn or(self, other: Class) -> Class {
        Class(self.0 | other.0)
    }
    /// Whether `b` belongs to the class (a `%` stands for a whole escape).
    #[must_use]
    #[inline]
    pub fn contains(self, b: u8) -> bool {
        TABLE[b as usize] & self.0 != 0
    }
    /// The class without the escape: what may stand unencoded.
    #[must_use]
    pub const fn literal(self) -> Class {
        Class(self.0 & !PCT)
    }
}

/// `alpha = lowalpha | hialpha`
pub const ALPHA_C: Class = Class(ALPHA);
/// `digit = "0" | ... | "9"`
pub const DIGIT_C: Class = Class(DIGIT);
/// `hex = digit | "A" | ... | "f"`
pub const HEX_C: Class = Class(HEX);
/// `alphadigit = alpha | digit`
pub const ALPHADIGIT: Class = Class(ALPHA | DIGIT);
/// The bytes a `host` is made of: `alphadigit | "-" | "."`; the label
/// rules are checked by [`crate::host`].
pub const HOSTCHAR: Class = Class(ALPHA | DIGIT | HYPHEN | DOT);
/// `scheme = 1*[ lowalpha | digit | "+" | "-" | "." ]`, upper case
/// accepted as §2.1 asks ("allow "HTTP" as well as "http"").
pub const SCHEME: Class = Class(ALPHA | DIGIT | PLUS | HYPHEN | DOT);
/// `unreserved = alpha | digit | safe | extra`
pub const UNRESERVED: Class = Class(ALPHA | DIGIT | SAFE | EXTRA);
/// `reserved = ";" | "/" | "?" | ":" | "@" | "&" | "="`
pub const RESERVED: Class = Class(SEMI | SLASH | QUEST | COLON | AT | AMP | EQ);
/// `uchar = unreserved | escape`
pub const UCHAR: Class = UNRESERVED.or(Class(PCT));
/// `xchar = unreserved | reserved | escape`
pub const XCHAR: Class = UCHAR.or(RESERVED);
/// `user = *[ uchar | ";" | "?" | "&" | "=" ]`; `password` is the same.
pub const USER: Class = UCHAR.or(Class(SEMI | QUEST | AMP | EQ));
/// `fsegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]`
pub const FSEGMENT: Class = UCHAR.or(Class(QUEST | COLON | AT | AMP | EQ));
/// `fpath = fsegment *[ "/" fsegment ]`
pub const FPATH: Class = FSEGMENT.or(Class(SLASH));
/// `hsegment = *[ uchar | ";" | ":" | "@" | "&" | "=" ]`
pub const HSEGMENT: Class = UCHAR.or(Class(SEMI | COLON | AT | AMP | EQ));
/// `hpath = hsegment *[ "/" hsegment ]`
pub const HPATH: Class = HSEGMENT.or(Class(SLASH));
/// `search = *[ uchar | ";" | ":" | "@" | "&" | "=" ]`
pub const SEARCH: Class = HSEGMENT;
/// `psegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]`
pub const PSEGMENT: Class = FSEGMENT;
/// `ppath = psegment *[ "/" psegment ]`
pub const PPATH: Class = FPATH;
/// `fieldname = *[ uchar | "?" | ":" | "@" | "&" ]`; `fieldvalue` is the same.
pub const FIELD: Class = UCHAR.or(Class(QUEST | COLON | AT | AMP));
/// `article = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host`
pub const ARTICLE: Class = UCHAR.or(Class(SEMI | SLASH | QUEST | COLON | AMP | EQ));
/// `group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]` (after the first)
pub const GROUP_REST: Class = Class(ALPHA | DIGIT | HYPHEN | DOT | PLUS);

/// §2.2 "Unsafe": space, `< > " # % { } | \ ^ ~ [ ] \``.
#[must_use]
pub const fn is_unsafe(b: u8) -> bool {
    matches!(
        b,
        b' ' | b'<'
            | b'>'
            | b'"'
            | b'#'
            | b'%'
            | b'{'
            | b'}'
            | b'|'
            | b'\\'
            | b'^'
            | b'~'
            | b'['
            | b']'
            | b'`'
    )
}

/// §2.2 "No corresponding graphic US-ASCII": 00-1F and 7F.
#[must_use]
pub const fn is_control(b: u8) -> bool {
    b < 0x20 || b == 0x7f
}

/// The value of a hex digit; `None` when `b` is not one.
#[must_use]
#[inline]
pub const fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_match_the_bnf_lists() {
        let all = |c: Class| (0u8..=255).filter(|&b| c.contains(b)).collect::<Vec<u8>>();
        assert_eq!(all(RESERVED), b"&/:;=?@".to_vec());
        let unreserved = all(UNRESERVED);
        assert_eq!(unreserved.len(), 26 * 2 + 10 + 5 + 6);
        for b in b"$-_.+!*'()," {
            assert!(UNRESERVED.contains(*b));
        }
        for b in 0u8..=255 {
            if is_unsafe(b) && b != b'%' {
                assert!(!XCHAR.contains(b), "{b}");
            }
            if is_control(b) || b >= 0x80 {
                assert!(!XCHAR.contains(b));
            }
        }
        assert!(UCHAR.contains(b'%') && !UCHAR.literal().contains(b'%'));
        assert_eq!(all(SCHEME).len(), 52 + 10 + 3);
    }
}

//! The character classes of RFC 1738 §5 as one `const` byte table.
//!
//! Every byte maps to a set of bits; every BNF class is a mask over those
//! bits. A scan asks one question per byte: `TABLE[b] & class != 0`.
//! Reserved characters each get a bit of their own because each scheme
//! allows a different subset of them (§2.2: "Many URL schemes reserve
//! certain characters for a special meaning").

/// A set of bytes: a mask over the bits of `TABLE`, and, for the classes
/// long runs are scanned in, a bit of its own in `MEMBER` so that eight
/// bytes can be tested at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Class(pub(crate) u16, pub(crate) u32);

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
        Class(self.0 | other.0, 0)
    }
    /// A class of the mask's bytes, without a run bit.
    const fn of(mask: u16) -> Class {
        Class(mask, 0)
    }
    /// The same class with its own bit in `MEMBER`.
    const fn run(self, bit: u32) -> Class {
        Class(self.0, bit)
    }
    /// Whether `b` belongs to the class (a `%` stands for a whole escape).
    #[must_use]
    #[inline]
    pub fn contains(self, b: u8) -> bool {
        TABLE[b as usize] & self.0 != 0
    }
    /// [`Class::contains`] for `const` tables: the class bits computed,
    /// not read from `TABLE`.
    pub(crate) const fn contains_const(self, b: u8) -> bool {
        bits(b) & self.0 != 0
    }
    /// The class without the escape: what may stand unencoded.
    #[must_use]
    pub const fn literal(self) -> Class {
        Class(self.0 & !PCT, self.1)
    }
}

/// `alpha = lowalpha | hialpha`
pub const ALPHA_C: Class = Class::of(ALPHA);
/// `digit = "0" | ... | "9"`
pub const DIGIT_C: Class = Class::of(DIGIT);
/// `hex = digit | "A" | ... | "f"`
pub const HEX_C: Class = Class::of(HEX);
/// `alphadigit = alpha | digit`
pub const ALPHADIGIT: Class = Class::of(ALPHA | DIGIT);
/// The bytes a `host` is made of: `alphadigit | "-" | "."`; the label
/// rules are checked by `host.rs`.
pub const HOSTCHAR: Class = Class::of(ALPHA | DIGIT | HYPHEN | DOT).run(1 << 0);
/// `scheme = 1*[ lowalpha | digit | "+" | "-" | "." ]`, upper case
/// accepted as §2.1 asks ("allow "HTTP" as well as "http"").
pub const SCHEME: Class = Class::of(ALPHA | DIGIT | PLUS | HYPHEN | DOT).run(1 << 1);
/// `unreserved = alpha | digit | safe | extra`
pub const UNRESERVED: Class = Class::of(ALPHA | DIGIT | SAFE | EXTRA);
/// `reserved = ";" | "/" | "?" | ":" | "@" | "&" | "="`
pub const RESERVED: Class = Class::of(SEMI | SLASH | QUEST | COLON | AT | AMP | EQ);
/// `uchar = unreserved | escape`
pub const UCHAR: Class = UNRESERVED.or(Class::of(PCT)).run(1 << 2);
/// `xchar = unreserved | reserved | escape`
pub const XCHAR: Class = UCHAR.or(RESERVED).run(1 << 3);
/// `user = *[ uchar | ";" | "?" | "&" | "=" ]`; `password` is the same.
pub const USER: Class = UCHAR.or(Class::of(SEMI | QUEST | AMP | EQ)).run(1 << 4);
/// `fsegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]`
pub const FSEGMENT: Class = UCHAR.or(Class::of(QUEST | COLON | AT | AMP | EQ)).run(1 << 10);
/// `fpath = fsegment *[ "/" fsegment ]`
pub const FPATH: Class = FSEGMENT.or(Class::of(SLASH)).run(1 << 5);
/// `hsegment = *[ uchar | ";" | ":" | "@" | "&" | "=" ]`
pub const HSEGMENT: Class = UCHAR.or(Class::of(SEMI | COLON | AT | AMP | EQ)).run(1 << 7);
/// `hpath = hsegment *[ "/" hsegment ]`
pub const HPATH: Class = HSEGMENT.or(Class::of(SLASH)).run(1 << 6);
/// `search = *[ uchar | ";" | ":" | "@" | "&" | "=" ]`
pub const SEARCH: Class = HSEGMENT;
/// `psegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]`
pub const PSEGMENT: Class = FSEGMENT;
/// `ppath = psegment *[ "/" psegment ]`
pub const PPATH: Class = FPATH;
/// `fieldname = *[ uchar | "?" | ":" | "@" | "&" ]`; `fieldvalue` is the same.
pub const FIELD: Class = UCHAR.or(Class::of(QUEST | COLON | AT | AMP)).run(1 << 8);
/// `article = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host`
pub const ARTICLE: Class = UCHAR.or(Class::of(SEMI | SLASH | QUEST | COLON | AMP | EQ)).run(1 << 9);
/// `group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]` (after the first)
pub const GROUP_REST: Class = Class::of(ALPHA | DIGIT | HYPHEN | DOT | PLUS);

/// The classes with a run bit, each listed once.
pub(crate) const RUN_CLASSES: [Class; 11] =
    [HOSTCHAR, SCHEME, UCHAR, XCHAR, USER, FPATH, HPATH, HSEGMENT, FIELD, ARTICLE, FSEGMENT];

pub(crate) const fn member() -> [u32; 256] {
    let mut t = [0u32; 256];
    let mut c = 0;
    while c < RUN_CLASSES.len() {
        let class = RUN_CLASSES[c];
        let mut b = 0;
        while b < 256 {
            // `%` is left out: an escape needs its two hex digits checked.
            if bits(b as u8) & class.0 & !PCT != 0 {
                t[b] |= class.1;
            }
            // The same bit 16 places up takes `%` in too, for a run that
            // checks its escapes apart (`pct::run`).
            if bits(b as u8) & class.0 != 0 {
                t[b] |= class.1 << ESCAPED;
            }
            b += 1;
        }
        c += 1;
    }
    t
}

/// For every byte, the run bits of the classes it belongs to unencoded,
/// and the same bits `ESCAPED` places up for the classes it belongs to
/// counting `"%"` as a member.
pub(crate) static MEMBER: [u32; 256] = member();

/// How far up a class's run bit is in `MEMBER` when `"%"` counts.
pub(crate) const ESCAPED: u32 = 16;
const _: () = {
    let mut c = 0;
    while c < RUN_CLASSES.len() {
        assert!(RUN_CLASSES[c].1 < 1 << ESCAPED, "a run bit too high for its escaped twin");
        c += 1;
    }
};

/// Where the run of unencoded members of `class` from `i` ends: the first
/// byte from `i` that is not one, or `end`. Eight bytes at a time: the
/// `AND` of eight `MEMBER` entries keeps a class's bit only when all eight
/// bytes belong to it; in the word where the run ends, the byte is found
/// from the same eight bytes without a branch per byte, so a run costs
/// one loop exit, not two (a word loop, then a byte loop).
#[inline(always)]
pub(crate) fn run_of(b: &[u8], mut i: usize, end: usize, class: Class) -> usize {
    let bit = class.1;
    if bit == 0 {
        // No run bit: the caller reads byte by byte.
        return i;
    }
    let b = &b[..end];
    while let Some(w) = b.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        let all = MEMBER[w[0] as usize]
            & MEMBER[w[1] as usize]
            & MEMBER[w[2] as usize]
            & MEMBER[w[3] as usize]
            & MEMBER[w[4] as usize]
            & MEMBER[w[5] as usize]
            & MEMBER[w[6] as usize]
            & MEMBER[w[7] as usize];
        if all & bit == 0 {
            return i + first_miss(w, bit);
        }
        i += 8;
    }
    if i >= end {
        return end;
    }
    // Fewer than eight bytes left. With eight in the buffer, the last
    // eight are read as one word (those before `i` read again): most
    // runs go to the end, and one lookup each tells it.
    if let Some(w) = end.checked_sub(8).and_then(|from| b.get(from..)).and_then(<[u8]>::first_chunk::<8>) {
        let all = w.iter().fold(u32::MAX, |all, &c| all & MEMBER[c as usize]);
        if all & bit != 0 {
            return end;
        }
        // A byte outside the class: the first from `i` (the word's bytes
        // before `i` may be anything).
        let miss = miss_bits(w, bit) >> (i + 8 - end);
        return if miss == 0 { end } else { i + miss.trailing_zeros() as usize };
    }
    // A buffer of fewer than eight bytes: the zero bytes past `end`
    // belong to no class.
    i + first_miss(&chunk_from(b, i), bit)
}

/// How many of the eight bytes of `w`, from the first, are unencoded
/// members of `class` (which has a run bit; 8 or more when all are):
/// `run_of` within a word already read, such as a scheme name shorter
/// than eight bytes, without a loop or the tail of a shorter slice.
#[inline(always)]
pub(crate) fn run_in_word(w: &[u8; 8], class: Class) -> usize {
    debug_assert!(class.1 != 0);
    first_miss(w, class.1)
}

/// The index of the first of eight bytes that lacks `bit` in `MEMBER`
/// (one of them does), without a branch per byte.
#[inline(always)]
pub(crate) fn first_miss(w: &[u8; 8], bit: u32) -> usize {
    miss_bits(w, bit).trailing_zeros() as usize
}

/// The bytes of `w` that lack `bit` in `MEMBER`, a bit each (bit `k` for
/// byte `k`).
#[inline(always)]
fn miss_bits(w: &[u8; 8], bit: u32) -> u32 {
    let mut miss = 0u32;
    for (k, &c) in w.iter().enumerate() {
        miss |= u32::from(MEMBER[c as usize] & bit == 0) << k;
    }
    miss
}

/// How a host sees a byte (§3.1), as bits that `host_masks` shifts into
/// place: bit 0 for a byte that is not `alphadigit | "-" | "."`, bit 8
/// for a `"."`, bit 16 for a `"-"`, bit 24 for a letter.
const fn host_bits() -> [u32; 256] {
    let mut t = [0u32; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = match c as u8 {
            b'.' => 1 << 8,
            b'-' => 1 << 16,
            b if bits(b) & ALPHA != 0 => 1 << 24,
            b if bits(b) & DIGIT != 0 => 0,
            _ => 1,
        };
        c += 1;
    }
    t
}

/// The host bits of every byte, already shifted to each of the eight
/// places of a word: `HOST_BITS[k][c]` is byte `c` at place `k`.
static HOST_BITS: [[u32; 256]; 8] = {
    let bits = host_bits();
    let mut t = [[0u32; 256]; 8];
    let mut k = 0;
    while k < 8 {
        let mut c = 0;
        while c < 256 {
            t[k][c] = bits[c] << k;
            c += 1;
        }
        k += 1;
    }
    t
};

/// The eight bytes of `w` as a host sees them, one bit per byte: bits
/// 0-7 for those that are not `alphadigit | "-" | "."`, 8-15 for the
/// dots, 16-23 for the hyphens, 24-31 for the letters. Eight independent
/// table lookups, no branch.
#[inline]
pub(crate) fn host_masks(w: &[u8; 8]) -> u32 {
    let mut m = 0;
    let mut k = 0;
    while k < 8 {
        m |= HOST_BITS[k][w[k] as usize];
        k += 1;
    }
    m
}

/// For SWAR over `u64` words: a one in every byte.
pub(crate) const LO: u64 = 0x0101_0101_0101_0101;
/// For SWAR over `u64` words: the top bit of every byte.
pub(crate) const HI: u64 = 0x8080_8080_8080_8080;

/// The eight bytes from `i`, zeros past the end of `b`.
#[inline]
pub(crate) fn chunk_from(b: &[u8], i: usize) -> [u8; 8] {
    if let Some(w) = b.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        return *w;
    }
    match b.last_chunk::<8>() {
        // Fewer than eight bytes left: the last eight, shifted down.
        Some(w) if i < b.len() => (u64::from_le_bytes(*w) >> (8 * (i + 8 - b.len()))).to_le_bytes(),
        Some(_) => [0; 8],
        None => short_chunk(b, i),
    }
}

/// `chunk_from` in a text of fewer than eight bytes (such as `news:*`):
/// the bytes left as two loads that may overlap, not a copy of a length
/// known only here.
#[inline(never)]
fn short_chunk(b: &[u8], i: usize) -> [u8; 8] {
    let rest = b.get(i..).unwrap_or_default();
    let n = rest.len();
    let word = match (rest.first_chunk::<4>(), rest.first_chunk::<2>()) {
        (Some(lo), _) => {
            let hi = rest.last_chunk::<4>().copied().unwrap_or_default();
            u64::from(u32::from_le_bytes(*lo)) | u64::from(u32::from_le_bytes(hi)) << (8 * (n - 4))
        }
        (None, Some(lo)) => {
            let hi = rest.last_chunk::<2>().copied().unwrap_or_default();
            u64::from(u16::from_le_bytes(*lo)) | u64::from(u16::from_le_bytes(hi)) << (8 * (n - 2))
        }
        (None, None) => rest.first().copied().map_or(0, u64::from),
    };
    word.to_le_bytes()
}

/// The index of the first `needle` in `b[i..end]`, or `end`, reading eight
/// bytes per step (SWAR over `u64`).
#[inline]
pub(crate) fn find_byte(b: &[u8], i: usize, end: usize, needle: u8) -> usize {
    find_any(b, i, end, [needle])
}

/// The index of the first of `needles` in `b[i..end]`, or `end`: one pass
/// for all of them, eight bytes per step.
#[inline]
pub(crate) fn find_any<const N: usize>(b: &[u8], mut i: usize, end: usize, needles: [u8; N]) -> usize {
    let b = &b[..end];
    while i < end {
        // Past `end`, `chunk_from` gives zero bytes: a match there (a
        // zero needle) is cut back to `end`.
        let w = u64::from_le_bytes(chunk_from(b, i));
        let mut zero = 0;
        for needle in needles {
            let x = w ^ (LO * u64::from(needle));
            // The lowest set bit marks the first zero byte exactly;
            // borrows can only set bits above it. So it does in the union.
            zero |= x.wrapping_sub(LO) & !x & HI;
        }
        if zero != 0 {
            return end.min(i + (zero.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    end
}

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
    fn host_masks_match_the_classes() {
        for b in 0u8..=255 {
            for k in 0..8 {
                let mut word = [b'7'; 8];
                word[k] = b;
                let m = host_masks(&word);
                let (outside, dots, hyphens, letters) =
                    (m & 0xff, (m >> 8) & 0xff, (m >> 16) & 0xff, m >> 24);
                let bit = 1u32 << k;
                assert_eq!(outside, if HOSTCHAR.contains(b) { 0 } else { bit }, "{b}");
                assert_eq!(dots, if b == b'.' { bit } else { 0 }, "{b}");
                assert_eq!(hyphens, if b == b'-' { bit } else { 0 }, "{b}");
                assert_eq!(letters, if ALPHA_C.contains(b) { bit } else { 0 }, "{b}");
            }
        }
    }

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

    #[test]
    fn run_bits_agree_with_the_classes() {
        for class in RUN_CLASSES {
            assert_eq!(class.1.count_ones(), 1);
            for b in 0u8..=255 {
                let member = MEMBER[b as usize] & class.1 != 0;
                assert_eq!(member, class.literal().contains(b), "{class:?} {b}");
            }
        }
    }

    #[test]
    fn run_of_chunk_from_find_byte_and_find_any_match_the_naive_loops() {
        let text = b"abc/def%41ghijklmnopqrstuvwxyz0123456789-._~x#y@zzzzzzzzzzzz";
        for start in 0..text.len() {
            for end in start..=text.len() {
                for class in RUN_CLASSES {
                    let naive = (start..end).find(|&k| !class.literal().contains(text[k])).unwrap_or(end);
                    assert_eq!(run_of(text, start, end, class), naive, "{class:?} {start} {end}");
                }
                let mut word = [0u8; 8];
                let rest = &text[start..end.min(start + 8)];
                word[..rest.len()].copy_from_slice(rest);
                assert_eq!(chunk_from(&text[..end], start), word, "{start} {end}");
                for needle in [b'#', b'@', b'/', b'z', 0] {
                    let naive = (start..end).find(|&k| text[k] == needle).unwrap_or(end);
                    assert_eq!(find_byte(text, start, end, needle), naive);
                }
                for needles in [[b'/', b'#', b'@'], [b'@', b'#', b'/'], [b'z', 0, b'%'], [0, 0, b'9']] {
                    let naive = (start..end).find(|&k| needles.contains(&text[k])).unwrap_or(end);
                    assert_eq!(find_any(text, start, end, needles), naive, "{needles:?} {start} {end}");
                }
            }
        }
    }
}

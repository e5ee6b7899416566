//! §3.5 MAILTO: `mailtourl = "mailto:" encoded822addr`,
//! `encoded822addr = 1*xchar ; further defined in RFC822`.
//!
//! Once decoded, the address must be one RFC 822 §6.1 `addr-spec`:
//!
//! ```text
//! addr-spec  = local-part "@" domain
//! local-part = word *("." word)          word = atom / quoted-string
//! domain     = sub-domain *("." sub-domain)
//! sub-domain = domain-ref / domain-literal   domain-ref = atom
//! ```
//!
//! Linear white space between tokens, which RFC 822 allows, is not
//! accepted: one address, with nothing around it.

use crate::chars;
use crate::error::{ErrorKind, ParseError, Rule};
use crate::pct;
use crate::reader::Parser;
use crate::simd;
use crate::url::{Parts, UrlRef};
use std::borrow::Cow;

pub(crate) fn parse(p: &Parser<'_>, _parts: &mut Parts, i: usize) -> Result<(), ParseError> {
    // The common address in one pass, which also finds the commonest
    // errors (a byte no `xchar` is, a bad escape); the rules say where
    // and why anything else fails, and read what a lenient parse accepts.
    match plain_addr_spec(&p.b[i..p.end]) {
        Plain::Atoms => Ok(()),
        Plain::NotXchar(k) if p.lenient.is_none() => Err(match p.b[i + k] {
            b'%' => ParseError::new(i + k, ErrorKind::InvalidEscape, Rule::Encoded822addr),
            _ => p.unexpected(i + k, Rule::Encoded822addr),
        }),
        _ => encoded822addr(p, i),
    }
}

/// `encoded822addr = 1*xchar`, whose decoded octets are an `addr-spec`.
fn encoded822addr(p: &Parser<'_>, i: usize) -> Result<(), ParseError> {
    if i == p.end {
        return Err(ParseError::new(i, ErrorKind::UnexpectedEnd, Rule::Encoded822addr));
    }
    p.scan_to_end(i, chars::XCHAR, Rule::Encoded822addr)?;
    addr_spec(&p.b[i..p.end])
        .map_err(|at| ParseError::new(i + at, ErrorKind::InvalidAddress, Rule::Encoded822addr))
}

/// What the one-pass reading made of an encoded address.
/// Whether `encoded`, all of whose bytes are `xchar` or escapes, is the
/// common address of atoms that `parse` accepts in its first pass
/// (`bulk.rs` decides mailto URLs by it).
#[inline]
pub(crate) fn is_plain(encoded: &[u8]) -> bool {
    plain_addr_spec(encoded) == Plain::Atoms
}

#[derive(Debug, PartialEq)]
enum Plain {
    /// An `addr-spec` of dot-separated atoms, with no quoted string or
    /// domain literal, every octet an `xchar` too: what nearly every
    /// mailto URL holds.
    Atoms,
    /// Where `encoded822addr = 1*xchar` (§5) stops: the first octet that
    /// is no `xchar` (a `"%"` that starts no escape among them); every
    /// octet before it is one.
    NotXchar(usize),
    /// Anything else, valid or not: the rules read it.
    Other,
}

/// How `encoded` reads as an address of atoms. An escape stands for the
/// octet it encodes, as in the rules (`"%25"` an atom octet, `"%2E"` a
/// dot).
///
/// Eight octets at a time: a table lookup per octet and a few bit
/// operations per word, no branch but the loop's (separators are few, and
/// where they stand varies). An address with a `"%"` is read again,
/// escape by escape.
#[inline]
fn plain_addr_spec(encoded: &[u8]) -> Plain {
    if encoded.len() >= LONG {
        return plain_blocks(encoded);
    }
    plain_words(encoded)
}

/// From this length on, an address is read [`plain_blocks`]' way.
const LONG: usize = 64;

/// [`plain_addr_spec`] eight octets at a time.
fn plain_words(encoded: &[u8]) -> Plain {
    use chars::LO;
    let (mut bad, mut ats) = (0u64, 0u64);
    // Bit 0: the octet before the word is a separator ("." or "@"), and
    // at the start: an atom must begin after it.
    let mut before = u64::from(SEPARATOR);
    let mut i = 0;
    while i < encoded.len() {
        let w = chars::chunk_from(encoded, i);
        let n = (encoded.len() - i).min(8);
        let mut t = 0u64;
        for (k, &c) in w.iter().enumerate() {
            t |= u64::from(PLAIN[c as usize]) << (8 * k);
        }
        // Past the end: no octet.
        t &= u64::MAX >> (64 - 8 * n);
        let separators = t & (u64::from(SEPARATOR) * LO);
        // An octet that is not plain, or a separator right after one.
        bad |= (t & (u64::from(OTHER | NOT_XCHAR | PCT) * LO)) | (separators & ((separators << 8) | before));
        // The "@"s, one bit each at the bottom of its octet, summed into the top one.
        ats += ((t & (u64::from(AT) * LO)) >> 1).wrapping_mul(LO) >> 56;
        before = (separators >> (8 * (n - 1))) & 1;
        i += 8;
    }
    if bad & (u64::from(PCT) * LO) != 0 {
        return plain_with_escapes(encoded);
    }
    if bad & (u64::from(NOT_XCHAR) * LO) != 0 {
        // No `"%"`: every octet but these is an `xchar`.
        return Plain::NotXchar(first_not_xchar(encoded));
    }
    if bad == 0 && before == 0 && ats == 1 {
        Plain::Atoms
    } else {
        Plain::Other
    }
}

/// [`plain_addr_spec`] 64 octets at a time, by vector code where there
/// is some (`simd::set_masks`): the octets outside [`ATOMS_AND_SEPARATORS`],
/// the dots and the `"@"`s as bit masks, and the rules of an address of
/// atoms as a few operations on them. An address with any other octet
/// (an escape, an `xchar` that is no atom octet, an octet that is no
/// `xchar`) or two separators in a row is read again by [`plain_words`],
/// which says what it is.
fn plain_blocks(encoded: &[u8]) -> Plain {
    let path = simd::Path::detect();
    let (mut bad, mut ats) = (0u64, 0u32);
    // Bit 0: the octet before the block is a separator, and at the start.
    let mut before = 1u64;
    for chunk in encoded.chunks(simd::BLOCK) {
        let mut scratch = [0; simd::BLOCK];
        let block = simd::block(chunk, &mut scratch);
        let (outside, [dots, at]) = simd::set_masks(path, block, &ATOMS_AND_SEPARATORS, [b'.', b'@']);
        let within = u64::MAX >> (simd::BLOCK - chunk.len());
        let separators = (dots | at) & within;
        bad |= (outside & within) | (separators & (separators << 1 | before));
        ats += (at & within).count_ones();
        before = separators >> (chunk.len() - 1) & 1;
    }
    if bad != 0 {
        return plain_words(encoded);
    }
    if before == 0 && ats == 1 {
        Plain::Atoms
    } else {
        Plain::Other
    }
}

/// The octets of an address of atoms written as themselves: the
/// separators and the atom octets that are also unencoded `xchar`s
/// (`PLAIN` sees none of `OTHER`, `NOT_XCHAR`, `PCT` in them).
static ATOMS_AND_SEPARATORS: simd::ByteSet = simd::ByteSet::new(&{
    let plain = plain(true);
    let mut members = [false; 256];
    let mut c = 0;
    while c < 256 {
        members[c] = plain[c] & (OTHER | NOT_XCHAR | PCT) == 0;
        c += 1;
    }
    members
});

/// The first octet of `encoded` that is no `xchar` written as itself.
#[cold]
#[inline(never)]
fn first_not_xchar(encoded: &[u8]) -> usize {
    encoded.iter().position(|&c| PLAIN[c as usize] & NOT_XCHAR != 0).unwrap_or(encoded.len())
}

/// [`plain_addr_spec`] for a text with escapes, each read as the octet it
/// stands for.
#[cold]
#[inline(never)]
fn plain_with_escapes(encoded: &[u8]) -> Plain {
    let (mut bad, mut ats) = (0u8, 0u32);
    let mut separator = SEPARATOR;
    let mut i = 0;
    while let Some(&c) = encoded.get(i) {
        let mut t = PLAIN[c as usize];
        if c == b'%' {
            let Some(octet) = pct::escape_at(encoded, i) else { return Plain::NotXchar(i) };
            t = DECODED[octet as usize];
            i += 2;
        } else if t & NOT_XCHAR != 0 {
            return Plain::NotXchar(i);
        }
        bad |= (t & OTHER) | (separator & t);
        ats += u32::from((t & AT) >> 1);
        separator = t & SEPARATOR;
        i += 1;
    }
    if bad == 0 && separator == 0 && ats == 1 {
        Plain::Atoms
    } else {
        Plain::Other
    }
}

/// `PLAIN` bits: `"."` and `"@"` separate atoms, `"@"` is also counted,
/// `"%"` starts an escape, an `xchar` (§5) written as itself that is not
/// an `atom` octet (RFC 822 §3.3) is `OTHER`, and an octet that is no
/// `xchar` written as itself (§5: the unsafe ones, controls, space, octets
/// above 7F) is `NOT_XCHAR`.
const SEPARATOR: u8 = 1;
const AT: u8 = 2;
const OTHER: u8 = 4;
const PCT: u8 = 8;
const NOT_XCHAR: u8 = 16;

/// How `plain_addr_spec` sees an octet written as itself.
static PLAIN: [u8; 256] = plain(true);

/// How `plain_addr_spec` sees an octet written as an escape: any atom
/// octet may be, and any octet is an `xchar` written so.
static DECODED: [u8; 256] = plain(false);

/// The `PLAIN` bits of every octet; `unencoded`: the octet stands as
/// itself, so it must also be an unencoded `xchar`.
const fn plain(unencoded: bool) -> [u8; 256] {
    let mut t = [OTHER; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        // §5: the unencoded `xchar`s are the graphic characters but the unsafe.
        let xchar = b > b' ' && b < 0x7f && !chars::is_unsafe(b);
        t[c] = match b {
            b'.' => SEPARATOR,
            b'@' => SEPARATOR | AT,
            b'%' if unencoded => PCT,
            _ if unencoded && !xchar => NOT_XCHAR,
            _ if is_atom(b) => 0,
            _ => OTHER,
        };
        c += 1;
    }
    t
}

/// The octets of the decoded address, read one at a time, each with the
/// offset it came from.
struct Octets<'a> {
    encoded: &'a [u8],
    i: usize,
}

impl Octets<'_> {
    /// The next octet and its offset, without consuming it.
    #[inline]
    fn peek(&self) -> Option<(u8, usize)> {
        let c = *self.encoded.get(self.i)?;
        Some((pct::escape_at(self.encoded, self.i).unwrap_or(c), self.i))
    }

    /// The next octet and its offset.
    #[inline]
    fn next(&mut self) -> Option<(u8, usize)> {
        let octet = self.peek()?;
        self.i += if pct::escape_at(self.encoded, self.i).is_some() { 3 } else { 1 };
        Some(octet)
    }

    /// The next octet, consumed when `f` holds for it.
    #[inline]
    fn next_if(&mut self, f: impl Fn(&(u8, usize)) -> bool) -> Option<(u8, usize)> {
        self.peek().filter(f).and_then(|_| self.next())
    }
}

/// Checks the decoded `encoded` against `addr-spec`; `Err` is the offset
/// (in `encoded`) where it stops matching.
fn addr_spec(encoded: &[u8]) -> Result<(), usize> {
    let mut s = Octets { encoded, i: 0 };
    let end = encoded.len();
    dotted(&mut s, end, word)?;
    match s.next() {
        Some((b'@', _)) => {}
        Some((_, at)) => return Err(at),
        None => return Err(end),
    }
    dotted(&mut s, end, sub_domain)?;
    match s.next() {
        Some((_, at)) => Err(at),
        None => Ok(()),
    }
}

/// `item *("." item)`
fn dotted(
    s: &mut Octets<'_>,
    end: usize,
    item: fn(&mut Octets<'_>, usize) -> Result<(), usize>,
) -> Result<(), usize> {
    item(s, end)?;
    while s.next_if(|&(c, _)| c == b'.').is_some() {
        item(s, end)?;
    }
    Ok(())
}

/// `word = atom / quoted-string`
fn word(s: &mut Octets<'_>, end: usize) -> Result<(), usize> {
    match s.peek() {
        Some((b'"', _)) => quoted(s, end, b'"', b'"'),
        _ => atom(s, end),
    }
}

/// `sub-domain = domain-ref / domain-literal`
fn sub_domain(s: &mut Octets<'_>, end: usize) -> Result<(), usize> {
    match s.peek() {
        Some((b'[', _)) => quoted(s, end, b'[', b']'),
        _ => atom(s, end),
    }
}

/// `atom = 1*<any CHAR except specials, SPACE and CTLs>`
fn atom(s: &mut Octets<'_>, end: usize) -> Result<(), usize> {
    let start = s.i;
    loop {
        // Plain octets one table lookup each; an escape (already checked
        // by the `xchar` scan) is decoded first.
        while s.encoded.get(s.i).is_some_and(|&c| c != b'%' && ATOM[c as usize]) {
            s.i += 1;
        }
        if s.next_if(|&(c, _)| ATOM[c as usize]).is_none() {
            break;
        }
    }
    if s.i == start {
        return Err(s.peek().map_or(end, |(_, at)| at));
    }
    Ok(())
}

/// RFC 822 §3.3: whether `c` may be in an `atom`: `CHAR` (0-127) but
/// `specials`, SPACE and `CTL`s (0-31 and 127).
const fn is_atom(c: u8) -> bool {
    const SPECIALS: &[u8] = b"()<>@,;:\\\".[]";
    let mut k = 0;
    while k < SPECIALS.len() {
        if SPECIALS[k] == c {
            return false;
        }
        k += 1;
    }
    c > b' ' && c < 0x7f
}

/// [`is_atom`] for every octet.
static ATOM: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = is_atom(c as u8);
        c += 1;
    }
    t
};

/// `quoted-string = <"> *(qtext/quoted-pair) <">` and
/// `domain-literal = "[" *(dtext / quoted-pair) "]"`: any CHAR but the
/// closing delimiter, `\` and CR, with `\` quoting the next CHAR.
fn quoted(s: &mut Octets<'_>, end: usize, open: u8, close: u8) -> Result<(), usize> {
    let _ = s.next_if(|&(c, _)| c == open);
    loop {
        match s.next() {
            None => return Err(end),
            Some((c, _)) if c == close => return Ok(()),
            Some((b'\\', _)) => match s.next() {
                Some((c, _)) if c < 0x80 => {}
                Some((_, at)) => return Err(at),
                None => return Err(end),
            },
            Some((c, at)) if c == b'\r' || c >= 0x80 || (open == b'[' && c == b'[') => return Err(at),
            Some(_) => {}
        }
    }
}

/// The mailto view: the address (§3.5).
///
/// # Examples
/// ```
/// let url = rfc1738::Url::parse("mailto:joe%25work@example.com")?;
/// assert_eq!(&*url.mailto().unwrap().address(), b"joe%work@example.com");
/// # Ok::<(), rfc1738::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Mailto<'a> {
    url: UrlRef<'a>,
}

impl<'a> Mailto<'a> {
    pub(crate) fn new(url: UrlRef<'a>) -> Mailto<'a> {
        Mailto { url }
    }

    /// The encoded address, as written.
    #[must_use]
    pub fn address_raw(&self) -> &'a str {
        self.url.scheme_specific_part()
    }

    /// The RFC 822 address, decoded.
    #[must_use]
    pub fn address(&self) -> Cow<'a, [u8]> {
        pct::decode(self.address_raw())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atom_table_is_rfc822_atom() {
        // RFC 822 §3.3: specials, SPACE and CTLs are not atom octets.
        for c in 0u8..=255 {
            let special = b"()<>@,;:\\\".[]".contains(&c);
            assert_eq!(ATOM[c as usize], c > b' ' && c < 0x7f && !special, "{c}");
        }
    }

    #[test]
    fn plain_octets_are_atoms_and_xchars() {
        for c in 0u8..=255 {
            let atom = PLAIN[c as usize] == 0;
            assert_eq!(atom, ATOM[c as usize] && chars::XCHAR.literal().contains(c), "{c}");
            assert_eq!(DECODED[c as usize] == 0, ATOM[c as usize], "{c}");
        }
    }

    /// The plain reading must answer `Atoms` exactly for the addresses of
    /// atoms (no quoted string, no domain literal) that the rules accept,
    /// `NotXchar` where their `xchar` scan fails, and `Other` only for
    /// texts that scan; and a strict `parse` must give the rules' answer.
    fn agrees(text: &[u8]) {
        let shown = String::from_utf8_lossy(text);
        let decoded = pct::decode(&shown);
        let p = Parser { b: text, end: text.len(), lenient: None };
        let scan = p.scan_to_end(0, chars::XCHAR, Rule::Encoded822addr).map_err(|e| e.offset());
        let atoms = scan.is_ok() && addr_spec(text).is_ok() && !decoded.iter().any(|c| b"\"[".contains(c));
        match plain_addr_spec(text) {
            Plain::Atoms => assert!(atoms, "{shown}"),
            Plain::NotXchar(k) => assert_eq!(scan, Err(k), "{shown}"),
            Plain::Other => assert!(!atoms && scan.is_ok(), "{shown}"),
        }
        let mut parts = Parts::new(crate::kind::SchemeKind::Mailto, 0, text.len(), false);
        assert_eq!(parse(&p, &mut parts, 0), encoded822addr(&p, 0), "{shown}");
    }

    #[test]
    fn the_plain_reading_accepts_what_the_rules_accept_of_atoms() {
        for text in crate::testing::every_text(b"a.@%\"[~!", 0..=6) {
            agrees(&text);
        }
        // Separators on both sides of a word's edge.
        for text in crate::testing::every_text(b"a.@", 7..=11) {
            agrees(&text);
        }
        // Escapes: of an atom octet ("%25", "%2E" a dot, "%40" an "@"),
        // of a space ("%20"), a quote ("%22"), an octet above 7F ("%aa"),
        // and cut short.
        for text in crate::testing::every_text(b"a.@%250E4", 0..=6) {
            agrees(&text);
        }
        // Longer ones, with brackets ("%5B") and raw quotes too.
        for text in crate::testing::random_texts(7, 20_000, 24, b"ab.@%2504EB\"[~( ") {
            agrees(&text);
        }
    }

    /// Long addresses, read by blocks: the same answers as eight octets
    /// at a time, and the rules'; separators, escapes and other octets at
    /// every place of a block, across the blocks' edges.
    #[test]
    fn the_block_reading_agrees_with_the_word_reading() {
        let mut texts = crate::testing::random_texts(1738, 3_000, 300, b"abcdefgh.....@%2E(\"[ ~\x80");
        texts.extend(crate::testing::random_texts(
            1739,
            3_000,
            200,
            b"abcdefghijklmnopqrstuvwxyz0123456789.@",
        ));
        for len in [63, 64, 65, 127, 128, 129, 200] {
            for k in 0..len {
                let mut text = vec![b'a'; len];
                text[len / 2] = b'@';
                for c in [b'.', b'@', b'%', b'(', b' ', 0x80] {
                    let keep = text[k];
                    text[k] = c;
                    texts.push(text.clone());
                    text[k] = keep;
                }
            }
        }
        let mut long = 0;
        for text in texts.iter().filter(|t| t.len() >= LONG) {
            assert_eq!(plain_blocks(text), plain_words(text), "{:?}", String::from_utf8_lossy(text));
            agrees(text);
            long += 1;
        }
        assert!(long > 5_000, "{long}");
    }

    #[test]
    fn the_plain_reading_takes_escapes_of_atom_octets() {
        assert_eq!(plain_addr_spec(b"joe%25work@example.com"), Plain::Atoms);
        assert_eq!(plain_addr_spec(b"a%2Eb@h"), Plain::Atoms);
        assert_eq!(plain_addr_spec(b"a@%68"), Plain::Atoms);
        assert_eq!(plain_addr_spec(b"a%40b@h"), Plain::Other);
        assert_eq!(plain_addr_spec(b"a%2E@h"), Plain::Other);
        assert_eq!(plain_addr_spec(b"a%20b@h"), Plain::Other);
        assert_eq!(plain_addr_spec(b"a%2@h"), Plain::NotXchar(1));
        assert_eq!(plain_addr_spec(b"a@h%"), Plain::NotXchar(3));
        assert_eq!(plain_addr_spec(b"a(b@h c"), Plain::NotXchar(5));
        assert_eq!(plain_addr_spec(b"a(b@h%2"), Plain::NotXchar(5));
    }

    #[test]
    fn atoms_are_read_through_escapes() {
        assert_eq!(addr_spec(b"joe%25work@example.com"), Ok(()));
        assert_eq!(addr_spec(b"a%2Eb@h"), Ok(()));
        // %40 is "@": the local part ends there, and the second "@" is extra.
        assert_eq!(addr_spec(b"a%40b@h"), Err(5));
        // %20 is a space, which no atom holds.
        assert_eq!(addr_spec(b"a%20b@h"), Err(1));
        assert_eq!(addr_spec(b"@h"), Err(0));
        assert_eq!(addr_spec(b"a@"), Err(2));
    }
}

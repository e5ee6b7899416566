//! Validation in bulk: many URLs in one buffer (the lines of a log, the
//! values of an Arrow string column), a verdict for each, read block by
//! block.
//!
//! The buffer is classified 64 bytes at a time into bit masks (`simd.rs`:
//! line breaks, bytes outside `xchar`, and the delimiters `/ ? @ : ;`),
//! a window of 8 KiB at a time. Each URL is then decided from the masks
//! of its bytes (one word per mask for a URL of up to 64 bytes, shifted
//! to its start), a few bit operations each:
//!
//! - a byte that no rule takes (no `xchar`, not an escape, §2.2) or a bad
//!   escape anywhere, and the URL is invalid (a `"#"` excepted: the full
//!   parser reads the fragment);
//! - otherwise, every byte is an `xchar` or an escape; then a scheme name
//!   before the first `":"` of any scheme but those of §3 makes the URL
//!   valid (§5: `schemepart = *xchar | ip-schemepart`);
//! - http, ftp, file and telnet URLs of the common shape `"//" [ user
//!   [ ":" password ] "@" ] host [ ":" port ] [ "/" path ]` (a user in ftp
//!   and telnet alone, §3.1) are valid when the host passes the label rules of
//!   `host::short` on masks of its bytes found by vector code
//!   (`simd::host_masks`; for 64 bytes and more, `host::blocks`), the port
//!   is digits up to 65535,
//!   and the path has no `"?"` or `"/"` after the first `"?"` (http,
//!   §3.3) or no `";"` but a last `";type="` (ftp, §3.2) or none (file,
//!   §3.10), or is empty (telnet, §3.8);
//! - gopher, nntp, wais and prospero URLs of the shape `"//" host [ ":"
//!   port ] [ "/" path ]` the same way, their paths by their own rules:
//!   gopher's escapes (§3.4.1: no `%0D` or `%0A` in the selector), nntp's
//!   group and article number (§3.7), wais's reserved bytes (§3.9: the
//!   masks and a search for `&` and `=`), prospero's fields (§3.11, on
//!   the masks of `fast::fields`);
//! - news by its `"@"` (§3.6: a group, `"*"`, or an article and its
//!   host), mailto by the address check its rule makes first (§3.5: an
//!   `addr-spec` of atoms).
//!
//! Everything else, and the error of every invalid URL, is the full
//! parser's (`parse::validate_bytes`): it stays the one source of truth,
//! and the tests hold the verdicts here to it on every URL of the corpora.
//!
//! [`Checker::read`] gives, beside the verdict, where a valid URL's login
//! lies (its `"@"`, its host, the `"/"` that ends it), read from the same
//! masks: a caller that wants a host or a url-path slices it there
//! without parsing (the Python package's part kernels do).
//!
//! ```text
//!  buffer   h t t p : / / h . c o m / a | f t p : / / h /     (| is "\n")
//!  slash    . . . . . 1 1 . . . . . 1 . . . . . . 1 1 . 1
//!  colon    . . . . 1 . . . . . . . . . . . . . 1 . . . .
//!  nl       . . . . . . . . . . . . . . 1 . . . . . . . .
//! ```
//!
//! Which way the blocks are classified ([`Path`]) is found at run time:
//! AVX2 or SSE2 on x86_64, NEON on aarch64, else the portable table. The
//! cargo feature `portable` compiles the vector code out; [`Checker::with_path`] and
//! [`lines_with_path`] choose a way (`rfc1738 check` reads
//! `RFC1738_PORTABLE=1` for the portable one).
//!
//! # Examples
//! ```
//! use rfc1738::bulk::{self, Path};
//! let log = b"https://h.com/a\nhttp://h.com/a b\n";
//! for path in [Path::detect(), Path::Portable] {
//!     let valid: Vec<bool> = bulk::lines_with_path(log, path).map(|(_, ok)| ok).collect();
//!     assert_eq!(valid, [true, false]);
//! }
//! ```

use crate::chars;
use crate::fast;
use crate::host;
use crate::kind::SchemeKind;
use crate::parse::validate_bytes;
use crate::pct;
use crate::reader::MAX_LEN;
use crate::scheme;
use crate::simd::{self, Masks, BLOCK};
use core::cell::Cell;
use core::ops::Range;

pub use crate::simd::Path;

/// Blocks classified at a time: 8 KiB of input, whose masks stay in the
/// first-level cache while its URLs are read.
const WINDOW: usize = 128;

/// The masks a URL is read from (`Masks::get`): bytes that are no
/// `xchar` (a `"%"` among them), line breaks, delimiters.
const BAD: usize = 0;
const NL: usize = 1;
const SLASH: usize = 2;
const QUEST: usize = 3;
const AT: usize = 4;
const COLON: usize = 5;
const SEMI: usize = 6;

/// How a checker reads: its way of classifying, and the last valid
/// short host ([`Checker`]'s `host`).
#[derive(Clone, Copy)]
struct Cx<'m> {
    path: Path,
    memo: &'m Cell<u64>,
}

/// What the masks say of a URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Valid,
    Invalid,
    /// The full parser decides.
    Ask,
}

/// Verdicts on URLs of one buffer, given by their ranges.
///
/// The URLs are read fastest in the order they lie in the buffer (as the
/// ranges of an Arrow column do), each URL's masks then already computed;
/// any order gives the same verdicts.
///
/// # Examples
/// ```
/// use rfc1738::bulk::Checker;
/// // An Arrow string column: the values, one after another, and offsets.
/// let values = b"http://h.com/ahttp://h.com/a b";
/// let offsets = [0, 14, 30];
/// let mut checker = Checker::new(values);
/// let valid: Vec<bool> = offsets.windows(2).map(|w| checker.is_valid(w[0]..w[1])).collect();
/// assert_eq!(valid, [true, false]);
/// ```
pub struct Checker<'a> {
    b: &'a [u8],
    path: Path,
    /// Where the window starts in `b`, and where its masks end.
    base: usize,
    end: usize,
    /// The window's masks, block by block, then two blocks of zeros (so
    /// that a URL's masks are read as one word without a check); before
    /// the first window (empty, `0..0`), the two blocks alone.
    masks: Vec<Masks>,
    /// The last host of up to 8 bytes found valid, as a word (zero bytes
    /// after it; a host holds none): runs of URLs on one host are common
    /// (a log, a list of files), and each is then checked by one
    /// comparison.
    host: Cell<u64>,
}

impl<'a> Checker<'a> {
    /// A checker of URLs in `b`, classifying the fastest way the
    /// processor has ([`Path::detect`]).
    #[must_use]
    pub fn new(b: &'a [u8]) -> Checker<'a> {
        Checker::with_path(b, Path::detect())
    }

    /// A checker that classifies the way `path` says: [`Path::Portable`]
    /// for the safe code alone (the vector ways switched off); a way the
    /// processor lacks is read as [`Path::Portable`].
    #[must_use]
    pub fn with_path(b: &'a [u8], path: Path) -> Checker<'a> {
        let path = if path.is_available() { path } else { Path::Portable };
        Checker { b, path, base: 0, end: 0, masks: vec![Masks::default(); 2], host: Cell::new(0) }
    }

    /// The way blocks are classified.
    #[must_use]
    pub fn path(&self) -> Path {
        self.path
    }

    /// Whether `b[range]` is a valid URL: `validate_bytes(&b[range]).is_ok()`.
    ///
    /// # Panics
    /// When `range` is not within the buffer.
    #[inline]
    pub fn is_valid(&mut self, range: Range<usize>) -> bool {
        let (s, e) = (range.start, range.end);
        assert!(s <= e && e <= self.b.len(), "range out of the buffer");
        let verdict = if e - s > MAX_LEN || !self.cover(s, e) {
            Verdict::Ask
        } else if e - s <= BLOCK {
            let rel = s - self.base;
            let two =
                self.masks[rel / BLOCK..].first_chunk::<2>().expect("two blocks of zeros end the masks");
            decide(&Short::new(two, (rel % BLOCK) as u32), self.cx(), self.b, s, e).0
        } else {
            decide(&Long::new(self, s), self.cx(), self.b, s, e).0
        };
        answer(verdict, &self.b[range])
    }

    /// What the masks read of the URL `b[range]`: whether it is valid,
    /// and for most valid URLs where their login lies (§3.1) or that
    /// they have none. The part kernels of the Python package slice a URL
    /// by it instead of parsing it.
    ///
    /// # Examples
    /// ```
    /// use rfc1738::bulk::{Checker, Reading};
    /// let values = b"ftp://u@h.com:21/a;type=ihttps://h.com/p?qnews:comp.x%";
    /// let mut checker = Checker::new(values);
    /// let place = |r: Reading| match r {
    ///     Reading::Login(l) => Some((l.at, l.host_start, l.host_end, l.end)),
    ///     _ => None,
    /// };
    /// // `ftp://u@h.com:21/a;type=i`: the user ends at 7, the host is
    /// // 8..13, its port runs to the `/` at 16.
    /// assert_eq!(place(checker.read(0..25)), Some((Some(7), 8, 13, 16)));
    /// assert_eq!(place(checker.read(25..42)), Some((None, 8, 13, 13)));
    /// assert_eq!(checker.read(42..53), Reading::Parse);
    /// assert_eq!(checker.read(53..54), Reading::Invalid);
    /// ```
    ///
    /// # Panics
    /// When `range` is not within the buffer.
    #[inline]
    pub fn read(&mut self, range: Range<usize>) -> Reading {
        let (s, e) = (range.start, range.end);
        assert!(s <= e && e <= self.b.len(), "range out of the buffer");
        if e - s > MAX_LEN || !self.cover(s, e) {
            Reading::Parse
        } else if e - s <= BLOCK {
            let rel = s - self.base;
            let two =
                self.masks[rel / BLOCK..].first_chunk::<2>().expect("two blocks of zeros end the masks");
            reading(&Short::new(two, (rel % BLOCK) as u32), self.cx(), self.b, s, e)
        } else {
            reading(&Long::new(self, s), self.cx(), self.b, s, e)
        }
    }

    /// The way it classifies and its last valid host, as the rules take
    /// them.
    #[inline(always)]
    fn cx(&self) -> Cx<'_> {
        Cx { path: self.path, memo: &self.host }
    }

    /// Classifies the window from `start`.
    #[inline(never)]
    fn window(&mut self, start: usize) {
        let end = self.b.len().min(start + WINDOW * BLOCK);
        simd::classify(self.path, &self.b[start..end], &mut self.masks);
        self.masks.extend([Masks::default(); 2]);
        (self.base, self.end) = (start, end);
    }

    /// Makes the window hold `start..end` when it fits in one; whether it
    /// holds it.
    #[inline]
    fn cover(&mut self, start: usize, end: usize) -> bool {
        if start < self.base || end > self.end {
            self.window(start);
        }
        end <= self.end
    }

    /// The first byte of `field` in `from..to` (within the window), or `to`.
    #[inline]
    fn first(&self, field: usize, from: usize, to: usize) -> usize {
        if from >= to {
            return to;
        }
        let (mut k, off) = ((from - self.base) / BLOCK, (from - self.base) % BLOCK);
        let last = (to - 1 - self.base) / BLOCK;
        let mut m = self.masks[k].get(field) & (u64::MAX << off);
        loop {
            if m != 0 {
                return to.min(self.base + k * BLOCK + m.trailing_zeros() as usize);
            }
            if k == last {
                return to;
            }
            k += 1;
            m = self.masks[k].get(field);
        }
    }
}

/// The masks of one URL, its bytes counted from its start.
trait Span {
    /// The first byte of `field` in `from..to`, or `to`.
    fn first(&self, field: usize, from: usize, to: usize) -> usize;

    /// Whether `field` has a byte in `from..to`.
    #[inline(always)]
    fn any(&self, field: usize, from: usize, to: usize) -> bool {
        self.first(field, from, to) < to
    }
}

/// A URL of at most 64 bytes: each mask read as one word from the two
/// blocks it may touch, shifted to its start.
#[derive(Clone, Copy)]
struct Short<'m> {
    /// The masks from the block where the URL starts, and the next.
    two: &'m [Masks; 2],
    /// Where it starts in the first.
    off: u32,
}

impl<'m> Short<'m> {
    /// The masks of 64 bytes from byte `off` of the first of `two` blocks.
    #[inline(always)]
    fn new(two: &'m [Masks; 2], off: u32) -> Short<'m> {
        Short { two, off }
    }

    /// Mask `field` of the 64 bytes.
    #[inline(always)]
    fn word(&self, field: usize) -> u64 {
        // The two words as one of 128 bits, shifted by less than 64 (one
        // double-word shift instruction where there is one).
        let both = u128::from(self.two[1].get(field)) << 64 | u128::from(self.two[0].get(field));
        (both >> (self.off & 63)) as u64
    }
}

impl Span for Short<'_> {
    #[inline(always)]
    fn first(&self, field: usize, from: usize, to: usize) -> usize {
        if from >= to {
            return to;
        }
        ((self.word(field) & (u64::MAX << from)).trailing_zeros() as usize).min(to)
    }
}

/// A longer URL: its first 128 bytes as two [`Short`] ones, the rest
/// read block by block.
struct Long<'c, 'a> {
    c: &'c Checker<'a>,
    /// Where the URL starts in the buffer.
    s: usize,
    /// The masks of its first 64 bytes, and of the next 64.
    head: Short<'c>,
    tail: Short<'c>,
}

impl<'c, 'a> Long<'c, 'a> {
    /// The URL from `s`, in the window of `c`.
    #[inline(always)]
    fn new(c: &'c Checker<'a>, s: usize) -> Long<'c, 'a> {
        let rel = s - c.base;
        // The window's masks end with two blocks of zeros.
        let three = c.masks[rel / BLOCK..].first_chunk::<3>().expect("two blocks of zeros end the masks");
        let off = (rel % BLOCK) as u32;
        let (head, tail) = (three[..2].try_into(), three[1..].try_into());
        Long {
            c,
            s,
            head: Short::new(head.expect("two blocks"), off),
            tail: Short::new(tail.expect("two blocks"), off),
        }
    }
}

impl Span for Long<'_, '_> {
    #[inline(always)]
    fn first(&self, field: usize, from: usize, to: usize) -> usize {
        if from >= to {
            return to;
        }
        let mut from = from;
        if from < BLOCK {
            let k = self.head.first(field, from, to.min(BLOCK));
            if k < BLOCK || to <= BLOCK {
                return k;
            }
            from = BLOCK;
        }
        if from < 2 * BLOCK {
            let k = BLOCK + self.tail.first(field, from - BLOCK, to.min(2 * BLOCK) - BLOCK);
            if k < 2 * BLOCK || to <= 2 * BLOCK {
                return k;
            }
            from = 2 * BLOCK;
        }
        self.c.first(field, self.s + from, self.s + to) - self.s
    }
}

/// What [`Checker::read`] reads of a URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reading {
    /// Not a URL (`validate_bytes` fails).
    Invalid,
    /// A URL whose scheme-specific part is `"//" login [ "/" url-path ]`
    /// (§3.1), its login where [`Login`] says.
    Login(Login),
    /// A URL of a scheme that §3 does not define, its scheme-specific part
    /// `*xchar` without `"//"` (§5): no login, no url-path.
    Opaque,
    /// The masks do not tell: the full parse says (valid or not).
    Parse,
}

/// Where the pieces of a URL's login lie, in bytes from the URL's start
/// (§3.1: `"//" [ user [ ":" password ] "@" ] host [ ":" port ] [ "/"
/// url-path ]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Login {
    /// The `"@"` that ends `user [ ":" password ]`, when there is one.
    pub at: Option<usize>,
    /// The host: from after `"//"` or the `"@"` to its `":"` or the
    /// login's end.
    pub host_start: usize,
    /// See [`Login::host_start`]; a port follows when this is before `end`.
    pub host_end: usize,
    /// The `"/"` before the url-path, or the URL's length when it has none.
    pub end: usize,
}

/// [`Checker::read`] of the URL `buf[s..e]`, whose masks `v` holds.
#[inline(always)]
fn reading(v: &impl Span, cx: Cx<'_>, buf: &[u8], s: usize, e: usize) -> Reading {
    let known = match decide(v, cx, buf, s, e) {
        (Verdict::Invalid, _) => return Reading::Invalid,
        (Verdict::Ask, _) => return Reading::Parse,
        (Verdict::Valid, known) => known,
    };
    let b = &buf[s..e];
    let colon = v.first(COLON, 0, b.len());
    const FTP: u8 = SchemeKind::Ftp as u8;
    const TELNET: u8 = SchemeKind::Telnet as u8;
    const HTTP: u8 = SchemeKind::Http as u8;
    const HTTPS: u8 = SchemeKind::Https as u8;
    const FILE: u8 = SchemeKind::File as u8;
    const GOPHER: u8 = SchemeKind::Gopher as u8;
    const NNTP: u8 = SchemeKind::Nntp as u8;
    const WAIS: u8 = SchemeKind::Wais as u8;
    const PROSPERO: u8 = SchemeKind::Prospero as u8;
    match known.map(|k| k.0) {
        // `ip` read the login of these, and found it valid.
        Some(FTP | TELNET) => locate(v, b, colon, true).map_or(Reading::Parse, Reading::Login),
        Some(HTTP | HTTPS | FILE | GOPHER | NNTP | WAIS | PROSPERO) => {
            locate(v, b, colon, false).map_or(Reading::Parse, Reading::Login)
        }
        Some(_) => Reading::Parse,
        // §5: `schemepart = *xchar | ip-schemepart`, the second read
        // first (as `scheme::other` does): a login of user, password,
        // host and port (`LoginRules::LOGIN`).
        None if b[colon + 1..].starts_with(b"//") => match locate(v, b, colon, true) {
            Some(l)
                if host_ok(cx, buf, s, l.host_start, l.host_end)
                    && (l.host_end == l.end || port(&b[l.host_end + 1..l.end])) =>
            {
                Reading::Login(l)
            }
            _ => Reading::Parse,
        },
        None => Reading::Opaque,
    }
}

/// The masks' verdict on the URL `buf[s..e]`, whose masks `v` holds,
/// and its scheme when the masks read a name of [`Known`].
#[inline(always)]
fn decide(v: &impl Span, cx: Cx<'_>, buf: &[u8], s: usize, e: usize) -> (Verdict, Option<Known>) {
    let b = &buf[s..e];
    let n = b.len();
    let mut bad = v.first(BAD, 0, n);
    while bad < n {
        // §2.2: `escape = "%" hex hex`, within the URL.
        if pct::escape_at(b, bad).is_none() {
            // No rule takes this byte, the fragment neither; a `"#"`
            // starts the fragment, read by the full parser.
            let verdict = if chars::find_byte(b, 0, n, b'#') < n { Verdict::Ask } else { Verdict::Invalid };
            return (verdict, None);
        }
        bad = v.first(BAD, bad + 3, n);
    }
    // Every byte is an `xchar` or a valid escape. §5: `scheme ":"`,
    // `scheme = 1*[ lowalpha | digit | "+" | "-" | "." ]`.
    let colon = v.first(COLON, 0, n);
    if colon == n {
        return (Verdict::Invalid, None);
    }
    let word = buf.get(s..).and_then(<[u8]>::first_chunk::<8>).map(|w| u64::from_le_bytes(*w));
    let kind = match (word, colon) {
        // The commonest names, either case, as one comparison (`c | 0x20`
        // is a lower-case letter only for a letter).
        // RFC 2818 §2.4: https has the syntax of http (§3.3).
        (Some(w), 5) if (w | 0x20_2020_2020) & 0xff_ffff_ffff == u64::from_le_bytes(*b"https\0\0\0") => {
            SchemeKind::Https
        }
        (Some(w), 4) if (w | 0x2020_2020) & 0xffff_ffff == u64::from(u32::from_le_bytes(*b"http")) => {
            SchemeKind::Http
        }
        (Some(w), 4) if (w | 0x2020_2020) & 0xffff_ffff == u64::from(u32::from_le_bytes(*b"file")) => {
            SchemeKind::File
        }
        _ => {
            if colon == 0 {
                return (Verdict::Invalid, None);
            }
            // A name of §3 is letters, found by one comparison of words;
            // any other is checked byte by byte, in the word from `s` when
            // it fits there (the bytes after the URL do not matter: only
            // the name's are read).
            let kind = SchemeKind::from_prefix(&buf[s..], colon);
            if kind == SchemeKind::Other {
                let scheme_chars = match word {
                    Some(w) if colon <= 8 => chars::run_in_word(&w.to_le_bytes(), chars::SCHEME) >= colon,
                    _ => chars::run_of(b, 0, colon, chars::SCHEME) == colon,
                };
                if !scheme_chars {
                    return (Verdict::Invalid, None);
                }
            }
            kind
        }
    };
    let verdict = match kind {
        // §5: `otherurl = genericurl`, `schemepart = *xchar |
        // ip-schemepart`: every `xchar` text is one.
        SchemeKind::Other => return (Verdict::Valid, None),
        SchemeKind::Mailto => mailto(b, colon),
        SchemeKind::News => news(v, cx, buf, s, e, colon),
        // The commonest kinds with `ip` inlined for them alone; the others
        // out of line (one body for the four would slow the common ones).
        kind @ (SchemeKind::Http
        | SchemeKind::Https
        | SchemeKind::Ftp
        | SchemeKind::File
        | SchemeKind::Telnet) => ip(v, cx, buf, s, e, colon, kind),
        kind => ip_other(v, cx, buf, s, e, colon, kind),
    };
    (verdict, Some(Known(kind as u8)))
}

/// [`ip`] for gopher, nntp, wais and prospero, out of line.
#[inline(never)]
fn ip_other(
    v: &impl Span,
    cx: Cx<'_>,
    buf: &[u8],
    s: usize,
    e: usize,
    colon: usize,
    kind: SchemeKind,
) -> Verdict {
    ip(v, cx, buf, s, e, colon, kind)
}

/// §3.5: `mailtourl = "mailto:" encoded822addr`, the address an RFC 822
/// `addr-spec`: valid when it is the common one of atoms, `local "@"
/// domain` (the check the full parser makes first, in one pass); any
/// other address goes to the full parser.
#[inline(never)]
fn mailto(b: &[u8], colon: usize) -> Verdict {
    if scheme::mailto::is_plain(&b[colon + 1..]) {
        Verdict::Valid
    } else {
        Verdict::Ask
    }
}

/// §3.6: `newsurl = "news:" grouppart`, `grouppart = "*" | group |
/// article`, of the URL `buf[s..e]` whose bytes are all `xchar` or
/// escapes; told apart by the `"@"` ("A message identifier may be
/// distinguished from a news group name by the presence of the
/// commercial at "@" character").
#[inline(never)]
fn news(v: &impl Span, cx: Cx<'_>, buf: &[u8], s: usize, e: usize, colon: usize) -> Verdict {
    let b = &buf[s..e];
    let (from, n) = (colon + 1, b.len());
    let at = v.first(AT, from, n);
    let ok = if at == n {
        // `group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]`, or "*".
        let text = &b[from..];
        let g = scheme::news::group_end(text);
        (g > 0 && g == text.len()) || text == b"*"
    } else {
        // `article = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@"
        // host`: before the `"@"`, every `xchar` but `"@"` (escapes
        // too); after it, a host to the end.
        at > from && !v.any(AT, at + 1, n) && host_ok(cx, buf, s, at + 1, n)
    };
    if ok {
        Verdict::Valid
    } else {
        Verdict::Ask
    }
}

/// Whether `buf[s + h..s + host_end]` is a `host` (§3.1: `hostname |
/// hostnumber`), as `host::short` reads it.
#[inline(always)]
fn host_ok(cx: Cx<'_>, buf: &[u8], s: usize, h: usize, host_end: usize) -> bool {
    let Cx { path, memo } = cx;
    let len = host_end - h;
    if len == 0 || len > host::MAX_LABEL {
        return len > 0 && host::blocks(&buf[s..], h, host_end) == Some(host_end);
    }
    let at = s + h;
    if len <= 8 {
        // A host of one word (`deps`, `localhost`): the same as the last
        // valid one, or its masks by table.
        let w = match buf.get(at..at + 8) {
            Some(w) => w.try_into().expect("eight bytes"),
            None => chars::chunk_from(buf, at),
        };
        // The host's bytes alone (`len` is 1 to 8).
        let key = u64::from_le_bytes(w) & u64::MAX >> (8 * (8 - len));
        if key == memo.get() {
            return true;
        }
        let m = chars::host_masks(&w);
        let (outside, dots, hyphens, letters) =
            (u64::from(m as u8), u64::from((m >> 8) as u8), u64::from((m >> 16) as u8), u64::from(m >> 24));
        let ok = outside.trailing_zeros() as usize >= len && host::labels(len, dots, hyphens, letters);
        if ok {
            memo.set(key);
        }
        return ok;
    }
    if len <= 32 {
        // A short host (most are: `www.example.com`): its masks sixteen
        // bytes at a time (one vector), a fraction of the cost of the 64
        // bytes' classification below.
        let [outside, dots, hyphens, letters] = simd::host16_at(path, buf, at);
        let [outside, dots, hyphens, letters] = if len > 16 {
            let [o, d, h, l] = simd::host16_at(path, buf, at + 16);
            [outside | o << 16, dots | d << 16, hyphens | h << 16, letters | l << 16]
        } else {
            [outside, dots, hyphens, letters]
        };
        return outside.trailing_zeros() as usize >= len && host::labels(len, dots, hyphens, letters);
    }
    // The 64 bytes from the host as a host sees them (vector code
    // where there is some), then the label rules of `host::short`.
    let mut padded = [0u8; BLOCK];
    let block = match buf.get(at..).and_then(<[u8]>::first_chunk::<BLOCK>) {
        Some(block) => block,
        None => {
            padded[..buf.len() - at].copy_from_slice(&buf[at..]);
            &padded
        }
    };
    let [outside, dots, hyphens, letters] = simd::host_masks(path, block);
    outside.trailing_zeros() as usize >= len && host::labels(len, dots, hyphens, letters)
}

/// Where the pieces of `"//" login` lie after the `":"` at `colon` of the
/// URL `b`, whose bytes are all `xchar` or escapes: `None` when it has no
/// `"//"`, or a user where `user` says none may be, or more `"@"` or
/// `":"` than a login holds. The host and port are not checked.
#[inline(always)]
fn locate(v: &impl Span, b: &[u8], colon: usize, user: bool) -> Option<Login> {
    let n = b.len();
    let start = colon + 3;
    if start > n || b[colon + 1..start] != *b"//" {
        return None;
    }
    // §3.1: the login ends at the first `"/"`.
    let end = v.first(SLASH, start, n);
    // §3.1: `login = [ user [ ":" password ] "@" ] hostport`: a raw `"@"`
    // can only end the user, and user and password hold no raw `":"`
    // (every other byte before the `"@"` is an `xchar` or an escape, which
    // both take).
    let at = v.first(AT, start, end);
    let host_start = if at == end {
        start
    } else if user && !v.any(AT, at + 1, end) && !v.any(COLON, v.first(COLON, start, at) + 1, at) {
        at + 1
    } else {
        return None;
    };
    let host_end = v.first(COLON, host_start, end);
    Some(Login { at: (at < end).then_some(at), host_start, host_end, end })
}

/// `"//" login [ "/" path ]` after the `":"` at `colon` of an http, ftp,
/// file or telnet URL `buf[s..e]` whose bytes are all `xchar` or escapes.
#[inline(always)]
fn ip(v: &impl Span, cx: Cx<'_>, buf: &[u8], s: usize, e: usize, colon: usize, kind: SchemeKind) -> Verdict {
    let path = cx.path;
    let b = &buf[s..e];
    let n = b.len();
    // Only ftp and telnet have a user (§3.2, §3.8); the full parser says
    // why another may not.
    let Some(Login { host_start: h, host_end, end: login_end, .. }) =
        locate(v, b, colon, matches!(kind, SchemeKind::Ftp | SchemeKind::Telnet))
    else {
        return Verdict::Ask;
    };
    if kind == SchemeKind::File && login_end == n {
        // §3.10: `"file://" [ host | "localhost" ] "/" fpath`, the `"/"`
        // not optional.
        return Verdict::Invalid;
    }
    // §3.10: `"file://" [ host | "localhost" ] "/" fpath`.
    let host_ok = (kind == SchemeKind::File && host_end == h) || host_ok(cx, buf, s, h, host_end);
    if !host_ok {
        return Verdict::Ask;
    }
    if host_end < login_end && (kind == SchemeKind::File || !port(&b[host_end + 1..login_end])) {
        return Verdict::Ask;
    }
    if login_end == n {
        // §3.9, §3.11: `"/" database`, `"/" ppath`: the `"/"` is not
        // optional (the full parser says so).
        return if matches!(kind, SchemeKind::Wais | SchemeKind::Prospero | SchemeKind::Nntp) {
            Verdict::Ask
        } else {
            Verdict::Valid
        };
    }
    let from = login_end + 1;
    let ok = match kind {
        // §3.8: `"telnet://" login [ "/" ]`.
        SchemeKind::Telnet => from == n,
        // §3.3: `hpath [ "?" search ]`, `search` without `"/"` or `"?"`
        // (https too, RFC 2818 §2.4).
        SchemeKind::Http | SchemeKind::Https => {
            let q = v.first(QUEST, from, n);
            q == n || !(v.any(SLASH, q + 1, n) || v.any(QUEST, q + 1, n))
        }
        SchemeKind::Gopher => gopher(v, b, from),
        SchemeKind::Nntp => nntp(b, from),
        SchemeKind::Wais => wais(v, b, from),
        // §3.11: `ppath *[ fieldspec ]`, `ppath` every `xchar` but `";"`
        // (`psegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]`), the
        // fields from the first `";"` on the masks of `fast::fields`.
        SchemeKind::Prospero => match v.first(SEMI, from, n) {
            semi if semi == n => true,
            semi => fast::fields(path, b, semi).is_ok(),
        },
        // §3.2: `fpath [ ";type=" ftptype ]`.
        SchemeKind::Ftp => match v.first(SEMI, from, n) {
            semi if semi == n => true,
            semi => {
                let rest = &b[semi..];
                rest.len() == 7 && rest.starts_with(b";type=") && b"aidAID".contains(&rest[6])
            }
        },
        // §3.10: `fpath`, no `";"`.
        _ => !v.any(SEMI, from, n),
    };
    if ok {
        Verdict::Valid
    } else {
        Verdict::Ask
    }
}

/// §3.4.1: `"/" [ gtype [ selector [ "%09" search [ "%09"
/// gopher+_string ] ] ] ]` from `from`, after the `"/"`, in a URL `b`
/// whose bytes are all `xchar` or escapes: "Within the <gopher-path>, no
/// characters are reserved", so only escapes matter. A `gtype` written as
/// an escape, and a selector holding an encoded CR or LF ("any octets
/// except 09 ... 0A ... and 0D"), go to the full parser.
#[inline(never)]
fn gopher(v: &impl Span, b: &[u8], from: usize) -> bool {
    let n = b.len();
    if from == n {
        return true;
    }
    if b[from] == b'%' {
        return false;
    }
    // The escapes of the selector, up to the first `"%09"`.
    let mut k = v.first(BAD, from + 1, n);
    while k < n {
        match pct::escape_at(b, k) {
            Some(b'\t') => return true,
            Some(b'\r' | b'\n') => return false,
            _ => k = v.first(BAD, k + 3, n),
        }
    }
    true
}

/// §3.7: `"/" group [ "/" digits ]` from `from`, after the `"/"`:
/// `group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]`, and an
/// article number of at most 19 digits (a longer one goes to the full
/// parser, as the fast path leaves it to the rules).
#[inline(never)]
fn nntp(b: &[u8], from: usize) -> bool {
    let g = scheme::news::group_end(&b[from..]);
    let k = from + g;
    g > 0
        && (k == b.len()
            || (b[k] == b'/'
                && (1..20).contains(&(b.len() - k - 1))
                && b[k + 1..].iter().all(u8::is_ascii_digit)))
}

/// §3.9: `"/" database [ "?" search | "/" wtype "/" wpath ]` from
/// `from`, after the `"/"`, in a URL `b` whose bytes are all `xchar` or
/// escapes: `database`, `wtype` and `wpath` are `*uchar` (none of the
/// reserved `; / ? : @ & =`), `search` takes every `xchar` but `"/"` and
/// `"?"`. The masks hold `; / ? : @`; `&` and `=` are searched for.
#[inline(never)]
fn wais(v: &impl Span, b: &[u8], from: usize) -> bool {
    let n = b.len();
    let reserved = |a, z| {
        v.any(SEMI, a, z)
            || v.any(COLON, a, z)
            || v.any(AT, a, z)
            || chars::find_any(b, a, z, [b'&', b'=']) < z
    };
    let k = v.first(QUEST, from, n).min(v.first(SLASH, from, n));
    if reserved(from, k) {
        return false;
    }
    if k == n {
        return true;
    }
    if b[k] == b'?' {
        return !v.any(SLASH, k + 1, n) && !v.any(QUEST, k + 1, n);
    }
    let w = v.first(SLASH, k + 1, n);
    w < n && !v.any(SLASH, w + 1, n) && !v.any(QUEST, k + 1, n) && !reserved(k + 1, n)
}

/// `port = digits` (§3.1), at most 65535 (a port is 16 bits, RFC 793),
/// of at most seven digits (more go to the full parser).
#[inline]
fn port(p: &[u8]) -> bool {
    !p.is_empty()
        && p.len() <= 7
        && p.iter().all(u8::is_ascii_digit)
        && p.iter().fold(0u32, |v, &c| v * 10 + u32::from(c - b'0')) <= 65535
}

/// The lines of a buffer and a verdict on each, split and checked in
/// one pass over the masks: each line without its `"\n"` or `"\r\n"`, as
/// `str::lines` gives them, and whether it is a valid URL.
///
/// # Examples
/// ```
/// let log = b"http://h.com/a\r\nhttp://h.com/a b\nnews:comp.lang.c";
/// let lines: Vec<(&[u8], bool)> = rfc1738::bulk::lines(log).collect();
/// assert_eq!(lines, [(&b"http://h.com/a"[..], true), (b"http://h.com/a b", false), (b"news:comp.lang.c", true)]);
/// ```
#[must_use]
pub fn lines(b: &[u8]) -> Lines<'_> {
    Lines { checker: Checker::new(b), at: 0 }
}

/// [`lines`] classified the way `path` says ([`Path::Portable`]: the
/// vector ways switched off).
#[must_use]
pub fn lines_with_path(b: &[u8], path: Path) -> Lines<'_> {
    Lines { checker: Checker::with_path(b, path), at: 0 }
}

/// The iterator of [`lines`].
pub struct Lines<'a> {
    checker: Checker<'a>,
    /// Where the next line starts.
    at: usize,
}

impl<'a> Iterator for Lines<'a> {
    type Item = (&'a [u8], bool);

    fn next(&mut self) -> Option<(&'a [u8], bool)> {
        self.step().map(|(line, valid, _)| (line, valid))
    }
}

/// [`lines_with_path`] with what the masks read of each line's scheme: a
/// name of [`Known`] (read the way `validate` reads it: the name before
/// the first `":"`, without regard to case), or `None` when they read
/// another or none, or left the line to the full parser before reaching
/// its name (a byte no rule takes, the first line of the buffer, a line
/// of more than 128 bytes). A caller that counts lines by scheme then
/// needs no second reading of the name for most lines.
///
/// # Examples
/// ```
/// use rfc1738::bulk::{self, Known, Path};
/// let log = b"x-y:z\nHTTPS://h.com/a\nftp://h.com/a b\nx-y:z\n";
/// let got: Vec<(&[u8], bool, Option<&str>)> =
///     bulk::lines_known(log, Path::detect()).map(|(t, ok, k)| (t, ok, k.map(Known::name))).collect();
/// assert_eq!(got[1], (&b"HTTPS://h.com/a"[..], true, Some("https")));
/// assert!(!got[2].1);
/// assert_eq!(got[3], (&b"x-y:z"[..], true, None));
/// ```
#[must_use]
pub fn lines_known(b: &[u8], path: Path) -> KnownLines<'_> {
    KnownLines(lines_with_path(b, path))
}

/// The iterator of [`lines_known`].
pub struct KnownLines<'a>(Lines<'a>);

impl<'a> Iterator for KnownLines<'a> {
    type Item = (&'a [u8], bool, Option<Known>);

    #[inline]
    fn next(&mut self) -> Option<(&'a [u8], bool, Option<Known>)> {
        self.0.step()
    }
}

/// A scheme name the masks of [`lines_known`] read: one of §3, or
/// `https` (the commonest name of all, which §3 does not have; read by
/// http's rules, RFC 2818 §2.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Known(u8);

impl Known {
    /// How many there are: [`Known::index`] is below it, the place of
    /// the kind in [`SchemeKind`].
    pub const COUNT: usize = 11;

    /// Its place among the [`Known::COUNT`], for a table by name.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The name, lower-case.
    #[must_use]
    pub const fn name(self) -> &'static str {
        const NAMES: [&str; Known::COUNT] = [
            "ftp", "http", "gopher", "mailto", "news", "nntp", "telnet", "wais", "file", "prospero", "https",
        ];
        NAMES[self.0 as usize]
    }

    /// The kind: one of §3, or [`SchemeKind::Https`].
    #[must_use]
    pub fn kind(self) -> SchemeKind {
        SchemeKind::from_bytes(self.name().as_bytes())
    }
}

impl<'a> Lines<'a> {
    /// The next line, its verdict, and its scheme when the masks read a
    /// name of [`Known`].
    #[inline(always)]
    fn step(&mut self) -> Option<(&'a [u8], bool, Option<Known>)> {
        let b = self.checker.b;
        let s = self.at;
        if s >= b.len() {
            return None;
        }
        let c = &self.checker;
        if s >= c.base && s < c.end {
            // The masks of the 128 bytes from `s` (the masks end with two
            // blocks of zeros): most lines end within them, and are then
            // decided from the same words.
            let long = Long::new(c, s);
            let bits = long.head.word(NL);
            if bits != 0 {
                // A line break of the window, so before its end.
                let nl = s + bits.trailing_zeros() as usize;
                self.at = nl + 1;
                let e = if nl > s && b[nl - 1] == b'\r' { nl - 1 } else { nl };
                let (verdict, known) = decide(&long.head, c.cx(), b, s, e);
                return Some((&b[s..e], answer(verdict, &b[s..e]), known));
            }
            let bits = long.tail.word(NL);
            if bits != 0 {
                let nl = s + BLOCK + bits.trailing_zeros() as usize;
                self.at = nl + 1;
                let e = if b[nl - 1] == b'\r' { nl - 1 } else { nl };
                let (verdict, known) = decide(&long, c.cx(), b, s, e);
                return Some((&b[s..e], answer(verdict, &b[s..e]), known));
            }
        }
        let e = self.longer(s);
        Some((&b[s..e], self.checker.is_valid(s..e), None))
    }
}

impl Lines<'_> {
    /// The end of a line of more than 128 bytes from `s`, or past the
    /// window, found from a window from its start (out of line: most
    /// lines are shorter).
    #[inline(never)]
    fn longer(&mut self, s: usize) -> usize {
        let c = &mut self.checker;
        let b = c.b;
        let mut nl = if s >= c.base && s < c.end { c.first(NL, s, c.end) } else { c.end };
        if nl == c.end && c.end < b.len() {
            // The line goes past the window: a window from its start.
            c.window(s);
            nl = c.first(NL, s, c.end);
            if nl == c.end && c.end < b.len() {
                // Longer than a window: the full parser.
                nl = chars::find_byte(b, c.end, b.len(), b'\n');
            }
        }
        self.at = nl + 1;
        if nl > s && b[nl - 1] == b'\r' {
            nl - 1
        } else {
            nl
        }
    }
}

/// Whether the URL `url` is valid, by the masks' `verdict` or else the
/// full parser.
#[inline(always)]
fn answer(verdict: Verdict, url: &[u8]) -> bool {
    match verdict {
        Verdict::Valid => true,
        Verdict::Invalid => false,
        Verdict::Ask => validate_bytes(url).is_ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every path's verdicts on `urls`, laid out as lines and as a
    /// column at every alignment, against `validate_bytes`.
    fn agree(urls: &[&[u8]]) {
        let expected: Vec<bool> = urls.iter().map(|u| validate_bytes(u).is_ok()).collect();
        for path in Path::available() {
            for pad in [0, 1, 7, 63] {
                let mut text = vec![b'\n'; pad];
                let mut values = vec![b'x'; pad];
                let mut offsets = vec![pad];
                for u in urls {
                    text.extend_from_slice(u);
                    text.push(b'\n');
                    values.extend_from_slice(u);
                    offsets.push(values.len());
                }
                let got: Vec<bool> = lines_with_path(&text, path).skip(pad).map(|(_, v)| v).collect();
                assert_eq!(got, expected, "{path:?} lines, pad {pad}");
                let mut c = Checker::with_path(&values, path);
                let got: Vec<bool> = offsets.windows(2).map(|w| c.is_valid(w[0]..w[1])).collect();
                assert_eq!(got, expected, "{path:?} column, pad {pad}");
            }
        }
    }

    /// `lines_known` names the commonest schemes, either case, of valid
    /// and invalid lines, and no other; its lines and verdicts are those
    /// of `lines_with_path`.
    #[test]
    fn lines_known_names_the_schemes_the_masks_read() {
        let text = b"first\nhttps://h.com/a\nHTTP://h.com/\nfile:///etc\nFtp://h/a;type=i\nnews:comp.x\n\
            mailto:a@b.c\nhttp://h.com/a b\nhttpx://h\nx:y\n:z\nno colon\nwais://h/d\n";
        let names = [
            None,
            Some("https"),
            Some("http"),
            Some("file"),
            Some("ftp"),
            Some("news"),
            Some("mailto"),
            None,
            None,
            None,
            None,
            None,
            Some("wais"),
        ];
        for path in Path::available() {
            let got: Vec<_> = lines_known(text, path).collect();
            let plain: Vec<_> = lines_with_path(text, path).collect();
            assert_eq!(got.iter().map(|&(t, v, _)| (t, v)).collect::<Vec<_>>(), plain, "{path:?}");
            let got: Vec<Option<&str>> = got.iter().map(|(_, _, k)| k.map(Known::name)).collect();
            assert_eq!(got, names, "{path:?}");
        }
        assert_eq!(Known(SchemeKind::Https as u8).kind(), SchemeKind::Https);
        assert_eq!(Known(SchemeKind::Https as u8).name(), "https");
        assert_eq!(Known(SchemeKind::Prospero as u8).kind(), SchemeKind::Prospero);
    }

    /// An empty value before any window is classified (the first of a
    /// column, or the whole buffer): the masks are read all the same.
    #[test]
    fn empty_values_before_any_window() {
        for path in Path::available() {
            assert!(!Checker::with_path(b"", path).is_valid(0..0), "{path:?}");
            let mut c = Checker::with_path(b"http://h/", path);
            assert!(!c.is_valid(0..0), "{path:?}");
            assert!(c.is_valid(0..9), "{path:?}");
        }
    }

    #[test]
    fn shapes_on_both_sides_of_every_mask_check() {
        let urls: &[&[u8]] = &[
            b"http://h.com/a?b=c",
            b"http://h.com/a?b/c",
            b"http://h.com/a?b?c",
            b"http://h.com:80/",
            b"http://h.com:65536/",
            b"http://h.com:/",
            b"http://u@h.com/",
            b"http://h.com/a%41",
            b"http://h.com/a%4",
            b"http://h.com/a%",
            b"http://h.com/a#x",
            b"http://h.com/a#x y",
            b"https://anything:goes@here/%41",
            b"https://h.com/a?b=c",
            b"https://h.com/a?b/c",
            b"https://h.com/a?b?c",
            b"https://u@h.com/",
            b"https://h_x.dom/",
            b"https://h.com:443/",
            b"https://h.com:99999/",
            b"HTTPS://h.com/a~b",
            b"https:h.com",
            b"x:",
            b":x",
            b"x y:z",
            b"ftp://h.com/a;type=i",
            b"ftp://h.com/a;type=x",
            b"ftp://h.com/a;b/c",
            b"ftp://u:p@h.com/",
            b"ftp://@h.com/",
            b"ftp://u:@h.com/",
            b"ftp://:p@h.com/",
            b"ftp://u:p:q@h.com/",
            b"ftp://u@v@h.com/",
            b"ftp://u;?&=:p;?&=@h.com/",
            b"ftp://u:p@/",
            b"ftp://u:p@h.com:/",
            b"ftp://u:p@-h.com/",
            b"telnet://u:p@h.com:23/",
            b"telnet://h.com",
            b"telnet://h.com/",
            b"telnet://h.com//",
            b"telnet://h.com/x",
            b"telnet://h.com:99999/",
            b"telnet:h.com",
            b"file://u@h/",
            b"file:///etc/motd",
            b"file://h/",
            b"file://h",
            b"file://h:80/",
            b"file:///a;b",
            b"HTTP://H.COM/",
            b"http:/h",
            b"http:",
            b"",
            b"\r",
            b"news:comp.lang.c",
            b"mailto:a@b.c",
            b"http://a-.b/",
            b"http://1.2.3.4/",
            b"http://1.2.3/",
            // Hosts about the two words read by table (16 bytes).
            b"http://abcdefg-/",
            b"http://abcdefgh/",
            b"http://abcdefgh-/",
            b"http://abcdefgh.i/",
            b"http://abcdefgh.1/",
            b"http://a.b.c.d.e.f.g.h/",
            b"http://1.2.3.45678901/",
            b"http://123.456.789.0123/",
            b"http://abcdefghijklmno-/",
            b"http://abcdefghijklmnop/",
            b"http://abcdefghijklmno.p/",
            b"http://abcdefghijklmnop-/",
            b"http://-bcdefghijklmnopq/",
            b"http://abcdefghij_lmnop/",
            b"news:a@abcdefghijklmnop",
            b"news:a@abcdefghijklmno-",
            b"gopher://abcdefghijklmnop:70/1",
            // Runs of one host and its neighbours (the last valid host
            // is remembered).
            b"file://deps/a",
            b"file://deps-/a",
            b"file://deps/a",
            b"file://dep/a",
            b"file://deps./a",
            b"file://deps/a",
            b"file://dep_/a",
            b"file://deps/a",
            b"http://abcdefgh.ijklmnop/",
            b"http://abcdefgh.ijklmno/",
            b"http://abcdefgh.ijklmno-/",
            b"http://abcdefgh.ijklmno/",
            b"http://abcdefgh.ijklmnop/",
            b"http://abcdefgh/",
            b"http://abcdefg/",
            b"http://abcdefgh.-/",
            b"http://abcdefgh./",
            b"news:a@abcdefgh.ijklmnop",
            b"news:a@abcdefgh.ijklmnop-",
            b"news:a@abcdefgh.ijklmnop",
        ];
        agree(urls);
    }

    /// The common shapes are decided by the masks alone, without the
    /// full parser (which would give the same verdicts, only slower).
    #[test]
    fn the_masks_decide_the_common_shapes() {
        let host = "b".repeat(50) + "." + &"c".repeat(50) + ".com";
        let long_host = format!("http://{host}:8080/a");
        for (url, verdict) in [
            ("https://h.com/a?b=c#", Verdict::Ask),
            ("https://h.com/a?b=c", Verdict::Valid),
            ("https://h.com/a?b=%7E", Verdict::Valid),
            ("x-y://whatever@h/:;@", Verdict::Valid),
            ("http://h.com:80/a;b?c=d", Verdict::Valid),
            ("http://h.com", Verdict::Valid),
            ("http://1.2.3.4/", Verdict::Valid),
            (&long_host, Verdict::Valid),
            ("ftp://h.com/a/b;type=d", Verdict::Valid),
            ("file:///etc/motd", Verdict::Valid),
            ("file://h.com/etc/motd", Verdict::Valid),
            ("http://h.com/~user", Verdict::Invalid),
            ("http://h.com/a%2", Verdict::Invalid),
            ("http://h.com/a%zz", Verdict::Invalid),
            ("no scheme", Verdict::Invalid),
            ("a/b:c", Verdict::Invalid),
            ("ftp://u:p@h.com/a;type=i", Verdict::Valid),
            ("ftp://@h.com/", Verdict::Valid),
            ("ftp://u:@h.com:21", Verdict::Valid),
            ("ftp://u%3A:p%40@h.com/", Verdict::Valid),
            ("telnet://u:p@h.com:23/", Verdict::Valid),
            ("telnet://h.com", Verdict::Valid),
            ("TELNET://h.com/", Verdict::Valid),
            ("ftp://u:p:q@h.com/", Verdict::Ask),
            ("ftp://u@v@h.com/", Verdict::Ask),
            ("http://u@h.com/", Verdict::Ask),
            ("telnet://h.com/x", Verdict::Ask),
            // §3.4: gopher, every path the rules take without a look at
            // an escape's octet but a `%09`, `%0D` or `%0A` one.
            ("gopher://h.com", Verdict::Valid),
            ("gopher://h.com:70/", Verdict::Valid),
            ("gopher://h.com/1/a;b?c:d@e=f&g", Verdict::Valid),
            ("gopher://h.com/7search%09gopher%20url", Verdict::Valid),
            ("gopher://h.com/7a%09b%0Dc%09d%0A", Verdict::Valid),
            ("gopher://h.com/7a%0Db", Verdict::Ask),
            ("gopher://h.com/%41a", Verdict::Ask),
            ("gopher://u@h.com/", Verdict::Ask),
            // §3.5: mailto, an address of atoms.
            ("mailto:a@b.c", Verdict::Valid),
            ("mailto:first.last@example.com", Verdict::Valid),
            ("mailto:a%2Bb@c.d", Verdict::Valid),
            ("mailto:a.b+c@d.e", Verdict::Valid),
            ("mailto:a@@b.c", Verdict::Ask),
            ("mailto:a(b)@c.d", Verdict::Ask),
            // §3.6: news, a group, "*" or an article.
            ("news:comp.lang.c", Verdict::Valid),
            ("news:*", Verdict::Valid),
            ("news:a_b+c-1", Verdict::Valid),
            ("news:123abc@h.com", Verdict::Valid),
            ("news:a/b;c?d:e&f=g%41@h.com", Verdict::Valid),
            ("news:1comp", Verdict::Ask),
            ("news:a@b@h.com", Verdict::Ask),
            ("news:@h.com", Verdict::Ask),
            // §3.7: nntp, a group and perhaps an article number.
            ("nntp://h.com/comp.lang.c", Verdict::Valid),
            ("nntp://h.com:119/de.comp.lang.c++/27976", Verdict::Valid),
            ("nntp://h.com", Verdict::Ask),
            ("nntp://h.com/", Verdict::Ask),
            ("nntp://h.com/1a", Verdict::Ask),
            ("nntp://h.com/a/b", Verdict::Ask),
            ("nntp://h.com/a/", Verdict::Ask),
            ("nntp://h.com/a/12345678901234567890", Verdict::Ask),
            // §3.9: wais, a database, a search or a document.
            ("wais://h.com/db", Verdict::Valid),
            ("wais://h.com:210/db?a;b:c@d&e=f", Verdict::Valid),
            ("wais://h.com/db/TEXT/doc%2Fid", Verdict::Valid),
            ("wais://h.com/", Verdict::Valid),
            ("wais://h.com", Verdict::Ask),
            ("wais://h.com/db=x", Verdict::Ask),
            ("wais://h.com/db/TEXT", Verdict::Ask),
            ("wais://h.com/db/T/d/e", Verdict::Ask),
            ("wais://h.com/db?a/b", Verdict::Ask),
            // §3.11: prospero, a path and fields.
            ("prospero://h.com//pros/name", Verdict::Valid),
            ("prospero://h.com:1525/a?b:c@d&e=f", Verdict::Valid),
            ("prospero://h.com/a;OBJECT-VERSION=3;b=c%3B", Verdict::Valid),
            ("prospero://h.com", Verdict::Ask),
            ("prospero://h.com/a;b", Verdict::Ask),
            ("prospero://h.com/a;b=c=d", Verdict::Ask),
            ("prospero://h.com/a;b=c/d", Verdict::Ask),
            ("prospero://u@h.com/a", Verdict::Ask),
        ] {
            for path in Path::available() {
                let mut c = Checker::with_path(url.as_bytes(), path);
                assert!(c.cover(0, url.len()));
                let short = Short::new(c.masks.first_chunk::<2>().expect("two blocks"), 0);
                assert!(
                    url.len() > BLOCK
                        || decide(&short, Cx { path, memo: &Cell::new(0) }, url.as_bytes(), 0, url.len()).0
                            == verdict,
                    "{url:?} {path:?}"
                );
                assert_eq!(
                    decide(&Long::new(&c, 0), Cx { path, memo: &Cell::new(0) }, url.as_bytes(), 0, url.len())
                        .0,
                    verdict,
                    "{url:?}"
                );
                if verdict != Verdict::Ask {
                    assert_eq!(verdict == Verdict::Valid, validate_bytes(url.as_bytes()).is_ok(), "{url:?}");
                }
            }
        }
    }

    #[test]
    #[cfg_attr(miri, ignore = "URLs of 20 000 bytes: too slow under Miri")]
    fn long_hosts_and_urls_across_blocks_and_windows() {
        let label = "a".repeat(63);
        let mut owned: Vec<Vec<u8>> = Vec::new();
        for n in [62, 63, 64, 65, 100, 200, 252, 253, 254, 300] {
            let host: String = (0..n).map(|k| if k % 10 == 9 { '.' } else { 'b' }).collect();
            owned.push(format!("http://{host}/x").into_bytes());
            owned.push(format!("ftp://{host}x:21/x").into_bytes());
        }
        owned.push(format!("http://{label}.{label}a.com/").into_bytes());
        owned.push(format!("http://{label}.{label}.com/").into_bytes());
        owned.push(format!("http://{}/", "1".repeat(80) + ".2.3.4").into_bytes());
        // A user ending about the end of the first 64 bytes, and past
        // them: the ranges after it, empty ones among them (no `:` in
        // the user), are asked about.
        for n in [50, 53, 54, 55, 56, 57, 58, 60, 70, 100, 117, 118, 119, 130] {
            let user = "u".repeat(n);
            owned.push(format!("telnet://{user}@h.com/").into_bytes());
            owned.push(format!("ftp://{user}@h.com/").into_bytes());
            owned.push(format!("ftp://{user}:p@h.com/").into_bytes());
            owned.push(format!("ftp://{user}:p:q@h.com/").into_bytes());
        }
        owned.push(format!("http://h.com/{}", "a".repeat(20_000)).into_bytes());
        owned.push(format!("http://h.com/{}~", "a".repeat(20_000)).into_bytes());
        let urls: Vec<&[u8]> = owned.iter().map(Vec::as_slice).collect();
        agree(&urls);
    }
}

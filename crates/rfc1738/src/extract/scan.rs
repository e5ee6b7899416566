//! The two scanners behind [`Matches`](super::Matches): one for wrapped URLs
//! (`<URL:...>`, `<scheme:...>`), one for bare URLs.
//!
//! Both work on bytes and look at each byte a bounded number of times, so a
//! whole extraction is linear in the length of the text (see the notes on
//! [`wrapped`] and [`bare`]).

use std::borrow::Cow;

use super::form::Form;
use crate::simd::{self, Path};

/// The longest wrapper, in bytes of text from its `<` to its `>`
/// inclusive: 16 KiB. A `<URL:` or `<scheme:` without a `>` within it is
/// no wrapper, and nothing is joined across the whitespace after it.
///
/// Why this bound: RFC 9110 §4.1 recommends that software support URIs of
/// at least 8,000 octets; a wrapper of twice that holds such a URL broken
/// into indented lines of any usual width (a hundred or more lines), or
/// after a thousand spaces, while a `<URL:` left unclosed cannot reach more
/// than a few paragraphs ahead for a stray `>` to close it. The bound also keeps
/// the work on such a `<` to its 16 KiB (the text after it is then
/// searched once more, for bare URLs, as before).
///
/// # Examples
///
/// ```
/// use rfc1738::extract::{find_iter, MAX_WRAPPER};
///
/// let text = format!("<URL:ftp://a.org/pub/\n\n{}file.txt>", " ".repeat(1000));
/// assert_eq!(find_iter(&text).next().unwrap().as_str(), "ftp://a.org/pub/file.txt");
/// // Closed too far away: no wrapper, and the bare URL ends at the line break.
/// let text = format!("<URL:ftp://a.org/pub/\n\n{}file.txt>", " ".repeat(MAX_WRAPPER));
/// assert_eq!(find_iter(&text).next().unwrap().as_str(), "ftp://a.org/pub/");
/// ```
pub const MAX_WRAPPER: usize = 16 << 10;

/// What a scanner found: the match itself, made here (its fields are the
/// parent module's, visible to this one), so that no copy is made of it.
pub(super) use super::Match as Found;

/// The gaps of a URL (`Found::gaps`): the first two held in place, the
/// rest on the heap. A wrapper broken across lines has one or two, and
/// each would otherwise cost an allocation and its release (on the
/// Appendix text, the allocator was a sixth of the extractor's
/// instructions).
#[derive(Clone)]
pub(super) struct Gaps {
    /// How many there are.
    n: usize,
    /// The first two.
    held: [(usize, usize); 2],
    /// All of them, once there are more than two: boxed, so that the
    /// field is one word (a `Vec` is three) in every match.
    #[allow(clippy::box_collection)]
    all: Option<Box<Vec<(usize, usize)>>>,
}

impl Gaps {
    pub(super) const fn new() -> Gaps {
        Gaps { n: 0, held: [(0, 0); 2], all: None }
    }

    fn push(&mut self, gap: (usize, usize)) {
        if self.n < self.held.len() {
            self.held[self.n] = gap;
        } else {
            self.all.get_or_insert_with(|| Box::new(self.held.to_vec())).push(gap);
        }
        self.n += 1;
    }

    pub(super) fn as_slice(&self) -> &[(usize, usize)] {
        match &self.all {
            Some(all) => all,
            None => &self.held[..self.n],
        }
    }
}

impl PartialEq for Gaps {
    fn eq(&self, other: &Gaps) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Gaps {}

impl core::fmt::Debug for Gaps {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.as_slice().fmt(f)
    }
}

/// The inside of a wrapper, read by [`wrapped_body`].
struct Body<'t> {
    url: Cow<'t, str>,
    /// The index of the closing `>`.
    gt: usize,
    hyphen_breaks: Vec<usize>,
    gaps: Gaps,
}

/// `lowalpha | hialpha | digit | "+" | "-" | "."`: the characters of `scheme` (§5).
const SCHEME: u8 = 1 << 0;
/// `unreserved | reserved` (§5): `xchar` without the escape, which needs two
/// hex digits and is checked by the scan loop.
const XCHAR: u8 = 1 << 1;

const fn bits(b: u8) -> u8 {
    match b {
        b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'+' | b'-' | b'.' => SCHEME | XCHAR,
        // safe (without "-", "." and "+", above), extra, reserved
        b'$' | b'_' | b'!' | b'*' | b'\'' | b'(' | b')' | b',' => XCHAR,
        b';' | b'/' | b'?' | b':' | b'@' | b'&' | b'=' => XCHAR,
        _ => 0,
    }
}

static TABLE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = bits(i as u8);
        i += 1;
    }
    t
};

/// The index of the first `:` in `b[i..]`, or `b.len()`: the bytes where a
/// URL may be found (Appendix: a bare URL has the `:` after its scheme, and
/// a wrapper's `<` is followed at once by `URL:` or by a scheme and its
/// `:`, so the first `:` after it is read back to the `<`). Text without
/// one is crossed by vector code (`simd::find_byte`).
#[inline]
pub(super) fn find_candidate(b: &[u8], i: usize) -> usize {
    simd::find_byte(Path::detect(), b, i, b':')
}

/// Whether `b` may appear in a scheme name.
pub(super) fn is_scheme_byte(b: u8) -> bool {
    TABLE[b as usize] & SCHEME != 0
}

fn is_xchar(b: u8) -> bool {
    TABLE[b as usize] & XCHAR != 0
}

/// The schemes of RFC 1738 §3 whose scheme-specific part does not start with
/// `//`: these are found bare without it.
fn is_opaque_scheme(scheme: &str) -> bool {
    scheme.eq_ignore_ascii_case("mailto") || scheme.eq_ignore_ascii_case("news")
}

/// The length of the scheme name at the start of `s` when it is followed by
/// `:`: `[A-Za-z] *[ alpha | digit | "+" | "-" | "." ] ":"`.
///
/// §5 allows a scheme to start with a digit, `+`, `-` or `.`; in text that
/// would make `3:2` a URL, so a scheme found in text starts with a letter.
fn scheme_len(s: &[u8]) -> Option<usize> {
    if !s.first()?.is_ascii_alphabetic() {
        return None;
    }
    let n = s.iter().take_while(|&&b| is_scheme_byte(b)).count();
    (s.get(n) == Some(&b':')).then_some(n)
}

/// Whether a URL with this scheme, whatever comes after the `:`, should be
/// accepted without the `URL:` prefix, and how much must follow the `:`.
///
/// `mailto:` and `news:` need one character; every other scheme needs `//`
/// and one character more. A one-letter scheme is never accepted this way:
/// `C://` is a drive letter far more often than a URL.
fn accepts_without_prefix(scheme: &str, rest: &str) -> bool {
    if is_opaque_scheme(scheme) {
        !rest.is_empty()
    } else {
        scheme.len() >= 2 && rest.len() > 2 && rest.starts_with("//")
    }
}

/// Finds a bare URL whose scheme ends at the `:` at `colon`; `run_start` is
/// where the run of scheme characters before the `:` starts (never before the
/// end of the previous match).
///
/// A bare URL (§2.2) is made of `xchar` and `%HH` escapes only: it ends at
/// whitespace, at an unsafe character, at a control character, at non-ASCII
/// text. One `#` is kept to start the fragment. Then the end is pulled back
/// over sentence punctuation and unbalanced closing brackets and quotes.
///
/// Cost: O(run + URL). The runs of distinct colons do not overlap. The scan
/// of the URL starts only after a scheme that may start one, and a scan that
/// finds nothing has only crossed trailing punctuation, which holds no letter
/// and so no scheme for a later colon.
pub(super) fn bare(text: &str, run_start: usize, colon: usize) -> Option<Found<'_>> {
    let b = text.as_bytes();
    // "--http://" or ".http://": the scheme starts at its first letter.
    let start =
        run_start + b[run_start..colon].iter().take_while(|&&c| matches!(c, b'+' | b'-' | b'.')).count();
    if start == colon || !b[start].is_ascii_alphabetic() {
        return None;
    }
    let scheme = &text[start..colon];
    // Checked before the scan, which may be long: `ab:ab:ab:...` must not
    // scan to the end of the text from every colon.
    let may_start = is_opaque_scheme(scheme) || (scheme.len() >= 2 && b[colon + 1..].starts_with(b"//"));
    if !may_start {
        return None;
    }
    let end = bare_end(b, colon + 1);
    if !accepts_without_prefix(scheme, &text[colon + 1..end]) {
        return None;
    }
    Some(Found {
        start,
        end,
        url: Cow::Borrowed(&text[start..end]),
        form: Form::Bare,
        hyphen_breaks: Vec::new(),
        inner_start: start,
        gaps: Gaps::new(),
    })
}

/// The end of a bare URL whose scheme-specific part starts at `from`.
fn bare_end(b: &[u8], from: usize) -> usize {
    // `end` is one past the last byte that may end a URL.
    let mut end = from;
    let mut i = from;
    let mut parens = 0usize;
    let mut quote_open = false;
    let mut fragment = false;
    while i < b.len() {
        let may_end = match b[i] {
            b'%' if b.len() > i + 2 && b[i + 1].is_ascii_hexdigit() && b[i + 2].is_ascii_hexdigit() => {
                i += 2;
                true
            }
            // §2.2: "#" delimits the fragment; a second one ends the URL.
            b'#' if !fragment => {
                fragment = true;
                false
            }
            b'(' => {
                parens += 1;
                false
            }
            // An unbalanced ")" closes the text around the URL, not the URL.
            b')' if parens == 0 => break,
            b')' => {
                parens -= 1;
                true
            }
            // A quote ends the URL only when it closes one opened inside it.
            b'\'' => {
                quote_open = !quote_open;
                !quote_open
            }
            b'.' | b',' | b';' | b':' | b'!' | b'?' => false,
            c if is_xchar(c) => true,
            _ => break,
        };
        i += 1;
        if may_end {
            end = i;
        }
    }
    end
}

/// Whitespace that a writer may have added to break a URL across lines: any
/// Unicode white space, and the zero-width space, which word processors use
/// for the same purpose.
fn is_break_space(c: char) -> bool {
    c.is_whitespace() || c == '\u{200B}'
}

/// Whether `c` ends a line: LF, a CR not followed by LF (checked by the
/// caller), NEL, LINE SEPARATOR, PARAGRAPH SEPARATOR, VT and FF.
fn is_line_break(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// Finds a wrapped URL starting with the `<` at `lt`.
///
/// Appendix: the URL ends at the first `>`; all whitespace inside is
/// deleted, blank lines and long runs included ("The whitespace should be
/// ignored when extracting the URL"); a line break right after a `-` is
/// recorded as a hyphen break. The wrapper is abandoned (and the caller goes
/// on scanning the text after the `<`, where a bare URL ends at whitespace)
/// at a `<`, at the end of the text, and when no `>` comes within
/// [`MAX_WRAPPER`] bytes of the `<`, so an unterminated
/// one never joins text across a line break.
///
/// In quoted mail and news (`> > text`), as many `>` quote marks as start
/// the line of the `<` are skipped at the start of each continuation line.
///
/// Cost: O(span), plus the length of the line before the `<` when the
/// wrapper goes on to another line. The scan stops at the next `<`, where
/// the next wrapper starts, or at the bound, before which no later `<` is
/// (the scan would have stopped there); so the scans of two wrappers never
/// overlap. Once a wrapper has crossed a line break, the next `<` looked at
/// is on a later line, so no line is read twice for its quote marks.
pub(super) fn wrapped(text: &str, lt: usize) -> Option<Found<'_>> {
    wrapped_in(text, lt, || quote_depth(text.as_bytes(), lt))
}

/// [`wrapped`] with the quote depth given: the naive search of the tests
/// counts it its own way.
#[cfg(test)]
pub(super) fn wrapped_with_depth(text: &str, lt: usize, depth: usize) -> Option<Found<'_>> {
    wrapped_in(text, lt, || depth)
}

fn wrapped_in(text: &str, lt: usize, quote_depth: impl FnOnce() -> usize) -> Option<Found<'_>> {
    let b = text.as_bytes();
    let after = lt + 1;
    let (form, from) = match b.get(after..after + 4) {
        Some(p) if p.eq_ignore_ascii_case(b"URL:") => (Form::UrlPrefix, after + 4),
        _ => {
            // `<scheme:`: the scheme follows the "<" at once.
            scheme_len(&b[after..])?;
            (Form::Angle, after)
        }
    };
    // A `>` at `limit` or later would make the span longer than the bound.
    let limit = b.len().min(lt.saturating_add(MAX_WRAPPER));
    let body = match wrapped_body_masked(text, from, limit) {
        Some(body) => body,
        None => wrapped_body(text, from, limit, quote_depth)?,
    };
    let n = scheme_len(body.url.as_bytes())?;
    if form == Form::Angle && !accepts_without_prefix(&body.url[..n], &body.url[n + 1..]) {
        return None;
    }
    Some(Found {
        start: lt,
        end: body.gt + 1,
        url: body.url,
        form,
        hyphen_breaks: body.hyphen_breaks,
        inner_start: from,
        gaps: body.gaps,
    })
}

/// The number of `>` quote marks (`> > text`) that start the line of the
/// byte at `at`.
fn quote_depth(b: &[u8], at: usize) -> usize {
    let start = line_start(b, at);
    b[start..at].iter().take_while(|&&c| matches!(c, b'>' | b' ' | b'\t')).filter(|&&c| c == b'>').count()
}

/// Where the line of the byte at `at` starts: after the last `\n` or
/// `\r` before it, or 0; eight bytes a step backwards (SWAR over `u64`,
/// an exact test per byte: the highest hit is the last one).
fn line_start(b: &[u8], at: usize) -> usize {
    use crate::chars::{HI, LO};
    // A byte's high bit set where the byte is zero, exactly (no borrow
    // crosses bytes: the sum of each byte's low seven bits stays in it).
    let zero = |x: u64| !(((x & !HI).wrapping_add(!HI)) | x | !HI);
    let mut i = at;
    while i >= 8 {
        let w = u64::from_le_bytes(*b[i - 8..i].first_chunk::<8>().unwrap_or(&[0; 8]));
        let hit = zero(w ^ (LO * u64::from(b'\n'))) | zero(w ^ (LO * u64::from(b'\r')));
        if hit != 0 {
            return i - 8 + (63 - hit.leading_zeros() as usize) / 8 + 1;
        }
        i -= 8;
    }
    b[..i].iter().rposition(|&c| c == b'\n' || c == b'\r').map_or(0, |k| k + 1)
}

/// [`wrapped_body`] read from the masks of the 64 bytes from `from`
/// (`simd::wrapper_masks`), when they hold the closing `>` and nothing
/// the byte loop must decide before it: no `<`, no byte outside printable
/// ASCII and its white space, no `>` first on a line (a quote mark, maybe),
/// no `-` before white space (a hyphen break, maybe). Then the URL is the
/// runs of printable bytes joined, and each run after white space starts
/// a gap. `None`: the byte loop reads it.
fn wrapped_body_masked(text: &str, from: usize, limit: usize) -> Option<Body<'_>> {
    let m = simd::wrapper_masks(Path::detect(), text.as_bytes(), from)?;
    let within = if limit - from >= 64 { u64::MAX } else { (1u64 << (limit - from)) - 1 };
    let gt = m.gt & within;
    if gt == 0 {
        return None;
    }
    let g = gt.trailing_zeros() as usize;
    let before = (1u64 << g) - 1;
    let ws = m.ws & before;
    if m.other & before != 0 || (m.dash << 1) & ws != 0 {
        return None;
    }
    let brk = m.brk & before;
    if brk != 0 {
        // The bytes after the last line break: white space alone puts
        // the `>` first on its line.
        let last = 63 - brk.leading_zeros();
        if before & !(u64::MAX >> (63 - last)) & !ws == 0 {
            return None;
        }
    }
    let (url, gaps) = if ws == 0 {
        (Cow::Borrowed(&text[from..from + g]), Gaps::new())
    } else {
        let (mut url, mut gaps) = (String::with_capacity(g), Gaps::new());
        let mut runs = before & !ws;
        while runs != 0 {
            let s = runs.trailing_zeros() as usize;
            let e = s + (!(runs >> s)).trailing_zeros() as usize;
            if s > 0 {
                gaps.push((url.len(), from + s));
            }
            url.push_str(&text[from + s..from + e]);
            runs &= u64::MAX << e;
        }
        (Cow::Owned(url), gaps)
    };
    Some(Body { url, gt: from + g, hyphen_breaks: Vec::new(), gaps })
}

/// Reads the inside of a wrapper from `from` to the closing `>`, which
/// must come before `limit`; `quote_depth` is asked once, when a line
/// after a line break starts with a `>` (a quote mark to skip, or the
/// closing `>`), if one does.
fn wrapped_body(
    text: &str,
    from: usize,
    limit: usize,
    quote_depth: impl FnOnce() -> usize,
) -> Option<Body<'_>> {
    let mut quote_depth = Some(quote_depth);
    // The quote depth of the wrapper's line, asked only when a later line
    // starts with a `>` (on most lines nothing is to skip, and asking
    // means reading back to the line's start).
    let mut depth: Option<usize> = None;
    let b = &text.as_bytes()[..limit];
    // Built only once whitespace is met; until then the URL is text[from..i].
    let mut owned: Option<String> = None;
    let mut hyphen_breaks = Vec::new();
    let mut gaps = Gaps::new();
    // Whitespace or quote marks were deleted since the last URL character.
    let mut in_gap = false;
    // At the start of a line after a line break (before any character
    // but whitespace and skipped quote marks), and the quote marks
    // skipped on it so far.
    let mut line_start = false;
    let mut skipped = 0usize;
    // A line break came right after a "-": ambiguous if the URL goes on.
    let mut hyphen_pending = false;
    let mut i = from;
    while i < b.len() {
        let c = b[i];
        if c == b'>' && line_start {
            let d = *depth.get_or_insert_with(|| quote_depth.take().map_or(0, |ask| ask()));
            if skipped < d {
                skipped += 1;
                in_gap = true;
                i += 1;
                continue;
            }
        }
        match c {
            b'>' => {
                let url = owned.map_or(Cow::Borrowed(&text[from..i]), Cow::Owned);
                return Some(Body { url, gt: i, hyphen_breaks, gaps });
            }
            b'<' => return None,
            _ => {}
        }
        let ch = if c.is_ascii() { char::from(c) } else { text[i..].chars().next()? };
        let len = ch.len_utf8();
        if is_break_space(ch) {
            let owned = owned.get_or_insert_with(|| {
                let mut s = String::with_capacity(i - from + 64);
                s.push_str(&text[from..i]);
                s
            });
            in_gap = true;
            // CR LF is one line break. A blank line is whitespace like any
            // other (Appendix); the bound keeps a wrapper never closed from
            // reaching far.
            if is_line_break(ch) && !(c == b'\r' && text.as_bytes().get(i + 1) == Some(&b'\n')) {
                line_start = true;
                skipped = 0;
                // Appendix: "a line break immediately after a hyphen".
                hyphen_pending = owned.ends_with('-');
            }
            i += len;
        } else {
            line_start = false;
            // The character and the run of printable ASCII after it, which
            // holds nothing the loop looks at (no space, "<" or ">").
            let end = if c.is_ascii() { plain_run(b, i + 1) } else { i + len };
            if let Some(owned) = owned.as_mut() {
                if hyphen_pending {
                    hyphen_breaks.push(owned.len() - 1);
                    hyphen_pending = false;
                }
                if in_gap {
                    gaps.push((owned.len(), i));
                    in_gap = false;
                }
                owned.push_str(&text[i..end]);
            }
            i = end;
        }
    }
    None
}

/// Printable ASCII but `<` and `>`: a byte [`wrapped_body`] only copies.
fn is_plain(c: u8) -> bool {
    matches!(c, b'!'..=b'~') && c != b'<' && c != b'>'
}

/// The end of the run of [`is_plain`] bytes from `b[i]`: eight bytes a
/// step (SWAR over `u64`), then one at a time.
fn plain_run(b: &[u8], mut i: usize) -> usize {
    use crate::chars::{HI, LO};
    // The lowest set bit of each test marks its first hit exactly (a
    // borrow only sets bits above it): the lowest of their union is the
    // first byte that is not plain.
    let zero = |x: u64| x.wrapping_sub(LO) & !x & HI;
    while let Some(w) = b.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        let w = u64::from_le_bytes(*w);
        let below = w.wrapping_sub(LO * 0x21) & !w & HI;
        let stop = below
            | (w & HI)
            | zero(w ^ (LO * 0x7f))
            | zero(w ^ (LO * u64::from(b'<')))
            | zero(w ^ (LO * u64::from(b'>')));
        if stop != 0 {
            return i + (stop.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < b.len() && is_plain(b[i]) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_masked_read_of_a_wrapper_agrees_with_the_byte_loop() {
        // Pieces of a wrapper's inside: URL text, each kind of white space,
        // hyphens, quote marks, a `<`, a control and a non-ASCII letter.
        const PIECES: &[&str] = &[
            "ftp://a.org/",
            "x",
            "~",
            "-",
            " ",
            "\t",
            "\n",
            "\r",
            "\r\n",
            "\x0B",
            "\x0C",
            ">",
            "> ",
            "<",
            "\x01",
            "\u{e9}",
            "\u{85}",
            "%2F",
            "#frag",
        ];
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut masked = 0;
        for _ in 0..40_000 {
            let n = next() % 24;
            let inside: String = (0..n).map(|_| PIECES[(next() % PIECES.len() as u64) as usize]).collect();
            // The URL's first byte, and what follows the inside.
            let pad = "y".repeat((next() % 70) as usize);
            let text = format!("<URL:{inside}>{pad}");
            let from = 5;
            for limit in [text.len(), from + (next() % (text.len() - from + 1) as u64) as usize] {
                let Some(fast) = wrapped_body_masked(&text, from, limit) else { continue };
                masked += 1;
                for depth in [0, 1] {
                    let slow =
                        wrapped_body(&text, from, limit, || depth).expect("the byte loop finds it too");
                    let (f, s) = (&fast, &slow);
                    assert_eq!(
                        (&f.url, f.gt, &f.hyphen_breaks, &f.gaps),
                        (&s.url, s.gt, &s.hyphen_breaks, &s.gaps),
                        "{text:?} {limit}"
                    );
                }
            }
        }
        // On a processor with AVX2 most wrappers are read from the masks.
        if Path::detect() == Path::Avx2 {
            assert!(masked > 5_000, "{masked}");
        }
    }

    #[test]
    fn line_start_is_after_the_last_line_break() {
        let naive = |b: &[u8], at: usize| {
            b[..at].iter().rposition(|&c| c == b'\n' || c == b'\r').map_or(0, |k| k + 1)
        };
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..5_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let len = (state % 50) as usize;
            // Line breaks, their neighbours in value (a borrow's false hit
            // would land on them) and other bytes.
            let b: Vec<u8> = (0..len)
                .map(|k| {
                    [b'a', b'\n', b'\r', 0x0b, 0x0c, 0x0e, 0x09, 0x8a, 0x00][(state >> (k % 60)) as usize % 9]
                })
                .collect();
            for at in 0..=len {
                assert_eq!(line_start(&b, at), naive(&b, at), "{b:?} {at}");
            }
        }
    }

    #[test]
    fn plain_run_ends_where_the_byte_loop_ends() {
        let mut b: Vec<u8> = (0u8..=255).collect();
        b.extend(b"abc<de>fg hij\x7fk\x80lmnopqrstuvwxyz0123456789");
        for i in 0..=b.len() {
            let naive = i + b[i..].iter().take_while(|&&c| is_plain(c)).count();
            assert_eq!(plain_run(&b, i), naive, "{i}");
        }
        for c in 0u8..=255 {
            for at in 0..20 {
                let mut b = vec![b'a'; 20];
                b[at] = c;
                let naive = b.iter().take_while(|&&c| is_plain(c)).count();
                assert_eq!(plain_run(&b, 0), naive, "{c} {at}");
            }
        }
    }

    #[test]
    fn find_candidate_matches_the_naive_loop() {
        let naive = |b: &[u8], i: usize| (i..b.len()).find(|&k| b[k] == b':').unwrap_or(b.len());
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let len = (state % 40) as usize;
            let b: Vec<u8> = (0..len)
                .map(|k| [b'a', b':', b'<', 0x3c ^ 0x80, b';', 0xff][(state >> (k % 60)) as usize % 6])
                .collect();
            for i in 0..=len {
                assert_eq!(find_candidate(&b, i), naive(&b, i), "{b:?} {i}");
            }
        }
    }

    #[test]
    fn scheme_len_needs_a_letter_first_and_a_colon() {
        assert_eq!(scheme_len(b"http://x"), Some(4));
        assert_eq!(scheme_len(b"z39.50r:x"), Some(7));
        assert_eq!(scheme_len(b"3:2"), None);
        assert_eq!(scheme_len(b"http"), None);
        assert_eq!(scheme_len(b""), None);
    }

    #[test]
    fn bare_end_trims_punctuation_and_unbalanced_brackets() {
        fn end(s: &str) -> &str {
            &s[..bare_end(s.as_bytes(), 0)]
        }
        assert_eq!(end("//x.org/a."), "//x.org/a");
        assert_eq!(end("//x.org/a_(b))"), "//x.org/a_(b)");
        assert_eq!(end("//x.org/a'"), "//x.org/a");
        assert_eq!(end("//x.org/'a'"), "//x.org/'a'");
        assert_eq!(end("//x.org/%4"), "//x.org/");
        assert_eq!(end("//x.org/%41."), "//x.org/%41");
        assert_eq!(end("//x.org/#a#b"), "//x.org/#a");
        assert_eq!(end("//x.org/~a"), "//x.org/");
    }

    #[test]
    fn hyphen_break_is_recorded_once_per_break() {
        let body = wrapped_body("ftp://a/b-\n  c>", 0, 15, || 0).unwrap();
        assert_eq!((body.url.as_ref(), body.gt), ("ftp://a/b-c", 14));
        assert_eq!((body.hyphen_breaks, body.gaps.as_slice()), (vec![9], &[(10, 13)][..]));
        let body = wrapped_body("ftp://a/b- \r\n c>", 0, 16, || 0).unwrap();
        assert_eq!((body.url.as_ref(), body.hyphen_breaks), ("ftp://a/b-c", vec![9]));
        // A hyphen before a space that breaks no line is not ambiguous, nor
        // one that ends the URL.
        let body = wrapped_body("ftp://a/b- c>", 0, 13, || 0).unwrap();
        assert!(body.hyphen_breaks.is_empty());
        let body = wrapped_body("ftp://a/b-\n>", 0, 12, || 0).unwrap();
        assert!(body.hyphen_breaks.is_empty());
    }
}

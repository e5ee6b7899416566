//! Finding URLs in free text, as the RFC's Appendix ("Recommendations for
//! URLs in Context") describes.
//!
//! URLs live in mail, news articles, old documents, chat logs and source
//! comments. The Appendix recommends writing them there inside a wrapper,
//! `<URL:...>`, with any fragment inside the brackets; whitespace may be
//! added anywhere inside to break a long URL across lines, and is ignored
//! when the URL is read back. A line break right after a hyphen is
//! ambiguous: a typesetter may have added the hyphen.
//!
//! A [`Finder`] finds three forms, each a [`Form`]:
//!
//! | form                 | written as                 | ends at                                           |
//! |----------------------|----------------------------|---------------------------------------------------|
//! | [`Form::UrlPrefix`]  | `<URL:ftp://a.org/x>`      | the first `>`; whitespace inside is deleted       |
//! | [`Form::Angle`]      | `<http://a.org/x>`         | the first `>`; whitespace inside is deleted       |
//! | [`Form::Bare`]       | `http://a.org/x`           | whitespace, unsafe or non-ASCII characters (§2.2) |
//!
//! Rules, with the reason for each:
//!
//! - Wrapped URLs keep everything inside the brackets (punctuation, the
//!   fragment, even unsafe characters, which then make the URL invalid)
//!   but whitespace of any kind, blank lines and long runs included: the
//!   Appendix says "The whitespace should be ignored when extracting the
//!   URL", and a wrapper exists so that a long URL may be broken across
//!   lines. `URL:` is read in any case. The inside must start with
//!   `scheme:`, and the wrapper must be closed before the next `<`, the
//!   end of the text, and [`MAX_WRAPPER`] bytes from its `<`; otherwise it
//!   is no wrapper and the text after its `<` is searched as usual, where
//!   a bare URL ends at whitespace: an unterminated `<URL:` never joins
//!   text across a line break, a blank line or a run of spaces.
//! - `<scheme:...>` without the `URL:` prefix is taken for `mailto:` and
//!   `news:` and for any scheme of two letters or more followed by `//`;
//!   this keeps XML tags such as `<xsl:template>` out.
//! - Bare URLs are found for `mailto:` and `news:` (which have no `//`) and
//!   for every scheme written with `//` (`ftp`, `http`, `gopher`, `nntp`,
//!   `telnet`, `wais`, `file`, `prospero` and others). Their scheme starts
//!   with a letter (§5 allows a digit; in text that would make `3:2` a URL)
//!   and, but for `mailto` and `news`, has two characters or more (`C://`
//!   names a drive); so `3:2` and `C:\` are not URLs.
//! - A bare URL is made of the characters §2.2 allows unencoded and `%HH`
//!   escapes; it ends at whitespace (it never joins lines), at the unsafe
//!   characters `<`, `>`, `"`, `{`, `}`, `|`, `\`, `^`, `~`, `[`, `]`,
//!   `` ` `` and a second `#`, at a `%` not followed by two hex digits, at
//!   control characters and at non-ASCII text (so CJK punctuation such as
//!   `。` or `）` is never glued on). One `#` is kept: the core parser reads
//!   what follows as the fragment.
//! - A bare URL does not end with sentence punctuation (`. , ; : ! ?`), an
//!   empty fragment `#`, an opening `(`, or a quote `'` that does not close
//!   one opened inside the URL; an unbalanced `)` ends it.
//! - In quoted mail (`> > text`), the quote marks at the start of the lines
//!   a wrapped URL continues on are not part of it.
//!
//! Extraction is linear in the length of the text, whatever the text.
//!
//! # Examples
//!
//! The Appendix's own example:
//!
//! ```
//! use rfc1738::extract::Finder;
//!
//! let text = "Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;
//!       type=d> but you can probably pick it up from <URL:ftp://ds.in
//!       ternic.net/rfc>. Note the warning in <URL:http://ds.internic.
//!       net/instructions/overview.html#WARNING>.";
//! let urls: Vec<_> = Finder::new().find_iter(text).map(|m| m.into_string()).collect();
//! assert_eq!(urls, [
//!     "ftp://info.cern.ch/pub/www/doc;type=d",
//!     "ftp://ds.internic.net/rfc",
//!     "http://ds.internic.net/instructions/overview.html#WARNING",
//! ]);
//! ```
//!
//! Bare URLs, with the punctuation around them left out:
//!
//! ```
//! use rfc1738::extract::{Finder, Form};
//!
//! let text = "Mail mailto:info@example.org (or see http://example.org/a_(b)).";
//! let found: Vec<_> = Finder::new().find_iter(text).map(|m| (m.as_str().to_owned(), m.form())).collect();
//! assert_eq!(found, [
//!     ("mailto:info@example.org".to_owned(), Form::Bare),
//!     ("http://example.org/a_(b)".to_owned(), Form::Bare),
//! ]);
//! ```

use std::borrow::Cow;
use std::fmt;
use std::iter::FusedIterator;
use std::ops::Range;

mod form;
mod scan;

pub use form::Form;
pub use scan::MAX_WRAPPER;

/// Finds URLs in text: the entry point of this module.
///
/// A `Finder` holds only options; it is cheap to build and to copy.
///
/// # Examples
///
/// ```
/// use rfc1738::extract::Finder;
///
/// let finder = Finder::new();
/// let m = finder.find_iter("see <URL:http://example.org/>").next().unwrap();
/// assert_eq!(m.as_str(), "http://example.org/");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finder {
    bare: bool,
}

impl Default for Finder {
    /// The same as [`Finder::new`].
    ///
    /// # Examples
    ///
    /// ```
    /// use rfc1738::extract::Finder;
    ///
    /// assert_eq!(Finder::default(), Finder::new());
    /// ```
    fn default() -> Self {
        Self::new()
    }
}

impl Finder {
    /// A finder for all three forms: `<URL:...>`, `<scheme:...>` and bare.
    ///
    /// # Examples
    ///
    /// ```
    /// use rfc1738::extract::Finder;
    ///
    /// assert_eq!(Finder::new().find_iter("<news:comp.infosystems.www> news:a.b").count(), 2);
    /// ```
    #[must_use]
    pub const fn new() -> Self {
        Self { bare: true }
    }

    /// Whether to find bare URLs too (the default), or only wrapped ones.
    ///
    /// # Examples
    ///
    /// ```
    /// use rfc1738::extract::Finder;
    ///
    /// let text = "http://a.org/ <URL:http://b.org/>";
    /// let urls: Vec<_> = Finder::new().bare(false).find_iter(text).map(|m| m.into_string()).collect();
    /// assert_eq!(urls, ["http://b.org/"]);
    /// ```
    #[must_use]
    pub const fn bare(mut self, yes: bool) -> Self {
        self.bare = yes;
        self
    }

    /// An iterator over the URLs in `text`, in order, without overlaps.
    ///
    /// # Examples
    ///
    /// ```
    /// use rfc1738::extract::Finder;
    ///
    /// let text = "ftp://a.org/x, then gopher://b.org/1.";
    /// let spans: Vec<_> = Finder::new().find_iter(text).map(|m| m.range()).collect();
    /// assert_eq!(spans, [0..13, 20..36]);
    /// ```
    #[must_use]
    pub fn find_iter<'t>(&self, text: &'t str) -> Matches<'t> {
        Matches { text, pos: 0, bare: self.bare }
    }

    /// The URLs of `text` from byte `pos` on, as the iterator of
    /// [`Finder::find_iter`] whose [`Matches::position`] was `pos` goes
    /// on: a search can stop and resume without holding its iterator
    /// (a binding's iterator object, which cannot borrow its text). A
    /// `pos` inside a character starts at the next one.
    ///
    /// # Examples
    ///
    /// ```
    /// use rfc1738::extract::Finder;
    ///
    /// let text = "ftp://a.org/x, then gopher://b.org/1.";
    /// let mut first = Finder::new().find_iter(text);
    /// assert_eq!(first.next().map(|m| m.range()), Some(0..13));
    /// let mut rest = Finder::new().find_iter_from(text, first.position());
    /// assert_eq!(rest.next().map(|m| m.range()), Some(20..36));
    /// ```
    #[must_use]
    pub fn find_iter_from<'t>(&self, text: &'t str, pos: usize) -> Matches<'t> {
        let pos =
            (pos.min(text.len())..=text.len()).find(|&i| text.is_char_boundary(i)).unwrap_or(text.len());
        Matches { text, pos, bare: self.bare }
    }
}

/// Finds the URLs in `text` with a default [`Finder`].
///
/// # Examples
///
/// ```
/// let m = rfc1738::extract::find_iter("(news:comp.lang.misc)").next().unwrap();
/// assert_eq!(m.as_str(), "news:comp.lang.misc");
/// ```
#[must_use]
pub fn find_iter(text: &str) -> Matches<'_> {
    Finder::new().find_iter(text)
}

/// A URL found in text.
///
/// ```text
///   see <URL:ftp://a.org/long-
///            name>.
///       ^                      ^
///       start()                end()      as_str() = "ftp://a.org/long-name"
///                                         hyphen_breaks() = [16]
///                                         alternative() = Some("ftp://a.org/longname")
/// ```
///
/// # Examples
///
/// ```
/// use rfc1738::extract::{find_iter, Form};
///
/// let text = "see <URL:ftp://a.org/long-\n         name>.";
/// let m = find_iter(text).next().unwrap();
/// assert_eq!(m.as_str(), "ftp://a.org/long-name");
/// assert_eq!((m.start(), m.end()), (4, 41));
/// assert_eq!(&text[m.range()], "<URL:ftp://a.org/long-\n         name>");
/// assert_eq!(m.form(), Form::UrlPrefix);
/// assert_eq!(m.hyphen_breaks(), [16]);
/// assert_eq!(m.alternative().as_deref(), Some("ftp://a.org/longname"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match<'t> {
    start: usize,
    end: usize,
    url: Cow<'t, str>,
    form: Form,
    hyphen_breaks: Vec<usize>,
    /// Where the URL's first character is in the text.
    inner_start: usize,
    /// `(offset in the URL, offset in the text)` of each character that
    /// follows deleted whitespace; empty when nothing was deleted.
    gaps: scan::Gaps,
}

impl<'t> Match<'t> {
    /// The URL: the wrapper removed and whitespace inside it deleted.
    ///
    /// # Examples
    ///
    /// ```
    /// let m = rfc1738::extract::find_iter("<URL:http://a.org/x\n  /y#z>").next().unwrap();
    /// assert_eq!(m.as_str(), "http://a.org/x/y#z");
    /// ```
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.url
    }

    /// The URL as a [`Cow`]: borrowed from the text unless whitespace had to
    /// be deleted.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::borrow::Cow;
    ///
    /// let m = rfc1738::extract::find_iter("http://a.org/").next().unwrap();
    /// assert!(matches!(m.into_cow(), Cow::Borrowed("http://a.org/")));
    /// ```
    #[must_use]
    pub fn into_cow(self) -> Cow<'t, str> {
        self.url
    }

    /// The URL as an owned `String`.
    ///
    /// # Examples
    ///
    /// ```
    /// let m = rfc1738::extract::find_iter("<http://a.org/>").next().unwrap();
    /// assert_eq!(m.into_string(), "http://a.org/");
    /// ```
    #[must_use]
    pub fn into_string(self) -> String {
        self.url.into_owned()
    }

    /// The scheme as written (not lower-cased): the URL up to its first `:`.
    ///
    /// # Examples
    ///
    /// ```
    /// let m = rfc1738::extract::find_iter("<URL:HTTP://a.org/>").next().unwrap();
    /// assert_eq!(m.scheme(), "HTTP");
    /// ```
    #[must_use]
    pub fn scheme(&self) -> &str {
        // Every match starts with `scheme ":"`; see scan::scheme_len.
        self.url.split_once(':').map_or("", |(scheme, _)| scheme)
    }

    /// The byte offset in the text where the written URL starts, at the `<`
    /// of a wrapper.
    ///
    /// # Examples
    ///
    /// ```
    /// let m = rfc1738::extract::find_iter("at <http://a.org/>").next().unwrap();
    /// assert_eq!(m.start(), 3);
    /// ```
    #[must_use]
    pub fn start(&self) -> usize {
        self.start
    }

    /// The byte offset in the text just past the written URL, past the `>`
    /// of a wrapper.
    ///
    /// # Examples
    ///
    /// ```
    /// let m = rfc1738::extract::find_iter("at <http://a.org/>.").next().unwrap();
    /// assert_eq!(m.end(), 18);
    /// ```
    #[must_use]
    pub fn end(&self) -> usize {
        self.end
    }

    /// `start()..end()`: the span of the written URL in the text.
    ///
    /// # Examples
    ///
    /// ```
    /// let text = "at http://a.org/.";
    /// let m = rfc1738::extract::find_iter(text).next().unwrap();
    /// assert_eq!(&text[m.range()], "http://a.org/");
    /// ```
    #[must_use]
    pub fn range(&self) -> Range<usize> {
        self.start..self.end
    }

    /// How the URL was written.
    ///
    /// # Examples
    ///
    /// ```
    /// use rfc1738::extract::{find_iter, Form};
    ///
    /// assert_eq!(find_iter("<mailto:a@b.org>").next().unwrap().form(), Form::Angle);
    /// ```
    #[must_use]
    pub fn form(&self) -> Form {
        self.form
    }

    /// The offsets in [`as_str`](Self::as_str) of each `-` that was followed
    /// by a line break in the text; empty when there was none.
    ///
    /// The Appendix: a typesetter may have added such a hyphen when breaking
    /// the line, so it "may or may not actually be part of the URL". Only
    /// wrapped URLs can have them: bare URLs end at whitespace.
    ///
    /// # Examples
    ///
    /// ```
    /// let m = rfc1738::extract::find_iter("<URL:ftp://x.org/internet-\ndrafts>").next().unwrap();
    /// assert_eq!(m.hyphen_breaks(), [20]);
    /// assert_eq!(&m.as_str()[20..], "-drafts");
    /// ```
    #[must_use]
    pub fn hyphen_breaks(&self) -> &[usize] {
        &self.hyphen_breaks
    }

    /// Maps an offset in [`as_str`](Self::as_str) (such as a
    /// [`ParseError`](crate::ParseError)'s) to the byte offset of the same
    /// character in the text. The length of the URL maps to just past its
    /// last character.
    ///
    /// # Examples
    ///
    /// ```
    /// let text = "<URL:http://a.org/x\n   /y>";
    /// let m = rfc1738::extract::find_iter(text).next().unwrap();
    /// assert_eq!(m.as_str(), "http://a.org/x/y");
    /// assert_eq!(m.text_offset(0), 5);
    /// assert_eq!(m.text_offset(14), 23);
    /// assert_eq!(&text[23..24], "/");
    /// assert_eq!(m.text_offset(16), 25);
    /// ```
    #[must_use]
    pub fn text_offset(&self, url_offset: usize) -> usize {
        // The last character that follows a gap at or before the offset.
        let gaps = self.gaps.as_slice();
        let i = gaps.partition_point(|&(u, _)| u <= url_offset);
        let (u, t) = if i == 0 { (0, self.inner_start) } else { gaps[i - 1] };
        t + (url_offset - u)
    }

    /// Whether a line break after a hyphen makes the URL ambiguous.
    ///
    /// # Examples
    ///
    /// ```
    /// let m = rfc1738::extract::find_iter("<URL:ftp://x.org/a-\nb>").next().unwrap();
    /// assert!(m.is_ambiguous());
    /// ```
    #[must_use]
    pub fn is_ambiguous(&self) -> bool {
        !self.hyphen_breaks.is_empty()
    }

    /// The other reading of an ambiguous URL: every hyphen of
    /// [`hyphen_breaks`](Self::hyphen_breaks) removed. `None` when the URL
    /// is not ambiguous.
    ///
    /// [`as_str`](Self::as_str) keeps the hyphens, as written; which reading
    /// is right only the resource can tell.
    ///
    /// # Examples
    ///
    /// ```
    /// let m = rfc1738::extract::find_iter("<URL:http://ex-\n  ample.org/>").next().unwrap();
    /// assert_eq!(m.as_str(), "http://ex-ample.org/");
    /// assert_eq!(m.alternative().as_deref(), Some("http://example.org/"));
    /// ```
    #[must_use]
    pub fn alternative(&self) -> Option<String> {
        if self.hyphen_breaks.is_empty() {
            return None;
        }
        let mut out = String::with_capacity(self.url.len());
        let mut from = 0;
        for &h in &self.hyphen_breaks {
            out.push_str(&self.url[from..h]);
            from = h + 1;
        }
        out.push_str(&self.url[from..]);
        Some(out)
    }
}

// The parse result. These are the only calls from this module into the core
// parser: extraction itself decides nothing by parsing.
impl Match<'_> {
    /// Parses the URL (see [`Url::parse`](crate::Url::parse)).
    ///
    /// # Errors
    ///
    /// The [`ParseError`](crate::ParseError) of [`Url::parse`](crate::Url::parse);
    /// its offset is in [`as_str`](Self::as_str), and
    /// [`text_offset`](Self::text_offset) maps it into the text.
    ///
    /// # Examples
    ///
    /// ```
    /// let m = rfc1738::extract::find_iter("<URL:ftp://a.org/pub/\n  x;type=d>").next().unwrap();
    /// let url = m.parse()?;
    /// assert_eq!(url.host(), Some("a.org"));
    /// assert_eq!(url.ftp().unwrap().typecode(), Some(b'd'));
    /// # Ok::<(), rfc1738::ParseError>(())
    /// ```
    pub fn parse(&self) -> Result<crate::Url, crate::ParseError> {
        crate::Url::parse(&self.url)
    }

    /// Checks the URL as [`parse`](Self::parse) does, without building a
    /// [`Url`](crate::Url) (see [`validate`](crate::validate)).
    ///
    /// # Errors
    ///
    /// The [`ParseError`](crate::ParseError) of [`validate`](crate::validate),
    /// with its offset in [`as_str`](Self::as_str).
    ///
    /// # Examples
    ///
    /// ```
    /// let text = "<URL:http://a.org/x y> and <URL:http://a.org/~joe>";
    /// let offsets: Vec<_> = rfc1738::extract::find_iter(text)
    ///     .map(|m| m.validate().map_err(|e| m.text_offset(e.offset())))
    ///     .collect();
    /// assert_eq!(offsets, [Ok(()), Err(45)]);
    /// assert_eq!(&text[45..46], "~");
    /// ```
    pub fn validate(&self) -> Result<(), crate::ParseError> {
        crate::validate(&self.url)
    }
}

impl fmt::Display for Match<'_> {
    /// Writes the URL, as [`Match::as_str`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.url)
    }
}

/// The iterator returned by [`Finder::find_iter`].
///
/// # Examples
///
/// ```
/// let mut it = rfc1738::extract::find_iter("a http://b.org/ c");
/// assert_eq!(it.next().unwrap().as_str(), "http://b.org/");
/// assert!(it.next().is_none());
/// ```
#[derive(Clone, Debug)]
pub struct Matches<'t> {
    text: &'t str,
    /// Where the search goes on; nothing before it is looked at again.
    pos: usize,
    bare: bool,
}

impl<'t> Matches<'t> {
    /// Where the search goes on: the byte after the last match (the end of
    /// the text once the search is over). [`Finder::find_iter_from`]
    /// resumes there.
    #[must_use]
    pub fn position(&self) -> usize {
        self.pos
    }

    fn emit(&mut self, found: Match<'t>) -> Match<'t> {
        self.pos = found.end;
        found
    }
}

impl<'t> Iterator for Matches<'t> {
    type Item = Match<'t>;

    fn next(&mut self) -> Option<Match<'t>> {
        let b = self.text.as_bytes();
        // Every URL has a `:` after its scheme, and a wrapper's `<` comes
        // right before it (`<URL:` or `<scheme:`): the search jumps from
        // one `:` to the next and reads the scheme backwards, never before
        // `floor`, so no byte is read twice.
        let mut floor = self.pos;
        let mut i = self.pos;
        loop {
            i = scan::find_candidate(b, i);
            if i >= b.len() {
                break;
            }
            let run = b[floor..i].iter().rev().take_while(|&&c| scan::is_scheme_byte(c)).count();
            let start = i - run;
            // A `<` before the scheme (not read before `floor`): a wrapper
            // may start there; when it holds none, a bare URL may start
            // after it.
            let found = (start > floor && b[start - 1] == b'<')
                .then(|| scan::wrapped(self.text, start - 1))
                .flatten()
                .or_else(|| if self.bare { scan::bare(self.text, start, i) } else { None });
            if let Some(found) = found {
                return Some(self.emit(found));
            }
            i += 1;
            floor = i;
        }
        self.pos = b.len();
        None
    }
}

impl FusedIterator for Matches<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain search, one byte at a time, that `Matches` must agree with.
    fn naive(text: &str, bare: bool) -> Vec<Match<'_>> {
        let b = text.as_bytes();
        let mut it = Finder::new().bare(bare).find_iter(text);
        let (mut out, mut run_start, mut line_start, mut i) = (Vec::new(), 0, 0, 0);
        while i < b.len() {
            let found = match b[i] {
                b'<' => {
                    let depth = b[line_start..i]
                        .iter()
                        .take_while(|&&c| matches!(c, b'>' | b' ' | b'\t'))
                        .filter(|&&c| c == b'>')
                        .count();
                    scan::wrapped_with_depth(text, i, depth)
                }
                b':' if bare => scan::bare(text, run_start, i),
                _ => None,
            };
            if let Some(found) = found {
                if let Some(k) = text[found.start..found.end].rfind(['\n', '\r']) {
                    line_start = found.start + k + 1;
                }
                i = found.end;
                run_start = i;
                out.push(it.emit(found));
                continue;
            }
            if b[i] == b'\n' || b[i] == b'\r' {
                line_start = i + 1;
            }
            if !scan::is_scheme_byte(b[i]) {
                run_start = i + 1;
            }
            i += 1;
        }
        out
    }

    #[test]
    fn the_search_agrees_with_the_naive_one() {
        const PIECES: &[&str] = &[
            "<",
            ">",
            "<URL:",
            ":",
            "//",
            "/",
            ".",
            ",",
            "(",
            ")",
            "'",
            "#",
            "-",
            "\n",
            "\r",
            " ",
            "> ",
            ">",
            "a",
            "x.org",
            "3",
            "http",
            "news",
            "mailto",
            "http://",
            "<URL:http://a.org/",
            "\u{3002}",
            "\u{3000}",
            "@",
        ];
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..100_000 {
            let len = next() % 48;
            let text: String = (0..len).map(|_| PIECES[(next() % PIECES.len() as u64) as usize]).collect();
            for bare in [true, false] {
                let fast: Vec<_> = Finder::new().bare(bare).find_iter(&text).collect();
                assert_eq!(fast, naive(&text, bare), "{text:?}");
            }
        }
    }
}

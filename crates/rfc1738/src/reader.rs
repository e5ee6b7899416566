//! The reader: the bytes of one URL and a cursor over them, and the
//! scan loop every rule uses (a run of a class, each `%` checked to start
//! an escape, §2.2).
//!
//! Cursor invariant: every function takes the index of the first byte it
//! may consume and returns the index of the first byte it did not, always
//! `<= Parser::end`. Nothing is consumed past `end`, the offset of the
//! first `#` (§2.2: `#` delimits the URL from a fragment identifier).

use crate::chars::{self, Class};
use crate::error::{ErrorKind, ParseError, Rule};
use crate::options::Lenient;
use crate::pct;
use crate::simd;
use crate::warning::WarningKind;

/// The longest input accepted: offsets are stored as `u32`.
pub const MAX_LEN: usize = (u32::MAX - 1) as usize;

/// The bytes being read, where the URL proper ends, and, for a lenient
/// parse, its options and warnings.
///
/// Lenient handling sits where a strict parse raises its error: a strict
/// parse (`lenient: None`) never looks at it outside its `#[cold]` error
/// paths.
pub(crate) struct Parser<'a> {
    pub(crate) b: &'a [u8],
    pub(crate) end: usize,
    pub(crate) lenient: Option<&'a Lenient>,
}

impl Parser<'_> {
    /// Consumes bytes of `class` from `i`, checking every `%` escape.
    #[inline]
    pub(crate) fn scan(&self, mut i: usize, class: Class, rule: Rule) -> Result<usize, ParseError> {
        let (b, end) = (self.b, self.end.min(self.b.len()));
        loop {
            // A vector or a word at a time up to the first byte that is
            // not a plain member (a class without a run bit: byte by byte).
            i = simd::run_of(b, i, end, class);
            while class.1 == 0 && i < end && b[i] != b'%' && class.contains(b[i]) {
                i += 1;
            }
            if !class.contains(b'%') {
                return Ok(i);
            }
            // Runs of escapes stay here; plain bytes go by `run_of`.
            while i < end && b[i] == b'%' {
                if pct::escape_at(b, i).is_none() {
                    return Err(ParseError::new(i, ErrorKind::InvalidEscape, rule));
                }
                i += 3;
            }
            if i >= end || !class.contains(b[i]) {
                return Ok(i);
            }
        }
    }

    /// The error for the byte at `i` that `rule` cannot take: its kind
    /// looked up (`UNEXPECTED`), not found by a chain of tests, which
    /// an error path taken once in a while would mostly guess wrong.
    #[cold]
    pub(crate) fn unexpected(&self, i: usize, rule: Rule) -> ParseError {
        let kind = match self.b.get(i) {
            Some(&c) if i < self.end => UNEXPECTED[c as usize],
            _ => ErrorKind::UnexpectedEnd,
        };
        ParseError::new(i, kind, rule)
    }

    /// Succeeds when `i` is the end of the URL.
    #[inline]
    pub(crate) fn expect_end(&self, i: usize, rule: Rule) -> Result<(), ParseError> {
        if i == self.end {
            Ok(())
        } else {
            Err(self.unexpected(i, rule))
        }
    }

    /// Consumes `class` from `i` and requires that it reaches the end.
    pub(crate) fn scan_to_end(&self, i: usize, class: Class, rule: Rule) -> Result<(), ParseError> {
        self.scan_until(i, class, rule, |_| false).map(|_| ())
    }

    /// Consumes `class` from `i` up to the end or a byte for which `stop`
    /// holds, and returns where it stopped. Any other byte is an error for
    /// `rule`, unless the lenient options accept it (see [`Parser::tolerate`]).
    #[inline]
    pub(crate) fn scan_until(
        &self,
        i: usize,
        class: Class,
        rule: Rule,
        stop: impl Fn(u8) -> bool,
    ) -> Result<usize, ParseError> {
        let mut j = self.scan_escapes(i, class, rule)?;
        while j < self.end && !stop(self.b[j]) {
            j = self.tolerate(j, rule)?;
            j = self.scan_escapes(j, class, rule)?;
        }
        Ok(j)
    }

    /// [`Parser::scan`], where a lenient parse may accept a bare `%`. The
    /// scan loop itself stays as it is: the lenient reading starts from its
    /// error, on a cold path.
    #[inline]
    fn scan_escapes(&self, i: usize, class: Class, rule: Rule) -> Result<usize, ParseError> {
        match self.scan(i, class, rule) {
            Ok(j) => Ok(j),
            Err(e) => self.rescan(e, class, rule),
        }
    }

    /// After `scan` failed with `e`: in a lenient parse that accepts a bare
    /// `%`, the warning, and the scan goes on after it; otherwise `e`.
    #[cold]
    #[inline(never)]
    fn rescan(&self, mut e: ParseError, class: Class, rule: Rule) -> Result<usize, ParseError> {
        loop {
            if e.kind() != ErrorKind::InvalidEscape {
                return Err(e);
            }
            let j = self.bare_percent(e.offset(), rule)?;
            match self.scan(j, class, rule) {
                Ok(k) => return Ok(k),
                Err(next) => e = next,
            }
        }
    }

    /// Where a strict parse fails at `j` in `rule`: in a lenient parse, a
    /// byte the options accept is recorded as a warning and `j + 1`
    /// returned; otherwise the strict error.
    #[cold]
    #[inline(never)]
    pub(crate) fn tolerate(&self, j: usize, rule: Rule) -> Result<usize, ParseError> {
        if let (Some(l), Some(&c)) = (self.lenient, self.b.get(j)) {
            if j < self.end && l.opts.reserved_in_search && rule == Rule::Search && matches!(c, b'/' | b'?') {
                l.warn(j, WarningKind::ReservedInSearch, format!("unencoded \"{}\" in a search", c as char));
                return Ok(j + 1);
            }
            if l.opts.unsafe_chars && is_tolerable_unsafe(c) {
                l.warn(
                    j,
                    WarningKind::UnsafeChar,
                    format!("unsafe character \"{}\" should be encoded as %{c:02X} (§2.2)", c as char),
                );
                return Ok(j + 1);
            }
        }
        Err(self.unexpected(j, rule))
    }

    /// A `%` not followed by two hex digits: an error, or in a lenient
    /// parse that accepts it, a warning and `i + 1` (the `%` read as itself).
    #[cold]
    #[inline(never)]
    pub(crate) fn bare_percent(&self, i: usize, rule: Rule) -> Result<usize, ParseError> {
        match self.lenient {
            Some(l) if l.opts.bare_percent => {
                l.warn(
                    i,
                    WarningKind::BarePercent,
                    "\"%\" not followed by two hex digits, read as itself (%25)",
                );
                Ok(i + 1)
            }
            _ => Err(ParseError::new(i, ErrorKind::InvalidEscape, rule)),
        }
    }

    /// Whether the byte at `h`, which ends the run of host characters, is
    /// an underscore a lenient parse accepts (recording the warning).
    #[cold]
    #[inline(never)]
    fn tolerate_underscore(&self, h: usize) -> bool {
        match self.lenient {
            Some(l) if l.opts.underscore_in_host => {
                l.warn(
                    h,
                    WarningKind::UnderscoreInHost,
                    "\"_\" in a host name (§3.1 allows letters, digits and \"-\")",
                );
                true
            }
            _ => false,
        }
    }

    /// The end of the run of host characters from `i`, stopping before
    /// `limit`; underscores are part of the run in a lenient parse.
    #[inline]
    pub(crate) fn host_end(&self, i: usize, limit: usize) -> usize {
        let mut h = i;
        loop {
            h = chars::run_of(self.b, h, limit, chars::HOSTCHAR);
            if h < limit && self.b[h] == b'_' && self.tolerate_underscore(h) {
                h += 1;
                continue;
            }
            return h;
        }
    }

    /// The first `needle` in `i..end`, or `end`.
    #[inline]
    pub(crate) fn find(&self, i: usize, needle: u8) -> usize {
        chars::find_byte(self.b, i, self.end, needle)
    }
}

/// What a byte no rule takes at its place is: a control character, not
/// ASCII (§2.2), unsafe, reserved, or another byte out of place (`"%"`
/// among them: an escape that is one is refused for its digits).
static UNEXPECTED: [ErrorKind; 256] = {
    let mut t = [ErrorKind::InvalidChar; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = if chars::is_control(b) {
            ErrorKind::ControlChar
        } else if b >= 0x80 {
            ErrorKind::NonAscii
        } else if b == b'%' {
            ErrorKind::InvalidChar
        } else if chars::is_unsafe(b) {
            ErrorKind::Unsafe
        } else if chars::RESERVED.contains_const(b) {
            ErrorKind::Reserved
        } else {
            ErrorKind::InvalidChar
        };
        c += 1;
    }
    t
};

/// §2.2 unsafe characters that a lenient parse accepts unencoded: all but
/// `%` (an escape), `#` (the fragment), and `<`, `>`, `"`, which delimit
/// URLs in text, so that a raw one means a badly cut URL or injected markup.
const fn is_tolerable_unsafe(c: u8) -> bool {
    chars::is_unsafe(c) && !matches!(c, b'%' | b'#' | b'<' | b'>' | b'"')
}

/// The error when the scheme characters `0..i` are not a scheme followed
/// by `":"`.
#[cold]
#[inline(never)]
pub(crate) fn no_scheme(p: &Parser<'_>, i: usize) -> ParseError {
    if i == 0 {
        return ParseError::new(0, ErrorKind::EmptyScheme, Rule::Scheme);
    }
    let kind = if i == p.end || p.b[i] == b'/' || chars::is_unsafe(p.b[i]) {
        ErrorKind::MissingColon
    } else {
        p.unexpected(i, Rule::Scheme).kind()
    };
    ParseError::new(i, kind, Rule::Scheme)
}

//! Reading URLs: one per line from files or stdin, with a bound on the
//! length of a line so that memory stays bounded whatever the input.

use std::fs::File;
use std::io::{self, BufRead, BufReader};

/// The longest line kept, in bytes (`--max-len` changes it). A longer
/// line is reported invalid without being held in memory.
pub const DEFAULT_MAX_LEN: usize = 1 << 20;

/// One input line: its bytes (without the line break) or the fact that it
/// was longer than the limit.
pub enum Line {
    /// The line's bytes.
    Text(Vec<u8>),
    /// The line had this many bytes, more than the limit; nothing kept.
    TooLong(u64),
}

/// A source of lines, bounded per line.
pub struct Lines {
    reader: Box<dyn BufRead + Send>,
    max_len: usize,
    /// Whether the next line is the first (which may start with a BOM).
    first: bool,
}

/// The UTF-8 byte-order mark some editors put first in a text file. It is
/// not part of the first URL (§2.2: URLs are written in US-ASCII), so it
/// is dropped.
const BOM: &[u8] = b"\xEF\xBB\xBF";

impl Lines {
    /// Lines of `path`, or of stdin when `path` is `-`.
    pub fn open(path: &str, max_len: usize) -> io::Result<Lines> {
        let reader: Box<dyn BufRead + Send> = if path == "-" {
            Box::new(BufReader::with_capacity(1 << 16, io::stdin()))
        } else {
            Box::new(BufReader::with_capacity(1 << 16, File::open(path)?))
        };
        Ok(Lines { reader, max_len, first: true })
    }

    /// Lines of any reader.
    #[cfg(test)]
    pub fn from_reader(reader: impl io::Read + Send + 'static, max_len: usize) -> Lines {
        Lines { reader: Box::new(BufReader::new(reader)), max_len, first: true }
    }

    /// The next line, without its `\n` or `\r\n`; `None` at the end.
    pub fn next_line(&mut self) -> io::Result<Option<Line>> {
        let mut buf = Vec::new();
        Ok(self.next_line_into(&mut buf)?.map(|span| match span {
            Span::Text(_) => Line::Text(buf),
            Span::TooLong(n) => Line::TooLong(n),
        }))
    }

    /// The next line appended to `buf` (so that a batch of lines shares one
    /// buffer): where it lies in `buf`, or that it was too long (then
    /// nothing of it is kept). `None` at the end.
    pub fn next_line_into(&mut self, buf: &mut Vec<u8>) -> io::Result<Option<Span>> {
        let carried = if std::mem::take(&mut self.first) { self.skip_bom()? } else { &[] };
        let start = buf.len();
        buf.extend_from_slice(carried);
        let (mut total, mut last, mut saw_any) =
            (carried.len() as u64, carried.last().copied(), !carried.is_empty());
        loop {
            let chunk = self.reader.fill_buf()?;
            if chunk.is_empty() {
                break;
            }
            saw_any = true;
            let nl = memchr::memchr(b'\n', chunk);
            let text = &chunk[..nl.unwrap_or(chunk.len())];
            total += text.len() as u64;
            last = text.last().copied().or(last);
            let room = (self.max_len + 1).saturating_sub(buf.len() - start).min(text.len());
            buf.extend_from_slice(&text[..room]);
            let consumed = nl.map_or(chunk.len(), |n| n + 1);
            self.reader.consume(consumed);
            if nl.is_some() {
                break;
            }
        }
        if !saw_any {
            return Ok(None);
        }
        if last == Some(b'\r') {
            total -= 1;
            if total < (buf.len() - start) as u64 {
                buf.pop();
            }
        }
        if total > self.max_len as u64 {
            buf.truncate(start);
            return Ok(Some(Span::TooLong(total)));
        }
        Ok(Some(Span::Text(start..buf.len())))
    }
}

impl Lines {
    /// Drops a byte-order mark at the start of the input, however the
    /// reads split it. Returns the bytes it took that were not one after
    /// all (the start of a BOM, then something else), which belong to the
    /// first line.
    fn skip_bom(&mut self) -> io::Result<&'static [u8]> {
        let mut matched = 0;
        while matched < BOM.len() {
            let chunk = self.reader.fill_buf()?;
            let n = chunk.len().min(BOM.len() - matched);
            if n == 0 || chunk[..n] != BOM[matched..matched + n] {
                return Ok(&BOM[..matched]);
            }
            self.reader.consume(n);
            matched += n;
        }
        Ok(&[])
    }
}

/// Where a line lies in a shared buffer (see [`Lines::next_line_into`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Span {
    /// The line's bytes are `buf[range]`.
    Text(std::ops::Range<usize>),
    /// The line had this many bytes, more than the limit; nothing kept.
    TooLong(u64),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &'static [u8], max: usize) -> Vec<String> {
        let mut lines = Lines::from_reader(input, max);
        let mut out = Vec::new();
        while let Some(line) = lines.next_line().unwrap() {
            out.push(match line {
                Line::Text(t) => String::from_utf8_lossy(&t).into_owned(),
                Line::TooLong(n) => format!("<{n}>"),
            });
        }
        out
    }

    #[test]
    fn splits_lines_and_strips_line_breaks() {
        assert_eq!(all(b"a\nb\r\n\nc", 10), ["a", "b", "", "c"]);
        assert_eq!(all(b"", 10), Vec::<String>::new());
    }

    #[test]
    fn a_byte_order_mark_first_is_dropped() {
        assert_eq!(all(b"\xEF\xBB\xBFhttp://h.dom/\nb", 100), ["http://h.dom/", "b"]);
        assert_eq!(all(b"a\n\xEF\xBB\xBFb", 100), ["a", "\u{FEFF}b"]);
        assert_eq!(all(b"\xEF\xBB\xBF", 100), Vec::<String>::new());
        // Split across reads, one byte each.
        let mut lines = Lines {
            reader: Box::new(BufReader::with_capacity(1, &b"\xEF\xBB\xBFx\n"[..])),
            max_len: 9,
            first: true,
        };
        assert!(matches!(lines.next_line().unwrap(), Some(Line::Text(t)) if t == b"x"));
        // The start of a BOM and then something else is kept as it is.
        for cap in [1, 2, 64] {
            let mut lines = Lines {
                reader: Box::new(BufReader::with_capacity(cap, &b"\xEF\xBBx\n\xEF"[..])),
                max_len: 9,
                first: true,
            };
            assert!(matches!(lines.next_line().unwrap(), Some(Line::Text(t)) if t == b"\xEF\xBBx"));
            assert!(matches!(lines.next_line().unwrap(), Some(Line::Text(t)) if t == b"\xEF"));
            assert!(lines.next_line().unwrap().is_none());
        }
        let mut lines = Lines {
            reader: Box::new(BufReader::with_capacity(1, &b"\xEF\xBB"[..])),
            max_len: 9,
            first: true,
        };
        assert!(matches!(lines.next_line().unwrap(), Some(Line::Text(t)) if t == b"\xEF\xBB"));
    }

    #[test]
    fn long_lines_are_reported_not_kept() {
        assert_eq!(all(b"abc\nabcdef\r\nx", 4), ["abc", "<6>", "x"]);
        assert_eq!(all(b"abcd\n", 4), ["abcd"]);
    }
}

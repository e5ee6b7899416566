//! `rfc1738 extract [FILE...]`: find the URLs in free text (mail, news,
//! documents, logs), as the RFC's Appendix describes, one per line.
//!
//! The input is read a paragraph at a time: a bare URL never crosses a
//! line break, and a wrapped one never reaches more than
//! [`MAX_WRAPPER`] bytes past its `<`, so
//! the URLs found are the same as in the whole text, and memory stays
//! bounded by the longest paragraph. A paragraph ends at any line break
//! where no wrapper is left open (a blank line inside an open wrapper is
//! part of it, as the Appendix asks), so text without wrappers across
//! lines (a log read from `tail -f`) is answered line by line, and what
//! was found is written as soon as the input would make the command wait.
//! A paragraph longer than [`MAX_PARAGRAPH`] is cut at a line break; only
//! a wrapper open across that cut is lost (the URL inside it is then found
//! bare, up to the end of its line).

use super::display_name;
use crate::input::{self, Source};
use crate::outcome::{Note, Problem};
use crate::status;
use rfc1738::extract::{Finder, Match, MAX_WRAPPER};
use serde_json::{json, Value};
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};

/// The longest paragraph searched in one piece, in bytes.
pub const MAX_PARAGRAPH: usize = 8 << 20;

/// The bytes held before a paragraph ends at a line break that leaves no
/// wrapper open, when more input is already read: the finder is called
/// once per batch of lines, not once per line.
const BATCH: usize = 64 << 10;

/// Arguments of `extract`.
#[derive(clap::Args)]
pub struct ExtractArgs {
    /// How compressed input is read.
    #[command(flatten)]
    pub reading: crate::flags::Reading,
    /// Write one JSON object per URL found.
    ///
    /// Write one JSON object per URL found
    /// (`{url, start, end, form, hyphen_break, valid, scheme, error, file, line, column}`:
    /// `start` and `end` byte offsets in the text, a byte-order mark not
    /// counted; `line` and `column` those of `start`, the column a byte's).
    #[arg(long)]
    json: bool,
    /// Only URLs written inside `<URL:...>` or `<scheme:...>`.
    #[arg(long)]
    wrapped_only: bool,
    /// The longest line searched, in bytes.
    ///
    /// The rest of a longer line is skipped with a note on stderr (and exit status 1), so that
    /// memory stays bounded on any input.
    #[arg(long, value_name = "BYTES", default_value_t = crate::input::DEFAULT_MAX_LEN, value_parser = crate::flags::max_len)]
    max_len: usize,
    /// Write exactly one line per input line, in order.
    ///
    /// The URLs that start on it, separated by spaces (an empty line when none); with --json, one
    /// object per input line: `{file, line, urls: [...]}`.
    #[arg(long)]
    keep_lines: bool,
    /// Check each URL found accepting the deviations real-world URLs have.
    ///
    /// Each is reported as a warning (stderr, or `warnings` in JSON).
    #[arg(long)]
    lenient: bool,
    /// Print nothing: the exit status says whether every URL found was valid.
    #[arg(long, short)]
    quiet: bool,
    /// Files of text; `-` or none for stdin.
    files: Vec<String>,
}

/// The examples at the end of `extract --help`.
pub const EXAMPLES: &str = "\
Examples:
  rfc1738 extract mail.txt
      each URL found, wrapper removed, one per line
  rfc1738 extract --json --wrapped-only notes.txt
      only <URL:...>, with offsets and validity
  rfc1738 extract --keep-lines access.log | paste access.log -
      each line beside its URLs";

/// What `run` counts.
#[derive(Default)]
struct Tally {
    invalid: u64,
}

/// Runs `extract`: prints each URL found (the wrapper removed, the
/// whitespace inside deleted) on a line of its own; an invalid one also gets
/// a diagnostic on stderr. Exit status 0 when every URL found is valid (or
/// none was found), 1 when one is not, 2 on an I/O error.
pub fn run(args: &ExtractArgs) -> io::Result<u8> {
    let files = if args.files.is_empty() { vec!["-".to_string()] } else { args.files.clone() };
    let finder = Finder::new().bare(!args.wrapped_only);
    super::set_quiet(args.quiet);
    let mut out = BufWriter::with_capacity(1 << 16, super::stdout());
    let mut err = super::diagnostics();
    let mut tally = Tally::default();
    let all_read = super::for_each_file(&files, &mut out, |out, file| {
        let source = input::open(file).map_err(|e| super::open_error(file, &e))?;
        let source: Box<dyn Source> = Box::new(Named::new(source, file));
        let mut reader = BufReader::with_capacity(1 << 16, source);
        let mut sink = Sink { args, file, out, err: &mut err, tally: &mut tally, pending: Vec::new() };
        paragraphs(&mut reader, args.max_len, |p, waits| {
            sink.paragraph(&finder, p)?;
            // Nothing more to read yet (a slow pipe): what was found so far
            // is written now, not when the buffer fills.
            if waits {
                sink.out.flush()?;
            }
            Ok(())
        })
    })?;
    out.flush()?;
    Ok(status::of_run(all_read, tally.invalid != 0))
}

/// An input whose read errors name it ([`super::input_error`]), apart
/// from the errors of the output.
struct Named {
    source: Box<dyn Source>,
    file: String,
    /// Whether the start, which may be a byte-order mark, is still unread.
    first: bool,
    /// The bytes read at the start that began like a mark and were none:
    /// text, given out before the next read.
    held: Vec<u8>,
}

/// UTF-8's byte-order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

impl Named {
    fn new(source: Box<dyn Source>, file: &str) -> Self {
        Named { source, file: file.to_string(), first: true, held: Vec::new() }
    }

    fn read_source(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.source.read(buf).map_err(|e| match e.kind() {
            io::ErrorKind::Interrupted => e,
            _ => super::input_error(&self.file, &e),
        })
    }

    /// Reads the start as far as it may be a byte-order mark, which may
    /// come in several reads (a pipe), and drops a whole one: it is no
    /// text, as every reader of lines drops it, and offsets and columns
    /// count from after it.
    fn skip_bom(&mut self) -> io::Result<()> {
        while self.held.len() < BOM.len() && BOM.starts_with(&self.held) {
            let mut byte = [0u8];
            if self.read_source(&mut byte)? == 0 {
                break;
            }
            self.held.push(byte[0]);
        }
        if self.held == BOM {
            self.held.clear();
        }
        self.first = false;
        Ok(())
    }
}

impl Read for Named {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.first {
            self.skip_bom()?;
        }
        if self.held.is_empty() {
            return self.read_source(buf);
        }
        let n = self.held.len().min(buf.len());
        buf[..n].copy_from_slice(&self.held[..n]);
        self.held.drain(..n);
        Ok(n)
    }
}

impl Source for Named {
    fn ready(&self) -> bool {
        !self.held.is_empty() || self.source.ready()
    }
}

/// A piece of the input: its bytes, where it starts in the file, and the
/// 1-based number of its first line.
pub struct Paragraph<'a> {
    /// The bytes, line breaks included.
    pub bytes: &'a [u8],
    /// Byte offset of `bytes` in the input.
    pub offset: u64,
    /// Line number of the first line of `bytes`.
    pub line: u64,
    /// Octets of the last line skipped past `--max-len` (the paragraph ends
    /// there), with the number of that line.
    pub skipped: Option<(u64, u64)>,
}

/// Calls `each` on the input cut into paragraphs: each ends after a blank
/// line (one holding only spaces and tabs) where no wrapper is open, at
/// the end of the input, at the first line break past [`MAX_PARAGRAPH`]
/// bytes, or at a line break where no wrapper is left open (see
/// [`open_after`]) once [`BATCH`] bytes are held or when all that was read
/// is held: no URL crosses such a break, so a slow pipe (a log read from
/// `tail -f`) is answered line by line. A wrapper counts as open up to
/// [`MAX_WRAPPER`] bytes past its `<`, where the finder gives it up too.
/// `each` also learns whether the next read would wait for input (nothing
/// buffered and nothing ready).
///
/// A line longer than `max_len` keeps its first `max_len` bytes, cut back
/// to the last space or tab so that no URL is cut in two; the rest of it is
/// read and dropped, and the paragraph ends there (`skipped`).
pub fn paragraphs(
    reader: &mut BufReader<Box<dyn Source>>,
    max_len: usize,
    mut each: impl FnMut(Paragraph<'_>, bool) -> io::Result<()>,
) -> io::Result<()> {
    let mut buf = Vec::new();
    let (mut offset, mut line, mut lines_in_buf) = (0u64, 1u64, 0u64);
    // Where in `buf` the `<` of a wrapper that may be open at its end is.
    let mut open: Option<usize> = None;
    loop {
        let start = buf.len();
        let (n, skipped) = read_line_within(reader, &mut buf, max_len)?;
        let this = &buf[start..];
        let blank = this.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'));
        if n > 0 {
            lines_in_buf += u64::from(this.ends_with(b"\n"));
            open = match open_after(open.is_some(), this) {
                Open::No => None,
                Open::Same => open,
                Open::At(k) => Some(start + k),
            };
            // Any `>` from here on is too far from the `<` to close it.
            if open.is_some_and(|lt| buf.len() - lt >= MAX_WRAPPER) {
                open = None;
            }
        }
        let drained = reader.buffer().is_empty();
        let cut = n == 0
            || skipped.is_some()
            || buf.len() > MAX_PARAGRAPH
            || (open.is_none() && (blank || drained || buf.len() >= BATCH));
        if cut && (!buf.is_empty() || skipped.is_some()) {
            let waits = input::would_wait(reader);
            // A cut line is the one after the whole lines held.
            let cut_line = skipped.map(|(bytes, _)| (bytes, line + lines_in_buf));
            each(Paragraph { bytes: &buf, offset, line, skipped: cut_line }, waits)?;
            offset += buf.len() as u64 + skipped.map_or(0, |s| s.0 + u64::from(s.1));
            line += lines_in_buf + u64::from(skipped.is_some_and(|s| s.1));
            lines_in_buf = 0;
            open = None;
            buf.clear();
        }
        // The end of the input; a line too long to search keeps nothing
        // when no space or tab is in its first `max_len` octets.
        if n == 0 && skipped.is_none() {
            return Ok(());
        }
    }
}

/// Reads one line (up to its `\n`) onto `buf`, at most `max_len` octets of
/// it: the octets read (0 at the end of the input) and, for a longer line,
/// the octets dropped and whether a `\n` was among them.
fn read_line_within(
    reader: &mut impl BufRead,
    buf: &mut Vec<u8>,
    max_len: usize,
) -> io::Result<(usize, Option<(u64, bool)>)> {
    let start = buf.len();
    // The line and its `\r\n`: a line of exactly `max_len` octets is whole.
    let n = reader.by_ref().take(max_len as u64 + 2).read_until(b'\n', buf)?;
    let line = &buf[start..];
    let body = line.strip_suffix(b"\n").map(|l| l.strip_suffix(b"\r").unwrap_or(l));
    if n <= max_len || body.is_some_and(|b| b.len() <= max_len) {
        return Ok((n, None));
    }
    let mut newline = body.is_some();
    // Cut back to the last space or tab: a URL holds neither.
    let keep = buf[start..start + max_len].iter().rposition(|&b| b == b' ' || b == b'\t').unwrap_or(0);
    let mut dropped = (n - keep) as u64;
    buf.truncate(start + keep);
    while !newline {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        let (used, found) = match memchr::memchr(b'\n', chunk) {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        reader.consume(used);
        dropped += used as u64;
        newline = found;
    }
    // The `\n` ends the line and is no octet of it.
    Ok((keep, Some((dropped - u64::from(newline), newline))))
}

/// Whether a wrapper may be open at the end of a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Open {
    /// None is.
    No,
    /// The one open at its start, if any, still is.
    Same,
    /// One that starts at the `<` at this offset in the line is.
    At(usize),
}

/// Whether a wrapper may be open at the end of `line` (read up to its
/// `\n`), and since which `<`; `before`: whether one may be open at its
/// start. The answer errs on the side of open, and of the later `<`: that
/// only keeps the paragraph going.
///
/// A wrapper that starts at a `<` ends at the first `>` after it, or is
/// abandoned at a `<`, so on one line a `<` with a `>` after it leaves
/// nothing open. On a line that goes on an open wrapper, the `>`s the
/// wrapper skips as quote marks come before the line's first other graphic
/// character, and the first `>` or `<` after that decides. A line with a
/// line break of its own inside (a lone CR, VT, FF, NEL, LS, PS), after
/// which quote marks are skipped again, is open if it has a `<` at all or
/// goes on an open wrapper.
fn open_after(before: bool, line: &[u8]) -> Open {
    let body = line.strip_suffix(b"\n").unwrap_or(line);
    let body = body.strip_suffix(b"\r").unwrap_or(body);
    let last_lt = memchr::memrchr(b'<', body);
    // Without a `<`, a line opens nothing (the common line: one search).
    if !before && last_lt.is_none() {
        return Open::No;
    }
    // Unsure: the last `<` of the line, or the one open before it.
    let unsure = last_lt.map_or(Open::Same, Open::At);
    if has_inner_break(body) {
        return unsure;
    }
    let from = if before {
        let Some(k) = body.iter().position(|&c| c.is_ascii_graphic() && c != b'>') else {
            return Open::Same;
        };
        match body[k..].iter().position(|&c| c == b'<' || c == b'>') {
            Some(j) => k + j,
            None => return Open::Same,
        }
    } else {
        0
    };
    match memchr::memrchr(b'<', &body[from..]) {
        Some(lt) if memchr::memchr(b'>', &body[from + lt..]).is_none() => Open::At(from + lt),
        _ => Open::No,
    }
}

/// Whether `body` holds a line break other than its final `\n` or `\r\n`:
/// CR, VT, FF, or NEL, LINE SEPARATOR, PARAGRAPH SEPARATOR in UTF-8.
fn has_inner_break(body: &[u8]) -> bool {
    memchr::memchr3(b'\r', 0x0B, 0x0C, body).is_some()
        || body.windows(2).any(|w| w == [0xC2, 0x85])
        || body.windows(3).any(|w| w == [0xE2, 0x80, 0xA8] || w == [0xE2, 0x80, 0xA9])
}

/// Where the URLs of one file go.
struct Sink<'a, O: Write, E: Write> {
    args: &'a ExtractArgs,
    file: &'a str,
    out: &'a mut O,
    err: &'a mut E,
    tally: &'a mut Tally,
    /// With `--keep-lines`: what each line of the paragraph gets.
    pending: Vec<Vec<Value>>,
}

impl<O: Write, E: Write> Sink<'_, O, E> {
    /// Finds and writes the URLs of one paragraph. Octets that are not UTF-8
    /// end a URL as any non-ASCII text does, so each UTF-8 run of the
    /// paragraph is searched on its own.
    fn paragraph(&mut self, finder: &Finder, p: Paragraph<'_>) -> io::Result<()> {
        self.urls(finder, &p)?;
        if let Some((bytes, line)) = p.skipped {
            self.tally.invalid += 1;
            self.out.flush()?;
            let name = super::shown_name(self.file);
            let max = self.args.max_len;
            writeln!(
                self.err,
                "rfc1738: {name}:{line}: the line is longer than the limit of {max} bytes (--max-len); \
                 {bytes} bytes of it were not searched"
            )?;
        }
        Ok(())
    }

    /// Finds and writes the URLs of one paragraph.
    fn urls(&mut self, finder: &Finder, p: &Paragraph<'_>) -> io::Result<()> {
        let mut at = 0usize;
        let mut pos = Position { line: p.line, column: 1, offset: 0 };
        if self.args.keep_lines {
            // A line cut at `--max-len` is the last, even when none of it was kept.
            let last = !p.bytes.ends_with(b"\n") || p.skipped.is_some();
            let lines = memchr::memchr_iter(b'\n', p.bytes).count() + usize::from(last);
            self.pending = vec![Vec::new(); lines];
        }
        for chunk in p.bytes.utf8_chunks() {
            let text = chunk.valid();
            for m in finder.find_iter(text) {
                let (line, column) = pos.advance(p.bytes, at + m.start());
                let (verdict, warnings) = check(&m, self.args.lenient);
                let span = (p.offset + (at + m.start()) as u64, p.offset + (at + m.end()) as u64);
                if self.args.keep_lines {
                    let record = self.record(&m, span, (line, column), &verdict, &warnings);
                    self.pending[(line - p.line) as usize].push(record);
                } else {
                    self.url(&m, span, (line, column), &verdict, &warnings)?;
                }
                if let Err(problem) = verdict {
                    let here = pos.advance(p.bytes, at + m.text_offset(problem.offset));
                    self.diagnose(&m, here, &problem)?;
                }
                for w in &warnings {
                    let here = pos.advance(p.bytes, at + m.text_offset(w.offset));
                    self.warn(&m, here, w)?;
                }
            }
            at += text.len() + chunk.invalid().len();
        }
        if self.args.keep_lines {
            for (k, urls) in std::mem::take(&mut self.pending).into_iter().enumerate() {
                if self.args.json {
                    let obj =
                        json!({"file": display_name(self.file), "line": p.line + k as u64, "urls": urls});
                    serde_json::to_writer(&mut *self.out, &obj)?;
                    writeln!(self.out)?;
                } else {
                    let texts: Vec<&str> = urls.iter().filter_map(|u| u["url"].as_str()).collect();
                    writeln!(self.out, "{}", texts.join(" "))?;
                }
            }
        }
        Ok(())
    }

    /// The JSON record of a URL found.
    fn record(
        &self,
        m: &Match<'_>,
        span: (u64, u64),
        (line, column): (u64, u64),
        verdict: &Result<(), Problem>,
        warnings: &[Note],
    ) -> Value {
        json!({
            "url": m.as_str(),
            "start": span.0,
            "end": span.1,
            "form": m.form().as_str(),
            "hyphen_break": m.alternative(),
            "valid": verdict.is_ok(),
            "scheme": m.scheme().to_ascii_lowercase(),
            "error": verdict.as_ref().err().map_or(Value::Null, Problem::to_json),
            "warnings": warnings.iter().map(Note::to_json).collect::<Vec<_>>(),
            "file": display_name(self.file),
            "line": line,
            "column": column,
        })
    }

    /// Writes `rfc1738: FILE:LINE:COLUMN: warning: ...` on stderr, without
    /// `--json`, then the URL with a caret under the offset.
    fn warn(&mut self, m: &Match<'_>, (line, column): (u64, u64), w: &Note) -> io::Result<()> {
        if self.args.json {
            return Ok(());
        }
        self.out.flush()?;
        let name = super::shown_name(self.file);
        let label = if w.security { "security" } else { "warning" };
        let d = crate::diag::Diagnostic {
            file: &name,
            line,
            label,
            kind: w.kind,
            message: &w.message,
            rule: None,
        };
        let shown = m.as_str();
        // The column is the text's; the caret sits under the URL alone.
        writeln!(self.err, "{}", d.head(column as usize, true))?;
        write!(self.err, "{}", crate::diag::caret(shown, w.offset.min(shown.len())))
    }

    /// Writes the URL: alone on its line, or as a JSON object.
    fn url(
        &mut self,
        m: &Match<'_>,
        span: (u64, u64),
        at: (u64, u64),
        verdict: &Result<(), Problem>,
        warnings: &[Note],
    ) -> io::Result<()> {
        if !self.args.json {
            // The text inside a wrapper may hold ESC or BEL: escaped for the
            // terminal (a valid URL holds none, and is written as it is).
            return writeln!(self.out, "{}", crate::diag::escape(m.as_str().as_bytes()));
        }
        let obj = self.record(m, span, at, verdict, warnings);
        serde_json::to_writer(&mut *self.out, &obj)?;
        writeln!(self.out)
    }

    /// Counts an invalid URL and, without `--json`, writes
    /// `rfc1738: FILE:LINE:COLUMN: invalid URL: ...` on stderr (the line and
    /// column of the offending character in the text), then the URL with a
    /// caret under it.
    fn diagnose(&mut self, m: &Match<'_>, (line, column): (u64, u64), p: &Problem) -> io::Result<()> {
        self.tally.invalid += 1;
        if self.args.json {
            return Ok(());
        }
        // Flushed first so that the URL and its diagnostic stay together
        // when stdout and stderr go to the same place.
        self.out.flush()?;
        let name = super::shown_name(self.file);
        let shown = m.as_str();
        writeln!(self.err, "{}", super::problem(&name, line, p).head(column as usize, true))?;
        write!(self.err, "{}", crate::diag::caret(shown, super::lossy_offset(shown.as_bytes(), p.offset)))
    }
}

/// A URL found, checked: strictly, or accepting the deviations of a
/// lenient parse (each a warning, its offset in the URL).
fn check(m: &Match<'_>, lenient: bool) -> (Result<(), Problem>, Vec<Note>) {
    if !lenient {
        return (m.validate().map_err(Problem::from), Vec::new());
    }
    match rfc1738::Url::parse_with(m.as_str(), &rfc1738::ParseOptions::lenient()) {
        Ok((_, warnings)) => (Ok(()), warnings.iter().map(Note::from).collect()),
        Err(e) => (Err(Problem::from(e)), Vec::new()),
    }
}

/// The line and column (1-based, the column a byte's, as ripgrep counts
/// it) of increasing offsets in one paragraph, found in linear time.
struct Position {
    line: u64,
    column: u64,
    offset: usize,
}

impl Position {
    fn advance(&mut self, bytes: &[u8], offset: usize) -> (u64, u64) {
        for &b in &bytes[self.offset..offset] {
            if b == b'\n' {
                self.line += 1;
                self.column = 1;
            } else {
                self.column += 1;
            }
        }
        self.offset = offset;
        (self.line, self.column)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `--max-len` no test line reaches.
    const NO_LIMIT: usize = 1 << 40;

    /// `input` from a pipe whose writer is slow: a byte at a time, never
    /// more ready.
    fn trickle(input: &str) -> BufReader<Box<dyn Source>> {
        BufReader::new(Box::new(input::Pieces::new(input.as_bytes(), vec![1], false)))
    }

    /// The paragraphs of `input` read from a slow pipe.
    fn cut(input: &str) -> Vec<(String, u64, u64)> {
        let mut v = Vec::new();
        paragraphs(&mut trickle(input), NO_LIMIT, |p, waits| {
            assert!(waits);
            v.push((String::from_utf8_lossy(p.bytes).into_owned(), p.offset, p.line));
            Ok(())
        })
        .unwrap();
        v
    }

    #[test]
    fn lines_that_leave_no_wrapper_open_are_paragraphs_of_their_own() {
        assert_eq!(
            cut("a\nb <x> <URL:h:a>\n\nc\r\nd"),
            [
                ("a\n".into(), 0, 1),
                ("b <x> <URL:h:a>\n".into(), 2, 2),
                ("\n".into(), 18, 3),
                ("c\r\n".into(), 19, 4),
                ("d".into(), 22, 5)
            ]
        );
        assert_eq!(cut(""), []);
        assert_eq!(cut("\n\n"), [("\n".into(), 0, 1), ("\n".into(), 1, 2)]);
    }

    #[test]
    fn input_read_ahead_is_cut_in_batches_not_lines() {
        let text = "a http://h.dom/\n".repeat(BATCH / 4);
        let source: Box<dyn Source> = Box::new(io::Cursor::new(text.clone().into_bytes()));
        let mut sizes = Vec::new();
        paragraphs(&mut BufReader::with_capacity(BATCH, source), NO_LIMIT, |p, waits| {
            assert!(!waits);
            sizes.push(p.bytes.len());
            Ok(())
        })
        .unwrap();
        assert_eq!(sizes, [BATCH; 4]);
    }

    #[test]
    fn a_wrapper_open_at_a_line_end_keeps_the_paragraph_to_its_end_or_its_bound() {
        assert_eq!(cut("a <URL:h:\nb> c\nd\n"), [("a <URL:h:\nb> c\n".into(), 0, 1), ("d\n".into(), 15, 3)]);
        // Appendix: whitespace inside a wrapper, blank lines too, is ignored.
        assert_eq!(
            cut("a <URL:h:\nb\n\nd> e\nf\n"),
            [("a <URL:h:\nb\n\nd> e\n".into(), 0, 1), ("f\n".into(), 18, 5)]
        );
        assert_eq!(cut("a <URL:h:\nb\n\nd\n"), [("a <URL:h:\nb\n\nd\n".into(), 0, 1)]);
        // The `>` of a quoted line closes nothing.
        assert_eq!(cut("> a <URL:h:\n> b\n> c>\n"), [("> a <URL:h:\n> b\n> c>\n".into(), 0, 1)]);
        // Past MAX_WRAPPER bytes from its `<`, a wrapper is given up: the
        // next blank line ends the paragraph.
        let text = format!("a <URL:h:\n{}d\n", "\n".repeat(MAX_WRAPPER));
        let cuts = cut(&text);
        assert_eq!(cuts[0].0.len(), MAX_WRAPPER + 2, "up to the blank line MAX_WRAPPER bytes past the <");
        assert_eq!(cuts[1], ("\n".into(), MAX_WRAPPER as u64 + 2, MAX_WRAPPER as u64 - 6));
        assert_eq!(cuts.iter().map(|c| c.0.as_str()).collect::<String>(), text);
    }

    #[test]
    fn a_line_leaves_a_wrapper_open_after_an_unclosed_lt() {
        use Open::{At, No, Same};
        for (before, line, open) in [
            (false, "no wrapper\n", No),
            (false, "<URL:h:a>\n", No),
            (false, "<URL:h:a\n", At(0)),
            (false, "<URL:h:a <b>\r\n", No),
            (false, "x> <URL:h:a\r\n", At(3)),
            (false, "<URL:h:a> <URL:h:b", At(10)),
            // A line that goes on an open wrapper: quote marks first.
            (true, "  y> here\n", No),
            (true, "> > y> here\n", No),
            (true, "> >\n", Same),
            (true, "\n", Same),
            (true, "y\n", Same),
            (true, "y <URL:h:b\n", At(2)),
            (true, "y> <URL:h:b>\n", No),
            // A line break inside the line: open if a `<` is, at the last.
            (false, "a\rb\n", No),
            (false, "> <URL:h:a\x0b> b <c\n", At(15)),
            (false, "<URL:h:a\u{2028}>\n", At(0)),
            (true, "y>\u{85}\n", Same),
        ] {
            assert_eq!(open_after(before, line.as_bytes()), open, "{before} {line:?}");
        }
    }

    /// The URLs found in `text` searched whole, and searched paragraph by
    /// paragraph as `paragraphs` cuts it when it comes a byte at a time
    /// (cut wherever it may be), are the same.
    #[test]
    fn cutting_into_paragraphs_finds_the_urls_of_the_whole_text() {
        // Lines of mail: quote marks first, then pieces of URLs, wrappers
        // and whitespace (line breaks inside a line among them).
        const QUOTES: [&str; 4] = ["", "> ", "> > ", ">"];
        const PIECES: [&str; 20] = [
            "<URL:",
            "http://a.dom/",
            "x",
            "-",
            ">",
            "<",
            " ",
            "\r",
            "\x0b",
            "news:y",
            "<http://c.dom/e",
            "\u{2028}",
            "\u{85}",
            "ftp://f.dom/h",
            "mailto:a@b.dom",
            "  ",
            "\t",
            "<URL:http://g.dom/",
            "> ",
            "y>",
        ];
        const ENDS: [&str; 3] = ["\n", "\r\n", "\n\n"];
        let finder = Finder::new();
        let found = |text: &str, offset: usize| -> Vec<(usize, usize, String)> {
            finder
                .find_iter(text)
                .map(|m| (offset + m.start(), offset + m.end(), m.as_str().to_owned()))
                .collect()
        };
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut pick = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        for _ in 0..5000 {
            let mut text = String::new();
            for _ in 0..1 + pick(6) {
                text.push_str(QUOTES[pick(QUOTES.len())]);
                for _ in 0..1 + pick(5) {
                    text.push_str(PIECES[pick(PIECES.len())]);
                }
                text.push_str(ENDS[pick(ENDS.len())]);
            }
            let mut pieces = Vec::new();
            paragraphs(&mut trickle(&text), NO_LIMIT, |p, _| {
                pieces.extend(found(std::str::from_utf8(p.bytes).unwrap(), p.offset as usize));
                Ok(())
            })
            .unwrap();
            assert_eq!(pieces, found(&text, 0), "{text:?}");
        }
    }

    /// Around the bound of a wrapper (blank lines, spaces, quote marks),
    /// the paragraphs find what the whole text holds.
    #[test]
    fn cutting_into_paragraphs_agrees_with_the_whole_text_at_the_bound() {
        let finder = Finder::new();
        let found = |text: &str, offset: usize| -> Vec<(usize, usize, String)> {
            finder
                .find_iter(text)
                .map(|m| (offset + m.start(), offset + m.end(), m.as_str().to_owned()))
                .collect()
        };
        for (head, unit, tail) in [
            ("x <URL:h:a\n", "\n", "b> http://c.dom/\n"),
            ("x <URL:h:a", " ", "b>\n\nhttp://c.dom/\n"),
            ("> x <URL:h:a\n", ">\n", "> b>\n"),
            ("<URL:h:a\r\n", "\r\n", ">\r\n"),
        ] {
            for extra in 0..8 {
                let n = (MAX_WRAPPER - head.len() - tail.len()) / unit.len() + extra - 4;
                let text = format!("{head}{}{tail}", unit.repeat(n));
                let mut pieces = Vec::new();
                paragraphs(&mut trickle(&text), NO_LIMIT, |p, _| {
                    pieces.extend(found(std::str::from_utf8(p.bytes).unwrap(), p.offset as usize));
                    Ok(())
                })
                .unwrap();
                assert_eq!(pieces, found(&text, 0), "{head:?} {unit:?} {n}");
            }
        }
    }

    #[test]
    fn position_counts_lines_and_bytes() {
        let b = "a\nbé-c\nd".as_bytes();
        let mut p = Position { line: 7, column: 1, offset: 0 };
        let got = [p.advance(b, 0), p.advance(b, 2), p.advance(b, 6), p.advance(b, 6)];
        assert_eq!(got, [(7, 1), (8, 1), (8, 5), (8, 5)]);
        assert_eq!(p.advance(b, 8), (9, 1));
    }
}

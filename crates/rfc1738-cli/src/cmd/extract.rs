//! `rfc1738 extract [FILE...]`: find the URLs in free text (mail, news,
//! documents, logs), as the RFC's Appendix describes, one per line.
//!
//! The input is read a paragraph at a time: a wrapped URL never crosses a
//! blank line and a bare one never crosses a line break, so the URLs found
//! are the same as in the whole text, and memory stays bounded by the
//! longest paragraph. A paragraph longer than [`MAX_PARAGRAPH`] is cut at a
//! line break; only a wrapper open across that cut is lost (the URL inside
//! it is then found bare, up to the end of its line).

use super::report_at;
use crate::outcome::Problem;
use crate::status;
use rfc1738::extract::{Finder, Match};
use serde_json::json;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};

/// The longest paragraph searched in one piece, in bytes.
pub const MAX_PARAGRAPH: usize = 8 << 20;

/// Arguments of `extract`.
#[derive(clap::Args)]
pub struct ExtractArgs {
    /// Write one JSON object per URL found
    /// (`{url, start, end, form, hyphen_break, valid, scheme, error, file, line}`).
    #[arg(long)]
    json: bool,
    /// Only URLs written inside `<URL:...>` or `<scheme:...>`.
    #[arg(long)]
    wrapped_only: bool,
    /// Files of text; `-` or none for stdin.
    files: Vec<String>,
}

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
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut err = anstream::AutoStream::auto(io::stderr().lock());
    let mut tally = Tally::default();
    for file in &files {
        let reader: Box<dyn BufRead> = if file == "-" {
            Box::new(BufReader::with_capacity(1 << 16, io::stdin().lock()))
        } else {
            let f = File::open(file).map_err(|e| io::Error::new(e.kind(), format!("{file}: {e}")))?;
            Box::new(BufReader::with_capacity(1 << 16, f))
        };
        let mut sink = Sink { args, file, out: &mut out, err: &mut err, tally: &mut tally };
        paragraphs(reader, |p| sink.paragraph(&finder, p))
            .map_err(|e| io::Error::new(e.kind(), format!("{file}: {e}")))?;
    }
    out.flush()?;
    Ok(if tally.invalid == 0 { status::OK } else { status::INVALID })
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
}

/// Calls `each` on the input cut into paragraphs: each ends after a blank
/// line (one holding only spaces and tabs), at the end of the input, or at
/// the first line break past [`MAX_PARAGRAPH`] bytes.
pub fn paragraphs(
    mut reader: impl BufRead,
    mut each: impl FnMut(Paragraph<'_>) -> io::Result<()>,
) -> io::Result<()> {
    let mut buf = Vec::new();
    let (mut offset, mut line, mut lines_in_buf) = (0u64, 1u64, 0u64);
    loop {
        let start = buf.len();
        let n = reader.read_until(b'\n', &mut buf)?;
        let this = &buf[start..];
        let blank = this.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'));
        if n > 0 {
            lines_in_buf += u64::from(this.ends_with(b"\n"));
        }
        if (n == 0 || blank || buf.len() > MAX_PARAGRAPH) && !buf.is_empty() {
            each(Paragraph { bytes: &buf, offset, line })?;
            offset += buf.len() as u64;
            line += lines_in_buf;
            lines_in_buf = 0;
            buf.clear();
        }
        if n == 0 {
            return Ok(());
        }
    }
}

/// Where the URLs of one file go.
struct Sink<'a, O: Write, E: Write> {
    args: &'a ExtractArgs,
    file: &'a str,
    out: &'a mut O,
    err: &'a mut E,
    tally: &'a mut Tally,
}

impl<O: Write, E: Write> Sink<'_, O, E> {
    /// Finds and writes the URLs of one paragraph. Octets that are not UTF-8
    /// end a URL as any non-ASCII text does, so each UTF-8 run of the
    /// paragraph is searched on its own.
    fn paragraph(&mut self, finder: &Finder, p: Paragraph<'_>) -> io::Result<()> {
        let mut at = 0usize;
        let mut pos = Position { line: p.line, column: 1, offset: 0 };
        for chunk in p.bytes.utf8_chunks() {
            let text = chunk.valid();
            for m in finder.find_iter(text) {
                let (line, _) = pos.advance(p.bytes, at + m.start());
                let verdict = m.validate().map_err(Problem::from);
                let span = (p.offset + (at + m.start()) as u64, p.offset + (at + m.end()) as u64);
                self.url(&m, span, line, &verdict)?;
                if let Err(problem) = verdict {
                    let here = pos.advance(p.bytes, at + m.text_offset(problem.offset));
                    self.diagnose(&m, here, &problem)?;
                }
            }
            at += text.len() + chunk.invalid().len();
        }
        Ok(())
    }

    /// Writes the URL: alone on its line, or as a JSON object.
    fn url(
        &mut self,
        m: &Match<'_>,
        span: (u64, u64),
        line: u64,
        verdict: &Result<(), Problem>,
    ) -> io::Result<()> {
        if !self.args.json {
            return writeln!(self.out, "{m}");
        }
        let error = verdict
            .as_ref()
            .err()
            .map(|p| json!({"offset": p.offset, "kind": p.kind, "rule": p.rule, "message": p.message}));
        let obj = json!({
            "url": m.as_str(),
            "start": span.0,
            "end": span.1,
            "form": m.form().as_str(),
            "hyphen_break": m.alternative(),
            "valid": verdict.is_ok(),
            "scheme": m.scheme().to_ascii_lowercase(),
            "error": error,
            "file": self.file,
            "line": line,
        });
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
        let name = if self.file == "-" { "<stdin>" } else { self.file };
        report_at(
            self.err,
            &format!("rfc1738: {name}:{line}:{column}: invalid URL"),
            m.as_str().as_bytes(),
            p,
        )
    }
}

/// The line and column (1-based, in characters) of increasing offsets in
/// one paragraph, found in linear time.
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
            } else if b & 0xC0 != 0x80 {
                // Not a UTF-8 continuation byte: a character starts here.
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

    fn cut(input: &str) -> Vec<(String, u64, u64)> {
        let mut v = Vec::new();
        paragraphs(input.as_bytes(), |p| {
            v.push((String::from_utf8_lossy(p.bytes).into_owned(), p.offset, p.line));
            Ok(())
        })
        .unwrap();
        v
    }

    #[test]
    fn paragraphs_end_after_blank_lines() {
        assert_eq!(
            cut("a\nb\n\nc\n \t\r\nd"),
            [("a\nb\n\n".into(), 0, 1), ("c\n \t\r\n".into(), 5, 4), ("d".into(), 11, 6)]
        );
        assert_eq!(cut(""), []);
        assert_eq!(cut("\n\n"), [("\n".into(), 0, 1), ("\n".into(), 1, 2)]);
    }

    #[test]
    fn position_counts_lines_and_characters() {
        let b = "a\nbé-c\nd".as_bytes();
        let mut p = Position { line: 7, column: 1, offset: 0 };
        let got = [p.advance(b, 0), p.advance(b, 2), p.advance(b, 6), p.advance(b, 6)];
        assert_eq!(got, [(7, 1), (8, 1), (8, 4), (8, 4)]);
        assert_eq!(p.advance(b, 8), (9, 1));
    }
}

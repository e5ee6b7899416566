//! A log file as a table: a row per line, a typed column per field, the
//! rows of the SQL table function `rfc1738_log(path, format, lenient)`
//! (the DuckDB extension) and of the Python package's `read_log`
//! (DuckDB, Polars, DataFusion). One definition of the columns for every
//! engine; each row holds what `check --json` says of the line.
//!
//! ```text
//! file line input valid scheme client ident user time time_iso timestamp
//! method target protocol status bytes referer referer_valid referer_scheme
//! referer_error_offset referer_error_kind referer_error_rule
//! referer_error_message user_agent error_offset error_kind error_rule
//! error_message warnings  [the format's other fields: %D, $request_time...]
//! ```
//!
//! A format is `clf` (the command's default reading, `--input-format
//! clf`), a preset or a format string (`--log-format`); `lenient` as
//! `--lenient`. Empty lines are skipped, as the command skips them; the
//! line numbers count them.

use crate::clf::{self, unescape, Fields, Record, NO_SCHEME};
use crate::logfields::{Kind, Value};
use crate::logformat::{FormatError, LogFormat};
use crate::logtime::LogTime;
use crate::outcome::Problem;
use std::borrow::Cow;

/// The type of a column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    /// Text (SQL `VARCHAR`, Arrow `string`).
    Text,
    /// A 32-bit integer (`INTEGER`): the status.
    Integer,
    /// A 64-bit integer (`BIGINT`).
    Bigint,
    /// A decimal number (`DOUBLE`).
    Double,
    /// `BOOLEAN`.
    Boolean,
    /// An instant (`TIMESTAMPTZ`), as microseconds since the epoch, UTC.
    TimestampTz,
}

impl Type {
    /// The column type of a format's other field of `kind`.
    #[must_use]
    pub fn of(kind: Kind) -> Type {
        match kind {
            Kind::Integer => Type::Bigint,
            Kind::Number => Type::Double,
            Kind::Text => Type::Text,
        }
    }
}

impl<'a> From<Value<'a>> for Cell<'a> {
    fn from(v: Value<'a>) -> Cell<'a> {
        match v {
            Value::Null => Cell::Null,
            Value::Integer(n) => Cell::Int(n),
            Value::Number(n) => Cell::Float(n),
            Value::Text(t) => Cell::Text(t),
        }
    }
}

/// A column: its name and type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    /// The name, as `check --json` names the value.
    pub name: String,
    /// Its type.
    pub ty: Type,
}

/// A value of a row.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell<'a> {
    /// NULL.
    Null,
    /// Text.
    Text(Cow<'a, str>),
    /// An integer (INTEGER or BIGINT).
    Int(i64),
    /// A decimal number.
    Float(f64),
    /// A boolean.
    Bool(bool),
    /// An instant: microseconds since the epoch, UTC.
    Micros(i64),
}

/// The columns every format has, in order.
const FIXED: &[(&str, Type)] = &[
    ("file", Type::Text),
    ("line", Type::Bigint),
    ("input", Type::Text),
    ("valid", Type::Boolean),
    ("scheme", Type::Text),
    ("client", Type::Text),
    ("ident", Type::Text),
    ("user", Type::Text),
    ("time", Type::Text),
    ("time_iso", Type::Text),
    ("timestamp", Type::TimestampTz),
    ("method", Type::Text),
    ("target", Type::Text),
    ("protocol", Type::Text),
    ("status", Type::Integer),
    ("bytes", Type::Bigint),
    ("referer", Type::Text),
    ("referer_valid", Type::Boolean),
    ("referer_scheme", Type::Text),
    ("referer_error_offset", Type::Bigint),
    ("referer_error_kind", Type::Text),
    ("referer_error_rule", Type::Text),
    ("referer_error_message", Type::Text),
    ("user_agent", Type::Text),
    ("error_offset", Type::Bigint),
    ("error_kind", Type::Text),
    ("error_rule", Type::Text),
    ("error_message", Type::Text),
    ("warnings", Type::Bigint),
];

/// The longest line read, in bytes: the command's `--max-len` default.
/// A longer one is a row of its own, `too-long`, its text not kept.
pub const MAX_LINE: usize = 1 << 20;

/// A line of a log: its text, or its length when longer than
/// [`MAX_LINE`].
pub type Line<'a> = Result<&'a [u8], u64>;

/// How a log is read into rows: its format, strict or lenient, and the
/// columns that makes.
#[derive(Clone, Debug)]
pub struct LogTable {
    format: Option<LogFormat>,
    lenient: bool,
    columns: Vec<Column>,
}

impl LogTable {
    /// A table of the log format `format` (`clf`, a preset, or a format
    /// string, as `--log-format` reads it), checked strictly or leniently.
    ///
    /// # Errors
    /// A format `--log-format` refuses (an unknown directive, a misspelt
    /// preset), with its message.
    pub fn new(format: &str, lenient: bool) -> Result<LogTable, FormatError> {
        let format = if format.eq_ignore_ascii_case("clf") { None } else { Some(LogFormat::parse(format)?) };
        let mut columns: Vec<Column> =
            FIXED.iter().map(|(name, ty)| Column { name: (*name).to_string(), ty: *ty }).collect();
        for e in format.iter().flat_map(LogFormat::extras) {
            columns.push(Column { name: e.name.clone(), ty: Type::of(e.kind) });
        }
        Ok(LogTable { format, lenient, columns })
    }

    /// The columns, in order: the fixed ones, then the format's other
    /// fields.
    #[must_use]
    pub fn columns(&self) -> &[Column] {
        &self.columns
    }

    /// The rows of `lines` (each with its line number, from 1; empty
    /// lines already left out), in order, each given to `each`: strict
    /// checks in bulk ([`clf::check_lines`]), lenient ones line by line.
    pub fn rows<'a>(&self, file: &'a str, lines: &[(u64, &'a [u8])], mut each: impl FnMut(Vec<Cell<'a>>)) {
        let mut k = 0;
        let mut row = |line: &'a [u8], r: Record<'a>| {
            let no = lines[k].0;
            k += 1;
            each(self.row(file, no, line, &r));
        };
        let texts = lines.iter().map(|(_, l)| *l);
        match (&self.format, self.lenient) {
            (Some(f), false) => f.check_lines(texts, Fields::BOTH, row),
            (None, false) => clf::check_lines(texts, Fields::BOTH, row),
            (Some(f), true) => texts.for_each(|l| row(l, f.record(l, true, Fields::BOTH))),
            (None, true) => texts.for_each(|l| row(l, clf::record_with(l, true, Fields::BOTH))),
        }
    }

    /// The rows of a batch's lines ([`read::Batch::lines`]): a line's
    /// row as [`LogTable::rows`] gives it, a line longer than
    /// [`MAX_LINE`] the row `check --json` gives it (`too-long`, every
    /// field null), in order.
    pub fn rows_of<'a>(&self, file: &'a str, lines: &[(u64, Line<'a>)], mut each: impl FnMut(Vec<Cell<'a>>)) {
        let texts: Vec<(u64, &'a [u8])> =
            lines.iter().filter_map(|&(no, l)| l.ok().map(|t| (no, t))).collect();
        let mut at = 0;
        let long = |at: &mut usize, each: &mut dyn FnMut(Vec<Cell<'a>>)| {
            while let Some(&(no, Err(len))) = lines.get(*at) {
                each(self.too_long(file, no, len));
                *at += 1;
            }
        };
        self.rows(file, &texts, |cells| {
            long(&mut at, &mut each);
            at += 1;
            each(cells);
        });
        long(&mut at, &mut each);
    }

    /// The row of a line longer than [`MAX_LINE`]: `check --json`'s
    /// record of a line past `--max-len`.
    fn too_long<'a>(&self, file: &'a str, no: u64, len: u64) -> Vec<Cell<'a>> {
        let p = Problem::too_long(len, MAX_LINE);
        self.columns
            .iter()
            .map(|c| match c.name.as_str() {
                "file" => Cell::Text(Cow::Borrowed(file)),
                "line" => Cell::Int(no as i64),
                "input" => Cell::Text(Cow::Borrowed("")),
                "valid" => Cell::Bool(false),
                "error_offset" => Cell::Int(p.offset as i64),
                "error_kind" => Cell::Text(Cow::Borrowed(p.kind)),
                "error_rule" => Cell::Text(Cow::Borrowed(p.rule)),
                "error_message" => Cell::Text(Cow::Owned(p.message.to_string())),
                "warnings" => Cell::Int(0),
                _ => Cell::Null,
            })
            .collect()
    }

    /// One line's row.
    fn row<'a>(&self, file: &'a str, no: u64, line: &'a [u8], r: &Record<'a>) -> Vec<Cell<'a>> {
        let text = |b: Option<&'a [u8]>| b.map_or(Cell::Null, |b| Cell::Text(String::from_utf8_lossy(b)));
        let owned = |s: Option<&str>| s.map_or(Cell::Null, |s| Cell::Text(Cow::Owned(s.to_string())));
        let problem = |p: Option<&Problem>| -> [Cell<'a>; 4] {
            match p {
                Some(p) => [
                    Cell::Int(p.offset as i64),
                    Cell::Text(Cow::Owned(p.kind.to_string())),
                    Cell::Text(Cow::Owned(p.rule.to_string())),
                    Cell::Text(Cow::Owned(p.message.to_string())),
                ],
                None => [Cell::Null, Cell::Null, Cell::Null, Cell::Null],
            }
        };
        let req = r.request.as_ref().ok();
        let a = &r.around;
        let time = a.time.and_then(LogTime::clf);
        let f = r.referer.as_ref();
        let mut row = Vec::with_capacity(self.columns.len());
        row.extend([
            Cell::Text(Cow::Borrowed(file)),
            Cell::Int(no as i64),
            text(Some(line)),
            Cell::Bool(r.verdict.is_ok()),
            owned(Some(r.row())),
            text(a.client),
            text(a.ident),
            text(a.user),
            text(a.time),
            time.map_or(Cell::Null, |t| Cell::Text(Cow::Owned(t.to_string()))),
            time.map_or(Cell::Null, |t| Cell::Micros(t.unix().saturating_mul(1_000_000))),
            text(req.map(|q| q.method)),
            text(req.map(|q| q.target)),
            text(req.and_then(|q| q.protocol)),
            a.status.map_or(Cell::Null, |s| Cell::Int(i64::from(s))),
            a.bytes.and_then(|b| i64::try_from(b).ok()).map_or(Cell::Null, Cell::Int),
            text(f.map(|f| f.text)),
            f.map_or(Cell::Null, |f| Cell::Bool(f.verdict.is_ok())),
            owned(f.map(|f| f.scheme.as_deref().unwrap_or(NO_SCHEME))),
        ]);
        row.extend(problem(f.and_then(|f| f.verdict.as_ref().err())));
        row.push(a.agent.map_or(Cell::Null, |u| Cell::Text(Cow::Owned(unescape(u)))));
        row.extend(problem(r.verdict.as_ref().err()));
        row.push(Cell::Int(r.warnings.len() as i64));
        if let Some(format) = &self.format {
            row.extend(format.extra_values(line).into_iter().map(Cell::from));
        }
        row
    }
}

/// The lines of a log file, compressed or not, a batch at a time (with
/// the feature `inflate`).
#[cfg(feature = "inflate")]
pub mod read {
    use super::{Line, MAX_LINE};
    use crate::compression::{inflate, sniff, MAGIC};
    use std::fs::File;
    use std::io::{self, BufRead, BufReader};
    use std::path::Path;

    /// A log file's lines, read as the command reads them: compressed
    /// text (gzip, zstd, bzip2, xz, told by its first bytes) inflated, a
    /// byte-order mark dropped, a `\r` before the `\n` not part of the
    /// line, empty lines skipped (and counted in the line numbers).
    pub struct LogLines {
        input: Box<dyn BufRead + Send>,
        line: u64,
        first: bool,
        done: bool,
    }

    /// A batch of lines: their text end to end, and each line's number
    /// and place (or its length, for a line longer than [`MAX_LINE`]).
    #[derive(Default)]
    pub struct Batch {
        text: Vec<u8>,
        lines: Vec<(u64, Place)>,
    }

    /// Where a line's text is in a batch's, or its length when not kept.
    type Place = Result<(usize, usize), u64>;

    impl Batch {
        /// Each line's number (from 1) and text, or its length in bytes
        /// when longer than [`MAX_LINE`] (its text is not kept).
        #[must_use]
        pub fn lines(&self) -> Vec<(u64, Line<'_>)> {
            self.lines.iter().map(|&(no, at)| (no, at.map(|(from, to)| &self.text[from..to]))).collect()
        }

        /// How many lines the batch holds.
        #[must_use]
        pub fn len(&self) -> usize {
            self.lines.len()
        }

        /// Whether it holds none.
        #[must_use]
        pub fn is_empty(&self) -> bool {
            self.lines.is_empty()
        }
    }

    impl LogLines {
        /// The lines of the file at `path`.
        ///
        /// # Errors
        /// The file cannot be opened or read, or its compression's header
        /// is refused.
        pub fn open(path: &Path) -> io::Result<LogLines> {
            let mut file = BufReader::with_capacity(1 << 16, File::open(path)?);
            let head = file.fill_buf()?;
            let format = sniff(&head[..head.len().min(MAGIC)], false).ok().flatten();
            let input: Box<dyn BufRead + Send> = match format {
                Some(format) => Box::new(BufReader::with_capacity(1 << 16, inflate(format, file)?)),
                None => Box::new(file),
            };
            Ok(LogLines { input, line: 0, first: true, done: false })
        }

        /// The next batch of at most `max` lines that are not empty;
        /// empty at the end.
        ///
        /// # Errors
        /// A read error, or a compressed stream's fault (its format and
        /// compressed byte named); the lines before it were given.
        pub fn next_batch(&mut self, max: usize, batch: &mut Batch) -> io::Result<()> {
            batch.text.clear();
            batch.lines.clear();
            while !self.done && batch.lines.len() < max {
                let from = batch.text.len();
                let Some(len) = self.read_line(&mut batch.text)? else {
                    self.done = true;
                    break;
                };
                self.line += 1;
                let first = std::mem::take(&mut self.first);
                if len > MAX_LINE as u64 {
                    // Not kept: a line of gigabytes costs no memory.
                    batch.text.truncate(from);
                    batch.lines.push((self.line, Err(len)));
                    continue;
                }
                let to = from + len as usize;
                let mut start = from;
                if first && batch.text[from..to].starts_with(b"\xef\xbb\xbf") {
                    start += 3;
                }
                if to > start {
                    batch.lines.push((self.line, Ok((start, to))));
                } else {
                    batch.text.truncate(from);
                }
            }
            Ok(())
        }

        /// Reads one line onto `text` (its bytes kept while it is at most
        /// [`MAX_LINE`] and its `\r\n` or `\n` long), and returns its
        /// length without the line end; `None` at the end of the input.
        fn read_line(&mut self, text: &mut Vec<u8>) -> io::Result<Option<u64>> {
            let start = text.len();
            // Bytes of the line so far, its line end included, and its
            // last two (for a `\r` before the `\n` of a line not kept).
            let (mut len, mut last) = (0u64, [0u8; 2]);
            loop {
                let buf = self.input.fill_buf()?;
                if buf.is_empty() {
                    if len == 0 {
                        return Ok(None);
                    }
                    break;
                }
                let (n, end) = match memchr::memchr(b'\n', buf) {
                    Some(i) => (i + 1, true),
                    None => (buf.len(), false),
                };
                if len + n as u64 <= MAX_LINE as u64 + 2 {
                    text.extend_from_slice(&buf[..n]);
                }
                last = match n {
                    1 => [last[1], buf[0]],
                    _ => [buf[n - 2], buf[n - 1]],
                };
                len += n as u64;
                self.input.consume(n);
                if end {
                    break;
                }
            }
            let end = match last {
                [b'\r', b'\n'] => 2,
                [_, b'\n'] => 1,
                _ => 0,
            };
            let line = len - end;
            if line <= MAX_LINE as u64 {
                text.truncate(start + line as usize);
            }
            Ok(Some(line))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value as Json};

    fn cell_json(c: &Cell<'_>) -> Json {
        match c {
            Cell::Null => Json::Null,
            Cell::Text(t) => json!(t),
            Cell::Int(n) => json!(n),
            Cell::Float(n) => json!(n),
            Cell::Bool(b) => json!(b),
            Cell::Micros(m) => json!(m),
        }
    }

    const LOG: &str = include_str!("../../../docs/examples/sample.log");

    /// Each row holds, column by column, what the record's JSON says of
    /// the line (`check --json`), strict and lenient.
    #[test]
    fn each_row_is_the_record_of_its_line() {
        for (format, lenient) in [("clf", false), ("clf", true), ("combined", false), ("Combined", true)] {
            let table = LogTable::new(format, lenient).unwrap();
            let lines: Vec<(u64, &[u8])> = LOG
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.is_empty())
                .map(|(k, l)| (k as u64 + 1, l.as_bytes()))
                .collect();
            let mut n = 0;
            table.rows("sample.log", &lines, |row| {
                let (no, line) = lines[n];
                n += 1;
                let record = match LogFormat::parse(format) {
                    Ok(f) if format != "clf" => f.record(line, lenient, Fields::BOTH),
                    _ => clf::record_with(line, lenient, Fields::BOTH),
                };
                let want = record.to_json();
                assert_eq!(row.len(), table.columns().len());
                for (c, v) in table.columns().iter().zip(&row) {
                    let got = cell_json(v);
                    let name = c.name.as_str();
                    let expected = match name {
                        "file" => json!("sample.log"),
                        "line" => json!(no),
                        "input" => json!(String::from_utf8_lossy(line)),
                        "timestamp" => {
                            json!(record.around.time.and_then(LogTime::clf).map(|t| t.unix() * 1_000_000))
                        }
                        "warnings" => json!(want["warnings"].as_array().unwrap().len()),
                        _ => {
                            match name.strip_prefix("referer_error_").or_else(|| name.strip_prefix("error_"))
                            {
                                Some(key) => {
                                    let obj = if name.starts_with("referer") {
                                        &want["referer_error"]
                                    } else {
                                        &want["error"]
                                    };
                                    obj.get(key).cloned().unwrap_or(Json::Null)
                                }
                                None => want[name].clone(),
                            }
                        }
                    };
                    assert_eq!(got, expected, "{format} lenient={lenient} line {no} column {name}");
                }
            });
            assert_eq!(n, lines.len());
        }
    }

    #[test]
    fn the_other_fields_are_columns_after_the_fixed_ones() {
        let table = LogTable::new(r#"%h %l %u %t "%r" %>s %b %D "%{X-Forwarded-For}i""#, false).unwrap();
        let names: Vec<&str> = table.columns().iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names[names.len() - 2..], ["request_time_us", "http_x_forwarded_for"]);
        let line: &[u8] = br#"h - - [10/Oct/2000:13:55:36 -0700] "GET /a HTTP/1.0" 200 1 17 "-""#;
        let mut rows = Vec::new();
        table.rows("f", &[(1, line)], |r| rows.push(r));
        assert_eq!(rows[0][rows[0].len() - 2..], [Cell::Int(17), Cell::Null]);
        let e = LogTable::new("combind", false).unwrap_err();
        assert!(e.to_string().contains("the presets"), "{e}");
    }

    #[cfg(feature = "inflate")]
    #[test]
    fn a_file_is_read_as_its_lines_compressed_or_not() {
        use std::io::Write;
        let dir = std::env::temp_dir().join(format!("rfc1738-logtable-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let plain = dir.join("a.log");
        std::fs::write(&plain, b"\xef\xbb\xbfone\r\n\ntwo\nthree").unwrap();
        let gz = dir.join("a.log.gz");
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(b"\xef\xbb\xbfone\r\n\ntwo\nthree").unwrap();
        std::fs::write(&gz, e.finish().unwrap()).unwrap();
        for path in [&plain, &gz] {
            let mut lines = read::LogLines::open(path).unwrap();
            let mut batch = read::Batch::default();
            lines.next_batch(2, &mut batch).unwrap();
            assert_eq!(batch.lines(), [(1, Ok(&b"one"[..])), (3, Ok(&b"two"[..]))]);
            lines.next_batch(2, &mut batch).unwrap();
            assert_eq!(batch.lines(), [(4, Ok(&b"three"[..]))]);
            lines.next_batch(2, &mut batch).unwrap();
            assert!(batch.is_empty());
        }
        // A line longer than MAX_LINE: its length, not its text; the lines
        // around it as they are, `\r\n` or not.
        let long = dir.join("long.log");
        let mut text = b"a\r\n".to_vec();
        text.extend(std::iter::repeat_n(b'x', MAX_LINE + 1));
        text.extend_from_slice(b"\r\n");
        text.extend(std::iter::repeat_n(b'y', MAX_LINE));
        text.extend_from_slice(b"\nb");
        std::fs::write(&long, &text).unwrap();
        let mut lines = read::LogLines::open(&long).unwrap();
        let mut batch = read::Batch::default();
        lines.next_batch(10, &mut batch).unwrap();
        let got = batch.lines();
        assert_eq!(got.len(), 4);
        assert_eq!(
            (got[0], got[1], got[3]),
            ((1, Ok(&b"a"[..])), (2, Err(MAX_LINE as u64 + 1)), (4, Ok(&b"b"[..])))
        );
        assert_eq!(got[2].1.map(<[u8]>::len), Ok(MAX_LINE));
        let table = LogTable::new("combined", false).unwrap();
        let mut rows = Vec::new();
        table.rows_of("long.log", &got, |r| rows.push(r));
        assert_eq!(rows.len(), 4);
        assert_eq!((&rows[1][1], &rows[1][3]), (&Cell::Int(2), &Cell::Bool(false)));
        let kind = table.columns().iter().position(|c| c.name == "error_kind").unwrap();
        assert_eq!(rows[1][kind], Cell::Text("too-long".into()));
        assert_eq!(rows[3][1], Cell::Int(4));
        let e = read::LogLines::open(&dir.join("missing.log")).err().unwrap();
        assert_eq!(e.kind(), std::io::ErrorKind::NotFound);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

//! Common Log Format lines as a column: the request URL of each line, and
//! each line checked as `rfc1738 check --format clf` checks it.

use crate::arrow::{each_value, map_column, to_pyarrow};
use arrow_array::builder::{BinaryBuilder, BooleanBuilder, Int64Builder, StringBuilder};
use arrow_array::{Array, ArrayRef, StructArray};
use arrow_buffer::NullBuffer;
use arrow_schema::{DataType, Field, Fields};
use pyo3::prelude::*;
use rfc1738_report::clf::check_lines;
use rfc1738_report::outcome::Problem;
use rfc1738_report::sql;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn url_kernel(a: &dyn Array) -> Result<ArrayRef, String> {
    let mut out = StringBuilder::new();
    each_value(a, |v| out.append_option(v.and_then(sql::clf_url)))?;
    Ok(Arc::new(out.finish()))
}

fn check_kernel(a: &dyn Array) -> Result<ArrayRef, String> {
    let n = a.len();
    let text = |bytes| StringBuilder::with_capacity(n, bytes);
    let (mut valid, mut url, mut scheme_col) = (BooleanBuilder::with_capacity(n), text(n * 48), text(n * 5));
    let (mut offset, mut kind, mut rule, mut message) =
        (Int64Builder::with_capacity(n), text(0), text(0), text(0));
    let mut rows = Vec::with_capacity(a.len());
    let mut values = Vec::with_capacity(a.len());
    each_value(a, |v| values.push(v))?;
    // The lines' verdicts in bulk, in order; a null row takes none.
    let mut verdicts = Vec::with_capacity(a.len());
    check_lines(values.iter().flatten().copied(), |_, verdict, scheme| verdicts.push((verdict, scheme)));
    let mut verdicts = verdicts.into_iter();
    for v in values {
        rows.push(v.is_some());
        let Some(line) = v else {
            valid.append_null();
            url.append_null();
            scheme_col.append_null();
            offset.append_null();
            kind.append_null();
            rule.append_null();
            message.append_null();
            continue;
        };
        let (verdict, line_scheme) = verdicts.next().expect("a verdict per line");
        valid.append_value(verdict.is_ok());
        url.append_option(sql::clf_url(line));
        scheme_col.append_option(line_scheme);
        let p = verdict.err();
        offset.append_option(p.as_ref().map(|p| p.offset as i64));
        kind.append_option(p.as_ref().map(|p| p.kind));
        rule.append_option(p.as_ref().map(|p| p.rule));
        message.append_option(p.as_ref().map(|p| p.message.as_ref()));
    }
    let s = |n: &str| Field::new(n, DataType::Utf8, true);
    let fields: Fields = vec![
        Field::new("valid", DataType::Boolean, true),
        s("url"),
        s("scheme"),
        Field::new("error_offset", DataType::Int64, true),
        s("error_kind"),
        s("error_rule"),
        s("error_message"),
    ]
    .into();
    let columns: Vec<ArrayRef> = vec![
        Arc::new(valid.finish()),
        Arc::new(url.finish()),
        Arc::new(scheme_col.finish()),
        Arc::new(offset.finish()),
        Arc::new(kind.finish()),
        Arc::new(rule.finish()),
        Arc::new(message.finish()),
    ];
    let out =
        StructArray::try_new(fields, columns, Some(NullBuffer::from(rows))).map_err(|e| e.to_string())?;
    Ok(Arc::new(out))
}

/// The lines of a file's bytes as the command reads them (a byte-order
/// mark first dropped, a `\r` before the `\n` not part of the line), as
/// one Arrow binary column: no Python object per line.
#[pyfunction]
fn lines(py: Python<'_>, data: &[u8]) -> PyResult<Py<PyAny>> {
    let mut out = BinaryBuilder::with_capacity(data.len() / 64 + 1, data.len());
    log_lines(data).for_each(|line| out.append_value(line));
    let array: ArrayRef = Arc::new(out.finish());
    Ok(to_pyarrow(py, array)?.unbind())
}

/// The lines of a file's bytes, read as the command reads them.
fn log_lines(data: &[u8]) -> impl Iterator<Item = &[u8]> {
    let data = data.strip_prefix(b"\xef\xbb\xbf").unwrap_or(data);
    let body = data.strip_suffix(b"\n").unwrap_or(data);
    split_lines(body).take(if data.is_empty() { 0 } else { usize::MAX })
}

/// The pieces of `body` between its `\n`s (as `split` gives them), each
/// without a `\r` before its `\n`; the line ends found by `memchr`.
fn split_lines(body: &[u8]) -> impl Iterator<Item = &[u8]> {
    let ends = memchr::memchr_iter(b'\n', body).chain([body.len()]);
    let mut start = 0;
    ends.map(move |end| {
        let line = &body[start..end];
        start = end + 1;
        line.strip_suffix(b"\r").unwrap_or(line)
    })
}

/// A whole log checked in one pass, as ``rfc1738 check --format clf``
/// checks it: ``(lines, counts, invalid)``. ``counts`` holds
/// ``(scheme, valid, invalid)`` per request scheme (``None`` where a line
/// has none), in name order; ``invalid`` is a struct array of the invalid
/// lines only: ``{line, input, offset, kind, rule, message}`` (``line``
/// from 1, ``input`` decoded with U+FFFD for bad UTF-8, offsets in the
/// line). No line is copied unless it is invalid.
#[pyfunction]
fn clf_check_log(py: Python<'_>, data: &[u8]) -> PyResult<(usize, Vec<CountRow>, Py<PyAny>)> {
    let (n, counts, invalid) = py.detach(|| {
        let mut log = LogCheck::default();
        log.lines(log_lines(data));
        log.finish()
    });
    Ok((n, counts, to_pyarrow(py, invalid)?.unbind()))
}

/// [`clf_check_log`] of the file at ``path``, read here a block at a time
/// without the lock (as the command reads it): the file is never one
/// Python object.
#[pyfunction]
fn clf_check_file(py: Python<'_>, path: PathBuf) -> PyResult<(usize, Vec<CountRow>, Py<PyAny>)> {
    let (n, counts, invalid) = py.detach(|| check_file(&path))?;
    Ok((n, counts, to_pyarrow(py, invalid)?.unbind()))
}

fn check_file(path: &Path) -> std::io::Result<(usize, Vec<CountRow>, ArrayRef)> {
    let mut file = File::open(path)?;
    let mut log = LogCheck::default();
    let mut buf = vec![0u8; 1 << 20];
    // The first three bytes (fewer in a shorter file): a byte-order mark
    // is dropped, as `log_lines` drops it.
    let mut filled = 0;
    while filled < 3 {
        match file.read(&mut buf[filled..])? {
            0 => break,
            read => filled += read,
        }
    }
    // `buf[start..filled]`: bytes read and not yet checked.
    let mut start = if buf[..filled].starts_with(b"\xef\xbb\xbf") { 3 } else { 0 };
    loop {
        if let Some(last) = memchr::memrchr(b'\n', &buf[start..filled]) {
            let whole = start + last;
            log.lines(split_lines(&buf[start..whole]));
            start = whole + 1;
        }
        // What is left is the start of one line.
        buf.copy_within(start..filled, 0);
        filled -= start;
        start = 0;
        if filled == buf.len() {
            buf.resize(buf.len() * 2, 0);
        }
        let read = file.read(&mut buf[filled..])?;
        if read == 0 {
            // The last line, without its newline; a file that ends with
            // one has none.
            if filled > 0 {
                let line = &buf[..filled];
                log.lines([line.strip_suffix(b"\r").unwrap_or(line)]);
            }
            return Ok(log.finish());
        }
        filled += read;
    }
}

/// One scheme's counts: its name (none for a line without a request URL),
/// valid lines, invalid lines.
type CountRow = (Option<String>, u64, u64);

/// A log checked line by line: the counts by scheme, the invalid lines.
#[derive(Default)]
struct LogCheck {
    lines: usize,
    counts: Vec<CountRow>,
    line_no: Int64Builder,
    input: StringBuilder,
    offset: Int64Builder,
    kind: StringBuilder,
    rule: StringBuilder,
    message: StringBuilder,
}

impl LogCheck {
    /// Checks `lines`, the request URLs in bulk (`clf::check_lines`).
    fn lines<'a>(&mut self, lines: impl IntoIterator<Item = &'a [u8]>) {
        check_lines(lines, |line, verdict, scheme| self.line(line, verdict, scheme.as_deref()));
    }

    /// Counts a line checked, and keeps it when invalid.
    fn line(&mut self, line: &[u8], verdict: Result<(), Problem>, line_scheme: Option<&str>) {
        self.lines += 1;
        // A handful of schemes: a list beats a map, and takes no copy of
        // a name it has.
        let at = match self.counts.iter().position(|c| c.0.as_deref() == line_scheme) {
            Some(at) => at,
            None => {
                self.counts.push((line_scheme.map(str::to_owned), 0, 0));
                self.counts.len() - 1
            }
        };
        let Err(p) = verdict else {
            self.counts[at].1 += 1;
            return;
        };
        self.counts[at].2 += 1;
        self.line_no.append_value(self.lines as i64);
        self.input.append_value(String::from_utf8_lossy(line));
        self.offset.append_value(p.offset as i64);
        self.kind.append_value(p.kind);
        self.rule.append_value(p.rule);
        self.message.append_value(p.message.as_ref());
    }

    fn finish(mut self) -> (usize, Vec<CountRow>, ArrayRef) {
        let s = |name: &str| Field::new(name, DataType::Utf8, false);
        let fields: Fields = vec![
            Field::new("line", DataType::Int64, false),
            s("input"),
            Field::new("offset", DataType::Int64, false),
            s("kind"),
            s("rule"),
            s("message"),
        ]
        .into();
        let columns: Vec<ArrayRef> = vec![
            Arc::new(self.line_no.finish()),
            Arc::new(self.input.finish()),
            Arc::new(self.offset.finish()),
            Arc::new(self.kind.finish()),
            Arc::new(self.rule.finish()),
            Arc::new(self.message.finish()),
        ];
        let invalid = Arc::new(StructArray::new(fields, columns, None));
        self.counts.sort();
        (self.lines, self.counts, invalid)
    }
}

/// The request URL of each Common Log Format line; null where a line has none.
#[pyfunction]
fn arrow_clf_url(py: Python<'_>, column: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    map_column(py, column, url_kernel)
}

/// Each line checked as ``rfc1738 check --format clf`` checks it: a struct
/// ``{valid, url, scheme, error_offset, error_kind, error_rule, error_message}``,
/// offsets in the line.
#[pyfunction]
fn arrow_clf_check(py: Python<'_>, column: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    map_column(py, column, check_kernel)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(arrow_clf_url, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_clf_check, m)?)?;
    m.add_function(wrap_pyfunction!(lines, m)?)?;
    m.add_function(wrap_pyfunction!(clf_check_log, m)?)?;
    m.add_function(wrap_pyfunction!(clf_check_file, m)?)?;
    Ok(())
}

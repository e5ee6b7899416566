//! Log lines as a column (the request URL of each line, each line's
//! record as `rfc1738 check --input-format clf` makes it), and whole logs,
//! compressed or not, in a log format or not, checked as the command
//! checks them: the one rule is `rfc1738_report::clf::check_lines`.

use crate::arrow::{each_value, map_column, map_column_with, to_pyarrow};
use crate::compressed;
use crate::logtable::Builder;
use arrow_array::builder::{
    BinaryBuilder, BooleanBuilder, Int32Builder, Int64Builder, StringBuilder, TimestampMicrosecondBuilder,
};
use arrow_array::{Array, ArrayRef, StructArray};
use arrow_buffer::NullBuffer;
use arrow_schema::{DataType, Field};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rfc1738_report::clf::{check_lines, record_with, Fields, Record};
use rfc1738_report::logformat::LogFormat;
use rfc1738_report::logtable::{Cell, Type};
use rfc1738_report::outcome::Problem;
use rfc1738_report::sql;
use std::io::Read;
use std::path::PathBuf;
use std::sync::Arc;

fn url_kernel(a: &dyn Array) -> Result<ArrayRef, String> {
    let mut out = StringBuilder::new();
    each_value(a, |v| out.append_option(v.and_then(sql::clf_url)))?;
    Ok(Arc::new(out.finish()))
}

/// The columns of one error, `{prefix}offset`, `kind`, `rule`, `message`.
#[derive(Default)]
struct Errors {
    offset: Int64Builder,
    kind: StringBuilder,
    rule: StringBuilder,
    message: StringBuilder,
}

impl Errors {
    fn append(&mut self, p: Option<&Problem>) {
        self.offset.append_option(p.map(|p| p.offset as i64));
        self.kind.append_option(p.map(|p| p.kind));
        self.rule.append_option(p.map(|p| p.rule));
        self.message.append_option(p.map(|p| p.message.as_ref()));
    }

    fn finish(mut self, prefix: &str, fields: &mut Vec<Field>, columns: &mut Vec<ArrayRef>) {
        fields.push(Field::new(format!("{prefix}offset"), DataType::Int64, true));
        columns.push(Arc::new(self.offset.finish()));
        for (name, b) in [("kind", &mut self.kind), ("rule", &mut self.rule), ("message", &mut self.message)]
        {
            fields.push(Field::new(format!("{prefix}{name}"), DataType::Utf8, true));
            columns.push(Arc::new(b.finish()));
        }
    }
}

/// Each line's record as `check --input-format clf` makes it (request URL and
/// referer, strictly), the URLs of a column checked in bulk.
fn check_kernel(a: &dyn Array, format: Option<&LogFormat>, lenient: bool) -> Result<ArrayRef, String> {
    let n = a.len();
    let mut values = Vec::with_capacity(n);
    each_value(a, |v| values.push(v))?;
    let mut records = Vec::with_capacity(n);
    let lines = values.iter().flatten().copied();
    check_records(lines, format, lenient, |_, r| records.push(r));
    let mut records = records.into_iter();
    let text = || StringBuilder::with_capacity(n, n * 8);
    let (mut valid, mut url, mut scheme, mut row) =
        (BooleanBuilder::with_capacity(n), text(), text(), text());
    let mut error = Errors::default();
    let (mut referer, mut referer_valid, mut referer_scheme) =
        (text(), BooleanBuilder::with_capacity(n), text());
    let mut referer_error = Errors::default();
    // Every field of the line, as `check --input-format clf --json` has it.
    let mut texts: Vec<StringBuilder> = sql::CLF_TEXTS.iter().map(|_| text()).collect();
    let mut timestamp = TimestampMicrosecondBuilder::with_capacity(n).with_timezone("UTC");
    let (mut status, mut bytes) = (Int32Builder::with_capacity(n), Int64Builder::with_capacity(n));
    // The format's other fields (`%D`, `$request_time`...), typed.
    let extras = format.map_or(&[][..], LogFormat::extras);
    let mut more: Vec<Builder> = extras.iter().map(|e| Builder::new(Type::of(e.kind))).collect();
    let mut present = Vec::with_capacity(n);
    for v in &values {
        present.push(v.is_some());
        let r = v.map(|_| records.next().expect("a record per line"));
        let r = r.as_ref();
        valid.append_option(r.map(|r| r.verdict.is_ok()));
        url.append_option(r.and_then(|r| r.request.as_ref().ok()).map(|q| String::from_utf8_lossy(q.target)));
        // The record's scheme, as the command's: the summary's row.
        scheme.append_option(r.map(Record::row));
        row.append_option(r.map(Record::row));
        error.append(r.and_then(|r| r.verdict.as_ref().err()));
        let f = r.and_then(|r| r.referer.as_ref());
        referer.append_option(f.map(|f| String::from_utf8_lossy(f.text)));
        referer_valid.append_option(f.map(|f| f.verdict.is_ok()));
        referer_scheme.append_option(r.and_then(Record::referer_row));
        referer_error.append(f.and_then(|f| f.verdict.as_ref().err()));
        for (b, name) in texts.iter_mut().zip(sql::CLF_TEXTS) {
            b.append_option(r.and_then(|r| sql::clf_text(r, name)));
        }
        timestamp.append_option(r.and_then(sql::clf_timestamp).and_then(|s| s.checked_mul(1_000_000)));
        status.append_option(r.and_then(sql::clf_status));
        bytes.append_option(r.and_then(sql::clf_bytes));
        match (format, v) {
            (Some(f), Some(line)) if !more.is_empty() => {
                more.iter_mut().zip(f.extra_values(line)).for_each(|(b, x)| b.push(Cell::from(x)));
            }
            _ => more.iter_mut().for_each(|b| b.push(Cell::Null)),
        }
    }
    let s = |n: &str| Field::new(n, DataType::Utf8, true);
    let mut fields = vec![Field::new("valid", DataType::Boolean, true), s("url"), s("scheme"), s("row")];
    let mut columns: Vec<ArrayRef> = vec![
        Arc::new(valid.finish()),
        Arc::new(url.finish()),
        Arc::new(scheme.finish()),
        Arc::new(row.finish()),
    ];
    error.finish("error_", &mut fields, &mut columns);
    fields.extend([s("referer"), Field::new("referer_valid", DataType::Boolean, true), s("referer_scheme")]);
    columns.extend([
        Arc::new(referer.finish()) as ArrayRef,
        Arc::new(referer_valid.finish()),
        Arc::new(referer_scheme.finish()),
    ]);
    referer_error.finish("referer_error_", &mut fields, &mut columns);
    for (mut b, name) in texts.into_iter().zip(sql::CLF_TEXTS) {
        fields.push(s(name));
        columns.push(Arc::new(b.finish()));
    }
    let timestamp = timestamp.finish();
    fields.push(Field::new("timestamp", timestamp.data_type().clone(), true));
    columns.push(Arc::new(timestamp));
    fields.extend([Field::new("status", DataType::Int32, true), Field::new("bytes", DataType::Int64, true)]);
    columns.extend([Arc::new(status.finish()) as ArrayRef, Arc::new(bytes.finish())]);
    for (e, b) in extras.iter().zip(more) {
        let (ty, array) = b.finish();
        fields.push(Field::new(e.name.as_str(), ty, true));
        columns.push(array);
    }
    let out = StructArray::try_new(fields.into(), columns, Some(NullBuffer::from(present)))
        .map_err(|e| e.to_string())?;
    Ok(Arc::new(out))
}

/// `lines` checked as `check --input-format clf` checks them, in `format` or
/// line by line, `each` called with each line's record in order: strictly
/// in bulk (`check_lines`), or leniently one line at a time (as
/// `check --lenient`: the deviations accepted, each a warning).
fn check_records<'a>(
    lines: impl IntoIterator<Item = &'a [u8]>,
    format: Option<&LogFormat>,
    lenient: bool,
    mut each: impl FnMut(&'a [u8], Record<'a>),
) {
    match (format, lenient) {
        (Some(f), false) => f.check_lines(lines, Fields::BOTH, each),
        (None, false) => check_lines(lines, Fields::BOTH, each),
        (Some(f), true) => lines.into_iter().for_each(|l| each(l, f.record(l, true, Fields::BOTH))),
        (None, true) => lines.into_iter().for_each(|l| each(l, record_with(l, true, Fields::BOTH))),
    }
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

/// What a whole log gives Python: lines checked, the counts by the
/// summary's rows, the invalid lines, the referers' counts, and the
/// fault that stopped the reading of a compressed log (its whole lines
/// before it are counted: nothing read is lost).
type LogResult = (usize, Vec<CountRow>, Py<PyAny>, Vec<CountRow>, Option<String>);

/// A whole log checked in one pass, as ``rfc1738 check --input-format clf``
/// checks it (the request URL and the Combined referer; empty lines
/// skipped): ``(lines, counts, invalid, referers, fault)``. ``data``
/// compressed (gzip, zstd, bzip2, xz: told by its first bytes) is
/// inflated as it is read; ``fault`` says why the inflating stopped
/// early (``None`` when it did not), the lines before it counted.
/// ``counts`` holds ``(row, valid, invalid)`` per row of the command's
/// summary (the request URL's scheme, ``*``, ``(no request)``, ``(not
/// clf)``), ``referers`` the same per referer scheme, in name order;
/// ``invalid`` is a struct array of the invalid lines only: ``{line,
/// input, offset, kind, rule, message, referer, referer_valid,
/// referer_scheme, referer_error}`` (``line`` from 1, ``input`` decoded
/// with U+FFFD for bad UTF-8, offsets in the line). ``log_format``: as
/// ``--log-format``; ``lenient``: as ``--lenient``.
#[pyfunction]
#[pyo3(signature = (data, log_format=None, lenient=false))]
fn clf_check_log(
    py: Python<'_>,
    data: &[u8],
    log_format: Option<&str>,
    lenient: bool,
) -> PyResult<LogResult> {
    let format = log_format.map(parse_format).transpose()?;
    let ((n, counts, invalid, referers), fault) = py.detach(|| {
        let mut log = LogCheck::new(format, lenient);
        let fault = match compressed::sniff(data) {
            Some(f) => compressed::inflate(f, data).and_then(|input| read_blocks(input, &mut log)).err(),
            None => {
                log.lines(log_lines(data));
                None
            }
        };
        (log.finish(), fault.map(|e| e.to_string()))
    });
    Ok((n, counts, to_pyarrow(py, invalid)?.unbind(), referers, fault))
}

/// [`clf_check_log`] of the file at ``path``, read here a block at a
/// time without the lock (as the command reads it; compressed, inflated
/// as it is read): the file is never one Python object.
#[pyfunction]
#[pyo3(signature = (path, log_format=None, lenient=false))]
fn clf_check_file(
    py: Python<'_>,
    path: PathBuf,
    log_format: Option<&str>,
    lenient: bool,
) -> PyResult<LogResult> {
    let format = log_format.map(parse_format).transpose()?;
    let ((n, counts, invalid, referers), fault) = py.detach(|| -> std::io::Result<_> {
        let mut log = LogCheck::new(format, lenient);
        // A file that cannot be opened is an error; a fault while
        // reading it ends the reading, the lines before it counted.
        let fault = read_blocks(compressed::open(&path)?, &mut log).err();
        Ok((log.finish(), fault.map(|e| e.to_string())))
    })?;
    Ok((n, counts, to_pyarrow(py, invalid)?.unbind(), referers, fault))
}

/// Reads `input` a block at a time into `log`, whole lines each time.
fn read_blocks(mut input: impl Read, log: &mut LogCheck) -> std::io::Result<()> {
    let mut buf = vec![0u8; 1 << 20];
    // The first three bytes (fewer in a shorter file): a byte-order mark
    // is dropped, as `log_lines` drops it.
    let mut filled = 0;
    while filled < 3 {
        match input.read(&mut buf[filled..])? {
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
        let read = input.read(&mut buf[filled..])?;
        if read == 0 {
            // The last line, without its newline; a file that ends with
            // one has none.
            if filled > 0 {
                let line = &buf[..filled];
                log.lines([line.strip_suffix(b"\r").unwrap_or(line)]);
            }
            return Ok(());
        }
        filled += read;
    }
}

/// One row's counts: its name, valid lines, invalid lines.
type CountRow = (String, u64, u64);

/// Counts `ok` under `name` in `rows`: a handful of rows, a list beats a
/// map, and takes no copy of a name it has.
fn count(rows: &mut Vec<CountRow>, name: &str, ok: bool) {
    let at = match rows.iter().position(|c| c.0 == name) {
        Some(at) => at,
        None => {
            rows.push((name.to_owned(), 0, 0));
            rows.len() - 1
        }
    };
    if ok {
        rows[at].1 += 1;
    } else {
        rows[at].2 += 1;
    }
}

/// A log checked line by line: the counts by row, the invalid lines.
struct LogCheck {
    format: Option<LogFormat>,
    /// As `check --lenient`.
    lenient: bool,
    /// Lines read, empty ones too (line numbers count them).
    read: usize,
    /// Lines checked.
    lines: usize,
    counts: Vec<CountRow>,
    referers: Vec<CountRow>,
    line_no: Int64Builder,
    input: StringBuilder,
    offset: Int64Builder,
    kind: StringBuilder,
    rule: StringBuilder,
    message: StringBuilder,
    referer: StringBuilder,
    referer_valid: BooleanBuilder,
    referer_scheme: StringBuilder,
    referer_error: Errors,
    referer_error_present: Vec<bool>,
}

impl LogCheck {
    fn new(format: Option<LogFormat>, lenient: bool) -> LogCheck {
        LogCheck {
            format,
            lenient,
            read: 0,
            lines: 0,
            counts: Vec::new(),
            referers: Vec::new(),
            line_no: Int64Builder::new(),
            input: StringBuilder::new(),
            offset: Int64Builder::new(),
            kind: StringBuilder::new(),
            rule: StringBuilder::new(),
            message: StringBuilder::new(),
            referer: StringBuilder::new(),
            referer_valid: BooleanBuilder::new(),
            referer_scheme: StringBuilder::new(),
            referer_error: Errors::default(),
            referer_error_present: Vec::new(),
        }
    }

    /// Checks `lines` as the command does (`clf::check_lines`, URLs in
    /// bulk); an empty line is numbered, not checked.
    fn lines<'a>(&mut self, lines: impl IntoIterator<Item = &'a [u8]>) {
        let mut numbered = Vec::new();
        for line in lines {
            self.read += 1;
            if !line.is_empty() {
                numbered.push((self.read, line));
            }
        }
        let mut records = Vec::with_capacity(numbered.len());
        let each = |_: &[u8], r: Record<'a>| records.push(r);
        let texts = numbered.iter().map(|&(_, line)| line);
        check_records(texts, self.format.as_ref(), self.lenient, each);
        for ((no, line), r) in numbered.into_iter().zip(records) {
            self.line(no, line, &r);
        }
    }

    /// Counts a line checked, and keeps it when invalid.
    fn line(&mut self, no: usize, line: &[u8], r: &Record<'_>) {
        self.lines += 1;
        count(&mut self.counts, r.row(), r.verdict.is_ok());
        let f = r.referer.as_ref();
        if let (Some(row), Some(f)) = (r.referer_row(), f) {
            count(&mut self.referers, row, f.verdict.is_ok());
        }
        let Err(p) = &r.verdict else { return };
        self.line_no.append_value(no as i64);
        self.input.append_value(String::from_utf8_lossy(line));
        self.offset.append_value(p.offset as i64);
        self.kind.append_value(p.kind);
        self.rule.append_value(p.rule);
        self.message.append_value(p.message.as_ref());
        self.referer.append_option(f.map(|f| String::from_utf8_lossy(f.text)));
        self.referer_valid.append_option(f.map(|f| f.verdict.is_ok()));
        self.referer_scheme.append_option(r.referer_row());
        let e = f.and_then(|f| f.verdict.as_ref().err());
        self.referer_error.append(e);
        self.referer_error_present.push(e.is_some());
    }

    fn finish(mut self) -> (usize, Vec<CountRow>, ArrayRef, Vec<CountRow>) {
        let s = |name: &str| Field::new(name, DataType::Utf8, false);
        let mut fields = vec![
            Field::new("line", DataType::Int64, false),
            s("input"),
            Field::new("offset", DataType::Int64, false),
            s("kind"),
            s("rule"),
            s("message"),
            Field::new("referer", DataType::Utf8, true),
            Field::new("referer_valid", DataType::Boolean, true),
            Field::new("referer_scheme", DataType::Utf8, true),
        ];
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(self.line_no.finish()),
            Arc::new(self.input.finish()),
            Arc::new(self.offset.finish()),
            Arc::new(self.kind.finish()),
            Arc::new(self.rule.finish()),
            Arc::new(self.message.finish()),
            Arc::new(self.referer.finish()),
            Arc::new(self.referer_valid.finish()),
            Arc::new(self.referer_scheme.finish()),
        ];
        // `referer_error` as the command's record has it: `{offset, kind,
        // rule, message}`, null when the referer is valid or absent.
        let (mut ef, mut ec) = (Vec::new(), Vec::new());
        self.referer_error.finish("", &mut ef, &mut ec);
        let present = NullBuffer::from(std::mem::take(&mut self.referer_error_present));
        let error = StructArray::new(ef.into(), ec, Some(present));
        fields.push(Field::new("referer_error", error.data_type().clone(), true));
        columns.push(Arc::new(error));
        let invalid = Arc::new(StructArray::new(fields.into(), columns, None));
        self.counts.sort();
        self.referers.sort();
        (self.lines, self.counts, invalid, self.referers)
    }
}

/// The request URL of each Common Log Format line; null where a line has none.
#[pyfunction]
fn arrow_clf_url(py: Python<'_>, column: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    map_column(py, column, url_kernel)
}

/// Each line checked as ``rfc1738 check --input-format clf`` checks it (the
/// request URL and the Combined referer): a struct ``{valid, url, scheme,
/// row, error_offset, error_kind, error_rule, error_message, referer,
/// referer_valid, referer_scheme, referer_error_offset, ..., client,
/// ident, user, time, time_iso, method, target, protocol, user_agent,
/// timestamp, status, bytes}``, offsets in the line; ``row`` is the row
/// of the command's summary the line is counted under. ``log_format``: as
/// ``--log-format``; ``lenient``: as ``--lenient``.
#[pyfunction]
#[pyo3(signature = (column, log_format=None, lenient=false))]
fn arrow_clf_check(
    py: Python<'_>,
    column: &Bound<'_, PyAny>,
    log_format: Option<&str>,
    lenient: bool,
) -> PyResult<Py<PyAny>> {
    let format = log_format.map(parse_format).transpose()?;
    map_column_with(py, column, |a| check_kernel(a, format.as_ref(), lenient))
}

/// A log format as ``--log-format`` reads it (a preset, an Apache or an
/// nginx string); a ``ValueError`` naming an unknown directive.
fn parse_format(text: &str) -> PyResult<LogFormat> {
    LogFormat::parse(text).map_err(|e| PyValueError::new_err(e.to_string()))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(arrow_clf_url, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_clf_check, m)?)?;
    m.add_function(wrap_pyfunction!(lines, m)?)?;
    m.add_function(wrap_pyfunction!(clf_check_log, m)?)?;
    m.add_function(wrap_pyfunction!(clf_check_file, m)?)?;
    Ok(())
}

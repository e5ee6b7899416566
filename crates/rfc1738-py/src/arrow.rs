//! `rfc1738.arrow`: the same readings as one URL at a time, over whole
//! Arrow columns.
//!
//! A column comes in through the Arrow PyCapsule interface (`ffi.rs`: an
//! array, a chunked array, a one-column table or stream; pyarrow, Polars,
//! DuckDB), each chunk is read without the GIL, and the answer goes back
//! as a pyarrow array of the same chunking. No Python object is made per
//! URL; a null stays null.

use crate::ffi::{self, Column};
use arrow_array::builder::{BooleanBuilder, Int64Builder, StringBuilder};
use arrow_array::cast::AsArray;
use arrow_array::{new_empty_array, Array, ArrayRef, BooleanArray, ListArray, OffsetSizeTrait, StructArray};
use arrow_buffer::{Buffer, NullBuffer, OffsetBuffer};
use arrow_data::ByteView;
use arrow_schema::{DataType, Field, Fields};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyList};
use rfc1738::{Url, Warning};
use rfc1738_report::outcome::{self, Problem};
use rfc1738_report::sql;
use std::sync::Arc;

/// Calls `f` with each value of a string (or binary) column, `None` for a
/// null. A dictionary-encoded column (a Polars Categorical) is read
/// through its dictionary.
pub fn each_value<'a>(array: &'a dyn Array, mut f: impl FnMut(Option<&'a [u8]>)) -> Result<(), String> {
    let DataType::Dictionary(_, _) = array.data_type() else { return each_plain(array, f) };
    let dict = array.as_any_dictionary();
    let mut values = Vec::with_capacity(dict.values().len());
    each_plain(dict.values().as_ref(), |v| values.push(v))?;
    let nulls = array.logical_nulls();
    if values.is_empty() {
        // Only nulls can point into an empty dictionary.
        (0..array.len()).for_each(|_| f(None));
        return Ok(());
    }
    for (i, key) in dict.normalized_keys().into_iter().enumerate() {
        if nulls.as_ref().is_some_and(|n| n.is_null(i)) {
            f(None);
        } else {
            f(values.get(key).copied().flatten());
        }
    }
    Ok(())
}

/// [`each_value`] for a column that is not dictionary-encoded.
fn each_plain<'a>(array: &'a dyn Array, mut f: impl FnMut(Option<&'a [u8]>)) -> Result<(), String> {
    match array.data_type() {
        DataType::Utf8 => array.as_string::<i32>().iter().for_each(|v| f(v.map(str::as_bytes))),
        DataType::LargeUtf8 => array.as_string::<i64>().iter().for_each(|v| f(v.map(str::as_bytes))),
        DataType::Utf8View => array.as_string_view().iter().for_each(|v| f(v.map(str::as_bytes))),
        DataType::Binary => array.as_binary::<i32>().iter().for_each(f),
        DataType::LargeBinary => array.as_binary::<i64>().iter().for_each(f),
        DataType::BinaryView => array.as_binary_view().iter().for_each(f),
        DataType::Null => (0..array.len()).for_each(|_| f(None)),
        other => return Err(format!("a column of URLs holds strings, not {other}")),
    }
    Ok(())
}

/// An Arrow array on its way to pyarrow: `pyarrow.array()` takes it
/// through `__arrow_c_array__`.
#[pyclass(frozen, module = "rfc1738._rfc1738")]
pub struct Exported {
    array: ArrayRef,
}

#[pymethods]
impl Exported {
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyCapsule>>,
    ) -> PyResult<(Bound<'py, PyCapsule>, Bound<'py, PyCapsule>)> {
        let _ = requested_schema;
        ffi::export(py, self.array.as_ref())
    }
}

/// `array` as a `pyarrow.Array`.
pub fn to_pyarrow(py: Python<'_>, array: ArrayRef) -> PyResult<Bound<'_, PyAny>> {
    let pa = py.import("pyarrow")?;
    pa.call_method1("array", (Exported { array },))
}

/// A kernel: one chunk in, one answer out (of the same length).
pub type Kernel = fn(&dyn Array) -> Result<ArrayRef, String>;

/// Runs `kernel` over every chunk of `column` without the GIL, and hands
/// the answer back with the column's chunking: a `pyarrow.Array` for an
/// array, a `pyarrow.ChunkedArray` for a stream (of the kernel's type
/// even when it has no chunk).
pub fn map_column(py: Python<'_>, column: &Bound<'_, PyAny>, kernel: Kernel) -> PyResult<Py<PyAny>> {
    map_column_with(py, column, move |a| kernel(a))
}

/// [`map_column`] with a kernel that holds state (a base URL).
pub fn map_column_with(
    py: Python<'_>,
    column: &Bound<'_, PyAny>,
    kernel: impl Fn(&dyn Array) -> Result<ArrayRef, String> + Send + Sync,
) -> PyResult<Py<PyAny>> {
    match ffi::import(column)? {
        Column::Array(array) => {
            let out = py.detach(|| kernel(array.as_ref())).map_err(PyTypeError::new_err)?;
            Ok(to_pyarrow(py, out)?.unbind())
        }
        Column::Chunks(chunks, data_type) => {
            let empty = new_empty_array(&data_type);
            let out: Result<Vec<ArrayRef>, String> = py.detach(|| {
                let mut out = Vec::with_capacity(chunks.len() + 1);
                for c in &chunks {
                    out.push(kernel(c.as_ref())?);
                }
                // The type of the answer, even with no chunk to answer.
                out.push(kernel(empty.as_ref())?);
                Ok(out)
            });
            let mut out = out.map_err(PyTypeError::new_err)?;
            let typed = to_pyarrow(py, out.pop().expect("the empty chunk"))?;
            let list = PyList::empty(py);
            for a in out {
                list.append(to_pyarrow(py, a)?)?;
            }
            let pa = py.import("pyarrow")?;
            Ok(pa.call_method1("chunked_array", (list, typed.getattr("type")?))?.unbind())
        }
    }
}

/// Whether `bytes` is a URL: the one place the kernels ask it of one
/// value (a lenient reading, a column without offsets).
pub fn is_url(bytes: &[u8], lenient: bool) -> bool {
    if lenient {
        parsed(bytes, true).is_ok()
    } else {
        rfc1738::validate_bytes(bytes).is_ok()
    }
}

/// The verdict on each URL of `a`. Strictly, the values go to the
/// library's bulk validator (`rfc1738::bulk`), which reads a buffer block
/// by block and asks the full parser only for what its masks cannot
/// decide: a column of offsets in one pass over its values, a column of
/// views buffer by buffer (the short values held in the views one at a
/// time), a dictionary through its values (each checked once, whatever
/// the number of rows pointing at it). Leniently, one value at a time.
fn verdicts(a: &dyn Array, lenient: bool) -> Result<BooleanArray, String> {
    if lenient {
        let mut out = BooleanBuilder::with_capacity(a.len());
        each_value(a, |v| out.append_option(v.map(|b| is_url(b, true))))?;
        return Ok(out.finish());
    }
    Ok(match a.data_type() {
        DataType::Utf8 => {
            let s = a.as_string::<i32>();
            bulk_verdicts(s.value_data(), s.value_offsets(), a.nulls())
        }
        DataType::LargeUtf8 => {
            let s = a.as_string::<i64>();
            bulk_verdicts(s.value_data(), s.value_offsets(), a.nulls())
        }
        DataType::Binary => {
            let b = a.as_binary::<i32>();
            bulk_verdicts(b.value_data(), b.value_offsets(), a.nulls())
        }
        DataType::LargeBinary => {
            let b = a.as_binary::<i64>();
            bulk_verdicts(b.value_data(), b.value_offsets(), a.nulls())
        }
        DataType::Utf8View => {
            let s = a.as_string_view();
            view_verdicts(s.views(), s.data_buffers(), a.nulls())
        }
        DataType::BinaryView => {
            let b = a.as_binary_view();
            view_verdicts(b.views(), b.data_buffers(), a.nulls())
        }
        DataType::Dictionary(_, _) => {
            let dict = a.as_any_dictionary();
            let values = verdicts(dict.values().as_ref(), false)?;
            let mut out = BooleanBuilder::with_capacity(a.len());
            if values.is_empty() {
                // Only nulls can point into an empty dictionary.
                out.append_nulls(a.len());
                return Ok(out.finish());
            }
            let nulls = a.logical_nulls();
            for (i, key) in dict.normalized_keys().into_iter().enumerate() {
                let verdict = values.is_valid(key).then(|| values.value(key));
                out.append_option(verdict.filter(|_| !nulls.as_ref().is_some_and(|n| n.is_null(i))));
            }
            out.finish()
        }
        _ => {
            let mut out = BooleanBuilder::with_capacity(a.len());
            each_value(a, |v| out.append_option(v.map(|b| is_url(b, false))))?;
            out.finish()
        }
    })
}

/// The bulk validator's verdicts on the values `offsets` cut from `values`.
fn bulk_verdicts<O: OffsetSizeTrait>(
    values: &[u8],
    offsets: &[O],
    nulls: Option<&NullBuffer>,
) -> BooleanArray {
    let mut checker = rfc1738::bulk::Checker::new(values);
    let mut out = BooleanBuilder::with_capacity(offsets.len().saturating_sub(1));
    for (i, w) in offsets.windows(2).enumerate() {
        if nulls.is_some_and(|n| n.is_null(i)) {
            out.append_null();
        } else {
            out.append_value(checker.is_valid(w[0].as_usize()..w[1].as_usize()));
        }
    }
    out.finish()
}

/// The verdicts on a column of views: a value of up to 12 bytes lies in
/// its view and is checked alone; a longer one through a bulk validator
/// over the data buffer it points into.
fn view_verdicts(views: &[u128], buffers: &[Buffer], nulls: Option<&NullBuffer>) -> BooleanArray {
    let mut checkers: Vec<_> = buffers.iter().map(|b| rfc1738::bulk::Checker::new(b.as_slice())).collect();
    let mut out = BooleanBuilder::with_capacity(views.len());
    for (i, &raw) in views.iter().enumerate() {
        if nulls.is_some_and(|n| n.is_null(i)) {
            out.append_null();
            continue;
        }
        let len = raw as u32 as usize;
        if len <= MAX_INLINE {
            let bytes = raw.to_le_bytes();
            out.append_value(rfc1738::validate_bytes(&bytes[4..4 + len]).is_ok());
        } else {
            let view = ByteView::from(raw);
            let start = view.offset as usize;
            out.append_value(checkers[view.buffer_index as usize].is_valid(start..start + len));
        }
    }
    out.finish()
}

/// The longest value a view holds in itself (Arrow's columnar format).
const MAX_INLINE: usize = 12;

/// The columns of `validate`: `{offset, kind, rule, message}`, a null row
/// where the URL is valid (or null).
struct ErrorColumns {
    offset: Int64Builder,
    kind: StringBuilder,
    rule: StringBuilder,
    message: StringBuilder,
    rows: Vec<bool>,
}

impl ErrorColumns {
    fn new(n: usize) -> Self {
        ErrorColumns {
            offset: Int64Builder::with_capacity(n),
            kind: StringBuilder::new(),
            rule: StringBuilder::new(),
            message: StringBuilder::new(),
            rows: Vec::with_capacity(n),
        }
    }

    fn push(&mut self, p: Option<&Problem>) {
        self.rows.push(p.is_some());
        self.offset.append_option(p.map(|p| p.offset as i64));
        self.kind.append_option(p.map(|p| p.kind));
        self.rule.append_option(p.map(|p| p.rule));
        self.message.append_option(p.map(|p| p.message.as_ref()));
    }

    fn finish(mut self) -> Result<ArrayRef, String> {
        let s = |name: &str| Field::new(name, DataType::Utf8, true);
        let fields: Fields =
            vec![Field::new("offset", DataType::Int64, true), s("kind"), s("rule"), s("message")].into();
        let columns: Vec<ArrayRef> = vec![
            Arc::new(self.offset.finish()),
            Arc::new(self.kind.finish()),
            Arc::new(self.rule.finish()),
            Arc::new(self.message.finish()),
        ];
        let nulls = NullBuffer::from(std::mem::take(&mut self.rows));
        let s = StructArray::try_new(fields, columns, Some(nulls)).map_err(|e| e.to_string())?;
        Ok(Arc::new(s))
    }
}

/// The error of each URL, null where valid: the verdicts first (in bulk,
/// strictly), then the full parser on the URLs they reject, for the error
/// it alone gives.
fn validate_kernel(lenient: bool) -> fn(&dyn Array) -> Result<ArrayRef, String> {
    fn run(a: &dyn Array, lenient: bool) -> Result<ArrayRef, String> {
        let valid = verdicts(a, lenient)?;
        let mut out = ErrorColumns::new(a.len());
        let mut i = 0;
        each_value(a, |v| {
            let rejected = v.filter(|_| valid.is_valid(i) && !valid.value(i));
            i += 1;
            let problem = rejected.and_then(|b| {
                let result = if lenient { parsed(b, true).map(drop) } else { outcome::validate_bytes(b) };
                result.err()
            });
            out.push(problem.as_ref());
        })?;
        out.finish()
    }
    if lenient {
        |a| run(a, true)
    } else {
        |a| run(a, false)
    }
}

pub fn parsed(bytes: &[u8], lenient: bool) -> Result<(Url, Vec<Warning>), Problem> {
    outcome::parse_bytes_with(bytes, &outcome::options(lenient))
}

fn is_valid_kernel(lenient: bool) -> fn(&dyn Array) -> Result<ArrayRef, String> {
    fn strict(a: &dyn Array) -> Result<ArrayRef, String> {
        Ok(Arc::new(verdicts(a, false)?))
    }
    fn tolerant(a: &dyn Array) -> Result<ArrayRef, String> {
        Ok(Arc::new(verdicts(a, true)?))
    }
    if lenient {
        tolerant
    } else {
        strict
    }
}

fn normalize_kernel(lenient: bool) -> fn(&dyn Array) -> Result<ArrayRef, String> {
    fn run(a: &dyn Array, lenient: bool) -> Result<ArrayRef, String> {
        let mut out = StringBuilder::new();
        each_value(a, |v| match v.map(|b| parsed(b, lenient)) {
            Some(Ok((url, _))) => out.append_value(url.normalize().as_str()),
            _ => out.append_null(),
        })?;
        Ok(Arc::new(out.finish()))
    }
    if lenient {
        |a| run(a, true)
    } else {
        |a| run(a, false)
    }
}

/// The fields of a warning as `rfc1738_lint` lists them: `{offset, kind,
/// message}` (`parse`'s list, with `len` and `security`, is in `parts.rs`).
struct WarningColumns {
    offset: Int64Builder,
    kind: StringBuilder,
    message: StringBuilder,
    offsets: Vec<i32>,
    valid: Vec<bool>,
}

impl WarningColumns {
    fn new() -> Self {
        WarningColumns {
            offset: Int64Builder::new(),
            kind: StringBuilder::new(),
            message: StringBuilder::new(),
            offsets: vec![0],
            valid: Vec::new(),
        }
    }

    /// One row: `None` for a null list.
    fn push(&mut self, warnings: Option<&[Warning]>) {
        for w in warnings.unwrap_or_default() {
            self.offset.append_value(w.offset() as i64);
            self.kind.append_value(w.kind().id());
            self.message.append_value(w.message());
        }
        let last = *self.offsets.last().expect("starts with 0");
        self.offsets.push(last + warnings.map_or(0, |w| w.len() as i32));
        self.valid.push(warnings.is_some());
    }

    fn finish(mut self) -> Result<ArrayRef, String> {
        let fields: Fields = vec![
            Field::new("offset", DataType::Int64, false),
            Field::new("kind", DataType::Utf8, false),
            Field::new("message", DataType::Utf8, false),
        ]
        .into();
        let columns: Vec<ArrayRef> = vec![
            Arc::new(self.offset.finish()),
            Arc::new(self.kind.finish()),
            Arc::new(self.message.finish()),
        ];
        let items = StructArray::try_new(fields, columns, None).map_err(|e| e.to_string())?;
        let item = Arc::new(Field::new("item", items.data_type().clone(), false));
        let list = ListArray::try_new(
            item,
            OffsetBuffer::new(self.offsets.into()),
            Arc::new(items),
            Some(NullBuffer::from(self.valid)),
        )
        .map_err(|e| e.to_string())?;
        Ok(Arc::new(list))
    }
}

fn lint_kernel(lenient: bool) -> impl Fn(&dyn Array) -> Result<ArrayRef, String> {
    move |a| {
        let mut out = WarningColumns::new();
        each_value(a, |v| out.push(v.and_then(|b| sql::lint_with(b, lenient)).as_deref()))?;
        out.finish()
    }
}

fn extract_fields() -> Fields {
    vec![
        Field::new("url", DataType::Utf8, false),
        Field::new("start", DataType::Int64, false),
        Field::new("end", DataType::Int64, false),
        Field::new("form", DataType::Utf8, false),
    ]
    .into()
}

fn extract_kernel(a: &dyn Array) -> Result<ArrayRef, String> {
    let (mut url, mut start, mut end, mut form) =
        (StringBuilder::new(), Int64Builder::new(), Int64Builder::new(), StringBuilder::new());
    let mut offsets = vec![0i32];
    let mut valid = Vec::with_capacity(a.len());
    each_value(a, |v| {
        let mut n = 0;
        if let Some(bytes) = v {
            // Each URL into the columns as it is found: no list of them.
            sql::extract_each(&String::from_utf8_lossy(bytes), |f| {
                url.append_value(&f.url);
                start.append_value(f.start as i64);
                end.append_value(f.end as i64);
                form.append_value(f.form);
                n += 1;
            });
        }
        offsets.push(offsets.last().copied().unwrap_or(0) + n);
        valid.push(v.is_some());
    })?;
    let columns: Vec<ArrayRef> = vec![
        Arc::new(url.finish()),
        Arc::new(start.finish()),
        Arc::new(end.finish()),
        Arc::new(form.finish()),
    ];
    let items = StructArray::try_new(extract_fields(), columns, None).map_err(|e| e.to_string())?;
    let item = Arc::new(Field::new("item", items.data_type().clone(), false));
    let list =
        ListArray::try_new(item, OffsetBuffer::new(offsets.into()), Arc::new(items), Some(valid.into()))
            .map_err(|e| e.to_string())?;
    Ok(Arc::new(list))
}

/// Each reference of `a` resolved against `base`; null where it cannot be.
fn resolve_column(base: &Url, a: &dyn Array) -> Result<ArrayRef, String> {
    let mut out = StringBuilder::new();
    each_value(a, |v| {
        let url = v.and_then(|b| std::str::from_utf8(b).ok()).and_then(|r| base.resolve(r).ok());
        out.append_option(url.as_ref().map(Url::as_str));
    })?;
    Ok(Arc::new(out.finish()))
}

/// Each reference of ``column`` resolved against ``base`` (RFC 1808): the
/// URLs as strings; null where a reference is null or cannot be resolved.
#[pyfunction]
fn arrow_resolve(py: Python<'_>, base: &Bound<'_, PyAny>, column: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let base = match base.cast::<crate::url::Url>() {
        Ok(u) => u.get().inner().clone(),
        Err(_) => crate::url::parse(base, false)?.inner().clone(),
    };
    // A relative path asks for the base's hierarchy (an absolute reference
    // or the empty one resolves against any base, RFC 1808 §4).
    if let Err(e) = base.resolve("x") {
        if matches!(e.kind(), rfc1738::ResolveErrorKind::NotHierarchical(_)) {
            return Err(crate::url::resolve_error(py, "", &e));
        }
    }
    map_column_with(py, column, move |a| resolve_column(&base, a))
}

/// ``True`` where the URL is valid, ``False`` where not, null where null.
#[pyfunction]
#[pyo3(signature = (column, *, lenient = false))]
fn arrow_is_valid(py: Python<'_>, column: &Bound<'_, PyAny>, lenient: bool) -> PyResult<Py<PyAny>> {
    map_column(py, column, is_valid_kernel(lenient))
}

/// The error of each URL as a struct ``{offset, kind, rule, message}``;
/// null where the URL is valid, and where null.
#[pyfunction]
#[pyo3(signature = (column, *, lenient = false))]
fn arrow_validate(py: Python<'_>, column: &Bound<'_, PyAny>, lenient: bool) -> PyResult<Py<PyAny>> {
    map_column(py, column, validate_kernel(lenient))
}

/// The normal form of each URL; null where invalid.
#[pyfunction]
#[pyo3(signature = (column, *, lenient = false))]
fn arrow_normalize(py: Python<'_>, column: &Bound<'_, PyAny>, lenient: bool) -> PyResult<Py<PyAny>> {
    map_column(py, column, normalize_kernel(lenient))
}

/// The URLs found in each text: a list of ``{url, start, end, form}``.
#[pyfunction]
fn arrow_extract(py: Python<'_>, column: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    map_column(py, column, extract_kernel)
}

/// The §6 security warnings of each URL: a list of ``{offset, kind,
/// message}``; null where invalid. ``lenient=True``: the warnings beside
/// a value read leniently (``host(c, lenient=True)``...), as ``rfc1738
/// lint --lenient`` gives them: each deviation the reading forgave
/// (``unsafe-char``, ...) and the §6 warnings, by offset.
#[pyfunction]
#[pyo3(signature = (column, *, lenient = false))]
fn arrow_lint(py: Python<'_>, column: &Bound<'_, PyAny>, lenient: bool) -> PyResult<Py<PyAny>> {
    map_column_with(py, column, lint_kernel(lenient))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Exported>()?;
    m.add_function(wrap_pyfunction!(arrow_is_valid, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_validate, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_normalize, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_extract, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_lint, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_resolve, m)?)?;
    Ok(())
}

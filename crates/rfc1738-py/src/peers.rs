//! The functions of peers (ClickHouse, DuckDB's netquack, Spark's
//! `parse_url`) over a column: `arrow.authority`, `cut_search`,
//! `cut_fragment`, `extension`, `host_without_www`, `public_suffix`,
//! `registrable_domain`, `decode`,
//! `query_param`, `query_params`, `segments`. Each row is what
//! `rfc1738_report::sql` says of one URL, as the SQL functions of the
//! same names give it; the answer is a plain string column
//! (`large_string` for a large input), each value a copy.

use crate::arrow::{each_value, map_column_with};
use arrow_array::builder::GenericStringBuilder;
use arrow_array::{Array, ArrayRef, ListArray, OffsetSizeTrait, StringArray, StructArray};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType, Field, Fields};
use pyo3::prelude::*;
use rfc1738::{Url, UrlRef};
use rfc1738_report::outcome;
use rfc1738_report::sql;
use std::borrow::Cow;
use std::sync::Arc;

/// What a peer function says of one valid URL.
type Row = for<'a> fn(&UrlRef<'a>) -> Option<Cow<'a, str>>;

/// Calls `f` with each row of `a` read as a URL (leniently when asked):
/// strictly by the borrowing parse, no copy; `None` for a null or a
/// text that is no URL.
fn each_url(a: &dyn Array, lenient: bool, mut f: impl FnMut(Option<&UrlRef<'_>>)) -> Result<(), String> {
    each_value(a, |v| match v {
        None => f(None),
        Some(b) if !lenient => f(std::str::from_utf8(b).ok().and_then(|t| UrlRef::parse(t).ok()).as_ref()),
        Some(b) => {
            let url: Option<Url> = outcome::parse_bytes_with(b, &outcome::options(true)).ok().map(|(u, _)| u);
            f(url.as_ref().map(Url::as_url_ref).as_ref());
        }
    })
}

/// Each row of `a` read as a URL, `f` of it, collected.
fn rows<T>(
    a: &dyn Array,
    lenient: bool,
    f: &dyn Fn(&UrlRef<'_>) -> Option<T>,
) -> Result<Vec<Option<T>>, String> {
    let mut out = Vec::with_capacity(a.len());
    each_url(a, lenient, |u| out.push(u.and_then(f)))?;
    Ok(out)
}

/// Whether the answer's strings are large ones: for large strings in,
/// and for a dictionary, whose rows repeat its values and may add up to
/// more than a `string` column holds.
fn is_large(a: &dyn Array) -> bool {
    matches!(a.data_type(), DataType::LargeUtf8 | DataType::LargeBinary | DataType::Dictionary(_, _))
}

/// `values` as a string column as large as `a`'s strings.
fn strings<S: AsRef<str>>(a: &dyn Array, values: &[Option<S>]) -> ArrayRef {
    fn build<O: OffsetSizeTrait, S: AsRef<str>>(values: &[Option<S>]) -> ArrayRef {
        let bytes = values.iter().flatten().map(|v| v.as_ref().len()).sum();
        let mut out = GenericStringBuilder::<O>::with_capacity(values.len(), bytes);
        for v in values {
            out.append_option(v.as_ref().map(AsRef::as_ref));
        }
        Arc::new(out.finish())
    }
    if is_large(a) {
        build::<i64, S>(values)
    } else {
        build::<i32, S>(values)
    }
}

/// `f` of each URL of `a`, written straight into the answer.
fn texts<O: OffsetSizeTrait>(a: &dyn Array, lenient: bool, f: Row) -> Result<ArrayRef, String> {
    let mut out = GenericStringBuilder::<O>::with_capacity(a.len(), 0);
    each_url(a, lenient, |u| out.append_option(u.and_then(f)))?;
    Ok(Arc::new(out.finish()))
}

fn text_kernel(py: Python<'_>, column: &Bound<'_, PyAny>, lenient: bool, f: Row) -> PyResult<Py<PyAny>> {
    map_column_with(py, column, move |a| {
        if is_large(a) {
            texts::<i64>(a, lenient, f)
        } else {
            texts::<i32>(a, lenient, f)
        }
    })
}

macro_rules! peer {
    ($($fn:ident $what:literal $row:expr;)*) => {$(
        #[doc = concat!($what, "\n\nReturns a ``pyarrow.Array`` of ``string`` for an array (``large_string``\n",
            "for a large input), a ``pyarrow.ChunkedArray`` for a stream; null where the URL\n",
            "is invalid (or null) or has none. ``lenient=True`` reads each URL as\n",
            "``rfc1738 parse --lenient`` does.")]
        #[pyfunction]
        #[pyo3(signature = (column, *, lenient = false))]
        fn $fn(py: Python<'_>, column: &Bound<'_, PyAny>, lenient: bool) -> PyResult<Py<PyAny>> {
            text_kernel(py, column, lenient, $row)
        }
    )*};
}

peer! {
    arrow_authority "What ``//`` and the next ``/`` enclose (§3.1's login, peers' netloc), as written:\n``user:password@host:port``; null for a URL without ``//``." |u| sql::authority(u).map(Cow::Borrowed);
    arrow_cut_search "The URL without the ``?search`` of http (§3.3) or wais (§3.9); its fragment kept." |u| Some(sql::cut_search(u));
    arrow_cut_fragment "The URL without its ``#fragment`` (§2.2)." |u| Some(sql::cut_fragment(u));
    arrow_extension "The file extension of an http, ftp or file URL, as written: what follows the\nlast ``.`` of the last segment, after a name (``b.tar.gz``: ``gz``; ``.profile``: none)." |u| sql::extension(u).map(Cow::Borrowed);
    arrow_host_without_www "The host less a leading ``www.`` (case ignored)." |u| sql::host_without_www(u).map(Cow::Borrowed);
    arrow_public_suffix "The host's public suffix by the Public Suffix List (``co.uk`` of ``www.h.co.uk``),\nas written; null for a number or a suffix the list does not know." |u| sql::public_suffix(u).map(Cow::Borrowed);
    arrow_registrable_domain "The host's registrable domain by the Public Suffix List (``h.co.uk`` of\n``www.h.co.uk``), as written; null for a number, a public suffix, or an unknown suffix." |u| sql::registrable_domain(u).map(Cow::Borrowed);
}

/// Each text's ``%HH`` escapes decoded (§2.2), octets that are not UTF-8
/// as U+FFFD; a ``%`` that begins no escape stays. Any text, not only a
/// URL's part: ``decode(arrow.part(c, "http.search"))``.
///
/// Returns a ``pyarrow.Array`` of ``string`` (``large_string`` for a
/// large input), a ``pyarrow.ChunkedArray`` for a stream; null where null.
#[pyfunction]
fn arrow_decode(py: Python<'_>, column: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    map_column_with(py, column, |a| {
        let mut values = Vec::with_capacity(a.len());
        // A text without an escape is borrowed, not copied twice.
        each_value(a, |v| values.push(v.map(sql::decode_cow)))?;
        Ok(strings(a, &values))
    })
}

/// The value of the first pair named ``name`` in each http URL's search,
/// read by the HTML form convention (``application/x-www-form-urlencoded``:
/// pairs joined by ``&``, ``+`` a space, escapes decoded). RFC 1738 gives
/// a search no structure (§3.3): this is a convention over it. Null where
/// the URL is not http, has no search, or no such pair; ``""`` for a pair
/// without ``=``.
///
/// >>> import pyarrow as pa
/// >>> from rfc1738 import arrow
/// >>> arrow.query_param(pa.array(["http://h.dom/?q=a+b&x=1", "http://h.dom/"]), "q").to_pylist()
/// ['a b', None]
#[pyfunction]
#[pyo3(signature = (column, name, *, lenient = false))]
fn arrow_query_param(
    py: Python<'_>,
    column: &Bound<'_, PyAny>,
    name: String,
    lenient: bool,
) -> PyResult<Py<PyAny>> {
    map_column_with(py, column, move |a| {
        let values = rows(a, lenient, &|u| sql::query_param(u, &name))?;
        Ok(strings(a, &values))
    })
}

/// Every pair of each http URL's search by the HTML form convention (see
/// ``query_param``): a list of structs ``{name, value}``, decoded, in
/// their order; null where the URL is not http or has no search.
///
/// >>> import pyarrow as pa
/// >>> from rfc1738 import arrow
/// >>> arrow.query_params(pa.array(["http://h.dom/?a=1&b"])).to_pylist()
/// [[{'name': 'a', 'value': '1'}, {'name': 'b', 'value': ''}]]
#[pyfunction]
#[pyo3(signature = (column, *, lenient = false))]
fn arrow_query_params(py: Python<'_>, column: &Bound<'_, PyAny>, lenient: bool) -> PyResult<Py<PyAny>> {
    map_column_with(py, column, move |a| {
        let lists = rows(a, lenient, &sql::query_params)?;
        let (mut names, mut values, mut offsets, mut valid) =
            (Vec::new(), Vec::new(), vec![0i32], Vec::new());
        for list in &lists {
            for (n, v) in list.iter().flatten() {
                names.push(n.as_str());
                values.push(v.as_str());
            }
            offsets.push(i32::try_from(names.len()).map_err(|_| "more than 2^31 pairs".to_string())?);
            valid.push(list.is_some());
        }
        let fields = Fields::from(vec![
            Field::new("name", DataType::Utf8, false),
            Field::new("value", DataType::Utf8, false),
        ]);
        let items = StructArray::new(
            fields.clone(),
            vec![Arc::new(StringArray::from(names)) as ArrayRef, Arc::new(StringArray::from(values))],
            None,
        );
        let item = Arc::new(Field::new("item", DataType::Struct(fields), false));
        let list = ListArray::new(
            item,
            OffsetBuffer::new(offsets.into()),
            Arc::new(items),
            Some(NullBuffer::from(valid)),
        );
        Ok(Arc::new(list) as ArrayRef)
    })
}

/// The segments of each URL's path, as written: http's (§3.3), ftp's
/// cwd then its name (§3.2.2), file's (§3.10); a list of strings, null
/// for another scheme or an http URL without a path.
///
/// >>> import pyarrow as pa
/// >>> from rfc1738 import arrow
/// >>> arrow.segments(pa.array(["http://h.dom/a/b.html", "ftp://h.dom/%2Fetc/motd", "mailto:a@b.dom"])).to_pylist()
/// [['a', 'b.html'], ['%2Fetc', 'motd'], None]
#[pyfunction]
#[pyo3(signature = (column, *, lenient = false))]
fn arrow_segments(py: Python<'_>, column: &Bound<'_, PyAny>, lenient: bool) -> PyResult<Py<PyAny>> {
    map_column_with(py, column, move |a| {
        let (mut items, mut offsets, mut valid) =
            (arrow_array::builder::StringBuilder::new(), vec![0i32], Vec::new());
        let mut n = 0usize;
        each_url(a, lenient, |u| {
            let list = u.and_then(sql::segments);
            for s in list.iter().flatten() {
                items.append_value(s);
                n += 1;
            }
            offsets.push(i32::try_from(n).unwrap_or(i32::MAX));
            valid.push(list.is_some());
        })?;
        if i32::try_from(n).is_err() {
            return Err("more than 2^31 segments in one batch".to_string());
        }
        let item = Arc::new(Field::new("item", DataType::Utf8, false));
        let list = ListArray::new(
            item,
            OffsetBuffer::new(offsets.into()),
            Arc::new(items.finish()),
            Some(NullBuffer::from(valid)),
        );
        Ok(Arc::new(list) as ArrayRef)
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(arrow_segments, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_authority, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_cut_search, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_cut_fragment, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_extension, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_host_without_www, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_public_suffix, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_registrable_domain, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_decode, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_query_param, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_query_params, m)?)?;
    Ok(())
}

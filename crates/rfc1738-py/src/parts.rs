//! The parts of a column of URLs, one part a call: `rfc1738.arrow.host`,
//! `port`, `part(column, "ftp.typecode")`, ...; and `rfc1738.arrow.parse`,
//! every part at once.
//!
//! Each URL is read once by the library's borrowing parse (`UrlRef`), and
//! a part written unchanged in it is answered as a view into the input's
//! own buffer (`views.rs`): no copy of it is made. A part the URL does not
//! have, and every part of an invalid URL, is null; an empty part is an
//! empty string (`ftp://@h/` has an empty user, `ftp://h/` none, §3.1).

use crate::arrow::map_column_with;
use crate::views::{self, At, Parts};
use arrow_array::builder::UInt16Builder;
use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, StringViewArray, UInt16Array};
use arrow_schema::DataType;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rfc1738::{pct, UrlRef};
use rfc1738_report::parts::{self as named, Getter, Value};
use std::borrow::Cow;
use std::sync::Arc;

/// The URL `bytes` are, read without a copy; `None` when they are none.
#[inline]
fn url_of(text: &str) -> Option<UrlRef<'_>> {
    UrlRef::parse(text).ok()
}

/// The scheme, lower-cased (§2.1): as written when it is.
fn scheme<'a>(u: &UrlRef<'a>) -> Option<Value<'a>> {
    let s = u.scheme();
    Some(Value::Plain(if s.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(s.to_ascii_lowercase())
    } else {
        Cow::Borrowed(s)
    }))
}

/// A string part: how it is read, and whether it is wanted decoded.
#[derive(Clone, Copy)]
pub struct Text {
    get: Getter,
    decoded: bool,
}

/// Writes `value` of a row as the part asks.
#[inline]
fn write(out: &mut Parts, value: Value<'_>, row: &str, at: At, decoded: bool) {
    match value {
        Value::Written(s) if decoded && s.contains('%') => out.copy(&String::from_utf8_lossy(&pct::decode(&s))),
        Value::Written(Cow::Borrowed(s)) | Value::Plain(Cow::Borrowed(s)) => out.part(s, row, at),
        Value::Written(Cow::Owned(s)) | Value::Plain(Cow::Owned(s)) => out.copy(&s),
        Value::Port(n, _) => out.copy(&n.to_string()),
    }
}

/// The part `want` of every URL of `a`, a string-view column.
pub fn texts(a: &dyn Array, want: Text) -> Result<StringViewArray, String> {
    if let DataType::Dictionary(_, _) = a.data_type() {
        // Each value of the dictionary read once, each row its value's view.
        let dict = a.as_any_dictionary();
        let values = texts(dict.values().as_ref(), want)?;
        let nulls = a.logical_nulls();
        let keys = dict.normalized_keys();
        let rows = keys.iter().enumerate().map(|(i, &k)| (!nulls.as_ref().is_some_and(|n| n.is_null(i))).then_some(k));
        return Ok(Parts::gather(&values, rows, a.len()));
    }
    let mut out = Parts::new(a.len(), views::buffers(a));
    views::each_row(a, |row| {
        let Some((bytes, at)) = row else { return out.null() };
        match url_of(bytes).and_then(|u| (want.get)(&u)) {
            Some(v) => write(&mut out, v, bytes, at, want.decoded),
            None => out.null(),
        }
    })?;
    out.finish()
}

/// A port of every URL of `a`: the one written, or the effective one.
pub fn ports(a: &dyn Array, effective: bool) -> Result<UInt16Array, String> {
    let port = |u: UrlRef<'_>| if effective { u.effective_port() } else { u.port() };
    if let DataType::Dictionary(_, _) = a.data_type() {
        let dict = a.as_any_dictionary();
        let values = ports(dict.values().as_ref(), effective)?;
        let nulls = a.logical_nulls();
        let mut out = UInt16Builder::with_capacity(a.len());
        for (i, k) in dict.normalized_keys().into_iter().enumerate() {
            let null = nulls.as_ref().is_some_and(|n| n.is_null(i)) || values.is_null(k);
            out.append_option((!null).then(|| values.value(k)));
        }
        return Ok(out.finish());
    }
    let mut out = UInt16Builder::with_capacity(a.len());
    views::each_row(a, |row| out.append_option(row.and_then(|(b, _)| url_of(b)).and_then(port)))?;
    Ok(out.finish())
}

/// What a part's name asks for.
#[derive(Clone, Copy)]
enum Want {
    Text(Getter),
    Port { effective: bool },
}

/// The part named `name` (a name of `parse --get`), or why it is not one
/// a column of parts answers.
fn want(name: &str) -> PyResult<Want> {
    match name {
        "scheme" => return Ok(Want::Text(scheme)),
        "kind" => return Ok(Want::Text(|u| Some(Value::Plain(Cow::Borrowed(u.kind().name()))))),
        "search" => return Ok(Want::Text(|u| named::search(u).map(|s| Value::Written(Cow::Borrowed(s))))),
        "path" => return Ok(Want::Text(|u| u.url_path().map(|s| Value::Written(Cow::Borrowed(s))))),
        "port" => return Ok(Want::Port { effective: false }),
        "effective_port" => return Ok(Want::Port { effective: true }),
        "input" | "valid" | "warnings" => {
            return Err(PyValueError::new_err(format!(
                "{name:?} is a field of rfc1738.arrow.parse, not a part: use parse(column).field({name:?})"
            )))
        }
        n if n.starts_with("error.") => {
            return Err(PyValueError::new_err(format!(
                "{name:?} is said of an invalid URL: use rfc1738.arrow.validate(column).field({:?})",
                &n[6..]
            )))
        }
        _ => {}
    }
    match named::find(name) {
        Some(k) => Ok(Want::Text(named::PARTS[k].1)),
        None => Err(PyValueError::new_err(format!(
            "unknown part {name:?} (the parts: {}, path, search)",
            named::names().filter(|n| !matches!(*n, "input" | "valid" | "warnings") && !n.starts_with("error.")).collect::<Vec<_>>().join(", ")
        ))),
    }
}

fn run(py: Python<'_>, column: &Bound<'_, PyAny>, want: Want, decoded: bool) -> PyResult<Py<PyAny>> {
    match want {
        Want::Text(get) => {
            let text = Text { get, decoded };
            map_column_with(py, column, move |a| Ok(Arc::new(texts(a, text)?) as ArrayRef))
        }
        Want::Port { effective } => map_column_with(py, column, move |a| Ok(Arc::new(ports(a, effective)?) as ArrayRef)),
    }
}

/// The part ``name`` of each URL, any part ``rfc1738 parse --get`` names
/// (``"host"``, ``"ftp.typecode"``, ``"gopher.selector"``, ...), and
/// ``"path"`` (the url-path) and ``"search"`` (the search of http,
/// gopher or wais).
///
/// Returns string views (``uint16`` for ``"port"`` and
/// ``"effective_port"``): the part as written in the URL, or with
/// ``decoded=True`` its ``%HH`` escapes decoded (octets that are not UTF-8
/// replaced by U+FFFD); null where the URL is invalid (or null) or has no
/// such part, ``""`` where the part is empty.
///
/// Raises ``ValueError`` for a name that is not a part (``"valid"``,
/// ``"error.kind"``: see ``parse`` and ``validate``), ``TypeError`` for a
/// column that is not one of strings.
///
/// >>> import pyarrow as pa
/// >>> from rfc1738 import arrow
/// >>> arrow.part(pa.array(["ftp://h.dom/f;type=i", "ftp://h.dom/f", "x"]), "ftp.typecode").to_pylist()
/// ['i', None, None]
#[pyfunction]
#[pyo3(signature = (column, name, *, decoded = false))]
fn arrow_part(py: Python<'_>, column: &Bound<'_, PyAny>, name: &str, decoded: bool) -> PyResult<Py<PyAny>> {
    run(py, column, want(name)?, decoded)
}

macro_rules! single {
    ($($fn:ident $name:literal $what:literal $example:literal;)*) => {$(
        #[doc = concat!("The ", $what, " of each URL, as string views: as written, or with\n",
            "``decoded=True`` its ``%HH`` escapes decoded. Null where the URL is\n",
            "invalid (or null) or has none; ``\"\"`` where it is empty.\n\n",
            "Raises ``TypeError`` for a column that is not one of strings.\n\n",
            ">>> import pyarrow as pa\n>>> from rfc1738 import arrow\n",
            $example)]
        #[pyfunction]
        #[pyo3(signature = (column, *, decoded = false))]
        fn $fn(py: Python<'_>, column: &Bound<'_, PyAny>, decoded: bool) -> PyResult<Py<PyAny>> {
            run(py, column, want($name)?, decoded)
        }
    )*};
}

single! {
    arrow_scheme "scheme" "scheme, lower-cased (§2.1)"
        ">>> arrow.scheme(pa.array([\"HTTP://h.dom/\", \"bad\"])).to_pylist()\n['http', None]";
    arrow_user "user" "user name (§3.1)"
        ">>> arrow.user(pa.array([\"ftp://a%20b@h.dom/\", \"ftp://h.dom/\"]), decoded=True).to_pylist()\n['a b', None]";
    arrow_password "password" "password (§3.1)"
        ">>> arrow.password(pa.array([\"ftp://a:@h.dom/\", \"ftp://a@h.dom/\"])).to_pylist()\n['', None]";
    arrow_host "host" "host (§3.1)"
        ">>> arrow.host(pa.array([\"http://www.example.com:8080/x\", \"mailto:a@b.dom\"])).to_pylist()\n['www.example.com', None]";
    arrow_path "path" "url-path (§3.1: after the ``/`` that ends the host or port)"
        ">>> arrow.path(pa.array([\"http://h.dom/a%20b?q\", \"http://h.dom\"]), decoded=True).to_pylist()\n['a b?q', None]";
    arrow_search "search" "search of an http (§3.3), gopher (§3.4) or wais (§3.9) URL"
        ">>> arrow.search(pa.array([\"http://h.dom/p?q=1\", \"http://h.dom/p\"])).to_pylist()\n['q=1', None]";
    arrow_fragment "fragment" "fragment identifier after ``#`` (§2.2)"
        ">>> arrow.fragment(pa.array([\"http://h.dom/#top\", \"http://h.dom/\"])).to_pylist()\n['top', None]";
}

/// The port written in each URL (§3.1), as ``uint16``; null where the URL
/// is invalid (or null) or writes none. ``part(column, "effective_port")``
/// gives the scheme's default where none is written.
///
/// Raises ``TypeError`` for a column that is not one of strings.
///
/// >>> import pyarrow as pa
/// >>> from rfc1738 import arrow
/// >>> arrow.port(pa.array(["http://h.dom:8080/", "http://h.dom/"])).to_pylist()
/// [8080, None]
#[pyfunction]
fn arrow_port(py: Python<'_>, column: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    run(py, column, Want::Port { effective: false }, false)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(arrow_part, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_scheme, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_user, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_password, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_host, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_port, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_path, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_search, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_fragment, m)?)?;
    Ok(())
}

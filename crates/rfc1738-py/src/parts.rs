//! The parts of a column of URLs, one part a call: `rfc1738.arrow.host`,
//! `port`, `part(column, "ftp.typecode")`, ...; and `rfc1738.arrow.parse`,
//! every part at once.
//!
//! Each URL is read once: by the bulk validator where its masks tell the
//! part (`Checker::read` gives where a login lies; the scheme, search and
//! fragment follow from a valid URL's delimiters), else by the library's
//! borrowing parse (`UrlRef`). A part written unchanged is answered as a
//! view into the input's own buffer (`views.rs`): no copy of it is made. A part the URL does not
//! have, and every part of an invalid URL, is null; an empty part is an
//! empty string (`ftp://@h/` has an empty user, `ftp://h/` none, §3.1).

use crate::arrow::{each_value, map_column_with};
use crate::views::{self, At, Parts, Strings};
use arrow_array::builder::{make_view, UInt16Builder};
use arrow_array::cast::AsArray;
use arrow_array::{
    Array, ArrayRef, BooleanArray, Int64Array, ListArray, StringViewArray, StructArray, UInt16Array,
};
use arrow_buffer::{BooleanBuffer, BooleanBufferBuilder, Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_data::ByteView;
use arrow_schema::{DataType, Field, Fields};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rfc1738::bulk::{Checker, Login, Reading};
use rfc1738::{pct, Message, SchemeKind, UrlRef, Warning, WarningKind};
use rfc1738_report::outcome::{self, Problem};
use rfc1738_report::parts::{self as named, Getter, Value};
use rfc1738_report::sql::Parsed;
use std::borrow::Cow;
use std::sync::Arc;

/// The URL `bytes` are, read without a copy; `None` when they are none.
#[inline]
fn url_of(text: &str) -> Option<UrlRef<'_>> {
    UrlRef::parse(text).ok()
}

/// A string part: how it is read, and whether it is wanted decoded.
#[derive(Clone, Copy)]
pub struct Text {
    by: By,
    decoded: bool,
}

/// How a string part is read.
#[derive(Clone, Copy)]
enum By {
    /// From the URL read by the borrowing parse.
    Parse(Getter),
    /// A slice of the URL read by the borrowing parse, as written: one
    /// accessor of `UrlRef`, called directly (no getter through a
    /// pointer, no `Value`).
    Slice(Slice),
    /// The scheme, from the bulk validator's verdict alone ([`schemes`]).
    Scheme,
    /// A part of one kind of URL (`ftp.typecode`): from the borrowing
    /// parse of a URL of that kind, null unread for any other.
    Of(SchemeKind, Getter),
}

/// The parts that are a slice of the URL as written.
#[derive(Clone, Copy)]
enum Slice {
    User,
    Password,
    Host,
    Path,
    Fragment,
    /// The search of http (after `"?"`), gopher or wais.
    Search,
}

/// Writes `value` of a row as the part asks.
#[inline]
fn write(out: &mut Parts, value: Value<'_>, row: &str, at: At, decoded: bool) {
    match value {
        // Decoded, a list's separators are decoded too (as `Url.user`
        // and `pct.decode` do; the command's template keeps them).
        Value::Written(s) | Value::List(s, _) if decoded && has_escape(&s) => {
            out.copy(&String::from_utf8_lossy(&pct::decode(&s)))
        }
        Value::Written(Cow::Borrowed(s))
        | Value::List(Cow::Borrowed(s), _)
        | Value::Plain(Cow::Borrowed(s)) => out.part(s, row, at),
        Value::Written(Cow::Owned(s)) | Value::List(Cow::Owned(s), _) | Value::Plain(Cow::Owned(s)) => {
            out.copy(&s)
        }
        Value::Port(n, _) => out.copy(&n.to_string()),
    }
}

/// The part `want` of every URL of `a`, a string-view column.
pub fn texts(a: &dyn Array, want: Text) -> Result<StringViewArray, String> {
    if let DataType::Dictionary(_, _) = a.data_type() {
        // Each value of the dictionary read once, each row its value's view.
        let dict = a.as_any_dictionary();
        if dict.values().is_empty() {
            // Only nulls can point into an empty dictionary (and arrow's
            // `normalized_keys` panics on one).
            return Ok(StringViewArray::new_null(a.len()));
        }
        let values = texts(dict.values().as_ref(), want)?;
        let nulls = a.logical_nulls();
        let keys = dict.normalized_keys();
        let rows = keys
            .iter()
            .enumerate()
            .map(|(i, &k)| (!nulls.as_ref().is_some_and(|n| n.is_null(i))).then_some(k));
        return Ok(Parts::gather(&values, rows, a.len()));
    }
    let get = match want.by {
        By::Parse(get) => (None, get),
        By::Of(kind, get) => (Some(kind), get),
        By::Scheme => return schemes(a),
        By::Slice(part) => return slices(a, want.decoded, part),
    };
    let (only, get) = get;
    let mut out = Parts::new(a.len(), views::buffers(a));
    views::each_row(a, |row| {
        let Some((bytes, at)) = row else { return out.null() };
        // A valid URL's scheme is what comes before its first ":" (§5).
        // RFC 2818 §2.4: an https URL has http's view, `http.*` parts.
        let view_of = |k: SchemeKind| if k == SchemeKind::Https { SchemeKind::Http } else { k };
        let other = |t: &str| {
            only.is_some_and(|k| {
                memchr::memchr(b':', t.as_bytes())
                    .map(|c| view_of(SchemeKind::from_bytes(&t.as_bytes()[..c])))
                    != Some(k)
            })
        };
        if other(bytes) {
            return out.null();
        }
        match url_of(bytes).and_then(|u| get(&u)) {
            Some(v) => write(&mut out, v, bytes, at, want.decoded),
            None => out.null(),
        }
    })?;
    out.finish()
}

/// The slice `part` of every URL of `a` (not a dictionary): a view of
/// it, or with `decoded` its escapes decoded (a copy).
fn slices(a: &dyn Array, decoded: bool, part: Slice) -> Result<StringViewArray, String> {
    // One loop for each accessor, called directly (not by a `match` a row).
    match part {
        // §3.10: a file URL has no login: null whether it is valid or not.
        Slice::User => parsed(a, decoded, |t| !is_file(t), |u| u.user()),
        Slice::Password => parsed(a, decoded, |t| !is_file(t), |u| u.password()),
        // §3.1: a host is letters, digits, `"-"` and `"."`: decoded, it
        // is the same text.
        Slice::Host => logins(a, false, |u| u.host(), |t, l| Some(&t[l.host_start..l.host_end])),
        // §3.1: the url-path follows the `"/"` that ends the login.
        Slice::Path => logins(a, decoded, |u| u.url_path(), |t, l| t.get(l.end + 1..)),
        Slice::Fragment | Slice::Search => delimited(a, decoded, part),
    }
}

/// The slice `get` gives of every URL of `a`, each read by the borrowing
/// parse; null, unread, where `may_have` says a URL has none.
fn parsed(
    a: &dyn Array,
    decoded: bool,
    may_have: impl Fn(&str) -> bool,
    get: impl for<'u> Fn(&UrlRef<'u>) -> Option<&'u str>,
) -> Result<StringViewArray, String> {
    let mut out = Parts::new(a.len(), views::buffers(a));
    views::each_row(a, |row| {
        let Some((text, at)) = row else { return out.null() };
        let value = if may_have(text) { url_of(text).as_ref().and_then(&get) } else { None };
        put_slice(&mut out, value, text, at, decoded);
    })?;
    out.finish()
}

/// The slice `get` gives of every URL of `a`, read by the bulk validator
/// ([`Checker::read`]): an invalid URL, or one without a login, is null
/// unparsed; one whose login the masks read is sliced by `slice`; the
/// borrowing parse reads the others.
fn logins(
    a: &dyn Array,
    decoded: bool,
    get: impl for<'u> Fn(&UrlRef<'u>) -> Option<&'u str>,
    slice: impl for<'u> Fn(&'u str, Login) -> Option<&'u str>,
) -> Result<StringViewArray, String> {
    checked(a, |out, checkers, text, at| {
        let value = match reading(checkers, text, at) {
            Reading::Login(l) => slice(text, l),
            Reading::Invalid | Reading::Opaque => None,
            // `Reading::Parse`, and any reading added later.
            _ => url_of(text).as_ref().and_then(&get),
        };
        put_slice(out, value, text, at, decoded);
    })
}

/// Every row of `a` that is not null given to `f` with the column being
/// written and a bulk validator for each buffer of `a` (a null row is
/// null).
fn checked(
    a: &dyn Array,
    mut f: impl FnMut(&mut Parts, &mut [Checker<'_>], &str, At),
) -> Result<StringViewArray, String> {
    let buffers = views::buffers(a);
    let mut checkers: Vec<Checker<'_>> = buffers.iter().map(|b| Checker::new(b.as_slice())).collect();
    let mut out = Parts::new(a.len(), buffers.clone());
    views::each_row(a, |row| match row {
        Some((text, at)) => f(&mut out, &mut checkers, text, at),
        None => out.null(),
    })?;
    out.finish()
}

/// What the bulk validator over the buffer `text` lies in reads of it
/// ([`Checker::read`]); the parse's to say for a value held elsewhere.
#[inline(always)]
fn reading(checkers: &mut [Checker<'_>], text: &str, at: At) -> Reading {
    match at {
        At::Buffer(b, start) => {
            let start = start as usize;
            checkers[b as usize].read(start..start + text.len())
        }
        At::Elsewhere => Reading::Parse,
    }
}

/// Whether the URL `text` is valid: by the bulk validator over the buffer
/// it lies in, or the validator of the parse for a value held elsewhere.
#[inline(always)]
fn verdict(checkers: &mut [Checker<'_>], text: &str, at: At) -> bool {
    match at {
        At::Buffer(b, start) => {
            let start = start as usize;
            checkers[b as usize].is_valid(start..start + text.len())
        }
        At::Elsewhere => rfc1738::validate(text).is_ok(),
    }
}

/// Whether the scheme of `text` is `file` (§2.1: in any case).
#[inline]
fn is_file(text: &str) -> bool {
    text.as_bytes().first_chunk::<5>().is_some_and(|w| w.eq_ignore_ascii_case(b"file:"))
}

/// Whether `s` holds an escape (§2.2: a `"%"` starts one).
#[inline(always)]
fn has_escape(s: &str) -> bool {
    memchr::memchr(b'%', s.as_bytes()).is_some()
}

/// Writes the slice `value` of the URL `text`: a view of it, or with
/// `decoded` its escapes decoded (a copy). Inlined into each loop: a call
/// a row costs some 20 instructions.
#[inline(always)]
fn put_slice(out: &mut Parts, value: Option<&str>, text: &str, at: At, decoded: bool) {
    match value {
        Some(s) if decoded && has_escape(s) => out.copy(&String::from_utf8_lossy(&pct::decode(s))),
        Some(s) => out.part(s, text, at),
        None => out.null(),
    }
}

/// The fragment or the search of every URL of `a`, without parsing most
/// of them: a URL is judged by the bulk validator (as [`schemes`] does),
/// an invalid one is null, and a valid one is sliced at its delimiters
/// ([`delimited_part`]); the borrowing parse reads only a valid gopher or
/// wais URL's search.
fn delimited(a: &dyn Array, decoded: bool, part: Slice) -> Result<StringViewArray, String> {
    checked(a, |out, checkers, text, at| {
        let valid = verdict(checkers, text, at);
        let value = match valid.then(|| delimited_part(text, part)) {
            None => None,
            Some(Some(value)) => value,
            Some(None) => url_of(text).as_ref().and_then(named::search),
        };
        put_slice(out, value, text, at, decoded);
    })
}

/// The fragment or the search of `text`, a URL the bulk validator finds
/// valid, read from its delimiters alone: `Some(None)` when it has none,
/// `None` when the parse must say (the search of gopher or wais).
///
/// No rule but the fragment's accepts `"#"` (§2.2), so the first one
/// starts the fragment. Only http, gopher and wais have a search; in http
/// it follows the first `"?"` (§3.3: `"http://" hostport [ "/" hpath [
/// "?" search ]]`, and no `"?"` is in a hostport or an hpath).
#[inline]
fn delimited_part(text: &str, part: Slice) -> Option<Option<&str>> {
    let b = text.as_bytes();
    if let Slice::Search = part {
        let colon = memchr::memchr(b':', b)?;
        match SchemeKind::from_bytes(&b[..colon]) {
            // RFC 2818 §2.4: https has http's search.
            SchemeKind::Http | SchemeKind::Https => {}
            SchemeKind::Gopher | SchemeKind::Wais => return None,
            _ => return Some(None),
        }
        return Some(match memchr::memchr2(b'?', b'#', b) {
            Some(q) if b[q] == b'?' => {
                let end = memchr::memchr(b'#', &b[q..]).map_or(b.len(), |h| q + h);
                Some(&text[q + 1..end])
            }
            _ => None,
        });
    }
    Some(memchr::memchr(b'#', b).map(|h| &text[h + 1..]))
}

/// The scheme of every URL of `a`, lower-cased (§2.1), without parsing
/// it: a URL is `scheme ":" schemepart` (§5) and a scheme holds no
/// `":"`, so the scheme of a URL the bulk validator finds valid is what
/// comes before its first `":"`. (The validator decides most URLs from
/// masks of their bytes; a parse reads every part.)
fn schemes(a: &dyn Array) -> Result<StringViewArray, String> {
    checked(a, |out, checkers, text, at| {
        let valid = verdict(checkers, text, at);
        let colon = if valid { memchr::memchr(b':', text.as_bytes()) } else { None };
        match colon.map(|c| &text[..c]) {
            Some(s) if s.bytes().any(|b| b.is_ascii_uppercase()) => out.copy(&s.to_ascii_lowercase()),
            Some(s) => out.part(s, text, at),
            None => out.null(),
        }
    })
}

/// A port of every URL of `a`: the one written, or the effective one.
pub fn ports(a: &dyn Array, effective: bool) -> Result<UInt16Array, String> {
    let port = |u: UrlRef<'_>| if effective { u.effective_port() } else { u.port() };
    if let DataType::Dictionary(_, _) = a.data_type() {
        let dict = a.as_any_dictionary();
        if dict.values().is_empty() {
            // Only nulls can point into an empty dictionary.
            return Ok(UInt16Array::new_null(a.len()));
        }
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
    views::each_row(a, |row| {
        // §3.10: a file URL has no port, nor a default one: null whether
        // it is valid or not, and not read.
        out.append_option(row.filter(|&(t, _)| !is_file(t)).and_then(|(t, _)| url_of(t)).and_then(port))
    })?;
    Ok(out.finish())
}

/// What a part's name asks for.
#[derive(Clone, Copy)]
enum Want {
    Text(By),
    Port { effective: bool },
}

/// The part named `name` (a name of `parse --get`), or why it is not one
/// a column of parts answers.
fn want(name: &str) -> PyResult<Want> {
    match name {
        "scheme" => return Ok(Want::Text(By::Scheme)),
        "kind" => return Ok(Want::Text(By::Parse(|u| Some(Value::Plain(Cow::Borrowed(u.kind().name())))))),
        "search" => return Ok(Want::Text(By::Slice(Slice::Search))),
        "user" => return Ok(Want::Text(By::Slice(Slice::User))),
        "password" => return Ok(Want::Text(By::Slice(Slice::Password))),
        "host" => return Ok(Want::Text(By::Slice(Slice::Host))),
        "path" => return Ok(Want::Text(By::Slice(Slice::Path))),
        "fragment" => return Ok(Want::Text(By::Slice(Slice::Fragment))),
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
        Some(k) => {
            // `ftp.typecode` is said of an ftp URL alone, `other.…` of one
            // of a scheme of no section of §3.
            let kind = match name.split_once('.').map(|(s, _)| s) {
                Some("ftp") => Some(SchemeKind::Ftp),
                Some("http") => Some(SchemeKind::Http),
                Some("gopher") => Some(SchemeKind::Gopher),
                Some("mailto") => Some(SchemeKind::Mailto),
                Some("news") => Some(SchemeKind::News),
                Some("nntp") => Some(SchemeKind::Nntp),
                Some("telnet") => Some(SchemeKind::Telnet),
                Some("wais") => Some(SchemeKind::Wais),
                Some("file") => Some(SchemeKind::File),
                Some("prospero") => Some(SchemeKind::Prospero),
                Some("other") => Some(SchemeKind::Other),
                _ => None,
            };
            let get = named::PARTS[k].1;
            Ok(Want::Text(kind.map_or(By::Parse(get), |kind| By::Of(kind, get))))
        }
        None => Err(PyValueError::new_err(format!(
            "unknown part {name:?} (the parts: {}, path, search)",
            named::names()
                .filter(|n| !matches!(*n, "input" | "valid" | "warnings") && !n.starts_with("error."))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// How a kernel reads: the part, decoded or not, views or plain strings,
/// strictly or leniently.
#[derive(Clone, Copy)]
struct How {
    decoded: bool,
    views: bool,
    lenient: bool,
}

fn run(py: Python<'_>, column: &Bound<'_, PyAny>, name: &str, want: Want, how: How) -> PyResult<Py<PyAny>> {
    let How { decoded, views, lenient } = how;
    if lenient {
        let name = name.to_owned();
        return map_column_with(py, column, move |a| {
            views::plain(lenient_parts(a, &name, want, decoded)?, Strings::for_input(a.data_type(), views))
        });
    }
    match want {
        Want::Text(by) => {
            let text = Text { by, decoded };
            map_column_with(py, column, move |a| {
                views::plain(Arc::new(texts(a, text)?), Strings::for_input(a.data_type(), views))
            })
        }
        Want::Port { effective } => {
            map_column_with(py, column, move |a| Ok(Arc::new(ports(a, effective)?) as ArrayRef))
        }
    }
}

/// The part ``name`` of each URL, any part ``rfc1738 parse --get`` names
/// (``"host"``, ``"ftp.typecode"``, ``"gopher.selector"``, ...), and
/// ``"path"`` (the url-path) and ``"search"`` (the search of http,
/// gopher or wais).
///
/// Returns a ``pyarrow.Array`` for an array, a ``pyarrow.ChunkedArray``
/// for a stream: strings (``uint16`` for ``"port"`` and
/// ``"effective_port"``), the part as written in the URL, or with
/// ``decoded=True`` its ``%HH`` escapes decoded (octets that are not UTF-8
/// replaced by U+FFFD); null where the URL is invalid (or null) or has no
/// such part, ``""`` where the part is empty. The strings are ``string``
/// (``large_string`` for a large input); ``views=True`` gives string
/// views into the input's own buffers, with no copy.
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
#[pyo3(signature = (column, name, *, decoded = None, views = false, lenient = false))]
fn arrow_part(
    py: Python<'_>,
    column: &Bound<'_, PyAny>,
    name: &str,
    decoded: Option<bool>,
    views: bool,
    lenient: bool,
) -> PyResult<Py<PyAny>> {
    let decoded = decoded.unwrap_or_else(|| decoded_by_default(name));
    run(py, column, name, want(name)?, How { decoded, views, lenient })
}

/// Whether a part is decoded when `decoded=` is not given: the user and
/// the password, which are names (as `Url.user` and the SQL functions
/// give them); every other part as written, whose escapes may be its
/// structure (`%2F` in a path, §2.2).
fn decoded_by_default(name: &str) -> bool {
    matches!(name, "user" | "password")
}

macro_rules! single {
    ($($fn:ident $name:literal $what:literal $example:literal;)*) => {$(
        #[doc = concat!("The ", $what, " of each URL: its ``%HH`` escapes decoded with\n",
            "``decoded=True`` (the default of ``user`` and ``password`` alone),\n",
            "as written with ``decoded=False``. Null where the URL is\n",
            "invalid (or null) or has none; ``\"\"`` where it is empty.\n\n",
            "Returns a ``pyarrow.Array`` of ``string`` for an array (``large_string``\n",
            "for a large input), a ``pyarrow.ChunkedArray`` for a stream;\n",
            "``views=True`` gives string views into the input's buffers (no copy).\n",
            "``lenient=True`` reads each URL accepting the deviations of\n",
            "``rfc1738 parse --lenient`` (each parsed in full, its part copied).\n\n",
            "Raises ``TypeError`` for a column that is not one of strings.\n\n",
            ">>> import pyarrow as pa\n>>> from rfc1738 import arrow\n",
            $example)]
        #[pyfunction]
        #[pyo3(signature = (column, *, decoded = None, views = false, lenient = false))]
        fn $fn(
            py: Python<'_>,
            column: &Bound<'_, PyAny>,
            decoded: Option<bool>,
            views: bool,
            lenient: bool,
        ) -> PyResult<Py<PyAny>> {
            let decoded = decoded.unwrap_or_else(|| decoded_by_default($name));
            run(py, column, $name, want($name)?, How { decoded, views, lenient })
        }
    )*};
}

single! {
    arrow_scheme "scheme" "scheme, lower-cased (§2.1)"
        ">>> arrow.scheme(pa.array([\"HTTP://h.dom/\", \"bad\"])).to_pylist()\n['http', None]";
    arrow_user "user" "user name (§3.1)"
        ">>> arrow.user(pa.array([\"ftp://a%20b@h.dom/\", \"ftp://h.dom/\"])).to_pylist()\n['a b', None]";
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
#[pyo3(signature = (column, *, lenient = false))]
fn arrow_port(py: Python<'_>, column: &Bound<'_, PyAny>, lenient: bool) -> PyResult<Py<PyAny>> {
    let how = How { decoded: false, views: false, lenient };
    run(py, column, "port", Want::Port { effective: false }, how)
}

/// The port of each URL to connect to (§3.1): the port written, or the
/// scheme's default (§3: 21 for ftp, 80 for http, ...), as ``uint16``;
/// null where the URL is invalid (or null), has no ``//`` login, or
/// writes a port above 65535.
///
/// Raises ``TypeError`` for a column that is not one of strings.
///
/// >>> import pyarrow as pa
/// >>> from rfc1738 import arrow
/// >>> arrow.effective_port(pa.array(["http://h.dom:8080/", "http://h.dom/", "mailto:a@b.dom"])).to_pylist()
/// [8080, 80, None]
#[pyfunction]
#[pyo3(signature = (column, *, lenient = false))]
fn arrow_effective_port(py: Python<'_>, column: &Bound<'_, PyAny>, lenient: bool) -> PyResult<Py<PyAny>> {
    let how = How { decoded: false, views: false, lenient };
    run(py, column, "effective_port", Want::Port { effective: true }, how)
}

/// The part `name` of each URL of `a` read leniently (§2.2, §3.1: the
/// deviations `--lenient` accepts): a copy of each part, each URL parsed
/// in full (`rfc1738_report::sql::part_with`); the ports as `uint16`.
fn lenient_parts(a: &dyn Array, name: &str, want: Want, decoded: bool) -> Result<ArrayRef, String> {
    // Each URL's part written as the URL is read: no URL kept past its row.
    let read = |b: &[u8]| outcome::parse_bytes_with(b, &outcome::options(true)).ok().map(|(u, _)| u);
    if let Want::Port { effective } = want {
        let mut ports = arrow_array::builder::UInt16Builder::with_capacity(a.len());
        each_value(a, |v| {
            let url = v.and_then(read).filter(rfc1738::Url::has_authority);
            ports.append_option(url.and_then(|u| if effective { u.effective_port() } else { u.port() }));
        })?;
        return Ok(Arc::new(ports.finish()));
    }
    let mut out = arrow_array::builder::StringBuilder::with_capacity(a.len(), 0);
    let mut failed = None;
    each_value(a, |v| match v.and_then(read) {
        Some(u) => match rfc1738_report::sql::part_with(&u.as_url_ref(), name, decoded) {
            Ok(part) => out.append_option(part),
            Err(why) => {
                failed.get_or_insert(why);
                out.append_null();
            }
        },
        None => out.append_null(),
    })?;
    match failed {
        Some(why) => Err(why),
        None => Ok(Arc::new(out.finish())),
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(arrow_part, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_parse, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_scheme, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_user, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_password, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_host, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_port, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_effective_port, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_path, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_search, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_fragment, m)?)?;
    Ok(())
}

/// The columns of `parse`: the top-level fields of `parse --json`, and
/// the error's.
///
/// What a row costs is mostly the memory it is written to (every column
/// is a fresh allocation the system zeroes page by page), so each column
/// takes the cheapest layout for what it holds:
///
/// - `input` is the input column itself when it is one of strings (no
///   copy, its own type); a view of each row otherwise;
/// - the parts are string views into the input's buffers, written only
///   where a row has the part (the mostly-null user, password, fragment
///   cost the pages their few values fall in);
/// - the warnings' `kind` and `message`, a few texts repeated over and
///   over, are views into one copy of each (`Interned`);
/// - the error's texts, copied and null for most rows, are plain strings
///   (4 bytes of offset a row, not a 16-byte view).
struct ParseColumns {
    input: Input,
    /// The bits of `valid`, by row: all set at first, and a row that is
    /// not valid, or null, clears its own (most rows write nothing). Its
    /// nulls are the struct's.
    valid: Vec<u8>,
    scheme: Parts,
    kind: Parts,
    /// The view of the kind of the row before (most rows of a column
    /// share theirs).
    last_kind: (SchemeKind, u128),
    /// The scheme of the row before ([`scheme_key`]) and its view: most
    /// rows of a column share theirs, and a scheme held in its view is
    /// the same view wherever it lies.
    last_scheme: (u128, u128),
    user: Parts,
    password: Parts,
    host: Parts,
    port: Sparse<u16>,
    effective_port: Sparse<u16>,
    url_path: Parts,
    fragment: Parts,
    warnings: WarningViews,
    /// The errors of the invalid rows, by row: the error's columns are
    /// made from them at the end.
    errors: Vec<(usize, Problem)>,
    /// The rows that are not null, a bit each (all set at first, a null
    /// row clears its own), and how many rows are written.
    rows: Vec<u8>,
    len: usize,
}

/// The first sixteen bytes of `text` with all but its scheme's `n`
/// cleared: equal for two texts with the same scheme (no byte of a
/// scheme is zero, so neither is the key, and a longer scheme shows in
/// its next byte). `None` for a scheme longer than a view holds, or a
/// text shorter than sixteen bytes.
#[inline(always)]
fn scheme_key(text: &str, n: usize) -> Option<u128> {
    let word = u128::from_le_bytes(*text.as_bytes().first_chunk::<16>()?);
    Some(word & SCHEME_MASKS.get(n)?)
}

/// [`scheme_key`]'s masks by the scheme's length.
const SCHEME_MASKS: [u128; MAX_INLINE + 1] = {
    let mut masks = [0u128; MAX_INLINE + 1];
    let mut n = 0;
    while n <= MAX_INLINE {
        masks[n] = (1u128 << (8 * n)) - 1;
        n += 1;
    }
    masks
};

/// Clears the bit of `row` in `bits`.
#[inline]
fn clear_bit(bits: &mut [u8], row: usize) {
    bits[row / 8] &= !(1 << (row % 8));
}

/// A column of numbers written only where a row has one: the values and
/// their validity start zeroed, and a null row writes nothing.
struct Sparse<T> {
    values: Vec<T>,
    valid: Vec<u8>,
    row: usize,
}

impl<T: Copy + Default> Sparse<T> {
    fn new(len: usize) -> Self {
        Sparse { values: vec![T::default(); len], valid: vec![0; len.div_ceil(8)], row: 0 }
    }

    #[inline]
    fn push(&mut self, value: Option<T>) {
        if let Some(v) = value {
            self.values[self.row] = v;
            self.valid[self.row / 8] |= 1 << (self.row % 8);
        }
        self.row += 1;
    }

    fn nulls(valid: Vec<u8>, len: usize) -> Option<NullBuffer> {
        let nulls = NullBuffer::new(BooleanBuffer::new(Buffer::from_vec(valid), 0, len));
        (nulls.null_count() > 0).then_some(nulls)
    }
}

impl Sparse<u16> {
    fn finish(self) -> UInt16Array {
        let len = self.values.len();
        UInt16Array::new(ScalarBuffer::from(self.values), Self::nulls(self.valid, len))
    }
}

/// The error's columns of `len` rows, from the errors of the rows that
/// have one (in the order of their rows).
fn error_columns(len: usize, errors: &[(usize, Problem)]) -> Vec<ArrayRef> {
    let mut offset = Sparse::<i64>::new(len);
    for (row, p) in errors {
        offset.row = *row;
        offset.push(Some(p.offset as i64));
    }
    let offsets = Int64Array::new(ScalarBuffer::from(offset.values), Sparse::<i64>::nulls(offset.valid, len));
    // The three texts share their nulls: the rows without an error.
    let mut valid = vec![0u8; len.div_ceil(8)];
    for (row, _) in errors {
        valid[row / 8] |= 1 << (row % 8);
    }
    let nulls = Sparse::<i64>::nulls(valid, len);
    let texts = |text: fn(&Problem) -> &str| -> ArrayRef {
        let mut values = Vec::new();
        let mut ends = Vec::with_capacity(len + 1);
        // The rows up to an error's, and the rows after the last, end
        // where the text so far does: written a run at a time.
        for (row, p) in errors {
            ends.resize(*row + 1, values.len() as i32);
            values.extend_from_slice(text(p).as_bytes());
        }
        ends.resize(len + 1, values.len() as i32);
        // Each text a `str`, each end after one: not checked again.
        Arc::new(crate::ffi::strings(ScalarBuffer::from(ends), Buffer::from_vec(values), nulls.clone()))
    };
    vec![Arc::new(offsets), texts(|p| p.kind), texts(|p| p.rule), texts(|p| p.message.as_ref())]
}

/// The `input` field: the column given, or its rows as views.
enum Input {
    Given(ArrayRef),
    Views(Parts),
}

impl Input {
    /// Nothing for a column given; inlined, so a row of one costs nothing.
    #[inline(always)]
    fn push(&mut self, text: &str, at: At) {
        if let Input::Views(p) = self {
            p.part(text, text, at);
        }
    }

    fn null(&mut self) {
        if let Input::Views(p) = self {
            p.null();
        }
    }

    fn finish(self) -> Result<ArrayRef, String> {
        Ok(match self {
            Input::Given(a) => a,
            Input::Views(p) => Arc::new(p.finish()?),
        })
    }
}

/// A text of a row, or null.
#[inline]
fn put(out: &mut Parts, value: Option<&str>, row: &str, at: At) {
    match value {
        Some(v) => out.part(v, row, at),
        None => out.null(),
    }
}

/// A decoded part of a row (lossy UTF-8), or null. Inlined: most rows
/// have no user nor password, and a null costs less than the call.
#[inline(always)]
fn put_decoded(out: &mut Parts, value: Option<&str>, row: &str, at: At) {
    match value {
        Some(v) if has_escape(v) => out.copy(&String::from_utf8_lossy(&pct::decode(v))),
        other => put(out, other, row, at),
    }
}

impl ParseColumns {
    fn new(a: &dyn Array, lenient: bool) -> Self {
        let n = a.len();
        let views = || Parts::new(n, views::buffers(a));
        let sparse = || Parts::sparse(n, views::buffers(a));
        let own = || Parts::new(n, Vec::new());
        let input = match a.data_type() {
            // A string column is its own input: a row's text is the text
            // given (read leniently too, as it is UTF-8).
            DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => Input::Given(a.slice(0, n)),
            _ => Input::Views(if lenient { own() } else { views() }),
        };
        ParseColumns {
            input,
            valid: vec![0xff; n.div_ceil(8)],
            scheme: views(),
            kind: own(),
            last_kind: (SchemeKind::Other, make_view(SchemeKind::Other.name().as_bytes(), 0, 0)),
            // No scheme is empty: no key is 0.
            last_scheme: (0, 0),
            user: sparse(),
            password: sparse(),
            host: views(),
            port: Sparse::new(n),
            effective_port: Sparse::new(n),
            url_path: views(),
            fragment: sparse(),
            warnings: WarningViews::new(n),
            errors: Vec::new(),
            rows: vec![0xff; n.div_ceil(8)],
            len: 0,
        }
    }

    /// Begins a row that is not null: its index.
    #[inline]
    fn begin(&mut self) -> usize {
        let row = self.len;
        self.len += 1;
        row
    }

    /// A row read strictly by the borrowing parse; one whose warnings
    /// hold more than the §6 checks (an upper-case scheme, §2.1) through
    /// [`Parsed`], as a lenient one.
    fn push_strict(&mut self, text: &str, at: At) {
        let parsed = UrlRef::parse(text);
        // The scheme of the row before, lower-case already, or one to
        // look at (§2.1: an upper-case letter is the parse's warning).
        let key = parsed.as_ref().ok().and_then(|u| scheme_key(text, u.scheme().len()));
        let known = key.is_some_and(|k| k == self.last_scheme.0);
        match parsed {
            Ok(u) if known || !u.scheme().bytes().any(|b| b.is_ascii_uppercase()) => {
                self.begin();
                self.input.push(text, at);
                if known {
                    self.scheme.view(self.last_scheme.1);
                } else {
                    self.scheme.part(u.scheme(), text, at);
                    if let Some(k) = key {
                        self.last_scheme = (k, make_view(u.scheme().as_bytes(), 0, 0));
                    }
                }
                let kind = u.kind();
                if kind != self.last_kind.0 {
                    // A kind's name is short: held in its view.
                    self.last_kind = (kind, make_view(kind.name().as_bytes(), 0, 0));
                }
                self.kind.view(self.last_kind.1);
                let login = u.has_authority();
                put_decoded(&mut self.user, u.user().filter(|_| login), text, at);
                put_decoded(&mut self.password, u.password().filter(|_| login), text, at);
                put(&mut self.host, u.host().filter(|_| login), text, at);
                self.port.push(u.port().filter(|_| login));
                self.effective_port.push(u.effective_port().filter(|_| login));
                put(&mut self.url_path, u.url_path().filter(|_| login), text, at);
                put(&mut self.fragment, u.fragment(), text, at);
                self.warnings.push_security(&u);
                self.error(None);
            }
            Ok(_) => self.push_parsed(&Parsed::new(text.as_bytes(), false), text, at),
            Err(e) => {
                let row = self.begin();
                clear_bit(&mut self.valid, row);
                self.input.push(text, at);
                match outcome::scheme_of(text.as_bytes()) {
                    Some(s) => {
                        self.kind.copy(SchemeKind::from_bytes(s.as_bytes()).name());
                        self.scheme.part(&s, text, at);
                    }
                    None => {
                        self.scheme.null();
                        self.kind.null();
                    }
                }
                self.no_url();
                self.warnings.push(&[]);
                self.error(Some(Problem::from(e)));
            }
        }
    }

    /// A row as [`Parsed`] reads it: leniently, or strictly with warnings
    /// of the parse.
    fn push_parsed(&mut self, p: &Parsed, text: &str, at: At) {
        let row = self.begin();
        self.input.push(text, at);
        if !p.is_valid() {
            clear_bit(&mut self.valid, row);
        }
        put(&mut self.scheme, p.scheme(), text, at);
        put(&mut self.kind, p.kind(), text, at);
        put(&mut self.user, p.user().as_deref(), text, at);
        put(&mut self.password, p.password().as_deref(), text, at);
        put(&mut self.host, p.host(), text, at);
        self.port.push(p.port());
        self.effective_port.push(p.effective_port());
        put(&mut self.url_path, p.url_path(), text, at);
        put(&mut self.fragment, p.fragment(), text, at);
        self.warnings.push(p.warnings());
        self.error(p.error().cloned());
    }

    fn push_null(&mut self) {
        clear_bit(&mut self.rows, self.len);
        clear_bit(&mut self.valid, self.len);
        self.len += 1;
        self.input.null();
        self.scheme.null();
        self.kind.null();
        self.no_url();
        self.warnings.push(&[]);
        self.error(None);
    }

    /// The fields of a URL, null.
    fn no_url(&mut self) {
        self.user.null();
        self.password.null();
        self.host.null();
        self.port.push(None);
        self.effective_port.push(None);
        self.url_path.null();
        self.fragment.null();
    }

    /// The error of the row just begun, if it has one.
    fn error(&mut self, p: Option<Problem>) {
        if let Some(p) = p {
            self.errors.push((self.len - 1, p));
        }
    }

    /// The struct's fields for an input of type `input`.
    fn fields(input: &DataType) -> Fields {
        let v = |name: &str| Field::new(name, DataType::Utf8View, true);
        let s = |name: &str| Field::new(name, DataType::Utf8, true);
        let input = match input {
            DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => input.clone(),
            _ => DataType::Utf8View,
        };
        vec![
            Field::new("input", input, true),
            Field::new("valid", DataType::Boolean, true),
            v("scheme"),
            v("kind"),
            v("user"),
            v("password"),
            v("host"),
            Field::new("port", DataType::UInt16, true),
            Field::new("effective_port", DataType::UInt16, true),
            v("url_path"),
            v("fragment"),
            Field::new("warnings", WarningViews::data_type(), true),
            Field::new("error_offset", DataType::Int64, true),
            s("error_kind"),
            s("error_rule"),
            s("error_message"),
        ]
        .into()
    }

    fn finish(self, input: &DataType) -> Result<ArrayRef, String> {
        let len = self.len;
        let nulls = NullBuffer::new(BooleanBuffer::new(Buffer::from_vec(self.rows), 0, len));
        let nulls = (nulls.null_count() > 0).then_some(nulls);
        let valid = BooleanBuffer::new(Buffer::from_vec(self.valid), 0, len);
        let columns: Vec<ArrayRef> = vec![
            self.input.finish()?,
            Arc::new(BooleanArray::new(valid, nulls.clone())),
            Arc::new(self.scheme.finish()?),
            Arc::new(self.kind.finish()?),
            Arc::new(self.user.finish()?),
            Arc::new(self.password.finish()?),
            Arc::new(self.host.finish()?),
            Arc::new(self.port.finish()),
            Arc::new(self.effective_port.finish()),
            Arc::new(self.url_path.finish()?),
            Arc::new(self.fragment.finish()?),
            self.warnings.finish(nulls.clone())?,
        ];
        let mut columns = columns;
        columns.extend(error_columns(len, &self.errors));
        let s = StructArray::try_new(Self::fields(input), columns, nulls).map_err(|e| e.to_string())?;
        Ok(Arc::new(s))
    }
}

/// The `warnings` of `parse`: a list of `{offset, len, kind, security,
/// message}` a row, whose `kind` and `message` are views into one copy
/// of each distinct text (the same few warnings recur down a column).
struct WarningViews {
    offset: Vec<i64>,
    len: Vec<i64>,
    kind: Interned,
    security: BooleanBufferBuilder,
    message: Interned,
    offsets: Vec<i32>,
    /// The kind of the warning before and its view (most warnings of a
    /// column are of a few kinds, one after another).
    last_kind: Option<(WarningKind, u128)>,
}

impl WarningViews {
    /// Room for one warning a row (a column of the corpus has fewer):
    /// the columns are not grown, nor copied, as the rows are written.
    fn new(rows: usize) -> Self {
        let mut offsets = Vec::with_capacity(rows + 1);
        offsets.push(0);
        WarningViews {
            offset: Vec::with_capacity(rows),
            len: Vec::with_capacity(rows),
            kind: Interned::with_capacity(rows),
            security: BooleanBufferBuilder::new(rows),
            message: Interned::with_capacity(rows),
            offsets,
            last_kind: None,
        }
    }

    /// One row (a null one holds none: the list's nulls are the
    /// struct's).
    fn push(&mut self, warnings: &[Warning]) {
        for w in warnings {
            self.offset.push(w.offset() as i64);
            self.len.push(w.len() as i64);
            self.kind.push(w.kind().id());
            self.security.append(w.kind().is_security());
            self.message.push(w.message());
        }
        self.end_row(warnings.len());
    }

    /// One row: the security warnings of `url`, their messages written
    /// only when the column has not seen them yet.
    fn push_security(&mut self, url: &UrlRef<'_>) {
        let mut n = 0;
        url.for_each_security_warning(|w| {
            self.offset.push(w.offset() as i64);
            self.len.push(w.len() as i64);
            let kind = w.kind();
            match self.last_kind {
                Some((k, view)) if k == kind => self.kind.views.push(view),
                _ => {
                    self.kind.push(kind.id());
                    self.last_kind = self.kind.views.last().map(|&v| (kind, v));
                }
            }
            self.security.append(kind.is_security());
            self.message.push_message(w.message());
            n += 1;
        });
        self.end_row(n);
    }

    /// The row just written holds `count` warnings.
    #[inline]
    fn end_row(&mut self, count: usize) {
        let last = *self.offsets.last().expect("starts with 0");
        self.offsets.push(last + count as i32);
    }

    fn item_fields() -> Fields {
        vec![
            Field::new("offset", DataType::Int64, false),
            Field::new("len", DataType::Int64, false),
            Field::new("kind", DataType::Utf8View, false),
            Field::new("security", DataType::Boolean, false),
            Field::new("message", DataType::Utf8View, false),
        ]
        .into()
    }

    fn data_type() -> DataType {
        DataType::List(Arc::new(Field::new("item", DataType::Struct(Self::item_fields()), false)))
    }

    fn finish(mut self, nulls: Option<NullBuffer>) -> Result<ArrayRef, String> {
        let columns: Vec<ArrayRef> = vec![
            Arc::new(Int64Array::from(self.offset)),
            Arc::new(Int64Array::from(self.len)),
            Arc::new(self.kind.finish()),
            Arc::new(BooleanArray::new(self.security.finish(), None)),
            Arc::new(self.message.finish()),
        ];
        let items = StructArray::try_new(Self::item_fields(), columns, None).map_err(|e| e.to_string())?;
        let item = Arc::new(Field::new("item", items.data_type().clone(), false));
        let list = ListArray::try_new(item, OffsetBuffer::new(self.offsets.into()), Arc::new(items), nulls)
            .map_err(|e| e.to_string())?;
        Ok(Arc::new(list))
    }
}

/// A string-view column of texts that recur: each distinct text longer
/// than a view holds is copied once, and its later rows share that copy
/// (a table of the texts seen last, found by a hash of a few of their
/// words; a text the table has lost is copied again, which is only
/// slower).
struct Interned {
    views: Vec<u128>,
    own: Vec<u8>,
    buffers: Vec<Buffer>,
    seen: Box<[u128; SEEN]>,
    /// The messages seen last, by a hash of their pieces and args: the
    /// address and length of their pieces, and their view.
    said: Box<[(usize, u128); SEEN]>,
}

/// Slots in [`Interned`]'s table.
const SEEN: usize = 256;

impl Interned {
    fn with_capacity(rows: usize) -> Self {
        Interned {
            views: Vec::with_capacity(rows),
            own: Vec::new(),
            buffers: Vec::new(),
            seen: Box::new([0; SEEN]),
            said: Box::new([(0, 0); SEEN]),
        }
    }

    /// A slot for `text`, longer than a view holds: its length and three
    /// of its words (the start, the middle, the end), mixed.
    #[inline]
    fn slot(text: &[u8]) -> usize {
        let word = |i: usize| u64::from_le_bytes(text[i..i + 8].try_into().expect("8 bytes"));
        let n = text.len();
        let h = (n as u64) ^ word(0) ^ word(n / 2 - 4).rotate_left(21) ^ word(n - 8).rotate_left(42);
        (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as usize % SEEN
    }

    fn push(&mut self, text: &str) {
        let b = text.as_bytes();
        if b.len() <= MAX_INLINE {
            self.views.push(make_view(b, 0, 0));
            return;
        }
        let slot = Self::slot(b);
        let known = self.seen[slot];
        if known != 0 {
            let v = ByteView::from(known);
            let start = v.offset as usize;
            if v.length as usize == b.len()
                && v.buffer_index as usize == self.buffers.len()
                && &self.own[start..start + b.len()] == b
            {
                self.views.push(known);
                return;
            }
        }
        if self.own.len() + b.len() > OWN_MAX {
            self.buffers.push(Buffer::from_vec(std::mem::take(&mut self.own)));
        }
        let view = make_view(b, self.buffers.len() as u32, self.own.len() as u32);
        self.own.extend_from_slice(b);
        self.seen[slot] = view;
        self.views.push(view);
    }

    /// A warning's message, written only when the table does not hold
    /// it: two messages with the same pieces (one `&'static` slice, known
    /// by its address) and the same args are the same text, so only the
    /// args are hashed and compared (a remote-file message: its host).
    fn push_message(&mut self, m: &Message<'_>) {
        let pieces = m.pieces();
        if let [text] = pieces {
            return self.push(text);
        }
        // The slice's address and length (an address is below 2^57).
        let key = pieces.as_ptr() as usize ^ (pieces.len() << 58);
        let mut h = key as u64;
        let mut len = pieces.iter().map(|p| p.len()).sum::<usize>();
        for a in m.args() {
            h = h.rotate_left(23) ^ Self::mix(a.as_bytes());
            len += a.len();
        }
        let slot = (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as usize % SEEN;
        let (known, view) = self.said[slot];
        if known == key {
            let v = ByteView::from(view);
            if v.length as usize == len && v.buffer_index as usize == self.buffers.len() {
                let mut at = v.offset as usize + pieces[0].len();
                let same = m.args().zip(&pieces[1..]).all(|(a, p)| {
                    let here = &self.own[at..at + a.len()] == a.as_bytes();
                    at += a.len() + p.len();
                    here
                });
                if same {
                    self.views.push(view);
                    return;
                }
            }
        }
        if self.own.len() + len > OWN_MAX {
            self.buffers.push(Buffer::from_vec(std::mem::take(&mut self.own)));
        }
        let start = self.own.len();
        self.own.extend_from_slice(pieces[0].as_bytes());
        for (a, p) in m.args().zip(&pieces[1..]) {
            self.own.extend_from_slice(a.as_bytes());
            self.own.extend_from_slice(p.as_bytes());
        }
        let view = make_view(&self.own[start..], self.buffers.len() as u32, start as u32);
        if len <= MAX_INLINE {
            // Held in its view.
            self.own.truncate(start);
        } else {
            self.said[slot] = (key, view);
        }
        self.views.push(view);
    }

    /// A few words of `b`, mixed: its length, its first and last 8 bytes.
    #[inline]
    fn mix(b: &[u8]) -> u64 {
        let n = b.len();
        if n >= 8 {
            let word = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
            (n as u64) ^ word(0) ^ word(n - 8).rotate_left(29)
        } else {
            b.iter().fold(n as u64, |h, &c| (h << 8) | u64::from(c))
        }
    }

    fn finish(mut self) -> StringViewArray {
        if !self.own.is_empty() {
            self.buffers.push(Buffer::from_vec(std::mem::take(&mut self.own)));
        }
        crate::ffi::string_views(ScalarBuffer::from(self.views), self.buffers, None)
    }
}

/// The longest text a view holds in itself (Arrow's columnar format).
const MAX_INLINE: usize = 12;

/// The most bytes of [`Interned`]'s buffer before a new one is begun (a
/// view's offset is a `u32`).
const OWN_MAX: usize = 1 << 31;

/// The struct of every part of each URL of `a`: strictly by the borrowing
/// parse, leniently (or a binary value that is not UTF-8) through
/// [`Parsed`].
fn parse_column(a: &dyn Array, lenient: bool) -> Result<ArrayRef, String> {
    let mut out = ParseColumns::new(a, lenient);
    let strings = matches!(a.data_type(), DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View);
    if lenient || !strings {
        // A dictionary's rows, and binary values, copied.
        each_value(a, |v| match (v, v.map(std::str::from_utf8)) {
            (None, _) => out.push_null(),
            (Some(_), Some(Ok(text))) if !lenient => out.push_strict(text, At::Elsewhere),
            (Some(b), _) => {
                let p = Parsed::new(b, lenient);
                out.push_parsed(&p, &String::from_utf8_lossy(b), At::Elsewhere);
            }
        })?;
    } else {
        views::each_row(a, |row| match row {
            None => out.push_null(),
            Some((text, at)) => out.push_strict(text, at),
        })?;
    }
    out.finish(a.data_type())
}

/// One struct per URL: the top-level fields of ``rfc1738 parse --json``
/// (``input``, ``valid``, ``scheme``, ``kind``, ``user`` and ``password``
/// decoded, ``host``, ``port``, ``effective_port``, ``url_path``,
/// ``fragment``, ``warnings``) and the error's (``error_offset``,
/// ``error_kind``, ``error_rule``, ``error_message``); a null row where
/// the input is null.
///
/// ``input`` is the column given when it is one of strings (shared, not
/// copied: its own type); the parts and the warnings' texts are
/// ``string`` (``large_string`` for a large input); with ``views=True``
/// the parts are string views into the input, the warnings' ``kind`` and
/// ``message`` views into one copy of each distinct text.
///
/// Raises ``TypeError`` for a column that is not one of strings.
///
/// >>> import pyarrow as pa
/// >>> from rfc1738 import arrow
/// >>> row = arrow.parse(pa.array(["ftp://h.dom:21/f"]))[0].as_py()
/// >>> (row["host"], row["port"], row["url_path"], row["error_kind"])
/// ('h.dom', 21, 'f', None)
#[pyfunction]
#[pyo3(signature = (column, *, lenient = false, views = false))]
fn arrow_parse(py: Python<'_>, column: &Bound<'_, PyAny>, lenient: bool, views: bool) -> PyResult<Py<PyAny>> {
    map_column_with(py, column, move |a| {
        views::plain(parse_column(a, lenient)?, Strings::for_input(a.data_type(), views))
    })
}

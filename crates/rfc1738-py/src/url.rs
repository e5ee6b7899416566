//! One URL at a time: `parse`, `validate`, `is_valid`, the `Url` class and
//! its scheme views, `ParseError`, `extract`, and percent-encoding.

use crate::convert::{json_to_py, octets};
use pyo3::exceptions::{PyAttributeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyType};
use rfc1738::pct::{self, Context};
use rfc1738::{ResolveErrorKind, SchemeKind, Warning};
use rfc1738_report::outcome::{self, Problem};
use rfc1738_report::{diag, json};
use std::borrow::Cow;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::{Mutex, PoisonError};

pyo3::create_exception!(
    rfc1738,
    ResolveError,
    PyValueError,
    "A reference cannot be resolved against a base (RFC 1808).\n\n\
     Attributes: ``offset`` (in the reference, or in ``resolved``),\n\
     ``kind`` (``\"not-hierarchical\"``, ``\"invalid-char\"``,\n\
     ``\"invalid-escape\"`` or ``\"not-rfc1738\"``), ``reference``, and\n\
     ``resolved``: the text RFC 1808 gave when it is not an RFC 1738 URL."
);

/// The exception of `e`, for `reference`.
pub fn resolve_error(py: Python<'_>, reference: &str, e: &rfc1738::ResolveError) -> PyErr {
    let err = ResolveError::new_err(e.to_string());
    let kind = match e.kind() {
        ResolveErrorKind::NotHierarchical(_) => "not-hierarchical",
        ResolveErrorKind::InvalidChar => "invalid-char",
        ResolveErrorKind::InvalidEscape => "invalid-escape",
        _ => "not-rfc1738",
    };
    let value = err.value(py);
    let set = || -> PyResult<()> {
        value.setattr("offset", e.offset())?;
        value.setattr("kind", kind)?;
        value.setattr("reference", reference)?;
        value.setattr("resolved", e.resolved())?;
        Ok(())
    };
    match set() {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// `rfc1738.ParseError`, a Python class (`rfc1738/_errors.py`): its
/// attributes read the exception's arguments and `str()` builds the caret
/// message, so that raising one costs no more than making a tuple.
pub fn parse_error_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    static TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    TYPE.import(py, "rfc1738._errors", "ParseError")
}

/// The exception for `problem` in `input` (`original`: the object the
/// caller gave, kept as `.input`). Nothing is formatted until `str()`.
pub fn parse_error(py: Python<'_>, original: &Bound<'_, PyAny>, p: &Problem) -> PyErr {
    let message = match &p.message {
        Cow::Borrowed(m) => m,
        Cow::Owned(_) => "",
    };
    let [kind, rule, mut text] = fixed(py, [p.kind, p.rule, message]);
    if let Cow::Owned(m) = &p.message {
        text = PyString::new(py, m);
    }
    let error = parse_error_type(py).and_then(|t| t.call1((original, p.offset, kind, rule, text)));
    match error {
        Ok(e) => PyErr::from_value(e),
        Err(e) => e,
    }
}

/// The Python strings of fixed texts (an error's kind, rule and message),
/// each made once: an invalid URL then costs no new string.
fn fixed<'py, const N: usize>(py: Python<'py>, texts: [&'static str; N]) -> [Bound<'py, PyString>; N] {
    /// The strings made, in a table indexed by a hash of their text's
    /// address (a fixed text has one): a slot holds the last text that
    /// fell there, so that a collision makes a string again, never a
    /// wrong one. A probe is a multiplication and a comparison; a map's
    /// hashing and probing cost more than the rest of raising the error.
    const SLOTS: usize = 256;
    type Slot = Option<((usize, usize), Py<PyString>)>;
    static MADE: Mutex<[Slot; SLOTS]> = Mutex::new([const { None }; SLOTS]);
    // One lock for all.
    let mut made = MADE.lock().unwrap_or_else(PoisonError::into_inner);
    texts.map(|text| {
        let key = (text.as_ptr() as usize, text.len());
        let slot = &mut made[(key.0 ^ key.1).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56];
        match slot {
            Some((k, s)) if *k == key => s.bind(py).clone(),
            _ => {
                let s = PyString::new(py, text);
                *slot = Some((key, s.clone().unbind()));
                s
            }
        }
    })
}

/// `invalid URL: <why> at offset N (in rule)`, then the input with a
/// caret under the offset, as the command writes it (without colour):
/// the text of `str(ParseError)`.
#[pyfunction]
fn caret(input: &Bound<'_, PyAny>, offset: usize, rule: &str, message: &str) -> PyResult<String> {
    let input = octets(input)?;
    let shown = String::from_utf8_lossy(&input);
    let at = String::from_utf8_lossy(&input[..offset.min(input.len())]).len();
    let (printable, column) = diag::printable(&shown, at);
    let mut out = format!("invalid URL: {message} at offset {offset} (in {rule})\n").into_bytes();
    diag::write_caret(&mut out, &printable, column, false);
    while out.last() == Some(&b'\n') {
        out.pop();
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// A URL read as RFC 1738 reads it. Immutable and hashable; ``str()`` is
/// its text (the scheme lower-cased), ``==`` compares the text.
///
/// The attributes are those of ``rfc1738 parse --json``: ``scheme``,
/// ``kind``, ``user``, ``password`` (decoded; ``None`` when absent, ``""``
/// when empty), ``host``, ``port``, ``effective_port``, ``url_path``
/// (raw), ``fragment``, ``warnings``. One view per scheme (``url.ftp``,
/// ``url.gopher``, ...), ``None`` for the other schemes.
#[pyclass(frozen, module = "rfc1738")]
pub struct Url {
    url: rfc1738::Url,
    /// The text as given, when it differs from the URL's (an upper-case
    /// scheme): `to_dict` reports it as it was given.
    input: Option<String>,
    lenient: bool,
}

impl Url {
    fn new(url: rfc1738::Url, input: &str, lenient: bool) -> Url {
        let input = (input != url.as_str()).then(|| input.to_string());
        Url { url, input, lenient }
    }

    /// The text as it was given.
    fn input(&self) -> &str {
        self.input.as_deref().unwrap_or(self.url.as_str())
    }

    /// The library's URL.
    pub fn inner(&self) -> &rfc1738::Url {
        &self.url
    }

    /// A URL a builder wrote.
    pub fn from_built(url: rfc1738::Url) -> PyResult<Url> {
        Ok(Url { url, input: None, lenient: false })
    }

    fn warnings_of_parse(&self) -> Vec<Warning> {
        match outcome::parse_bytes_with(self.input().as_bytes(), &outcome::options(self.lenient)) {
            Ok((_, w)) => w,
            Err(_) => Vec::new(),
        }
    }

    fn authority<'a, T>(&'a self, f: impl FnOnce(&'a rfc1738::Url) -> Option<T>) -> Option<T> {
        if self.url.has_authority() {
            f(&self.url)
        } else {
            None
        }
    }
}

/// The view of `slf` if its scheme is `kind`.
fn view<'py>(slf: &Bound<'py, Url>, kind: SchemeKind) -> PyResult<Option<Bound<'py, PyAny>>> {
    // RFC 2818 §2.4: an https URL has the http view.
    let own = match slf.get().url.kind() {
        SchemeKind::Https => SchemeKind::Http,
        own => own,
    };
    if own != kind {
        return Ok(None);
    }
    let py = slf.py();
    let value = json::view(&slf.get().url);
    let fields = json_to_py(py, &value)?.cast_into::<PyDict>()?.unbind();
    let view = View { kind, fields, json: value.to_string(), url: slf.clone().unbind() };
    new_view(py, view).map(Some)
}

fn decoded(raw: &str) -> String {
    String::from_utf8_lossy(&pct::decode(raw)).into_owned()
}

fn warning_dict<'py>(py: Python<'py>, w: &Warning) -> PyResult<Bound<'py, PyAny>> {
    json_to_py(py, &json::warning(w))
}

#[pymethods]
impl Url {
    /// Parses ``text`` as :func:`rfc1738.parse` does.
    #[new]
    #[pyo3(signature = (text, *, lenient = false))]
    fn py_new(text: &Bound<'_, PyAny>, lenient: bool) -> PyResult<Url> {
        parse(text, lenient)
    }

    /// The scheme, lower-cased (§2.1).
    #[getter]
    fn scheme(&self) -> &str {
        self.url.scheme()
    }

    /// ``ftp http gopher mailto news nntp telnet wais file prospero other``.
    #[getter]
    fn kind(&self) -> &'static str {
        self.url.kind().name()
    }

    /// The user name, decoded; ``None`` when absent, ``""`` when empty.
    #[getter]
    fn user(&self) -> Option<String> {
        self.authority(|u| u.user().map(decoded))
    }

    /// The password, decoded; ``None`` when absent, ``""`` when empty.
    #[getter]
    fn password(&self) -> Option<String> {
        self.authority(|u| u.password().map(decoded))
    }

    /// The host, as written.
    #[getter]
    fn host(&self) -> Option<&str> {
        self.authority(|u| u.host())
    }

    /// The port written in the URL.
    #[getter]
    fn port(&self) -> Option<u16> {
        self.authority(|u| u.port())
    }

    /// The port written, or the scheme's default (§3).
    #[getter]
    fn effective_port(&self) -> Option<u16> {
        self.authority(|u| u.effective_port())
    }

    /// The url-path, raw (still encoded), without the ``/`` before it.
    #[getter]
    fn url_path(&self) -> Option<&str> {
        self.authority(|u| u.url_path())
    }

    /// The fragment identifier after ``#`` (§2.2), raw.
    #[getter]
    fn fragment(&self) -> Option<&str> {
        self.url.fragment()
    }

    /// The warnings of ``parse --json``: deviations a lenient parse
    /// accepted, a note on an upper-case scheme, and the §6 security
    /// checks; each a dict ``{offset, len, kind, security, message}``.
    #[getter]
    fn warnings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let mut all = self.warnings_of_parse();
        all.extend(self.url.security_warnings());
        all.sort_by_key(Warning::offset);
        let list = PyList::empty(py);
        for w in &all {
            list.append(warning_dict(py, w)?)?;
        }
        Ok(list)
    }

    /// Whether a lenient parse accepted deviations from §5.
    #[getter]
    fn is_lenient(&self) -> bool {
        self.url.is_lenient()
    }

    /// The ftp view (§3.2): ``cwd``, ``name``, ``typecode``, ``commands``, ``login``.
    #[getter]
    fn ftp<'py>(slf: &Bound<'py, Self>) -> PyResult<Option<Bound<'py, PyAny>>> {
        view(slf, SchemeKind::Ftp)
    }
    /// The http view (§3.3): ``path``, ``search``.
    #[getter]
    fn http<'py>(slf: &Bound<'py, Self>) -> PyResult<Option<Bound<'py, PyAny>>> {
        view(slf, SchemeKind::Http)
    }
    /// The gopher view (§3.4): ``type``, ``selector``, ``search``, ``plus``, ``request``.
    #[getter]
    fn gopher<'py>(slf: &Bound<'py, Self>) -> PyResult<Option<Bound<'py, PyAny>>> {
        view(slf, SchemeKind::Gopher)
    }
    /// The mailto view (§3.5): ``address``.
    #[getter]
    fn mailto<'py>(slf: &Bound<'py, Self>) -> PyResult<Option<Bound<'py, PyAny>>> {
        view(slf, SchemeKind::Mailto)
    }
    /// The news view (§3.6): ``group``, ``article``, ``all``.
    #[getter]
    fn news<'py>(slf: &Bound<'py, Self>) -> PyResult<Option<Bound<'py, PyAny>>> {
        view(slf, SchemeKind::News)
    }
    /// The nntp view (§3.7): ``group``, ``article``.
    #[getter]
    fn nntp<'py>(slf: &Bound<'py, Self>) -> PyResult<Option<Bound<'py, PyAny>>> {
        view(slf, SchemeKind::Nntp)
    }
    /// The telnet view (§3.8): no parts of its own.
    #[getter]
    fn telnet<'py>(slf: &Bound<'py, Self>) -> PyResult<Option<Bound<'py, PyAny>>> {
        view(slf, SchemeKind::Telnet)
    }
    /// The wais view (§3.9): ``form``, ``database``, ``search``, ``wtype``, ``wpath``.
    #[getter]
    fn wais<'py>(slf: &Bound<'py, Self>) -> PyResult<Option<Bound<'py, PyAny>>> {
        view(slf, SchemeKind::Wais)
    }
    /// The file view (§3.10): ``host``, ``path``, ``is_local``.
    #[getter]
    fn file<'py>(slf: &Bound<'py, Self>) -> PyResult<Option<Bound<'py, PyAny>>> {
        view(slf, SchemeKind::File)
    }
    /// The prospero view (§3.11): ``hsoname``, ``fields``.
    #[getter]
    fn prospero<'py>(slf: &Bound<'py, Self>) -> PyResult<Option<Bound<'py, PyAny>>> {
        view(slf, SchemeKind::Prospero)
    }
    /// The view of any other scheme: ``scheme_specific_part``, ``reserved``, ``experimental``.
    #[getter]
    fn other<'py>(slf: &Bound<'py, Self>) -> PyResult<Option<Bound<'py, PyAny>>> {
        view(slf, SchemeKind::Other)
    }

    /// The normal form: only what the RFC says does not matter is changed
    /// (§2.1 scheme case, §2.2 escapes, §3.1 host case and default port).
    fn normalize(&self) -> Url {
        Url { url: self.url.normalize(), input: None, lenient: self.lenient }
    }

    /// Whether ``other`` (a ``Url`` or its text) has the same normal form.
    fn equivalent(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        if let Ok(u) = other.cast::<Url>() {
            return Ok(self.url.equivalent(&u.get().url));
        }
        let other = parse(other, self.lenient)?;
        Ok(self.url.equivalent(&other.url))
    }

    /// The URL that ``reference`` names relative to this one (RFC 1808 §4),
    /// e.g. ``Url("http://a/b/c").resolve("../d")`` is ``http://a/d``.
    /// Raises :class:`ResolveError` when this URL's scheme has no
    /// hierarchical path, the reference is not one, or the result is not
    /// an RFC 1738 URL.
    fn resolve(&self, py: Python<'_>, reference: crate::convert::Text) -> PyResult<Url> {
        match self.url.resolve(&reference) {
            Ok(url) => Ok(Url { url, input: None, lenient: false }),
            Err(e) => Err(resolve_error(py, &reference, &e)),
        }
    }

    /// The shortest reference that :meth:`resolve` turns back into
    /// ``other`` (a ``Url`` or its text); ``None`` when this URL's scheme
    /// takes no relative references.
    fn make_relative(&self, other: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        if let Ok(u) = other.cast::<Url>() {
            return Ok(self.url.make_relative(&u.get().url));
        }
        let other = parse(other, self.lenient)?;
        Ok(self.url.make_relative(&other.url))
    }

    /// This URL with some parts replaced: ``url.replace(host="h.dom",
    /// port=8080)``. The parts are the keyword arguments of the scheme's
    /// builder in :mod:`rfc1738.build`, decoded, and ``fragment`` (``None``
    /// removes it); the URL is written again by that builder, which encodes
    /// each part for its place. Every part not named is kept, the fragment
    /// too, as the command's ``set`` keeps them. Raises
    /// :class:`BuildError` (its ``part`` named) for a value the part
    /// cannot hold, :class:`TypeError` for a part the scheme does not have.
    #[pyo3(signature = (**parts))]
    fn replace<'py>(
        &self,
        py: Python<'py>,
        parts: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        crate::replace::replace(py, &self.url, parts)
    }

    /// The text with any password replaced by ``***``.
    fn redacted(&self) -> String {
        self.url.redacted().into_owned()
    }

    /// The §6 security warnings: dicts ``{offset, len, kind, security, message}``.
    fn security_warnings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for w in &self.url.security_warnings() {
            list.append(warning_dict(py, w)?)?;
        }
        Ok(list)
    }

    /// The record ``rfc1738 parse --json`` writes for the same input.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let warnings = self.warnings_of_parse();
        let record = json::object(self.input().as_bytes(), &Ok(self.url.clone()), &warnings);
        json_to_py(py, &record)
    }

    fn __str__(&self) -> &str {
        self.url.as_str()
    }

    fn __repr__(&self) -> String {
        format!("Url({:?})", self.url.as_str())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Url>().is_ok_and(|o| o.get().url.as_str() == self.url.as_str())
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.url.as_str().hash(&mut h);
        h.finish()
    }

    /// Pickled as its text and whether it was read leniently.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let py = slf.py();
        let mut cls = slf.get_type().into_any();
        if slf.get().lenient {
            let kwargs = PyDict::new(py);
            kwargs.set_item("lenient", true)?;
            cls = py.import("functools")?.getattr("partial")?.call((cls,), Some(&kwargs))?;
        }
        Ok((cls, (slf.get().input().to_string(),)))
    }

    fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    fn __deepcopy__<'py>(slf: Bound<'py, Self>, _memo: &Bound<'py, PyAny>) -> Bound<'py, Self> {
        slf
    }
}

/// The parts of a URL that its scheme defines, as attributes
/// (``url.ftp.cwd``); one subclass per scheme.
#[pyclass(frozen, subclass, module = "rfc1738")]
pub struct View {
    kind: SchemeKind,
    fields: Py<PyDict>,
    /// The fields as `parse --json` writes them: what `==` and `hash` read.
    json: String,
    /// The URL it views, for pickling.
    url: Py<Url>,
}

impl View {
    fn part<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        match self.fields.bind(py).get_item(name)? {
            Some(v) => Ok(v),
            None => {
                Err(PyAttributeError::new_err(format!("the {} view has no part {name:?}", self.kind.name())))
            }
        }
    }
}

#[pymethods]
impl View {
    fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        self.part(py, name)
    }

    /// The scheme kind this view belongs to.
    #[getter]
    fn kind(&self) -> &'static str {
        self.kind.name()
    }

    /// The parts as a dict, as ``parse --json`` names them.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.fields.bind(py).copy()
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let fields = slf.get().fields.bind(slf.py());
        let mut parts = Vec::new();
        for (k, v) in fields.iter() {
            parts.push(format!("{}={}", k, v.repr()?));
        }
        Ok(format!("{}({})", slf.get_type().name()?, parts.join(", ")))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<View>().is_ok_and(|o| o.get().kind == self.kind && o.get().json == self.json)
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        (self.kind.name(), &self.json).hash(&mut h);
        h.finish()
    }

    /// Pickled as the view of its URL: ``getattr(url, kind)``.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<ViewReduction<'py>> {
        let getattr = py.import("builtins")?.getattr("getattr")?;
        Ok((getattr, (self.url.clone_ref(py), self.kind.name())))
    }

    fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    fn __deepcopy__<'py>(slf: Bound<'py, Self>, _memo: &Bound<'py, PyAny>) -> Bound<'py, Self> {
        slf
    }
}

/// What pickle calls to make a view again: `getattr` and its arguments.
type ViewReduction<'py> = (Bound<'py, PyAny>, (Py<Url>, &'static str));

/// One view class per scheme, each part a read-only property.
macro_rules! views {
    ($($class:ident $kind:ident [$($part:ident $name:literal),*];)*) => {
        $(
            #[doc = concat!("The parts of a ", stringify!($kind), " URL.")]
            #[pyclass(frozen, extends = View, module = "rfc1738")]
            pub struct $class;

            #[pymethods]
            impl $class {
                $(
                    #[getter]
                    fn $part<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
                        slf.as_super().get().part(slf.py(), $name)
                    }
                )*
            }
        )*

        fn new_view(py: Python<'_>, view: View) -> PyResult<Bound<'_, PyAny>> {
            Ok(match view.kind {
                $(SchemeKind::$kind => Bound::new(py, PyClassInitializer::from(view).add_subclass($class))?.into_any(),)*
                // RFC 2818 §2.4: an https URL has the http view.
                SchemeKind::Https => Bound::new(py, PyClassInitializer::from(view).add_subclass(HttpView))?.into_any(),
            })
        }

        fn register_views(m: &Bound<'_, PyModule>) -> PyResult<()> {
            m.add_class::<View>()?;
            $(m.add_class::<$class>()?;)*
            Ok(())
        }
    };
}

views! {
    FtpView Ftp [cwd "cwd", name "name", typecode "typecode", commands "commands", login "login"];
    HttpView Http [path "path", search "search"];
    GopherView Gopher [r#type "type", selector "selector", search "search", plus "plus", request "request"];
    MailtoView Mailto [address "address"];
    NewsView News [group "group", article "article", all "all"];
    NntpView Nntp [group "group", article "article"];
    TelnetView Telnet [];
    WaisView Wais [form "form", database "database", search "search", wtype "wtype", wpath "wpath"];
    FileView File [host "host", path "path", is_local "is_local"];
    ProsperoView Prospero [hsoname "hsoname", fields "fields"];
    OtherView Other [scheme_specific_part "scheme_specific_part", reserved "reserved", experimental "experimental"];
}

/// Parses ``text`` (``str``, or ``bytes`` read from a log) as an RFC 1738 URL.
#[pyfunction]
#[pyo3(signature = (text, *, lenient = false))]
pub fn parse(text: &Bound<'_, PyAny>, lenient: bool) -> PyResult<Url> {
    // The common case first: a strict parse of a `str`, without a copy.
    if !lenient {
        if let Ok(s) = text.cast::<PyString>() {
            if let Ok(s) = s.to_cow() {
                return match rfc1738::Url::parse(&s) {
                    Ok(url) => Ok(Url::new(url, &s, false)),
                    Err(e) => Err(parse_error(text.py(), text, &Problem::from(e))),
                };
            }
        }
    }
    let input = octets(text)?;
    match outcome::parse_bytes_with(&input, &outcome::options(lenient)) {
        // A URL that parsed is ASCII: its text is the input.
        Ok((url, _)) => Ok(Url::new(url, &String::from_utf8_lossy(&input), lenient)),
        Err(p) => Err(parse_error(text.py(), text, &p)),
    }
}

/// Raises :class:`ParseError` unless ``text`` is a URL of RFC 1738.
#[pyfunction]
#[pyo3(signature = (text, *, lenient = false))]
fn validate(text: &Bound<'_, PyAny>, lenient: bool) -> PyResult<()> {
    let input = octets(text)?;
    let result = if lenient {
        outcome::parse_bytes_with(&input, &outcome::options(true)).map(|_| ())
    } else {
        outcome::validate_bytes(&input)
    };
    result.map_err(|p| parse_error(text.py(), text, &p))
}

/// Whether ``text`` (``str`` or ``bytes``) is a URL of RFC 1738. Raises
/// ``TypeError`` for any other value, as :func:`parse` does.
#[pyfunction]
#[pyo3(signature = (text, *, lenient = false))]
fn is_valid(text: &Bound<'_, PyAny>, lenient: bool) -> PyResult<bool> {
    if !lenient {
        if let Ok(s) = text.cast::<PyString>() {
            if let Ok(s) = s.to_cow() {
                return Ok(rfc1738::validate(&s).is_ok());
            }
        }
    }
    let b = octets(text)?;
    Ok(if lenient {
        outcome::parse_bytes_with(&b, &outcome::options(true)).is_ok()
    } else {
        rfc1738::validate_bytes(&b).is_ok()
    })
}

/// The URLs in free text (RFC 1738 Appendix): a sequence of dicts
/// ``{url, start, end, form, hyphen_breaks, valid}``; offsets count
/// characters of a ``str`` (bytes of ``bytes``). The sequence holds the
/// text once and each URL as a small record, and makes a URL's dict when
/// it is read (by index, slice or iteration): a few times the text,
/// however many URLs it holds. ``list(...)`` makes the plain list;
/// ``extract_iter`` gives the dicts one at a time.
///
/// A lone surrogate in a ``str`` is read as U+FFFD (one character, so
/// the offsets still count the ``str``'s); no URL holds either. Raises
/// ``TypeError`` for a value that is not ``str`` or ``bytes``.
///
/// >>> import rfc1738
/// >>> [m["url"] for m in rfc1738.extract("see <URL:ftp://a.org/x> or http://b.org/.")]
/// ['ftp://a.org/x', 'http://b.org/']
#[pyfunction]
fn extract(text: &Bound<'_, PyAny>) -> PyResult<FoundList> {
    let mut it = extract_iter(text)?;
    let mut found = Vec::new();
    while let Some(r) = it.next_record() {
        found.push(r);
    }
    found.shrink_to_fit();
    Ok(FoundList { text: it.text, found })
}

/// A URL found, without its dict: where its text lies, and what the dict says.
struct Record {
    start: usize,
    end: usize,
    /// The URL as a range of the text, or its own text (a wrapped URL
    /// whose whitespace was deleted).
    url: Result<(usize, usize), Box<str>>,
    form: &'static str,
    valid: bool,
    breaks: Box<[usize]>,
}

impl Record {
    fn dict<'py>(&self, py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        match &self.url {
            Ok((a, b)) => d.set_item("url", &text[*a..*b])?,
            Err(url) => d.set_item("url", &**url)?,
        }
        d.set_item("start", self.start)?;
        d.set_item("end", self.end)?;
        d.set_item("form", self.form)?;
        d.set_item("hyphen_breaks", self.breaks.to_vec())?;
        d.set_item("valid", self.valid)?;
        Ok(d)
    }
}

/// What :func:`extract` returns: a read-only sequence of dicts ``{url,
/// start, end, form, hyphen_breaks, valid}``, each made when read; equal
/// to a list of the same dicts.
#[pyclass(frozen, sequence, module = "rfc1738")]
pub struct FoundList {
    text: String,
    found: Vec<Record>,
}

#[pymethods]
impl FoundList {
    fn __len__(&self) -> usize {
        self.found.len()
    }

    fn __getitem__<'py>(&self, py: Python<'py>, index: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        if let Ok(slice) = index.cast::<pyo3::types::PySlice>() {
            let i = slice.indices(self.found.len() as isize)?;
            let list = PyList::empty(py);
            let mut k = i.start;
            for _ in 0..i.slicelength {
                list.append(self.found[k as usize].dict(py, &self.text)?)?;
                k += i.step;
            }
            return Ok(list.into_any());
        }
        let i: isize = index.extract()?;
        let n = self.found.len() as isize;
        let k = if i < 0 { i + n } else { i };
        if !(0..n).contains(&k) {
            return Err(pyo3::exceptions::PyIndexError::new_err("index out of range"));
        }
        Ok(self.found[k as usize].dict(py, &self.text)?.into_any())
    }

    fn __eq__<'py>(slf: &Bound<'py, Self>, other: &Bound<'py, PyAny>) -> PyResult<bool> {
        let mine = PyList::empty(slf.py());
        for r in &slf.get().found {
            mine.append(r.dict(slf.py(), &slf.get().text)?)?;
        }
        match other.cast::<FoundList>() {
            Ok(o) => {
                mine.eq(pyo3::types::PyList::new(slf.py(), o.try_iter()?.collect::<PyResult<Vec<_>>>()?)?)
            }
            Err(_) => mine.eq(other),
        }
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let list = PyList::empty(slf.py());
        for r in &slf.get().found {
            list.append(r.dict(slf.py(), &slf.get().text)?)?;
        }
        Ok(list.repr()?.to_string())
    }
}

/// The URLs in free text, one dict at a time, as :func:`extract` lists
/// them: the search goes on only as far as the next URL, so memory holds
/// the text and one dict, whatever the number of URLs.
///
/// >>> import rfc1738
/// >>> it = rfc1738.extract_iter("http://a.dom/ and http://b.dom/")
/// >>> next(it)["url"], next(it)["start"]
/// ('http://a.dom/', 18)
#[pyfunction]
fn extract_iter(text: &Bound<'_, PyAny>) -> PyResult<Extracted> {
    let is_str = text.cast::<PyString>().is_ok();
    Ok(Extracted { text: crate::convert::searchable(text)?, chars: is_str, pos: 0, at: (0, 0) })
}

/// The iterator of :func:`extract_iter`: each URL found in a text, as a
/// dict ``{url, start, end, form, hyphen_breaks, valid}``.
#[pyclass(module = "rfc1738")]
pub struct Extracted {
    text: String,
    /// Whether offsets count characters (a `str`) or bytes.
    chars: bool,
    /// Where the search goes on.
    pos: usize,
    /// The last offset made a character offset: (byte, character).
    at: (usize, usize),
}

impl Extracted {
    fn offset(&mut self, byte: usize) -> usize {
        if !self.chars {
            return byte;
        }
        let (b, c) = if byte < self.at.0 { (0, 0) } else { self.at };
        let c = c + self.text[b..byte].chars().count();
        self.at = (byte, c);
        c
    }

    fn next_record(&mut self) -> Option<Record> {
        let mut it = rfc1738::extract::Finder::new().find_iter_from(&self.text, self.pos);
        let Some(m) = it.next() else {
            self.pos = self.text.len();
            return None;
        };
        self.pos = it.position();
        let (range, form) = (m.range(), m.form().as_str());
        let (breaks, valid) = (m.hyphen_breaks().into(), m.validate().is_ok());
        let url = m.as_str();
        let at = (url.as_ptr() as usize).wrapping_sub(self.text.as_ptr() as usize);
        let url = if at <= self.text.len() && self.text.get(at..at + url.len()) == Some(url) {
            Ok((at, at + url.len()))
        } else {
            Err(url.into())
        };
        let (start, end) = (self.offset(range.start), self.offset(range.end));
        Some(Record { start, end, url, form, valid, breaks })
    }

    fn next_dict<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.next_record().map(|r| r.dict(py, &self.text)).transpose()
    }
}

#[pymethods]
impl Extracted {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.next_dict(py)
    }
}

fn context(name: &str) -> PyResult<Context> {
    Ok(match name {
        "user" => Context::User,
        "fsegment" => Context::Fsegment,
        "hsegment" => Context::Hsegment,
        "search" => Context::Search,
        "xchar" => Context::Xchar,
        "uchar" => Context::Uchar,
        "field" => Context::Field,
        "article" => Context::Article,
        _ => {
            return Err(PyValueError::new_err(format!(
            "unknown context {name:?}: one of user, fsegment, hsegment, search, xchar, uchar, field, article"
        )))
        }
    })
}

/// ``%HH``-encodes ``octets`` (``str`` as UTF-8, or ``bytes``) for a part
/// of a URL (§2.2).
#[pyfunction]
#[pyo3(signature = (octets, context = "uchar"))]
fn pct_encode(octets: &Bound<'_, PyAny>, context: &str) -> PyResult<String> {
    let ctx = self::context(context)?;
    let data = crate::convert::data(octets)?;
    Ok(pct::encode(&data, ctx))
}

/// Decodes every ``%HH`` of ``text`` into the octet it stands for.
#[pyfunction]
fn pct_decode<'py>(py: Python<'py>, text: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    let s = text.cast::<PyString>().map_err(|_| PyTypeError::new_err("pct.decode takes a str"))?;
    let s = crate::convert::utf8(s)?;
    Ok(PyBytes::new(py, &pct::decode(&s)))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    register_views(m)?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(is_valid, m)?)?;
    m.add_function(wrap_pyfunction!(extract, m)?)?;
    m.add_function(wrap_pyfunction!(extract_iter, m)?)?;
    m.add_class::<Extracted>()?;
    m.add_class::<FoundList>()?;
    m.add_function(wrap_pyfunction!(pct_encode, m)?)?;
    m.add_function(wrap_pyfunction!(pct_decode, m)?)?;
    m.add_function(wrap_pyfunction!(caret, m)?)?;
    Ok(())
}

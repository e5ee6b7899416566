//! `rfc1738.build`: one function per scheme, decoded parts in, the URL
//! out, over the library's builders (each escape written, the result
//! parsed back). A value of the wrong type is a `TypeError` that says what
//! the part takes (`argument 'path': a list of segments (str or bytes),
//! not str`).

use crate::convert::{Fields, Number, Octets, Port, Segments, Text};
use crate::url::Url;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use rfc1738::build::{
    FileBuilder, FtpBuilder, GenericBuilder, GopherBuilder, HttpBuilder, MailtoBuilder, NewsBuilder,
    NntpBuilder, ProsperoBuilder, TelnetBuilder, WaisBuilder,
};

pyo3::create_exception!(
    rfc1738,
    BuildError,
    PyValueError,
    "A part cannot be written into a URL. ``.part`` names the §5 rule."
);

type Part = Option<Octets>;

fn bytes(part: &Part) -> PyResult<Option<Vec<u8>>> {
    Ok(part.as_ref().map(|p| p.0.clone()))
}

fn done(result: Result<rfc1738::Url, rfc1738::build::BuildError>) -> PyResult<Url> {
    match result {
        Ok(url) => Url::from_built(url),
        Err(e) => Python::attach(|py| {
            let err = BuildError::new_err(e.to_string());
            let _ = err.value(py).setattr("part", e.part().name());
            Err(err)
        }),
    }
}

fn one_octet(what: &str, value: &Part) -> PyResult<Option<u8>> {
    match bytes(value)? {
        None => Ok(None),
        Some(b) if b.len() == 1 => Ok(Some(b[0])),
        Some(_) => Err(PyTypeError::new_err(format!("{what} is one character"))),
    }
}

macro_rules! login {
    ($b:expr, $user:ident, $password:ident, $port:ident) => {{
        let mut b = $b;
        if let Some(u) = bytes(&$user)? {
            b = b.user(u);
        }
        if let Some(p) = bytes(&$password)? {
            b = b.password(p);
        }
        if let Some(Port(port)) = $port {
            b = b.port(port);
        }
        b
    }};
}

/// An ftp URL (§3.2): ``cwd`` is the list of directories (one ``CWD``
/// each), ``name`` the file, ``typecode`` one of ``a``, ``i``, ``d``.
#[pyfunction]
#[pyo3(signature = (host, *, cwd = Segments(Vec::new()), name = None, typecode = None, user = None, password = None, port = None))]
#[allow(clippy::too_many_arguments)]
fn build_ftp(
    host: Text,
    cwd: Segments,
    name: Part,
    typecode: Part,
    user: Part,
    password: Part,
    port: Option<Port>,
) -> PyResult<Url> {
    let mut b = login!(FtpBuilder::new(&host), user, password, port);
    for seg in cwd.0 {
        b = b.cwd(seg);
    }
    if let Some(n) = bytes(&name)? {
        b = b.name(n);
    }
    if let Some(t) = one_octet("typecode", &typecode)? {
        b = b.typecode(t);
    }
    done(b.build())
}

/// An http URL (§3.3): ``path`` is the list of segments, ``search`` what follows ``?``.
#[pyfunction]
#[pyo3(signature = (host, *, path = Segments(Vec::new()), search = None, port = None))]
fn build_http(host: Text, path: Segments, search: Part, port: Option<Port>) -> PyResult<Url> {
    let mut b = HttpBuilder::new(&host);
    if let Some(Port(port)) = port {
        b = b.port(port);
    }
    for seg in path.0 {
        b = b.segment(seg);
    }
    if let Some(s) = bytes(&search)? {
        b = b.search(s);
    }
    done(b.build())
}

/// A gopher URL (§3.4): ``type`` (default ``1``), ``selector``, ``search``, ``plus``.
#[pyfunction]
#[pyo3(signature = (host, *, type_ = None, selector = None, search = None, plus = None, port = None))]
fn build_gopher(
    host: Text,
    type_: Part,
    selector: Part,
    search: Part,
    plus: Part,
    port: Option<Port>,
) -> PyResult<Url> {
    let mut b = GopherBuilder::new(&host);
    if let Some(Port(port)) = port {
        b = b.port(port);
    }
    if let Some(t) = one_octet("type", &type_)? {
        b = b.gopher_type(t);
    }
    if let Some(s) = bytes(&selector)? {
        b = b.selector(s);
    }
    if let Some(s) = bytes(&search)? {
        b = b.search(s);
    }
    if let Some(p) = bytes(&plus)? {
        b = b.plus(p);
    }
    done(b.build())
}

/// A mailto URL (§3.5) for an RFC 822 address.
#[pyfunction]
fn build_mailto(address: Octets) -> PyResult<Url> {
    done(MailtoBuilder::new(address.0).build())
}

/// A news URL (§3.6): a ``group``, an ``article`` (message id without
/// ``<`` ``>``), or neither for ``news:*``.
#[pyfunction]
#[pyo3(signature = (*, group = None, article = None))]
fn build_news(group: Option<Text>, article: Part) -> PyResult<Url> {
    let b = match (group, bytes(&article)?) {
        (Some(_), Some(_)) => {
            return Err(PyTypeError::new_err("a news URL names a group or an article, not both"))
        }
        (Some(g), None) => NewsBuilder::group(&g),
        (None, Some(a)) => NewsBuilder::article(a),
        (None, None) => NewsBuilder::all(),
    };
    done(b.build())
}

/// An nntp URL (§3.7): a group on a host, maybe an article number.
#[pyfunction]
#[pyo3(signature = (host, group, *, article = None, port = None))]
fn build_nntp(host: Text, group: Text, article: Option<Number>, port: Option<Port>) -> PyResult<Url> {
    let mut b = NntpBuilder::new(&host, &group);
    if let Some(Port(port)) = port {
        b = b.port(port);
    }
    if let Some(Number(a)) = article {
        b = b.article(a);
    }
    done(b.build())
}

/// A telnet URL (§3.8).
#[pyfunction]
#[pyo3(signature = (host, *, user = None, password = None, port = None))]
fn build_telnet(host: Text, user: Part, password: Part, port: Option<Port>) -> PyResult<Url> {
    done(login!(TelnetBuilder::new(&host), user, password, port).build())
}

/// A wais URL (§3.9): a database, with a ``search`` or a document (``wtype`` and ``wpath``).
#[pyfunction]
#[pyo3(signature = (host, database, *, search = None, wtype = None, wpath = None, port = None))]
fn build_wais(
    host: Text,
    database: Octets,
    search: Part,
    wtype: Part,
    wpath: Part,
    port: Option<Port>,
) -> PyResult<Url> {
    let mut b = WaisBuilder::new(&host, database.0);
    if let Some(Port(port)) = port {
        b = b.port(port);
    }
    if let Some(s) = bytes(&search)? {
        b = b.search(s);
    }
    match (bytes(&wtype)?, bytes(&wpath)?) {
        (Some(t), Some(p)) => b = b.document(t, p),
        (None, None) => {}
        _ => return Err(PyTypeError::new_err("a wais document needs both wtype and wpath")),
    }
    done(b.build())
}

/// A file URL (§3.10): ``path`` is the list of segments; ``host`` empty for this machine.
#[pyfunction]
#[pyo3(signature = (path = Segments(Vec::new()), *, host = Text(String::new())))]
fn build_file(path: Segments, host: Text) -> PyResult<Url> {
    let mut b = FileBuilder::new(&host);
    for seg in path.0 {
        b = b.segment(seg);
    }
    done(b.build())
}

/// A prospero URL (§3.11): a host, an hsoname, and ``fields`` (name, value pairs).
#[pyfunction]
#[pyo3(signature = (host, hsoname, *, fields = Fields(Vec::new()), port = None))]
fn build_prospero(host: Text, hsoname: Octets, fields: Fields, port: Option<Port>) -> PyResult<Url> {
    let mut b = ProsperoBuilder::new(&host, hsoname.0);
    if let Some(Port(port)) = port {
        b = b.port(port);
    }
    for (name, value) in fields.0 {
        b = b.field(name, value);
    }
    done(b.build())
}

/// A URL of any other scheme in the Common Internet Scheme Syntax (§3.1).
#[pyfunction]
#[pyo3(signature = (scheme, *, host = None, user = None, password = None, port = None, path = None))]
fn build_generic(
    scheme: Text,
    host: Option<Text>,
    user: Part,
    password: Part,
    port: Option<Port>,
    path: Part,
) -> PyResult<Url> {
    let mut b = GenericBuilder::new(&scheme);
    if let Some(h) = host {
        b = b.host(&h);
    }
    let mut b = login!(b, user, password, port);
    if let Some(p) = bytes(&path)? {
        b = b.path(p);
    }
    done(b.build())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(build_ftp, m)?)?;
    m.add_function(wrap_pyfunction!(build_http, m)?)?;
    m.add_function(wrap_pyfunction!(build_gopher, m)?)?;
    m.add_function(wrap_pyfunction!(build_mailto, m)?)?;
    m.add_function(wrap_pyfunction!(build_news, m)?)?;
    m.add_function(wrap_pyfunction!(build_nntp, m)?)?;
    m.add_function(wrap_pyfunction!(build_telnet, m)?)?;
    m.add_function(wrap_pyfunction!(build_wais, m)?)?;
    m.add_function(wrap_pyfunction!(build_file, m)?)?;
    m.add_function(wrap_pyfunction!(build_prospero, m)?)?;
    m.add_function(wrap_pyfunction!(build_generic, m)?)?;
    Ok(())
}

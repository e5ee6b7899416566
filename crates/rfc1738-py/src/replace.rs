//! `Url.replace(part=value, ...)`: a URL's parts, decoded, as the keyword
//! arguments of its scheme's builder (`rfc1738.build`), some of them
//! replaced, and the URL built again. The builder writes the escapes each
//! part needs, and an error names the part.
//!
//! What the builder does not take is carried over: the fragment (unless
//! `fragment=` is given: a `str` or `bytes`, encoded as `*xchar`, or
//! `None` to remove it) and a port above 65535 (written as it was). The
//! command's `set` answers the same: both are held to
//! `crates/rfc1738-cli/tests/fixtures/set-cases.jsonl`.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use rfc1738::pct;
use rfc1738::{SchemeKind, Url};

/// The builder of `url`'s scheme (a function of `rfc1738._rfc1738`) and
/// `url`'s parts as its keyword arguments.
pub fn parts<'py>(py: Python<'py>, url: &Url) -> PyResult<(&'static str, Bound<'py, PyDict>)> {
    let d = PyDict::new(py);
    let bytes = |raw: &str| PyBytes::new(py, &pct::decode(raw));
    let segments = |raw: &str| -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, raw.split('/').map(|s| PyBytes::new(py, &pct::decode(s))))
    };
    let login = |d: &Bound<'py, PyDict>| -> PyResult<()> {
        d.set_item("host", url.host())?;
        d.set_item("port", url.port())?;
        Ok(())
    };
    let user = |d: &Bound<'py, PyDict>| -> PyResult<()> {
        d.set_item("user", url.user().map(bytes))?;
        d.set_item("password", url.password().map(bytes))?;
        Ok(())
    };
    let name = match url.kind() {
        SchemeKind::Ftp => {
            let f = url.ftp().expect("kind is ftp");
            login(&d)?;
            user(&d)?;
            d.set_item("cwd", PyList::new(py, f.cwd().map(bytes))?)?;
            d.set_item("name", Some(bytes(f.name())).filter(|_| !f.name().is_empty()))?;
            d.set_item("typecode", f.typecode().map(|t| (t as char).to_string()))?;
            "build_ftp"
        }
        SchemeKind::Http => {
            let h = url.http().expect("kind is http");
            login(&d)?;
            d.set_item("path", h.path().map(segments).transpose()?.unwrap_or_else(|| PyList::empty(py)))?;
            d.set_item("search", h.search().map(bytes))?;
            "build_http"
        }
        SchemeKind::Gopher => {
            let g = url.gopher().expect("kind is gopher");
            login(&d)?;
            d.set_item("type_", (g.gopher_type() as char).to_string())?;
            d.set_item("selector", PyBytes::new(py, &g.selector_decoded()))?;
            d.set_item("search", g.search().map(bytes))?;
            d.set_item("plus", g.plus().map(bytes))?;
            "build_gopher"
        }
        SchemeKind::Mailto => {
            d.set_item("address", PyBytes::new(py, &url.mailto().expect("kind is mailto").address()))?;
            "build_mailto"
        }
        SchemeKind::News => {
            let n = url.news().expect("kind is news");
            d.set_item("group", n.group())?;
            d.set_item("article", n.article().map(bytes))?;
            "build_news"
        }
        SchemeKind::Nntp => {
            let n = url.nntp().expect("kind is nntp");
            login(&d)?;
            d.set_item("group", n.group())?;
            d.set_item("article", n.article())?;
            "build_nntp"
        }
        SchemeKind::Telnet => {
            login(&d)?;
            user(&d)?;
            "build_telnet"
        }
        SchemeKind::Wais => {
            let w = url.wais().expect("kind is wais");
            login(&d)?;
            d.set_item("database", bytes(w.database()))?;
            d.set_item("search", w.search().map(bytes))?;
            d.set_item("wtype", w.wtype().map(bytes))?;
            d.set_item("wpath", w.wpath().map(bytes))?;
            "build_wais"
        }
        SchemeKind::File => {
            let f = url.file().expect("kind is file");
            d.set_item("host", f.host())?;
            d.set_item("path", if f.path().is_empty() { PyList::empty(py) } else { segments(f.path())? })?;
            "build_file"
        }
        SchemeKind::Prospero => {
            let p = url.prospero().expect("kind is prospero");
            login(&d)?;
            d.set_item("hsoname", PyBytes::new(py, &p.hsoname()))?;
            let fields: Vec<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> =
                p.fields().map(|(n, v)| (bytes(n), bytes(v))).collect();
            d.set_item("fields", fields)?;
            "build_prospero"
        }
        // An https URL is built again by the generic builder, which reads
        // its text back by http's rules (RFC 2818 §2.4).
        SchemeKind::Https | SchemeKind::Other if url.has_authority() => {
            d.set_item("scheme", url.scheme())?;
            login(&d)?;
            user(&d)?;
            d.set_item("path", url.url_path().map(bytes))?;
            "build_generic"
        }
        SchemeKind::Https | SchemeKind::Other => {
            return Err(PyTypeError::new_err(format!(
                "a {} URL without \"//\" has no parts to replace (§3.1)",
                url.scheme()
            )))
        }
    };
    Ok((name, d))
}

/// `url` with the parts in `changes` replaced, built again by its
/// scheme's builder.
pub fn replace<'py>(
    py: Python<'py>,
    url: &Url,
    changes: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (builder, parts) = parts(py, url)?;
    // The fragment and a port too large for the builders, carried over.
    let mut fragment = url.fragment().map(str::to_owned);
    let mut big_port = url.port_str().filter(|p| p.parse::<u16>().is_err() && !p.is_empty());
    if big_port.is_some() {
        // A stand-in the builder writes, replaced by the digits below.
        parts.set_item("port", 1)?;
    }
    if let Some(changes) = changes {
        for (name, value) in changes.iter() {
            if name.extract::<String>().is_ok_and(|n| n == "fragment") {
                fragment = new_fragment(&value)?;
                continue;
            }
            if name.extract::<String>().is_ok_and(|n| n == "port") {
                big_port = None;
            }
            if !parts.contains(&name)? || name.extract::<String>().is_ok_and(|n| n == "scheme") {
                let mut known: Vec<String> = parts.keys().extract()?;
                known.retain(|k| k != "scheme");
                known.push("fragment".into());
                return Err(PyTypeError::new_err(format!(
                    "a {} URL has no part {}: its parts are {}",
                    url.kind().name(),
                    name.repr()?,
                    known.join(", ")
                )));
            }
            check(builder, &name.extract::<String>()?, &value)?;
            parts.set_item(name, value)?;
        }
    }
    let build = py.import("rfc1738._rfc1738")?.getattr(builder)?;
    let built = if builder == "build_generic" {
        let scheme = parts.get_item("scheme")?.expect("set above");
        parts.del_item("scheme")?;
        build.call((scheme,), Some(&parts))?
    } else {
        build.call((), Some(&parts))?
    };
    if fragment.is_none() && big_port.is_none() {
        return Ok(built);
    }
    // The builders answer a `Url`; its text, through `str()`, is all
    // that is needed (this module sits below the `Url` class's).
    let mut text = built.str()?.to_cow()?.into_owned();
    let stand_in = rfc1738::Url::parse(&text)
        .ok()
        .and_then(|u| u.port_str().map(|p| (p.as_ptr() as usize - u.as_str().as_ptr() as usize, p.len())));
    if let (Some(digits), Some((at, len))) = (big_port, stand_in) {
        text.replace_range(at..at + len, digits);
    }
    if let Some(f) = fragment {
        text = format!("{text}#{f}");
    }
    // Parsed again by `rfc1738.parse`: the parts stay the ones written
    // (§2.2 `*xchar` after `#`).
    py.import("rfc1738._rfc1738")?.getattr("parse")?.call1((text,))
}

/// The fragment `fragment=` asks for: a value encoded as `*xchar` (§2.2:
/// RFC 1738 gives it no syntax of its own), or none.
fn new_fragment(value: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    if value.is_none() {
        return Ok(None);
    }
    if value.is_instance_of::<PyString>() || value.is_instance_of::<PyBytes>() {
        return Ok(Some(pct::encode(&crate::convert::data(value)?, pct::Context::Xchar)));
    }
    Err(PyTypeError::new_err(format!(
        "argument 'fragment': expected str, bytes or None, not {}",
        crate::convert::type_name(value)
    )))
}

/// Whether `value` is of the type the builder's argument `name` takes;
/// if not, the error says so in the argument's name (the builder's own
/// extraction would not name it).
fn check(builder: &str, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
    use crate::convert::{Fields, Number, Octets, Port, Segments};
    let result = match name {
        _ if value.is_none() && !matches!(name, "host" | "cwd" | "fields") => Ok(()),
        "port" => value.extract::<Port>().map(drop),
        "article" if builder == "build_nntp" => value.extract::<Number>().map(drop),
        "cwd" => value.extract::<Segments>().map(drop),
        "path" if builder != "build_generic" => value.extract::<Segments>().map(drop),
        "fields" => value.extract::<Fields>().map(drop),
        "host" | "group" => value.extract::<crate::convert::Text>().map(drop),
        _ => value.extract::<Octets>().map(drop),
    };
    result.map_err(|e| {
        let py = value.py();
        let message = format!("argument '{name}': {}", e.value(py));
        if e.is_instance_of::<pyo3::exceptions::PyValueError>(py) {
            pyo3::exceptions::PyValueError::new_err(message)
        } else {
            PyTypeError::new_err(message)
        }
    })
}

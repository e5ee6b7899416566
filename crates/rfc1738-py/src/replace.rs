//! `Url.replace(part=value, ...)`: a URL's parts, decoded, as the keyword
//! arguments of its scheme's builder (`rfc1738.build`), some of them
//! replaced, and the URL built again. The builder writes the escapes each
//! part needs, and an error names the part.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
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
    if let Some(changes) = changes {
        for (name, value) in changes.iter() {
            if !parts.contains(&name)? || name.extract::<String>().is_ok_and(|n| n == "scheme") {
                let mut known: Vec<String> = parts.keys().extract()?;
                known.retain(|k| k != "scheme");
                return Err(PyTypeError::new_err(format!(
                    "a {} URL has no part {}: its parts are {}",
                    url.kind().name(),
                    name.repr()?,
                    known.join(", ")
                )));
            }
            parts.set_item(name, value)?;
        }
    }
    let build = py.import("rfc1738._rfc1738")?.getattr(builder)?;
    if builder == "build_generic" {
        let scheme = parts.get_item("scheme")?.expect("set above");
        parts.del_item("scheme")?;
        return build.call((scheme,), Some(&parts));
    }
    build.call((), Some(&parts))
}

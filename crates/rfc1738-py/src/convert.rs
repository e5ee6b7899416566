//! Python values in and out: the text of a URL (`str` or `bytes`), JSON
//! values as Python objects.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use serde_json::Value;
use std::borrow::Cow;

/// The octets of `text`: a `str` as UTF-8, `bytes` as they are. A `str`
/// with lone surrogates (which UTF-8 cannot hold) is encoded with
/// `surrogatepass`: its surrogates are then octets above 7F, the §2.2
/// non-ASCII error at their offset, as any other non-ASCII text.
pub fn octets<'a>(text: &'a Bound<'_, PyAny>) -> PyResult<Cow<'a, [u8]>> {
    if let Ok(s) = text.cast::<PyString>() {
        return match s.to_cow() {
            Ok(s) => Ok(Cow::Owned(s.as_bytes().to_vec())),
            Err(_) => {
                let b = s.call_method1("encode", ("utf-8", "surrogatepass"))?;
                Ok(Cow::Owned(b.cast::<PyBytes>()?.as_bytes().to_vec()))
            }
        };
    }
    if let Ok(b) = text.cast::<PyBytes>() {
        return Ok(Cow::Owned(b.as_bytes().to_vec()));
    }
    Err(PyTypeError::new_err(format!(
        "a URL is str or bytes, not {}",
        text.get_type().name().map_or_else(|_| "?".to_string(), |n| n.to_string())
    )))
}

/// A JSON value as the Python value `json.loads` would give.
pub fn json_to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_pyobject(py)?.into_any(),
            (None, Some(i)) => i.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, item) in map {
                dict.set_item(k, json_to_py(py, item)?)?;
            }
            dict.into_any()
        }
    })
}

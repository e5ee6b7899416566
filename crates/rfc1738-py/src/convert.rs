//! Python values in and out: the text of a URL (`str` or `bytes`), JSON
//! values as Python objects.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyInt, PyList, PyString};
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

/// The UTF-8 of a `str` that holds no lone surrogate; for one that
/// does, the `ValueError` naming where (UTF-8 cannot hold a surrogate
/// alone, and writing its three octets would be a silent encoding).
pub fn utf8<'a>(s: &'a Bound<'_, PyString>) -> PyResult<Cow<'a, str>> {
    s.to_cow().map_err(|_| {
        // The error path alone: each character looked at for the first
        // that UTF-8 cannot hold.
        let at = s.try_iter().ok().and_then(|chars| {
            chars.enumerate().find_map(|(i, c)| {
                let lone = c.ok()?.cast::<PyString>().ok()?.to_cow().is_err();
                lone.then_some(i)
            })
        });
        PyValueError::new_err(format!(
            "a lone surrogate at index {}: this text is read as UTF-8, which cannot hold one \
             (decode bytes with errors='replace', or pass bytes)",
            at.unwrap_or(0)
        ))
    })
}

/// The octets of `text` as data to encode: a `str` as UTF-8 (a
/// `ValueError` for a lone surrogate, see [`utf8`]), `bytes` as they are.
pub fn data<'a>(text: &'a Bound<'_, PyAny>) -> PyResult<Cow<'a, [u8]>> {
    if let Ok(s) = text.cast::<PyString>() {
        return Ok(Cow::Owned(utf8(s)?.into_owned().into_bytes()));
    }
    octets(text)
}

/// The text of a `str` to search (``extract``): each lone surrogate
/// read as U+FFFD, one character for one, so that character offsets
/// still count the `str`'s characters; no URL holds either (§2.2: a URL
/// is ASCII). `bytes` are read as UTF-8, each invalid sequence U+FFFD.
pub fn searchable(text: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = text.cast::<PyString>() {
        if let Ok(s) = s.to_cow() {
            return Ok(s.into_owned());
        }
        // `surrogatepass` writes a surrogate as ED A0..BF 80..BF; U+FFFD
        // is EF BF BD, as long, and one character too.
        let b = s.call_method1("encode", ("utf-8", "surrogatepass"))?;
        let mut b = b.cast::<PyBytes>()?.as_bytes().to_vec();
        let mut i = 0;
        while i + 2 < b.len() {
            if b[i] == 0xED && (0xA0..=0xBF).contains(&b[i + 1]) && (0x80..=0xBF).contains(&b[i + 2]) {
                b[i..i + 3].copy_from_slice("\u{fffd}".as_bytes());
                i += 3;
            } else {
                i += 1;
            }
        }
        return Ok(String::from_utf8_lossy(&b).into_owned());
    }
    Ok(String::from_utf8_lossy(&octets(text)?).into_owned())
}

/// A `str` argument that holds no lone surrogate: what pyo3's `&str`
/// would take, with a `ValueError` saying where instead of a
/// `UnicodeEncodeError`.
pub struct Text(pub String);

impl<'a, 'py> FromPyObject<'a, 'py> for Text {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let s = obj.cast::<PyString>().map_err(|_| {
            PyTypeError::new_err(format!(
                "expected str, not {}",
                obj.get_type().name().map_or_else(|_| "?".to_string(), |n| n.to_string())
            ))
        })?;
        Ok(Text(utf8(&s)?.into_owned()))
    }
}

impl std::ops::Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
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

/// The name of a value's type, for a message.
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().name().map_or_else(|_| "?".to_string(), |n| n.to_string())
}

/// The octets of a part: a ``str`` as UTF-8, ``bytes`` as they are.
pub struct Octets(pub Vec<u8>);

impl<'a, 'py> FromPyObject<'a, 'py> for Octets {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        octets_of(&obj, "expected str or bytes").map(Octets)
    }
}

fn octets_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<u8>> {
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
        return Ok(data(obj)?.into_owned());
    }
    Err(PyTypeError::new_err(format!("{what}, not {}", type_name(obj))))
}

/// A list (or tuple) of path segments, each ``str`` or ``bytes``; a
/// ``str`` alone is refused, not read as a list of characters.
pub struct Segments(pub Vec<Vec<u8>>);

impl<'a, 'py> FromPyObject<'a, 'py> for Segments {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let what = "expected a list of segments (str or bytes)";
        if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
            return Err(PyTypeError::new_err(format!("{what}, not {}", type_name(&obj))));
        }
        let items =
            obj.try_iter().map_err(|_| PyTypeError::new_err(format!("{what}, not {}", type_name(&obj))))?;
        let mut out = Vec::new();
        for item in items {
            out.push(octets_of(&item?, "expected each segment str or bytes")?);
        }
        Ok(Segments(out))
    }
}

/// A list (or tuple) of prospero ``(name, value)`` pairs.
pub struct Fields(pub Vec<(Vec<u8>, Vec<u8>)>);

impl<'a, 'py> FromPyObject<'a, 'py> for Fields {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let what = "expected a list of (name, value) pairs";
        let refuse = |o: &Bound<'_, PyAny>| PyTypeError::new_err(format!("{what}, not {}", type_name(o)));
        if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
            return Err(refuse(&obj));
        }
        let mut out = Vec::new();
        for item in obj.try_iter().map_err(|_| refuse(&obj))? {
            let item = item?;
            let pair: Vec<Bound<'_, PyAny>> = match item.try_iter() {
                Ok(it) if !item.is_instance_of::<PyString>() => it.collect::<PyResult<_>>()?,
                _ => return Err(refuse(&item)),
            };
            let [name, value] = &pair[..] else { return Err(refuse(&item)) };
            out.push((
                octets_of(name, "expected a field name of str or bytes")?,
                octets_of(value, "expected a field value of str or bytes")?,
            ));
        }
        Ok(Fields(out))
    }
}

/// A port: an ``int`` from 0 to 65535 (the builders write 16 bits).
pub struct Port(pub u16);

impl<'a, 'py> FromPyObject<'a, 'py> for Port {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if !obj.is_instance_of::<PyInt>() || obj.is_instance_of::<PyBool>() {
            return Err(PyTypeError::new_err(format!(
                "expected an int from 0 to 65535, not {}",
                type_name(&obj)
            )));
        }
        obj.extract::<u16>()
            .map(Port)
            .map_err(|_| PyValueError::new_err(format!("{} is no port: an int from 0 to 65535", &*obj)))
    }
}

/// A number: a non-negative ``int`` (an nntp article).
pub struct Number(pub u64);

impl<'a, 'py> FromPyObject<'a, 'py> for Number {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if !obj.is_instance_of::<PyInt>() || obj.is_instance_of::<PyBool>() {
            return Err(PyTypeError::new_err(format!(
                "expected a non-negative int, not {}",
                type_name(&obj)
            )));
        }
        obj.extract::<u64>()
            .map(Number)
            .map_err(|_| PyValueError::new_err(format!("{} is not a non-negative int of 64 bits", &*obj)))
    }
}

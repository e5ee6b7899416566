//! The fields of a log format the record has no key of its own for
//! (`%D`, `%T`, `%{X-Forwarded-For}i`, `$request_time`, ...): each one's
//! name, its type, and its value in a line, typed.
//!
//! One name for each field on every surface (`check --json`'s `fields`,
//! the Python records, the SQL table's columns), in nginx's words where
//! nginx has one: a request header `%{X-Forwarded-For}i` is
//! `http_x_forwarded_for`, a response header `%{X}o` `sent_http_x`,
//! Apache's `%D` `request_time_us`. An nginx variable keeps its name.
//! A name the record has for itself (`scheme`, `status`) becomes
//! `field_NAME`; the second field of one name `NAME_2`.

use crate::clf::unescape;
use serde_json::{Map, Value as Json};
use std::borrow::Cow;

/// The type of a field's values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A whole number (`%D`, `$remote_port`); anything else is null.
    Integer,
    /// A decimal number (`$request_time`, `$msec`); anything else is null.
    Number,
    /// Text, as logged, its escapes (`\"`, `\xhh`) read.
    Text,
}

/// A field of a format, with its name and type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Extra {
    /// The name on every surface (see the module's docs).
    pub name: String,
    /// The type of its values.
    pub kind: Kind,
}

/// A field's value in one line.
#[derive(Clone, Debug, PartialEq)]
pub enum Value<'a> {
    /// Absent (`-`, empty, a line cut before it) or not of the field's type.
    Null,
    /// A whole number.
    Integer(i64),
    /// A decimal number.
    Number(f64),
    /// Text.
    Text(Cow<'a, str>),
}

impl<'a> Value<'a> {
    /// The value of `raw` (as logged, between its quotes if quoted) for
    /// a field of `kind`.
    #[must_use]
    pub fn of(kind: Kind, raw: Option<&'a [u8]>) -> Value<'a> {
        let Some(raw) = raw.filter(|r| !r.is_empty() && *r != b"-") else { return Value::Null };
        let text = || std::str::from_utf8(raw).ok();
        match kind {
            Kind::Integer => text().and_then(|t| t.parse().ok()).map_or(Value::Null, Value::Integer),
            Kind::Number => text()
                .filter(|t| t.bytes().all(|c| c.is_ascii_digit() || c == b'.' || c == b'-'))
                .and_then(|t| t.parse::<f64>().ok())
                .filter(|n| n.is_finite())
                .map_or(Value::Null, Value::Number),
            // Without a `\` there is no escape to read.
            Kind::Text if !raw.contains(&b'\\') => Value::Text(String::from_utf8_lossy(raw)),
            Kind::Text => Value::Text(Cow::Owned(unescape(raw))),
        }
    }

    /// As JSON: a number, a string or `null`.
    #[must_use]
    pub fn to_json(&self) -> Json {
        match self {
            Value::Null => Json::Null,
            Value::Integer(n) => (*n).into(),
            Value::Number(n) => (*n).into(),
            Value::Text(t) => t.as_ref().into(),
        }
    }

    /// The `fields` object of a record: each field's name and value.
    #[must_use]
    pub fn object(extras: &[Extra], values: &[Value<'_>]) -> Json {
        let map: Map<String, Json> =
            extras.iter().zip(values).map(|(e, v)| (e.name.clone(), v.to_json())).collect();
        Json::Object(map)
    }
}

/// The keys a log record has for itself, in JSON and as columns: a
/// field of the format takes none of them.
pub const RECORD_KEYS: &[&str] = &[
    "file",
    "line",
    "input",
    "valid",
    "scheme",
    "client",
    "ident",
    "user",
    "time",
    "time_iso",
    "timestamp",
    "method",
    "target",
    "protocol",
    "status",
    "bytes",
    "referer",
    "referer_valid",
    "referer_scheme",
    "referer_error",
    "referer_error_offset",
    "referer_error_kind",
    "referer_error_rule",
    "referer_error_message",
    "user_agent",
    "error",
    "error_offset",
    "error_kind",
    "error_rule",
    "error_message",
    "warnings",
    "fields",
];

/// The name and type of an Apache directive's field: `letter` after
/// its `{arg}` (mod_log_config's table).
#[must_use]
pub fn apache(letter: &str, arg: Option<&str>) -> (String, Kind) {
    let words = |prefix: &str, a: &str| format!("{prefix}{}", snake(a));
    let fixed = |n: &str, k: Kind| (n.to_string(), k);
    match (letter, arg) {
        ("D", _) => fixed("request_time_us", Kind::Integer),
        ("T", None | Some("s")) => fixed("request_time_s", Kind::Integer),
        ("T", Some("ms")) => fixed("request_time_ms", Kind::Integer),
        ("T", Some("us")) => fixed("request_time_us", Kind::Integer),
        ("I", _) => fixed("bytes_received", Kind::Integer),
        ("S", _) => fixed("bytes_transferred", Kind::Integer),
        ("k", _) => fixed("keepalive_requests", Kind::Integer),
        ("p", None | Some("canonical")) => fixed("server_port", Kind::Integer),
        ("p", Some("local")) => fixed("local_port", Kind::Integer),
        ("p", Some("remote")) => fixed("remote_port", Kind::Integer),
        ("P", None | Some("pid")) => fixed("pid", Kind::Integer),
        ("P", Some("tid")) => fixed("tid", Kind::Integer),
        ("P", Some(_)) => fixed("tid_hex", Kind::Text),
        ("v", _) => fixed("server_name", Kind::Text),
        ("V", _) => fixed("host", Kind::Text),
        ("A", _) => fixed("server_addr", Kind::Text),
        ("a" | "h", Some(_)) => fixed("peer_addr", Kind::Text),
        ("H", _) => fixed("server_protocol", Kind::Text),
        ("m", _) => fixed("request_method", Kind::Text),
        ("U", _) => fixed("uri", Kind::Text),
        ("q", _) => fixed("query_string", Kind::Text),
        ("f", _) => fixed("request_filename", Kind::Text),
        ("X", _) => fixed("connection_status", Kind::Text),
        ("L", _) => fixed("log_id", Kind::Text),
        ("R", _) => fixed("handler", Kind::Text),
        ("t", Some(_)) => fixed("time_formatted", Kind::Text),
        ("i", Some(h)) => (words("http_", h), Kind::Text),
        ("o", Some(h)) => (words("sent_http_", h), Kind::Text),
        ("e", Some(v)) => (words("env_", v), Kind::Text),
        ("n", Some(v)) => (words("note_", v), Kind::Text),
        ("C", Some(v)) => (words("cookie_", v), Kind::Text),
        ("^ti", Some(v)) => (words("trailer_", v), Kind::Text),
        ("^to", Some(v)) => (words("sent_trailer_", v), Kind::Text),
        (l, Some(a)) => (format!("{}_{}", snake(l), snake(a)), Kind::Text),
        (l, None) => (snake(l), Kind::Text),
    }
}

/// The type of an nginx variable's values.
#[must_use]
pub fn nginx(name: &str) -> Kind {
    match name {
        "request_time" | "msec" | "gzip_ratio" => Kind::Number,
        "remote_port"
        | "request_length"
        | "connection"
        | "connection_requests"
        | "server_port"
        | "pid"
        | "content_length"
        | "bytes_sent"
        | "body_bytes_sent" => Kind::Integer,
        _ => Kind::Text,
    }
}

/// `X-Forwarded-For` as `x_forwarded_for`: lower case, `_` for any byte
/// that is not a letter or a digit.
fn snake(text: &str) -> String {
    text.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect()
}

/// The name a new field takes among `taken`: `name`, `field_NAME` for a
/// record's own key, `NAME_2`... for a name already there.
#[must_use]
pub fn unique(name: String, taken: &[Extra]) -> String {
    let name = if RECORD_KEYS.contains(&name.as_str()) { format!("field_{name}") } else { name };
    if !taken.iter().any(|e| e.name == name) {
        return name;
    }
    (2..).map(|k| format!("{name}_{k}")).find(|n| !taken.iter().any(|e| &e.name == n)).unwrap_or(name)
}

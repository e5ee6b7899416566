//! Every error answer, of every route and of the connection layer alike:
//! `{"error": {"kind": KIND, "message": MESSAGE}}`, with the headers every
//! answer has. `kind` is a stable word to test on; `message` says why, for
//! a person.

use crate::page;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// An error answer: its status, its kind and why.
#[derive(Debug)]
pub struct Problem {
    /// The HTTP status.
    pub status: StatusCode,
    /// A stable word: `missing-url`, `url-too-long`, `body-too-large`, ...
    pub kind: &'static str,
    /// Why, for a person.
    pub message: String,
}

impl Problem {
    /// A problem of `status` and `kind`, saying `message`.
    pub fn new(status: StatusCode, kind: &'static str, message: impl Into<String>) -> Problem {
        Problem { status, kind, message: message.into() }
    }

    /// The JSON body.
    #[must_use]
    pub fn body(&self) -> String {
        json!({"error": {"kind": self.kind, "message": self.message}}).to_string()
    }
}

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        let body = self.body();
        let mut res = (self.status, [(header::CONTENT_TYPE, "application/json")], body).into_response();
        secure(res.headers_mut());
        res
    }
}

/// Headers on every answer: nothing typed into the page can run as code
/// (the policy allows only the page's own script), nothing is sniffed.
pub fn secure(h: &mut HeaderMap) {
    for (name, value) in HEADERS {
        h.insert(name, HeaderValue::from_static(value));
    }
}

/// The headers `secure` sets, as they are written.
pub const HEADERS: [(header::HeaderName, &str); 4] = [
    (header::CONTENT_SECURITY_POLICY, page::CONTENT_SECURITY_POLICY),
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (header::REFERRER_POLICY, "no-referrer"),
    (header::X_FRAME_OPTIONS, "DENY"),
];

/// A whole HTTP/1.1 answer of `problem` that closes the connection, as
/// bytes: for what is written below hyper (a connection refused, a head
/// hyper itself could not read).
#[must_use]
pub fn raw(problem: &Problem) -> Vec<u8> {
    let body = problem.body();
    let mut out = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n",
        problem.status.as_u16(),
        problem.status.canonical_reason().unwrap_or(""),
        body.len()
    );
    for (name, value) in HEADERS {
        out.push_str(&format!("{name}: {value}\r\n"));
    }
    out.push_str("\r\n");
    out.push_str(&body);
    out.into_bytes()
}

//! Oracle for `rfc1738 serve`'s handlers: a request made of the input is
//! sent through the whole router (routes, query and body readers, the
//! `Host` check, the limits), in memory, with no socket.
//!
//! The first byte chooses the route, the second the `Host` header, the
//! method, `lenient` and `format`; the rest is the URL (a `GET`), the
//! body (a `POST`), or a path. Whatever they are:
//! - the answer is never a server error, and always has the security headers;
//! - another `Host` gets 421, a URL or a body past the limits 414 or 413,
//!   a query or a text to extract from that is not UTF-8 400;
//! - `parse`, `view`, `normalize` and `explain` say `valid` as the library
//!   does, and the spans lie inside the input;
//! - `check` answers one line per line of the body, in order, numbered
//!   from 1, each `valid` as the library says;
//! - `extract` answers URLs that are the text between their offsets
//!   (the brackets and the whitespace inside them left out).
#![no_main]

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use libfuzzer_sys::fuzz_target;
use rfc1738_serve::{router, Config};
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::OnceLock;
use tower_service::Service;

/// Small limits, so that short inputs reach them.
fn config() -> Config {
    Config { max_body: 2048, max_lines: 40, max_url: 200, ..Config::default() }
}

fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap())
}

const ROUTES: [&str; 10] = [
    "/api/parse",
    "/api/view",
    "/api/normalize",
    "/api/explain",
    "/api/check",
    "/api/extract",
    "/",
    "/api",
    "/app.js",
    "",
];

/// Every byte but the unreserved ones of a query, as `%XX`.
fn encode(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

fn send(request: Request<Body>, local: SocketAddr) -> (StatusCode, axum::http::HeaderMap, Vec<u8>) {
    runtime().block_on(async {
        let mut app = router(&config(), local);
        let res = app.call(request).await.expect("the router's error type is Infallible");
        let (parts, body) = res.into_parts();
        let bytes = axum::body::to_bytes(body, usize::MAX).await.expect("an answer's body is read whole");
        (parts.status, parts.headers, bytes.to_vec())
    })
}

fn json_lines(body: &[u8]) -> Vec<Value> {
    body.split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).expect("each answer line is JSON"))
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let [route, bits, rest @ ..] = data else { return };
    let local = SocketAddr::from(([127, 0, 0, 1], 8738));
    let path = ROUTES[usize::from(*route) % ROUTES.len()];
    let lenient = bits & 4 != 0;
    let format =
        ["", "&format=auto", "&format=url", "&format=clf", "&format=other"][usize::from(bits >> 3) % 5];
    let other_method = bits & 0x80 != 0;
    let post = path == "/api/check" || path == "/api/extract";

    let uri = if path.is_empty() {
        // A path of the input's own: the router answers 404 or a page.
        let Ok(text) = std::str::from_utf8(rest) else { return };
        if !text.starts_with('/') {
            return;
        }
        text.to_string()
    } else if post {
        format!("{path}?x=1{format}")
    } else {
        format!("{path}?url={}{}", encode(rest), if lenient { "&lenient=true" } else { "" })
    };
    let Ok(uri) = uri.parse::<axum::http::Uri>() else { return };
    let method = match (post, other_method) {
        (true, false) | (false, true) => Method::POST,
        _ => Method::GET,
    };
    let mut request = Request::builder().method(method.clone()).uri(uri);
    let host_ok = match bits & 3 {
        // No Host: HTTP/1.0 (HTTP/1.1 requires one; the serve_conn target
        // holds that rule).
        0 => {
            request = request.version(axum::http::Version::HTTP_10);
            true
        }
        1 => {
            request = request.header(header::HOST, "127.0.0.1:8738");
            true
        }
        2 => {
            request = request.header(header::HOST, "localhost:8738");
            true
        }
        _ => {
            request = request.header(header::HOST, "evil.example:8738");
            false
        }
    };
    let body = if post && !other_method { Body::from(rest.to_vec()) } else { Body::empty() };
    let Ok(request) = request.body(body) else { return };
    let (status, headers, body) = send(request, local);

    assert!(!status.is_server_error(), "{status} for {path}");
    assert!(headers.contains_key(header::CONTENT_SECURITY_POLICY), "no policy on {status}");
    assert_eq!(headers.get(header::X_CONTENT_TYPE_OPTIONS).map(|v| v.as_bytes()), Some(&b"nosniff"[..]));
    if !host_ok {
        assert_eq!(status, StatusCode::MISDIRECTED_REQUEST);
        return;
    }
    if path.is_empty() {
        return;
    }
    if other_method {
        assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "{method} {path}");
        return;
    }
    let text = String::from_utf8_lossy(rest);
    match path {
        "/api/parse" | "/api/view" | "/api/normalize" | "/api/explain" => {
            if std::str::from_utf8(rest).is_err() {
                // A query that is not UTF-8 is refused, never replaced.
                assert_eq!(status, StatusCode::BAD_REQUEST, "{path} {text:?}");
                return;
            }
            if text.len() > config().max_url {
                assert_eq!(status, StatusCode::URI_TOO_LONG);
                return;
            }
            assert_eq!(status, StatusCode::OK, "{path} {text:?}");
            let v: Value = serde_json::from_slice(&body).expect("the answer is JSON");
            let record = if path == "/api/view" { &v["record"] } else { &v };
            let strict = rfc1738::validate(&text).is_ok();
            let valid = record["valid"].as_bool().expect("valid is a boolean");
            if lenient && (path == "/api/parse" || path == "/api/view") {
                assert!(valid || !strict, "valid but not leniently: {text:?}");
            } else {
                assert_eq!(valid, strict, "{path} {text:?}");
            }
            if path == "/api/view" {
                for span in v["spans"].as_array().expect("spans") {
                    let (start, end) = (span["start"].as_u64().unwrap(), span["end"].as_u64().unwrap());
                    assert!(start <= end && end as usize <= text.len(), "span {span} of {text:?}");
                }
            }
        }
        "/api/check" => {
            let lines: Vec<&[u8]> = if rest.is_empty() {
                Vec::new()
            } else {
                let body = rest.strip_suffix(b"\n").unwrap_or(rest);
                body.split(|&b| b == b'\n').map(|l| l.strip_suffix(b"\r").unwrap_or(l)).collect()
            };
            // The body's size is the transport's limit; the query is read
            // before the lines are counted.
            if rest.len() > config().max_body {
                assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
                return;
            }
            if format.ends_with("other") {
                assert_eq!(status, StatusCode::BAD_REQUEST);
                return;
            }
            if lines.len() > config().max_lines {
                assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
                return;
            }
            assert_eq!(status, StatusCode::OK);
            let answers = json_lines(&body);
            // One answer per line that is not empty, numbered as in the body
            // (empty lines are skipped, as `check` skips them).
            let lines: Vec<(usize, &[u8])> =
                lines.iter().enumerate().filter(|(_, l)| !l.is_empty()).map(|(k, l)| (k, *l)).collect();
            assert_eq!(answers.len(), lines.len(), "one answer per line that is not empty");
            let as_urls = headers.get("rfc1738-format").map(|v| v.as_bytes()) == Some(&b"url"[..]);
            for (answer, &(k, line)) in answers.iter().zip(&lines) {
                assert_eq!(answer["line"].as_u64(), Some(k as u64 + 1));
                if as_urls {
                    assert_eq!(
                        answer["valid"].as_bool(),
                        Some(rfc1738::validate_bytes(line).is_ok()),
                        "{line:?}"
                    );
                }
            }
        }
        "/api/extract" => {
            if rest.len() > config().max_body {
                assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
                return;
            }
            if std::str::from_utf8(rest).is_err() {
                // Offsets into a text that is not UTF-8 would name no character.
                assert_eq!(status, StatusCode::BAD_REQUEST);
                return;
            }
            assert_eq!(status, StatusCode::OK);
            for found in json_lines(&body) {
                let (start, end) =
                    (found["start"].as_u64().unwrap() as usize, found["end"].as_u64().unwrap() as usize);
                let between = text.get(start..end).expect("offsets lie on the text's characters");
                let url = found["url"].as_str().expect("url is a string");
                if found["form"] == "bare" {
                    assert_eq!(between, url, "{found}");
                    continue;
                }
                // A wrapped URL's span has its brackets (and `URL:`); it may
                // be broken over lines: the whitespace inside is not part of
                // it, nor are the `>` quote marks that start a quoted line
                // (RFC 1738 Appendix; mail and news quoting).
                let inner = between.strip_prefix('<').and_then(|b| b.strip_suffix('>')).expect("in brackets");
                assert!(!url.contains('>'), "{found}");
                let joined: String =
                    inner.chars().filter(|&c| !c.is_whitespace() && c != '\u{200B}' && c != '>').collect();
                let inner = joined.as_str();
                let inner = match found["form"].as_str() {
                    Some("url-prefix") => {
                        inner.get(..4).filter(|p| p.eq_ignore_ascii_case("URL:")).and_then(|_| inner.get(4..))
                    }
                    _ => Some(inner),
                };
                assert_eq!(inner, Some(url), "{found}");
            }
        }
        _ => assert_eq!(status, StatusCode::OK, "{path}"),
    }
});

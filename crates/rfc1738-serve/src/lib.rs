//! `rfc1738 serve`: the URL explorer page and a JSON API over HTTP.
//!
//! The page (`/`) shows what RFC 1738 makes of a URL as it is typed, beside
//! what the browser's own `new URL()` makes of it. The API answers with
//! the records the command writes:
//!
//! | request | answer |
//! |---|---|
//! | `GET /api/parse?url=` | the `parse --json` record |
//! | `GET /api/view?url=` | the record, the spans of the parts, the explanation, the normal form |
//! | `GET /api/normalize?url=` | `{input, valid, normal}`, or the record when invalid |
//! | `GET /api/explain?url=` | `{input, valid, explain}`, or the record when invalid |
//! | `POST /api/check` | lines in (URLs, or a log), one `check --json` object per line out, streamed |
//! | `POST /api/extract` | text in, one object per URL found out, streamed |
//! | `GET /api` | the OpenAPI 3.1 description of all of these |
//!
//! One status rule for every route: 200 for any input, a URL or not (the
//! answer says `valid`); 4xx only for a request that cannot be answered
//! (no `url`, too long, a body too large, another `Host`).
//!
//! Every request is bounded ([`Config`]): body size, lines, URL length,
//! time; every connection too (`net`): the time to send a request's head,
//! the time a write may wait, the number open at once. A request whose
//! `Host` names neither this server nor an allowed name is refused with
//! 421 (`host`).

mod api;
mod config;
mod host;
mod net;
mod page;

pub use config::{Config, DEFAULT_PORT};

use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, Query, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde_json::json;
use std::convert::Infallible;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

/// Lines answered per piece of a streamed `POST /api/check` answer.
const CHUNK_LINES: usize = 1000;

/// Bytes per piece of a streamed `POST /api/extract` answer.
const PIECE_BYTES: usize = 64 << 10;

/// The routes of the page and the API, bounded by `config`, for a server
/// listening on `local`.
pub fn router(config: &Config, local: SocketAddr) -> Router {
    let state = Arc::new(config.clone());
    Router::new()
        .route("/", get(|| async { asset("text/html; charset=utf-8", page::INDEX_HTML) }))
        .route("/app.js", get(|| async { asset("text/javascript; charset=utf-8", page::APP_JS) }))
        .route("/style.css", get(|| async { asset("text/css; charset=utf-8", page::STYLE_CSS) }))
        .route("/favicon.svg", get(|| async { asset("image/svg+xml", page::FAVICON_SVG) }))
        .route("/favicon.ico", get(|| async { asset("image/svg+xml", page::FAVICON_SVG) }))
        .route("/api", get(|| async { asset("application/json", page::OPENAPI_JSON) }))
        .route("/api/parse", get(parse))
        .route("/api/view", get(view))
        .route("/api/normalize", get(normalize))
        .route("/api/explain", get(explain))
        .route("/api/check", post(check))
        .route("/api/extract", post(extract))
        .layer(DefaultBodyLimit::max(config.max_body))
        .layer(middleware::from_fn_with_state(Arc::clone(&state), deadline))
        .layer(middleware::from_fn_with_state((local, Arc::clone(&state)), this_host))
        .layer(middleware::map_response(secure))
        .with_state(state)
}

/// Serves until Ctrl-C; `ready` is told the address once listening (the
/// port is chosen by the system when `config.listen` has port 0).
///
/// # Errors
///
/// The address cannot be bound, or the runtime cannot start.
pub fn run(config: &Config, ready: impl FnOnce(SocketAddr)) -> io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async {
        let listener = net::listen(config.listen)?;
        let local = listener.local_addr()?;
        ready(local);
        net::serve(listener, router(config, local), config, shutdown()).await;
        Ok(())
    })
}

async fn shutdown() {
    let _ = tokio::signal::ctrl_c().await;
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

/// Headers on every answer: nothing typed into the page can run as code
/// (the policy allows only the page's own script), nothing is sniffed.
async fn secure(mut res: Response) -> Response {
    let h = res.headers_mut();
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(page::CONTENT_SECURITY_POLICY));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    res
}

/// A request whose `Host` names another server gets 421: a page on a name
/// that resolves to this machine (DNS rebinding) cannot reach the API. A
/// request without `Host` (HTTP/1.0) did not come from a browser.
async fn this_host(
    State((local, config)): State<(SocketAddr, Arc<Config>)>,
    req: Request,
    next: Next,
) -> Response {
    let Some(named) = req.headers().get(header::HOST) else { return next.run(req).await };
    let named = String::from_utf8_lossy(named.as_bytes()).into_owned();
    if host::allowed(&named, local, &config.allow_hosts) {
        return next.run(req).await;
    }
    let message = format!(
        "the Host header names {named:?}, not this server ({local}): `rfc1738 serve --allow-host NAME` accepts another name"
    );
    problem(StatusCode::MISDIRECTED_REQUEST, &message)
}

/// A request that takes longer than `config.timeout` gets 503.
async fn deadline(State(config): State<Arc<Config>>, req: Request, next: Next) -> Response {
    match tokio::time::timeout(config.timeout, next.run(req)).await {
        Ok(res) => res,
        Err(_) => problem(StatusCode::SERVICE_UNAVAILABLE, "the request took longer than the server's limit"),
    }
}

/// An error answer: `{"error": message}`.
fn problem(status: StatusCode, message: &str) -> Response {
    (status, axum::Json(json!({ "error": message }))).into_response()
}

/// The query of the `GET /api/...` endpoints.
#[derive(serde::Deserialize)]
struct UrlQuery {
    url: Option<String>,
    #[serde(default)]
    lenient: bool,
}

/// Why a request is refused: its status and the reason.
struct Refused(StatusCode, String);

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        problem(self.0, &self.1)
    }
}

/// The `url` parameter, or why it cannot be read.
fn url_of(q: &UrlQuery, config: &Config) -> Result<String, Refused> {
    match &q.url {
        None => Err(Refused(StatusCode::BAD_REQUEST, "missing the url parameter: ?url=...".into())),
        Some(u) if u.len() > config.max_url => Err(Refused(
            StatusCode::URI_TOO_LONG,
            format!("the url has {} bytes, more than the limit of {}", u.len(), config.max_url),
        )),
        Some(u) => Ok(u.clone()),
    }
}

async fn parse(State(config): State<Arc<Config>>, Query(q): Query<UrlQuery>) -> Response {
    match url_of(&q, &config) {
        Ok(url) => axum::Json(api::parse(&url, q.lenient)).into_response(),
        Err(refused) => refused.into_response(),
    }
}

async fn view(State(config): State<Arc<Config>>, Query(q): Query<UrlQuery>) -> Response {
    match url_of(&q, &config) {
        Ok(url) => axum::Json(api::view(&url, q.lenient)).into_response(),
        Err(refused) => refused.into_response(),
    }
}

async fn normalize(State(config): State<Arc<Config>>, Query(q): Query<UrlQuery>) -> Response {
    match url_of(&q, &config) {
        Ok(url) => axum::Json(api::normalize(&url)).into_response(),
        Err(refused) => refused.into_response(),
    }
}

async fn explain(State(config): State<Arc<Config>>, Query(q): Query<UrlQuery>) -> Response {
    match url_of(&q, &config) {
        Ok(url) => axum::Json(api::explain(&url)).into_response(),
        Err(refused) => refused.into_response(),
    }
}

/// The query of `POST /api/check`.
#[derive(serde::Deserialize)]
struct CheckQuery {
    #[serde(default)]
    format: Option<String>,
}

/// Lines in, JSON Lines out, a piece at a time as each is checked. The
/// `rfc1738-format` header says how the lines were read (`?format=url|clf`,
/// or told from the lines themselves).
async fn check(State(config): State<Arc<Config>>, Query(q): Query<CheckQuery>, body: Bytes) -> Response {
    let ranges = api::line_ranges(&body);
    if ranges.len() > config.max_lines {
        let message = format!("{} lines, more than the limit of {}", ranges.len(), config.max_lines);
        return problem(StatusCode::PAYLOAD_TOO_LARGE, &message);
    }
    let format = match q.format.as_deref() {
        None | Some("auto") => {
            let first: Vec<&[u8]> = ranges.iter().take(100).map(|r| &body[r.clone()]).collect();
            api::detect(&first)
        }
        Some("url") => api::Format::Url,
        Some("clf") => api::Format::Clf,
        Some(other) => {
            let message = format!("format {other:?} is none of url, clf, auto");
            return problem(StatusCode::BAD_REQUEST, &message);
        }
    };
    let pieces: Vec<_> = ranges.chunks(CHUNK_LINES).map(<[_]>::to_vec).collect();
    let stream = futures_util::stream::iter(pieces.into_iter().enumerate().map(move |(k, piece)| {
        let lines: Vec<&[u8]> = piece.into_iter().map(|r| &body[r]).collect();
        let mut out = Vec::new();
        api::check(&lines, (k * CHUNK_LINES) as u64 + 1, format, &mut out);
        Ok::<_, Infallible>(Bytes::from(out))
    }));
    let mut res = ndjson(Body::from_stream(stream));
    res.headers_mut().insert("rfc1738-format", HeaderValue::from_static(format.name()));
    res
}

/// Free text in, one JSON line per URL found out, made as the client reads:
/// a piece is made only when the one before it was taken, so a client
/// that does not read holds one piece, until the write timeout drops it.
async fn extract(body: Bytes) -> Response {
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Bytes>(1);
    tokio::spawn(async move {
        let text = match String::from_utf8(Vec::from(body)) {
            Ok(text) => text,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        };
        let mut out = Vec::new();
        for found in api::extract(&text) {
            // Writing to a `Vec` cannot fail.
            let _ = serde_json::to_writer(&mut out, &found);
            out.push(b'\n');
            if out.len() >= PIECE_BYTES && tx.send(Bytes::from(std::mem::take(&mut out))).await.is_err() {
                return;
            }
        }
        if !out.is_empty() {
            let _ = tx.send(Bytes::from(out)).await;
        }
    });
    let pieces =
        futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx).map(|p| p.map(Ok::<_, Infallible>)));
    ndjson(Body::from_stream(pieces))
}

fn ndjson(body: Body) -> Response {
    ([(header::CONTENT_TYPE, "application/x-ndjson")], body).into_response()
}

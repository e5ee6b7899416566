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
//! | `GET /api`, `GET /openapi.json` | the OpenAPI 3.1 description of all of these |
//!
//! One status rule for every route: 200 for any input, a URL or not (the
//! answer says `valid`); 4xx only for a request that cannot be answered
//! (no `url`, too long, a body too large or not text, another `Host`).
//!
//! The work on a body (finding its lines, checking them, finding URLs in
//! it) is done on worker threads, as many at once as the machine has
//! cores (and as many again for small bodies, which never wait behind
//! large ones), and the reading of one URL on a thread of its own: never on the
//! threads that read requests and write answers, so that the page is
//! answered while others' bodies are checked.
//!
//! Every request is bounded ([`Config`]): body size, lines, URL length,
//! time; every connection too (`net`): the time to send a request's head,
//! the time a write may wait, the number open at once. A request whose
//! `Host` names neither this server nor an allowed name is refused with
//! 421 (`host`).

mod config;
mod host;
mod net;
mod page;
mod problem;

pub use config::{Config, DEFAULT_PORT};
use problem::Problem;
use rfc1738_api as api;

use axum::body::{Body, Bytes};
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, RawQuery, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Version};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use bytestring::ByteString;
use std::convert::Infallible;
use std::io;
use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};
use tokio::sync::Semaphore;

/// Lines answered per piece of a streamed `POST /api/check` answer.
const CHUNK_LINES: usize = 1000;

/// Bytes per piece of a streamed answer (of `POST /api/extract`; of the
/// lines' text for `POST /api/check`): a client that does not read makes
/// the server hold two pieces, and make no more.
const PIECE_BYTES: usize = 16 << 10;

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
        .route("/openapi.json", get(|| async { asset("application/json", page::OPENAPI_JSON) }))
        .route("/api/parse", get(parse))
        .route("/api/view", get(view))
        .route("/api/normalize", get(normalize))
        .route("/api/explain", get(explain))
        .route("/api/check", post(check))
        .route("/api/extract", post(extract))
        .fallback(|req: Request| async move {
            let message =
                format!("no such page or endpoint: {}; GET /api lists the endpoints", req.uri().path());
            Problem::new(StatusCode::NOT_FOUND, "not-found", message)
        })
        .method_not_allowed_fallback(|req: Request| async move {
            let message =
                format!("{} is not a method of {}; GET /api says which are", req.method(), req.uri().path());
            Problem::new(StatusCode::METHOD_NOT_ALLOWED, "method-not-allowed", message)
        })
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
    give_back_memory();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async {
        let listener = net::listen(config.listen)?;
        let local = listener.local_addr()?;
        ready(local);
        net::serve(listener, router(config, local), config, shutdown()).await;
        Ok(())
    })
}

/// How often freed memory is handed back to the system.
const TRIM_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// glibc keeps the memory a burst freed (the bodies and answers of many
/// clients, an attack's) in its arenas for later allocations: tens of MB
/// a server no longer needs once those clients are gone. A thread hands it
/// back to the system every [`TRIM_EVERY`]; with nothing to give back, a
/// call costs microseconds.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn give_back_memory() {
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        std::thread::spawn(|| loop {
            std::thread::sleep(TRIM_EVERY);
            // SAFETY: malloc_trim takes no pointer; it releases only memory
            // glibc's allocator holds free, under its own locks, so any
            // thread may call it at any time.
            #[allow(unsafe_code)]
            unsafe {
                libc::malloc_trim(0);
            }
        });
    });
}

/// Other allocators hand memory back themselves.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn give_back_memory() {}

/// Serves one connection over any byte stream, as [`run`] serves each
/// socket, for a server listening on `local`, until the client closes it
/// or a limit ends it. The fuzz target of the connection layer sends its
/// bytes this way, in memory.
pub async fn serve_stream<S>(stream: S, config: &Config, local: SocketAddr)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    net::serve_stream(stream, router(config, local), config).await;
}

async fn shutdown() {
    let _ = tokio::signal::ctrl_c().await;
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

async fn secure(mut res: Response) -> Response {
    problem::secure(res.headers_mut());
    res
}

/// A request whose `Host` names another server gets 421: a page on a name
/// that resolves to this machine (DNS rebinding) cannot reach the API.
/// HTTP/1.1 requires one `Host` (RFC 9112 §3.2): a request without one,
/// or with two, gets 400. A request without `Host` in HTTP/1.0 did not
/// come from a browser, and is answered. A target in absolute form
/// (`GET http://name/...`) names the server in its authority, which then
/// counts in place of `Host` (RFC 9112 §3.2.2).
async fn this_host(
    State((local, config)): State<(SocketAddr, Arc<Config>)>,
    req: Request,
    next: Next,
) -> Response {
    let mut hosts = req.headers().get_all(header::HOST).iter();
    let (first, second) = (hosts.next(), hosts.next());
    let named = match (first, second) {
        (None, _) if req.version() <= Version::HTTP_10 && req.uri().authority().is_none() => {
            return next.run(req).await
        }
        (None, _) if req.version() <= Version::HTTP_10 => String::new(),
        (None, _) => {
            let message = "an HTTP/1.1 request names its server in one Host header: this one has none";
            return Problem::new(StatusCode::BAD_REQUEST, "no-host", message).into_response();
        }
        (Some(_), Some(_)) => {
            let message = "an HTTP/1.1 request names its server in one Host header: this one has two or more";
            return Problem::new(StatusCode::BAD_REQUEST, "two-hosts", message).into_response();
        }
        (Some(named), None) => String::from_utf8_lossy(named.as_bytes()).into_owned(),
    };
    let (named, naming) = match req.uri().authority() {
        Some(authority) => (authority.as_str().to_owned(), "the request's target"),
        None => (named, "the Host header"),
    };
    if host::allowed(&named, local, &config.allow_hosts) {
        return next.run(req).await;
    }
    let message = format!(
        "{naming} names {named:?}, not this server ({local}): `rfc1738 serve --allow-host NAME` accepts another name"
    );
    Problem::new(StatusCode::MISDIRECTED_REQUEST, "other-host", message).into_response()
}

/// A request that takes longer than `config.timeout` gets 503.
async fn deadline(State(config): State<Arc<Config>>, req: Request, next: Next) -> Response {
    match tokio::time::timeout(config.timeout, next.run(req)).await {
        Ok(res) => res,
        Err(_) => {
            let message = "the request took longer than the server's limit";
            Problem::new(StatusCode::SERVICE_UNAVAILABLE, "timeout", message).into_response()
        }
    }
}

/// The pairs of a query, decoded as a form is (`+` a space, `%XX` an
/// octet); a value that is not UTF-8 is refused, never replaced.
fn query_pairs(raw: Option<&str>) -> Result<Vec<(String, String)>, Problem> {
    let mut pairs = Vec::new();
    for piece in raw.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
        let (name, value) = piece.split_once('=').unwrap_or((piece, ""));
        let decode = |text: &str| {
            String::from_utf8(form_decode(text)).map_err(|e| {
                let message = format!(
                    "the query parameter {:?} is not UTF-8 once decoded (octet {:#04X} at byte {})",
                    String::from_utf8_lossy(&form_decode(name)),
                    e.as_bytes()[e.utf8_error().valid_up_to()],
                    e.utf8_error().valid_up_to()
                );
                Problem::new(StatusCode::BAD_REQUEST, "not-utf8", message)
            })
        };
        pairs.push((decode(name)?, decode(value)?));
    }
    Ok(pairs)
}

/// `application/x-www-form-urlencoded` decoding of one name or value: a
/// `%` not followed by two hex digits stays itself.
fn form_decode(text: &str) -> Vec<u8> {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut k = 0;
    while k < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match b[k] {
            b'+' => out.push(b' '),
            b'%' if k + 2 < b.len() && hex(b[k + 1]).is_some() && hex(b[k + 2]).is_some() => {
                out.push(((hex(b[k + 1]).unwrap_or(0) << 4) | hex(b[k + 2]).unwrap_or(0)) as u8);
                k += 2;
            }
            c => out.push(c),
        }
        k += 1;
    }
    out
}

/// The one value of `name` in a query, if any; a name given twice is
/// refused (which one was meant?).
fn single(pairs: &[(String, String)], name: &str) -> Result<Option<String>, Problem> {
    let mut values = pairs.iter().filter(|(n, _)| n == name).map(|(_, v)| v);
    match (values.next(), values.next()) {
        (Some(_), Some(_)) => Err(Problem::new(
            StatusCode::BAD_REQUEST,
            "repeated-parameter",
            format!("the query gives {name} more than once"),
        )),
        (v, _) => Ok(v.cloned()),
    }
}

/// The `lenient` switch of a query: `true` or `false` (the default).
fn lenient_of(pairs: &[(String, String)]) -> Result<bool, Problem> {
    match single(pairs, "lenient")?.as_deref() {
        None | Some("false") => Ok(false),
        Some("true") => Ok(true),
        Some(other) => {
            let message = format!("lenient is {other:?}: it is true or false");
            Err(Problem::new(StatusCode::BAD_REQUEST, "bad-parameter", message))
        }
    }
}

/// The input and the switch of the `GET /api/...` endpoints: `url` (once,
/// at most `config.max_url` bytes) and `lenient` (`true` or `false`).
fn url_query(raw: Option<&str>, config: &Config) -> Result<(String, bool), Problem> {
    let pairs = query_pairs(raw)?;
    let lenient = lenient_of(&pairs)?;
    match single(&pairs, "url")? {
        None => {
            Err(Problem::new(StatusCode::BAD_REQUEST, "missing-url", "missing the url parameter: ?url=..."))
        }
        Some(u) if u.len() > config.max_url => Err(Problem::new(
            StatusCode::URI_TOO_LONG,
            "url-too-long",
            format!("the url has {} bytes, more than the limit of {}", u.len(), config.max_url),
        )),
        Some(u) => Ok((u, lenient)),
    }
}

async fn parse(State(config): State<Arc<Config>>, RawQuery(raw): RawQuery) -> Response {
    match url_query(raw.as_deref(), &config) {
        Ok((url, lenient)) => axum::Json(off_thread(move || api::parse(&url, lenient)).await).into_response(),
        Err(problem) => problem.into_response(),
    }
}

async fn view(State(config): State<Arc<Config>>, RawQuery(raw): RawQuery) -> Response {
    match url_query(raw.as_deref(), &config) {
        Ok((url, lenient)) => axum::Json(off_thread(move || api::view(&url, lenient)).await).into_response(),
        Err(problem) => problem.into_response(),
    }
}

async fn normalize(State(config): State<Arc<Config>>, RawQuery(raw): RawQuery) -> Response {
    match url_query(raw.as_deref(), &config) {
        Ok((url, _)) => axum::Json(off_thread(move || api::normalize(&url)).await).into_response(),
        Err(problem) => problem.into_response(),
    }
}

async fn explain(State(config): State<Arc<Config>>, RawQuery(raw): RawQuery) -> Response {
    match url_query(raw.as_deref(), &config) {
        Ok((url, _)) => axum::Json(off_thread(move || api::explain(&url)).await).into_response(),
        Err(problem) => problem.into_response(),
    }
}

/// A body the routes could not take whole (it is read by `net` first; in
/// memory, as the `serve` fuzz target sends it, it is read here).
fn body_problem(rejection: &BytesRejection, config: &Config) -> Problem {
    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
        let message = format!("the body is longer than the limit of {} bytes", config.max_body);
        return Problem::new(StatusCode::PAYLOAD_TOO_LARGE, "body-too-large", message);
    }
    Problem::new(StatusCode::BAD_REQUEST, "bad-body", format!("the body could not be read: {rejection}"))
}

/// The media types a body of `POST /api/check` and `/api/extract` may be
/// sent as: text. No type, any `text/*` in UTF-8 (or US-ASCII), and the
/// types tools give raw bytes by default (`application/octet-stream`, and
/// `application/x-www-form-urlencoded`, which `curl --data-binary` sends
/// unless told otherwise: the body is read as it is, not decoded). Another
/// type (JSON, a multipart form, another charset) is 415 (RFC 9110
/// §15.5.16), never read as lines.
fn text_body(headers: &HeaderMap) -> Result<(), Problem> {
    let Some(value) = headers.get(header::CONTENT_TYPE) else { return Ok(()) };
    let text = String::from_utf8_lossy(value.as_bytes()).to_ascii_lowercase();
    let mut params = text.split(';').map(str::trim);
    let essence = params.next().unwrap_or("");
    let charset = params.filter_map(|p| p.split_once('=')).find(|(name, _)| name.trim() == "charset");
    let charset = charset.map(|(_, v)| v.trim().trim_matches('"'));
    let text_type = essence.starts_with("text/") && essence.len() > 5;
    let raw = essence == "application/octet-stream" || essence == "application/x-www-form-urlencoded";
    let utf8 = matches!(charset, None | Some("utf-8" | "utf8" | "us-ascii"));
    if (text_type || raw) && utf8 {
        return Ok(());
    }
    let message = format!(
        "the body is {:?}: this endpoint reads text (text/plain, in UTF-8)",
        String::from_utf8_lossy(value.as_bytes())
    );
    Err(Problem::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported-type", message))
}

/// A body of at most this many bytes is small: its work has workers of
/// its own, and never waits behind the work on large bodies.
const SMALL_BODY: usize = 64 << 10;

/// Runs `f`, work on a body of `size` bytes, on a thread of tokio's
/// blocking pool: at most as many at once as the machine has cores for
/// large bodies, and as many again for small ones (the others wait their
/// turn). The threads that read requests and write answers stay free, so
/// that the page is answered while 8 MB bodies are checked, and a small
/// body is checked while large ones wait.
async fn work<T: Send + 'static>(size: usize, f: impl FnOnce() -> T + Send + 'static) -> T {
    static WORKERS: OnceLock<[Arc<Semaphore>; 2]> = OnceLock::new();
    let workers = WORKERS.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        [Arc::new(Semaphore::new(cores)), Arc::new(Semaphore::new(cores))]
    });
    let workers = &workers[usize::from(size > SMALL_BODY)];
    // The semaphores are never closed. The permit goes with the work: a
    // request dropped meanwhile does not free it before the work ends.
    let permit = Arc::clone(workers).acquire_owned().await.ok();
    off_thread(move || {
        let out = f();
        drop(permit);
        out
    })
    .await
}

/// Runs `f` on a thread of tokio's blocking pool: the reading of one URL
/// (`config.max_url` bytes at most, milliseconds), which does not wait
/// behind the bodies of `work`; the handlers at work at once are bounded
/// (`config.max_in_flight`).
async fn off_thread<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    match tokio::task::spawn_blocking(f).await {
        Ok(out) => out,
        Err(e) => match e.try_into_panic() {
            Ok(panic) => std::panic::resume_unwind(panic),
            // The runtime is shutting down.
            Err(_) => std::future::pending().await,
        },
    }
}

/// Lines in, JSON Lines out, a piece at a time as the client takes them.
/// The `rfc1738-format` header says how the lines were read
/// (`?format=url|clf|auto`; `auto`, the default, tells them from the
/// lines themselves).
async fn check(
    State(config): State<Arc<Config>>,
    headers: HeaderMap,
    RawQuery(raw): RawQuery,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let body = match body {
        Ok(body) => body,
        Err(rejection) => return body_problem(&rejection, &config).into_response(),
    };
    if let Err(problem) = text_body(&headers) {
        return problem.into_response();
    }
    let (format, lenient) = match query_pairs(raw.as_deref())
        .and_then(|pairs| Ok((single(&pairs, "format")?, lenient_of(&pairs)?)))
    {
        Ok(read) => read,
        Err(problem) => return problem.into_response(),
    };
    let format = match format.as_deref() {
        None | Some("auto") => None,
        Some("url") => Some(api::Format::Url),
        Some("clf") => Some(api::Format::Clf),
        Some(other) => {
            let message = format!("format {other:?} is none of url, clf, auto");
            return Problem::new(StatusCode::BAD_REQUEST, "bad-parameter", message).into_response();
        }
    };
    let lines = {
        let body = body.clone();
        work(body.len(), move || {
            let ranges = api::line_ranges(&body);
            let format = format.unwrap_or_else(|| {
                let first: Vec<&[u8]> = ranges.iter().take(100).map(|r| &body[r.clone()]).collect();
                api::detect(&first)
            });
            (ranges, format)
        })
    };
    let (ranges, format) = lines.await;
    if ranges.len() > config.max_lines {
        let message = format!("{} lines, more than the limit of {}", ranges.len(), config.max_lines);
        return Problem::new(StatusCode::PAYLOAD_TOO_LARGE, "too-many-lines", message).into_response();
    }
    // A piece is made when the client took the one before: at most
    // `CHUNK_LINES` lines or `PIECE_BYTES` of their text, so that what is
    // held for a client that reads slowly stays small.
    let ranges = Arc::new(ranges);
    let stream = futures_util::stream::unfold(0, move |at| {
        let (body, ranges) = (body.clone(), Arc::clone(&ranges));
        async move {
            let mut end = at;
            let mut size = 0;
            while end < ranges.len() && end - at < CHUNK_LINES && size < PIECE_BYTES {
                size += ranges[end].len();
                end += 1;
            }
            if end == at {
                return None;
            }
            let piece = work(body.len(), move || {
                let lines: Vec<&[u8]> = ranges[at..end].iter().map(|r| &body[r.clone()]).collect();
                let mut out = Vec::new();
                api::check(&lines, at as u64 + 1, format, lenient, &mut out);
                out
            });
            Some((Ok::<_, Infallible>(Bytes::from(piece.await)), end))
        }
    });
    let mut res = ndjson(Body::from_stream(stream));
    res.headers_mut().insert("rfc1738-format", HeaderValue::from_static(format.name()));
    res
}

/// Free text in, one JSON line per URL found out, made as the client reads:
/// a piece is made only when the one before it was taken, so a client
/// that does not read holds one piece, until the write timeout drops it.
/// Each piece is a search that resumes where the last one stopped.
async fn extract(
    State(config): State<Arc<Config>>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let body = match body {
        Ok(body) => body,
        Err(rejection) => return body_problem(&rejection, &config).into_response(),
    };
    if let Err(problem) = text_body(&headers) {
        return problem.into_response();
    }
    // The text is checked once; the pieces read it as text without a copy.
    let size = body.len();
    let text = match work(size, move || ByteString::try_from(body.clone()).map_err(|_| body)).await {
        Ok(text) => text,
        Err(body) => {
            let at = std::str::from_utf8(&body).err().map_or(0, |e| e.valid_up_to());
            let message = format!("the text is not UTF-8: octet {:#04X} at byte {at}", body[at]);
            return Problem::new(StatusCode::BAD_REQUEST, "not-utf8", message).into_response();
        }
    };
    let stream = futures_util::stream::unfold(Some(0), move |from| {
        let text = text.clone();
        async move {
            let piece = work(text.len(), move || {
                let mut out = Vec::new();
                for found in api::extract(&text, from?) {
                    // Writing to a `Vec` cannot fail.
                    let _ = serde_json::to_writer(&mut out, &found);
                    out.push(b'\n');
                    if out.len() >= PIECE_BYTES {
                        let end = found["end"].as_u64().and_then(|end| usize::try_from(end).ok());
                        return Some((out, end));
                    }
                }
                Some((out, None))
            });
            match piece.await? {
                (out, _) if out.is_empty() => None,
                (out, next) => Some((Ok::<_, Infallible>(Bytes::from(out)), next)),
            }
        }
    });
    ndjson(Body::from_stream(stream))
}

fn ndjson(body: Body) -> Response {
    ([(header::CONTENT_TYPE, "application/x-ndjson")], body).into_response()
}

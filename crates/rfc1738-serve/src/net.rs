//! The connections: each one read and written under deadlines, a fixed
//! number of them open at once and per client address, a fixed number of
//! requests worked on at once, and a fixed number of body bytes held.
//!
//! `axum::serve` has no header-read timeout and no cap: a client that
//! sends half a request head and waits holds its connection for ever, and
//! enough of them (slowloris) leave no file descriptor for anyone else.
//! Here each connection is served by hyper's HTTP/1 connection with
//!
//! - a header-read timeout (`Config::header_timeout`): the head of a
//!   request, and the wait for the next one on a kept-alive connection;
//! - a body deadline (`Config::body_timeout`): the body is read here,
//!   before the routes, within `Config::max_body` and the bytes the
//!   server may hold (`Config::max_buffered`), or the request gets 408,
//!   413 or 503;
//! - a write timeout (`Config::write_timeout`): a client that stops
//!   reading its answer is dropped, and the stream that made the answer
//!   with it;
//! - a place among `Config::max_connections`, and among the
//!   `Config::max_per_client` of its address. When the places are taken,
//!   the connection that made no progress the longest (no byte read from
//!   it or taken by it) is closed to make room, unless the server is
//!   working on its request. A client that stalls a head or a body, or
//!   does not read its answer, thus never keeps out one that goes on;
//! - a permit among `Config::max_in_flight` while the routes work on its
//!   request.
//!
//! A head hyper itself refuses (too long, not HTTP) gets hyper's status
//! with the JSON body of every error (`problem`), written here.

use crate::config::Config;
use crate::problem::{self, Problem};
use axum::body::{Body, Bytes, HttpBody};
use axum::http::{header, Request, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::sync::{oneshot, Semaphore};
use tokio::time::Sleep;
use tower_service::Service;

/// The send buffer of each connection, in the kernel: what a client that
/// does not read can make the server hold there besides the piece of the
/// answer in hand (Linux doubles it). Left to the kernel, it grows to
/// `net.ipv4.tcp_wmem`'s maximum (4 MB by default) per connection.
const SEND_BUFFER: u32 = 64 << 10;

/// hyper's read buffer of a connection, at most: a head longer than this
/// is refused (431), and a body is read in pieces of this size at most.
/// A request line is at most 65534 bytes in hyper (longer: 414).
const READ_BUFFER: usize = 80 << 10;

/// The listening socket; the connections it accepts inherit its send
/// buffer size.
///
/// # Errors
///
/// The address cannot be bound.
pub fn listen(addr: SocketAddr) -> io::Result<TcpListener> {
    let socket = if addr.is_ipv4() { TcpSocket::new_v4()? } else { TcpSocket::new_v6()? };
    socket.set_reuseaddr(true)?;
    socket.set_send_buffer_size(SEND_BUFFER)?;
    socket.bind(addr)?;
    socket.listen(1024)
}

/// What every connection shares: the places, the permits, the limits.
struct Shared {
    places: Arc<Places>,
    in_flight: Semaphore,
    max_body: usize,
    body_timeout: Duration,
    timeout: Duration,
}

impl Shared {
    fn new(config: &Config) -> Shared {
        Shared {
            places: Arc::new(Places::new(config)),
            in_flight: Semaphore::new(config.max_in_flight.max(1)),
            max_body: config.max_body,
            body_timeout: config.body_timeout,
            timeout: config.timeout,
        }
    }
}

/// Accepts connections until `stop` is ready and serves each with `app`.
pub async fn serve(listener: TcpListener, app: Router, config: &Config, stop: impl Future<Output = ()>) {
    let shared = Arc::new(Shared::new(config));
    let http = http1(config);
    let write_timeout = config.write_timeout;
    tokio::pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            () = &mut stop => return,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // Out of file descriptors or a connection reset before it
                // was accepted: wait a little rather than spin.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        let Some((place, evicted)) = shared.places.take(peer.ip()) else {
            tokio::spawn(refuse(stream));
            continue;
        };
        let service = Requests { app: app.clone(), place: Arc::clone(&place), shared: Arc::clone(&shared) };
        let io = Watched::new(stream, write_timeout, Arc::clone(&place));
        let connection = http.serve_connection(TokioIo::new(io), service);
        tokio::spawn(async move {
            tokio::select! {
                _ = connection => {}
                _ = evicted => {}
            }
            drop(place);
        });
    }
}

/// Serves one connection over any byte stream, as `serve` serves each
/// socket (the client's address taken as `127.0.0.1`), until the client
/// closes it or a limit ends it: the fuzz target's way in.
pub async fn serve_stream<S>(stream: S, app: Router, config: &Config)
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let shared = Arc::new(Shared::new(config));
    let Some((place, _evicted)) = shared.places.take(IpAddr::V4(Ipv4Addr::LOCALHOST)) else { return };
    let http = http1(config);
    let service = Requests { app, place: Arc::clone(&place), shared };
    let io = Watched::new(stream, config.write_timeout, place);
    let _ = http.serve_connection(TokioIo::new(io), service).await;
}

/// hyper's HTTP/1 server, with the limits of `config`.
fn http1(config: &Config) -> hyper::server::conn::http1::Builder {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(config.header_timeout)
        .max_buf_size(READ_BUFFER)
        .max_header_size(READ_BUFFER)
        // Each answer's head as one buffer, which `instead_of_hypers` reads whole.
        .writev(false);
    http
}

/// 503 to a connection there is no place for, then close it. What the
/// client sent meanwhile is read a short while first: closing a socket
/// with unread bytes resets it, and a reset can lose the answer before
/// the client reads it.
async fn refuse(mut stream: TcpStream) {
    let limit = Duration::from_millis(250);
    let full = problem::raw(&busy());
    let _ = tokio::time::timeout(limit, stream.write_all(&full)).await;
    let _ = stream.shutdown().await;
    let drain = async {
        let mut buf = [0; 4096];
        for _ in 0..4 {
            if matches!(stream.read(&mut buf).await, Ok(0) | Err(_)) {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(limit, drain).await;
}

fn busy() -> Problem {
    Problem::new(StatusCode::SERVICE_UNAVAILABLE, "busy", "every connection is busy: try again in a while")
}

/// The places for open connections. Each holds a stamp of its last
/// progress (from one counter, so that the smallest stamp is the
/// connection that made none the longest), and the body bytes each
/// client address holds.
struct Places {
    max: usize,
    per_client: usize,
    max_buffered: usize,
    per_client_buffered: usize,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    next: u64,
    clock: u64,
    open: BTreeMap<u64, Open>,
    buffered: usize,
    held: HashMap<IpAddr, usize>,
}

struct Open {
    client: IpAddr,
    /// Requests the server works on, on this connection.
    busy: usize,
    /// Its last progress (a tick of `Inner::clock`).
    last: u64,
    /// Closes the connection when sent or dropped.
    close: Option<oneshot::Sender<()>>,
}

/// A connection's place; the place is freed when this is dropped.
struct Place {
    places: Arc<Places>,
    id: u64,
    client: IpAddr,
}

impl Places {
    fn new(config: &Config) -> Places {
        Places {
            max: config.max_connections.max(1),
            per_client: config.max_per_client.max(1),
            max_buffered: config.max_buffered,
            per_client_buffered: (config.max_buffered / 4).max(config.max_body),
            inner: Mutex::new(Inner::default()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A place for a connection from `client`, and what tells the
    /// connection it was evicted; `None` when the server works on a
    /// request of every connection that could make room.
    fn take(self: &Arc<Places>, client: IpAddr) -> Option<(Arc<Place>, oneshot::Receiver<()>)> {
        let mut inner = self.lock();
        let mine = inner.open.values().filter(|o| o.client == client).count();
        if mine >= self.per_client {
            inner.evict(|o| o.client == client)?;
        }
        if inner.open.len() >= self.max {
            inner.evict(|_| true)?;
        }
        let (close, evicted) = oneshot::channel();
        inner.clock += 1;
        inner.next += 1;
        let (id, last) = (inner.next, inner.clock);
        inner.open.insert(id, Open { client, busy: 0, last, close: Some(close) });
        Some((Arc::new(Place { places: Arc::clone(self), id, client }), evicted))
    }

    /// The number of open connections.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.lock().open.len()
    }
}

impl Inner {
    /// Closes the connection among `which` that made no progress the
    /// longest and that the server works on no request of; `None` when
    /// there is none.
    fn evict(&mut self, which: impl Fn(&Open) -> bool) -> Option<()> {
        let stalest = self.open.iter().filter(|(_, o)| o.busy == 0 && which(o)).min_by_key(|(_, o)| o.last);
        let id = *stalest?.0;
        // Dropping the sender wakes the connection's task, which ends.
        self.open.remove(&id);
        Some(())
    }
}

impl Place {
    /// The server begins to work on a request of this connection; it is
    /// not evicted until the returned guard is dropped.
    fn begin(self: &Arc<Place>) -> Busy {
        if let Some(o) = self.places.lock().open.get_mut(&self.id) {
            o.busy += 1;
        }
        Busy(Arc::clone(self))
    }

    /// The client sent or took bytes.
    fn progress(&self) {
        let mut inner = self.places.lock();
        inner.clock += 1;
        let now = inner.clock;
        if let Some(o) = inner.open.get_mut(&self.id) {
            o.last = now;
        }
    }

    /// Room for `n` more bytes of a body, within what the server and this
    /// client's address may hold; given back when the `Held` is dropped.
    fn hold(self: &Arc<Place>, held: &mut Held, n: usize) -> bool {
        let mut inner = self.places.lock();
        let mine = inner.held.get(&self.client).copied().unwrap_or(0);
        if inner.buffered + n > self.places.max_buffered || mine + n > self.places.per_client_buffered {
            return false;
        }
        inner.buffered += n;
        *inner.held.entry(self.client).or_default() += n;
        held.bytes += n;
        true
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        if let Some(mut o) = self.places.lock().open.remove(&self.id) {
            o.close.take();
        }
    }
}

/// A request the server works on.
struct Busy(Arc<Place>);

impl Drop for Busy {
    fn drop(&mut self) {
        if let Some(o) = self.0.places.lock().open.get_mut(&self.0.id) {
            o.busy -= 1;
        }
        self.0.progress();
    }
}

/// A body's bytes, and the room they take among what the server may
/// hold, given back when the bytes are dropped (with the last `Bytes`
/// that shares them).
struct Held {
    places: Arc<Places>,
    client: IpAddr,
    data: Vec<u8>,
    bytes: usize,
}

impl AsRef<[u8]> for Held {
    fn as_ref(&self) -> &[u8] {
        &self.data
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut inner = self.places.lock();
        inner.buffered -= self.bytes;
        let client = self.client;
        if let Some(mine) = inner.held.get_mut(&client) {
            *mine -= self.bytes;
            if *mine == 0 {
                inner.held.remove(&client);
            }
        }
    }
}

/// The router as hyper's service: reads the body of each request first
/// (under its deadline, within the limits), then lets the routes answer
/// with a permit among those in flight, the connection marked busy.
#[derive(Clone)]
struct Requests {
    app: Router,
    place: Arc<Place>,
    shared: Arc<Shared>,
}

impl hyper::service::Service<Request<Incoming>> for Requests {
    type Response = Response;
    type Error = std::convert::Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn call(&self, req: Request<Incoming>) -> Self::Future {
        let mut app = self.app.clone();
        let place = Arc::clone(&self.place);
        let shared = Arc::clone(&self.shared);
        Box::pin(async move {
            let (parts, incoming) = req.into_parts();
            let declared =
                parts.headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse().ok());
            let body = match read_body(incoming, declared, &place, &shared).await {
                Ok(body) => body,
                Err(problem) => {
                    // The rest of the body is not read: the connection ends.
                    let mut res = problem.into_response();
                    res.headers_mut().insert(header::CONNECTION, header::HeaderValue::from_static("close"));
                    return Ok(res);
                }
            };
            let Ok(Ok(_permit)) = tokio::time::timeout(shared.timeout, shared.in_flight.acquire()).await
            else {
                return Ok(busy().into_response());
            };
            let _busy = place.begin();
            let Ok(res) = app.call(Request::from_parts(parts, body)).await;
            Ok(res)
        })
    }
}

/// The body of a request, whole, or the problem that ends its reading:
/// longer than `max_body` (413; at once when `Content-Length` says so),
/// not sent within `body_timeout` of its head (408), no room left among
/// the bytes the server may hold (503).
async fn read_body(
    mut incoming: Incoming,
    declared: Option<usize>,
    place: &Arc<Place>,
    shared: &Shared,
) -> Result<Body, Problem> {
    let too_large = |n: usize| {
        Problem::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "body-too-large",
            format!("the body has {n} bytes or more, more than the limit of {}", shared.max_body),
        )
    };
    if let Some(n) = declared.filter(|&n| n > shared.max_body) {
        return Err(too_large(n));
    }
    if incoming.is_end_stream() {
        return Ok(Body::empty());
    }
    let mut held =
        Held { places: Arc::clone(&place.places), client: place.client, data: Vec::new(), bytes: 0 };
    let deadline = tokio::time::sleep(shared.body_timeout);
    tokio::pin!(deadline);
    loop {
        let frame = tokio::select! {
            frame = std::future::poll_fn(|cx| Pin::new(&mut incoming).poll_frame(cx)) => frame,
            () = &mut deadline => {
                let message = format!(
                    "the body did not come whole within {} s of the head ({} bytes came)",
                    shared.body_timeout.as_secs_f64(),
                    held.data.len()
                );
                return Err(Problem::new(StatusCode::REQUEST_TIMEOUT, "body-timeout", message));
            }
        };
        let Some(frame) = frame else { break };
        let Ok(frame) = frame else {
            let message = "the body could not be read (a broken chunked encoding, or the connection closed)";
            return Err(Problem::new(StatusCode::BAD_REQUEST, "bad-body", message));
        };
        let Ok(data) = frame.into_data() else { continue };
        let n = held.data.len() + data.len();
        if n > shared.max_body {
            return Err(too_large(n));
        }
        if !place.hold(&mut held, data.len()) {
            let message = "the server holds as many request bodies as it may: try again in a while";
            return Err(Problem::new(StatusCode::SERVICE_UNAVAILABLE, "busy", message));
        }
        if held.data.is_empty() {
            // What the client announced, up to a piece: a client that
            // announces much and sends little makes the server hold little.
            held.data.reserve_exact(declared.unwrap_or(0).min(READ_BUFFER).max(data.len()));
        }
        held.data.extend_from_slice(&data);
    }
    Ok(Body::from(Bytes::from_owner(held)))
}

/// A stream whose writes fail with `TimedOut` when the peer has not taken
/// a byte for `limit`, that tells its place of every byte moved, and that
/// gives the heads hyper refuses on its own the JSON body of every error.
struct Watched<S> {
    stream: S,
    limit: Duration,
    place: Arc<Place>,
    /// Armed when a write is pending, disarmed when one goes through.
    stall: Option<Pin<Box<Sleep>>>,
    /// An answer written instead of hyper's, what is left of it, and the
    /// length of hyper's.
    instead: Option<(Vec<u8>, usize, usize)>,
}

impl<S> Watched<S> {
    fn new(stream: S, limit: Duration, place: Arc<Place>) -> Watched<S> {
        Watched { stream, limit, place, stall: None, instead: None }
    }

    fn watch<T>(&mut self, cx: &mut Context<'_>, polled: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        if polled.is_ready() {
            self.stall = None;
            return polled;
        }
        let limit = self.limit;
        let stall = self.stall.get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match stall.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client took nothing of the answer for the write timeout",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

/// The JSON answer for a head hyper refused on its own: hyper writes
/// its status (400, 414, 431) with an empty body and closes; every answer
/// of the routes to an error has a body.
fn instead_of_hypers(buf: &[u8]) -> Option<Vec<u8>> {
    let end = buf.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
    if end != buf.len() {
        return None;
    }
    let head = std::str::from_utf8(buf).ok()?;
    if !head.to_ascii_lowercase().contains("\r\ncontent-length: 0\r\n") {
        return None;
    }
    let problem = match head.get(..13)? {
        "HTTP/1.1 400 " => Problem::new(
            StatusCode::BAD_REQUEST,
            "bad-head",
            "the request's head is not HTTP/1.1: its request line or a header cannot be read",
        ),
        "HTTP/1.1 414 " => Problem::new(
            StatusCode::URI_TOO_LONG,
            "url-too-long",
            "the request's target is longer than 65534 bytes, the most an HTTP/1 request line takes here",
        ),
        "HTTP/1.1 431 " => Problem::new(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            "head-too-large",
            format!("the request's head is longer than {READ_BUFFER} bytes"),
        ),
        _ => return None,
    };
    Some(problem::raw(&problem))
}

impl<S: AsyncRead + Unpin> AsyncRead for Watched<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.place.progress();
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Watched<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        if self.instead.is_none() {
            if let Some(answer) = instead_of_hypers(buf) {
                self.instead = Some((answer, 0, buf.len()));
            }
        }
        if let Some((answer, at, claimed)) = self.instead.take() {
            let this = &mut *self;
            let polled = Pin::new(&mut this.stream).poll_write(cx, &answer[at..]);
            return match this.watch(cx, polled) {
                Poll::Ready(Ok(n)) if at + n < answer.len() && n > 0 => {
                    self.place.progress();
                    self.instead = Some((answer, at + n, claimed));
                    cx.waker().wake_by_ref();
                    Poll::Pending
                }
                Poll::Ready(Ok(_)) => Poll::Ready(Ok(claimed.min(buf.len()))),
                Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
                Poll::Pending => {
                    self.instead = Some((answer, at, claimed));
                    Poll::Pending
                }
            };
        }
        let polled = Pin::new(&mut self.stream).poll_write(cx, buf);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.place.progress();
        }
        self.watch(cx, polled)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let polled = Pin::new(&mut self.stream).poll_flush(cx);
        self.watch(cx, polled)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let polled = Pin::new(&mut self.stream).poll_shutdown(cx);
        self.watch(cx, polled)
    }

    // Not vectored: hyper then writes each answer's head as one buffer,
    // which `instead_of_hypers` reads whole.
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(max: usize, per_client: usize) -> Config {
        Config { max_connections: max, max_per_client: per_client, ..Config::default() }
    }

    const A: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 1));
    const B: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));

    #[test]
    fn the_stalest_gives_way_and_busy_ones_never_do() {
        let places = Arc::new(Places::new(&config(2, 2)));
        let (a, mut a_closed) = places.take(A).unwrap();
        let (b, mut b_closed) = places.take(A).unwrap();
        let busy_a = a.begin();
        // b is idle, a busy: b gives way.
        let (c, _) = places.take(A).unwrap();
        assert_eq!(b_closed.try_recv(), Err(oneshot::error::TryRecvError::Closed));
        assert_eq!(a_closed.try_recv(), Err(oneshot::error::TryRecvError::Empty));
        drop(b);
        assert_eq!(places.len(), 2);
        let busy_c = c.begin();
        assert!(places.take(A).is_none(), "the server works on a request of every connection");
        drop(busy_c);
        drop(busy_a);
        // Both idle now; c made progress first (when its request ended),
        // then a: c gives way; then a moves again, and c's successor goes.
        let (d, _) = places.take(A).unwrap();
        assert_eq!(places.len(), 2);
        assert!(places.lock().open.contains_key(&a.id));
        assert!(!places.lock().open.contains_key(&c.id));
        a.progress();
        let (_e, _) = places.take(A).unwrap();
        assert!(places.lock().open.contains_key(&a.id));
        assert!(!places.lock().open.contains_key(&d.id));
    }

    #[test]
    fn one_address_makes_room_among_its_own() {
        let places = Arc::new(Places::new(&config(4, 2)));
        let (b, _) = places.take(B).unwrap();
        b.progress();
        let (a1, mut a1_closed) = places.take(A).unwrap();
        let (_a2, _) = places.take(A).unwrap();
        // A third from A: A's stalest goes, not B's, though B's is older.
        let (_a3, _) = places.take(A).unwrap();
        assert_eq!(a1_closed.try_recv(), Err(oneshot::error::TryRecvError::Closed));
        assert!(places.lock().open.contains_key(&b.id));
        drop(a1);
        assert_eq!(places.len(), 3);
    }

    #[test]
    fn bodies_are_held_within_the_budget_and_given_back() {
        let c = Config { max_buffered: 1000, max_body: 100, ..Config::default() };
        let places = Arc::new(Places::new(&c));
        let (a, _) = places.take(A).unwrap();
        let (b, _) = places.take(B).unwrap();
        let mut held = Held { places: Arc::clone(&places), client: A, data: Vec::new(), bytes: 0 };
        // A quarter of the budget per address.
        assert!(a.hold(&mut held, 250));
        assert!(!a.hold(&mut held, 1));
        let mut other = Held { places: Arc::clone(&places), client: B, data: Vec::new(), bytes: 0 };
        assert!(b.hold(&mut other, 250));
        drop(held);
        assert_eq!(places.lock().buffered, 250);
        assert!(!places.lock().held.contains_key(&A));
        drop(other);
        assert_eq!(places.lock().buffered, 0);
    }

    #[test]
    fn hypers_own_refusals_get_a_json_body() {
        let head = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let answer = String::from_utf8(instead_of_hypers(head).unwrap()).unwrap();
        assert!(answer.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"), "{answer}");
        assert!(
            answer.ends_with(
                r#""kind":"head-too-large","message":"the request's head is longer than 81920 bytes"}}"#
            ),
            "{answer}"
        );
        assert!(instead_of_hypers(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").is_none());
        assert!(instead_of_hypers(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 5\r\n\r\n").is_none());
    }
}

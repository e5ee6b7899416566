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
//!   413 or 503. No few clients can hold that pool for everyone: an
//!   address holds a quarter of it at most, an eighth is kept for small
//!   bodies (64 kB at most), and when a body finds no room, the body
//!   whose client made no progress the longest (a quarter of a second at
//!   least) gives way: one being read gets 503, one whose answer is not
//!   taken loses its connection;
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
//! with the JSON body of every error (`problem`), written here; so does a
//! connection that opens with the HTTP/2 preface (505), which hyper would
//! close without a word. A client that shuts its side down once its
//! request is sent (a half-close) still gets the answer.

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
use std::time::{Duration, Instant};
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
/// A request line is at most `MAX_TARGET` bytes and a little in hyper
/// (longer: 414).
const READ_BUFFER: usize = 80 << 10;

/// The longest target hyper reads (its `MAX_URI_LEN`); a longer one is 414.
const MAX_TARGET: usize = 65534;

/// A body of at most this many bytes is small: it may take the reserve
/// of the body pool, which larger ones may not.
const SMALL_BODY: usize = 64 << 10;

/// The part of the body pool kept for small bodies: an eighth.
const RESERVE_SHARE: usize = 8;

/// How long a client must have made no progress before its body may be
/// made to give way: a little more than a lost TCP segment's resend
/// (200 ms on Linux), so that bodies on the move never push each other out.
const BODY_IDLE: Duration = Duration::from_millis(250);

/// The first line of the HTTP/2 connection preface (RFC 9113 §3.4).
const H2_PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n";

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
    let (write_timeout, header_timeout) = (config.write_timeout, config.header_timeout);
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
        let connection = connection(io, http.clone(), service, header_timeout);
        tokio::spawn(async move {
            tokio::select! {
                () = connection => {}
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
    let service = Requests { app, place: Arc::clone(&place), shared };
    let io = Watched::new(stream, config.write_timeout, place);
    connection(io, http1(config), service, config.header_timeout).await;
}

/// One connection: its first bytes looked at (an HTTP/2 preface is
/// answered 505 here), then served by hyper.
async fn connection<S>(
    mut io: Watched<S>,
    http: hyper::server::conn::http1::Builder,
    service: Requests,
    header_timeout: Duration,
) where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    // The head's deadline covers these bytes too.
    let Ok(Ok(first)) = tokio::time::timeout(header_timeout, first_bytes(&mut io)).await else { return };
    if first.starts_with(H2_PREFACE) {
        let problem = Problem::new(
            StatusCode::HTTP_VERSION_NOT_SUPPORTED,
            "http2",
            "this server speaks HTTP/1.1 only: the connection opened with the HTTP/2 preface",
        );
        answer_and_close(&mut io, &problem::raw(&problem)).await;
        return;
    }
    let io = Rewind { first, at: 0, io };
    let _ = http.serve_connection(TokioIo::new(io), service).await;
}

/// The first bytes of a connection: read until they are not the start of
/// the HTTP/2 preface's first line, or are that whole line, or the client
/// closes. A request differs from it at its first or second byte.
async fn first_bytes<S: AsyncRead + Unpin>(io: &mut S) -> io::Result<Vec<u8>> {
    let mut first = Vec::new();
    let mut buf = [0; 4096];
    while first.len() < H2_PREFACE.len() && H2_PREFACE.starts_with(&first) {
        let n = io.read(&mut buf).await?;
        if n == 0 {
            break;
        }
        first.extend_from_slice(&buf[..n]);
    }
    Ok(first)
}

/// A connection's first bytes given back to hyper, then the rest.
struct Rewind<S> {
    first: Vec<u8>,
    at: usize,
    io: S,
}

impl<S: AsyncRead + Unpin> AsyncRead for Rewind<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if self.at < self.first.len() {
            let n = buf.remaining().min(self.first.len() - self.at);
            buf.put_slice(&self.first[self.at..self.at + n]);
            self.at += n;
            if self.at == self.first.len() {
                self.first = Vec::new();
                self.at = 0;
            }
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Rewind<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.io).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

/// hyper's HTTP/1 server, with the limits of `config`.
fn http1(config: &Config) -> hyper::server::conn::http1::Builder {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(config.header_timeout)
        .max_buf_size(READ_BUFFER)
        .max_header_size(READ_BUFFER)
        // A client that shuts its side down after its request (a
        // half-close) is still answered.
        .half_close(true)
        // Each answer's head as one buffer, which `instead_of_hypers` reads whole.
        .writev(false);
    http
}

/// 503 to a connection there is no place for, then close it. What the
/// client sent meanwhile is read a short while first: closing a socket
/// with unread bytes resets it, and a reset can lose the answer before
/// the client reads it.
async fn refuse(mut stream: TcpStream) {
    answer_and_close(&mut stream, &problem::raw(&busy())).await;
}

/// Writes `answer` and closes, reading what the client sent meanwhile a
/// short while first: closing a socket with unread bytes resets it, and a
/// reset can lose the answer before the client reads it.
async fn answer_and_close<S: AsyncRead + AsyncWrite + Unpin>(stream: &mut S, answer: &[u8]) {
    let limit = Duration::from_millis(250);
    let _ = tokio::time::timeout(limit, stream.write_all(answer)).await;
    let _ = tokio::time::timeout(limit, stream.shutdown()).await;
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
/// request and each client address holds.
struct Places {
    max: usize,
    per_client: usize,
    max_buffered: usize,
    per_client_buffered: usize,
    /// What bodies larger than `SMALL_BODY` may hold together.
    large_buffered: usize,
    /// How long a client must have made no progress before its body gives way.
    body_idle: Duration,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    next: u64,
    clock: u64,
    open: BTreeMap<u64, Open>,
    buffered: usize,
    held: HashMap<IpAddr, usize>,
    /// The bodies held, by their id.
    bodies: HashMap<u64, Pooled>,
}

struct Open {
    client: IpAddr,
    /// Requests the server works on, on this connection.
    busy: usize,
    /// Its last progress (a tick of `Inner::clock`), and when that was.
    last: u64,
    since: Instant,
    /// Closes the connection when sent or dropped.
    close: Option<oneshot::Sender<()>>,
}

/// A body in the pool.
struct Pooled {
    /// The id of its connection's `Open`.
    connection: u64,
    client: IpAddr,
    bytes: usize,
    /// While the body is read: ends the reading with 503 when dropped.
    reading: Option<oneshot::Sender<()>>,
}

/// A connection's place; the place is freed when this is dropped.
struct Place {
    places: Arc<Places>,
    id: u64,
    client: IpAddr,
}

impl Places {
    fn new(config: &Config) -> Places {
        let reserve = config.max_buffered / RESERVE_SHARE;
        Places {
            max: config.max_connections.max(1),
            per_client: config.max_per_client.max(1),
            max_buffered: config.max_buffered,
            per_client_buffered: (config.max_buffered / 4).max(config.max_body),
            large_buffered: (config.max_buffered - reserve).max(config.max_body),
            body_idle: BODY_IDLE,
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
        inner.open.insert(id, Open { client, busy: 0, last, since: Instant::now(), close: Some(close) });
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

    /// Makes the body among `which` whose client made no progress the
    /// longest (for `idle` at least, the server working on none of its
    /// requests) give way: its room is free at once. A body being read
    /// ends with 503; a body whose answer the client does not take loses
    /// its connection. `None` when no body may give way.
    fn evict_body(&mut self, idle: Duration, which: impl Fn(u64, &Pooled) -> bool) -> Option<()> {
        let now = Instant::now();
        let (_, id) = self
            .bodies
            .iter()
            .filter(|(&id, p)| which(id, p))
            .filter_map(|(&id, p)| {
                let o = self.open.get(&p.connection)?;
                (o.busy == 0 && now.duration_since(o.since) >= idle).then_some((o.last, id))
            })
            .min()?;
        let pooled = self.remove_body(id)?;
        if pooled.reading.is_none() {
            // Dropping the sender wakes the connection's task, which ends
            // and drops the answer that holds the body.
            self.open.remove(&pooled.connection);
        }
        Some(())
    }

    /// Takes a body out of the pool, and its bytes out of the counts.
    fn remove_body(&mut self, id: u64) -> Option<Pooled> {
        let pooled = self.bodies.remove(&id)?;
        self.buffered -= pooled.bytes;
        if let Some(mine) = self.held.get_mut(&pooled.client) {
            *mine -= pooled.bytes;
            if *mine == 0 {
                self.held.remove(&pooled.client);
            }
        }
        Some(pooled)
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
            o.since = Instant::now();
        }
    }

    /// A new body of this connection in the pool, holding nothing yet, and
    /// what tells its reader that it had to give way.
    fn body(self: &Arc<Place>) -> (Held, oneshot::Receiver<()>) {
        let (reading, gave_way) = oneshot::channel();
        let mut inner = self.places.lock();
        inner.next += 1;
        let id = inner.next;
        let pooled = Pooled { connection: self.id, client: self.client, bytes: 0, reading: Some(reading) };
        inner.bodies.insert(id, pooled);
        (Held { places: Arc::clone(&self.places), id, data: Vec::new() }, gave_way)
    }

    /// Room for `n` more bytes of the body `held`, within what the server,
    /// this client's address and bodies of its size may hold, bodies that
    /// stalled giving way if need be; `false` when there is none (or the
    /// body itself gave way).
    fn hold(&self, held: &Held, n: usize) -> bool {
        let places = &self.places;
        let mut inner = places.lock();
        let Some(bytes) = inner.bodies.get(&held.id).map(|p| p.bytes) else { return false };
        let limit = if bytes + n > SMALL_BODY { places.large_buffered } else { places.max_buffered };
        let (client, own) = (self.client, held.id);
        loop {
            let mine = inner.held.get(&client).copied().unwrap_or(0);
            let gave_way = if mine + n > places.per_client_buffered {
                inner.evict_body(places.body_idle, |id, p| id != own && p.client == client)
            } else if inner.buffered + n > limit {
                inner.evict_body(places.body_idle, |id, _| id != own)
            } else {
                break;
            };
            if gave_way.is_none() {
                return false;
            }
        }
        inner.buffered += n;
        *inner.held.entry(self.client).or_default() += n;
        if let Some(p) = inner.bodies.get_mut(&held.id) {
            p.bytes += n;
        }
        true
    }

    /// The body `held` came whole: from now on, making it give way closes
    /// its connection.
    fn body_read(&self, held: &Held) {
        if let Some(p) = self.places.lock().bodies.get_mut(&held.id) {
            p.reading = None;
        }
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

/// A body's bytes, and its place in the pool: its room is given back
/// when the bytes are dropped (with the last `Bytes` that shares them),
/// unless it gave way before.
struct Held {
    places: Arc<Places>,
    id: u64,
    data: Vec<u8>,
}

impl AsRef<[u8]> for Held {
    fn as_ref(&self) -> &[u8] {
        &self.data
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        self.places.lock().remove_body(self.id);
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
            // Busy from here: a request waiting for a permit waits on the
            // server, not on its client, and its body never gives way.
            let working = place.begin();
            let Ok(Ok(_permit)) = tokio::time::timeout(shared.timeout, shared.in_flight.acquire()).await
            else {
                return Ok(busy().into_response());
            };
            let Ok(res) = app.call(Request::from_parts(parts, body)).await;
            drop(working);
            Ok(res.map(|body| Body::new(Making { body, place, busy: None })))
        })
    }
}

/// An answer's body, that marks its connection busy while the server
/// makes the next piece (hyper asks for one only when the client took
/// enough of the last): a client waiting for a piece is not stalled.
struct Making {
    body: Body,
    place: Arc<Place>,
    busy: Option<Busy>,
}

impl HttpBody for Making {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<Bytes>, axum::Error>>> {
        let polled = Pin::new(&mut self.body).poll_frame(cx);
        if polled.is_pending() {
            if self.busy.is_none() {
                self.busy = Some(self.place.begin());
            }
        } else {
            self.busy = None;
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.body.size_hint()
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
    let (mut held, mut gave_way) = place.body();
    let deadline = tokio::time::sleep(shared.body_timeout);
    tokio::pin!(deadline);
    loop {
        let frame = tokio::select! {
            frame = std::future::poll_fn(|cx| Pin::new(&mut incoming).poll_frame(cx)) => frame,
            _ = &mut gave_way => {
                let message = "the body made no progress while others waited for room: try again";
                return Err(Problem::new(StatusCode::SERVICE_UNAVAILABLE, "busy", message));
            }
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
        if !place.hold(&held, data.len()) {
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
    place.body_read(&held);
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
    /// The bytes of the current request line read so far (the first line
    /// read since the last answer), and whether it ended: when hyper
    /// refuses a head that fills its buffer, a request line longer than a
    /// target may be means that the target is too long.
    request_line: usize,
    line_ended: bool,
}

impl<S> Watched<S> {
    fn new(stream: S, limit: Duration, place: Arc<Place>) -> Watched<S> {
        Watched { stream, limit, place, stall: None, instead: None, request_line: 0, line_ended: false }
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
/// of the routes to an error has a body. A target too long is 414
/// whatever its length: hyper says 414 for a target over `MAX_TARGET`
/// bytes in a head it could read whole, and 431 when the head fills its
/// buffer first, which is 414 here too when the request line (of
/// `request_line` bytes) is longer than a target may be.
fn instead_of_hypers(buf: &[u8], request_line: usize) -> Option<Vec<u8>> {
    // A head alone, and a short one: never an answer's body, which can be
    // megabytes written a piece at a time (searched whole at each write,
    // that would take quadratic time).
    if buf.len() > 1024 || !buf.starts_with(b"HTTP/1.1 4") || !buf.ends_with(b"\r\n\r\n") {
        return None;
    }
    let end = buf.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
    if end != buf.len() {
        return None;
    }
    let head = std::str::from_utf8(buf).ok()?;
    if !head.to_ascii_lowercase().contains("\r\ncontent-length: 0\r\n") {
        return None;
    }
    let url_too_long = || {
        Problem::new(
            StatusCode::URI_TOO_LONG,
            "url-too-long",
            format!("the request's target is longer than the server reads: {MAX_TARGET} bytes at most"),
        )
    };
    let problem = match head.get(..13)? {
        "HTTP/1.1 400 " => Problem::new(
            StatusCode::BAD_REQUEST,
            "bad-head",
            "the request's head is not HTTP/1.1: its request line or a header cannot be read",
        ),
        "HTTP/1.1 414 " => url_too_long(),
        "HTTP/1.1 431 " if request_line > MAX_TARGET => url_too_long(),
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
            if !self.line_ended {
                let read = &buf.filled()[before..];
                let end = read.iter().position(|&b| b == b'\n');
                self.request_line += end.unwrap_or(read.len());
                self.line_ended = end.is_some();
            }
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Watched<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        if self.instead.is_none() {
            if let Some(answer) = instead_of_hypers(buf, self.request_line) {
                self.instead = Some((answer, 0, buf.len()));
            }
            // A final answer's head: what is read next is a new request
            // (its body was read before the answer began).
            if buf.starts_with(b"HTTP/1.1 ") && buf.get(9) != Some(&b'1') {
                (self.request_line, self.line_ended) = (0, false);
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
        let (held, _) = a.body();
        // A quarter of the budget per address.
        assert!(a.hold(&held, 250));
        assert!(!a.hold(&held, 1));
        let (other, _) = b.body();
        assert!(b.hold(&other, 250));
        drop(held);
        assert_eq!(places.lock().buffered, 250);
        assert!(!places.lock().held.contains_key(&A));
        drop(other);
        assert_eq!(places.lock().buffered, 0);
    }

    /// Four addresses fill the pool with bodies that stall; a fifth one's
    /// body still finds room: the stalest body gives way, unless its
    /// client moved within `body_idle` or the server works on it.
    #[test]
    fn a_stalled_body_gives_way() {
        let c = Config { max_buffered: 800, max_body: 200, ..Config::default() };
        let mut places = Places::new(&c);
        places.body_idle = Duration::ZERO;
        let places = Arc::new(places);
        let clients: Vec<IpAddr> = (1..=5).map(|k| IpAddr::V4(Ipv4Addr::new(127, 0, 3, k))).collect();
        let mut stalled = Vec::new();
        for &client in &clients[..4] {
            let (place, _) = places.take(client).unwrap();
            let (held, gave_way) = place.body();
            assert!(place.hold(&held, 200));
            stalled.push((place, held, gave_way));
        }
        assert_eq!(places.lock().buffered, 800);
        // The second made progress since: the first is the stalest.
        stalled[1].0.progress();
        // The third's request is being worked on: it is not stalled.
        let working = stalled[2].0.begin();
        let (place, _) = places.take(clients[4]).unwrap();
        let (held, _) = place.body();
        assert!(place.hold(&held, 200), "no room made");
        assert_eq!(
            stalled[0].2.try_recv(),
            Err(oneshot::error::TryRecvError::Closed),
            "the stalest read gave way"
        );
        assert_eq!(places.lock().buffered, 800);
        // Its room is given back once, not again when its bytes go.
        let first = stalled.remove(0);
        drop(first);
        assert_eq!(places.lock().buffered, 800);
        // A body read whole, whose client does not take its answer, gives
        // way by losing its connection.
        place.body_read(&held);
        drop(working);
        for (other, _, _) in &stalled {
            other.progress();
        }
        let (place6, _) = places.take(clients[0]).unwrap();
        let (held6, _) = place6.body();
        assert!(place6.hold(&held6, 200));
        assert!(!places.lock().bodies.contains_key(&held.id));
        assert!(!places.lock().open.contains_key(&place.id), "its connection was closed");
        drop(held);
        assert_eq!(places.lock().buffered, 800);
        // Nothing idle long enough: no room.
        let mut patient = Places::new(&c);
        patient.body_idle = Duration::from_secs(60);
        let patient = Arc::new(patient);
        let mut kept = Vec::new();
        for &client in &clients[..4] {
            let (place, _) = patient.take(client).unwrap();
            let (held, _) = place.body();
            assert!(place.hold(&held, 200));
            kept.push((place, held));
        }
        let (place, _) = patient.take(clients[4]).unwrap();
        let (held, _) = place.body();
        assert!(!place.hold(&held, 1));
    }

    /// An eighth of the pool is kept for bodies of 64 kB at most.
    #[test]
    fn small_bodies_have_a_reserve() {
        let c = Config { max_buffered: 8 * SMALL_BODY, max_body: 4 * SMALL_BODY, ..Config::default() };
        let mut places = Places::new(&c);
        places.body_idle = Duration::from_secs(60);
        let places = Arc::new(places);
        let (a, _) = places.take(A).unwrap();
        let (large, _) = a.body();
        assert!(a.hold(&large, 4 * SMALL_BODY));
        let (b, _) = places.take(B).unwrap();
        let (large, _) = b.body();
        assert!(b.hold(&large, 3 * SMALL_BODY));
        assert!(!b.hold(&large, 1), "a large body may not take the reserve");
        let c = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 3));
        let (c, _) = places.take(c).unwrap();
        let (small, _) = c.body();
        assert!(c.hold(&small, SMALL_BODY));
        assert!(!c.hold(&small, 1));
    }

    #[test]
    fn hypers_own_refusals_get_a_json_body() {
        let head = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let answer = String::from_utf8(instead_of_hypers(head, 100).unwrap()).unwrap();
        assert!(answer.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"), "{answer}");
        assert!(
            answer.ends_with(
                r#""kind":"head-too-large","message":"the request's head is longer than 81920 bytes"}}"#
            ),
            "{answer}"
        );
        // The request line is longer than a target may be.
        let answer = String::from_utf8(instead_of_hypers(head, MAX_TARGET + 1).unwrap()).unwrap();
        assert!(answer.starts_with("HTTP/1.1 414 URI Too Long\r\n"), "{answer}");
        assert!(answer.contains(r#""kind":"url-too-long""#), "{answer}");
        assert!(instead_of_hypers(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n", 0).is_none());
        assert!(instead_of_hypers(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 5\r\n\r\n", 0).is_none());
    }
}

//! The connections: each one read and written under a deadline, and a
//! fixed number of them open at once.
//!
//! `axum::serve` has no header-read timeout and no cap: a client that
//! sends half a request head and waits holds its connection for ever, and
//! enough of them (slowloris) leave no file descriptor for anyone else.
//! Here each connection is served by hyper's HTTP/1 connection with
//!
//! - a header-read timeout (`Config::header_timeout`): the head of a
//!   request, and the wait for the next one on a kept-alive connection;
//! - a write timeout (`Config::write_timeout`): a client that stops
//!   reading its answer is dropped, and the stream that made the answer
//!   with it;
//! - a place among `Config::max_connections`: when all are taken, the
//!   connection idle the longest (no request in flight: still sending its
//!   head, or kept alive between requests; an answer being streamed is
//!   in flight) is closed to make room. A slow
//!   client can thus never keep out a fast one. When every connection has
//!   a request in flight, the new one gets 503 at once.

use crate::config::Config;
use axum::body::{Body, HttpBody};
use axum::http::Request;
use axum::Router;
use futures_util::StreamExt;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::BTreeMap;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::sync::oneshot;
use tokio::time::Sleep;
use tower_service::Service;

/// The answer to a connection that finds every place taken by a request
/// in flight.
const FULL: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
connection: close\r\ncontent-length: 57\r\n\r\n{\"error\":\"every connection is busy: try again in a while\"}";

/// The send buffer of each connection, in the kernel: what a client that
/// does not read can make the server hold there besides the piece of the
/// answer in hand (Linux doubles it). Left to the kernel, it grows to
/// `net.ipv4.tcp_wmem`'s maximum (4 MB by default) per connection.
const SEND_BUFFER: u32 = 256 << 10;

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

/// Accepts connections until `stop` is ready and serves each with `app`.
pub async fn serve(listener: TcpListener, app: Router, config: &Config, stop: impl Future<Output = ()>) {
    let places = Arc::new(Places::new(config.max_connections));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new()).header_read_timeout(config.header_timeout);
    let write_timeout = config.write_timeout;
    tokio::pin!(stop);
    loop {
        let stream = tokio::select! {
            () = &mut stop => return,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // Out of file descriptors or a connection reset before it
                // was accepted: wait a little rather than spin.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        let Some((place, evicted)) = places.take() else {
            tokio::spawn(refuse(stream));
            continue;
        };
        let service = Requests { app: app.clone(), place: Arc::clone(&place) };
        let connection = http.serve_connection(TokioIo::new(Deadlined::new(stream, write_timeout)), service);
        tokio::spawn(async move {
            tokio::select! {
                _ = connection => {}
                _ = evicted => {}
            }
            drop(place);
        });
    }
}

/// 503 to a connection there is no place for, then close it. What the
/// client sent meanwhile is read a short while first: closing a socket
/// with unread bytes resets it, and a reset can lose the answer before
/// the client reads it.
async fn refuse(mut stream: TcpStream) {
    let limit = Duration::from_millis(250);
    let _ = tokio::time::timeout(limit, stream.write_all(FULL)).await;
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

/// The places for open connections. Each holds a stamp of when it last
/// became idle (0 while a request is in flight), from one counter, so
/// that the smallest stamp is the connection idle the longest.
struct Places {
    max: usize,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    next: u64,
    clock: u64,
    open: BTreeMap<u64, Open>,
}

struct Open {
    /// Requests in flight on the connection.
    busy: usize,
    /// When it last became idle (a tick of `Inner::clock`).
    idle_since: u64,
    /// Closes the connection when sent or dropped.
    close: Option<oneshot::Sender<()>>,
}

/// A connection's place; the place is freed when this is dropped.
struct Place {
    places: Arc<Places>,
    id: u64,
}

impl Places {
    fn new(max: usize) -> Places {
        Places { max: max.max(1), inner: Mutex::new(Inner::default()) }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A place, and what tells the connection it was evicted; `None` when
    /// every open connection has a request in flight.
    fn take(self: &Arc<Places>) -> Option<(Arc<Place>, oneshot::Receiver<()>)> {
        let mut inner = self.lock();
        if inner.open.len() >= self.max {
            let oldest = inner.open.iter().filter(|(_, o)| o.busy == 0).min_by_key(|(_, o)| o.idle_since);
            let id = *oldest?.0;
            // Dropping the sender wakes the connection's task, which ends.
            inner.open.remove(&id);
        }
        let (close, evicted) = oneshot::channel();
        inner.clock += 1;
        inner.next += 1;
        let (id, idle_since) = (inner.next, inner.clock);
        inner.open.insert(id, Open { busy: 0, idle_since, close: Some(close) });
        Some((Arc::new(Place { places: Arc::clone(self), id }), evicted))
    }

    /// The number of open connections.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.lock().open.len()
    }
}

impl Place {
    /// A request begins; the connection is busy until the returned guard
    /// is dropped.
    fn begin(self: &Arc<Place>) -> Busy {
        if let Some(o) = self.places.lock().open.get_mut(&self.id) {
            o.busy += 1;
        }
        Busy(Arc::clone(self))
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        if let Some(mut o) = self.places.lock().open.remove(&self.id) {
            o.close.take();
        }
    }
}

/// A request in flight on a connection.
struct Busy(Arc<Place>);

impl Drop for Busy {
    fn drop(&mut self) {
        let mut inner = self.0.places.lock();
        inner.clock += 1;
        let now = inner.clock;
        if let Some(o) = inner.open.get_mut(&self.0.id) {
            o.busy -= 1;
            o.idle_since = now;
        }
    }
}

/// The router as hyper's service, marking the connection busy while a
/// request is answered: from its head read to its answer made, or, for a
/// streamed answer, sent.
#[derive(Clone)]
struct Requests {
    app: Router,
    place: Arc<Place>,
}

impl hyper::service::Service<Request<Incoming>> for Requests {
    type Response = axum::response::Response;
    type Error = std::convert::Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn call(&self, req: Request<Incoming>) -> Self::Future {
        let busy = self.place.begin();
        let mut app = self.app.clone();
        Box::pin(async move {
            let Ok(res) = app.call(req.map(Body::new)).await;
            if res.body().size_hint().exact().is_some() {
                return Ok(res);
            }
            // A streamed answer keeps the connection busy until it is
            // sent whole (or the write timeout drops it).
            let (parts, body) = res.into_parts();
            let body = Body::from_stream(body.into_data_stream().map(move |piece| {
                let _sending = &busy;
                piece
            }));
            Ok(axum::response::Response::from_parts(parts, body))
        })
    }
}

/// A stream whose writes fail with `TimedOut` when the peer has not taken
/// a byte for `limit`.
struct Deadlined {
    stream: TcpStream,
    limit: Duration,
    /// Armed when a write is pending, disarmed when one goes through.
    stall: Option<Pin<Box<Sleep>>>,
}

impl Deadlined {
    fn new(stream: TcpStream, limit: Duration) -> Deadlined {
        Deadlined { stream, limit, stall: None }
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

impl AsyncRead for Deadlined {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Deadlined {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write(cx, buf);
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

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        self.watch(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_idle_longest_gives_way_and_busy_ones_never_do() {
        let places = Arc::new(Places::new(2));
        let (a, mut a_closed) = places.take().unwrap();
        let (b, mut b_closed) = places.take().unwrap();
        let busy_a = a.begin();
        // b is idle, a busy: b gives way.
        let (c, _) = places.take().unwrap();
        assert_eq!(b_closed.try_recv(), Err(oneshot::error::TryRecvError::Closed));
        assert_eq!(a_closed.try_recv(), Err(oneshot::error::TryRecvError::Empty));
        drop(b);
        assert_eq!(places.len(), 2);
        let busy_c = c.begin();
        assert!(places.take().is_none(), "every connection has a request in flight");
        drop(busy_c);
        drop(busy_a);
        // Both idle now; c became idle first.
        let (_d, _) = places.take().unwrap();
        assert_eq!(places.len(), 2);
        assert!(places.lock().open.contains_key(&a.id));
        assert!(!places.lock().open.contains_key(&c.id));
    }
}

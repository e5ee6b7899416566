//! What a server may take: where it listens and how much one request,
//! one connection and all of them together may ask of it.

use std::net::SocketAddr;
use std::time::Duration;

/// The port `rfc1738 serve` listens on by default (on loopback).
pub const DEFAULT_PORT: u16 = 8738;

/// The server's settings; [`Config::default`] is safe for a desktop.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen: loopback by default, so that nothing outside the
    /// machine reaches the server unless asked.
    pub listen: SocketAddr,
    /// The largest request body, in bytes (`POST /api/check`, `/api/extract`).
    pub max_body: usize,
    /// The most lines one `POST /api/check` takes.
    pub max_lines: usize,
    /// The longest URL a `GET /api/...?url=` takes, in bytes.
    pub max_url: usize,
    /// How long the server may take to answer one request once its body
    /// came (the body is bounded by `body_timeout`, the answer of a
    /// streamed endpoint by `write_timeout`); also how long a request
    /// waits for a place among `max_in_flight`.
    pub timeout: Duration,
    /// How long a client may take to send the head of a request (the
    /// request line and the headers), and how long an idle connection is
    /// kept open waiting for the next one.
    pub header_timeout: Duration,
    /// How long a client may take to send a request's body, from the end
    /// of its head; past it the request gets 408.
    pub body_timeout: Duration,
    /// How long a write may wait on a client that does not read its answer.
    pub write_timeout: Duration,
    /// The most connections open at once. When all are taken, the one that
    /// made no progress the longest (no byte read or taken, and the server
    /// not working on its request) is closed to make room; when the server
    /// works on a request of every one, a new one gets 503.
    pub max_connections: usize,
    /// The most connections open at once from one client address; past it
    /// the same rule makes room among that address's own connections, so
    /// one address can never hold the places of others.
    pub max_per_client: usize,
    /// The most requests the server works on at once (its handlers); a
    /// request that finds none free for `timeout` gets 503.
    pub max_in_flight: usize,
    /// The most bytes of request bodies held at once, all connections
    /// together; a client address holds a quarter of it at most (and at
    /// least `max_body`), and an eighth is kept for bodies of 64 kB at
    /// most. When a body finds no room, the body whose client made no
    /// progress the longest gives way; when none may, it gets 503.
    pub max_buffered: usize,
    /// Names accepted in the `Host` header besides the listen address
    /// itself (and `localhost` when listening on loopback). A page on
    /// another name that resolves to this machine (DNS rebinding) is
    /// refused with 421.
    pub allow_hosts: Vec<String>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], DEFAULT_PORT)),
            max_body: 8 << 20,
            max_lines: 100_000,
            max_url: 64 << 10,
            timeout: Duration::from_secs(30),
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            write_timeout: Duration::from_secs(10),
            max_connections: 512,
            max_per_client: 32,
            max_in_flight: 64,
            max_buffered: 64 << 20,
            allow_hosts: Vec::new(),
        }
    }
}

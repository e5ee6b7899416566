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
    /// How long one request may take to be read and answered (the answer
    /// of a streamed endpoint is then bounded by `write_timeout`).
    pub timeout: Duration,
    /// How long a client may take to send the head of a request (the
    /// request line and the headers), and how long an idle connection is
    /// kept open waiting for the next one.
    pub header_timeout: Duration,
    /// How long a write may wait on a client that does not read its answer.
    pub write_timeout: Duration,
    /// The most connections open at once. When all are taken, the one idle
    /// the longest (no request in flight) is closed to make room; when every
    /// one has a request in flight, a new one gets 503.
    pub max_connections: usize,
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
            write_timeout: Duration::from_secs(10),
            max_connections: 512,
            allow_hosts: Vec::new(),
        }
    }
}

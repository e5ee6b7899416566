//! What a server may take: where it listens and how much one request may
//! ask of it.

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
    /// How long one request may take, answer included.
    pub timeout: Duration,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], DEFAULT_PORT)),
            max_body: 8 << 20,
            max_lines: 100_000,
            max_url: 64 << 10,
            timeout: Duration::from_secs(30),
        }
    }
}

//! `rfc1738 serve [--listen ADDR]`: the explorer page and the JSON API
//! (the `rfc1738-serve` crate).

use crate::status;
use rfc1738_serve::Config;
use std::io::{self, Write};
use std::net::SocketAddr;
use std::time::Duration;

/// Arguments of `serve`.
#[derive(clap::Args)]
pub struct ServeArgs {
    /// Where to listen. Loopback by default: another address lets other
    /// machines in, which is said on stderr.
    #[arg(long, default_value = "127.0.0.1:8738")]
    listen: SocketAddr,
    /// The largest request body, in bytes.
    #[arg(long, default_value_t = Config::default().max_body)]
    max_body: usize,
    /// The most lines one `POST /api/check` takes.
    #[arg(long, default_value_t = Config::default().max_lines)]
    max_lines: usize,
    /// How long one request may take, in seconds.
    #[arg(long, default_value_t = Config::default().timeout.as_secs())]
    timeout: u64,
}

/// Serves until Ctrl-C.
pub fn run(args: &ServeArgs) -> io::Result<u8> {
    let config = Config {
        listen: args.listen,
        max_body: args.max_body,
        max_lines: args.max_lines,
        timeout: Duration::from_secs(args.timeout),
        ..Config::default()
    };
    if !args.listen.ip().is_loopback() {
        eprintln!("rfc1738 serve: warning: listening on {}, reachable from other machines", args.listen.ip());
    }
    rfc1738_serve::run(&config, |addr| {
        // The address goes out at once: scripts wait for this line.
        let mut err = io::stderr().lock();
        let _ = writeln!(err, "rfc1738 serve: listening on http://{addr}/ (Ctrl-C stops)");
        let _ = err.flush();
    })
    .map_err(|e| io::Error::new(e.kind(), format!("serve on {}: {e}", args.listen)))?;
    Ok(status::OK)
}

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
    /// Where to listen: `PORT`, `HOST:PORT` or `[IPv6]:PORT`.
    ///
    /// `PORT` alone is on 127.0.0.1; `localhost:9000` too. Loopback by
    /// default: another address lets other machines in, which is said on
    /// stderr.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8738", value_parser = listen_addr)]
    listen: SocketAddr,
    /// The port to listen on, on the address of --listen.
    #[arg(long, value_name = "PORT")]
    port: Option<u16>,
    /// The largest request body, in bytes.
    #[arg(long, default_value_t = Config::default().max_body)]
    max_body: usize,
    /// The most lines one `POST /api/check` takes.
    #[arg(long, default_value_t = Config::default().max_lines)]
    max_lines: usize,
    /// How long one request may take, in seconds.
    #[arg(long, default_value_t = Config::default().timeout.as_secs(), value_parser = seconds())]
    timeout: u64,
    /// Seconds for a request's head.
    ///
    /// How long a client may take to send a request's head (and how long
    /// an idle connection is kept), in seconds.
    #[arg(long, default_value_t = Config::default().header_timeout.as_secs(), value_parser = seconds())]
    header_timeout: u64,
    /// Seconds for a request's body.
    ///
    /// How long a client may take to send a request's body, from the end of
    /// its head, in seconds (then 408).
    #[arg(long, default_value_t = Config::default().body_timeout.as_secs(), value_parser = seconds())]
    body_timeout: u64,
    /// How long a write may wait on a client that does not read, in seconds.
    #[arg(long, default_value_t = Config::default().write_timeout.as_secs(), value_parser = seconds())]
    write_timeout: u64,
    /// The most connections open at once.
    ///
    /// When all are taken, the one that made no progress the longest makes room.
    #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u16).range(1..))]
    max_connections: u16,
    /// The most connections open at once from one client address.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u16).range(1..))]
    max_per_client: u16,
    /// Another name the `Host` header may give (repeatable; `*` for any).
    ///
    /// For a name of this machine, or behind a proxy. Without it, only the listen address (and
    /// `localhost` on loopback) is answered.
    #[arg(long = "allow-host", value_name = "NAME")]
    allow_hosts: Vec<String>,
}

/// `--listen`: a port alone (on loopback), a host and a port (a name is
/// looked up: `localhost:9000`), or a socket address (`[::1]:9000`).
fn listen_addr(s: &str) -> Result<SocketAddr, String> {
    use std::net::{Ipv4Addr, ToSocketAddrs};
    if let Ok(port) = s.parse::<u16>() {
        return Ok(SocketAddr::from((Ipv4Addr::LOCALHOST, port)));
    }
    if let Ok(addr) = s.parse::<SocketAddr>() {
        return Ok(addr);
    }
    let Some((host, port)) = s.rsplit_once(':') else {
        return Err(format!("{s:?} is not PORT, HOST:PORT or [IPv6]:PORT"));
    };
    let port: u16 = port.parse().map_err(|_| format!("{port:?} is not a port from 0 to 65535"))?;
    if host.eq_ignore_ascii_case("localhost") {
        // The loopback the default names, not whatever a resolver says.
        return Ok(SocketAddr::from((Ipv4Addr::LOCALHOST, port)));
    }
    (host, port)
        .to_socket_addrs()
        .ok()
        .and_then(|mut addrs| addrs.next())
        .ok_or_else(|| format!("{host:?}: no address of this name (PORT, HOST:PORT or [IPv6]:PORT)"))
}

/// Seconds, from 1 to a day: a timeout of 0 would refuse everything, and
/// a huge one would overflow the clock.
fn seconds() -> clap::builder::RangedU64ValueParser<u64> {
    clap::value_parser!(u64).range(1..=86_400)
}

/// Serves until Ctrl-C.
pub fn run(args: &ServeArgs) -> io::Result<u8> {
    let mut listen = args.listen;
    if let Some(port) = args.port {
        listen.set_port(port);
    }
    let config = Config {
        listen,
        max_body: args.max_body,
        max_lines: args.max_lines,
        timeout: Duration::from_secs(args.timeout),
        header_timeout: Duration::from_secs(args.header_timeout),
        body_timeout: Duration::from_secs(args.body_timeout),
        write_timeout: Duration::from_secs(args.write_timeout),
        max_connections: usize::from(args.max_connections),
        max_per_client: usize::from(args.max_per_client),
        allow_hosts: args.allow_hosts.clone(),
        ..Config::default()
    };
    if !listen.ip().is_loopback() {
        eprintln!("rfc1738 serve: warning: listening on {}, reachable from other machines", listen.ip());
    }
    rfc1738_serve::run(&config, |addr| {
        // The address goes out at once: scripts wait for this line.
        let mut err = io::stderr().lock();
        let _ = writeln!(err, "rfc1738 serve: listening on http://{addr}/ (Ctrl-C stops)");
        let _ = err.flush();
    })
    .map_err(|e| io::Error::new(e.kind(), format!("serve on {}: {e}", listen)))?;
    Ok(status::OK)
}

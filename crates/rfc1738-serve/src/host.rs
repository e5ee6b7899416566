//! Which `Host` headers this server answers: its own address, and the
//! names it was told to accept. A page on another name that a resolver
//! points at this machine (DNS rebinding) names that other name, and is
//! refused, so it cannot drive the API from a visitor's browser.

use std::net::{IpAddr, SocketAddr};

/// Whether `host` (the `Host` header: `name[:port]`, `[v6][:port]`)
/// names the server listening on `local`, or one of `allow` (`*` allows
/// any). A missing port is port 80.
#[must_use]
pub fn allowed(host: &str, local: SocketAddr, allow: &[String]) -> bool {
    let Some((name, port)) = split(host) else { return false };
    if port != local.port() {
        return false;
    }
    let name = name.strip_suffix('.').unwrap_or(name);
    if allow.iter().any(|a| a == "*" || a.eq_ignore_ascii_case(name)) {
        return true;
    }
    let here = local.ip();
    if name.eq_ignore_ascii_case("localhost") {
        return here.is_loopback() || here.is_unspecified();
    }
    let ip = match name.strip_prefix('[').and_then(|n| n.strip_suffix(']')) {
        Some(v6) => v6.parse::<std::net::Ipv6Addr>().ok().map(IpAddr::V6),
        None => name.parse::<std::net::Ipv4Addr>().ok().map(IpAddr::V4),
    };
    // Listening on every address (0.0.0.0, ::): any address of this
    // machine may be named; names need `allow`.
    ip.is_some_and(|ip| ip == here || here.is_unspecified() || (here.is_loopback() && ip.is_loopback()))
}

/// The name and the port of a `Host` header; `None` when it is not one.
fn split(host: &str) -> Option<(&str, u16)> {
    let (name, port) = match host.rfind(':') {
        Some(k) if !host[k..].contains(']') => (&host[..k], Some(&host[k + 1..])),
        _ => (host, None),
    };
    let port = match port {
        None => 80,
        Some(p) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => p.parse().ok()?,
        Some(_) => return None,
    };
    (!name.is_empty()).then_some((name, port))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(addr: &str) -> SocketAddr {
        addr.parse().unwrap()
    }

    #[test]
    fn loopback_answers_its_own_names_only() {
        let local = at("127.0.0.1:8738");
        for ok in ["127.0.0.1:8738", "localhost:8738", "LOCALHOST.:8738", "[::1]:8738", "127.0.0.2:8738"] {
            assert!(allowed(ok, local, &[]), "{ok}");
        }
        for refused in [
            "evil.dom:8738",
            "127.0.0.1:80",
            "127.0.0.1",
            "localhost",
            "127.0.0.1:x",
            "",
            ":8738",
            "10.0.0.1:8738",
        ] {
            assert!(!allowed(refused, local, &[]), "{refused}");
        }
        assert!(allowed("Explorer.Dom:8738", local, &["explorer.dom".into()]));
        assert!(allowed("any.dom:8738", local, &["*".into()]));
        assert!(!allowed("any.dom:9", local, &["*".into()]), "the port is still checked");
    }

    #[test]
    fn port_80_may_be_left_out_and_any_address_names_an_unspecified_listen() {
        assert!(allowed("127.0.0.1", at("127.0.0.1:80"), &[]));
        let everywhere = at("0.0.0.0:8738");
        assert!(allowed("192.0.2.7:8738", everywhere, &[]));
        assert!(allowed("localhost:8738", everywhere, &[]));
        assert!(!allowed("evil.dom:8738", everywhere, &[]));
        let one = at("192.0.2.7:8738");
        assert!(!allowed("localhost:8738", one, &[]));
        assert!(!allowed("192.0.2.8:8738", one, &[]));
        assert!(allowed("[::1]:8738", at("[::1]:8738"), &[]));
    }
}

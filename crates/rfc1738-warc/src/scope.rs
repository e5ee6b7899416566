//! Which discovered URLs a crawl follows: the scope of its seeds.

use rfc1738::{SchemeKind, Url};

/// How far from its seeds a crawl may go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scope {
    /// Same scheme, host and port as a seed, and a path that starts with
    /// the seed's (a gopher selector, an ftp path, an http path).
    #[default]
    Prefix,
    /// Same host as a seed, any scheme and port.
    Host,
    /// Anything the §6 checks allow.
    Any,
}

/// Where a URL is, as scope compares it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Place {
    scheme: String,
    host: String,
    port: Option<u16>,
    path: String,
}

impl Place {
    /// The place of `url` (a normal form).
    pub(crate) fn of(url: &Url) -> Place {
        let path = match url.kind() {
            // §3.4: the type octet is not part of the selector; items of a
            // menu differ in type from the menu itself.
            SchemeKind::Gopher => url.gopher().map_or("", |g| g.selector()).to_string(),
            // §3.2.2: the typecode is not part of the path.
            SchemeKind::Ftp => {
                let p = url.url_path().unwrap_or("");
                p.split_once(";type=").map_or(p, |(p, _)| p).to_string()
            }
            _ => url.url_path().unwrap_or("").to_string(),
        };
        Place {
            scheme: url.scheme().to_string(),
            host: url.host().unwrap_or("").to_ascii_lowercase(),
            port: url.effective_port(),
            path,
        }
    }

    /// Whether `self` is within `seed` by `scope`.
    pub(crate) fn within(&self, seed: &Place, scope: Scope) -> bool {
        match scope {
            Scope::Any => true,
            Scope::Host => self.host == seed.host,
            Scope::Prefix => {
                self.scheme == seed.scheme
                    && self.host == seed.host
                    && self.port == seed.port
                    && self.path.starts_with(&seed.path)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(s: &str) -> Place {
        Place::of(&Url::parse(s).unwrap().normalize())
    }

    #[test]
    fn prefix_compares_selectors_without_the_type() {
        let seed = place("gopher://h:7070/1/docs");
        assert!(place("gopher://h:7070/0/docs/readme.txt").within(&seed, Scope::Prefix));
        assert!(!place("gopher://h:7070/0/about.txt").within(&seed, Scope::Prefix));
        assert!(!place("gopher://h:7071/0/docs/x").within(&seed, Scope::Prefix));
        assert!(place("gopher://h:7071/0/about").within(&seed, Scope::Host));
        assert!(!place("gopher://g/0/docs").within(&seed, Scope::Host));
        assert!(place("gopher://g/0/docs").within(&seed, Scope::Any));
        // An empty selector holds everything on its server.
        assert!(place("gopher://H/0/x").within(&place("gopher://h/"), Scope::Prefix));
    }

    #[test]
    fn prefix_compares_ftp_paths_without_the_typecode() {
        let seed = place("ftp://h/pub/;type=d");
        assert!(place("ftp://h/pub/www/doc/alpha.html").within(&seed, Scope::Prefix));
        assert!(place("ftp://h:21/pub/motd;type=i").within(&seed, Scope::Prefix));
        assert!(!place("ftp://h/etc/motd").within(&seed, Scope::Prefix));
        assert!(!place("http://h/pub/").within(&seed, Scope::Prefix));
    }
}

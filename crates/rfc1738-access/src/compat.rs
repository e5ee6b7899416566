//! A stand-in for the URL views of the `rfc1738` crate, with the same names
//! and meanings, used until those views are available to this crate. It
//! splits an already well-formed URL; it checks nothing the core checks.
//! Removed when the crate switches to `rfc1738::Url` (one `use` in lib.rs).

use std::borrow::Cow;

/// The scheme of a URL (mirror of `rfc1738::SchemeKind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SchemeKind {
    Ftp,
    Http,
    Gopher,
    Mailto,
    News,
    Nntp,
    Telnet,
    Wais,
    File,
    Prospero,
    Other,
}

/// A split URL.
#[derive(Debug)]
pub(crate) struct Url {
    scheme: String,
    ssp: String,
    user: Option<String>,
    password: Option<String>,
    host: Option<String>,
    port: Option<u16>,
    path: Option<String>,
}

impl Url {
    pub(crate) fn parse(input: &str) -> Result<Url, String> {
        let input = input.split('#').next().unwrap_or("");
        let colon = input.find(':').ok_or("missing \":\" after the scheme")?;
        let scheme = input[..colon].to_ascii_lowercase();
        if scheme.is_empty()
            || !scheme
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
        {
            return Err("invalid scheme".into());
        }
        if input.bytes().any(|b| b <= b' ' || b >= 0x7f) {
            return Err("character not allowed in a url".into());
        }
        let ssp = input[colon + 1..].to_string();
        let mut url = Url {
            scheme,
            ssp,
            user: None,
            password: None,
            host: None,
            port: None,
            path: None,
        };
        if let Some(rest) = url.ssp.strip_prefix("//").map(str::to_string) {
            let (auth, path) = match rest.find('/') {
                Some(i) => (&rest[..i], Some(rest[i + 1..].to_string())),
                None => (&rest[..], None),
            };
            url.path = path;
            let hostport = match auth.rfind('@') {
                Some(at) => {
                    let login = &auth[..at];
                    match login.find(':') {
                        Some(c) => {
                            url.user = Some(login[..c].into());
                            url.password = Some(login[c + 1..].into());
                        }
                        None => url.user = Some(login.into()),
                    }
                    &auth[at + 1..]
                }
                None => auth,
            };
            match hostport.rfind(':') {
                Some(c) => {
                    url.host = Some(hostport[..c].into());
                    let p = &hostport[c + 1..];
                    if !p.is_empty() {
                        url.port = Some(p.parse().map_err(|_| "invalid port")?);
                    }
                }
                None => url.host = Some(hostport.into()),
            }
        }
        Ok(url)
    }
    pub(crate) fn scheme(&self) -> &str {
        &self.scheme
    }
    pub(crate) fn kind(&self) -> SchemeKind {
        match self.scheme.as_str() {
            "ftp" => SchemeKind::Ftp,
            "http" => SchemeKind::Http,
            "gopher" => SchemeKind::Gopher,
            "mailto" => SchemeKind::Mailto,
            "news" => SchemeKind::News,
            "nntp" => SchemeKind::Nntp,
            "telnet" => SchemeKind::Telnet,
            "wais" => SchemeKind::Wais,
            "file" => SchemeKind::File,
            "prospero" => SchemeKind::Prospero,
            _ => SchemeKind::Other,
        }
    }
    pub(crate) fn scheme_specific_part(&self) -> &str {
        &self.ssp
    }
    pub(crate) fn user(&self) -> Option<&str> {
        self.user.as_deref()
    }
    pub(crate) fn password(&self) -> Option<&str> {
        self.password.as_deref()
    }
    pub(crate) fn host(&self) -> Option<&str> {
        self.host.as_deref()
    }
    pub(crate) fn port(&self) -> Option<u16> {
        self.port
    }
    pub(crate) fn url_path(&self) -> Option<&str> {
        self.path.as_deref()
    }
    pub(crate) fn ftp(&self) -> Option<Ftp<'_>> {
        (self.kind() == SchemeKind::Ftp).then_some(Ftp { url: self })
    }
    pub(crate) fn gopher(&self) -> Option<Gopher<'_>> {
        (self.kind() == SchemeKind::Gopher).then_some(Gopher { url: self })
    }
    pub(crate) fn http(&self) -> Option<Http<'_>> {
        (self.kind() == SchemeKind::Http).then_some(Http { url: self })
    }
    pub(crate) fn news(&self) -> Option<News<'_>> {
        (self.kind() == SchemeKind::News).then_some(News { url: self })
    }
    pub(crate) fn nntp(&self) -> Option<Nntp<'_>> {
        (self.kind() == SchemeKind::Nntp).then_some(Nntp { url: self })
    }
}

/// Mirror of `rfc1738::pct::decode`.
pub(crate) fn decode(s: &str) -> Cow<'_, [u8]> {
    let b = s.as_bytes();
    if !b.contains(&b'%') {
        return Cow::Borrowed(b);
    }
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%' && i + 2 < b.len() {
            if let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    Cow::Owned(out)
}

/// Mirror of `rfc1738::scheme::ftp::Ftp`.
pub(crate) struct Ftp<'a> {
    url: &'a Url,
}

impl<'a> Ftp<'a> {
    fn fpath(&self) -> &'a str {
        let p = self.url.url_path().unwrap_or("");
        p.rfind(";type=").map_or(p, |i| &p[..i])
    }
    pub(crate) fn cwd(&self) -> impl Iterator<Item = &'a str> {
        let f = self.fpath();
        f.rfind('/')
            .map(|i| &f[..i])
            .into_iter()
            .flat_map(|d| d.split('/'))
    }
    pub(crate) fn name(&self) -> &'a str {
        let f = self.fpath();
        f.rfind('/').map_or(f, |i| &f[i + 1..])
    }
    pub(crate) fn typecode(&self) -> Option<u8> {
        let p = self.url.url_path().unwrap_or("");
        p.rfind(";type=")
            .and_then(|i| p.as_bytes().get(i + 6))
            .map(u8::to_ascii_lowercase)
    }
}

/// Mirror of `rfc1738::scheme::gopher::Gopher`.
pub(crate) struct Gopher<'a> {
    url: &'a Url,
}

impl<'a> Gopher<'a> {
    fn fields(&self) -> Vec<&'a str> {
        let p = self.url.url_path().unwrap_or("");
        let start = if p.starts_with('%') {
            3.min(p.len())
        } else {
            1.min(p.len())
        };
        p[start..].splitn(3, "%09").collect()
    }
    pub(crate) fn gopher_type(&self) -> u8 {
        let p = self.url.url_path().unwrap_or("");
        if p.starts_with('%') {
            decode(&p[..3.min(p.len())])[0]
        } else {
            p.bytes().next().unwrap_or(b'1')
        }
    }
    pub(crate) fn selector(&self) -> &'a str {
        self.fields()[0]
    }
    pub(crate) fn search(&self) -> Option<&'a str> {
        self.fields().get(1).copied()
    }
    pub(crate) fn plus(&self) -> Option<&'a str> {
        self.fields().get(2).copied()
    }
}

/// Mirror of `rfc1738::scheme::http::Http`.
pub(crate) struct Http<'a> {
    url: &'a Url,
}

impl<'a> Http<'a> {
    pub(crate) fn request_target(&self) -> String {
        format!("/{}", self.url.url_path().unwrap_or(""))
    }
}

/// Mirror of `rfc1738::scheme::news::News`.
pub(crate) struct News<'a> {
    url: &'a Url,
}

impl<'a> News<'a> {
    pub(crate) fn is_all(&self) -> bool {
        self.url.ssp == "*"
    }
    pub(crate) fn group(&self) -> Option<&'a str> {
        (!self.is_all() && !self.url.ssp.contains('@')).then_some(self.url.ssp.as_str())
    }
    pub(crate) fn article(&self) -> Option<&'a str> {
        self.url.ssp.contains('@').then_some(self.url.ssp.as_str())
    }
}

/// Mirror of `rfc1738::scheme::nntp::Nntp`.
pub(crate) struct Nntp<'a> {
    url: &'a Url,
}

impl<'a> Nntp<'a> {
    pub(crate) fn group(&self) -> &'a str {
        let p = self.url.url_path().unwrap_or("");
        p.split('/').next().unwrap_or("")
    }
    pub(crate) fn article(&self) -> Option<u64> {
        let p = self.url.url_path().unwrap_or("");
        p.split('/').nth(1).and_then(|n| n.parse().ok())
    }
}

//! A CDXJ index of WARC files (the line format of pywb's `cdxj-indexer`):
//! `KEY TIMESTAMP {"url": ..., "mime": ..., "status": ..., "digest": ...,
//! "length": ..., "offset": ..., "filename": ...}`, sorted.
//!
//! The key of an http URL is its SURT, as `cdxj-indexer` writes it. Its
//! SURT drops the scheme: `gopher://h:7070/0/a` and `http://h:7070/0/a`
//! both become `h:7070)/0/a`, and a replay asked for the http URL answers
//! with the gopher item. The key of any other scheme keeps the scheme in
//! front, `gopher://(h:7070)/0/a`, so no two schemes share a key.

use crate::digest::timestamp14;
use crate::reader::{read_heads, Head, ReadError};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The index key of `url`.
///
/// # Examples
/// ```
/// use rfc1738_warc::cdxj_key;
/// assert_eq!(cdxj_key("http://WWW.Example.com:8080/A%7eb?z=1&a=2"), "com,example:8080)/a~b?a=2&z=1");
/// assert_eq!(cdxj_key("gopher://127.0.0.1:7070/0/about.txt"), "gopher://(1,0,0,127:7070)/0/about.txt");
/// ```
#[must_use]
pub fn cdxj_key(url: &str) -> String {
    let lower = url.to_ascii_lowercase();
    let Some((scheme, rest)) = lower.split_once("://") else { return lower };
    let rest = rest.split('#').next().unwrap_or("");
    let (authority, path) = rest.find('/').map_or((rest, "/"), |i| (&rest[..i], &rest[i..]));
    let authority = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, p)) if !h.ends_with(']') || authority.starts_with('[') => (h, Some(p)),
        _ => (authority, None),
    };
    let default = match scheme {
        "http" => "80",
        "ftp" => "21",
        "gopher" => "70",
        "nntp" => "119",
        _ => "",
    };
    let port = port.filter(|p| *p != default && !p.is_empty()).map(|p| format!(":{p}")).unwrap_or_default();
    // The SURT host: `www.` dropped, labels reversed, comma-separated.
    let host = strip_www(host);
    let mut labels: Vec<&str> = host.split('.').collect();
    labels.reverse();
    let host = labels.join(",");
    let (path, query) = path.split_once('?').map_or((path, None), |(p, q)| (p, Some(q)));
    // As the SURT canonicalizer: no trailing slash but the root's.
    let path = if path.len() > 1 { path.strip_suffix('/').unwrap_or(path) } else { path };
    let mut out = canonical(path);
    if let Some(q) = query.filter(|q| !q.is_empty()) {
        let mut args: Vec<String> = q.split('&').map(canonical).collect();
        args.sort();
        out.push('?');
        out.push_str(&args.join("&"));
    }
    if scheme == "http" {
        format!("{host}{port}){out}")
    } else {
        format!("{scheme}://({host}{port}){out}")
    }
}

fn strip_www(host: &str) -> &str {
    let digits = host.strip_prefix("www").map(|r| r.trim_start_matches(|c: char| c.is_ascii_digit()));
    match digits.and_then(|r| r.strip_prefix('.')) {
        Some(rest) if !rest.is_empty() => rest,
        _ => host,
    }
}

/// Escapes as the SURT canonicalizer leaves them: an escape of a
/// printable octet other than `%` and `#` decoded, every other escape in
/// upper case.
fn canonical(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| char::from(c).to_digit(16);
        if b[i] == b'%' && i + 2 < b.len() {
            if let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2])) {
                let octet = (h * 16 + l) as u8;
                if (0x21..0x7f).contains(&octet) && octet != b'%' && octet != b'#' {
                    out.push(char::from(octet).to_ascii_lowercase());
                } else {
                    out.push_str(&format!("%{octet:02X}"));
                }
                i += 3;
                continue;
            }
        }
        out.push(char::from(b[i]));
        i += 1;
    }
    out
}

/// A JSON string.
pub(crate) fn json(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The index line of a record, or `None` for a record replay does not
/// answer (warcinfo, request, metadata).
fn line(head: &Head, file: &str) -> Option<String> {
    let kind = head.get("WARC-Type")?;
    let url = head.get("WARC-Target-URI")?;
    let http = head.start.starts_with(b"HTTP/");
    let (mime, status) = match kind {
        "resource" => (head.get("Content-Type").unwrap_or("").to_string(), None),
        "response" | "revisit" if http => {
            let end = head.start.windows(4).position(|w| w == b"\r\n\r\n").unwrap_or(head.start.len());
            let text = String::from_utf8_lossy(&head.start[..end]);
            let status = text.split(' ').nth(1).map(str::to_string);
            let mime = text
                .split("\r\n")
                .find_map(|l| {
                    l.split_once(':').filter(|(n, _)| n.trim().eq_ignore_ascii_case("content-type"))
                })
                .map_or(String::new(), |(_, v)| v.trim().to_string());
            (if kind == "revisit" { "warc/revisit".to_string() } else { mime }, status)
        }
        "response" => (head.get("Content-Type").unwrap_or("").to_string(), None),
        "revisit" => ("warc/revisit".to_string(), None),
        _ => return None,
    };
    let mime = mime.split(';').next().unwrap_or("").trim().to_string();
    let mut fields = vec![("url", json(url)), ("mime", json(&mime))];
    if let Some(s) = status {
        fields.push(("status", json(&s)));
    }
    if let Some(d) = head.get("WARC-Payload-Digest") {
        fields.push(("digest", json(d)));
    }
    fields.push(("length", json(&head.length.to_string())));
    fields.push(("offset", json(&head.offset.to_string())));
    fields.push(("filename", json(file)));
    let body: Vec<String> = fields.iter().map(|(n, v)| format!("\"{n}\": {v}")).collect();
    let ts = timestamp14(head.get("WARC-Date").unwrap_or(""));
    Some(format!("{} {ts} {{{}}}", cdxj_key(url), body.join(", ")))
}

/// The index lines of `files`, sorted.
///
/// # Errors
/// A file that is not WARC.
pub fn index(files: &[PathBuf]) -> Result<Vec<String>, ReadError> {
    let mut lines = Vec::new();
    for f in files {
        let name = f.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        lines.extend(read_heads(f)?.iter().filter_map(|h| line(h, &name)));
    }
    lines.sort();
    Ok(lines)
}

/// Writes `lines` to `path`: a new temporary file beside it, renamed
/// over it once complete.
///
/// # Errors
/// Creating, writing or renaming the file.
pub fn write_index(path: &Path, lines: &[String]) -> io::Result<()> {
    let mut tmp = beside(path)?;
    for l in lines {
        writeln!(tmp, "{l}")?;
    }
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// A new temporary file in `path`'s directory, to be renamed over it:
/// made with the mode a plain create gives (0666 less the umask), not a
/// temporary file's 0600.
pub(crate) fn beside(path: &Path) -> io::Result<tempfile::NamedTempFile> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut b = tempfile::Builder::new();
    b.prefix(".rfc1738-").suffix(".part");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        b.permissions(std::fs::Permissions::from_mode(0o666));
    }
    b.tempfile_in(dir)
}

/// What an earlier run's index says was archived: payload digest, URL
/// and date (`WARC-Date` form), for `--dedup-cdxj`.
///
/// # Errors
/// Reading the file.
pub fn read_index(path: &Path) -> io::Result<Vec<(String, String, String)>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
    let mut out = Vec::new();
    for line in text.lines() {
        let mut parts = line.splitn(3, ' ');
        let (Some(_), Some(ts), Some(body)) = (parts.next(), parts.next(), parts.next()) else { continue };
        let (Some(digest), Some(url)) = (string_field(body, "digest"), string_field(body, "url")) else {
            continue;
        };
        if ts.len() != 14 || !ts.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let date =
            format!("{}-{}-{}T{}:{}:{}Z", &ts[..4], &ts[4..6], &ts[6..8], &ts[8..10], &ts[10..12], &ts[12..]);
        out.push((digest, url, date));
    }
    Ok(out)
}

/// The value of `"name": "value"` in a CDXJ line's JSON (escapes undone).
fn string_field(body: &str, name: &str) -> Option<String> {
    let at = body.find(&format!("\"{name}\": \""))? + name.len() + 5;
    let mut out = String::new();
    let mut chars = body[at..].chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => out.push(chars.next()?),
            c => out.push(c),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_surts_and_keep_the_scheme_but_for_http() {
        assert_eq!(
            cdxj_key("http://127.0.0.1:22180/pub/hello.txt?a=1"),
            "1,0,0,127:22180)/pub/hello.txt?a=1"
        );
        assert_eq!(cdxj_key("http://h.example/"), "example,h)/");
        assert_eq!(cdxj_key("http://www2.h.example:80/x%3bY"), "example,h)/x;y");
        assert_eq!(
            cdxj_key("ftp://127.0.0.1:22121/pub/a%20b/c%3Bd"),
            "ftp://(1,0,0,127:22121)/pub/a%20b/c;d"
        );
        assert_eq!(cdxj_key("gopher://h.example/"), "gopher://(example,h)/");
        assert_eq!(cdxj_key("ftp://h.example/pub/"), "ftp://(example,h)/pub");
        assert_ne!(cdxj_key("gopher://h:7070/0/a"), cdxj_key("http://h:7070/0/a"));
        assert_eq!(cdxj_key("urn:X-rfc1738:log"), "urn:x-rfc1738:log");
    }

    #[test]
    fn index_lines_read_back() {
        let line = "1,0,0,127:22180)/ 20261201180026 {\"url\": \"http://127.0.0.1:22180/\", \"mime\": \"text/html\", \"status\": \"200\", \"digest\": \"sha1:AB\", \"length\": \"1\", \"offset\": \"0\", \"filename\": \"a\"}";
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("i.cdxj");
        write_index(&path, &[line.to_string(), "junk".to_string()]).unwrap();
        let got = read_index(&path).unwrap();
        assert_eq!(
            got,
            [("sha1:AB".into(), "http://127.0.0.1:22180/".into(), "2026-12-01T18:00:26Z".into())]
        );
    }
}

//! One access, as the archive keeps it: the bytes received, the protocol
//! lines exchanged, and the URLs a menu or a listing names.
//!
//! The access is the `rfc1738-access` crate's `fetch`, with gopher menus
//! written as the server sent them: every §6 check, limit and deadline
//! of `fetch` holds for a crawl too.

use crate::spool::Spool;
use rfc1738::build::{FtpBuilder, GopherBuilder};
use rfc1738::Url;
use rfc1738_access::{fetch_in, fetch_recorded, AccessError, Event, Fetched, Options, Sessions, Trace, Wire};

/// The protocol lines of one access, in order: `true` for a line sent.
#[derive(Debug, Default)]
pub(crate) struct Conversation {
    pub(crate) lines: Vec<(bool, Vec<u8>)>,
}

impl Trace for Conversation {
    fn event(&mut self, event: &Event<'_>) {
        match event {
            Event::Sent(line) => self.lines.push((true, line.to_vec())),
            Event::Received(line) => self.lines.push((false, line.to_vec())),
            _ => {}
        }
    }
}

impl Conversation {
    /// The lines sent.
    pub(crate) fn sent(&self) -> impl Iterator<Item = &[u8]> {
        self.lines.iter().filter(|l| l.0).map(|l| l.1.as_slice())
    }

    /// The lines received.
    pub(crate) fn received(&self) -> impl Iterator<Item = &[u8]> {
        self.lines.iter().filter(|l| !l.0).map(|l| l.1.as_slice())
    }

    /// The control conversation of an ftp access as it crossed the wire,
    /// each line ended by CR LF, the argument of `PASS` masked (an anonymous
    /// login's e-mail address too: a password is never archived).
    pub(crate) fn ftp_text(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for (sent, line) in &self.lines {
            if *sent && line.len() >= 5 && line[..5].eq_ignore_ascii_case(b"PASS ") {
                out.extend_from_slice(b"PASS ****");
            } else {
                out.extend_from_slice(line);
            }
            out.extend_from_slice(b"\r\n");
        }
        out
    }
}

/// What one access brought back.
pub(crate) struct Fetch {
    pub(crate) body: Spool,
    pub(crate) result: Result<Fetched, AccessError>,
    pub(crate) talk: Conversation,
    /// The bytes as they crossed the wire, for http.
    pub(crate) wire: Option<Wire>,
}

/// Performs the access of `url`; whatever arrived before an error is
/// kept. An http access is recorded as it crosses the wire (the archive
/// keeps the request and the response as they were), the others keep the
/// content alone: their protocol lines are in the conversation.
///
/// An ftp access goes on the control connection `sessions` keeps for its
/// server and login: one login for a whole tree.
pub(crate) fn access(url: &str, opts: &Options, http: bool, sessions: &mut Sessions) -> Fetch {
    let mut body = Spool::new();
    let mut talk = Conversation::default();
    if http {
        let wire = Wire::default();
        // The content, decoded (no transfer coding), is read for links.
        let result = fetch_recorded(url, opts, &mut talk, &mut body, &wire);
        return Fetch { body, result, talk, wire: Some(wire) };
    }
    let result = fetch_in(url, opts, sessions, &mut talk, &mut body);
    Fetch { body, result, talk, wire: None }
}

/// Where an http message's body starts: after the empty line that ends
/// its head; `None` when the head never ended.
pub(crate) fn http_body_start(message: &[u8]) -> Option<usize> {
    message.windows(4).position(|w| w == b"\r\n\r\n").map(|at| at + 4)
}

/// The `Content-Length` of an http head, when it names one.
pub(crate) fn http_content_length(head: &[u8]) -> Option<u64> {
    http_field(head, "content-length")?.parse().ok()
}

/// The value of the first field `name` (in lower case) of an http head.
pub(crate) fn http_field(head: &[u8], name: &str) -> Option<String> {
    String::from_utf8_lossy(head).split("\r\n").skip(1).find_map(|l| {
        let (n, v) = l.split_once(':')?;
        n.trim().eq_ignore_ascii_case(name).then(|| v.trim().to_string())
    })
}

/// Whether an http head says its body is HTML (`text/html`, or XHTML).
pub(crate) fn is_html(head: &[u8]) -> bool {
    http_field(head, "content-type").is_some_and(|t| {
        let t = t.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
        t == "text/html" || t == "application/xhtml+xml"
    })
}

/// An article's lines (the access gives them unstuffed, each ended by LF)
/// with the CR LF line ends of the wire (RFC 5536 §2.1, RFC 3977 §3.1.1).
pub(crate) fn crlf_lines(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + text.len() / 32);
    for line in text.split_inclusive(|&b| b == b'\n') {
        match line.strip_suffix(b"\n") {
            Some(l) => {
                out.extend_from_slice(l);
                out.extend_from_slice(b"\r\n");
            }
            None => out.extend_from_slice(line),
        }
    }
    out
}

/// The article URLs of a group's overview (RFC 2980 XOVER: the article
/// number first on each line), on the server and group of `group_url`.
pub(crate) fn overview_links(group_url: &Url, overview: &[u8]) -> Vec<Link> {
    let Some(view) = group_url.nntp() else { return Vec::new() };
    let group = String::from_utf8_lossy(&rfc1738::pct::decode(view.group())).into_owned();
    let mut base = rfc1738::build::NntpBuilder::new(group_url.host().unwrap_or(""), &group);
    if let Some(port) = group_url.port() {
        base = base.port(port);
    }
    overview
        .split(|&b| b == b'\n')
        .filter_map(|l| l.split(|&b| b == b'\t').next().filter(|n| !n.is_empty()))
        .map(|n| {
            let n: u64 =
                std::str::from_utf8(n).ok().and_then(|n| n.trim().parse().ok()).ok_or_else(|| {
                    format!("an overview line without an article number: {:?}", rfc1738_access::show(n))
                })?;
            base.clone().article(n).build().map(|u| u.as_str().to_string()).map_err(|e| e.to_string())
        })
        .collect()
}

/// `WARC-Truncated` (ISO 28500 §5.13) for an access stopped by a limit
/// or by the server after some bytes: `length`, `time` or `disconnect`.
/// `None` for an error that is no truncation (a refusal, a failed connect).
pub(crate) fn truncation(e: &AccessError) -> Option<&'static str> {
    match e {
        AccessError::TooLarge { .. } | AccessError::Limit { .. } => Some("length"),
        AccessError::Deadline { .. } | AccessError::Timeout => Some("time"),
        AccessError::Truncated { .. } | AccessError::Io(_) | AccessError::Protocol(_) => Some("disconnect"),
        _ => None,
    }
}

/// The `Content-Type` of a gopher item of type `t` (RFC 1436 §3.8, and
/// the types gopher clients agree on since). Menus and search results are
/// `application/gopher-menu`, the name Gopher+ gives the menu view.
pub(crate) fn gopher_content_type(t: u8) -> &'static str {
    match t {
        b'0' => "text/plain",
        b'1' | b'7' => "application/gopher-menu",
        b'4' => "application/mac-binhex40",
        b'6' => "text/x-uuencode",
        b'g' => "image/gif",
        b'p' => "image/png",
        b'h' => "text/html",
        b'M' => "message/rfc822",
        b'c' => "text/calendar",
        b'x' => "text/xml",
        _ => "application/octet-stream",
    }
}

/// A URL a menu or listing names, or why it names none.
pub(crate) type Link = Result<String, String>;

/// The URLs of a gopher menu's items (RFC 1436 §3.8), in order. Type 7
/// searches become one URL per term of `search` (§3.4.2), none without;
/// information lines, errors and interactive sessions (`i`, `3`, `8`,
/// `T`, `2`) none; `h` items with a `URL:` selector the URL they name.
pub(crate) fn menu_links(menu: &[u8], search: &[String]) -> Vec<Link> {
    let mut out = Vec::new();
    for item in rfc1738_access::parse_menu(menu) {
        let shown = rfc1738_access::show(item.display.as_bytes());
        match item.item_type {
            b'i' | b'3' | b'8' | b'T' | b'2' => continue,
            b'h' if item.selector.starts_with(b"URL:") => {
                out.push(Ok(String::from_utf8_lossy(&item.selector[4..]).into_owned()));
                continue;
            }
            _ => {}
        }
        let mut b = GopherBuilder::new(&item.host).gopher_type(item.item_type).selector(&item.selector);
        if item.port != 70 {
            b = b.port(item.port);
        }
        let terms: Vec<Option<&String>> =
            if item.item_type == b'7' { search.iter().map(Some).collect() } else { vec![None] };
        for term in terms {
            let built = match term {
                Some(t) => b.clone().search(t).build(),
                None => b.build(),
            };
            out.push(built.map(|u| u.as_str().to_string()).map_err(|e| {
                format!(
                    "the menu item {shown:?} (host {:?}) makes no url: {e}",
                    rfc1738_access::show(item.host.as_bytes())
                )
            }));
        }
        if item.plus {
            // §3.4.6: a Gopher+ item (tagged `+` or `?`, §3.4.4) has
            // attributes, `!`; they name its views (`+VIEWS`).
            out.push(
                b.clone()
                    .search("")
                    .plus("!")
                    .build()
                    .map(|u| u.as_str().to_string())
                    .map_err(|e| format!("the attributes of the menu item {shown:?} make no url: {e}")),
            );
        }
    }
    out
}

/// What a gopher+ URL asks for (§3.4.3 to §3.4.8), from its gopher+ string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PlusRequest {
    /// No gopher+ string: a plain gopher request.
    None,
    /// `!`: every attribute of the item (§3.4.6).
    Attributes,
    /// `+VIEW[ LANGUAGE]`: a view (§3.4.8), its MIME type.
    View(String),
    /// Anything else: `+` (the default view), `$`, `?`, forms.
    Other,
}

/// What the gopher+ string of `url` asks for.
pub(crate) fn plus_request(url: &Url) -> PlusRequest {
    let Some(plus) = url.gopher().and_then(|g| g.plus()) else { return PlusRequest::None };
    let plus = rfc1738::pct::decode(plus);
    match &plus[..] {
        b"!" => PlusRequest::Attributes,
        [b'+', view @ ..] if !view.is_empty() => {
            let mime = view.split(|&b| b == b' ').next().unwrap_or_default();
            PlusRequest::View(String::from_utf8_lossy(mime).into_owned())
        }
        _ => PlusRequest::Other,
    }
}

/// The URL of each view a Gopher+ attribute block names (`+VIEWS:`, one
/// view a line, each line starting with a space: `MIME[ LANGUAGE]: <SIZE>`),
/// on the item of `item` (§3.4.8: `+VIEW%20LANGUAGE`).
pub(crate) fn view_links(item: &Url, attributes: &[u8]) -> Vec<Link> {
    let Some(g) = item.gopher() else { return Vec::new() };
    let mut base = GopherBuilder::new(item.host().unwrap_or(""))
        .gopher_type(g.gopher_type())
        .selector(rfc1738::pct::decode(g.selector()));
    if let Some(port) = item.port() {
        base = base.port(port);
    }
    let mut out = Vec::new();
    let mut in_views = false;
    for line in attributes.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.starts_with(b"+") {
            in_views = line.starts_with(b"+VIEWS:");
            continue;
        }
        let Some(view) = line.strip_prefix(b" ").filter(|_| in_views) else { continue };
        // The view ends at the `:` before its size.
        let end = view.iter().rposition(|&b| b == b':').unwrap_or(view.len());
        let view = view[..end].trim_ascii();
        if view.is_empty() {
            continue;
        }
        let built = base.clone().search("").plus([b"+".as_slice(), view].concat()).build();
        out.push(
            built
                .map(|u| u.as_str().to_string())
                .map_err(|e| format!("the view {:?} makes no url: {e}", rfc1738_access::show(view))),
        );
    }
    out
}

/// The URLs of the names an ftp directory's `NLST` gives (RFC 959
/// §4.1.3: one pathname a line), each a file in the directory `dir`
/// locates. A name holding `/` (a path, not a name) is refused.
pub(crate) fn ftp_links(dir: &Url, listing: &[u8]) -> Vec<Link> {
    let Some(view) = dir.ftp() else { return Vec::new() };
    let mut base = FtpBuilder::new(dir.host().unwrap_or(""));
    if let Some(port) = dir.port() {
        base = base.port(port);
    }
    if let Some(user) = dir.user() {
        base = base.user(rfc1738::pct::decode(user));
        if let Some(pw) = dir.password() {
            base = base.password(rfc1738::pct::decode(pw));
        }
    }
    for seg in view.cwd() {
        base = base.cwd(rfc1738::pct::decode(seg));
    }
    let mut out = Vec::new();
    for name in listing.split(|&b| b == b'\n') {
        let name = name.strip_suffix(b"\r").unwrap_or(name);
        if name.is_empty() || name == b"." || name == b".." {
            continue;
        }
        if name.contains(&b'/') {
            out.push(Err(format!("the listing names {:?}, a path, not a name", rfc1738_access::show(name))));
            continue;
        }
        out.push(base.clone().name(name).build().map(|u| u.as_str().to_string()).map_err(|e| e.to_string()));
    }
    out
}

/// The ftp URL of the directory a file URL would be if it is one: the
/// name becomes the last segment, the name empty (§3.2.2).
pub(crate) fn ftp_as_directory(file: &str) -> Option<String> {
    let url = Url::parse(file).ok()?;
    let path = url.url_path()?;
    if path.is_empty() || path.ends_with('/') || path.contains(";type=") {
        return None;
    }
    Some(format!("{file}/"))
}

/// Octets made one line of text: printable ASCII as it is, `%` and every
/// other octet as `%HH` (a selector may hold any octet but TAB, CR, LF).
pub(crate) fn escape_octets(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        if (0x20..0x7f).contains(&b) && b != b'%' {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn menu_links_skip_what_locates_nothing_and_refuse_what_breaks_a_line() {
        let menu = b"iWelcome\tfake\t(NULL)\t0\r\n\
            0About\t/about.txt\th.example\t7070\r\n\
            1Docs\t/docs\th.example\t70\r\n\
            7Search\t/search\th.example\t70\r\n\
            8Telnet\t\th.example\t23\r\n\
            hWeb\tURL:http://w.example/\th.example\t70\r\n\
            0Evil\t/x\rQUIT\th.example\t70\r\n\
            .\r\n";
        let links = menu_links(menu, &["a b".to_string()]);
        assert_eq!(links[0], Ok("gopher://h.example:7070/0/about.txt".to_string()));
        assert_eq!(links[1], Ok("gopher://h.example/1/docs".to_string()));
        assert_eq!(links[2], Ok("gopher://h.example/7/search%09a%20b".to_string()));
        assert_eq!(links[3], Ok("http://w.example/".to_string()));
        assert!(links[4].as_ref().unwrap_err().contains("\"Evil\""), "{links:?}");
        assert_eq!(links.len(), 5);
        assert_eq!(menu_links(b"7Search\t/s\th\t70\r\n", &[]).len(), 0, "no search without terms");
    }

    #[test]
    fn gopher_plus_items_name_their_attributes_and_the_attributes_their_views() {
        let links = menu_links(b"0Item\t/i\th.example\t70\t+\r\n0Plain\t/p\th.example\t70\r\n", &[]);
        let want = ["gopher://h.example/0/i", "gopher://h.example/0/i%09%09!", "gopher://h.example/0/p"];
        assert_eq!(links, want.map(|u| Ok(u.to_string())));
        let item = Url::parse("gopher://h.example:7070/0/a%20b").unwrap();
        let attrs = b"+INFO: 0a\t/a\th\t70\t+\r\n+VIEWS:\r\n text/plain: <1k>\r\n \
            application/postscript Es_ES: <9k>\r\n+ABSTRACT:\r\n not: a view\r\n";
        let views = view_links(&item, attrs);
        assert_eq!(views[0], Ok("gopher://h.example:7070/0/a%20b%09%09+text/plain".to_string()));
        assert_eq!(
            views[1],
            Ok("gopher://h.example:7070/0/a%20b%09%09+application/postscript%20Es_ES".to_string())
        );
        assert_eq!(views.len(), 2);
        let view = Url::parse(views[1].as_ref().unwrap()).unwrap();
        assert_eq!(plus_request(&view), PlusRequest::View("application/postscript".into()));
        let attrs = Url::parse(links[1].as_ref().unwrap()).unwrap();
        assert_eq!(plus_request(&attrs), PlusRequest::Attributes);
        assert_eq!(plus_request(&item), PlusRequest::None);
    }

    #[test]
    fn ftp_links_are_files_of_the_directory() {
        let dir = Url::parse("ftp://h.example:2121/pub/a%20b/").unwrap();
        let links = ftp_links(&dir, b"c;d\r\nx y\r\n.\r\n\r\nsub/dir\r\n");
        assert_eq!(links[0], Ok("ftp://h.example:2121/pub/a%20b/c%3Bd".to_string()));
        assert_eq!(links[1], Ok("ftp://h.example:2121/pub/a%20b/x%20y".to_string()));
        assert!(links[2].is_err());
        assert_eq!(ftp_as_directory("ftp://h/pub/www").as_deref(), Some("ftp://h/pub/www/"));
        assert_eq!(ftp_as_directory("ftp://h/pub/www;type=i"), None);
    }

    #[test]
    fn the_ftp_conversation_never_holds_a_password() {
        let talk = Conversation {
            lines: vec![
                (false, b"220 hi".to_vec()),
                (true, b"USER anonymous".to_vec()),
                (true, b"PASS me@example.org".to_vec()),
                (false, b"230 ok".to_vec()),
            ],
        };
        assert_eq!(talk.ftp_text(), b"220 hi\r\nUSER anonymous\r\nPASS ****\r\n230 ok\r\n");
    }

    #[test]
    fn http_heads_and_articles() {
        let m = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello";
        assert_eq!(http_body_start(m), Some(m.len() - 5));
        assert_eq!(http_content_length(m), Some(5));
        assert!(is_html(b"HTTP/1.1 200 OK\r\nContent-Type: Text/HTML; charset=utf-8\r\n\r\n"));
        assert!(!is_html(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n"));
        assert_eq!(http_body_start(b"HTTP/1.1 200 OK\r\n"), None);
        assert_eq!(crlf_lines(b"a\n\nb\n"), b"a\r\n\r\nb\r\n");
        let group = Url::parse("nntp://news.example:1190/comp.lang.c").unwrap();
        let links = overview_links(&group, b"1\tSubject\tfrom\n2\tS\tf\nx\ty\n");
        assert_eq!(links[0], Ok("nntp://news.example:1190/comp.lang.c/1".to_string()));
        assert_eq!(links[1], Ok("nntp://news.example:1190/comp.lang.c/2".to_string()));
        assert!(links[2].is_err());
    }

    #[test]
    fn every_item_type_has_a_content_type() {
        // RFC 1436 §3.8, then the types clients agree on (docs/WARC.md).
        let table = [
            (b'0', "text/plain"),
            (b'1', "application/gopher-menu"),
            (b'7', "application/gopher-menu"),
            (b'4', "application/mac-binhex40"),
            (b'6', "text/x-uuencode"),
            (b'g', "image/gif"),
            (b'p', "image/png"),
            (b'h', "text/html"),
            (b'M', "message/rfc822"),
        ];
        for (t, want) in table {
            assert_eq!(gopher_content_type(t), want, "type {}", char::from(t));
        }
        for t in *b"2358T9+IsdX\0\xff" {
            assert_eq!(gopher_content_type(t), "application/octet-stream", "type {t:#x}");
        }
    }

    #[test]
    fn octets_escaped() {
        assert_eq!(escape_octets(b"/a b%\t\xff"), "/a b%25%09%FF");
    }
}

//! What a client does with a URL, in words: the access each scheme of §3
//! describes.

use rfc1738::{pct, FtpLogin, SchemeKind, Url, WaisForm};

/// Octets shown as text, with control characters and octets that are not
/// UTF-8 written as escapes (`<01>`, `<FF>`): what the reader sees is what
/// the URL holds, never a replacement character.
fn shown(octets: &[u8]) -> String {
    let mut out = String::new();
    for chunk in octets.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\t' => out.push_str("<TAB>"),
                '\r' => out.push_str("<CR>"),
                '\n' => out.push_str("<LF>"),
                c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("<{:02X}>", c as u32)),
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("<{b:02X}>"));
        }
    }
    out
}

fn decoded(raw: &str) -> String {
    shown(&pct::decode(raw))
}

fn endpoint(url: &Url) -> String {
    let port = match (url.port(), url.port_str()) {
        (Some(p), _) if Some(p) != url.kind().default_port() => format!("{p}"),
        // §5 gives a port no range; TCP does (RFC 793: 16 bits).
        (None, Some(digits)) => {
            return format!("no connection: port {digits} is above 65535, and no TCP port has this number")
        }
        _ => format!("{} (the default)", url.effective_port().unwrap_or(0)),
    };
    format!("connect to {} on TCP port {port}", url.host().unwrap_or(""))
}

/// The explanation, one line per step.
#[must_use]
pub fn explain(url: &Url) -> Vec<String> {
    let mut out = vec![format!(
        "{}  ({} URL, RFC 1738 §{})",
        url.without_fragment(),
        url.scheme(),
        url.kind().section()
    )];
    match url.kind() {
        SchemeKind::Ftp => ftp(url, &mut out),
        // RFC 2818 §2.4: https has http's syntax.
        SchemeKind::Http | SchemeKind::Https => {
            let h = url.http().expect("kind is http");
            out.push(endpoint(url));
            out.push(format!("send an HTTP GET for {}", h.request_target()));
            if let Some(s) = h.search() {
                out.push(format!("  the search part {s:?} is a query string (§3.3)"));
            }
        }
        SchemeKind::Gopher => gopher(url, &mut out),
        SchemeKind::Mailto => {
            let m = url.mailto().expect("kind is mailto");
            out.push(format!("an Internet mailing address: {} (§3.5)", shown(&m.address())));
            out.push("nothing to retrieve: a client offers to send mail to it".into());
        }
        SchemeKind::News => {
            let n = url.news().expect("kind is news");
            out.push("use the news server configured locally (a news URL names no host, §3.6)".into());
            if n.is_all() {
                out.push("list all available news groups (LIST)".into());
            } else if let Some(g) = n.group() {
                out.push(format!("select the group {g} (GROUP {g})"));
            } else if let Some(a) = n.article() {
                out.push(format!("fetch the article <{}> (ARTICLE <{}>)", decoded(a), decoded(a)));
            }
        }
        SchemeKind::Nntp => {
            let n = url.nntp().expect("kind is nntp");
            out.push(endpoint(url));
            out.push(format!("GROUP {}", n.group()));
            match n.article_raw() {
                Some(a) => out.push(format!("ARTICLE {a}")),
                None => out.push("(no article number: the group itself)".into()),
            }
        }
        SchemeKind::Telnet => telnet(url, &mut out),
        SchemeKind::Wais => wais(url, &mut out),
        SchemeKind::File => {
            let f = url.file().expect("kind is file");
            let path = decoded(f.path());
            if f.is_local() {
                out.push(format!("open the local file /{path} (host {:?} is this machine, §3.10)", f.host()));
            } else {
                out.push(format!("the file /{path} on the machine {} (§3.10)", f.host()));
                out.push("no protocol is given for reaching another machine's files".into());
            }
        }
        SchemeKind::Prospero => {
            let p = url.prospero().expect("kind is prospero");
            out.push(endpoint(url));
            out.push(format!(
                "ask the Prospero directory server to resolve the hsoname {:?}",
                decoded(p.hsoname_raw())
            ));
            for (n, v) in p.fields() {
                out.push(format!("  with the link field {} = {}", decoded(n), decoded(v)));
            }
            out.push("the answer names the access method, itself a URL (§3.11)".into());
        }
        SchemeKind::Other => other(url, &mut out),
    }
    if let Some(f) = url.fragment() {
        out.push(format!("fragment {f:?}: not part of the URL; for the client's own use (§2.2)"));
    }
    out
}

fn ftp(url: &Url, out: &mut Vec<String>) {
    let f = url.ftp().expect("kind is ftp");
    out.push(endpoint(url));
    match f.login() {
        FtpLogin::Anonymous => {
            out.push("USER anonymous            (no user in the URL: anonymous FTP, §3.2.1)".into());
            out.push("PASS <your e-mail address> (if the server asks for a password)".into());
        }
        FtpLogin::User { user, password } => {
            let empty = if user.is_empty() { "  (an empty user name, not an absent one, §3.1)" } else { "" };
            out.push(format!("USER {}{empty}", shown(&user)));
            match password {
                Some(p) if p.is_empty() => out.push("PASS   (an empty password, §3.1)".into()),
                Some(p) => out.push(format!("PASS {}", shown(&p))),
                None => out.push("PASS <ask the user>       (if the server asks, §3.2.1)".into()),
            }
        }
    }
    for c in f.commands() {
        let why = match (c.verb, c.arg.is_empty()) {
            ("CWD", true) => "  (an empty segment: CWD with a null argument, §3.2.2)",
            ("NLST", _) => "  (list the directory)",
            ("RETR", _) if f.typecode().is_none() => "  (no typecode: the client guesses the type, §3.2.3)",
            _ => "",
        };
        out.push(format!("{}{why}", shown(&c.line())));
    }
}

fn gopher(url: &Url, out: &mut Vec<String>) {
    let g = url.gopher().expect("kind is gopher");
    out.push(endpoint(url));
    let t = g.gopher_type();
    out.push(format!("item type {:?}: {}", t as char, gopher_type_name(t)));
    out.push(format!("send {}", shown(&g.request())));
    if let Some(plus) = g.plus() {
        out.push(format!("  a Gopher+ request: {:?} (§3.4.3)", decoded(plus)));
    } else if g.search().is_some() {
        out.push("  a search: selector, TAB, search string (§3.4.2)".into());
    }
}

/// The item types of RFC 1436 §3.8.
fn gopher_type_name(t: u8) -> &'static str {
    match t {
        b'0' => "a file",
        b'1' => "a directory",
        b'2' => "a CSO phone-book server",
        b'3' => "an error",
        b'4' => "a BinHexed Macintosh file",
        b'5' => "a DOS binary archive",
        b'6' => "a UNIX uuencoded file",
        b'7' => "an index-search server",
        b'8' => "a text-based telnet session",
        b'9' => "a binary file",
        b'+' => "a redundant server",
        b'T' => "a text-based tn3270 session",
        b'g' => "a GIF image",
        b'I' => "an image",
        _ => "a type RFC 1436 does not list",
    }
}

fn telnet(url: &Url, out: &mut Vec<String>) {
    out.push(format!("{} and start an interactive session", endpoint(url)));
    if let Some(u) = url.user() {
        out.push(format!("suggest the user name \"{}\" to the user (advisory only, §3.8)", decoded(u)));
    }
    if let Some(p) = url.password() {
        out.push(format!("suggest the password \"{}\" (advisory only, §3.8)", decoded(p)));
    }
}

fn wais(url: &Url, out: &mut Vec<String>) {
    let w = url.wais().expect("kind is wais");
    out.push(endpoint(url));
    let db = decoded(w.database());
    match w.form() {
        WaisForm::Database => out.push(format!("the WAIS database {db:?}, available for searching")),
        WaisForm::Index => {
            out.push(format!("search the database {db:?} for {:?}", decoded(w.search().unwrap_or(""))))
        }
        WaisForm::Doc => out.push(format!(
            "retrieve from {db:?} the document of type {:?} with id {:?} (opaque, §3.9)",
            decoded(w.wtype().unwrap_or("")),
            w.wpath().unwrap_or("")
        )),
    }
}

fn other(url: &Url, out: &mut Vec<String>) {
    let o = url.other().expect("kind is other");
    if o.is_reserved() {
        out.push("a scheme name reserved by §4, with no syntax or use defined yet".into());
    } else if o.is_experimental() {
        out.push("an experimental scheme (\"x-\", §4), used by mutual agreement".into());
    } else {
        out.push("a scheme RFC 1738 does not define; read with the generic syntax (§5)".into());
    }
    if url.has_authority() {
        out.push(format!(
            "host {}, port {}",
            url.host().unwrap_or(""),
            url.port_str().unwrap_or("(none given)")
        ));
        if let Some(p) = url.url_path() {
            out.push(format!("url-path {p:?}"));
        }
    } else {
        out.push(format!("scheme-specific part {:?}", o.scheme_specific_part()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_and_8_bit_octets_are_shown_as_escapes() {
        let url = Url::parse("telnet://a%01%FF@host/").unwrap();
        let lines = explain(&url);
        assert!(lines.iter().any(|l| l.contains("the user name \"a<01><FF>\"")), "{lines:?}");
        assert!(!lines.iter().any(|l| l.contains('\u{fffd}')));
        assert_eq!(shown("é\t".as_bytes()), "é<TAB>");
    }
}

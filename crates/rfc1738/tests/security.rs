//! The security checks (§6 and beyond): for each kind, URLs that trigger
//! it, with the offset it points at, and URLs that must not.

mod common;

use rfc1738::{ParseOptions, Url, WarningKind};

/// The offsets of the warnings of `kind` for `input`.
fn hits(input: &str, kind: WarningKind) -> Vec<usize> {
    let url = Url::parse(input)
        .or_else(|_| Url::parse_with(input, &ParseOptions::lenient()).map(|(u, _)| u))
        .unwrap_or_else(|e| panic!("{input}: {e}"));
    let w = url.security_warnings();
    assert!(w.windows(2).all(|p| p[0].offset() <= p[1].offset()), "{input}: sorted");
    for w in &w {
        assert!(w.kind().is_security() && !w.message().is_empty() && w.offset() <= input.len());
        assert!(!w.message().ends_with('.'), "lower-case, no trailing period: {}", w.message());
    }
    w.iter().filter(|w| w.kind() == kind).map(|w| w.offset()).collect()
}

fn check(kind: WarningKind, trigger: &[(&str, &[usize])], clean: &[&str]) {
    for (input, offsets) in trigger {
        assert_eq!(hits(input, kind), *offsets, "{input}: {kind}");
    }
    for input in clean {
        assert_eq!(hits(input, kind), [], "{input}: no {kind}");
    }
}

#[test]
fn foreign_port() {
    // §6: "An example has been the use of gopher URLs to cause a rude
    // message to be sent via a SMTP server."
    check(
        WarningKind::ForeignPort,
        &[
            ("gopher://mail.example:25/0HELO", &[22]),
            ("http://h.example:22/", &[17]),
            ("ftp://h.example:80/", &[16]),
            ("nntp://n.example:25/comp.x", &[17]),
            ("telnet://h.example:0021/", &[19]),
            ("wais://w.example:1023/db", &[17]),
        ],
        &[
            "http://h.example:80/",
            "http://h.example/",
            "ftp://h.example:21/",
            "http://h.example:1024/",
            "foo://h.example:25/",
        ],
    );
    let w = Url::parse("gopher://mail.example:25/").unwrap().security_warnings();
    assert!(w[0].message().contains("smtp") && w[0].message().contains("§6"), "{}", w[0].message());
}

#[test]
fn non_default_port() {
    check(
        WarningKind::NonDefaultPort,
        &[
            ("http://h.example:8080/", &[17]),
            ("gopher://h.example:7070/", &[19]),
            ("prospero://p.example:1024/x", &[21]),
        ],
        &[
            "http://h.example:80/",
            "prospero://p.example:1525/x",
            "http://h.example:443/",
            "x-app://h.example:9999/",
            "mailto:a@b.example",
        ],
    );
    assert_eq!(hits("http://h.example:443/", WarningKind::ForeignPort), [17]);
}

#[test]
fn line_injection() {
    // §6: "embedded encoded delimiters for a given protocol (for example,
    // CR and LF characters for telnet protocols)".
    check(
        WarningKind::LineInjection,
        &[
            ("ftp://h.example/a%0D%0ADELE%20x", &[17, 20]),
            ("ftp://h.example/d%0a/f", &[17]),
            ("ftp://u%0D%0APASS@h.example/", &[7, 10]),
            ("ftp://u:p%00@h.example/", &[9]),
            ("ftp://h.example/f%00;type=i", &[17]),
            // (CR and LF in a selector are errors, §3.4.1; in a search, warnings)
            ("gopher://h.example/7sel%09a%0D%0Ax", &[27, 30]),
            // §3.4.1: an encoded CR or LF in a selector is a parse error;
            // NUL is not, and gets the warning.
            ("gopher://h.example/0sel%00x", &[23]),
            ("gopher://h.example/7s%09q%0A", &[25]),
            ("gopher://h.example/0x%09%09+%00", &[28]),
            // an escaped TAB sending a search to an item that takes none
            ("gopher://h.example/0file%09extra", &[24]),
            ("news:a%0D%0AQUIT@h.example", &[6, 9]),
            ("telnet://u%0Ax@h.example/", &[10]),
            ("telnet://u:p%0D@h.example/", &[12]),
            ("mailto:%22a%0Ab%22@h.example", &[11]),
        ],
        &[
            "ftp://h.example/a%20b/%2Fetc",
            "ftp://h.example/%09",
            "gopher://h.example/7search%09query",
            "gopher://h.example/0x%09%09+",
            // §3.4.9: a gopher+ form's data block carries CR LF by design.
            "gopher://h.example/0x%09%09+%091%0D%0A+-1%0D%0Av1%0D%0A.%0D%0A",
            "gopher://h.example/0item%09%09!+ABSTRACT",
            "http://h.example/a%0D%0Ab",
            "wais://w.example/db/T/a%0Ab",
            "file:///a%0Ab",
            "foo:a%0D%0A",
            "news:comp.lang.c",
        ],
    );
}

#[test]
fn password() {
    check(
        WarningKind::Password,
        &[
            ("ftp://me:s3cret@h.example/", &[9]),
            ("telnet://u:p@h.example/", &[11]),
            ("foo://u:p@h.example/", &[8]),
        ],
        &["ftp://me@h.example/", "ftp://me:@h.example/", "ftp://h.example/", "http://h.example/a:b@c"],
    );
    // The lenient http password is still a password.
    assert_eq!(hits("http://u:pw@h.example/", WarningKind::Password), [9]);
}

#[test]
fn redacted_hides_only_the_password() {
    let r = |s: &str| Url::parse(s).unwrap().redacted().into_owned();
    assert_eq!(r("ftp://me:s3cret@h.example/p:w"), "ftp://me:***@h.example/p:w");
    assert_eq!(r("telnet://u:%70w@h.example/"), "telnet://u:***@h.example/");
    assert_eq!(r("ftp://me:@h.example/"), "ftp://me:@h.example/");
    assert_eq!(r("ftp://me@h.example/"), "ftp://me@h.example/");
    let shown = r("ftp://me:s3cret@h.example/");
    assert!(Url::parse(&shown).is_ok(), "the redacted form is still a URL");
    for input in common::ok_inputs() {
        let url = Url::parse(&input).unwrap();
        let red = url.redacted();
        if let Some(pw) = url.password().filter(|p| !p.is_empty()) {
            assert!(!red.contains(&format!(":{pw}@")), "{input}");
        } else {
            assert_eq!(red, url.as_str());
        }
    }
}

#[test]
fn hostnumber_out_of_range() {
    check(
        WarningKind::HostnumberOutOfRange,
        &[("http://256.1.2.3/", &[7]), ("http://1.2.3.4000/", &[13]), ("news:x@1.2.999.4", &[11])],
        &["http://255.255.255.255/", "http://0.0.0.0/", "http://3com.example/"],
    );
}

#[test]
fn port_out_of_range() {
    // §5 `port = digits`, no range; no TCP port is above 65535.
    check(
        WarningKind::PortOutOfRange,
        &[("telnet://a.b:99999", &[13]), ("http://h.dom:65536/", &[13]), ("ftp://h.dom:000070000/", &[12])],
        &["http://h.dom:65535/", "http://h.dom:0/", "http://h.dom:0065535/"],
    );
}

#[test]
fn hostnumber_leading_zero() {
    // §5 reads digits as decimal; inet_aton reads 010 as 8.
    check(
        WarningKind::HostnumberLeadingZero,
        &[("http://010.0.0.1/", &[7]), ("http://1.2.3.04/", &[13]), ("ftp://0000000001.2.3.4/", &[6])],
        &["http://10.0.0.1/", "http://0.0.0.0/", "http://h0.example/", "http://a.b.c.d/"],
    );
}

#[test]
fn misleading_user() {
    check(
        WarningKind::MisleadingUser,
        &[("ftp://www.bank.example@evil.example/", &[6]), ("telnet://10.0.0.1@h.example/", &[9])],
        &["ftp://anonymous@h.example/", "ftp://first_last@h.example/", "ftp://a%40b.c@h.example/"],
    );
}

#[test]
fn directory_escape() {
    check(
        WarningKind::DirectoryEscape,
        &[
            ("ftp://h.example/%2Fetc/motd", &[16]),
            ("ftp://h.example/pub/../../etc/passwd", &[20, 23]),
            ("ftp://h.example/pub/%2E%2E/x", &[20]),
            ("ftp://h.example/a%2Fb", &[16]),
            ("file:///var/www/../../etc/passwd", &[16, 19]),
            ("file:///a%2F..%2Fb", &[8]),
        ],
        &[
            "ftp://h.example/pub/x",
            "ftp://h.example/.../x",
            "ftp://h.example//etc",
            "file:///etc/motd",
            "http://h.example/../x",
        ],
    );
}

#[test]
fn internal_host() {
    check(
        WarningKind::InternalHost,
        &[
            ("http://localhost/", &[7]),
            ("http://LocalHost./", &[7]),
            ("http://127.0.0.1:8080/", &[7]),
            ("http://10.1.2.3/", &[7]),
            ("http://172.16.0.1/", &[7]),
            ("http://192.168.1.1/", &[7]),
            ("gopher://169.254.169.254/", &[9]),
            ("ftp://0.0.0.0/", &[6]),
        ],
        &[
            "http://h.example/",
            "http://172.32.0.1/",
            "http://11.0.0.1/",
            "file://localhost/x",
            "http://localhost.example/",
        ],
    );
}

#[test]
fn remote_file() {
    check(
        WarningKind::RemoteFile,
        &[("file://server.example/share/x", &[7]), ("file://10.0.0.1/c$/x", &[7])],
        &["file:///x", "file://localhost/x", "file://LOCALHOST/x", "ftp://server.example/x"],
    );
}

#[test]
fn option_injection() {
    check(
        WarningKind::OptionInjection,
        &[("telnet://-froot@h.example/", &[9]), ("telnet://%2Dl@h.example/", &[9])],
        &["telnet://root@h.example/", "telnet://a-b@h.example/", "ftp://-x@h.example/"],
    );
}

#[test]
fn the_rfc_own_urls_are_mostly_clean() {
    // Of the conformance cases, only those built to show a risk warn.
    for input in common::ok_inputs() {
        let url = Url::parse(&input).unwrap();
        for w in url.security_warnings() {
            assert!(w.offset() < input.len(), "{input}: {w}");
        }
    }
    assert!(Url::parse("ftp://ds.internic.net/rfc/rfc1436.txt;type=a")
        .unwrap()
        .security_warnings()
        .is_empty());
    assert!(Url::parse("http://www.acl.lanl.gov/URI/archive/uri-archive.index.html")
        .unwrap()
        .security_warnings()
        .is_empty());
}

/// A differential check: what the WHATWG reader (the `url` crate) makes of
/// the same text.
fn whatwg(input: &str) -> Option<url::Url> {
    url::Url::parse(input).ok()
}

#[test]
fn scheme_start() {
    check(
        WarningKind::SchemeStart,
        &[("1x://h.dom/", &[0]), ("+a:b", &[0]), ("-a:b", &[0]), (".a:b", &[0])],
        &["x1://h.dom/", "a+b-c.d:e", "http://h.dom/"],
    );
    // RFC 1738 reads a URL of scheme "1x"; WHATWG needs a letter first and
    // rejects it as a URL (a relative reference needs a base).
    assert_eq!(Url::parse("1x://h.dom/").unwrap().scheme(), "1x");
    assert!(whatwg("1x://h.dom/").is_none());
}

#[test]
fn port_leading_zero() {
    check(
        WarningKind::PortLeadingZero,
        &[("http://h.dom:0080/", &[13]), ("ftp://h.dom:00021/", &[12])],
        &["http://h.dom:80/", "http://h.dom:0/", "http://h.dom/"],
    );
}

#[test]
fn mailto_headers() {
    check(
        WarningKind::MailtoHeaders,
        &[("mailto:joe@h.dom?subject=x", &[16]), ("mailto:a&b@h.dom", &[8])],
        &["mailto:joe@h.dom"],
    );
    // RFC 1738: all of it is the address. RFC 6068 (WHATWG too): the
    // address ends at "?", and what follows is a query of headers.
    let url = Url::parse("mailto:joe@h.dom?subject=hi").unwrap();
    assert_eq!(url.mailto().unwrap().address_raw(), "joe@h.dom?subject=hi");
    let w = whatwg("mailto:joe@h.dom?subject=hi").unwrap();
    assert_eq!((w.path(), w.query()), ("joe@h.dom", Some("subject=hi")));
}

#[test]
fn fragment_authority() {
    check(
        WarningKind::FragmentAuthority,
        &[("http://example.com#@evil.example/", &[18]), ("http://example.com/#//evil.example/x", &[19])],
        &["http://example.com/#section-2", "http://example.com/#a.b", "http://example.com/"],
    );
    // Both careful readers strip the fragment first: the host is example.com.
    let w = whatwg("http://example.com#@evil.example/").unwrap();
    assert_eq!(w.host_str(), Some("example.com"));
    assert_eq!(Url::parse("http://example.com#@evil.example/").unwrap().host(), Some("example.com"));
}

#[test]
fn device_file_and_unc_path() {
    check(
        WarningKind::DeviceFile,
        &[
            ("file:///dev/zero", &[8]),
            ("file:///proc/self/environ", &[8]),
            ("file://localhost/dev/tty", &[17]),
            // §2.2: the octets a segment encodes are the segment.
            ("file:///%64ev/x", &[8]),
            ("file:///sy%73/x", &[8]),
            ("file:///%70%72%6F%63/self", &[8]),
        ],
        &[
            "file:///etc/motd",
            "file:///device/x",
            "file:///home/dev/x",
            "file:///de/x",
            "file:///%64e/x",
            "file:///sys",
        ],
    );
    check(
        WarningKind::UncPath,
        &[("file:////server/share/x", &[8]), ("file://///server/share", &[8])],
        &["file:///etc/motd", "file://h.dom/x"],
    );
    // Readers disagree: WHATWG (the url crate) reads a local path
    // "/server/share/x"; Windows opens a share on the machine "server".
    assert_eq!(whatwg("file:////server/share/x").unwrap().path(), "/server/share/x");
    assert_eq!(Url::parse("file:////server/share/x").unwrap().file().unwrap().path(), "/server/share/x");
}

#[test]
fn gopher_form() {
    check(
        WarningKind::GopherForm,
        &[("gopher://h.dom/1x%09%09+ASK%0D%0Aname", &[27])],
        &["gopher://h.dom/1x%09%09+", "gopher://h.dom/1x"],
    );
    let url = Url::parse("gopher://h.dom/1x%09%09+ASK%0D%0Aname").unwrap();
    let w = url.security_warnings();
    let note = w.iter().find(|w| w.kind() == WarningKind::GopherForm).unwrap();
    assert!(note.message().contains("sent as it is"), "{}", note.message());
    assert!(!w.iter().any(|w| w.kind() == WarningKind::LineInjection), "the form is not an injection");
}

/// §3.4.1: "Within the <gopher-path>, no characters are reserved": a
/// gopher search with "?" or "/" is valid, and a note says where a
/// generic reader would split it. The selector and the gopher+ string
/// are not checked (§3.4.4 and §3.4.8 put "?" and "/" in the latter).
#[test]
fn gopher_search_delimiter() {
    check(
        WarningKind::GopherSearchDelimiter,
        &[("gopher://h.dom/7/a/b%09q/x?y", &[24]), ("gopher://h.dom/7s%09a?b", &[21])],
        &[
            "gopher://h.dom/7/a/b%09q%2Fx%3Fy",
            "gopher://h.dom/7s%09%09",
            "gopher://h.dom/1/a?b",
            "gopher://h.dom/0x%09%09+application/postscript%20Es_ES",
            "gopher://h.dom/0x%09%09?",
            "gopher://h.dom/7s%09a#/?",
        ],
    );
    // What a WHATWG reader makes of it: the search is cut at "?".
    let u = whatwg("gopher://h.dom/7/a/b%09q/x?y").unwrap();
    assert_eq!((u.path(), u.query()), ("/7/a/b%09q/x", Some("y")));
    // The builder writes them as escapes, which mean the same to a gopher
    // server (§3.4.2: the search is sent decoded).
    let built =
        rfc1738::build::GopherBuilder::new("h.dom").gopher_type(b'7').selector("/a/b").search("q/x?y");
    let built = built.build().unwrap();
    assert_eq!(built.as_str(), "gopher://h.dom/7/a/b%09q%2Fx%3Fy");
    assert!(built.security_warnings().is_empty());
    let raw = Url::parse("gopher://h.dom/7/a/b%09q/x?y").unwrap();
    assert_eq!(built.gopher().unwrap().request(), raw.gopher().unwrap().request());
}

/// No octet reaches a terminal raw: every control and non-UTF-8 octet,
/// and the characters that reorder a line, come out as escapes.
#[test]
fn escape_text_leaves_no_control_octet_and_no_bidi_character() {
    let mut texts: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b'a', b, b'z']).collect();
    for c in ['\u{85}', '\u{9b}', '\u{200e}', '\u{202e}', '\u{2028}', '\u{2066}'] {
        texts.push(c.to_string().into_bytes());
    }
    for t in texts {
        let shown = rfc1738::escape_text(&t);
        let bad = |c: char| {
            c.is_control()
                || matches!(c, '\u{200e}' | '\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        };
        assert!(!shown.chars().any(bad), "{t:?} -> {shown:?}");
        // Printable ASCII but `\` is itself.
        if t.len() == 3 && (b' '..0x7f).contains(&t[1]) && t[1] != b'\\' {
            assert_eq!(shown.as_bytes(), &t[..]);
        }
    }
    assert_eq!(rfc1738::escape_text(b"a\\b"), "a\\\\b");
    assert_eq!(rfc1738::escape_text(&[0xff]), "\\xFF");
}

//! The fast path of a strict parse (`src/fast.rs`) against the rules it
//! shortcuts: `Url::parse` may take the fast path, a strict
//! `Url::parse_with` never does, and both must give the same answer, a URL
//! with the same components or the same error, for every input.

mod common;

use rfc1738::{ParseOptions, Url};

fn agree(input: &str) {
    let fast = Url::parse(input);
    let rules = Url::parse_with(input, &ParseOptions::strict()).map(|(url, warnings)| {
        assert!(warnings.iter().all(|w| w.kind() == rfc1738::WarningKind::UppercaseScheme), "{input:?}");
        url
    });
    assert_eq!(fast, rules, "{input:?}");
    assert_eq!(rfc1738::validate(input), fast.map(|_| ()), "{input:?}");
}

/// `validate_bytes` on bytes that may not be UTF-8 agrees with `validate`
/// on the same text read lossily: the error stops at the first octet above
/// 7F at the latest, and the lossy text has the same bytes up to there.
fn agree_bytes(b: &[u8]) {
    let lossy = String::from_utf8_lossy(b);
    agree(&lossy);
    assert_eq!(rfc1738::validate_bytes(b), rfc1738::validate(&lossy), "{lossy:?}");
}

/// Shapes on both sides of every check the fast path makes.
const SHAPES: &[&str] = &[
    "http://h.com",
    "http://h.com/",
    "http://h.com:80/a/b?x=1&y=%41",
    "http://h.com:/a",
    "http://h.com:65535/",
    "http://h.com:65536/",
    "http://h.com:8a/",
    // Ports of every length up to past a word, at the end and before a
    // path, with leading zeros, too large, and in the last bytes.
    "http://h.com:0",
    "http://h.com:8",
    "http://h.com:80",
    "http://h.com:808",
    "http://h.com:8080",
    "http://h.com:65535",
    "http://h.com:65536",
    "http://h.com:99999/",
    "http://h.com:123456/",
    "http://h.com:000080/",
    "http://h.com:0000080/",
    "http://h.com:00000080/",
    "http://h.com:0000000065535/a",
    "http://h.com:1234567",
    "http://h:1",
    "a://h:1",
    "a://h:",
    "http://h.com:80:",
    "http://h.com:80@",
    "file://h.com:80/a",
    "http://h.com/a?b?c",
    "http://h.com/a%2",
    "http://h.com/a%zz",
    "http://h.com/a#f",
    "http://h.com/a b",
    "http://u@h.com/",
    "http://1.2.3.4/",
    "http://a.1b/",
    "http://a-.b/",
    "http://-a.b/",
    "http://a..b/",
    "http://a.b./",
    "http://a_b.c/",
    "http://.a/",
    "http:///a",
    "http:/a",
    "http:a",
    "HTTP://h.com/",
    "Http://h.com/a?b",
    "FTP://h.com/a;type=I",
    "FILE:///etc/motd",
    "X-Y://h.com/",
    // The generic syntax without `//`: `*xchar` (§5).
    "cid:x",
    "cid:",
    "CID:a/b;c?d:e@f&g=h",
    "cid:a%41",
    "cid:a%zz",
    "cid:a%4",
    "cid:a%",
    "cid:a#f",
    "cid:a%zz#f",
    "cid:a b",
    "cid:a~",
    "cid:a~#f",
    "cid:/a",
    "cid:/",
    "cid:/a//b",
    "tn3270:a:b",
    "x:\u{7f}",
    "x:é",
    "z39.50s:x",
    "NNTP://h.com/g/1",
    "HTTP:",
    "HTTP",
    "HTTP#:",
    "https://h.com/~x",
    // Users of host characters (the fast path reads them as a host first).
    "ftp://user@h.com/",
    "ftp://user@h.com@x/",
    "ftp://u-s.er@h.com:21/a",
    "telnet://guest@1.2.3.4",
    "telnet://guest@1.2.3.4/x",
    "nntp://u@h.com/g",
    "ftp://user@/x",
    "ftp://user@h.com#f",
    "ftp://us.er@h_x.com/",
    "x-y://u@h.com/p",
    "ftp://u@h.com:21@x/",
    "ftp://1.2.3.4@h.com/",
    "file://u@h.com/x",
    "ftp://-u@h.com/",
    "ftp://u@@h.com/",
    "ftp://u@h.com:",
    "ftp://u@h.com:/",
    // Names that start with "http", in either case: http itself, https
    // and others (read byte by byte, as every name after "http").
    "HTTPS://h.com/",
    "hTtPs://h.com/a",
    "https:",
    "https",
    "http",
    "http:",
    "https:/h",
    "http5:x",
    "https1://h.com/",
    "httpx://h.com/",
    "http+s://h.com/",
    "httpS:x",
    "https://h.com/a;b=c?d",
    // https by http's rules (RFC 2818 §2.4).
    "https://h.com/a?b/c",
    "https://h.com/a?b?c",
    "https://u@h.com/",
    "https://u:p@h.com/",
    "https://h_x.com/",
    "https://h.com:443/a",
    "https://h.com:99999/",
    "https://user@h_x.dom:99999/a?b=c/d",
    "https://h.com/a?b#c",
    "https://h.com?q",
    "ftp://h.com/a/b;type=i",
    "ftp://h.com/a/b;x",
    "ftp://h.com/a/b;type=",
    "ftp://h.com/a/b;type=x",
    "ftp://h.com/a/b;type=D",
    "ftp://h.com/a/b;type=ii",
    "ftp://h.com/a/b;TYPE=i",
    "ftp://h.com/;type=a",
    "ftp://h.com/a;type=i#f",
    "ftp://h.com/a;b;type=i",
    "ftp://h.com:21/a%2Fb",
    "file:///etc/motd",
    // A port in a file URL, and what may make its text a user instead.
    "file://h.dom:",
    "file://h.dom:1",
    "file://h.dom:x/y",
    "file://:1/x",
    "file://:",
    "file://h.dom:1@x/y",
    "file://h.dom:1/@x",
    "file://h.dom:1#@x",
    "file://:1@x",
    "file://:1#x@",
    "file://h.dom:1%41@x",
    // No "//" after the scheme of an `ip-schemepart`.
    "file:",
    "file:/",
    "file:/#/",
    "file:#//h",
    "http:h.com",
    "ftp:/h.com/",
    "telnet:",
    "nntp:%2F%2Fh/g",
    // After an ftp path, the `";"` and all that may follow it.
    "ftp://h.dom/a;",
    "ftp://h.dom/a;t",
    "ftp://h.dom/a;type",
    "ftp://h.dom/a;type=",
    "ftp://h.dom/a;type=d",
    "ftp://h.dom/a;type=dd",
    "ftp://h.dom/a;type=x",
    "ftp://h.dom/a;type=a#x",
    "ftp://h.dom/a;type=#a",
    "ftp://h.dom/a;typ#e=a",
    "ftp://h.dom/a;type=a/b",
    "ftp://h.dom/a;TYPE=a",
    "ftp://h.dom/a;type=I;type=a",
    "file://h.dom/x",
    "file://h.dom",
    "file://h.dom:1/x",
    "file://",
    "file:///",
    "gopher://h.com/1x",
    "x-y+z.w://h.com/a:b@c",
    "x://h.com/",
    "x:/h.com/",
    "1://h.com/",
    ":://h.com/",
    "mailto:a@b.c",
    // Errors in a path, which the fast path reports itself.
    "ftp://h.com/a~b",
    "ftp://h.com/a%zz;type=i",
    "file:///a b",
    "file:///a%4",
    "x://h.com/a%4",
    "x://h.com/a~b#c",
    "x://h.com/a#~",
    "http://h.com/a?b~c",
    "http://h.com/a?b%zz",
    "http://h.com/a?b/c",
    "http://h.com/a\x7f",
    "http://h.com/a\u{e9}",
    // Logins with a user, in the schemes that allow one (§3.1) and those
    // that do not.
    "ftp://u@h.com/",
    "ftp://u:p@h.com:21/a;type=i",
    "ftp://@h.com/",
    "ftp://:@h.com/",
    "ftp://u:@h.com/",
    "ftp://:p@h.com/",
    "ftp://u:p:q@h.com/",
    "ftp://a@b@h.com/",
    "ftp://u@h.com",
    "ftp://u@/",
    "ftp://u@",
    "ftp://u@1.2.3.4/",
    "ftp://u%41;x=y&z?@h.com/",
    "ftp://u%zz@h.com/",
    "ftp://u~@h.com/",
    "ftp://u:p~@h.com/",
    "ftp://u:p/x@h.com/",
    "ftp://u/x@h.com/",
    "ftp://u:p%zz@h.com/",
    "ftp://u:p",
    "ftp://u:p#@h.com",
    "ftp://u#@h.com",
    "ftp://u:p:@h.com",
    // A `":"` after what was read as a host, no port after it: the
    // password read on from there (digits past 65535, other user
    // characters, an escape, a second `":"` or `"@"`, no `"@"`).
    "ftp://u:99999@h.com/",
    "ftp://u:1234567@h.com/",
    "ftp://u:00000000080@h.com/",
    "ftp://u:pw?;&=@h.com/",
    "ftp://u:p%41w@h.com/",
    "ftp://u:p%4@h.com/",
    "ftp://u:pw:x@h.com/",
    "ftp://u:pw@h.com:pw@x/",
    "ftp://u:pw",
    "ftp://u:pw/x@h",
    "ftp://u.v-w:pw@h.com:21/a",
    "telnet://guest:sof?@h.uk",
    "gopher://u:pw@h.com/",
    "z39.50s://u:pw@h.com/",
    "x-y://h.com:p~@h/",
    "x-y://h.com:p%zz@h/",
    "ftp://u@h.com/a~b",
    "ftp://u@h_c/",
    "ftp://h.com/u@v",
    "x://u:p@h.com/a@b",
    "x://u@h.com/a~b",
    "x://u@-h/",
    "http://u:p@h.com/",
    "gopher://u@h.com/",
    "file://u@h.com/",
    "telnet://u:p@h.com/",
    "telnet://u:p@h.com:23",
    "telnet://h.com",
    "telnet://h.com/",
    "telnet://h.com//",
    "telnet://h.com/x",
    "telnet://h.com/#x",
    "telnet://h.com:/",
    "telnet://@h.com",
    "telnet://1.2.3.4/",
    "TELNET://h.com/",
    // Host numbers (§3.1: the last label never starts with a digit).
    "http://1.2.3.4",
    "http://1.2.3.4:80/a?b",
    "http://01.002.3.4/",
    "http://999.1.1.1/",
    "http://1.2.3/",
    "http://1.2.3.4.5/",
    "http://1..3.4/",
    "http://.1.2.3/",
    "http://1.2.3.4./",
    "http://1.2.3.4a/",
    "http://1.2.3.a/",
    "http://1-2.3.4.5/",
    "http://1.2.3.-4/",
    "http://1234/",
    "ftp://1.2.3.4/a;type=i",
    "ftp://u:p@1.2.3.4:21/a",
    "file://1.2.3.4/x",
    "gopher://1.2.3.4/1x",
    // Gopher, nntp, wais and prospero: the hostport read fast, the rest by
    // each scheme's own rules; with a `#`, the rules read the URL again.
    "gopher://h.com",
    "gopher://h.com/",
    "gopher://h.com:70/1",
    "gopher://h.com/%31x",
    "gopher://h.com/7a%09b%09c",
    "gopher://h.com/7a%09b/c",
    // §3.4.1: "no characters are reserved" in the gopher search either.
    "gopher://h.com/7a%09b?c",
    "gopher://h.com/7a%09/?;:@&=%09+/?",
    "gopher://h.com/7a%09b?c#d",
    "gopher://h.com/7a%09b c",
    "gopher://h.com/7a%09b%0Dc",
    "gopher://h.com/7a%09b%zz",
    "gopher://h.com/7a%0Db",
    "gopher://h.com/1a b",
    "gopher://h.com/1a#b",
    "gopher://h.com/1a~#b",
    "gopher://h.com#x",
    "gopher://h.com?x",
    "nntp://h.com",
    "nntp://h.com/",
    "nntp://h.com/comp.lang.c/123",
    "nntp://h.com/comp.lang.c/",
    "nntp://h.com/comp.lang.c/99999999999999999999",
    "nntp://h.com/1comp",
    "nntp://h.com/comp#x",
    "nntp://h.com/comp/1#x",
    "wais://h.com",
    "wais://h.com/db",
    "wais://h.com/db?a+b",
    "wais://h.com/db/TEXT/p%20q",
    "wais://h.com/db/TEXT",
    "wais://h.com/db?a/b",
    "wais://h.com/db#x",
    "prospero://h.com",
    "prospero://h.com/a/b;f=v;g=w",
    "prospero://h.com/a;f",
    "prospero://h.com/a;f=v#x",
    "prospero://h.com:1525//pros/name",
    "prospero://u@h.com/a",
    "PROSPERO://1.2.3.4/a",
    // Scheme names: those of §3 are looked up whole from the first word,
    // the rest read byte by byte.
    "news:comp.lang",
    "NeWs:*",
    "mailto:",
    "mailto",
    "gopher:",
    "gophers://h.com/",
    "telnet:h",
    "wais",
    "ftp",
    "ftp:",
    "ft:p://h.com/",
    "f%tp://h.com/",
    "prospero:",
    "prosperox://h.com/",
    // Eight letters and no ":" in the first word.
    "PROSPERO://h.com/a",
    "prospero",
    "prospero/",
    "prosperO:x",
    "prospero;://h.com/",
    "prosper://h.com/",
    "httpx://h.com/",
    "hTtPs://h.com/",
    "nntp:#",
    "file#:x",
    "Fi1e://h.com/",
    // mailto and news: the plain address and the plain group answered
    // fast, anything else by the rules.
    "mailto:a@b.c",
    "mailto:a.b@c",
    "mailto:a@b.c#x",
    "mailto:a@@b",
    "mailto:.a@b",
    "mailto:a.@b",
    "mailto:a@b.",
    "mailto:a@",
    "mailto:@b",
    "mailto:ab",
    "mailto:a%40b@c",
    "mailto:joe%25relay@b.c",
    "mailto:a%2Eb@c",
    "mailto:a%2E@c",
    "mailto:a@%62.c",
    "mailto:a%2@c",
    "mailto:a@c%",
    "mailto:a%20b@c",
    "mailto:%22a%22@c",
    "mailto:a@%5Bc%5D",
    "mailto:a%c3%a9@c",
    "mailto:a b@c",
    "mailto:a~b@c",
    "MAILTO:x@y",
    "news:a",
    "news:",
    "news:*",
    "news:**",
    "NEWS:*",
    "news:a%G.b",
    "news:a%G.b@h",
    "news:a.b~c@h.com",
    // Texts shorter than a word, other names among them.
    "a:",
    "a:b",
    "ab:c",
    "mid:a",
    "mid:",
    "vemmi:",
    "cid:%41",
    "x:~",
    "news:1a",
    "news:a.b-c+d_e",
    "news:a#b",
    "news:a~b",
    "news:a/b",
    "news:id@h.com",
    "news:id@",
    "news:a%41",
    "NEWS:comp.lang.c",
    "news:a~#b",
    "news:*#",
    "news:id@h.com#x",
    "news:id@h.com~#x",
    "news:id@h.com:1",
    "news:@h.com",
    "mailto:a b@c#x",
    "mailto:a@b.c ",
    "mailto:a@b.c~#x",
    // Logins with a byte after a valid host or port that is not the `/`
    // ending them: the fast path's error when no `@` follows before the
    // login ends (nor a `#` first); otherwise the rules read it.
    "http://h.com^@x/",
    "http://h.com:8o@x/",
    "http://h.com:8o#@x/",
    "http://h.com^#x",
    "http://h.com#",
    "http://h.com:8#",
    "http://1.2.3.4^/",
    "http://1.2.3.4:8o/",
    "ftp://u@h.com^@x/",
    "ftp://u@h.com:8o#x",
    "ftp://u:p@h.com:1x",
    "ftp://u@h.com%G/",
    "file://h.com^/x",
    "file://h.com^@x/",
    "x://h.com^/x",
    "gopher://h.com",
    "gopher://h.com/",
    "gopher://h.com:70/1a%09b%09+c",
    "gopher://h.com/1a%0Db",
    "gopher://h.com^/1",
    "gopher://h.com/1a#f",
    "gopher://h.com/1a~#f",
    "gopher://h.com/1a~",
    "nntp://h.com",
    "nntp://h.com/",
    "nntp://h.com/a.b/12",
    "nntp://h.com/a.b/x",
    "nntp://h.com:8o/a",
    "nntp://h.com/a#1",
    "wais://h.com/db",
    "wais://h.com/db?x+y",
    "wais://h.com/db/t/p",
    "wais://h.com/db/t",
    "wais://h.com",
    "wais://h.com/db?a/b#c",
    "prospero://h.com/a/b;f=v;g=w",
    "prospero://h.com/a;f",
    "prospero://h.com",
    "prospero://h.com:1/a;f=v#x",
    "prospero://u@h.com/a",
    "telnet://h.com^",
    "telnet://h.com:23 ",
    "http://h.com:8o/",
    "http://h.com:8o",
    "http://h.com:o8/a",
    "http://h.com:99999/",
    "http://h.com:/",
    "http://h.com::80/",
    "http://h%G.com/",
    "http://h%41.com/",
    "http://h~.com/a",
    "http://h~.com/a#x",
    "http://h.com:8o#x",
    "http://h_c.com/",
    "http://-h.com:80/",
    "http://1.2.3:80/",
    "http://h.com?x",
    "http://h.com;x/",
    "ftp://h.com:70:8o/x",
    "ftp://h.com:8o/x@y",
    "ftp://h^.com/x",
    "ftp://u@h.com:8o/",
    "ftp://u:p@h%.com/",
    "telnet://h.com:x",
    "telnet://h.com:23:/",
    "file://h.com:8o/x",
    "x://h.com:8o/x",
    "gopher://h.com:8o/x",
    // Eight bytes and fewer: the word reads at the end of the input.
    "https://",
    "http://a",
    "ftp://a/",
    "x://a.bc",
    "x://a.b.",
    "x://1234",
    "file:///",
    "x://",
    "x://a",
    // Eight letters: "prospero" only when its `":"` is the ninth byte.
    "prospero://h/a",
    "PROSPERO://h/a;f=v",
    "prosperox://h/a",
    "prospero",
    "prospero/",
    "prospero+://h/a",
    "prosper://h/a",
];

#[test]
fn fast_path_agrees_on_shapes() {
    for s in SHAPES {
        agree(s);
    }
    let label = "a".repeat(63);
    agree(&format!("http://{label}.com/"));
    agree(&format!("http://{label}a.com/"));
    agree(&format!("http://b.{label}/"));
    agree(&format!("http://b.{label}a/"));
    let name = format!("{label}.{label}.{label}.{}", "a".repeat(61));
    assert_eq!(name.len(), 253);
    agree(&format!("http://{name}/"));
    agree(&format!("http://{name}a/"));
    // Hosts of 64 bytes and more, read label by label (`host::long`).
    let labels = vec!["ab-cd"; 20].join(".");
    for host in [
        labels.clone(),
        format!("{labels}."),
        format!("{labels}.-x"),
        format!("{labels}.x-"),
        format!("{labels}..x"),
        format!("{labels}.1"),
        format!("{labels}_x"),
        format!("{}.2.3.4", "1".repeat(70)),
        format!("x{label}.{labels}"),
    ] {
        for tail in ["", "/", ":80/p", ":/", "@h/", "#f"] {
            for scheme in ["http", "ftp", "x-y", "gopher"] {
                agree(&format!("{scheme}://{host}{tail}"));
            }
        }
    }
    // Every prefix of a few long URLs, so that every length meets the
    // end of the input in every component.
    for url in [
        "http://ab-c.d-e.f:8080/p/q%41r?s=t&u",
        "file://h.example/x/y;z",
        "x-y://a1.b2.c3/~/@",
        "ftp://us%41r:pa;ss@h.example:21/d/f;type=a",
        "http://10.200.3.44:8080/x?y",
        "gopher://h.example:70/7sel%09se;rch%09+x",
        "wais://h.example/db/TEXT/path",
        "prospero://h.example/a/b;f=v;g=w",
        "nntp://h.example/comp.lang/12",
    ] {
        for n in 0..=url.len() {
            agree(&url[..n]);
        }
    }
}

/// Every conformance case, and every one-byte change of it to a byte that
/// matters to the grammar.
#[test]
fn fast_path_agrees_on_cases_and_their_mutations() {
    let inputs: Vec<String> =
        common::case_files().iter().flat_map(|f| common::read_cases(f)).map(|c| c.input).collect();
    assert!(inputs.len() > 200);
    let bytes = b":/@.-%#?;_=A1a~ \xff";
    for input in &inputs {
        agree(input);
        let b = input.as_bytes();
        for i in 0..b.len() {
            for &c in bytes {
                let mut m = b.to_vec();
                m[i] = c;
                agree_bytes(&m);
                m.remove(i);
                agree_bytes(&m);
            }
        }
    }
}

/// `scheme = 1*[ lowalpha | digit | "+" | "-" | "." ]` (§5), in either
/// case (§2.1), then `":"`: names of every length up to past two words,
/// each cut at every place by a byte that no name takes. The name is read
/// a word at a time, so this holds it to the rule byte by byte.
#[test]
fn scheme_names_of_every_length_and_every_cut() {
    let in_name = |c: u8| c.is_ascii_alphanumeric() || b"+-.".contains(&c);
    for n in 0..=20 {
        let name: String = (0..n).map(|k| b"aZ9+-.xQ"[k % 8] as char).collect();
        for cut in 0..=n {
            for bad in [b':', b'#', b'/', b'_', b'%', b' ', b'~', 0u8, 0x7f, b'@'] {
                let mut b = name.as_bytes().to_vec();
                if cut < n {
                    b[cut] = bad;
                }
                let text = format!("{}:rest", String::from_utf8(b.clone()).unwrap());
                agree(&text);
                // Where the rule ends the name: the first byte it cannot take.
                let end = b.iter().position(|&c| !in_name(c)).unwrap_or(b.len());
                let first_colon = text.find(':').unwrap();
                match Url::parse(&text) {
                    Ok(url) => {
                        assert!(end > 0 && end == first_colon, "{text:?}");
                        assert_eq!(url.scheme(), text[..end].to_ascii_lowercase(), "{text:?}");
                    }
                    Err(e) if end == 0 || end != first_colon => assert_eq!(e.offset(), end, "{text:?}"),
                    // A name and its ":" read; what follows may still fail
                    // (a `%` cut short, a space): past the name.
                    Err(e) => assert!(e.offset() > end, "{text:?}: {e}"),
                }
            }
            // The name alone, without its ":".
            let e = Url::parse(&name[..cut]).unwrap_err();
            assert_eq!(e.offset(), cut, "{:?}", &name[..cut]);
        }
    }
}

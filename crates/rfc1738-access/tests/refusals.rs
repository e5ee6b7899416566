//! RFC 1738 §6: every injection and port case is refused with a clear error
//! before anything is sent. A listener stands where each URL points, and
//! must see no connection.

use rfc1738_access::{fetch, plan, AccessError, NoTrace, Options};
use std::net::TcpListener;

/// Fetches `url` (with `{port}` replaced by a fresh listener's port) and
/// returns the error, checking that nothing connected.
fn refused(url: &str, opts: &Options) -> AccessError {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let url = url.replace("{port}", &listener.local_addr().unwrap().port().to_string());
    let planned = plan(&url, opts).expect_err(&url);
    let err = fetch(&url, opts, &mut NoTrace, &mut Vec::new()).expect_err(&url);
    assert_eq!(planned.to_string(), err.to_string());
    assert!(listener.accept().is_err(), "{url}: a connection was made");
    err
}

fn injection(url: &str, component: &str, octet: u8) {
    match refused(url, &Options::default()) {
        AccessError::Injection { component: c, octet: o } => {
            assert_eq!((c, o), (component, octet), "{url}");
        }
        other => panic!("{url}: {other}"),
    }
}

#[test]
fn ftp_injections() {
    injection("ftp://127.0.0.1:{port}/a%0D%0ADELE%20x/f", "ftp cwd segment", b'\r');
    injection("ftp://127.0.0.1:{port}/a/f%0ADELE%20x", "ftp file name", b'\n');
    injection("ftp://127.0.0.1:{port}/a%00b/f", "ftp cwd segment", 0);
    injection("ftp://me%0D%0AQUIT@127.0.0.1:{port}/f", "ftp user", b'\r');
    injection("ftp://me:pw%0ASITE%20x@127.0.0.1:{port}/f", "ftp password", b'\n');
    injection("ftp://127.0.0.1:{port}/d/f%0D;type=a", "ftp file name", b'\r');
}

#[test]
fn gopher_injections() {
    // §3.4.1: a selector never holds CR or LF, so the URL itself is refused.
    let url = "gopher://127.0.0.1:{port}/0sel%0D%0AMAIL%20FROM";
    assert!(matches!(refused(url, &Options::default()), AccessError::Url(_)), "{url}");
    injection("gopher://127.0.0.1:{port}/0sel%00", "gopher selector", 0);
    injection("gopher://127.0.0.1:{port}/7s%09find%0D%0Aevil", "gopher search", b'\r');
    injection("gopher://127.0.0.1:{port}/0s%09%09+%0Aevil", "gopher+ string", b'\n');
    // §3.4.9 forms carry CR LF by design; a request is still one line.
    injection(
        "gopher://127.0.0.1:{port}/0s%09%09+%091%0D%0A+-1%0D%0Aa%0D%0A.%0D%0A",
        "gopher+ string",
        b'\r',
    );
}

#[test]
fn news_injections() {
    // §3.7's grammar allows no escapes in a group name: the URL itself is refused.
    for url in ["nntp://127.0.0.1:{port}/alt.test%0D%0AQUIT/1", "nntp://127.0.0.1:{port}/alt%20test/1"] {
        assert!(matches!(refused(url, &Options::default()), AccessError::Url(_)), "{url}");
    }
    let opts = Options { news_server: Some(("127.0.0.1".into(), 119)), ..Options::default() };
    for (url, octet) in [("news:a%0D%0AQUIT@b", b'\r'), ("news:a%20b@c", b' ')] {
        match plan(url, &opts) {
            Err(AccessError::Injection { component: "message id", octet: o }) => assert_eq!(o, octet),
            other => panic!("{url}: {other:?}"),
        }
    }
}

#[test]
fn file_nul() {
    match plan("file:///tmp/a%00b", &Options::default()) {
        Err(AccessError::Injection { component: "file path", octet: 0 }) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn privileged_ports() {
    for (url, port) in [
        ("gopher://127.0.0.1:25/0x", 25),
        ("ftp://127.0.0.1:25/x", 25),
        ("http://127.0.0.1:79/", 79),
        ("nntp://127.0.0.1:25/alt.test/1", 25),
        ("gopher://127.0.0.1:1023/", 1023),
    ] {
        match refused(url, &Options::default()) {
            AccessError::PrivilegedPort { port: p, .. } => assert_eq!(p, port, "{url}"),
            other => panic!("{url}: {other}"),
        }
    }
    let msg = refused("gopher://127.0.0.1:25/0x", &Options::default()).to_string();
    assert!(msg.contains("port 25 is below 1024"), "{msg}");
}

#[test]
fn default_and_allowed_ports_plan() {
    let opts = Options::default();
    for url in [
        "ftp://h:21/x",
        "gopher://h:70/",
        "http://h:80/",
        "nntp://h:119/g/1",
        "http://h:8080/",
        "gopher://h:1024/",
    ] {
        plan(url, &opts).unwrap_or_else(|e| panic!("{url}: {e}"));
    }
    let allow = Options { allow_privileged_ports: true, ..Options::default() };
    plan("gopher://h:25/0x", &allow).unwrap();
}

#[test]
fn other_hosts_files_are_refused() {
    match plan("file://elsewhere.example/etc/motd", &Options::default()) {
        Err(AccessError::ForeignFileHost { host }) => assert_eq!(host, "elsewhere.example"),
        other => panic!("{other:?}"),
    }
    plan("file://LOCALHOST/etc/motd", &Options::default()).unwrap();
    plan("file:///etc/motd", &Options::default()).unwrap();
}

#[test]
fn news_without_server() {
    assert!(matches!(plan("news:*", &Options::default()), Err(AccessError::NoNewsServer)));
}

#[test]
fn described_schemes() {
    for (url, words) in [
        ("telnet://user@host.example:2323/", "interactive terminal session to host.example port 2323"),
        ("mailto:someone@example.org", "compose a message to \"someone@example.org\""),
        ("wais://host.example/db?query", "Z39.50"),
        ("prospero://host.example/a/b", "Prospero directory server at host.example port 1525"),
    ] {
        let p = plan(url, &Options::default()).unwrap().to_string();
        assert!(p.contains(words), "{url}: {p}");
        match fetch(url, &Options::default(), &mut NoTrace, &mut Vec::new()) {
            Err(AccessError::NotAutomated { advice, .. }) => {
                assert!(advice.contains("fetch does not"))
            }
            other => panic!("{url}: {other:?}"),
        }
    }
}

#[test]
fn rfc_motd_plans() {
    // §3.2.2, the three examples, command by command.
    let opts = Options::default();
    let sent = |url: &str| -> Vec<String> {
        plan(url, &opts).unwrap().sent().iter().map(|l| String::from_utf8_lossy(l).into_owned()).collect()
    };
    assert_eq!(
        sent("ftp://myname@host.dom/etc/motd"),
        ["USER myname", "CWD etc", "EPSV", "RETR motd", "QUIT"]
    );
    assert_eq!(
        sent("ftp://myname@host.dom//etc/motd"),
        ["USER myname", "CWD ", "CWD etc", "EPSV", "RETR motd", "QUIT"]
    );
    assert_eq!(
        sent("ftp://myname@host.dom/%2Fetc/motd"),
        ["USER myname", "CWD /etc", "EPSV", "RETR motd", "QUIT"]
    );
    assert_eq!(
        sent("ftp://host.dom/pub/www/doc;type=d"),
        ["USER anonymous", "PASS anonymous@localhost", "CWD pub", "CWD www", "EPSV", "NLST doc", "QUIT"]
    );
    assert_eq!(sent("ftp://host.dom/a/b.txt;type=a")[3..5], ["TYPE A".to_string(), "EPSV".to_string()]);
}

/// The lines `plan` would send for `url`.
fn sent(url: &str) -> Vec<Vec<u8>> {
    let plan = plan(url, &Options::default()).unwrap();
    plan.steps()
        .iter()
        .filter_map(|s| match s {
            rfc1738_access::Step::Send(line) => Some(line.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn ftp_octet_255_is_sent_doubled() {
    // RFC 959 §4.1.3: the control connection is a Telnet connection, where
    // octet 255 is IAC; RFC 854 sends a data octet 255 as IAC IAC.
    let lines = sent("ftp://me%FF:p%FFw@ftp.example.com/d%FF/a%FFb");
    assert!(lines.contains(&b"USER me\xff\xff".to_vec()), "{lines:?}");
    assert!(lines.contains(&b"CWD d\xff\xff".to_vec()), "{lines:?}");
    assert!(lines.contains(&b"RETR a\xff\xffb".to_vec()), "{lines:?}");
    // No bare IAC anywhere: every run of octets 255 has an even length.
    for line in &lines {
        let runs = line.split(|&b| b != 0xff).filter(|run| !run.is_empty());
        assert!(runs.into_iter().all(|run| run.len() % 2 == 0), "{line:?}");
    }
}

#[test]
fn file_path_segment_with_an_encoded_slash_is_refused() {
    // One segment, "etc%2Fmotd", is data: no Unix file name holds "/".
    match refused("file:///etc%2Fmotd", &Options::default()) {
        e @ AccessError::EncodedSlash { .. } => {
            let text = e.to_string();
            assert!(text.contains("\"etc%2Fmotd\"") && text.contains("nothing was opened"), "{text}");
        }
        other => panic!("{other}"),
    }
    assert!(matches!(
        refused("file://localhost/a/b%2f..%2f..%2fetc/passwd", &Options::default()),
        AccessError::EncodedSlash { .. }
    ));
}

#[test]
fn refusals_name_the_octet() {
    let opts = Options { news_server: Some(("127.0.0.1".into(), 119)), ..Options::default() };
    let text = refused("news:a%3Eb@h.dom", &opts).to_string();
    assert!(text.contains("\">\" (%3E)"), "{text}");
    let text = refused("news:a%20b@h.dom", &opts).to_string();
    assert!(text.contains("SP (%20)"), "{text}");
}

//! Access against real servers on 127.0.0.1, started by
//! `scripts/test-servers start` (vsftpd, pygopherd, nginx, a small NNTP
//! server). Each test checks the content fetched and, from the server's own
//! record (vsftpd's protocol log, the gopher wire log, nginx's access log,
//! the NNTP command log), the exchange command by command.
//!
//! Without `target/test-servers/env` every test here says it was skipped
//! and passes.

use rfc1738_access::{fetch, plan, AccessError, Content, Event, MenuOutput, NoTrace, Options};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The servers share their logs: one test at a time.
static SERIAL: Mutex<()> = Mutex::new(());

struct Servers {
    vars: HashMap<String, String>,
    _serial: MutexGuard<'static, ()>,
}

fn servers() -> Option<Servers> {
    let path = std::env::var_os("RFC1738_TEST_SERVERS_ENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/test-servers/env"));
    let Ok(text) = std::fs::read_to_string(&path) else {
        skipped(&path);
        return None;
    };
    let vars = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    Some(Servers { vars, _serial: serial })
}

/// Says once, past the test harness's capture, that the server tests were skipped.
fn skipped(path: &std::path::Path) {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        use std::io::Write;
        let msg = format!(
            "skipped: the tests against real servers (no {}); run scripts/test-servers install && scripts/test-servers start\n",
            path.display()
        );
        let _ = std::io::stderr().write_all(msg.as_bytes());
    });
}

impl Servers {
    fn var(&self, key: &str) -> &str {
        &self.vars[key]
    }

    /// The length of a log now, to read what comes after.
    fn mark(&self, log: &str) -> usize {
        std::fs::metadata(self.var(log)).map_or(0, |m| m.len() as usize)
    }

    /// The log's lines after `mark`, waiting (up to 5 s) until `done` holds:
    /// some servers write their record when the connection closes.
    fn since(&self, log: &str, mark: usize, done: impl Fn(&[String]) -> bool) -> Vec<String> {
        let start = Instant::now();
        loop {
            let text = std::fs::read(self.var(log)).unwrap_or_default();
            let lines: Vec<String> =
                String::from_utf8_lossy(&text[mark.min(text.len())..]).lines().map(str::to_string).collect();
            if done(&lines) || start.elapsed() > Duration::from_secs(5) {
                return lines;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The commands vsftpd received after `mark`, as it logged them.
    fn ftp_commands(&self, mark: usize) -> Vec<String> {
        let lines = self.since("FTP_LOG", mark, |l| l.iter().any(|l| l.contains("\"QUIT\"")));
        lines
            .iter()
            .filter_map(|l| l.split_once("FTP command: Client \"127.0.0.1\", \""))
            .map(|(_, rest)| rest.strip_suffix('"').unwrap_or(rest).to_string())
            .collect()
    }

    /// What the clients of the connections opened after `mark` sent, one
    /// record (escaped bytes) per connection, from scripts/wire-relay.py's
    /// log; waits until `count` records are there.
    fn wire(&self, log: &str, mark: usize, count: usize) -> Vec<String> {
        records(&self.since(log, mark, |l| records(l).len() >= count))
    }

    /// The command lines the NNTP server logged after `mark`.
    fn nntp_lines(&self, mark: usize, count: usize) -> Vec<String> {
        let lines = self.since("NNTP_LOG", mark, |l| l.len() >= count);
        lines.iter().map(|l| l.split_once(' ').map_or("", |(_, r)| r).to_string()).collect()
    }

    /// The ftp control connection's lines, from the wire log.
    fn ftp_wire(&self, mark: usize) -> Vec<String> {
        let record = self.wire("FTP_WIRE", mark, 1).join("");
        let lines = record.strip_suffix("\\r\\n").unwrap_or(&record);
        lines.split("\\r\\n").map(str::to_string).collect()
    }
}

/// wire-relay.py's records (`<n> <bytes>`) of connections whose opening
/// (`<n> +`) is among `lines`.
fn records(lines: &[String]) -> Vec<String> {
    let mut opened = std::collections::HashSet::new();
    let mut out = Vec::new();
    for line in lines {
        let (n, rest) = line.split_once(' ').unwrap_or((line, ""));
        if rest == "+" {
            opened.insert(n.to_string());
        } else if opened.contains(n) {
            out.push(rest.to_string());
        }
    }
    out
}

fn get(url: &str, opts: &Options) -> Result<(Vec<u8>, Content), AccessError> {
    let mut out = Vec::new();
    let fetched = fetch(url, opts, &mut NoTrace, &mut out)?;
    Ok((out, fetched.content))
}

fn text(out: &[u8]) -> String {
    String::from_utf8_lossy(out).into_owned()
}

/// Options whose password prompt answers with the test user's password.
fn prompting(s: &Servers) -> Options {
    let password = s.var("FTP_PASSWORD").to_string();
    Options {
        password_prompt: Some(Box::new(move |user, _| (user == "myname").then(|| password.clone()))),
        ..Options::default()
    }
}

/// One of the §3.2.2 motd URLs: what vsftpd received, and what came back.
fn motd(s: &Servers, path: &str) -> (Vec<String>, String) {
    let url = format!("ftp://myname@127.0.0.1:{}{path}", s.var("FTP_PORT"));
    let (mark, wire_mark) = (s.mark("FTP_LOG"), s.mark("FTP_WIRE"));
    let (out, content) = get(&url, &prompting(s)).unwrap_or_else(|e| panic!("{url}: {e}"));
    assert_eq!(content, Content::Data);
    let commands = s.ftp_wire(wire_mark);
    // vsftpd's own log agrees, as it shows commands (trailing space trimmed).
    let logged: Vec<String> = commands
        .iter()
        .map(|c| if c.starts_with("PASS") { "PASS <password>" } else { c.trim_end() }.to_string())
        .collect();
    assert_eq!(s.ftp_commands(mark), logged);
    // The server saw exactly the plan, with the password where the plan asks for it.
    let planned: Vec<String> =
        plan(&url, &Options::default()).unwrap().sent().iter().map(|l| text(l)).collect();
    let seen: Vec<String> = commands.iter().filter(|c| !c.starts_with("PASS")).cloned().collect();
    assert_eq!(seen, planned, "{url}");
    (commands, text(&out))
}

#[test]
fn ftp_motd_in_the_home_directory() {
    let Some(s) = servers() else { return };
    let (commands, out) = motd(&s, "/etc/motd");
    assert_eq!(commands, ["USER myname", "PASS secret", "CWD etc", "EPSV", "RETR motd", "QUIT"]);
    assert_eq!(out, "motd of myname's home\n");
}

#[test]
fn ftp_motd_absolute() {
    let Some(s) = servers() else { return };
    let (commands, out) = motd(&s, "/%2Fetc/motd");
    assert_eq!(commands, ["USER myname", "PASS secret", "CWD /etc", "EPSV", "RETR motd", "QUIT"]);
    assert_eq!(out, "motd of the server's /etc\n");
}

#[test]
fn ftp_motd_null_cwd() {
    let Some(s) = servers() else { return };
    let (commands, out) = motd(&s, "//etc/motd");
    // vsftpd refuses the null CWD (server-specific, §3.2.2); the plan goes on.
    assert_eq!(commands, ["USER myname", "PASS secret", "CWD ", "CWD etc", "EPSV", "RETR motd", "QUIT"]);
    assert_eq!(out, "motd of myname's home\n");
}

#[test]
fn ftp_directory_listing_anonymous() {
    let Some(s) = servers() else { return };
    let url = format!("ftp://127.0.0.1:{}/pub/www/doc;type=d", s.var("FTP_PORT"));
    let (mark, wire_mark) = (s.mark("FTP_LOG"), s.mark("FTP_WIRE"));
    let opts = Options { email: "tester@example.invalid".into(), ..Options::default() };
    let (out, content) = get(&url, &opts).unwrap();
    assert_eq!(content, Content::Listing);
    // §3.2.2: typecode d is NLST of the name; §3.2.1: anonymous, the e-mail address as password.
    assert_eq!(
        s.ftp_wire(wire_mark),
        ["USER anonymous", "PASS tester@example.invalid", "CWD pub", "CWD www", "EPSV", "NLST doc", "QUIT"]
    );
    let names: Vec<String> = text(&out).lines().map(|l| l.rsplit('/').next().unwrap().to_string()).collect();
    assert_eq!(names, ["alpha.html", "beta.html", "gamma.txt"]);
    let commands = s.ftp_commands(mark);
    assert_eq!(
        commands,
        ["USER anonymous", "PASS <password>", "CWD pub", "CWD www", "EPSV", "NLST doc", "QUIT"]
    );
    // §3.2.1: the anonymous password is the user's e-mail address.
    let log = s.since("FTP_LOG", mark, |_| true).join("\n");
    assert!(log.contains("anon password \"tester@example.invalid\""), "{log}");
}

#[test]
fn ftp_ascii_type_and_encoded_names() {
    let Some(s) = servers() else { return };
    let port = s.var("FTP_PORT");
    let mark = s.mark("FTP_LOG");
    let (out, _) = get(&format!("ftp://127.0.0.1:{port}/pub/crlf.txt;type=a"), &Options::default()).unwrap();
    assert_eq!(out, b"line one\r\nline two\r\n");
    assert!(s.ftp_commands(mark).contains(&"TYPE A".to_string()));
    // "a b" and "c;d": %20 and %3B decode inside their own segment (§3.2.2).
    let mark = s.mark("FTP_LOG");
    let (out, _) = get(&format!("ftp://127.0.0.1:{port}/pub/a%20b/c%3Bd"), &Options::default()).unwrap();
    assert_eq!(text(&out), "a file in a directory with a space\n");
    assert_eq!(s.ftp_commands(mark)[2..4], ["CWD pub".to_string(), "CWD a b".to_string()]);
}

#[test]
fn ftp_refusals_and_limits() {
    let Some(s) = servers() else { return };
    let port = s.var("FTP_PORT");
    match get(&format!("ftp://127.0.0.1:{port}/no/such/file"), &Options::default()) {
        Err(AccessError::Refused { command, .. }) => assert_eq!(command, "CWD no"),
        other => panic!("{other:?}"),
    }
    let small = Options { max_bytes: 1000, ..Options::default() };
    match get(&format!("ftp://127.0.0.1:{port}/pub/big"), &small) {
        Err(AccessError::TooLarge { limit: 1000 }) => {}
        other => panic!("{other:?}"),
    }
    // A user with no password and no prompt: a clear error, no guess.
    match get(&format!("ftp://myname@127.0.0.1:{port}/etc/motd"), &Options::default()) {
        Err(AccessError::PasswordRequired { user }) => assert_eq!(user, "myname"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn ftp_trace_reports_the_exchange() {
    let Some(s) = servers() else { return };
    let url = format!("ftp://myname:secret@127.0.0.1:{}/%2Fetc/motd", s.var("FTP_PORT"));
    let mut sent = Vec::new();
    let mut trace = |e: &Event<'_>| {
        if let Event::Sent(line) = e {
            sent.push(text(line));
        }
    };
    fetch(&url, &Options::default(), &mut trace, &mut Vec::new()).unwrap();
    assert_eq!(sent, ["USER myname", "PASS ****", "CWD /etc", "EPSV", "RETR motd", "QUIT"]);
}

#[test]
fn gopher_menu_items_have_urls() {
    let Some(s) = servers() else { return };
    let port = s.var("GOPHER_PORT");
    let mark = s.mark("GOPHER_LOG");
    let (menu, content) = get(&format!("gopher://127.0.0.1:{port}/"), &Options::default()).unwrap();
    assert_eq!(s.wire("GOPHER_LOG", mark, 1), ["\\r\\n"]);
    assert_eq!(content, Content::Menu { items: 4 });
    let items = rfc1738_access::parse_menu(&menu);
    let urls: Vec<Option<String>> = items.iter().map(|i| i.url()).collect();
    assert_eq!(
        urls,
        [
            None,
            Some(format!("gopher://127.0.0.1:{port}/0/about.txt")),
            Some(format!("gopher://127.0.0.1:{port}/1/docs")),
            Some(format!("gopher://127.0.0.1:{port}/7/search")),
        ]
    );
    // An item's own URL fetches the item.
    let (out, _) = get(urls[1].as_deref().unwrap(), &Options::default()).unwrap();
    assert_eq!(text(&out), "This is the rfc1738 test gopher server.\n");
}

#[test]
fn gopher_search() {
    let Some(s) = servers() else { return };
    let port = s.var("GOPHER_PORT");
    let mark = s.mark("GOPHER_LOG");
    let opts = Options { menus: MenuOutput::Items, ..Options::default() };
    // §3.4.2: the selector, a tab, the search string.
    let (out, content) = get(&format!("gopher://127.0.0.1:{port}/7/search%09rfc%201738"), &opts).unwrap();
    assert_eq!(s.wire("GOPHER_LOG", mark, 1), ["/search\\trfc 1738\\r\\n"]);
    assert_eq!(content, Content::Menu { items: 1 });
    assert_eq!(text(&out), format!("0\tResult for rfc 1738\tgopher://127.0.0.1:{port}/0/docs/readme.txt\n"));
}

#[test]
fn gopher_plus_item() {
    let Some(s) = servers() else { return };
    let port = s.var("GOPHER_PORT");
    let mark = s.mark("GOPHER_LOG");
    // §3.4.3/§3.4.4: empty search, gopher+ string "+" (the default view).
    let (out, _) =
        get(&format!("gopher://127.0.0.1:{port}/0/docs/readme.txt%09%09+"), &Options::default()).unwrap();
    assert_eq!(text(&out), "A plain document, also a gopher+ item.\n");
    // §3.4.6: "!" asks for all the item's attributes.
    let (attrs, _) =
        get(&format!("gopher://127.0.0.1:{port}/0/docs/readme.txt%09%09!"), &Options::default()).unwrap();
    assert!(text(&attrs).contains("+ABSTRACT:\r\n The abstract of readme.txt."), "{}", text(&attrs));
    assert_eq!(
        s.wire("GOPHER_LOG", mark, 2),
        ["/docs/readme.txt\\t\\t+\\r\\n", "/docs/readme.txt\\t\\t!\\r\\n"]
    );
}

#[test]
fn http_get_search_and_redirects() {
    let Some(s) = servers() else { return };
    let port = s.var("HTTP_PORT");
    let mark = s.mark("HTTP_LOG");
    let (out, content) = get(&format!("http://127.0.0.1:{port}/pub/hello.txt"), &Options::default()).unwrap();
    assert_eq!(text(&out), "hello over http\n");
    assert!(matches!(content, Content::Http { status: 200, .. }));
    let (out, _) = get(&format!("http://127.0.0.1:{port}/echo?a+b%20c"), &Options::default()).unwrap();
    assert_eq!(text(&out), "search=a+b%20c\n");
    let (out, _) = get(&format!("http://127.0.0.1:{port}/moved"), &Options::default()).unwrap();
    assert_eq!(text(&out), "hello over http\n");
    let log = s.since("HTTP_LOG", mark, |l| l.len() >= 4);
    assert_eq!(
        log,
        [
            "GET /pub/hello.txt HTTP/1.1",
            "GET /echo?a+b%20c HTTP/1.1",
            "GET /moved HTTP/1.1",
            "GET /pub/hello.txt HTTP/1.1"
        ]
    );
}

#[test]
fn http_redirects_never_switch_silently() {
    let Some(s) = servers() else { return };
    let port = s.var("HTTP_PORT");
    let mark = s.mark("HTTP_LOG");
    match get(&format!("http://127.0.0.1:{port}/to-ftp"), &Options::default()) {
        Err(AccessError::Redirect { location, reason }) => {
            assert!(location.starts_with("ftp://"));
            assert!(reason.contains("leaves the http scheme"));
        }
        other => panic!("{other:?}"),
    }
    match get(&format!("http://127.0.0.1:{port}/to-low-port"), &Options::default()) {
        Err(AccessError::Redirect { reason, .. }) => {
            assert!(reason.contains("port 79"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    match get(&format!("http://127.0.0.1:{port}/loop"), &Options::default()) {
        Err(AccessError::Redirect { reason, .. }) => {
            assert!(reason.contains("more than 5 redirects"))
        }
        other => panic!("{other:?}"),
    }
    let log = s.since("HTTP_LOG", mark, |l| l.len() >= 8);
    assert_eq!(log.len(), 8, "one request each, then six for the loop: {log:?}");
    let small = Options { max_bytes: 100, ..Options::default() };
    assert!(matches!(
        get(&format!("http://127.0.0.1:{port}/big"), &small),
        Err(AccessError::TooLarge { limit: 100 })
    ));
    // nginx writes its record when it finishes the request, which may be
    // after the client has gone: wait for it here, or the next test that
    // reads the log would find it.
    let log = s.since("HTTP_LOG", mark, |l| l.len() >= 9);
    assert_eq!(log.get(8).map(String::as_str), Some("GET /big HTTP/1.1"), "{log:?}");
}

#[test]
fn file_urls() {
    let Some(s) = servers() else { return };
    let root = s.var("FILE_ROOT");
    for url in [format!("file://{root}/hello.txt"), format!("file://localhost{root}/hello.txt")] {
        let (out, _) = get(&url, &Options::default()).unwrap();
        assert_eq!(text(&out), "hello from a local file\n", "{url}");
    }
}

#[test]
fn nntp_article_by_number() {
    let Some(s) = servers() else { return };
    let mark = s.mark("NNTP_LOG");
    let url = format!("nntp://127.0.0.1:{}/comp.infosystems.www/2", s.var("NNTP_PORT"));
    let (out, content) = get(&url, &Options::default()).unwrap();
    assert_eq!(content, Content::Article);
    let out = text(&out);
    assert!(out.contains("Message-ID: <article2@test.example>\n"), "{out}");
    assert!(out.ends_with("Body of test article 2.\n.A line starting with a dot.\n"), "{out}");
    let wire = s.nntp_lines(mark, 3);
    assert_eq!(wire, ["GROUP comp.infosystems.www\\r\\n", "ARTICLE 2\\r\\n", "QUIT\\r\\n"]);
}

#[test]
fn news_article_group_and_all() {
    let Some(s) = servers() else { return };
    let opts = Options {
        news_server: Some(("127.0.0.1".into(), s.var("NNTP_PORT").parse().unwrap())),
        ..Options::default()
    };
    let mark = s.mark("NNTP_LOG");
    let (out, _) = get("news:article1@test.example", &opts).unwrap();
    assert!(text(&out).contains("Body of test article 1."));
    let (out, content) = get("news:*", &opts).unwrap();
    assert_eq!(content, Content::NewsGroups);
    assert_eq!(text(&out), "alt.test 1 1 n\ncomp.infosystems.www 2 1 n\n");
    let (out, _) = get("news:comp.infosystems.www", &opts).unwrap();
    assert_eq!(text(&out).lines().count(), 2);
    let wire = s.nntp_lines(mark, 7);
    assert_eq!(
        wire,
        [
            "ARTICLE <article1@test.example>\\r\\n",
            "QUIT\\r\\n",
            "LIST\\r\\n",
            "QUIT\\r\\n",
            "GROUP comp.infosystems.www\\r\\n",
            "XOVER 1-2\\r\\n",
            "QUIT\\r\\n"
        ]
    );
}

//! Crawls of the real servers `scripts/test-servers start` runs on
//! 127.0.0.1 (pygopherd, vsftpd), checked record by record, against the
//! files the servers serve and against the servers' own logs.
//!
//! Without `target/test-servers/env` every test here says it was skipped
//! and passes.

use rfc1738_warc::{read_records, Config, Crawl, ReadRecord, Summary, WarcWriter};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

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
        eprintln!(
            "skipped: the crawls of real servers (no {}); run scripts/test-servers start",
            path.display()
        );
        return None;
    };
    let vars = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Some(Servers { vars, _serial: SERIAL.lock().unwrap_or_else(|e| e.into_inner()) })
}

impl Servers {
    fn var(&self, key: &str) -> &str {
        &self.vars[key]
    }
}

/// Crawls `seeds` into a new directory; the summary, the log lines and
/// every record of every file.
fn crawl(dir: &Path, config: Config) -> (Summary, Vec<String>, Vec<ReadRecord>) {
    let mut writer = WarcWriter::new(&dir.join("crawl"), 1 << 30, vec![("software".into(), "test".into())]);
    let mut lines = Vec::new();
    let summary = Crawl::new(config, &mut writer, |l: &str| lines.push(l.to_string())).run().unwrap();
    let files = writer.finish().unwrap();
    let records = files.iter().flat_map(|f| read_records(f).unwrap()).collect();
    (summary, lines, records)
}

fn config(seeds: &[String]) -> Config {
    Config { seeds: seeds.to_vec(), wait: Duration::ZERO, ..Config::default() }
}

fn targets<'r>(records: &'r [ReadRecord], kind: &str) -> Vec<&'r str> {
    records.iter().filter(|r| r.kind() == kind).map(ReadRecord::target).collect()
}

/// The fields of an `application/warc-fields` block.
fn fields(r: &ReadRecord) -> Vec<(String, String)> {
    String::from_utf8_lossy(&r.block)
        .lines()
        .filter_map(|l| l.split_once(": "))
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect()
}

#[test]
fn a_gopher_tree_to_depth_two_gives_exactly_its_urls() {
    let Some(s) = servers() else { return };
    let dir = tempfile::tempdir().unwrap();
    let g = format!("gopher://127.0.0.1:{}", s.var("GOPHER_PORT"));
    let cfg = Config { depth: 2, ..config(&[format!("{g}/")]) };
    let (summary, log, records) = crawl(dir.path(), cfg);
    let mut got = targets(&records, "resource");
    got.sort_unstable();
    let mut want = vec![
        format!("{g}/"),
        format!("{g}/0/about.txt"),
        format!("{g}/1/docs"),
        format!("{g}/0/docs/readme.txt"),
        format!("{g}/0/docs/second.txt"),
        "urn:X-rfc1738:log".to_string(),
    ];
    want.sort_unstable();
    assert_eq!(got, want, "{log:#?}");
    assert_eq!(summary.captured, 5, "{log:#?}");
    assert_eq!(records[0].kind(), "warcinfo");
    // Each resource is followed by its metadata record, linked to it.
    for (i, r) in
        records.iter().enumerate().filter(|(_, r)| r.kind() == "resource" && r.target().starts_with("gopher"))
    {
        let meta = &records[i + 1];
        assert_eq!(meta.kind(), "metadata");
        assert_eq!(meta.get("WARC-Concurrent-To"), r.get("WARC-Record-ID"));
        assert_eq!(meta.target(), r.target());
    }
    let about = records.iter().find(|r| r.target() == format!("{g}/0/about.txt")).unwrap();
    let served = std::fs::read(Path::new(s.var("ROOT")).join("gopher/about.txt")).unwrap();
    assert_eq!(about.block, served, "the payload is the served file, byte for byte");
    assert_eq!(about.get("Content-Type"), Some("text/plain"));
    let docs =
        records.iter().find(|r| r.target() == format!("{g}/1/docs") && r.kind() == "resource").unwrap();
    assert_eq!(docs.get("Content-Type"), Some("application/gopher-menu"));
    let docs_meta =
        records.iter().find(|r| r.target() == format!("{g}/1/docs") && r.kind() == "metadata").unwrap();
    let f = fields(docs_meta);
    let has = |n: &str, v: &str| f.iter().any(|(a, b)| a == n && b == v);
    assert!(has("gopher-request", "/docs"), "{f:?}");
    assert!(has("gopher-type", "1"), "{f:?}");
    assert!(has("hopsFromSeed", "1"), "{f:?}");
    assert!(has("via", &format!("{g}/")), "{f:?}");
    assert!(has("outlink", &format!("{g}/0/docs/readme.txt")), "{f:?}");
    // The last record is the run's log.
    assert_eq!(records.last().unwrap().target(), "urn:X-rfc1738:log");
}

#[test]
fn depth_one_stops_at_the_first_menu_and_searches_need_terms() {
    let Some(s) = servers() else { return };
    let dir = tempfile::tempdir().unwrap();
    let g = format!("gopher://127.0.0.1:{}", s.var("GOPHER_PORT"));
    let cfg = Config { depth: 1, search: vec!["rfc".into()], ..config(&[format!("{g}/")]) };
    let (_, log, records) = crawl(dir.path(), cfg);
    let mut got = targets(&records, "resource");
    got.retain(|t| t.starts_with("gopher:"));
    got.sort_unstable();
    let mut want = vec![
        format!("{g}/"),
        format!("{g}/0/about.txt"),
        format!("{g}/1/docs"),
        format!("{g}/7/search%09rfc"),
    ];
    want.sort_unstable();
    assert_eq!(got, want, "{log:#?}");
    assert!(log.iter().any(|l| l.starts_with("past the depth")), "{log:#?}");
    let search = records.iter().find(|r| r.target().ends_with("%09rfc") && r.kind() == "resource").unwrap();
    assert!(
        String::from_utf8_lossy(&search.block).contains("Result for rfc"),
        "the search term reached the server"
    );
}

#[test]
fn gopher_plus_items_come_with_their_attributes_and_each_view() {
    let Some(s) = servers() else { return };
    let dir = tempfile::tempdir().unwrap();
    let g = format!("gopher://127.0.0.1:{}", s.var("GOPHER_PORT"));
    let log_at = std::fs::metadata(s.var("GOPHER_LOG")).map_or(0, |m| m.len() as usize);
    // Depth 1: the attributes and views of an item count no hop.
    let cfg = Config { depth: 1, ..config(&[format!("{g}/1/plus")]) };
    let (summary, log, records) = crawl(dir.path(), cfg);
    let item = format!("{g}/0/plus/item.txt");
    let attributes = format!("{item}%09%09!");
    let view = format!("{item}%09%09+text/plain");
    let mut got: Vec<&str> = records
        .iter()
        .filter(|r| matches!(r.kind(), "resource" | "revisit") && r.target().starts_with("gopher:"))
        .map(ReadRecord::target)
        .collect();
    got.sort_unstable();
    let mut want = vec![format!("{g}/1/plus"), item.clone(), attributes.clone(), view.clone()];
    want.sort_unstable();
    assert_eq!(got, want, "{log:#?}");
    assert_eq!(summary.failed + summary.refused, 0, "{log:#?}");

    // The attributes: the block after the `+-2` header line, which the
    // metadata record keeps.
    let attrs = records.iter().find(|r| r.target() == attributes && r.kind() == "resource").unwrap();
    assert_eq!(attrs.get("Content-Type"), Some("application/gopher+-attributes"));
    let text = String::from_utf8_lossy(&attrs.block);
    assert!(text.starts_with("+INFO: 0") && text.contains("+VIEWS:\r\n text/plain"), "{text}");
    assert!(text.contains("+ABSTRACT:\r\n Its abstract."), "{text}");
    let meta = records.iter().find(|r| r.target() == attributes && r.kind() == "metadata").unwrap();
    let f = fields(meta);
    let has = |n: &str, v: &str| f.iter().any(|(a, b)| a == n && b == v);
    assert!(has("gopher-request", "/plus/item.txt%09%09!") && has("gopher-plus-header", "+-2"), "{f:?}");
    assert!(has("hopsFromSeed", "1") && has("outlink", &view), "{f:?}");

    // The view: its bytes are the item's, so a revisit of it, typed as
    // the view says; its header (`+N`) in its metadata record.
    let served = std::fs::read(Path::new(s.var("ROOT")).join("gopher/plus/item.txt")).unwrap();
    let plain = records.iter().find(|r| r.target() == item && r.kind() == "resource").unwrap();
    assert_eq!(plain.block, served);
    let v = records.iter().find(|r| r.target() == view && r.kind() != "metadata").unwrap();
    assert_eq!((v.kind(), v.get("Content-Type")), ("revisit", Some("text/plain")));
    assert_eq!(v.get("WARC-Refers-To-Target-URI"), Some(item.as_str()));
    let meta = records.iter().find(|r| r.target() == view && r.kind() == "metadata").unwrap();
    let f = fields(meta);
    let header = format!("+{}", served.len());
    assert!(f.iter().any(|(a, b)| a == "gopher-plus-header" && *b == header), "{f:?}");
    assert!(f.iter().any(|(a, b)| a == "via" && *b == attributes), "{f:?}");

    // The server saw the requests a gopher+ client sends.
    let wire = std::fs::read(s.var("GOPHER_LOG")).unwrap();
    let wire = String::from_utf8_lossy(&wire[log_at.min(wire.len())..]);
    // §3.4.3: the selector, TAB, the search (empty), TAB, the gopher+ string.
    assert!(wire.contains("/plus/item.txt\\t\\t!\\r\\n"), "{wire}");
    assert!(wire.contains("/plus/item.txt\\t\\t+text/plain\\r\\n"), "{wire}");
}

#[test]
fn links_in_an_http_page_are_resolved_checked_and_scoped_as_any_other() {
    let Some(s) = servers() else { return };
    let dir = tempfile::tempdir().unwrap();
    let h = format!("http://127.0.0.1:{}", s.var("HTTP_PORT"));
    let seed = format!("{h}/site/");
    let (summary, log, records) = crawl(dir.path(), config(std::slice::from_ref(&seed)));
    let mut got = targets(&records, "response");
    // /site/index.html is /site/ again: a revisit.
    got.extend(targets(&records, "revisit"));
    got.sort_unstable();
    let mut want = vec![
        seed.clone(),
        format!("{h}/site/a.txt?x=1&y=2"),
        format!("{h}/site/img/dot.gif"),
        format!("{h}/site/index.html"),
        format!("{h}/site/page.html"),
        format!("{h}/site/style.css"),
    ];
    want.sort_unstable();
    assert_eq!(got, want, "{log:#?}");
    let from = format!("(from {seed})");
    let said = |start: &str| log.iter().any(|l| l.starts_with(start) && l.contains(&from));
    assert!(said(&format!("out of scope {h}/pub/hello.txt")), "{log:#?}");
    assert!(
        said(&format!("out of scope gopher://127.0.0.1:{}/0/about.txt", s.var("GOPHER_PORT"))),
        "{log:#?}"
    );
    // §6: a privileged port that is not http's is refused, never connected to.
    assert!(said("refused http://127.0.0.1:79/"), "{log:#?}");
    assert_eq!(summary.refused, 1, "{log:#?}");
    assert!(!log.iter().any(|l| l.contains("mailto") || l.contains("commented")), "{log:#?}");
    // The server's /robots.txt (RFC 9309) keeps a link out, never asked for.
    assert!(log.contains(&format!("disallowed by robots rules {h}/site/private/page.html")), "{log:#?}");
    let dot = records.iter().find(|r| r.target().ends_with("dot.gif") && r.kind() == "response").unwrap();
    assert_eq!(dot.payload(), b"GIF89a");
    let http_log = std::fs::read_to_string(s.var("HTTP_LOG")).unwrap();
    assert!(!http_log.contains("commented") && !http_log.contains(":79"), "{http_log}");
    assert!(http_log.contains("GET /robots.txt ") && !http_log.contains("/private/"), "{http_log}");
}

/// The commands vsftpd logged after `mark` bytes of its log.
fn ftp_commands(s: &Servers, mark: usize) -> Vec<String> {
    let text = std::fs::read(s.var("FTP_LOG")).unwrap_or_default();
    String::from_utf8_lossy(&text[mark.min(text.len())..])
        .lines()
        .filter_map(|l| l.split_once("FTP command: Client \"127.0.0.1\", \""))
        .map(|(_, rest)| rest.strip_suffix('"').unwrap_or(rest).to_string())
        .collect()
}

#[test]
fn an_ftp_tree_gives_its_listings_files_and_conversations() {
    let Some(s) = servers() else { return };
    let dir = tempfile::tempdir().unwrap();
    let f = format!("ftp://127.0.0.1:{}", s.var("FTP_PORT"));
    let mark = std::fs::metadata(s.var("FTP_LOG")).map_or(0, |m| m.len() as usize);
    let mut cfg = config(&[format!("{f}/pub/www/")]);
    cfg.access.email = "archivist@example.org".into();
    let (summary, log, records) = crawl(dir.path(), cfg);
    let mut got = targets(&records, "resource");
    got.sort_unstable();
    let want = [
        format!("{f}/pub/www/"),
        format!("{f}/pub/www/doc/"),
        format!("{f}/pub/www/doc/alpha.html"),
        format!("{f}/pub/www/doc/beta.html"),
        format!("{f}/pub/www/doc/gamma.txt"),
        "urn:X-rfc1738:log".to_string(),
    ];
    assert_eq!(got, want, "{log:#?}");
    assert_eq!(summary.failed, 0, "{log:#?}");
    let served = Path::new(s.var("ROOT")).join("ftp/pub/www/doc");
    for name in ["alpha.html", "beta.html", "gamma.txt"] {
        let r = records.iter().find(|r| r.target() == format!("{f}/pub/www/doc/{name}")).unwrap();
        assert_eq!(r.block, std::fs::read(served.join(name)).unwrap(), "{name}, byte for byte");
        assert_eq!(r.get("Content-Type"), Some("application/octet-stream"));
    }
    let listing = records.iter().find(|r| r.target() == format!("{f}/pub/www/doc/")).unwrap();
    let mut names: Vec<&str> = std::str::from_utf8(&listing.block).unwrap().lines().collect();
    names.sort_unstable();
    assert_eq!(names, ["alpha.html", "beta.html", "gamma.txt"]);
    // Each resource has its control conversation, the password masked:
    // the login in the first one's, each directory's CWD in the first
    // URL reached through it.
    let talk = |target: String| {
        let r = records.iter().find(|r| r.target() == target && r.kind() == "resource").unwrap();
        let talk = records
            .iter()
            .find(|m| m.kind() == "metadata" && m.get("WARC-Concurrent-To") == r.get("WARC-Record-ID"))
            .unwrap();
        assert_eq!(talk.get("Content-Type"), Some("text/x-ftp-control-conversation"));
        String::from_utf8_lossy(&talk.block).into_owned()
    };
    let text = talk(format!("{f}/pub/www/"));
    assert!(text.contains("USER anonymous\r\n331 "), "{text}");
    assert!(text.contains("PASS ****\r\n230 "), "{text}");
    assert!(text.contains("CWD pub\r\n250 ") && text.contains("CWD www\r\n250 "), "{text}");
    let text = talk(format!("{f}/pub/www/doc/"));
    assert!(text.starts_with("CWD doc\r\n250 ") && text.contains("NLST\r\n150 "), "{text}");
    let text = talk(format!("{f}/pub/www/doc/alpha.html"));
    assert!(text.contains("RETR alpha.html\r\n150 "), "{text}");
    for r in &records {
        assert!(!String::from_utf8_lossy(&r.block).contains("archivist@"), "a password in {}", r.target());
    }
    // §3.2.2, from the server's side: one CWD per segment, never a path.
    let commands = ftp_commands(&s, mark);
    let cwds: Vec<&String> = commands.iter().filter(|c| c.starts_with("CWD")).collect();
    assert_eq!(cwds, ["CWD pub", "CWD www", "CWD doc"], "{commands:?}");
    let at = commands.iter().position(|c| c == "RETR alpha.html").expect("vsftpd logged the RETR");
    assert!(commands[..at].ends_with(&["EPSV".to_string()]), "{commands:?}");
    assert!(!commands.iter().any(|c| c.starts_with("CWD ") && c[4..].contains('/')), "{commands:?}");
}

#[test]
fn an_ftp_tree_is_archived_over_one_login_one_cwd_per_segment() {
    let Some(s) = servers() else { return };
    let dir = tempfile::tempdir().unwrap();
    let f = format!("ftp://127.0.0.1:{}", s.var("FTP_PORT"));
    let mark = std::fs::metadata(s.var("FTP_LOG")).map_or(0, |m| m.len() as usize);
    let (summary, log, records) = crawl(dir.path(), config(&[format!("{f}/pub/")]));
    assert_eq!(summary.failed + summary.truncated, 0, "{log:#?}");
    // Every served file, byte for byte, whatever directory came before.
    let served = Path::new(s.var("ROOT")).join("ftp/pub");
    let files = ["motd", "crlf.txt", "big", "www/doc/alpha.html", "www/doc/gamma.txt", "a b/c;d"];
    for name in files {
        let target = format!("{f}/pub/{}", name.replace(' ', "%20").replace(';', "%3B"));
        let r = records.iter().find(|r| r.target() == target && r.kind() == "resource");
        let r = r.unwrap_or_else(|| panic!("{target} not archived: {log:#?}"));
        assert_eq!(r.block, std::fs::read(served.join(name)).unwrap(), "{name}");
    }
    let commands = ftp_commands(&s, mark);
    // RFC 959: one control connection carries every transfer of the run.
    assert_eq!(commands.iter().filter(|c| c.starts_with("USER ")).count(), 1, "{commands:#?}");
    // §3.2.2: down one CWD per segment; up one CDUP per segment, checked
    // by PWD against where the session was; never a path.
    assert!(!commands.iter().any(|c| c.starts_with("CWD ") && c[4..].contains('/')), "{commands:#?}");
    assert!(commands.iter().any(|c| c == "CDUP"), "{commands:#?}");
    assert_eq!(commands.iter().filter(|c| *c == "QUIT").count(), 1, "{commands:#?}");
    // The login is in the conversation of the first URL; each later one
    // holds its own commands.
    let talks: Vec<String> = records
        .iter()
        .filter(|r| r.get("Content-Type") == Some("text/x-ftp-control-conversation"))
        .map(|r| String::from_utf8_lossy(&r.block).into_owned())
        .collect();
    assert!(talks[0].starts_with("220 ") && talks[0].contains("PASS ****\r\n230 "), "{}", talks[0]);
    assert!(talks[1..].iter().all(|t| !t.contains("PASS ")), "{talks:#?}");
    let alpha = records.iter().find(|r| r.target() == format!("{f}/pub/www/doc/alpha.html")).unwrap();
    let talk = records
        .iter()
        .find(|r| r.kind() == "metadata" && r.get("WARC-Concurrent-To") == alpha.get("WARC-Record-ID"))
        .unwrap();
    let text = String::from_utf8_lossy(&talk.block);
    assert!(text.contains("RETR alpha.html\r\n150 ") && text.contains("226 "), "{text}");
}

#[test]
fn a_large_ftp_file_past_the_limit_is_kept_truncated() {
    let Some(s) = servers() else { return };
    let dir = tempfile::tempdir().unwrap();
    let f = format!("ftp://127.0.0.1:{}", s.var("FTP_PORT"));
    let mut cfg = config(&[format!("{f}/pub/big"), format!("{f}/pub/motd")]);
    cfg.access.max_bytes = 1000;
    let (summary, log, records) = crawl(dir.path(), cfg);
    let big = records.iter().find(|r| r.target() == format!("{f}/pub/big")).unwrap();
    assert_eq!(big.get("WARC-Truncated"), Some("length"), "{log:#?}");
    assert_eq!(big.block, vec![b'x'; 1000]);
    let motd = records.iter().find(|r| r.target() == format!("{f}/pub/motd")).unwrap();
    assert_eq!(motd.block, b"motd of /pub\n");
    assert_eq!((summary.captured, summary.truncated), (2, 1));
}

#[test]
fn an_http_pair_and_a_redirect_are_archived_as_they_crossed_the_wire() {
    let Some(s) = servers() else { return };
    let dir = tempfile::tempdir().unwrap();
    let h = format!("http://127.0.0.1:{}", s.var("HTTP_PORT"));
    let cfg = config(&[format!("{h}/moved"), format!("{h}/to-ftp")]);
    let (summary, log, records) = crawl(dir.path(), cfg);
    // /moved answers 301 to /pub/hello.txt, which is then archived; the
    // redirect to ftp leaves the seed's scope (prefix: same scheme).
    let moved =
        records.iter().find(|r| r.kind() == "response" && r.target() == format!("{h}/moved")).unwrap();
    assert!(moved.block.starts_with(b"HTTP/1.1 301 "), "{}", String::from_utf8_lossy(&moved.block));
    assert_eq!(moved.get("Content-Type"), Some("application/http; msgtype=response"));
    let hello = format!("{h}/pub/hello.txt");
    assert!(log.iter().any(|l| l.starts_with("out of scope ftp://")), "{log:#?}");
    // The redirect's target is not under /moved: out of the prefix scope.
    assert!(log.iter().any(|l| l == &format!("out of scope {hello} (from {h}/moved)")), "{log:#?}");
    let cfg = Config { scope: rfc1738_warc::Scope::Host, ..config(&[format!("{h}/moved")]) };
    let second = tempfile::tempdir().unwrap();
    let (_, log, records) = crawl(second.path(), cfg);
    let response = records.iter().find(|r| r.kind() == "response" && r.target() == hello).expect("followed");
    let served = std::fs::read(Path::new(s.var("ROOT")).join("www/pub/hello.txt")).unwrap();
    assert_eq!(response.payload(), served, "{log:#?}");
    assert!(response.block.starts_with(b"HTTP/1.1 200 OK\r\n"));
    let request = records
        .iter()
        .find(|r| r.kind() == "request" && r.get("WARC-Concurrent-To") == response.get("WARC-Record-ID"))
        .unwrap();
    assert!(request.block.starts_with(b"GET /pub/hello.txt HTTP/1.1\r\nHost: 127.0.0.1:"));
    assert_eq!(request.get("Content-Type"), Some("application/http; msgtype=request"));
    assert_eq!(summary.failed, 0);
}

#[test]
fn an_nntp_group_gives_its_articles_as_message_news() {
    let Some(s) = servers() else { return };
    let dir = tempfile::tempdir().unwrap();
    let n = format!("nntp://127.0.0.1:{}", s.var("NNTP_PORT"));
    let (summary, log, records) = crawl(dir.path(), config(&[format!("{n}/comp.infosystems.www")]));
    let mut got = targets(&records, "resource");
    got.sort_unstable();
    let want = [
        format!("{n}/comp.infosystems.www"),
        format!("{n}/comp.infosystems.www/1"),
        format!("{n}/comp.infosystems.www/2"),
        "urn:X-rfc1738:log".to_string(),
    ];
    assert_eq!(got, want, "{log:#?}");
    let article = records.iter().find(|r| r.target() == format!("{n}/comp.infosystems.www/2")).unwrap();
    assert_eq!(article.get("Content-Type"), Some("message/news"));
    let served =
        std::fs::read_to_string(Path::new(s.var("ROOT")).join("news/comp.infosystems.www/2")).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&article.block),
        served.replace('\n', "\r\n"),
        "the article, CR LF ended"
    );
    let meta = records.iter().find(|r| r.get("WARC-Concurrent-To") == article.get("WARC-Record-ID")).unwrap();
    let f = fields(meta);
    assert!(f.iter().any(|(k, v)| k == "nntp-request" && v == "ARTICLE 2"), "{f:?}");
    assert_eq!(summary.failed, 0);
}

#[test]
fn a_second_run_with_the_first_runs_index_writes_revisits() {
    let Some(s) = servers() else { return };
    let dir = tempfile::tempdir().unwrap();
    let g = format!("gopher://127.0.0.1:{}", s.var("GOPHER_PORT"));
    let seeds = [format!("{g}/1/docs")];
    let mut writer = WarcWriter::new(&dir.path().join("one"), 1 << 30, Vec::new());
    Crawl::new(config(&seeds), &mut writer, |_: &str| {}).run().unwrap();
    let first = writer.finish().unwrap();
    let index = dir.path().join("one.cdxj");
    rfc1738_warc::write_cdxj(&index, &rfc1738_warc::cdxj_index(&first).unwrap()).unwrap();
    let known = rfc1738_warc::read_cdxj(&index).unwrap();
    let mut writer = WarcWriter::new(&dir.path().join("two"), 1 << 30, Vec::new());
    let summary = Crawl::new(config(&seeds), &mut writer, |_: &str| {}).known_payloads(known).run().unwrap();
    let records = read_records(&writer.finish().unwrap()[0]).unwrap();
    assert_eq!((summary.captured, summary.revisits), (3, 3));
    let readme = records.iter().find(|r| r.target() == format!("{g}/0/docs/readme.txt")).unwrap();
    assert_eq!(readme.kind(), "revisit");
    assert_eq!(readme.get("WARC-Refers-To-Target-URI"), Some(readme.target()));
    assert!(readme.get("WARC-Refers-To-Date").is_some_and(|d| d.len() == 20));
}

#[test]
fn a_news_article_by_its_message_id_is_message_news() {
    let Some(s) = servers() else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = config(&["news:article1@test.example".to_string()]);
    cfg.access.news_server = Some(("127.0.0.1".into(), s.var("NNTP_PORT").parse().unwrap()));
    let (summary, log, records) = crawl(dir.path(), cfg);
    let article = records.iter().find(|r| r.target() == "news:article1@test.example").expect("archived");
    assert_eq!((article.kind(), article.get("Content-Type")), ("resource", Some("message/news")), "{log:#?}");
    assert!(String::from_utf8_lossy(&article.block).contains("Message-ID: <article1@test.example>\r\n"));
    assert_eq!(summary.failed, 0);
    // Without a news server, the URL is refused before anything connects.
    let dir = tempfile::tempdir().unwrap();
    let (summary, log, _) = crawl(dir.path(), config(&["news:article1@test.example".to_string()]));
    assert_eq!(summary.refused, 1, "{log:#?}");
}

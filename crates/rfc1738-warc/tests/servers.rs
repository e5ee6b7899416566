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

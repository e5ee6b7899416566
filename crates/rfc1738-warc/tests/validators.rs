//! The files a crawl writes, held to other people's tools: `warcio check`
//! (every digest of every record) and `cdxj-indexer` (every record
//! indexed, at the offset and with the digest the crate's reader finds).
//!
//! The tools live in a virtual environment under `target/warc-tools`,
//! made by `scripts/test-warc --prepare`; `scripts/test` runs this file
//! through `scripts/test-warc`. Without the tools, or without the test
//! servers, each test says it was skipped and passes.

use rfc1738_warc::{cdxj_index, read_records, Config, Crawl, WarcWriter};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

fn tools() -> Option<PathBuf> {
    // Empty: the run of the whole workspace in scripts/test, which runs
    // this file once more through scripts/test-warc with the tools.
    if std::env::var_os("RFC1738_WARC_TOOLS").is_some_and(|v| v.is_empty()) {
        eprintln!("skipped here: scripts/test-warc runs the validators");
        return None;
    }
    let dir = std::env::var_os("RFC1738_WARC_TOOLS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/warc-tools/bin"));
    if dir.join("warcio").exists() && dir.join("cdxj-indexer").exists() {
        return Some(dir);
    }
    eprintln!(
        "skipped: warcio and cdxj-indexer are not in {}; run scripts/test-warc --prepare",
        dir.display()
    );
    None
}

fn servers() -> Option<HashMap<String, String>> {
    let path = std::env::var_os("RFC1738_TEST_SERVERS_ENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/test-servers/env"));
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipped: no test servers (no {}); run scripts/test-servers start", path.display());
        return None;
    };
    Some(
        text.lines().filter_map(|l| l.split_once('=')).map(|(k, v)| (k.to_string(), v.to_string())).collect(),
    )
}

/// A crawl of the gopher and ftp test servers, a small size limit so
/// that files roll and one record is truncated.
fn crawl(dir: &Path, vars: &HashMap<String, String>) -> Vec<PathBuf> {
    let mut config = Config {
        seeds: vec![
            format!("gopher://127.0.0.1:{}/", vars["GOPHER_PORT"]),
            // Gopher+: an item, its attributes, its view.
            format!("gopher://127.0.0.1:{}/1/plus", vars["GOPHER_PORT"]),
            format!("ftp://127.0.0.1:{}/pub/", vars["FTP_PORT"]),
            format!("http://127.0.0.1:{}/", vars["HTTP_PORT"]),
            // A page's links, one of them a revisit.
            format!("http://127.0.0.1:{}/site/", vars["HTTP_PORT"]),
            format!("http://127.0.0.1:{}/moved", vars["HTTP_PORT"]),
            format!("http://127.0.0.1:{}/pub/hello.txt", vars["HTTP_PORT"]),
            format!("nntp://127.0.0.1:{}/comp.infosystems.www", vars["NNTP_PORT"]),
        ],
        wait: Duration::ZERO,
        search: vec!["archive".into()],
        ..Config::default()
    };
    config.access.max_bytes = 100_000;
    let mut writer =
        WarcWriter::new(&dir.join("check"), 4000, vec![("software".into(), "validators".into())]);
    Crawl::new(config, &mut writer, |_: &str| {}).run().unwrap();
    writer.finish().unwrap()
}

#[test]
fn warcio_checks_every_digest_and_cdxj_indexer_indexes_every_record() {
    let (Some(bin), Some(vars)) = (tools(), servers()) else { return };
    let dir = tempfile::tempdir().unwrap();
    let files = crawl(dir.path(), &vars);
    assert!(files.len() > 1, "the size limit rolls the files: {files:?}");
    let out = Command::new(bin.join("warcio")).arg("check").arg("-v").args(&files).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "warcio check failed:\n{text}\n{}", String::from_utf8_lossy(&out.stderr));
    let ours: Vec<_> = files.iter().flat_map(|f| read_records(f).unwrap()).collect();
    // warcio checks every digest but a revisit's (its payload is elsewhere).
    let revisits = ours.iter().filter(|r| r.kind() == "revisit").count();
    assert!(revisits > 0);
    assert_eq!(text.matches("not checked (revisit)").count(), revisits, "{text}");
    assert_eq!(text.matches("digest pass").count(), ours.len() - revisits, "{text}");
    assert!(
        ours.iter().any(|r| r.get("WARC-Truncated") == Some("length")),
        "a truncated record is checked too"
    );

    let out = Command::new(bin.join("cdxj-indexer")).args(&files).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let index = String::from_utf8(out.stdout).unwrap();
    // cdxj-indexer indexes what replay can answer: every resource and
    // revisit (and metadata records other than warc-fields ones).
    let indexed: Vec<&_> =
        ours.iter().filter(|r| matches!(r.kind(), "resource" | "revisit" | "response")).collect();
    assert!(ours.iter().any(|r| r.kind() == "response") && ours.iter().any(|r| r.kind() == "request"));
    assert!(indexed.len() > 10);
    for r in indexed {
        let want_offset = format!("\"offset\": \"{}\"", r.offset);
        let line = index
            .lines()
            .find(|l| l.contains(&format!("\"url\": \"{}\"", r.target())) && l.contains(&want_offset))
            .unwrap_or_else(|| panic!("{} at {} is not indexed:\n{index}", r.target(), r.offset));
        assert!(line.contains(&format!("\"length\": \"{}\"", r.length)), "{line}");
        if let Some(d) = r.get("WARC-Payload-Digest") {
            assert!(line.contains(d), "{line}");
        }
    }

    // Our index is cdxj-indexer's, line for line, but for the key of a
    // scheme other than http, which keeps its scheme in front.
    let theirs: Vec<&str> = index.lines().collect();
    let ours_index = cdxj_index(&files).unwrap();
    assert!(ours_index.len() > 10);
    for line in &ours_index {
        let (key, rest) = line.split_once(' ').unwrap();
        let same = theirs.iter().find(|t| t.split_once(' ').unwrap().1 == rest);
        let same = same.unwrap_or_else(|| panic!("not in cdxj-indexer's index: {line}\n{index}"));
        let their_key = same.split_once(' ').unwrap().0;
        match key.split_once("://(") {
            Some((scheme, tail)) => assert_eq!((scheme != "http", tail), (true, their_key), "{line}"),
            None => assert_eq!(key, their_key, "{line}"),
        }
    }
    let mut sorted = ours_index.clone();
    sorted.sort();
    assert_eq!(ours_index, sorted);
}

/// `(target, payload digest)` of each `resource` record of a WARC file,
/// read by warcio (wget writes WARC/1.0, which this crate's reader does
/// not read); the digest computed over the payload warcio gives.
fn warcio_pairs(python: &Path, file: &Path) -> Vec<(String, String)> {
    let script = "import sys, hashlib, base64\n\
        from warcio.archiveiterator import ArchiveIterator\n\
        for r in ArchiveIterator(open(sys.argv[1], 'rb')):\n\
        \x20   if r.rec_type == 'resource':\n\
        \x20       d = base64.b32encode(hashlib.sha1(r.content_stream().read()).digest()).decode()\n\
        \x20       print(r.rec_headers.get_header('WARC-Target-URI').strip('<>'), 'sha1:' + d)\n";
    let out = Command::new(python).arg("-c").arg(script).arg(file).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_once(' '))
        .map(|(t, d)| (t.to_string(), d.to_string()))
        .collect()
}

#[test]
fn every_file_wget_archives_of_an_ftp_tree_is_among_ours() {
    let (Some(bin), Some(vars)) = (tools(), servers()) else { return };
    let seed = format!("ftp://127.0.0.1:{}/pub/", vars["FTP_PORT"]);
    let dir = tempfile::tempdir().unwrap();
    let wget = Command::new("wget")
        .args(["-q", "--mirror", "--no-host-directories", "--wait=0", "--warc-file=wget"])
        .arg(&seed)
        .current_dir(dir.path())
        .status();
    let Ok(status) = wget else {
        eprintln!("skipped: no wget (Debian's wget: apt-get install wget)");
        return;
    };
    assert!(status.success(), "wget --mirror failed");
    let theirs = warcio_pairs(&bin.join("python"), &dir.path().join("wget.warc.gz"));
    let theirs: Vec<_> = theirs.into_iter().filter(|(t, _)| t.starts_with("ftp://")).collect();
    assert!(theirs.len() >= 7, "{theirs:?}");
    let config = Config { seeds: vec![seed], wait: Duration::ZERO, ..Config::default() };
    let mut writer = WarcWriter::new(&dir.path().join("ours"), 1 << 30, Vec::new());
    Crawl::new(config, &mut writer, |_: &str| {}).run().unwrap();
    let ours: Vec<(String, String)> = writer
        .finish()
        .unwrap()
        .iter()
        .flat_map(|f| read_records(f).unwrap())
        .filter(|r| r.kind() == "resource")
        .map(|r| (r.target().to_string(), r.get("WARC-Payload-Digest").unwrap_or("").to_string()))
        .collect();
    for pair in &theirs {
        assert!(ours.contains(pair), "wget archived {pair:?}, we did not:\n{ours:#?}");
    }
}

#[test]
fn wacz_validate_passes_the_package_of_a_crawl() {
    let (Some(bin), Some(vars)) = (tools(), servers()) else { return };
    if !bin.join("wacz").exists() {
        eprintln!("skipped: no wacz in {}; run scripts/test-warc --prepare", bin.display());
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let files = crawl(dir.path(), &vars);
    let seed = format!("gopher://127.0.0.1:{}/", vars["GOPHER_PORT"]);
    let date = read_records(&files[0])
        .unwrap()
        .iter()
        .find(|r| r.target() == seed)
        .unwrap()
        .get("WARC-Date")
        .unwrap()
        .to_string();
    let path = dir.path().join("check.wacz");
    rfc1738_warc::write_wacz(&path, &files, &[rfc1738_warc::Page { url: seed, date }], "validators").unwrap();
    let out = Command::new(bin.join("wacz")).args(["validate", "-f"]).arg(&path).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("Validation succeeded"),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Python's zipfile: every entry whole (CRC), every entry stored.
    let script = "import sys, zipfile\n\
        z = zipfile.ZipFile(sys.argv[1])\n\
        assert z.testzip() is None\n\
        print(' '.join(f'{i.filename}:{i.compress_type}' for i in z.infolist()))\n";
    let out = Command::new(bin.join("python")).arg("-c").arg(script).arg(&path).output().unwrap();
    let listing = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        listing.contains("archive/check-00000.warc.gz:0") && listing.contains("indexes/index.cdxj:0"),
        "{listing}"
    );
    assert!(listing.contains("pages/pages.jsonl:0") && listing.contains("datapackage.json:0"), "{listing}");
}

/// A `wayback` server (pywb) of the collections under `root`, on a free
/// port of 127.0.0.1; stopped when dropped.
struct Wayback {
    child: std::process::Child,
    port: u16,
}

impl Wayback {
    fn start(bin: &Path, root: &Path) -> Wayback {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let child = Command::new(bin.join("wayback"))
            .args(["-b", "127.0.0.1", "-p", &port.to_string()])
            .current_dir(root)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let w = Wayback { child, port };
        for _ in 0..300 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return w;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("wayback did not start on 127.0.0.1:{port}");
    }

    /// The status and the body pywb answers for `target` in `collection`,
    /// as archived (`id_`: no rewriting).
    fn replay(&self, collection: &str, target: &str) -> (u16, Vec<u8>) {
        use std::io::{Read, Write};
        let mut s = std::net::TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        write!(s, "GET /{collection}/id_/{target} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").unwrap();
        let mut answer = Vec::new();
        s.read_to_end(&mut answer).unwrap();
        let head_end = answer.windows(4).position(|w| w == b"\r\n\r\n").expect("an http answer") + 4;
        let status = String::from_utf8_lossy(&answer[9..12]).parse().unwrap();
        (status, answer[head_end..].to_vec())
    }
}

impl Drop for Wayback {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn pywb_replays_every_archived_target_byte_for_byte() {
    let (Some(bin), Some(vars)) = (tools(), servers()) else { return };
    if !bin.join("wayback").exists() {
        eprintln!("skipped: no pywb in {}; run scripts/test-warc --prepare", bin.display());
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let files = crawl(dir.path(), &vars);
    let root = dir.path().join("pywb");
    std::fs::create_dir(&root).unwrap();
    // `theirs`: indexed by pywb itself (cdxj-indexer's keys); `ours`: the
    // same files with the index of this crate.
    for c in ["theirs", "ours"] {
        let out = Command::new(bin.join("wb-manager")).args(["init", c]).current_dir(&root).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let out = Command::new(bin.join("wb-manager"))
        .args(["add", "theirs"])
        .args(&files)
        .current_dir(&root)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let ours = root.join("collections/ours");
    for f in &files {
        std::fs::copy(f, ours.join("archive").join(f.file_name().unwrap())).unwrap();
    }
    let index = cdxj_index(&files).unwrap();
    std::fs::write(ours.join("indexes/index.cdxj"), index.join("\n") + "\n").unwrap();
    let wayback = Wayback::start(&bin, &root);

    let records: Vec<_> = files.iter().flat_map(|f| read_records(f).unwrap()).collect();
    let archived: Vec<_> = records
        .iter()
        .filter(|r| {
            matches!(r.kind(), "resource" | "response" | "revisit") && !r.target().starts_with("urn:")
        })
        .collect();
    assert!(archived.len() > 10);
    let mut schemes = std::collections::BTreeSet::new();
    for r in &archived {
        // A revisit replays the payload of the record it names.
        let payload = match r.get("WARC-Refers-To-Target-URI") {
            Some(first) => records
                .iter()
                .find(|o| o.target() == first && matches!(o.kind(), "resource" | "response"))
                .unwrap()
                .payload(),
            None => r.payload(),
        };
        let (status, body) = wayback.replay("theirs", r.target());
        assert!(status < 500, "{} answered {status}", r.target());
        let shown = String::from_utf8_lossy(&body);
        assert!(body == payload, "pywb replays {} otherwise:\n{shown}", r.target());
        schemes.insert(r.target().split(':').next().unwrap().to_string());
        // Our keys keep the scheme of what is not http: pywb, which looks
        // up by the SURT alone, finds the http targets in our index.
        if r.target().starts_with("http:") {
            assert_eq!(wayback.replay("ours", r.target()), (status, body), "{}", r.target());
        }
    }
    assert_eq!(schemes.into_iter().collect::<Vec<_>>(), ["ftp", "gopher", "http", "nntp"]);

    // The trap of a key without its scheme: an http URL of the gopher
    // server's host, port and path, never archived, is answered with the
    // archived gopher menu by cdxj-indexer's keys, and by ours not at all.
    let menu = records.iter().find(|r| r.target().ends_with("/1/docs")).expect("the docs menu");
    let http = menu.target().replacen("gopher:", "http:", 1);
    assert_eq!(wayback.replay("theirs", &http), (200, menu.payload().to_vec()), "the collision, documented");
    assert_eq!(wayback.replay("ours", &http).0, 404, "{http} is not in our index");
}

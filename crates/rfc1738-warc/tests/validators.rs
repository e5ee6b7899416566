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
            format!("ftp://127.0.0.1:{}/pub/", vars["FTP_PORT"]),
            format!("http://127.0.0.1:{}/", vars["HTTP_PORT"]),
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
    assert_eq!(text.matches("digest pass").count(), ours.len(), "{text}");
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

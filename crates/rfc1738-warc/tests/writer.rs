//! The WARC writer against its reader: rolling files, warcinfo first,
//! known digests, and a file cut in the middle of a record.

use rfc1738_warc::{read_records, whole_prefix, Record, RecordType, Spool, WarcWriter};
use std::io::Write;

fn info() -> Vec<(String, String)> {
    vec![("software".into(), "rfc1738-warc test".into()), ("format".into(), "WARC File Format 1.1".into())]
}

fn resource(target: &str, body: &[u8]) -> Record {
    let mut r = Record::new(RecordType::Resource)
        .field("WARC-Target-URI", target)
        .field("Content-Type", "text/plain")
        .block(Spool::of(body));
    r.payload_from = Some(0);
    r
}

#[test]
fn records_read_back_with_known_digests() {
    let dir = tempfile::tempdir().unwrap();
    let mut w = WarcWriter::new(&dir.path().join("t"), 1 << 30, info());
    let first = w.write(&mut resource("gopher://h/0/abc", b"abc")).unwrap();
    w.write(&mut resource("gopher://h/0/empty", b"")).unwrap();
    assert_eq!(first.file, "t-00000.warc.gz");
    assert!(dir.path().join("t-00000.warc.gz.open").exists(), "an unfinished file is named .open");
    let files = w.finish().unwrap();
    assert_eq!(files, [dir.path().join("t-00000.warc.gz")]);
    assert!(!dir.path().join("t-00000.warc.gz.open").exists());
    let records = read_records(&files[0]).unwrap();
    let kinds: Vec<&str> = records.iter().map(|r| r.kind()).collect();
    assert_eq!(kinds, ["warcinfo", "resource", "resource"]);
    assert_eq!(records[0].get("WARC-Filename"), Some("t-00000.warc.gz"));
    assert!(String::from_utf8_lossy(&records[0].block).contains("software: rfc1738-warc test\r\n"));
    // FIPS 180 "abc": a9993e36..., in base32; and the empty string's.
    assert_eq!(records[1].get("WARC-Block-Digest"), Some("sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5"));
    assert_eq!(records[1].get("WARC-Payload-Digest"), Some("sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5"));
    assert_eq!(records[2].get("WARC-Payload-Digest"), Some("sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"));
    assert_eq!(records[2].get("Content-Length"), Some("0"));
    assert_eq!(records[1].offset, first.offset);
    assert_eq!(records[1].length, first.length);
    assert_eq!(records[2].offset, first.offset + first.length, "one gzip member per record, back to back");
    assert_ne!(records[1].get("WARC-Record-ID"), records[2].get("WARC-Record-ID"));
    let date = records[1].get("WARC-Date").unwrap();
    assert_eq!(date.len(), 20, "{date}");
}

#[test]
fn files_roll_past_the_size_limit_each_with_its_warcinfo() {
    let dir = tempfile::tempdir().unwrap();
    let mut w = WarcWriter::new(&dir.path().join("roll"), 1000, info());
    // Incompressible bodies: each record passes the limit alone.
    let noise: Vec<u8> = (0u32..3000).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    for i in 0..3 {
        w.write(&mut resource(&format!("ftp://h/f{i}"), &noise)).unwrap();
    }
    let files = w.finish().unwrap();
    let names: Vec<String> =
        files.iter().map(|f| f.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["roll-00000.warc.gz", "roll-00001.warc.gz", "roll-00002.warc.gz"]);
    for (i, f) in files.iter().enumerate() {
        let records = read_records(f).unwrap();
        assert_eq!(records.len(), 2);
        assert_eq!(records[0].kind(), "warcinfo");
        assert_eq!(records[0].get("WARC-Filename"), Some(names[i].as_str()));
        assert_eq!(records[1].target(), format!("ftp://h/f{i}"));
        assert_eq!(records[1].block, noise);
    }
}

#[test]
fn an_existing_file_is_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("x-00000.warc.gz"), b"keep").unwrap();
    let mut w = WarcWriter::new(&dir.path().join("x"), 1 << 30, info());
    let err = w.write(&mut resource("gopher://h/", b"a")).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::AlreadyExists);
    assert_eq!(std::fs::read(dir.path().join("x-00000.warc.gz")).unwrap(), b"keep");
}

#[test]
fn a_record_cut_short_is_found_and_cut_off_on_resume() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = dir.path().join("cut");
    let mut w = WarcWriter::new(&prefix, 1 << 30, info());
    w.write(&mut resource("gopher://h/0/a", b"first")).unwrap();
    let (index, good) = w.position();
    drop(w);
    // A kill in the middle of the next record: half a gzip member.
    let open = dir.path().join("cut-00000.warc.gz.open");
    let mut probe = WarcWriter::new(&dir.path().join("probe"), 1 << 30, info());
    let second = probe.write(&mut resource("gopher://h/0/b", b"second")).unwrap();
    let probe_files = probe.finish().unwrap();
    let bytes = std::fs::read(&probe_files[0]).unwrap();
    let half = &bytes[second.offset as usize..(second.offset + second.length / 2) as usize];
    std::fs::OpenOptions::new().append(true).open(&open).unwrap().write_all(half).unwrap();
    assert!(read_records(&open).is_err(), "the reader refuses a file with a partial record");
    assert_eq!(whole_prefix(&open).unwrap(), good);
    let mut w = WarcWriter::resume(&prefix, 1 << 30, info(), index, good).unwrap();
    w.write(&mut resource("gopher://h/0/b", b"second")).unwrap();
    let files = w.finish().unwrap();
    let records = read_records(&files[0]).unwrap();
    let targets: Vec<&str> = records.iter().map(|r| r.target()).collect();
    assert_eq!(targets, ["", "gopher://h/0/a", "gopher://h/0/b"]);
}

#[test]
fn a_wrong_digest_is_caught_by_the_reader() {
    let dir = tempfile::tempdir().unwrap();
    let mut w = WarcWriter::new(&dir.path().join("bad"), 1 << 30, info());
    let mut r = resource("gopher://h/0/a", b"abc");
    r.fields.push(("X-Note".into(), "tampered below".into()));
    w.write(&mut r).unwrap();
    let files = w.finish().unwrap();
    // Rewrite the member with a block that no longer matches its digest.
    let records = read_records(&files[0]).unwrap();
    let mut head = String::new();
    head.push_str("WARC/1.1\r\n");
    for (n, v) in &records[1].fields {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    head.push_str("\r\nabd\r\n\r\n");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(head.as_bytes()).unwrap();
    let forged = dir.path().join("forged.warc.gz");
    std::fs::write(&forged, gz.finish().unwrap()).unwrap();
    let err = read_records(&forged).unwrap_err();
    assert!(err.reason.contains("WARC-Block-Digest"), "{err}");
}

#[test]
fn a_damaged_file_is_an_error_with_an_offset_never_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let mut w = WarcWriter::new(&dir.path().join("d"), 1 << 30, info());
    for i in 0..3 {
        w.write(&mut resource(&format!("gopher://h/0/{i}"), format!("body {i}").as_bytes())).unwrap();
    }
    let good = std::fs::read(&w.finish().unwrap()[0]).unwrap();
    let path = dir.path().join("damaged.warc.gz");
    // A cut at every 3rd offset, and a flipped byte at every 7th.
    let mut cases: Vec<Vec<u8>> = (0..good.len()).step_by(3).map(|n| good[..n].to_vec()).collect();
    for at in (0..good.len()).step_by(7) {
        let mut b = good.clone();
        b[at] ^= 0x5a;
        cases.push(b);
    }
    for bytes in cases {
        std::fs::write(&path, &bytes).unwrap();
        if let Err(e) = read_records(&path) {
            assert!(e.offset < bytes.len() as u64, "{e}");
        }
        let whole = whole_prefix(&path).unwrap();
        assert!(whole <= bytes.len() as u64);
        let _ = rfc1738_warc::read_heads(&path);
    }
}

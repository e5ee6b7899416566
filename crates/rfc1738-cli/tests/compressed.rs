//! Compressed input (issue 50): gzip (one member or several), zstd, bzip2
//! and xz, told by their first bytes, read as the text they hold by every
//! subcommand that reads lines; a truncated or corrupt stream gives its
//! lines before the fault, then one error naming the file, the format and
//! the compressed byte, exit 2, and the next file is read.

use assert_cmd::Command;
use std::io::Write;
use std::path::{Path, PathBuf};

struct Run {
    code: i32,
    out: String,
    err: String,
}

fn run(args: &[&str], stdin: &[u8]) -> Run {
    let o = Command::cargo_bin("rfc1738").unwrap().args(args).write_stdin(stdin.to_vec()).output().unwrap();
    Run {
        code: o.status.code().unwrap_or(-1),
        out: String::from_utf8_lossy(&o.stdout).into_owned(),
        err: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

const URLS: &str = "http://a.dom/\nhttp://b.dom/ x\nftp://c.dom/f\nnews:comp.lang.c\n";

fn gzip(text: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(text).unwrap();
    e.finish().unwrap()
}

fn zstd(text: &[u8]) -> Vec<u8> {
    zstd::stream::encode_all(text, 3).unwrap()
}

fn bzip2(text: &[u8]) -> Vec<u8> {
    let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    e.write_all(text).unwrap();
    e.finish().unwrap()
}

fn xz(text: &[u8]) -> Vec<u8> {
    let mut e = liblzma::write::XzEncoder::new(Vec::new(), 6);
    e.write_all(text).unwrap();
    e.finish().unwrap()
}

type Compress = fn(&[u8]) -> Vec<u8>;
const KINDS: [(&str, Compress); 4] = [("gzip", gzip), ("zstd", zstd), ("bzip2", bzip2), ("xz", xz)];

/// A fresh directory under the target directory for one test's files.
fn dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("compressed").join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn each_kind_is_read_as_its_text_from_a_file_and_from_stdin() {
    let d = dir("kinds");
    let plain = write(&d, "urls.txt", URLS.as_bytes());
    let want = run(&["check", "--keep-lines", &plain], b"");
    assert_eq!(want.code, 1);
    for (name, compress) in KINDS {
        // The name says nothing: the first bytes do.
        let file = write(&d, &format!("urls.{name}.data"), &compress(URLS.as_bytes()));
        let got = run(&["check", "--keep-lines", &file], b"");
        assert_eq!(got.out.replace(&file, "F"), want.out.replace(&plain, "F"), "{name}");
        assert_eq!(
            (got.code, got.err.lines().next()),
            (1, Some("checked 4 URLs: 3 valid, 1 invalid")),
            "{name}"
        );
        let piped = run(&["check", "--keep-lines", "-"], &compress(URLS.as_bytes()));
        assert_eq!(piped.out.replace("<stdin>", "F"), want.out.replace(&plain, "F"), "{name} on stdin");
    }
}

#[test]
fn every_line_reading_subcommand_reads_compressed_stdin() {
    let gz = gzip(b"http://a.dom/b/../c\n");
    for (args, want) in [
        (&["parse", "--json"][..], "\"scheme\":\"http\""),
        (&["normalize"][..], "http://a.dom/b/../c"),
        (&["resolve", "http://x.dom/"][..], "http://a.dom/b/../c"),
        (&["set", "-", "port=81"][..], "http://a.dom:81/b/../c"),
        (&["extract"][..], "http://a.dom/b/../c"),
        (&["lint", "-"][..], ""),
        (&["check", "-"][..], "checked 1 URLs: 1 valid, 0 invalid"),
    ] {
        let r = run(args, &gz);
        assert!(r.out.contains(want), "{args:?}: {}{}", r.out, r.err);
        assert_eq!(r.code, 0, "{args:?}: {}", r.err);
    }
    // lint finds the password of a compressed line.
    let r = run(&["lint", "-"], &gzip(b"ftp://u:secret@h.dom/\n"));
    assert_eq!(r.code, 1, "{}", r.err);
}

#[test]
fn a_gzip_of_several_members_is_read_whole() {
    // `cat a.gz b.gz`, as bgzip and log rotation make them.
    let mut joined = gzip(b"http://a.dom/\nhttp://b.dom/\n");
    joined.extend(gzip(b"http://c.dom/\n"));
    joined.extend(gzip(b""));
    joined.extend(gzip(b"http://d.dom/ bad\n"));
    let r = run(&["check", "-"], &joined);
    assert!(r.out.starts_with("rfc1738: <stdin>:4:14: "), "{}", r.out);
    assert!(r.out.contains("checked 4 URLs: 3 valid, 1 invalid"), "{}", r.out);
    // zstd frames and xz streams joined too.
    for (name, compress) in KINDS {
        let mut joined = compress(b"http://a.dom/\n");
        joined.extend(compress(b"http://b.dom/\n"));
        let r = run(&["check", "-"], &joined);
        assert!(r.out.contains("checked 2 URLs: 2 valid"), "{name}: {}{}", r.out, r.err);
    }
}

#[test]
fn a_truncated_stream_gives_its_lines_then_one_error_and_the_next_file_is_read() {
    let d = dir("truncated");
    let text: String = (0..20000).map(|i| format!("http://h{i}.dom/p\n")).collect();
    for (name, compress) in KINDS {
        let whole = compress(text.as_bytes());
        let cut = write(&d, &format!("cut.{name}"), &whole[..whole.len() * 3 / 4]);
        let next = write(&d, &format!("next.{name}"), &compress(b"http://next.dom/\n"));
        let r = run(&["check", "--quiet", &cut, &next], b"");
        assert_eq!(r.code, 2, "{name}: {}", r.err);
        let errors: Vec<&str> = r.err.lines().collect();
        assert_eq!(errors.len(), 1, "{name}: {}", r.err);
        let e = errors[0];
        assert!(e.starts_with(&format!("rfc1738: {cut}: {name} data ")), "{e}");
        assert!(e.contains("compressed byte "), "{e}");
        // The lines before the fault are checked and counted, and the next
        // file's line too.
        let checked: u64 = r.out.split_whitespace().nth(1).unwrap().parse().unwrap();
        assert!(checked > 1 && checked < 20001, "{name}: {}", r.out);
        assert!(r.out.contains(&format!("checked {checked} URLs: {checked} valid, 0 invalid")), "{}", r.out);
    }
    // The gzip error says the stream ended early, at the file's length.
    let whole = gzip(text.as_bytes());
    let cut = write(&d, "early.gz", &whole[..whole.len() - 4]);
    let r = run(&["check", "--quiet", &cut], b"");
    let at = whole.len() - 4;
    assert!(
        r.err.contains(&format!("gzip data ends early at compressed byte {at} (a truncated file?)")),
        "{}",
        r.err
    );
    assert!(r.out.contains("checked 20000 URLs"), "{}", r.out);
}

#[test]
fn a_corrupt_stream_names_the_format_and_the_byte() {
    let text: String = (0..2000).map(|i| format!("http://h{i}.dom/p\n")).collect();
    let mut bad = gzip(text.as_bytes());
    let mid = bad.len() / 2;
    for b in &mut bad[mid..mid + 16] {
        *b ^= 0x55;
    }
    let r = run(&["check", "--quiet", "-"], &bad);
    assert_eq!(r.code, 2);
    assert!(r.err.starts_with("rfc1738: <stdin>: gzip data corrupt near compressed byte "), "{}", r.err);
    // lint (one line at a time) says the same and keeps what it read.
    let r = run(&["lint", "-"], &bad);
    assert_eq!(r.code, 2);
    assert!(r.err.contains("gzip data corrupt near compressed byte "), "{}", r.err);
}

#[test]
fn never_reads_the_bytes_as_they_are_and_text_is_untouched() {
    let gz = gzip(URLS.as_bytes());
    let r = run(&["check", "--decompress", "never", "--quiet", "-"], &gz);
    assert!(r.out.contains("0 valid"), "{}", r.out);
    // Text that starts like a magic, and a short stdin, stay text.
    for text in [&b"BZh9 http://a.dom/\n"[..], b"\x1f", b"B", b""] {
        let r = run(&["check", "--quiet", "-"], text);
        assert!(!r.err.contains("data"), "{text:?}: {}", r.err);
    }
}

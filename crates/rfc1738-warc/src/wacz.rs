//! WACZ 1.1.1: the WARC files of a run, their index and their pages in
//! one zip file, with a `datapackage.json` that names each file's SHA-256.
//!
//! ```text
//! archive/NAME-00000.warc.gz    stored as they are (a WARC file is gzip already)
//! indexes/index.cdxj            the CDXJ index (crate::cdxj)
//! pages/pages.jsonl             the seeds archived: where a replay starts
//! datapackage.json              every file above: path, sha256, bytes
//! datapackage-digest.json       the sha256 of datapackage.json
//! ```
//!
//! The zip is written here (every entry stored, ZIP64 fields where a size
//! or an offset passes 4 GiB): the format is small, and a zip crate would
//! bring compressors it never uses.

use crate::cdxj;
use crate::digest::warc_date;
use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// One page of `pages.jsonl`: a URL archived, and when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// The URL.
    pub url: String,
    /// Its `WARC-Date`.
    pub date: String,
}

/// One entry of the zip, as the central directory names it.
struct Entry {
    name: String,
    crc: u32,
    size: u64,
    offset: u64,
}

/// A zip being written: every entry stored.
struct Zip<W: Write + Seek> {
    out: W,
    entries: Vec<Entry>,
}

/// DOS time and date of 1980-01-01 00:00: entries carry no time of their
/// own (the WARC records have theirs), so a WACZ of the same files is
/// the same bytes.
const DOS_TIME: u16 = 0;
const DOS_DATE: u16 = (1 << 5) | 1;
const MAX32: u64 = 0xFFFF_FFFF;

impl<W: Write + Seek> Zip<W> {
    /// Adds `name` with the bytes `src` gives, `size` of them, whose CRC-32
    /// is `crc` (read before: the local header comes first).
    fn add(&mut self, name: &str, src: &mut dyn Read, size: u64, crc: u32) -> io::Result<()> {
        let offset = self.out.stream_position()?;
        let big = size >= MAX32;
        let mut h = Vec::with_capacity(64);
        h.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        h.extend_from_slice(&(if big { 45u16 } else { 20 }).to_le_bytes());
        h.extend_from_slice(&0x0800u16.to_le_bytes()); // UTF-8 names
        h.extend_from_slice(&0u16.to_le_bytes()); // stored
        h.extend_from_slice(&DOS_TIME.to_le_bytes());
        h.extend_from_slice(&DOS_DATE.to_le_bytes());
        h.extend_from_slice(&crc.to_le_bytes());
        let small = if big { MAX32 as u32 } else { size as u32 };
        h.extend_from_slice(&small.to_le_bytes());
        h.extend_from_slice(&small.to_le_bytes());
        h.extend_from_slice(&(name.len() as u16).to_le_bytes());
        h.extend_from_slice(&(if big { 20u16 } else { 0 }).to_le_bytes());
        h.extend_from_slice(name.as_bytes());
        if big {
            h.extend_from_slice(&1u16.to_le_bytes());
            h.extend_from_slice(&16u16.to_le_bytes());
            h.extend_from_slice(&size.to_le_bytes());
            h.extend_from_slice(&size.to_le_bytes());
        }
        self.out.write_all(&h)?;
        let copied = io::copy(&mut src.take(size), &mut self.out)?;
        if copied != size {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!("{name}: the file shrank while it was added"),
            ));
        }
        self.entries.push(Entry { name: name.to_string(), crc, size, offset });
        Ok(())
    }

    /// The central directory and its end records.
    fn finish(mut self) -> io::Result<W> {
        let start = self.out.stream_position()?;
        for e in &self.entries {
            let (big_size, big_offset) = (e.size >= MAX32, e.offset >= MAX32);
            let mut extra = Vec::new();
            if big_size {
                extra.extend_from_slice(&e.size.to_le_bytes());
                extra.extend_from_slice(&e.size.to_le_bytes());
            }
            if big_offset {
                extra.extend_from_slice(&e.offset.to_le_bytes());
            }
            let mut h = Vec::with_capacity(64);
            h.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
            let version: u16 = if extra.is_empty() { 20 } else { 45 };
            h.extend_from_slice(&(0x0300 | version).to_le_bytes()); // made by: unix
            h.extend_from_slice(&version.to_le_bytes());
            h.extend_from_slice(&0x0800u16.to_le_bytes());
            h.extend_from_slice(&0u16.to_le_bytes());
            h.extend_from_slice(&DOS_TIME.to_le_bytes());
            h.extend_from_slice(&DOS_DATE.to_le_bytes());
            h.extend_from_slice(&e.crc.to_le_bytes());
            let small = if big_size { MAX32 as u32 } else { e.size as u32 };
            h.extend_from_slice(&small.to_le_bytes());
            h.extend_from_slice(&small.to_le_bytes());
            h.extend_from_slice(&(e.name.len() as u16).to_le_bytes());
            let extra_len = if extra.is_empty() { 0 } else { extra.len() + 4 };
            h.extend_from_slice(&(extra_len as u16).to_le_bytes());
            h.extend_from_slice(&0u16.to_le_bytes()); // comment
            h.extend_from_slice(&0u16.to_le_bytes()); // disk
            h.extend_from_slice(&0u16.to_le_bytes()); // internal attributes
            h.extend_from_slice(&(0o100_644u32 << 16).to_le_bytes()); // a regular file, rw-r--r--
            h.extend_from_slice(&(if big_offset { MAX32 as u32 } else { e.offset as u32 }).to_le_bytes());
            h.extend_from_slice(e.name.as_bytes());
            if !extra.is_empty() {
                h.extend_from_slice(&1u16.to_le_bytes());
                h.extend_from_slice(&(extra.len() as u16).to_le_bytes());
                h.extend_from_slice(&extra);
            }
            self.out.write_all(&h)?;
        }
        let end = self.out.stream_position()?;
        let (count, size) = (self.entries.len() as u64, end - start);
        if start >= MAX32 || count >= 0xFFFF {
            // ZIP64 end of central directory record, and its locator.
            let mut z = Vec::new();
            z.extend_from_slice(&0x0606_4b50u32.to_le_bytes());
            z.extend_from_slice(&44u64.to_le_bytes());
            z.extend_from_slice(&(0x0300u16 | 45).to_le_bytes());
            z.extend_from_slice(&45u16.to_le_bytes());
            z.extend_from_slice(&0u32.to_le_bytes());
            z.extend_from_slice(&0u32.to_le_bytes());
            z.extend_from_slice(&count.to_le_bytes());
            z.extend_from_slice(&count.to_le_bytes());
            z.extend_from_slice(&size.to_le_bytes());
            z.extend_from_slice(&start.to_le_bytes());
            z.extend_from_slice(&0x0706_4b50u32.to_le_bytes());
            z.extend_from_slice(&0u32.to_le_bytes());
            z.extend_from_slice(&end.to_le_bytes());
            z.extend_from_slice(&1u32.to_le_bytes());
            self.out.write_all(&z)?;
        }
        let mut e = Vec::new();
        e.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
        e.extend_from_slice(&0u16.to_le_bytes());
        e.extend_from_slice(&0u16.to_le_bytes());
        let count16 = count.min(0xFFFF) as u16;
        e.extend_from_slice(&count16.to_le_bytes());
        e.extend_from_slice(&count16.to_le_bytes());
        e.extend_from_slice(&(size.min(MAX32) as u32).to_le_bytes());
        e.extend_from_slice(&(start.min(MAX32) as u32).to_le_bytes());
        e.extend_from_slice(&0u16.to_le_bytes());
        self.out.write_all(&e)?;
        self.out.flush()?;
        Ok(self.out)
    }
}

/// The CRC-32, SHA-256 (hex) and length of what `src` gives.
fn sums(src: &mut dyn Read) -> io::Result<(u32, String, u64)> {
    use sha2::Digest as _;
    let mut crc = flate2::Crc::new();
    let mut sha = sha2::Sha256::new();
    let mut buf = vec![0u8; 64 << 10];
    let mut n = 0u64;
    loop {
        let got = src.read(&mut buf)?;
        if got == 0 {
            break;
        }
        crc.update(&buf[..got]);
        sha.update(&buf[..got]);
        n += got as u64;
    }
    Ok((crc.sum(), data_encoding::HEXLOWER.encode(&sha.finalize()), n))
}

/// Writes `path`, a WACZ of the WARC files `warcs`, their index and
/// `pages`: a temporary file beside it, renamed over it once complete.
///
/// # Errors
/// Reading the WARC files (one that is not WARC, with its offset),
/// writing or renaming the WACZ.
pub fn write_wacz(path: &Path, warcs: &[PathBuf], pages: &[Page], title: &str) -> io::Result<()> {
    let index = cdxj::index(warcs).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
    let index_text: String = index.iter().map(|l| format!("{l}\n")).collect();
    let mut pages_text =
        String::from("{\"format\": \"json-pages-1.0\", \"id\": \"pages\", \"title\": \"All Pages\"}\n");
    for (i, p) in pages.iter().enumerate() {
        pages_text.push_str(&format!(
            "{{\"id\": \"page-{i}\", \"url\": {}, \"ts\": {}, \"title\": {}}}\n",
            cdxj::json(&p.url),
            cdxj::json(&p.date),
            cdxj::json(&p.url)
        ));
    }
    let tmp = cdxj::beside(path)?;
    let mut zip = Zip { out: BufWriter::new(tmp.reopen()?), entries: Vec::new() };
    // What datapackage.json lists: path, SHA-256, bytes.
    let mut resources: Vec<(String, String, u64)> = Vec::new();
    for w in warcs {
        let name = format!(
            "archive/{}",
            w.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
        );
        let (crc, sha, n) = sums(&mut File::open(w)?)?;
        zip.add(&name, &mut File::open(w)?, n, crc)?;
        resources.push((name, sha, n));
    }
    for (name, bytes) in
        [("indexes/index.cdxj", index_text.as_bytes()), ("pages/pages.jsonl", pages_text.as_bytes())]
    {
        let (crc, sha, n) = sums(&mut &bytes[..])?;
        zip.add(name, &mut &bytes[..], n, crc)?;
        resources.push((name.to_string(), sha, n));
    }
    let listed: Vec<String> = resources
        .iter()
        .map(|(name, sha, n)| {
            let short = name.rsplit('/').next().unwrap_or(name);
            format!(
                "{{\"name\": {}, \"path\": {}, \"hash\": \"sha256:{sha}\", \"bytes\": {n}}}",
                cdxj::json(short),
                cdxj::json(name)
            )
        })
        .collect();
    let package = format!(
        "{{\"profile\": \"data-package\", \"resources\": [{}], \"wacz_version\": \"1.1.1\", \"software\": {}, \"created\": {}, \"title\": {}}}\n",
        listed.join(", "),
        cdxj::json(&format!("rfc1738-mirror/{}", env!("CARGO_PKG_VERSION"))),
        cdxj::json(&warc_date(SystemTime::now())),
        cdxj::json(title)
    );
    let (crc, sha, n) = sums(&mut package.as_bytes())?;
    zip.add("datapackage.json", &mut package.as_bytes(), n, crc)?;
    let digest = format!("{{\"path\": \"datapackage.json\", \"hash\": \"sha256:{sha}\"}}\n");
    let (crc, _, n) = sums(&mut digest.as_bytes())?;
    zip.add("datapackage-digest.json", &mut digest.as_bytes(), n, crc)?;
    let out = zip.finish()?;
    out.get_ref().sync_all()?;
    drop(out);
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

//! Reading WARC files back: the records of a `.warc.gz` file of one gzip
//! member per record, each checked against its own digests. The tests
//! read every file a run writes with it, and a resume finds with it where
//! the last whole record ends.

use crate::digest::sha1;
use flate2::bufread::GzDecoder;
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek};
use std::path::Path;

/// A record read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadRecord {
    /// The offset of its gzip member in the file.
    pub offset: u64,
    /// The length of the member.
    pub length: u64,
    /// The named fields, in order.
    pub fields: Vec<(String, String)>,
    /// The block.
    pub block: Vec<u8>,
}

impl ReadRecord {
    /// The first value of the field `name` (names have no case, §4).
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&str> {
        self.fields.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// `WARC-Type`.
    #[must_use]
    pub fn kind(&self) -> &str {
        self.get("WARC-Type").unwrap_or("")
    }

    /// `WARC-Target-URI`.
    #[must_use]
    pub fn target(&self) -> &str {
        self.get("WARC-Target-URI").unwrap_or("")
    }

    /// The payload: the block, or for an http response what follows its head.
    #[must_use]
    pub fn payload(&self) -> &[u8] {
        if self.kind() == "response" {
            if let Some(at) = self.block.windows(4).position(|w| w == b"\r\n\r\n") {
                return &self.block[at + 4..];
            }
        }
        &self.block
    }
}

/// Why a file could not be read as WARC.
#[derive(Debug)]
pub struct ReadError {
    /// The offset of the member where it went wrong.
    pub offset: u64,
    /// What was wrong.
    pub reason: String,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at offset {}: {}", self.offset, self.reason)
    }
}

impl std::error::Error for ReadError {}

/// Every record of `path`, each checked: its version line, its
/// `Content-Length`, the `CRLF CRLF` after the block, and its
/// `WARC-Block-Digest` and `WARC-Payload-Digest` when present.
///
/// # Errors
/// The first record that fails a check, with its offset.
pub fn read_records(path: &Path) -> Result<Vec<ReadRecord>, ReadError> {
    let at0 = |e: io::Error| ReadError { offset: 0, reason: e.to_string() };
    let mut r = BufReader::new(File::open(path).map_err(at0)?);
    let mut out = Vec::new();
    loop {
        let offset = r.stream_position().map_err(at0)?;
        if r.fill_buf().map_err(at0)?.is_empty() {
            return Ok(out);
        }
        let fail = |reason: String| ReadError { offset, reason };
        let mut member = Vec::new();
        GzDecoder::new(&mut r).read_to_end(&mut member).map_err(|e| fail(format!("gzip: {e}")))?;
        let end = r.stream_position().map_err(at0)?;
        let record = parse(&member, offset, end - offset).map_err(fail)?;
        out.push(record);
    }
}

/// A record's fields and the start of its block, read without keeping
/// the block: what an index needs of each record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    /// The offset of its gzip member in the file.
    pub offset: u64,
    /// The length of the member.
    pub length: u64,
    /// The named fields, in order.
    pub fields: Vec<(String, String)>,
    /// The first octets of the block, at most 64 KiB (an http head).
    pub start: Vec<u8>,
}

impl Head {
    /// The first value of the field `name`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&str> {
        self.fields.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// The heads of every record of `path`, each block read through and
/// dropped (digests are not checked: [`read_records`] does).
///
/// # Errors
/// A member that is not gzip or not a WARC/1.1 record, with its offset.
pub fn read_heads(path: &Path) -> Result<Vec<Head>, ReadError> {
    let at0 = |e: io::Error| ReadError { offset: 0, reason: e.to_string() };
    let mut r = BufReader::new(File::open(path).map_err(at0)?);
    let mut out = Vec::new();
    loop {
        let offset = r.stream_position().map_err(at0)?;
        if r.fill_buf().map_err(at0)?.is_empty() {
            return Ok(out);
        }
        let fail = |reason: String| ReadError { offset, reason };
        let mut gz = BufReader::new(GzDecoder::new(&mut r));
        let mut head = Vec::new();
        loop {
            let n = gz.read_until(b'\n', &mut head).map_err(|e| fail(format!("gzip: {e}")))?;
            if n == 0 || head.ends_with(b"\r\n\r\n") || head.len() > 1 << 20 {
                break;
            }
        }
        let mut start = Vec::new();
        (&mut gz).take(64 << 10).read_to_end(&mut start).map_err(|e| fail(format!("gzip: {e}")))?;
        io::copy(&mut gz, &mut io::sink()).map_err(|e| fail(format!("gzip: {e}")))?;
        drop(gz);
        let end = r.stream_position().map_err(at0)?;
        let text = String::from_utf8_lossy(&head);
        let mut lines = text.split("\r\n");
        if lines.next() != Some("WARC/1.1") {
            return Err(fail("the version line is not WARC/1.1".into()));
        }
        let fields = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(n, v)| (n.to_string(), v.trim().to_string()))
            .collect();
        out.push(Head { offset, length: end - offset, fields, start });
    }
}

/// The offset after the last whole, valid record of `path`: where a
/// resume cuts a file an interrupted run left.
///
/// # Errors
/// Opening the file.
pub fn whole_prefix(path: &Path) -> io::Result<u64> {
    let mut r = BufReader::new(File::open(path)?);
    let mut good = 0;
    loop {
        if r.fill_buf()?.is_empty() {
            return Ok(good);
        }
        let offset = r.stream_position()?;
        let mut member = Vec::new();
        if GzDecoder::new(&mut r).read_to_end(&mut member).is_err() {
            return Ok(good);
        }
        let end = r.stream_position()?;
        if parse(&member, offset, end - offset).is_err() {
            return Ok(good);
        }
        good = end;
    }
}

/// One record from its decompressed member.
fn parse(member: &[u8], offset: u64, length: u64) -> Result<ReadRecord, String> {
    let head_end =
        member.windows(4).position(|w| w == b"\r\n\r\n").ok_or("no empty line after the fields")?;
    let head = std::str::from_utf8(&member[..head_end]).map_err(|_| "fields that are not UTF-8")?;
    let mut lines = head.split("\r\n");
    if lines.next() != Some("WARC/1.1") {
        return Err("the version line is not WARC/1.1".into());
    }
    let fields: Vec<(String, String)> = lines
        .map(|l| l.split_once(':').map(|(n, v)| (n.to_string(), v.trim().to_string())).ok_or(l))
        .collect::<Result<_, _>>()
        .map_err(|l| format!("a field line without a colon: {l:?}"))?;
    let get = |name: &str| fields.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v);
    let len: usize = get("Content-Length").and_then(|v| v.parse().ok()).ok_or("no Content-Length")?;
    let body = &member[head_end + 4..];
    if body.len() != len + 4 || &body[len..] != b"\r\n\r\n" {
        return Err(format!("the block is not Content-Length ({len}) octets and CRLF CRLF"));
    }
    let record = ReadRecord { offset, length, block: body[..len].to_vec(), fields };
    if let Some(d) = record.get("WARC-Block-Digest") {
        if *d != sha1(&record.block) {
            return Err(format!("WARC-Block-Digest {d} is not the block's"));
        }
    }
    if let (Some(d), false) = (record.get("WARC-Payload-Digest"), record.kind() == "revisit") {
        if *d != sha1(record.payload()) {
            return Err(format!("WARC-Payload-Digest {d} is not the payload's"));
        }
    }
    Ok(record)
}

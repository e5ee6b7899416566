//! One WARC record (ISO 28500:2017, WARC/1.1): the version line, the
//! named fields, the block.
//!
//! ```text
//! WARC/1.1 CRLF
//! WARC-Type: resource CRLF            (§5.5)
//! WARC-Record-ID: <urn:uuid:...> CRLF (§5.2)
//! WARC-Date: 1994-12-18T00:00:00Z CRLF (§5.4)
//! ...fields...
//! WARC-Block-Digest: sha1:... CRLF    (§5.8)
//! Content-Length: N CRLF              (§5.3)
//! CRLF
//! block (N octets) CRLF CRLF
//! ```

use crate::digest::{record_id, warc_date};
use crate::spool::Spool;
use std::io;
use std::time::SystemTime;

/// `WARC-Type` (§5.5, §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordType {
    /// §6.2: what the following records are; first in every file.
    Warcinfo,
    /// §6.3: a complete scheme-specific response (http).
    Response,
    /// §6.4: a resource without the protocol's response (gopher, ftp, news).
    Resource,
    /// §6.5: the request as sent (http).
    Request,
    /// §6.6: what describes another record.
    Metadata,
    /// §6.7: a revisit of a content already archived.
    Revisit,
}

impl RecordType {
    /// The field value.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            RecordType::Warcinfo => "warcinfo",
            RecordType::Response => "response",
            RecordType::Resource => "resource",
            RecordType::Request => "request",
            RecordType::Metadata => "metadata",
            RecordType::Revisit => "revisit",
        }
    }
}

/// A record to write.
#[derive(Debug)]
pub struct Record {
    /// `WARC-Type`.
    pub kind: RecordType,
    /// `WARC-Record-ID`, with its angle brackets.
    pub id: String,
    /// `WARC-Date`.
    pub date: String,
    /// Named fields after the type, id and date, in order.
    pub fields: Vec<(String, String)>,
    /// The block.
    pub block: Spool,
    /// Where the payload starts in the block (§5.9), when the record has
    /// one: 0 for a resource, after the head for an http response.
    pub payload_from: Option<u64>,
}

impl Record {
    /// A record of `kind` made now, with a new id.
    #[must_use]
    pub fn new(kind: RecordType) -> Record {
        Record {
            kind,
            id: record_id(),
            date: warc_date(SystemTime::now()),
            fields: Vec::new(),
            block: Spool::new(),
            payload_from: None,
        }
    }

    /// Adds a named field. A CR, LF or other control character in the
    /// value (a server's text) becomes a space: a field is one line.
    #[must_use]
    pub fn field(mut self, name: &str, value: &str) -> Record {
        let clean: String = value.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
        self.fields.push((name.to_string(), clean));
        self
    }

    /// The block.
    #[must_use]
    pub fn block(mut self, block: Spool) -> Record {
        self.block = block;
        self
    }

    /// The value of a field added with [`Record::field`].
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&str> {
        self.fields.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// The payload digest (§5.9), when the record has a payload.
    ///
    /// # Errors
    /// Reading a spooled block back.
    pub fn payload_digest(&mut self) -> io::Result<Option<String>> {
        match self.payload_from {
            None => Ok(None),
            Some(0) => Ok(Some(self.block.digest())),
            Some(at) => self.block.digest_from(at).map(Some),
        }
    }

    /// The version line and the fields, up to the empty line.
    ///
    /// # Errors
    /// Reading a spooled block back for its payload digest.
    pub fn head(&mut self) -> io::Result<Vec<u8>> {
        let mut h = String::from("WARC/1.1\r\n");
        h.push_str(&format!("WARC-Type: {}\r\n", self.kind.as_str()));
        h.push_str(&format!("WARC-Record-ID: {}\r\n", self.id));
        h.push_str(&format!("WARC-Date: {}\r\n", self.date));
        for (n, v) in &self.fields {
            h.push_str(&format!("{n}: {v}\r\n"));
        }
        if !self.block.is_empty() {
            h.push_str(&format!("WARC-Block-Digest: {}\r\n", self.block.digest()));
        }
        if let Some(p) = self.payload_digest()? {
            h.push_str(&format!("WARC-Payload-Digest: {p}\r\n"));
        }
        h.push_str(&format!("Content-Length: {}\r\n\r\n", self.block.len()));
        Ok(h.into_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_head_names_length_and_digests() {
        let mut r = Record::new(RecordType::Resource)
            .field("WARC-Target-URI", "gopher://h/0/a")
            .field("Content-Type", "text/plain")
            .block(Spool::of(b"abc"));
        r.payload_from = Some(0);
        let head = String::from_utf8(r.head().unwrap()).unwrap();
        assert!(head.starts_with("WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:uuid:"), "{head}");
        assert!(
            head.contains("\r\nWARC-Target-URI: gopher://h/0/a\r\nContent-Type: text/plain\r\n"),
            "{head}"
        );
        assert!(head.contains("WARC-Block-Digest: sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5\r\n"), "{head}");
        assert!(head.contains("WARC-Payload-Digest: sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5\r\n"), "{head}");
        assert!(head.ends_with("Content-Length: 3\r\n\r\n"), "{head}");
    }

    #[test]
    fn a_field_is_one_line_whatever_a_server_sent() {
        let r = Record::new(RecordType::Metadata).field("via", "a\r\nWARC-Type: x");
        assert_eq!(r.get("via"), Some("a  WARC-Type: x"));
    }
}

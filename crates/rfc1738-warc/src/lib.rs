//! Archive what RFC 1738 URLs locate into WARC/1.1 files (ISO 28500:2017).
//!
//! `rfc1738 mirror` is built on this crate. It reaches each URL with the
//! `rfc1738-access` crate (its §6 refusals, its limits, its one `CWD` per
//! ftp segment) and writes what came back as WARC records: gopher items
//! and menus, ftp files, listings and control conversations. The
//! conventions, the gopher one above all, are in `docs/WARC.md`.
//!
//! The writer is the project's own: the format is small, and one gzip
//! member per record with SHA-1 digests in base32 is all it needs.
//!
//! # Examples
//! ```
//! use rfc1738_warc::{read_records, Record, RecordType, Spool, WarcWriter};
//! let dir = tempfile::tempdir()?;
//! let mut w = WarcWriter::new(&dir.path().join("crawl"), 1 << 30, vec![("software".into(), "doc".into())]);
//! let mut r = Record::new(RecordType::Resource)
//!     .field("WARC-Target-URI", "gopher://h.example/0/a")
//!     .field("Content-Type", "text/plain")
//!     .block(Spool::of(b"abc"));
//! r.payload_from = Some(0);
//! w.write(&mut r)?;
//! let files = w.finish()?;
//! let records = read_records(&files[0])?;
//! assert_eq!(records[0].kind(), "warcinfo");
//! assert_eq!(records[1].get("WARC-Payload-Digest"), Some("sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]

mod capture;
mod cdxj;
mod crawl;
mod digest;
mod html;
mod journal;
mod reader;
mod record;
mod robots;
mod scope;
mod spool;
mod wacz;
mod writer;

pub use cdxj::{cdxj_key, index as cdxj_index, read_index as read_cdxj, write_index as write_cdxj};
pub use crawl::{plan_frontier, Config, Crawl, Progress, Queued, Summary};
pub use digest::{record_id, sha1, timestamp14, warc_date, Sha1Digest};
pub use journal::{Journal, Resumed};
pub use reader::{read_heads, read_records, whole_prefix, Head, ReadError, ReadRecord};
pub use record::{Record, RecordType};
pub use scope::Scope;
pub use spool::Spool;
pub use wacz::{write_wacz, Page};
pub use writer::{WarcWriter, Written};

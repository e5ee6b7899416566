//! WARC files: `NAME-00000.warc.gz`, `NAME-00001.warc.gz`, ... each a
//! `warcinfo` record first, then one gzip member per record (ISO 28500
//! Annex D), the next file begun once one passes the size limit.
//!
//! A file being written is named `NAME-00000.warc.gz.open` (Heritrix's
//! convention) and takes its name when it is closed: a file without
//! `.open` is complete. Each record is flushed whole, so a killed run
//! leaves whole records and at most one partial member at the end, which
//! [`crate::reader::whole_prefix`] finds and a resume cuts off.

use crate::record::{Record, RecordType};
use crate::spool::Spool;
use flate2::write::GzEncoder;
use flate2::Compression;
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Read, Seek, Write};
use std::path::{Path, PathBuf};

/// Where a record went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// The file's final name (without `.open`), without its directory.
    pub file: String,
    /// The offset of the record's gzip member.
    pub offset: u64,
    /// The length of the member.
    pub length: u64,
}

/// Writes records into rolling gzip WARC files.
#[derive(Debug)]
pub struct WarcWriter {
    prefix: PathBuf,
    max_size: u64,
    info: Vec<(String, String)>,
    index: u32,
    out: Option<BufWriter<File>>,
    offset: u64,
    closed: Vec<PathBuf>,
}

impl WarcWriter {
    /// A writer of `PREFIX-00000.warc.gz` and the next ones; `info` are
    /// the fields of each file's `warcinfo` record (`software`, ...).
    /// Nothing is written until the first record, and a file that exists
    /// is refused then.
    #[must_use]
    pub fn new(prefix: &Path, max_size: u64, info: Vec<(String, String)>) -> WarcWriter {
        WarcWriter {
            prefix: prefix.to_path_buf(),
            max_size,
            info,
            index: 0,
            out: None,
            offset: 0,
            closed: Vec::new(),
        }
    }

    /// Continues file `index` of an interrupted run at `offset`, the end
    /// of its last whole record: whatever follows is cut off.
    ///
    /// # Errors
    /// Opening or truncating the `.open` file.
    pub fn resume(
        prefix: &Path,
        max_size: u64,
        info: Vec<(String, String)>,
        index: u32,
        offset: u64,
    ) -> io::Result<WarcWriter> {
        let mut w = WarcWriter::new(prefix, max_size, info);
        w.index = index;
        let path = w.open_path(index);
        let mut f = OpenOptions::new().write(true).open(&path)?;
        f.set_len(offset)?;
        f.seek(io::SeekFrom::Start(offset))?;
        w.out = Some(BufWriter::new(f));
        w.offset = offset;
        Ok(w)
    }

    /// Refuses, before anything is written, a name whose first file
    /// exists (complete or `.open`): a new run never overwrites one.
    ///
    /// # Errors
    /// `AlreadyExists`, naming the file.
    pub fn check_new(&self) -> io::Result<()> {
        for p in [self.path(0), self.open_path(0)] {
            if p.exists() {
                return Err(io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    format!("{} exists; choose another name, remove it, or go on with --resume", p.display()),
                ));
            }
        }
        Ok(())
    }

    /// Continues the files of an interrupted run from its journal's last
    /// position: the `.open` file cut there, or, when that file was
    /// already complete, the next one begun anew (a `.open` file there
    /// held only records of URLs not done, which the run captures again).
    /// With no position, nothing was done: the first file begins anew.
    ///
    /// # Errors
    /// Opening, truncating or removing the files.
    pub fn continue_run(
        prefix: &Path,
        max_size: u64,
        info: Vec<(String, String)>,
        position: Option<(u32, u64)>,
    ) -> io::Result<WarcWriter> {
        let probe = WarcWriter::new(prefix, max_size, info.clone());
        let (index, offset) = match position {
            Some((i, o)) if probe.open_path(i).exists() => {
                return WarcWriter::resume(prefix, max_size, info, i, o)
            }
            Some((i, _)) => (i + 1, 0),
            None => (0, 0),
        };
        let stale = probe.open_path(index);
        if stale.exists() {
            std::fs::remove_file(&stale)?;
        }
        let mut w = WarcWriter::new(prefix, max_size, info);
        w.index = index;
        w.offset = offset;
        Ok(w)
    }

    /// The final name of file `index`.
    #[must_use]
    pub fn path(&self, index: u32) -> PathBuf {
        let name = self.prefix.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        self.prefix.with_file_name(format!("{name}-{index:05}.warc.gz"))
    }

    /// The name of file `index` while it is written.
    #[must_use]
    pub fn open_path(&self, index: u32) -> PathBuf {
        let mut p = self.path(index).into_os_string();
        p.push(".open");
        PathBuf::from(p)
    }

    /// The index of the file being written and the offset after its last
    /// record: what a journal keeps for a resume.
    #[must_use]
    pub fn position(&self) -> (u32, u64) {
        (self.index, self.offset)
    }

    /// Writes `record` whole (one gzip member) and flushes it.
    ///
    /// # Errors
    /// Creating a file (one that exists is refused), writing, reading a
    /// spooled block.
    pub fn write(&mut self, record: &mut Record) -> io::Result<Written> {
        if self.out.is_some() && self.offset >= self.max_size {
            self.close_current()?;
            self.index += 1;
        }
        if self.out.is_none() {
            self.begin()?;
        }
        self.member(record)
    }

    /// Closes the last file; the paths of every file written.
    ///
    /// # Errors
    /// Flushing or renaming.
    pub fn finish(mut self) -> io::Result<Vec<PathBuf>> {
        self.close_current()?;
        Ok(std::mem::take(&mut self.closed))
    }

    fn begin(&mut self) -> io::Result<()> {
        let (done, open) = (self.path(self.index), self.open_path(self.index));
        if done.exists() {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{} exists; choose another name or remove it", done.display()),
            ));
        }
        // `create_new`: a file there (another run's) is never overwritten.
        let f = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&open)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", open.display())))?;
        self.out = Some(BufWriter::new(f));
        self.offset = 0;
        let mut info = Record::new(RecordType::Warcinfo)
            .field("WARC-Filename", &file_name(&done))
            .field("Content-Type", "application/warc-fields");
        let body: String = self.info.iter().map(|(n, v)| format!("{n}: {v}\r\n")).collect();
        info.block = Spool::of(body.as_bytes());
        self.member(&mut info)?;
        Ok(())
    }

    fn member(&mut self, record: &mut Record) -> io::Result<Written> {
        let out = self.out.as_mut().ok_or_else(|| io::Error::other("no file open"))?;
        let head = record.head()?;
        let mut gz = GzEncoder::new(Vec::new(), Compression::default());
        gz.write_all(&head)?;
        let mut total = self.offset;
        let start = self.offset;
        // The block is compressed as it is read: a large one never sits
        // whole in memory.
        let mut src = record.block.reader()?;
        let mut buf = vec![0u8; 64 << 10];
        loop {
            let n = src.read(&mut buf)?;
            if n == 0 {
                break;
            }
            gz.write_all(&buf[..n])?;
            let done = std::mem::take(gz.get_mut());
            out.write_all(&done)?;
            total += done.len() as u64;
        }
        gz.write_all(b"\r\n\r\n")?;
        let done = gz.finish()?;
        out.write_all(&done)?;
        out.flush()?;
        total += done.len() as u64;
        self.offset = total;
        Ok(Written { file: file_name(&self.path(self.index)), offset: start, length: total - start })
    }

    fn close_current(&mut self) -> io::Result<()> {
        if let Some(mut out) = self.out.take() {
            out.flush()?;
            out.get_ref().sync_all()?;
            let (open, done) = (self.open_path(self.index), self.path(self.index));
            std::fs::rename(&open, &done)?;
            self.closed.push(done);
        }
        Ok(())
    }
}

fn file_name(p: &Path) -> String {
    p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

//! A record's block while it is received: in memory while small, in a
//! temporary file past that, with its digest computed as the bytes come.
//! A record's header names the block's length and digest, so the block
//! is complete before the record is written.

use crate::digest::Sha1Digest;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};

/// Blocks up to this size stay in memory.
const IN_MEMORY: usize = 8 << 20;

/// Bytes received for one block.
#[derive(Debug, Default)]
pub struct Spool {
    memory: Vec<u8>,
    file: Option<File>,
    len: u64,
    digest: Sha1Digest,
}

impl Spool {
    /// An empty spool.
    #[must_use]
    pub fn new() -> Spool {
        Spool::default()
    }

    /// A spool holding `bytes`.
    #[must_use]
    pub fn of(bytes: &[u8]) -> Spool {
        let mut s = Spool::new();
        s.memory.extend_from_slice(bytes);
        s.len = bytes.len() as u64;
        s.digest.update(bytes);
        s
    }

    /// Octets held.
    #[must_use]
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether nothing is held.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The digest of everything held (`sha1:...`).
    #[must_use]
    pub fn digest(&self) -> String {
        self.digest.clone().finish()
    }

    /// The digest of the octets from `offset` on (an http payload after
    /// its head).
    ///
    /// # Errors
    /// Reading the temporary file back.
    pub fn digest_from(&mut self, offset: u64) -> io::Result<String> {
        let mut d = Sha1Digest::default();
        let mut r = self.reader()?;
        io::copy(&mut r.by_ref().take(offset), &mut io::sink())?;
        let mut buf = vec![0u8; 64 << 10];
        loop {
            match r.read(&mut buf)? {
                0 => return Ok(d.finish()),
                n => d.update(&buf[..n]),
            }
        }
    }

    /// Everything held, read into memory; at most `limit` octets.
    ///
    /// # Errors
    /// Reading the temporary file back.
    pub fn to_vec(&mut self, limit: u64) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        self.reader()?.take(limit).read_to_end(&mut out)?;
        Ok(out)
    }

    /// The bytes from the start.
    ///
    /// # Errors
    /// Rewinding the temporary file.
    pub fn reader(&mut self) -> io::Result<Box<dyn Read + '_>> {
        match &mut self.file {
            None => Ok(Box::new(self.memory.as_slice())),
            Some(f) => {
                f.flush()?;
                f.seek(SeekFrom::Start(0))?;
                Ok(Box::new(io::BufReader::new(f)))
            }
        }
    }
}

impl Write for Spool {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.file.is_none() && self.memory.len() + buf.len() > IN_MEMORY {
            let mut f = tempfile::tempfile()?;
            f.write_all(&self.memory)?;
            self.memory = Vec::new();
            self.file = Some(f);
        }
        match &mut self.file {
            Some(f) => {
                f.seek(SeekFrom::End(0))?;
                f.write_all(buf)?;
            }
            None => self.memory.extend_from_slice(buf),
        }
        self.len += buf.len() as u64;
        self.digest.update(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_block_goes_to_a_file_and_reads_back_whole() {
        let mut s = Spool::new();
        let chunk = vec![7u8; 1 << 20];
        for _ in 0..9 {
            s.write_all(&chunk).unwrap();
        }
        assert!(s.file.is_some());
        assert_eq!(s.len(), 9 << 20);
        let back = s.to_vec(u64::MAX).unwrap();
        assert_eq!(back.len(), 9 << 20);
        assert_eq!(s.digest(), crate::digest::sha1(&back));
        assert_eq!(s.digest_from(1 << 20).unwrap(), crate::digest::sha1(&back[1 << 20..]));
    }

    #[test]
    fn a_small_block_stays_in_memory() {
        let mut s = Spool::of(b"head\r\n\r\nbody");
        assert!(s.file.is_none());
        assert_eq!(s.digest_from(8).unwrap(), crate::digest::sha1(b"body"));
        assert_eq!(s.to_vec(4).unwrap(), b"head");
    }
}

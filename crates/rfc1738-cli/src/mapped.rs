//! A regular file read in blocks of whole lines without copying it: each
//! block's pages are mapped into memory (and faulted in) by the reading
//! thread, and a worker reads the page cache where it lies. Pipes,
//! terminals and stdin are read as [`Blocks`] reads them; the lines, line
//! breaks, byte-order mark and bound on a line are the same, and
//! [`Blocks`] is the oracle of this file's tests.
//!
//! Memory stays bounded as with reads: a block maps about `size` bytes
//! (or one line of up to `max_len`), and its mapping goes when the block
//! is dropped. The file is read up to the length it had when opened.

use crate::input::{Block, Blocks};
use memmap2::{Mmap, MmapOptions};
use std::fs::File;
use std::io;

/// Blocks of whole lines of one input: mapped from a regular file, or read.
pub enum BlockReader {
    /// A pipe, a terminal, stdin: read, each byte copied once.
    Read(Blocks),
    /// A regular file: mapped, block by block.
    Mapped(MappedBlocks),
}

impl BlockReader {
    /// Blocks of `path`, or of stdin when `path` is `-`, of about `size`
    /// bytes each. A regular file named by `path` is mapped when `map`
    /// says its bytes are its text (not a compressed stream) and the
    /// environment variable `RFC1738_NO_MMAP` is not `1`.
    pub fn open(path: &str, max_len: usize, size: usize, map: bool) -> io::Result<BlockReader> {
        let no_map = !map || std::env::var_os("RFC1738_NO_MMAP").is_some_and(|v| v == "1");
        // The name is asked first, the file opened only when it is a
        // regular one: a FIFO must be opened once (see `decompress`).
        if path != "-" && !no_map && std::fs::metadata(path)?.is_file() {
            let file = File::open(path)?;
            let meta = file.metadata()?;
            if meta.is_file() {
                return Ok(BlockReader::Mapped(MappedBlocks::new(file, meta.len(), max_len, size)));
            }
        }
        Ok(BlockReader::Read(Blocks::open(path, max_len, size)?))
    }

    /// The next block (`buffer`: a spare one to read into, handed back
    /// by [`Block::into_buffer`]); `None` at the end.
    pub fn next_block(&mut self, buffer: Vec<u8>) -> io::Result<Option<Block>> {
        match self {
            BlockReader::Read(blocks) => blocks.next_block(buffer),
            BlockReader::Mapped(blocks) => blocks.next_block(buffer),
        }
    }
}

/// A regular file's blocks of whole lines, each mapped into memory.
pub struct MappedBlocks {
    file: File,
    /// The file's length when opened: nothing after it is read.
    len: u64,
    /// The offset of the next block's first byte.
    at: u64,
    max_len: usize,
    size: usize,
}

/// The UTF-8 byte-order mark, dropped before the first line (as
/// [`Blocks`] does).
const BOM: &[u8] = b"\xEF\xBB\xBF";

impl MappedBlocks {
    /// Blocks of `file`, `len` bytes long, of about `size` bytes each.
    pub fn new(file: File, len: u64, max_len: usize, size: usize) -> MappedBlocks {
        MappedBlocks { file, len, at: 0, max_len, size: size.max(1) }
    }

    /// The next block; `None` at the end. `spare` is handed back in it.
    pub fn next_block(&mut self, spare: Vec<u8>) -> io::Result<Option<Block>> {
        let start = self.at;
        if start >= self.len {
            return Ok(None);
        }
        let mut from = start;
        if start == 0 {
            let head = self.map(0, BOM.len().min(self.len as usize))?;
            if head.starts_with(BOM) {
                from = BOM.len() as u64;
            }
        }
        if from == self.len {
            // A byte-order mark alone: no line, bytes to account for.
            self.at = self.len;
            return Ok(Some(Block::held(Box::new(&[][..]), None, self.len, spare)));
        }
        let window = (self.size as u64).min(self.len - from) as usize;
        let map = self.map(from, window)?;
        let end = from + window as u64;
        let cut = if end == self.len { Some(window) } else { memchr::memrchr(b'\n', &map).map(|nl| nl + 1) };
        if let Some(cut) = cut {
            self.at = from + cut as u64;
            let text = Mapped { map, len: cut };
            return Ok(Some(Block::held(Box::new(text), None, self.at - start, spare)));
        }
        // One line longer than the block: where it ends, then the line
        // mapped whole, or only its length when it is longer than the
        // limit (as `Blocks` does: nothing of it held).
        drop(map);
        let nl = self.next_break(end)?;
        let stop = nl.map_or(self.len, |n| n + 1);
        let line = nl.unwrap_or(self.len) - from;
        // A `\r` before the line break, or last in the file, is no part of it.
        let cr = u64::from(line > 0 && self.map(from + line - 1, 1)?[0] == b'\r');
        self.at = stop;
        if line - cr > self.max_len as u64 {
            return Ok(Some(Block::held(Box::new(&[][..]), Some(line - cr), stop - start, spare)));
        }
        let map = self.map(from, (stop - from) as usize)?;
        let len = map.len();
        Ok(Some(Block::held(Box::new(Mapped { map, len }), None, stop - start, spare)))
    }

    /// The offset of the first line break at or after `from`, mapping
    /// `size` bytes at a time; `None` when there is none before the end.
    fn next_break(&self, mut from: u64) -> io::Result<Option<u64>> {
        while from < self.len {
            let n = (self.size as u64).min(self.len - from) as usize;
            let map = self.map(from, n)?;
            if let Some(nl) = memchr::memchr(b'\n', &map) {
                return Ok(Some(from + nl as u64));
            }
            from += n as u64;
        }
        Ok(None)
    }

    /// `len` bytes of the file from `offset`, mapped read-only, their
    /// pages faulted in now (by the reading thread, not by a worker).
    #[allow(unsafe_code)]
    fn map(&self, offset: u64, len: usize) -> io::Result<Mmap> {
        // SAFETY: the map is read-only and private, and `offset + len`
        // lies within the file's length when it was opened. The one way
        // to break it is another process truncating the file while a
        // block is being read: its pages past the new end then raise
        // SIGBUS, which ends the command (as it ends `grep --mmap`,
        // `ripgrep` and `git` on a mapped file). A file that may shrink
        // meanwhile (a log rotated by `copytruncate`) is read through a
        // pipe, from stdin, or with `RFC1738_NO_MMAP=1`.
        unsafe { MmapOptions::new().offset(offset).len(len).populate().map(&self.file) }
    }
}

/// A block's bytes where they lie: the first `len` bytes of a mapping.
struct Mapped {
    map: Mmap,
    len: usize,
}

impl std::ops::Deref for Mapped {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.map[..self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// Every line (or `<n>` for one too long) and the bytes, block by
    /// block, of `input` as `reader` gives them.
    fn lines_of(mut reader: BlockReader, max: usize) -> (Vec<String>, u64) {
        let (mut out, mut bytes) = (Vec::new(), 0);
        let mut spare = Vec::new();
        while let Some(block) = reader.next_block(std::mem::take(&mut spare)).unwrap() {
            let before = out.len();
            out.extend(block.lines(max).map(|line| match line {
                Ok(t) => String::from_utf8_lossy(t).into_owned(),
                Err(n) => format!("<{n}>"),
            }));
            assert_eq!(block.count(), (out.len() - before) as u64);
            bytes += block.bytes;
            spare = block.into_buffer();
        }
        (out, bytes)
    }

    /// The lines of `input` mapped from a file and read through `Blocks`.
    fn both(input: &[u8], max: usize, size: usize) -> ((Vec<String>, u64), (Vec<String>, u64)) {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(input).unwrap();
        let path = file.path().to_str().unwrap();
        let mapped = BlockReader::open(path, max, size, true).unwrap();
        assert!(matches!(mapped, BlockReader::Mapped(_)));
        let read = BlockReader::Read(Blocks::from_reader(Box::new(File::open(path).unwrap()), max, size));
        (lines_of(mapped, max), lines_of(read, max))
    }

    #[test]
    fn a_mapped_file_gives_the_lines_and_bytes_that_reads_give() {
        let cases: &[&[u8]] = &[
            b"",
            b"\n",
            b"a",
            b"a\nb",
            b"a\r\nb\r\n\r\n",
            b"\xEF\xBB\xBFa\nb",
            b"\xEF\xBB\xBF",
            b"\xEF\xBBa\n",
            b"abcdefgh\nab\nabcdefghijk\r\nx",
            b"abcdefghijklmnop\r",
            b"abcdefghijklmnop\r\n",
        ];
        for input in cases {
            for max in [0, 1, 3, 8, 100] {
                for size in [1, 2, 4, 7, 64] {
                    let (mapped, read) = both(input, max, size);
                    assert_eq!(mapped, read, "{input:?} {max} {size}");
                    assert_eq!(mapped.1, input.len() as u64);
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config {
            cases: 300,
            failure_persistence: None,
            ..proptest::test_runner::Config::default()
        })]
        /// Any text of line breaks, carriage returns, BOM bytes and
        /// letters, any limit, any block size.
        #[test]
        fn a_mapped_file_gives_the_lines_that_reads_give_on_any_text(
            input in proptest::collection::vec(proptest::sample::select(b"ab\n\r\xEF\xBB\xBF".to_vec()), 0..40),
            max in 0usize..9,
            size in 1usize..10,
        ) {
            let (mapped, read) = both(&input, max, size);
            proptest::prop_assert_eq!(mapped, read);
        }
    }
}

//! Reading URLs: one per line from files or stdin, with a bound on the
//! length of a line so that memory stays bounded whatever the input.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::sync::atomic::{AtomicU64, Ordering};

/// The longest line kept, in bytes (`--max-len` changes it). A longer
/// line is reported invalid without being held in memory.
pub const DEFAULT_MAX_LEN: usize = 1 << 20;

/// One input line: its bytes (without the line break) or the fact that it
/// was longer than the limit.
pub enum Line {
    /// The line's bytes.
    Text(Vec<u8>),
    /// The line had this many bytes, more than the limit; nothing kept.
    TooLong(u64),
}

/// A source of lines, bounded per line.
pub struct Lines {
    reader: BufReader<Box<dyn Source>>,
    max_len: usize,
    /// Whether the next line is the first (which may start with a BOM).
    first: bool,
}

/// The UTF-8 byte-order mark some editors put first in a text file. It is
/// not part of the first URL (§2.2: URLs are written in US-ASCII), so it
/// is dropped.
const BOM: &[u8] = b"\xEF\xBB\xBF";

impl Lines {
    /// Lines of `path`, or of stdin when `path` is `-`.
    pub fn open(path: &str, max_len: usize) -> io::Result<Lines> {
        let source = open(path)?;
        Ok(Lines { reader: BufReader::with_capacity(READ, source), max_len, first: true })
    }

    /// Lines of any source.
    #[cfg(any(test, fuzzing))]
    pub fn from_reader(reader: impl Source + 'static, max_len: usize) -> Lines {
        Lines { reader: BufReader::new(Box::new(reader)), max_len, first: true }
    }

    /// Whether the next line would have to wait for its input: nothing is
    /// left of the last read and no more input is ready (a pipe whose
    /// writer is slow). Output held until then should be written now, so
    /// that each answer comes as soon as its line has.
    pub fn would_wait(&self) -> bool {
        would_wait(&self.reader)
    }

    /// The next line, without its `\n` or `\r\n`; `None` at the end.
    pub fn next_line(&mut self) -> io::Result<Option<Line>> {
        let mut buf = Vec::new();
        Ok(self.next_line_into(&mut buf)?.map(|span| match span {
            Span::Text(_) => Line::Text(buf),
            Span::TooLong(n) => Line::TooLong(n),
        }))
    }

    /// The next line appended to `buf`: where it lies in `buf`, or that it
    /// was too long (then nothing of it is kept). `None` at the end.
    fn next_line_into(&mut self, buf: &mut Vec<u8>) -> io::Result<Option<Span>> {
        let carried = if std::mem::take(&mut self.first) { self.skip_bom()? } else { &[] };
        let start = buf.len();
        buf.extend_from_slice(carried);
        let (mut total, mut last, mut saw_any) =
            (carried.len() as u64, carried.last().copied(), !carried.is_empty());
        loop {
            let chunk = self.reader.fill_buf()?;
            if chunk.is_empty() {
                break;
            }
            saw_any = true;
            let nl = memchr::memchr(b'\n', chunk);
            let text = &chunk[..nl.unwrap_or(chunk.len())];
            total += text.len() as u64;
            last = text.last().copied().or(last);
            let room = (self.max_len + 1).saturating_sub(buf.len() - start).min(text.len());
            buf.extend_from_slice(&text[..room]);
            let consumed = nl.map_or(chunk.len(), |n| n + 1);
            self.reader.consume(consumed);
            if nl.is_some() {
                break;
            }
        }
        if !saw_any {
            return Ok(None);
        }
        if last == Some(b'\r') {
            total -= 1;
            if total < (buf.len() - start) as u64 {
                buf.pop();
            }
        }
        if total > self.max_len as u64 {
            buf.truncate(start);
            return Ok(Some(Span::TooLong(total)));
        }
        Ok(Some(Span::Text(start..buf.len())))
    }
}

impl Lines {
    /// Drops a byte-order mark at the start of the input, however the
    /// reads split it. Returns the bytes it took that were not one after
    /// all (the start of a BOM, then something else), which belong to the
    /// first line.
    fn skip_bom(&mut self) -> io::Result<&'static [u8]> {
        let mut matched = 0;
        while matched < BOM.len() {
            let chunk = self.reader.fill_buf()?;
            let n = chunk.len().min(BOM.len() - matched);
            if n == 0 || chunk[..n] != BOM[matched..matched + n] {
                return Ok(&BOM[..matched]);
            }
            self.reader.consume(n);
            matched += n;
        }
        Ok(&[])
    }
}

/// One `read` from `reader` into `buf` after its first `len` bytes, of
/// at most `READ` bytes and at most `want - len`: how many bytes came (0:
/// the end) and how many were asked for. `buf` keeps its length from
/// block to block, so that its bytes are zeroed once, when it first
/// grows, and not before every read (that cost 7% of `check`).
fn read_once(
    reader: &mut dyn Read,
    buf: &mut Vec<u8>,
    len: usize,
    want: usize,
) -> io::Result<(usize, usize)> {
    let asked = (want - len).min(READ);
    if buf.len() < len + asked {
        buf.resize(len + asked, 0);
    }
    loop {
        match reader.read(&mut buf[len..len + asked]) {
            Ok(n) => return Ok((n, asked)),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// Bytes asked of one `read`: a pipe's whole buffer (Linux: 64 KiB), so
/// that a read that gives fewer says the writer has no more for now.
const READ: usize = 1 << 16;

/// Input that can tell whether a read would return at once.
pub trait Source: Read + Send {
    /// Whether bytes are ready to read now (or the end is); a source that
    /// cannot tell says yes, and its blocks are filled.
    fn ready(&self) -> bool {
        true
    }
}

impl Source for File {
    #[cfg(unix)]
    fn ready(&self) -> bool {
        use rustix::event::{poll, PollFd, PollFlags, Timespec};
        // A zero timeout: poll answers at once. A regular file is always
        // ready; a pipe or terminal when its writer has written.
        let mut fds = [PollFd::new(self, PollFlags::IN)];
        poll(&mut fds, Some(&Timespec { tv_sec: 0, tv_nsec: 0 })).map_or(true, |n| n > 0)
    }
}

impl Source for io::Stdin {}

/// Whether the next read from `reader` would have to wait for its input:
/// nothing is left of the last read and the source has nothing ready.
pub fn would_wait(reader: &BufReader<Box<dyn Source>>) -> bool {
    reader.buffer().is_empty() && !reader.get_ref().ready()
}

/// The file at `path`, or stdin when `path` is `-`, through the filter
/// set by [`set_filter`] (the command's decompression), if any.
pub fn open(path: &str) -> io::Result<Box<dyn Source>> {
    let source: Box<dyn Source> = if path == "-" { stdin()? } else { Shrinking::open(path)? };
    RAW.store(0, Ordering::Relaxed);
    let source = Box::new(Counted(source));
    match FILTER.get() {
        Some(filter) => filter(source, path),
        None => Ok(source),
    }
}

/// A file read to its end, that says so when the end comes before the
/// length the file had when it was opened: another program cut it while
/// it was read (logrotate's `copytruncate`). Its lines so far were read;
/// the rest is gone, and the run must not pass for complete.
///
/// Files are read, never mapped: a mapped file cut while it is read
/// kills the reader with SIGBUS. The copy a read makes cost no measurable
/// time in `check --quiet` (benches/README.md).
struct Shrinking {
    file: File,
    /// The length when opened; 0 for files whose size says nothing
    /// (`/proc`, `/sys`, pipes), which are then read to their end alone.
    len: u64,
    read: u64,
}

impl Shrinking {
    fn open(path: &str) -> io::Result<Box<dyn Source>> {
        let file = File::open(path)?;
        let len = file.metadata().map_or(0, |m| if m.is_file() { m.len() } else { 0 });
        Ok(Box::new(Shrinking { file, len, read: 0 }))
    }
}

impl Read for Shrinking {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.file.read(buf)?;
        self.read += n as u64;
        if n == 0 && !buf.is_empty() && self.read < self.len {
            let now = self.file.metadata().map_or(0, |m| m.len());
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!(
                    "the file shrank from {} to {now} bytes while it was read (cut by another program, as logrotate's copytruncate does); the lines after byte {} were not checked",
                    self.len, self.read
                ),
            ));
        }
        Ok(n)
    }
}

impl Source for Shrinking {
    fn ready(&self) -> bool {
        self.file.ready()
    }
}

/// Bytes read from the input opened last, before any filter: for a
/// compressed file, how much of its size is done (the progress bar).
static RAW: AtomicU64 = AtomicU64::new(0);

/// Bytes read so far from the input opened last, as stored (compressed).
pub fn raw_read() -> u64 {
    RAW.load(Ordering::Relaxed)
}

/// A source that counts what is read from it in [`RAW`].
struct Counted(Box<dyn Source>);

impl Read for Counted {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.0.read(buf)?;
        RAW.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl Source for Counted {
    fn ready(&self) -> bool {
        self.0.ready()
    }
}

/// What every input goes through once opened: given the source and its
/// path, the source to read lines from.
pub type Filter = fn(Box<dyn Source>, &str) -> io::Result<Box<dyn Source>>;

static FILTER: std::sync::OnceLock<Filter> = std::sync::OnceLock::new();

/// Whether inputs go through a filter (the command decompresses them).
pub fn filtered() -> bool {
    FILTER.get().is_some()
}

/// Sets the filter every input opened from now on goes through (once).
#[cfg_attr(fuzzing, allow(dead_code))]
pub fn set_filter(filter: Filter) {
    let _ = FILTER.set(filter);
}

/// Stdin, read straight from its descriptor where there is one (no
/// buffer between it and the question whether more is ready).
fn stdin() -> io::Result<Box<dyn Source>> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        Ok(Box::new(File::from(io::stdin().as_fd().try_clone_to_owned()?)))
    }
    #[cfg(not(unix))]
    {
        Ok(Box::new(io::stdin()))
    }
}

/// The input read in blocks of whole lines, for a reader that hands the
/// splitting into lines to others ([`Block::lines`]): the reading thread
/// copies each byte once and looks only for the last line break of a
/// block. Lines, line breaks, byte-order mark and the bound on a line are
/// those of [`Lines`].
pub struct Blocks {
    reader: Box<dyn Source>,
    max_len: usize,
    /// Bytes read at a time: a block is handed on when it has this many,
    /// or sooner when it has whole lines and no more input is ready (a
    /// pipe whose writer is slow), or at the end.
    size: usize,
    /// Whether the next block is the first (which may start with a BOM).
    first: bool,
    /// The start of a line that the last block's read ended in.
    carry: Vec<u8>,
    /// A read error that came after whole lines: said at the next block,
    /// once those lines are handed on.
    failed: Option<io::Error>,
}

/// Whole lines of the input: every line ends in `\n` but perhaps the last
/// of the input; then, perhaps, a line too long to hold.
pub struct Block {
    /// The lines' bytes, line breaks included, are `buf[..len]`; the bytes
    /// after them are left from earlier blocks.
    buf: Vec<u8>,
    len: usize,
    /// After them, a line longer than the limit, of this many bytes.
    pub too_long: Option<u64>,
    /// Bytes of input the block stands for (line breaks and a dropped
    /// byte-order mark included).
    pub bytes: u64,
}

impl Blocks {
    /// Blocks of `path`, or of stdin when `path` is `-`, of about `size`
    /// bytes each (fewer when no more input is ready).
    pub fn open(path: &str, max_len: usize, size: usize) -> io::Result<Blocks> {
        let reader = open(path)?;
        Ok(Blocks::from_reader(reader, max_len, size))
    }

    /// Blocks of any source.
    pub fn from_reader(reader: Box<dyn Source>, max_len: usize, size: usize) -> Blocks {
        Blocks { reader, max_len, size: size.max(1), first: true, carry: Vec::new(), failed: None }
    }

    /// The next block, read into `buffer` (a buffer from an earlier block
    /// is reused as it is, its length kept: [`Block::into_buffer`]);
    /// `None` at the end.
    /// A read error ends the input: the whole lines read before it come
    /// in a block first (a corrupt compressed stream's text before the
    /// fault), the error with the call after; the part of a line before
    /// it is dropped.
    pub fn next_block(&mut self, mut buf: Vec<u8>) -> io::Result<Option<Block>> {
        if let Some(e) = self.failed.take() {
            self.carry.clear();
            return Err(e);
        }
        let mut len = self.carry.len();
        if buf.len() < len {
            buf.resize(len, 0);
        }
        buf[..len].copy_from_slice(&self.carry);
        self.carry.clear();
        let mut bytes = 0;
        let mut want = len + self.size;
        loop {
            if len >= want {
                // Part of a line, no longer than the limit (or a BOM's
                // first bytes): read on.
                want = len + self.size;
            }
            let (n, asked) = match read_once(&mut self.reader, &mut buf, len, want) {
                Ok(read) => read,
                Err(e) => match memchr::memrchr(b'\n', &buf[..len]) {
                    Some(nl) => {
                        self.failed = Some(e);
                        return Ok(Some(Block { buf, len: nl + 1, too_long: None, bytes }));
                    }
                    None => return Err(e),
                },
            };
            len += n;
            bytes += n as u64;
            let end = n == 0;
            if self.first {
                if !end && len < BOM.len() && BOM.starts_with(&buf[..len]) {
                    // Maybe a BOM, split by the reads: read on.
                    continue;
                }
                self.first = false;
                if buf[..len].starts_with(BOM) {
                    buf.copy_within(BOM.len()..len, 0);
                    len -= BOM.len();
                }
            }
            // Read on while the block is not full and input flows (the read
            // gave all it was asked, or more is ready). After a short read
            // with nothing more ready, what came is all there is for now
            // (`tail -f log | rfc1738 check`): its whole lines go on now.
            if !end && len < want && (n == asked || self.reader.ready()) {
                continue;
            }
            if let Some(nl) = memchr::memrchr(b'\n', &buf[..len]) {
                if !end {
                    self.carry.extend_from_slice(&buf[nl + 1..len]);
                    len = nl + 1;
                }
                return Ok(Some(Block { buf, len, too_long: None, bytes }));
            }
            if end {
                // The last line, without a line break, or no line (but
                // bytes still to account for: a BOM alone).
                return Ok((bytes > 0 || len > 0).then_some(Block { buf, len, too_long: None, bytes }));
            }
            if len > self.max_len + 1 {
                // A line too long to hold (even without a `\r` before its
                // `\n`): read on to its end, keeping nothing.
                let (n, read) = self.skip_line(&buf[..len])?;
                bytes += read;
                return Ok(Some(Block { buf, len: 0, too_long: Some(n), bytes }));
            }
        }
    }

    /// Reads on to the end of the line that `start` begins and has no
    /// line break in: its length without the line break, and the bytes read.
    fn skip_line(&mut self, start: &[u8]) -> io::Result<(u64, u64)> {
        let mut len = start.len() as u64;
        let mut last = start.last().copied();
        let mut buf = vec![0u8; self.size.min(1 << 16)];
        let mut read = 0u64;
        loop {
            let n = match self.reader.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            read += n as u64;
            if let Some(nl) = memchr::memchr(b'\n', &buf[..n]) {
                len += nl as u64;
                last = buf[..nl].last().copied().or(last);
                // What follows the line break starts the next block.
                self.carry.extend_from_slice(&buf[nl + 1..n]);
                return Ok((len - u64::from(last == Some(b'\r')), read));
            }
            len += n as u64;
            last = buf[..n].last().copied().or(last);
        }
        Ok((len - u64::from(last == Some(b'\r')), read))
    }
}

impl Block {
    /// The lines' bytes, line breaks included.
    pub fn data(&self) -> &[u8] {
        &self.buf[..self.len]
    }

    /// The buffer, for the next block to be read into.
    pub fn into_buffer(self) -> Vec<u8> {
        self.buf
    }

    /// The block's lines in order: each without its `\n` or `\r\n`, or the
    /// fact that it is longer than `max_len`.
    pub fn lines(&self, max_len: usize) -> impl Iterator<Item = Result<&[u8], u64>> + '_ {
        let mut rest: &[u8] = self.data();
        std::iter::from_fn(move || {
            if rest.is_empty() {
                return None;
            }
            let (line, next) = match memchr::memchr(b'\n', rest) {
                Some(nl) => (&rest[..nl], &rest[nl + 1..]),
                None => (rest, &rest[rest.len()..]),
            };
            rest = next;
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            Some(if line.len() > max_len { Err(line.len() as u64) } else { Ok(line) })
        })
        .chain(self.too_long.map(Err))
    }

    /// How many lines [`Block::lines`] gives.
    pub fn count(&self) -> u64 {
        let breaks = memchr::memchr_iter(b'\n', self.data()).count() as u64;
        let unended = u64::from(self.data().last().is_some_and(|&c| c != b'\n'));
        breaks + unended + u64::from(self.too_long.is_some())
    }
}

/// Where a line lies in a buffer (see [`Lines::next_line_into`]).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Span {
    /// The line's bytes are `buf[range]`.
    Text(std::ops::Range<usize>),
    /// The line had this many bytes, more than the limit; nothing kept.
    TooLong(u64),
}

/// A reader that hands out its text in pieces, one per `read`, as a
/// pipe does when its writer is slow: `pieces[k]` bytes at the k-th read
/// (cycling), fewer when asked for fewer. (The tests and the `lines`
/// fuzz target, which builds this file under `cfg(fuzzing)`, use it.)
#[cfg(any(test, fuzzing))]
pub struct Pieces {
    text: Vec<u8>,
    at: usize,
    pieces: Vec<usize>,
    reads: usize,
    /// What `ready` answers: more is ready (a fast pipe), or not.
    ready: bool,
}

#[cfg(any(test, fuzzing))]
impl Pieces {
    /// `text` in reads of `pieces` bytes, cycling; `ready` what `ready` says.
    pub fn new(text: &[u8], pieces: Vec<usize>, ready: bool) -> Pieces {
        Pieces { text: text.to_vec(), at: 0, pieces, reads: 0, ready }
    }
}

#[cfg(any(test, fuzzing))]
impl Source for Pieces {
    fn ready(&self) -> bool {
        self.ready
    }
}

#[cfg(any(test, fuzzing))]
impl Read for Pieces {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let piece = self.pieces[self.reads % self.pieces.len()];
        self.reads += 1;
        let n = piece.min(buf.len()).min(self.text.len() - self.at);
        buf[..n].copy_from_slice(&self.text[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_lines_and_strips_line_breaks() {
        assert_eq!(all(b"a\nb\r\n\nc", 10), ["a", "b", "", "c"]);
        assert_eq!(all(b"", 10), Vec::<String>::new());
    }

    #[test]
    fn a_byte_order_mark_first_is_dropped() {
        assert_eq!(all(b"\xEF\xBB\xBFhttp://h.dom/\nb", 100), ["http://h.dom/", "b"]);
        assert_eq!(all(b"a\n\xEF\xBB\xBFb", 100), ["a", "\u{FEFF}b"]);
        assert_eq!(all(b"\xEF\xBB\xBF", 100), Vec::<String>::new());
        // Split across reads, one byte each.
        let mut lines = Lines {
            reader: BufReader::with_capacity(1, Box::new(&b"\xEF\xBB\xBFx\n"[..])),
            max_len: 9,
            first: true,
        };
        assert!(matches!(lines.next_line().unwrap(), Some(Line::Text(t)) if t == b"x"));
        // The start of a BOM and then something else is kept as it is.
        for cap in [1, 2, 64] {
            let mut lines = Lines {
                reader: BufReader::with_capacity(cap, Box::new(&b"\xEF\xBBx\n\xEF"[..])),
                max_len: 9,
                first: true,
            };
            assert!(matches!(lines.next_line().unwrap(), Some(Line::Text(t)) if t == b"\xEF\xBBx"));
            assert!(matches!(lines.next_line().unwrap(), Some(Line::Text(t)) if t == b"\xEF"));
            assert!(lines.next_line().unwrap().is_none());
        }
        let mut lines = Lines {
            reader: BufReader::with_capacity(1, Box::new(&b"\xEF\xBB"[..])),
            max_len: 9,
            first: true,
        };
        assert!(matches!(lines.next_line().unwrap(), Some(Line::Text(t)) if t == b"\xEF\xBB"));
    }

    impl Source for io::Cursor<Vec<u8>> {}
    impl Source for &'static [u8] {}

    #[test]
    fn a_block_is_handed_on_when_a_read_leaves_it_with_whole_lines() {
        // `tail -f log | rfc1738 check`: each line must be checked when it
        // arrives, not when a megabyte has.
        let pieces = Pieces::new(b"http://a/\nhttp://b/\nhttp://c/\n", vec![18, 5, 9], false);
        let mut blocks = Blocks::from_reader(Box::new(pieces), 100, 1 << 20);
        let mut got = Vec::new();
        while let Some(block) = blocks.next_block(Vec::new()).unwrap() {
            got.push(String::from_utf8(block.data().to_vec()).unwrap());
        }
        assert_eq!(got, ["http://a/\n", "http://b/\n", "http://c/\n"]);
    }

    #[test]
    fn lines_would_wait_when_nothing_is_left_of_a_read_and_nothing_is_ready() {
        // `tail -f log | rfc1738 parse`: the answers held so far are
        // written when the next line is not there yet, and only then.
        for ready in [false, true] {
            let pieces = Pieces::new(b"a\nb\nc\n", vec![4, 2], ready);
            let mut lines = Lines::from_reader(pieces, 100);
            let mut waits = vec![lines.would_wait()];
            while let Some(Line::Text(_)) = lines.next_line().unwrap() {
                waits.push(lines.would_wait());
            }
            // Reads of "a\nb\n", then "c\n": "b" is left after "a".
            let expected = if ready { [false; 4] } else { [true, false, true, true] };
            assert_eq!(waits, expected, "ready: {ready}");
        }
    }

    /// Every line of `input` as `Blocks` reads it with blocks of `size`.
    fn by_blocks(input: &[u8], max: usize, size: usize) -> Vec<String> {
        by_blocks_of(Box::new(io::Cursor::new(input.to_vec())), input, max, size)
    }

    /// Every line of `input`, read from `reader`, as `Blocks` reads it
    /// with blocks of `size`.
    fn by_blocks_of(reader: Box<dyn Source>, input: &[u8], max: usize, size: usize) -> Vec<String> {
        let mut blocks = Blocks::from_reader(reader, max, size);
        let mut out = Vec::new();
        let mut bytes = 0;
        // Each block is read into the buffer of the one before, as `check`
        // reuses them; the first holds something already.
        let mut spare = b"left over".to_vec();
        while let Some(block) = blocks.next_block(std::mem::take(&mut spare)).unwrap() {
            let before = out.len();
            out.extend(block.lines(max).map(|line| match line {
                Ok(t) => String::from_utf8_lossy(t).into_owned(),
                Err(n) => format!("<{n}>"),
            }));
            assert_eq!(block.count(), (out.len() - before) as u64);
            assert!(block.data().len() <= max.max(size) + 2 * size, "a block holds at most a bounded line");
            bytes += block.bytes;
            spare = block.into_buffer();
            // The buffer keeps its length (zeroed once), bounded too (the first
            // one is "left over").
            assert!(spare.len() <= (max.max(size) + 3 * size).max(9), "a buffer stays bounded");
        }
        assert_eq!(bytes, input.len() as u64, "{input:?}");
        out
    }

    /// Every line of `input` as `Lines` reads it.
    fn all(input: &[u8], max: usize) -> Vec<String> {
        let mut lines = Lines::from_reader(io::Cursor::new(input.to_vec()), max);
        let mut out = Vec::new();
        while let Some(line) = lines.next_line().unwrap() {
            out.push(match line {
                Line::Text(t) => String::from_utf8_lossy(&t).into_owned(),
                Line::TooLong(n) => format!("<{n}>"),
            });
        }
        out
    }

    #[test]
    fn blocks_give_the_lines_that_lines_gives() {
        let cases: &[&[u8]] = &[
            b"",
            b"\n",
            b"a",
            b"a\n",
            b"a\nb",
            b"a\r\nb\r\n\r\n",
            b"\xEF\xBB\xBFa\nb",
            b"\xEF\xBBa\n",
            b"\xEF\xBB\xBF",
            b"abcdefgh\nab\nabcdefghijk\r\nx",
            b"abcdefghijklmnop",
            b"abcdefghijklmnop\r",
        ];
        for input in cases {
            for max in [0, 1, 2, 3, 5, 8, 100] {
                for size in [1, 2, 3, 4, 7, 64] {
                    assert_eq!(by_blocks(input, max, size), all(input, max), "{input:?} {max} {size}");
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config {
            cases: 3000,
            failure_persistence: None,
            ..proptest::test_runner::Config::default()
        })]
        /// Any text of line breaks, carriage returns, BOM bytes and letters,
        /// any limit, any read size.
        #[test]
        fn blocks_give_the_lines_that_lines_gives_on_any_text(
            input in proptest::collection::vec(proptest::sample::select(b"ab\n\r\xEF\xBB\xBF".to_vec()), 0..40),
            max in 0usize..9,
            size in 1usize..10,
        ) {
            proptest::prop_assert_eq!(by_blocks(&input, max, size), all(&input, max));
        }

        /// The same, read in pieces of any sizes (a pipe).
        #[test]
        fn blocks_give_the_lines_that_lines_gives_read_in_any_pieces(
            input in proptest::collection::vec(proptest::sample::select(b"ab\n\r\xEF\xBB\xBF".to_vec()), 0..40),
            max in 0usize..9,
            size in 1usize..10,
            pieces in proptest::collection::vec(1usize..12, 1..6),
            ready: bool,
        ) {
            let reader = Pieces::new(&input, pieces, ready);
            proptest::prop_assert_eq!(by_blocks_of(Box::new(reader), &input, max, size), all(&input, max));
        }
    }

    /// Gives its text, then fails (a corrupt compressed stream).
    struct Failing(&'static [u8]);

    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(io::Error::new(io::ErrorKind::InvalidData, "corrupt"));
            }
            let n = buf.len().min(self.0.len()).min(3);
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    impl Source for Failing {}

    #[test]
    fn the_whole_lines_before_a_read_error_come_first_then_the_error() {
        let mut blocks = Blocks::from_reader(Box::new(Failing(b"a\nbc\nd")), 100, 1 << 10);
        let block = blocks.next_block(Vec::new()).unwrap().unwrap();
        assert_eq!(block.data(), b"a\nbc\n", "the part of a line before the error is dropped");
        assert!(matches!(blocks.next_block(Vec::new()), Err(e) if e.to_string() == "corrupt"));
        // Nothing whole before it: the error at once.
        let mut blocks = Blocks::from_reader(Box::new(Failing(b"abc")), 100, 1 << 10);
        assert!(blocks.next_block(Vec::new()).is_err());
    }

    #[test]
    fn long_lines_are_reported_not_kept() {
        assert_eq!(all(b"abc\nabcdef\r\nx", 4), ["abc", "<6>", "x"]);
        assert_eq!(all(b"abcd\n", 4), ["abcd"]);
    }
}

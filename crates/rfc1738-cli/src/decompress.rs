//! Compressed input: a gzip, zstd, bzip2 or xz stream, told by its first
//! bytes (never by the file's name), is inflated on a thread of its own
//! while the command reads the text it gives; every line-reading
//! subcommand sees the decompressed text, its line numbers and offsets.
//!
//! The decoders are well-kept crates that build with a C compiler alone:
//! `flate2` on `zlib-rs` (Rust, as fast as zlib-ng), `zstd` (the reference
//! C library, bundled), `bzip2` on `libbz2-rs-sys` (Rust) and `liblzma`
//! (xz-utils, bundled or the system's). Each reads several streams one
//! after another (`cat a.gz b.gz`, bgzip, pzstd, pbzip2, `xz` of joined
//! files).
//!
//! A stream that is corrupt or ends early gives the text before the fault,
//! then one error naming the format and the byte of the compressed file
//! where the decoder stopped. The decoders, their settings and that
//! wording are the report crate's (`compression::inflate`), shared with
//! the Python package.

use crate::input::Source;
use rfc1738_report::compression::{self, MAGIC};
pub use rfc1738_report::compression::{sniff, Format};
use std::fs::File;
use std::io::{self, Read};
use std::sync::mpsc;
use std::thread;

/// `source` as text: inflated on a thread when its first bytes are those
/// of a compressed stream, else as it is. For a regular file the first
/// bytes are read in place (`pread`); from a pipe they are read, and
/// given back first.
///
/// # Errors
/// A read of the first bytes that fails.
pub fn text(source: Box<dyn Source>, path: &str) -> io::Result<Box<dyn Source>> {
    if path != "-" {
        if let Some(head) = head_in_place(path)? {
            return Ok(match sniff(&head, false).ok().flatten() {
                Some(format) => inflate(format, Vec::new(), source),
                None => source,
            });
        }
    }
    let mut source = source;
    let mut head = Vec::with_capacity(MAGIC);
    let format = loop {
        let mut buf = [0u8; MAGIC];
        let want = MAGIC - head.len();
        let n = match source.read(&mut buf[..want]) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        head.extend_from_slice(&buf[..n]);
        match sniff(&head, n > 0 && head.len() < MAGIC) {
            Ok(format) => break format,
            Err(()) => continue,
        }
    };
    Ok(match format {
        Some(format) => inflate(format, head, source),
        None => Box::new(Given { head, at: 0, source }),
    })
}

/// Whether the regular file at `path` holds a compressed stream (its
/// size then says nothing of its text's: a progress bar counts apart).
pub fn is_compressed(path: &str) -> bool {
    path != "-" && matches!(head_in_place(path), Ok(Some(head)) if matches!(sniff(&head, false), Ok(Some(_))))
}

/// The first bytes of the regular file at `path`, read without moving
/// its position; `None` when it is not a regular file (a pipe, a device).
fn head_in_place(path: &str) -> io::Result<Option<Vec<u8>>> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt;
        // Asked of the name before any opening: a FIFO opened a second
        // time loses what its writer gave the first, then waits for a
        // writer that never comes.
        if !std::fs::metadata(path)?.is_file() {
            return Ok(None);
        }
        let file = File::open(path)?;
        let mut head = [0u8; MAGIC];
        let mut n = 0;
        while n < MAGIC {
            match file.read_at(&mut head[n..], n as u64) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(Some(head[..n].to_vec()))
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        Ok(None)
    }
}

/// A source whose first bytes were read to look at: they come first.
struct Given {
    head: Vec<u8>,
    at: usize,
    source: Box<dyn Source>,
}

impl Read for Given {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at < self.head.len() {
            let n = buf.len().min(self.head.len() - self.at);
            buf[..n].copy_from_slice(&self.head[self.at..self.at + n]);
            self.at += n;
            return Ok(n);
        }
        self.source.read(buf)
    }
}

impl Source for Given {
    fn ready(&self) -> bool {
        self.at < self.head.len() || self.source.ready()
    }
}

/// Bytes of text handed over at a time.
const CHUNK: usize = 1 << 18;
/// Chunks inflated ahead of the reader: memory stays bounded.
const AHEAD: usize = 4;

/// What the inflating thread sends: a chunk of text, or the error that
/// ended the stream.
type Message = io::Result<Vec<u8>>;

/// The text of a compressed stream, inflated by a thread of its own.
struct Inflated {
    rx: mpsc::Receiver<Message>,
    /// Chunks emptied by the reader, for the thread to fill again.
    spare: mpsc::SyncSender<Vec<u8>>,
    chunk: Vec<u8>,
    at: usize,
    /// A message taken to answer `ready`, not yet read.
    next: std::cell::RefCell<Option<Message>>,
    /// The thread has said all it had.
    done: std::cell::Cell<bool>,
}

// `Source` asks `Send`; the cells are touched by the one thread that owns
// the reader.
impl Inflated {
    fn pull(&mut self) -> Option<Message> {
        if let Some(m) = self.next.get_mut().take() {
            return Some(m);
        }
        if self.done.get() {
            return None;
        }
        match self.rx.recv() {
            Ok(m) => Some(m),
            Err(_) => {
                self.done.set(true);
                None
            }
        }
    }
}

impl Read for Inflated {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if self.at < self.chunk.len() {
                let n = buf.len().min(self.chunk.len() - self.at);
                buf[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
                self.at += n;
                return Ok(n);
            }
            match self.pull() {
                Some(Ok(chunk)) => {
                    let old = std::mem::replace(&mut self.chunk, chunk);
                    let _ = self.spare.try_send(old);
                    self.at = 0;
                }
                Some(Err(e)) => {
                    self.done.set(true);
                    return Err(e);
                }
                None => return Ok(0),
            }
        }
    }
}

impl Source for Inflated {
    fn ready(&self) -> bool {
        if self.at < self.chunk.len() || self.done.get() || self.next.borrow().is_some() {
            return true;
        }
        match self.rx.try_recv() {
            Ok(m) => {
                *self.next.borrow_mut() = Some(m);
                true
            }
            Err(mpsc::TryRecvError::Empty) => false,
            Err(mpsc::TryRecvError::Disconnected) => {
                self.done.set(true);
                true
            }
        }
    }
}

/// The text of `source` (whose first bytes, `head`, were read already),
/// a `format` stream inflated by a thread.
pub fn inflate(format: Format, head: Vec<u8>, source: Box<dyn Source>) -> Box<dyn Source> {
    let (tx, rx) = mpsc::sync_channel::<Message>(AHEAD);
    let (spare, spares) = mpsc::sync_channel::<Vec<u8>>(AHEAD + 2);
    let input = io::Cursor::new(head).chain(source);
    thread::spawn(move || run(format, input, &tx, &spares));
    Box::new(Inflated {
        rx,
        spare,
        chunk: Vec::new(),
        at: 0,
        next: std::cell::RefCell::new(None),
        done: std::cell::Cell::new(false),
    })
}

/// The inflating thread: chunks of text until the end, a fault, or a
/// reader that has gone.
fn run(
    format: Format,
    input: impl Read + Send,
    tx: &mpsc::SyncSender<Message>,
    spares: &mpsc::Receiver<Vec<u8>>,
) {
    let mut decoder = match compression::inflate(format, input) {
        Ok(d) => d,
        Err(e) => {
            let _ = tx.send(Err(e));
            return;
        }
    };
    loop {
        let mut chunk = spares.try_recv().unwrap_or_default();
        chunk.resize(CHUNK, 0);
        let mut len = 0;
        let mut fault = None;
        while len < CHUNK {
            match decoder.read(&mut chunk[len..]) {
                Ok(0) => break,
                Ok(n) => len += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    fault = Some(e);
                    break;
                }
            }
        }
        chunk.truncate(len);
        let end = len < CHUNK;
        if len > 0 && tx.send(Ok(chunk)).is_err() {
            return;
        }
        if let Some(e) = fault {
            let _ = tx.send(Err(e));
            return;
        }
        if end {
            return;
        }
    }
}

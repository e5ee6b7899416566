//! Compressed logs, read as the command reads them: a gzip (one member
//! or several), zstd, bzip2 or xz stream told by its first bytes
//! (`rfc1738_report::compression`, as the command tells it; never the
//! file's name),
//! inflated by the same code (`compression::inflate`), as it is read.
//! The command's reader inflates on a thread of its own and says where a
//! fault lies; here the stream is read where the log is checked (a Dask
//! task, a call without the lock), and a fault is an `OSError` naming the
//! format and the compressed byte.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

pub use rfc1738_report::compression::inflate;
use rfc1738_report::compression::{sniff as sniff_head, Format, MAGIC};

/// The format whose magic `head` starts with (the first [`MAGIC`] bytes
/// of the input, or all of a shorter one); `None` for text.
pub fn sniff(head: &[u8]) -> Option<Format> {
    sniff_head(head, false).ok().flatten()
}

/// The text of the file at `path`: inflated when compressed.
pub fn open(path: &Path) -> io::Result<Box<dyn Read + Send>> {
    let mut file = BufReader::with_capacity(1 << 16, File::open(path)?);
    let head = file.fill_buf()?;
    // A first read shorter than a magic is the whole of a short file (or
    // a pipe's first piece: read as text, as the command reads a pipe's
    // few first bytes only when more may come).
    Ok(match sniff(&head[..head.len().min(MAGIC)]) {
        Some(format) => Box::new(inflate(format, file)?),
        None => Box::new(file),
    })
}

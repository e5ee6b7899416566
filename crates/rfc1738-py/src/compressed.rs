//! Compressed logs, read as the command reads them: a gzip (one member
//! or several), zstd, bzip2 or xz stream told by its first bytes
//! (`rfc1738_report::compression`, as the command tells it; never the
//! file's name),
//! inflated by the same crates with the same settings, as it is read.
//! The command's reader inflates on a thread of its own and says where a
//! fault lies; here the stream is read where the log is checked (a Dask
//! task, a call without the lock), and a fault is an `OSError` naming the
//! format and the compressed byte.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use rfc1738_report::compression::{sniff as sniff_head, Format, MAGIC};

/// The format whose magic `head` starts with (the first [`MAGIC`] bytes
/// of the input, or all of a shorter one); `None` for text.
pub fn sniff(head: &[u8]) -> Option<Format> {
    sniff_head(head, false).ok().flatten()
}

/// The most memory the xz decoder may take, as the command allows it.
const XZ_MEMLIMIT: u64 = 256 << 20;

/// Bytes read from the compressed input, to say where a fault lies.
struct Counted<R> {
    inner: R,
    read: u64,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        Ok(n)
    }
}

type Input<R> = BufReader<Counted<R>>;

/// The text of a stream: each fault said with the format and the byte.
struct Text<'a, R: Read> {
    format: Format,
    decoder: Box<dyn Decoder<R> + 'a>,
}

trait Decoder<R>: Read + Send {
    fn input(&self) -> &Input<R>;
}

impl<R: Read + Send> Decoder<R> for flate2::bufread::MultiGzDecoder<Input<R>> {
    fn input(&self) -> &Input<R> {
        self.get_ref()
    }
}

impl<R: Read + Send> Decoder<R> for zstd::stream::read::Decoder<'static, Input<R>> {
    fn input(&self) -> &Input<R> {
        self.get_ref()
    }
}

impl<R: Read + Send> Decoder<R> for bzip2::bufread::MultiBzDecoder<Input<R>> {
    fn input(&self) -> &Input<R> {
        self.get_ref()
    }
}

impl<R: Read + Send> Decoder<R> for liblzma::bufread::XzDecoder<Input<R>> {
    fn input(&self) -> &Input<R> {
        self.get_ref()
    }
}

impl<R: Read> Read for Text<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.decoder.read(buf).map_err(|e| {
            let input = self.decoder.input();
            let at = input.get_ref().read - input.buffer().len() as u64;
            let name = self.format.name();
            let text = e.to_string().to_ascii_lowercase();
            let ends = ["end of file", "eof", "incomplete", "truncated", "unexpected end", "not finished"]
                .iter()
                .any(|w| text.contains(w));
            if e.kind() == io::ErrorKind::UnexpectedEof || ends {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("{name} data ends early at compressed byte {at} (a truncated file?)"),
                )
            } else {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("{name} data corrupt near compressed byte {at}: {e}"),
                )
            }
        })
    }
}

/// The text of a `format` stream read from `source`.
pub fn decoder<'a, R: Read + Send + 'a>(format: Format, source: R) -> io::Result<impl Read + 'a> {
    let input = BufReader::with_capacity(1 << 16, Counted { inner: source, read: 0 });
    let decoder: Box<dyn Decoder<R> + 'a> = match format {
        Format::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(input)),
        Format::Zstd => Box::new(zstd::stream::read::Decoder::with_buffer(input)?),
        Format::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(input)),
        Format::Xz => {
            let stream =
                liblzma::stream::Stream::new_stream_decoder(XZ_MEMLIMIT, liblzma::stream::CONCATENATED)
                    .map_err(io::Error::other)?;
            Box::new(liblzma::bufread::XzDecoder::new_stream(input, stream))
        }
    };
    Ok(Text { format, decoder })
}

/// The text of the file at `path`: inflated when compressed.
pub fn open(path: &Path) -> io::Result<Box<dyn Read + Send>> {
    let mut file = BufReader::with_capacity(1 << 16, File::open(path)?);
    let head = file.fill_buf()?;
    // A first read shorter than a magic is the whole of a short file (or
    // a pipe's first piece: read as text, as the command reads a pipe's
    // few first bytes only when more may come).
    Ok(match sniff(&head[..head.len().min(MAGIC)]) {
        Some(format) => Box::new(decoder(format, file)?),
        None => Box::new(file),
    })
}

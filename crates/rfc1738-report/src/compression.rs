//! Which compression a log is stored in, told by its first bytes (never
//! by the file's name): gzip, zstd, bzip2 or xz. One answer for the
//! command (`decompress.rs`, which inflates on a thread) and the Python
//! package (`compressed.rs`, which inflates where the log is checked).
//!
//! With the feature `inflate`, [`inflate`] reads the text of a stream by
//! the same decoders with the same settings for both, and words a fault
//! the same way: the format, and the compressed byte where the decoder
//! stopped. Without it this module has no I/O and no dependency.

/// A compression format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// RFC 1952 gzip (one member or several).
    Gzip,
    /// Zstandard (RFC 8878) frames.
    Zstd,
    /// bzip2 streams.
    Bzip2,
    /// xz streams.
    Xz,
}

impl Format {
    /// The format's name, as errors say it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Format::Gzip => "gzip",
            Format::Zstd => "zstd",
            Format::Bzip2 => "bzip2",
            Format::Xz => "xz",
        }
    }
}

/// The longest magic looked at: bzip2's `BZh`, a level digit and the six
/// bytes of a block (or of the end of an empty stream).
pub const MAGIC: usize = 10;

/// The format whose magic bytes `head` starts with; `None` for anything
/// else (text), or when `head` is too short to tell and `more` says more
/// bytes may come (`Err(())`: read on).
///
/// # Errors
/// `Err(())` when `head` is too short to tell and `more` is set.
#[allow(clippy::result_unit_err)]
pub fn sniff(head: &[u8], more: bool) -> Result<Option<Format>, ()> {
    const GZIP: &[u8] = b"\x1f\x8b";
    const ZSTD: &[u8] = b"\x28\xb5\x2f\xfd";
    const XZ: &[u8] = b"\xfd7zXZ\x00";
    for (magic, format) in [(GZIP, Format::Gzip), (ZSTD, Format::Zstd), (XZ, Format::Xz)] {
        if head.starts_with(magic) {
            return Ok(Some(format));
        }
        if more && magic.starts_with(head) {
            return Err(());
        }
    }
    // bzip2: "BZh", the block size '1'..'9', then the magic of a block
    // (pi) or of the stream's end (sqrt pi): a text line may start "BZh9",
    // not with these bytes after it.
    let bz = |h: &[u8]| -> Option<bool> {
        let pattern = |i: usize, c: u8| match i {
            0 => c == b'B',
            1 => c == b'Z',
            2 => c == b'h',
            3 => (b'1'..=b'9').contains(&c),
            _ => true,
        };
        if !h.iter().take(4).enumerate().all(|(i, &c)| pattern(i, c)) {
            return Some(false);
        }
        if h.len() < MAGIC {
            return None;
        }
        let tail = &h[4..MAGIC];
        Some(tail == b"\x31\x41\x59\x26\x53\x59" || tail == b"\x17\x72\x45\x38\x50\x90")
    };
    match bz(head) {
        Some(true) => Ok(Some(Format::Bzip2)),
        Some(false) => Ok(None),
        None if more => Err(()),
        None => Ok(None),
    }
}

#[cfg(feature = "inflate")]
pub use reader::{inflate, Inflated, XZ_MEMLIMIT};

#[cfg(feature = "inflate")]
mod reader {
    use super::Format;
    use std::io::{self, BufRead, BufReader, Read};

    /// The most memory the xz decoder may take (a stream asking more is
    /// an error, not an allocation); `xz -9` asks 65 MiB.
    pub const XZ_MEMLIMIT: u64 = 256 << 20;

    /// The bytes read from the compressed input, to say where a fault
    /// lies, and whether the input itself failed (not the decoder).
    struct Counted<R> {
        inner: R,
        read: u64,
        failed: bool,
    }

    impl<R: Read> Read for Counted<R> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.inner.read(buf).inspect_err(|e| {
                self.failed |= e.kind() != io::ErrorKind::Interrupted;
            })?;
            self.read += n as u64;
            Ok(n)
        }
    }

    /// The compressed input through a buffer of its own, so that the
    /// bytes the decoder consumed are known at a fault.
    type Input<R> = BufReader<Counted<R>>;

    /// A decoder over [`Input`], whatever its format.
    trait Decoder<R>: Read + Send {
        fn input(&self) -> &Input<R>;
    }

    /// gzip members one after another, as `gzip -d` reads them (`cat
    /// a.gz b.gz`, bgzip). Zero bytes after the last member are padding
    /// (a tape's blocks), which `gzip -t` accepts; any other byte after
    /// the padding is refused.
    struct Gzip<R> {
        /// The member being read; `None` only while one is replaced.
        member: Option<flate2::bufread::GzDecoder<Input<R>>>,
        done: bool,
    }

    impl<R: Read> Gzip<R> {
        /// After a member: whether another follows (else the end, padding
        /// included, has been read).
        fn another(&mut self) -> io::Result<bool> {
            let Some(member) = self.member.as_mut() else { return Ok(false) };
            let (mut zeros, input) = (false, member.get_mut());
            loop {
                let head = input.fill_buf()?;
                if head.is_empty() {
                    return Ok(false);
                }
                if !zeros && head[0] != 0 {
                    return Ok(true);
                }
                let n = head.iter().take_while(|&&b| b == 0).count();
                if n < head.len() {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        "a byte other than zero after the padding",
                    ));
                }
                zeros = true;
                input.consume(n);
            }
        }
    }

    impl<R: Read> Read for Gzip<R> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            while !self.done && !buf.is_empty() {
                let Some(member) = self.member.as_mut() else { break };
                let n = member.read(buf)?;
                if n > 0 {
                    return Ok(n);
                }
                if self.another()? {
                    let input = self.member.take().map(flate2::bufread::GzDecoder::into_inner);
                    self.member = input.map(flate2::bufread::GzDecoder::new);
                } else {
                    self.done = true;
                }
            }
            Ok(0)
        }
    }

    impl<R: Read + Send> Decoder<R> for Gzip<R> {
        fn input(&self) -> &Input<R> {
            // `member` is `None` only inside `read`.
            self.member.as_ref().map(flate2::bufread::GzDecoder::get_ref).expect("a gzip member")
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

    /// The text of a compressed stream ([`inflate`]).
    pub struct Inflated<'a, R: Read> {
        format: Format,
        decoder: Box<dyn Decoder<R> + 'a>,
    }

    /// The text of the `format` stream `source`. Each decoder reads
    /// several streams one after another (`cat a.gz b.gz`, bgzip, pzstd,
    /// pbzip2, `xz` of joined files); the zstd window is bounded by the
    /// library's default (128 MiB), the xz decoder's memory by
    /// [`XZ_MEMLIMIT`].
    ///
    /// A stream that is corrupt or ends early gives the text before the
    /// fault, then one `InvalidData` error naming the format and the
    /// compressed byte where the decoder stopped; an error of `source`
    /// itself is given as it is.
    ///
    /// # Errors
    /// A decoder that cannot start (zstd's context, xz's stream).
    pub fn inflate<'a, R: Read + Send + 'a>(format: Format, source: R) -> io::Result<Inflated<'a, R>> {
        let input = BufReader::with_capacity(1 << 16, Counted { inner: source, read: 0, failed: false });
        let decoder: Box<dyn Decoder<R> + 'a> = match format {
            Format::Gzip => {
                Box::new(Gzip { member: Some(flate2::bufread::GzDecoder::new(input)), done: false })
            }
            Format::Zstd => Box::new(zstd::stream::read::Decoder::with_buffer(input)?),
            Format::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(input)),
            Format::Xz => {
                let stream =
                    liblzma::stream::Stream::new_stream_decoder(XZ_MEMLIMIT, liblzma::stream::CONCATENATED)
                        .map_err(io::Error::other)?;
                Box::new(liblzma::bufread::XzDecoder::new_stream(input, stream))
            }
        };
        Ok(Inflated { format, decoder })
    }

    impl<R: Read> Read for Inflated<'_, R> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.decoder.read(buf).map_err(|e| fault(self.format, self.decoder.input(), &e))
        }
    }

    /// The error of a stream that could not be inflated: the format and
    /// the compressed byte where the decoder stopped, and why.
    fn fault<R>(format: Format, input: &Input<R>, e: &io::Error) -> io::Error {
        if input.get_ref().failed || e.kind() == io::ErrorKind::Interrupted {
            return io::Error::new(e.kind(), e.to_string());
        }
        let at = input.get_ref().read - input.buffer().len() as u64;
        let name = format.name();
        if let Some(bound) = refused(format, e) {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{name} data at compressed byte {at} needs more than {bound} MiB of memory to inflate; refused (the bound keeps a small file from taking all memory)"),
            )
        } else if e.kind() == io::ErrorKind::UnexpectedEof || ends(e) {
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
    }

    /// The bound in MiB, when a decoder's error says it refused a stream
    /// asking more memory than the bound allows (not a fault of the data).
    fn refused(format: Format, e: &io::Error) -> Option<u64> {
        let text = e.to_string().to_ascii_lowercase();
        match format {
            Format::Zstd if text.contains("too much memory") || text.contains("window") => Some(128),
            Format::Xz if text.contains("memory") && text.contains("limit") => Some(XZ_MEMLIMIT >> 20),
            _ => None,
        }
    }

    /// Whether a decoder's error says its input ended inside a stream
    /// (the decoders say it in words of their own).
    fn ends(e: &io::Error) -> bool {
        let text = e.to_string().to_ascii_lowercase();
        ["end of file", "eof", "incomplete", "truncated", "unexpected end", "not finished"]
            .iter()
            .any(|w| text.contains(w))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "inflate")]
    fn gzip(text: &[u8]) -> Vec<u8> {
        use std::io::Write;
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(text).unwrap();
        e.finish().unwrap()
    }

    #[cfg(feature = "inflate")]
    fn inflated(format: Format, bytes: &[u8]) -> std::io::Result<Vec<u8>> {
        use std::io::Read;
        let mut out = Vec::new();
        inflate(format, bytes)?.read_to_end(&mut out).map(|_| out)
    }

    /// `gzip -t` takes zero bytes after the last member (a tape's
    /// padding); anything else after it is refused.
    #[cfg(feature = "inflate")]
    #[test]
    fn zero_padding_after_gzip_data_is_taken() {
        let mut two = gzip(b"a\n");
        two.extend(gzip(b"b\n"));
        for pad in [0, 1, 512, 70_000] {
            let mut bytes = two.clone();
            bytes.resize(bytes.len() + pad, 0);
            assert_eq!(inflated(Format::Gzip, &bytes).unwrap(), b"a\nb\n", "{pad} zero bytes");
        }
        let mut bytes = two.clone();
        bytes.extend([0, 0, b'x']);
        let err = inflated(Format::Gzip, &bytes).unwrap_err().to_string();
        assert!(err.contains("gzip data") && err.contains("byte"), "{err}");
        let mut bytes = two;
        bytes.extend(b"garbage");
        assert!(inflated(Format::Gzip, &bytes).is_err());
    }

    /// A frame that asks more memory than the bound is refused in words
    /// that say so, not called corrupt.
    #[cfg(feature = "inflate")]
    #[test]
    fn a_zstd_window_over_the_bound_is_a_refusal() {
        // A frame header: magic, a descriptor with a window descriptor
        // byte (no single-segment flag), then Window_Descriptor asking
        // 2^(10+18) = 256 MiB, and an empty raw last block.
        let frame = [0x28, 0xb5, 0x2f, 0xfd, 0x00, 18 << 3, 0x01, 0x00, 0x00];
        let err = inflated(Format::Zstd, &frame).unwrap_err().to_string();
        assert!(err.contains("needs more than 128 MiB"), "{err}");
        assert!(!err.contains("corrupt"), "{err}");
    }

    #[test]
    fn magic_bytes_tell_the_format_and_text_is_text() {
        assert_eq!(sniff(b"\x1f\x8b\x08\x00", false), Ok(Some(Format::Gzip)));
        assert_eq!(sniff(b"\x28\xb5\x2f\xfd\x00", false), Ok(Some(Format::Zstd)));
        assert_eq!(sniff(b"\xfd7zXZ\x00\x00", false), Ok(Some(Format::Xz)));
        assert_eq!(sniff(b"BZh91AY&SY", false), Ok(Some(Format::Bzip2)));
        assert_eq!(sniff(b"BZh9 is a text line", false), Ok(None));
        assert_eq!(sniff(b"http://h/", true), Ok(None));
        assert_eq!(sniff(b"", false), Ok(None));
        // Too short to tell, more to come: read on.
        assert_eq!(sniff(b"\x1f", true), Err(()));
        assert_eq!(sniff(b"BZh", true), Err(()));
        assert_eq!(sniff(b"\x1f", false), Ok(None));
    }
}

//! Which compression a log is stored in, told by its first bytes (never
//! by the file's name): gzip, zstd, bzip2 or xz. One answer for the
//! command (`decompress.rs`, which inflates on a thread) and the Python
//! package (`compressed.rs`, which inflates where the log is checked);
//! the decoders themselves live beside each, this crate has no I/O.

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

#[cfg(test)]
mod tests {
    use super::*;

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

//! Oracle for the command's decompressing reader
//! (`crates/rfc1738-cli/src/decompress.rs`, built into this target from
//! its source file, with the line reader it stands on). The first byte
//! chooses a magic to put first (none, gzip, zstd, bzip2, xz), so that
//! every decoder is reached; the rest is the stream. Whatever it is:
//! reading never panics and never hangs; an error names the format and a
//! compressed byte inside the input; the text read before it is kept;
//! memory stays bounded (a stream that inflates past 8 MiB is left, the
//! inflating thread stopping when its reader goes).
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::io::{self, Read};

#[allow(dead_code)]
#[path = "../../crates/rfc1738-cli/src/input.rs"]
mod input;

#[allow(dead_code)]
#[path = "../../crates/rfc1738-cli/src/decompress.rs"]
mod decompress;

struct Bytes(io::Cursor<Vec<u8>>);

impl Read for Bytes {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf)
    }
}

impl input::Source for Bytes {}

const MAGICS: [&[u8]; 5] = [b"", b"\x1f\x8b\x08", b"\x28\xb5\x2f\xfd", b"BZh91AY&SY", b"\xfd7zXZ\x00"];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let mut stream = MAGICS[usize::from(pick) % MAGICS.len()].to_vec();
    stream.extend_from_slice(rest);
    let total = stream.len() as u64;
    let compressed = decompress::sniff(&stream, false).ok().flatten();
    let mut text =
        decompress::text(Box::new(Bytes(io::Cursor::new(stream.clone()))), "-").expect("memory reads");
    let mut buf = vec![0u8; 1 << 16];
    let mut read = 0usize;
    loop {
        match text.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                read += n;
                if read > 8 << 20 {
                    break;
                }
            }
            Err(e) => {
                let format = compressed.expect("an error from a stream read as it is");
                let m = e.to_string();
                assert!(m.starts_with(format.name()), "{m}");
                let at: u64 = m
                    .split("compressed byte ")
                    .nth(1)
                    .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
                    .and_then(|d| d.parse().ok())
                    .unwrap_or_else(|| panic!("no compressed byte in {m:?}"));
                assert!(at <= total, "byte {at} past {total}");
                // After the error, the end.
                assert_eq!(text.read(&mut buf).ok(), Some(0));
                break;
            }
        }
    }
    if compressed.is_none() {
        assert_eq!(read as u64, total, "text read as it is");
    }
});

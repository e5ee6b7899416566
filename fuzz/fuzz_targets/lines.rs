//! Oracle for the command's line readers (`crates/rfc1738-cli/src/input.rs`,
//! built into this target as it is: the command is a binary crate).
//!
//! The input's first bytes choose the bound on a line, the block size,
//! the sizes of the reads (a pipe hands out pieces) and whether more is
//! said to be ready; the rest is the text. Whatever they are:
//! - `Lines` and `Blocks` give the lines a plain split gives: the text cut
//!   at each `\n`, a `\r` before it dropped, a byte-order mark first
//!   dropped, a line longer than the bound reported by its length alone;
//! - the blocks account for every byte of the input;
//! - a block holds at most the bound on a line and two blocks' worth, its
//!   reused buffer a block more (memory stays bounded whatever the input).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[allow(dead_code)]
#[path = "../../crates/rfc1738-cli/src/input.rs"]
mod input;

use input::{Blocks, Line, Lines, Pieces};

/// One line as the readers report it: its bytes, or its length when too long.
#[derive(Debug, PartialEq, Eq)]
enum Got {
    Text(Vec<u8>),
    TooLong(u64),
}

/// The lines of `text` by a plain split, bounded by `max`.
fn split(text: &[u8], max: usize) -> Vec<Got> {
    let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    if text.is_empty() {
        return Vec::new();
    }
    let body = text.strip_suffix(b"\n").unwrap_or(text);
    body.split(|&b| b == b'\n')
        .map(|line| {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.len() > max {
                Got::TooLong(line.len() as u64)
            } else {
                Got::Text(line.to_vec())
            }
        })
        .collect()
}

fn by_lines(reader: Pieces, max: usize) -> Vec<Got> {
    let mut lines = Lines::from_reader(reader, max);
    let mut out = Vec::new();
    while let Some(line) = lines.next_line().expect("reading from memory cannot fail") {
        out.push(match line {
            Line::Text(t) => Got::Text(t),
            Line::TooLong(n) => Got::TooLong(n),
        });
    }
    out
}

/// What the first buffer holds, as one reused from an earlier block does.
const LEFT_OVER: &[u8] = b"left over from an earlier block";

fn by_blocks(reader: Pieces, text: &[u8], max: usize, size: usize) -> Vec<Got> {
    let mut blocks = Blocks::from_reader(Box::new(reader), max, size);
    let mut out = Vec::new();
    let mut bytes = 0;
    let mut spare = LEFT_OVER.to_vec();
    while let Some(block) =
        blocks.next_block(std::mem::take(&mut spare)).expect("reading from memory cannot fail")
    {
        let before = out.len();
        out.extend(block.lines(max).map(|line| match line {
            Ok(t) => Got::Text(t.to_vec()),
            Err(n) => Got::TooLong(n),
        }));
        assert_eq!(block.count(), (out.len() - before) as u64, "count and lines disagree");
        let bound = max.max(size) + 2 * size;
        assert!(block.data().len() <= bound, "a block of {} bytes, bound {bound}", block.data().len());
        bytes += block.bytes;
        // The buffer is handed back whole (its length kept, zeroed once),
        // bounded too (the first one held what was left over).
        spare = block.into_buffer();
        let kept = (max.max(size) + 3 * size).max(LEFT_OVER.len());
        assert!(spare.len() <= kept, "a buffer of {} bytes, bound {kept}", spare.len());
    }
    assert_eq!(bytes, text.len() as u64, "the blocks account for every byte");
    out
}

fuzz_target!(|data: &[u8]| {
    let [a, b, c, rest @ ..] = data else { return };
    // Small bounds and blocks meet the text's edges often; a large one
    // now and then checks the common case.
    let max = if *a >= 250 { 1 << 20 } else { usize::from(a % 24) };
    let size = if *b >= 250 { 1 << 16 } else { 1 + usize::from(b % 16) };
    let ready = c & 1 != 0;
    let count = 1 + usize::from((c >> 1) % 4);
    let Some((sizes, text)) = rest.split_at_checked(count) else { return };
    let pieces: Vec<usize> = sizes.iter().map(|&s| 1 + usize::from(s % 24)).collect();

    let expected = split(text, max);
    let lines = by_lines(Pieces::new(text, pieces.clone(), ready), max);
    assert_eq!(lines, expected, "Lines, max {max}");
    let blocks = by_blocks(Pieces::new(text, pieces, ready), text, max, size);
    assert_eq!(blocks, expected, "Blocks, max {max}, size {size}");
});

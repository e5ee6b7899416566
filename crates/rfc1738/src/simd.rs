//! The bytes of a buffer classified 64 at a time into bit masks, one bit
//! per byte (bit `k` of a mask is byte `k` of the block): the first step
//! of the bulk validator (`bulk.rs`), which reads URLs from the masks.
//! Beside them, the few searches other modules make over many bytes
//! (`find_byte` for `extract`, `escape_or_dots` for the §6 path checks).
//!
//! Four ways to the same masks: SSE2 (every x86_64) and AVX2 (found at
//! run time), NEON (aarch64) through `std::arch`, and a portable one in
//! safe Rust, a table lookup per byte and the masks gathered eight bytes
//! at a time.
//! The portable way is the oracle: the tests hold every vector way to it
//! on every byte value at every place of a block, and on random blocks.
//!
//! This is the one module of the crate allowed `unsafe` (the crate denies
//! it): the intrinsics, and the calls of functions compiled for a feature
//! the processor was found to have. The cargo feature `portable` compiles
//! the vector ways out, leaving no `unsafe` at all: `scripts/test` runs the
//! library's tests so once more, and Miri runs this module's and
//! `bulk.rs`'s unit tests on the portable way, clean (nightly with its
//! `miri` component: `cargo +nightly miri test -p rfc1738 --lib --features
//! portable -- simd:: bulk::`; under Miri the every-byte test takes each
//! byte in one place and the 20 000-byte URLs are left out). The vector
//! ways have not been run under Miri. The NEON way's tests run on x86_64
//! under qemu (Debian's `qemu-user`, `gcc-aarch64-linux-gnu` and
//! `libc6-dev-arm64-cross`; `rustup target add aarch64-unknown-linux-gnu`):
//! `CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
//! CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L
//! /usr/aarch64-linux-gnu" cargo test -p rfc1738 --target
//! aarch64-unknown-linux-gnu --lib --test bulk`.
#![allow(unsafe_code)]

use crate::chars::{self, XCHAR};

/// The classes of the 64 bytes of one block, one bit per byte.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Masks {
    /// `"\n"`, which ends a line.
    pub(crate) nl: u64,
    /// Bytes that are no unencoded `xchar` (§5: `unreserved | reserved`):
    /// `"%"` among them (the reader checks its escape).
    pub(crate) notx: u64,
    /// `"/"`.
    pub(crate) slash: u64,
    /// `"?"`.
    pub(crate) quest: u64,
    /// `"@"`.
    pub(crate) at: u64,
    /// `":"`.
    pub(crate) colon: u64,
    /// `";"`.
    pub(crate) semi: u64,
}

impl Masks {
    /// Field `f`: 0 `notx`, 1 `nl`, 2 `slash`, 3 `quest`, 4 `at`, 5
    /// `colon`, 6 `semi` (a constant where it is called, so a load).
    #[inline(always)]
    pub(crate) fn get(&self, f: usize) -> u64 {
        match f {
            0 => self.notx,
            1 => self.nl,
            2 => self.slash,
            3 => self.quest,
            4 => self.at,
            5 => self.colon,
            _ => self.semi,
        }
    }
}

/// Bytes per block: one bit each in a `u64`.
pub(crate) const BLOCK: usize = 64;

/// How blocks are classified.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// Safe Rust only: a table lookup per byte, masks gathered eight
    /// bytes at a time. The oracle of the others; on every target.
    Portable,
    /// x86_64 SSE2, sixteen bytes at a time (every x86_64 has it).
    Sse2,
    /// x86_64 AVX2, thirty-two bytes at a time, when the processor has it.
    Avx2,
    /// aarch64 NEON, sixteen bytes at a time (every aarch64 target with
    /// the `neon` feature, the default). Hosts are classified the
    /// portable way.
    Neon,
}

impl Path {
    /// The fastest way this processor has (found once, then kept); always
    /// [`Path::Portable`] with the cargo feature `portable`, or on a
    /// target other than x86_64 and aarch64 with NEON.
    #[must_use]
    pub fn detect() -> Path {
        #[cfg(all(target_arch = "x86_64", not(feature = "portable")))]
        {
            use std::sync::atomic::{AtomicU8, Ordering};
            static FOUND: AtomicU8 = AtomicU8::new(0);
            match FOUND.load(Ordering::Relaxed) {
                1 => Path::Sse2,
                2 => Path::Avx2,
                _ => {
                    let path = if std::is_x86_feature_detected!("avx2") { Path::Avx2 } else { Path::Sse2 };
                    FOUND.store(if path == Path::Avx2 { 2 } else { 1 }, Ordering::Relaxed);
                    path
                }
            }
        }
        #[cfg(all(target_arch = "aarch64", target_feature = "neon", not(feature = "portable")))]
        {
            Path::Neon
        }
        #[cfg(not(any(
            all(target_arch = "x86_64", not(feature = "portable")),
            all(target_arch = "aarch64", target_feature = "neon", not(feature = "portable"))
        )))]
        Path::Portable
    }

    /// Whether this processor (and this build) can classify this way.
    #[must_use]
    pub fn is_available(self) -> bool {
        match self {
            Path::Portable => true,
            Path::Sse2 => cfg!(all(target_arch = "x86_64", not(feature = "portable"))),
            Path::Avx2 => Path::detect() == Path::Avx2,
            Path::Neon => {
                cfg!(all(target_arch = "aarch64", target_feature = "neon", not(feature = "portable")))
            }
        }
    }

    /// Every way this processor can run, the portable one first: what the
    /// tests compare.
    #[must_use]
    pub fn available() -> Vec<Path> {
        let mut paths = vec![Path::Portable];
        if cfg!(all(target_arch = "x86_64", not(feature = "portable"))) {
            paths.push(Path::Sse2);
            if Path::detect() == Path::Avx2 {
                paths.push(Path::Avx2);
            }
        }
        if cfg!(all(target_arch = "aarch64", target_feature = "neon", not(feature = "portable"))) {
            paths.push(Path::Neon);
        }
        paths
    }
}

/// Classifies `b` block by block into `out` (emptied first): block `k`
/// is `b[64 k..64 k + 64]`, the last one padded with zero bytes (a zero
/// byte is in `notx` alone). `path` must be one [`Path::available`] gives;
/// another is read as [`Path::Portable`].
pub(crate) fn classify(path: Path, b: &[u8], out: &mut Vec<Masks>) {
    out.clear();
    out.reserve(b.len().div_ceil(BLOCK));
    let whole = b.len() / BLOCK * BLOCK;
    match path {
        #[cfg(all(target_arch = "x86_64", not(feature = "portable")))]
        Path::Avx2 if Path::detect() == Path::Avx2 => {
            // SAFETY: the processor has AVX2 (`detect` asked it).
            unsafe { x86::classify_avx2(&b[..whole], out) }
        }
        #[cfg(all(target_arch = "x86_64", not(feature = "portable")))]
        Path::Sse2 | Path::Avx2 => x86::classify_sse2(&b[..whole], out),
        #[cfg(all(target_arch = "aarch64", target_feature = "neon", not(feature = "portable")))]
        Path::Neon => neon::classify(&b[..whole], out),
        _ => {
            for block in b[..whole].chunks_exact(BLOCK) {
                out.push(portable(block));
            }
        }
    }
    if whole < b.len() {
        let mut last = [0u8; BLOCK];
        last[..b.len() - whole].copy_from_slice(&b[whole..]);
        out.push(match path {
            #[cfg(all(target_arch = "x86_64", not(feature = "portable")))]
            Path::Sse2 | Path::Avx2 => {
                let mut one = Vec::with_capacity(1);
                x86::classify_sse2(&last, &mut one);
                one[0]
            }
            #[cfg(all(target_arch = "aarch64", target_feature = "neon", not(feature = "portable")))]
            Path::Neon => {
                let mut one = Vec::with_capacity(1);
                neon::classify(&last, &mut one);
                one[0]
            }
            _ => portable(&last),
        });
    }
}

/// The class bits of one byte, for the portable way: bit `k` is field
/// `k` of [`Masks`], in the order written there.
const fn class_bits(c: u8) -> u8 {
    let mut bits = 0;
    if c == b'\n' {
        bits |= 1 << 0;
    }
    if !XCHAR.literal().contains_const(c) {
        bits |= 1 << 1;
    }
    let delimiters = *b"/?@:;";
    let mut k = 0;
    while k < delimiters.len() {
        if c == delimiters[k] {
            bits |= 1 << (2 + k);
        }
        k += 1;
    }
    bits
}

/// The class bits of every byte.
static CLASS_BITS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = class_bits(c as u8);
        c += 1;
    }
    t
};

/// `xchar` as two tables of sixteen bytes for a vector shuffle (AVX2's
/// `vpshufb`): a byte `c` is an unencoded `xchar` when `NIBBLES.0[c & 15]
/// & NIBBLES.1[c >> 4]` is not zero. Each high nibble whose bytes hold
/// some `xchar` gets a bit of its own; the low table sets that bit for
/// the low nibbles that make an `xchar` with it. Six high nibbles (2 to
/// 7) hold some, so six bits; more than eight would not build.
#[cfg_attr(
    not(any(
        all(target_arch = "x86_64", not(feature = "portable")),
        all(target_arch = "aarch64", target_feature = "neon", not(feature = "portable"))
    )),
    allow(dead_code, reason = "the vector ways alone read it (and its test)")
)]
pub(crate) const NIBBLES: ([u8; 16], [u8; 16]) = {
    let mut members = [false; 256];
    let mut c = 0;
    while c < 256 {
        members[c] = XCHAR.literal().contains_const(c as u8);
        c += 1;
    }
    let set = ByteSet::new(&members);
    (set.lo, set.hi)
};

/// The portable way: for each eight bytes, their class bits laid out as
/// the bytes of a word, then each class's bits gathered into eight bits
/// of its mask by one multiplication.
pub(crate) fn portable(block: &[u8]) -> Masks {
    let mut fields = [0u64; 7];
    for (w, eight) in block.chunks_exact(8).enumerate() {
        let mut word = 0u64;
        for (k, &c) in eight.iter().enumerate() {
            word |= u64::from(CLASS_BITS[c as usize]) << (8 * k);
        }
        for (f, field) in fields.iter_mut().enumerate() {
            *field |= gather(word >> f & chars::LO) << (8 * w);
        }
    }
    let [nl, notx, slash, quest, at, colon, semi] = fields;
    Masks { nl, notx, slash, quest, at, colon, semi }
}

/// The low bits of the eight bytes of `x` (each byte 0 or 1) as eight
/// bits, byte `k` to bit `k`: the multiplication adds each byte's bit
/// into the top byte at its place, without carries.
#[inline]
fn gather(x: u64) -> u64 {
    x.wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// The 64 bytes of `block` as a host sees them (§3.1), one bit per byte:
/// `[outside, dots, hyphens, letters]`, `outside` the bytes that are no
/// `alphadigit | "-" | "."`. `path` as for [`classify`].
pub(crate) fn host_masks(path: Path, block: &[u8; BLOCK]) -> [u64; 4] {
    match path {
        #[cfg(all(target_arch = "x86_64", not(feature = "portable")))]
        Path::Avx2 if Path::detect() == Path::Avx2 => {
            // SAFETY: the processor has AVX2 (`detect` asked it).
            unsafe { x86::host_avx2(block) }
        }
        #[cfg(all(target_arch = "x86_64", not(feature = "portable")))]
        Path::Sse2 | Path::Avx2 => x86::host_sse2(block),
        _ => host_portable(block),
    }
}

/// [`host_masks`] of sixteen bytes (bits 0 to 15 of each word): the
/// host of a URL, most often that short. On x86_64 by SSE2, inline (every
/// x86_64 has it); elsewhere, and for [`Path::Portable`], by
/// `chars::host_masks` eight bytes at a time.
#[inline(always)]
pub(crate) fn host16(path: Path, sixteen: &[u8; 16]) -> [u64; 4] {
    match path {
        #[cfg(all(target_arch = "x86_64", not(feature = "portable")))]
        Path::Sse2 | Path::Avx2 => x86::host16_sse2(sixteen),
        _ => {
            let (lo, hi) = sixteen.split_at(8);
            let m0 = chars::host_masks(lo.try_into().expect("eight bytes"));
            let m1 = chars::host_masks(hi.try_into().expect("eight bytes"));
            let field = |f: u32| u64::from((m0 >> (8 * f)) as u8) | u64::from((m1 >> (8 * f)) as u8) << 8;
            [field(0), field(1), field(2), field(3)]
        }
    }
}

/// [`host16`] of the 32 bytes of `b` from `at` (bits 0 to 31), the bytes
/// past its end outside: the masks of a URL's host as the parser reads
/// it. By SSE2 on x86_64 (inline, no question to the processor), else
/// the portable way.
#[inline(always)]
pub(crate) fn host32(b: &[u8], at: usize) -> [u64; 4] {
    let path = if cfg!(all(target_arch = "x86_64", not(feature = "portable"))) {
        Path::Sse2
    } else {
        Path::Portable
    };
    let [o0, d0, h0, l0] = host16_at(path, b, at);
    let [o1, d1, h1, l1] = host16_at(path, b, at + 16);
    [o0 | o1 << 16, d0 | d1 << 16, h0 | h1 << 16, l0 | l1 << 16]
}

/// [`host16`] of the sixteen bytes of `b` from `at`, the bytes past its
/// end outside (the parser's host, and the bulk validator's). Near the
/// end, the last sixteen bytes are read and their masks moved down (no
/// copy).
#[inline(always)]
pub(crate) fn host16_at(path: Path, b: &[u8], at: usize) -> [u64; 4] {
    if let Some(sixteen) = b.get(at..).and_then(<[u8]>::first_chunk::<16>) {
        return host16(path, sixteen);
    }
    let n = b.len();
    match b.last_chunk::<16>() {
        Some(last) if at < n => {
            // `at + 16 - n` bytes before `at` read again, dropped.
            let k = at + 16 - n;
            let [o, d, h, l] = host16(path, last);
            [o >> k | (0xffff << (n - at) & 0xffff), d >> k, h >> k, l >> k]
        }
        _ => {
            let mut padded = [0u8; 16];
            let rest = b.get(at..).unwrap_or_default();
            padded[..rest.len()].copy_from_slice(rest);
            host16(path, &padded)
        }
    }
}

/// [`host_masks`] the portable way: `chars::host_masks`, eight bytes at
/// a time.
pub(crate) fn host_portable(block: &[u8; BLOCK]) -> [u64; 4] {
    let mut m = [0u64; 4];
    for (w, eight) in block.chunks_exact(8).enumerate() {
        let x = u64::from(chars::host_masks(eight.try_into().expect("eight bytes")));
        for (f, field) in m.iter_mut().enumerate() {
            *field |= (x >> (8 * f) & 0xff) << (8 * w);
        }
    }
    m
}

/// A set of bytes as two tables of sixteen for a vector shuffle, as
/// [`NIBBLES`] holds `xchar`: `c` is a member when `lo[c & 15] & hi[c >>
/// 4]` is not zero. Built at compile time from the members; a set whose
/// members have more than eight high nibbles does not build.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ByteSet {
    lo: [u8; 16],
    hi: [u8; 16],
}

impl ByteSet {
    /// The set of the bytes `c` for which `members[c]` is true.
    pub(crate) const fn new(members: &[bool; 256]) -> ByteSet {
        let mut lo = [0u8; 16];
        let mut hi = [0u8; 16];
        let mut bit = 0;
        let mut h = 0;
        while h < 16 {
            let mut l = 0;
            while l < 16 {
                if members[h << 4 | l] {
                    assert!(bit < 8, "more than eight high nibbles hold a member");
                    hi[h] = 1 << bit;
                    lo[l] |= 1 << bit;
                }
                l += 1;
            }
            if hi[h] != 0 {
                bit += 1;
            }
            h += 1;
        }
        ByteSet { lo, hi }
    }

    /// Whether `c` is a member (the portable way's lookup).
    #[inline(always)]
    pub(crate) fn contains(&self, c: u8) -> bool {
        self.lo[usize::from(c & 15)] & self.hi[usize::from(c >> 4)] != 0
    }
}

/// The 64 bytes of `block` against `set` and `N` bytes, one bit per
/// byte: `(outside, equal)`, `outside` the bytes that are not in `set`,
/// `equal[k]` those equal to `bytes[k]`.
/// By AVX2 or NEON (two shuffles per vector); SSE2 has no shuffle, so
/// `Path::Sse2` is read as [`Path::Portable`], a lookup per byte.
pub(crate) fn set_masks<const N: usize>(
    path: Path,
    block: &[u8; BLOCK],
    set: &ByteSet,
    bytes: [u8; N],
) -> (u64, [u64; N]) {
    match path {
        #[cfg(all(target_arch = "x86_64", not(feature = "portable")))]
        Path::Avx2 if Path::detect() == Path::Avx2 => {
            // SAFETY: the processor has AVX2 (`detect` asked it).
            unsafe { x86::set_avx2(block, set, bytes) }
        }
        #[cfg(all(target_arch = "aarch64", target_feature = "neon", not(feature = "portable")))]
        Path::Neon => neon::set_masks(block, set, bytes),
        _ => set_portable(block, set, bytes),
    }
}

/// Each run bit of `chars::MEMBER` (the unencoded members of a class
/// that long runs are scanned in, `"%"` not among them) as a
/// [`ByteSet`], at the bit's place.
// Only x86_64's AVX2 way reads them (the test reads them everywhere).
#[cfg_attr(any(feature = "portable", not(target_arch = "x86_64")), allow(dead_code))]
static RUN_SETS: [ByteSet; 16] = {
    let member = chars::member();
    let mut sets = [ByteSet { lo: [0; 16], hi: [0; 16] }; 16];
    let mut k = 0;
    while k < 16 {
        let mut members = [false; 256];
        let mut c = 0;
        while c < 256 {
            members[c] = member[c] & 1 << k != 0;
            c += 1;
        }
        sets[k] = ByteSet::new(&members);
        k += 1;
    }
    sets
};

/// How many bytes a run must have left before [`run_of`] takes vectors.
#[cfg_attr(any(feature = "portable", not(target_arch = "x86_64")), allow(dead_code))]
const LONG_RUN: usize = 16;

/// Where the run of unencoded members of `class` from `i` ends, as
/// [`chars::run_of`] says: the first byte that is not one, or `end`. A
/// run with sixteen bytes or more left goes 32 bytes a step where the
/// processor has AVX2 (two shuffles a vector, as [`set_masks`]); a
/// shorter one, or another processor, a word at a time. A path is the
/// long run of most URLs.
#[inline(always)]
pub(crate) fn run_of(b: &[u8], i: usize, end: usize, class: chars::Class) -> usize {
    #[cfg(all(target_arch = "x86_64", not(feature = "portable")))]
    if class.1 != 0 && end >= 32 && end >= i + LONG_RUN && Path::detect() == Path::Avx2 {
        let set = &RUN_SETS[class.1.trailing_zeros() as usize];
        // SAFETY: the processor has AVX2 (`detect` asked it).
        return unsafe { x86::run_avx2(&b[..end], i, set) };
    }
    chars::run_of(b, i, end, class)
}

/// The first 64 bytes of `bytes` as a block; when there are fewer, all
/// of them copied into `scratch` (zeros), which is the block.
#[inline(always)]
pub(crate) fn block<'a>(bytes: &'a [u8], scratch: &'a mut [u8; BLOCK]) -> &'a [u8; BLOCK] {
    match bytes.first_chunk::<BLOCK>() {
        Some(block) => block,
        None => {
            scratch[..bytes.len()].copy_from_slice(bytes);
            scratch
        }
    }
}

/// [`set_masks`] the portable way, a byte at a time.
pub(crate) fn set_portable<const N: usize>(
    block: &[u8; BLOCK],
    set: &ByteSet,
    bytes: [u8; N],
) -> (u64, [u64; N]) {
    let (mut outside, mut equal) = (0u64, [0u64; N]);
    for (k, &c) in block.iter().enumerate() {
        outside |= u64::from(!set.contains(c)) << k;
        for (m, &byte) in equal.iter_mut().zip(&bytes) {
            *m |= u64::from(c == byte) << k;
        }
    }
    (outside, equal)
}

/// The index of the first byte of `b[from..]` equal to `x`, or `b.len()`
/// when there is none: where `extract` looks for a URL (every form the
/// Appendix allows has a `:` after its scheme), so that text without one
/// is crossed at the speed of memory. By AVX2 (128 bytes a step) or SSE2
/// (16); NEON and [`Path::Portable`] take [`find_byte_portable`], the
/// oracle.
#[inline]
pub(crate) fn find_byte(path: Path, b: &[u8], from: usize, x: u8) -> usize {
    match path {
        #[cfg(all(target_arch = "x86_64", not(feature = "portable")))]
        Path::Avx2 if Path::detect() == Path::Avx2 => {
            // SAFETY: the processor has AVX2 (`detect` asked it).
            unsafe { x86::find_byte_avx2(b, from, x) }
        }
        #[cfg(all(target_arch = "x86_64", not(feature = "portable")))]
        Path::Sse2 | Path::Avx2 => x86::find_byte_sse2(b, from, x),
        _ => find_byte_portable(b, from, x),
    }
}

/// Whether `b` holds a `"%"` or two dots in a row: what the §6 checks
/// of a path look for before reading its segments (`security.rs`). By
/// SSE2 (every x86_64), sixteen bytes a step; elsewhere, and with the
/// feature `portable`, by [`escape_or_dots_portable`], the oracle.
#[inline]
pub(crate) fn escape_or_dots(b: &[u8]) -> bool {
    #[cfg(all(target_arch = "x86_64", not(feature = "portable")))]
    return x86::escape_or_dots_sse2(b);
    #[cfg(not(all(target_arch = "x86_64", not(feature = "portable"))))]
    escape_or_dots_portable(b)
}

/// [`escape_or_dots`] eight bytes a step (SWAR over `u64`), with no
/// branch on a single `"."` (a file name's extension, a directory's dot).
pub(crate) fn escape_or_dots_portable(b: &[u8]) -> bool {
    // The high bit of each byte of `w` that is `c`, exactly (no borrow
    // crosses a byte).
    let eq = |w: u64, c: u8| {
        let x = w ^ (chars::LO * u64::from(c));
        !(((x & !chars::HI) + !chars::HI) | x) & chars::HI
    };
    // A dot in the last byte of the step before, as the high bit of the
    // first byte of this one.
    let mut carry = 0;
    let mut i = 0;
    while i < b.len() {
        // Zeros past the end: neither `%` nor `.`.
        let w = u64::from_le_bytes(chars::chunk_from(b, i));
        let dots = eq(w, b'.');
        if eq(w, b'%') | dots & (dots << 8 | carry) != 0 {
            return true;
        }
        carry = dots >> 56;
        i += 8;
    }
    false
}

/// [`find_byte`] the portable way: eight bytes a step (SWAR over `u64`).
pub(crate) fn find_byte_portable(b: &[u8], from: usize, x: u8) -> usize {
    crate::chars::find_byte(b, from.min(b.len()), b.len(), x)
}

/// The bytes of a wrapper's inside by class, a bit a byte over 64 bytes:
/// what `extract` reads `<URL:...>` by (Appendix: the URL ends at the
/// first `>`, and the whitespace inside is deleted).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WrapperMasks {
    /// `>`.
    pub(crate) gt: u64,
    /// ASCII white space: HT, LF, VT, FF, CR and space.
    pub(crate) ws: u64,
    /// The line breaks among them: LF, VT, FF and CR.
    pub(crate) brk: u64,
    /// `-`.
    pub(crate) dash: u64,
    /// `<`, and every byte neither printable ASCII nor white space (a
    /// control, DEL, or a byte of a non-ASCII character).
    pub(crate) other: u64,
}

/// The [`WrapperMasks`] of `b[at..at + 64]`, when the processor has AVX2
/// and 64 bytes are left; `None` otherwise (the caller reads the bytes
/// one at a time).
pub(crate) fn wrapper_masks(path: Path, b: &[u8], at: usize) -> Option<WrapperMasks> {
    let block = b.get(at..).and_then(<[u8]>::first_chunk::<BLOCK>)?;
    match path {
        #[cfg(all(target_arch = "x86_64", not(feature = "portable")))]
        Path::Avx2 if Path::detect() == Path::Avx2 => {
            // SAFETY: the processor has AVX2 (`detect` asked it).
            Some(unsafe { x86::wrapper_masks_avx2(block) })
        }
        _ => {
            let _ = block;
            None
        }
    }
}

/// [`wrapper_masks`] a byte at a time: the oracle of the tests.
#[cfg(test)]
fn wrapper_masks_portable(block: &[u8; BLOCK]) -> WrapperMasks {
    let mut m = WrapperMasks { gt: 0, ws: 0, brk: 0, dash: 0, other: 0 };
    for (k, &c) in block.iter().enumerate() {
        let bit = 1u64 << k;
        let brk = matches!(c, b'\n' | b'\x0B' | b'\x0C' | b'\r');
        let ws = brk || c == b'\t' || c == b' ';
        m.gt |= if c == b'>' { bit } else { 0 };
        m.ws |= if ws { bit } else { 0 };
        m.brk |= if brk { bit } else { 0 };
        m.dash |= if c == b'-' { bit } else { 0 };
        m.other |= if c == b'<' || (!ws && !matches!(c, b'!'..=b'~')) { bit } else { 0 };
    }
    m
}

/// The vector way for aarch64: NEON, sixteen bytes at a time, `notx`
/// from the nibble tables of [`NIBBLES`] (`vqtbl1q_u8`), a movemask made
/// of bit weights and three pairwise additions.
#[cfg(all(target_arch = "aarch64", target_feature = "neon", not(feature = "portable")))]
mod neon {
    use super::{Masks, BLOCK, NIBBLES};
    use core::arch::aarch64::*;

    /// The masks of `b` (whole blocks).
    pub(super) fn classify(b: &[u8], out: &mut Vec<Masks>) {
        for block in b.chunks_exact(BLOCK) {
            let block = block.try_into().expect("a whole block");
            let (notx, [nl, slash, quest, at, colon, semi]) =
                masks(block, (&NIBBLES.0, &NIBBLES.1), [b'\n', b'/', b'?', b'@', b':', b';']);
            out.push(Masks { nl, notx, slash, quest, at, colon, semi });
        }
    }

    /// `set_masks` with NEON.
    pub(super) fn set_masks<const N: usize>(
        block: &[u8; BLOCK],
        set: &super::ByteSet,
        bytes: [u8; N],
    ) -> (u64, [u64; N]) {
        masks(block, (&set.lo, &set.hi), bytes)
    }

    /// The bytes of `block` outside the set of the nibble tables `(lo,
    /// hi)` (as [`NIBBLES`] holds `xchar`), and those equal to each of
    /// `bytes`, as bit masks; sixteen bytes at a time.
    fn masks<const N: usize>(
        block: &[u8; BLOCK],
        tables: (&[u8; 16], &[u8; 16]),
        bytes: [u8; N],
    ) -> (u64, [u64; N]) {
        let weights: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];
        // SAFETY: `block` is 64 bytes long, four loads of sixteen that
        // need no alignment, as are the tables; NEON is enabled for the
        // whole build (the module's `cfg` asks for it).
        #[allow(unused_unsafe)]
        unsafe {
            let w = vld1q_u8(weights.as_ptr());
            let (lo_t, hi_t) = (vld1q_u8(tables.0.as_ptr()), vld1q_u8(tables.1.as_ptr()));
            let p = block.as_ptr();
            let v = [vld1q_u8(p), vld1q_u8(p.add(16)), vld1q_u8(p.add(32)), vld1q_u8(p.add(48))];
            // Bit `k` of the result is lane `k` of the four vectors of 0
            // or 0xff, one after the other.
            let mask = |c: [uint8x16_t; 4]| {
                let s0 = vpaddq_u8(vandq_u8(c[0], w), vandq_u8(c[1], w));
                let s1 = vpaddq_u8(vandq_u8(c[2], w), vandq_u8(c[3], w));
                let s = vpaddq_u8(s0, s1);
                vgetq_lane_u64::<0>(vreinterpretq_u64_u8(vpaddq_u8(s, s)))
            };
            let eq = |c: u8| mask(v.map(|x| vceqq_u8(x, vdupq_n_u8(c))));
            let outside = v.map(|x| {
                let l = vqtbl1q_u8(lo_t, vandq_u8(x, vdupq_n_u8(0x0f)));
                let h = vqtbl1q_u8(hi_t, vshrq_n_u8::<4>(x));
                vceqq_u8(vandq_u8(l, h), vdupq_n_u8(0))
            });
            (mask(outside), bytes.map(eq))
        }
    }
}

/// The vector ways for x86_64.
#[cfg(all(target_arch = "x86_64", not(feature = "portable")))]
mod x86 {
    use super::{Masks, BLOCK};
    use std::arch::x86_64::*;

    /// One comparison per class, on sixteen bytes: what `portable` finds
    /// with its table. `notx` is the complement of `xchar`, which is the
    /// bytes 21 to 7A but `" # % < > [ \ ] ^` and backquote (§2.2 unsafe).
    macro_rules! classes {
        ($v:expr, $set1:ident, $cmpeq:ident, $cmpgt:ident, $or:ident, $and:ident, $andnot:ident,
         $movemask:ident) => {{
            let v = $v;
            macro_rules! eq {
                ($c:expr) => {
                    $cmpeq(v, $set1($c as i8))
                };
            }
            // Signed comparisons: bytes from 80 up are negative, below all.
            macro_rules! within {
                ($x:expr, $lo:expr, $hi:expr) => {
                    $and($cmpgt($x, $set1(($lo - 1) as i8)), $cmpgt($set1(($hi + 1) as i8), $x))
                };
            }
            let unsafe_ = $or(
                $or($cmpeq($or(v, $set1(1)), $set1(0x23)), eq!(b'%')),
                $or($or($cmpeq($or(v, $set1(2)), $set1(0x3e)), eq!(b'`')), within!(v, b'[', b'^')),
            );
            let xchar = $andnot(unsafe_, within!(v, 0x21u8, b'z'));
            // The fields of `Masks`, `xchar` where `notx` goes (`finish`
            // turns it round).
            Masks {
                nl: u64::from($movemask(eq!(b'\n')) as u32),
                notx: u64::from($movemask(xchar) as u32),
                slash: u64::from($movemask(eq!(b'/')) as u32),
                quest: u64::from($movemask(eq!(b'?')) as u32),
                at: u64::from($movemask(eq!(b'@')) as u32),
                colon: u64::from($movemask(eq!(b':')) as u32),
                semi: u64::from($movemask(eq!(b';')) as u32),
            }
        }};
    }

    /// The masks of `b` (whole blocks) with SSE2, sixteen bytes at a time.
    pub(super) fn classify_sse2(b: &[u8], out: &mut Vec<Masks>) {
        for block in b.chunks_exact(BLOCK) {
            let mut m = Masks::default();
            for (q, sixteen) in block.chunks_exact(16).enumerate() {
                // SAFETY: `sixteen` is 16 bytes long, and the load needs
                // no alignment; SSE2 is part of every x86_64.
                let part = unsafe {
                    let v = _mm_loadu_si128(sixteen.as_ptr().cast());
                    classes!(
                        v,
                        _mm_set1_epi8,
                        _mm_cmpeq_epi8,
                        _mm_cmpgt_epi8,
                        _mm_or_si128,
                        _mm_and_si128,
                        _mm_andnot_si128,
                        _mm_movemask_epi8
                    )
                };
                m = or_shifted(m, part, 16 * q as u32);
            }
            out.push(finish(m));
        }
    }

    /// The masks of `b` (whole blocks) with AVX2, 32 bytes at a time:
    /// `notx` from the two nibble tables of [`NIBBLES`](super::NIBBLES)
    /// (two shuffles, where `classes!` compares eight times), the
    /// delimiters by one comparison each.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn classify_avx2(b: &[u8], out: &mut Vec<Masks>) {
        let (lo_table, hi_table) = super::NIBBLES;
        for block in b.chunks_exact(BLOCK) {
            // SAFETY: `block` is 64 bytes long, two loads of 32 that need
            // no alignment; the tables are sixteen bytes each; the caller
            // makes sure of AVX2.
            #[allow(unused_unsafe)]
            let halves = unsafe {
                let lo_t = _mm256_broadcastsi128_si256(_mm_loadu_si128(lo_table.as_ptr().cast()));
                let hi_t = _mm256_broadcastsi128_si256(_mm_loadu_si128(hi_table.as_ptr().cast()));
                let low4 = _mm256_set1_epi8(0x0f);
                let p = block.as_ptr();
                let half = |v: __m256i| {
                    let eq =
                        |c: u8| _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(c as i8))) as u32;
                    let l = _mm256_shuffle_epi8(lo_t, _mm256_and_si256(v, low4));
                    let h = _mm256_shuffle_epi8(hi_t, _mm256_and_si256(_mm256_srli_epi16(v, 4), low4));
                    let notx = _mm256_cmpeq_epi8(_mm256_and_si256(l, h), _mm256_setzero_si256());
                    [
                        eq(b'\n'),
                        _mm256_movemask_epi8(notx) as u32,
                        eq(b'/'),
                        eq(b'?'),
                        eq(b'@'),
                        eq(b':'),
                        eq(b';'),
                    ]
                };
                [half(_mm256_loadu_si256(p.cast())), half(_mm256_loadu_si256(p.add(32).cast()))]
            };
            let [lo, hi] = halves;
            let w = |f: usize| u64::from(lo[f]) | u64::from(hi[f]) << 32;
            out.push(Masks {
                nl: w(0),
                notx: w(1),
                slash: w(2),
                quest: w(3),
                at: w(4),
                colon: w(5),
                semi: w(6),
            });
        }
    }

    /// `set_masks` with AVX2, 32 bytes at a time: two shuffles for the
    /// set, a comparison for each byte.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn set_avx2<const N: usize>(
        block: &[u8; BLOCK],
        set: &super::ByteSet,
        bytes: [u8; N],
    ) -> (u64, [u64; N]) {
        // SAFETY: `block` is 64 bytes long, two loads of 32 that need no
        // alignment; the tables are sixteen bytes each; the caller makes
        // sure of AVX2.
        #[allow(unused_unsafe)]
        let [lo, hi] = unsafe {
            let lo_t = _mm256_broadcastsi128_si256(_mm_loadu_si128(set.lo.as_ptr().cast()));
            let hi_t = _mm256_broadcastsi128_si256(_mm_loadu_si128(set.hi.as_ptr().cast()));
            let low4 = _mm256_set1_epi8(0x0f);
            let p = block.as_ptr();
            let half = |v: __m256i| {
                let eq = |c: u8| _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(c as i8))) as u32;
                let l = _mm256_shuffle_epi8(lo_t, _mm256_and_si256(v, low4));
                let h = _mm256_shuffle_epi8(hi_t, _mm256_and_si256(_mm256_srli_epi16(v, 4), low4));
                let outside = _mm256_cmpeq_epi8(_mm256_and_si256(l, h), _mm256_setzero_si256());
                (_mm256_movemask_epi8(outside) as u32, bytes.map(eq))
            };
            [half(_mm256_loadu_si256(p.cast())), half(_mm256_loadu_si256(p.add(32).cast()))]
        };
        let join = |lo: u32, hi: u32| u64::from(lo) | u64::from(hi) << 32;
        (join(lo.0, hi.0), std::array::from_fn(|k| join(lo.1[k], hi.1[k])))
    }

    /// `run_of` with AVX2: from `i`, 32 bytes a step; the last step the
    /// last 32 bytes of `b`, those before `i` read again and left out.
    ///
    /// # Safety
    /// The processor must have AVX2; `b` holds 32 bytes or more.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn run_avx2(b: &[u8], mut i: usize, set: &super::ByteSet) -> usize {
        let n = b.len();
        // SAFETY: the tables are sixteen bytes each, the loads of 32
        // bytes need no alignment; the caller makes sure of AVX2.
        #[allow(unused_unsafe)]
        let (lo_t, hi_t) = unsafe {
            (
                _mm256_broadcastsi128_si256(_mm_loadu_si128(set.lo.as_ptr().cast())),
                _mm256_broadcastsi128_si256(_mm_loadu_si128(set.hi.as_ptr().cast())),
            )
        };
        // The bytes of `b[at..at + 32]` outside the set, a bit each.
        let outside = |at: usize| {
            let chunk: &[u8; 32] = b[at..].first_chunk().expect("32 bytes");
            // SAFETY: as above.
            #[allow(unused_unsafe)]
            unsafe {
                let v = _mm256_loadu_si256(chunk.as_ptr().cast());
                let low4 = _mm256_set1_epi8(0x0f);
                let l = _mm256_shuffle_epi8(lo_t, _mm256_and_si256(v, low4));
                let h = _mm256_shuffle_epi8(hi_t, _mm256_and_si256(_mm256_srli_epi16(v, 4), low4));
                _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_and_si256(l, h), _mm256_setzero_si256())) as u32
            }
        };
        while i + 32 <= n {
            let m = outside(i);
            if m != 0 {
                return i + m.trailing_zeros() as usize;
            }
            i += 32;
        }
        if i >= n {
            return n;
        }
        let m = outside(n - 32) >> (i + 32 - n);
        if m == 0 {
            n
        } else {
            i + m.trailing_zeros() as usize
        }
    }

    /// The host classes of sixteen or 32 bytes: what `host_portable`
    /// finds with its table, as `[outside, dots, hyphens, letters]`.
    macro_rules! host_classes {
        ($v:expr, $set1:ident, $cmpeq:ident, $cmpgt:ident, $or:ident, $and:ident, $movemask:ident) => {{
            let v = $v;
            macro_rules! within {
                ($x:expr, $lo:expr, $hi:expr) => {
                    $and($cmpgt($x, $set1(($lo - 1) as i8)), $cmpgt($set1(($hi + 1) as i8), $x))
                };
            }
            let letter = within!($or(v, $set1(0x20)), b'a', b'z');
            let dot = $cmpeq(v, $set1(b'.' as i8));
            let hyphen = $cmpeq(v, $set1(b'-' as i8));
            let host = $or($or(letter, within!(v, b'0', b'9')), $or(dot, hyphen));
            [
                u64::from(!($movemask(host) as u32)),
                u64::from($movemask(dot) as u32),
                u64::from($movemask(hyphen) as u32),
                u64::from($movemask(letter) as u32),
            ]
        }};
    }

    /// `host_masks` with SSE2, sixteen bytes at a time.
    pub(super) fn host_sse2(block: &[u8; BLOCK]) -> [u64; 4] {
        let mut m = [0u64; 4];
        for (q, sixteen) in block.chunks_exact(16).enumerate() {
            // SAFETY: `sixteen` is 16 bytes long, and the load needs no
            // alignment; SSE2 is part of every x86_64.
            let part = unsafe {
                let v = _mm_loadu_si128(sixteen.as_ptr().cast());
                host_classes!(
                    v,
                    _mm_set1_epi8,
                    _mm_cmpeq_epi8,
                    _mm_cmpgt_epi8,
                    _mm_or_si128,
                    _mm_and_si128,
                    _mm_movemask_epi8
                )
            };
            for (field, bits) in m.iter_mut().zip(part) {
                *field |= (bits & 0xffff) << (16 * q);
            }
        }
        m
    }

    /// `host16` with SSE2: one vector.
    #[inline(always)]
    pub(super) fn host16_sse2(sixteen: &[u8; 16]) -> [u64; 4] {
        // SAFETY: `sixteen` is 16 bytes long, and the load needs no
        // alignment; SSE2 is part of every x86_64.
        let m = unsafe {
            let v = _mm_loadu_si128(sixteen.as_ptr().cast());
            host_classes!(
                v,
                _mm_set1_epi8,
                _mm_cmpeq_epi8,
                _mm_cmpgt_epi8,
                _mm_or_si128,
                _mm_and_si128,
                _mm_movemask_epi8
            )
        };
        // Sixteen bits a mask: the complement of `outside` sets the rest.
        // (Not `m.map(..)`: that call is not inlined.)
        [m[0] & 0xffff, m[1], m[2], m[3]]
    }

    /// `host_masks` with AVX2, 32 bytes at a time.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn host_avx2(block: &[u8; BLOCK]) -> [u64; 4] {
        // SAFETY: `block` is 64 bytes long, two loads of 32 that need no
        // alignment; the caller makes sure of AVX2.
        #[allow(unused_unsafe)]
        let (lo, hi) = unsafe {
            let p = block.as_ptr();
            macro_rules! half {
                ($v:expr) => {
                    host_classes!(
                        $v,
                        _mm256_set1_epi8,
                        _mm256_cmpeq_epi8,
                        _mm256_cmpgt_epi8,
                        _mm256_or_si256,
                        _mm256_and_si256,
                        _mm256_movemask_epi8
                    )
                };
            }
            (half!(_mm256_loadu_si256(p.cast())), half!(_mm256_loadu_si256(p.add(32).cast())))
        };
        // Through memory: combined in registers, LLVM joins the two
        // halves' comparisons into one of 64 lanes, which it takes apart
        // byte by byte (no AVX-512 here). (`classify_avx2` joins its
        // halves in registers without that.)
        // Each word on its own: a barrier over the two arrays at once had
        // them stored word by word and loaded back as one vector, which
        // waits for the stores (a failed store-to-load forward: half of
        // this function's time).
        let w = |lo: u64, hi: u64| core::hint::black_box(lo) | core::hint::black_box(hi) << 32;
        [w(lo[0], hi[0]), w(lo[1], hi[1]), w(lo[2], hi[2]), w(lo[3], hi[3])]
    }

    /// `wrapper_masks` with AVX2: the five classes of two vectors.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn wrapper_masks_avx2(block: &[u8; BLOCK]) -> super::WrapperMasks {
        let p = block.as_ptr();
        // SAFETY: `block` is 64 bytes long, two loads of 32 that need no
        // alignment; the caller makes sure of AVX2.
        #[allow(unused_unsafe)]
        let (lo, hi) = unsafe {
            (classes32(_mm256_loadu_si256(p.cast())), classes32(_mm256_loadu_si256(p.add(32).cast())))
        };
        let join = |k: usize| u64::from(lo[k]) | u64::from(hi[k]) << 32;
        super::WrapperMasks { gt: join(0), ws: join(1), brk: join(2), dash: join(3), other: join(4) }
    }

    /// The classes of `wrapper_masks` for 32 bytes: `>`, white space,
    /// line breaks, `-`, other.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn classes32(v: __m256i) -> [u32; 5] {
        let eq = |c: u8| _mm256_cmpeq_epi8(v, _mm256_set1_epi8(c as i8));
        // LF, VT, FF, CR: 10 to 13, as the unsigned bounds keep `v`.
        let brk = _mm256_and_si256(
            _mm256_cmpeq_epi8(_mm256_max_epu8(v, _mm256_set1_epi8(10)), v),
            _mm256_cmpeq_epi8(_mm256_min_epu8(v, _mm256_set1_epi8(13)), v),
        );
        let ws = _mm256_or_si256(brk, _mm256_or_si256(eq(b'\t'), eq(b' ')));
        // Below `!` or above `~`: as signed bytes, below 0x21 takes in
        // every byte from 0x80; DEL apart.
        let unprintable = _mm256_or_si256(_mm256_cmpgt_epi8(_mm256_set1_epi8(0x21), v), eq(0x7F));
        let other = _mm256_or_si256(_mm256_andnot_si256(ws, unprintable), eq(b'<'));
        [eq(b'>'), ws, brk, eq(b'-'), other].map(|m| _mm256_movemask_epi8(m) as u32)
    }

    /// `find_byte` with SSE2, sixteen bytes a step.
    pub(super) fn find_byte_sse2(b: &[u8], mut i: usize, x: u8) -> usize {
        while let Some(sixteen) = b.get(i..).and_then(<[u8]>::first_chunk::<16>) {
            // SAFETY: `sixteen` is 16 bytes long, and the load needs no
            // alignment; SSE2 is part of every x86_64.
            let m = unsafe {
                let v = _mm_loadu_si128(sixteen.as_ptr().cast());
                _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(x as i8))) as u32
            };
            if m != 0 {
                return i + m.trailing_zeros() as usize;
            }
            i += 16;
        }
        super::find_byte_portable(b, i, x)
    }

    /// `escape_or_dots` with SSE2, sixteen bytes a step; the last step
    /// the last sixteen bytes (read again where they overlap the step
    /// before, which found nothing there), a text shorter than sixteen
    /// the portable way.
    pub(super) fn escape_or_dots_sse2(b: &[u8]) -> bool {
        // `c` bit by bit: a `%`, or a dot after a dot (bit 0's dot after
        // `carry`, the dot before the sixteen bytes).
        let hit = |sixteen: &[u8; 16], carry: u32| {
            // SAFETY: `sixteen` is 16 bytes long, and the load needs no
            // alignment; SSE2 is part of every x86_64.
            let (pct, dots) = unsafe {
                let v = _mm_loadu_si128(sixteen.as_ptr().cast());
                let eq = |c: u8| _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8))) as u32;
                (eq(b'%'), eq(b'.'))
            };
            (pct | dots & (dots << 1 | carry) != 0, dots >> 15)
        };
        let n = b.len();
        if n < 16 {
            return super::escape_or_dots_portable(b);
        }
        let mut carry = 0;
        let mut i = 0;
        while i + 16 <= n {
            let (found, last) = hit(b[i..].first_chunk().expect("sixteen bytes"), carry);
            if found {
                return true;
            }
            carry = last;
            i += 16;
        }
        i < n && hit(b[n - 16..].first_chunk().expect("sixteen bytes"), u32::from(b[n - 17] == b'.')).0
    }

    /// `find_byte` with AVX2: 128 bytes a step, one comparison a vector
    /// and their union tested once; where it holds, the four vectors'
    /// masks give the place.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn find_byte_avx2(b: &[u8], mut i: usize, x: u8) -> usize {
        while let Some(run) = b.get(i..).and_then(<[u8]>::first_chunk::<{ 2 * BLOCK }>) {
            // SAFETY: `run` is 128 bytes long, four loads of 32 that need
            // no alignment; the caller makes sure of AVX2.
            #[allow(unused_unsafe)]
            let hit = unsafe {
                let vx = _mm256_set1_epi8(x as i8);
                let p = run.as_ptr();
                let e = [0, 1, 2, 3].map(|k| _mm256_cmpeq_epi8(_mm256_loadu_si256(p.add(32 * k).cast()), vx));
                let any = _mm256_or_si256(_mm256_or_si256(e[0], e[1]), _mm256_or_si256(e[2], e[3]));
                if _mm256_movemask_epi8(any) == 0 {
                    None
                } else {
                    let m = e.map(|v| u64::from(_mm256_movemask_epi8(v) as u32));
                    Some((m[0] | m[1] << 32, m[2] | m[3] << 32))
                }
            };
            if let Some((lo, hi)) = hit {
                let at = if lo != 0 { lo.trailing_zeros() } else { 64 + hi.trailing_zeros() };
                return i + at as usize;
            }
            i += 2 * BLOCK;
        }
        find_byte_sse2(b, i, x)
    }

    /// The masks `a`, with those of `b` shifted up by `by` bits.
    #[inline(always)]
    fn or_shifted(a: Masks, b: Masks, by: u32) -> Masks {
        Masks {
            nl: a.nl | b.nl << by,
            notx: a.notx | b.notx << by,
            slash: a.slash | b.slash << by,
            quest: a.quest | b.quest << by,
            at: a.at | b.at << by,
            colon: a.colon | b.colon << by,
            semi: a.semi | b.semi << by,
        }
    }

    /// The masks with `notx` turned round: it held `xchar`.
    #[inline(always)]
    fn finish(m: Masks) -> Masks {
        Masks { notx: !m.notx, ..m }
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    /// A `"%"`, a `"."` or two at every place of texts of up to 48 bytes
    /// (every step boundary of either way, and the tail), and every text
    /// of up to 10 bytes over `%`, `.`, `a`: the vector way and the
    /// portable one say what a byte-by-byte reading says.
    #[test]
    fn escape_or_dots_finds_a_percent_or_two_dots_in_a_row() {
        let naive = |t: &[u8]| t.contains(&b'%') || t.windows(2).any(|w| w == b"..");
        let check = |t: &[u8]| {
            let show = String::from_utf8_lossy(t);
            assert_eq!(escape_or_dots(t), naive(t), "{show}");
            assert_eq!(escape_or_dots_portable(t), naive(t), "{show}");
        };
        for len in 0..=48 {
            for i in 0..len {
                for j in i..len {
                    for (a, b) in [(b'.', b'.'), (b'%', b'a'), (b'a', b'%'), (b'.', b'/')] {
                        let mut t = vec![b'a'; len];
                        t[i] = a;
                        t[j] = b;
                        check(&t);
                    }
                }
            }
        }
        for t in crate::testing::every_text(b"%.a", 0..=10) {
            check(&t);
        }
    }

    /// The naive classes of one byte, straight from the classes of
    /// `chars.rs`.
    fn naive(block: &[u8]) -> Masks {
        let mut m = Masks::default();
        for (k, &c) in block.iter().enumerate() {
            let bit = 1u64 << k;
            let set = |field: &mut u64, yes: bool| *field |= if yes { bit } else { 0 };
            set(&mut m.nl, c == b'\n');
            set(&mut m.notx, !XCHAR.literal().contains(c));
            set(&mut m.slash, c == b'/');
            set(&mut m.quest, c == b'?');
            set(&mut m.at, c == b'@');
            set(&mut m.colon, c == b':');
            set(&mut m.semi, c == b';');
        }
        m
    }

    fn all_paths(b: &[u8]) -> Vec<(Path, Vec<Masks>)> {
        Path::available()
            .into_iter()
            .map(|path| {
                let mut out = Vec::new();
                classify(path, b, &mut out);
                (path, out)
            })
            .collect()
    }

    /// Every byte value at every place of a block, among bytes of each
    /// class, through every way: the naive classes.
    #[test]
    fn every_way_gives_the_naive_classes_for_every_byte_at_every_place() {
        // Under Miri (hours otherwise): every byte value, each in one place.
        let (fillers, places): (&[u8], usize) = if cfg!(miri) { (b"a", 64) } else { (b"a%\x80\n~", 1) };
        for &filler in fillers {
            let mut b = Vec::new();
            for c in 0..=255u8 {
                for k in (c as usize % places..BLOCK).step_by(places) {
                    let mut block = [filler; BLOCK];
                    block[k] = c;
                    b.extend_from_slice(&block);
                }
            }
            let expected: Vec<Masks> = b.chunks(BLOCK).map(naive).collect();
            for (path, got) in all_paths(&b) {
                assert_eq!(got, expected, "{path:?} among {filler}");
            }
        }
    }

    /// Random texts of every length up to a few blocks: the last block
    /// padded with zeros, as if they were there.
    #[test]
    fn every_way_gives_the_naive_classes_on_random_texts() {
        let texts = crate::testing::random_texts(
            41,
            if cfg!(miri) { 20 } else { 3000 },
            300,
            b"az09%/?@:;\n\r#~ \x80\xff\x00AFG`^[]\\<>\"",
        );
        for text in texts {
            let mut padded = text.clone();
            padded.resize(text.len().div_ceil(BLOCK) * BLOCK, 0);
            let expected: Vec<Masks> = padded.chunks(BLOCK).map(naive).collect();
            for (path, got) in all_paths(&text) {
                assert_eq!(got, expected, "{path:?} {text:?}");
            }
        }
    }

    /// The host classes of every way against the naive ones, for every
    /// byte value at every place.
    #[test]
    fn every_way_gives_the_naive_host_classes() {
        let naive = |block: &[u8; BLOCK]| {
            let mut m = [0u64; 4];
            for (k, &c) in block.iter().enumerate() {
                let host = c.is_ascii_alphanumeric() || c == b'.' || c == b'-';
                for (f, yes) in [!host, c == b'.', c == b'-', c.is_ascii_alphabetic()].into_iter().enumerate()
                {
                    m[f] |= u64::from(yes) << k;
                }
            }
            m
        };
        let places = if cfg!(miri) { 64 } else { 1 };
        for filler in [b'a', b'.', 0xff] {
            for c in 0..=255u8 {
                for k in (c as usize % places..BLOCK).step_by(places) {
                    let mut block = [filler; BLOCK];
                    block[k] = c;
                    for path in Path::available() {
                        assert_eq!(host_masks(path, &block), naive(&block), "{path:?} {c} at {k}");
                        let sixteen = block[k / 16 * 16..][..16].try_into().expect("sixteen bytes");
                        let expected = naive(&block).map(|m| m >> (k / 16 * 16) & 0xffff);
                        assert_eq!(host16(path, sixteen), expected, "{path:?} {c} at {k}, sixteen");
                    }
                }
            }
        }
    }

    /// `host32` from every place of texts of 0 to 48 bytes, each with a
    /// byte outside a host, a dot, a hyphen or a digit at every place:
    /// the naive classes of the 32 bytes from there, those past the end
    /// outside (the step that reads the last sixteen bytes again, and
    /// the one that copies a text shorter than sixteen).
    #[test]
    fn host32_gives_the_naive_host_classes_to_the_end() {
        let naive = |b: &[u8], at: usize| {
            let mut m = [0u64; 4];
            for k in 0..32 {
                let c = b.get(at + k).copied().unwrap_or(0);
                let host = c.is_ascii_alphanumeric() || c == b'.' || c == b'-';
                for (f, yes) in [!host, c == b'.', c == b'-', c.is_ascii_alphabetic()].into_iter().enumerate()
                {
                    m[f] |= u64::from(yes) << k;
                }
            }
            m
        };
        let lens: Vec<usize> = if cfg!(miri) { vec![0, 15, 16, 17, 33] } else { (0..=48).collect() };
        for len in lens {
            for k in 0..len.max(1) {
                for odd in [b'/', b'.', b'-', b'7'] {
                    let mut t = vec![b'a'; len];
                    if let Some(c) = t.get_mut(k) {
                        *c = odd;
                    }
                    for at in 0..=len + 1 {
                        assert_eq!(host32(&t, at), naive(&t, at), "{t:?} from {at}");
                    }
                }
            }
        }
    }

    /// `set_masks` of every way against the naive classes, for every
    /// byte value at every place, with a set of many high nibbles.
    #[test]
    fn every_way_gives_the_naive_set_masks() {
        let members: [bool; 256] = std::array::from_fn(|c| {
            let c = c as u8;
            (c.is_ascii_graphic() && !b"()<>,;:\\\"[]".contains(&c)) || c == 0x85
        });
        let set = ByteSet::new(&members);
        let bytes = [b'.', b'@', b'%'];
        let naive = |block: &[u8; BLOCK]| {
            let (mut outside, mut equal) = (0u64, [0u64; 3]);
            for (k, &c) in block.iter().enumerate() {
                outside |= u64::from(!members[c as usize]) << k;
                for (m, &byte) in equal.iter_mut().zip(&bytes) {
                    *m |= u64::from(c == byte) << k;
                }
            }
            (outside, equal)
        };
        for c in 0..=255u8 {
            assert_eq!(set.contains(c), members[c as usize], "{c}");
        }
        let places = if cfg!(miri) { 64 } else { 1 };
        for filler in [b'a', b'.', 0xff] {
            for c in 0..=255u8 {
                for k in (c as usize % places..BLOCK).step_by(places) {
                    let mut block = [filler; BLOCK];
                    block[k] = c;
                    for path in Path::available() {
                        assert_eq!(
                            set_masks(path, &block, &set, bytes),
                            naive(&block),
                            "{path:?} {c} at {k}"
                        );
                    }
                }
            }
        }
    }

    /// A byte outside the class, and a `"%"`, at every place of texts of
    /// up to 80 bytes, from every start to every end: each class's run
    /// ends where a byte-by-byte reading says (the word way, and the
    /// vector way where the processor has it).
    #[test]
    fn run_of_ends_where_the_bytes_say() {
        // Miri (the portable path, see the module's head) takes a sample.
        let texts = crate::testing::random_texts(
            7,
            if cfg!(miri) { 4 } else { 300 },
            80,
            b"aaaaaaaaaaaaaaaaz09/.;?#@:%& ~\x80",
        );
        for class in chars::RUN_CLASSES {
            let member = |c: u8| chars::MEMBER[c as usize] & class.1 != 0;
            for c in 0..=255u8 {
                assert_eq!(
                    RUN_SETS[class.1.trailing_zeros() as usize].contains(c),
                    member(c),
                    "{class:?} {c}"
                );
            }
            let mut all = texts.clone();
            let lens: &[usize] = if cfg!(miri) { &[33] } else { &[31, 32, 33, 48, 64, 65, 80] };
            for &len in lens {
                for k in 0..len {
                    for odd in [b' ', b'%', 0x80] {
                        let mut t = vec![b'a'; len];
                        t[k] = odd;
                        all.push(t);
                    }
                }
            }
            for t in &all {
                for start in 0..=t.len() {
                    for end in [start, (start + 15).min(t.len()), (start + 16).min(t.len()), t.len()] {
                        let naive = (start..end).find(|&k| !member(t[k])).unwrap_or(end);
                        assert_eq!(run_of(t, start, end, class), naive, "{class:?} {t:?} {start} {end}");
                    }
                }
            }
        }
    }

    /// The tests above compare every vector way of the target, so each
    /// must be among those `available` gives.
    #[test]
    fn the_vector_ways_of_this_target_are_compared() {
        let paths = Path::available();
        assert_eq!(paths[0], Path::Portable);
        if cfg!(all(target_arch = "x86_64", not(feature = "portable"))) {
            assert!(paths.contains(&Path::Sse2));
        }
        if cfg!(all(target_arch = "aarch64", target_feature = "neon", not(feature = "portable"))) {
            assert_eq!(paths, [Path::Portable, Path::Neon]);
            assert_eq!(Path::detect(), Path::Neon);
        }
    }

    #[test]
    fn the_nibble_tables_hold_xchar() {
        let (lo, hi) = NIBBLES;
        for c in 0..=255u8 {
            let table = lo[usize::from(c & 15)] & hi[usize::from(c >> 4)] != 0;
            assert_eq!(table, XCHAR.literal().contains(c), "{c}");
        }
    }

    /// The first `x` or `y` from every place of texts with none, one and
    /// many, through every way: the plain search's answer.
    #[test]
    fn every_way_finds_the_first_of_a_byte() {
        let mut state = 0x1738_u64;
        let mut texts: Vec<Vec<u8>> = vec![Vec::new(), b":".to_vec(), vec![b'a'; 200]];
        for len in [1usize, 7, 8, 9, 15, 16, 17, 31, 63, 64, 65, 127, 128, 129, 130, 191, 192, 300] {
            for density in [0u64, 1, 3, 40] {
                let text: Vec<u8> = (0..len)
                    .map(|_| {
                        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        let r = state >> 33;
                        match r % 100 {
                            k if k < density => b':',
                            _ => [b'a', b' ', 0x80, 0xff, b'8', b'<', b';', b'\n'][(r / 100 % 8) as usize],
                        }
                    })
                    .collect();
                texts.push(text);
            }
        }
        for text in &texts {
            for from in 0..=text.len() {
                let plain = text[from..].iter().position(|&c| c == b':').map_or(text.len(), |k| from + k);
                assert_eq!(find_byte_portable(text, from, b':'), plain);
                for path in Path::available() {
                    assert_eq!(find_byte(path, text, from, b':'), plain, "{path:?} {text:?} {from}");
                }
            }
        }
    }

    #[test]
    fn wrapper_masks_agree_with_the_byte_loop() {
        let mut state = 0x1738_1994_u64;
        for _ in 0..2_000 {
            let block: [u8; BLOCK] = core::array::from_fn(|_| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let r = (state >> 33) as usize;
                // Half the bytes from those the classes tell apart, half any.
                match r % 2 {
                    0 => b"<>-\t\n\x0B\x0C\r !~\x7F\x80\xFF\x08\x0E\x1Fa"[r / 2 % 17],
                    _ => (r >> 8) as u8,
                }
            });
            let want = wrapper_masks_portable(&block);
            for path in Path::available() {
                if let Some(got) = wrapper_masks(path, &block, 0) {
                    assert_eq!(got, want, "{path:?} {block:?}");
                }
            }
        }
    }

    #[test]
    fn gather_takes_each_bytes_low_bit() {
        for bits in 0..=255u64 {
            let spread = (0..8).fold(0, |w, k| w | ((bits >> k) & 1) << (8 * k));
            assert_eq!(gather(spread), bits);
        }
    }
}

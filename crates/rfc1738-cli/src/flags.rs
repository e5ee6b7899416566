//! Flags several subcommands share: `--decompress` ([`Reading`]), and
//! the value parsers of the numeric flags. Each range is checked when the
//! arguments are read, so a value past it is a usage error (exit 2) that
//! names the range, never a wrap or a panic later.

/// The most a `--max-len` (or any limit in bytes) can be: 1 GiB.
pub const MAX_BYTES: u64 = 1 << 30;

/// The most seconds a `--timeout` or `--max-time` can be: about 31 years,
/// far below what makes a deadline overflow.
pub const MAX_SECONDS: u64 = 1_000_000_000;

/// A whole number from `lo` to `hi`.
fn in_range(s: &str, lo: u64, hi: u64) -> Result<u64, String> {
    let n: u64 = s.trim().parse().map_err(|_| format!("{s:?} is not a whole number from {lo} to {hi}"))?;
    if !(lo..=hi).contains(&n) {
        return Err(format!("{n} is not from {lo} to {hi}"));
    }
    Ok(n)
}

/// `--max-len`, `--max-line`, `--max-header-bytes`: 1 byte to 1 GiB.
///
/// # Errors
/// The value is not a number, or is out of range.
pub fn max_len(s: &str) -> Result<usize, String> {
    in_range(s, 1, MAX_BYTES).map(|n| n as usize)
}

/// `--max-bytes`: 1 byte to 2^63 - 1.
///
/// # Errors
/// The value is not a number, or is out of range.
pub fn max_bytes(s: &str) -> Result<u64, String> {
    in_range(s, 1, i64::MAX as u64)
}

/// `--timeout`, `--max-time`: 1 second to [`MAX_SECONDS`].
///
/// # Errors
/// The value is not a number, or is out of range.
pub fn seconds(s: &str) -> Result<u64, String> {
    in_range(s, 1, MAX_SECONDS)
}

/// `--jobs`: 1 to 1024. Each is a thread, started before the first line
/// is read: more would cost memory and time and check nothing sooner.
///
/// # Errors
/// The value is not a number, or is out of range.
pub fn jobs(s: &str) -> Result<usize, String> {
    in_range(s, 1, 1024).map(|n| n as usize)
}

/// A count such as `--max-headers`: 1 to 1 000 000.
///
/// # Errors
/// The value is not a number, or is out of range.
pub fn count(s: &str) -> Result<usize, String> {
    in_range(s, 1, 1_000_000).map(|n| n as usize)
}

/// `--top`: 0 to 1 000 000.
///
/// # Errors
/// The value is not a number, or is out of range.
pub fn top(s: &str) -> Result<usize, String> {
    in_range(s, 0, 1_000_000).map(|n| n as usize)
}

/// `--max-redirects`: 0 to 100.
///
/// # Errors
/// The value is not a number, or is out of range.
pub fn redirects(s: &str) -> Result<u32, String> {
    in_range(s, 0, 100).map(|n| n as u32)
}

/// The flag of every subcommand that reads lines of text.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct Reading {
    /// Read compressed input (gzip, zstd, bzip2, xz) as its text.
    ///
    /// Input compressed with gzip, zstd, bzip2 or xz, told by its first
    /// bytes (not its name), is read as the text it holds (`auto`), or as
    /// it is (`never`). Line numbers and offsets are those of the text.
    #[arg(long, value_name = "WHEN", default_value = "auto")]
    pub decompress: Decompress,
}

/// Whether compressed input is inflated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Decompress {
    /// Inflate a compressed input, read any other as it is.
    Auto,
    /// Read every input as it is.
    Never,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_checked() {
        assert_eq!(max_len("1"), Ok(1));
        assert!(max_len("0").is_err());
        assert!(max_len("18446744073709551615").is_err());
        assert!(max_len("18446744073709551616").is_err());
        assert!(seconds("18446744073709551615").is_err());
        assert_eq!(seconds("600"), Ok(600));
        assert!(count("-1").is_err());
        assert_eq!(jobs("1024"), Ok(1024));
        assert!(jobs("1025").is_err());
        assert_eq!(redirects("0"), Ok(0));
        assert!(redirects("101").is_err());
    }
}

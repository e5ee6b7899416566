//! `host = hostname | hostnumber` (§3.1, §5), with the label and name
//! lengths of RFC 1034 §3.5 and §3.1, to which §3.1 refers.
//!
//! The caller has already consumed `1*[ alphadigit | "-" | "." ]`; this
//! module decides which of the two rules the bytes match.

use crate::chars::DIGIT_C;
use crate::error::{ErrorKind, ParseError, Rule};
use crate::reader::Parser;
use crate::simd;
use crate::warning::WarningKind;

/// RFC 1034 §3.5: "labels must be 63 characters or less".
pub const MAX_LABEL: usize = 63;
/// RFC 1034 §3.1: 255 octets on the wire, which is 253 characters of text.
pub const MAX_NAME: usize = 253;

/// Checks `p.b[start..end]` against `host`.
pub(crate) fn host(p: &Parser<'_>, start: usize, mut end: usize) -> Result<(), ParseError> {
    let b = p.b;
    if start == end {
        return Err(ParseError::new(start, ErrorKind::EmptyHost, Rule::Host));
    }
    // The common case in one pass (see `fast.rs`); the rules below say
    // where and why anything else fails.
    if p.lenient.is_none() && short(&b[..end], start) == Some(end) {
        return Ok(());
    }
    if b[end - 1] == b'.' {
        end = trailing_dot(p, start, end)?;
    }
    let top = b[start..end].iter().rposition(|&c| c == b'.').map_or(start, |d| start + d + 1);
    // §3.1: "The rightmost domain label will never start with a digit,
    // though, which syntactically distinguishes all domain names from the
    // IP addresses."
    if DIGIT_C.contains(b[top]) {
        hostnumber(b, start, end)
    } else {
        hostname(b, start, end)
    }
}

/// A host that ends with `"."`: an error, or in a lenient parse that
/// accepts it, a warning and the end of the host without the dot.
#[cold]
fn trailing_dot(p: &Parser<'_>, start: usize, end: usize) -> Result<usize, ParseError> {
    match p.lenient {
        Some(l) if l.opts.trailing_dot && end - 1 > start => {
            l.warn(end - 1, WarningKind::TrailingDot, "a host name that ends with \".\" (§3.1 has none)");
            Ok(end - 1)
        }
        _ => Err(ParseError::new(end - 1, ErrorKind::TrailingDot, Rule::Hostname)),
    }
}

/// Checks `host` (a hostname or hostnumber) alone, strictly, for the builders.
pub(crate) fn check(host: &str) -> Result<(), ParseError> {
    let b = host.as_bytes();
    let p = Parser { b, end: b.len(), lenient: None };
    let end = p.host_end(0, b.len());
    if end < b.len() {
        return Err(p.unexpected(end, Rule::Host));
    }
    self::host(&p, 0, end)
}

/// `hostnumber = digits "." digits "." digits "." digits`
///
/// Groups are `digits` of any length, as the BNF says; values above 255
/// and leading zeros are for the security checks to flag, not errors.
fn hostnumber(b: &[u8], start: usize, end: usize) -> Result<(), ParseError> {
    let err = |at| Err(ParseError::new(at, ErrorKind::InvalidHostnumber, Rule::Hostnumber));
    let mut i = start;
    for group in 0..4 {
        let digits_start = i;
        while i < end && DIGIT_C.contains(b[i]) {
            i += 1;
        }
        if i == digits_start {
            return err(i);
        }
        if group < 3 {
            if i == end || b[i] != b'.' {
                return err(i);
            }
            i += 1;
        }
    }
    if i != end {
        return err(i);
    }
    Ok(())
}

/// `hostname = *[ domainlabel "." ] toplabel`
fn hostname(b: &[u8], start: usize, end: usize) -> Result<(), ParseError> {
    if end - start > MAX_NAME {
        return Err(ParseError::new(start + MAX_NAME, ErrorKind::HostTooLong, Rule::Hostname));
    }
    let mut i = start;
    loop {
        let label_end = b[i..end].iter().position(|&c| c == b'.').map_or(end, |d| i + d);
        label(b, i, label_end)?;
        if label_end == end {
            return Ok(());
        }
        i = label_end + 1;
    }
}

/// `domainlabel = alphadigit | alphadigit *[ alphadigit | "-" ] alphadigit`;
/// `toplabel` is the same with a first `alpha`, which [`host`] has checked.
fn label(b: &[u8], start: usize, end: usize) -> Result<(), ParseError> {
    if start == end {
        return Err(ParseError::new(start, ErrorKind::EmptyLabel, Rule::Hostname));
    }
    if b[start] == b'-' {
        return Err(ParseError::new(start, ErrorKind::LabelHyphen, Rule::Hostname));
    }
    if end - start > MAX_LABEL {
        return Err(ParseError::new(start + MAX_LABEL, ErrorKind::LabelTooLong, Rule::Hostname));
    }
    if b[end - 1] == b'-' {
        return Err(ParseError::new(end - 1, ErrorKind::LabelHyphen, Rule::Hostname));
    }
    Ok(())
}

/// `host = hostname | hostnumber` (§3.1): the end of the host from `i`
/// when it is valid, `None` for anything else (the rules say what).
///
/// The first 32 bytes are read as two vectors (`simd::host32`): masks
/// of where the host ends and where its dots, hyphens and letters are,
/// one bit per byte, and the rules of both forms become a few operations
/// on those bits, without a branch per byte. A longer host is read by
/// [`blocks`].
#[inline(always)]
pub(crate) fn short(b: &[u8], i: usize) -> Option<usize> {
    // Both vectors without a branch (nearly all hosts end within them:
    // a branch on where they end is a guess lost on a third of them).
    let [outside, dots, hyphens, letters] = simd::host32(b, i);
    if outside == 0 {
        return blocks(b, i, b.len());
    }
    let n = outside.trailing_zeros() as usize;
    (n > 0 && labels(n, dots, hyphens, letters)).then_some(i + n)
}

/// The rules of `host` for a host of `n` bytes (1 to `MAX_LABEL`), on
/// its masks, one bit per byte (bits from `n` up are not read): its
/// dots, hyphens and letters. Shared by [`short`] and the bulk validator,
/// which finds the same masks by vector code.
#[inline(always)]
pub(crate) fn labels(n: usize, dots: u64, hyphens: u64, letters: u64) -> bool {
    debug_assert!((1..=MAX_LABEL).contains(&n));
    let last = 1u64 << (n - 1);
    let within = last | (last - 1);
    let (dots, hyphens, letters) = (dots & within, hyphens & within, letters & within);
    // Bit k of `starts` (`ends`): byte k is the first (last) of a label,
    // or of a group of digits.
    let starts = (dots << 1) | 1;
    let ends = (dots >> 1) | last;
    // No empty label (or group): no dot first, last or after a dot.
    let no_empty = dots & (starts | last) == 0;
    // `domainlabel = alphadigit | alphadigit *[ alphadigit | "-" ]
    // alphadigit`: no hyphen first or last; `toplabel = alpha | alpha
    // *[ alphadigit | "-" ] alphadigit`: a letter first in the last label.
    let top = if dots == 0 { 0 } else { 64 - dots.leading_zeros() };
    let name = (hyphens & (starts | ends) == 0) & (letters >> top & 1 == 1);
    // `hostnumber = digits "." digits "." digits "." digits`: three dots,
    // the third one the last (no branch on which form the host has: a
    // stream mixes them, and `count_ones` is a long sum without `popcnt`).
    let two_left = dots & dots.wrapping_sub(1);
    let one_left = two_left & two_left.wrapping_sub(1);
    let number = (hyphens | letters == 0) & (one_left != 0) & (one_left & one_left.wrapping_sub(1) == 0);
    no_empty & (name | number)
}

/// `host` (§3.1) from `i`: where it ends (at the first byte that is no
/// `alphadigit | "-" | "."`, or at `limit`) when it is valid; `None` for
/// anything else, and for a host number of 64 bytes or more (its digits
/// groups are that long). The rules say what those are.
///
/// The masks of [`short`] for up to four blocks of 64 bytes, by vector
/// code where there is some (`simd::host_masks`); then the rules of
/// `host` as operations on those masks, with no loop over the bytes or
/// the labels: [`labels`] for a host of up to `MAX_LABEL` bytes,
/// [`long_name`] for a longer one.
pub(crate) fn blocks(b: &[u8], i: usize, limit: usize) -> Option<usize> {
    let b = &b[..limit];
    let path = simd::Path::detect();
    // `[outside, dots, hyphens, letters]`, each 256 bits in four words.
    let mut m = [[0u64; 4]; 4];
    let mut n = None;
    for w in 0..4 {
        let at = i + simd::BLOCK * w;
        // Past `limit`, zero bytes: outside the host.
        let masks =
            simd::host_masks(path, simd::block(b.get(at..).unwrap_or_default(), &mut [0; simd::BLOCK]));
        for (field, mask) in m.iter_mut().zip(masks) {
            field[w] = mask;
        }
        if masks[0] != 0 {
            n = Some(simd::BLOCK * w + masks[0].trailing_zeros() as usize);
            break;
        }
    }
    // Four blocks of host characters: longer than `MAX_NAME`.
    let n = n?;
    let valid = match n {
        0 => false,
        1..=MAX_LABEL => labels(n, m[1][0], m[2][0], m[3][0]),
        _ => n <= MAX_NAME && long_name(n, &m[1], &m[2], &m[3]),
    };
    valid.then_some(i + n)
}

/// The rules of `hostname` for a name of `n` bytes (64 to `MAX_NAME`) on
/// its masks, 256 bits each, bit `k` of word `k / 64` for byte `k` (bits
/// from `n` up are not read): [`labels`] over four words.
fn long_name(n: usize, dots: &[u64; 4], hyphens: &[u64; 4], letters: &[u64; 4]) -> bool {
    let within = |w: usize| match n.saturating_sub(64 * w) {
        0 => 0,
        k if k >= 64 => u64::MAX,
        k => (1u64 << k) - 1,
    };
    let dots: [u64; 4] = std::array::from_fn(|w| dots[w] & within(w));
    let mut ok = true;
    for w in 0..4 {
        // Bit k of `starts` (`ends`): byte 64 w + k is the first (last)
        // of a label; the name's first and last bytes are too.
        let before = if w == 0 { 1 } else { dots[w - 1] >> 63 };
        let after = if w == 3 { 0 } else { dots[w + 1] << 63 };
        let last = if n > 64 * w && n <= 64 * (w + 1) { 1u64 << (n - 1 - 64 * w) } else { 0 };
        let starts = dots[w] << 1 | before;
        let ends = dots[w] >> 1 | after | last;
        // No empty label: no dot first, last or after a dot.
        ok &= dots[w] & (starts | last) == 0;
        // `domainlabel`: no hyphen first or last.
        ok &= hyphens[w] & within(w) & (starts | ends) == 0;
    }
    // RFC 1034 §3.5: no label longer than `MAX_LABEL`, that is no 64
    // bytes in a row without a dot: each step halves the runs left.
    let mut run: [u64; 4] = std::array::from_fn(|w| !dots[w] & within(w));
    for s in [1, 2, 4, 8, 16, 32] {
        run =
            std::array::from_fn(|w| run[w] & (run[w] >> s | run.get(w + 1).map_or(0, |&up| up << (64 - s))));
    }
    ok &= run == [0; 4];
    // `toplabel`: the last label starts with a letter (one that starts
    // with a digit makes a host number, which the rules read).
    let top =
        (0..4).rev().find(|&w| dots[w] != 0).map_or(0, |w| 64 * w + 64 - dots[w].leading_zeros() as usize);
    ok && letters[top / 64] >> (top % 64) & 1 == 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chars::HOSTCHAR;

    /// The one-pass host check of `fast.rs` against the rules for `host`:
    /// it accepts a host name or number exactly when they do (up to the 63
    /// bytes it reads), and stops at the first byte that is not a host
    /// character.
    fn agree(b: &[u8], at: usize) {
        let shown = String::from_utf8_lossy(b);
        let host = &b[at..];
        let run = host.iter().position(|&c| !HOSTCHAR.contains(c)).unwrap_or(host.len());
        let fast = short(b, at);
        if let Some(j) = fast {
            assert_eq!(j, at + run, "{shown:?}");
        }
        let top = host[..run].iter().rposition(|&c| c == b'.').map_or(0, |d| d + 1);
        let named = top < run && host[top].is_ascii_alphabetic();
        // A host number of 64 bytes or more is left to the rules.
        let rules = if named {
            hostname(host, 0, run).is_ok()
        } else {
            run > 0 && run <= MAX_LABEL && hostnumber(host, 0, run).is_ok()
        };
        assert_eq!(fast.is_some(), rules, "{shown:?}");
    }

    /// Every name of up to six bytes from the bytes that matter, and long
    /// random ones, at offsets that put them across the words the fast
    /// check reads, followed by nothing or by more of a URL.
    #[test]
    fn fast_hostname_agrees_with_the_rules() {
        let mut names = crate::testing::every_text(b"a7-._Z", 1..=6);
        names.extend(crate::testing::random_texts(0x2545_f491_4f6c_dd1d, 20_000, 80, b"ab1-..Q_"));
        // Host numbers and near misses: digits, dots, a letter or a hyphen.
        names.extend(crate::testing::random_texts(0x9e37_79b9_7f4a_7c15, 20_000, 24, b"0123456789....9a-"));
        for n in
            ["1.2.3.4", "255.255.255.255", "01.2.3.4", "1.2.3", "1.2.3.4.5", "1..2.3", ".1.2.3", "1.2.3.4."]
        {
            names.push(n.as_bytes().to_vec());
        }
        names.push([b'1'; 60].iter().chain(b".2.3.4").copied().collect());
        // Names of 32 bytes and more, read by `blocks`: up to `MAX_NAME`
        // and one byte over, labels of 63 and 64 bytes.
        for len in [23, 24, 25, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 200, 252, 253, 254, 300] {
            let name = "abcdefg.".repeat(len / 8 + 1)[..len - 3].to_string() + "com";
            names.push(name.into_bytes());
        }
        for label in [62, 63, 64] {
            names.push(format!("{}.{}.org", "a".repeat(label), "b".repeat(label)).into_bytes());
        }
        for name in &names {
            for at in [0, 3, 7] {
                for tail in [&b""[..], b"/x", b":80/path/"] {
                    let b = [&b"ppppppp"[..at], name, tail].concat();
                    agree(&b, at);
                }
            }
        }
        let long_name = [b'a'; 64];
        assert_eq!(short(&long_name, 0), None);
        assert_eq!(short(&long_name[..63], 0), Some(63));
    }

    /// `blocks` against the rules, on hosts of 64 bytes and more: a host
    /// name exactly when they accept it; never a host they refuse.
    #[test]
    fn long_hosts_agree_with_the_rules() {
        let mut names = crate::testing::random_texts(0x1738_0041, 20_000, 280, b"abcdefghij-.");
        names.extend(crate::testing::random_texts(0x1738_0042, 5_000, 280, b"aaaaaaaaaaaaaaa.-1_"));
        names.extend(crate::testing::random_texts(0x1738_0043, 2_000, 200, b"1111111111."));
        for label in [62, 63, 64] {
            for labels in [1, 2, 3, 4, 5] {
                let host = vec!["x".repeat(label); labels].join(".");
                names.push(host.clone().into_bytes());
                names.push(format!("{host}-").into_bytes());
                names.push(format!("{host}.").into_bytes());
                names.push(format!("-{host}").into_bytes());
            }
        }
        let mut checked = 0;
        for name in names.iter().filter(|n| n.len() >= 64) {
            let p = Parser { b: name, end: name.len(), lenient: None };
            let all_host = name.iter().all(|&c| HOSTCHAR.contains(c));
            let rules = all_host && host(&p, 0, name.len()).is_ok();
            let long = blocks(name, 0, name.len()) == Some(name.len());
            let shown = String::from_utf8_lossy(name);
            assert!(!long || rules, "{shown:?}");
            // The same answer anywhere in a buffer: after bytes that put
            // it across the blocks, before a port or more host bytes past
            // `limit`.
            let alone = blocks(name, 0, name.len());
            for (at, tail) in [(3, &b":80/a.b"[..]), (70, b"/x"), (1, b"more.host")] {
                let b = [&b"x".repeat(at)[..], name, tail].concat();
                let limit = if tail == b"more.host" { at + name.len() } else { b.len() };
                assert_eq!(blocks(&b, at, limit), alone.map(|e| at + e), "{shown:?} at {at}");
            }
            let top = name.iter().rposition(|&c| c == b'.').map_or(0, |d| d + 1);
            if rules && name.get(top).is_some_and(u8::is_ascii_alphabetic) {
                assert!(long, "{shown:?}");
                checked += 1;
            }
        }
        assert!(checked > 100, "only {checked} valid names");
    }
}

//! `host = hostname | hostnumber` (§3.1, §5), with the label and name
//! lengths of RFC 1034 §3.5 and §3.1, to which §3.1 refers.
//!
//! The caller has already consumed `1*[ alphadigit | "-" | "." ]`; this
//! module decides which of the two rules the bytes match.

use crate::chars::{self, DIGIT_C};
use crate::error::{ErrorKind, ParseError, Rule};
use crate::reader::Parser;
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

/// `host = hostname | hostnumber` (§3.1): the end of the host from `i`,
/// for a host shorter than a label may be (RFC 1034 §3.5: 63), so that no
/// length needs checking; longer ones go the long way.
///
/// The bytes are read eight at a time: a table lookup per byte gives
/// masks of where the host ends and where its dots, hyphens and letters
/// are, one bit per byte, and the rules of both forms become a few
/// operations on those bits, without a branch per byte.
#[inline(always)]
pub(crate) fn short(b: &[u8], i: usize) -> Option<usize> {
    // The first 24 bytes without a branch (nearly all hosts end there: a
    // branch on where they end is a guess lost on a third of them), then
    // eight at a time up to the first byte that is not a host character;
    // 64 bytes at most (the masks), of which 63 may be host.
    let (m0, m1, m2) = (
        chars::host_masks(&chars::chunk_from(b, i)),
        chars::host_masks(&chars::chunk_from(b, i + 8)),
        chars::host_masks(&chars::chunk_from(b, i + 16)),
    );
    let spread = |m: u32, k: usize| {
        (m & 0xff, u64::from((m >> 8) as u8) << k, u64::from((m >> 16) as u8) << k, u64::from(m >> 24) << k)
    };
    let (o0, d0, h0, l0) = spread(m0, 0);
    let (o1, d1, h1, l1) = spread(m1, 8);
    let (o2, d2, h2, l2) = spread(m2, 16);
    let (mut dots, mut hyphens, mut letters) = (d0 | d1 | d2, h0 | h1 | h2, l0 | l1 | l2);
    let outside = o0 | o1 << 8 | o2 << 16;
    let n = if outside != 0 {
        outside.trailing_zeros() as usize
    } else {
        let mut k = 24;
        loop {
            let (o, d, h, l) = spread(chars::host_masks(&chars::chunk_from(b, i + k)), k);
            (dots, hyphens, letters) = (dots | d, hyphens | h, letters | l);
            if o != 0 {
                break k + o.trailing_zeros() as usize;
            }
            k += 8;
            if k == 64 {
                return None;
            }
        }
    };
    if n == 0 || n > MAX_LABEL {
        return None;
    }
    labels(n, dots, hyphens, letters).then_some(i + n)
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

/// `host` (§3.1) for `b[i..end]`, a host of 64 bytes up to `MAX_NAME`,
/// too long for [`short`]: whether it is a valid host name or number;
/// `false` also for a longer host (whatever it is, the rules say).
///
/// The same masks as [`short`], eight bytes at a time, in four words;
/// then a step per label (per `"."`), not per byte.
pub(crate) fn long(b: &[u8], i: usize, end: usize) -> bool {
    let n = end - i;
    if n > MAX_NAME {
        return false;
    }
    let b = &b[..end];
    let (mut outside, mut dots, mut hyphens, mut letters) = ([0u64; 4], [0u64; 4], [0u64; 4], [0u64; 4]);
    for w in 0..n.div_ceil(8) {
        let m = u64::from(chars::host_masks(&chars::chunk_from(b, i + 8 * w)));
        let at = 8 * (w % 8);
        outside[w / 8] |= (m & 0xff) << at;
        dots[w / 8] |= (m >> 8 & 0xff) << at;
        hyphens[w / 8] |= (m >> 16 & 0xff) << at;
        letters[w / 8] |= (m >> 24 & 0xff) << at;
    }
    let bit = |mask: &[u64; 4], k: usize| mask[k / 64] >> (k % 64) & 1 == 1;
    // Past the host, `chunk_from` gives zero bytes, outside the class.
    for (w, o) in outside.iter().enumerate() {
        let within = if n >= 64 * (w + 1) {
            u64::MAX
        } else if n > 64 * w {
            (1 << (n - 64 * w)) - 1
        } else {
            0
        };
        if o & within != 0 {
            return false;
        }
    }
    // The labels, dot by dot: none empty, none longer than `MAX_LABEL`,
    // no hyphen first or last (`domainlabel`); the last one starts with
    // a letter (`toplabel`). A host number of 64 bytes or more has digits
    // groups that long: the rules read it.
    let mut start = 0;
    for (w, &d) in dots.iter().enumerate() {
        let mut d = d;
        while d != 0 {
            let dot = 64 * w + d.trailing_zeros() as usize;
            d &= d - 1;
            if dot >= n {
                break;
            }
            let len = dot - start;
            if len == 0 || len > MAX_LABEL || bit(&hyphens, start) || bit(&hyphens, dot - 1) {
                return false;
            }
            start = dot + 1;
        }
    }
    let len = n - start;
    len > 0 && len <= MAX_LABEL && bit(&letters, start) && !bit(&hyphens, n - 1)
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
        let rules = run <= MAX_LABEL
            && if named {
                hostname(host, 0, run).is_ok()
            } else {
                run > 0 && hostnumber(host, 0, run).is_ok()
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

    /// `long` against the rules, on hosts of 64 bytes and more: a host
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
            let long = long(name, 0, name.len());
            let shown = String::from_utf8_lossy(name);
            assert!(!long || rules, "{shown:?}");
            let top = name.iter().rposition(|&c| c == b'.').map_or(0, |d| d + 1);
            if rules && name.get(top).is_some_and(u8::is_ascii_alphabetic) {
                assert!(long, "{shown:?}");
                checked += 1;
            }
        }
        assert!(checked > 100, "only {checked} valid names");
    }
}

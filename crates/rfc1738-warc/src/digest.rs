//! What a record is named by: its digests, its id, its date.
//!
//! ISO 28500 (WARC/1.1) §5.8 and §5.9 leave the digest algorithm open;
//! `sha1:` and base32 (RFC 4648) is what every WARC tool reads and
//! writes, so deduplication works across tools.

use sha1::{Digest as _, Sha1};
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// A SHA-1 digest computed as the bytes come.
#[derive(Clone, Default)]
pub struct Sha1Digest {
    hasher: Sha1,
}

impl Sha1Digest {
    /// Adds `bytes`.
    pub fn update(&mut self, bytes: &[u8]) {
        self.hasher.update(bytes);
    }

    /// The digest as a WARC field value: `sha1:` and 32 base32 letters.
    #[must_use]
    pub fn finish(self) -> String {
        format!("sha1:{}", data_encoding::BASE32.encode(&self.hasher.finalize()))
    }
}

impl std::fmt::Debug for Sha1Digest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sha1Digest")
    }
}

/// The WARC digest of `bytes`: `sha1:` and base32.
///
/// # Examples
/// ```
/// // The SHA-1 of the empty string, da39a3ee..., in base32.
/// assert_eq!(rfc1738_warc::sha1(b""), "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
/// ```
#[must_use]
pub fn sha1(bytes: &[u8]) -> String {
    let mut d = Sha1Digest::default();
    d.update(bytes);
    d.finish()
}

/// A new `WARC-Record-ID` (§5.2): `<urn:uuid:...>`, a version 4 UUID.
///
/// The random bits come from the standard library's hasher keys (random
/// per process), the clock and a counter: unique without a random crate.
#[must_use]
pub fn record_id() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let word = |salt: u64| {
        let mut h = RandomState::new().build_hasher();
        h.write_u64(salt);
        h.write_u64(n);
        h.write_u128(nanos);
        h.write_u32(std::process::id());
        h.finish()
    };
    let mut b = [0u8; 16];
    b[..8].copy_from_slice(&word(1).to_be_bytes());
    b[8..].copy_from_slice(&word(2).to_be_bytes());
    // RFC 9562 §5.4: version 4, variant 10.
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h = data_encoding::HEXLOWER.encode(&b);
    format!("<urn:uuid:{}-{}-{}-{}-{}>", &h[..8], &h[8..12], &h[12..16], &h[16..20], &h[20..])
}

/// `WARC-Date` (§5.4): UTC, `YYYY-MM-DDThh:mm:ssZ` (W3C-ISO8601).
///
/// # Examples
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// let t = UNIX_EPOCH + Duration::from_secs(787_708_800);
/// assert_eq!(rfc1738_warc::warc_date(t), "1994-12-18T00:00:00Z");
/// ```
#[must_use]
pub fn warc_date(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil(days);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

/// The 14 digits of a CDX timestamp from a `WARC-Date`.
#[must_use]
pub fn timestamp14(date: &str) -> String {
    date.bytes().filter(u8::is_ascii_digit).take(14).map(char::from).collect()
}

/// Year, month, day of a count of days since 1970-01-01 (H. Hinnant's
/// `civil_from_days`).
fn civil(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + u64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn known_digests() {
        // FIPS 180 test vector: SHA-1("abc") = a9993e36 4706816a ba3e2571 7850c26c 9cd0d89d.
        let abc = data_encoding::HEXLOWER.decode(b"a9993e364706816aba3e25717850c26c9cd0d89d").unwrap();
        assert_eq!(sha1(b"abc"), format!("sha1:{}", data_encoding::BASE32.encode(&abc)));
        assert_eq!(sha1(b"abc"), "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5");
        let mut d = Sha1Digest::default();
        d.update(b"a");
        d.update(b"bc");
        assert_eq!(d.finish(), sha1(b"abc"));
    }

    #[test]
    fn record_ids_are_uuid4_and_distinct() {
        let a = record_id();
        let b = record_id();
        assert_ne!(a, b);
        assert_eq!(a.len(), "<urn:uuid:>".len() + 36);
        assert_eq!(&a[24..25], "4", "{a}");
        assert!(matches!(&a[29..30], "8" | "9" | "a" | "b"), "{a}");
    }

    #[test]
    fn dates() {
        assert_eq!(warc_date(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        // 2000-02-29 (a leap day of a century year) 12:34:56.
        let t = UNIX_EPOCH + Duration::from_secs(951_827_696);
        assert_eq!(warc_date(t), "2000-02-29T12:34:56Z");
        assert_eq!(timestamp14("2000-02-29T12:34:56Z"), "20000229123456");
    }
}

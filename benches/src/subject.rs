//! The calls into `rfc1738`, kept in one place.
//!
//! Every binary measures the library only through these functions, so a
//! change in the library's API is a change here and nowhere else.

/// Parses `input` into an [`rfc1738::Url`]; `true` when it was accepted.
///
/// The parsed value goes through [`black_box`](std::hint::black_box) so the
/// work of building it cannot be optimised away.
#[inline]
#[must_use]
pub fn parse(input: &str) -> bool {
    std::hint::black_box(rfc1738::Url::parse(input)).is_ok()
}

/// Parses `input` into an [`rfc1738::UrlRef`], which borrows it (no
/// allocation); `true` when it was accepted.
#[inline]
#[must_use]
pub fn parse_borrowed(input: &str) -> bool {
    std::hint::black_box(rfc1738::UrlRef::parse(input)).is_ok()
}

/// Checks `input` with [`rfc1738::validate`] (no allocation); `true` when valid.
#[inline]
#[must_use]
pub fn validate(input: &str) -> bool {
    std::hint::black_box(rfc1738::validate(input)).is_ok()
}

/// Checks the URLs at `spans` of `text` with [`rfc1738::bulk::Checker`],
/// the whole text classified block by block; how many are valid.
#[inline]
#[must_use]
pub fn bulk(text: &str, spans: &[std::ops::Range<usize>]) -> usize {
    let mut checker = rfc1738::bulk::Checker::new(text.as_bytes());
    spans.iter().filter(|&span| std::hint::black_box(checker.is_valid(span.clone()))).count()
}

/// Whether [`parse`] and [`validate`] call the real library yet.
pub const PARSER_READY: bool = true;

/// Counts the URLs that `rfc1738`'s extractor finds in `text`.
///
/// Uses [`rfc1738::extract::find_iter`] with the default finder; `None`
/// when the `extract` feature is off.
#[inline]
#[must_use]
pub fn extract(text: &str) -> Option<usize> {
    #[cfg(feature = "extract")]
    {
        // The extractor's entry point: an iterator over the URLs found in a `&str`.
        Some(rfc1738::extract::find_iter(text).map(std::hint::black_box).count())
    }
    #[cfg(not(feature = "extract"))]
    {
        let _ = text;
        None
    }
}

//! What several targets share.

use rfc1738::ParseOptions;

/// Lenient options from the bits of one input byte: bit 0 for the first
/// switch of `ParseOptions`, and so on.
pub fn options(bits: u8) -> ParseOptions {
    ParseOptions {
        unsafe_chars: bits & 1 != 0,
        underscore_in_host: bits & 2 != 0,
        trailing_dot: bits & 4 != 0,
        empty_port: bits & 8 != 0,
        user_in_any_scheme: bits & 16 != 0,
        reserved_in_search: bits & 32 != 0,
        bare_percent: bits & 64 != 0,
        generic_https: bits & 128 != 0,
    }
}

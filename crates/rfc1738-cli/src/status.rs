//! Exit statuses: 0 all valid, 1 something invalid, 2 usage or I/O error.

/// Everything was valid.
pub const OK: u8 = 0;
/// Something was invalid.
pub const INVALID: u8 = 1;
/// A usage or I/O error.
pub const ERROR: u8 = 2;

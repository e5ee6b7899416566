//! Exit statuses: 0 all valid, 1 something invalid, 2 usage or I/O error.

/// Everything was valid.
pub const OK: u8 = 0;
/// Something was invalid.
pub const INVALID: u8 = 1;
/// A usage or I/O error.
pub const ERROR: u8 = 2;

/// The status of a run over files: `ERROR` when one could not be read
/// (the others were), else `INVALID` when something was invalid, else `OK`.
#[must_use]
pub fn of_run(all_read: bool, invalid: bool) -> u8 {
    if !all_read {
        ERROR
    } else if invalid {
        INVALID
    } else {
        OK
    }
}

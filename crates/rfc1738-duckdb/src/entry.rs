//! What DuckDB calls on `LOAD`: `rfc1738_init_c_api`. It asks DuckDB for
//! the C API's function table, opens a connection to the database that
//! loads the extension, and registers the functions. Its code is
//! `unsafe` and `no_mangle`, as a C entry point is; this module allows
//! that and holds nothing else.
#![allow(unsafe_code)]

use crate::functions;
use crate::log::Log;
use crate::table;
use crate::vector::Connection;
use libduckdb_sys as ffi;
use std::error::Error;
use std::ffi::CString;

/// The C API version asked for: DuckDB 2.0 offers v1.5.6, in which every
/// function of the API's first version is stable. The build script reads
/// it from this line for the footer.
const MIN_DUCKDB_VERSION: &str = "v1.5.6";

/// The entry point DuckDB looks up by the extension's name. A failure is
/// handed back to DuckDB, whose `LOAD` fails with its message.
///
/// # Safety
///
/// Called by DuckDB alone, with its `info` and `access`.
#[no_mangle]
pub unsafe extern "C" fn rfc1738_init_c_api(
    info: ffi::duckdb_extension_info,
    access: *const ffi::duckdb_extension_access,
) -> bool {
    // SAFETY: DuckDB's own arguments, passed on.
    match unsafe { init(info, access) } {
        Ok(loaded) => loaded,
        Err(e) => {
            let message = CString::new(e.to_string().replace('\0', " ")).unwrap_or_default();
            // SAFETY: `access` is DuckDB's table; it copies the message.
            if let Some(set_error) = unsafe { (*access).set_error } {
                unsafe { set_error(info, message.as_ptr()) }
            }
            false
        }
    }
}

/// `Ok(false)` when DuckDB offers no API table of our version (it says
/// why itself), `Ok(true)` once every function is registered.
unsafe fn init(
    info: ffi::duckdb_extension_info,
    access: *const ffi::duckdb_extension_access,
) -> Result<bool, Box<dyn Error>> {
    // SAFETY: DuckDB's arguments; the API table is filled in before any
    // other call, and the database it hands over is open while we load.
    unsafe {
        if !ffi::duckdb_rs_extension_api_init(info, access, MIN_DUCKDB_VERSION)? {
            return Ok(false);
        }
        let get_database = (*access).get_database.ok_or("DuckDB gave no get_database")?;
        let db = get_database(info);
        if db.is_null() {
            return Ok(false);
        }
        let con = Connection::open(*db)?;
        functions::register(&con)?;
        table::register::<Log>(&con)?;
    }
    Ok(true)
}

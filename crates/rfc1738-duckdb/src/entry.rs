//! What DuckDB calls on `LOAD`: `rfc1738_init_c_api`, which the duckdb
//! crate's macro writes around [`extension_entrypoint`]. Its code is
//! `unsafe` and `no_mangle`, as a C entry point is; this module allows
//! that and holds nothing else.
#![allow(unsafe_code)]

use crate::functions;
use duckdb::{duckdb_entrypoint_c_api, Connection};
use std::error::Error;

/// Registers every function on the database that loads the extension.
///
/// # Errors
///
/// When DuckDB refuses a function; the `LOAD` fails with its message.
// The C API version asked for: DuckDB 2.0 offers v1.5.6, in which every
// function of the API's first version is stable. The build script reads
// it from this line for the footer.
#[duckdb_entrypoint_c_api(ext_name = "rfc1738", min_duckdb_version = "v1.5.6")]
pub fn extension_entrypoint(con: Connection) -> Result<(), Box<dyn Error>> {
    functions::register(&con)?;
    Ok(())
}

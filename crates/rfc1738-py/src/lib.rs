//! The native part of the Python package `rfc1738`.
//!
//! It translates types and errors between Python and the `rfc1738`
//! library; it holds no URL logic of its own. What the command says of a
//! URL (the `parse --json` record, the caret) comes from `rfc1738-report`,
//! so that `Url.to_dict()` is the command's record by construction.
//!
//! - `url.rs`: `parse`, `Url`, `ParseError`, the views, `extract`, `pct`.
//! - `build.rs`: one builder function per scheme.
//! - `replace.rs`: `Url.replace`, through those builders.
//! - `arrow.rs`: the column kernels of `rfc1738.arrow`.
//! - `parts.rs`: the parts of a column, one at a time or all at once.
//! - `views.rs`: parts as string views into the input's buffers, or plain strings.
//! - `peers.rs`: the functions of peers (authority, query parameters, ...).
//! - `clf.rs`: Common Log Format lines as a column, and whole logs.
//! - `compressed.rs`: gzip, zstd, bzip2 and xz logs, told by their first bytes.
//! - `ffi.rs`: Arrow columns in and out (the Arrow PyCapsule interface).
//! - `pool.rs`: the module's allocator, which keeps large blocks freed.

use pyo3::prelude::*;

mod arrow;
mod build;
mod clf;
mod compressed;
mod convert;
mod ffi;
mod logtable;
mod parts;
mod peers;
mod pool;
mod replace;
mod url;
mod views;

#[global_allocator]
static ALLOCATOR: pool::Pool = pool::Pool;

/// The module `rfc1738._rfc1738`; `rfc1738/__init__.py` re-exports it.
#[pymodule]
fn _rfc1738(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("ParseError", url::parse_error_type(py)?)?;
    m.add("BuildError", py.get_type::<build::BuildError>())?;
    m.add("ResolveError", py.get_type::<url::ResolveError>())?;
    m.add_class::<url::Url>()?;
    url::register(m)?;
    build::register(m)?;
    arrow::register(m)?;
    parts::register(m)?;
    peers::register(m)?;
    clf::register(m)?;
    logtable::register(m)?;
    Ok(())
}

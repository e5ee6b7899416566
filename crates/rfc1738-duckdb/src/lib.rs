//! `rfc1738.duckdb_extension`: the `rfc1738_*` SQL functions of the
//! Python package (`rfc1738.sql`) in DuckDB without Python.
//!
//! ```sql
//! LOAD 'target/duckdb/rfc1738.duckdb_extension';
//! SELECT rfc1738_host('ftp://h.dom/x');   -- h.dom
//! SELECT rfc1738_host('http://h.dom/~me', true);   -- h.dom, read as --lenient reads it
//! SELECT status, count(*) FROM rfc1738_log('access.log.gz') GROUP BY status;
//! ```
//!
//! Built against DuckDB's C extension API (the version `entry.rs` asks
//! for), so one build loads into every DuckDB release that offers that
//! API; `scripts/build-duckdb-extension` builds it and appends the
//! metadata footer DuckDB reads before it loads a file.

mod entry;
mod functions;
mod log;
mod table;
mod vector;

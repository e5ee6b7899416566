//! What the `rfc1738` command says of a URL, as a library.
//!
//! The command, the web server and the Python package all show the same
//! things: the `parse --json` record, the explanation in words, the input
//! with a caret under an error, and the request URL of a log line. They
//! live here once, above the `rfc1738` library, so that every front end
//! says the same.
//!
//! - [`outcome`]: bytes in, a [`Url`](rfc1738::Url) or a [`Problem`](outcome::Problem) out
//!   (octets that are not UTF-8 are the §2.2 non-ASCII error at their offset).
//! - [`json`]: the `parse --json` record.
//! - [`explain`]: what a client does with a URL, in words.
//! - [`diag`]: the input made printable, with a caret under an offset.
//! - [`clf`]: the request URL of a Common Log Format line.
//! - [`compression`]: which compression a log is in, by its first bytes.
//! - [`logfields`]: the fields of a log format beyond the record's, named and typed.
//! - [`logformat`]: log lines of an Apache `LogFormat` or nginx `log_format` string.
//! - [`logtable`]: a log file as rows of typed columns, for the SQL table function.
//! - [`parts`]: a part of a URL by name, as `parse --get` names it.
//! - [`spans`]: where each part of a URL lies, for the explorer page.
//! - [`template`]: `parse --get`, a line per URL from a template of part names.
//! - [`set`]: `set URL PART=VALUE`, parts changed through the library's builders.
//! - [`sql`]: what each `rfc1738_*` SQL function says of one input, for every engine.

pub mod clf;
pub mod compression;
pub mod diag;
pub mod explain;
pub mod json;
pub mod logfields;
pub mod logformat;
pub mod logtable;
pub mod logtime;
pub mod outcome;
pub mod parts;
pub mod set;
pub mod spans;
pub mod sql;
pub mod template;

//! `rfc1738 relative BASE TARGET`: the shortest reference that resolves,
//! by RFC 1808, from the base to the target.

use crate::diag;
use crate::status;
use rfc1738::Url;
use std::io::{self, Write};

/// Arguments of `relative`.
#[derive(clap::Args)]
pub struct RelativeArgs {
    /// The base URL: ftp, http, file, prospero, or another scheme with `//`.
    base: String,
    /// The URL to reach from the base.
    target: String,
}

/// Runs `relative`: the reference on stdout, or a diagnostic on stderr.
pub fn run(args: &RelativeArgs) -> io::Result<u8> {
    let mut err = anstream::stderr().lock();
    let mut urls = Vec::new();
    for (what, text) in [("base", &args.base), ("target", &args.target)] {
        match Url::parse(text) {
            Ok(url) => urls.push(url),
            Err(e) => {
                writeln!(err, "rfc1738: invalid {what} URL: {e}")?;
                write!(err, "{}", diag::caret(text, e.offset()))?;
                return Ok(status::INVALID);
            }
        }
    }
    let Some(reference) = urls[0].make_relative(&urls[1]) else {
        writeln!(
            err,
            "rfc1738: a {} URL has no hierarchical path: relative references do not apply (RFC 1808 §2.1)",
            urls[0].scheme()
        )?;
        return Ok(status::INVALID);
    };
    writeln!(io::stdout().lock(), "{reference}")?;
    Ok(status::OK)
}

//! `rfc1738 relative BASE TARGET`: the shortest reference that resolves,
//! by RFC 1808, from the base to the target (held against an exhaustive
//! search in the library's tests).

use crate::diag;
use crate::status;
use rfc1738::Url;
use std::io::{self, Write};

/// Arguments of `relative`.
#[derive(clap::Args)]
pub struct RelativeArgs {
    /// How compressed input is read.
    #[command(flatten)]
    pub reading: crate::flags::Reading,
    /// The base URL, in the generic form (`//` and a host); `-`: a line
    /// of stdin.
    base: String,
    /// The URL to reach from the base; `-`: a line of stdin.
    target: String,
}

/// The examples at the end of `relative --help`.
pub const EXAMPLES: &str = "\
Examples:
  rfc1738 relative 'http://a/b/c/d;p?q' http://a/b/g     => ../g
  rfc1738 relative http://a/b/c/d http://a/b/            => ..
  rfc1738 relative ftp://h.dom/pub/a 'ftp://h.dom/pub/b;type=i'   => b;type=i";

/// Runs `relative`: the reference on stdout, or a diagnostic on stderr.
pub fn run(args: &RelativeArgs) -> io::Result<u8> {
    let mut err = anstream::stderr().lock();
    let mut urls = Vec::new();
    let inputs = super::fixed_arguments(&[&args.base, &args.target])?;
    for (what, text) in [("base", &inputs[0]), ("target", &inputs[1])] {
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
            "rfc1738: the base {} has no hierarchical path: no relative reference reaches another URL \
             from it (RFC 1808 §2.1); the target itself, or a #fragment, is the reference",
            diag::escape(inputs[0].as_bytes())
        )?;
        return Ok(status::INVALID);
    };
    writeln!(io::stdout().lock(), "{reference}")?;
    Ok(status::OK)
}

//! `rfc1738 explain URL...`

use super::report;
use crate::outcome::parse_bytes;
use crate::{explain, status};
use std::io::{self, BufWriter, Write};

/// Arguments of `explain`.
#[derive(clap::Args)]
pub struct ExplainArgs {
    /// The URLs to explain.
    #[arg(required = true)]
    urls: Vec<String>,
}

/// Runs `explain`.
pub fn run(args: &ExplainArgs) -> io::Result<u8> {
    let mut out = BufWriter::new(io::stdout().lock());
    let mut code = status::OK;
    for url in &args.urls {
        match parse_bytes(url.as_bytes()) {
            Ok(u) => write_explanation(&mut out, &u)?,
            Err(p) => {
                out.flush()?;
                report(&mut anstream::stderr().lock(), url.as_bytes(), &p)?;
                code = status::INVALID;
            }
        }
    }
    out.flush()?;
    Ok(code)
}

/// The explanation of one URL followed by a blank line.
pub fn write_explanation(out: &mut impl Write, url: &rfc1738::Url) -> io::Result<()> {
    let mut lines = explain::explain(url).into_iter();
    if let Some(head) = lines.next() {
        writeln!(out, "{head}")?;
    }
    for line in lines {
        writeln!(out, "  {line}")?;
    }
    writeln!(out)
}

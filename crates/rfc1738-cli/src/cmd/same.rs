//! `rfc1738 same [--lenient] [--quiet] A B`: whether two URLs are equivalent.

use super::report;
use crate::outcome::{options, parse_bytes_with};
use crate::status;
use std::io::{self, Write};

/// Arguments of `same`.
#[derive(clap::Args)]
pub struct SameArgs {
    /// Accept the deviations real-world URLs have (see `normalize --lenient`).
    #[arg(long)]
    lenient: bool,
    /// Print nothing; the exit status says it.
    #[arg(long, short)]
    quiet: bool,
    /// The first URL.
    a: String,
    /// The second URL.
    b: String,
}

/// Runs `same`: exit 0 when the URLs are equivalent (equal normal forms),
/// 1 when they are not, 2 when one of them is not a URL.
pub fn run(args: &SameArgs) -> io::Result<u8> {
    let opts = options(args.lenient);
    let mut urls = Vec::new();
    for input in [&args.a, &args.b] {
        match parse_bytes_with(input.as_bytes(), &opts) {
            Ok((url, _)) => urls.push(url),
            Err(p) => {
                report(&mut anstream::stderr().lock(), input.as_bytes(), &p)?;
                return Ok(status::ERROR);
            }
        }
    }
    let (a, b) = (urls[0].normalize(), urls[1].normalize());
    let same = a.as_str() == b.as_str();
    if !args.quiet {
        let mut out = io::stdout().lock();
        if same {
            writeln!(out, "equivalent: {a}")?;
        } else {
            writeln!(out, "different:\n  {a}\n  {b}")?;
        }
    }
    Ok(if same { status::OK } else { status::INVALID })
}

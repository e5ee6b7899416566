//! `rfc1738 same [--lenient] [--quiet] A B`: whether two URLs are equivalent.

use super::report;
use crate::outcome::{options, parse_bytes_with};
use crate::status;
use std::io::{self, Write};

/// Arguments of `same`.
#[derive(clap::Args)]
pub struct SameArgs {
    /// How compressed input is read.
    #[command(flatten)]
    pub reading: crate::flags::Reading,
    /// Accept the deviations real-world URLs have, each reported on stderr
    /// as a warning (see `normalize --lenient`).
    #[arg(long)]
    lenient: bool,
    /// Print nothing, not even why a URL is invalid or its warnings: the
    /// exit status says it.
    #[arg(long, short)]
    quiet: bool,
    /// The first URL (`-`: a line of stdin).
    a: String,
    /// The second URL (`-`: a line of stdin).
    b: String,
}

/// The examples at the end of `same --help`.
pub const EXAMPLES: &str = "\
Examples:
  rfc1738 same 'HTTP://h.dom:80/%7e' 'http://h.dom/%7E'      equivalent: exit 0
  rfc1738 same ftp://h.dom/%2Fetc ftp://h.dom//etc         different (CWD /etc, CWD then CWD etc): exit 1
  rfc1738 same -q \"$a\" \"$b\" || echo different              in a script: the exit status alone";

/// Runs `same`: exit 0 when the URLs are equivalent (equal normal forms),
/// 1 when they are not or one of them is not a URL (the reason on
/// stderr); 2 is left to usage errors.
pub fn run(args: &SameArgs) -> io::Result<u8> {
    let opts = options(args.lenient);
    let mut urls = Vec::new();
    let inputs = super::fixed_arguments(&[&args.a, &args.b])?;
    for input in &inputs {
        match parse_bytes_with(input.as_bytes(), &opts) {
            Ok((url, _)) if args.quiet => urls.push(url),
            Ok((url, warnings)) => {
                let mut err = anstream::stderr().lock();
                let at = super::At { name: None, line: urls.len() as u64 + 1 };
                for w in warnings.iter().filter(|w| w.kind() != rfc1738::WarningKind::UppercaseScheme) {
                    super::warn(&mut err, at, input.as_bytes(), w)?;
                }
                urls.push(url);
            }
            Err(p) => {
                // Not a URL, so not equivalent to anything: exit 1 (2 is
                // for usage and I/O errors), the reason on stderr unless
                // --quiet.
                if !args.quiet {
                    report(&mut anstream::stderr().lock(), input.as_bytes(), &p)?;
                }
                return Ok(status::INVALID);
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

//! `rfc1738 explain URL...`

use super::{report, warn, At};
use crate::outcome::{options, parse_bytes_with};
use crate::{explain, status};
use std::io::{self, BufWriter, Write};

/// Arguments of `explain`.
#[derive(clap::Args)]
pub struct ExplainArgs {
    /// Accept the deviations real-world URLs have, each reported on stderr
    /// as a warning; the URL is explained as read.
    #[arg(long)]
    lenient: bool,
    /// The URLs to explain.
    #[arg(required = true)]
    urls: Vec<String>,
}

/// The examples at the end of `explain --help`.
pub const EXAMPLES: &str = "\
Examples:
  rfc1738 explain 'ftp://myname@host.dom//etc/motd'     the ftp commands, one by one (§3.2)
  rfc1738 explain 'gopher://h.dom/7search%09rfc1738'    the gopher request line (§3.4)
  rfc1738 explain --lenient 'http://h.dom/~me/'         explained, with a warning for the ~";

/// Runs `explain`.
pub fn run(args: &ExplainArgs) -> io::Result<u8> {
    let mut out = BufWriter::new(io::stdout().lock());
    let mut code = status::OK;
    for (url, line) in args.urls.iter().zip(1..) {
        match parse_bytes_with(url.as_bytes(), &options(args.lenient)) {
            Ok((u, warnings)) => {
                let deviations =
                    warnings.iter().filter(|w| w.kind() != rfc1738::WarningKind::UppercaseScheme);
                let mut err = anstream::stderr().lock();
                for w in deviations {
                    out.flush()?;
                    warn(&mut err, At { name: None, line }, url.as_bytes(), w)?;
                }
                write_explanation(&mut out, &u)?;
            }
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

//! `rfc1738 explain [--json] [URL...]`: what a client does with each URL
//! (stdin, one per line, when none).

use super::{for_each_input, report_in, warn, Inputs};
use crate::explain;
use crate::outcome::{options, Note};
use serde_json::json;
use std::io::{self, BufWriter, Write};

/// Arguments of `explain`.
#[derive(clap::Args)]
pub struct ExplainArgs {
    /// How compressed input is read.
    #[command(flatten)]
    pub reading: crate::flags::Reading,
    /// Accept the deviations real-world URLs have, as warnings.
    ///
    /// Accept the deviations real-world URLs have, each reported on stderr
    /// as a warning; the URL is explained as read.
    #[arg(long)]
    lenient: bool,
    /// Write one JSON object per input, in input order.
    ///
    /// `{input, valid, explain, error, warnings}` (`explain`: the lines, as `/api/explain` gives
    /// them).
    #[arg(long)]
    json: bool,
    /// Write a block for an invalid URL too.
    ///
    /// Write a block for an invalid URL too (the input, then `error`), so
    /// that block N is input N.
    #[arg(long)]
    keep_lines: bool,
    /// Print nothing: the exit status says whether every URL was valid.
    #[arg(long, short, conflicts_with_all = ["json", "keep_lines"])]
    quiet: bool,
    /// Read URLs from FILE too, one per line (`-`: stdin), after the arguments.
    ///
    /// An empty line is skipped. May be given more than once.
    #[arg(long, value_name = "FILE")]
    url_file: Vec<String>,
    /// The longest input line read from a file, in bytes.
    #[arg(long, default_value_t = crate::input::DEFAULT_MAX_LEN, value_parser = crate::flags::max_len)]
    max_len: usize,
    /// The URLs to explain (`-`: one per line from stdin); with none and
    /// no --url-file, one per line from stdin.
    urls: Vec<String>,
}

/// The examples at the end of `explain --help`.
pub const EXAMPLES: &str = "\
Examples:
  rfc1738 explain 'ftp://myname@host.dom//etc/motd'
      the ftp commands, one by one (§3.2)
  rfc1738 explain 'gopher://h.dom/7search%09rfc1738'
      the gopher request line (§3.4)
  rfc1738 explain --lenient 'http://h.dom/~me/'
      explained, with a warning for the ~
  rfc1738 explain --json < urls.txt
      a record per line, as /api/explain";

/// Runs `explain`.
pub fn run(args: &ExplainArgs) -> io::Result<u8> {
    let mut out = BufWriter::new(io::stdout().lock());
    let mut invalid = 0u64;
    let keep_empty = args.json || args.keep_lines;
    let inputs = Inputs {
        urls: &args.urls,
        files: &args.url_file,
        max_len: args.max_len,
        keep_empty,
        quiet: args.quiet,
    };
    let run = for_each_input(&inputs, &mut out, |out, at, line| {
        let (input, parsed) = super::parse_line(line, &options(args.lenient), args.max_len);
        if args.json {
            invalid += u64::from(parsed.is_err());
            let record = match &parsed {
                Ok((u, warnings)) => json!({
                    "input": String::from_utf8_lossy(&input), "valid": true,
                    "explain": explain::explain(u), "error": null,
                    "warnings": warnings.iter().map(|w| Note::from(w).to_json()).collect::<Vec<_>>(),
                }),
                Err(p) => json!({
                    "input": String::from_utf8_lossy(&input), "valid": false,
                    "explain": [], "error": p.to_json(), "warnings": [],
                }),
            };
            serde_json::to_writer(&mut *out, &at.locate(super::with_columns(&input, record)))?;
            return writeln!(out);
        }
        if args.quiet {
            invalid += u64::from(parsed.is_err());
            return Ok(());
        }
        match parsed {
            Ok((u, warnings)) => {
                let deviations =
                    warnings.iter().filter(|w| w.kind() != rfc1738::WarningKind::UppercaseScheme);
                let mut err = anstream::stderr().lock();
                for w in deviations {
                    out.flush()?;
                    warn(&mut err, at, &input, w)?;
                }
                write_explanation(out, &u)
            }
            Err(p) => {
                if args.keep_lines {
                    // On stdout, as it came: escaped for a terminal.
                    writeln!(out, "{}", crate::diag::escape(&input))?;
                    writeln!(out, "  error: {} (in {})\n", p.message, p.rule)?;
                }
                out.flush()?;
                invalid += 1;
                report_in(&mut anstream::stderr().lock(), at, &input, &p)
            }
        }
    })?;
    out.flush()?;
    if args.quiet {
        return Ok(crate::status::of_run(run.all_read, invalid > 0));
    }
    run.end(invalid, "URLs invalid")
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

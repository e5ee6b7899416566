//! `rfc1738 normalize [--lenient] [URL...]`: the normal form of each URL.

use super::{for_each_input, report_in, warn, Inputs};
use crate::input::DEFAULT_MAX_LEN;
use crate::outcome::{options, Note};
use rfc1738::WarningKind;
use serde_json::json;
use std::io::{self, BufWriter, Write};

/// Arguments of `normalize`.
#[derive(clap::Args)]
pub struct NormalizeArgs {
    /// How compressed input is read.
    #[command(flatten)]
    pub reading: crate::flags::Reading,
    /// Accept the deviations real-world URLs have, as warnings.
    ///
    /// Accept the deviations real-world URLs have (unsafe characters, `_`
    /// or a trailing dot in a host, an empty port, a user name in http,
    /// `/` and `?` in a search, a bare `%`), each reported on stderr as a
    /// warning.
    #[arg(long)]
    lenient: bool,
    /// Print nothing: the exit status says whether every input was valid.
    #[arg(long, short)]
    quiet: bool,
    /// Write an empty line for an invalid URL.
    ///
    /// Write an empty line for an invalid URL (its diagnostic on stderr),
    /// so that output line N is input line N.
    #[arg(long)]
    keep_lines: bool,
    /// The longest input line read from stdin, in bytes.
    #[arg(long, default_value_t = DEFAULT_MAX_LEN, value_parser = crate::flags::max_len)]
    max_len: usize,
    /// Write one JSON object per input, in input order.
    ///
    /// `{input, valid, normal, error, warnings}` (`normal` the normal form, or null).
    #[arg(long)]
    json: bool,
    /// Read URLs from FILE too, one per line (`-`: stdin), after the arguments.
    ///
    /// An empty line is skipped. May be given more than once.
    #[arg(long, value_name = "FILE")]
    url_file: Vec<String>,
    /// URLs to normalize (`-`: one per line from stdin); with none and no
    /// --url-file, one per line from stdin.
    urls: Vec<String>,
}

/// The examples at the end of `normalize --help`.
pub const EXAMPLES: &str = "\
Examples:
  rfc1738 normalize 'HTTP://WWW.Example.COM:80/%7euser'
      => http://www.example.com/%7Euser
  rfc1738 normalize --keep-lines < urls.txt | paste urls.txt -
      each URL beside its normal form
  rfc1738 normalize --lenient 'http://h.dom/~me/a b'
      encodes what it can, warns on stderr";

/// Runs `normalize`: one normal form per line on stdout for each valid
/// input; a diagnostic on stderr (and no output line, or with
/// `--keep-lines` an empty one) for each invalid one.
pub fn run(args: &NormalizeArgs) -> io::Result<u8> {
    super::set_quiet(args.quiet);
    let mut out = BufWriter::new(super::stdout());
    let opts = options(args.lenient);
    let mut invalid = 0u64;
    let keep_empty = args.keep_lines || args.json;
    let inputs = Inputs {
        urls: &args.urls,
        files: &args.url_file,
        max_len: args.max_len,
        keep_empty,
        quiet: args.quiet,
    };
    let run = for_each_input(&inputs, &mut out, |out, at, line| {
        let (input, result) = super::parse_line(line, &opts, args.max_len);
        if args.json {
            invalid += u64::from(result.is_err());
            let record = match &result {
                Ok((url, warnings)) => json!({
                    "input": String::from_utf8_lossy(&input), "valid": true,
                    "normal": url.normalize().as_str(), "error": null,
                    "warnings": warnings.iter().map(|w| Note::from(w).to_json()).collect::<Vec<_>>(),
                }),
                Err(p) => json!({
                    "input": String::from_utf8_lossy(&input), "valid": false,
                    "normal": null, "error": p.to_json(), "warnings": [],
                }),
            };
            serde_json::to_writer(&mut *out, &at.locate(super::with_columns(&input, record)))?;
            return writeln!(out);
        }
        match result {
            Ok((url, mut warnings)) => {
                // The normal form writes the scheme in lower case: no need to say so.
                warnings.retain(|w| w.kind() != WarningKind::UppercaseScheme);
                if !warnings.is_empty() {
                    out.flush()?;
                    let mut err = super::diagnostics();
                    warnings.iter().try_for_each(|w| warn(&mut err, at, &input, w))?;
                }
                writeln!(out, "{}", url.normalize())
            }
            Err(p) => {
                invalid += 1;
                if args.keep_lines {
                    writeln!(out)?;
                }
                out.flush()?;
                report_in(&mut super::diagnostics(), at, &input, &p)
            }
        }
    })?;
    out.flush()?;
    run.end(invalid, "URLs invalid")
}

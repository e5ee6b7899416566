//! `rfc1738 same [--lenient] [--quiet | --json] A B`: whether two URLs are
//! equivalent.

use super::report_in;
use crate::outcome::{options, parse_bytes_with, Note};
use crate::status;
use serde_json::{json, Value};
use std::io::{self, Write};

/// Arguments of `same`.
#[derive(clap::Args)]
pub struct SameArgs {
    /// How compressed input is read.
    #[command(flatten)]
    pub reading: crate::flags::Reading,
    /// Accept the deviations real-world URLs have.
    ///
    /// Each reported on stderr as a warning (see `normalize --lenient`).
    #[arg(long)]
    lenient: bool,
    /// Print nothing, not even why a URL is invalid or its warnings.
    ///
    /// The exit status says it.
    #[arg(long, short, conflicts_with = "json")]
    quiet: bool,
    /// Write one JSON object.
    ///
    /// `{equivalent, a, b}`, `a` and `b` each as a record of `normalize --json` (`input, valid,
    /// normal, error, warnings`).
    #[arg(long)]
    json: bool,
    /// The first URL (`-`: a line of stdin).
    a: String,
    /// The second URL (`-`: a line of stdin).
    b: String,
}

/// The examples at the end of `same --help`.
pub const EXAMPLES: &str = "\
Examples:
  rfc1738 same 'HTTP://h.dom:80/%7e' 'http://h.dom/%7E'
      equivalent: exit 0
  rfc1738 same ftp://h.dom/%2Fetc ftp://h.dom//etc
      different (CWD /etc, CWD then CWD etc): exit 1
  rfc1738 same -q \"$a\" \"$b\" || echo different
      in a script: the exit status alone";

/// Runs `same`: exit 0 when the URLs are equivalent (equal normal forms),
/// 1 when they are not or one of them is not a URL (the reason on
/// stderr); 2 is left to usage errors.
pub fn run(args: &SameArgs) -> io::Result<u8> {
    let opts = options(args.lenient);
    let inputs = super::fixed_arguments(&[&args.a, &args.b])?;
    if args.json {
        return run_json(&inputs, &opts);
    }
    let mut urls = Vec::new();
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
                    let at = super::At { name: None, line: urls.len() as u64 + 1 };
                    report_in(&mut anstream::stderr().lock(), at, input.as_bytes(), &p)?;
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

/// `--json`: one object, each URL as `normalize --json` writes it; exit
/// as without.
fn run_json(inputs: &[String], opts: &rfc1738::ParseOptions) -> io::Result<u8> {
    let mut normals = Vec::new();
    let records: Vec<Value> = inputs
        .iter()
        .map(|input| {
            let record = match parse_bytes_with(input.as_bytes(), opts) {
                Ok((url, warnings)) => {
                    let normal = url.normalize();
                    let record = json!({
                        "input": input, "valid": true, "normal": normal.as_str(), "error": null,
                        "warnings": warnings.iter().map(|w| Note::from(w).to_json()).collect::<Vec<_>>(),
                    });
                    normals.push(normal);
                    record
                }
                Err(p) => json!({"input": input, "valid": false, "normal": null, "error": p.to_json(), "warnings": []}),
            };
            super::with_columns(input.as_bytes(), record)
        })
        .collect();
    let same = normals.len() == 2 && normals[0].as_str() == normals[1].as_str();
    let mut out = io::stdout().lock();
    serde_json::to_writer(&mut out, &json!({"equivalent": same, "a": records[0], "b": records[1]}))?;
    writeln!(out)?;
    Ok(if same { status::OK } else { status::INVALID })
}

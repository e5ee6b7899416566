//! `rfc1738 relative BASE TARGET`: the shortest reference that resolves,
//! by RFC 1808, from the base to the target (held against an exhaustive
//! search in the library's tests).

use crate::diag;
use crate::outcome::{options, parse_bytes_with, Note, Problem};
use crate::status;
use serde_json::{json, Value};
use std::io::{self, Write};

/// Arguments of `relative`.
#[derive(clap::Args)]
pub struct RelativeArgs {
    /// How compressed input is read.
    #[command(flatten)]
    pub reading: crate::flags::Reading,
    /// Accept the deviations real-world URLs have, as warnings.
    ///
    /// Accept the deviations real-world URLs have in the base and the target.
    ///
    /// Each reported on stderr as a warning.
    #[arg(long)]
    lenient: bool,
    /// Write one JSON object.
    ///
    /// `{base, target, reference, error, warnings}` (`reference` null when there is none; `error`
    /// the parse's, with `url`: `base` or `target`).
    #[arg(long)]
    json: bool,
    /// Print nothing: the exit status says whether there is a reference.
    #[arg(long, short, conflicts_with = "json")]
    quiet: bool,
    /// The base URL, in the generic form (`//` and a host); `-`: a line
    /// of stdin.
    base: String,
    /// The URL to reach from the base; `-`: a line of stdin.
    target: String,
}

/// The examples at the end of `relative --help`.
pub const EXAMPLES: &str = "\
Examples:
  rfc1738 relative 'http://a/b/c/d;p?q' http://a/b/g
      => ../g
  rfc1738 relative http://a/b/c/d http://a/b/
      => ..
  rfc1738 relative ftp://h.dom/pub/a 'ftp://h.dom/pub/b;type=i'
      => b;type=i";

/// Runs `relative`: the reference on stdout, or a diagnostic on stderr.
pub fn run(args: &RelativeArgs) -> io::Result<u8> {
    let mut err = anstream::stderr().lock();
    let mut urls = Vec::new();
    let mut notes = Vec::new();
    let inputs = super::fixed_arguments(&[&args.base, &args.target])?;
    for (what, text) in [("base", &inputs[0]), ("target", &inputs[1])] {
        match parse_bytes_with(text.as_bytes(), &options(args.lenient)) {
            Ok((url, warnings)) => {
                let warnings = warnings.iter().filter(|w| w.kind() != rfc1738::WarningKind::UppercaseScheme);
                for w in warnings {
                    if args.json {
                        let mut note = Note::from(w).to_json();
                        note["url"] = what.into();
                        notes.push(note);
                    } else if !args.quiet {
                        let at = super::At { name: None, line: urls.len() as u64 + 1 };
                        super::warn(&mut err, at, text.as_bytes(), w)?;
                    }
                }
                urls.push(url);
            }
            Err(p) => {
                if args.json {
                    return write_json(&inputs, None, Some((what, &p)), notes);
                }
                if !args.quiet {
                    let at = super::At { name: None, line: urls.len() as u64 + 1 };
                    super::report_in(&mut err, at, text.as_bytes(), &p)?;
                }
                return Ok(status::INVALID);
            }
        }
    }
    let reference = urls[0].make_relative(&urls[1]);
    if args.json {
        return write_json(&inputs, reference.as_deref(), None, notes);
    }
    let Some(reference) = reference else {
        if !args.quiet {
            writeln!(
                err,
                "rfc1738: the base {} has no hierarchical path: no relative reference reaches another URL \
                 from it (RFC 1808 §2.1); the target itself, or a #fragment, is the reference",
                diag::escape(inputs[0].as_bytes())
            )?;
        }
        return Ok(status::INVALID);
    };
    if !args.quiet {
        writeln!(io::stdout().lock(), "{reference}")?;
    }
    Ok(status::OK)
}

/// `--json`: one object; exit 0 when there is a reference.
fn write_json(
    inputs: &[String],
    reference: Option<&str>,
    error: Option<(&str, &Problem)>,
    warnings: Vec<Value>,
) -> io::Result<u8> {
    let error = error.map_or(Value::Null, |(what, p)| {
        let mut e = p.to_json();
        e["url"] = what.into();
        let text = if what == "base" { &inputs[0] } else { &inputs[1] };
        e["column"] = super::column_of(text.as_bytes(), p.offset).into();
        e
    });
    let record = json!({
        "base": inputs[0], "target": inputs[1], "reference": reference,
        "error": error, "warnings": warnings,
    });
    let mut out = io::stdout().lock();
    serde_json::to_writer(&mut out, &record)?;
    writeln!(out)?;
    Ok(if reference.is_some() { status::OK } else { status::INVALID })
}

//! `rfc1738 resolve [--json] BASE [REF...]`: each reference resolved
//! against the base by RFC 1808 (references from stdin when none).

use super::{for_each_input, lossy_offset};
use crate::diag;
use crate::input::{Line, DEFAULT_MAX_LEN};
use crate::status;
use rfc1738::{ResolveError, ResolveErrorKind, Url};
use std::io::{self, BufWriter, Write};

/// Arguments of `resolve`.
#[derive(clap::Args)]
pub struct ResolveArgs {
    /// One JSON object per reference: `reference`, and `url` or `error`
    /// with `offset`.
    #[arg(long)]
    json: bool,
    /// The longest input line read from stdin, in bytes.
    #[arg(long, default_value_t = DEFAULT_MAX_LEN, value_parser = crate::flags::max_len)]
    max_len: usize,
    /// The base URL: ftp, http, file, prospero, or another scheme with `//`.
    base: String,
    /// Relative references; with none, one per line from stdin.
    references: Vec<String>,
}

/// Runs `resolve`: one URL per line on stdout for each reference; a
/// diagnostic on stderr (and no output line) for each that fails, or with
/// `--json`, one object per line either way.
pub fn run(args: &ResolveArgs) -> io::Result<u8> {
    let base = match Url::parse(&args.base) {
        Ok(base) => base,
        Err(e) => {
            let mut err = anstream::stderr().lock();
            writeln!(err, "rfc1738: invalid base URL: {e}")?;
            write!(err, "{}", diag::caret(&args.base, e.offset()))?;
            return Ok(status::INVALID);
        }
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let mut failed = 0u64;
    for_each_input(&args.references, args.max_len, &mut out, |out, line| {
        let Line::Text(bytes) = line else {
            failed += 1;
            return write_error(out, args.json, "", &format!("line longer than {} bytes", args.max_len), 0);
        };
        let reference = String::from_utf8_lossy(&bytes);
        match base.resolve(&reference) {
            Ok(url) if args.json => {
                let v = serde_json::json!({ "reference": reference, "url": url.as_str() });
                writeln!(out, "{v}")
            }
            Ok(url) => writeln!(out, "{url}"),
            Err(e) => {
                failed += 1;
                let offset = lossy_offset(&bytes, e.offset());
                write_resolve_error(out, args.json, &reference, &e, offset)
            }
        }
    })?;
    out.flush()?;
    Ok(if failed == 0 { status::OK } else { status::INVALID })
}

fn write_resolve_error(
    out: &mut impl Write,
    json: bool,
    reference: &str,
    e: &ResolveError,
    offset: usize,
) -> io::Result<()> {
    if json {
        let mut v =
            serde_json::json!({ "reference": reference, "error": e.to_string(), "offset": e.offset() });
        if let Some(resolved) = e.resolved() {
            v["resolved"] = resolved.into();
        }
        return writeln!(out, "{v}");
    }
    out.flush()?;
    let mut err = anstream::stderr().lock();
    writeln!(err, "rfc1738: cannot resolve {reference:?}: {e}")?;
    match e.kind() {
        ResolveErrorKind::NotRfc1738 { resolved, .. } => write!(err, "{}", diag::caret(resolved, e.offset())),
        ResolveErrorKind::NotHierarchical(_) => Ok(()),
        _ => write!(err, "{}", diag::caret(reference, offset)),
    }
}

fn write_error(
    out: &mut impl Write,
    json: bool,
    reference: &str,
    message: &str,
    offset: usize,
) -> io::Result<()> {
    if json {
        let v = serde_json::json!({ "reference": reference, "error": message, "offset": offset });
        return writeln!(out, "{v}");
    }
    out.flush()?;
    writeln!(anstream::stderr().lock(), "rfc1738: {message}")
}

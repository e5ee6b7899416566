//! `rfc1738 resolve [--json] BASE [REF...]`: each reference resolved
//! against the base by RFC 1808 (references from stdin when none).

use super::{for_each_input, lossy_offset, At, Inputs};
use crate::diag;
use crate::input::{Line, DEFAULT_MAX_LEN};
use crate::outcome::{options, Note};
use crate::status;
use rfc1738::{ResolveError, ResolveErrorKind, Url};
use std::io::{self, BufWriter, Write};

/// Arguments of `resolve`.
#[derive(clap::Args)]
pub struct ResolveArgs {
    /// How compressed input is read.
    #[command(flatten)]
    pub reading: crate::flags::Reading,
    /// One JSON object per reference, in order.
    ///
    /// `reference`, and `url` and `warnings`, or `error` with `offset` (and `resolved`, the text
    /// RFC 1808 made, when it is not an RFC 1738 URL).
    #[arg(long)]
    json: bool,
    /// Print nothing: the exit status says whether every input was valid.
    #[arg(long, short)]
    quiet: bool,
    /// Write an empty line for a reference that fails.
    ///
    /// Write an empty line for a reference that fails (its diagnostic on
    /// stderr), so that output line N is input line N.
    #[arg(long)]
    keep_lines: bool,
    /// Accept the deviations real-world URLs have, as warnings.
    ///
    /// Accept the deviations real-world URLs have, in the base, the
    /// references and the results, each reported as a warning (stderr, or
    /// `warnings` in JSON) at its offset in the resolved URL.
    #[arg(long)]
    lenient: bool,
    /// The longest input line read from stdin, in bytes.
    #[arg(long, default_value_t = DEFAULT_MAX_LEN, value_parser = crate::flags::max_len)]
    max_len: usize,
    /// The base URL. Relative paths apply to one in the generic form (`//`
    /// and a host: ftp, http, gopher, nntp, wais, file, prospero, others
    /// with `//`); an absolute URL or `#fragment` to any.
    base: String,
    /// Read references from FILE too, one per line.
    ///
    /// `-` is stdin; after the arguments; an empty line is skipped (the empty reference, which
    /// RFC 1808 resolves to the base, is given as an argument `''`).
    #[arg(long, value_name = "FILE")]
    url_file: Vec<String>,
    /// Relative references (`-`: one per line from stdin); with none and
    /// no --url-file, one per line from stdin.
    references: Vec<String>,
}

/// The examples at the end of `resolve --help`.
pub const EXAMPLES: &str = "\
Examples:
  rfc1738 resolve 'http://a/b/c/d;p?q' ../g
      => http://a/b/g
  rfc1738 resolve --keep-lines ftp://h.dom/pub/ < refs.txt
      one line per reference, empty when it fails
  rfc1738 resolve --json --lenient http://h.dom/a/ < refs.txt
      a record per reference, warnings included";

/// Runs `resolve`: one URL per line on stdout for each reference; a
/// diagnostic on stderr (and no output line, or with `--keep-lines` an
/// empty one) for each that fails, or with `--json`, one object per line
/// either way.
pub fn run(args: &ResolveArgs) -> io::Result<u8> {
    super::set_quiet(args.quiet);
    let opts = options(args.lenient);
    let base = match Url::parse_with(&args.base, &opts) {
        Ok((base, warnings)) => {
            let mut err = super::diagnostics();
            let at = At { name: None, line: 1 };
            for w in warnings.iter().filter(|w| w.kind() != rfc1738::WarningKind::UppercaseScheme) {
                super::warn(&mut err, at, args.base.as_bytes(), w)?;
            }
            base
        }
        Err(e) => {
            let at = At { name: None, line: 1 };
            super::report_in(&mut super::diagnostics(), at, args.base.as_bytes(), &e.into())?;
            return Ok(status::INVALID);
        }
    };
    let mut out = BufWriter::new(super::stdout());
    let mut failed = 0u64;
    let keep_empty = args.keep_lines || args.json;
    let inputs = Inputs {
        urls: &args.references,
        files: &args.url_file,
        max_len: args.max_len,
        keep_empty,
        quiet: args.quiet,
    };
    let run = for_each_input(&inputs, &mut out, |out, at, line| {
        let Line::Text(bytes) = line else {
            failed += 1;
            let message = format!("line longer than {} bytes (--max-len)", args.max_len);
            return write_error(out, args, at, &message);
        };
        let reference = String::from_utf8_lossy(&bytes);
        match base.resolve_with(&reference, &opts) {
            Ok((url, warnings)) if args.json => {
                let warnings: Vec<_> = warnings.iter().map(|w| Note::from(w).to_json()).collect();
                let v =
                    serde_json::json!({ "reference": reference, "url": url.as_str(), "warnings": warnings });
                writeln!(out, "{}", at.locate(v))
            }
            Ok((url, warnings)) => {
                writeln!(out, "{url}")?;
                if !warnings.is_empty() {
                    out.flush()?;
                    let mut err = super::diagnostics();
                    warnings
                        .iter()
                        .try_for_each(|w| super::warn(&mut err, at, url.as_str().as_bytes(), w))?;
                }
                Ok(())
            }
            Err(e) => {
                failed += 1;
                let offset = lossy_offset(&bytes, e.offset());
                write_resolve_error(out, args, at, &reference, &e, offset)
            }
        }
    })?;
    out.flush()?;
    run.end(failed, "references not resolved")
}

fn write_resolve_error(
    out: &mut impl Write,
    args: &ResolveArgs,
    at: At<'_>,
    reference: &str,
    e: &ResolveError,
    offset: usize,
) -> io::Result<()> {
    if args.json {
        let mut v =
            serde_json::json!({ "reference": reference, "error": e.to_string(), "offset": e.offset() });
        if let Some(resolved) = e.resolved() {
            v["resolved"] = resolved.into();
        }
        return writeln!(out, "{}", at.locate(v));
    }
    if args.keep_lines {
        writeln!(out)?;
    }
    out.flush()?;
    let mut err = super::diagnostics();
    // The column of the offset when it is one in the reference; else the
    // reference as a whole (its first column).
    let column = match e.kind() {
        ResolveErrorKind::NotRfc1738 { .. } | ResolveErrorKind::NotHierarchical(_) => 1,
        _ => super::column_of(reference.as_bytes(), e.offset()),
    };
    let kind = match e.kind() {
        ResolveErrorKind::NotHierarchical(_) => "not-hierarchical",
        ResolveErrorKind::InvalidChar => "invalid-char",
        ResolveErrorKind::InvalidEscape => "invalid-escape",
        _ => "not-rfc1738",
    };
    let style = diag::ERROR;
    writeln!(
        err,
        "rfc1738: {}:{}:{column}: {style}error{style:#}[{kind}]: cannot resolve \"{}\": {e}",
        at.file(),
        at.line,
        diag::escape(reference.as_bytes())
    )?;
    match e.kind() {
        ResolveErrorKind::NotRfc1738 { resolved, .. } => write!(err, "{}", diag::caret(resolved, e.offset())),
        ResolveErrorKind::NotHierarchical(_) => Ok(()),
        _ => write!(err, "{}", diag::caret(reference, offset)),
    }
}

fn write_error(out: &mut impl Write, args: &ResolveArgs, at: At<'_>, message: &str) -> io::Result<()> {
    if args.json {
        let v = serde_json::json!({ "reference": "", "error": message, "offset": 0 });
        return writeln!(out, "{}", at.locate(v));
    }
    if args.keep_lines {
        writeln!(out)?;
    }
    out.flush()?;
    let style = diag::ERROR;
    writeln!(
        super::diagnostics(),
        "rfc1738: {}:{}:1: {style}error{style:#}[too-long]: {message}",
        at.file(),
        at.line
    )
}

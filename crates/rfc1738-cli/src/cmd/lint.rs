//! `rfc1738 lint [--lenient] [--json] [FILE...]`: the warnings of each URL,
//! one per line: the security checks (§6 and more), the deviations a
//! lenient parse accepted, and the invalid lines.

use super::{lossy_offset, next_line};
use crate::diag;
use crate::input::{Line, Lines, DEFAULT_MAX_LEN};
use crate::outcome::{options, parse_bytes_with, Problem};
use crate::status;
use rfc1738::Warning;
use serde_json::json;
use std::io::{self, BufWriter, Write};

/// Arguments of `lint`.
#[derive(clap::Args)]
pub struct LintArgs {
    /// Accept the deviations real-world URLs have, each reported as a
    /// warning instead of making the line invalid.
    #[arg(long)]
    lenient: bool,
    /// Write one JSON object per finding (`{file, line, input, offset, level, kind, message}`;
    /// `level` is `security`, `warning` or `error`; `input` has its password redacted).
    #[arg(long)]
    json: bool,
    /// The longest line read, in bytes; a longer one is reported invalid.
    #[arg(long, default_value_t = DEFAULT_MAX_LEN, value_parser = crate::flags::max_len)]
    max_len: usize,
    /// Files with one URL per line; `-` or none for stdin. Empty lines are skipped.
    files: Vec<String>,
}

/// What lint found on one line.
enum Finding<'a> {
    Warning(&'a Warning),
    Invalid(&'a Problem),
}

/// Runs `lint`: exit 0 when nothing was found, 1 when anything was.
pub fn run(args: &LintArgs) -> io::Result<u8> {
    let files = if args.files.is_empty() { vec!["-".to_string()] } else { args.files.clone() };
    // Colour escapes are stripped when stdout is not a terminal or
    // `NO_COLOR` is set.
    let mut out = BufWriter::new(anstream::stdout().lock());
    let mut found = 0u64;
    for file in &files {
        let mut lines =
            Lines::open(file, args.max_len).map_err(|e| io::Error::new(e.kind(), format!("{file}: {e}")))?;
        let name = if file == "-" { "<stdin>" } else { file };
        let mut line_no = 0u64;
        while let Some(line) = next_line(&mut lines, &mut out)? {
            line_no += 1;
            let (input, result) = match line {
                Line::Text(t) if t.is_empty() => continue,
                Line::Text(t) => {
                    let r = parse_bytes_with(&t, &options(args.lenient));
                    (t, r)
                }
                Line::TooLong(n) => (Vec::new(), Err(Problem::too_long(n, args.max_len))),
            };
            let at = Place { name, line: line_no, input: &input };
            match result {
                Ok((url, mut warnings)) => {
                    warnings.extend(url.security_warnings());
                    warnings.sort_by_key(Warning::offset);
                    let shown = url.redacted();
                    for w in &warnings {
                        write_finding(&mut out, args.json, &at, &shown, Finding::Warning(w))?;
                    }
                    found += warnings.len() as u64;
                }
                Err(p) => {
                    let shown = String::from_utf8_lossy(&input);
                    write_finding(&mut out, args.json, &at, &shown, Finding::Invalid(&p))?;
                    found += 1;
                }
            }
        }
    }
    out.flush()?;
    Ok(if found == 0 { status::OK } else { status::INVALID })
}

/// Where a finding is.
struct Place<'a> {
    name: &'a str,
    line: u64,
    input: &'a [u8],
}

/// One finding on one line: `file:line:col: warning[kind]: message`, or
/// `error[kind]` for an invalid line; or a JSON object. The input shown in
/// JSON has its password replaced ([`rfc1738::Url::redacted`]).
fn write_finding(
    out: &mut impl Write,
    json: bool,
    at: &Place<'_>,
    shown: &str,
    f: Finding<'_>,
) -> io::Result<()> {
    let (offset, kind, message, level) = match f {
        Finding::Warning(w) => {
            let level = if w.kind().is_security() { "security" } else { "warning" };
            (w.offset(), w.kind().id(), w.message().to_string(), level)
        }
        Finding::Invalid(p) => (p.offset, p.kind, p.message.to_string(), "error"),
    };
    if json {
        let obj = json!({
            "file": at.name, "line": at.line, "input": shown, "offset": offset,
            "level": level, "kind": kind, "message": message,
        });
        serde_json::to_writer(&mut *out, &obj)?;
        return writeln!(out);
    }
    let col = diag::column(&String::from_utf8_lossy(at.input), lossy_offset(at.input, offset));
    let style = if level == "warning" { diag::WARNING } else { diag::ERROR };
    writeln!(out, "{}:{}:{col}: {style}{level}{style:#}[{kind}]: {message}", at.name, at.line)
}

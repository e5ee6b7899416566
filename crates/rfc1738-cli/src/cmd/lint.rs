//! `rfc1738 lint [--lenient] [--json | --format sarif] [FILE...]`: the
//! warnings of each URL, one per line: the security checks (§6 and more),
//! the deviations a lenient parse accepted, and the invalid lines.

use super::{display_name, lossy_offset};
use crate::diag;
use crate::input::{Line, Lines, DEFAULT_MAX_LEN};
use crate::outcome::{options, Problem};
use crate::status;
use rfc1738::Warning;
use serde_json::{json, Value};
use std::io::{self, BufWriter, IsTerminal, Write};

/// Arguments of `lint`.
#[derive(clap::Args)]
pub struct LintArgs {
    /// How compressed input is read.
    #[command(flatten)]
    pub reading: crate::flags::Reading,
    /// Accept the deviations real-world URLs have.
    ///
    /// Each reported as a warning instead of making the line invalid.
    #[arg(long)]
    lenient: bool,
    /// Write one JSON object per finding.
    ///
    /// Write one JSON object per finding (`{file, line, input, offset, level, kind, message}`;
    /// `level` is `security`, `warning` or `error`; `input` has its password redacted).
    /// Each object carries its file and line; with --keep-lines, one object
    /// per input line instead: `{file, line, input, findings: [...]}`.
    #[arg(long, conflicts_with = "format")]
    json: bool,
    /// What to write.
    ///
    /// `text` (one line per finding), `json` (as --json) or `sarif` (one SARIF 2.1.0 log, for
    /// code-scanning tools: each finding a result with its rule, level, file, line and column).
    #[arg(long, value_enum, default_value_t = LintFormat::Text)]
    format: LintFormat,
    /// Write exactly one line (or JSON object) per input line, in order.
    ///
    /// The line's findings separated by tabs, or an empty line when it has none.
    #[arg(long)]
    keep_lines: bool,
    /// Print nothing: the exit status says whether anything was found.
    #[arg(long, short, conflicts_with_all = ["json", "keep_lines"])]
    quiet: bool,
    /// The longest line read, in bytes; a longer one is reported invalid.
    #[arg(long, default_value_t = DEFAULT_MAX_LEN, value_parser = crate::flags::max_len)]
    max_len: usize,
    /// Files with one URL per line; `-` or none for stdin. Empty lines are
    /// skipped (with --keep-lines, they give an empty line).
    files: Vec<String>,
}

/// What `lint` writes.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LintFormat {
    /// `FILE:LINE:COLUMN: level[kind]: message`, one finding per line.
    Text,
    /// One JSON object per finding.
    Json,
    /// One SARIF 2.1.0 log.
    Sarif,
}

/// The examples at the end of `lint --help`.
pub const EXAMPLES: &str = "\
Examples:
  echo 'gopher://mail.dom:25/7x%09HELO%0D%0AQUIT' | rfc1738 lint
      each §6 risk, line and column
  rfc1738 lint --format sarif urls.txt > urls.sarif
      for code-scanning tools (SARIF 2.1.0)
  rfc1738 lint --lenient --keep-lines urls.txt
      one line per input line, findings by tabs";

/// What lint found on one line.
enum Finding<'a> {
    Warning(&'a Warning),
    Invalid(&'a Problem),
}

/// One finding, as every format writes it.
struct Found {
    offset: usize,
    /// The byte's column, from 1 (text and JSON).
    column: usize,
    /// The character's column, from 1 (SARIF's `unicodeCodePoints`).
    char_column: usize,
    kind: &'static str,
    level: &'static str,
    message: String,
    /// The §5 rule of an invalid line.
    rule: Option<&'static str>,
    /// The offset in the input shown (its password redacted).
    shown_offset: usize,
}

/// Runs `lint`: exit 0 when nothing was found, 1 when anything was.
pub fn run(args: &LintArgs) -> io::Result<u8> {
    let files = if args.files.is_empty() { vec!["-".to_string()] } else { args.files.clone() };
    let format = if args.json { LintFormat::Json } else { args.format };
    // Colour escapes are stripped when stdout is not a terminal or
    // `NO_COLOR` is set.
    let mut out = BufWriter::new(anstream::stdout().lock());
    let mut count = 0u64;
    let mut sarif = Sarif::default();
    if format == LintFormat::Sarif && !args.quiet {
        sarif.begin(&mut out)?;
    }
    let all_read = super::for_each_file(&files, &mut out, |out, file| {
        let mut lines = Lines::open(file, args.max_len).map_err(|e| super::open_error(file, &e))?;
        let name = display_name(file);
        let mut line_no = 0u64;
        let progress =
            crate::progress::Progress::start(file, args.quiet, std::io::stdout().is_terminal(), true);
        let mut read = 0u64;
        loop {
            if lines.would_wait() {
                out.flush()?;
            }
            let Some(line) = lines.next_line().map_err(|e| super::input_error(file, &e))? else { break };
            line_no += 1;
            read += match &line {
                Line::Text(t) => t.len() as u64 + 1,
                Line::TooLong(n) => n + 1,
            };
            if line_no.is_multiple_of(256) {
                progress.at(line_no, read);
            }
            // An empty line holds no URL (README, "The contract").
            if matches!(&line, Line::Text(t) if t.is_empty()) {
                if args.keep_lines && format != LintFormat::Sarif {
                    writeln!(out)?;
                }
                continue;
            }
            let (input, result) = super::parse_line(line, &options(args.lenient), args.max_len);
            let (shown, findings) = match &result {
                Ok((url, warnings)) => {
                    let mut all = warnings.clone();
                    all.extend(url.security_warnings());
                    all.sort_by_key(Warning::offset);
                    let shown = url.redacted().into_owned();
                    let findings: Vec<Found> =
                        all.iter().map(|w| found(&input, &shown, Finding::Warning(w))).collect();
                    (shown, findings)
                }
                // The line as given, its password hidden all the same.
                Err(p) => {
                    let shown = rfc1738::redact_text(&String::from_utf8_lossy(&input)).into_owned();
                    let findings = vec![found(&input, &shown, Finding::Invalid(p))];
                    (shown, findings)
                }
            };
            count += findings.len() as u64;
            match format {
                _ if args.quiet => {}
                LintFormat::Sarif => sarif.add(out, file, line_no, &findings)?,
                _ if args.keep_lines => write_line(out, format, name, line_no, &shown, &findings)?,
                _ => {
                    for f in &findings {
                        write_finding(out, format, name, line_no, &shown, f)?;
                    }
                }
            }
        }
        progress.finish();
        Ok(())
    })?;
    if format == LintFormat::Sarif && !args.quiet {
        sarif.end(&mut out)?;
    }
    out.flush()?;
    Ok(status::of_run(all_read, count != 0))
}

fn found(input: &[u8], shown: &str, f: Finding<'_>) -> Found {
    let (offset, kind, message, level, rule) = match f {
        Finding::Warning(w) => {
            let level = if w.kind().is_security() { "security" } else { "warning" };
            (w.offset(), w.kind().id(), w.message().to_string(), level, None)
        }
        Finding::Invalid(p) => (p.offset, p.kind, p.message.to_string(), "error", Some(p.rule)),
    };
    let text = String::from_utf8_lossy(input);
    let at = lossy_offset(input, offset);
    let char_column = diag::column(&text, at);
    let column = super::column_of(input, offset);
    let shown_offset = redacted_offset(&text, shown, at);
    Found { offset, column, char_column, kind, level, message, rule, shown_offset }
}

/// Where offset `at` of `text` is in `shown`, the same text with its
/// password replaced: the same before the password, moved by the change
/// of length after it, and its start within it.
fn redacted_offset(text: &str, shown: &str, at: usize) -> usize {
    if text == shown {
        return at;
    }
    let prefix = text.bytes().zip(shown.bytes()).take_while(|(a, b)| a == b).count();
    let suffix = text.bytes().rev().zip(shown.bytes().rev()).take_while(|(a, b)| a == b).count();
    let suffix = suffix.min(text.len() - prefix).min(shown.len() - prefix);
    if at < prefix {
        at
    } else if at >= text.len() - suffix {
        at + shown.len() - text.len()
    } else {
        prefix
    }
}

fn json_of(name: &str, line: u64, shown: &str, f: &Found) -> Value {
    json!({
        "file": name, "line": line, "column": f.column, "input": shown, "offset": f.offset,
        "level": f.level, "kind": f.kind, "message": f.message,
    })
}

/// A finding's text, without its file and line: `col: level[kind]:
/// message (in rule)`.
fn text_of(f: &Found) -> String {
    let style = if f.level == "warning" { diag::WARNING } else { diag::ERROR };
    let rule = f.rule.map(|r| format!(" (in {r})")).unwrap_or_default();
    format!("{}: {style}{}{style:#}[{}]: {}{rule}", f.column, f.level, f.kind, f.message)
}

/// One finding on one line: `file:line:col: warning[kind]: message`, or
/// `error[kind]` for an invalid line; or a JSON object. The input shown in
/// JSON has its password replaced ([`rfc1738::Url::redacted`], or for an
/// invalid line [`rfc1738::redact_text`]).
fn write_finding(
    out: &mut impl Write,
    format: LintFormat,
    name: &str,
    line: u64,
    shown: &str,
    f: &Found,
) -> io::Result<()> {
    if format == LintFormat::Json {
        serde_json::to_writer(&mut *out, &json_of(name, line, shown, f))?;
        return writeln!(out);
    }
    let file = super::shown_name(name);
    let d = diag::Diagnostic {
        file: &file,
        line,
        label: f.level,
        kind: f.kind,
        message: &f.message,
        rule: f.rule,
    };
    let mut text = Vec::new();
    d.write(&mut text, shown.as_bytes(), f.shown_offset, true);
    // `head` counts the column in `shown`: the input's is the one to say.
    let head = d.head(f.column, true);
    let caret = text.iter().position(|&b| b == b'\n').map_or(&text[..0], |n| &text[n..]);
    out.write_all(head.as_bytes())?;
    out.write_all(caret)
}

/// `--keep-lines`: one line per input line, its findings separated by
/// tabs (or one JSON object with a `findings` array).
fn write_line(
    out: &mut impl Write,
    format: LintFormat,
    name: &str,
    line: u64,
    shown: &str,
    findings: &[Found],
) -> io::Result<()> {
    if format == LintFormat::Json {
        let all: Vec<Value> = findings.iter().map(|f| json_of(name, line, shown, f)).collect();
        let obj = json!({"file": name, "line": line, "input": shown, "findings": all});
        serde_json::to_writer(&mut *out, &obj)?;
        return writeln!(out);
    }
    let name = super::shown_name(name);
    let texts: Vec<String> = findings.iter().map(|f| format!("{name}:{line}:{}", text_of(f))).collect();
    writeln!(out, "{}", texts.join("\t"))
}

/// The findings of a run as one SARIF 2.1.0 log (OASIS, 2020): one run of
/// the tool `rfc1738`, a rule per kind of finding, a result per finding.
/// Each result is written as it is found, one a line, so that memory
/// does not grow with the input; the rules, known at the end, follow the
/// results (JSON's members have no order).
#[derive(Default)]
struct Sarif {
    /// Kinds in the order first seen, each with its first message.
    rules: Vec<(&'static str, String)>,
    /// Results written so far.
    results: u64,
}

impl Sarif {
    /// The log up to its first result.
    fn begin(&self, out: &mut impl Write) -> io::Result<()> {
        let head = r#"{
  "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
  "version": "2.1.0",
  "runs": [
    {
      "columnKind": "unicodeCodePoints",
      "results": ["#;
        // Columns count characters, as the text output does.
        out.write_all(head.as_bytes())
    }

    fn add(&mut self, out: &mut impl Write, file: &str, line: u64, findings: &[Found]) -> io::Result<()> {
        for f in findings {
            let index = match self.rules.iter().position(|(k, _)| *k == f.kind) {
                Some(i) => i,
                None => {
                    self.rules.push((f.kind, f.message.clone()));
                    self.rules.len() - 1
                }
            };
            // §3.27.10: error, warning or note. An invalid URL is an error;
            // a security risk a warning; an accepted deviation a note.
            let level = match f.level {
                "error" => "error",
                "security" => "warning",
                _ => "note",
            };
            let artifact = if file == "-" {
                json!({"description": {"text": "standard input"}})
            } else {
                json!({"uri": file_uri(file)})
            };
            let result = json!({
                "ruleId": f.kind,
                "ruleIndex": index,
                "level": level,
                "message": {"text": f.message},
                "locations": [{"physicalLocation": {
                    "artifactLocation": artifact,
                    "region": {"startLine": line, "startColumn": f.char_column},
                }}],
                "properties": {"offset": f.offset, "security": f.level == "security"},
            });
            out.write_all(if self.results == 0 { b"\n        " } else { b",\n        " })?;
            serde_json::to_writer(&mut *out, &result)?;
            self.results += 1;
        }
        Ok(())
    }

    /// The rest of the log: the end of the results, then the tool and
    /// its rules.
    fn end(&self, out: &mut impl Write) -> io::Result<()> {
        let rules: Vec<Value> = self
            .rules
            .iter()
            .map(|(kind, message)| json!({"id": kind, "shortDescription": {"text": message}}))
            .collect();
        let tool = json!({"driver": {
            "name": "rfc1738",
            "version": env!("CARGO_PKG_VERSION"),
            "informationUri": "https://www.rfc-editor.org/rfc/rfc1738",
            "rules": rules,
        }});
        let tool = serde_json::to_string_pretty(&tool)?.replace('\n', "\n      ");
        let close = if self.results == 0 { "]" } else { "\n      ]" };
        writeln!(out, "{close},\n      \"tool\": {tool}\n    }}\n  ]\n}}")
    }
}

/// A file name as a URI reference (§3.4.3 of SARIF: `uri-reference`):
/// octets outside the unreserved set and `/` percent-encoded; an absolute
/// path as a `file:` URL.
fn file_uri(path: &str) -> String {
    let mut uri = String::from(if path.starts_with('/') { "file://" } else { "" });
    for &b in path.as_bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            uri.push(b as char);
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri
}

//! `rfc1738 parse [--json | --get TEMPLATE | --format csv|tsv] [URL...]`

use super::{for_each_input, report_in, Inputs};
use crate::input::{Line, DEFAULT_MAX_LEN};
use crate::outcome::{options, Problem};
use crate::{json, status};
use rfc1738::Url;
use rfc1738_report::template::Template;
use serde_json::Value;
use std::io::{self, BufWriter, Write};

/// Arguments of `parse`.
#[derive(clap::Args)]
pub struct ParseArgs {
    /// How compressed input is read.
    #[command(flatten)]
    pub reading: crate::flags::Reading,
    /// Write one JSON object per input, one per line, in input order.
    #[arg(long, conflicts_with_all = ["get", "format"])]
    json: bool,
    /// Write one line per URL from a template of parts.
    ///
    /// Write one line per URL from a template of parts: `{scheme} {host}`.
    /// `{part}` is decoded, `{:part}` as written; `{{`, `}}`, `\t`, `\n`.
    /// Parts: input, valid, scheme, kind, user, password, host, port,
    /// effective_port, url_path, fragment, scheme_specific_part, warnings,
    /// error.offset|kind|rule|message, and each scheme's own (ftp.cwd,
    /// ftp.name, ftp.typecode, gopher.type, gopher.selector, gopher.search,
    /// gopher.plus, http.path, http.search, mailto.address, news.group,
    /// news.article, nntp.group, nntp.article, wais.form, wais.database,
    /// wais.search, wais.wtype, wais.wpath, file.host, file.path,
    /// prospero.hsoname, prospero.fields, other.scheme_specific_part).
    #[arg(long, value_name = "TEMPLATE", conflicts_with = "format", verbatim_doc_comment)]
    get: Option<String>,
    /// Write the output of an invalid URL too.
    ///
    /// With --get, the template (its error parts filled, the others empty), so that output line N
    /// is input line N; without, its block (the input, then `error`). `--json` and `--format`
    /// always write one record per input.
    #[arg(long)]
    keep_lines: bool,
    /// Write a table with a header.
    ///
    /// One row per input, the columns of the JSON record's top level (error flattened, warnings
    /// joined by `,`). An absent part is an empty cell; an empty one is `""` (the user of
    /// `ftp://@h/` is `""`, that of `ftp://h/` nothing).
    #[arg(long, value_enum)]
    format: Option<Table>,
    /// Print nothing: the exit status says whether every input was valid.
    #[arg(long, short)]
    quiet: bool,
    /// Accept the deviations real-world URLs have.
    ///
    /// Each reported in `warnings`.
    #[arg(long)]
    lenient: bool,
    /// The longest input line read from stdin, in bytes.
    #[arg(long, default_value_t = DEFAULT_MAX_LEN, value_parser = crate::flags::max_len)]
    max_len: usize,
    /// Read URLs from FILE too, one per line (`-`: stdin), after the arguments.
    ///
    /// An empty line is skipped. May be given more than once.
    #[arg(long, value_name = "FILE")]
    url_file: Vec<String>,
    /// URLs to parse (`-`: one per line from stdin); with none and no
    /// --url-file, one per line from stdin.
    urls: Vec<String>,
}

/// The examples at the end of `parse --help`.
pub const EXAMPLES: &str = "\
Examples:
  rfc1738 parse 'ftp://myname@host.dom/%2Fetc/motd'
      the parts, and the ftp commands
  rfc1738 parse --keep-lines --get '{valid}\\t{host}' < urls.txt
      one line per input line
  rfc1738 parse --format csv < urls.txt > urls.csv
      a table: \"\" empty, nothing absent";

/// The tables `--format` writes.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Table {
    /// Comma-separated values (RFC 4180), quoted where needed.
    Csv,
    /// Tab-separated values, quoted where a field holds a tab, a quote or a line break.
    Tsv,
}

/// The columns of `--format`: the JSON record's top level.
const COLUMNS: [&str; 16] = [
    "input",
    "valid",
    "error.offset",
    "error.kind",
    "error.rule",
    "error.message",
    "scheme",
    "kind",
    "fragment",
    "warnings",
    "user",
    "password",
    "host",
    "port",
    "effective_port",
    "url_path",
];

impl ParseArgs {
    /// Where the URLs come from; an empty line answered by an empty line
    /// wherever output line N is input line N.
    fn inputs(&self) -> Inputs<'_> {
        let keep_empty = self.json || self.keep_lines || self.format.is_some();
        Inputs {
            urls: &self.urls,
            files: &self.url_file,
            max_len: self.max_len,
            keep_empty,
            quiet: self.quiet,
        }
    }
}

/// Runs `parse`.
pub fn run(args: &ParseArgs) -> io::Result<u8> {
    super::set_quiet(args.quiet);
    if let Some(text) = &args.get {
        return match Template::parse(text) {
            Ok(template) => run_get(args, &template),
            Err(e) => {
                eprintln!("rfc1738: --get: {e}");
                anstream::eprint!("{}", crate::diag::caret(text, e.offset));
                Ok(status::ERROR)
            }
        };
    }
    if let Some(table) = args.format {
        return run_table(args, table);
    }
    let mut out = BufWriter::new(super::stdout());
    let mut invalid = 0u64;
    let run = for_each_input(&args.inputs(), &mut out, |out, at, line| {
        let (input, result, warnings) = parse_line(args, line);
        invalid += u64::from(result.is_err());
        if args.json {
            // No `file` and `line` here: `file` is the part of a file URL
            // (the record is the library's, as in Python and the API).
            let record = super::with_columns(&input, json::object(&input, &result, &warnings));
            serde_json::to_writer(&mut *out, &record)?;
            return writeln!(out);
        }
        match &result {
            Ok(_) => breakdown(out, &input, &json::object(&input, &result, &warnings)),
            Err(p) => {
                if args.keep_lines {
                    // On stdout, as it came: escaped (ESC, BEL, CR) for a terminal.
                    writeln!(out, "{}", crate::diag::escape(&input))?;
                    let error = format!("{} at offset {} (in {})", p.message, p.offset, p.rule);
                    writeln!(out, "  {:<16}{error}\n", "error")?;
                }
                out.flush()?;
                report_in(&mut super::diagnostics(), at, &input, p)
            }
        }
    })?;
    out.flush()?;
    run.end(invalid, "URLs invalid")
}

/// Parses one input line as `parse` does: the input, the URL or the
/// problem, and the parse's own warnings.
fn parse_line(args: &ParseArgs, line: Line) -> (Vec<u8>, Result<Url, Problem>, Vec<rfc1738::Warning>) {
    let (input, parsed) = super::parse_line(line, &options(args.lenient), args.max_len);
    match parsed {
        Ok((url, warnings)) => (input, Ok(url), warnings),
        Err(p) => (input, Err(p), Vec::new()),
    }
}

/// `--get`: a line per valid URL; an invalid one is reported on stderr and
/// writes its line only with `--keep-lines`.
fn run_get(args: &ParseArgs, template: &Template) -> io::Result<u8> {
    let mut out = BufWriter::new(super::stdout());
    let mut invalid = 0u64;
    let mut line_out = Vec::new();
    let run = for_each_input(&args.inputs(), &mut out, |out, at, line| {
        let (input, result, _) = parse_line(args, line);
        line_out.clear();
        match &result {
            Ok(url) => template.render_url(&mut line_out, &input, url),
            Err(p) => {
                invalid += 1;
                out.flush()?;
                report_in(&mut super::diagnostics(), at, &input, p)?;
                if !args.keep_lines {
                    return Ok(());
                }
                template.render_problem(&mut line_out, &input, p);
            }
        }
        line_out.push(b'\n');
        out.write_all(&line_out)
    })?;
    out.flush()?;
    run.end(invalid, "URLs invalid")
}

/// `--format csv|tsv`: a header, then a row per input, valid or not.
fn run_table(args: &ParseArgs, table: Table) -> io::Result<u8> {
    let delimiter = if table == Table::Csv { b',' } else { b'\t' };
    let mut out = BufWriter::new(super::stdout());
    let mut invalid = 0u64;
    let mut row = Vec::new();
    write_row(&mut row, delimiter, COLUMNS.iter().map(|c| Some((*c).to_string())));
    out.write_all(&row)?;
    let run = for_each_input(&args.inputs(), &mut out, |out, _, line| {
        let (input, result, warnings) = parse_line(args, line);
        invalid += u64::from(result.is_err());
        let obj = json::object(&input, &result, &warnings);
        row.clear();
        write_row(&mut row, delimiter, COLUMNS.iter().map(|c| cell(&obj, c)));
        out.write_all(&row)
    })?;
    out.flush()?;
    run.end(invalid, "URLs invalid")
}

/// The text of column `name` of a JSON record; `None` for null or absent.
fn cell(obj: &Value, name: &str) -> Option<String> {
    let v = match name.split_once('.') {
        Some((outer, inner)) => &obj[outer][inner],
        None => &obj[name],
    };
    match v {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        Value::Array(items) => {
            Some(items.iter().map(|w| w["kind"].as_str().unwrap_or("")).collect::<Vec<_>>().join(","))
        }
        other => Some(other.to_string()),
    }
}

/// One row of a table, RFC 4180: a field is quoted when it holds the
/// delimiter, a quote, a CR or a LF (a quote doubled inside), and when it
/// is present but empty, so that `""` (empty) and nothing (absent) stay
/// apart, as RFC 1738 keeps `ftp://@h/` apart from `ftp://h/`. Control
/// characters (only an invalid input or a decoded part holds them) are
/// written by [`crate::diag::escape`] (`\r`, `\n`, `\t`, `\xHH`, and `\`
/// as `\\`), so that a table on a terminal cannot drive it and each row
/// stays one line.
fn write_row(out: &mut Vec<u8>, delimiter: u8, fields: impl Iterator<Item = Option<String>>) {
    for (k, field) in fields.enumerate() {
        if k > 0 {
            out.push(delimiter);
        }
        let Some(f) = field else { continue };
        let f = crate::diag::escape(f.as_bytes());
        let quote = f.is_empty() || f.bytes().any(|b| matches!(b, b'"' | b'\r' | b'\n') || b == delimiter);
        if quote {
            out.push(b'"');
            out.extend_from_slice(f.replace('"', "\"\"").as_bytes());
            out.push(b'"');
        } else {
            out.extend_from_slice(f.as_bytes());
        }
    }
    out.push(b'\n');
}

/// The readable breakdown: the input, then one line per component.
fn breakdown(out: &mut impl Write, input: &[u8], obj: &Value) -> io::Result<()> {
    writeln!(out, "{}", String::from_utf8_lossy(input))?;
    const TOP: [&str; 9] =
        ["scheme", "kind", "user", "password", "host", "port", "effective_port", "url_path", "fragment"];
    for key in TOP {
        if let Some(v) = obj.get(key) {
            writeln!(out, "  {key:<16}{}", show(v))?;
        }
    }
    let kind = obj["kind"].as_str().unwrap_or("");
    if let Some(Value::Object(view)) = obj.get(kind) {
        for (k, v) in view {
            match v {
                Value::Array(items) if !items.is_empty() => {
                    writeln!(out, "  {:<16}{}", format!("{kind}.{k}"), show(&items[0]))?;
                    for item in &items[1..] {
                        writeln!(out, "  {:<16}{}", "", show(item))?;
                    }
                }
                _ => writeln!(out, "  {:<16}{}", format!("{kind}.{k}"), show(v))?,
            }
        }
    }
    if let Some(Value::Array(warnings)) = obj.get("warnings") {
        for w in warnings {
            let line = format!(
                "{} at offset {} ({})",
                w["message"].as_str().unwrap_or(""),
                w["offset"],
                show(&w["kind"])
            );
            writeln!(out, "  {:<16}{line}", "warning")?;
        }
    }
    writeln!(out)
}

/// A JSON value shown for people: `(absent)` for null, `""` for empty.
fn show(v: &Value) -> String {
    match v {
        Value::Null => "(absent)".into(),
        Value::String(s) if s.is_empty() => "\"\"".into(),
        Value::String(s) => crate::diag::escape(s.as_bytes()).into_owned(),
        Value::Array(a) if a.is_empty() => "(none)".into(),
        Value::Array(a) => a.iter().map(show).collect::<Vec<_>>().join(" = "),
        other => other.to_string(),
    }
}

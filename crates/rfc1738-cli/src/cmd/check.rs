//! `rfc1738 check [FILE...]`: validate one URL per line, at scale.
//!
//! Lines stream through in blocks: a reader thread reads the next block of
//! whole lines while every core splits and validates the ones before it,
//! and results are written in input order. Memory is bounded by a few
//! blocks per worker, each of about a megabyte (or one line of up to
//! `--max-len` bytes), whatever the size of the input.

use super::display_name;
use crate::input::{Block, Blocks, DEFAULT_MAX_LEN};
use crate::outcome::{options, parse_bytes_with, scheme_bytes, scheme_of, Note, Problem};
use crate::status;
use rfc1738::bulk::Known;
use rfc1738_report::clf;
use rfc1738_report::logfields::Value as FieldValue;
use rfc1738_report::logformat::LogFormat;
use rfc1738_report::logtime::LogTime;
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};
use std::io::{self, BufWriter, IsTerminal, Write};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;

/// Bytes read at a time: a block of whole lines is about this long.
const BLOCK: usize = 1 << 20;
/// Distinct schemes counted by name in the summary; the rest are pooled.
const MAX_SCHEMES: usize = 32;
/// Spellings of `scheme ":"` a tally recognizes without reading the name.
const SEEN: usize = 8;

/// Arguments of `check`.
#[derive(clap::Args)]
pub struct CheckArgs {
    /// How compressed input is read.
    #[command(flatten)]
    pub reading: crate::flags::Reading,
    /// Write one JSON object per input line, in order.
    ///
    /// `{file, line, input, valid, scheme, error, warnings}`; with `--input-format clf` also
    /// `method, target, protocol, status, bytes` (`scheme`: the scheme of the URL the request
    /// names; a path is http's); with a `--log-format` that names other fields (`%D`,
    /// `%{X}i`, `$request_time`), `fields`: each by name, numbers as numbers, absent as null.
    #[arg(long)]
    json: bool,
    /// Write exactly one line per input line, in order.
    ///
    /// `FILE:LINE: valid` (and its warnings) or `FILE:LINE:COLUMN: <error>`; the summary goes to
    /// stderr. (`--json` is always one object per line.)
    #[arg(long, conflicts_with_all = ["quiet", "invalid_only"])]
    keep_lines: bool,
    /// Write the invalid lines alone (their reports, or their JSON objects).
    #[arg(long)]
    invalid_only: bool,
    /// The longest line read, in bytes; a longer one is reported invalid.
    #[arg(long, default_value_t = DEFAULT_MAX_LEN, value_parser = crate::flags::max_len)]
    max_len: usize,
    /// What each line holds.
    ///
    /// One URL (`url`), or a Common Log Format entry (`clf`): `host ident user [date] "request"
    /// status bytes`, whose request URL is checked, offsets in the line. A line that is not a log
    /// line is invalid and counted under `(not clf)`.
    #[arg(long, value_name = "FORMAT", value_enum, default_value_t = Format::Url)]
    input_format: Format,
    /// The old name of --input-format.
    ///
    /// The old name of --input-format (`--format` is the output's format
    /// everywhere now): taken for one release, with a note on stderr.
    #[arg(long, value_enum, hide = true, conflicts_with = "input_format")]
    format: Option<Format>,
    /// The URLs of a log line checked: `request`, `referer`, or both.
    ///
    /// With --input-format clf: the URLs of each log line checked and counted, `request`,
    /// `referer` (the Combined format's), or both (without it); a line is valid when each is.
    /// The summary has a table of each.
    #[arg(long, value_enum, value_delimiter = ',')]
    fields: Vec<Field>,
    /// The format the server wrote its log in (implies --input-format clf).
    ///
    /// An Apache `LogFormat` string (`%h %l %u %t \"%r\" %>s %b`, `%v`, `%D`, `%{X}i`...), an nginx
    /// `log_format` string (`$remote_addr - $remote_user [$time_local] "$request" $status ...`), or
    /// a preset: `common`, `combined`, `vhost_combined`, `main` (nginx). Without it, common and
    /// combined lines are told apart line by line.
    #[arg(long, value_name = "FORMAT", value_parser = log_format)]
    log_format: Option<LogFormat>,
    /// With a log: only the lines logged at this time or later.
    ///
    /// With a log: only the lines logged at this time or later (the
    /// log's own times, whatever their offset): ISO 8601 with an offset
    /// (`2000-10-10T13:55:36-07:00`, `...Z`), a date (midnight UTC), or
    /// the log's form (`10/Oct/2000:13:55:36 -0700`). A line without a
    /// time is kept.
    #[arg(long, value_name = "TIME", value_parser = log_time)]
    since: Option<i64>,
    /// With a log: only the lines logged before this time (as --since).
    #[arg(long, value_name = "TIME", value_parser = log_time)]
    until: Option<i64>,
    /// Worker threads, 1 to 1024 (default: one per core).
    #[arg(long, value_name = "N", value_parser = crate::flags::jobs)]
    jobs: Option<usize>,
    /// Accept the deviations real-world URLs have, as warnings.
    ///
    /// Accept the deviations real-world URLs have (unsafe characters, `_`
    /// or a trailing dot in a host, an empty port, a user name in http, `/`
    /// and `?` in a search, a bare `%`), in URLs and in log lines alike;
    /// each is reported as a warning (text, `warnings` in JSON) and counted
    /// in the summary.
    #[arg(long)]
    lenient: bool,
    /// Write no line of its own for each input: the summary alone.
    #[arg(long, short)]
    quiet: bool,
    /// With --json: end with a JSON record of the summary.
    ///
    /// One record (`{"summary": {...}}`) instead of the text summary on stderr.
    #[arg(long, requires = "json")]
    summary: bool,
    /// The most frequent errors listed in the summary, by kind and rule.
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = crate::flags::top)]
    top: usize,
    /// Files with one URL (or log line) per line; `-` or none for stdin.
    files: Vec<String>,
}

impl CheckArgs {
    /// What each line holds: `--input-format`, or its old name.
    fn format(&self) -> Format {
        self.format.unwrap_or(self.input_format)
    }

    /// The fields of `--fields`; both without it.
    fn fields(&self) -> clf::Fields {
        if self.fields.is_empty() {
            return clf::Fields::BOTH;
        }
        clf::Fields {
            request: self.fields.contains(&Field::Request),
            referer: self.fields.contains(&Field::Referer),
        }
    }
}

/// The examples at the end of `check --help`.
pub const EXAMPLES: &str = "\
Examples:
  rfc1738 check urls.txt
      each invalid line, then a summary
  rfc1738 check --input-format clf --json access.log
      a record per log line: method, target, status, scheme
  rfc1738 check --log-format combined log.gz
      a compressed log (gzip, zstd, bzip2, xz): each error, referers too
  rfc1738 check --lenient --keep-lines urls.txt
      one line per input line, warnings included";

/// What each input line holds.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One URL.
    Url,
    /// A Common Log Format (or Combined) entry: its request URL.
    Clf,
}

/// `--log-format`: a preset or a format string; an unknown directive
/// is a usage error that names it.
fn log_format(text: &str) -> Result<LogFormat, String> {
    LogFormat::parse(text).map_err(|e| e.to_string())
}

/// `--since`, `--until`: a time, as seconds since the epoch.
fn log_time(text: &str) -> Result<i64, String> {
    LogTime::parse(text).map(|t| t.unix())
}

/// A URL of a log line.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Field {
    /// The request's URL.
    Request,
    /// The referer (Combined format).
    Referer,
}

/// The verdict on one line: valid or why not, and the deviations a
/// lenient check accepted.
struct Verdict {
    result: Result<(), Problem>,
    warnings: Vec<Note>,
}

/// Counts per scheme and per error, for the summary.
#[derive(Default)]
struct Summary {
    by_scheme: BTreeMap<String, (u64, u64)>,
    /// The referers of log lines by scheme: valid, invalid.
    referers: BTreeMap<String, (u64, u64)>,
    /// Errors of the referers by kind and rule, in the order first seen.
    referer_errors: Vec<ErrorRow>,
    /// Log lines with their referers checked: the JSON summary has a
    /// `referers` table and `referer_errors` (empty or not).
    with_referers: bool,
    /// Errors by kind and rule, in the order first seen.
    errors: Vec<ErrorRow>,
    /// Warnings by kind (the rule is empty), in the order first seen.
    warnings: Vec<ErrorRow>,
    valid: u64,
    invalid: u64,
    /// Each file's name as shown and its valid and invalid lines, in
    /// the order read: a row each when several files were read.
    files: Vec<(String, u64, u64)>,
}

/// One kind of error at one rule: how often, and where first.
#[derive(Clone)]
struct ErrorRow {
    kind: &'static str,
    rule: &'static str,
    count: u64,
    /// The file, line number, input (whole up to [`EXAMPLE_MAX`]
    /// bytes) and the input's whole length in bytes of its first line.
    first: (String, u64, String, usize),
}

/// An example input in a summary: at most this many characters.
const EXAMPLE_CHARS: usize = 80;
/// The most bytes of a first input a summary keeps (a log line is a few
/// hundred; a line of megabytes is not copied whole).
const EXAMPLE_MAX: usize = 1 << 16;

impl Summary {
    /// Adds the counts of a run of lines, scheme by scheme in the order
    /// they first appeared there: the first `MAX_SCHEMES` names get a row,
    /// as if every line had been counted here in input order.
    /// `lines_before`: added to the line numbers of the tally's errors,
    /// when they were counted from the start of their block.
    fn merge(&mut self, tally: &Tally, lines_before: u64) {
        for (name, (v, i)) in &tally.referers {
            let key = if self.referers.contains_key(name) || self.referers.len() < MAX_SCHEMES {
                name.clone()
            } else {
                "(other schemes)".to_string()
            };
            let row = self.referers.entry(key).or_default();
            row.0 += v;
            row.1 += i;
        }
        for (name, counts) in &tally.order {
            let key = String::from_utf8_lossy(name);
            let key = if self.by_scheme.contains_key(&*key) || self.by_scheme.len() < MAX_SCHEMES {
                key.into_owned()
            } else {
                "(other schemes)".to_string()
            };
            let row = self.by_scheme.entry(key).or_default();
            row.0 += counts.0;
            row.1 += counts.1;
            self.valid += counts.0;
            self.invalid += counts.1;
        }
        for (rows, from) in [
            (&mut self.errors, &tally.errors),
            (&mut self.warnings, &tally.warnings),
            (&mut self.referer_errors, &tally.referer_errors),
        ] {
            for row in from {
                match rows.iter_mut().find(|r| (r.kind, r.rule) == (row.kind, row.rule)) {
                    Some(r) => r.count += row.count,
                    None => {
                        let mut row = row.clone();
                        row.first.1 += lines_before;
                        rows.push(row);
                    }
                }
            }
        }
    }

    /// The `top` most frequent errors (first seen first among equals), and
    /// the lines of the rest.
    fn top_errors(&self, top: usize) -> (Vec<&ErrorRow>, u64) {
        let mut rows: Vec<&ErrorRow> = self.errors.iter().collect();
        rows.sort_by_key(|r| std::cmp::Reverse(r.count));
        let rest = rows.iter().skip(top).map(|r| r.count).sum();
        rows.truncate(top);
        (rows, rest)
    }

    /// The share of the invalid lines, in percent.
    fn share(&self, count: u64) -> f64 {
        if self.invalid == 0 {
            return 0.0;
        }
        (count as f64 * 1000.0 / self.invalid as f64).round() / 10.0
    }

    fn write_errors(&self, out: &mut impl Write, top: usize) -> io::Result<()> {
        if self.errors.is_empty() {
            return Ok(());
        }
        let (rows, rest) = self.top_errors(top);
        // Each column as wide as its longest entry: names never run together.
        let kw = rows.iter().map(|r| r.kind.len() + 2).max().unwrap_or(0).max(24);
        let rw = rows.iter().map(|r| r.rule.len() + 2).max().unwrap_or(0).max(12);
        writeln!(out, "  {:<kw$}{:<rw$}{:>8}{:>8}  first", "error", "rule", "count", "share")?;
        for r in &rows {
            let (file, line, input, len) = &r.first;
            let share = format!("{:.1}%", self.share(r.count));
            writeln!(
                out,
                "  {:<kw$}{:<rw$}{:>8}{share:>8}  {file}:{line}: {}",
                r.kind,
                r.rule,
                r.count,
                shown(input, *len)
            )?;
        }
        if rest > 0 {
            let n = self.errors.len() - rows.len();
            writeln!(out, "  ({n} more kinds of error: {rest} lines; --top to list them)")?;
        }
        Ok(())
    }

    /// The referers' errors by kind and rule, most frequent first, with
    /// the first line of each.
    fn write_referer_errors(&self, out: &mut impl Write) -> io::Result<()> {
        if self.referer_errors.is_empty() {
            return Ok(());
        }
        let mut rows: Vec<&ErrorRow> = self.referer_errors.iter().collect();
        rows.sort_by_key(|r| std::cmp::Reverse(r.count));
        let kw = rows.iter().map(|r| r.kind.len() + 2).max().unwrap_or(0).max(24);
        let rw = rows.iter().map(|r| r.rule.len() + 2).max().unwrap_or(0).max(12);
        writeln!(out, "  {:<kw$}{:<rw$}{:>8}  first", "referer error", "rule", "count")?;
        for r in rows {
            let (file, line, input, len) = &r.first;
            writeln!(
                out,
                "  {:<kw$}{:<rw$}{:>8}  {file}:{line}: {}",
                r.kind,
                r.rule,
                r.count,
                shown(input, *len)
            )?;
        }
        Ok(())
    }

    /// The warnings by kind, most frequent first, with the first line of each.
    fn write_warnings(&self, out: &mut impl Write) -> io::Result<()> {
        if self.warnings.is_empty() {
            return Ok(());
        }
        let mut rows: Vec<&ErrorRow> = self.warnings.iter().collect();
        rows.sort_by_key(|r| std::cmp::Reverse(r.count));
        let kw = rows.iter().map(|r| r.kind.len() + 2).max().unwrap_or(0).max(36);
        writeln!(out, "  {:<kw$}{:>8}  first", "warning", "count")?;
        for r in rows {
            let (file, line, input, len) = &r.first;
            writeln!(out, "  {:<kw$}{:>8}  {file}:{line}: {}", r.kind, r.count, shown(input, *len))?;
        }
        Ok(())
    }

    /// The summary as one JSON record.
    fn to_json(&self, top: usize) -> serde_json::Value {
        let schemes: Vec<_> = self
            .by_scheme
            .iter()
            .map(|(name, (v, i))| json!({"scheme": name, "valid": v, "invalid": i}))
            .collect();
        let (rows, rest) = self.top_errors(top);
        let errors: Vec<_> = rows
            .iter()
            .map(|r| {
                let (file, line, input, len) = &r.first;
                json!({
                    "kind": r.kind, "rule": r.rule, "count": r.count, "share": self.share(r.count),
                    "first": {"file": file, "line": line, "input": input, "bytes": len},
                })
            })
            .collect();
        let mut warned: Vec<&ErrorRow> = self.warnings.iter().collect();
        warned.sort_by_key(|r| std::cmp::Reverse(r.count));
        let warnings: Vec<_> = warned
            .iter()
            .map(|r| {
                let (file, line, input, len) = &r.first;
                json!({"kind": r.kind, "count": r.count, "first": {"file": file, "line": line, "input": input, "bytes": len}})
            })
            .collect();
        let referers: Vec<_> = self
            .referers
            .iter()
            .map(|(name, (v, i))| json!({"scheme": name, "valid": v, "invalid": i}))
            .collect();
        let mut summary = json!({
            "checked": self.valid + self.invalid,
            "valid": self.valid,
            "invalid": self.invalid,
            "schemes": schemes,
            "errors": errors,
            "other_errors": rest,
            "warnings": warnings,
        });
        if self.files.len() > 1 {
            let files: Vec<_> =
                self.files.iter().map(|(f, v, i)| json!({"file": f, "valid": v, "invalid": i})).collect();
            summary["files"] = files.into();
        }
        if self.with_referers {
            summary["referers"] = referers.into();
            let mut rows: Vec<&ErrorRow> = self.referer_errors.iter().collect();
            rows.sort_by_key(|r| std::cmp::Reverse(r.count));
            let errors: Vec<_> = rows
                .iter()
                .map(|r| {
                    let (file, line, input, len) = &r.first;
                    json!({"kind": r.kind, "rule": r.rule, "count": r.count,
                           "first": {"file": file, "line": line, "input": input, "bytes": len}})
                })
                .collect();
            summary["referer_errors"] = errors.into();
        }
        json!({ "summary": summary })
    }

    fn write(&self, out: &mut impl Write, top: usize, what: &str) -> io::Result<()> {
        let total = self.valid + self.invalid;
        writeln!(out, "checked {total} {what}: {} valid, {} invalid", self.valid, self.invalid)?;
        if self.by_scheme.is_empty() {
            return Ok(());
        }
        let sw = self.by_scheme.keys().map(|k| k.len() + 2).max().unwrap_or(0).max(20);
        if self.files.len() > 1 {
            // A row per file, in the order read.
            let fw = self.files.iter().map(|f| f.0.chars().count() + 2).max().unwrap_or(0).max(sw);
            writeln!(out, "  {:<fw$}{:>12}{:>12}", "file", "valid", "invalid")?;
            for (name, v, i) in &self.files {
                writeln!(out, "  {name:<fw$}{v:>12}{i:>12}")?;
            }
        }
        writeln!(out, "  {:<sw$}{:>12}{:>12}", "scheme", "valid", "invalid")?;
        let mut rows: Vec<_> = self.by_scheme.iter().collect();
        rows.sort_by(|a, b| (b.1 .0 + b.1 .1).cmp(&(a.1 .0 + a.1 .1)).then(a.0.cmp(b.0)));
        for (name, (v, i)) in rows {
            writeln!(out, "  {name:<sw$}{v:>12}{i:>12}")?;
        }
        if !self.referers.is_empty() {
            writeln!(out, "  {:<sw$}{:>12}{:>12}", "referer", "valid", "invalid")?;
            let mut rows: Vec<_> = self.referers.iter().collect();
            rows.sort_by(|a, b| (b.1 .0 + b.1 .1).cmp(&(a.1 .0 + a.1 .1)).then(a.0.cmp(b.0)));
            for (name, (v, i)) in rows {
                writeln!(out, "  {name:<sw$}{v:>12}{i:>12}")?;
            }
        }
        self.write_errors(out, top)?;
        self.write_referer_errors(out)?;
        self.write_warnings(out)
    }
}

/// The counts of one run of lines by scheme (lower-cased), in the order
/// each scheme first appeared; a worker fills it, the writer merges it.
#[derive(Default)]
struct Tally {
    order: Vec<(Vec<u8>, (u64, u64))>,
    /// Referers by scheme: valid, invalid; in the order first seen.
    referers: Vec<(String, (u64, u64))>,
    /// Where each referer scheme is in `referers`, for those past the
    /// first few (read by a compare each).
    referer_index: HashMap<String, usize>,
    /// Errors of the referers by kind and rule, in the order first seen.
    referer_errors: Vec<ErrorRow>,
    /// Errors by kind and rule, in the order first seen.
    errors: Vec<ErrorRow>,
    /// Warnings by kind, in the order first seen.
    warnings: Vec<ErrorRow>,
    index: HashMap<Vec<u8>, usize>,
    /// The schemes met, each as its `scheme ":"` was written and its
    /// entry: a line that starts as one of them is counted without its
    /// name being read, lower-cased or hashed (a file mixes `http` and
    /// `https` line by line). At most [`SEEN`], the oldest replaced.
    seen: Vec<Seen>,
    /// The slot of `seen` the next new prefix replaces once it is full.
    next_seen: usize,
    /// The slot of `seen` the previous line matched, tried first.
    last_seen: usize,
    /// The entry of each scheme the bulk validator names (`add_known`),
    /// by [`Known::index`], once met.
    known: [Option<usize>; Known::COUNT],
    /// The entry the previous named row (`add_named`) was counted under.
    last_named: usize,
    /// The lower-cased name being looked up (reused: no allocation per
    /// line when the scheme changes from line to line).
    key: Vec<u8>,
}

impl Tally {
    /// Counts an error of line `line_no` of `file`.
    fn add_error(&mut self, p: &Problem, file: &str, line_no: u64, input: &[u8]) {
        add_row(&mut self.errors, p, file, line_no, input);
    }

    /// Counts an error of the referer of line `line_no` of `file`.
    fn add_referer_error(&mut self, p: &Problem, file: &str, line_no: u64, input: &[u8]) {
        add_row(&mut self.referer_errors, p, file, line_no, input);
    }

    /// Counts the warnings of line `line_no` of `file`.
    fn add_warnings(&mut self, notes: &[Note], file: &str, line_no: u64, input: &[u8]) {
        for n in notes {
            match self.warnings.iter_mut().find(|r| r.kind == n.kind) {
                Some(r) => r.count += 1,
                None => self.warnings.push(ErrorRow {
                    kind: n.kind,
                    rule: "",
                    count: 1,
                    first: (super::shown_name(file).into_owned(), line_no, example(input), input.len()),
                }),
            }
        }
    }

    /// Counts a referer under its scheme's row.
    fn add_referer(&mut self, name: &str, ok: bool) {
        // A log has a handful of referer schemes: the first few are found
        // by a compare each, before any hash.
        const NEAR: usize = 8;
        let at = match self.referers.iter().take(NEAR).position(|(n, _)| n == name) {
            Some(at) => at,
            None => match self.referer_index.get(name) {
                Some(&at) => at,
                None => {
                    self.referer_index.insert(name.to_string(), self.referers.len());
                    self.referers.push((name.to_string(), (0, 0)));
                    self.referers.len() - 1
                }
            },
        };
        let counts = &mut self.referers[at].1;
        if ok {
            counts.0 += 1;
        } else {
            counts.1 += 1;
        }
    }

    /// Counts a line under a row named apart (a log line's request scheme).
    fn add_named(&mut self, name: &str, ok: bool) {
        // The previous line's row first: a log is mostly one scheme, and
        // a compare costs less than a hash.
        let at = match self.order.get(self.last_named) {
            Some((n, _)) if n == name.as_bytes() => self.last_named,
            _ => {
                self.key.clear();
                self.key.extend_from_slice(name.as_bytes());
                self.last_named = self.entry();
                self.last_named
            }
        };
        let counts = &mut self.order[at].1;
        if ok {
            counts.0 += 1;
        } else {
            counts.1 += 1;
        }
    }

    /// Counts a valid line whose scheme the bulk validator read as `k`:
    /// its entry by index, the name not read again (its entry made from
    /// `input` the first time, as [`Tally::add`] makes it).
    #[inline(always)]
    fn add_known(&mut self, k: Known, input: &[u8]) {
        let at = match self.known[k.index()] {
            Some(at) => at,
            None => {
                let at = self.lookup(input);
                self.known[k.index()] = Some(at);
                at
            }
        };
        self.order[at].1 .0 += 1;
    }

    #[inline(always)]
    fn add(&mut self, input: &[u8], ok: bool) {
        let first = first_word(input);
        // The previous line's spelling first: lines come in runs.
        let at = match self.seen.get(self.last_seen) {
            Some(s) if s.starts(input, first) => s.at,
            _ => match self.seen.iter().position(|s| s.starts(input, first)) {
                Some(k) => {
                    self.last_seen = k;
                    self.seen[k].at
                }
                None => self.lookup(input),
            },
        };
        let counts = &mut self.order[at].1;
        if ok {
            counts.0 += 1;
        } else {
            counts.1 += 1;
        }
    }

    /// The entry of the scheme of `input` (lower-cased), made if new.
    /// Out of line: a spelling met before never comes here.
    #[cold]
    #[inline(never)]
    fn lookup(&mut self, input: &[u8]) -> usize {
        let name = scheme_bytes(input);
        self.key.clear();
        self.key.extend(name.unwrap_or(b"(no scheme)").iter().map(u8::to_ascii_lowercase));
        let k = self.entry();
        // Remember the `scheme ":"` as written (a slot's buffer reused).
        if let Some(n) = name {
            let written = &input[..=n.len()];
            let seen = Seen::new(written, k);
            if self.seen.len() < SEEN {
                self.last_seen = self.seen.len();
                self.seen.push(seen);
            } else {
                self.last_seen = self.next_seen;
                self.seen[self.next_seen] = seen;
                self.next_seen = (self.next_seen + 1) % SEEN;
            }
        }
        k
    }

    /// The entry of the name in `key`, made if new.
    fn entry(&mut self) -> usize {
        match self.index.get(&self.key) {
            Some(&k) => k,
            None => {
                let k = self.order.len();
                self.index.insert(self.key.clone(), k);
                self.order.push((self.key.clone(), (0, 0)));
                k
            }
        }
    }
}

/// Counts error `p` of line `line_no` of `file` in `rows`, by kind and rule.
fn add_row(rows: &mut Vec<ErrorRow>, p: &Problem, file: &str, line_no: u64, input: &[u8]) {
    match rows.iter_mut().find(|r| (r.kind, r.rule) == (p.kind, p.rule)) {
        Some(r) => r.count += 1,
        None => rows.push(ErrorRow {
            kind: p.kind,
            rule: p.rule,
            count: 1,
            first: (super::shown_name(file).into_owned(), line_no, example(input), input.len()),
        }),
    }
}

/// A `scheme ":"` as written, met before, and its entry in the tally.
struct Seen {
    /// Its bytes as a word (the first eight, zeros after a shorter one)
    /// and the mask of the bytes it has: a prefix of eight bytes or fewer
    /// is matched by one comparison.
    word: u64,
    mask: u64,
    written: Vec<u8>,
    at: usize,
}

impl Seen {
    fn new(written: &[u8], at: usize) -> Seen {
        let n = written.len().min(8);
        let mask = if n == 8 { u64::MAX } else { (1u64 << (8 * n)) - 1 };
        Seen { word: first_word(written) & mask, mask, written: written.to_vec(), at }
    }

    /// Whether `input`, whose first word is `first`, starts with it. A
    /// shorter input has zeros where the prefix has bytes (never zero: a
    /// scheme name and its `:`), so it cannot match.
    #[inline]
    fn starts(&self, input: &[u8], first: u64) -> bool {
        if self.written.len() <= 8 {
            first & self.mask == self.word
        } else {
            starts_with(input, &self.written)
        }
    }
}

/// The first eight bytes of `input` as a little-endian word, zeros after
/// a shorter one.
#[inline]
fn first_word(input: &[u8]) -> u64 {
    if let Some(w) = input.first_chunk::<8>() {
        // The commonest case, one load (no copy of a length known late).
        return u64::from_le_bytes(*w);
    }
    let mut w = [0u8; 8];
    let n = input.len().min(8);
    w[..n].copy_from_slice(&input[..n]);
    u64::from_le_bytes(w)
}

/// The first input of a summary's row, kept whole (as text, lossy UTF-8)
/// up to [`EXAMPLE_MAX`] bytes: the JSON summary gives it as it is, the
/// text summary cuts it ([`shown`]).
fn example(input: &[u8]) -> String {
    let mut end = input.len().min(EXAMPLE_MAX);
    while end < input.len() && end > 0 && (input[end] & 0xc0) == 0x80 {
        end -= 1;
    }
    String::from_utf8_lossy(&input[..end]).into_owned()
}

/// An input shown in the text summary: printable, and cut to
/// [`EXAMPLE_CHARS`].
fn shown(input: &str, len: usize) -> String {
    let (shown, _) = crate::diag::printable(input, 0);
    match shown.char_indices().nth(EXAMPLE_CHARS) {
        // Cut: its whole length said, as the JSON summary's `bytes`.
        Some((cut, _)) => format!("{}... ({len} bytes)", &shown[..cut]),
        None if len > input.len() => format!("{shown}... ({len} bytes)"),
        None => shown.into_owned(),
    }
}

/// `input.starts_with(prefix)` for a prefix of a few bytes (a scheme
/// name), without a library call.
#[inline]
fn starts_with(input: &[u8], prefix: &[u8]) -> bool {
    input.len() >= prefix.len() && input.iter().zip(prefix).all(|(a, b)| a == b)
}

/// What a worker makes of a run of lines: their output, in order, ready to
/// be copied out, and their counts.
struct Done {
    out: Vec<u8>,
    /// The block's buffer, for the reader to fill again.
    buffer: Vec<u8>,
    tally: Tally,
    /// Bytes of input, for the progress bar.
    bytes: u64,
    /// The block is the file's first and its first line is a log line
    /// read as a URL: `--input-format clf` is what was meant.
    clf_hint: bool,
    /// Lines checked.
    lines: u64,
}

/// What every worker needs to know.
#[derive(Clone, Copy)]
struct Job<'a> {
    file: &'a str,
    json: bool,
    max_len: usize,
    format: Format,
    /// The URLs of a log line checked.
    fields: clf::Fields,
    /// The log's format, when given.
    log_format: Option<&'a LogFormat>,
    lenient: bool,
    /// Write nothing per line.
    quiet: bool,
    /// One output line per input line.
    keep_lines: bool,
    /// Write the invalid lines alone.
    invalid_only: bool,
    /// Reports carry colour escapes.
    color: bool,
    /// How the bulk validator classifies blocks.
    path: rfc1738::bulk::Path,
    /// `--since` and `--until`: the lines kept, by the log's own time.
    range: (Option<i64>, Option<i64>),
}

impl Job<'_> {
    /// Whether a log line of this record is left out by `--since` and
    /// `--until`: its time is read and outside the range.
    fn out_of_range(&self, r: &clf::Record<'_>) -> bool {
        if self.range == (None, None) {
            return false;
        }
        let Some(t) = r.around.time.and_then(LogTime::clf).map(|t| t.unix()) else { return false };
        self.range.0.is_some_and(|since| t < since) || self.range.1.is_some_and(|until| t >= until)
    }
}

/// Runs `check`.
pub fn run(args: &CheckArgs) -> io::Result<u8> {
    if args.format.is_some() {
        eprintln!("rfc1738: check --format is now --input-format; --format will be the output's format");
    }
    let files = if args.files.is_empty() { vec!["-".to_string()] } else { args.files.clone() };
    let jobs = args.jobs.unwrap_or_else(|| thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    // Colour is decided once: without it, reports are written plain and
    // copied out as they are, with no escape codes to strip.
    let color = anstream::AutoStream::choice(&io::stdout()) != anstream::ColorChoice::Never;
    let raw: Box<dyn Write> = if color {
        Box::new(anstream::AutoStream::auto(io::stdout().lock()))
    } else {
        Box::new(io::stdout().lock())
    };
    let mut out = BufWriter::with_capacity(1 << 16, raw);
    let clf = args.format() == Format::Clf || args.log_format.is_some();
    if !clf && !args.fields.is_empty() {
        // A flag that would change nothing is a mistake to say, not to
        // pass over.
        eprintln!("rfc1738: --fields: the fields of a log line, for --input-format clf or --log-format");
        return Ok(status::ERROR);
    }
    if !clf && (args.since.is_some() || args.until.is_some()) {
        eprintln!(
            "rfc1738: --since, --until: the times of a log's lines, for --input-format clf or --log-format"
        );
        return Ok(status::ERROR);
    }
    let fields = args.fields();
    let mut summary = Summary { with_referers: clf && fields.referer, ..Summary::default() };
    let all_read = super::for_each_file(&files, &mut out, |out, file| {
        let before = (summary.valid, summary.invalid);
        let done = check_file(args, file, jobs, color, out, &mut summary);
        let name = super::shown_name(file).into_owned();
        summary.files.push((name, summary.valid - before.0, summary.invalid - before.1));
        done
    })?;
    out.flush()?;
    let what = if clf { "log lines" } else { "URLs" };
    if args.summary {
        serde_json::to_writer(&mut out, &summary.to_json(args.top))?;
        writeln!(out)?;
        out.flush()?;
    } else if args.json || args.keep_lines {
        // Stdout holds one line per input line: the summary goes apart.
        summary.write(&mut anstream::stderr().lock(), args.top, what)?;
    } else {
        summary.write(&mut out, args.top, what)?;
        out.flush()?;
    }
    Ok(status::of_run(all_read, summary.invalid != 0))
}

/// Checks one file through a pipeline: the reader thread reads blocks,
/// `jobs` workers each check a whole block (validate, format the output,
/// count), and this thread writes the blocks' output in input order.
/// At most `2 * jobs + 1` blocks are in flight at any time, whatever the
/// size of the file.
fn check_file(
    args: &CheckArgs,
    file: &str,
    jobs: usize,
    color: bool,
    out: &mut impl Write,
    summary: &mut Summary,
) -> io::Result<()> {
    // Read, not mapped: a file cut while it is read is then said to be cut
    // (input.rs, `Shrinking`), where a mapping would die of SIGBUS.
    let blocks = Blocks::open(file, args.max_len, BLOCK).map_err(|e| super::open_error(file, &e))?;
    let progress = crate::progress::Progress::start(file, args.quiet, io::stdout().is_terminal(), false);
    let mut text_read = 0u64;
    let in_flight = 2 * jobs + 1;
    // A block is read only with a token, a buffer for its text, which
    // comes back when its output is written: that bounds the blocks read
    // ahead, and the buffers are reused (fresh ones cost page faults).
    // The output is bounded in bytes by `queue`, whatever `jobs`.
    let (token_tx, token_rx) = mpsc::sync_channel::<Buffers>(in_flight);
    for _ in 0..in_flight {
        let _ = token_tx.send(Vec::new());
    }
    let (work_tx, work_rx) = mpsc::sync_channel::<Work>(in_flight);
    let work_rx = Arc::new(Mutex::new(work_rx));
    let (done_tx, done_rx) = mpsc::sync_channel::<(u64, io::Result<Done>)>(in_flight);
    let queue = &Queue::default();
    let job = Job {
        file,
        json: args.json,
        max_len: args.max_len,
        format: if args.log_format.is_some() { Format::Clf } else { args.format() },
        log_format: args.log_format.as_ref(),
        fields: args.fields(),
        lenient: args.lenient,
        quiet: args.quiet,
        keep_lines: args.keep_lines,
        invalid_only: args.invalid_only,
        color,
        path: bulk_path(),
        range: (args.since, args.until),
    };
    // Every channel end is owned by one thread, so that when any of them
    // stops (the end, an error, a closed output) the others see it and stop.
    thread::scope(move |s| {
        // With nothing written per line, the reader need not count the
        // lines of each block ahead of its workers (a pass over its bytes):
        // the workers number them from the block's start, and the line
        // numbers of the summary's examples are made whole here.
        let count = !args.quiet;
        s.spawn(move || read_blocks(blocks, count, &token_rx, &work_tx));
        for _ in 0..jobs {
            let (work_rx, done_tx) = (Arc::clone(&work_rx), done_tx.clone());
            s.spawn(move || work(&work_rx, &done_tx, queue, job));
        }
        drop((work_rx, done_tx));
        // Batches arrive in any order; each is written when its turn comes.
        let mut pending = BTreeMap::new();
        let (mut next, mut lines) = (0u64, 0u64);
        loop {
            let (seq, done) = match done_rx.try_recv() {
                Ok(message) => message,
                Err(mpsc::TryRecvError::Empty) => {
                    // Nothing ready: what was written goes out before the
                    // wait (a slow pipe's lines are answered as they come).
                    out.flush()?;
                    match done_rx.recv() {
                        Ok(message) => message,
                        Err(_) => break,
                    }
                }
                Err(mpsc::TryRecvError::Disconnected) => break,
            };
            pending.insert(seq, done);
            while let Some(done) = pending.remove(&next) {
                let done = done.map_err(|e| super::input_error(file, &e))?;
                if done.clf_hint {
                    out.flush()?;
                    let name = super::shown_name(file);
                    let hint = format!("rfc1738: {name}: these lines look like a Common Log Format log: to check the request URL of each, add --input-format clf");
                    writeln!(anstream::stderr().lock(), "{hint}")?;
                }
                out.write_all(&done.out)?;
                summary.merge(&done.tally, if count { 0 } else { lines });
                lines += done.lines;
                text_read += done.bytes;
                progress.at(lines, text_read);
                next += 1;
                queue.leave(done.out, next);
                let _ = token_tx.send(done.buffer);
            }
        }
        progress.finish();
        Ok(())
    })
}

/// How the bulk validator classifies blocks: the fastest way the
/// processor has, or the portable one when the environment variable
/// `RFC1738_PORTABLE` is `1` (for tests of the portable way).
fn bulk_path() -> rfc1738::bulk::Path {
    if std::env::var_os("RFC1738_PORTABLE").is_some_and(|v| v == "1") {
        rfc1738::bulk::Path::Portable
    } else {
        rfc1738::bulk::Path::detect()
    }
}

/// A block to check: its number in the file, the number of the line
/// before its first, and the block (or the error that ended the reading).
type Work = (u64, u64, io::Result<Block>);

/// A token: the buffer of a block's text.
type Buffers = Vec<u8>;

/// The bytes of output a file's checked blocks may hold while they wait
/// for their turn to be written, whatever `--jobs`.
const QUEUE_BYTES: usize = 64 << 20;

/// The output of checked blocks, bounded in bytes whatever `--jobs`: a
/// worker reserves room for a block's output before it checks it (the
/// block's bytes times the most output a byte of input has made so far;
/// the whole bound while that is not known), and the room is given back
/// when the block is written. A block that is the next to be written
/// never waits, nor one that comes into an empty queue, so the writer
/// is never stalled by the bound.
#[derive(Default)]
struct Queue {
    state: Mutex<QueueState>,
    room: std::sync::Condvar,
}

#[derive(Default)]
struct QueueState {
    /// Bytes reserved or held by blocks not yet written.
    used: usize,
    /// The number of the next block to write.
    next: u64,
    /// The most bytes of output a byte of input has made (in 1/16ths),
    /// once a block has been checked.
    ratio: Option<usize>,
    /// Output buffers written and ready for another block. They are
    /// kept, never freed: as many exist as the bound lets blocks hold
    /// output at once (freeing and growing them again made the
    /// allocator keep ever more memory).
    spare: Vec<Vec<u8>>,
}

impl Queue {
    fn lock(&self) -> std::sync::MutexGuard<'_, QueueState> {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Waits for room for the output of block `seq` of `bytes` of input;
    /// the bytes reserved, and an empty buffer for the output.
    fn reserve(&self, seq: u64, bytes: u64) -> (usize, Vec<u8>) {
        let mut state = self.lock();
        loop {
            let want = state.ratio.map_or(QUEUE_BYTES, |r| (bytes as usize).saturating_mul(r) / 16);
            if seq == state.next || state.used == 0 || state.used.saturating_add(want) <= QUEUE_BYTES {
                state.used = state.used.saturating_add(want);
                return (want, state.spare.pop().unwrap_or_default());
            }
            state = self.room.wait(state).unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }

    /// Block of `bytes` of input made `made` bytes of output, for which
    /// `reserved` were reserved.
    fn settle(&self, reserved: usize, made: usize, bytes: u64) {
        let mut state = self.lock();
        state.used = state.used.saturating_sub(reserved).saturating_add(made);
        if bytes > 0 {
            let ratio = made.saturating_mul(16) / bytes as usize + 1;
            state.ratio = Some(state.ratio.map_or(ratio, |r| r.max(ratio)));
        }
        self.room.notify_all();
    }

    /// A block's output was written (`out`, to be used again); `next` is
    /// the block to write now.
    fn leave(&self, mut out: Vec<u8>, next: u64) {
        let mut state = self.lock();
        state.used = state.used.saturating_sub(out.len());
        state.next = next;
        out.clear();
        state.spare.push(out);
        self.room.notify_all();
    }
}

/// A worker: checks blocks until there are no more.
fn work(
    work_rx: &Mutex<mpsc::Receiver<Work>>,
    done_tx: &mpsc::SyncSender<(u64, io::Result<Done>)>,
    queue: &Queue,
    job: Job<'_>,
) {
    loop {
        let next = match work_rx.lock() {
            Ok(rx) => rx.recv(),
            Err(_) => return,
        };
        let Ok((seq, line_no, block)) = next else { return };
        let bytes = block.as_ref().map_or(0, |b| b.bytes);
        let (reserved, out) = queue.reserve(seq, bytes);
        let done = block.and_then(|block| check_lines(block, line_no, job, out));
        queue.settle(reserved, done.as_ref().map_or(0, |d| d.out.len()), bytes);
        if done_tx.send((seq, done)).is_err() {
            return;
        }
    }
}

/// Reads blocks until the end or an error, sending each with its number
/// once a token allows it.
/// `count`: whether to count each block's lines, so that the next block
/// is numbered from its first line's number in the file (else from 0).
fn read_blocks(
    mut blocks: Blocks,
    count: bool,
    tokens: &mpsc::Receiver<Buffers>,
    work_tx: &mpsc::SyncSender<Work>,
) {
    let (mut seq, mut line_no) = (0u64, 0u64);
    loop {
        let Ok(buffer) = tokens.recv() else { return };
        match blocks.next_block(buffer) {
            Ok(Some(block)) => {
                let n = if count { block.count() } else { 0 };
                if work_tx.send((seq, line_no, Ok(block))).is_err() {
                    return;
                }
                seq += 1;
                line_no += n;
            }
            Ok(None) => return,
            Err(e) => {
                let _ = work_tx.send((seq, line_no, Err(e)));
                return;
            }
        }
    }
}

/// Checks every line of a block whose first line is `line_no + 1`: its
/// output (in `out`, emptied first), ready to be copied out, and its counts.
///
/// Strict URLs go through the bulk validator: the block split into lines
/// and checked in one pass over its bytes, the full parser asked only for
/// the error of an invalid line.
fn check_lines(block: Block, line_no: u64, job: Job<'_>, mut out: Vec<u8>) -> io::Result<Done> {
    out.clear();
    let mut done = Done {
        out,
        buffer: Vec::new(),
        tally: Tally::default(),
        bytes: block.bytes,
        clf_hint: false,
        lines: 0,
    };
    let mut k = 0;
    if job.format == Format::Url && !job.lenient {
        for (t, valid, known) in rfc1738::bulk::lines_known(block.data(), job.path) {
            k += 1;
            if t.is_empty() {
                empty_line(&mut done, job);
                continue;
            }
            if valid && job.quiet && t.len() <= job.max_len {
                // The commonest line: counted, nothing else to say; by
                // the scheme the bulk validator read when it read one.
                match known {
                    Some(k) => done.tally.add_known(k, t),
                    None => done.tally.add(t, true),
                }
                continue;
            }
            let line = if t.len() > job.max_len { Err(t.len() as u64) } else { Ok(t) };
            let checked = match line {
                Ok(_) if valid => Some(Ok(())),
                Ok(t) => Some(rfc1738::validate_bytes(t).map_err(Problem::from)),
                Err(_) => None,
            };
            one_line(&mut done, job, line_no + k, line, checked, None)?;
        }
        if let Some(n) = block.too_long {
            k += 1;
            one_line(&mut done, job, line_no + k, Err(n), None, None)?;
        }
    } else if job.format == Format::Clf && !job.lenient {
        k = clf_lines(&block, line_no, job, &mut done)?;
    } else {
        for line in block.lines(job.max_len) {
            k += 1;
            if line == Ok(&b""[..]) {
                empty_line(&mut done, job);
                continue;
            }
            one_line(&mut done, job, line_no + k, line, None, None)?;
        }
    }
    done.buffer = block.into_buffer();
    done.lines = k;
    Ok(done)
}

/// Checks the log lines of a block strictly, their URLs in bulk
/// (`clf::check_lines`: the request URLs and referers of many lines in
/// one buffer, the full parser asked only for the errors); the lines
/// empty or too long in between, in their place. Returns the lines read.
fn clf_lines(block: &Block, line_no: u64, job: Job<'_>, done: &mut Done) -> io::Result<u64> {
    let lines: Vec<Result<&[u8], u64>> = block.lines(job.max_len).collect();
    let checked = |l: &Result<&[u8], u64>| matches!(l, Ok(t) if !t.is_empty());
    // `lines[next]` is the first line not yet written.
    let mut next = 0;
    let mut result = Ok(());
    let others = |done: &mut Done, upto: usize, next: &mut usize| -> io::Result<()> {
        while *next < upto {
            match lines[*next] {
                Ok(_) => empty_line(done, job),
                Err(n) => one_line(done, job, line_no + *next as u64 + 1, Err(n), None, None)?,
            }
            *next += 1;
        }
        Ok(())
    };
    let each = |t: &[u8], record: clf::Record<'_>| {
        if result.is_err() {
            return;
        }
        let at = next + lines[next..].iter().position(checked).expect("a line for each record");
        result = others(done, at, &mut next)
            .and_then(|()| one_line(done, job, line_no + at as u64 + 1, Ok(t), None, Some(&record)));
        next = at + 1;
    };
    let inputs = lines.iter().filter_map(|l| l.ok().filter(|t| !t.is_empty()));
    match job.log_format {
        Some(f) => f.check_lines(inputs, job.fields, each),
        None => clf::check_lines(inputs, job.fields, each),
    }
    result?;
    others(done, lines.len(), &mut next)?;
    Ok(lines.len() as u64)
}

/// An empty line holds no URL: not counted, and answered by an empty
/// line where output line N is input line N (README, "The contract").
fn empty_line(done: &mut Done, job: Job<'_>) {
    if (job.json || job.keep_lines) && !job.quiet && !job.invalid_only {
        done.out.push(b'\n');
    }
}

/// Checks line `line_no` (its text, or its length when too long), whose
/// verdict the bulk validator may have given already; counts it and
/// writes what is said of it.
fn one_line(
    done: &mut Done,
    job: Job<'_>,
    line_no: u64,
    line: Result<&[u8], u64>,
    checked: Option<Result<(), Problem>>,
    checked_record: Option<&clf::Record<'_>>,
) -> io::Result<()> {
    let mut record = None;
    let computed;
    let (input, verdict): (&[u8], Verdict) = match line {
        Ok(t) if job.format == Format::Clf => {
            let r = match checked_record {
                Some(r) => r,
                None => {
                    computed = match job.log_format {
                        Some(f) => f.record(t, job.lenient, job.fields),
                        None => clf::record_with(t, job.lenient, job.fields),
                    };
                    &computed
                }
            };
            if job.out_of_range(r) {
                // Outside --since/--until: as an empty line, not counted.
                empty_line(done, job);
                return Ok(());
            }
            done.tally.add_named(r.row(), r.verdict.is_ok());
            if let (true, Some(row), Some(f)) = (job.fields.referer, r.referer_row(), &r.referer) {
                done.tally.add_referer(row, f.verdict.is_ok());
                if let Err(p) = &f.verdict {
                    done.tally.add_referer_error(p, job.file, line_no, t);
                }
            }
            let verdict = Verdict { result: r.verdict.clone(), warnings: r.warnings.clone() };
            record = Some(r);
            (t, verdict)
        }
        Ok(t) => {
            let verdict = match checked {
                Some(result) => Verdict { result, warnings: Vec::new() },
                None if job.lenient => match parse_bytes_with(t, &options(true)) {
                    Ok((_, w)) => Verdict { result: Ok(()), warnings: w.iter().map(Note::from).collect() },
                    Err(p) => Verdict { result: Err(p), warnings: Vec::new() },
                },
                None => Verdict {
                    result: rfc1738::validate_bytes(t).map_err(Problem::from),
                    warnings: Vec::new(),
                },
            };
            if line_no == 1 && verdict.result.is_err() && clf::raw_request(t).is_ok() {
                done.clf_hint = true;
            }
            done.tally.add(t, verdict.result.is_ok());
            (t, verdict)
        }
        Err(n) => {
            done.tally.add(b"", false);
            let result = Err(Problem::too_long(n, job.max_len));
            (b"", Verdict { result, warnings: Vec::new() })
        }
    };
    if let Err(p) = &verdict.result {
        done.tally.add_error(p, job.file, line_no, input);
    }
    done.tally.add_warnings(&verdict.warnings, job.file, line_no, input);
    let silent = job.quiet || (job.invalid_only && verdict.result.is_ok());
    if !silent {
        write_verdict(&mut done.out, job, line_no, input, &verdict, record)?;
    }
    Ok(())
}

/// Writes what `check` says about one line: a JSON object with `--json`;
/// one line with `--keep-lines`; otherwise a report when the line is
/// invalid, and one for each warning.
fn write_verdict(
    out: &mut Vec<u8>,
    job: Job<'_>,
    line_no: u64,
    input: &[u8],
    verdict: &Verdict,
    record: Option<&clf::Record<'_>>,
) -> io::Result<()> {
    let name = display_name(job.file);
    let shown = super::shown_name(job.file);
    if job.json {
        // The input goes straight from the line into `out`, escaped on the
        // way: a line of 1 GB costs the line and its record, no third copy.
        // The bytes `serde_json` writes, without its formatter.
        out.extend_from_slice(b"{\"file\":");
        clf::json_out::str(out, name);
        out.extend_from_slice(b",\"line\":");
        clf::json_out::number(out, line_no);
        out.extend_from_slice(b",\"input\":");
        clf::json_out::string(out, input);
        let mut rest = serde_json::Map::new();
        match record {
            // A log line's record, written by hand: no map per line.
            Some(r) => {
                r.write_json(out);
                // The format's other fields (`%D`, `$request_time`...),
                // typed, read again only when the format names some.
                if let Some(f) = job.log_format.filter(|f| !f.extras().is_empty()) {
                    out.extend_from_slice(b",\"fields\":");
                    serde_json::to_writer(
                        &mut *out,
                        &FieldValue::object(f.extras(), &f.extra_values(input)),
                    )?;
                }
            }
            None => {
                rest.insert("valid".into(), verdict.result.is_ok().into());
                rest.insert("scheme".into(), json!(scheme_of(input)));
                let error = verdict.result.as_ref().err().map_or(Value::Null, Problem::to_json);
                rest.insert("error".into(), error);
                rest.insert("warnings".into(), verdict.warnings.iter().map(Note::to_json).collect());
                super::add_columns(input, &mut rest);
            }
        }
        if !rest.is_empty() {
            let at = out.len();
            serde_json::to_writer(&mut *out, &rest)?;
            // `{"valid":...}` follows the input: its `{` becomes a `,`.
            out[at] = b',';
            out.pop();
        }
        return writeln!(out, "}}");
    }
    if job.keep_lines {
        return match &verdict.result {
            // The head of the one diagnostic shape, without `rfc1738: `:
            // a row of a table, one per input line.
            Err(p) => {
                let column = super::column_of(input, p.offset);
                writeln!(out, "{shown}:{line_no}:{column}: error[{}]: {} (in {})", p.kind, p.message, p.rule)
            }
            Ok(()) => {
                write!(out, "{shown}:{line_no}: valid")?;
                for w in &verdict.warnings {
                    let column = super::column_of(input, w.offset);
                    write!(out, "; warning[{}] at column {column}", w.kind)?;
                }
                writeln!(out)
            }
        };
    }
    if let Err(p) = &verdict.result {
        super::report_line(out, name, line_no, input, p, job.color);
    }
    for w in &verdict.warnings {
        super::warn_line(out, name, line_no, input, w, job.color);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tally counts each line under its scheme, lower-cased, however
    /// the spellings of more schemes than it remembers alternate.
    #[test]
    fn a_tally_counts_lines_by_scheme_whatever_their_order() {
        let mut tally = Tally::default();
        let mut expected: BTreeMap<String, (u64, u64)> = BTreeMap::new();
        for i in 0..3000u32 {
            let line = match i % 7 {
                0 => format!("s{}:x", i % 13),
                1 => format!("S{}:y", i % 13),
                2 => "https://h.dom/".to_string(),
                3 => "http://h.dom/".to_string(),
                4 => "HTTP://h.dom/".to_string(),
                5 => "no scheme".to_string(),
                _ => format!("x{}:", i % 29),
            };
            let ok = i % 3 == 0;
            tally.add(line.as_bytes(), ok);
            let name = scheme_bytes(line.as_bytes())
                .map_or("(no scheme)".to_string(), |n| String::from_utf8_lossy(n).to_ascii_lowercase());
            let row = expected.entry(name).or_default();
            if ok {
                row.0 += 1;
            } else {
                row.1 += 1;
            }
        }
        let got: BTreeMap<String, (u64, u64)> =
            tally.order.iter().map(|(n, c)| (String::from_utf8_lossy(n).into_owned(), *c)).collect();
        assert_eq!(got, expected);
    }

    /// Lines counted by the scheme the bulk validator named and lines
    /// counted by their text land in the same rows, in the order each
    /// scheme first appeared, whatever the case of the name.
    #[test]
    fn a_tally_counts_named_lines_under_the_rows_of_their_text() {
        let text = b"first\nHTTP://h.dom/\nx:y\nhttp://h.dom/a b\nhttps://h.dom/\nhttp://h.dom/\nFile:///a\n";
        let (mut by_known, mut by_text) = (Tally::default(), Tally::default());
        let mut named = 0;
        for (t, valid, known) in rfc1738::bulk::lines_known(text, rfc1738::bulk::Path::detect()) {
            match known {
                Some(k) if valid => {
                    by_known.add_known(k, t);
                    named += 1;
                }
                _ => by_known.add(t, valid),
            }
            by_text.add(t, valid);
        }
        assert_eq!(named, 4);
        assert_eq!(by_known.order, by_text.order);
        let names: Vec<&[u8]> = by_known.order.iter().map(|(n, _)| &n[..]).collect();
        assert_eq!(names, [&b"(no scheme)"[..], b"http", b"x", b"https", b"file"]);
        assert_eq!(by_known.order[1].1, (2, 1));
    }
}

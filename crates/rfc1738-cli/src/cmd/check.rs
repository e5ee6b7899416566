//! `rfc1738 check [FILE...]`: validate one URL per line, at scale.
//!
//! Lines stream through in batches: a reader thread fills the next batch
//! while every core validates the current one, and results are written in
//! input order. Memory is bounded by two batches of at most `--max-len`
//! bytes per line, whatever the size of the input.

use super::report_at;
use crate::diag;
use crate::input::{Lines, Span, DEFAULT_MAX_LEN};
use crate::outcome::{options, parse_bytes_with, scheme_bytes, scheme_of, validate_bytes, Problem};
use crate::status;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::sync::mpsc;
use std::thread;

/// Lines per batch.
const BATCH: usize = 8192;
/// Distinct schemes counted by name in the summary; the rest are pooled.
const MAX_SCHEMES: usize = 32;

/// Arguments of `check`.
#[derive(clap::Args)]
pub struct CheckArgs {
    /// Write one JSON object per input line (`{file, line, input, valid, scheme, error}`).
    #[arg(long)]
    json: bool,
    /// The longest line read, in bytes; a longer one is reported invalid.
    #[arg(long, default_value_t = DEFAULT_MAX_LEN)]
    max_len: usize,
    /// What each line holds: one URL (`url`), or a Common Log Format entry
    /// whose request URL is checked (`clf`); offsets are in the line.
    #[arg(long, value_enum, default_value_t = Format::Url)]
    format: Format,
    /// Worker threads (default: one per core).
    #[arg(long)]
    jobs: Option<usize>,
    /// Accept the deviations real-world URLs have (unsafe characters, `_`
    /// or a trailing dot in a host, an empty port, a user name in http, `/`
    /// and `?` in a search, a bare `%`); `rfc1738 lint --lenient` lists them.
    #[arg(long)]
    lenient: bool,
    /// Files with one URL per line; `-` or none for stdin.
    files: Vec<String>,
}

/// What each input line holds.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One URL.
    Url,
    /// A Common Log Format (or Combined) entry: its request URL.
    Clf,
}

/// The verdict on one line.
type Verdict = Result<(), Problem>;

/// One batch: each line's bytes (empty when too long) and verdict.
struct Batch {
    /// The bytes of every line of the batch, one after the other.
    data: Vec<u8>,
    lines: Vec<Span>,
    bytes: u64,
}

/// Counts per scheme, for the summary.
#[derive(Default)]
struct Summary {
    by_scheme: BTreeMap<String, (u64, u64)>,
    valid: u64,
    invalid: u64,
}

impl Summary {
    /// Counts one line. The common case (a lower-case scheme already seen)
    /// allocates nothing: this runs on the thread that writes the output.
    fn add(&mut self, input: &[u8], ok: bool) {
        if ok {
            self.valid += 1;
        } else {
            self.invalid += 1;
        }
        let key: Cow<'_, str> = match scheme_bytes(input) {
            Some(s) if !s.iter().any(u8::is_ascii_uppercase) => {
                Cow::Borrowed(std::str::from_utf8(s).unwrap_or("(no scheme)"))
            }
            Some(s) => Cow::Owned(String::from_utf8_lossy(s).to_ascii_lowercase()),
            None => Cow::Borrowed("(no scheme)"),
        };
        if let Some(e) = self.by_scheme.get_mut(&*key) {
            bump(e, ok);
            return;
        }
        let key =
            if self.by_scheme.len() >= MAX_SCHEMES { "(other schemes)".into() } else { key.into_owned() };
        bump(self.by_scheme.entry(key).or_default(), ok);
    }

    fn write(&self, out: &mut impl Write) -> io::Result<()> {
        let total = self.valid + self.invalid;
        writeln!(out, "checked {total} URLs: {} valid, {} invalid", self.valid, self.invalid)?;
        if self.by_scheme.is_empty() {
            return Ok(());
        }
        writeln!(out, "  {:<20}{:>12}{:>12}", "scheme", "valid", "invalid")?;
        let mut rows: Vec<_> = self.by_scheme.iter().collect();
        rows.sort_by(|a, b| (b.1 .0 + b.1 .1).cmp(&(a.1 .0 + a.1 .1)).then(a.0.cmp(b.0)));
        for (name, (v, i)) in rows {
            writeln!(out, "  {name:<20}{v:>12}{i:>12}")?;
        }
        Ok(())
    }
}

fn bump(counts: &mut (u64, u64), ok: bool) {
    if ok {
        counts.0 += 1;
    } else {
        counts.1 += 1;
    }
}

/// Runs `check`.
pub fn run(args: &CheckArgs) -> io::Result<u8> {
    let files = if args.files.is_empty() { vec!["-".to_string()] } else { args.files.clone() };
    let jobs = args.jobs.unwrap_or_else(|| thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let mut out = BufWriter::with_capacity(1 << 16, anstream::AutoStream::auto(io::stdout().lock()));
    let mut summary = Summary::default();
    for file in &files {
        check_file(args, file, jobs, &mut out, &mut summary)?;
    }
    out.flush()?;
    if args.json {
        summary.write(&mut io::stderr().lock())?;
    } else {
        summary.write(&mut out)?;
        out.flush()?;
    }
    Ok(if summary.invalid == 0 { status::OK } else { status::INVALID })
}

fn check_file(
    args: &CheckArgs,
    file: &str,
    jobs: usize,
    out: &mut impl Write,
    summary: &mut Summary,
) -> io::Result<()> {
    let lines =
        Lines::open(file, args.max_len).map_err(|e| io::Error::new(e.kind(), format!("{file}: {e}")))?;
    let progress = progress_bar(file);
    let (tx, rx) = mpsc::sync_channel::<io::Result<Batch>>(1);
    let (max_len, format) = (args.max_len, args.format);
    thread::scope(|s| {
        s.spawn(move || read_batches(lines, &tx));
        let mut line_no = 0u64;
        for batch in rx {
            let batch = batch.map_err(|e| io::Error::new(e.kind(), format!("{file}: {e}")))?;
            let verdicts = validate_all(&batch, jobs, max_len, format, args.lenient);
            for (line, verdict) in batch.lines.iter().zip(&verdicts) {
                line_no += 1;
                let input: &[u8] = match line {
                    Span::Text(r) => &batch.data[r.clone()],
                    Span::TooLong(_) => b"",
                };
                summary.add(input, verdict.is_ok());
                write_verdict(out, args.json, file, line_no, input, verdict)?;
            }
            progress.inc(batch.bytes);
        }
        progress.finish_and_clear();
        Ok(())
    })
}

/// Reads batches until the end or an error, sending each.
fn read_batches(mut lines: Lines, tx: &mpsc::SyncSender<io::Result<Batch>>) {
    loop {
        let mut batch =
            Batch { data: Vec::with_capacity(1 << 20), lines: Vec::with_capacity(BATCH), bytes: 0 };
        while batch.lines.len() < BATCH {
            match lines.next_line_into(&mut batch.data) {
                Ok(Some(line)) => {
                    batch.bytes += match &line {
                        Span::Text(r) => r.len() as u64 + 1,
                        Span::TooLong(n) => n + 1,
                    };
                    batch.lines.push(line);
                }
                Ok(None) => break,
                Err(e) => {
                    let _ = tx.send(Err(e));
                    return;
                }
            }
        }
        let last = batch.lines.len() < BATCH;
        if (!batch.lines.is_empty() && tx.send(Ok(batch)).is_err()) || last {
            return;
        }
    }
}

/// Validates every line, split across `jobs` threads, results in order.
fn validate_all(batch: &Batch, jobs: usize, max_len: usize, format: Format, lenient: bool) -> Vec<Verdict> {
    let one = |line: &Span| match line {
        Span::Text(r) => {
            let t = &batch.data[r.clone()];
            match (format, lenient) {
                (Format::Clf, _) => super::clf::validate_line(t),
                (_, true) => parse_bytes_with(t, &options(true)).map(|_| ()),
                _ => validate_bytes(t),
            }
        }
        Span::TooLong(n) => Err(Problem::too_long(*n, max_len)),
    };
    let lines = &batch.lines;
    if jobs == 1 || lines.len() < 256 {
        return lines.iter().map(one).collect();
    }
    let chunk = lines.len().div_ceil(jobs);
    thread::scope(|s| {
        let handles: Vec<_> =
            lines.chunks(chunk).map(|c| s.spawn(move || c.iter().map(one).collect::<Vec<_>>())).collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
    })
}

fn write_verdict(
    out: &mut impl Write,
    json: bool,
    file: &str,
    line_no: u64,
    input: &[u8],
    verdict: &Verdict,
) -> io::Result<()> {
    if json {
        let error = verdict
            .as_ref()
            .err()
            .map(|p| json!({"offset": p.offset, "kind": p.kind, "rule": p.rule, "message": p.message}));
        let obj = json!({
            "file": file,
            "line": line_no,
            "input": String::from_utf8_lossy(input),
            "valid": verdict.is_ok(),
            "scheme": scheme_of(input),
            "error": error,
        });
        serde_json::to_writer(&mut *out, &obj)?;
        return writeln!(out);
    }
    let Err(p) = verdict else { return Ok(()) };
    let name = if file == "-" { "<stdin>" } else { file };
    let col = diag::column(&String::from_utf8_lossy(input), super::lossy_offset(input, p.offset));
    report_at(out, &format!("{name}:{line_no}:{col}"), input, p)
}

/// A byte-count progress bar on stderr when it is a terminal.
fn progress_bar(file: &str) -> ProgressBar {
    let len = if file == "-" { None } else { std::fs::metadata(file).ok().map(|m| m.len()) };
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = match len {
        Some(n) => ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::stderr()),
        None => ProgressBar::new_spinner(),
    };
    let template = "{spinner} {msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}";
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(file.to_string());
    bar
}

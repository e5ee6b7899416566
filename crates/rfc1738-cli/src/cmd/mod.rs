//! One module per subcommand; each `run` returns the exit status.

pub mod check;
pub mod completions;
pub mod examples;
pub mod explain;
pub mod extract;
pub mod fetch;
pub mod help;
pub mod lint;
pub mod man;
pub mod mirror;
pub mod normalize;
pub mod parse;
pub mod relative;
pub mod resolve;
pub mod same;
pub mod serve;
pub mod set;

use crate::diag;
use crate::input::{Line, Lines};
use crate::outcome::{parse_bytes_with, Note, Problem};
use serde_json::Value;
use std::borrow::Cow;
use std::io::{self, IsTerminal, Write};

/// `--quiet` of the subcommand running: nothing on stdout, no diagnostic
/// of an input; the exit status says it all (a file that cannot be read
/// is still named, as `grep -q` names it).
static QUIET: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Sets `--quiet` for the run.
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, std::sync::atomic::Ordering::Relaxed);
}

fn quiet() -> bool {
    QUIET.load(std::sync::atomic::Ordering::Relaxed)
}

/// Where results go: stdout, or nowhere with `--quiet`.
pub fn stdout() -> Box<dyn Write> {
    if quiet() {
        Box::new(io::sink())
    } else {
        Box::new(io::stdout().lock())
    }
}

/// Where the diagnostics of inputs go: stderr (colour where it may), or
/// nowhere with `--quiet`.
pub fn diagnostics() -> Box<dyn Write> {
    if quiet() {
        Box::new(io::sink())
    } else {
        Box::new(anstream::stderr().lock())
    }
}

/// A URL and the warnings of its lenient reading, or why it is none.
pub type Parsed = Result<(rfc1738::Url, Vec<rfc1738::Warning>), Problem>;

/// The URL of an input line, read by `opts`: the line's bytes (none for
/// a line longer than `max_len`, whose problem says so) and the parse.
pub fn parse_line(line: Line, opts: &rfc1738::ParseOptions, max_len: usize) -> (Vec<u8>, Parsed) {
    match line {
        Line::Text(t) => {
            let r = parse_bytes_with(&t, opts);
            (t, r)
        }
        Line::TooLong(n) => (Vec::new(), Err(Problem::too_long(n, max_len))),
    }
}

/// Where an input came from: line `line` of a file (`<stdin>` for stdin),
/// or the `line`-th argument (`name` is then `None`).
#[derive(Clone, Copy, Debug)]
pub struct At<'a> {
    /// The file, as diagnostics name it; `None` for an argument.
    pub name: Option<&'a str>,
    /// The line number (the argument's, for an argument), from 1.
    pub line: u64,
}

impl At<'_> {
    /// The file of a diagnostic's place: the name shown, or
    /// [`diag::ARGS`] for an argument.
    pub fn file(&self) -> Cow<'_, str> {
        self.name.map_or(Cow::Borrowed(diag::ARGS), shown_name)
    }

    /// A `--json` record with where its input came from: `file` and
    /// `line` first, as `check --json` and `lint --json` write them, when
    /// the input is a line of a file or stdin (an argument has neither).
    pub fn locate(&self, record: Value) -> Value {
        match (self.name, record) {
            (Some(name), Value::Object(fields)) => {
                let mut out = serde_json::Map::with_capacity(fields.len() + 2);
                out.insert("file".into(), name.into());
                out.insert("line".into(), self.line.into());
                out.extend(fields);
                Value::Object(out)
            }
            (_, record) => record,
        }
    }
}

/// `record` with a `column` beside the `offset` of its `error` and of
/// each of its `warnings`, offsets in `input`, as `check --json` gives
/// them.
pub fn with_columns(input: &[u8], mut record: Value) -> Value {
    if let Value::Object(fields) = &mut record {
        add_columns(input, fields);
    }
    record
}

/// [`with_columns`] on the fields of a record.
pub fn add_columns(input: &[u8], fields: &mut serde_json::Map<String, Value>) {
    let add = |v: &mut Value| {
        if let Some(offset) = v.get("offset").and_then(Value::as_u64) {
            v["column"] = column_of(input, offset as usize).into();
        }
    };
    if let Some(e) = fields.get_mut("error").filter(|e| e.is_object()) {
        add(e);
    }
    if let Some(ws) = fields.get_mut("warnings").and_then(Value::as_array_mut) {
        ws.iter_mut().for_each(add);
    }
}

/// Writes the diagnostic of an invalid input with no place (an
/// example of the RFC's): `rfc1738: error[kind]: message (in rule)`,
/// then the input with a caret under the offset.
pub fn report(err: &mut impl Write, input: &[u8], p: &Problem) -> io::Result<()> {
    let style = diag::ERROR;
    writeln!(err, "rfc1738: {style}error{style:#}[{}]: {} (in {})", p.kind, p.message, p.rule)?;
    write!(err, "{}", diag::caret(&String::from_utf8_lossy(input), lossy_offset(input, p.offset)))
}

/// The diagnostic of an invalid input from `at`, in the one shape
/// ([`diag::Diagnostic`]): `rfc1738: FILE:LINE:COLUMN: error[kind]:
/// message (in rule)`, then the input and a caret.
pub fn report_in(err: &mut impl Write, at: At<'_>, input: &[u8], p: &Problem) -> io::Result<()> {
    let mut out = Vec::new();
    let file = at.file();
    problem(&file, at.line, p).write(&mut out, input, p.offset, true);
    err.write_all(&out)
}

/// An error about argument `n`, in the one shape: `rfc1738:
/// <args>:N:COLUMN: error[kind]: message (in rule)`, then the argument
/// and a caret under byte `offset` (`fetch`'s URL, `set`'s change).
pub fn argument_error(
    err: &mut impl Write,
    n: u64,
    argument: &[u8],
    offset: usize,
    (kind, message, rule): (&str, &str, &str),
) -> io::Result<()> {
    let d = diag::Diagnostic { file: diag::ARGS, line: n, label: "error", kind, message, rule: Some(rule) };
    let mut out = Vec::new();
    d.write(&mut out, argument, offset, true);
    err.write_all(&out)
}

/// The [`diag::Diagnostic`] of problem `p` of line `line` of `file`.
pub fn problem<'a>(file: &'a str, line: u64, p: &'a Problem) -> diag::Diagnostic<'a> {
    diag::Diagnostic { file, line, label: "error", kind: p.kind, message: &p.message, rule: Some(p.rule) }
}

/// The diagnostic of line `line_no` of `name`, in the one shape, coloured
/// when `color` holds.
pub fn report_line(out: &mut Vec<u8>, name: &str, line_no: u64, input: &[u8], p: &Problem, color: bool) {
    problem(&shown_name(name), line_no, p).write(out, input, p.offset, color);
}

/// The warning of line `line_no` of `name`, in the one shape:
/// `rfc1738: FILE:LINE:COLUMN: warning[kind]: message`, then the input
/// and a caret.
pub fn warn_line(out: &mut Vec<u8>, name: &str, line_no: u64, input: &[u8], w: &Note, color: bool) {
    let file = shown_name(name);
    let label = if w.security { "security" } else { "warning" };
    let d =
        diag::Diagnostic { file: &file, line: line_no, label, kind: w.kind, message: &w.message, rule: None };
    d.write(out, input, w.offset, color);
}

/// The column of byte `offset` of `input`: the byte's, from 1, as
/// ripgrep's JSON counts it (`submatches`), whatever the line holds; the
/// one column of every position the command writes (SARIF alone counts
/// characters, as its `columnKind` says).
///
/// A line past `--max-len` is not kept (`input` is then empty): its
/// error's column is the limit's all the same, beside the same offset.
pub fn column_of(_input: &[u8], offset: usize) -> usize {
    offset + 1
}

/// A file name as a line for people shows it: [`diag::escape`]d, so that a
/// name holding ESC or BEL cannot retitle or recolour the terminal
/// (`<stdin>` for `-`).
pub fn shown_name(file: &str) -> Cow<'_, str> {
    diag::escape(display_name(file).as_bytes())
}

/// Writes a warning about an input from `at`, in the one shape:
/// `rfc1738: FILE:LINE:COLUMN: warning[kind]: message`, then the input
/// and a caret.
pub fn warn(err: &mut impl Write, at: At<'_>, input: &[u8], w: &rfc1738::Warning) -> io::Result<()> {
    let mut out = Vec::new();
    let file = at.file();
    let label = if w.kind().is_security() { "security" } else { "warning" };
    let message = w.message();
    let d = diag::Diagnostic { file: &file, line: at.line, label, kind: w.kind().id(), message, rule: None };
    d.write(&mut out, input, w.offset(), true);
    err.write_all(&out)
}

/// The offset in the lossy UTF-8 text that corresponds to byte `offset`.
pub fn lossy_offset(input: &[u8], offset: usize) -> usize {
    diag::lossy_offset(input, offset)
}

/// The URL arguments of a subcommand that takes a fixed number of them
/// (`same A B`, `relative BASE TARGET`): each `-` is the next line of
/// stdin, empty lines skipped, as everywhere.
pub fn fixed_arguments(args: &[&str]) -> io::Result<Vec<String>> {
    let mut stdin: Option<Lines> = None;
    let mut out = Vec::with_capacity(args.len());
    for &a in args {
        if a != "-" {
            out.push(a.to_string());
            continue;
        }
        let lines = match &mut stdin {
            Some(l) => l,
            None => stdin
                .insert(Lines::open("-", crate::input::DEFAULT_MAX_LEN).map_err(|e| input_error("-", &e))?),
        };
        let line = loop {
            match lines.next_line().map_err(|e| input_error("-", &e))? {
                Some(Line::Text(t)) if t.is_empty() => {}
                Some(Line::Text(t)) => break t,
                Some(Line::TooLong(n)) => {
                    let e = io::Error::other(format!("a line of {n} bytes, more than the limit"));
                    return Err(input_error("-", &e));
                }
                None => return Err(input_error("-", &io::Error::other("no line left for `-`"))),
            }
        };
        out.push(String::from_utf8_lossy(&line).into_owned());
    }
    Ok(out)
}

/// Where the URLs of a subcommand come from: its arguments (`-` for the
/// lines of stdin) and the files of `--url-file` (`-`: stdin), in that
/// order; stdin alone when there are none.
pub struct Inputs<'a> {
    /// The URL arguments.
    pub urls: &'a [String],
    /// The files of `--url-file`.
    pub files: &'a [String],
    /// The longest line read, in bytes.
    pub max_len: usize,
    /// What an empty line of a file writes: nothing, or (where output
    /// line N is input line N) a line break.
    pub keep_empty: bool,
    /// No progress on stderr (`--quiet`).
    pub quiet: bool,
}

/// Calls `each` with `out` for every input of `inputs`, in order, with
/// where it came from. A line past `max_len` arrives as `TooLong`. An
/// empty line of a file or stdin holds no URL: it is skipped, or with
/// `keep_empty` answered by an empty line (README, "The contract"). `out`
/// is flushed whenever the next line has to wait for its input, so that
/// on a slow pipe each answer comes with its line. A file that cannot be
/// opened or read is said on stderr and the next one is read, as
/// [`for_each_file`] does.
pub fn for_each_input<W: Write>(
    inputs: &Inputs<'_>,
    out: &mut W,
    mut each: impl FnMut(&mut W, At<'_>, Line) -> io::Result<()>,
) -> io::Result<Run> {
    let stdin = ["-".to_string()];
    let files = if inputs.urls.is_empty() && inputs.files.is_empty() { &stdin[..] } else { inputs.files };
    let mut given = 0;
    let mut counted = |out: &mut W, at: At<'_>, line: Line| {
        given += 1;
        each(out, at, line)
    };
    let mut all_read = true;
    for (u, line) in inputs.urls.iter().zip(1..) {
        if u == "-" {
            let read = lines_of("-", inputs, out, &mut counted);
            all_read &= said_if_unread(out, read)?;
        } else {
            counted(out, At { name: None, line }, Line::Text(u.as_bytes().to_vec()))?;
        }
    }
    for file in files {
        let read = lines_of(file, inputs, out, &mut counted);
        all_read &= said_if_unread(out, read)?;
    }
    Ok(Run { all_read, inputs: given })
}

/// What [`for_each_input`] read.
#[derive(Clone, Copy, Debug)]
pub struct Run {
    /// Whether every file could be read.
    pub all_read: bool,
    /// How many inputs were given to `each` (empty lines are none).
    pub inputs: u64,
}

impl Run {
    /// The run's last line on stderr when some of several inputs failed:
    /// `failed` of its inputs, and `what` they are (`URLs invalid`). A
    /// million lines' reports scroll away; the count stays. Then the
    /// exit status (`status::of_run`).
    pub fn end(self, failed: u64, what: &str) -> io::Result<u8> {
        if failed > 0 && self.inputs > 1 && !quiet() {
            writeln!(io::stderr().lock(), "rfc1738: {failed} of {} {what}", self.inputs)?;
        }
        Ok(crate::status::of_run(self.all_read, failed > 0))
    }
}

/// Whether a file was read: its [`InputError`] written on stderr (after
/// `out` is flushed, so that it comes after the lines before it) and
/// `false`; any other error ends the run.
fn said_if_unread(out: &mut impl Write, read: io::Result<()>) -> io::Result<bool> {
    match read {
        Err(e) if e.get_ref().is_some_and(|inner| inner.is::<InputError>()) => {
            out.flush()?;
            writeln!(io::stderr().lock(), "rfc1738: {e}")?;
            Ok(false)
        }
        other => other.map(|()| true),
    }
}

/// [`for_each_input`] over the lines of one file (`-`: stdin).
fn lines_of<W: Write>(
    file: &str,
    inputs: &Inputs<'_>,
    out: &mut W,
    each: &mut impl FnMut(&mut W, At<'_>, Line) -> io::Result<()>,
) -> io::Result<()> {
    let mut lines = Lines::open(file, inputs.max_len).map_err(|e| open_error(file, &e))?;
    let progress = crate::progress::Progress::start(file, inputs.quiet, io::stdout().is_terminal(), true);
    let (mut line, mut read) = (0u64, 0u64);
    while let Some(text) = next_line_of(file, &mut lines, out)? {
        line += 1;
        read += match &text {
            Line::Text(t) => t.len() as u64 + 1,
            Line::TooLong(n) => n + 1,
        };
        if line.is_multiple_of(256) {
            progress.at(line, read);
        }
        if matches!(&text, Line::Text(t) if t.is_empty()) {
            if inputs.keep_empty {
                writeln!(out)?;
            }
            continue;
        }
        each(out, At { name: Some(display_name(file)), line }, text)?;
    }
    progress.finish();
    Ok(())
}

/// The error of a file that cannot be opened; for a name that is a URL
/// (`rfc1738 lint http://...`), a word on how to lint one.
pub fn open_error(file: &str, e: &io::Error) -> io::Error {
    if e.kind() == io::ErrorKind::NotFound && crate::outcome::scheme_bytes(file.as_bytes()).is_some() {
        let file = shown_name(file);
        let hint = format!(
            "{file}: no such file; the arguments are files of URLs, one per line: \
             to read this URL, `echo '{file}' | rfc1738 ...`"
        );
        return io::Error::new(e.kind(), InputError(hint));
    }
    input_error(file, e)
}

/// An input file that cannot be opened or read (missing, a directory,
/// a read error): said on stderr with its name, and the next file is
/// read, as ripgrep does; the exit status is then 2. An error of the
/// output is not one: it ends the run.
#[derive(Debug)]
pub struct InputError(String);

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InputError {}

/// How a file is named in every report, text or JSON: `-` (standard
/// input) as `<stdin>`, as ripgrep names it.
pub fn display_name(file: &str) -> &str {
    if file == "-" {
        "<stdin>"
    } else {
        file
    }
}

/// The error `e` of reading `file`, as an [`InputError`] that names it
/// (escaped: the message goes to a terminal).
pub fn input_error(file: &str, e: &io::Error) -> io::Error {
    io::Error::new(e.kind(), InputError(format!("{}: {}", shown_name(file), crate::output::shell_words(e))))
}

/// Runs `each` on every file in turn. An [`InputError`] is written on
/// stderr (after `out` is flushed, so that it comes after the lines before
/// it) and the next file is read; any other error ends the run. Whether
/// every file could be read.
pub fn for_each_file<W: Write>(
    files: &[String],
    out: &mut W,
    mut each: impl FnMut(&mut W, &str) -> io::Result<()>,
) -> io::Result<bool> {
    let mut all_read = true;
    for file in files {
        let read = each(out, file);
        all_read &= said_if_unread(out, read)?;
    }
    Ok(all_read)
}

/// The next line of `lines`, read from `file`, `out` flushed first when
/// it has to wait for its input.
fn next_line_of(file: &str, lines: &mut Lines, out: &mut impl Write) -> io::Result<Option<Line>> {
    if lines.would_wait() {
        out.flush()?;
    }
    lines.next_line().map_err(|e| input_error(file, &e))
}

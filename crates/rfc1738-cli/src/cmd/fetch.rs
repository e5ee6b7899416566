//! `rfc1738 fetch URL [-o FILE]`: do what a URL locates (RFC 1738 §3).
//!
//! The access itself is the `rfc1738-access` crate; this module wires
//! arguments, the terminal (progress, the password prompt) and exit codes:
//! 0 fetched (or planned), 1 refused (by the §6 checks, as a scheme this
//! command does not access, or by the server), 2 a usage, connection or
//! I/O error.

use crate::diag::escape as show;
use crate::output::{OutputError, Pending};
use rfc1738_access::{fetch, plan, AccessError, Event, MenuOutput, Options, Trace};
use std::fs::File;
use std::io::{self, BufRead, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Arguments of `fetch`.
#[derive(clap::Args, Debug)]
pub struct FetchArgs {
    /// The URL to retrieve.
    url: String,
    /// Write the resource to FILE instead of stdout (`-` is stdout).
    ///
    /// FILE is opened before connecting as `> FILE` would open it (what the shell refuses is
    /// refused; symlinks are followed by the kernel) and gets the bytes only after a complete
    /// transfer; on any error or signal it keeps its old bytes. Owner, group and hard links stay;
    /// set-id bits are cleared. A device, FIFO or directory is refused.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// With -o: keep an existing FILE and fetch nothing.
    #[arg(long, requires = "output")]
    no_clobber: bool,
    /// Print the exchange that would be performed, without connecting.
    #[arg(long)]
    plan: bool,
    /// Print the exchange on stderr as it happens (`>` sent, `<` received).
    #[arg(long)]
    trace: bool,
    /// Connect to a privileged port that is not the scheme's.
    ///
    /// Connect to an explicit port below 1024 that is not the scheme's default (RFC 1738 §6).
    #[arg(long)]
    allow_privileged_port: bool,
    /// Stop after this many bytes of content.
    #[arg(long, value_name = "BYTES", default_value_t = 1 << 30, value_parser = crate::flags::max_bytes)]
    max_bytes: u64,
    /// The most bytes of a reply's head.
    ///
    /// An http status line and headers, an ftp or nntp reply (all its lines).
    #[arg(long, value_name = "BYTES", default_value_t = Options::default().max_header_bytes, value_parser = crate::flags::max_len)]
    max_header_bytes: usize,
    /// The most header lines of an http response.
    #[arg(long, value_name = "N", default_value_t = Options::default().max_headers, value_parser = crate::flags::count)]
    max_headers: usize,
    /// The longest line read from a server, in bytes.
    ///
    /// The longest line read from a server (a reply, an article line, a gopher menu line).
    #[arg(long, value_name = "BYTES", default_value_t = Options::default().max_line, value_parser = crate::flags::max_len)]
    max_line: usize,
    /// Seconds allowed for connecting and for each read or write.
    #[arg(long, value_name = "SECS", default_value_t = 30, value_parser = crate::flags::seconds)]
    timeout: u64,
    /// Seconds allowed for the whole access.
    ///
    /// Every read and write ends by then.
    #[arg(long, value_name = "SECS", default_value_t = 600, value_parser = crate::flags::seconds)]
    max_time: u64,
    /// The anonymous ftp password.
    ///
    /// The e-mail address sent as the anonymous ftp password (default: $EMAIL, else $USER@localhost).
    #[arg(long, value_name = "ADDRESS")]
    email: Option<String>,
    /// The NNTP server for news: URLs [default: $NNTPSERVER].
    #[arg(long, value_name = "HOST[:PORT]")]
    news_server: Option<String>,
    /// The most http redirects followed.
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = crate::flags::redirects)]
    max_redirects: u32,
    /// Write gopher menus as the server sent them, not as items with their URLs.
    #[arg(long)]
    raw: bool,
}

/// Runs `fetch`.
pub fn run(args: FetchArgs) -> ExitCode {
    // A URL that does not parse is said as every subcommand says one
    // (`rfc1738: <args>:1:COLUMN: error[kind]: ...`, a caret): status 1,
    // refused before connecting.
    if let Err(p) = crate::outcome::parse_bytes(args.url.as_bytes()) {
        let at = super::At { name: None, line: 1 };
        let _ = super::report_in(&mut anstream::stderr().lock(), at, args.url.as_bytes(), &p);
        return ExitCode::from(crate::status::INVALID);
    }
    let opts = match options(&args) {
        Ok(opts) => opts,
        Err(msg) => return fail(&args.url, &msg, 2),
    };
    if args.plan {
        return match plan(&args.url, &opts) {
            Ok(p) => {
                let mut out = io::stdout().lock();
                match write!(out, "{p}").and_then(|()| out.flush()) {
                    // A closed pipe (`fetch --plan URL | head -1`) is not an error.
                    Err(e) if e.kind() != io::ErrorKind::BrokenPipe => fail(&args.url, &e.to_string(), 2),
                    _ => ExitCode::SUCCESS,
                }
            }
            Err(e) => refuse(&args.url, &e),
        };
    }
    match retrieve(&args, &opts) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`rfc1738 fetch URL | head`) is not an error.
        Err(Failure::Access(AccessError::Io(e))) if e.kind() == io::ErrorKind::BrokenPipe => {
            ExitCode::SUCCESS
        }
        Err(Failure::Access(e)) => refuse(&args.url, &e),
        Err(Failure::Output(e)) => fail(&args.url, &show(e.to_string().as_bytes()), 2),
    }
}

/// How `retrieve` failed: the access, or the output file.
enum Failure {
    Access(AccessError),
    Output(OutputError),
}

impl From<AccessError> for Failure {
    fn from(e: AccessError) -> Failure {
        Failure::Access(e)
    }
}

fn retrieve(args: &FetchArgs, opts: &Options) -> Result<(), Failure> {
    let to_file = args.output.as_deref().filter(|p| p.as_os_str() != "-");
    let progress =
        !args.trace && io::stderr().is_terminal() && (to_file.is_some() || !io::stdout().is_terminal());
    let mut tracer = Tracer { trace: args.trace, progress, last: None };
    let result = match to_file {
        Some(path) => {
            // Every check before connecting (§6) comes before any file.
            plan(&args.url, opts)?;
            let mut pending = Pending::create(path, args.no_clobber).map_err(Failure::Output)?;
            let mut out = BufWriter::new(pending.file());
            let r = fetch(&args.url, opts, &mut tracer, &mut out)
                .and_then(|_| out.flush().map_err(AccessError::Io));
            drop(out);
            match r {
                // Only a complete, verified transfer takes FILE's place; on
                // an error `pending` is dropped and the temporary file with it.
                Ok(()) => pending.commit().map_err(Failure::Output),
                Err(e) => Err(e.into()),
            }
        }
        None => {
            let mut out = BufWriter::new(io::stdout().lock());
            fetch(&args.url, opts, &mut tracer, &mut out)
                .and_then(|_| out.flush().map_err(AccessError::Io))
                .map_err(Failure::from)
        }
    };
    tracer.finish();
    result
}

fn options(args: &FetchArgs) -> Result<Options, String> {
    let news_server = match args.news_server.clone().or_else(|| std::env::var("NNTPSERVER").ok()) {
        Some(s) => Some(rfc1738_access::news_server(&s).map_err(|e| e.to_string())?),
        None => None,
    };
    // §3.2.1: the password of an anonymous login is the end user's e-mail
    // address; an empty $EMAIL says none.
    let email =
        args.email.clone().or_else(|| std::env::var("EMAIL").ok().filter(|e| !e.is_empty())).unwrap_or_else(
            || {
                let user = std::env::var("USER").unwrap_or_else(|_| "anonymous".into());
                format!("{user}@localhost")
            },
        );
    Ok(Options {
        io_timeout: Duration::from_secs(args.timeout.max(1)),
        total_timeout: Duration::from_secs(args.max_time.max(1)),
        max_bytes: args.max_bytes,
        max_header_bytes: args.max_header_bytes,
        max_headers: args.max_headers,
        max_line: args.max_line.max(1),
        allow_privileged_ports: args.allow_privileged_port,
        email,
        news_server,
        max_redirects: args.max_redirects,
        password_prompt: Some(Box::new(ask_password)),
        menus: if args.raw { MenuOutput::Raw } else { MenuOutput::Items },
    })
}

/// Asks on the terminal, without echo where `stty` can turn it off.
fn ask_password(user: &str, host: &str) -> Option<String> {
    let tty = File::options().read(true).write(true).open("/dev/tty").ok()?;
    let stty = |arg: &str| {
        let input = tty.try_clone().ok()?;
        std::process::Command::new("stty").arg(arg).stdin(input).status().ok()
    };
    write!(&tty, "password for {user}@{host}: ").ok()?;
    stty("-echo");
    let mut line = String::new();
    let read = io::BufReader::new(&tty).read_line(&mut line);
    stty("echo");
    writeln!(&tty).ok()?;
    read.ok()?;
    Some(line.trim_end_matches(['\r', '\n']).to_string())
}

/// `--trace` lines and the progress display, both on stderr.
struct Tracer {
    trace: bool,
    progress: bool,
    last: Option<Instant>,
}

impl Trace for Tracer {
    fn event(&mut self, event: &Event<'_>) {
        let mut err = io::stderr().lock();
        let _ = match event {
            Event::Progress { bytes, total } => return self.show_progress(*bytes, *total),
            _ if !self.trace => Ok(()),
            Event::Connect { host, port } => writeln!(err, "* connect {}:{port}", show(host.as_bytes())),
            Event::Sent(line) => writeln!(err, "> {}", show(line)),
            Event::Received(line) => writeln!(err, "< {}", show(line)),
            Event::Note(note) => writeln!(err, "# {}", show(note.as_bytes())),
            _ => Ok(()),
        };
    }
}

impl Tracer {
    fn show_progress(&mut self, bytes: u64, total: Option<u64>) {
        let now = Instant::now();
        if !self.progress || self.last.is_some_and(|t| now - t < Duration::from_millis(100)) {
            return;
        }
        self.last = Some(now);
        let of = total.map(|t| format!(" of {t}")).unwrap_or_default();
        eprint!("\r{bytes}{of} bytes");
    }

    fn finish(&mut self) {
        if self.progress && self.last.is_some() {
            eprint!("\r\x1b[K");
        }
    }
}

/// 1 for a refusal, 2 for everything else.
fn code(e: &AccessError) -> u8 {
    match e {
        AccessError::Injection { .. }
        | AccessError::PrivilegedPort { .. }
        | AccessError::ForeignFileHost { .. }
        | AccessError::EncodedSlash { .. }
        | AccessError::NotAutomated { .. }
        | AccessError::Unsupported { .. }
        | AccessError::Url(_)
        | AccessError::Refused { .. }
        | AccessError::Redirect { .. }
        | AccessError::PasswordRequired { .. } => 1,
        _ => 2,
    }
}

/// Says why the access to `url` failed in the one diagnostic shape:
/// `rfc1738: <args>:1:COLUMN: error[kind]: message (in rule)`, the URL,
/// a caret under the part at fault.
fn refuse(url: &str, e: &AccessError) -> ExitCode {
    let (offset, rule) = place(url, e);
    let message = e.to_string();
    let mut err = anstream::stderr().lock();
    let _ = super::argument_error(&mut err, 1, url.as_bytes(), offset, (e.kind(), &message, rule));
    ExitCode::from(code(e))
}

/// Where in `url` the part at fault lies, and its rule: the port a
/// refusal of §6 names, the host a server failed from, the escape of an
/// octet §6 refuses, the segment of a file path; else the scheme.
fn place(url: &str, e: &AccessError) -> (usize, &'static str) {
    let Ok(parsed) = rfc1738::Url::parse(url) else { return (0, "url") };
    let spans = rfc1738_report::spans::spans(&parsed);
    let at = |part: &str| spans.iter().find(|s| s.part == part).map(|s| s.range.start);
    match e {
        AccessError::PrivilegedPort { .. } => (at("port").unwrap_or(0), "port"),
        AccessError::ForeignFileHost { .. } => (at("host").unwrap_or(0), "host"),
        AccessError::Injection { octet, .. } => {
            let escape = format!("%{octet:02X}");
            let found = url.to_ascii_uppercase().find(&escape);
            (found.unwrap_or(0), "url-path")
        }
        AccessError::EncodedSlash { segment } => (url.find(segment.as_str()).unwrap_or(0), "fsegment"),
        AccessError::NotAutomated { .. } | AccessError::Unsupported { .. } | AccessError::Url(_) => {
            (0, "scheme")
        }
        AccessError::NoNewsServer | AccessError::NewsServer { .. } => (0, "news server"),
        _ => match at("host") {
            Some(host) => (host, "hostport"),
            None => (0, "url"),
        },
    }
}

fn fail(url: &str, msg: &str, code: u8) -> ExitCode {
    // The URL is the user's input: escaped for the terminal. The message
    // is escaped where it is made (an `AccessError` quoting a server).
    let _ = writeln!(io::stderr(), "rfc1738: {}: {msg}", show(url.as_bytes()));
    ExitCode::from(code)
}

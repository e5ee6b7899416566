//! `rfc1738`: parse, check and explain URLs exactly as RFC 1738 defines them.
//!
//! The binary only wires: argument parsing, input and output, exit codes.
//! The library crate `rfc1738` does the work.

mod cmd;
mod decompress;
mod flags;
mod input;
mod output;
mod progress;
mod status;

// What the command says of a URL lives in `rfc1738-report`, shared with
// the other front ends; these names keep `crate::json` and the like short.
use rfc1738_report::{diag, explain, json, outcome};

use clap::{CommandFactory, Parser, Subcommand};
use std::io;
use std::process::ExitCode;

/// Parse, check and explain URLs exactly as RFC 1738 defines them.
///
/// With no subcommand, explains the RFC's own example URLs.
#[derive(Parser)]
#[command(name = "rfc1738", version, about, long_about = None, propagate_version = true)]
#[command(after_help = cmd::help::TOP)]
struct Cli {
    /// When to colour the output.
    ///
    /// On a terminal (`auto`, off when `NO_COLOR` is set), `always` or `never`.
    #[arg(long, global = true, value_name = "WHEN", default_value = "auto")]
    color: clap::ColorChoice,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Show the parts of each URL (arguments, or one per line on stdin).
    #[command(after_help = cmd::parse::EXAMPLES)]
    Parse(cmd::parse::ParseArgs),
    /// Validate one URL per line of each file (stdin when none) and summarize.
    #[command(after_help = cmd::check::EXAMPLES)]
    Check(cmd::check::CheckArgs),
    /// Say what a client would do with each URL.
    #[command(after_help = cmd::explain::EXAMPLES)]
    Explain(cmd::explain::ExplainArgs),
    /// Find the URLs in free text (mail, news, documents), one per line.
    #[command(after_help = cmd::extract::EXAMPLES)]
    Extract(cmd::extract::ExtractArgs),
    /// Write the normal form of each URL (arguments, or one per line on stdin).
    #[command(after_help = cmd::normalize::EXAMPLES)]
    Normalize(cmd::normalize::NormalizeArgs),
    /// Exit 0 when two URLs are equivalent, 1 when they are not (or one is not a URL).
    #[command(after_help = cmd::same::EXAMPLES)]
    Same(cmd::same::SameArgs),
    /// Report the security warnings of each URL, one per line; exit 1 when any.
    #[command(after_help = cmd::lint::EXAMPLES)]
    Lint(cmd::lint::LintArgs),
    /// Change parts of each URL, each value encoded for its part (trurl's --set).
    #[command(after_help = cmd::set::EXAMPLES)]
    Set(cmd::set::SetArgs),
    /// Resolve relative references against a base, by RFC 1808 (stdin when none).
    #[command(after_help = cmd::resolve::EXAMPLES)]
    Resolve(cmd::resolve::ResolveArgs),
    /// The shortest reference from a base to a target, by RFC 1808.
    #[command(after_help = cmd::relative::EXAMPLES)]
    Relative(cmd::relative::RelativeArgs),
    /// Explain the example URLs of the RFC text (the default).
    #[command(after_help = cmd::help::EXAMPLES)]
    Examples,
    /// Retrieve what a URL locates, as RFC 1738 §3 says (--plan: show the exchange only).
    #[command(after_help = cmd::help::FETCH)]
    Fetch(cmd::fetch::FetchArgs),
    /// Archive what URLs locate, and what their menus, listings and pages name, into WARC files.
    #[command(after_help = cmd::mirror::EXAMPLES)]
    Mirror(cmd::mirror::MirrorArgs),
    /// Serve the explorer page and the JSON API on a local port.
    #[command(after_help = cmd::help::SERVE)]
    Serve(cmd::serve::ServeArgs),
    /// Write the completion script for a shell (bash, zsh, fish, powershell, elvish).
    #[command(after_help = cmd::help::COMPLETIONS)]
    Completions(cmd::completions::CompletionsArgs),
    /// Write the manual page of the command or of a subcommand, in roff.
    #[command(after_help = cmd::help::MAN)]
    Man(cmd::man::ManArgs),
}

impl Command {
    /// How the subcommand reads its text; `None` when it reads none.
    fn reading(&self) -> Option<flags::Reading> {
        match self {
            Command::Parse(a) => Some(a.reading),
            Command::Check(a) => Some(a.reading),
            Command::Explain(a) => Some(a.reading),
            Command::Extract(a) => Some(a.reading),
            Command::Normalize(a) => Some(a.reading),
            Command::Same(a) => Some(a.reading),
            Command::Lint(a) => Some(a.reading),
            Command::Resolve(a) => Some(a.reading),
            Command::Set(a) => Some(a.reading),
            Command::Relative(a) => Some(a.reading),
            _ => None,
        }
    }
}

/// Words a user may type for a subcommand, and the subcommand meant:
/// clap's own suggestion goes by spelling alone (`validate` is nearer
/// `lint` than `check`).
const MEANT: [(&str, &str); 14] = [
    ("validate", "check"),
    ("verify", "check"),
    ("valid", "check"),
    ("canonicalize", "normalize"),
    ("canonical", "normalize"),
    ("normalise", "normalize"),
    ("compare", "same"),
    ("equal", "same"),
    ("equivalent", "same"),
    ("join", "resolve"),
    ("absolute", "resolve"),
    ("get", "fetch"),
    ("download", "fetch"),
    ("server", "serve"),
];

/// Flags a user may type, and what is meant: a flag of another
/// subcommand, or a subcommand.
const MEANT_FLAGS: [(&str, &str); 4] = [
    ("--verify", "the subcommand `check` (`rfc1738 check`)"),
    ("--validate", "the subcommand `check` (`rfc1738 check`)"),
    ("--set", "the subcommand `set` (`rfc1738 set URL PART=VALUE`)"),
    ("--urlfile", "--url-file"),
];

/// The arguments read, or clap's error with a tip for a word a user
/// means by another name (`validate` for `check`).
fn parse_args() -> Cli {
    let err = match Cli::try_parse() {
        Ok(cli) => return cli,
        Err(err) => err,
    };
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let given = |kind| match err.get(kind) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        _ => None,
    };
    let (what, tip) = match err.kind() {
        ErrorKind::InvalidSubcommand => {
            let Some(word) = given(ContextKind::InvalidSubcommand) else { err.exit() };
            let Some((_, meant)) = MEANT.iter().find(|(typed, _)| word.eq_ignore_ascii_case(typed)) else {
                err.exit()
            };
            let tip = format!("`{meant}` is the subcommand for that: rfc1738 {meant} --help");
            (format!("unrecognized subcommand '{word}'"), tip)
        }
        ErrorKind::UnknownArgument => {
            let Some(arg) = given(ContextKind::InvalidArg) else { err.exit() };
            let meant =
                MEANT_FLAGS.iter().find(|(typed, _)| arg == *typed || arg.starts_with(&format!("{typed}=")));
            let Some((_, meant)) = meant else { err.exit() };
            (format!("unexpected argument '{arg}' found"), format!("{meant} is what does that"))
        }
        _ => err.exit(),
    };
    // Clap's own guess goes by spelling and would point elsewhere: the
    // error is said again with this tip alone.
    let mut cmd = Cli::command();
    cmd.error(err.kind(), format!("{what}\n\n  tip: {tip}")).exit()
}

fn main() -> ExitCode {
    let cli = parse_args();
    let choice = match cli.color {
        clap::ColorChoice::Auto => anstream::ColorChoice::Auto,
        clap::ColorChoice::Always => anstream::ColorChoice::Always,
        clap::ColorChoice::Never => anstream::ColorChoice::Never,
    };
    choice.write_global();
    if cli
        .command
        .as_ref()
        .and_then(Command::reading)
        .is_some_and(|r| r.decompress == flags::Decompress::Auto)
    {
        input::set_filter(decompress::text);
    }
    let result = match cli.command {
        None | Some(Command::Examples) => cmd::examples::run(),
        Some(Command::Parse(args)) => cmd::parse::run(&args),
        Some(Command::Check(args)) => cmd::check::run(&args),
        Some(Command::Explain(args)) => cmd::explain::run(&args),
        Some(Command::Extract(args)) => cmd::extract::run(&args),
        Some(Command::Fetch(args)) => return cmd::fetch::run(args),
        Some(Command::Mirror(args)) => return cmd::mirror::run(args),
        Some(Command::Normalize(args)) => cmd::normalize::run(&args),
        Some(Command::Same(args)) => cmd::same::run(&args),
        Some(Command::Lint(args)) => cmd::lint::run(&args),
        Some(Command::Resolve(args)) => cmd::resolve::run(&args),
        Some(Command::Set(args)) => cmd::set::run(&args),
        Some(Command::Relative(args)) => cmd::relative::run(&args),
        Some(Command::Serve(args)) => cmd::serve::run(&args),
        Some(Command::Completions(args)) => cmd::completions::run(&args, Cli::command()),
        Some(Command::Man(args)) => cmd::man::run(&args, Cli::command()),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        // A closed pipe (`rfc1738 check big.txt | head`) is not an error.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::from(status::OK),
        Err(e) => {
            eprintln!("rfc1738: {e}");
            ExitCode::from(status::ERROR)
        }
    }
}

//! The few command-line options the benchmark binaries share.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::corpus;

/// Parsed options.
#[derive(Debug)]
pub struct Options {
    /// `--quick`: a few rounds over small inputs, to check that everything runs.
    pub quick: bool,
    /// `--corpus DIR`: the URL lists (default: see [`corpus::default_corpus_dir`]).
    pub corpus: PathBuf,
    /// `--rounds N`: how many measured rounds (default depends on the binary).
    pub rounds: Option<usize>,
    /// `--markdown`: print the tables as Markdown, as in the README.
    pub markdown: bool,
    /// `--only NAME` (repeatable): measure only the parsers or finders whose
    /// name contains one of these, e.g. `--only rfc1738` for a profiler.
    pub only: Vec<String>,
}

impl Options {
    /// Whether `--only` lets the parser or finder called `name` run.
    #[must_use]
    pub fn selects(&self, name: &str) -> bool {
        self.only.is_empty() || self.only.iter().any(|o| name.contains(o.as_str()))
    }
}

/// Reads the options from the process arguments; on `--help` or a usage
/// error returns the exit code to leave with.
///
/// # Errors
///
/// Returns exit code 0 after printing help, 2 after a usage error.
pub fn parse(name: &str, about: &str) -> Result<Options, ExitCode> {
    let mut options = Options {
        quick: false,
        corpus: corpus::default_corpus_dir(),
        rounds: None,
        markdown: false,
        only: Vec::new(),
    };
    let usage = format!(
        "usage: cargo run --release -p rfc1738-bench --bin {name} -- \
         [--quick] [--corpus DIR] [--rounds N] [--only NAME] [--markdown]\n\n{about}"
    );
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--quick" => options.quick = true,
            "--markdown" => options.markdown = true,
            "--corpus" => match args.next() {
                Some(dir) => options.corpus = dir.into(),
                None => return Err(usage_error(name, "--corpus needs a directory", &usage)),
            },
            "--only" => match args.next() {
                Some(name) => options.only.push(name),
                None => return Err(usage_error(name, "--only needs a parser name", &usage)),
            },
            "--rounds" => match args.next().and_then(|n| n.parse().ok()) {
                Some(n) if n > 0 => options.rounds = Some(n),
                _ => return Err(usage_error(name, "--rounds needs a positive number", &usage)),
            },
            "-h" | "--help" => {
                println!("{usage}");
                return Err(ExitCode::SUCCESS);
            }
            // `cargo bench` passes `--bench`; accept and ignore it.
            "--bench" => {}
            other => return Err(usage_error(name, &format!("unknown argument {other:?}"), &usage)),
        }
    }
    Ok(options)
}

fn usage_error(name: &str, message: &str, usage: &str) -> ExitCode {
    eprintln!("{name}: {message}\n{usage}");
    ExitCode::from(2)
}

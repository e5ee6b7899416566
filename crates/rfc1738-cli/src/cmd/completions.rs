//! `rfc1738 completions SHELL`: the shell completion script, generated
//! from the command's own definition.

use crate::status;
use std::io::{self, Write};

/// Arguments of `completions`.
#[derive(clap::Args)]
pub struct CompletionsArgs {
    /// The shell to write the script for.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

/// Writes the completion script of `cmd` for the shell on stdout.
pub fn run(args: &CompletionsArgs, mut cmd: clap::Command) -> io::Result<u8> {
    // `generate` panics when a write fails; it writes to memory, and a
    // closed pipe on stdout is then an error `main` treats as such.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "rfc1738", &mut script);
    let mut out = io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(status::OK)
}

//! `rfc1738 completions SHELL`: the shell completion script, generated
//! from the command's own definition.

use crate::status;
use std::io;

/// Arguments of `completions`.
#[derive(clap::Args)]
pub struct CompletionsArgs {
    /// The shell to write the script for.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

/// Writes the completion script of `cmd` for the shell on stdout.
pub fn run(args: &CompletionsArgs, mut cmd: clap::Command) -> io::Result<u8> {
    clap_complete::generate(args.shell, &mut cmd, "rfc1738", &mut io::stdout().lock());
    Ok(status::OK)
}

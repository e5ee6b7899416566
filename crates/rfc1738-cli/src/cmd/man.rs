//! `rfc1738 man [SUBCOMMAND] [--dir DIR]`: manual pages in roff, generated
//! from the command's own definition: one for the command, one for each
//! subcommand (`rfc1738-parse.1`, ...), each with EXAMPLES, EXIT STATUS
//! and ENVIRONMENT (`help.rs`).

use crate::status;
use std::io::{self, Write};
use std::path::PathBuf;

/// Arguments of `man`.
#[derive(clap::Args)]
pub struct ManArgs {
    /// Write every page into this directory.
    ///
    /// Write every page (`rfc1738.1`, `rfc1738-parse.1`, ...) into this
    /// directory instead of one page on stdout.
    #[arg(long, value_name = "DIR", conflicts_with = "subcommand")]
    dir: Option<PathBuf>,
    /// The subcommand whose page is written on stdout; none for the
    /// command's own page.
    subcommand: Option<String>,
}

/// Writes the page (or every page) of `cmd`.
pub fn run(args: &ManArgs, cmd: clap::Command) -> io::Result<u8> {
    let mut cmd = cmd.disable_help_subcommand(true);
    cmd.build();
    if let Some(dir) = &args.dir {
        // A name that exists and is no directory is said as `mkdir -p`
        // says it, not as "File exists".
        let made = match std::fs::metadata(dir) {
            Ok(m) if !m.is_dir() => Err(io::Error::from(io::ErrorKind::NotADirectory)),
            _ => std::fs::create_dir_all(dir),
        };
        made.map_err(|e| {
            let words = crate::output::shell_words(&e);
            let words =
                if e.kind() == io::ErrorKind::NotADirectory { "Not a directory".into() } else { words };
            io::Error::new(e.kind(), format!("{}: {words}", dir.display()))
        })?;
        super::help::write_pages(&cmd, dir)?;
        return Ok(status::OK);
    }
    let page = match &args.subcommand {
        None => cmd,
        Some(name) => match cmd.find_subcommand(name) {
            Some(sub) => sub.clone(),
            None => {
                let names: Vec<&str> = cmd.get_subcommands().map(clap::Command::get_name).collect();
                eprintln!("rfc1738: man: no subcommand `{name}` (the subcommands: {})", names.join(", "));
                return Ok(status::ERROR);
            }
        },
    };
    let mut out = io::stdout().lock();
    super::help::render_page(&page, &mut out)?;
    out.flush()?;
    Ok(status::OK)
}

//! Progress on stderr for a long run, as the command reads one input:
//! a bar of the bytes read against a regular file's size (for a
//! compressed file, its compressed bytes against its size on disk), or
//! for a pipe a spinner with the lines and bytes read. Never on a pipe
//! or a file as stderr, never with `--quiet`, never while a person types
//! the lines (stdin a terminal), and never over results written to the
//! same terminal.

use crate::input;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{self, IsTerminal};

/// The progress of one input.
pub struct Progress {
    bar: Option<ProgressBar>,
    /// The bar counts the bytes read as stored ([`input::raw_read`]), not
    /// the text's (a compressed file).
    stored: bool,
    /// A spinner: no size to measure against.
    spinner: bool,
    name: String,
}

impl Progress {
    /// The progress of reading `file` (`-`: stdin). `quiet`: the user
    /// asked for none; `results_on_terminal`: the run writes a line per
    /// input to a stdout that is the terminal, which a bar would break;
    /// `counted`: the input is read through [`input::open`], which counts
    /// its stored bytes (else a compressed file alone is).
    pub fn start(file: &str, quiet: bool, results_on_terminal: bool, counted: bool) -> Progress {
        // Named as every report names it: `<stdin>`, and escaped.
        let name = crate::diag::escape(if file == "-" { b"<stdin>" } else { file.as_bytes() }).into_owned();
        let none = Progress { bar: None, stored: false, spinner: false, name: name.clone() };
        let typed = file == "-" && io::stdin().is_terminal();
        if quiet || results_on_terminal || typed || !io::stderr().is_terminal() {
            return none;
        }
        let size = if file == "-" {
            stdin_size()
        } else {
            std::fs::metadata(file).ok().filter(|m| m.is_file()).map(|m| m.len())
        };
        let (bar, template, stored, spinner) = match size {
            Some(len) => (
                ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr()),
                "{msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
                counted || (input::filtered() && crate::decompress::is_compressed(file)),
                false,
            ),
            None => (
                ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()),
                "{spinner} {msg}, {bytes} {bytes_per_sec}",
                false,
                true,
            ),
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_message(if spinner { format!("{name}: 0 lines") } else { name.clone() });
        bar.tick();
        Progress { bar: Some(bar), stored, spinner, name }
    }

    /// `lines` lines and `text` bytes of text read so far.
    pub fn at(&self, lines: u64, text: u64) {
        let Some(bar) = &self.bar else { return };
        bar.set_position(if self.stored { input::raw_read() } else { text });
        if self.spinner {
            bar.set_message(format!("{}: {lines} lines", self.name));
        }
    }

    /// The bar cleared.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The size of stdin when it is a regular file (`< file`).
fn stdin_size() -> Option<u64> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        let stat = rustix::fs::fstat(io::stdin().as_fd()).ok()?;
        let regular = rustix::fs::FileType::from_raw_mode(stat.st_mode) == rustix::fs::FileType::RegularFile;
        regular.then(|| u64::try_from(stat.st_size).unwrap_or(0))
    }
    #[cfg(not(unix))]
    None
}

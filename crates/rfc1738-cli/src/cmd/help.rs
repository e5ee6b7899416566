//! What `--help` and the manual pages say beyond the arguments: the
//! examples of the subcommands whose modules have none of their own, and
//! the EXAMPLES, EXIT STATUS and ENVIRONMENT sections of every page.

use std::io::{self, Write};

/// The examples at the end of `rfc1738 --help`.
pub const TOP: &str = "\
Examples:
  rfc1738 parse 'ftp://myname@host.dom/%2Fetc/motd'
      the parts of a URL
  rfc1738 check --input-format clf --json --summary access.log
      a web log, line by line, then its summary
  rfc1738 normalize --keep-lines < urls.txt
      one normal form per input line";

/// The examples at the end of `fetch --help`.
pub const FETCH: &str = "\
Examples:
  rfc1738 fetch --plan 'ftp://ftp.dom/pub/README;type=a'
      the ftp commands, without connecting
  rfc1738 fetch -o motd ftp://ftp.dom/etc/motd
      retrieve a file
  rfc1738 fetch 'gopher://gopher.dom/1'
      a gopher menu";

/// The examples at the end of `serve --help`.
pub const SERVE: &str = "\
Examples:
  rfc1738 serve
      the explorer page at http://127.0.0.1:8738/
  rfc1738 serve --listen 127.0.0.1:9000
      on another port";

/// The examples at the end of `completions --help`.
pub const COMPLETIONS: &str = "\
Examples:
  mkdir -p ~/.local/share/bash-completion/completions
  rfc1738 completions bash > ~/.local/share/bash-completion/completions/rfc1738
  rfc1738 completions fish > ~/.config/fish/completions/rfc1738.fish";

/// The examples at the end of `man --help`.
pub const MAN: &str = "\
Examples:
  rfc1738 man check | man -l -
      read the page of check
  rfc1738 man --dir ~/.local/share/man/man1
      every page, for `man rfc1738-check`";

/// The examples at the end of `examples --help`.
pub const EXAMPLES: &str = "\
Examples:
  rfc1738 examples
      the RFC's example URLs explained, counter-examples' errors
  rfc1738
      the same (counter-examples with their errors)";

/// The EXIT STATUS of a page: what 0, 1 and 2 mean for `name` (the
/// command's own name for its page).
fn exit_status(name: &str) -> &'static str {
    match name {
        "same" => "0: the two URLs are equivalent. 1: they are not, or one is not a URL (the reason on stderr). 2: a usage error.",
        "lint" => "0: nothing was found. 1: a finding (a security warning, an accepted deviation or an invalid URL). 2: a usage or I/O error.",
        "fetch" => "0: retrieved. 1: refused before connecting (a §6 risk, an unsupported or invalid URL, a redirect to another scheme). 2: any other failure (network, server, I/O, usage).",
        "serve" | "man" | "completions" | "examples" => "0: success. 2: a usage or I/O error.",
        "relative" => "0: a reference was written. 1: a URL is invalid, or the base has no hierarchical path. 2: a usage or I/O error.",
        "resolve" => "0: every reference resolved. 1: some did not (or the base is invalid). 2: a usage or I/O error.",
        "extract" => "0: every URL found is valid (or none was found). 1: one is not. 2: a usage or I/O error.",
        _ => "0: every input was valid. 1: some input was invalid. 2: a usage or I/O error (a file that cannot be read, a bad option).",
    }
}

/// The ENVIRONMENT of a page.
fn environment(name: &str) -> Vec<(&'static str, &'static str)> {
    let mut vars = vec![
        ("NO_COLOR", "set to anything: no colour, even on a terminal (unless --color always)."),
        ("CLICOLOR_FORCE", "set: colour even when the output is not a terminal (unless --color never)."),
    ];
    if name == "check" {
        vars.push((
            "RFC1738_NO_MMAP",
            "set to 1: read a named file instead of mapping it (for a file another program may shorten meanwhile).",
        ));
    }
    if name == "fetch" {
        vars.push(("NNTPSERVER", "the news server for news: URLs, when --news-server is not given."));
        vars.push((
            "EMAIL",
            "the password of an anonymous ftp login (else $USER@localhost, or anonymous@localhost).",
        ));
    }
    vars
}

/// A line of text made safe for roff: backslashes doubled, a leading `.`
/// or `'` guarded, `-` written as a minus.
fn roff(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    if escaped.starts_with(['.', '\'']) {
        format!("\\&{escaped}")
    } else {
        escaped
    }
}

/// Writes a manual page: clap_mangen's sections (name, synopsis,
/// description, options, subcommands), then EXAMPLES (from the examples
/// at the end of `--help`), EXIT STATUS and ENVIRONMENT, then VERSION.
pub fn render_page(cmd: &clap::Command, w: &mut dyn Write) -> io::Result<()> {
    let page = clap_mangen::Man::new(cmd.clone());
    page.render_title(w)?;
    page.render_name_section(w)?;
    page.render_synopsis_section(w)?;
    page.render_description_section(w)?;
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        page.render_options_section(w)?;
    }
    if cmd.get_subcommands().any(|s| !s.is_hide_set()) {
        page.render_subcommands_section(w)?;
    }
    if let Some(after) = cmd.get_after_help() {
        writeln!(w, ".SH EXAMPLES")?;
        writeln!(w, ".nf")?;
        for line in after.to_string().lines().filter(|l| !l.starts_with("Examples:")) {
            // A command at the margin, what it gives indented below it.
            writeln!(w, "{}", roff(line.strip_prefix("  ").unwrap_or(line)))?;
        }
        writeln!(w, ".fi")?;
    }
    let name = cmd.get_name();
    writeln!(w, ".SH \"EXIT STATUS\"")?;
    writeln!(w, "{}", roff(exit_status(name)))?;
    writeln!(w, ".SH ENVIRONMENT")?;
    for (var, meaning) in environment(name) {
        writeln!(w, ".TP\n\\fB{var}\\fR\n{}", roff(meaning))?;
    }
    if cmd.get_version().is_some() {
        page.render_version_section(w)?;
    }
    Ok(())
}

/// Writes the page of `cmd` and of each of its subcommands into `dir`, as
/// `rfc1738.1`, `rfc1738-parse.1`, ...
pub fn write_pages(cmd: &clap::Command, dir: &std::path::Path) -> io::Result<()> {
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        write_pages(sub, dir)?;
    }
    let path = dir.join(clap_mangen::Man::new(cmd.clone()).get_filename());
    let mut page = Vec::new();
    render_page(cmd, &mut page)?;
    // The old page is replaced only by a complete new one: written beside
    // it, then renamed over it.
    let failed = |e: &dyn std::fmt::Display| io::Error::other(format!("{}: {e}", path.display()));
    let mut pending = match crate::output::Pending::replacing(&path) {
        Ok(p) => p,
        Err(crate::output::OutputError::NotRegular(_)) => return Err(failed(&"not a regular file")),
        Err(e) => return Err(io::Error::other(e.to_string())),
    };
    pending.file().write_all(&page).map_err(|e| failed(&e))?;
    pending.commit().map_err(|e| io::Error::other(e.to_string()))
}

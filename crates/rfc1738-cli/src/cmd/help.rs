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
        "mirror" => "0: every URL was archived whole. 1: some URL was refused before connecting (§6, out of the schemes archived), failed, or was cut short by a limit; the run went on past it. 2: a usage or I/O error (a WARC file that exists or cannot be written).",
        "serve" | "man" | "completions" | "examples" => "0: success. 2: a usage or I/O error.",
        "rfc1738" => "Each subcommand's page says what its status means. Most: 0 when every input was valid, 1 when some input was invalid, 2 on a usage or I/O error. lint: 1 when anything was found. same: 1 when the URLs are not equivalent. fetch: 1 when refused before connecting, 2 on any other failure. With no subcommand (the RFC's examples): 0.",
        "relative" => "0: a reference was written. 1: a URL is invalid, or the base has no hierarchical path. 2: a usage or I/O error.",
        "resolve" => "0: every reference resolved. 1: some did not (or the base is invalid). 2: a usage or I/O error.",
        "extract" => "0: every URL found is valid (or none was found). 1: one is not. 2: a usage or I/O error.",
        _ => "0: every input was valid. 1: some input was invalid. 2: a usage or I/O error (a file that cannot be read, a bad option).",
    }
}

/// The DESCRIPTION of a page: what the subcommand does and how it reads,
/// beyond the NAME line; the GUIDE has the rest.
fn description(name: &str) -> &'static str {
    match name {
        "rfc1738" => "rfc1738 parses, checks and explains URLs exactly as RFC 1738 (1994) defines them: its grammar (§5), each scheme's parts and meaning (§3), its security considerations (§6). Strict by default; --lenient accepts the deviations real URLs have, each reported as a warning. Every subcommand that reads URLs takes them as arguments, from --url-file, or one per line from stdin; - is stdin; compressed input is read as its text. Diagnostics have one shape: rfc1738: FILE:LINE:COLUMN: LABEL[kind]: message (in rule), then the input and a caret.",
        "parse" => "Reads each URL and writes its parts: the common ones (scheme, user, password, host, port, url-path) and its scheme's own (an ftp URL's directories and name, a gopher URL's type and selector, ...). --json writes the record the library, the Python package and the API share; --get writes one line per URL from a template of parts; --format csv|tsv a table.",
        "check" => "Validates one URL per line of each file and ends with a summary: how many were valid, by scheme, and the most frequent errors by kind and rule. It streams, on every core, in input order. --input-format clf reads web server logs (Common, Combined, or any format string) and checks the request and referer of each line.",
        "explain" => "Says what a client does with each URL, step by step as RFC 1738 §3 describes it: the connection, then the ftp commands, the gopher request line, the http request, the news group or article.",
        "extract" => "Finds the URLs in free text as the RFC's Appendix suggests: inside <URL:...> or <...> wrappers (which may break across lines), and bare; trailing punctuation is left out. Each URL found is checked.",
        "normalize" => "Writes the normal form of each URL: the scheme and host in lower case, escapes of characters that need none decoded, the default port dropped; what RFC 1738 makes equivalent.",
        "same" => "Says whether two URLs are equivalent: whether their normal forms are equal. The exit status says it; -q prints nothing.",
        "lint" => "Reports the findings of each URL, one per line: the security risks of §6 (and others of the same kind), the deviations a lenient parse accepted, and the lines that are not URLs. A finding makes no URL invalid: the RFC allows each. FINDINGS lists their kinds.",
        "set" => "Changes parts of each URL and writes it again through the library's builders, each value encoded for its part (trurl's --set). With no URL at all, builds one from the parts.",
        "resolve" => "Resolves relative references against a base URL by RFC 1808, and checks that each result is an RFC 1738 URL.",
        "relative" => "Writes the shortest reference that resolves, by RFC 1808, from the base to the target.",
        "examples" => "Explains the example URLs of the RFC text, and shows where its counter-examples fail. The default when no subcommand is given.",
        "fetch" => "Retrieves what a URL locates by the access algorithm of its scheme (ftp, gopher, http, file, news, nntp), and refuses before connecting what §6 warns of: a decoded CR, LF or NUL bound for a protocol line, a privileged port that is not the scheme's, a redirect to another scheme.",
        "serve" => "Serves the explorer page (a URL's parts drawn, explained, checked) and a JSON API on a local port, loopback by default.",
        "completions" => "Writes the completion script of a shell: files where a file is read, the presets of --log-format, the part names of set, the subcommands of man.",
        "man" => "Writes the manual page of the command or of a subcommand, in roff, or every page into a directory.",
        _ => "",
    }
}

/// The findings `lint` reports: each kind and when.
const FINDINGS: [(&str, &str); 30] = [
    (
        "foreign-port",
        "a port below 1024 that is not the scheme's: another protocol's server reads the request (§6)",
    ),
    ("non-default-port", "a port that is not the scheme's (§6)"),
    ("line-injection", "%0D, %0A or %00 in a part sent on a protocol line; %09 adding a gopher field (§6)"),
    ("password", "a password in the URL (§6)"),
    ("hostnumber-out-of-range", "a hostnumber part above 255"),
    ("hostnumber-leading-zero", "a hostnumber part with a leading zero, octal to inet_aton"),
    ("misleading-user", "a user name that looks like a host"),
    ("directory-escape", "an ftp or file segment .., or one that decodes to / (§3.2.2)"),
    ("internal-host", "localhost, a loopback, private or link-local address"),
    ("remote-file", "a file URL on another host (§3.10)"),
    ("option-injection", "a telnet user starting with - (§3.8)"),
    ("scheme-start", "a scheme starting with a digit, +, - or ."),
    ("port-leading-zero", "a port with a leading zero"),
    ("port-out-of-range", "a port above 65535"),
    ("mailto-headers", "? or & in a mailto address, read as headers by RFC 6068"),
    ("fragment-authority", "a fragment that holds an authority (#@host)"),
    ("device-file", "a file path under /dev, /proc or /sys"),
    ("unc-path", "file:////server/share, a network share on Windows"),
    ("gopher-form", "a gopher+ string with %0D%0A: a filled-in ASK form"),
    ("gopher-search-delimiter", "? or / in a gopher search, where generic readers split"),
    ("unsafe-char", "with --lenient: an unsafe character not encoded (§2.2)"),
    ("underscore-in-host", "with --lenient: _ in a host name (§3.1)"),
    ("trailing-dot", "with --lenient: a host ending in a dot"),
    ("empty-port", "with --lenient: a : with no port"),
    ("disallowed-user", "with --lenient: a user name where the scheme has none (http)"),
    ("reserved-in-search", "with --lenient: / or ? in an http or wais search"),
    ("bare-percent", "with --lenient: a % that starts no escape"),
    ("uppercase-scheme", "a scheme with upper-case letters, which §2.1 asks readers to accept"),
    ("more", "more findings than a URL keeps: this one says how many"),
    (
        "error[KIND]",
        "the line is not a URL: the parse's error kind (unsafe, invalid-typecode, ...) and its rule",
    ),
];

/// The SEE ALSO of a page: the command's page, the pages near it, the RFCs.
fn see_also(name: &str, subcommands: &[&str]) -> String {
    let page = |n: &str| {
        if n == "rfc1738" {
            "\\fBrfc1738\\fR(1)".to_string()
        } else {
            format!("\\fBrfc1738\\-{n}\\fR(1)")
        }
    };
    let near: &[&str] = match name {
        "rfc1738" => subcommands,
        "parse" => &["check", "explain", "set"],
        "check" => &["lint", "parse", "extract"],
        "lint" => &["check", "fetch"],
        "normalize" | "same" => &["normalize", "same"],
        "resolve" | "relative" => &["resolve", "relative"],
        "set" => &["parse"],
        "explain" | "fetch" => &["explain", "fetch"],
        "completions" | "man" => &["completions", "man"],
        _ => &["parse", "check"],
    };
    let mut pages: Vec<String> = if name == "rfc1738" { Vec::new() } else { vec![page("rfc1738")] };
    pages.extend(near.iter().filter(|n| **n != name).map(|n| page(n)));
    let rfcs = if matches!(name, "resolve" | "relative") { "RFC 1738, RFC 1808" } else { "RFC 1738" };
    format!("{}\n.PP\n{rfcs}; the guide, docs/GUIDE.md.", pages.join(", "))
}

/// The ENVIRONMENT of a page.
fn environment(name: &str) -> Vec<(&'static str, &'static str)> {
    let mut vars = vec![
        ("NO_COLOR", "set to anything: no colour, even on a terminal (unless --color always)."),
        ("CLICOLOR_FORCE", "set: colour even when the output is not a terminal (unless --color never)."),
    ];
    if name == "fetch" || name == "mirror" {
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
    // clap_mangen's DESCRIPTION repeats the NAME line: a page's own.
    let name = cmd.get_name();
    writeln!(w, ".SH DESCRIPTION\n{}", roff(description(name)))?;
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
    if name == "lint" {
        writeln!(w, ".SH FINDINGS")?;
        for (kind, when) in FINDINGS {
            writeln!(w, ".TP\n\\fB{}\\fR\n{}", roff(kind), roff(when))?;
        }
    }
    writeln!(w, ".SH \"EXIT STATUS\"")?;
    writeln!(w, "{}", roff(exit_status(name)))?;
    writeln!(w, ".SH ENVIRONMENT")?;
    for (var, meaning) in environment(name) {
        writeln!(w, ".TP\n\\fB{var}\\fR\n{}", roff(meaning))?;
    }
    let subcommands: Vec<&str> =
        cmd.get_subcommands().filter(|s| !s.is_hide_set()).map(clap::Command::get_name).collect();
    writeln!(w, ".SH \"SEE ALSO\"\n{}", see_also(name, &subcommands))?;
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

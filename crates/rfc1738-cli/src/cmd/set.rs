//! `rfc1738 set URL PART=VALUE...`: each URL with some parts changed,
//! written through the library's builders (trurl's `--set`).

use super::{for_each_input, report_in, warn, Inputs};
use crate::input::DEFAULT_MAX_LEN;
use crate::outcome::{options, Note};
use crate::status;
use rfc1738_report::set::set;
use rfc1738_report::template::Template;
use serde_json::json;
use std::io::{self, BufWriter, IsTerminal, Write};

/// Arguments of `set`.
#[derive(clap::Args)]
pub struct SetArgs {
    /// How compressed input is read.
    #[command(flatten)]
    pub reading: crate::flags::Reading,
    /// Write an empty line for a URL that cannot be changed.
    ///
    /// Write an empty line for a URL that is invalid or cannot take the
    /// changes (its diagnostic on stderr), so that output line N is input line N.
    #[arg(long)]
    keep_lines: bool,
    /// Write one JSON object per input, in input order.
    ///
    /// `{input, valid, url, error, warnings}`; `url` the changed URL or null, `error` the parse's
    /// (`offset`, `kind`, `rule`, `message`) or the change's (`part`, `message`).
    #[arg(long, conflicts_with = "get")]
    json: bool,
    /// Print nothing: the exit status says whether every input was valid.
    #[arg(long, short)]
    quiet: bool,
    /// Write each changed URL through a template of `parse --get` instead of whole.
    ///
    /// `set URL host=h --get '{host}:{effective_port}'`.
    #[arg(long, value_name = "TEMPLATE")]
    get: Option<String>,
    /// Accept the deviations real-world URLs have, as warnings.
    ///
    /// Read each URL accepting the deviations real-world URLs have, each
    /// reported on stderr as a warning; the URL written is strict (the
    /// builders encode what the input left bare).
    #[arg(long)]
    lenient: bool,
    /// The longest input line read from stdin, in bytes.
    #[arg(long, default_value_t = DEFAULT_MAX_LEN, value_parser = crate::flags::max_len)]
    max_len: usize,
    /// Read the URLs to change from FILE, one per line (`-`: stdin).
    ///
    /// An empty line is skipped. Every argument is then a change.
    #[arg(long, value_name = "FILE")]
    url_file: Vec<String>,
    /// The URLs to change (`-`: one per line from stdin; none and no
    /// --url-file: stdin), then the changes: a part name of `parse --get` (scheme,
    /// user, password, host, port, url_path, ftp.cwd, ftp.name,
    /// ftp.typecode, http.path, http.search, gopher.type,
    /// gopher.selector, gopher.search, gopher.plus, mailto.address,
    /// news.group, news.article, nntp.group, nntp.article, wais.database,
    /// wais.search, wais.wtype, wais.wpath, file.path, prospero.hsoname,
    /// other.scheme_specific_part, fragment), `=`, and the value, decoded:
    /// it is encoded for its part. An empty value removes an optional part
    /// (`fragment=` the fragment; without it the fragment is kept).
    /// `scheme=` keeps the rest of the URL as written: it must be valid in
    /// the new scheme (the login of `//` schemes carries over). trurl's
    /// words: `path` (http.path, file.path, or the url_path of other `//`
    /// schemes), `query` (the search of http, gopher, wais), `fragment`.
    /// With no URL at all (stdin a terminal or empty), the URL is built
    /// from the parts: `set scheme=http host=a.dom`.
    #[arg(value_name = "URL] [PART=VALUE", required = true)]
    args: Vec<String>,
}

/// The examples at the end of `set --help`.
pub const EXAMPLES: &str = "\
Examples:
  rfc1738 set ftp://h.dom/pub/x 'user=me@home' 'ftp.name=a;b'
      => ftp://me%40home@h.dom/pub/a%3Bb
  rfc1738 set 'http://h.dom:8080/a?q' port= 'http.search=x y'
      => http://h.dom/a?x%20y
  rfc1738 set scheme=http host=a.dom path=x query=y < /dev/null
      => http://a.dom/x?y
  rfc1738 set --keep-lines host=mirror.dom < urls.txt
      every URL moved to another host (an error if it has none)";

/// Whether the first argument of `set` is a change rather than a URL: a
/// part name, `=`, a value. A URL starts with `scheme ":"` (§2.1), and no
/// part name holds a `:`, so `host=a.dom` is a change and
/// `http://a.dom/?x=y` a URL.
fn is_change(arg: &str) -> bool {
    arg.split_once('=').is_some_and(|(part, _)| {
        rfc1738_report::set::is_part(part) && crate::outcome::scheme_bytes(arg.as_bytes()).is_none()
    })
}

/// Whether an argument after the first is one more URL: `-`, or a text
/// that starts with `scheme ":"`. The first that is not starts the changes.
fn is_url(arg: &str) -> bool {
    arg == "-" || crate::outcome::scheme_bytes(arg.as_bytes()).is_some()
}

/// Runs `set`: the changed URL on stdout, or the reason (naming the part)
/// on stderr; exit 1 when a URL could not be changed, 2 on a usage error.
pub fn run(args: &SetArgs) -> io::Result<u8> {
    super::set_quiet(args.quiet);
    // The URLs come first, then the changes: the first argument that is
    // a change ends the URLs. With none, stdin is read, as everywhere.
    let first_change = match args.args.first() {
        _ if !args.url_file.is_empty() => 0,
        Some(first) if is_change(first) => 0,
        _ => 1 + args.args[1..].iter().take_while(|a| is_url(a)).count(),
    };
    let (urls, change_args) = args.args.split_at(first_change);
    let mut changes = Vec::new();
    for c in change_args {
        let Some((part, value)) = c.split_once('=') else {
            eprintln!("rfc1738: set: {:?} is not PART=VALUE", crate::diag::escape(c.as_bytes()));
            return Ok(status::ERROR);
        };
        if !rfc1738_report::set::is_part(part) {
            let part = crate::diag::escape(part.as_bytes());
            eprintln!("rfc1738: set: {part:?} is a part of no URL (see `rfc1738 set --help`)");
            return Ok(status::ERROR);
        }
        changes.push((part, value.as_bytes()));
    }
    if changes.is_empty() {
        eprintln!("rfc1738: set: no PART=VALUE given (see `rfc1738 set --help`)");
        return Ok(status::ERROR);
    }
    let template = match args.get.as_deref().map(Template::parse).transpose() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("rfc1738: --get: {e}");
            anstream::eprint!("{}", crate::diag::caret(args.get.as_deref().unwrap_or(""), e.offset));
            return Ok(status::ERROR);
        }
    };
    let no_url = urls.is_empty() && args.url_file.is_empty();
    if no_url && io::stdin().is_terminal() {
        return built(args, &changes, template.as_ref());
    }
    let mut out = BufWriter::new(super::stdout());
    let mut failed = 0u64;
    let keep_empty = args.keep_lines || args.json;
    let inputs = Inputs { urls, files: &args.url_file, max_len: args.max_len, keep_empty, quiet: args.quiet };
    let run = for_each_input(&inputs, &mut out, |out, at, line| {
        let (input, parsed) = super::parse_line(line, &options(args.lenient), args.max_len);
        let shown = String::from_utf8_lossy(&input);
        let (url, warnings) = match parsed {
            Ok((url, warnings)) => (url, warnings),
            Err(p) => {
                failed += 1;
                if args.json {
                    let record = json!({"input": shown, "valid": false, "url": null, "error": p.to_json(), "warnings": []});
                    serde_json::to_writer(&mut *out, &at.locate(super::with_columns(&input, record)))?;
                    return writeln!(out);
                }
                if args.keep_lines {
                    writeln!(out)?;
                }
                out.flush()?;
                return report_in(&mut super::diagnostics(), at, &input, &p);
            }
        };
        let warnings: Vec<_> =
            warnings.into_iter().filter(|w| w.kind() != rfc1738::WarningKind::UppercaseScheme).collect();
        let result = set(&url, &changes);
        if args.json {
            failed += u64::from(result.is_err());
            let notes: Vec<_> = warnings.iter().map(|w| Note::from(w).to_json()).collect();
            let record = match &result {
                Ok(new) => {
                    json!({"input": shown, "valid": true, "url": new.as_str(), "error": null, "warnings": notes})
                }
                Err(e) => json!({"input": shown, "valid": true, "url": null,
                       "error": {"part": e.part(), "kind": e.kind(), "message": e.message()}, "warnings": notes}),
            };
            serde_json::to_writer(&mut *out, &at.locate(super::with_columns(&input, record)))?;
            return writeln!(out);
        }
        if !warnings.is_empty() {
            out.flush()?;
            let mut err = super::diagnostics();
            warnings.iter().try_for_each(|w| warn(&mut err, at, &input, w))?;
        }
        match result {
            Ok(new) => match &template {
                Some(t) => {
                    let mut line = Vec::new();
                    t.render_url(&mut line, new.as_str().as_bytes(), &new);
                    line.push(b'\n');
                    out.write_all(&line)
                }
                None => writeln!(out, "{new}"),
            },
            Err(e) => {
                failed += 1;
                if args.keep_lines {
                    writeln!(out)?;
                }
                out.flush()?;
                let url = format!("{}:{} ({})", at.file(), at.line, crate::diag::escape(&input));
                change_error(&mut super::diagnostics(), &url, &e, change_args, first_change)
            }
        }
    })?;
    out.flush()?;
    if no_url && run.inputs == 0 && run.all_read {
        // Nothing on stdin either: the URL is built from the parts alone.
        drop(out);
        return built(args, &changes, template.as_ref());
    }
    run.end(failed, "URLs not set")
}

/// Says why a URL could not take the changes, in the one shape, placed
/// at the change that failed: `rfc1738: <args>:N:COLUMN: error[kind]:
/// cannot set URL: message (in part)`, then the change and a caret under
/// the value (under the part's name when the name is at fault). `url`
/// names the URL and where it was read; the changes are the arguments
/// from number `first + 1` on.
fn change_error(
    err: &mut impl Write,
    url: &str,
    e: &rfc1738_report::set::SetError,
    changes: &[String],
    first: usize,
) -> io::Result<()> {
    // The change that names the part, or names it by its short name
    // (`path` for `http.path`); the first change when none does.
    let part = e.part();
    let found = changes.iter().position(|c| {
        let name = c.split_once('=').map_or(c.as_str(), |(n, _)| n);
        name == part || name.rsplit('.').next() == Some(part)
    });
    let k = found.unwrap_or(0);
    let change = changes.get(k).map_or("", String::as_str);
    let name_len = change.find('=').unwrap_or(0);
    let offset =
        if e.is_about_the_name() || found.is_none() { 0 } else { name_len + 1 + e.offset().unwrap_or(0) };
    let message = format!("cannot set {url}: {}", e.message());
    super::argument_error(err, (first + k + 1) as u64, change.as_bytes(), offset, (e.kind(), &message, part))
}

/// A URL built from the changes alone (trurl's `--set` with no URL):
/// written as `set` writes a changed one, or the reason on stderr.
fn built(args: &SetArgs, changes: &[(&str, &[u8])], template: Option<&Template>) -> io::Result<u8> {
    let mut out = super::stdout();
    let result = rfc1738_report::set::build_from(changes);
    if args.json {
        let record = match &result {
            Ok(new) => {
                json!({"input": null, "valid": true, "url": new.as_str(), "error": null, "warnings": []})
            }
            Err(e) => json!({"input": null, "valid": true, "url": null,
                "error": {"part": e.part(), "kind": e.kind(), "message": e.message()}, "warnings": []}),
        };
        serde_json::to_writer(&mut out, &record)?;
        writeln!(out)?;
        return Ok(if result.is_ok() { status::OK } else { status::INVALID });
    }
    match result {
        Ok(new) => {
            match template {
                Some(t) => {
                    let mut line = Vec::new();
                    t.render_url(&mut line, new.as_str().as_bytes(), &new);
                    line.push(b'\n');
                    out.write_all(&line)?;
                }
                None => writeln!(out, "{new}")?,
            }
            Ok(status::OK)
        }
        Err(e) => {
            change_error(&mut super::diagnostics(), "a URL from the parts alone", &e, &args.args, 0)?;
            Ok(status::INVALID)
        }
    }
}

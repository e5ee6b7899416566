//! `rfc1738 set URL PART=VALUE...`: each URL with some parts changed,
//! written through the library's builders (trurl's `--set`).

use super::{for_each_input, report_in, warn, Inputs};
use crate::input::DEFAULT_MAX_LEN;
use crate::outcome::{options, Note};
use crate::status;
use rfc1738_report::set::set;
use rfc1738_report::template::Template;
use serde_json::json;
use std::io::{self, BufWriter, Write};

/// Arguments of `set`.
#[derive(clap::Args)]
pub struct SetArgs {
    /// How compressed input is read.
    #[command(flatten)]
    pub reading: crate::flags::Reading,
    /// Write an empty line for a URL that is invalid or cannot take the
    /// changes (its diagnostic on stderr), so that output line N is input line N.
    #[arg(long)]
    keep_lines: bool,
    /// Write one JSON object per input, in input order: `{input, valid,
    /// url, error, warnings}`; `url` the changed URL or null, `error` the
    /// parse's (`offset`, `kind`, `rule`, `message`) or the change's
    /// (`part`, `message`).
    #[arg(long, conflicts_with = "get")]
    json: bool,
    /// Write each changed URL through a template of `parse --get` instead
    /// of whole: `set URL host=h --get '{host}:{effective_port}'`.
    #[arg(long, value_name = "TEMPLATE")]
    get: Option<String>,
    /// Read each URL accepting the deviations real-world URLs have, each
    /// reported on stderr as a warning; the URL written is strict (the
    /// builders encode what the input left bare).
    #[arg(long)]
    lenient: bool,
    /// The longest input line read from stdin, in bytes.
    #[arg(long, default_value_t = DEFAULT_MAX_LEN, value_parser = crate::flags::max_len)]
    max_len: usize,
    /// Read the URLs to change from FILE, one per line (`-`: stdin); an
    /// empty line is skipped. Every argument is then a change.
    #[arg(long, value_name = "FILE")]
    url_file: Vec<String>,
    /// The URL to change (`-`: one per line from stdin), unless --url-file
    /// gives them; then the changes: a part name of `parse --get` (scheme,
    /// user, password, host, port, url_path, ftp.cwd, ftp.name,
    /// ftp.typecode, http.path, http.search, gopher.type,
    /// gopher.selector, gopher.search, gopher.plus, mailto.address,
    /// news.group, news.article, nntp.group, nntp.article, wais.database,
    /// wais.search, wais.wtype, wais.wpath, file.path, prospero.hsoname,
    /// other.scheme_specific_part, fragment), `=`, and the value, decoded:
    /// it is encoded for its part. An empty value removes an optional part
    /// (`fragment=` the fragment; without it the fragment is kept).
    /// `scheme=` keeps the rest of the URL as written: it must be valid in
    /// the new scheme (the login of `//` schemes carries over).
    #[arg(value_name = "URL] [PART=VALUE", required = true)]
    args: Vec<String>,
}

/// The examples at the end of `set --help`.
pub const EXAMPLES: &str = "\
Examples:
  rfc1738 set ftp://h.dom/pub/x 'user=me@home' 'ftp.name=a;b'   => ftp://me%40home@h.dom/pub/a%3Bb
  rfc1738 set 'http://h.dom:8080/a?q' port= 'http.search=x y'   => http://h.dom/a?x%20y
  rfc1738 set http://h.dom/a scheme=ftp --get '{ftp.name}'      => a
  rfc1738 set --keep-lines --url-file urls.txt host=mirror.dom  every URL moved to another host";

/// Runs `set`: the changed URL on stdout, or the reason (naming the part)
/// on stderr; exit 1 when a URL could not be changed, 2 on a usage error.
pub fn run(args: &SetArgs) -> io::Result<u8> {
    let (urls, change_args) =
        if args.url_file.is_empty() { args.args.split_at(1) } else { args.args.split_at(0) };
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
    let mut out = BufWriter::new(io::stdout().lock());
    let mut failed = 0u64;
    let keep_empty = args.keep_lines || args.json;
    let inputs = Inputs { urls, files: &args.url_file, max_len: args.max_len, keep_empty };
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
                return report_in(&mut anstream::stderr().lock(), at, &input, &p);
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
                       "error": {"part": e.part(), "message": e.to_string()}, "warnings": notes}),
            };
            serde_json::to_writer(&mut *out, &at.locate(super::with_columns(&input, record)))?;
            return writeln!(out);
        }
        if !warnings.is_empty() {
            out.flush()?;
            let mut err = anstream::stderr().lock();
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
                let place = at
                    .name
                    .map(|name| format!("{}:{}: ", super::shown_name(name), at.line))
                    .unwrap_or_default();
                let shown = crate::diag::escape(&input);
                writeln!(anstream::stderr().lock(), "rfc1738: {place}cannot set {shown}: {e}")
            }
        }
    })?;
    out.flush()?;
    run.end(failed, "URLs not set")
}

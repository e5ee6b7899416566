//! `rfc1738 set URL PART=VALUE...`: each URL with some parts changed,
//! written through the library's builders (trurl's `--set`).

use super::{for_each_input, report_in, warn};
use crate::input::{Line, DEFAULT_MAX_LEN};
use crate::outcome::{options, parse_bytes_with, Problem};
use crate::status;
use rfc1738_report::set::set;
use std::io::{self, BufWriter, Write};

/// Arguments of `set`.
#[derive(clap::Args)]
pub struct SetArgs {
    /// Write an empty line for a URL that is invalid or cannot take the
    /// changes (its diagnostic on stderr), so that output line N is input line N.
    #[arg(long)]
    keep_lines: bool,
    /// Read each URL accepting the deviations real-world URLs have, each
    /// reported on stderr as a warning; the URL written is strict (the
    /// builders encode what the input left bare).
    #[arg(long)]
    lenient: bool,
    /// The longest input line read from stdin, in bytes.
    #[arg(long, default_value_t = DEFAULT_MAX_LEN, value_parser = crate::flags::max_len)]
    max_len: usize,
    /// The URL to change; `-` for one per line from stdin.
    url: String,
    /// The changes: a part name of `parse --get` (user, password, host,
    /// port, url_path, ftp.cwd, ftp.name, ftp.typecode, http.path,
    /// http.search, gopher.type, gopher.selector, gopher.search,
    /// gopher.plus, mailto.address, news.group, news.article, nntp.group,
    /// nntp.article, wais.database, wais.search, wais.wtype, wais.wpath,
    /// file.path, prospero.hsoname), `=`, and the value, decoded: it is
    /// encoded for its part. An empty value removes an optional part.
    #[arg(value_name = "PART=VALUE", required = true)]
    changes: Vec<String>,
}

/// The examples at the end of `set --help`.
pub const EXAMPLES: &str = "\
Examples:
  rfc1738 set ftp://h.dom/pub/x 'user=me@home' 'ftp.name=a;b'   ftp://me%40home@h.dom/pub/a%3Bb
  rfc1738 set 'http://h.dom:8080/a?q' port= 'http.search=x y'   http://h.dom/a?x%20y
  rfc1738 set --keep-lines - host=mirror.dom < urls.txt         every URL moved to another host";

/// Runs `set`: the changed URL on stdout, or the reason (naming the part)
/// on stderr; exit 1 when a URL could not be changed, 2 on a usage error.
pub fn run(args: &SetArgs) -> io::Result<u8> {
    let mut changes = Vec::new();
    for c in &args.changes {
        let Some((part, value)) = c.split_once('=') else {
            eprintln!("rfc1738: set: {c:?} is not PART=VALUE");
            return Ok(status::ERROR);
        };
        if !rfc1738_report::set::is_part(part) {
            eprintln!("rfc1738: set: {part:?} is a part of no URL (see `rfc1738 set --help`)");
            return Ok(status::ERROR);
        }
        changes.push((part, value.as_bytes()));
    }
    let urls = if args.url == "-" { Vec::new() } else { vec![args.url.clone()] };
    let mut out = BufWriter::new(io::stdout().lock());
    let mut failed = 0u64;
    for_each_input(&urls, args.max_len, &mut out, |out, at, line| {
        let (input, parsed) = match line {
            Line::Text(t) => {
                let r = parse_bytes_with(&t, &options(args.lenient));
                (t, r)
            }
            Line::TooLong(n) => (Vec::new(), Err(Problem::too_long(n, args.max_len))),
        };
        let result = match parsed {
            Ok((url, warnings)) => {
                let mut err = anstream::stderr().lock();
                for w in warnings.iter().filter(|w| w.kind() != rfc1738::WarningKind::UppercaseScheme) {
                    warn(&mut err, at, &input, w)?;
                }
                set(&url, &changes).map_err(|e| e.to_string())
            }
            Err(p) => {
                failed += 1;
                if args.keep_lines {
                    writeln!(out)?;
                }
                out.flush()?;
                return report_in(&mut anstream::stderr().lock(), at, &input, &p);
            }
        };
        match result {
            Ok(url) => writeln!(out, "{url}"),
            Err(e) => {
                failed += 1;
                if args.keep_lines {
                    writeln!(out)?;
                }
                out.flush()?;
                let place = at.name.map(|name| format!("{name}:{}: ", at.line)).unwrap_or_default();
                let shown = String::from_utf8_lossy(&input);
                writeln!(anstream::stderr().lock(), "rfc1738: {place}cannot set {shown}: {e}")
            }
        }
    })?;
    out.flush()?;
    Ok(if failed == 0 { status::OK } else { status::INVALID })
}

//! Gopher access as RFC 1738 §3.4 says, over RFC 1436 and Gopher+.

use crate::fetched::{Content, Fetched};
use crate::menu::{parse_item, MenuItem};
use crate::net::{connect, line_too_long, read_line, Budget};
use crate::plan::{Plan, Step};
use crate::target::GopherTarget;
use crate::{AccessError, Event, MenuOutput, Options, Trace};
use std::io::{BufRead, BufReader, Read, Write};

pub(crate) fn plan(t: &GopherTarget, plan: &mut Plan) {
    plan.push(Step::Connect { host: t.ep.host.clone(), port: t.ep.port });
    for line in request_lines(&t.request) {
        plan.send(line.to_vec());
    }
    if t.gtype == b'7' && !t.request.contains(&b'\t') {
        plan.note(
            "a type 7 search without a search string: a client would ask the user for one (RFC 1738 §3.4.2)",
        );
    }
    if t.plus {
        plan.note("the reply starts with a Gopher+ header line (+size, or -n and an error)");
    }
}

/// The request as lines: one, or several for a §3.4.9 form.
fn request_lines(request: &[u8]) -> Vec<&[u8]> {
    request.split(|&b| b == b'\n').map(|l| l.strip_suffix(b"\r").unwrap_or(l)).collect()
}

pub(crate) fn fetch(
    t: &GopherTarget,
    budget: &mut Budget<'_>,
    trace: &mut dyn Trace,
    out: &mut dyn Write,
) -> Result<Fetched, AccessError> {
    let mut stream = connect(&t.ep, budget, trace)?;
    for line in request_lines(&t.request) {
        trace.event(&Event::Sent(line));
    }
    stream.write_all(&[t.request.as_slice(), b"\r\n"].concat())?;
    let mut reader = BufReader::new(stream);
    let total = if t.plus { plus_header(&mut reader, budget.opts, trace)? } else { None };
    let mut body: Box<dyn BufRead> = match total {
        Some(n) => Box::new(reader.take(n)),
        None => Box::new(reader),
    };
    let menu = matches!(t.gtype, b'1' | b'7') && !t.plus;
    if !menu {
        let bytes = budget.copy(&mut body, out, total, trace)?;
        if let Some(announced) = total.filter(|&n| bytes < n) {
            return Err(AccessError::Truncated { got: bytes, announced });
        }
        return Ok(Fetched { bytes, content: Content::Data });
    }
    let (bytes, items) = copy_menu(&mut body, budget, trace, out)?;
    Ok(Fetched { bytes, content: Content::Menu { items } })
}

/// A menu (RFC 1436 §3.8), line by line, each line at most `max_line`
/// octets: written as it came (`MenuOutput::Raw`) or as items with their
/// URLs, each as soon as it is read. Memory holds one line, whatever the
/// size of the menu. The octets read and the items seen.
pub(crate) fn copy_menu(
    body: &mut dyn BufRead,
    budget: &mut Budget<'_>,
    trace: &mut dyn Trace,
    out: &mut dyn Write,
) -> Result<(u64, u64), AccessError> {
    let max_line = budget.opts.max_line;
    let raw = budget.opts.menus == MenuOutput::Raw;
    let (mut bytes, mut items) = (0u64, 0u64);
    let mut line = Vec::new();
    loop {
        line.clear();
        // The line, its CR and its LF.
        let n = body.take(max_line as u64 + 2).read_until(b'\n', &mut line)?;
        if n == 0 {
            return Ok((bytes, items));
        }
        if !line.ends_with(b"\n") && line.len() > max_line {
            return Err(line_too_long(max_line));
        }
        bytes += n as u64;
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        if text == b"." && !raw {
            return Ok((bytes, items));
        }
        let item = parse_item(text);
        items += u64::from(item.is_some());
        if raw {
            budget.write(out, &line, None, trace)?;
        } else if let Some(item) = item {
            budget.write(out, &item_line(&item), None, trace)?;
        }
    }
}

/// Gopher+: `+N` (N octets follow), `+-1` (up to a `.` line), `+-2` (up to
/// the close), or `-N` and an error message.
pub(crate) fn plus_header(
    reader: &mut dyn BufRead,
    opts: &Options,
    trace: &mut dyn Trace,
) -> Result<Option<u64>, AccessError> {
    let line = read_line(reader, opts.max_line)?
        .ok_or_else(|| AccessError::Protocol("empty gopher+ reply".into()))?;
    trace.event(&Event::Received(&line));
    match line.first() {
        Some(b'+') => Ok(std::str::from_utf8(&line[1..]).ok().and_then(|n| n.trim().parse::<u64>().ok())),
        Some(b'-') => {
            let mut message = String::new();
            reader.take(opts.max_header_bytes as u64).read_to_string(&mut message).ok();
            Err(AccessError::Refused {
                command: "gopher+ request".into(),
                reply: message.trim().replace("\r\n", " "),
            })
        }
        _ => Err(AccessError::Protocol(format!("not a gopher+ header: {}", String::from_utf8_lossy(&line)))),
    }
}

/// One item a line: type, TAB, display string, TAB, the item's URL. The
/// display string is the server's text: escaped for the terminal.
fn item_line(item: &MenuItem) -> Vec<u8> {
    let url = item.url().unwrap_or_default();
    let display = crate::plan::show(item.display.as_bytes()).replace('\t', "\\t");
    format!("{}\t{display}\t{url}\n", crate::plan::show(&[item.item_type])).into_bytes()
}

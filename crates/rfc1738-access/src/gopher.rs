//! Gopher access as RFC 1738 §3.4 says, over RFC 1436 and Gopher+.

use crate::net::{connect, read_line, Budget};
use crate::plan::{Plan, Step};
use crate::target::GopherTarget;
use crate::{AccessError, Content, Event, Fetched, MenuOutput, Trace};
use std::io::{BufRead, BufReader, Read, Write};

/// One item of a gopher menu (RFC 1436 §3.8): a type, a display string, and
/// where the item is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MenuItem {
    /// The gopher type character (`0` file, `1` menu, `7` search, `i` info...).
    pub item_type: u8,
    /// What the user sees.
    pub display: String,
    /// The selector, as octets.
    pub selector: Vec<u8>,
    /// The host of the item.
    pub host: String,
    /// The port of the item.
    pub port: u16,
    /// Whether the item is tagged as a Gopher+ item (`+` or `?`, §3.4.4).
    pub plus: bool,
}

impl MenuItem {
    /// The item's own gopher URL (§3.4.1), or `None` for an item that
    /// locates nothing (`i` information lines, `3` errors).
    ///
    /// # Examples
    /// ```
    /// let menu = rfc1738_access::parse_menu(b"0About it\t/about.txt\tgopher.example\t70\r\n.\r\n");
    /// assert_eq!(menu[0].url().as_deref(), Some("gopher://gopher.example/0/about.txt"));
    /// ```
    #[must_use]
    pub fn url(&self) -> Option<String> {
        if matches!(self.item_type, b'i' | b'3') || self.host.is_empty() {
            return None;
        }
        let port = if self.port == 70 { String::new() } else { format!(":{}", self.port) };
        let mut url = format!("gopher://{}{port}/", self.host);
        encode_xchars(&[self.item_type], &mut url);
        encode_xchars(&self.selector, &mut url);
        Some(url)
    }
}

/// §3.4: within the gopher path nothing is reserved; unsafe and
/// non-ASCII octets (and `%`) are encoded.
fn encode_xchars(octets: &[u8], out: &mut String) {
    for &b in octets {
        if b.is_ascii_alphanumeric() || b"$-_.+!*'(),;/?:@&=".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
}

/// Reads a gopher menu: one item a line, TAB-separated fields, up to a line
/// holding only `.`. Lines with too few fields are skipped.
///
/// # Examples
/// ```
/// let items = rfc1738_access::parse_menu(b"1Docs\t/docs\th\t7070\t+\r\n.\r\n");
/// assert_eq!((items[0].item_type, items[0].port, items[0].plus), (b'1', 7070, true));
/// ```
#[must_use]
pub fn parse_menu(menu: &[u8]) -> Vec<MenuItem> {
    menu.split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .take_while(|l| *l != b".")
        .filter_map(parse_item)
        .collect()
}

fn parse_item(line: &[u8]) -> Option<MenuItem> {
    let (&item_type, rest) = line.split_first()?;
    let fields: Vec<&[u8]> = rest.split(|&b| b == b'\t').collect();
    let text = |i: usize| String::from_utf8_lossy(fields.get(i).copied().unwrap_or_default()).into_owned();
    Some(MenuItem {
        item_type,
        display: text(0),
        selector: fields.get(1)?.to_vec(),
        host: text(2),
        port: text(3).trim().parse().unwrap_or(0),
        plus: matches!(fields.get(4), Some(f) if f.starts_with(b"+") || f.starts_with(b"?")),
    })
}

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
    let total = if t.plus { plus_header(&mut reader, trace)? } else { None };
    let mut body: Box<dyn Read> = match total {
        Some(n) => Box::new(reader.take(n)),
        None => Box::new(reader),
    };
    let menu = matches!(t.gtype, b'1' | b'7') && !t.plus;
    if !menu {
        let bytes = budget.copy(&mut body, out, total, trace)?;
        return Ok(Fetched { bytes, content: Content::Data });
    }
    let mut raw = Vec::new();
    budget.copy(&mut body, &mut raw, None, trace)?;
    let items = parse_menu(&raw);
    match budget.opts.menus {
        MenuOutput::Raw => out.write_all(&raw)?,
        MenuOutput::Items => write_items(&items, out)?,
    }
    Ok(Fetched { bytes: raw.len() as u64, content: Content::Menu(items) })
}

/// Gopher+: `+N` (N octets follow), `+-1` (up to a `.` line), `+-2` (up to
/// the close), or `-N` and an error message.
fn plus_header(reader: &mut dyn BufRead, trace: &mut dyn Trace) -> Result<Option<u64>, AccessError> {
    let line = read_line(reader)?.ok_or_else(|| AccessError::Protocol("empty gopher+ reply".into()))?;
    trace.event(&Event::Received(&line));
    match line.first() {
        Some(b'+') => Ok(std::str::from_utf8(&line[1..]).ok().and_then(|n| n.trim().parse::<u64>().ok())),
        Some(b'-') => {
            let mut message = String::new();
            reader.read_to_string(&mut message).ok();
            Err(AccessError::Refused {
                command: "gopher+ request".into(),
                reply: message.trim().replace("\r\n", " "),
            })
        }
        _ => Err(AccessError::Protocol(format!("not a gopher+ header: {}", String::from_utf8_lossy(&line)))),
    }
}

fn write_items(items: &[MenuItem], out: &mut dyn Write) -> Result<(), AccessError> {
    for item in items {
        let url = item.url().unwrap_or_default();
        writeln!(out, "{}\t{}\t{}", item.item_type as char, item.display, url)?;
    }
    Ok(())
}

//! News and NNTP access as RFC 1738 §3.6 and §3.7 say, over NNTP (RFC 977,
//! RFC 3977; XOVER of RFC 2980 for a group's overview).

use crate::fetched::{Content, Fetched};
use crate::net::{connect, Budget, LineConn};
use crate::plan::{Plan, Step};
use crate::target::{NewsWhat, NntpTarget};
use crate::{AccessError, Trace};
use std::io::{Read, Write};

pub(crate) fn plan(t: &NntpTarget, plan: &mut Plan) {
    plan.push(Step::Connect { host: t.ep.host.clone(), port: t.ep.port });
    for command in &t.commands {
        plan.send(command.clone());
    }
    if t.what == NewsWhat::Overview {
        plan.note("then XOVER <first>-<last>, with the numbers of the GROUP reply");
    }
    plan.send("QUIT");
}

pub(crate) fn fetch(
    t: &NntpTarget,
    budget: &mut Budget<'_>,
    trace: &mut dyn Trace,
    out: &mut dyn Write,
) -> Result<Fetched, AccessError> {
    let mut c = LineConn::new(connect(&t.ep, budget, trace)?, budget.opts);
    let (code, text) = status(&mut c, trace)?;
    if code != 200 && code != 201 {
        return Err(AccessError::Protocol(format!("unexpected greeting: {code} {text}")));
    }
    let mut group_reply = String::new();
    for command in &t.commands {
        c.send(command, command, trace)?;
        let (code, text) = status(&mut c, trace)?;
        let wanted = match command.split(|&b| b == b' ').next() {
            Some(b"GROUP") => 211,
            Some(b"ARTICLE") => 220,
            _ => 215,
        };
        if code != wanted {
            return Err(refused(command, code, &text));
        }
        if wanted == 211 {
            group_reply = text;
        } else {
            block(&mut c, budget, trace, out)?;
        }
    }
    if t.what == NewsWhat::Overview {
        overview(&mut c, &group_reply, budget, trace, out)?;
    }
    if c.send(b"QUIT", b"QUIT", trace).is_ok() {
        let _ = status(&mut c, trace);
    }
    let content = match t.what {
        NewsWhat::GroupList => Content::NewsGroups,
        NewsWhat::Overview => Content::NewsOverview,
        NewsWhat::Article => Content::Article,
    };
    Ok(Fetched { bytes: budget.written(), content })
}

/// `211 count first last group`: XOVER of that range, if any.
pub(crate) fn overview<S: Read + Write>(
    c: &mut LineConn<S>,
    group_reply: &str,
    budget: &mut Budget<'_>,
    trace: &mut dyn Trace,
    out: &mut dyn Write,
) -> Result<(), AccessError> {
    let nums: Vec<u64> = group_reply.split(' ').take(3).filter_map(|n| n.parse().ok()).collect();
    let [count, first, last] = nums[..] else {
        return Err(AccessError::Protocol(format!("unreadable GROUP reply: {group_reply}")));
    };
    if count == 0 {
        return Ok(());
    }
    let command = format!("XOVER {first}-{last}").into_bytes();
    c.send(&command, &command, trace)?;
    let (code, text) = status(c, trace)?;
    if code != 224 {
        return Err(refused(&command, code, &text));
    }
    block(c, budget, trace, out)
}

/// A status line: the code and the rest.
pub(crate) fn status<S: Read + Write>(
    c: &mut LineConn<S>,
    trace: &mut dyn Trace,
) -> Result<(u16, String), AccessError> {
    let line = c.line(trace)?;
    let text = String::from_utf8_lossy(&line).into_owned();
    let code = text
        .get(..3)
        .and_then(|d| d.parse().ok())
        .ok_or_else(|| AccessError::Protocol(format!("not an nntp reply: {text}")))?;
    Ok((code, text.get(4..).unwrap_or("").to_string()))
}

/// A multi-line block up to the `.` line, dot-stuffing undone, written with
/// local line ends.
pub(crate) fn block<S: Read + Write>(
    c: &mut LineConn<S>,
    budget: &mut Budget<'_>,
    trace: &mut dyn Trace,
    out: &mut dyn Write,
) -> Result<(), AccessError> {
    loop {
        let line = c
            .block_line()?
            .ok_or_else(|| AccessError::Protocol("the server closed the connection inside a block".into()))?;
        if line == b"." {
            return Ok(());
        }
        let line = line.strip_prefix(b".").unwrap_or(&line);
        budget.write(out, &[line, b"\n"].concat(), None, trace)?;
    }
}

fn refused(command: &[u8], code: u16, text: &str) -> AccessError {
    AccessError::Refused {
        command: String::from_utf8_lossy(command).into_owned(),
        reply: format!("{code} {text}"),
    }
}

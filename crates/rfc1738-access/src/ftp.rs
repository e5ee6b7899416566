//! FTP access as RFC 1738 §3.2 says, over RFC 959 with passive data
//! connections (EPSV of RFC 2428, falling back to PASV).

use crate::fetched::{Content, Fetched};
use crate::net::{connect, connect_addr, Budget, Conn, LineConn};
use crate::plan::{Plan, Step};
use crate::target::{Endpoint, FtpPassword, FtpTarget};
use crate::{AccessError, Event, Trace};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

/// A reply: the code and the text of all its lines.
pub(crate) struct Reply {
    pub(crate) code: u16,
    pub(crate) text: String,
}

impl Reply {
    fn class(&self) -> u16 {
        self.code / 100
    }
}

pub(crate) fn plan(t: &FtpTarget, plan: &mut Plan) {
    plan.push(Step::Connect { host: t.ep.host.clone(), port: t.ep.port });
    plan.send([b"USER ".as_slice(), &t.user].concat());
    match &t.password {
        FtpPassword::Given(_) => plan.send("PASS ****"),
        FtpPassword::Email(email) => plan.send([b"PASS ".as_slice(), email].concat()),
        FtpPassword::Ask => {
            plan.note("PASS with a password asked from the user, if the server wants one (331)")
        }
    }
    for command in &t.commands {
        plan.send(command.clone());
        if command == b"CWD " {
            plan.note("CWD with a null argument (RFC 1738 §3.2.2): its effect is server-specific; a refusal is not an error");
        }
    }
    plan.send("EPSV");
    plan.note("if EPSV is refused: PASV; then the data connection");
    plan.send(t.transfer.clone());
    plan.send("QUIT");
}

pub(crate) fn fetch(
    t: &FtpTarget,
    budget: &mut Budget<'_>,
    trace: &mut dyn Trace,
    out: &mut dyn Write,
) -> Result<Fetched, AccessError> {
    let mut c = LineConn::new(connect(&t.ep, budget, trace)?, budget.opts);
    expect(&reply(&mut c, trace)?, 2, "the greeting")?;
    login(&mut c, t, budget, trace)?;
    for command in &t.commands {
        run(&mut c, command, trace)?;
    }
    let data = open_data(&mut c, &t.ep, budget, trace)?;
    let fetched = transfer(&mut c, data, t, budget, trace, out)?;
    quit(&mut c, trace);
    Ok(fetched)
}

/// The transfer on an open data connection: `RETR` or `NLST`, the
/// content, the end of the transfer.
fn transfer(
    c: &mut LineConn,
    mut data: Conn,
    t: &FtpTarget,
    budget: &mut Budget<'_>,
    trace: &mut dyn Trace,
    out: &mut dyn Write,
) -> Result<Fetched, AccessError> {
    c.send(&t.transfer, &t.transfer, trace)?;
    let started = reply(c, trace)?;
    if started.class() != 1 {
        return Err(refused(&t.transfer, &started));
    }
    let bytes = budget.copy(&mut data, out, announced_size(&started.text), trace)?;
    drop(data);
    expect(&reply(c, trace)?, 2, "the end of the transfer")?;
    let content = if t.transfer.starts_with(b"NLST") { Content::Listing } else { Content::Data };
    Ok(Fetched { bytes, content })
}

/// The most control connections kept open at once.
const MAX_SESSIONS: usize = 8;

/// A server and a login (§3.2.1): what a control connection is kept for.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct SessionKey {
    host: String,
    port: u16,
    user: Vec<u8>,
    password: Vec<u8>,
}

/// A logged-in control connection kept for the next URL of its server
/// and login: RFC 959 carries any number of transfers on one.
pub(crate) struct Session {
    conn: LineConn,
    /// The `CWD` lines sent since the login, in order: where it stands.
    cwd: Vec<Vec<u8>>,
    /// What `PWD` answered at each place it was asked, by the `CWD` lines
    /// that led there (the login directory: none).
    pwd: HashMap<Vec<Vec<u8>>, Vec<u8>>,
    /// A `TYPE` was sent: the server's default type is gone.
    typed: bool,
}

/// The sessions of a run, by server and login.
pub(crate) type Sessions = HashMap<SessionKey, Session>;

/// Why a session could not reach a URL's directory.
enum Lost {
    /// The server refused a command of the URL: the session stands where
    /// its state says, and goes on.
    Refused(AccessError),
    /// The connection broke, or where it stands is unsure: a new login.
    Gone(AccessError),
}

impl Session {
    /// Ends the session with `QUIT`, within a few seconds.
    pub(crate) fn quit(mut self) {
        self.conn.grace(Duration::from_secs(2));
        quit(&mut self.conn, &mut crate::NoTrace);
    }

    /// §3.2.2 from where the session stands: up one `CDUP` per segment
    /// the URL does not share, checked by `PWD` against what it said
    /// there before (a symbolic link's parent is not the directory it was
    /// reached from), then down one `CWD` per segment; the URL's `TYPE`.
    fn reach(&mut self, t: &FtpTarget, trace: &mut dyn Trace) -> Result<(), Lost> {
        let (cwds, types): (Vec<&Vec<u8>>, Vec<&Vec<u8>>) =
            t.commands.iter().partition(|c| c.starts_with(b"CWD "));
        let common = self.cwd.iter().zip(&cwds).take_while(|(a, b)| a == *b).count();
        if common < self.cwd.len() {
            let gone = |why: &str| Lost::Gone(AccessError::Protocol(why.to_string()));
            let back =
                self.pwd.get(&self.cwd[..common]).cloned().ok_or_else(|| gone("no PWD to go back to"))?;
            for _ in common..self.cwd.len() {
                self.conn.send(b"CDUP", b"CDUP", trace).map_err(Lost::Gone)?;
                if reply(&mut self.conn, trace).map_err(Lost::Gone)?.class() != 2 {
                    return Err(gone("CDUP refused"));
                }
            }
            self.cwd.truncate(common);
            if pwd(&mut self.conn, trace).map_err(Lost::Gone)? != Some(back) {
                return Err(gone("CDUP led elsewhere than where the session came from"));
            }
        }
        for command in &cwds[common..] {
            run(&mut self.conn, command, trace).map_err(lost)?;
            self.cwd.push(command.to_vec());
        }
        if !self.pwd.contains_key(&self.cwd) {
            if let Some(here) = pwd(&mut self.conn, trace).map_err(Lost::Gone)? {
                self.pwd.insert(self.cwd.clone(), here);
            }
        }
        if types.is_empty() && self.typed {
            // §3.2.2: no typecode leaves the type to the server's default,
            // which only a new login has.
            return Err(Lost::Gone(AccessError::Protocol("a TYPE was sent before".into())));
        }
        for command in types {
            run(&mut self.conn, command, trace).map_err(lost)?;
            self.typed = true;
        }
        Ok(())
    }
}

/// A refusal is the URL's; `421` (the server closes) and the rest end the
/// session.
fn lost(e: AccessError) -> Lost {
    match &e {
        AccessError::Refused { reply, .. } if !reply.starts_with("421") => Lost::Refused(e),
        _ => Lost::Gone(e),
    }
}

/// `PWD` (RFC 959 §4.1.3): the directory's name from a `257 "NAME"` reply
/// (a `"` in it doubled); `None` when the server gives none.
fn pwd(c: &mut LineConn, trace: &mut dyn Trace) -> Result<Option<Vec<u8>>, AccessError> {
    c.send(b"PWD", b"PWD", trace)?;
    let r = reply(c, trace)?;
    if r.code != 257 {
        return Ok(None);
    }
    let Some(open) = r.text.find('"') else { return Ok(None) };
    let mut name = Vec::new();
    let mut rest = r.text[open + 1..].bytes().peekable();
    while let Some(b) = rest.next() {
        if b == b'"' {
            if rest.peek() != Some(&b'"') {
                return Ok(Some(name));
            }
            rest.next();
        }
        name.push(b);
    }
    Ok(None)
}

/// [`fetch`] over the session of the URL's server and login, opened and
/// logged in on its first URL, kept for the next. A session that broke
/// while idle (the server's timeout) is opened anew, once. A URL whose
/// password is asked for gets a connection of its own.
pub(crate) fn fetch_in(
    t: &FtpTarget,
    budget: &mut Budget<'_>,
    trace: &mut dyn Trace,
    out: &mut dyn Write,
    sessions: &mut Sessions,
) -> Result<Fetched, AccessError> {
    let password = match &t.password {
        FtpPassword::Given(p) | FtpPassword::Email(p) => p.clone(),
        FtpPassword::Ask => return fetch(t, budget, trace, out),
    };
    let key = SessionKey { host: t.ep.host.clone(), port: t.ep.port, user: t.user.clone(), password };
    if let Some(mut s) = sessions.remove(&key) {
        s.conn.renew(budget);
        match ready(&mut s, t, budget, trace) {
            Ok(data) => return keep(s, key, data, t, budget, trace, out, sessions),
            Err(Lost::Refused(e)) => {
                sessions.insert(key, s);
                return Err(e);
            }
            Err(Lost::Gone(e)) => {
                let why = format!("a new login: the kept connection cannot go on ({e})");
                trace.event(&Event::Note(&why));
                s.quit();
            }
        }
    }
    let mut c = LineConn::new(connect(&t.ep, budget, trace)?, budget.opts);
    expect(&reply(&mut c, trace)?, 2, "the greeting")?;
    login(&mut c, t, budget, trace)?;
    let mut s = Session { conn: c, cwd: Vec::new(), pwd: HashMap::new(), typed: false };
    // Where the login left it: what a CDUP back here must find.
    if let Some(home) = pwd(&mut s.conn, trace)? {
        s.pwd.insert(Vec::new(), home);
    }
    match ready(&mut s, t, budget, trace) {
        Ok(data) => keep(s, key, data, t, budget, trace, out, sessions),
        Err(Lost::Refused(e)) => {
            store(sessions, key, s);
            Err(e)
        }
        Err(Lost::Gone(e)) => Err(e),
    }
}

/// The session where the URL's directory is, and a data connection.
fn ready(s: &mut Session, t: &FtpTarget, budget: &Budget<'_>, trace: &mut dyn Trace) -> Result<Conn, Lost> {
    s.reach(t, trace)?;
    open_data(&mut s.conn, &t.ep, budget, trace).map_err(lost)
}

/// The transfer; the session kept unless it broke in the middle.
#[allow(clippy::too_many_arguments)]
fn keep(
    mut s: Session,
    key: SessionKey,
    data: Conn,
    t: &FtpTarget,
    budget: &mut Budget<'_>,
    trace: &mut dyn Trace,
    out: &mut dyn Write,
    sessions: &mut Sessions,
) -> Result<Fetched, AccessError> {
    let result = transfer(&mut s.conn, data, t, budget, trace, out);
    // A transfer refused (a name that is a directory) leaves the session
    // as it was; one cut in the middle leaves replies unread.
    let whole = match &result {
        Ok(_) => true,
        Err(AccessError::Refused { reply, .. }) => !reply.starts_with("421"),
        Err(_) => false,
    };
    if whole {
        store(sessions, key, s);
    }
    result
}

/// Keeps `s`, ending the session of another server when too many are open.
fn store(sessions: &mut Sessions, key: SessionKey, s: Session) {
    if sessions.len() >= MAX_SESSIONS {
        if let Some(old) = sessions.keys().next().cloned() {
            if let Some(old) = sessions.remove(&old) {
                old.quit();
            }
        }
    }
    sessions.insert(key, s);
}

/// §3.2.1: USER, then PASS if the server asks (331).
fn login(
    c: &mut LineConn,
    t: &FtpTarget,
    budget: &Budget<'_>,
    trace: &mut dyn Trace,
) -> Result<(), AccessError> {
    let user_line = [b"USER ".as_slice(), &t.user].concat();
    c.send(&user_line, &user_line, trace)?;
    let r = reply(c, trace)?;
    match r.code {
        230 => return Ok(()),
        331 => {}
        _ => return Err(refused(&user_line, &r)),
    }
    let (password, shown) = match &t.password {
        FtpPassword::Given(p) => (p.clone(), b"PASS ****".to_vec()),
        FtpPassword::Email(e) => (e.clone(), [b"PASS ".as_slice(), e].concat()),
        FtpPassword::Ask => (ask(t, budget)?, b"PASS ****".to_vec()),
    };
    crate::target::check_line("ftp password", &password, &[])?;
    let password = crate::target::telnet_escape(password);
    c.send(&[b"PASS ".as_slice(), &password].concat(), &shown, trace)?;
    let r = reply(c, trace)?;
    if r.class() != 2 {
        return Err(refused(&shown, &r));
    }
    Ok(())
}

fn ask(t: &FtpTarget, budget: &Budget<'_>) -> Result<Vec<u8>, AccessError> {
    let user = String::from_utf8_lossy(&t.user).into_owned();
    let prompt = budget.opts.password_prompt.as_ref();
    prompt
        .and_then(|ask| ask(&user, &t.ep.host))
        .map(String::into_bytes)
        .ok_or(AccessError::PasswordRequired { user })
}

/// One command of the URL's plan: CWD or TYPE.
fn run(c: &mut LineConn, command: &[u8], trace: &mut dyn Trace) -> Result<(), AccessError> {
    c.send(command, command, trace)?;
    let r = reply(c, trace)?;
    if r.class() == 2 {
        return Ok(());
    }
    if command == b"CWD " {
        // §3.2.2: what a CWD with a null argument does is server-specific;
        // a refusal leaves the directory as it was, and the plan goes on.
        trace
            .event(&Event::Note("the server refused CWD with a null argument; continuing (RFC 1738 §3.2.2)"));
        return Ok(());
    }
    Err(refused(command, &r))
}

/// A passive data connection: EPSV, or PASV when EPSV is refused. The data
/// connection goes to the control connection's peer address, whatever
/// address a PASV reply names.
fn open_data(
    c: &mut LineConn,
    ep: &Endpoint,
    budget: &Budget<'_>,
    trace: &mut dyn Trace,
) -> Result<Conn, AccessError> {
    let peer = c.stream().peer_addr()?.ip();
    c.send(b"EPSV", b"EPSV", trace)?;
    let r = reply(c, trace)?;
    let (port, named_by) = if r.code == 229 {
        (epsv_port(&r.text)?, "the EPSV reply")
    } else {
        trace.event(&Event::Note("EPSV refused; trying PASV"));
        c.send(b"PASV", b"PASV", trace)?;
        let r = reply(c, trace)?;
        if r.code != 227 {
            return Err(refused(b"PASV", &r));
        }
        (pasv_port(&r.text)?, "the PASV reply")
    };
    // §6 for the data connection: the server names its port, and a port
    // below 1024 there is another protocol's server (the "ftp bounce").
    if port == 0 || port < 1024 && !budget.opts.allow_privileged_ports {
        return Err(AccessError::ServerPort { named_by, port });
    }
    data_connect(peer, port, ep, budget, trace)
}

fn data_connect(
    ip: IpAddr,
    port: u16,
    ep: &Endpoint,
    budget: &Budget<'_>,
    trace: &mut dyn Trace,
) -> Result<Conn, AccessError> {
    trace.event(&Event::Connect { host: &ep.host, port });
    connect_addr(SocketAddr::new(ip, port), budget)
}

/// `229 Entering Extended Passive Mode (|||port|)` (RFC 2428).
pub(crate) fn epsv_port(text: &str) -> Result<u16, AccessError> {
    let bad = || AccessError::Protocol(format!("unreadable EPSV reply: {text}"));
    let open = text.find('(').ok_or_else(bad)?;
    let inner = &text[open + 1..];
    let d = inner.chars().next().ok_or_else(bad)?;
    let fields: Vec<&str> = inner.split(d).collect();
    fields.get(3).and_then(|p| p.parse().ok()).ok_or_else(bad)
}

/// `227 Entering Passive Mode (h1,h2,h3,h4,p1,p2)` (RFC 959).
pub(crate) fn pasv_port(text: &str) -> Result<u16, AccessError> {
    let bad = || AccessError::Protocol(format!("unreadable PASV reply: {text}"));
    let start = text.find(|c: char| c.is_ascii_digit()).ok_or_else(bad)?;
    let nums: Vec<u16> = text[start..]
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .take(6)
        .map(|s| s.parse().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    match nums[..] {
        [_, _, _, _, hi, lo] if hi < 256 && lo < 256 => Ok(hi * 256 + lo),
        _ => Err(bad()),
    }
}

/// The size in `150 Opening BINARY mode data connection for motd (26 bytes).`
pub(crate) fn announced_size(text: &str) -> Option<u64> {
    let open = text.rfind('(')?;
    text[open + 1..].split(' ').next()?.parse().ok()
}

/// Reads a reply, single or multi-line (`123-` ... `123 `, RFC 959
/// §4.2): at most `max_header_bytes` of it, whatever the server sends.
pub(crate) fn reply<S: Read + Write>(
    c: &mut LineConn<S>,
    trace: &mut dyn Trace,
) -> Result<Reply, AccessError> {
    let first = c.line(trace)?;
    let code = parse_code(&first)?;
    let mut text = String::from_utf8_lossy(&first[3..]).trim_start_matches([' ', '-']).to_string();
    if first.get(3) == Some(&b'-') {
        let limit = c.max_reply();
        let mut kept = first.len();
        loop {
            let line = c.line(trace)?;
            kept += line.len() + 2;
            if kept > limit {
                let what = "an ftp reply";
                return Err(AccessError::Limit { what, limit: limit as u64, option: "max_header_bytes" });
            }
            text.push('\n');
            text.push_str(&String::from_utf8_lossy(&line));
            if line.len() >= 4 && line[..3] == first[..3] && line[3] == b' ' {
                break;
            }
        }
    }
    Ok(Reply { code, text })
}

fn parse_code(line: &[u8]) -> Result<u16, AccessError> {
    let digits = line.get(..3).filter(|d| d.iter().all(u8::is_ascii_digit));
    let bad = || AccessError::Protocol(format!("not an ftp reply: {}", String::from_utf8_lossy(line)));
    let code = std::str::from_utf8(digits.ok_or_else(bad)?).map_err(|_| bad())?;
    code.parse().map_err(|_| bad())
}

fn expect(r: &Reply, class: u16, what: &str) -> Result<(), AccessError> {
    if r.class() == class {
        return Ok(());
    }
    Err(AccessError::Protocol(format!("unexpected reply to {what}: {} {}", r.code, r.text)))
}

fn refused(command: &[u8], r: &Reply) -> AccessError {
    AccessError::Refused {
        command: String::from_utf8_lossy(command).into_owned(),
        reply: format!("{} {}", r.code, r.text),
    }
}

fn quit<S: Read + Write>(c: &mut LineConn<S>, trace: &mut dyn Trace) {
    if c.send(b"QUIT", b"QUIT", trace).is_ok() {
        let _ = reply(c, trace);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passive_replies() {
        assert_eq!(epsv_port("Entering Extended Passive Mode (|||22133|)").unwrap(), 22133);
        assert_eq!(pasv_port("Entering Passive Mode (127,0,0,1,86,101).").unwrap(), 86 * 256 + 101);
        assert!(pasv_port("Entering Passive Mode (127,0,0,1,986,101).").is_err());
        assert_eq!(announced_size("Opening BINARY mode data connection for motd (26 bytes)."), Some(26));
    }
}

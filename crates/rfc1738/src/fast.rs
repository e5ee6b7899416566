//! The fast path of a strict parse: the shape nearly every URL in the wild
//! has, `scheme "://" host [ ":" port ] [ "/" path ]` in the http, ftp
//! (with its `;type=`), file and telnet schemes and the generic syntax
//! (§5), read in one pass; in ftp, telnet and the generic syntax, also
//! with a `user [ ":" password ] "@"` before the host (§3.1), after which
//! the same code reads the host again. The host is a host name or a host
//! number. In gopher, nntp, wais and prospero, the login is read the
//! same way and the path by a reading of each scheme's own (a run or a
//! few, with the marks of its parts), the scheme's rules reading any
//! path it does not take. Also mailto
//! with a plain address and news with one group or an article (§3.5,
//! §3.6), each by its scheme's own one-pass test, and any other mailto or
//! news URL by the scheme's rules; and in the generic syntax, a
//! scheme-specific part without `//`, which is `*xchar` (§5).
//!
//! It answers for a text it can read completely, for one whose path has
//! a byte the path cannot take (the commonest error: an unsafe `~`), for
//! a byte after a valid host or port that cannot end the login, for a
//! scheme of `ip-schemepart` without `"//"`, a port in a file URL and a
//! bad ftp typecode; for anything else (a host of more than 253 bytes, a
//! fragment, any other error) it answers `Fast::Scheme`,
//! and the rules in `parse.rs` and `scheme/` read on from the scheme.
//!
//! The rules are the oracle: a parse with options (`Url::parse_with`)
//! never takes this path (it shares only `scheme`, the byte-by-byte
//! reading of the scheme name, and `host`), and `tests/fast_path.rs` and
//! the fuzz target `parse` require the two readings to give equal answers.

use crate::chars::{self, Class};
use crate::error::{ErrorKind, ParseError, Rule};
use crate::host;
use crate::kind::{self, SchemeKind};
use crate::pct;
use crate::reader::{no_scheme, Parser};
use crate::scheme;
use crate::simd;
use crate::url::{Parts, Span};

/// What the fast path made of a text.
pub(crate) enum Fast {
    /// The answer of `parse::parse`: `Ok` with the parts written, or an
    /// error the rules would give too (no scheme, or a path with a byte
    /// its rule does not take: the commonest errors are read once).
    Done(Result<(), ParseError>),
    /// A `scheme ":"`, its `":"` and kind; the rules read on.
    Scheme(usize, SchemeKind),
}

/// `parse::parse` when the text has the common shape, writing the parts
/// into `parts` (where the caller keeps them: they are not copied again).
#[inline]
pub(crate) fn parse(b: &[u8], parts: &mut Parts) -> Fast {
    let (colon, kind) = match kind::known_scheme(b) {
        Some(known) => known,
        None => match kind::scheme(b) {
            kind::Scheme::Colon(colon) => (colon, SchemeKind::from_prefix(b, colon)),
            // The rule stops where `scheme` did, and its error is the same
            // whether or not a `"#"` ends the URL first: `scheme` stops at a
            // `"#"` at the latest, and a name that ends at `"#"` or at the
            // end of the URL lacks its `":"` alike.
            kind::Scheme::Error(i) => {
                return Fast::Done(Err(no_scheme(&Parser { b, end: b.len(), lenient: None }, i)))
            }
        },
    };
    *parts = Parts::new(kind, colon, b.len(), false);
    if matches!(kind, SchemeKind::Mailto | SchemeKind::News) {
        return opaque(b, colon, kind, parts);
    }
    let answer = if b.get(colon + 1..colon + 3) == Some(b"//") {
        ip_url(b, colon, kind, parts)
    } else if kind == SchemeKind::Other {
        xchars(b, colon)
    } else {
        // §3.1: `ip-schemepart = "//" login [ "/" urlpath ]` is all of
        // every scheme left (mailto and news went before), and its rule
        // fails at once, whatever follows (a `"#"` too).
        Some(Err(ParseError::new(colon + 1, ErrorKind::ExpectedDoubleSlash, Rule::IpSchemepart)))
    };
    match answer {
        Some(answer) => Fast::Done(answer),
        None => Fast::Scheme(colon, kind),
    }
}

/// `schemepart = *xchar` (§5) after the `":"` of another scheme, when
/// it does not start with `"//"` (an `ip-schemepart` cannot): no
/// component but the scheme. The rules' answer unless an error meets a
/// `"#"`.
#[inline(never)]
fn xchars(b: &[u8], colon: usize) -> Option<Result<(), ParseError>> {
    let answer = match run(b, colon + 1, chars::XCHAR, Rule::Schemepart) {
        Ok(k) if k == b.len() => Ok(()),
        Ok(k) => Err(Parser { b, end: b.len(), lenient: None }.unexpected(k, Rule::Schemepart)),
        Err(e) => Err(e),
    };
    unless_fragment(b, colon, answer)
}

/// A mailto or news URL (§3.5, §3.6), read by its scheme's rules (each
/// tries the common form first in one pass: an address of atoms, one
/// group), whose answer this is unless an error meets a `"#"`.
#[inline(never)]
fn opaque(b: &[u8], colon: usize, kind: SchemeKind, parts: &mut Parts) -> Fast {
    let p = Parser { b, end: b.len(), lenient: None };
    let answer = match kind {
        SchemeKind::Mailto => scheme::mailto::parse(&p, parts, colon + 1),
        _ => scheme::news::parse(&p, parts, colon + 1),
    };
    match unless_fragment(b, colon, answer) {
        Some(answer) => Fast::Done(answer),
        None => Fast::Scheme(colon, kind),
    }
}

/// A rule's answer for the URL from `from` on, unless it is an error and
/// a `"#"` follows `from`: no rule takes one, so the rules must read the
/// URL before it, then the fragment (`None`).
#[inline]
fn unless_fragment(b: &[u8], from: usize, answer: Result<(), ParseError>) -> Option<Result<(), ParseError>> {
    match answer {
        Err(_) if chars::find_byte(b, from, b.len(), b'#') < b.len() => None,
        answer => Some(answer),
    }
}

/// `"//" login [ "/" urlpath ]` after the scheme, in every scheme with
/// an `ip-schemepart` (§3.1: `login = [ user [ ":" password ] "@" ]
/// hostport`); `None` when the rules must read it.
///
/// One copy of `hostport_path` reads every login, with a user or without:
/// most URLs have none and are read in one pass. When an `"@"` follows
/// what was read as a host and port (`Login::User`), or when what follows
/// `"//"` is no host but may be `user [ ":" password ] "@"`
/// (`user_password`), the same code reads again from after the `"@"`,
/// so that in a stream of mixed schemes and logins every URL trains the
/// same branches. A user only in ftp, telnet and the generic syntax.
#[inline(always)]
fn ip_url(b: &[u8], colon: usize, kind: SchemeKind, parts: &mut Parts) -> Option<Result<(), ParseError>> {
    let mut i = colon + 3;
    let mut first = true;
    loop {
        match hostport_path(b, i, kind, parts) {
            Login::Done(answer) => return answer,
            Login::User { h, at } if first && takes_user(kind) => {
                // The user was read as a host ending at `h` and the
                // password, if any, as a port ending at `at`: both are
                // `user` characters (§3.1: `user = *[ uchar | ";" | "?" |
                // "&" | "=" ]`, the password the same).
                parts.user = Some(Span::new(i, h));
                parts.password = (at > h).then(|| Span::new(h + 1, at));
                (parts.port, parts.port_value) = (None, None);
                i = at + 1;
            }
            Login::Password { h } if first && takes_user(kind) => {
                // The user was read as a host ending at `h`, its `":"`
                // not followed by a port: the password follows it.
                let at = password(b, h + 1)?;
                parts.user = Some(Span::new(i, h));
                parts.password = Some(Span::new(h + 1, at));
                i = at + 1;
            }
            Login::Rules if first && takes_user(kind) => {
                *parts = Parts::new(kind, colon, b.len(), false);
                i = user_password(b, i, parts)?;
            }
            // A second user, or none in this scheme: the rules say why.
            Login::User { .. } | Login::Password { .. } | Login::Rules => return None,
        }
        first = false;
    }
}

/// What `hostport_path` read.
enum Login {
    /// The answer for the URL: `None` when the rules must read it.
    Done(Option<Result<(), ParseError>>),
    /// A valid host from the start of the login to `h`, perhaps a port,
    /// then an `"@"` at `at`: what was read may be a user and password.
    User { h: usize, at: usize },
    /// A valid host from the start of the login to `h`, then a `":"`
    /// and no port: what was read may be a user, and a password follow.
    Password { h: usize },
    /// No host and port from the start of the login, or a byte after one
    /// that an `"@"` follows: perhaps a user, else the rules say what.
    Rules,
}

/// Whether the login of `kind` may have a user: ftp (§3.2), telnet (§3.8)
/// and the generic syntax (§5); the other schemes of §3 have a `hostport`.
#[inline]
fn takes_user(kind: SchemeKind) -> bool {
    matches!(kind, SchemeKind::Ftp | SchemeKind::Telnet | SchemeKind::Other)
}

/// `user [ ":" password ] "@"` from `i`: where the host starts. Neither
/// may hold a raw `":"`, `"@"` or `"/"` (§3.1), so the user's run ends
/// at the `":"` or the `"@"`, and the password's at the `"@"`; `None` for
/// anything else there (no user, or one the rules must read).
#[inline]
fn user_password(b: &[u8], i: usize, parts: &mut Parts) -> Option<usize> {
    let j = run(b, i, chars::USER, Rule::User).ok()?;
    let at = match b.get(j) {
        Some(b'@') => j,
        Some(b':') => {
            let k = password(b, j + 1)?;
            parts.password = Some(Span::new(j + 1, k));
            k
        }
        _ => return None,
    };
    parts.user = Some(Span::new(i, j));
    Some(at + 1)
}

/// `password "@"` from `i` (§3.1: `password = *[ uchar | ";" | "?" |
/// "&" | "=" ]`, no raw `":"`, `"@"` or `"/"`): where its `"@"` is;
/// `None` for anything else there (the rules say what).
#[inline]
fn password(b: &[u8], i: usize) -> Option<usize> {
    let at = run(b, i, chars::USER, Rule::Password).ok()?;
    (b.get(at) == Some(&b'@')).then_some(at)
}

/// `host [ ":" port ] [ "/" path ]` from `i`, completing `parts`.
#[inline(always)]
fn hostport_path(b: &[u8], i: usize, kind: SchemeKind, parts: &mut Parts) -> Login {
    // §3.10: the host of a file URL may be empty ("file:///etc").
    let h = if kind == SchemeKind::File && matches!(b.get(i), Some(b'/' | b':')) {
        i
    } else {
        match host::short(b, i) {
            Some(h) => h,
            None => return Login::Rules,
        }
    };
    parts.host = Some(Span::new(i, h));
    let mut j = h;
    if b.get(j) == Some(&b':') {
        if kind == SchemeKind::File {
            return Login::Done(file_port(b, j));
        }
        j = match port(b, j + 1, parts) {
            Some(j) => j,
            None => return Login::Password { h },
        };
    }
    if j < b.len() && b[j] != b'/' {
        if b[j] == b'@' {
            return Login::User { h, at: j };
        }
        let rule = if j == h { Rule::Host } else { Rule::Port };
        return match login_error(b, j, kind, rule) {
            Some(answer) => Login::Done(Some(answer)),
            // Perhaps a user whose first part was read as a host.
            None => Login::Rules,
        };
    }
    Login::Done(urlpath(b, j, kind, parts))
}

/// What follows a valid login at `j` (its `"/"` or the end): the
/// `urlpath` of the scheme, completing `parts`; `None` when the rules
/// must read it.
#[inline(always)]
fn urlpath(b: &[u8], j: usize, kind: SchemeKind, parts: &mut Parts) -> Option<Result<(), ParseError>> {
    if matches!(kind, SchemeKind::Gopher | SchemeKind::Nntp | SchemeKind::Wais | SchemeKind::Prospero) {
        return after_login(b, j, kind, parts);
    }
    if j == b.len() {
        // §3.10: `fileurl = "file://" [ host | "localhost" ] "/" fpath`.
        return (kind != SchemeKind::File).then_some(Ok(()));
    }
    parts.path = Some(Span::new(j + 1, b.len()));
    if kind == SchemeKind::Telnet {
        // §3.8: `"telnet://" login [ "/" ]`, nothing after the `"/"`.
        return (j + 1 == b.len()).then_some(Ok(()));
    }
    let (k, rule) = match kind {
        // §3.3: `hpath [ "?" search ]` (https too, RFC 2818 §2.4).
        SchemeKind::Http | SchemeKind::Https => match run(b, j + 1, chars::HPATH, Rule::Hpath) {
            Ok(q) if q < b.len() && b[q] == b'?' => {
                parts.marks[0] = q as u32;
                (run(b, q + 1, chars::SEARCH, Rule::Search), Rule::Search)
            }
            end => (end, Rule::Hpath),
        },
        // §3.2, §3.10: `fpath`, up to an ftp `;type=`.
        SchemeKind::Ftp | SchemeKind::File => (run(b, j + 1, chars::FPATH, Rule::Fpath), Rule::Fpath),
        // §5: `urlpath = *xchar`; where it fails, so does the other reading
        // of the scheme-specific part, `*xchar`, whose error the rules give.
        _ => (run(b, j + 1, chars::XCHAR, Rule::Schemepart), Rule::Schemepart),
    };
    match k {
        Ok(k) if k == b.len() => Some(Ok(())),
        // §3.2: `fpath [ ";type=" ftptype ]`, the typecode last.
        Ok(k) if kind == SchemeKind::Ftp && b[k] == b';' => {
            let typecode =
                matches!(&b[k..], [b';', b't', b'y', b'p', b'e', b'=', c] if b"aidAID".contains(c));
            parts.marks[0] = k as u32;
            if typecode {
                Some(Ok(()))
            } else {
                // Anything else after the `";"`: the rule's error, unless
                // the URL ends at a `"#"` first.
                unless_fragment(b, k, scheme::ftp::ftptype(&Parser { b, end: b.len(), lenient: None }, k))
            }
        }
        // A fragment: the long way.
        Ok(k) if b[k] == b'#' => None,
        Ok(k) => Some(Err(Parser { b, end: b.len(), lenient: None }.unexpected(k, rule))),
        Err(e) => Some(Err(e)),
    }
}

/// What follows the login in gopher, nntp, wais and prospero, from `j`
/// (its `"/"` or the end): the common paths by the readings below, each
/// a few calls of `run`, the code every URL's path goes through, which
/// also answer a bad escape; the rest, and every other error, by the
/// scheme's own rules.
#[inline(never)]
fn after_login(b: &[u8], j: usize, kind: SchemeKind, parts: &mut Parts) -> Option<Result<(), ParseError>> {
    let read = match kind {
        SchemeKind::Gopher => gopher(b, j),
        SchemeKind::Nntp => nntp(b, j),
        SchemeKind::Wais => wais(b, j),
        _ => prospero(b, j),
    };
    match read {
        Ok(marks) => {
            if j < b.len() {
                parts.path = Some(Span::new(j + 1, b.len()));
            }
            parts.marks = marks;
            return Some(Ok(()));
        }
        Err(Some(e)) => return unless_fragment(b, j, Err(e)),
        Err(None) => {}
    }
    let p = Parser { b, end: b.len(), lenient: None };
    let answer = match kind {
        SchemeKind::Gopher => scheme::gopher::after_login(&p, parts, j),
        SchemeKind::Nntp => scheme::nntp::after_login(&p, parts, j),
        SchemeKind::Wais => scheme::wais::after_login(&p, parts, j),
        _ => scheme::prospero::after_login(&p, parts, j),
    };
    unless_fragment(b, j, answer)
}

/// The marks of a URL whose path is read and valid, as the rules would
/// set them; `Err(Some)` the rules' error (a bad escape, found by `run`
/// where the rules' scan finds it), `Err(None)` for a path the rules
/// must read.
type Marks = Result<[u32; 2], Option<ParseError>>;

/// Neither mark set.
const NO_MARKS: [u32; 2] = [crate::url::NO_MARK; 2];

/// `Ok` when `ok`, else a path the rules must read.
#[inline]
fn or_rules(ok: bool) -> Result<(), Option<ParseError>> {
    if ok {
        Ok(())
    } else {
        Err(None)
    }
}

/// §3.4: `[ "/" [ gtype [ selector [ "%09" search [ "%09"
/// gopher+_string ] ] ] ] ]` from the end of the login at `j`, with a
/// `gtype` written as itself; `marks[0]` and `marks[1]` the two `"%09"`.
#[inline]
fn gopher(b: &[u8], j: usize) -> Marks {
    let mut marks = NO_MARKS;
    if j + 1 >= b.len() {
        return Ok(marks);
    }
    or_rules(chars::XCHAR.literal().contains(b[j + 1]))?;
    let tab1 = until_tab(b, j + 2, chars::XCHAR, Rule::Selector)?;
    if tab1 == b.len() {
        return Ok(marks);
    }
    marks[0] = tab1 as u32;
    // §3.4.1: "no characters are reserved": the search is `*xchar`, as
    // in `scheme::gopher`.
    let tab2 = until_tab(b, tab1 + 3, chars::XCHAR, Rule::Search)?;
    if tab2 < b.len() {
        marks[1] = tab2 as u32;
        or_rules(run(b, tab2 + 3, chars::XCHAR, Rule::GopherPlusString)? == b.len())?;
    }
    Ok(marks)
}

/// The run of `class` from `i` up to the first `"%09"` (where it stops)
/// or the end; in a selector (§3.4.1), an encoded CR or LF is left to
/// the rules, as is any byte `class` does not take.
#[inline]
fn until_tab(b: &[u8], i: usize, class: Class, rule: Rule) -> Result<usize, Option<ParseError>> {
    let selector = rule == Rule::Selector;
    let i = pct::run(b, i, b.len(), class, |o| o == b'\t' || (selector && matches!(o, b'\r' | b'\n')));
    match (b.get(i), pct::escape_at(b, i)) {
        (None, _) => Ok(i),
        (Some(b'%'), Some(b'\t')) => Ok(i),
        (Some(b'%'), Some(b'\r' | b'\n')) if selector => Err(None),
        (Some(b'%'), None) => Err(Some(ParseError::new(i, ErrorKind::InvalidEscape, rule))),
        _ => Err(None),
    }
}

/// §3.7: `"/" group [ "/" digits ]` from the end of the login at `j`;
/// `marks[0]` the `"/"` before the article number, of at most 19 digits
/// (within 64 bits whatever they are; the rules read a longer one).
#[inline]
fn nntp(b: &[u8], j: usize) -> Marks {
    let mut marks = NO_MARKS;
    let g = scheme::news::group_end(b.get(j + 1..).ok_or(None)?);
    or_rules(g > 0)?;
    let k = j + 1 + g;
    if k < b.len() {
        let digits = &b[k + 1..];
        or_rules(b[k] == b'/' && (1..20).contains(&digits.len()) && digits.iter().all(u8::is_ascii_digit))?;
        marks[0] = k as u32;
    }
    Ok(marks)
}

/// §3.9: `"/" database [ "?" search | "/" wtype "/" wpath ]` from the end
/// of the login at `j`; `marks[0]` the `"?"` or the `"/"` after the
/// database, `marks[1]` the `"/"` after the wtype.
#[inline]
fn wais(b: &[u8], j: usize) -> Marks {
    let mut marks = NO_MARKS;
    or_rules(j < b.len())?;
    let k = run(b, j + 1, chars::UCHAR, Rule::Database)?;
    if k < b.len() {
        marks[0] = k as u32;
        let end = match b[k] {
            b'?' => run(b, k + 1, chars::SEARCH, Rule::Search)?,
            b'/' => {
                let w = run(b, k + 1, chars::UCHAR, Rule::Wtype)?;
                or_rules(b.get(w) == Some(&b'/'))?;
                marks[1] = w as u32;
                run(b, w + 1, chars::UCHAR, Rule::Wpath)?
            }
            _ => return Err(None),
        };
        or_rules(end == b.len())?;
    }
    Ok(marks)
}

/// §3.11: `"/" ppath *[ ";" fieldname "=" fieldvalue ]` from the end of
/// the login at `j`; `marks[0]` the first `";"`.
#[inline]
fn prospero(b: &[u8], j: usize) -> Marks {
    let mut marks = NO_MARKS;
    or_rules(j < b.len())?;
    let mut k = run(b, j + 1, chars::PPATH, Rule::Ppath)?;
    if k < b.len() {
        marks[0] = k as u32;
        if b.len() - k >= simd::BLOCK {
            return fields(simd::Path::detect(), b, k).map(|()| marks);
        }
    }
    while k < b.len() {
        or_rules(b[k] == b';')?;
        let eq = run(b, k + 1, chars::FIELD, Rule::Fieldspec)?;
        or_rules(b.get(eq) == Some(&b'='))?;
        k = run(b, eq + 1, chars::FIELD, Rule::Fieldspec)?;
    }
    Ok(marks)
}

/// §3.11: `*[ ";" fieldname "=" fieldvalue ]` from `k` to the end, 64
/// bytes and more of them, read 64 bytes at a time by vector code
/// (`simd::set_masks`): every byte a `FIELD` octet, a `";"`, a `"="` or
/// an escape, and the `";"`s and `"="`s taking turns, a `";"` first and
/// a `"="` last. Anything else is left to the rules (`Err(None)`).
/// (`path`: how the blocks are classified.) `bulk.rs` decides a prospero
/// URL's fields by it too.
#[inline(never)]
pub(crate) fn fields(path: simd::Path, b: &[u8], k: usize) -> Result<(), Option<ParseError>> {
    // All ones when an odd number of delimiters came before the block.
    let mut odd = 0u64;
    for (n, chunk) in b[k..].chunks(simd::BLOCK).enumerate() {
        let mut scratch = [0; simd::BLOCK];
        let block = simd::block(chunk, &mut scratch);
        let within = u64::MAX >> (simd::BLOCK - chunk.len());
        let (outside, [semis, eqs, pcts]) = simd::set_masks(path, block, &FIELDS, [b';', b'=', b'%']);
        or_rules(outside & !pcts & within == 0)?;
        let mut p = pcts & within;
        while p != 0 {
            or_rules(pct::escape_at(b, k + simd::BLOCK * n + p.trailing_zeros() as usize).is_some())?;
            p &= p - 1;
        }
        // Bit i of `parity`: an odd number of delimiters up to byte i.
        // The odd ones (first, third, ...) are the `";"`s.
        let delimiters = (semis | eqs) & within;
        let mut parity = delimiters;
        for shift in [1, 2, 4, 8, 16, 32] {
            parity ^= parity << shift;
        }
        parity ^= odd;
        or_rules(semis & within == delimiters & parity)?;
        odd = 0u64.wrapping_sub(parity >> 63);
    }
    // The last delimiter is a `"="`: an even number of them.
    or_rules(odd == 0)
}

/// The bytes a prospero field may hold written as themselves, and the
/// delimiters of its fieldspecs: `fieldname`'s `uchar | "?" | ":" | "@" |
/// "&"` (§5), `";"` and `"="`.
static FIELDS: simd::ByteSet = simd::ByteSet::new(&{
    let mut members = [false; 256];
    let mut c = 0;
    while c < 256 {
        let byte = c as u8;
        members[c] = chars::FIELD.literal().contains_const(byte) || byte == b';' || byte == b'=';
        c += 1;
    }
    members
});

/// The rules' error for the byte at `j`, which ends a valid host (`rule`
/// Host) or port (Port) and is not the `"/"` that ends the login (§3.1):
/// the byte no rule of the login takes. `None` (the rules read it) for a
/// `"#"` there (the fragment is read the long way), for an `"@"` after it
/// before the login ends, which makes what was read a user and password,
/// and in the generic syntax, where a failed login is still `*xchar`.
#[cold]
#[inline(never)]
fn login_error(b: &[u8], j: usize, kind: SchemeKind, rule: Rule) -> Option<Result<(), ParseError>> {
    if kind == SchemeKind::Other || b[j] == b'#' {
        return None;
    }
    // No rule accepts `#`, so with one in the URL the answer is that of
    // the URL before it: the login ends at the first `"/"` or `"#"`.
    let stop = chars::find_any(b, j, b.len(), [b'/', b'#', b'@']);
    if b.get(stop) == Some(&b'@') {
        return None;
    }
    Some(Err(Parser { b, end: b.len(), lenient: None }.unexpected(j, rule)))
}

/// The `":"` at `j` after the host of a file URL (§3.10: `"file://" [
/// host | "localhost" ] "/" fpath`, no port): the rules' error there,
/// unless an `"@"` follows before the login ends (at the first `"/"` or
/// `"#"`), which makes the text before it a user, a different error the
/// rules find (`None`).
#[cold]
#[inline(never)]
fn file_port(b: &[u8], j: usize) -> Option<Result<(), ParseError>> {
    let stop = chars::find_any(b, j, b.len(), [b'/', b'#', b'@']);
    (b.get(stop) != Some(&b'@')).then_some(Err(ParseError::new(j, ErrorKind::PortNotAllowed, Rule::Hostport)))
}

/// `port = digits`, at most 65535: the end of the port from `i`.
///
/// Up to seven digits without a loop (where a port ends varies from one
/// URL to the next, and a loop's exit is a branch guessed anew each
/// time): the eight bytes from `i` as one word, the digits found by one
/// comparison for all eight, their value by three multiplications.
#[inline]
fn port(b: &[u8], i: usize, parts: &mut Parts) -> Option<usize> {
    use chars::LO;
    let t = u64::from_le_bytes(chars::chunk_from(b, i)) ^ (LO * u64::from(b'0'));
    // A byte is a digit when it is now below 10: its top bit stays clear,
    // and so does that of its low seven bits plus 0x76 (no carry between
    // bytes).
    let not_digit = (((t & (LO * 0x7f)) + LO * 0x76) | t) & (LO * 0x80);
    let n = (not_digit.trailing_zeros() / 8) as usize;
    match n {
        0 => return None,
        8 => return long_port(b, i, parts),
        _ => {}
    }
    // The digits at the top of the word, the first the most significant,
    // zeros below them; then pairs, fours and eights of digits combined.
    let mut v = t << (64 - 8 * n);
    v = (v.wrapping_mul(10 * 256 + 1) >> 8) & 0x00ff_00ff_00ff_00ff;
    v = (v.wrapping_mul(100 * 65536 + 1) >> 16) & 0x0000_ffff_0000_ffff;
    v = v.wrapping_mul(10000 * (1 << 32) + 1) >> 32;
    parts.port_value = Some(u16::try_from(v).ok()?);
    parts.port = Some(Span::new(i, i + n));
    Some(i + n)
}

/// [`port`] with eight digits or more (leading zeros), digit by digit.
#[cold]
#[inline(never)]
fn long_port(b: &[u8], i: usize, parts: &mut Parts) -> Option<usize> {
    let mut j = i;
    let mut value: u32 = 0;
    while let Some(&c) = b.get(j).filter(|c| c.is_ascii_digit()) {
        value = (value * 10 + u32::from(c - b'0')).min(65536);
        j += 1;
    }
    parts.port_value = Some(u16::try_from(value).ok()?);
    parts.port = Some(Span::new(i, j));
    Some(j)
}

/// The end of the run of `class` from `i`, each `%` checked to start an
/// escape (§2.2). `class` has a run bit and holds escapes.
#[inline]
fn run(b: &[u8], mut i: usize, class: Class, rule: Rule) -> Result<usize, ParseError> {
    debug_assert!(class.1 != 0 && class.contains(b'%'));
    loop {
        i = simd::run_of(b, i, b.len(), class);
        // Runs of escapes stay here; plain bytes go by `run_of`.
        while b.get(i) == Some(&b'%') {
            if pct::escape_at(b, i).is_none() {
                return Err(ParseError::new(i, ErrorKind::InvalidEscape, rule));
            }
            i += 3;
        }
        if !b.get(i).is_some_and(|&c| class.contains(c)) {
            return Ok(i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rules' answer for `input`: the strict parse that never takes
    /// the fast path.
    fn rules(input: &str) -> Result<(), ParseError> {
        crate::Url::parse_with(input, &crate::ParseOptions::strict()).map(|_| ())
    }

    /// The fast path's own answer for `input`; fails the test when it
    /// leaves `input` to the rules.
    fn fast_answer(input: &str) -> Result<(), ParseError> {
        let mut parts = Parts::new(SchemeKind::Other, 0, 0, false);
        match parse(input.as_bytes(), &mut parts) {
            Fast::Done(answer) => answer,
            Fast::Scheme(..) => panic!("{input:?}: left to the rules"),
        }
    }

    /// Where `known_scheme` answers, it answers as `scheme` and
    /// `SchemeKind::from_prefix` do: names of §3 in either case, other
    /// names up to eight bytes, and texts that start with no name.
    #[test]
    fn known_scheme_is_the_scheme_rule() {
        let mut texts = crate::testing::every_text(b"a1+:/", 0..=9);
        texts.extend(crate::testing::random_texts(3, 50_000, 12, b"ftpwaisPROSEROnewsmailto:.-+_/%"));
        for name in
            ["ftp", "http", "HTTPS", "gopher", "mailto", "news", "nntp", "telnet", "wais", "file", "prospero"]
        {
            for rest in ["", ":", "://h", ":x", "x:", "1:"] {
                texts.push(format!("{name}{rest}").into_bytes());
            }
        }
        for text in texts {
            if let Some(known) = kind::known_scheme(&text) {
                let kind::Scheme::Colon(colon) = kind::scheme(&text) else { panic!("{text:?}: no scheme") };
                assert_eq!(
                    known,
                    (colon, SchemeKind::from_prefix(&text, colon)),
                    "{:?}",
                    String::from_utf8_lossy(&text)
                );
            }
        }
    }

    /// `port` reads a port as the digit-by-digit loop of `long_port`
    /// does: every text of up to six bytes over digits and others, random
    /// texts of up to twelve, the edges of 65535 and ports with many
    /// leading zeros.
    #[test]
    fn port_is_the_digits_rule() {
        let mut texts = crate::testing::every_text(b"09a/:", 0..=6);
        texts.extend(crate::testing::random_texts(5, 100_000, 12, b"0123456789/:@\xff"));
        for p in
            ["65535", "65536", "0065535", "00065535", "000000080", "99999", "100000", "1234567", "12345678"]
        {
            texts.push(p.into());
            texts.push(format!("x{p}/").into());
        }
        for text in texts {
            for i in 0..=text.len().min(1) {
                let (mut fast, mut slow) =
                    (Parts::new(SchemeKind::Http, 0, 0, false), Parts::new(SchemeKind::Http, 0, 0, false));
                let (a, b) = (port(&text, i, &mut fast), long_port(&text, i, &mut slow).filter(|&j| j > i));
                assert_eq!(a, b, "{:?} from {i}", String::from_utf8_lossy(&text));
                if a.is_some() {
                    assert_eq!((fast.port, fast.port_value), (slow.port, slow.port_value));
                }
            }
        }
    }

    /// Logins with a user the fast path reads itself, in one pass or two
    /// (§3.1: `user = *[ uchar | ";" | "?" | "&" | "=" ]`, the password
    /// the same): also those whose first part no host reading takes.
    #[test]
    fn reads_these_logins_without_the_rules() {
        for input in [
            "ftp://anonymous@h.com/",
            "ftp://guest:secret@h.com:21/a;type=i",
            "ftp://u%41ser@h.com/a",
            "ftp://a;b@h.com/",
            "ftp://a.b:c%40d@h.com/",
            "telnet://u&x:p=w@h.com/",
            "telnet://u:123@h.com",
            "x-y://a;b@h.com/x",
            "x-y://a=b:c@h.com",
        ] {
            assert_eq!(fast_answer(input), Ok(()), "{input:?}");
        }
    }

    /// The paths of gopher, nntp, wais and prospero (§3.4, §3.7, §3.9,
    /// §3.11): where the fast path reads one itself, the URL and its marks
    /// are the rules', for every path of up to five bytes over the bytes
    /// that matter to each rule and long random ones.
    #[test]
    fn path_readings_after_a_login_are_the_rules() {
        for (scheme, alphabet) in [
            ("gopher", &b"/a%09Dd+"[..]),
            ("nntp", b"/a1._%+"),
            ("wais", b"/a?%4;=:"),
            ("prospero", b"/a;=%41?"),
        ] {
            let mut paths = crate::testing::every_text(alphabet, 0..=5);
            paths.extend(crate::testing::random_texts(11, 20_000, 30, alphabet));
            // Article numbers about the 64-bit limit (§3.7 sets none).
            for digits in ["1234567890123456789", "18446744073709551615", "18446744073709551616", "0"] {
                paths.push(format!("/a/{digits}").into_bytes());
            }
            for path in paths {
                let input = format!("{scheme}://h{}", String::from_utf8(path).unwrap());
                let rules =
                    crate::Url::parse_with(&input, &crate::ParseOptions::strict()).map(|(url, _)| url);
                assert_eq!(crate::Url::parse(&input), rules, "{input:?}");
            }
        }
    }

    /// The common paths of those schemes, read without the rules, with
    /// their marks.
    #[test]
    fn reads_these_paths_after_a_login_without_the_rules() {
        const NONE: u32 = crate::url::NO_MARK;
        for (input, marks) in [
            ("gopher://h", [NONE, NONE]),
            ("gopher://h/", [NONE, NONE]),
            ("gopher://h/1", [NONE, NONE]),
            ("gopher://h/1a%20b/c", [NONE, NONE]),
            ("gopher://h/7sel%09a%0Db", [15, NONE]),
            ("gopher://h/7s%09a%09+%09x", [13, 17]),
            ("nntp://h/comp.lang.c", [NONE, NONE]),
            ("nntp://h/a_b+c-d/1234567890123456789", [16, NONE]),
            ("wais://h/db", [NONE, NONE]),
            ("wais://h/db?a%20b=c", [11, NONE]),
            ("wais://h/db/TEXT/p%41th", [11, 16]),
            ("prospero://h/a/b%20c", [NONE, NONE]),
            ("prospero://h/a;f=v;g=", [14, NONE]),
        ] {
            let b = input.as_bytes();
            let j = b[3..].iter().position(|&c| c == b'/').map_or(b.len(), |k| k + 3);
            let j = b[j + 2..].iter().position(|&c| c == b'/').map_or(b.len(), |k| k + j + 2);
            let read = match &input[..4] {
                "goph" => gopher(b, j),
                "nntp" => nntp(b, j),
                "wais" => wais(b, j),
                _ => prospero(b, j),
            };
            assert_eq!(read, Ok(marks), "{input:?}");
        }
        // A bad escape is the rules' error, found without them.
        for (input, read) in [
            ("gopher://h/1a%G", gopher(b"gopher://h/1a%G", 10)),
            ("gopher://h/1%09a%2", gopher(b"gopher://h/1%09a%2", 10)),
            ("wais://h/d/t/%", wais(b"wais://h/d/t/%", 8)),
            ("prospero://h/a;b=%x", prospero(b"prospero://h/a;b=%x", 12)),
        ] {
            assert_eq!(read.map(|_| ()), rules(input).map_err(Some), "{input:?}");
            assert!(read.is_err(), "{input:?}");
        }
    }

    /// Prospero fields of 64 bytes and more, read by masks: the rules'
    /// answer and parts for every text, and read without the rules when
    /// valid. Delimiters and escapes at every place of the blocks.
    #[test]
    fn long_prospero_fields_agree_with_the_rules() {
        let mut tails = crate::testing::random_texts(41_1738, 4_000, 200, b"ab;;==%41G/#~ ?");
        tails.extend(crate::testing::random_texts(42_1738, 4_000, 200, b"abcdefgh;=%4"));
        for len in [63, 64, 65, 127, 128, 129] {
            let field = ";name=value".repeat(len / 11 + 1)[..len].to_string();
            for k in 0..len {
                for c in [b';', b'=', b'%', b'#', b' '] {
                    let mut t = field.clone().into_bytes();
                    t[k] = c;
                    tails.push(t);
                }
            }
        }
        // Valid ones: fieldspecs of names and values with escapes.
        let words = crate::testing::random_texts(43_1738, 12_000, 9, b"abxy?:@&%41");
        let words: Vec<String> =
            words.into_iter().map(|w| String::from_utf8(w).unwrap().replace('%', "%2a")).collect();
        for pairs in words.chunks(12) {
            let tail: String =
                pairs.chunks(2).map(|p| format!(";{}={}", p[0], p.get(1).map_or("", |v| v))).collect();
            tails.push(tail.into_bytes());
        }
        let mut fast = 0;
        for tail in tails.iter().filter(|t| t.first() == Some(&b';') && t.len() >= simd::BLOCK) {
            let input = format!("prospero://h/dir/file{}", String::from_utf8_lossy(tail));
            let rules = crate::Url::parse_with(&input, &crate::ParseOptions::strict()).map(|(url, _)| url);
            assert_eq!(crate::Url::parse(&input), rules, "{input:?}");
            let b = input.as_bytes();
            if let Ok(marks) = prospero(b, 12) {
                assert!(rules.is_ok(), "{input:?}");
                assert_eq!(marks[0], 21, "{input:?}");
                fast += 1;
            }
        }
        assert!(fast > 1_000, "{fast}");
    }

    /// Errors the fast path answers itself, each the rules' error, so that
    /// a stream with broken URLs does not read them twice.
    #[test]
    fn answers_these_errors_without_the_rules() {
        for input in [
            // §3.1: an `ip-schemepart` starts with "//".
            "http:/h.com/",
            "file: ///etc",
            "prospero:/%G/x",
            "ftp:",
            "gopher:#//h",
            "wais:x//h",
            // §3.10: a file URL has no port, whatever follows the ":".
            "file://h.com:80/x",
            "file://h.com:8o/x",
            "file://:8o/x",
            "file://h.com:",
            "file://h.com:80#x@y",
            // §3.2: `";type=" ftptype` and nothing else after the `";"`.
            "ftp://h.com/a;~type=A",
            "ftp://h.com/a;type=x",
            "ftp://h.com/a;type=",
            "ftp://h.com/a;type=aa",
            "ftp://h.com/a;",
        ] {
            let answer = fast_answer(input);
            assert!(answer.is_err(), "{input:?}");
            assert_eq!(answer, rules(input), "{input:?}");
        }
    }
}

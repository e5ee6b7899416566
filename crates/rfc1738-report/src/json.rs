//! The JSON contract of `parse --json`: one object per input.
//!
//! Keys always present: `input`, `valid`, `error`, `scheme`, `kind`,
//! `fragment`, `warnings`. For URLs in the Common Internet Scheme Syntax:
//! `user`, `password`, `host`, `port`, `effective_port`, `url_path`. One
//! object named after the scheme kind, present when valid.

use crate::outcome::Problem;
use rfc1738::{pct, FtpLogin, SchemeKind, Url, WaisForm, Warning};
use serde_json::{json, Map, Value};

/// Decoded octets as text, U+FFFD for each octet that is not UTF-8.
fn text(octets: &[u8]) -> String {
    String::from_utf8_lossy(octets).into_owned()
}

fn decoded(raw: &str) -> String {
    text(&pct::decode(raw))
}

/// The object for one input. `warnings` are those of the parse (deviations
/// a lenient parse accepted, an upper-case scheme); the security warnings
/// of a valid URL are added to them.
pub fn object(input: &[u8], result: &Result<Url, Problem>, warnings: &[Warning]) -> Value {
    let mut o = Map::new();
    o.insert("input".into(), text(input).into());
    match result {
        Ok(url) => {
            valid(&mut o, url);
            let mut all = warnings.to_vec();
            all.extend(url.security_warnings());
            all.sort_by_key(Warning::offset);
            o.insert("warnings".into(), all.iter().map(warning).collect());
        }
        Err(p) => invalid(&mut o, input, p),
    }
    Value::Object(o)
}

/// One warning: `{offset, kind, security, message}`.
#[must_use]
pub fn warning(w: &Warning) -> Value {
    json!({"offset": w.offset(), "len": w.len(), "kind": w.kind().id(), "security": w.kind().is_security(), "message": w.message()})
}

fn invalid(o: &mut Map<String, Value>, input: &[u8], p: &Problem) {
    let scheme = crate::outcome::scheme_of(input);
    let kind = scheme.as_deref().map(|s| SchemeKind::from_bytes(s.as_bytes()).name());
    o.insert("valid".into(), false.into());
    o.insert(
        "error".into(),
        json!({"offset": p.offset, "kind": p.kind, "rule": p.rule, "message": p.message}),
    );
    o.insert("scheme".into(), json!(scheme));
    o.insert("kind".into(), json!(kind));
    o.insert("fragment".into(), Value::Null);
    o.insert("warnings".into(), json!([]));
}

fn valid(o: &mut Map<String, Value>, url: &Url) {
    o.insert("valid".into(), true.into());
    o.insert("error".into(), Value::Null);
    o.insert("scheme".into(), url.scheme().into());
    o.insert("kind".into(), url.kind().name().into());
    o.insert("fragment".into(), json!(url.fragment()));
    o.insert("warnings".into(), json!([]));
    if url.has_authority() {
        o.insert("user".into(), json!(url.user().map(decoded)));
        o.insert("password".into(), json!(url.password().map(decoded)));
        o.insert("host".into(), json!(url.host()));
        o.insert("port".into(), json!(port_number(url)));
        o.insert("effective_port".into(), json!(url.effective_port()));
        o.insert("url_path".into(), json!(url.url_path()));
    }
    o.insert(url.kind().name().into(), view(url));
}

/// The port's number: above 65535 too (§5 gives `port` no range), where
/// [`Url::port`] has none; `None` when absent, or past `u64` (20 digits).
#[must_use]
pub fn port_number(url: &Url) -> Option<u64> {
    match url.port() {
        Some(p) => Some(u64::from(p)),
        None => url.port_str()?.parse().ok(),
    }
}

/// The scheme's own object.
#[must_use]
pub fn view(url: &Url) -> Value {
    match url.kind() {
        SchemeKind::Ftp => ftp(url),
        SchemeKind::Http | SchemeKind::Https => {
            let h = url.http().expect("kind is http");
            json!({"path": h.path(), "search": h.search()})
        }
        SchemeKind::Gopher => gopher(url),
        SchemeKind::Mailto => json!({"address": text(&url.mailto().expect("kind").address())}),
        SchemeKind::News => {
            let n = url.news().expect("kind is news");
            json!({"group": n.group(), "article": n.article(), "all": n.is_all()})
        }
        SchemeKind::Nntp => {
            let n = url.nntp().expect("kind is nntp");
            json!({"group": n.group(), "article": n.article()})
        }
        SchemeKind::Telnet => json!({}),
        SchemeKind::Wais => wais(url),
        SchemeKind::File => {
            let f = url.file().expect("kind is file");
            json!({"host": f.host(), "path": f.path(), "is_local": f.is_local()})
        }
        SchemeKind::Prospero => {
            let p = url.prospero().expect("kind is prospero");
            let fields: Vec<[&str; 2]> = p.fields().map(|(n, v)| [n, v]).collect();
            json!({"hsoname": text(&p.hsoname()), "fields": fields})
        }
        SchemeKind::Other => {
            let o = url.other().expect("kind is other");
            json!({
                "scheme_specific_part": o.scheme_specific_part(),
                "reserved": o.is_reserved(),
                "experimental": o.is_experimental(),
            })
        }
    }
}

fn ftp(url: &Url) -> Value {
    let f = url.ftp().expect("kind is ftp");
    let cwd: Vec<String> = f.cwd().map(decoded).collect();
    let commands: Vec<String> = f.commands().iter().map(ToString::to_string).collect();
    let login = match f.login() {
        FtpLogin::Anonymous => vec!["USER anonymous".to_string(), "PASS <your e-mail address>".into()],
        FtpLogin::User { user, password } => {
            let pass = password.map_or("PASS <ask the user>".into(), |p| format!("PASS {}", text(&p)));
            vec![format!("USER {}", text(&user)), pass]
        }
    };
    json!({
        "cwd": cwd,
        "name": decoded(f.name()),
        "typecode": f.typecode().map(|t| (t as char).to_string()),
        "commands": commands,
        "login": login,
    })
}

fn gopher(url: &Url) -> Value {
    let g = url.gopher().expect("kind is gopher");
    json!({
        "type": (g.gopher_type() as char).to_string(),
        "selector": decoded(g.selector()),
        "search": g.search().map(decoded),
        "plus": g.plus().map(decoded),
        "request": text(&g.request()),
    })
}

fn wais(url: &Url) -> Value {
    let w = url.wais().expect("kind is wais");
    let form = match w.form() {
        WaisForm::Database => "database",
        WaisForm::Index => "index",
        WaisForm::Doc => "doc",
    };
    json!({
        "form": form,
        "database": w.database(),
        "search": w.search(),
        "wtype": w.wtype(),
        "wpath": w.wpath(),
    })
}

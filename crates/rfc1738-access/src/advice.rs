//! What a client does with the URLs this crate does not access itself.

use crate::{decode, SchemeKind, Url};

/// What a client would do with `url`, and why `fetch` does not do it.
pub(crate) fn describe(url: &Url) -> String {
    let host = url.host().unwrap_or("");
    // As written: a port above 65535 has no `u16` (§5 gives it no range).
    let port = |default: u16| url.port_str().map_or(default.to_string(), ToString::to_string);
    let text = |s: &str| String::from_utf8_lossy(&decode(s)).into_owned();
    match url.kind() {
        SchemeKind::Telnet => {
            let login = match (url.user(), url.password()) {
                (Some(u), Some(_)) => format!(", and suggest logging in as {:?} with the password the url gives", text(u)),
                (Some(u), None) => format!(", and suggest logging in as {:?}", text(u)),
                _ => String::new(),
            };
            format!(
                "telnet: a client would open an interactive terminal session to {host} port {}{login} (RFC 1738 §3.8); \
                 fetch does not: the url designates an interactive service, not a resource to retrieve, \
                 and the user name and password are advice to the user, not a login to perform",
                port(23)
            )
        }
        SchemeKind::Mailto => format!(
            "mailto: a client would compose a message to {:?} and hand it to the user's mail system (RFC 1738 §3.5); \
             fetch does not: the url designates a mailbox, there is nothing to retrieve, and sending mail is an action \
             only the user may take",
            url.mailto().map(|m| String::from_utf8_lossy(&m.address()).into_owned()).unwrap_or_default()
        ),
        SchemeKind::Wais => format!(
            "wais: a client would connect to {host} port {} and send a Z39.50 (WAIS) search of the database, or \
             retrieve the document the wtype and wpath name (RFC 1738 §3.9); fetch does not speak the WAIS protocol",
            port(210)
        ),
        SchemeKind::Prospero => format!(
            "prospero: a client would ask the Prospero directory server at {host} port {} (UDP) to resolve the \
             hsoname, then reach the object by the access method that server returns (RFC 1738 §3.11); fetch does \
             not speak the Prospero protocol",
            port(1525)
        ),
        _ => format!("{}: no access method", url.scheme()),
    }
}

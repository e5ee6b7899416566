//! The default job: the example URLs of the RFC text, explained.

use super::explain::write_explanation;
use super::report;
use crate::outcome::parse_bytes;
use crate::status;
use std::io::{self, BufWriter, Write};

/// URLs the RFC text gives, with the section each comes from. Schemes the
/// text gives no example of are written in the form their section shows.
pub const EXAMPLES: &[(&str, &str)] = &[
    ("§3.2.2", "ftp://myname@host.dom/%2Fetc/motd"),
    ("§3.2.2", "ftp://myname@host.dom/etc/motd"),
    ("§3.2.2", "ftp://myname@host.dom//etc/motd"),
    ("§3.1", "ftp://@host.com/"),
    ("§3.1", "ftp://foo:@host.com/"),
    ("Appendix", "ftp://info.cern.ch/pub/www/doc;type=d"),
    ("References", "ftp://ds.internic.net/rfc/rfc1436.txt;type=a"),
    ("Appendix", "http://ds.internic.net/instructions/overview.html#WARNING"),
    ("§3.4.2 form", "gopher://gopher.host.dom/7search%09rfc1738"),
    ("§3.4.7 form", "gopher://gopher.host.dom/0item%09%09!+ABSTRACT%20+SMELL"),
    ("§3.5 form", "mailto:timbl@info.cern.ch"),
    ("§3.6", "news:comp.infosystems.www.misc"),
    ("§3.6", "news:*"),
    ("§3.7 form", "nntp://news.host.dom/comp.infosystems.www.misc/1234"),
    ("§3.8 form", "telnet://guest:guest@host.dom:2323/"),
    ("§3.9 form", "wais://wais.host.dom:210/database?search"),
    ("§3.10", "file://vms.host.edu/disk$user/my/notes/note12345.txt"),
    ("§3.11", "prospero://host.dom//pros/name"),
    ("§4", "z39.50:record"),
];

/// Inputs the RFC rules out, shown with the place where each goes wrong.
pub const COUNTER_EXAMPLES: &[(&str, &str)] = &[
    ("§3.3: no user name or password in http", "http://user@host.dom/"),
    ("§2.2: a space is unsafe", "http://host.dom/my file.html"),
    ("§3.1: the top label never starts with a digit", "ftp://host.4dom/"),
];

/// Runs the default job.
pub fn run() -> io::Result<u8> {
    let mut out = BufWriter::new(anstream::stdout().lock());
    writeln!(out, "RFC 1738 example URLs, and what a client does with each:\n")?;
    for (section, url) in EXAMPLES {
        writeln!(out, "[{section}]")?;
        match parse_bytes(url.as_bytes()) {
            Ok(u) => write_explanation(&mut out, &u)?,
            Err(p) => report(&mut out, url.as_bytes(), &p)?,
        }
    }
    writeln!(out, "Counter-examples, rejected where the RFC says:\n")?;
    for (why, url) in COUNTER_EXAMPLES {
        writeln!(out, "[{why}]")?;
        if let Err(p) = parse_bytes(url.as_bytes()) {
            report(&mut out, url.as_bytes(), &p)?;
        }
        writeln!(out)?;
    }
    writeln!(out, "Try: rfc1738 parse URL, rfc1738 explain URL, rfc1738 check FILE (see --help).")?;
    out.flush()?;
    Ok(status::OK)
}

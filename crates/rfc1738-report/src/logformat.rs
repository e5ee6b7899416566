//! Log lines in the format a server was told to write: an Apache
//! `LogFormat` string (`%h %l %u %t "%r" %>s %b`) or an nginx
//! `log_format` string (`$remote_addr - $remote_user [$time_local]
//! "$request" ...`), or one of the presets `common`, `combined`,
//! `vhost_combined` and nginx `main`.
//!
//! A format is read into literal text and fields; a line is read against
//! it left to right: each literal must be there, a field between quotes
//! runs to the quote no `\` escapes (as Apache escapes them), a `%t` to
//! its `]`, any other field to the first byte of the literal after it.
//! The fields the record has keys for (client, ident, user, time, the
//! request, status, size, referer, user agent) make the record
//! [`clf::record_with`] gives, its request URL checked as a Common Log
//! Format line's; every other field (`%D`, `%{X}i`, `$request_time`) is
//! an [`Extra`], named and typed by `logfields`, its value read only
//! when asked for ([`LogFormat::extra_values`]): checking costs nothing
//! more for it.

use crate::clf::{self, closing, request_spans, Around, ClfError, Fields, Record};
use crate::logfields::{self, Extra, Value};
use std::fmt;

/// What a field of a log line holds, as far as checking goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// The request line (`%r`, `$request`).
    Request,
    /// The final status (`%s`, `%>s`, `$status`).
    Status,
    /// The size of the response (`%b`, `%B`, `%O`, `$body_bytes_sent`, `$bytes_sent`).
    Bytes,
    /// The `Referer` request header.
    Referer,
    /// The `User-Agent` request header.
    Agent,
    /// Apache's `%t`: `[date]`, a space inside; nginx's `$time_local`.
    Time,
    /// The client (`%h`, `%a`, `$remote_addr`).
    Client,
    /// `%l`: the identity `identd` gave.
    Ident,
    /// The user (`%u`, `$remote_user`).
    User,
    /// Any other field: the format's extra field of that index.
    Extra(usize),
}

/// One piece of a format.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Item {
    Literal(Vec<u8>),
    Field(Role),
}

/// A log format: literal text and fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogFormat {
    items: Vec<Item>,
    /// The fields the record has no key for, in the order of the format.
    extras: Vec<Extra>,
}

/// Why a format string was refused: a directive or variable unknown, at
/// a byte offset of the string; or no directive at all (a misspelt
/// preset name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// The directive or variable as written (`%Z`, `$nosuch`); empty when
    /// the text has none at all and names no preset.
    pub directive: String,
    /// Its byte offset in the format string.
    pub offset: usize,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.directive.is_empty() {
            return write!(
                f,
                "not a preset and no directive (%x, $name) in the log format; the presets: {} \
                 (apache: combined, nginx: main)",
                PRESETS.map(|(name, _)| name).join(", ")
            );
        }
        write!(f, "unknown directive {} at offset {} of the log format", self.directive, self.offset)
    }
}

impl std::error::Error for FormatError {}

/// The presets: Apache's `common`, `combined` and `vhost_combined` (as
/// Debian's apache2.conf defines them) and nginx's `main` (the example of
/// its nginx.conf).
pub const PRESETS: [(&str, &str); 4] = [
    ("common", r#"%h %l %u %t "%r" %>s %b"#),
    ("combined", r#"%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-agent}i""#),
    ("vhost_combined", r#"%v:%p %h %l %u %t "%r" %>s %O "%{Referer}i" "%{User-Agent}i""#),
    (
        "main",
        r#"$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" "$http_x_forwarded_for""#,
    ),
];

impl LogFormat {
    /// A preset by name (without regard to case, `-` for `_`; `apache`
    /// for `combined`, `nginx` for `main`), or a format string: Apache's
    /// when it holds a `%` directive, nginx's when it holds a `$`
    /// variable. Apache's `\"`, `\\`, `\t` and `\n` (as written inside
    /// the quotes of a `LogFormat` line) are read as the characters.
    ///
    /// # Errors
    /// A directive or variable this reader does not know, named; a text
    /// with no directive at all (a misspelt preset), with the presets.
    pub fn parse(text: &str) -> Result<LogFormat, FormatError> {
        let name = text.to_ascii_lowercase().replace('-', "_");
        let name = match name.as_str() {
            "apache" => "combined",
            "nginx" => "main",
            name => name,
        };
        if let Some((_, preset)) = PRESETS.iter().find(|(preset, _)| *preset == name) {
            return LogFormat::parse(preset);
        }
        let mut extras = Vec::new();
        let items = if text.contains('%') { apache(text, &mut extras)? } else { nginx(text, &mut extras)? };
        if !items.iter().any(|i| matches!(i, Item::Field(_))) {
            return Err(FormatError { directive: String::new(), offset: 0 });
        }
        // Literals next to each other are one.
        let mut merged: Vec<Item> = Vec::new();
        for item in items {
            match (merged.last_mut(), item) {
                (Some(Item::Literal(a)), Item::Literal(b)) => a.extend_from_slice(&b),
                (_, Item::Literal(b)) if b.is_empty() => {}
                (_, item) => merged.push(item),
            }
        }
        Ok(LogFormat { items: merged, extras })
    }

    /// Reads and checks one line of this format, as [`clf::record_with`]
    /// reads a Common Log Format line.
    #[must_use]
    pub fn record<'a>(&self, line: &'a [u8], lenient: bool, fields: Fields) -> Record<'a> {
        clf::build(line, self.read(line), lenient, fields)
    }

    /// Lines of this format checked strictly as [`LogFormat::record`]
    /// checks each, their URLs in bulk, as [`clf::check_lines`] checks
    /// Common Log Format lines.
    pub fn check_lines<'a>(
        &self,
        lines: impl IntoIterator<Item = &'a [u8]>,
        fields: Fields,
        each: impl FnMut(&'a [u8], Record<'a>),
    ) {
        clf::check_lines_with(lines, |b| self.read(b), fields, each);
    }

    /// The fields of this format the record has no key for (`%D`,
    /// `%{X}i`, `$request_time`), in the order of the format.
    #[must_use]
    pub fn extras(&self) -> &[Extra] {
        &self.extras
    }

    /// The values of [`LogFormat::extras`] in `line`, typed: null when
    /// logged as `-` or empty, when not of the field's type, or when the
    /// line stops before the field.
    #[must_use]
    pub fn extra_values<'a>(&self, line: &'a [u8]) -> Vec<Value<'a>> {
        if self.extras.is_empty() {
            return Vec::new();
        }
        let mut raw = vec![None; self.extras.len()];
        let _ = self.read_into(line, Some(&mut raw));
        self.extras.iter().zip(raw).map(|(e, r)| Value::of(e.kind, r)).collect()
    }

    /// The line's request and the fields around it.
    fn read<'a>(&self, b: &'a [u8]) -> (Result<clf::Spans, ClfError>, Around<'a>) {
        self.read_into(b, None)
    }

    /// [`LogFormat::read`], each extra field's text put in `extras` too
    /// when given.
    fn read_into<'a>(
        &self,
        b: &'a [u8],
        mut extras: Option<&mut Vec<Option<&'a [u8]>>>,
    ) -> (Result<clf::Spans, ClfError>, Around<'a>) {
        let mut around = Around::default();
        let mut request = None;
        let mut at = 0;
        for (k, item) in self.items.iter().enumerate() {
            match item {
                Item::Literal(text) => {
                    if !b[at..].starts_with(text) {
                        let same = b[at..].iter().zip(text).take_while(|(x, y)| x == y).count();
                        return (Err(ClfError::Mismatch(at + same)), around);
                    }
                    at += text.len();
                }
                Item::Field(role) => {
                    let quoted = at > 0
                        && b[at - 1] == b'"'
                        && matches!(&self.items[..k], [.., Item::Literal(l)] if l.ends_with(b"\""));
                    let mut cut = false;
                    let end = if quoted {
                        match closing(b, at - 1) {
                            Some(close) => close,
                            None if *role == Role::Request => {
                                return (Err(ClfError::Unterminated(at - 1)), around);
                            }
                            // A line cut off inside a field: the field to
                            // the end, the fields before it kept.
                            None => {
                                cut = true;
                                b.len()
                            }
                        }
                    } else if *role == Role::Time && b.get(at) == Some(&b'[') {
                        match memchr::memchr(b']', &b[at..]) {
                            Some(k) => at + k + 1,
                            None => return (Err(ClfError::Mismatch(b.len())), around),
                        }
                    } else {
                        match self.items.get(k + 1) {
                            // A field other than a time holds no space: it
                            // stops there, and the literal after it is
                            // compared there (the caret at that field).
                            Some(Item::Literal(next)) if *role != Role::Time => {
                                memchr::memchr2(next[0], b' ', &b[at..]).map_or(b.len(), |n| at + n)
                            }
                            Some(Item::Literal(next)) => {
                                memchr::memchr(next[0], &b[at..]).map_or(b.len(), |n| at + n)
                            }
                            _ => memchr::memchr(b' ', &b[at..]).map_or(b.len(), |n| at + n),
                        }
                    };
                    let value = &b[at..end];
                    let dash = value == b"-";
                    match role {
                        Role::Request => request = Some((at, end)),
                        Role::Status => around.status = number(value).and_then(|n| u16::try_from(n).ok()),
                        Role::Bytes => around.bytes = number(value),
                        Role::Referer if !dash && !value.is_empty() => around.referer = Some((value, at)),
                        Role::Agent if !dash && !value.is_empty() => around.agent = Some(value),
                        Role::Client => around.client = Some(value),
                        Role::Ident if !dash => around.ident = Some(value),
                        Role::User if !dash => around.user = Some(value),
                        Role::Time => {
                            around.time = Some(
                                value.strip_prefix(b"[").and_then(|v| v.strip_suffix(b"]")).unwrap_or(value),
                            );
                        }
                        Role::Extra(k) => {
                            if let Some(e) = extras.as_deref_mut() {
                                e[*k] = Some(value);
                            }
                        }
                        _ => {}
                    }
                    at = end;
                    if cut {
                        break;
                    }
                }
            }
        }
        let spans = match request {
            Some((from, to)) => request_spans(b, from, to, around.status, around.bytes),
            None => Err(ClfError::NoRequestField(0)),
        };
        (spans, around)
    }
}

/// Digits as a number; `None` for `-` or anything else.
fn number(value: &[u8]) -> Option<u64> {
    if value.is_empty() || value.len() > 19 || !value.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(value.iter().fold(0u64, |n, &c| n * 10 + u64::from(c - b'0')))
}

/// An Apache `LogFormat` string (mod_log_config's directives).
fn apache(text: &str, extras: &mut Vec<Extra>) -> Result<Vec<Item>, FormatError> {
    let b = text.as_bytes();
    let mut items = Vec::new();
    let mut lit = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' if i + 1 < b.len() => {
                lit.push(match b[i + 1] {
                    b't' => b'\t',
                    b'n' => b'\n',
                    c => c,
                });
                i += 2;
            }
            b'%' => {
                let start = i;
                i += 1;
                if b.get(i) == Some(&b'%') {
                    lit.push(b'%');
                    i += 1;
                    continue;
                }
                // Conditions (`!400,501`) and `<` `>` come before the letter.
                while i < b.len() && matches!(b[i], b'!' | b',' | b'<' | b'>' | b'0'..=b'9') {
                    i += 1;
                }
                let mut arg = None;
                if b.get(i) == Some(&b'{') {
                    let close = b[i..].iter().position(|&c| c == b'}').map(|k| i + k);
                    let Some(close) = close else {
                        return Err(FormatError { directive: text[start..].to_string(), offset: start });
                    };
                    arg = Some(&text[i + 1..close]);
                    i = close + 1;
                }
                // `%^ti`, `%^to`: trailers.
                let len = if b.get(i) == Some(&b'^') { 3 } else { 1 };
                let Some(letter) = text.get(i..i + len) else {
                    return Err(FormatError { directive: text[start..].to_string(), offset: start });
                };
                i += len;
                let role = match (letter, arg) {
                    ("r", _) => Role::Request,
                    ("s", _) => Role::Status,
                    ("b" | "B" | "O", _) => Role::Bytes,
                    ("i", Some(h)) if h.eq_ignore_ascii_case("referer") => Role::Referer,
                    ("i", Some(h)) if h.eq_ignore_ascii_case("user-agent") => Role::Agent,
                    ("t", None) => Role::Time,
                    ("h" | "a", None) => Role::Client,
                    ("l", None) => Role::Ident,
                    ("u", None) => Role::User,
                    (
                        "a" | "A" | "D" | "f" | "h" | "H" | "k" | "l" | "L" | "m" | "p" | "P" | "q" | "R"
                        | "T" | "u" | "U" | "v" | "V" | "X" | "I" | "S" | "t" | "M",
                        _,
                    )
                    | ("C" | "e" | "i" | "n" | "o" | "x", Some(_))
                    | ("^ti" | "^to", Some(_)) => {
                        let (name, kind) = logfields::apache(letter, arg);
                        extras.push(Extra { name: logfields::unique(name, extras), kind });
                        Role::Extra(extras.len() - 1)
                    }
                    _ => {
                        return Err(FormatError { directive: text[start..i].to_string(), offset: start });
                    }
                };
                items.push(Item::Literal(std::mem::take(&mut lit)));
                items.push(Item::Field(role));
            }
            c => {
                lit.push(c);
                i += 1;
            }
        }
    }
    items.push(Item::Literal(lit));
    Ok(items)
}

/// Variables of nginx's `log_format` this reader knows, beside the
/// families `http_*`, `sent_http_*`, `upstream_*`, `arg_*`, `cookie_*`.
const NGINX: &[&str] = &[
    "remote_addr",
    "remote_port",
    "remote_user",
    "time_local",
    "time_iso8601",
    "msec",
    "request",
    "request_method",
    "request_uri",
    "request_time",
    "request_length",
    "request_id",
    "uri",
    "args",
    "query_string",
    "server_protocol",
    "status",
    "body_bytes_sent",
    "bytes_sent",
    "host",
    "hostname",
    "server_name",
    "server_addr",
    "server_port",
    "scheme",
    "https",
    "connection",
    "connection_requests",
    "pipe",
    "gzip_ratio",
    "ssl_protocol",
    "ssl_cipher",
    "binary_remote_addr",
    "proxy_protocol_addr",
    "realip_remote_addr",
    "pid",
    "document_root",
    "request_filename",
    "content_type",
    "content_length",
    "limit_rate",
];

/// An nginx `log_format` string: `$name` or `${name}`.
fn nginx(text: &str, extras: &mut Vec<Extra>) -> Result<Vec<Item>, FormatError> {
    let b = text.as_bytes();
    let mut items = Vec::new();
    let mut lit = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'$' {
            lit.push(b[i]);
            i += 1;
            continue;
        }
        let start = i;
        let braced = b.get(i + 1) == Some(&b'{');
        let from = i + 1 + usize::from(braced);
        let len = b[from..].iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'_').count();
        let name = &text[from..from + len];
        i = from + len;
        if braced {
            if b.get(i) != Some(&b'}') {
                return Err(FormatError { directive: text[start..i].to_string(), offset: start });
            }
            i += 1;
        }
        let role = match name {
            "request" => Role::Request,
            "time_local" => Role::Time,
            "remote_addr" => Role::Client,
            "remote_user" => Role::User,
            "status" => Role::Status,
            "body_bytes_sent" | "bytes_sent" => Role::Bytes,
            "http_referer" => Role::Referer,
            "http_user_agent" => Role::Agent,
            n if NGINX.contains(&n)
                || ["http_", "sent_http_", "upstream_", "arg_", "cookie_", "sent_trailer_"]
                    .iter()
                    .any(|p| n.len() > p.len() && n.starts_with(p)) =>
            {
                let kind = logfields::nginx(n);
                extras.push(Extra { name: logfields::unique(n.to_string(), extras), kind });
                Role::Extra(extras.len() - 1)
            }
            _ => return Err(FormatError { directive: text[start..i].to_string(), offset: start }),
        };
        items.push(Item::Literal(std::mem::take(&mut lit)));
        items.push(Item::Field(role));
    }
    items.push(Item::Literal(lit));
    Ok(items)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logfields::Value as Field;
    use serde_json::{json, Value};

    fn read(format: &str, line: &str) -> serde_json::Map<String, Value> {
        LogFormat::parse(format).unwrap().record(line.as_bytes(), false, Fields::BOTH).to_json()
    }

    const COMBINED: &str = r#"192.0.2.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /a?b HTTP/1.1" 200 2326 "http://r.dom/x" "Mozilla/5.0 (\"q\")""#;

    #[test]
    fn each_preset_reads_its_lines_as_the_clf_reader_does() {
        let common = r#"192.0.2.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /a?b HTTP/1.1" 200 2326"#;
        for (format, line) in [("common", common), ("combined", COMBINED)] {
            let want = clf::record_with(line.as_bytes(), false, Fields::BOTH).to_json();
            assert_eq!(read(format, line), want, "{format}");
        }
        let o = read("combined", COMBINED);
        assert_eq!(
            (&o["target"], &o["status"], &o["referer"]),
            (&json!("/a?b"), &json!(200), &json!("http://r.dom/x"))
        );
        assert_eq!(o["user_agent"], r#"Mozilla/5.0 ("q")"#);
        let vhost = r#"www.example.com:443 192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] "GET /~x HTTP/1.1" 404 7 "-" "curl/8""#;
        let o = read("vhost_combined", vhost);
        assert_eq!(
            (&o["target"], &o["status"], &o["bytes"], &o["valid"]),
            (&json!("/~x"), &json!(404), &json!(7), &json!(false))
        );
        assert_eq!(o["error"]["offset"], vhost.find('~').unwrap());
        let main = r#"192.0.2.1 - - [10/Oct/2000:13:55:36 +0000] "GET http://h.dom/p HTTP/1.1" 301 0 "-" "ua" "203.0.113.9""#;
        let o = read("main", main);
        assert_eq!(
            (&o["target"], &o["scheme"], &o["status"], &o["referer"]),
            (&json!("http://h.dom/p"), &json!("http"), &json!(301), &Value::Null)
        );
    }

    #[test]
    fn lines_checked_in_bulk_are_the_records_of_each() {
        let format = LogFormat::parse("vhost_combined").unwrap();
        let mut lines = Vec::new();
        for (k, target) in ["/a", "/a b", "http://h.dom/", "*", "/~x"].iter().enumerate() {
            for referer in ["-", "http://r.dom/", "http://r.dom/a b", "/rel", "HTTP://R.DOM/"] {
                lines.push(format!(
                    r#"v.dom:80 10.0.0.{k} - - [d] "GET {target} HTTP/1.1" 200 1 "{referer}" "ua""#
                ));
            }
        }
        lines.push("not a line of the format".into());
        let lines: Vec<&[u8]> = lines.iter().map(String::as_bytes).collect();
        for fields in [Fields::REQUEST, Fields::BOTH] {
            let mut n = 0;
            format.check_lines(lines.iter().copied(), fields, |line, r| {
                assert_eq!(r, format.record(line, false, fields), "{}", String::from_utf8_lossy(line));
                n += 1;
            });
            assert_eq!(n, lines.len());
        }
    }

    #[test]
    fn a_custom_apache_format_with_the_request_elsewhere() {
        let f = r#"%v %{X-Forwarded-For}i %D \"%r\" %>s %B %T \"%{Referer}i\" %t"#;
        let line = r#"h.dom 10.0.0.1 1234 "GET /p HTTP/1.1" 200 99 0 "ftp://f.dom/x y" [10/Oct/2000:13:55:36 -0700]"#;
        let o = read(f, line);
        assert_eq!((&o["target"], &o["status"], &o["bytes"]), (&json!("/p"), &json!(200), &json!(99)));
        assert_eq!(
            (&o["referer_scheme"], &o["referer_valid"], &o["valid"]),
            (&json!("ftp"), &json!(false), &json!(false))
        );
        // A line of another shape: not a line of this format.
        let o = read(f, "just text");
        assert_eq!(o["error"]["kind"], "clf-format-mismatch");
    }

    #[test]
    fn the_fields_of_each_preset_are_in_the_record() {
        let keys = ["client", "ident", "user", "time", "time_iso"];
        let want = [
            json!("192.0.2.1"),
            Value::Null,
            json!("frank"),
            json!("10/Oct/2000:13:55:36 -0700"),
            json!("2000-10-10T13:55:36-07:00"),
        ];
        let o = read("combined", COMBINED);
        assert_eq!(keys.map(|k| o[k].clone()), want);
        let main = r#"192.0.2.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /p HTTP/1.1" 200 1 "-" "ua" "-""#;
        let o = read("main", main);
        assert_eq!(keys.map(|k| o[k].clone()), want);
    }

    #[test]
    fn a_custom_nginx_format() {
        let f = r#"$host $remote_addr [$time_local] "$request" $status $body_bytes_sent $request_time "${http_referer}" "$http_user_agent" $upstream_response_time"#;
        let line =
            r#"h.dom 192.0.2.1 [10/Oct/2000:13:55:36 +0000] "GET /a%zz HTTP/2.0" 200 5 0.001 "-" "ua" 0.000"#;
        let o = read(f, line);
        assert_eq!((&o["target"], &o["valid"], &o["status"]), (&json!("/a%zz"), &json!(false), &json!(200)));
        assert_eq!(o["error"]["offset"], line.find('%').unwrap());
    }

    #[test]
    fn an_unknown_directive_is_named() {
        let e = LogFormat::parse("%h %Z %r").unwrap_err();
        assert_eq!((e.directive.as_str(), e.offset), ("%Z", 3));
        assert_eq!(e.to_string(), "unknown directive %Z at offset 3 of the log format");
        let e = LogFormat::parse(r#"$remote_addr "$request" $nosuch"#).unwrap_err();
        assert_eq!(e.directive, "$nosuch");
        assert!(LogFormat::parse("%{Referer").is_err());
        assert!(LogFormat::parse("${request").is_err());
        assert!(LogFormat::parse("%").is_err());
    }

    #[test]
    fn a_preset_is_named_without_regard_to_case_and_by_its_aliases() {
        let combined = LogFormat::parse("combined").unwrap();
        for name in ["Combined", "COMBINED", "apache", "Apache"] {
            assert_eq!(LogFormat::parse(name).unwrap(), combined, "{name}");
        }
        let main = LogFormat::parse("main").unwrap();
        assert_eq!(LogFormat::parse("nginx").unwrap(), main);
        assert_eq!(LogFormat::parse("vhost-combined").unwrap(), LogFormat::parse("vhost_combined").unwrap());
        // A text with no directive at all is a misspelt preset, not a format.
        for text in ["combind", "nginx2", "", "plain text"] {
            let e = LogFormat::parse(text).unwrap_err();
            assert_eq!(e.offset, 0, "{text}");
            let message = e.to_string();
            assert!(message.contains("common, combined, vhost_combined, main"), "{message}");
            assert!(message.contains("no directive"), "{message}");
        }
    }

    #[test]
    fn a_field_stops_at_a_space_before_its_literal() {
        // `%v` without `:port`: the host stops at its space, and the caret
        // points there, not at the first `:` inside the time.
        let line =
            r#"www.example.com 192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.1" 200 7 "-" "a:b""#;
        let o = read("vhost_combined", line);
        assert_eq!((&o["error"]["kind"], &o["error"]["offset"]), (&json!("clf-format-mismatch"), &json!(15)));
        // nginx's `[$time_local]` holds a space and is read whole.
        let main = r#"192.0.2.1 - - [10/Oct/2000:13:55:36 +0000] "GET /p HTTP/1.1" 200 1 "-" "ua" "-""#;
        assert_eq!(read("main", main)["valid"], json!(true));
    }

    #[test]
    fn a_cut_off_last_field_keeps_the_fields_before_it() {
        let line = r#"192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] "GET /a HTTP/1.1" 200 7 "http://r.dom/" "Mozilla/5.0 (X11"#;
        let o = read("combined", line);
        assert_eq!(
            (&o["target"], &o["valid"], &o["referer"]),
            (&json!("/a"), &json!(true), &json!("http://r.dom/"))
        );
        assert_eq!(o["user_agent"], json!("Mozilla/5.0 (X11"));
        // The request itself cut off: the line has none.
        let o = read("combined", r#"192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] "GET /a HT"#);
        assert_eq!(o["error"]["kind"], json!("clf-unterminated-request"));
    }

    #[test]
    fn the_other_fields_of_a_format_are_kept_typed() {
        let f = LogFormat::parse(
            r#"%h %l %u %t "%r" %>s %b %D %T "%{X-Forwarded-For}i" "%{Content-Type}o" %k %{ms}T %p"#,
        )
        .unwrap();
        let names: Vec<&str> = f.extras().iter().map(|e| e.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "request_time_us",
                "request_time_s",
                "http_x_forwarded_for",
                "sent_http_content_type",
                "keepalive_requests",
                "request_time_ms",
                "server_port",
            ]
        );
        let line = r#"192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] "GET /a HTTP/1.1" 200 5 1234 0 "203.0.113.9, \"x\"" "-" - 1 443"#;
        let values = f.extra_values(line.as_bytes());
        assert_eq!(
            values,
            [
                Field::Integer(1234),
                Field::Integer(0),
                Field::Text(r#"203.0.113.9, "x""#.into()),
                Field::Null,
                Field::Null,
                Field::Integer(1),
                Field::Integer(443),
            ]
        );
        assert_eq!(
            Field::object(f.extras(), &values),
            json!({"request_time_us": 1234, "request_time_s": 0, "http_x_forwarded_for": "203.0.113.9, \"x\"",
                   "sent_http_content_type": null, "keepalive_requests": null, "request_time_ms": 1, "server_port": 443})
        );
        // The record is the one the format gives without the fields.
        let plain = LogFormat::parse("combined").unwrap();
        assert!(plain.extras().is_empty());
        assert!(plain.extra_values(COMBINED.as_bytes()).is_empty());
    }

    #[test]
    fn nginx_variables_keep_their_names_and_numbers_their_types() {
        let f = LogFormat::parse(
            r#"$remote_addr [$time_local] "$request" $status $body_bytes_sent $request_time "$upstream_response_time" $remote_port $scheme $scheme"#,
        )
        .unwrap();
        let names: Vec<&str> = f.extras().iter().map(|e| e.name.as_str()).collect();
        // A name the record has for itself (`scheme`) is taken as `field_scheme`; a second `_2`.
        assert_eq!(
            names,
            ["request_time", "upstream_response_time", "remote_port", "field_scheme", "field_scheme_2"]
        );
        let line = r#"192.0.2.1 [10/Oct/2000:13:55:36 +0000] "GET /p HTTP/1.1" 200 1 0.005 "0.004, 0.001" 5555 https -"#;
        assert_eq!(
            f.extra_values(line.as_bytes()),
            [
                Field::Number(0.005),
                Field::Text("0.004, 0.001".into()),
                Field::Integer(5555),
                Field::Text("https".into()),
                Field::Null,
            ]
        );
        // A number field that holds no number is null, never an error.
        let odd = r#"192.0.2.1 [10/Oct/2000:13:55:36 +0000] "GET /p HTTP/1.1" 200 1 fast "-" port x y"#;
        assert_eq!(f.extra_values(odd.as_bytes())[..3], [Field::Null, Field::Null, Field::Null]);
        // A line cut before its last fields: those are null.
        let cut = r#"192.0.2.1 [10/Oct/2000:13:55:36 +0000] "GET /p HTTP/1.1" 200 1 0.5"#;
        assert_eq!(f.extra_values(cut.as_bytes())[..2], [Field::Number(0.5), Field::Null]);
    }

    #[test]
    fn a_format_without_a_request_says_so() {
        let o = read("%h %>s", "h 200");
        assert_eq!((&o["error"]["kind"], &o["status"]), (&json!("clf-no-request-field"), &json!(200)));
    }
}

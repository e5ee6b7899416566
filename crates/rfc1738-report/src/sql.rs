//! What each `rfc1738_*` SQL function says of one input, for every engine
//! that registers them: the Python package (DuckDB, DataFusion, Polars)
//! and the loadable DuckDB extension. An engine turns these rows into its
//! own columns; what a row holds is decided here once.
//!
//! A null input is a null result in every function; the engines handle
//! that before calling in here.

use crate::clf;
use crate::logtime::LogTime;
use crate::outcome::{self, Problem};
use rfc1738::{SchemeKind, Url, Warning};
use std::borrow::Cow;

/// One input read as `rfc1738_parse` reads it: the top-level fields of
/// `parse --json`, and the error when the input is no URL.
#[derive(Clone, Debug)]
pub enum Parsed {
    /// A URL, with the warnings of the parse and its §6 security warnings.
    Valid {
        /// The URL.
        url: Url,
        /// Every warning, by offset.
        warnings: Vec<Warning>,
    },
    /// No URL: where and why, and the scheme the input names, if any.
    Invalid {
        /// [`outcome::scheme_of`] the input.
        scheme: Option<String>,
        /// The error.
        problem: Problem,
    },
}

impl Parsed {
    /// Reads `input`, accepting the deviations of `--lenient` when `lenient`.
    #[must_use]
    pub fn new(input: &[u8], lenient: bool) -> Parsed {
        match outcome::parse_bytes_with(input, &outcome::options(lenient)) {
            Ok((url, mut warnings)) => {
                warnings.extend(url.security_warnings());
                warnings.sort_by_key(Warning::offset);
                Parsed::Valid { url, warnings }
            }
            Err(problem) => Parsed::Invalid { scheme: outcome::scheme_of(input), problem },
        }
    }

    /// The URL, when the input is one.
    #[must_use]
    pub fn url(&self) -> Option<&Url> {
        match self {
            Parsed::Valid { url, .. } => Some(url),
            Parsed::Invalid { .. } => None,
        }
    }

    /// Whether the input is a URL.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.url().is_some()
    }

    /// The scheme, lower-cased; for an invalid input, the one it names.
    #[must_use]
    pub fn scheme(&self) -> Option<&str> {
        match self {
            Parsed::Valid { url, .. } => Some(url.scheme()),
            Parsed::Invalid { scheme, .. } => scheme.as_deref(),
        }
    }

    /// The name of the scheme's kind (`ftp`, `other`, ...), as `scheme` is known.
    #[must_use]
    pub fn kind(&self) -> Option<&'static str> {
        match self {
            Parsed::Valid { url, .. } => Some(url.kind().name()),
            Parsed::Invalid { scheme, .. } => {
                scheme.as_deref().map(|s| SchemeKind::from_bytes(s.as_bytes()).name())
            }
        }
    }

    /// The URL when it has the `//login/path` shape of §3.1, whose parts
    /// the login fields name.
    fn authority(&self) -> Option<&Url> {
        self.url().filter(|u| u.has_authority())
    }

    /// The user name, decoded (lossy UTF-8).
    #[must_use]
    pub fn user(&self) -> Option<String> {
        self.authority().and_then(Url::user).map(decoded)
    }

    /// The password, decoded (lossy UTF-8).
    #[must_use]
    pub fn password(&self) -> Option<String> {
        self.authority().and_then(Url::password).map(decoded)
    }

    /// The host.
    #[must_use]
    pub fn host(&self) -> Option<&str> {
        self.authority().and_then(Url::host)
    }

    /// The port as written.
    #[must_use]
    pub fn port(&self) -> Option<u16> {
        self.authority().and_then(Url::port)
    }

    /// The port written, or the scheme's default.
    #[must_use]
    pub fn effective_port(&self) -> Option<u16> {
        self.authority().and_then(Url::effective_port)
    }

    /// The url-path, raw.
    #[must_use]
    pub fn url_path(&self) -> Option<&str> {
        self.authority().and_then(Url::url_path)
    }

    /// The fragment after `#`.
    #[must_use]
    pub fn fragment(&self) -> Option<&str> {
        self.url().and_then(Url::fragment)
    }

    /// The warnings, by offset; none for an invalid input.
    #[must_use]
    pub fn warnings(&self) -> &[Warning] {
        match self {
            Parsed::Valid { warnings, .. } => warnings,
            Parsed::Invalid { .. } => &[],
        }
    }

    /// The error, for an invalid input.
    #[must_use]
    pub fn error(&self) -> Option<&Problem> {
        match self {
            Parsed::Valid { .. } => None,
            Parsed::Invalid { problem, .. } => Some(problem),
        }
    }
}

fn decoded(raw: &str) -> String {
    String::from_utf8_lossy(&rfc1738::pct::decode(raw)).into_owned()
}

/// `rfc1738_valid`: whether the input is a URL.
#[must_use]
pub fn is_valid(input: &[u8]) -> bool {
    outcome::validate_bytes(input).is_ok()
}

/// `rfc1738_normalize`: the normal form; `None` when the input is no URL.
#[must_use]
pub fn normalize(input: &[u8]) -> Option<String> {
    let strict = outcome::options(false);
    outcome::parse_bytes_with(input, &strict).ok().map(|(url, _)| url.normalize().as_str().to_owned())
}

/// `rfc1738_lint`: the §6 security warnings; `None` when the input is no URL.
#[must_use]
pub fn lint(input: &[u8]) -> Option<Vec<Warning>> {
    outcome::parse_bytes(input).ok().map(|url| url.security_warnings())
}

/// A URL found in a text by `rfc1738_extract`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found<'t> {
    /// The URL, without its wrapper (whitespace inside it deleted).
    pub url: Cow<'t, str>,
    /// Where the match starts, in characters (code points) of the text.
    pub start: usize,
    /// Where it ends, in characters.
    pub end: usize,
    /// How it was written: `bare`, `url-prefix`, ...
    pub form: &'static str,
}

/// `rfc1738_extract`: the URLs in `text`, offsets in characters as SQL
/// strings (and Python's) count them.
#[must_use]
pub fn extract(text: &str) -> Vec<Found<'_>> {
    let mut out = Vec::new();
    extract_each(text, |f| out.push(f));
    out
}

/// [`extract`], each URL handed to `f` as it is found: nothing is
/// collected (a long text's URLs go straight into a result column).
pub fn extract_each<'t>(text: &'t str, mut f: impl FnMut(Found<'t>)) {
    let mut chars = CharIndex::default();
    for m in rfc1738::extract::find_iter(text) {
        f(Found {
            start: chars.at(text, m.start()),
            end: chars.at(text, m.end()),
            form: m.form().as_str(),
            url: m.into_cow(),
        });
    }
}

/// Byte offsets to character offsets, for offsets that mostly grow.
#[derive(Default)]
struct CharIndex {
    byte: usize,
    char: usize,
}

impl CharIndex {
    fn at(&mut self, text: &str, byte: usize) -> usize {
        if byte < self.byte {
            *self = CharIndex::default();
        }
        self.char += text[self.byte..byte].chars().count();
        self.byte = byte;
        self.char
    }
}

/// `rfc1738_clf_url`: the request URL of a Common Log Format line, as
/// `check --format clf` reads it; `None` when the line has none.
#[must_use]
pub fn clf_url(line: &[u8]) -> Option<&str> {
    let text = std::str::from_utf8(line).ok()?;
    clf::request(text).ok().map(|r| r.target)
}

/// What the `rfc1738_clf_*` functions say of each log line: its record
/// as `check --format clf` makes it by default (request URL and Combined
/// referer checked, strictly), every line of a batch checked in bulk
/// ([`clf::check_lines`]); `None` for a NULL row.
///
/// - `rfc1738_clf_valid`: [`clf::Record::verdict`] is `Ok`;
/// - `rfc1738_clf_scheme`: [`clf::Record::row`], the row of the
///   command's summary (the request URL's scheme, `http` for a path, `*`,
///   `(no request)` or `(not clf)`);
/// - `rfc1738_clf_error`: the verdict's error;
/// - `rfc1738_clf_referer`, `_referer_valid`, `_referer_scheme`,
///   `_referer_error`: the referer as logged and its own verdict (NULL
///   when the line has none, or `"-"`).
#[must_use]
pub fn clf_records<'a>(rows: &[Option<&'a [u8]>]) -> Vec<Option<clf::Record<'a>>> {
    let mut records = Vec::with_capacity(rows.len());
    clf::check_lines(rows.iter().flatten().copied(), clf::Fields::BOTH, |_, r| records.push(r));
    let mut records = records.into_iter();
    rows.iter().map(|row| row.and_then(|_| records.next())).collect()
}

/// A referer as `rfc1738_clf_referer` gives it: as logged, lossy UTF-8.
#[must_use]
pub fn clf_referer<'r>(r: &'r clf::Record<'_>) -> Option<Cow<'r, str>> {
    r.referer.as_ref().map(|f| String::from_utf8_lossy(f.text))
}

/// The scheme `rfc1738_clf_referer_scheme` gives: the referer's,
/// lower-cased, or `(no scheme)`.
#[must_use]
pub fn clf_referer_scheme<'r>(r: &'r clf::Record<'_>) -> Option<&'r str> {
    r.referer_row()
}

/// The text fields of a log line `rfc1738_clf_FIELD` gives, each as
/// `check --format clf --json` has it.
pub const CLF_TEXTS: [&str; 9] =
    ["client", "ident", "user", "time", "time_iso", "method", "target", "protocol", "user_agent"];

/// A text field of a log line's record by its name in [`CLF_TEXTS`]: as
/// logged (lossy UTF-8; the user agent with its escapes read, the time
/// also as ISO 8601 with its offset); `None` when absent, `-`, or not
/// one of the names.
#[must_use]
pub fn clf_text<'r>(r: &'r clf::Record<'_>, name: &str) -> Option<Cow<'r, str>> {
    let a = &r.around;
    let request = r.request.as_ref().ok();
    let logged = match name {
        "client" => a.client,
        "ident" => a.ident,
        "user" => a.user,
        "time" => a.time,
        "time_iso" => return a.time.and_then(LogTime::clf).map(|t| Cow::Owned(t.to_string())),
        "method" => request.map(|q| q.method),
        "target" => request.map(|q| q.target),
        "protocol" => request.and_then(|q| q.protocol),
        "user_agent" => return a.agent.map(|u| Cow::Owned(clf::unescape(u))),
        _ => None,
    };
    logged.map(String::from_utf8_lossy)
}

/// The time of a log line as seconds since the epoch (`rfc1738_clf_timestamp`).
#[must_use]
pub fn clf_timestamp(r: &clf::Record<'_>) -> Option<i64> {
    r.around.time.and_then(LogTime::clf).map(|t| t.unix())
}

/// The status of a log line (`rfc1738_clf_status`); `None` for `-`.
#[must_use]
pub fn clf_status(r: &clf::Record<'_>) -> Option<i32> {
    r.around.status.map(i32::from)
}

/// The size of a log line's response (`rfc1738_clf_bytes`); `None` for
/// `-` (a size above `i64::MAX` too).
#[must_use]
pub fn clf_bytes(r: &clf::Record<'_>) -> Option<i64> {
    r.around.bytes.and_then(|b| i64::try_from(b).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_text_field_of_a_log_line_is_its_record_s() {
        let line =
            br#"192.0.2.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /a?b HTTP/1.1" 404 512 "-" "ua \"q\"""#;
        let records = clf_records(&[Some(&line[..]), None]);
        let r = records[0].as_ref().unwrap();
        let o = r.to_json();
        for name in CLF_TEXTS {
            assert_eq!(
                clf_text(r, name).map(|t| serde_json::Value::from(t.into_owned())).unwrap_or_default(),
                o[name],
                "{name}"
            );
        }
        assert_eq!(
            (clf_status(r), clf_bytes(r), clf_timestamp(r)),
            (Some(404), Some(512), Some(971_211_336))
        );
        assert_eq!(clf_text(r, "nosuch"), None);
        assert!(records[1].is_none());
    }

    #[test]
    fn an_invalid_input_keeps_the_scheme_it_names() {
        let p = Parsed::new(b"http://user@h.dom/", false);
        assert!(!p.is_valid());
        assert_eq!((p.scheme(), p.kind()), (Some("http"), Some("http")));
        assert_eq!(p.error().map(|e| e.kind), Some("user-not-allowed"));
        assert_eq!((p.host(), p.user()), (None, None));
    }

    #[test]
    fn login_fields_are_decoded_and_warnings_sorted() {
        let p = Parsed::new(b"ftp://a%20b@h.dom:2121/x", false);
        assert_eq!(p.user().as_deref(), Some("a b"));
        assert_eq!((p.port(), p.effective_port()), (Some(2121), Some(2121)));
        let offsets: Vec<usize> = p.warnings().iter().map(Warning::offset).collect();
        assert!(offsets.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(Parsed::new(b"telnet://h.dom", false).effective_port(), Some(23));
    }

    #[test]
    fn extract_counts_characters() {
        let found = extract("é http://b.org/ ü ftp://c.org/");
        let at: Vec<(usize, usize)> = found.iter().map(|f| (f.start, f.end)).collect();
        assert_eq!(at, [(2, 15), (18, 30)]);
        assert_eq!(found[0].form, "bare");
    }

    #[test]
    fn clf_records_are_the_command_s_records_nulls_kept() {
        let rows: [Option<&[u8]>; 4] = [
            Some(br#"h - - [d] "GET /a HTTP/1.0" 200 1 "http://r.dom/a b" "ua""#),
            None,
            Some(b"not a log line"),
            Some(br#"h - - [d] "OPTIONS * HTTP/1.1" 200 0"#),
        ];
        let got = clf_records(&rows);
        assert_eq!(got.len(), 4);
        let first = got[0].as_ref().unwrap();
        assert_eq!((first.verdict.is_ok(), first.row()), (false, "http"));
        assert_eq!(
            (clf_referer(first).as_deref(), clf_referer_scheme(first)),
            (Some("http://r.dom/a b"), Some("http"))
        );
        assert!(got[1].is_none());
        assert_eq!(got[2].as_ref().map(clf::Record::row), Some(clf::NOT_CLF));
        assert_eq!(got[3].as_ref().map(|r| (r.verdict.is_ok(), r.row())), Some((true, "*")));
    }

    #[test]
    fn clf_url_is_the_request_target() {
        assert_eq!(clf_url(b"h - - [d] \"GET /a b HTTP/1.0\" 200 1"), Some("/a b"));
        assert_eq!(clf_url(b"not a log line"), None);
    }
}

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

/// `rfc1738_valid(input, lenient)`: whether the input is a URL, read
/// strictly (the bulk validator) or accepting the deviations of
/// `--lenient`.
#[must_use]
pub fn is_valid_with(input: &[u8], lenient: bool) -> bool {
    if lenient {
        outcome::parse_bytes_with(input, &outcome::options(true)).is_ok()
    } else {
        is_valid(input)
    }
}

/// `rfc1738_normalize`: the normal form; `None` when the input is no URL.
#[must_use]
pub fn normalize(input: &[u8]) -> Option<String> {
    normalize_with(input, false)
}

/// [`normalize`] of the input read strictly or leniently.
#[must_use]
pub fn normalize_with(input: &[u8], lenient: bool) -> Option<String> {
    let options = outcome::options(lenient);
    outcome::parse_bytes_with(input, &options).ok().map(|(url, _)| url.normalize().as_str().to_owned())
}

/// `rfc1738_lint`: the §6 security warnings; `None` when the input is no URL.
#[must_use]
pub fn lint(input: &[u8]) -> Option<Vec<Warning>> {
    outcome::parse_bytes(input).ok().map(|url| url.security_warnings())
}

/// `rfc1738_lint(input, lenient)`: strictly, [`lint`]; leniently, the
/// warnings beside a value read leniently, as `rfc1738 lint --lenient`
/// gives them: each deviation the reading forgave (§2.2's unsafe `~`,
/// ...) and the §6 warnings, by offset ([`Parsed::warnings`]).
#[must_use]
pub fn lint_with(input: &[u8], lenient: bool) -> Option<Vec<Warning>> {
    if !lenient {
        return lint(input);
    }
    match Parsed::new(input, true) {
        Parsed::Valid { warnings, .. } => Some(warnings),
        Parsed::Invalid { .. } => None,
    }
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
/// `check --input-format clf` reads it; `None` when the line has none.
#[must_use]
pub fn clf_url(line: &[u8]) -> Option<&str> {
    let text = std::str::from_utf8(line).ok()?;
    clf::request(text).ok().map(|r| r.target)
}

/// What the `rfc1738_clf_*` functions say of each log line: its record
/// as `check --input-format clf` makes it by default (request URL and Combined
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

/// [`clf_records`], each row's URLs read leniently where `lenient` says
/// (as `check --lenient`: one line at a time, [`clf::record_with`]).
#[must_use]
pub fn clf_records_with<'a>(rows: &[Option<&'a [u8]>], lenient: &[bool]) -> Vec<Option<clf::Record<'a>>> {
    if !lenient.contains(&true) {
        return clf_records(rows);
    }
    let strict: Vec<Option<&'a [u8]>> = rows.iter().zip(lenient).map(|(r, &l)| r.filter(|_| !l)).collect();
    let mut records = clf_records(&strict);
    for ((out, row), &l) in records.iter_mut().zip(rows).zip(lenient) {
        if let (Some(line), true) = (row, l) {
            *out = Some(clf::record_with(line, true, clf::Fields::BOTH));
        }
    }
    records
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
/// `check --input-format clf --json` has it.
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
    fn each_row_is_read_leniently_where_it_says() {
        let line: &[u8] = br#"h - - [d] "GET /~me/ HTTP/1.0" 200 1"#;
        let rows = [Some(line), Some(line), None];
        let got = clf_records_with(&rows, &[false, true, true]);
        let valid: Vec<Option<bool>> = got.iter().map(|r| r.as_ref().map(|r| r.verdict.is_ok())).collect();
        assert_eq!(valid, [Some(false), Some(true), None]);
        assert!(!is_valid_with(b"http://h.dom/~me", false) && is_valid_with(b"http://h.dom/~me", true));
        assert_eq!(normalize_with(b"HTTP://h.dom/~me", true).as_deref(), Some("http://h.dom/%7Eme"));
        // The warnings beside a lenient value: the deviation, then §6's.
        let kinds = |w: Vec<Warning>| w.iter().map(|w| w.kind().id()).collect::<Vec<_>>();
        assert_eq!(lint_with(b"ftp://u:p@h.dom/~me", true).map(kinds), Some(vec!["password", "unsafe-char"]));
        assert_eq!(lint_with(b"ftp://u:p@h.dom/~me", false), None);
    }

    #[test]
    fn clf_url_is_the_request_target() {
        assert_eq!(clf_url(b"h - - [d] \"GET /a b HTTP/1.0\" 200 1"), Some("/a b"));
        assert_eq!(clf_url(b"not a log line"), None);
    }
}

/// `rfc1738_part(url, name)`: the part `name` names, as text. The names
/// are those of `parse --get` (`host`, `ftp.typecode`, `http.path`,
/// ...), `path` (the url-path, raw: §3.1) and `search` (of http, gopher
/// or wais), as `rfc1738.arrow.part` takes them; a port is its digits
/// (null above 65535, as `rfc1738_port`); the user and the password are
/// decoded (lossy UTF-8), as `rfc1738_user` gives them, every other part
/// as written. `Ok(None)` when the URL has no such part.
///
/// # Errors
///
/// A name that is no part, or one said of an input rather than a URL
/// (`valid`, `error.kind`): the message names the parts.
pub fn part<'a>(url: &rfc1738::UrlRef<'a>, name: &str) -> Result<Option<String>, String> {
    part_with(url, name, matches!(name, "user" | "password"))
}

/// [`part`], decoded (lossy UTF-8) or as written as `decoded` says: what
/// the Python part kernels give of a URL read leniently.
///
/// # Errors
///
/// As [`part`].
pub fn part_with<'a>(url: &rfc1738::UrlRef<'a>, name: &str, decoded: bool) -> Result<Option<String>, String> {
    let text = part_as_written(url, name)?;
    Ok(match text {
        Some(t) if decoded && t.contains('%') && !matches!(name, "port" | "effective_port") => {
            Some(self::decoded(&t))
        }
        t => t,
    })
}

fn part_as_written<'a>(url: &rfc1738::UrlRef<'a>, name: &str) -> Result<Option<String>, String> {
    use crate::parts::{self as named, Value};
    type Get<'a> = fn(&rfc1738::UrlRef<'a>) -> Option<&'a str>;
    let login = |f: Get<'a>| url.has_authority().then(|| f(url)).flatten();
    Ok(match name {
        "scheme" => Some(url.scheme().to_ascii_lowercase()),
        "kind" => Some(url.kind().name().to_owned()),
        "search" => named::search(url).map(str::to_owned),
        "path" => login(rfc1738::UrlRef::url_path).map(str::to_owned),
        "user" => login(rfc1738::UrlRef::user).map(str::to_owned),
        "password" => login(rfc1738::UrlRef::password).map(str::to_owned),
        "port" => url.port().map(|p| p.to_string()),
        "effective_port" => {
            url.has_authority().then(|| url.effective_port()).flatten().map(|p| p.to_string())
        }
        "input" | "valid" | "warnings" => return Err(format!("{name:?} is said of an input, not a part")),
        n if n.starts_with("error.") => {
            return Err(format!("{name:?} is said of an invalid URL, not a part"))
        }
        _ => {
            let Some(k) = named::find(name) else {
                let names: Vec<&str> = named::names()
                    .filter(|n| !matches!(*n, "input" | "valid" | "warnings") && !n.starts_with("error."))
                    .chain(["path", "search"])
                    .collect();
                return Err(format!("unknown part {name:?} (the parts: {})", names.join(", ")));
            };
            (named::PARTS[k].1)(url).map(|v| match v {
                Value::Written(s) | Value::List(s, _) | Value::Plain(s) => s.into_owned(),
                Value::Port(n, _) => n.to_string(),
            })
        }
    })
}

#[cfg(test)]
mod part_tests {
    use super::part;

    #[test]
    fn a_part_by_name_as_text() {
        let u = rfc1738::UrlRef::parse("ftp://a%20b@H.dom:2121/x/y;type=i#f").unwrap();
        let p = |n: &str| part(&u, n).unwrap();
        assert_eq!(p("user").as_deref(), Some("a b"));
        assert_eq!(p("port").as_deref(), Some("2121"));
        assert_eq!(p("ftp.typecode").as_deref(), Some("i"));
        assert_eq!(p("path").as_deref(), Some("x/y;type=i"));
        assert_eq!(p("http.path"), None);
        assert_eq!(p("kind").as_deref(), Some("ftp"));
        let h = rfc1738::UrlRef::parse("http://h.dom/a/b?q=1").unwrap();
        assert_eq!(part(&h, "http.path").unwrap().as_deref(), Some("a/b"));
        assert_eq!(part(&h, "effective_port").unwrap().as_deref(), Some("80"));
        assert_eq!(part(&h, "search").unwrap().as_deref(), Some("q=1"));
        assert!(part(&h, "nosuch").unwrap_err().contains("http.path"));
        assert!(part(&h, "valid").is_err());
    }
}

// The functions peers offer (ClickHouse, DuckDB's netquack, Spark's
// `parse_url`) that contradict nothing in RFC 1738. Each reads a valid
// URL (null otherwise) and gives its text as written unless it says.

/// Where `part`, a slice of `text`, starts in it.
fn offset_in(text: &str, part: &str) -> usize {
    part.as_ptr() as usize - text.as_ptr() as usize
}

/// `rfc1738_authority`: what `//` and the next `/` enclose, §3.1's
/// login (`user:password@host:port`, peers' authority or netloc), as
/// written; null for a URL without `//`.
#[must_use]
pub fn authority<'a>(url: &rfc1738::UrlRef<'a>) -> Option<&'a str> {
    if !url.has_authority() {
        return None;
    }
    let text = url.without_fragment();
    let start = url.scheme().len() + 3;
    let end = url.url_path().map_or(text.len(), |p| offset_in(url.as_str(), p) - 1);
    text.get(start..end)
}

/// `text`, a URL's text, with its scheme lower-cased (§2.1), as
/// `rfc1738::Url` stores it: the same answer for a URL read strictly or
/// leniently.
fn lower_scheme<'a>(text: Cow<'a, str>, scheme_len: usize) -> Cow<'a, str> {
    if text[..scheme_len].bytes().any(|b| b.is_ascii_uppercase()) {
        let mut t = text.into_owned();
        t[..scheme_len].make_ascii_lowercase();
        Cow::Owned(t)
    } else {
        text
    }
}

/// `rfc1738_cut_fragment`: the URL without its `#fragment` (§2.2), its
/// scheme lower-cased.
#[must_use]
pub fn cut_fragment<'a>(url: &rfc1738::UrlRef<'a>) -> Cow<'a, str> {
    lower_scheme(Cow::Borrowed(url.without_fragment()), url.scheme().len())
}

/// `rfc1738_cut_search`: the URL without the `?search` of http (§3.3)
/// or wais (§3.9), its fragment kept, its scheme lower-cased; any other
/// URL as it is (a gopher search is part of its request, §3.4).
#[must_use]
pub fn cut_search<'a>(url: &rfc1738::UrlRef<'a>) -> Cow<'a, str> {
    let search = match url.kind() {
        SchemeKind::Http => url.http().and_then(|h| h.search()),
        SchemeKind::Wais => url.wais().and_then(|w| w.search()),
        _ => None,
    };
    let text = url.as_str();
    let cut = match search {
        Some(s) => {
            let at = offset_in(text, s);
            Cow::Owned(format!("{}{}", &text[..at - 1], &text[at + s.len()..]))
        }
        None => Cow::Borrowed(text),
    };
    lower_scheme(cut, url.scheme().len())
}

/// The last segment of a URL's path that names a file: http's last
/// hsegment (§3.3), ftp's name (§3.2.2), file's last segment (§3.10).
fn last_segment<'a>(url: &rfc1738::UrlRef<'a>) -> Option<&'a str> {
    match url.kind() {
        SchemeKind::Http => url.http()?.segments().last(),
        SchemeKind::Ftp => Some(url.ftp()?.name()),
        SchemeKind::File => url.file()?.segments().last(),
        _ => None,
    }
}

/// The segments of a URL's path, as written: http's hsegments (§3.3),
/// ftp's cwd and then its name (§3.2.2: an empty name ends the list
/// with `""`), file's segments (§3.10); `None` for another scheme or an
/// http URL without a path.
#[must_use]
pub fn segments<'a>(url: &rfc1738::UrlRef<'a>) -> Option<Vec<&'a str>> {
    match url.kind() {
        SchemeKind::Http => {
            let h = url.http()?;
            h.path()?;
            Some(h.segments().collect())
        }
        SchemeKind::Ftp => {
            let f = url.ftp()?;
            Some(f.cwd().chain([f.name()]).collect())
        }
        SchemeKind::File => Some(url.file()?.segments().collect()),
        _ => None,
    }
}

/// `rfc1738_extension`: the file extension of an http, ftp or file URL,
/// as written: what follows the last `.` of the last segment, after a
/// name (`a/b.tar.gz`: `gz`; `a/.profile`: none); null where there is
/// none. A segment's parameters (`;type=i`, `;p`) are not part of it.
#[must_use]
pub fn extension<'a>(url: &rfc1738::UrlRef<'a>) -> Option<&'a str> {
    let segment = last_segment(url)?;
    let name = segment.split(';').next().unwrap_or(segment);
    let dot = name.rfind('.').filter(|&d| d > 0)?;
    Some(&name[dot + 1..])
}

/// `rfc1738_host_without_www`: the host less a leading `www.` (ASCII
/// case ignored, §3.1: host names are case-insensitive); null where there
/// is no host.
#[must_use]
pub fn host_without_www<'a>(url: &rfc1738::UrlRef<'a>) -> Option<&'a str> {
    let host = url.has_authority().then(|| url.host()).flatten()?;
    match host.get(..4) {
        Some(w) if w.eq_ignore_ascii_case("www.") && host.len() > 4 => Some(&host[4..]),
        _ => Some(host),
    }
}

/// The host of a URL whose host is a name (§3.1 `hostname`), lower-cased
/// for the list, and the host as written.
#[cfg(feature = "psl")]
fn host_name<'a>(url: &rfc1738::UrlRef<'a>) -> Option<(String, &'a str)> {
    let host = url.has_authority().then(|| url.host()).flatten()?;
    // §3.1: a hostnumber is digits and dots; it has no suffix.
    if host.is_empty() || host.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    Some((host.to_ascii_lowercase(), host))
}

/// `rfc1738_public_suffix`: the host's public suffix by the Public
/// Suffix List (the `psl` crate: `co.uk` of `www.h.co.uk`), as written;
/// null for a host that is a number or whose suffix the list does not
/// know (`h.dom`).
#[cfg(feature = "psl")]
#[must_use]
pub fn public_suffix<'a>(url: &rfc1738::UrlRef<'a>) -> Option<&'a str> {
    let (lower, host) = host_name(url)?;
    let suffix = psl::suffix(lower.as_bytes()).filter(psl::Suffix::is_known)?;
    host.get(host.len() - suffix.as_bytes().len()..)
}

/// `rfc1738_registrable_domain`: the host's registrable domain by the
/// Public Suffix List (`h.co.uk` of `www.h.co.uk`: one label more than
/// the public suffix), as written; null where the host is a number, is a
/// public suffix itself, or its suffix is not known.
#[cfg(feature = "psl")]
#[must_use]
pub fn registrable_domain<'a>(url: &rfc1738::UrlRef<'a>) -> Option<&'a str> {
    let (lower, host) = host_name(url)?;
    let domain = psl::domain(lower.as_bytes()).filter(|d| d.suffix().is_known())?;
    host.get(host.len() - domain.as_bytes().len()..)
}

/// `rfc1738_decode`: a text's `%HH` escapes decoded (§2.2), octets that
/// are not UTF-8 as U+FFFD; a `%` that begins no escape stays.
#[must_use]
pub fn decode(text: &[u8]) -> String {
    decode_cow(text).into_owned()
}

/// [`decode`], borrowing a text that holds no escape and is UTF-8 (the
/// answer is the text itself: nothing to copy).
#[must_use]
pub fn decode_cow(text: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(text) {
        Ok(t) if !text.contains(&b'%') => Cow::Borrowed(t),
        _ => Cow::Owned(
            String::from_utf8_lossy(&rfc1738::pct::decode(&String::from_utf8_lossy(text))).into_owned(),
        ),
    }
}

/// One `name=value` pair of a search read by the HTML form convention
/// (`application/x-www-form-urlencoded`: pairs joined by `&`, `+` for a
/// space, escapes decoded). RFC 1738 gives http's search no structure
/// (§3.3): this is a convention over it, not a part of the URL.
fn form_text(raw: &str) -> String {
    let spaced = raw.replace('+', " ");
    String::from_utf8_lossy(&rfc1738::pct::decode(&spaced)).into_owned()
}

/// Every `(name, value)` of an http URL's search, by the HTML form
/// convention (`form_text`), decoded; a pair without `=` has the value
/// `""`, an empty pair (`a=1&&b=2`) is none. Null for a URL that is not
/// http or has no search.
#[must_use]
pub fn query_params(url: &rfc1738::UrlRef<'_>) -> Option<Vec<(String, String)>> {
    let search = url.http()?.search()?;
    Some(
        search
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|p| {
                let (n, v) = p.split_once('=').unwrap_or((p, ""));
                (form_text(n), form_text(v))
            })
            .collect(),
    )
}

/// `rfc1738_query_param(url, name)`: the value of the first pair named
/// `name` in an http URL's search ([`query_params`]), decoded; null when
/// there is none.
#[must_use]
pub fn query_param(url: &rfc1738::UrlRef<'_>, name: &str) -> Option<String> {
    query_params(url)?.into_iter().find(|(n, _)| n == name).map(|(_, v)| v)
}

#[cfg(test)]
mod peer_tests {
    use super::*;
    use rfc1738::UrlRef;

    #[test]
    fn the_peers_functions() {
        let u = UrlRef::parse("http://u.dom:81/a/b.tar.gz?x=1&y=a+b%21&z&x=2#f").unwrap();
        assert_eq!(authority(&u), Some("u.dom:81"));
        assert_eq!(cut_fragment(&u), "http://u.dom:81/a/b.tar.gz?x=1&y=a+b%21&z&x=2");
        assert_eq!(cut_fragment(&UrlRef::parse("HTTP://h.dom/#f").unwrap()), "http://h.dom/");
        assert_eq!(cut_search(&u), "http://u.dom:81/a/b.tar.gz#f");
        assert_eq!(extension(&u), Some("gz"));
        assert_eq!(segments(&u), Some(vec!["a", "b.tar.gz"]));
        assert_eq!(
            segments(&UrlRef::parse("ftp://h.dom/%2Fetc/x;type=a").unwrap()),
            Some(vec!["%2Fetc", "x"])
        );
        assert_eq!(segments(&UrlRef::parse("http://h.dom").unwrap()), None);
        assert_eq!(query_param(&u, "x").as_deref(), Some("1"));
        assert_eq!(query_param(&u, "y").as_deref(), Some("a b!"));
        assert_eq!(query_param(&u, "z").as_deref(), Some(""));
        assert_eq!(query_param(&u, "w"), None);
        let f = UrlRef::parse("ftp://me:pw@WWW.h.dom/pub/.profile;type=a").unwrap();
        assert_eq!(authority(&f), Some("me:pw@WWW.h.dom"));
        assert_eq!(extension(&f), None);
        assert_eq!(host_without_www(&f), Some("h.dom"));
        assert_eq!(extension(&UrlRef::parse("file:///etc/x.conf").unwrap()), Some("conf"));
        assert_eq!(authority(&UrlRef::parse("file:///etc/x").unwrap()), Some(""));
        assert_eq!(authority(&UrlRef::parse("mailto:a@b.dom").unwrap()), None);
        assert_eq!(authority(&UrlRef::parse("http://h.dom").unwrap()), Some("h.dom"));
        assert_eq!(cut_search(&UrlRef::parse("wais://h.dom/db?s").unwrap()), "wais://h.dom/db");
        assert_eq!(decode(b"a%20b%zz%FF"), "a b%zz\u{fffd}");
        assert_eq!(
            host_without_www(
                &UrlRef::parse("http://www./").unwrap_or_else(|_| UrlRef::parse("http://www.x/").unwrap())
            ),
            Some("x")
        );
    }
}

#[cfg(all(test, feature = "psl"))]
mod psl_tests {
    use super::{public_suffix, registrable_domain};
    use rfc1738::UrlRef;

    fn u(s: &str) -> UrlRef<'_> {
        UrlRef::parse(s).unwrap()
    }

    #[test]
    fn the_public_suffix_list() {
        assert_eq!(public_suffix(&u("http://www.Example.CO.UK/")), Some("CO.UK"));
        assert_eq!(registrable_domain(&u("http://www.Example.CO.UK/")), Some("Example.CO.UK"));
        assert_eq!(registrable_domain(&u("ftp://a.b.example.com/")), Some("example.com"));
        assert_eq!(public_suffix(&u("http://h.dom/")), None);
        assert_eq!(registrable_domain(&u("http://co.uk/")), None);
        assert_eq!(public_suffix(&u("http://10.0.0.1/")), None);
        assert_eq!(public_suffix(&u("mailto:a@b.com")), None);
    }
}

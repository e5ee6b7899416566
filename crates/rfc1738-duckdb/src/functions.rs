//! The `rfc1738_*` functions: the names, argument and result types of
//! the Python package's (`rfc1738.sql`), each row as
//! [`rfc1738_report::sql`] says. A NULL in is a NULL out.

use crate::vector::{
    self, register as add, Connection, Function, Id, ListWriter, LogicalType, Output, Struct,
};
use rfc1738::{pct, Url, UrlRef, Warning};
use rfc1738_report::clf::Record;
use rfc1738_report::outcome::{self, Problem};
use rfc1738_report::parts;
use rfc1738_report::sql::{self, Parsed};
use std::borrow::Cow;
use std::error::Error;

fn sql_type(id: Id) -> LogicalType {
    LogicalType::of(id)
}

/// Registers a function on a connection.
type Add = fn(&Connection) -> Result<(), Box<dyn Error>>;

/// Every function, in the order they are registered.
const FUNCTIONS: &[Add] = &[
    add::<Valid>,
    add::<ErrorOf>,
    add::<Parse>,
    add::<SchemeOf>,
    add::<User>,
    add::<Password>,
    add::<Host>,
    add::<Kind>,
    add::<Port>,
    add::<EffectivePort>,
    add::<PartByName>,
    add::<Authority>,
    add::<CutSearch>,
    add::<CutFragment>,
    add::<Extension>,
    add::<HostWithoutWww>,
    add::<PublicSuffix>,
    add::<RegistrableDomain>,
    add::<Decode>,
    add::<QueryParam>,
    add::<QueryParams>,
    add::<Segments>,
    add::<Path>,
    add::<Search>,
    add::<Fragment>,
    add::<Normalize>,
    add::<Lint>,
    add::<Extract>,
    add::<ClfUrl>,
    add::<ClfValid>,
    add::<ClfScheme>,
    add::<ClfError>,
    add::<ClfReferer>,
    add::<ClfRefererValid>,
    add::<ClfRefererScheme>,
    add::<ClfRefererError>,
    add::<ClfClient>,
    add::<ClfIdent>,
    add::<ClfUser>,
    add::<ClfTime>,
    add::<ClfTimeIso>,
    add::<ClfTimestamp>,
    add::<ClfMethod>,
    add::<ClfTarget>,
    add::<ClfProtocol>,
    add::<ClfStatus>,
    add::<ClfBytes>,
    add::<ClfUserAgent>,
];

/// Registers every function on `con`.
///
/// # Errors
///
/// When DuckDB refuses one (a name already taken by another kind of function).
pub fn register(con: &Connection) -> Result<(), Box<dyn Error>> {
    FUNCTIONS.iter().try_for_each(|add| add(con))
}

fn text() -> LogicalType {
    sql_type(Id::Varchar)
}

/// A VARCHAR result, `f` of each non-NULL row.
fn texts<'r, S: AsRef<str>>(
    rows: &[Option<&'r [u8]>],
    out: &mut Output<'_>,
    f: impl Fn(&'r [u8]) -> Option<S>,
) {
    let mut column = out.flat_vector();
    for (row, value) in rows.iter().enumerate() {
        column.text(row, value.and_then(&f).as_ref().map(AsRef::as_ref));
    }
}

/// The URL `bytes` are, read without a copy; `None` when they are none
/// (a NULL, or no URL: §2.2, a URL is ASCII).
fn url_of(bytes: &[u8]) -> Option<UrlRef<'_>> {
    UrlRef::parse(std::str::from_utf8(bytes).ok()?).ok()
}

/// Calls `f` with each row and the URL it holds: read strictly by the
/// borrowing parse (no copy), or, where `lenient` says, as `--lenient`
/// reads it (the full parse, which accepts §2.2's unsafe characters and
/// the other deviations); `None` for a NULL or no URL.
fn each_url(rows: &[Option<&[u8]>], lenient: &[bool], mut f: impl FnMut(usize, Option<UrlRef<'_>>)) {
    for (row, (value, &lenient)) in rows.iter().zip(lenient).enumerate() {
        match value {
            Some(b) if lenient => {
                let url = outcome::parse_bytes_with(b, &outcome::options(true)).ok().map(|(u, _)| u);
                f(row, url.as_ref().map(Url::as_url_ref));
            }
            v => f(row, v.and_then(url_of)),
        }
    }
}

/// A part decoded (lossy UTF-8); as it is when it has no escape.
fn decoded(raw: &str) -> Cow<'_, str> {
    if raw.contains('%') {
        Cow::Owned(String::from_utf8_lossy(&pct::decode(raw)).into_owned())
    } else {
        Cow::Borrowed(raw)
    }
}

/// A part of a valid URL, read by the borrowing parse: NULL when the URL
/// is invalid or has none, `''` when it is empty.
macro_rules! part {
    ($name:ident, $sql:literal, $part:expr) => {
        #[doc = concat!("`", $sql, "`: NULL when the URL is invalid or has none.")]
        struct $name;

        impl Function for $name {
            const NAME: &'static str = $sql;
            const LENIENT: bool = true;

            fn returns() -> LogicalType {
                text()
            }

            fn write(rows: &[Option<&[u8]>], lenient: &[bool], out: &mut Output<'_>) {
                let part: for<'a> fn(UrlRef<'a>) -> Option<Cow<'a, str>> = $part;
                let mut column = out.flat_vector();
                each_url(rows, lenient, |row, u| column.text(row, u.and_then(part).as_deref()));
            }
        }
    };
}

/// The part of a URL with the `//` login of §3.1.
fn login<'a>(u: UrlRef<'a>, part: impl FnOnce(&UrlRef<'a>) -> Option<&'a str>) -> Option<&'a str> {
    u.has_authority().then(|| part(&u)).flatten()
}

part!(SchemeOf, "rfc1738_scheme", |u| Some(if u.scheme().bytes().any(|b| b.is_ascii_uppercase()) {
    Cow::Owned(u.scheme().to_ascii_lowercase())
} else {
    Cow::Borrowed(u.scheme())
}));
part!(Kind, "rfc1738_kind", |u| Some(Cow::Borrowed(u.kind().name())));
part!(User, "rfc1738_user", |u| login(u, UrlRef::user).map(decoded));
part!(Password, "rfc1738_password", |u| login(u, UrlRef::password).map(decoded));
part!(Host, "rfc1738_host", |u| login(u, UrlRef::host).map(Cow::Borrowed));
part!(Path, "rfc1738_path", |u| login(u, UrlRef::url_path).map(Cow::Borrowed));
part!(Search, "rfc1738_search", |u| parts::search(&u).map(Cow::Borrowed));
part!(Fragment, "rfc1738_fragment", |u| u.fragment().map(Cow::Borrowed));

part!(Authority, "rfc1738_authority", |u| sql::authority(&u).map(Cow::Borrowed));
part!(CutSearch, "rfc1738_cut_search", |u| Some(sql::cut_search(&u)));
part!(CutFragment, "rfc1738_cut_fragment", |u| Some(sql::cut_fragment(&u)));
part!(Extension, "rfc1738_extension", |u| sql::extension(&u).map(Cow::Borrowed));
part!(HostWithoutWww, "rfc1738_host_without_www", |u| sql::host_without_www(&u).map(Cow::Borrowed));
part!(PublicSuffix, "rfc1738_public_suffix", |u| sql::public_suffix(&u).map(Cow::Borrowed));
part!(RegistrableDomain, "rfc1738_registrable_domain", |u| sql::registrable_domain(&u).map(Cow::Borrowed));

/// `rfc1738_decode`: any text's escapes decoded, not only a URL's.
struct Decode;

impl Function for Decode {
    const NAME: &'static str = "rfc1738_decode";

    fn returns() -> LogicalType {
        text()
    }

    fn write(rows: &[Option<&[u8]>], _: &[bool], out: &mut Output<'_>) {
        texts(rows, out, |b| Some(sql::decode_cow(b)));
    }
}

/// `rfc1738_query_param(url, name)` ([`sql::query_param`]).
struct QueryParam;

impl Function for QueryParam {
    const NAME: &'static str = "rfc1738_query_param";
    const ARGS: usize = 2;
    const LENIENT: bool = true;

    fn returns() -> LogicalType {
        text()
    }

    fn write(rows: &[Option<&[u8]>], _: &[bool], out: &mut Output<'_>) {
        texts(rows, out, |_| None::<&str>);
    }

    fn write_args(args: &[Vec<Option<&[u8]>>], lenient: &[bool], out: &mut Output<'_>) -> Result<(), String> {
        let mut column = out.flat_vector();
        each_url(&args[0], lenient, |row, u| {
            let value = match (u, args[1][row]) {
                (Some(u), Some(name)) => sql::query_param(&u, &String::from_utf8_lossy(name)),
                _ => None,
            };
            column.text(row, value.as_deref());
        });
        Ok(())
    }
}

/// `rfc1738_query_params(url)`: every pair of an http search by the HTML
/// form convention ([`sql::query_params`]), a list of `{name, value}` in
/// their order (a name may come more than once, which a MAP would not keep).
struct QueryParams;

impl Function for QueryParams {
    const NAME: &'static str = "rfc1738_query_params";
    const LENIENT: bool = true;

    fn returns() -> LogicalType {
        LogicalType::list(&LogicalType::struct_type(&[("name", text()), ("value", text())]))
    }

    fn write(rows: &[Option<&[u8]>], lenient: &[bool], out: &mut Output<'_>) {
        let mut items = Vec::with_capacity(rows.len());
        each_url(rows, lenient, |_, u| items.push(u.and_then(|u| sql::query_params(&u))));
        vector::struct_lists(out.list_vector(), &items, |s, at, (name, value)| {
            s.field(0).text(at, Some(name));
            s.field(1).text(at, Some(value));
        });
    }
}

/// `rfc1738_segments(url)`: the segments of an http, ftp or file path, as
/// written ([`sql::segments`]).
struct Segments;

impl Function for Segments {
    const NAME: &'static str = "rfc1738_segments";
    const LENIENT: bool = true;

    fn returns() -> LogicalType {
        LogicalType::list(&text())
    }

    fn write(rows: &[Option<&[u8]>], lenient: &[bool], out: &mut Output<'_>) {
        // Every segment copied once into one text, a row's list a range
        // of their spans: no allocation a segment.
        let (mut text, mut spans) = (String::new(), Vec::new());
        let mut lists = Vec::with_capacity(rows.len());
        each_url(rows, lenient, |_, u| {
            lists.push(u.and_then(|u| sql::segments(&u)).map(|segments| {
                let first = spans.len();
                for s in segments {
                    spans.push(text.len()..text.len() + s.len());
                    text.push_str(s);
                }
                first..spans.len()
            }))
        });
        let items: Vec<&str> = spans.into_iter().map(|r| &text[r]).collect();
        vector::text_lists(out.list_vector(), &lists, &items);
    }
}

/// `rfc1738_valid`.
struct Valid;

impl Function for Valid {
    const NAME: &'static str = "rfc1738_valid";
    const LENIENT: bool = true;

    fn returns() -> LogicalType {
        sql_type(Id::Boolean)
    }

    fn write(rows: &[Option<&[u8]>], lenient: &[bool], out: &mut Output<'_>) {
        let mut column = out.flat_vector();
        for (row, (value, &lenient)) in rows.iter().zip(lenient).enumerate() {
            column.value(row, value.map(|b| sql::is_valid_with(b, lenient)));
        }
    }
}

/// A port as INTEGER: NULL when the URL is invalid or has none.
macro_rules! port {
    ($name:ident, $sql:literal, $port:expr) => {
        #[doc = concat!("`", $sql, "`.")]
        struct $name;

        impl Function for $name {
            const NAME: &'static str = $sql;
            const LENIENT: bool = true;

            fn returns() -> LogicalType {
                sql_type(Id::Integer)
            }

            fn write(rows: &[Option<&[u8]>], lenient: &[bool], out: &mut Output<'_>) {
                let port: fn(UrlRef<'_>) -> Option<u16> = $port;
                let mut column = out.flat_vector();
                each_url(rows, lenient, |row, u| {
                    column.value(row, u.filter(UrlRef::has_authority).and_then(port).map(i32::from))
                });
            }
        }
    };
}

port!(Port, "rfc1738_port", |u| u.port());
port!(EffectivePort, "rfc1738_effective_port", |u| u.effective_port());

/// `rfc1738_part(url, name)`: the part `name` names, as text
/// ([`sql::part`]); an unknown name is the query's error.
struct PartByName;

impl Function for PartByName {
    const NAME: &'static str = "rfc1738_part";
    const ARGS: usize = 2;
    const LENIENT: bool = true;

    fn returns() -> LogicalType {
        text()
    }

    fn write(rows: &[Option<&[u8]>], _: &[bool], out: &mut Output<'_>) {
        texts(rows, out, |_| None::<&str>);
    }

    fn write_args(args: &[Vec<Option<&[u8]>>], lenient: &[bool], out: &mut Output<'_>) -> Result<(), String> {
        let mut column = out.flat_vector();
        let mut failed = None;
        each_url(&args[0], lenient, |row, u| {
            let (Some(_), Some(name)) = (args[0][row], args[1][row]) else {
                return column.text(row, None);
            };
            let part =
                std::str::from_utf8(name).map_err(|_| "a part name is UTF-8".to_string()).and_then(|name| {
                    match u {
                        Some(u) => sql::part(&u, name),
                        // An invalid URL has no part, but the name is still checked.
                        None => sql::part(&UrlRef::parse("http://h/").expect("a URL"), name).map(|_| None),
                    }
                });
            match part {
                Ok(part) => column.text(row, part.as_deref()),
                Err(why) => failed = failed.take().or(Some(why)),
            }
        });
        failed.map_or(Ok(()), Err)
    }
}

/// `rfc1738_normalize`.
struct Normalize;

impl Function for Normalize {
    const NAME: &'static str = "rfc1738_normalize";
    const LENIENT: bool = true;

    fn returns() -> LogicalType {
        text()
    }

    fn write(rows: &[Option<&[u8]>], lenient: &[bool], out: &mut Output<'_>) {
        let mut column = out.flat_vector();
        for (row, (value, &lenient)) in rows.iter().zip(lenient).enumerate() {
            column.text(row, value.and_then(|b| sql::normalize_with(b, lenient)).as_deref());
        }
    }
}

/// `rfc1738_clf_url`.
struct ClfUrl;

impl Function for ClfUrl {
    const NAME: &'static str = "rfc1738_clf_url";

    fn returns() -> LogicalType {
        text()
    }

    fn write(rows: &[Option<&[u8]>], _: &[bool], out: &mut Output<'_>) {
        texts(rows, out, sql::clf_url);
    }
}

/// A `rfc1738_clf_*` function: a value of each line's record as
/// `check --input-format clf` makes it, the lines of a chunk checked in bulk
/// ([`sql::clf_records`]).
macro_rules! clf {
    ($name:ident, $sql:literal, text, $value:expr) => {
        #[doc = concat!("`", $sql, "`.")]
        struct $name;

        impl Function for $name {
            const NAME: &'static str = $sql;
            const LENIENT: bool = true;

            fn returns() -> LogicalType {
                text()
            }

            fn write(rows: &[Option<&[u8]>], lenient: &[bool], out: &mut Output<'_>) {
                let records = sql::clf_records_with(rows, lenient);
                let value: for<'r, 'a> fn(&'r Record<'a>) -> Option<Cow<'r, str>> = $value;
                let mut column = out.flat_vector();
                for (row, r) in records.iter().enumerate() {
                    column.text(row, r.as_ref().and_then(value).as_deref());
                }
            }
        }
    };
    ($name:ident, $sql:literal, boolean, $value:expr) => {
        #[doc = concat!("`", $sql, "`.")]
        struct $name;

        impl Function for $name {
            const NAME: &'static str = $sql;
            const LENIENT: bool = true;

            fn returns() -> LogicalType {
                sql_type(Id::Boolean)
            }

            fn write(rows: &[Option<&[u8]>], lenient: &[bool], out: &mut Output<'_>) {
                let records = sql::clf_records_with(rows, lenient);
                let value: fn(&Record<'_>) -> Option<bool> = $value;
                let mut column = out.flat_vector();
                for (row, r) in records.iter().enumerate() {
                    column.value(row, r.as_ref().and_then(value));
                }
            }
        }
    };
    ($name:ident, $sql:literal, $id:ident as $t:ty, $value:expr) => {
        #[doc = concat!("`", $sql, "`.")]
        struct $name;

        impl Function for $name {
            const NAME: &'static str = $sql;
            const LENIENT: bool = true;

            fn returns() -> LogicalType {
                sql_type(Id::$id)
            }

            fn write(rows: &[Option<&[u8]>], lenient: &[bool], out: &mut Output<'_>) {
                let records = sql::clf_records_with(rows, lenient);
                let value: fn(&Record<'_>) -> Option<$t> = $value;
                let mut column = out.flat_vector();
                for (row, r) in records.iter().enumerate() {
                    column.value(row, r.as_ref().and_then(value));
                }
            }
        }
    };
    ($name:ident, $sql:literal, error, $value:expr) => {
        #[doc = concat!("`", $sql, "`: NULL when there is no error.")]
        struct $name;

        impl Function for $name {
            const NAME: &'static str = $sql;
            const LENIENT: bool = true;

            fn returns() -> LogicalType {
                error_type()
            }

            fn write(rows: &[Option<&[u8]>], lenient: &[bool], out: &mut Output<'_>) {
                let records = sql::clf_records_with(rows, lenient);
                let value: for<'r, 'a> fn(&'r Record<'a>) -> Option<&'r Problem> = $value;
                let mut s = out.struct_vector();
                for (row, r) in records.iter().enumerate() {
                    write_error(&mut s, row, r.as_ref().and_then(value));
                }
            }
        }
    };
}

clf!(ClfValid, "rfc1738_clf_valid", boolean, |r| Some(r.verdict.is_ok()));
clf!(ClfScheme, "rfc1738_clf_scheme", text, |r| Some(Cow::Borrowed(r.row())));
clf!(ClfError, "rfc1738_clf_error", error, |r| r.verdict.as_ref().err());
clf!(ClfReferer, "rfc1738_clf_referer", text, sql::clf_referer);
clf!(ClfRefererValid, "rfc1738_clf_referer_valid", boolean, |r| r
    .referer
    .as_ref()
    .map(|f| f.verdict.is_ok()));
clf!(ClfRefererScheme, "rfc1738_clf_referer_scheme", text, |r| sql::clf_referer_scheme(r).map(Cow::Borrowed));
clf!(ClfRefererError, "rfc1738_clf_referer_error", error, |r| r
    .referer
    .as_ref()
    .and_then(|f| f.verdict.as_ref().err()));

clf!(ClfClient, "rfc1738_clf_client", text, |r| sql::clf_text(r, "client"));
clf!(ClfIdent, "rfc1738_clf_ident", text, |r| sql::clf_text(r, "ident"));
clf!(ClfUser, "rfc1738_clf_user", text, |r| sql::clf_text(r, "user"));
clf!(ClfTime, "rfc1738_clf_time", text, |r| sql::clf_text(r, "time"));
clf!(ClfTimeIso, "rfc1738_clf_time_iso", text, |r| sql::clf_text(r, "time_iso"));
// TIMESTAMPTZ: microseconds since the epoch.
clf!(ClfTimestamp, "rfc1738_clf_timestamp", TimestampTz as i64, |r| sql::clf_timestamp(r)
    .and_then(|s| s.checked_mul(1_000_000)));
clf!(ClfMethod, "rfc1738_clf_method", text, |r| sql::clf_text(r, "method"));
clf!(ClfTarget, "rfc1738_clf_target", text, |r| sql::clf_text(r, "target"));
clf!(ClfProtocol, "rfc1738_clf_protocol", text, |r| sql::clf_text(r, "protocol"));
clf!(ClfStatus, "rfc1738_clf_status", Integer as i32, sql::clf_status);
clf!(ClfBytes, "rfc1738_clf_bytes", Bigint as i64, sql::clf_bytes);
clf!(ClfUserAgent, "rfc1738_clf_user_agent", text, |r| sql::clf_text(r, "user_agent"));

/// `STRUCT(offset BIGINT, kind VARCHAR, rule VARCHAR, message VARCHAR)`.
fn error_type() -> LogicalType {
    LogicalType::struct_type(&[
        ("offset", sql_type(Id::Bigint)),
        ("kind", text()),
        ("rule", text()),
        ("message", text()),
    ])
}

/// Writes an error (or NULL) at `row` of a struct of [`error_type`].
fn write_error(s: &mut Struct<'_>, row: usize, p: Option<&Problem>) {
    s.field(0).value(row, p.map(|p| p.offset as i64));
    s.field(1).text(row, p.map(|p| p.kind));
    s.field(2).text(row, p.map(|p| p.rule));
    s.field(3).text(row, p.map(|p| p.message.as_ref()));
    if p.is_none() {
        s.set_null(row);
    }
}

/// `rfc1738_error`: NULL when the URL is valid.
struct ErrorOf;

impl Function for ErrorOf {
    const NAME: &'static str = "rfc1738_error";
    const LENIENT: bool = true;

    fn returns() -> LogicalType {
        error_type()
    }

    fn write(rows: &[Option<&[u8]>], lenient: &[bool], out: &mut Output<'_>) {
        let mut s = out.struct_vector();
        for (row, (value, &lenient)) in rows.iter().zip(lenient).enumerate() {
            let parsed = value.map(|b| Parsed::new(b, lenient));
            write_error(&mut s, row, parsed.as_ref().and_then(Parsed::error));
        }
    }
}

/// `STRUCT(offset BIGINT, kind VARCHAR, message VARCHAR)[]`, or with
/// `len` and `security` (the warnings of `rfc1738_parse`).
fn warnings_type(full: bool) -> LogicalType {
    let mut fields = vec![("offset", sql_type(Id::Bigint))];
    if full {
        fields.push(("len", sql_type(Id::Bigint)));
    }
    fields.push(("kind", text()));
    if full {
        fields.push(("security", sql_type(Id::Boolean)));
    }
    fields.push(("message", text()));
    LogicalType::list(&LogicalType::struct_type(&fields))
}

fn write_warning(s: &mut Struct<'_>, row: usize, w: &Warning, full: bool) {
    let (kind, message) = if full { (2, 4) } else { (1, 2) };
    s.field(0).value(row, Some(w.offset() as i64));
    if full {
        s.field(1).value(row, Some(w.len() as i64));
        s.field(3).value(row, Some(w.kind().is_security()));
    }
    s.field(kind).text(row, Some(w.kind().id()));
    s.field(message).text(row, Some(w.message()));
}

/// `rfc1738_lint`: NULL when the URL is invalid.
struct Lint;

impl Function for Lint {
    const NAME: &'static str = "rfc1738_lint";
    const LENIENT: bool = true;

    fn returns() -> LogicalType {
        warnings_type(false)
    }

    fn write(rows: &[Option<&[u8]>], lenient: &[bool], out: &mut Output<'_>) {
        let items: Vec<Option<Vec<Warning>>> =
            rows.iter().zip(lenient).map(|(v, &l)| v.and_then(|b| sql::lint_with(b, l))).collect();
        vector::struct_lists(out.list_vector(), &items, |s, row, w| write_warning(s, row, w, false));
    }
}

/// `rfc1738_extract`: a list per text, empty when it holds no URL.
struct Extract;

impl Function for Extract {
    const NAME: &'static str = "rfc1738_extract";

    fn returns() -> LogicalType {
        LogicalType::list(&LogicalType::struct_type(&[
            ("url", text()),
            ("start", sql_type(Id::Bigint)),
            ("end", sql_type(Id::Bigint)),
            ("form", text()),
        ]))
    }

    fn write(rows: &[Option<&[u8]>], _: &[bool], out: &mut Output<'_>) {
        // Each URL written into the result as it is found: no list of them
        // beside it, and each text borrowed where it is UTF-8 (DuckDB's
        // VARCHAR is), so one long text costs its result alone.
        let mut lists = ListWriter::new(out.list_vector());
        for (row, v) in rows.iter().enumerate() {
            if let Some(b) = v {
                let text = String::from_utf8_lossy(b);
                sql::extract_each(&text, |f| {
                    let (s, at) = lists.item();
                    s.field(0).text(at, Some(&f.url));
                    s.field(1).value(at, Some(f.start as i64));
                    s.field(2).value(at, Some(f.end as i64));
                    s.field(3).text(at, Some(f.form));
                });
            }
            lists.end_row(row, v.is_none());
        }
        lists.finish();
    }
}

/// `rfc1738_parse`: the top-level fields of `parse --json`, and the error.
struct Parse;

impl Function for Parse {
    const NAME: &'static str = "rfc1738_parse";
    const LENIENT: bool = true;

    fn returns() -> LogicalType {
        LogicalType::struct_type(&[
            ("input", text()),
            ("valid", sql_type(Id::Boolean)),
            ("scheme", text()),
            ("kind", text()),
            ("user", text()),
            ("password", text()),
            ("host", text()),
            ("port", sql_type(Id::USmallint)),
            ("effective_port", sql_type(Id::USmallint)),
            ("url_path", text()),
            ("fragment", text()),
            ("warnings", warnings_type(true)),
            ("error", error_type()),
        ])
    }

    fn write(rows: &[Option<&[u8]>], lenient: &[bool], out: &mut Output<'_>) {
        let parsed: Vec<Option<Parsed>> =
            rows.iter().zip(lenient).map(|(v, &l)| v.map(|b| Parsed::new(b, l))).collect();
        let mut s = out.struct_vector();
        for (row, (p, input)) in parsed.iter().zip(rows).enumerate() {
            let p = p.as_ref();
            s.field(0).text(row, input.map(String::from_utf8_lossy).as_deref());
            s.field(1).value(row, p.map(Parsed::is_valid));
            s.field(2).text(row, p.and_then(Parsed::scheme));
            s.field(3).text(row, p.and_then(Parsed::kind));
            s.field(4).text(row, p.and_then(Parsed::user).as_deref());
            s.field(5).text(row, p.and_then(Parsed::password).as_deref());
            s.field(6).text(row, p.and_then(Parsed::host));
            s.field(7).value(row, p.and_then(Parsed::port));
            s.field(8).value(row, p.and_then(Parsed::effective_port));
            s.field(9).text(row, p.and_then(Parsed::url_path));
            s.field(10).text(row, p.and_then(Parsed::fragment));
            let mut error = s.struct_field(12);
            write_error(&mut error, row, p.and_then(Parsed::error));
            if p.is_none() {
                s.set_null(row);
            }
        }
        let warnings: Vec<Option<Vec<Warning>>> =
            parsed.iter().map(|p| p.as_ref().map(|p| p.warnings().to_vec())).collect();
        vector::struct_lists(s.list(11), &warnings, |s, row, w| write_warning(s, row, w, true));
    }
}

//! Property tests: URLs generated from the §5 grammar, scheme by scheme,
//! parse to the parts they were built from; and a byte that no rule
//! accepts, put anywhere in such a URL, is reported where it stands.
//!
//! The properties asserted:
//!
//! 1. **Generation.** For every scheme, a URL assembled from generated
//!    components (each drawn from its §5 rule) is accepted, every accessor
//!    returns exactly the component it was built from, the reference parser
//!    (`tests/reference`) agrees, and the text round-trips.
//! 2. **Mutation.** Let `u` be a generated URL, `k` an offset in it, and
//!    `c` a byte that no §5 rule accepts anywhere: a control character,
//!    space, `< > " { } | \ ^ ~ [ ] \`` (every unsafe character but `#` and
//!    `%`, which delimit) or DEL. Replacing `u[k]` by `c` yields an error
//!    whose offset is never after `k` (the parser reports no byte past
//!    the first one no rule accepts), and is `k` exactly unless one of
//!    these explains why it is before:
//!    - the error is about a whole component that the mutation cut short
//!      (its kind is one of [`WHOLE_COMPONENT`]: a host label now ending
//!      in `-`, an empty port, a truncated `;type=`, ...), at most 253
//!      bytes (the longest such component, a host name) before `k`;
//!    - `u[k]` was a hex digit of an escape: the escape is reported, at
//!      its `%`, one or two bytes before `k`;
//!    - `u[k]` was a delimiter (`; / ? : @ & = . %`): without it the bytes
//!      before it are read as another component, which can fail first
//!      (`ftp://u@h/` with `@` replaced reads `u` as a host).
//! 3. **Escape mutation.** Replacing `u[k]` by `%` and a byte that is not
//!    `hex` gives an error at or before `k`, by the same rule.

mod reference;

use proptest::prelude::*;
use proptest::test_runner::Config;
use rfc1738::{ErrorKind, SchemeKind, Url, WaisForm};

// ---------------------------------------------------------------------------
// Strategies, one per §5 rule

const ALPHA: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGIT: &str = "0123456789";
/// `unreserved = alpha | digit | safe | extra`
const UNRESERVED: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789$-_.+!*'(),";

fn one_of(set: &'static str) -> impl Strategy<Value = char> {
    proptest::sample::select(set.chars().collect::<Vec<_>>())
}

/// `escape = "%" hex hex`, except the octets in `avoid`.
fn escape(avoid: &'static [u8]) -> impl Strategy<Value = String> {
    any::<u8>().prop_filter("avoided octet", move |b| !avoid.contains(b)).prop_flat_map(|b| {
        // Upper or lower case hex: both are `hex`.
        prop_oneof![Just(format!("%{b:02X}")), Just(format!("%{b:02x}"))]
    })
}

/// `*[ uchar | <extra> ]` with at most `max` items; escapes never decode
/// to one of `avoid`.
fn uchars(extra: &'static str, avoid: &'static [u8], max: usize) -> impl Strategy<Value = String> {
    let item = prop_oneof![
        6 => one_of(UNRESERVED).prop_map(String::from),
        2 => escape(avoid),
        2 => if extra.is_empty() { one_of(UNRESERVED).boxed() } else { one_of(extra).boxed() }
            .prop_map(String::from),
    ];
    proptest::collection::vec(item, 0..=max).prop_map(|v| v.concat())
}

/// `domainlabel` or, with `top`, `toplabel`: 1 to 12 characters.
fn label(top: bool) -> impl Strategy<Value = String> {
    let first = if top { one_of(ALPHA).boxed() } else { prop_oneof![one_of(ALPHA), one_of(DIGIT)].boxed() };
    let mid = proptest::collection::vec(prop_oneof![one_of(ALPHA), one_of(DIGIT), Just('-')], 0..10);
    let last = prop_oneof![one_of(ALPHA), one_of(DIGIT)];
    (first, proptest::option::of((mid, last))).prop_map(|(f, rest)| {
        let mut s = f.to_string();
        if let Some((mid, last)) = rest {
            s.extend(mid);
            s.push(last);
        }
        s
    })
}

/// `hostname = *[ domainlabel "." ] toplabel`
fn hostname() -> impl Strategy<Value = String> {
    (proptest::collection::vec(label(false), 0..4), label(true)).prop_map(|(mut v, top)| {
        v.push(top);
        v.join(".")
    })
}

/// `host = hostname | hostnumber`
fn host() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => hostname(),
        1 => any::<[u8; 4]>().prop_map(|a| format!("{}.{}.{}.{}", a[0], a[1], a[2], a[3])),
    ]
}

/// `[ ":" port ]`: the port as written and its value.
fn port() -> impl Strategy<Value = Option<(String, u16)>> {
    proptest::option::of(prop_oneof![
        any::<u16>().prop_map(|p| (p.to_string(), p)),
        any::<u16>().prop_map(|p| (format!("00{p}"), p)),
    ])
}

/// `user` or `password` = `*[ uchar | ";" | "?" | "&" | "=" ]`
fn user() -> impl Strategy<Value = String> {
    uchars(";?&=", b"", 8)
}

/// `[ user [ ":" password ] "@" ]`
fn userinfo() -> impl Strategy<Value = Option<(String, Option<String>)>> {
    proptest::option::of((user(), proptest::option::of(user())))
}

fn login_text(ui: &Option<(String, Option<String>)>, host: &str, port: &Option<(String, u16)>) -> String {
    let mut s = String::new();
    if let Some((u, p)) = ui {
        s.push_str(u);
        if let Some(p) = p {
            s.push(':');
            s.push_str(p);
        }
        s.push('@');
    }
    s.push_str(host);
    if let Some((p, _)) = port {
        s.push(':');
        s.push_str(p);
    }
    s
}

/// A scheme name in any case (§2.1).
fn cased(name: &'static str) -> impl Strategy<Value = String> {
    proptest::collection::vec(any::<bool>(), name.len()).prop_map(move |up| {
        name.chars().zip(up).map(|(c, u)| if u { c.to_ascii_uppercase() } else { c }).collect()
    })
}

/// `xchar` items; escapes never decode to one of `avoid`.
fn xchars(avoid: &'static [u8], max: usize) -> impl Strategy<Value = String> {
    uchars(";/?:@&=", avoid, max)
}

// ---------------------------------------------------------------------------
// One generated URL and what it must parse to

#[derive(Debug, Clone)]
struct Gen {
    text: String,
    /// Checks the parsed URL against the parts `text` was built from.
    expect: Expect,
}

#[derive(Debug, Clone)]
enum Expect {
    Ftp {
        ui: Option<(String, Option<String>)>,
        host: String,
        port: Option<u16>,
        cwd: Vec<String>,
        name: String,
        typecode: Option<char>,
        has_path: bool,
    },
    Http {
        host: String,
        port: Option<u16>,
        path: Option<String>,
        search: Option<String>,
    },
    Gopher {
        host: String,
        port: Option<u16>,
        gtype: Option<String>,
        selector: String,
        search: Option<String>,
        plus: Option<String>,
    },
    Mailto {
        address: String,
    },
    News {
        group: Option<String>,
        article: Option<String>,
        all: bool,
    },
    Nntp {
        host: String,
        group: String,
        article: Option<u64>,
    },
    Telnet {
        ui: Option<(String, Option<String>)>,
        host: String,
        port: Option<u16>,
    },
    Wais {
        host: String,
        form: WaisForm,
        database: String,
        search: Option<String>,
        wtype: Option<String>,
        wpath: Option<String>,
    },
    File {
        host: String,
        path: String,
    },
    Prospero {
        host: String,
        ppath: String,
        fields: Vec<(String, String)>,
    },
    Other {
        scheme: String,
        host: Option<String>,
        ssp: String,
    },
}

fn ftp() -> impl Strategy<Value = Gen> {
    let seg = || uchars("?:@&=", b"", 6);
    (
        cased("ftp"),
        userinfo(),
        host(),
        port(),
        proptest::option::of((
            proptest::collection::vec(seg(), 0..4),
            seg(),
            proptest::option::of(one_of("aidAID")),
        )),
    )
        .prop_map(|(scheme, ui, host, port, path)| {
            let mut text = format!("{scheme}://{}", login_text(&ui, &host, &port));
            let (mut cwd, mut name, mut typecode) = (Vec::new(), String::new(), None);
            if let Some((dirs, n, t)) = &path {
                text.push('/');
                for d in dirs {
                    text.push_str(d);
                    text.push('/');
                }
                text.push_str(n);
                if let Some(t) = t {
                    text.push_str(";type=");
                    text.push(*t);
                }
                (cwd, name, typecode) = (dirs.clone(), n.clone(), *t);
            }
            let has_path = path.is_some();
            Gen {
                text,
                expect: Expect::Ftp { ui, host, port: port.map(|p| p.1), cwd, name, typecode, has_path },
            }
        })
}

fn http() -> impl Strategy<Value = Gen> {
    let seg = || uchars(";:@&=", b"", 6);
    (
        cased("http"),
        host(),
        port(),
        proptest::option::of((
            proptest::collection::vec(seg(), 1..4),
            proptest::option::of(uchars(";:@&=", b"", 8)),
        )),
    )
        .prop_map(|(scheme, host, port, path)| {
            let mut text = format!("{scheme}://{}", login_text(&None, &host, &port));
            let (mut p, mut search) = (None, None);
            if let Some((segs, q)) = path {
                let joined = segs.join("/");
                text.push('/');
                text.push_str(&joined);
                if let Some(q) = &q {
                    text.push('?');
                    text.push_str(q);
                }
                (p, search) = (Some(joined), q);
            }
            Gen { text, expect: Expect::Http { host, port: port.map(|p| p.1), path: p, search } }
        })
}

fn gopher() -> impl Strategy<Value = Gen> {
    // §3.4.1: no TAB, LF or CR in a selector; no TAB in a search.
    let gtype = prop_oneof![one_of(UNRESERVED).prop_map(String::from), escape(b"")];
    (
        cased("gopher"),
        host(),
        port(),
        proptest::option::of((
            gtype,
            xchars(b"\t\r\n", 8),
            proptest::option::of((uchars(";:@&=", b"\t", 6), proptest::option::of(xchars(b"", 8)))),
        )),
    )
        .prop_map(|(scheme, host, port, path)| {
            let mut text = format!("{scheme}://{}/", login_text(&None, &host, &port));
            let (mut gt, mut selector, mut search, mut plus) = (None, String::new(), None, None);
            if let Some((t, sel, rest)) = path {
                text.push_str(&t);
                text.push_str(&sel);
                if let Some((s, p)) = &rest {
                    text.push_str("%09");
                    text.push_str(s);
                    if let Some(p) = p {
                        text.push_str("%09");
                        text.push_str(p);
                    }
                    search = Some(s.clone());
                    plus = p.clone();
                }
                (gt, selector) = (Some(t), sel);
            }
            Gen {
                text,
                expect: Expect::Gopher { host, port: port.map(|p| p.1), gtype: gt, selector, search, plus },
            }
        })
}

fn mailto() -> impl Strategy<Value = Gen> {
    // RFC 822 atoms, in the characters a URL may hold unencoded.
    let atom = || proptest::string::string_regex("[a-zA-Z0-9!*'+$_-]{1,8}").unwrap();
    (cased("mailto"), proptest::collection::vec(atom(), 1..3), proptest::collection::vec(atom(), 1..3))
        .prop_map(|(scheme, local, domain)| {
            let address = format!("{}@{}", local.join("."), domain.join("."));
            Gen { text: format!("{scheme}:{address}"), expect: Expect::Mailto { address } }
        })
}

fn news() -> impl Strategy<Value = Gen> {
    let group = proptest::string::string_regex("[a-zA-Z][a-zA-Z0-9.+_-]{0,12}").unwrap();
    let unique =
        (one_of(UNRESERVED).prop_map(String::from), uchars(";/?:&=", b"", 8)).prop_map(|(a, b)| a + &b);
    prop_oneof![
        (cased("news"), group).prop_map(|(s, g)| Gen {
            text: format!("{s}:{g}"),
            expect: Expect::News { group: Some(g), article: None, all: false }
        }),
        (cased("news"), unique, host()).prop_map(|(s, u, h)| {
            let a = format!("{u}@{h}");
            Gen {
                text: format!("{s}:{a}"),
                expect: Expect::News { group: None, article: Some(a), all: false },
            }
        }),
        cased("news").prop_map(|s| Gen {
            text: format!("{s}:*"),
            expect: Expect::News { group: None, article: None, all: true }
        }),
    ]
}

fn nntp() -> impl Strategy<Value = Gen> {
    let group = proptest::string::string_regex("[a-zA-Z][a-zA-Z0-9.+_-]{0,12}").unwrap();
    (cased("nntp"), host(), port(), group, proptest::option::of(any::<u64>())).prop_map(
        |(s, host, port, group, a)| {
            let mut text = format!("{s}://{}/{group}", login_text(&None, &host, &port));
            if let Some(a) = a {
                text.push_str(&format!("/{a}"));
            }
            Gen { text, expect: Expect::Nntp { host, group, article: a } }
        },
    )
}

fn telnet() -> impl Strategy<Value = Gen> {
    (cased("telnet"), userinfo(), host(), port(), any::<bool>()).prop_map(|(s, ui, host, port, slash)| {
        let text = format!("{s}://{}{}", login_text(&ui, &host, &port), if slash { "/" } else { "" });
        Gen { text, expect: Expect::Telnet { ui, host, port: port.map(|p| p.1) } }
    })
}

fn wais() -> impl Strategy<Value = Gen> {
    let u = || uchars("", b"", 6);
    (cased("wais"), host(), port(), u(), 0..3u8, u(), uchars(";:@&=", b"", 6), u()).prop_map(
        |(s, host, port, database, form, wtype, search, wpath)| {
            let base = format!("{s}://{}/{database}", login_text(&None, &host, &port));
            let (text, expect) = match form {
                0 => (
                    base,
                    Expect::Wais {
                        host,
                        form: WaisForm::Database,
                        database,
                        search: None,
                        wtype: None,
                        wpath: None,
                    },
                ),
                1 => (
                    format!("{base}?{search}"),
                    Expect::Wais {
                        host,
                        form: WaisForm::Index,
                        database,
                        search: Some(search),
                        wtype: None,
                        wpath: None,
                    },
                ),
                _ => (
                    format!("{base}/{wtype}/{wpath}"),
                    Expect::Wais {
                        host,
                        form: WaisForm::Doc,
                        database,
                        search: None,
                        wtype: Some(wtype),
                        wpath: Some(wpath),
                    },
                ),
            };
            Gen { text, expect }
        },
    )
}

fn file() -> impl Strategy<Value = Gen> {
    let seg = || uchars("?:@&=", b"", 6);
    let h = prop_oneof![Just(String::new()), Just("localhost".to_string()), host()];
    (cased("file"), h, proptest::collection::vec(seg(), 1..4)).prop_map(|(s, host, segs)| {
        let path = segs.join("/");
        Gen { text: format!("{s}://{host}/{path}"), expect: Expect::File { host, path } }
    })
}

fn prospero() -> impl Strategy<Value = Gen> {
    let seg = || uchars("?:@&=", b"", 6);
    let field = || uchars("?:@&", b"", 5);
    (
        cased("prospero"),
        host(),
        port(),
        proptest::collection::vec(seg(), 1..3),
        proptest::collection::vec((field(), field()), 0..3),
    )
        .prop_map(|(s, host, port, segs, fields)| {
            let ppath = segs.join("/");
            let mut text = format!("{s}://{}/{ppath}", login_text(&None, &host, &port));
            for (n, v) in &fields {
                text.push_str(&format!(";{n}={v}"));
            }
            Gen { text, expect: Expect::Prospero { host, ppath, fields } }
        })
}

fn other() -> impl Strategy<Value = Gen> {
    let scheme = || proptest::string::string_regex("x-[a-z0-9+.-]{1,6}|[a-z][a-z0-9+.-]{0,3}zz").unwrap();
    prop_oneof![
        // `*xchar` that does not start with "//"
        (scheme(), one_of(UNRESERVED), xchars(b"", 10)).prop_map(|(s, first, rest)| {
            let ssp = format!("{first}{rest}");
            Gen { text: format!("{s}:{ssp}"), expect: Expect::Other { scheme: s, host: None, ssp } }
        }),
        // ip-schemepart
        (scheme(), userinfo(), host(), port(), proptest::option::of(xchars(b"", 10))).prop_map(
            |(s, ui, host, port, path)| {
                let mut ssp = format!("//{}", login_text(&ui, &host, &port));
                if let Some(p) = path {
                    ssp.push('/');
                    ssp.push_str(&p);
                }
                Gen { text: format!("{s}:{ssp}"), expect: Expect::Other { scheme: s, host: Some(host), ssp } }
            }
        ),
    ]
}

fn any_url() -> impl Strategy<Value = Gen> {
    prop_oneof![
        ftp(),
        http(),
        gopher(),
        mailto(),
        news(),
        nntp(),
        telnet(),
        wais(),
        file(),
        prospero(),
        other()
    ]
}

/// An optional fragment (`*xchar`) on any URL.
fn any_url_with_fragment() -> impl Strategy<Value = (Gen, Option<String>)> {
    (any_url(), proptest::option::of(xchars(b"", 6)))
}

// ---------------------------------------------------------------------------
// Checking a parse against the generated parts

fn check_login(url: &Url, ui: &Option<(String, Option<String>)>, host: &str, port: Option<u16>) {
    assert_eq!(url.user(), ui.as_ref().map(|u| u.0.as_str()));
    assert_eq!(url.password(), ui.as_ref().and_then(|u| u.1.as_deref()));
    assert_eq!(url.host(), Some(host));
    assert_eq!(url.port(), port);
}

fn check(url: &Url, expect: &Expect) {
    match expect {
        Expect::Ftp { ui, host, port, cwd, name, typecode, has_path } => {
            assert_eq!(url.kind(), SchemeKind::Ftp);
            check_login(url, ui, host, *port);
            let f = url.ftp().unwrap();
            assert_eq!(url.url_path().is_some(), *has_path);
            assert_eq!(f.cwd().collect::<Vec<_>>(), *cwd);
            assert_eq!(f.name(), name);
            assert_eq!(f.typecode(), typecode.map(|t| t.to_ascii_lowercase() as u8));
        }
        Expect::Http { host, port, path, search } => {
            check_login(url, &None, host, *port);
            let h = url.http().unwrap();
            assert_eq!(h.path(), path.as_deref());
            assert_eq!(h.search(), search.as_deref());
        }
        Expect::Gopher { host, port, gtype, selector, search, plus } => {
            check_login(url, &None, host, *port);
            let g = url.gopher().unwrap();
            assert_eq!(g.gtype_raw(), gtype.as_deref());
            assert_eq!(g.selector(), selector);
            assert_eq!(g.search(), search.as_deref());
            assert_eq!(g.plus(), plus.as_deref());
        }
        Expect::Mailto { address } => {
            assert_eq!(url.mailto().unwrap().address_raw(), address);
            assert_eq!(url.host(), None);
        }
        Expect::News { group, article, all } => {
            let n = url.news().unwrap();
            assert_eq!((n.group(), n.article(), n.is_all()), (group.as_deref(), article.as_deref(), *all));
        }
        Expect::Nntp { host, group, article } => {
            assert_eq!(url.host(), Some(host.as_str()));
            let n = url.nntp().unwrap();
            assert_eq!((n.group(), n.article()), (group.as_str(), *article));
        }
        Expect::Telnet { ui, host, port } => {
            assert!(url.telnet().is_some());
            check_login(url, ui, host, *port);
        }
        Expect::Wais { host, form, database, search, wtype, wpath } => {
            assert_eq!(url.host(), Some(host.as_str()));
            let w = url.wais().unwrap();
            assert_eq!(w.form(), *form);
            assert_eq!(w.database(), database);
            assert_eq!(w.search(), search.as_deref());
            assert_eq!(w.wtype(), wtype.as_deref());
            assert_eq!(w.wpath(), wpath.as_deref());
        }
        Expect::File { host, path } => {
            let f = url.file().unwrap();
            assert_eq!((f.host(), f.path()), (host.as_str(), path.as_str()));
            assert_eq!(f.is_local(), host.is_empty() || host == "localhost");
        }
        Expect::Prospero { host, ppath, fields } => {
            assert_eq!(url.host(), Some(host.as_str()));
            let p = url.prospero().unwrap();
            assert_eq!(p.hsoname_raw(), ppath);
            let got: Vec<(String, String)> =
                p.fields().map(|(n, v)| (n.to_string(), v.to_string())).collect();
            assert_eq!(&got, fields);
        }
        Expect::Other { scheme, host, ssp } => {
            assert_eq!(url.kind(), SchemeKind::Other);
            assert_eq!(url.scheme(), scheme);
            assert_eq!(url.host(), host.as_deref());
            assert_eq!(url.scheme_specific_part(), ssp);
        }
    }
}

/// Error kinds about a whole component, reported at its start or at the
/// byte that makes it wrong, which may come before the mutated byte.
const WHOLE_COMPONENT: &[ErrorKind] = &[
    ErrorKind::EmptyHost,
    ErrorKind::EmptyLabel,
    ErrorKind::TrailingDot,
    ErrorKind::LabelHyphen,
    ErrorKind::InvalidHostnumber,
    ErrorKind::EmptyPort,
    ErrorKind::PortOutOfRange,
    ErrorKind::InvalidTypecode,
    ErrorKind::InvalidGroup,
    ErrorKind::InvalidArticleNumber,
    ErrorKind::EmptyArticleId,
    ErrorKind::InvalidAddress,
    ErrorKind::ExpectedDoubleSlash,
    ErrorKind::ExpectedSlash,
    ErrorKind::UnexpectedEnd,
    ErrorKind::UserNotAllowed,
];

/// Bytes that no rule of §5 accepts, anywhere.
fn forbidden_byte() -> impl Strategy<Value = char> {
    let mut v: Vec<char> = (0u8..0x20).map(char::from).collect();
    v.extend([' ', '<', '>', '"', '{', '}', '|', '\\', '^', '~', '[', ']', '`', '\u{7f}']);
    proptest::sample::select(v)
}

/// The delimiters of §2.2 and §3: the reserved characters, `.`, and the
/// `%` of an escape. Replacing one changes how the bytes before it are read.
const DELIMITERS: &[u8] = b";/?:@&=.%";

/// Property 2 and 3 for `original` with its byte `k` replaced.
fn assert_error_at(original: &str, mutated: &str, k: usize) {
    let e = Url::parse(mutated).expect_err(mutated);
    let why = format!("{mutated:?} (from {original:?}): error at {}, mutated byte at {k}: {e}", e.offset());
    assert!(e.offset() <= k, "after the mutated byte: {why}");
    if e.offset() < k {
        let justified = (WHOLE_COMPONENT.contains(&e.kind()) && k - e.offset() <= 253)
            || (e.kind() == ErrorKind::InvalidEscape && k - e.offset() <= 2)
            || DELIMITERS.contains(&original.as_bytes()[k]);
        assert!(justified, "before the mutated byte: {why}");
    }
}

proptest! {
    #![proptest_config(Config { cases: cases(), failure_persistence: None, ..Config::default() })]

    /// Property 1.
    #[test]
    fn generated_urls_parse_to_their_parts((g, frag) in any_url_with_fragment()) {
        let text = match &frag {
            Some(f) => format!("{}#{f}", g.text),
            None => g.text.clone(),
        };
        let url = Url::parse(&text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        url.check_invariants();
        check(&url, &g.expect);
        prop_assert_eq!(url.fragment(), frag.as_deref());
        prop_assert_eq!(url.scheme(), url.scheme().to_ascii_lowercase());
        prop_assert_eq!(&Url::parse(url.as_str()).unwrap(), &url);
        if text.len() <= 160 {
            prop_assert_eq!(reference::compare(&text), Ok(()));
        }
    }

    /// Property 2.
    #[test]
    fn a_forbidden_byte_is_reported_where_it_stands(g in any_url(), at in any::<prop::sample::Index>(), c in forbidden_byte()) {
        let k = at.index(g.text.len());
        let mut mutated = g.text.clone();
        mutated.replace_range(k..=k, &c.to_string());
        assert_error_at(&g.text, &mutated, k);
    }

    /// Property 3.
    #[test]
    fn a_broken_escape_is_reported_where_it_stands(g in any_url(), at in any::<prop::sample::Index>(), c in one_of("gGzZ-._!")) {
        let k = at.index(g.text.len());
        let mut mutated = g.text.clone();
        mutated.replace_range(k..=k, &format!("%{c}"));
        assert_error_at(&g.text, &mutated, k);
    }
}

/// 2000 cases per property, or `PROPTEST_CASES`.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(2000)
}

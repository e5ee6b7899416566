//! A slow reference parser, written straight from the BNF of RFC 1738 §5,
//! to hold the fast parser (`rfc1738::Url::parse`) against.
//!
//! It is deliberately naive, so that it can be checked by reading it next
//! to the RFC:
//!
//! - the grammar is data ([`E`]), each rule a function named after the
//!   §5 rule it transcribes, its BNF line above it;
//! - the matcher tries every alternative and every repetition count and
//!   returns *every* way a rule can match (position and captures), so no
//!   greedy or first-match choice can hide a bug;
//! - the prose rules of §3 that the BNF does not carry are stated as
//!   checks on the text a rule matched ([`E::Check`]), each with the
//!   sentence it comes from.
//!
//! It is exponential in the worst case and quadratic or cubic in practice:
//! keep its inputs short (the fuzz target caps them).
//!
//! Used by `tests/differential.rs`, `tests/properties.rs` and the
//! `differential` fuzz target (through `#[path]`).

#![allow(dead_code)]

use std::fmt::Write as _;
use std::sync::OnceLock;

/// A grammar expression.
pub enum E {
    /// A literal, byte for byte.
    Lit(&'static str),
    /// A literal, ASCII case ignored (scheme names, §2.1).
    LitNoCase(&'static str),
    /// One byte out of a list.
    OneOf(&'static [u8]),
    /// One byte for which the function holds.
    Byte(fn(u8) -> bool),
    /// Each in turn.
    Seq(Vec<E>),
    /// Any one of them (all are tried).
    Alt(Vec<E>),
    /// `min*max` repetitions (`None`: no maximum).
    Rep(usize, Option<usize>, Box<E>),
    /// Records the text matched under a name.
    Cap(&'static str, Box<E>),
    /// Keeps only the matches whose text passes the check (a §3 prose rule).
    Check(Box<E>, fn(&[u8]) -> bool),
}

use E::*;

fn seq<const N: usize>(v: [E; N]) -> E {
    Seq(v.into())
}
fn alt<const N: usize>(v: [E; N]) -> E {
    Alt(v.into())
}
/// `*x`
fn many(e: E) -> E {
    Rep(0, None, Box::new(e))
}
/// `1*x`
fn many1(e: E) -> E {
    Rep(1, None, Box::new(e))
}
/// `[ x ]`
fn opt(e: E) -> E {
    Rep(0, Some(1), Box::new(e))
}
fn cap(name: &'static str, e: E) -> E {
    Cap(name, Box::new(e))
}
fn check(e: E, f: fn(&[u8]) -> bool) -> E {
    Check(Box::new(e), f)
}
/// Matches the empty string.
fn empty() -> E {
    Seq(Vec::new())
}

// ---------------------------------------------------------------------------
// §5 "Miscellaneous definitions"

const LOWALPHA: &[u8] = b"abcdefghijklmnopqrstuvwxyz";
const HIALPHA: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGIT: &[u8] = b"0123456789";

/// `alpha = lowalpha | hialpha`
fn alpha() -> E {
    alt([OneOf(LOWALPHA), OneOf(HIALPHA)])
}
/// `digit = "0" | ... | "9"`
fn digit() -> E {
    OneOf(DIGIT)
}
/// `digits = 1*digit`
fn digits() -> E {
    many1(digit())
}
/// `alphadigit = alpha | digit`
fn alphadigit() -> E {
    alt([alpha(), digit()])
}
/// `safe = "$" | "-" | "_" | "." | "+"`
fn safe() -> E {
    OneOf(b"$-_.+")
}
/// `extra = "!" | "*" | "'" | "(" | ")" | ","`
fn extra() -> E {
    OneOf(b"!*'(),")
}
/// `reserved = ";" | "/" | "?" | ":" | "@" | "&" | "="`
fn reserved() -> E {
    OneOf(b";/?:@&=")
}
/// `hex = digit | "A" | ... | "F" | "a" | ... | "f"`
fn hex() -> E {
    OneOf(b"0123456789ABCDEFabcdef")
}
/// `escape = "%" hex hex`
fn escape() -> E {
    seq([Lit("%"), hex(), hex()])
}
/// `unreserved = alpha | digit | safe | extra`
fn unreserved() -> E {
    alt([alpha(), digit(), safe(), extra()])
}
/// `uchar = unreserved | escape`
fn uchar() -> E {
    alt([unreserved(), escape()])
}
/// `xchar = unreserved | reserved | escape`
fn xchar() -> E {
    alt([unreserved(), reserved(), escape()])
}
/// `*[ uchar | <each of extra> ]`, the shape of most §5 rules.
fn uchars_and(extra: &'static [u8]) -> E {
    many(alt([uchar(), OneOf(extra)]))
}

// ---------------------------------------------------------------------------
// §5 generic syntax

/// `scheme = 1*[ lowalpha | digit | "+" | "-" | "." ]`, and upper case:
/// §2.1 "programs interpreting URLs should treat upper case letters as
/// equivalent to lower case in scheme names".
fn scheme() -> E {
    many1(alt([OneOf(LOWALPHA), OneOf(HIALPHA), digit(), OneOf(b"+-.")]))
}

/// RFC 1034 §3.5, to which §3.1 refers for host names: "labels must be 63
/// characters or less".
fn label_length(s: &[u8]) -> bool {
    s.len() <= 63
}
/// RFC 1034 §3.1: a name is at most 255 octets on the wire, 253 as text.
fn name_length(s: &[u8]) -> bool {
    s.len() <= 253
}

/// `domainlabel = alphadigit | alphadigit *[ alphadigit | "-" ] alphadigit`
fn domainlabel() -> E {
    check(
        alt([alphadigit(), seq([alphadigit(), many(alt([alphadigit(), Lit("-")])), alphadigit()])]),
        label_length,
    )
}
/// `toplabel = alpha | alpha *[ alphadigit | "-" ] alphadigit`
fn toplabel() -> E {
    check(alt([alpha(), seq([alpha(), many(alt([alphadigit(), Lit("-")])), alphadigit()])]), label_length)
}
/// `hostname = *[ domainlabel "." ] toplabel`
fn hostname() -> E {
    check(seq([many(seq([domainlabel(), Lit(".")])), toplabel()]), name_length)
}
/// `hostnumber = digits "." digits "." digits "." digits`
fn hostnumber() -> E {
    seq([digits(), Lit("."), digits(), Lit("."), digits(), Lit("."), digits()])
}
/// `host = hostname | hostnumber`
fn host() -> E {
    alt([hostname(), hostnumber()])
}
/// The value of `digits`, or `None` above `u64::MAX`.
fn digits_value(s: &[u8]) -> Option<u64> {
    s.iter().try_fold(0u64, |n, &d| n.checked_mul(10)?.checked_add(u64::from(d - b'0')))
}
/// `port = digits`: §5 gives no range (docs/DIFFERENCES.md).
fn port_rule() -> E {
    digits()
}
/// `hostport = host [ ":" port ]`
fn hostport() -> E {
    seq([cap("host", host()), opt(seq([Lit(":"), cap("port", port_rule())]))])
}
/// `user = *[ uchar | ";" | "?" | "&" | "=" ]`
fn user() -> E {
    uchars_and(b";?&=")
}
/// `password = *[ uchar | ";" | "?" | "&" | "=" ]`
fn password() -> E {
    uchars_and(b";?&=")
}
/// `login = [ user [ ":" password ] "@" ] hostport`
fn login() -> E {
    seq([
        opt(seq([cap("user", user()), opt(seq([Lit(":"), cap("password", password())])), Lit("@")])),
        hostport(),
    ])
}
/// `urlpath = *xchar`
fn urlpath() -> E {
    many(xchar())
}
/// `ip-schemepart = "//" login [ "/" urlpath ]`
fn ip_schemepart() -> E {
    seq([Lit("//"), login(), opt(seq([Lit("/"), cap("path", urlpath())]))])
}
/// `schemepart = *xchar | ip-schemepart`
fn schemepart() -> E {
    alt([many(xchar()), ip_schemepart()])
}
/// `genericurl = scheme ":" schemepart`
fn genericurl() -> E {
    seq([cap("scheme", scheme()), Lit(":"), schemepart()])
}

/// The ten schemes of §3, and https (RFC 2818 §2.4 gives it http's
/// rule). A URL whose scheme is one of them must match that scheme's rule
/// (§2.1: "the scheme-specific part ... depends on the scheme");
/// `otherurl` is for the rest.
const KNOWN: [&str; 11] =
    ["ftp", "http", "gopher", "mailto", "news", "nntp", "telnet", "wais", "file", "prospero", "https"];

/// `otherurl = genericurl`, for a scheme none of §3 defines.
fn otherurl() -> E {
    check(genericurl(), |s| {
        let name = &s[..s.iter().position(|&c| c == b':').unwrap_or(s.len())];
        !KNOWN.iter().any(|k| k.as_bytes().eq_ignore_ascii_case(name))
    })
}

// ---------------------------------------------------------------------------
// §5 the predefined schemes

/// `fsegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]`
fn fsegment() -> E {
    uchars_and(b"?:@&=")
}
/// `fpath = fsegment *[ "/" fsegment ]`
fn fpath() -> E {
    seq([fsegment(), many(seq([Lit("/"), fsegment()]))])
}
/// `ftptype = "A" | "I" | "D" | "a" | "i" | "d"`
fn ftptype() -> E {
    OneOf(b"AIDaid")
}
/// `ftpurl = "ftp://" login [ "/" fpath [ ";type=" ftptype ]]`
fn ftpurl() -> E {
    seq([
        cap("scheme", LitNoCase("ftp")),
        Lit("://"),
        login(),
        opt(seq([
            Lit("/"),
            cap(
                "path",
                seq([cap("ftp.fpath", fpath()), opt(seq([Lit(";type="), cap("ftp.type", ftptype())]))]),
            ),
        ])),
    ])
}
/// `fileurl = "file://" [ host | "localhost" ] "/" fpath`
fn fileurl() -> E {
    seq([
        cap("scheme", LitNoCase("file")),
        Lit("://"),
        cap("host", opt(alt([host(), Lit("localhost")]))),
        Lit("/"),
        cap("path", fpath()),
    ])
}
/// `hsegment = *[ uchar | ";" | ":" | "@" | "&" | "=" ]`
fn hsegment() -> E {
    uchars_and(b";:@&=")
}
/// `hpath = hsegment *[ "/" hsegment ]`
fn hpath() -> E {
    seq([hsegment(), many(seq([Lit("/"), hsegment()]))])
}
/// `search = *[ uchar | ";" | ":" | "@" | "&" | "=" ]`
fn search() -> E {
    uchars_and(b";:@&=")
}
/// `httpurl = "http://" hostport [ "/" hpath [ "?" search ]]`, and the
/// same rule after `"https"` (RFC 2818 §2.4).
fn httpurl() -> E {
    seq([
        cap("scheme", alt([LitNoCase("http"), LitNoCase("https")])),
        Lit("://"),
        hostport(),
        opt(seq([
            Lit("/"),
            cap(
                "path",
                seq([cap("http.hpath", hpath()), opt(seq([Lit("?"), cap("http.search", search())]))]),
            ),
        ])),
    ])
}

/// The octets `s` stands for: each `escape` decoded.
pub fn decode(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'%' && i + 2 < s.len() && s[i + 1].is_ascii_hexdigit() && s[i + 2].is_ascii_hexdigit() {
            let h = |c: u8| (c as char).to_digit(16).unwrap() as u8;
            out.push(h(s[i + 1]) * 16 + h(s[i + 2]));
            i += 3;
        } else {
            out.push(s[i]);
            i += 1;
        }
    }
    out
}

/// §3.4.1: "Gopher selector strings are a sequence of octets which may
/// contain any octets except 09 hexadecimal (US-ASCII HT or tab) 0A
/// hexadecimal (US-ASCII character LF), and 0D (US-ASCII character CR)."
fn selector_octets(s: &[u8]) -> bool {
    !decode(s).iter().any(|c| matches!(c, 0x09 | 0x0a | 0x0d))
}
/// §3.4.2, §3.4.3: the search is followed by "a tab" and the gopher+
/// string, so it holds none itself.
fn search_octets(s: &[u8]) -> bool {
    !decode(s).contains(&0x09)
}
/// `gtype = xchar`
fn gtype() -> E {
    xchar()
}
/// `selector = *xchar`
fn selector() -> E {
    check(many(xchar()), selector_octets)
}
/// `gopher+_string = *xchar`
fn gopher_plus_string() -> E {
    many(xchar())
}
/// The gopher search: `*xchar`, not the http `search` the §5 BNF names,
/// by §3.4.1: "Within the <gopher-path>, no characters are reserved."
/// (docs/DIFFERENCES.md)
fn gopher_search() -> E {
    many(xchar())
}
/// `gopherurl = "gopher://" hostport [ / [ gtype [ selector
///              [ "%09" search [ "%09" gopher+_string ] ] ] ] ]`
fn gopherurl() -> E {
    let tail = seq([
        Lit("%09"),
        cap("gopher.search", check(gopher_search(), search_octets)),
        opt(seq([Lit("%09"), cap("gopher.plus", gopher_plus_string())])),
    ]);
    seq([
        cap("scheme", LitNoCase("gopher")),
        Lit("://"),
        hostport(),
        opt(seq([
            Lit("/"),
            cap(
                "path",
                opt(seq([
                    cap("gopher.gtype", gtype()),
                    opt(seq([cap("gopher.selector", selector()), opt(tail)])),
                ])),
            ),
        ])),
    ])
}

/// `encoded822addr = 1*xchar ; further defined in RFC822`: once decoded,
/// an RFC 822 `addr-spec` (see [`rfc822`]).
fn encoded822addr() -> E {
    check(many1(xchar()), |s| rfc822::is_addr_spec(&decode(s)))
}
/// `mailtourl = "mailto:" encoded822addr`
fn mailtourl() -> E {
    seq([cap("scheme", LitNoCase("mailto")), Lit(":"), cap("mailto.addr", encoded822addr())])
}

/// `group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]`
fn group() -> E {
    seq([alpha(), many(alt([alpha(), digit(), OneOf(b"-.+_")]))])
}
/// `article = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host`
fn article() -> E {
    seq([many1(alt([uchar(), OneOf(b";/?:&=")])), Lit("@"), host()])
}
/// `grouppart = "*" | group | article`
fn grouppart() -> E {
    alt([cap("news.all", Lit("*")), cap("news.group", group()), cap("news.article", article())])
}
/// `newsurl = "news:" grouppart`
fn newsurl() -> E {
    seq([cap("scheme", LitNoCase("news")), Lit(":"), grouppart()])
}
/// `nntpurl = "nntp://" hostport "/" group [ "/" digits ]`; the article
/// number must fit 64 bits to be used.
fn nntpurl() -> E {
    seq([
        cap("scheme", LitNoCase("nntp")),
        Lit("://"),
        hostport(),
        Lit("/"),
        cap(
            "path",
            seq([
                cap("nntp.group", group()),
                opt(seq([Lit("/"), cap("nntp.article", check(digits(), |s| digits_value(s).is_some()))])),
            ]),
        ),
    ])
}
/// `telneturl = "telnet://" login [ "/" ]`
fn telneturl() -> E {
    seq([cap("scheme", LitNoCase("telnet")), Lit("://"), login(), opt(seq([Lit("/"), cap("path", empty())]))])
}
/// `database = *uchar`, `wtype = *uchar`, `wpath = *uchar`
fn uchars() -> E {
    many(uchar())
}
/// `waisurl = waisdatabase | waisindex | waisdoc`
/// `waisdatabase = "wais://" hostport "/" database`
/// `waisindex = "wais://" hostport "/" database "?" search`
/// `waisdoc = "wais://" hostport "/" database "/" wtype "/" wpath`
fn waisurl() -> E {
    let start = || seq([cap("scheme", LitNoCase("wais")), Lit("://"), hostport(), Lit("/")]);
    let database = || cap("wais.database", uchars());
    alt([
        seq([start(), cap("path", database())]),
        seq([start(), cap("path", seq([database(), Lit("?"), cap("wais.search", search())]))]),
        seq([
            start(),
            cap(
                "path",
                seq([
                    database(),
                    Lit("/"),
                    cap("wais.wtype", uchars()),
                    Lit("/"),
                    cap("wais.wpath", uchars()),
                ]),
            ),
        ]),
    ])
}
/// `psegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]`
fn psegment() -> E {
    uchars_and(b"?:@&=")
}
/// `ppath = psegment *[ "/" psegment ]`
fn ppath() -> E {
    seq([psegment(), many(seq([Lit("/"), psegment()]))])
}
/// `fieldname = *[ uchar | "?" | ":" | "@" | "&" ]`, `fieldvalue` the same.
fn field() -> E {
    uchars_and(b"?:@&")
}
/// `fieldspec = ";" fieldname "=" fieldvalue`
fn fieldspec() -> E {
    seq([Lit(";"), cap("prospero.field", seq([field(), Lit("="), field()]))])
}
/// `prosperourl = "prospero://" hostport "/" ppath *[ fieldspec ]`
fn prosperourl() -> E {
    seq([
        cap("scheme", LitNoCase("prospero")),
        Lit("://"),
        hostport(),
        Lit("/"),
        cap("path", seq([cap("prospero.ppath", ppath()), many(fieldspec())])),
    ])
}

/// `url = httpurl | ftpurl | newsurl | nntpurl | telneturl | gopherurl |
///        waisurl | mailtourl | fileurl | prosperourl | otherurl`,
/// then, after `"#"`, a fragment identifier (§2.2). Its syntax is not
/// given; it is held to `*xchar` like the rest (§2.2 "URLs are written
/// only with the graphic printable characters").
fn url_with_fragment() -> E {
    seq([
        alt([
            httpurl(),
            ftpurl(),
            newsurl(),
            nntpurl(),
            telneturl(),
            gopherurl(),
            waisurl(),
            mailtourl(),
            fileurl(),
            prosperourl(),
            otherurl(),
        ]),
        opt(seq([Lit("#"), cap("fragment", many(xchar()))])),
    ])
}

/// RFC 822 §6.1 `addr-spec`, on decoded octets, with the same matcher.
pub mod rfc822 {
    use super::*;

    /// `CHAR = <any ASCII character>`
    fn char_() -> E {
        Byte(|c| c < 0x80)
    }
    /// `atom = 1*<any CHAR except specials, SPACE and CTLs>`,
    /// `specials = "(" / ")" / "<" / ">" / "@" / "," / ";" / ":" / "\" / <"> / "." / "[" / "]"`
    fn atom() -> E {
        many1(Byte(|c| c > b' ' && c < 0x7f && !b"()<>@,;:\\\".[]".contains(&c)))
    }
    /// `quoted-pair = "\" CHAR`
    fn quoted_pair() -> E {
        seq([Lit("\\"), char_()])
    }
    /// `qtext = <any CHAR excepting <">, "\" & CR, and including
    /// linear-white-space>`. Folding (CR LF before white space) belongs to
    /// message headers; a URL carries none, so CR stays out.
    fn qtext() -> E {
        Byte(|c| c < 0x80 && !matches!(c, b'"' | b'\\' | b'\r'))
    }
    /// `quoted-string = <"> *(qtext/quoted-pair) <">`
    fn quoted_string() -> E {
        seq([Lit("\""), many(alt([qtext(), quoted_pair()])), Lit("\"")])
    }
    /// `word = atom / quoted-string`
    fn word() -> E {
        alt([atom(), quoted_string()])
    }
    /// `local-part = word *("." word)`
    fn local_part() -> E {
        seq([word(), many(seq([Lit("."), word()]))])
    }
    /// `dtext = <any CHAR excluding "[", "]", "\" & CR, & including
    /// linear-white-space>`
    fn dtext() -> E {
        Byte(|c| c < 0x80 && !matches!(c, b'[' | b']' | b'\\' | b'\r'))
    }
    /// `domain-literal = "[" *(dtext / quoted-pair) "]"`
    fn domain_literal() -> E {
        seq([Lit("["), many(alt([dtext(), quoted_pair()])), Lit("]")])
    }
    /// `sub-domain = domain-ref / domain-literal`, `domain-ref = atom`
    fn sub_domain() -> E {
        alt([atom(), domain_literal()])
    }
    /// `domain = sub-domain *("." sub-domain)`
    fn domain() -> E {
        seq([sub_domain(), many(seq([Lit("."), sub_domain()]))])
    }
    /// `addr-spec = local-part "@" domain`
    fn addr_spec() -> E {
        seq([local_part(), Lit("@"), domain()])
    }

    /// Whether all of `octets` is one `addr-spec`.
    pub fn is_addr_spec(octets: &[u8]) -> bool {
        static G: OnceLock<E> = OnceLock::new();
        let g = G.get_or_init(addr_spec);
        Matcher { b: octets }.run(g, 0, &Vec::new()).iter().any(|(end, _)| *end == octets.len())
    }
}

// ---------------------------------------------------------------------------
// The matcher

/// Named spans matched so far, in the order they closed.
type Caps = Vec<(&'static str, usize, usize)>;

struct Matcher<'a> {
    b: &'a [u8],
}

fn push_unique(v: &mut Vec<(usize, Caps)>, s: (usize, Caps)) {
    if !v.contains(&s) {
        v.push(s);
    }
}

impl Matcher<'_> {
    /// Every way `e` matches at `i`: the end and the captures with it.
    fn run(&self, e: &E, i: usize, caps: &Caps) -> Vec<(usize, Caps)> {
        let b = self.b;
        match e {
            Lit(s) => {
                if b[i..].starts_with(s.as_bytes()) {
                    vec![(i + s.len(), caps.clone())]
                } else {
                    vec![]
                }
            }
            LitNoCase(s) => {
                if b.len() - i >= s.len() && b[i..i + s.len()].eq_ignore_ascii_case(s.as_bytes()) {
                    vec![(i + s.len(), caps.clone())]
                } else {
                    vec![]
                }
            }
            OneOf(set) => match b.get(i) {
                Some(c) if set.contains(c) => vec![(i + 1, caps.clone())],
                _ => vec![],
            },
            Byte(f) => match b.get(i) {
                Some(&c) if f(c) => vec![(i + 1, caps.clone())],
                _ => vec![],
            },
            Seq(es) => {
                let mut states = vec![(i, caps.clone())];
                for e in es {
                    let mut next = Vec::new();
                    for (j, c) in &states {
                        for s in self.run(e, *j, c) {
                            push_unique(&mut next, s);
                        }
                    }
                    states = next;
                }
                states
            }
            Alt(es) => {
                let mut out = Vec::new();
                for e in es {
                    for s in self.run(e, i, caps) {
                        push_unique(&mut out, s);
                    }
                }
                out
            }
            Rep(min, max, e) => {
                let mut out = Vec::new();
                let mut frontier = vec![(i, caps.clone())];
                let mut count = 0;
                loop {
                    if count >= *min {
                        for s in &frontier {
                            push_unique(&mut out, s.clone());
                        }
                    }
                    if frontier.is_empty() || Some(count) == *max {
                        return out;
                    }
                    let mut next = Vec::new();
                    for (j, c) in &frontier {
                        // A repetition that consumes nothing adds nothing
                        // (and would never end).
                        for s in self.run(e, *j, c).into_iter().filter(|s| s.0 > *j) {
                            push_unique(&mut next, s);
                        }
                    }
                    frontier = next;
                    count += 1;
                }
            }
            Cap(name, e) => self
                .run(e, i, caps)
                .into_iter()
                .map(|(j, mut c)| {
                    c.push((name, i, j));
                    (j, c)
                })
                .collect(),
            Check(e, f) => self.run(e, i, caps).into_iter().filter(|(j, _)| f(&b[i..*j])).collect(),
        }
    }
}

// ---------------------------------------------------------------------------
// Components: what both parsers are compared on

/// The components of a URL, as text, in one shape for both parsers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Components {
    pub scheme: String,
    pub user: Option<String>,
    pub password: Option<String>,
    pub host: Option<String>,
    pub port: Option<String>,
    pub path: Option<String>,
    pub fragment: Option<String>,
    /// Scheme-specific parts, `name=value`, in a fixed order.
    pub specific: Vec<String>,
}

impl std::fmt::Display for Components {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "scheme={} user={:?} password={:?} host={:?} port={:?} path={:?} fragment={:?} {:?}",
            self.scheme,
            self.user,
            self.password,
            self.host,
            self.port,
            self.path,
            self.fragment,
            self.specific
        )
    }
}

/// Builds the components from the captures of one complete match.
fn components(input: &str, caps: &Caps) -> Components {
    let get = |name: &str| caps.iter().rev().find(|c| c.0 == name).map(|c| input[c.1..c.2].to_string());
    let all = |name: &str| {
        let mut v: Vec<_> = caps.iter().filter(|c| c.0 == name).collect();
        v.sort_by_key(|c| c.1);
        v.into_iter().map(|c| input[c.1..c.2].to_string()).collect::<Vec<_>>()
    };
    let scheme = get("scheme").unwrap_or_default().to_ascii_lowercase();
    let mut c = Components {
        user: get("user"),
        password: get("password"),
        host: get("host"),
        port: get("port"),
        path: get("path"),
        fragment: get("fragment"),
        ..Components::default()
    };
    let mut sp =
        |k: &str, v: Option<String>| c.specific.push(format!("{k}={}", v.as_deref().unwrap_or("<none>")));
    match scheme.as_str() {
        "ftp" if c_path_present(caps) => {
            sp("fpath", get("ftp.fpath"));
            sp("type", get("ftp.type"));
        }
        "http" | "https" => {
            sp("hpath", get("http.hpath"));
            sp("search", get("http.search"));
        }
        "gopher" => {
            sp("gtype", get("gopher.gtype"));
            // An empty selector and an absent one are the same (§3.4.1
            // "The Gopher selector string may be an empty string").
            sp("selector", Some(get("gopher.selector").unwrap_or_default()));
            sp("search", get("gopher.search"));
            sp("plus", get("gopher.plus"));
        }
        "mailto" => sp("address", get("mailto.addr")),
        "news" => {
            sp("all", Some(get("news.all").is_some().to_string()));
            sp("group", get("news.group"));
            sp("article", get("news.article"));
        }
        "nntp" => {
            sp("group", get("nntp.group"));
            sp("article", get("nntp.article"));
        }
        "wais" => {
            sp("database", get("wais.database"));
            sp("search", get("wais.search"));
            sp("wtype", get("wais.wtype"));
            sp("wpath", get("wais.wpath"));
        }
        "prospero" => {
            sp("ppath", get("prospero.ppath"));
            for f in all("prospero.field") {
                sp("field", Some(f));
            }
        }
        _ => {}
    }
    c.scheme = scheme;
    c
}

fn c_path_present(caps: &Caps) -> bool {
    caps.iter().any(|c| c.0 == "path")
}

/// Parses `input` with the reference grammar: `Ok` with the components of
/// its one match, `Err` with why not (no match, or several different ones).
pub fn parse(input: &str) -> Result<Components, String> {
    static G: OnceLock<E> = OnceLock::new();
    let g = G.get_or_init(url_with_fragment);
    let matches = Matcher { b: input.as_bytes() }.run(g, 0, &Vec::new());
    let mut found: Vec<Components> = Vec::new();
    for (end, caps) in &matches {
        if *end == input.len() {
            let c = components(input, caps);
            if !found.contains(&c) {
                found.push(c);
            }
        }
    }
    // `schemepart = *xchar | ip-schemepart`: when both match, the reading
    // with a login is the one that says more.
    if found.len() > 1 && found.iter().any(|c| c.host.is_some()) {
        found.retain(|c| c.host.is_some());
    }
    match found.len() {
        0 => Err("no match".into()),
        1 => Ok(found.pop().unwrap()),
        _ => {
            let mut why = String::from("ambiguous:");
            for c in &found {
                let _ = write!(why, "\n  {c}");
            }
            Err(why)
        }
    }
}

/// The same components, read from a [`rfc1738::Url`] through its public API.
pub fn components_of(url: &rfc1738::Url) -> Components {
    let s = |v: &str| Some(v.to_string());
    let o = |v: Option<&str>| v.map(str::to_string);
    let mut c = Components {
        scheme: url.scheme().to_string(),
        user: o(url.user()),
        password: o(url.password()),
        host: o(url.host()),
        port: o(url.port_str()),
        path: o(url.url_path()),
        fragment: o(url.fragment()),
        specific: Vec::new(),
    };
    let mut sp =
        |k: &str, v: Option<String>| c.specific.push(format!("{k}={}", v.as_deref().unwrap_or("<none>")));
    if let Some(f) = url.ftp() {
        if url.url_path().is_some() {
            sp("fpath", s(f.fpath()));
            // The raw typecode is the last character of the url-path.
            let raw = f.typecode().map(|_| url.url_path().unwrap().chars().last().unwrap().to_string());
            assert_eq!(f.typecode(), raw.as_ref().map(|r| r.as_bytes()[0].to_ascii_lowercase()));
            sp("type", raw);
        }
    } else if let Some(h) = url.http() {
        sp("hpath", o(h.path()));
        sp("search", o(h.search()));
    } else if let Some(g) = url.gopher() {
        sp("gtype", o(g.gtype_raw()));
        sp("selector", s(g.selector()));
        sp("search", o(g.search()));
        sp("plus", o(g.plus()));
    } else if let Some(m) = url.mailto() {
        sp("address", s(m.address_raw()));
    } else if let Some(n) = url.news() {
        sp("all", Some(n.is_all().to_string()));
        sp("group", o(n.group()));
        sp("article", o(n.article()));
    } else if let Some(n) = url.nntp() {
        sp("group", s(n.group()));
        sp("article", o(n.article_raw()));
    } else if let Some(w) = url.wais() {
        sp("database", s(w.database()));
        sp("search", o(w.search()));
        sp("wtype", o(w.wtype()));
        sp("wpath", o(w.wpath()));
    } else if let Some(p) = url.prospero() {
        sp("ppath", s(p.hsoname_raw()));
        for (n, v) in p.fields() {
            sp("field", Some(format!("{n}={v}")));
        }
    }
    c
}

/// Runs both parsers on `input`; `Err` describes any disagreement on
/// validity or on a component.
pub fn compare(input: &str) -> Result<(), String> {
    let fast = rfc1738::Url::parse(input);
    let slow = parse(input);
    match (fast, slow) {
        (Ok(url), Ok(want)) => {
            let got = components_of(&url);
            if got == want {
                Ok(())
            } else {
                Err(format!("{input:?}: components differ\n  fast:      {got}\n  reference: {want}"))
            }
        }
        (Err(_), Err(why)) if why == "no match" => Ok(()),
        (Ok(url), Err(why)) => {
            Err(format!("{input:?}: fast accepts ({}), reference: {why}", components_of(&url)))
        }
        (Err(e), Ok(want)) => {
            Err(format!("{input:?}: fast rejects ({e} [{}]), reference accepts ({want})", e.kind().id()))
        }
        (Err(_), Err(why)) => Err(format!("{input:?}: reference: {why}")),
    }
}

//! The builders: the escapes each part gets, and the values no URL can
//! carry, each an error naming the part. (That building from the parts of
//! every conformance case gives the parts back is in `equivalence.rs`.)

use rfc1738::build::{
    BuildError, BuildErrorKind, FileBuilder, FtpBuilder, GenericBuilder, GopherBuilder, HttpBuilder,
    MailtoBuilder, NewsBuilder, NntpBuilder, ProsperoBuilder, TelnetBuilder, WaisBuilder,
};
use rfc1738::{ErrorKind, Rule, Url};

fn text(r: Result<Url, BuildError>) -> String {
    r.map(|u| u.as_str().to_owned()).unwrap_or_else(|e| panic!("{e}"))
}

fn err(r: Result<Url, BuildError>) -> (Rule, BuildErrorKind) {
    let e = r.expect_err("an error");
    assert!(e.to_string().starts_with("cannot build the "), "{e}");
    (e.part(), e.kind())
}

#[test]
fn each_part_gets_the_escapes_of_its_context() {
    // §3.1: ":", "@" and "/" encoded in a user name and password.
    assert_eq!(
        text(FtpBuilder::new("h.example").user("a:b@c/d").password("p:@/;?&=").build()),
        "ftp://a%3Ab%40c%2Fd:p%3A%40%2F;?&=@h.example/"
    );
    // §3.2.2: "/" and ";" encoded in an ftp segment and name; the typecode in lower case.
    assert_eq!(
        text(FtpBuilder::new("h.example").cwd("a/b").cwd("").name("c;d").typecode(b'I').build()),
        "ftp://h.example/a%2Fb//c%3Bd;type=i"
    );
    // §3.3: "/" and "?" encoded in a segment, "/" and "?" in the search.
    assert_eq!(
        text(HttpBuilder::new("h.example").segment("a?b/c;d").search("x/y?z=1&w").build()),
        "http://h.example/a%3Fb%2Fc;d?x%2Fy%3Fz=1&w"
    );
    assert_eq!(text(HttpBuilder::new("h.example").build()), "http://h.example");
    assert_eq!(text(HttpBuilder::new("h.example").search("q").build()), "http://h.example/?q");
    // §3.4: the type, the selector (reserved characters kept), search and gopher+ string.
    assert_eq!(
        text(GopherBuilder::new("h.example").gopher_type(b'0').selector("/a b;c?d").build()),
        "gopher://h.example/0/a%20b;c?d"
    );
    assert_eq!(
        text(
            GopherBuilder::new("h.example")
                .gopher_type(b'%')
                .selector("x")
                .search("")
                .plus("+\t1\r\n")
                .build()
        ),
        "gopher://h.example/%25x%09%09+%091%0D%0A"
    );
    assert_eq!(text(GopherBuilder::new("h.example").build()), "gopher://h.example/");
    // §3.5, §3.6, §3.7
    assert_eq!(text(MailtoBuilder::new("a%b@h.example").build()), "mailto:a%25b@h.example");
    assert_eq!(text(NewsBuilder::article("<x>@h.example").build()), "news:%3Cx%3E@h.example");
    assert_eq!(
        text(NntpBuilder::new("n.example", "alt.x_y").port(119).build()),
        "nntp://n.example:119/alt.x_y"
    );
    // §3.8, §3.9, §3.10, §3.11
    assert_eq!(
        text(TelnetBuilder::new("h.example").user("u").password("").build()),
        "telnet://u:@h.example/"
    );
    assert_eq!(text(WaisBuilder::new("w.example", "d/b?").build()), "wais://w.example/d%2Fb%3F");
    assert_eq!(text(FileBuilder::new("localhost").path("a b/c").build()), "file://localhost/a%20b/c");
    assert_eq!(
        text(ProsperoBuilder::new("p.example", "a/b;c").field("n=1", "v;2").build()),
        "prospero://p.example/a/b%3Bc;n%3D1=v%3B2"
    );
    assert_eq!(text(GenericBuilder::new("urn").path("isbn:0451450523").build()), "urn:isbn:0451450523");
}

#[test]
fn values_no_url_can_carry_are_errors_naming_the_part() {
    use BuildErrorKind::{Invalid, NotAllowed, Octet, Requires};
    // §3.4.1: a selector holds no TAB, CR or LF; a search no TAB.
    for (value, b) in [("a\tb", b'\t'), ("a\rb", b'\r'), ("a\nb", b'\n')] {
        assert_eq!(err(GopherBuilder::new("h.example").selector(value).build()), (Rule::Selector, Octet(b)));
    }
    assert_eq!(err(GopherBuilder::new("h.example").search("a\tb").build()), (Rule::Search, Octet(b'\t')));
    assert_eq!(
        err(GopherBuilder::new("h.example").plus("+").build()),
        (Rule::GopherPlusString, Requires(Rule::Search))
    );
    // §3.3: no user name in http (the http builder has no such method).
    assert_eq!(
        err(GenericBuilder::new("HTTP").user("u").host("h.example").build()),
        (Rule::User, NotAllowed)
    );
    assert_eq!(
        err(GenericBuilder::new("gopher").password("p").host("h.example").build()),
        (Rule::Password, NotAllowed)
    );
    assert_eq!(err(GenericBuilder::new("mailto").host("h.example").build()), (Rule::Login, NotAllowed));
    // §3.1: a host is a hostname or a hostnumber.
    for (host, kind) in [
        ("a..b", ErrorKind::EmptyLabel),
        ("-a.example", ErrorKind::LabelHyphen),
        ("a_b.example", ErrorKind::InvalidChar),
        ("1.2.3", ErrorKind::InvalidHostnumber),
        ("h.example.", ErrorKind::TrailingDot),
        ("", ErrorKind::EmptyHost),
        ("h.example:80", ErrorKind::Reserved),
        ("[::1]", ErrorKind::Unsafe),
    ] {
        assert_eq!(err(HttpBuilder::new(host).build()), (Rule::Host, Invalid(kind)), "{host}");
    }
    assert_eq!(err(NewsBuilder::article("id@a..b").build()), (Rule::Host, Invalid(ErrorKind::EmptyLabel)));
    assert_eq!(err(FileBuilder::new("a b").build()), (Rule::Host, Invalid(ErrorKind::Unsafe)));
    // §3.1: a password needs a user name.
    assert_eq!(
        err(FtpBuilder::new("h.example").password("p").build()),
        (Rule::Password, Requires(Rule::User))
    );
    // §3.2.2, §3.5, §3.6, §3.9
    assert_eq!(
        err(FtpBuilder::new("h.example").typecode(b'x').build()),
        (Rule::Ftptype, Invalid(ErrorKind::InvalidTypecode))
    );
    assert_eq!(err(MailtoBuilder::new("no-at-sign").build()).0, Rule::Encoded822addr);
    assert_eq!(err(NewsBuilder::group("9x").build()), (Rule::Group, Invalid(ErrorKind::InvalidGroup)));
    assert_eq!(err(NewsBuilder::group("a/b").build()), (Rule::Group, Invalid(ErrorKind::InvalidGroup)));
    assert_eq!(err(NewsBuilder::article("no-host").build()), (Rule::Article, Requires(Rule::Host)));
    assert_eq!(
        err(NntpBuilder::new("h.example", "").build()),
        (Rule::Group, Invalid(ErrorKind::InvalidGroup))
    );
    assert_eq!(
        err(WaisBuilder::new("w.example", "db").search("q").document("T", "p").build()),
        (Rule::Search, NotAllowed)
    );
    assert_eq!(err(GenericBuilder::new("a b").build()), (Rule::Scheme, Invalid(ErrorKind::InvalidChar)));
    assert_eq!(err(GenericBuilder::new("").build()), (Rule::Scheme, Invalid(ErrorKind::InvalidChar)));
}

#[test]
fn every_octet_survives_the_parts_that_take_any() {
    let all: Vec<u8> = (0..=255).collect();
    let url = FtpBuilder::new("h.example").user(&all).password(&all).cwd(&all).name(&all).build().unwrap();
    let ftp = url.ftp().unwrap();
    assert_eq!(url.user_decoded().unwrap(), all.as_slice());
    assert_eq!(url.password_decoded().unwrap(), all.as_slice());
    assert_eq!(ftp.commands()[0].arg.as_ref(), all.as_slice());
    let url = HttpBuilder::new("h.example").segment(&all).search(&all).build().unwrap();
    let http = url.http().unwrap();
    assert_eq!(&*rfc1738::pct::decode(http.path().unwrap()), all.as_slice());
    assert_eq!(&*rfc1738::pct::decode(http.search().unwrap()), all.as_slice());
    let url = GopherBuilder::new("h.example").search("").plus(&all).build().unwrap();
    assert_eq!(&*rfc1738::pct::decode(url.gopher().unwrap().plus().unwrap()), all.as_slice());
    let url = WaisBuilder::new("w.example", &all).document(&all, &all).build().unwrap();
    assert_eq!(&*rfc1738::pct::decode(url.wais().unwrap().wpath().unwrap()), all.as_slice());
}

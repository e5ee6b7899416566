//! Oracle: what a builder writes parses back, passes its invariants, and
//! gives back, decoded, every part it was built from; a builder that
//! refuses says why with a part and a kind, and an octet it refuses is
//! one that §3.4.1 forbids (TAB, CR, LF).
#![no_main]

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use rfc1738::build::{
    BuildError, BuildErrorKind, FileBuilder, FtpBuilder, GenericBuilder, GopherBuilder, HttpBuilder,
    MailtoBuilder, NewsBuilder, NntpBuilder, ProsperoBuilder, TelnetBuilder, WaisBuilder,
};
use rfc1738::{pct, FtpLogin, Url, WaisForm};

/// `b` with the port when there is one (each builder is its own type,
/// hence a macro).
macro_rules! with_port {
    ($b:expr, $port:expr) => {
        match $port {
            Some(p) => $b.port(p),
            None => $b,
        }
    };
}

/// `b` with the port, user and password that are there.
macro_rules! with_login {
    ($b:expr, $port:expr, $user:expr, $password:expr) => {{
        let mut b = with_port!($b, $port);
        if let Some(x) = $user {
            b = b.user(x);
        }
        if let Some(x) = $password {
            b = b.password(x);
        }
        b
    }};
}

fn dec(s: &str) -> Vec<u8> {
    pct::decode(s).into_owned()
}

/// A host: mostly valid ones, so that the rest gets built.
fn host(u: &mut Unstructured<'_>) -> Result<String> {
    const HOSTS: [&str; 8] = ["h.example", "1.2.3.4", "a", "x-y.z9", "localhost", "A.B", "a_b", ""];
    Ok(if u.ratio(1, 8)? { u.arbitrary::<String>()? } else { u.choose(&HOSTS)?.to_string() })
}

fn bytes(u: &mut Unstructured<'_>) -> Result<Vec<u8>> {
    let n = u.int_in_range(0..=12)?;
    (0..n).map(|_| u.arbitrary::<u8>()).collect()
}

fn check_error(e: &BuildError) {
    assert!(!e.to_string().is_empty());
    if let BuildErrorKind::Octet(b) = e.kind() {
        assert!(matches!(b, b'\t' | b'\r' | b'\n'), "{e}");
    }
}

/// Checks what a builder gave: parsed back and invariants.
fn built(r: std::result::Result<Url, BuildError>) -> Option<Url> {
    match r {
        Ok(url) => {
            url.check_invariants();
            assert_eq!(Url::parse(url.as_str()).as_ref(), Ok(&url));
            Some(url)
        }
        Err(e) => {
            check_error(&e);
            None
        }
    }
}

fn check_login(url: &Url, user: &Option<Vec<u8>>, password: &Option<Vec<u8>>, host: &str, port: Option<u16>) {
    assert_eq!(url.user().map(dec), *user);
    assert_eq!(url.password().map(dec), *password);
    assert_eq!(url.host(), Some(host));
    assert_eq!(url.port(), port);
}

fn run(u: &mut Unstructured<'_>) -> Result<()> {
    let h = host(u)?;
    let port = if u.arbitrary()? { Some(u.arbitrary::<u16>()?) } else { None };
    let user = if u.arbitrary()? { Some(bytes(u)?) } else { None };
    let password = if u.arbitrary()? { Some(bytes(u)?) } else { None };
    match u.int_in_range(0..=10)? {
        0 => {
            let mut b = with_login!(FtpBuilder::new(&h), port, &user, &password);
            let cwd: Vec<Vec<u8>> = (0..u.int_in_range(0..=3)?).map(|_| bytes(u)).collect::<Result<_>>()?;
            for c in &cwd {
                b = b.cwd(c);
            }
            let name = bytes(u)?;
            b = b.name(&name);
            let t = if u.arbitrary()? { Some(*u.choose(b"aidAIDx")?) } else { None };
            if let Some(t) = t {
                b = b.typecode(t);
            }
            if let Some(url) = built(b.build()) {
                check_login(&url, &user, &password, &h, port);
                let f = url.ftp().unwrap();
                assert_eq!(f.cwd().map(dec).collect::<Vec<_>>(), cwd);
                assert_eq!(dec(f.name()), name);
                assert_eq!(f.typecode(), t.map(|t| t.to_ascii_lowercase()));
                if user.is_none() {
                    assert_eq!(f.login(), FtpLogin::Anonymous);
                }
            }
        }
        1 => {
            let mut b = with_port!(HttpBuilder::new(&h), port);
            let segs: Vec<Vec<u8>> = (0..u.int_in_range(0..=3)?).map(|_| bytes(u)).collect::<Result<_>>()?;
            for s in &segs {
                b = b.segment(s);
            }
            let search = if u.arbitrary()? { Some(bytes(u)?) } else { None };
            if let Some(s) = &search {
                b = b.search(s);
            }
            if let Some(url) = built(b.build()) {
                check_login(&url, &None, &None, &h, port);
                let http = url.http().unwrap();
                let got: Vec<Vec<u8>> = http.segments().map(dec).collect();
                if segs.is_empty() {
                    assert!(got.is_empty() || got == [Vec::<u8>::new()]);
                } else {
                    assert_eq!(got, segs);
                }
                assert_eq!(http.search().map(dec), search);
            }
        }
        2 => {
            let mut b = with_port!(GopherBuilder::new(&h), port);
            let t: u8 = u.arbitrary()?;
            let sel = bytes(u)?;
            b = b.gopher_type(t).selector(&sel);
            let search = if u.arbitrary()? { Some(bytes(u)?) } else { None };
            let plus = if u.arbitrary()? { Some(bytes(u)?) } else { None };
            if let Some(s) = &search {
                b = b.search(s);
            }
            if let Some(p) = &plus {
                b = b.plus(p);
            }
            if let Some(url) = built(b.build()) {
                check_login(&url, &None, &None, &h, port);
                let g = url.gopher().unwrap();
                assert_eq!(g.gopher_type(), t);
                assert_eq!(g.selector_decoded().into_owned(), sel);
                assert_eq!(g.search().map(dec), search);
                assert_eq!(g.plus().map(dec), plus);
            }
        }
        3 => {
            let addr = bytes(u)?;
            if let Some(url) = built(MailtoBuilder::new(&addr).build()) {
                assert_eq!(url.mailto().unwrap().address().into_owned(), addr);
            }
        }
        4 => match u.int_in_range(0..=2)? {
            0 => {
                let url = built(NewsBuilder::all().build()).expect("news:*");
                assert!(url.news().unwrap().is_all());
            }
            1 => {
                let g: String = u.arbitrary()?;
                if let Some(url) = built(NewsBuilder::group(&g).build()) {
                    assert_eq!(url.news().unwrap().group(), Some(g.as_str()));
                }
            }
            _ => {
                let mut id = bytes(u)?;
                if u.arbitrary()? {
                    id.push(b'@');
                    id.extend_from_slice(h.as_bytes());
                }
                if let Some(url) = built(NewsBuilder::article(&id).build()) {
                    assert_eq!(url.news().unwrap().article().map(dec), Some(id));
                }
            }
        },
        5 => {
            let g: String = if u.arbitrary()? { u.arbitrary()? } else { "comp.lang.c".into() };
            let mut b = with_port!(NntpBuilder::new(&h, &g), port);
            let a = if u.arbitrary()? { Some(u.arbitrary::<u64>()?) } else { None };
            if let Some(a) = a {
                b = b.article(a);
            }
            if let Some(url) = built(b.build()) {
                check_login(&url, &None, &None, &h, port);
                let n = url.nntp().unwrap();
                assert_eq!((n.group(), n.article()), (g.as_str(), a));
            }
        }
        6 => {
            let b = with_login!(TelnetBuilder::new(&h), port, &user, &password);
            if let Some(url) = built(b.build()) {
                check_login(&url, &user, &password, &h, port);
            }
        }
        7 => {
            let db = bytes(u)?;
            let mut b = with_port!(WaisBuilder::new(&h, &db), port);
            let search = if u.arbitrary()? { Some(bytes(u)?) } else { None };
            let doc = if u.arbitrary()? { Some((bytes(u)?, bytes(u)?)) } else { None };
            if let Some(s) = &search {
                b = b.search(s);
            }
            if let Some((t, p)) = &doc {
                b = b.document(t, p);
            }
            if let Some(url) = built(b.build()) {
                check_login(&url, &None, &None, &h, port);
                let w = url.wais().unwrap();
                assert_eq!(dec(w.database()), db);
                assert_eq!(w.search().map(dec), search);
                assert_eq!(
                    (w.wtype().map(dec), w.wpath().map(dec)),
                    doc.clone().map_or((None, None), |(t, p)| (Some(t), Some(p)))
                );
                let form = match (&search, &doc) {
                    (Some(_), _) => WaisForm::Index,
                    (_, Some(_)) => WaisForm::Doc,
                    _ => WaisForm::Database,
                };
                assert_eq!(w.form(), form);
            }
        }
        8 => {
            let fh = if u.arbitrary()? { String::new() } else { h.clone() };
            let mut b = FileBuilder::new(&fh);
            let segs: Vec<Vec<u8>> = (0..u.int_in_range(0..=3)?).map(|_| bytes(u)).collect::<Result<_>>()?;
            for s in &segs {
                b = b.segment(s);
            }
            if let Some(url) = built(b.build()) {
                let f = url.file().unwrap();
                assert_eq!(f.host(), fh);
                let got: Vec<Vec<u8>> = f.segments().map(dec).collect();
                if segs.is_empty() {
                    assert_eq!(got, [Vec::<u8>::new()]);
                } else {
                    assert_eq!(got, segs);
                }
            }
        }
        9 => {
            let hso = bytes(u)?;
            let mut b = with_port!(ProsperoBuilder::new(&h, &hso), port);
            let fields: Vec<(Vec<u8>, Vec<u8>)> =
                (0..u.int_in_range(0..=2)?).map(|_| Ok((bytes(u)?, bytes(u)?))).collect::<Result<_>>()?;
            for (n, v) in &fields {
                b = b.field(n, v);
            }
            if let Some(url) = built(b.build()) {
                check_login(&url, &None, &None, &h, port);
                let p = url.prospero().unwrap();
                assert_eq!(p.hsoname().into_owned(), hso);
                let got: Vec<_> = p.fields().map(|(n, v)| (dec(n), dec(v))).collect();
                assert_eq!(got, fields);
            }
        }
        _ => {
            let scheme: String = if u.arbitrary()? { u.arbitrary()? } else { "x-test".into() };
            let mut b = GenericBuilder::new(&scheme);
            let with_login = u.arbitrary()?;
            if with_login {
                b = b.host(&h);
                if let Some(p) = port {
                    b = b.port(p);
                }
                if let Some(x) = &user {
                    b = b.user(x);
                }
                if let Some(x) = &password {
                    b = b.password(x);
                }
            }
            let path = if u.arbitrary()? { Some(bytes(u)?) } else { None };
            if let Some(p) = &path {
                b = b.path(p);
            }
            if let Some(url) = built(b.build()) {
                assert_eq!(url.scheme(), scheme.to_ascii_lowercase());
                if with_login {
                    check_login(&url, &user, &password, &h, port);
                    assert_eq!(url.url_path().map(dec), path);
                } else if url.host().is_none() {
                    assert_eq!(dec(url.scheme_specific_part()), path.unwrap_or_default());
                }
            }
        }
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let _ = run(&mut Unstructured::new(data));
});

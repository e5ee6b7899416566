//! `UrlRef`, the borrowed reading, against `Url`, the owned one: the same
//! answer for every input, the same components and scheme views, the
//! scheme aside (a `UrlRef` keeps it as written, a `Url` lower-cases it).

mod common;

use rfc1738::{SchemeKind, Url, UrlRef};

/// Every accessor and every method of the scheme view, as text: written
/// once for both types, which have the same method names.
macro_rules! describe {
    ($u:expr) => {{
        let u = &$u;
        let mut d = vec![
            format!("{:?} {:?}", u.kind(), u.scheme_specific_part()),
            format!("{:?} {:?} {:?}", u.user(), u.password(), u.host()),
            format!("{:?} {:?} {:?}", u.port(), u.port_str(), u.effective_port()),
            format!("{:?} {:?} {}", u.url_path(), u.fragment(), u.has_authority()),
            format!("{:?} {:?}", u.user_decoded(), u.password_decoded()),
        ];
        if let Some(v) = u.ftp() {
            let cmds: Vec<String> = v.commands().iter().map(ToString::to_string).collect();
            d.push(format!("{:?} {:?} {:?} {:?}", v.fpath(), v.name(), v.typecode(), cmds));
        }
        if let Some(v) = u.http() {
            d.push(format!("{:?} {:?} {}", v.path(), v.search(), v.request_target()));
        }
        if let Some(v) = u.gopher() {
            d.push(format!(
                "{:?} {} {:?} {:?} {:?}",
                v.gtype_raw(),
                v.gopher_type(),
                v.selector(),
                v.search(),
                v.plus()
            ));
            d.push(format!("{:?}", v.request()));
        }
        if let Some(v) = u.mailto() {
            d.push(format!("{:?} {:?}", v.address_raw(), v.address()));
        }
        if let Some(v) = u.news() {
            d.push(format!("{} {:?} {:?}", v.is_all(), v.group(), v.article()));
        }
        if let Some(v) = u.nntp() {
            d.push(format!("{:?} {:?} {:?}", v.group(), v.article(), v.article_raw()));
        }
        if let Some(v) = u.telnet() {
            d.push(format!("{:?} {:?}", v.advisory_user(), v.advisory_password()));
        }
        if let Some(v) = u.wais() {
            d.push(format!(
                "{:?} {:?} {:?} {:?} {:?}",
                v.form(),
                v.database(),
                v.search(),
                v.wtype(),
                v.wpath()
            ));
        }
        if let Some(v) = u.file() {
            d.push(format!("{:?} {:?} {}", v.host(), v.path(), v.is_local()));
        }
        if let Some(v) = u.prospero() {
            d.push(format!("{:?} {:?}", v.hsoname_raw(), v.fields().collect::<Vec<_>>()));
        }
        if let Some(v) = u.other() {
            d.push(format!("{:?} {} {}", v.scheme_specific_part(), v.is_reserved(), v.is_experimental()));
        }
        d
    }};
}

fn agree(input: &str) {
    let owned = Url::parse(input);
    let borrowed = UrlRef::parse(input);
    match (&owned, &borrowed) {
        (Ok(url), Ok(r)) => {
            assert_eq!(r.as_str(), input);
            assert!(r.scheme().eq_ignore_ascii_case(url.scheme()), "{input:?}");
            assert!(r.without_fragment().eq_ignore_ascii_case(url.without_fragment()), "{input:?}");
            assert_eq!(describe!(url), describe!(r), "{input:?}");
            assert_eq!(&r.to_url(), url, "{input:?}");
            assert_eq!(url.as_url_ref().to_url(), *url, "{input:?}");
            assert_eq!(describe!(url.as_url_ref()), describe!(url), "{input:?}");
        }
        (Err(a), Err(b)) => assert_eq!(a, b, "{input:?}"),
        _ => panic!("{input:?}: Url {owned:?}, UrlRef {borrowed:?}"),
    }
}

#[test]
fn url_ref_agrees_with_url_on_every_case() {
    let inputs: Vec<String> =
        common::case_files().iter().flat_map(|f| common::read_cases(f)).map(|c| c.input).collect();
    assert!(inputs.len() > 200);
    for input in &inputs {
        agree(input);
        agree(&input.to_ascii_uppercase());
    }
}

#[test]
fn url_ref_keeps_the_scheme_as_written() {
    let text = String::from("X-Local://h.dom/a");
    let r = UrlRef::parse(&text).unwrap();
    assert_eq!((r.scheme(), r.kind()), ("X-Local", SchemeKind::Other));
    // §4: `x-` names are experimental, whatever their case (§2.1).
    assert!(r.other().unwrap().is_experimental());
    assert!(UrlRef::parse("AFS://h.dom/x").unwrap().other().unwrap().is_reserved());
    assert_eq!(r.to_url().as_str(), "x-local://h.dom/a");
    assert_eq!(Url::from(r).scheme(), "x-local");
    // The slices live as long as the text, not the `UrlRef`.
    let host = UrlRef::parse(&text).unwrap().host();
    assert_eq!(host, Some("h.dom"));
}

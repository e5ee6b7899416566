//! Conversions (features `url`, `http`, `serde`): each loss named, the
//! strict `TryFrom` refusing to lose anything, the way back.
#![cfg(all(feature = "url", feature = "http", feature = "serde"))]

use rfc1738::convert::{ConvertError, Loss};
use rfc1738::{SchemeKind, Url, UrlRef};

fn url(s: &str) -> Url {
    Url::parse(s).unwrap()
}

#[test]
fn whatwg_losses_are_named() {
    let cases: [(&str, &[&str]); 7] = [
        ("http://h.dom/a/b?c#d", &[]),
        ("ftp://@h.dom/x", &["empty-user", "rewritten"]),
        ("ftp://u:@h.dom/x", &["empty-password", "rewritten"]),
        ("ftp://h.dom/%2Fetc/motd;type=a", &["ftp-encoded-slash", "ftp-typecode"]),
        ("gopher://h.dom/7search%09rfc", &["gopher-search", "unknown-scheme"]),
        ("http://H.DOM:80/", &["rewritten"]),
        ("http://h.dom/a/../b", &["rewritten"]),
    ];
    for (text, ids) in cases {
        let c = url(text).to_whatwg().unwrap();
        let got: Vec<&str> = c.losses.iter().map(Loss::id).collect();
        assert_eq!(got, ids, "{text}");
    }
    let c = url("http://H.DOM:80/").to_whatwg().unwrap();
    assert_eq!(c.losses, [Loss::Rewritten("http://h.dom/".into())]);
}

#[test]
fn try_from_refuses_to_lose() {
    let ok = url::Url::try_from(&url("http://h.dom/a?b")).unwrap();
    assert_eq!(ok.as_str(), "http://h.dom/a?b");
    let err = url::Url::try_from(&url("ftp://@h.dom/")).unwrap_err();
    assert_eq!(err, ConvertError::Lossy(vec![Loss::EmptyUser, Loss::Rewritten("ftp://h.dom/".into())]));
    assert!(err.to_string().contains("empty user name"));
    let back = Url::try_from(&ok).unwrap();
    assert_eq!(back, url("http://h.dom/a?b"));
    let tilde = url::Url::parse("http://h.dom/~me").unwrap();
    assert!(matches!(Url::from_whatwg(&tilde), Err(ConvertError::NotRfc1738(_))));
}

#[test]
fn http_uri_losses_are_named() {
    let c = url("http://h.dom/a?b#f").to_http_uri().unwrap();
    assert_eq!((c.value.to_string().as_str(), c.losses), ("http://h.dom/a?b", vec![Loss::Fragment]));
    let c = url("ftp://u@h.dom/a;type=i").to_http_uri().unwrap();
    assert_eq!(c.losses, [Loss::UserInfo, Loss::FtpTypecode, Loss::UnknownScheme(SchemeKind::Ftp)]);
    // `http` reads `mailto:a@b.dom` as an authority (host `mailto`).
    assert!(matches!(url("mailto:a@b.dom").to_http_uri(), Err(ConvertError::Rejected(_))));
    let uri = http::Uri::try_from(&url("http://h.dom/x")).unwrap();
    assert_eq!(Url::try_from(&uri).unwrap(), url("http://h.dom/x"));
}

#[test]
fn serde_as_text() {
    let u = url("ftp://@h.dom/a;type=i");
    let json = serde_json::to_string(&u).unwrap();
    assert_eq!(json, r#""ftp://@h.dom/a;type=i""#);
    assert_eq!(serde_json::from_str::<Url>(&json).unwrap(), u);
    let r: UrlRef<'_> = serde_json::from_str(&json).unwrap();
    assert_eq!(r.to_url(), u);
    assert_eq!(serde_json::to_string(&r).unwrap(), json);
    let err = serde_json::from_str::<Url>(r#""http://a b/""#).unwrap_err();
    assert!(err.to_string().contains("offset 8"), "{err}");
}

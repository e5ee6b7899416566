//! Length limits of RFC 1034 §3.5 (to which RFC 1738 §3.1 refers), and
//! long or hostile inputs.

use rfc1738::{ErrorKind, Url};

fn host_url(host: &str) -> String {
    format!("http://{host}/")
}

#[test]
fn a_label_has_at_most_63_characters() {
    let ok = format!("a{}", "b".repeat(62));
    assert!(Url::parse(&host_url(&ok)).is_ok());
    let long = format!("a{}", "b".repeat(63));
    let e = Url::parse(&host_url(&long)).unwrap_err();
    assert_eq!((e.offset(), e.kind()), (7 + 63, ErrorKind::LabelTooLong));
}

#[test]
fn a_host_name_has_at_most_253_characters() {
    let label = "a".repeat(63);
    // 4 labels of 63 and 3 dots: 255 characters; trim to 253.
    let name = [label.as_str(); 4].join(".");
    let ok = &name[..253];
    assert!(Url::parse(&host_url(ok)).is_ok(), "{}", ok.len());
    let too_long = &name[..254];
    let e = Url::parse(&host_url(too_long)).unwrap_err();
    assert_eq!((e.offset(), e.kind()), (7 + 253, ErrorKind::HostTooLong));
}

#[test]
fn hostnumber_groups_are_digits_of_any_length() {
    // §5 `hostnumber = digits "." digits "." digits "." digits`
    assert!(Url::parse("http://0000000001.2.3.4/").is_ok());
}

#[test]
fn long_inputs_parse_and_fail_where_they_should() {
    let n = 1 << 20;
    let path = "a/".repeat(n / 2);
    let url = Url::parse(&format!("ftp://h.dom/{path}x")).unwrap();
    assert_eq!(url.ftp().unwrap().cwd().count(), n / 2);
    let escapes = "%41".repeat(n / 3);
    assert!(Url::parse(&format!("http://h.dom/{escapes}")).is_ok());
    let bad = format!("http://h.dom/{escapes}%4");
    let e = Url::parse(&bad).unwrap_err();
    assert_eq!((e.offset(), e.kind()), (bad.len() - 2, ErrorKind::InvalidEscape));
    let at_signs = format!("ftp://{}h.dom/", "a".repeat(n));
    assert!(Url::parse(&at_signs).is_err());
    let dots = format!("http://{}a/", "a.".repeat(n / 2));
    assert_eq!(Url::parse(&dots).unwrap_err().kind(), ErrorKind::HostTooLong);
}

#[test]
fn every_prefix_of_a_url_is_handled() {
    let full = "ftp://u:p@host.dom:21/a/b;type=i#frag";
    for end in 0..=full.len() {
        match Url::parse(&full[..end]) {
            Ok(url) => url.check_invariants(),
            Err(e) => assert!(e.offset() <= end),
        }
    }
}

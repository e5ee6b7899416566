//! The normal forms and equivalences of `tests/cases/normalize.txt`.

mod common;

use rfc1738::{ParseOptions, Url};
use std::fs;

fn parse(input: &str, lenient: bool) -> Url {
    let url = if lenient {
        Url::parse_with(input, &ParseOptions::lenient()).map(|(u, _)| u)
    } else {
        Url::parse(input)
    };
    url.unwrap_or_else(|e| panic!("{input}: {e}"))
}

#[test]
fn normal_forms_and_equivalences() {
    let text = fs::read_to_string(common::cases_dir().join("normalize.txt")).unwrap();
    let mut n = 0;
    for (line, l) in text.lines().enumerate() {
        if l.trim().is_empty() || l.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = l.split(' ').collect();
        assert_eq!(f.len(), 4, "line {}: [§] op a b", line + 1);
        assert!(f[0].starts_with("[§"));
        let (a, b) = (common::unescape(f[2]), common::unescape(f[3]));
        let at = format!("normalize.txt:{}: {l}", line + 1);
        match f[1] {
            "normal" | "lenient" => {
                let url = parse(&a, f[1] == "lenient");
                let normal = url.normalize();
                assert_eq!(normal.as_str(), b, "{at}");
                normal.check_invariants();
                assert_eq!(normal.normalize().as_str(), b, "{at}: idempotent");
                assert!(url.equivalent(&normal), "{at}");
                if f[1] == "normal" {
                    assert!(!normal.is_lenient(), "{at}");
                }
            }
            "same" | "differ" => {
                let (ua, ub) = (parse(&a, false), parse(&b, false));
                let same = f[1] == "same";
                assert_eq!(ua.equivalent(&ub), same, "{at}");
                assert_eq!(ub.equivalent(&ua), same, "{at}: symmetric");
                assert_eq!(ua.normalize() == ub.normalize(), same, "{at}");
            }
            other => panic!("{at}: unknown operation {other}"),
        }
        n += 1;
    }
    assert!(n > 40, "{n} cases");
}

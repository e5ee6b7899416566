//! The manual pages: a DESCRIPTION of their own (not the NAME line
//! again), SEE ALSO, an EXIT STATUS true for each subcommand, and lint's
//! finding kinds, the same as the guide's table.

use assert_cmd::Command;

fn page(args: &[&str]) -> String {
    let o = Command::cargo_bin("rfc1738").unwrap().arg("man").args(args).output().unwrap();
    assert!(o.status.success(), "{args:?}");
    String::from_utf8(o.stdout).unwrap()
}

/// The text of section `name` of a page, up to the next.
fn section<'a>(page: &'a str, name: &str) -> &'a str {
    let start = page.find(&format!(".SH {name}\n")).unwrap_or_else(|| panic!("no {name}")) + name.len() + 5;
    let end = page[start..].find(".SH ").map_or(page.len(), |k| start + k);
    &page[start..end]
}

const SUBCOMMANDS: [&str; 15] = [
    "parse",
    "check",
    "explain",
    "extract",
    "normalize",
    "same",
    "lint",
    "set",
    "resolve",
    "relative",
    "examples",
    "fetch",
    "serve",
    "completions",
    "man",
];

#[test]
fn every_page_has_its_own_description_and_see_also() {
    for sub in SUBCOMMANDS.iter().map(|s| vec![*s]).chain([vec![]]) {
        let text = page(&sub);
        let name_line = section(&text, "NAME").lines().next().unwrap().to_string();
        let said = name_line.split(" \\- ").nth(1).unwrap();
        let description = section(&text, "DESCRIPTION");
        assert!(!description.contains(said), "{sub:?}: DESCRIPTION repeats NAME: {said}");
        assert!(description.trim().len() > said.len() + 40, "{sub:?}: says more than NAME: {description}");
        let see = section(&text, "\"SEE ALSO\"");
        assert!(see.contains("RFC 1738"), "{sub:?}: {see}");
        if !sub.is_empty() {
            assert!(see.contains("\\fBrfc1738\\fR(1)"), "{sub:?}: {see}");
        }
    }
}

#[test]
fn the_top_page_exit_status_is_true_for_each_subcommand() {
    let top = page(&[]);
    let status = section(&top, "\"EXIT STATUS\"");
    for sub in ["lint", "same", "fetch"] {
        assert!(status.contains(sub), "{status}");
    }
    let lint = page(&["lint"]);
    let lint = section(&lint, "\"EXIT STATUS\"");
    assert!(lint.contains("1: a finding"), "{lint}");
}

#[test]
fn lint_lists_the_kinds_the_guide_lists() {
    let lint = page(&["lint"]);
    let findings = section(&lint, "FINDINGS").replace("\\-", "-");
    let guide = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/GUIDE.md")).unwrap();
    let table = &guide[guide.find("### What `lint` reports").unwrap()..];
    let table = &table[..table.find("\n### ").unwrap()];
    let mut kinds = 0;
    for row in table.lines().filter(|l| l.starts_with("| `")) {
        let cell = row.split('|').nth(1).unwrap();
        for kind in cell.split('`').skip(1).step_by(2) {
            assert!(findings.contains(&format!("\\fB{kind}\\fR")), "{kind} missing from FINDINGS");
            kinds += 1;
        }
    }
    assert!(kinds >= 20, "{kinds}");
}

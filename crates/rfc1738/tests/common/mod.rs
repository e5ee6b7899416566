//! What the test files share: the reader of `tests/cases/*.txt` (format
//! in `tests/cases/README.md`).

#![allow(dead_code)] // each test file uses its own part

use std::fs;
use std::path::{Path, PathBuf};

/// The files of `tests/cases/` that are not conformance cases: they have
/// formats of their own, read by their own tests.
pub const OTHER_FORMATS: [&str; 3] = ["expected-failures.txt", "normalize.txt", "lenient.txt"];

/// The directory of the cases files.
pub fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases")
}

/// The conformance cases files, sorted.
pub fn case_files() -> Vec<PathBuf> {
    let mut files: Vec<_> = fs::read_dir(cases_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .filter(|p| !OTHER_FORMATS.iter().any(|name| p.ends_with(name)))
        .collect();
    files.sort();
    files
}

/// The input of every `ok` case of every conformance file.
pub fn ok_inputs() -> Vec<String> {
    case_files()
        .iter()
        .flat_map(|f| read_cases(f))
        .filter(|c| matches!(c.expect, Expect::Ok(_)))
        .map(|c| c.input)
        .collect()
}

/// One case of a cases file.
pub struct Case {
    pub line: usize,
    pub section: String,
    pub input: String,
    pub expect: Expect,
}

pub enum Expect {
    Ok(Vec<(String, String)>),
    Err { offset: usize, kind: String, rule: String },
}

/// `\s`, `\t`, `\r`, `\n`, `\\` and `\xHH` in a case's input.
pub fn unescape(s: &str) -> String {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            let (byte, len) = match b[i + 1] {
                b's' => (b' ', 2),
                b't' => (b'\t', 2),
                b'r' => (b'\r', 2),
                b'n' => (b'\n', 2),
                b'\\' => (b'\\', 2),
                b'x' => (u8::from_str_radix(&s[i + 2..i + 4], 16).expect("\\xHH"), 4),
                other => panic!("unknown escape \\{}", other as char),
            };
            out.push(byte);
            i += len;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).expect("case inputs are UTF-8")
}

/// Octets written the way the cases file writes them.
pub fn show(bytes: &[u8]) -> String {
    let mut out = String::new();
    for &b in bytes {
        match b {
            b'\t' => out.push_str("\\t"),
            b'\r' => out.push_str("\\r"),
            b'\n' => out.push_str("\\n"),
            b' '..=b'~' => out.push(b as char),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out
}

pub fn read_cases(path: &Path) -> Vec<Case> {
    let text = fs::read_to_string(path).unwrap();
    let mut cases: Vec<Case> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(kv) = line.strip_prefix("    ") {
            let (k, v) = kv.split_once(" = ").unwrap_or_else(|| panic!("line {}: key = value", n + 1));
            match &mut cases.last_mut().expect("a key before any case").expect {
                Expect::Ok(keys) => keys.push((k.to_string(), v.to_string())),
                Expect::Err { .. } => panic!("line {}: keys only follow ok cases", n + 1),
            }
            continue;
        }
        let fields: Vec<&str> = line.split(' ').collect();
        let section = fields[0].trim_matches(['[', ']']).to_string();
        let input = unescape(fields[2]);
        let expect = match (fields[1], fields.len()) {
            ("ok", 3) => Expect::Ok(Vec::new()),
            ("err", 6) => Expect::Err {
                offset: fields[3].parse().unwrap(),
                kind: fields[4].to_string(),
                rule: fields[5].to_string(),
            },
            _ => panic!("{}:{}: malformed case", path.display(), n + 1),
        };
        assert!(section.starts_with('§') || ["Appendix", "References"].contains(&section.as_str()));
        cases.push(Case { line: n + 1, section, input, expect });
    }
    cases
}

/// `shared/corpus` beside the repository, or `$RFC1738_CORPUS`: the URL
/// lists of the corpus tests, which skip what is not there.
pub fn corpus_dirs() -> Vec<PathBuf> {
    let mut v = Vec::new();
    if let Ok(d) = std::env::var("RFC1738_CORPUS") {
        v.push(PathBuf::from(d));
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for up in ["../shared/corpus", "../../shared/corpus", "../../../shared/corpus"] {
        v.push(root.join(up));
    }
    v.push(PathBuf::from("/work/shared/corpus"));
    v.dedup();
    v
}

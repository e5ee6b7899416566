//! The bulk validator (`src/bulk.rs`) against `validate_bytes`, the full
//! parser, which it must agree with on every URL: the URLs of the
//! corpus (`shared/corpus` beside the workspace, when it is there), the
//! committed sample `tests/bulk-sample.txt`, the generated corpus of
//! RFC 1738 schemes, the inputs of the conformance cases and the fuzz
//! corpora. Each list is laid out as lines (`\n` and `\r\n`) and as one
//! column (the URLs one after another, with offsets) at several
//! alignments, and read through every way of classifying the blocks the
//! processor has (`Path::available`): the portable one always.

mod common;

use rfc1738::bulk::{self, Checker, Known, Path, Reading};
use std::fs;
use std::path::{Path as FsPath, PathBuf};

/// Checks every URL of `urls` every way; `name` says which list.
fn agree(name: &str, urls: &[Vec<u8>], pads: &[usize]) {
    let expected: Vec<bool> = urls.iter().map(|u| rfc1738::validate_bytes(u).is_ok()).collect();
    // A line cannot hold a line break, nor end in the `\r` a `\r\n` drops.
    let as_lines: Vec<usize> =
        (0..urls.len()).filter(|&k| !urls[k].contains(&b'\n') && !urls[k].ends_with(b"\r")).collect();
    for path in Path::available() {
        for &pad in pads {
            for crlf in [false, true] {
                let mut text = vec![b'\n'; pad];
                for &k in &as_lines {
                    text.extend_from_slice(&urls[k]);
                    text.extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
                }
                let got: Vec<(&[u8], bool)> = bulk::lines_with_path(&text, path).skip(pad).collect();
                assert_eq!(got.len(), as_lines.len(), "{name}: {path:?}, pad {pad}");
                known_agrees(name, &text, path, &got[..]);
                for (&k, (line, valid)) in as_lines.iter().zip(got) {
                    assert_eq!(line, &urls[k][..], "{name}: {path:?}, pad {pad}");
                    assert_eq!(valid, expected[k], "{name}: {path:?}, pad {pad}: {}", common::show(&urls[k]));
                }
            }
            let mut values = vec![b'%'; pad];
            let mut offsets = vec![pad];
            for u in urls {
                values.extend_from_slice(u);
                offsets.push(values.len());
            }
            let mut checker = Checker::with_path(&values, path);
            for (k, w) in offsets.windows(2).enumerate() {
                let valid = checker.is_valid(w[0]..w[1]);
                assert_eq!(
                    valid,
                    expected[k],
                    "{name}: {path:?} column, pad {pad}: {}",
                    common::show(&urls[k])
                );
            }
            let mut reader = Checker::with_path(&values, path);
            for (k, w) in offsets.windows(2).enumerate() {
                reading_agrees(
                    &urls[k],
                    reader.read(w[0]..w[1]),
                    &format!("{name}: {path:?} column, pad {pad}"),
                );
            }
        }
    }
}

/// `Checker::read`'s `reading` of `url` against the borrowing parse: the
/// same verdict, and where it reads a login, the parse's user, password,
/// host, port and url-path at the places it gives.
fn reading_agrees(url: &[u8], reading: Reading, name: &str) {
    let parsed = std::str::from_utf8(url).ok().map(rfc1738::UrlRef::parse);
    let show = common::show(url);
    match reading {
        Reading::Invalid => assert!(!matches!(parsed, Some(Ok(_))), "{name}: {show} read invalid"),
        Reading::Parse => {}
        Reading::Opaque => {
            let u = parsed.and_then(Result::ok).unwrap_or_else(|| panic!("{name}: {show} read valid"));
            assert_eq!((u.host(), u.url_path(), u.user()), (None, None, None), "{name}: {show}");
        }
        Reading::Login(l) => {
            let u = parsed.and_then(Result::ok).unwrap_or_else(|| panic!("{name}: {show} read valid"));
            let t = u.as_str();
            assert_eq!(u.host(), Some(&t[l.host_start..l.host_end]), "{name}: {show}");
            assert_eq!(u.url_path(), t.get(l.end + 1..).filter(|_| l.end < t.len()), "{name}: {show}");
            let port = (l.host_end < l.end).then(|| t[l.host_end + 1..l.end].parse::<u16>().ok()).flatten();
            assert_eq!(u.port(), port, "{name}: {show}");
            let login = &t[t.find("//").unwrap() + 2..l.at.unwrap_or(l.host_start)];
            let (user, password) = match l.at {
                None => (None, None),
                Some(_) => match login.split_once(':') {
                    Some((user, password)) => (Some(user), Some(password)),
                    None => (Some(login), None),
                },
            };
            assert_eq!((u.user(), u.password()), (user, password), "{name}: {show}");
        }
        other => panic!("{name}: {show}: a reading this test does not know: {other:?}"),
    }
}

/// `lines_known` on `text` against `lines_with_path` (the lines after
/// the first `pad`, `got`) and `validate`: the same lines and verdicts,
/// and a scheme named only as the text before the first `":"` spells
/// it, without regard to case.
fn known_agrees(name: &str, text: &[u8], path: Path, got: &[(&[u8], bool)]) {
    let known: Vec<_> = bulk::lines_known(text, path).collect();
    let pad = known.len() - got.len();
    for (&(line, valid, k), &(line2, valid2)) in known[pad..].iter().zip(got) {
        assert_eq!((line, valid), (line2, valid2), "{name}: {path:?}: {}", common::show(line));
        if let Ok(t) = std::str::from_utf8(line) {
            assert_eq!(valid, rfc1738::validate(t).is_ok(), "{name}: {path:?}: {t}");
        }
        if let Some(k) = k {
            let colon = line.iter().position(|&c| c == b':').expect("a named scheme ends at a colon");
            assert!(
                line[..colon].eq_ignore_ascii_case(k.name().as_bytes()),
                "{name}: {path:?}: {} named {}",
                common::show(line),
                k.name()
            );
            assert!(k.index() < Known::COUNT);
            assert_eq!(k.kind().name(), k.name());
        }
    }
}

/// The lines of a file (without `\r\n`), and for a `.csv` file also the
/// fields of each line, as the benchmarks read them.
fn lines_of(path: &FsPath) -> Vec<Vec<u8>> {
    let text = fs::read(path).unwrap();
    let mut urls = Vec::new();
    for line in text.split(|&c| c == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        urls.push(line.to_vec());
        if path.extension().is_some_and(|x| x == "csv") {
            urls.extend(line.split(|&c| c == b',').map(<[u8]>::to_vec));
        }
    }
    urls
}

/// The workspace root.
fn root() -> PathBuf {
    FsPath::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The corpus directory: `shared/corpus` in the nearest directory above
/// the workspace that has one (as `parse-bench` finds it).
fn corpus_dir() -> Option<PathBuf> {
    let root = root().canonicalize().ok()?;
    root.ancestors().map(|d| d.join("shared/corpus")).find(|d| d.is_dir())
}

/// Every file of `dir` and of its subdirectories, sorted.
fn files_under(dir: &FsPath) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else { return files };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(files_under(&path));
        } else {
            files.push(path);
        }
    }
    files.sort();
    files
}

#[test]
fn agrees_with_the_parser_on_the_corpus() {
    let Some(dir) = corpus_dir() else {
        eprintln!("no shared/corpus above the workspace: skipped");
        return;
    };
    let mut checked = 0;
    for file in files_under(&dir) {
        if file.extension().is_some_and(|x| x == "txt" || x == "csv") {
            let urls = lines_of(&file);
            agree(&file.display().to_string(), &urls, &[0, 37]);
            checked += urls.len();
        }
    }
    assert!(checked > 0, "no URL list in {}", dir.display());
}

#[test]
fn agrees_with_the_parser_on_the_committed_sample_at_every_alignment() {
    let sample = FsPath::new(env!("CARGO_MANIFEST_DIR")).join("tests/bulk-sample.txt");
    let urls = lines_of(&sample);
    assert!(urls.len() > 50);
    agree("bulk-sample.txt", &urls, &(0..64).collect::<Vec<_>>());
}

#[test]
fn agrees_with_the_parser_on_the_generated_corpus() {
    let urls = lines_of(&root().join("benches/data/rfc1738-schemes.txt"));
    assert!(urls.len() >= 2000);
    agree("rfc1738-schemes.txt", &urls, &[0, 5, 62]);
}

#[test]
fn agrees_with_the_parser_on_the_conformance_cases() {
    let urls: Vec<Vec<u8>> = common::case_files()
        .iter()
        .flat_map(|f| common::read_cases(f))
        .map(|c| c.input.into_bytes())
        .collect();
    assert!(urls.len() > 200, "{} cases", urls.len());
    agree("cases", &urls, &[0, 1, 17, 63]);
}

/// Every input the fuzz targets keep (their corpora, seeds and
/// regressions), whole, and each of its lines.
#[test]
fn agrees_with_the_parser_on_the_fuzz_inputs() {
    let mut urls = Vec::new();
    for dir in ["fuzz/corpus", "fuzz/seeds", "fuzz/regressions"] {
        for file in files_under(&root().join(dir)) {
            let input = fs::read(&file).unwrap();
            urls.extend(input.split(|&c| c == b'\n').map(<[u8]>::to_vec));
            urls.push(input);
        }
    }
    assert!(urls.len() > 1000);
    agree("fuzz inputs", &urls, &[0, 29]);
}

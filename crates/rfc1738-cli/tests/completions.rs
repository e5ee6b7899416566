//! The bash completion script, driven as bash drives it: `COMP_WORDS`
//! set, the function called, `COMPREPLY` read. Files for file arguments
//! (bash's `-o default` completes them when the script offers nothing),
//! the presets of --log-format, part names for `set`, subcommands for
//! `man`, nothing for a number.

use std::process::Command;

/// What the script offers for the words typed, the last one being
/// completed; `None` (and a note) when bash is missing.
fn offered(dir: &std::path::Path, words: &[&str]) -> Option<Vec<String>> {
    let bin = env!("CARGO_BIN_EXE_rfc1738");
    let script = Command::new(bin).args(["completions", "bash"]).output().unwrap().stdout;
    std::fs::write(dir.join("rfc1738.bash"), script).unwrap();
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let drive = format!(
        "source ./rfc1738.bash\nCOMP_WORDS=(rfc1738 {})\nCOMP_CWORD={}\nCOMP_LINE=\"${{COMP_WORDS[*]}}\"\n\
         COMP_POINT=${{#COMP_LINE}}\n_rfc1738 rfc1738 \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"\n\
         printf '%s\\n' \"${{COMPREPLY[@]}}\"\ncomplete -p rfc1738\n",
        quoted.join(" "),
        words.len()
    );
    let o = match Command::new("bash").arg("-c").arg(drive).current_dir(dir).output() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("skipped: no bash ({e})");
            return None;
        }
    };
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("-o default"), "files are bash's when nothing is offered: {text}");
    Some(text.lines().filter(|l| !l.starts_with("complete ")).map(String::from).collect())
}

#[test]
fn bash_completes_files_words_and_nothing_for_numbers() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("urls.txt"), "http://a.dom/\n").unwrap();
    let d = dir.path();
    let Some(check) = offered(d, &["check", ""]) else { return };
    // Nothing: bash lists the files (not a lone `-` from the flags).
    assert!(check.iter().all(|w| w.is_empty()), "{check:?}");
    let flags = offered(d, &["check", "--j"]).unwrap();
    assert_eq!(flags, ["--json", "--jobs"]);
    // The old spelling `--format`, hidden from --help, is not offered.
    let flags = offered(d, &["check", "--f"]).unwrap();
    assert_eq!(flags, ["--fields"]);
    let url_file = offered(d, &["normalize", "--url-file", "u"]).unwrap();
    assert_eq!(url_file, ["urls.txt"]);
    for number in [
        &["check", "--jobs", ""][..],
        &["check", "--top", ""],
        &["lint", "--max-len", ""],
        &["serve", "--port", ""],
    ] {
        let got = offered(d, number).unwrap();
        assert!(got.iter().all(|w| w.is_empty()), "{number:?}: {got:?}");
    }
    let presets = offered(d, &["check", "--log-format", ""]).unwrap();
    assert_eq!(presets, ["common", "combined", "vhost_combined", "main"]);
    let man = offered(d, &["man", "ch"]).unwrap();
    assert_eq!(man, ["check"]);
    let parts = offered(d, &["set", "http://a.dom/", "ho"]).unwrap();
    assert_eq!(parts, ["host="]);
    let parts = offered(d, &["set", "http://a.dom/", "q"]).unwrap();
    assert_eq!(parts, ["query="]);
    let subcommands = offered(d, &["ch"]).unwrap();
    assert_eq!(subcommands, ["check"]);
}

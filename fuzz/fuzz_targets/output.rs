//! Oracle for `fetch -o FILE` (`crates/rfc1738-cli/src/output.rs`, built
//! into this target from its source file: the command is a binary crate).
//!
//! The first bytes choose what FILE is (absent, a regular file, one with a
//! second hard link, a live or a dangling symlink, a directory), its mode
//! (set-id bits included), `--no-clobber`, and whether the transfer
//! completes; the rest is the new content. Whatever they are:
//! - a refusal changes nothing;
//! - a completed transfer leaves FILE (through its link) holding exactly
//!   the new bytes, a symlink still a link, a hard link still shared, and
//!   no set-id or set-gid bit;
//! - an unfinished one leaves FILE as it was (a dangling link dangling);
//! - no temporary file is ever left behind.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

#[allow(dead_code)]
#[path = "../../crates/rfc1738-cli/src/output.rs"]
mod output;

const OLD: &[u8] = b"old bytes\n";

/// What FILE is before the run.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Before {
    Absent,
    Regular,
    HardLinked,
    Live,
    Dangling,
    Directory,
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

fn set_up(dir: &Path, before: Before, mode: u32) {
    let data = dir.join("data");
    match before {
        Before::Absent => {}
        Before::Directory => fs::create_dir(dir.join("file")).unwrap(),
        Before::Dangling => std::os::unix::fs::symlink(&data, dir.join("file")).unwrap(),
        Before::Regular | Before::HardLinked | Before::Live => {
            fs::write(&data, OLD).unwrap();
            fs::set_permissions(&data, fs::Permissions::from_mode(mode)).unwrap();
            match before {
                Before::Regular => fs::rename(&data, dir.join("file")).unwrap(),
                Before::HardLinked => fs::hard_link(&data, dir.join("file")).unwrap(),
                _ => std::os::unix::fs::symlink(&data, dir.join("file")).unwrap(),
            }
        }
    }
}

fuzz_target!(|input: &[u8]| {
    let [kind, mode, flags, content @ ..] = input else { return };
    let before = [
        Before::Absent,
        Before::Regular,
        Before::HardLinked,
        Before::Live,
        Before::Dangling,
        Before::Directory,
    ][usize::from(*kind) % 6];
    // Owner read and write always (the fuzzer runs as root or not), the
    // rest from the byte, set-id bits included.
    let mode = 0o600
        | (u32::from(*mode) & 0o77)
        | if mode & 0x40 != 0 { 0o4000 } else { 0 }
        | if mode & 0x80 != 0 { 0o2000 } else { 0 };
    let (no_clobber, complete) = (flags & 1 != 0, flags & 2 != 0);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    set_up(dir.path(), before, mode);
    let names_before = names(dir.path());
    let bytes_before = fs::read(&file).ok();

    let outcome = output::Pending::create(&file, no_clobber).and_then(|mut pending| {
        use std::io::Write;
        pending.file().write_all(content).unwrap();
        if complete {
            pending.commit().map(|()| true)
        } else {
            Ok(false)
        }
    });
    let committed = match outcome {
        Ok(done) => done,
        Err(e) => {
            let refused = matches!(e, output::OutputError::NotRegular(_) | output::OutputError::Exists(_));
            assert!(refused, "{before:?}: {e}");
            assert!(before == Before::Directory || no_clobber && before != Before::Absent, "{before:?}: {e}");
            false
        }
    };
    if committed {
        assert_eq!(fs::read(&file).unwrap(), content, "{before:?}");
        let meta = fs::symlink_metadata(&file).unwrap();
        assert_eq!(meta.file_type().is_symlink(), matches!(before, Before::Live | Before::Dangling));
        let data = dir.path().join("data");
        if matches!(before, Before::HardLinked | Before::Live | Before::Dangling) {
            assert_eq!(fs::read(&data).unwrap(), content, "{before:?}: the other name");
        }
        assert_eq!(fs::metadata(&file).unwrap().permissions().mode() & 0o6000, 0, "a set-id bit stayed");
        let mut expected = names_before;
        if before == Before::Absent {
            expected = vec!["file".into()];
        } else if before == Before::Dangling {
            expected = vec!["data".into(), "file".into()];
        }
        assert_eq!(names(dir.path()), expected, "{before:?}");
    } else {
        assert_eq!(fs::read(&file).ok(), bytes_before, "{before:?}: FILE changed");
        assert_eq!(names(dir.path()), names_before, "{before:?}: a file left behind");
    }
});

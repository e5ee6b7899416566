//! `rfc1738 fetch -o FILE` never loses the user's file: the resource goes
//! to a temporary file beside FILE, renamed over it only when complete.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const OLD: &[u8] = b"the user's own bytes\n";

fn rfc1738(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rfc1738")).args(args).stdin(Stdio::null()).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh directory with `file` holding `OLD`.
fn dir_with_file(name: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("rfc1738-output-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("file");
    std::fs::write(&file, OLD).unwrap();
    (dir, file)
}

/// The names in `dir`, sorted: no temporary file may be left behind.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A server on a free loopback port that reads the request, then runs `send`.
fn server(send: impl FnOnce(&mut TcpStream) + Send + 'static) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        if let Ok((mut s, _)) = listener.accept() {
            let _ = s.read(&mut [0u8; 1024]);
            send(&mut s);
        }
    });
    port
}

/// A port where nothing listens.
fn closed_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn fetch_to(file: &Path, url: &str) -> Output {
    rfc1738(&["fetch", "--timeout", "5", "-o", file.to_str().unwrap(), url])
}

#[test]
fn a_failed_fetch_keeps_the_old_file() {
    let refused_port = closed_port();
    let not_found = server(|s| {
        let _ = s.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 3\r\n\r\nno\n");
    });
    let cases = [
        ("refused", format!("http://127.0.0.1:{refused_port}/x"), 2),
        ("section6", "gopher://127.0.0.1:25/0x".to_string(), 1),
        ("404", format!("http://127.0.0.1:{not_found}/x"), 1),
    ];
    for (name, url, code) in cases {
        let (dir, file) = dir_with_file(name);
        let out = fetch_to(&file, &url);
        assert_eq!(out.status.code(), Some(code), "{name}: {}", text(&out.stderr));
        assert_eq!(std::fs::read(&file).unwrap(), OLD, "{name}");
        assert_eq!(names(&dir), ["file"], "{name}");
    }
}

#[test]
fn a_short_body_is_an_error_and_the_old_file_stays() {
    let port = server(|s| {
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort!\n");
    });
    let (dir, file) = dir_with_file("short");
    let out = fetch_to(&file, &format!("http://127.0.0.1:{port}/x"));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("7 of the 100 bytes"), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(&file).unwrap(), OLD);
    assert_eq!(names(&dir), ["file"]);
}

#[test]
fn a_complete_fetch_replaces_the_file() {
    let port = server(|s| {
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nnew\n");
    });
    let (dir, file) = dir_with_file("complete");
    let out = fetch_to(&file, &format!("http://127.0.0.1:{port}/x"));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(&file).unwrap(), b"new\n");
    assert_eq!(names(&dir), ["file"]);
}

#[cfg(unix)]
#[test]
fn a_symlink_keeps_its_target_until_the_fetch_is_complete() {
    let (dir, target) = dir_with_file("symlink");
    let link = dir.join("link");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let out = fetch_to(&link, &format!("http://127.0.0.1:{}/x", closed_port()));
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read(&target).unwrap(), OLD);
    let port = server(|s| {
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nnew\n");
    });
    let out = fetch_to(&link, &format!("http://127.0.0.1:{port}/x"));
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The link is still a link, and its target holds the new bytes.
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read(&target).unwrap(), b"new\n");
    assert_eq!(names(&dir), ["file", "link"]);
}

#[cfg(unix)]
#[test]
fn a_file_that_is_not_regular_is_refused() {
    let (dir, _) = dir_with_file("special");
    let fifo = dir.join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    for path in [fifo.clone(), dir.clone()] {
        let out = fetch_to(&path, "gopher://127.0.0.1:7070/0x");
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        assert!(text(&out.stderr).contains("not a regular file"), "{}", text(&out.stderr));
    }
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(names(&dir), ["fifo", "file"]);
}

#[test]
fn no_clobber_keeps_an_existing_file() {
    let port = server(|s| {
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nnew\n");
    });
    let (dir, file) = dir_with_file("noclobber");
    let url = format!("http://127.0.0.1:{port}/x");
    let out = rfc1738(&["fetch", "--no-clobber", "-o", file.to_str().unwrap(), &url]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("exists"), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(&file).unwrap(), OLD);
    assert_eq!(names(&dir), ["file"]);
}

#[test]
fn dash_is_stdout() {
    let port = server(|s| {
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nnew\n");
    });
    let out = rfc1738(&["fetch", "-o", "-", &format!("http://127.0.0.1:{port}/x")]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(out.stdout, b"new\n");
}

#[cfg(unix)]
#[test]
fn a_signal_mid_transfer_keeps_the_old_file() {
    let port = server(|s| {
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n");
        let _ = s.write_all(&[b'x'; 5000]);
        std::thread::sleep(Duration::from_secs(10));
    });
    let (dir, file) = dir_with_file("signal");
    let mut child = Command::new(env!("CARGO_BIN_EXE_rfc1738"))
        .args(["fetch", "-o", file.to_str().unwrap(), &format!("http://127.0.0.1:{port}/x")])
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for the temporary file to appear: the transfer has begun.
    let start = Instant::now();
    while names(&dir).len() < 2 && start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    let kill = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(kill.success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(128 + 15));
    assert_eq!(std::fs::read(&file).unwrap(), OLD);
    assert_eq!(names(&dir), ["file"]);
}

// `-o` keeps the promise of a plain write (`echo x > FILE`): what the
// shell refuses is refused, owner and links stay, no set-id file appears.

/// A server that answers one GET with "new\n".
fn new_bytes_server() -> String {
    let port = server(|s| {
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nnew\n");
    });
    format!("http://127.0.0.1:{port}/x")
}

#[cfg(unix)]
fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    // A file we create is owned by our effective user.
    let probe = std::env::temp_dir().join(format!("rfc1738-uid-{}", std::process::id()));
    std::fs::write(&probe, b"").unwrap();
    let uid = std::fs::metadata(&probe).unwrap().uid();
    std::fs::remove_file(&probe).unwrap();
    uid == 0
}

/// The uid and gid of `nobody`.
#[cfg(unix)]
const NOBODY: (u32, u32) = (65534, 65534);

/// `rfc1738 fetch -o FILE URL` as an unprivileged user: as itself when it
/// is one, as `nobody` (setpriv) when the tests run as root.
#[cfg(unix)]
fn fetch_unprivileged(file: &Path, url: &str) -> Output {
    let args = ["fetch", "--timeout", "5", "-o", file.to_str().unwrap(), url];
    if !is_root() {
        return rfc1738(&args);
    }
    let uid = NOBODY.0.to_string();
    let gid = NOBODY.1.to_string();
    Command::new("setpriv")
        .args(["--reuid", &uid, "--regid", &gid, "--clear-groups", "--"])
        .arg(env!("CARGO_BIN_EXE_rfc1738"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// A directory the unprivileged user of `fetch_unprivileged` owns.
#[cfg(unix)]
fn unprivileged_dir(name: &str) -> (PathBuf, PathBuf) {
    let (dir, file) = dir_with_file(name);
    if is_root() {
        std::os::unix::fs::chown(&dir, Some(NOBODY.0), Some(NOBODY.1)).unwrap();
    }
    (dir, file)
}

#[cfg(unix)]
#[test]
fn a_file_the_user_cannot_write_is_refused_before_connecting() {
    use std::os::unix::fs::PermissionsExt;
    // The user's own read-only file, and a file of another owner (root's,
    // or here the test's own when it runs unprivileged) in the user's
    // directory: `echo x > FILE` says "Permission denied" for both.
    let (dir, own) = unprivileged_dir("readonly");
    if is_root() {
        std::os::unix::fs::chown(&own, Some(NOBODY.0), Some(NOBODY.1)).unwrap();
    }
    std::fs::set_permissions(&own, std::fs::Permissions::from_mode(0o444)).unwrap();
    let theirs = dir.join("theirs");
    std::fs::write(&theirs, OLD).unwrap();
    if !is_root() {
        // Unprivileged, the test cannot make a file of another owner: a
        // 0444 file stands for it.
        std::fs::set_permissions(&theirs, std::fs::Permissions::from_mode(0o444)).unwrap();
    }
    // Nothing listens: a refusal after connecting would say "refused".
    let url = format!("http://127.0.0.1:{}/x", closed_port());
    for file in [&own, &theirs] {
        let out = fetch_unprivileged(file, &url);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(&format!("{}: Permission denied", file.display())), "{err}");
        assert!(!err.contains("os error"), "{err}");
        assert_eq!(std::fs::read(file).unwrap(), OLD);
    }
    assert_eq!(names(&dir), ["file", "theirs"]);
}

#[cfg(unix)]
#[test]
fn no_set_id_file_is_made_and_the_owner_stays() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    if !is_root() {
        eprintln!("skipped: only root can make a file of another owner");
        return;
    }
    let (dir, file) = dir_with_file("setid");
    std::os::unix::fs::chown(&file, Some(NOBODY.0), Some(NOBODY.1)).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o4750)).unwrap();
    let out = fetch_to(&file, &new_bytes_server());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(&file).unwrap(), b"new\n");
    let m = std::fs::metadata(&file).unwrap();
    assert_eq!((m.uid(), m.gid()), NOBODY, "the owner and group stay");
    assert_eq!(m.mode() & 0o7777, 0o750, "the set-id bit is gone, the rest stays");
    assert_eq!(names(&dir), ["file"]);
}

#[cfg(unix)]
#[test]
fn a_hard_link_keeps_sharing_the_new_bytes() {
    use std::os::unix::fs::MetadataExt;
    let (dir, file) = dir_with_file("hardlink");
    let other = dir.join("other");
    std::fs::hard_link(&file, &other).unwrap();
    let ino = std::fs::metadata(&file).unwrap().ino();
    let out = fetch_to(&file, &new_bytes_server());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(&file).unwrap(), b"new\n");
    assert_eq!(std::fs::read(&other).unwrap(), b"new\n", "the other name sees the new bytes");
    assert_eq!(std::fs::metadata(&file).unwrap().ino(), ino);
    assert_eq!(names(&dir), ["file", "other"]);
}

#[cfg(unix)]
#[test]
fn live_and_dangling_symlinks_are_written_through_alike() {
    let (dir, target) = dir_with_file("links");
    let live = dir.join("live");
    std::os::unix::fs::symlink(&target, &live).unwrap();
    let absent = dir.join("absent");
    let dangling = dir.join("dangling");
    std::os::unix::fs::symlink(&absent, &dangling).unwrap();
    for (link, dest) in [(&live, &target), (&dangling, &absent)] {
        let out = fetch_to(link, &new_bytes_server());
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(std::fs::symlink_metadata(link).unwrap().file_type().is_symlink(), "{}", link.display());
        assert_eq!(std::fs::read(dest).unwrap(), b"new\n", "{}", dest.display());
    }
    assert_eq!(names(&dir), ["absent", "dangling", "file", "live"]);
    // A failed fetch through a dangling link leaves nothing behind.
    std::fs::remove_file(&absent).unwrap();
    let out = fetch_to(&dangling, &format!("http://127.0.0.1:{}/x", closed_port()));
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(names(&dir), ["dangling", "file", "live"]);
}

#[cfg(unix)]
#[test]
fn a_stale_part_file_of_a_dead_run_is_removed_by_the_next() {
    let (dir, file) = dir_with_file("stale");
    // What a run killed by SIGKILL leaves: its temporary file, an hour old.
    let stale = dir.join(".file.Ab3dE9.part");
    std::fs::write(&stale, b"half").unwrap();
    let old = std::time::SystemTime::now() - Duration::from_secs(3600);
    std::fs::File::options().write(true).open(&stale).unwrap().set_modified(old).unwrap();
    // A fresh one may belong to a run still going: it stays.
    let fresh = dir.join(".file.Zz9yY8.part");
    std::fs::write(&fresh, b"busy").unwrap();
    let out = fetch_to(&file, &new_bytes_server());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("removed"), "{}", text(&out.stderr));
    assert_eq!(names(&dir), [".file.Zz9yY8.part", "file"]);
}

/// The kernel's rule for symlinks in sticky directories holds for `-o`:
/// the link is followed by the kernel, never resolved by the command.
#[cfg(target_os = "linux")]
#[test]
fn a_symlink_the_kernel_protects_is_refused_as_the_shell_refuses_it() {
    use std::os::unix::fs::PermissionsExt;
    const SYSCTL: &str = "/proc/sys/fs/protected_symlinks";
    if !is_root() {
        eprintln!("skipped: needs root, to make a link of another owner");
        return;
    }
    let Ok(was) = std::fs::read_to_string(SYSCTL) else {
        eprintln!("skipped: no {SYSCTL}");
        return;
    };
    // Debian's default; some sandboxes turn it off.
    if std::fs::write(SYSCTL, "1").is_err() {
        eprintln!("skipped: {SYSCTL} cannot be set");
        return;
    }
    // A world-writable sticky directory of root's, a link in it of
    // nobody's, and a third user (daemon, uid 1) who owns the target.
    let (dir, target) = dir_with_file("sticky");
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o1777)).unwrap();
    std::os::unix::fs::chown(&target, Some(1), Some(1)).unwrap();
    let link = dir.join("link");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    std::os::unix::fs::lchown(&link, Some(NOBODY.0), Some(NOBODY.1)).unwrap();
    let out = Command::new("setpriv")
        .args(["--reuid", "1", "--regid", "1", "--clear-groups", "--"])
        .arg(env!("CARGO_BIN_EXE_rfc1738"))
        .args(["fetch", "--timeout", "5", "-o", link.to_str().unwrap()])
        .arg(format!("http://127.0.0.1:{}/x", closed_port()))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    std::fs::write(SYSCTL, was.trim()).unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(&format!("{}: Permission denied", link.display())), "{err}");
    assert_eq!(std::fs::read(&target).unwrap(), OLD);
    assert_eq!(names(&dir), ["file", "link"]);
}

/// `fetch -o PATH` run in `dir`, PATH as the user wrote it.
fn fetch_in(dir: &Path, path: &str, url: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rfc1738"))
        .current_dir(dir)
        .args(["fetch", "--timeout", "5", "-o", path, url])
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// However FILE's path is written, a plain file is replaced by a rename:
/// a reader that opened the old file keeps reading the old bytes, never a
/// part of the new ones.
#[cfg(unix)]
#[test]
fn a_relative_path_is_replaced_by_a_rename() {
    use std::os::unix::fs::MetadataExt;
    let (dir, _) = dir_with_file("relative");
    std::fs::create_dir(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/file"), OLD).unwrap();
    for path in ["file", "./file", "sub/file", "sub/../sub/file"] {
        let file = dir.join(path);
        let mut reader = std::fs::File::open(&file).unwrap();
        let ino = std::fs::metadata(&file).unwrap().ino();
        let out = fetch_in(&dir, path, &new_bytes_server());
        assert!(out.status.success(), "{path}: {}", text(&out.stderr));
        assert_eq!(std::fs::read(&file).unwrap(), b"new\n", "{path}");
        assert_ne!(std::fs::metadata(&file).unwrap().ino(), ino, "{path}: copied into, not renamed over");
        let mut old = Vec::new();
        reader.read_to_end(&mut old).unwrap();
        assert_eq!(old, OLD, "{path}: the old file was written to");
        std::fs::write(&file, OLD).unwrap();
    }
    assert_eq!(names(&dir), ["file", "sub"]);
    assert_eq!(names(&dir.join("sub")), ["file"]);
}

/// A server that sends `len` bytes of `byte`, slowly enough that two
/// transfers overlap.
fn body_server(byte: u8, len: usize) -> String {
    let port = server(move |s| {
        let _ = write!(s, "HTTP/1.1 200 OK\r\nContent-Length: {len}\r\n\r\n");
        for chunk in vec![byte; len].chunks(len / 8) {
            let _ = s.write_all(chunk);
            std::thread::sleep(Duration::from_millis(30));
        }
    });
    format!("http://127.0.0.1:{port}/x")
}

/// Two runs into one relative path: the file ends as the whole of one.
#[cfg(unix)]
#[test]
fn two_concurrent_runs_leave_one_whole_transfer() {
    let (dir, file) = dir_with_file("concurrent");
    let len = 1 << 20;
    let (a, b) = (body_server(b'a', len), body_server(b'b', len));
    let runs: Vec<_> = [a, b]
        .into_iter()
        .map(|url| {
            let dir = dir.clone();
            std::thread::spawn(move || fetch_in(&dir, "file", &url))
        })
        .collect();
    for run in runs {
        let out = run.join().unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let bytes = std::fs::read(&file).unwrap();
    assert_eq!(bytes.len(), len);
    assert!(bytes.iter().all(|&b| b == bytes[0]), "a mix of two transfers");
    assert_eq!(names(&dir), ["file"]);
}

/// The transfer is written where only its owner may read it, and a new
/// file gets the mode a plain write gives it (0666 less the umask).
#[cfg(unix)]
#[test]
fn the_temporary_file_is_private_until_it_is_in_place() {
    use std::os::unix::fs::PermissionsExt;
    let port = server(|s| {
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\nnew\n");
        std::thread::sleep(Duration::from_millis(600));
        let _ = s.write_all(b"new\n");
    });
    let (dir, _) = dir_with_file("private");
    let child = std::thread::spawn({
        let dir = dir.clone();
        move || fetch_in(&dir, "fresh", &format!("http://127.0.0.1:{port}/x"))
    });
    let start = Instant::now();
    let part = loop {
        let found = names(&dir).into_iter().find(|n| n.ends_with(".part"));
        if let Some(n) = found {
            break dir.join(n);
        }
        assert!(start.elapsed() < Duration::from_secs(5), "no temporary file appeared");
        std::thread::sleep(Duration::from_millis(10));
    };
    let mode = std::fs::metadata(&part).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "the temporary file is readable by others");
    let out = child.join().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mode = std::fs::metadata(dir.join("fresh")).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o666 & !umask(), "a new file gets a plain write's mode");
}

/// This process's umask, as the kernel reports it.
#[cfg(target_os = "linux")]
fn umask() -> u32 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("Umask:")).unwrap();
    u32::from_str_radix(line["Umask:".len()..].trim(), 8).unwrap()
}

/// A FIFO planted under a temporary file's name is neither opened nor
/// removed: the run neither hangs nor touches it.
#[cfg(unix)]
#[test]
fn a_fifo_named_like_a_stale_part_file_is_left_alone() {
    use std::os::unix::fs::FileTypeExt;
    let (dir, file) = dir_with_file("fifo-part");
    let fifo = dir.join(".file.Ab3dE9.part");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let _ = Command::new("touch").args(["-d", "2 hours ago"]).arg(&fifo).status();
    let mut child = Command::new(env!("CARGO_BIN_EXE_rfc1738"))
        .args(["fetch", "--timeout", "5", "-o", file.to_str().unwrap(), &new_bytes_server()])
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(10) {
            child.kill().unwrap();
            panic!("fetch hung on a FIFO named like a part file");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success());
    assert_eq!(std::fs::read(&file).unwrap(), b"new\n");
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
}

/// A complete transfer that is being copied into FILE (a hard link here)
/// waits under a name no later run's sweep removes, and is gone once the
/// copy is done.
#[cfg(unix)]
#[test]
fn a_kept_transfer_is_not_swept_and_a_finished_copy_leaves_nothing() {
    let (dir, file) = dir_with_file("kept");
    std::fs::hard_link(&file, dir.join("other")).unwrap();
    // What a copy that failed an hour ago kept, and named to its user.
    let kept = dir.join("file.Ab3dE9.fetched");
    std::fs::write(&kept, b"whole").unwrap();
    let old = std::time::SystemTime::now() - Duration::from_secs(7200);
    std::fs::File::options().write(true).open(&kept).unwrap().set_modified(old).unwrap();
    let out = fetch_to(&file, &new_bytes_server());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(&file).unwrap(), b"new\n");
    assert_eq!(names(&dir), ["file", "file.Ab3dE9.fetched", "other"]);
}

/// A body whose length cannot be known is no complete transfer: FILE
/// keeps its bytes and the run exits 2 (RFC 9112 §6.3).
#[test]
fn a_body_of_unreadable_length_leaves_the_file() {
    let heads = [
        "Content-Length: -1\r\n",
        "Content-Length: 12345678901234567890123\r\n",
        "Content-Length: 1000, 1000\r\n",
        "Content-Length: 3\r\nContent-Length: 4\r\n",
        "Transfer-Encoding: gzip, chunked\r\n",
    ];
    for head in heads {
        let port = server(move |s| {
            let _ = write!(s, "HTTP/1.1 200 OK\r\n{head}\r\nnew");
        });
        let (dir, file) = dir_with_file("length");
        let out = fetch_to(&file, &format!("http://127.0.0.1:{port}/x"));
        assert_eq!(out.status.code(), Some(2), "{head}: {}", text(&out.stderr));
        assert_eq!(std::fs::read(&file).unwrap(), OLD, "{head}");
        assert_eq!(names(&dir), ["file"], "{head}");
    }
}

/// An output file in a directory that does not exist is named in the
/// shell's words, without the error's code or the temporary file's path.
#[test]
fn a_missing_directory_is_said_as_the_shell_says_it() {
    let out = rfc1738(&["fetch", "-o", "/nonexistent-dir/f", &new_bytes_server()]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("/nonexistent-dir/f: No such file or directory"), "{err}");
    assert!(!err.contains("os error") && !err.contains(".part"), "{err}");
}

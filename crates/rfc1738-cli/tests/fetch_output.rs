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

//! Runs the real binary: `rfc1738 serve`, measured from outside (its
//! peak memory and open descriptors from /proc) while clients misbehave.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The server, killed when dropped.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(args: &[&str]) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rfc1738"))
        .args(["serve", "--listen", "127.0.0.1:0"])
        .args(args)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.split("http://").nth(1).and_then(|a| a.split('/').next()).unwrap();
    Server { addr: addr.parse().unwrap(), child }
}

/// A field of /proc/PID/status, in kB.
fn status_kb(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with(field)).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// The sockets the process has open.
fn sockets(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .filter(|e| {
            e.as_ref().is_ok_and(|e| {
                std::fs::read_link(e.path()).is_ok_and(|l| l.to_string_lossy().starts_with("socket:"))
            })
        })
        .count()
}

fn get(addr: SocketAddr, path: &str, host: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(s, "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    answer
}

#[test]
fn thirty_clients_that_never_read_an_8_mb_extract_hold_little_and_not_long() {
    let server = serve(&["--write-timeout", "2"]);
    let pid = server.child.id();
    // The listener, and the runtime's own (the signal handler's pair).
    let idle = sockets(pid);
    // 8 MB of text with a URL every 15 bytes: the whole answer would be
    // about 75 MB per client.
    let text = "http://a.dom/x ".repeat(((8 << 20) - 4096) / 15);
    let clients: Vec<TcpStream> = std::thread::scope(|scope| {
        let sending: Vec<_> = (0..30)
            .map(|_| {
                scope.spawn(|| {
                    let mut s = TcpStream::connect(server.addr).unwrap();
                    let head = format!(
                        "POST /api/extract HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\n\r\n",
                        server.addr,
                        text.len()
                    );
                    s.write_all(head.as_bytes()).unwrap();
                    // The server stops reading a body it has no room for.
                    let _ = s.write_all(text.as_bytes());
                    s
                })
            })
            .collect();
        sending.into_iter().map(|t| t.join().unwrap()).collect()
    });
    let sent = Instant::now();
    std::thread::sleep(Duration::from_millis(1000));
    // One address holds a quarter of the 64 MB the server holds of
    // bodies at once: two of these; the others are refused (503) while
    // they send, though the kernel's buffers may take the rest of their
    // bytes (it was 2.27 GB when the answers were made whole, and 240 MB
    // when every body was held).
    let peak_mb = status_kb(pid, "VmHWM:") / 1024;
    eprintln!("peak RSS {peak_mb} MB");
    assert!(peak_mb < 100, "peak RSS {peak_mb} MB");
    // A normal request meanwhile is answered.
    assert!(get(server.addr, "/api/parse?url=x", &server.addr.to_string()).starts_with("HTTP/1.1 200 OK"));
    // Once each answer fills what the kernel holds for it (a debug build
    // takes a few seconds to make that much) and the write timeout
    // passes, the connections are gone.
    while sockets(pid) > idle {
        assert!(
            sent.elapsed() < Duration::from_secs(25),
            "{} sockets after {:?}",
            sockets(pid),
            sent.elapsed()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(clients);
}

#[test]
fn a_host_that_is_not_this_server_is_refused_unless_allowed() {
    let server = serve(&["--allow-host", "explorer.example"]);
    let port = server.addr.port();
    let refused = get(server.addr, "/api/parse?url=x", &format!("rebind.example:{port}"));
    assert!(refused.starts_with("HTTP/1.1 421 Misdirected Request\r\n"), "{refused}");
    assert!(
        refused.ends_with(&format!(
            "{{\"error\":{{\"kind\":\"other-host\",\"message\":\"the Host header names \\\"rebind.example:{port}\\\", \
             not this server (127.0.0.1:{port}): `rfc1738 serve --allow-host NAME` accepts another name\"}}}}"
        )),
        "{refused}"
    );
    for host in [format!("localhost:{port}"), format!("127.0.0.1:{port}"), format!("explorer.example:{port}")]
    {
        assert!(get(server.addr, "/api/parse?url=x", &host).starts_with("HTTP/1.1 200 OK"), "{host}");
    }
}

#[test]
fn serve_flags_are_range_checked() {
    for (flag, value) in [
        ("--header-timeout", "0"),
        ("--body-timeout", "0"),
        ("--write-timeout", "18446744073709551615"),
        ("--max-connections", "0"),
        ("--max-per-client", "0"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_rfc1738")).args(["serve", flag, value]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{flag} {value}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(flag), "{flag}");
    }
}

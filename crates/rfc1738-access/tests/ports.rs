//! One port rule for every connection (RFC 1738 §6), whatever named the
//! port: the URL, the news server option, an ftp server's EPSV or PASV
//! reply, a redirect. Port 0 is never connected to; a port below 1024
//! that is not the scheme's default is refused unless allowed.

use rfc1738_access::{fetch, news_server, plan, AccessError, NoTrace, Options};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::thread;

#[test]
fn news_servers_are_read_like_a_hostport() {
    let read = |s: &str| news_server(s).map_err(|e| e.to_string());
    assert_eq!(read("news.example"), Ok(("news.example".into(), 119)));
    assert_eq!(read("news.example:1190"), Ok(("news.example".into(), 1190)));
    assert_eq!(read("[::1]"), Ok(("::1".into(), 119)));
    assert_eq!(read("[::1]:563"), Ok(("::1".into(), 563)));
    for bad in ["", "h:", "h:0", "h:65536", "h:+5", "h:-1", "[::1", "::1", "a b", "h:1:2"] {
        assert!(read(bad).is_err(), "{bad:?} was accepted");
    }
}

#[test]
fn a_news_server_port_obeys_the_port_rule() {
    for (server, port) in [("127.0.0.1:25", 25), ("127.0.0.1:1023", 1023)] {
        let opts = Options { news_server: Some(news_server(server).unwrap()), ..Options::default() };
        match plan("news:a@b.example", &opts) {
            Err(AccessError::PrivilegedPort { port: p, .. }) => assert_eq!(p, port),
            other => panic!("{server}: {other:?}"),
        }
        let allow = Options { allow_privileged_ports: true, ..opts };
        plan("news:a@b.example", &allow).unwrap();
    }
    let opts = Options { news_server: Some(news_server("127.0.0.1:119").unwrap()), ..Options::default() };
    plan("news:a@b.example", &opts).unwrap();
}

#[test]
fn a_gopher_form_sends_one_line_to_any_port() {
    // The §3.4.9 form's CR LF would reach whatever listens on a high port
    // (a Redis on 6379 reads `SET pwned 1`): a request is one line.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let url = format!("gopher://127.0.0.1:{port}/0s%09%09+%091%0D%0ASET%20pwned%201%0D%0A.%0D%0A");
    match fetch(&url, &Options::default(), &mut NoTrace, &mut Vec::new()) {
        Err(AccessError::Injection { component: "gopher+ string", octet: b'\r' }) => {}
        other => panic!("{other:?}"),
    }
    assert!(listener.accept().is_err(), "a connection was made");
}

/// An ftp server that logs in anyone and answers EPSV or PASV with `reply`.
fn ftp_server(reply: &'static str) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    thread::spawn(move || {
        let Ok((s, _)) = listener.accept() else { return };
        let mut w = s.try_clone().unwrap();
        let _ = w.write_all(b"220 hello\r\n");
        for line in BufReader::new(s).lines() {
            let Ok(line) = line else { return };
            let answer = match line.split(' ').next().unwrap_or("") {
                "USER" => "230 in",
                "EPSV" if reply.starts_with("229") => reply,
                "EPSV" => "500 no",
                "PASV" => reply,
                "QUIT" => "221 bye",
                _ => "200 ok",
            };
            let _ = w.write_all(format!("{answer}\r\n").as_bytes());
        }
    });
    port
}

#[test]
fn a_passive_reply_cannot_aim_the_data_connection_at_a_privileged_port() {
    for (reply, port) in [
        ("229 Entering Extended Passive Mode (|||25|)", 25),
        ("229 Entering Extended Passive Mode (|||1023|)", 1023),
        ("227 Entering Passive Mode (127,0,0,1,0,25)", 25),
        ("229 Entering Extended Passive Mode (|||0|)", 0),
    ] {
        let server = ftp_server(reply);
        let url = format!("ftp://127.0.0.1:{server}/f");
        match fetch(&url, &Options::default(), &mut NoTrace, &mut Vec::new()) {
            Err(AccessError::ServerPort { port: p, .. }) => assert_eq!(p, port, "{reply}"),
            other => panic!("{reply}: {other:?}"),
        }
    }
}

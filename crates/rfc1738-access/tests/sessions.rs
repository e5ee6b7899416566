//! `fetch_in`: one ftp control connection per server and login, across
//! URLs, against a scripted server that logs every command. A server that
//! closes an idle connection, or whose `CDUP` leads elsewhere (a symbolic
//! link's parent), costs a new login, never a wrong file.

use rfc1738_access::{fetch_in, Event, Options, Sessions, Trace};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

/// How the scripted server misbehaves.
#[derive(Clone, Copy, Default)]
struct Quirks {
    /// Closes the control connection after this many transfers.
    close_after: Option<usize>,
    /// `CDUP` leads to `/elsewhere`, as from a symbolic link it can.
    cdup_elsewhere: bool,
}

type Log = Arc<Mutex<Vec<String>>>;

/// A server of the files `/a/x`, `/a/c/z` and `/b/y` (and, for a
/// `CDUP` that leads elsewhere, `/elsewhere/b/y`), on a free port.
fn server(quirks: Quirks) -> (u16, Log) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let log = Log::default();
    let seen = log.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let seen = seen.clone();
            std::thread::spawn(move || serve(stream, quirks, &seen));
        }
    });
    (port, log)
}

fn serve(stream: TcpStream, quirks: Quirks, log: &Mutex<Vec<String>>) {
    let mut out = stream.try_clone().unwrap();
    let mut lines = BufReader::new(stream);
    let (mut cwd, mut data, mut transfers) = (Vec::<String>::new(), None, 0);
    let _ = out.write_all(b"220 scripted\r\n");
    let mut line = String::new();
    while lines.read_line(&mut line).unwrap_or(0) > 0 {
        let command = line.trim_end().to_string();
        line.clear();
        log.lock().unwrap().push(command.clone());
        let (verb, arg) = command.split_once(' ').unwrap_or((&command, ""));
        let answer = match verb {
            "USER" => "331 password\r\n".to_string(),
            "PASS" => "230 in\r\n".to_string(),
            "CWD" if ["a", "b", "c"].contains(&arg) => {
                cwd.push(arg.to_string());
                "250 ok\r\n".to_string()
            }
            "CWD" => "550 no such directory\r\n".to_string(),
            "CDUP" if quirks.cdup_elsewhere => {
                cwd = vec!["elsewhere".to_string()];
                "250 ok\r\n".to_string()
            }
            "CDUP" => {
                cwd.pop();
                "250 ok\r\n".to_string()
            }
            "PWD" => format!("257 \"/{}\" is here\r\n", cwd.join("/")),
            "EPSV" => {
                let l = TcpListener::bind("127.0.0.1:0").unwrap();
                let p = l.local_addr().unwrap().port();
                data = Some(l);
                format!("229 Entering Extended Passive Mode (|||{p}|)\r\n")
            }
            "RETR" => {
                let path = format!("/{}/{arg}", cwd.join("/"));
                let body = match path.as_str() {
                    "/a/x" => "file x\n",
                    "/b/y" => "file y\n",
                    "/a/c/z" => "file z\n",
                    "/elsewhere/b/y" => "the wrong file\n",
                    _ => "",
                };
                match (body, data.take()) {
                    ("", _) | (_, None) => "550 no such file\r\n".to_string(),
                    (body, Some(l)) => {
                        let _ = out.write_all(b"150 here it comes\r\n");
                        let (mut d, _) = l.accept().unwrap();
                        let _ = d.write_all(body.as_bytes());
                        drop(d);
                        transfers += 1;
                        "226 done\r\n".to_string()
                    }
                }
            }
            "QUIT" => {
                let _ = out.write_all(b"221 bye\r\n");
                return;
            }
            _ => "502 not here\r\n".to_string(),
        };
        let _ = out.write_all(answer.as_bytes());
        if quirks.close_after == Some(transfers) {
            return;
        }
    }
}

#[derive(Default)]
struct Notes(Vec<String>);

impl Trace for Notes {
    fn event(&mut self, event: &Event<'_>) {
        if let Event::Note(n) = event {
            self.0.push((*n).to_string());
        }
    }
}

fn get(sessions: &mut Sessions, port: u16, path: &str, notes: &mut Notes) -> String {
    let mut out = Vec::new();
    let url = format!("ftp://127.0.0.1:{port}/{path}");
    fetch_in(&url, &Options::default(), sessions, notes, &mut out).unwrap_or_else(|e| panic!("{url}: {e}"));
    String::from_utf8(out).unwrap()
}

fn count(log: &Log, command: &str) -> usize {
    log.lock().unwrap().iter().filter(|c| c.starts_with(command)).count()
}

#[test]
fn one_login_for_files_in_sibling_and_nested_directories() {
    let (port, log) = server(Quirks::default());
    let mut sessions = Sessions::default();
    let mut notes = Notes::default();
    assert_eq!(get(&mut sessions, port, "a/x", &mut notes), "file x\n");
    assert_eq!(get(&mut sessions, port, "a/c/z", &mut notes), "file z\n");
    assert_eq!(get(&mut sessions, port, "b/y", &mut notes), "file y\n");
    assert_eq!(get(&mut sessions, port, "a/x", &mut notes), "file x\n");
    assert_eq!(sessions.open(), 1);
    drop(sessions);
    let log = log.lock().unwrap().clone();
    let commands: Vec<&str> = log.iter().map(String::as_str).filter(|c| !c.starts_with("EPSV")).collect();
    // §3.2.2: down one CWD a segment; up one CDUP a segment, checked by PWD.
    assert_eq!(
        commands,
        [
            "USER anonymous",
            "PASS anonymous@localhost",
            "PWD",
            "CWD a",
            "PWD",
            "RETR x",
            "CWD c",
            "PWD",
            "RETR z",
            "CDUP",
            "CDUP",
            "PWD",
            "CWD b",
            "PWD",
            "RETR y",
            "CDUP",
            "PWD",
            "CWD a",
            "RETR x",
            "QUIT",
        ]
        .map(|c| if c.starts_with("PASS") { log[1].as_str() } else { c }),
        "{notes:?}",
        notes = notes.0
    );
}

#[test]
fn a_connection_the_server_closed_is_a_new_login() {
    let (port, log) = server(Quirks { close_after: Some(1), ..Quirks::default() });
    let mut sessions = Sessions::default();
    let mut notes = Notes::default();
    assert_eq!(get(&mut sessions, port, "a/x", &mut notes), "file x\n");
    assert_eq!(get(&mut sessions, port, "b/y", &mut notes), "file y\n");
    assert_eq!(count(&log, "USER"), 2);
    assert!(notes.0.iter().any(|n| n.starts_with("a new login")), "{:?}", notes.0);
}

#[test]
fn a_cdup_that_leads_elsewhere_is_a_new_login_never_a_wrong_file() {
    let (port, log) = server(Quirks { cdup_elsewhere: true, ..Quirks::default() });
    let mut sessions = Sessions::default();
    let mut notes = Notes::default();
    assert_eq!(get(&mut sessions, port, "a/x", &mut notes), "file x\n");
    assert_eq!(get(&mut sessions, port, "b/y", &mut notes), "file y\n");
    assert_eq!(count(&log, "USER"), 2);
    assert!(notes.0.iter().any(|n| n.contains("CDUP led elsewhere")), "{:?}", notes.0);
}

#[test]
fn a_refused_name_keeps_the_session() {
    let (port, log) = server(Quirks::default());
    let mut sessions = Sessions::default();
    let mut out = Vec::new();
    let url = format!("ftp://127.0.0.1:{port}/a/nothing");
    assert!(fetch_in(&url, &Options::default(), &mut sessions, &mut Notes::default(), &mut out).is_err());
    let url = format!("ftp://127.0.0.1:{port}/nowhere/x");
    assert!(fetch_in(&url, &Options::default(), &mut sessions, &mut Notes::default(), &mut out).is_err());
    assert_eq!(get(&mut sessions, port, "a/x", &mut Notes::default()), "file x\n");
    assert_eq!(count(&log, "USER"), 1);
}

//! The journal of a crawl, `NAME.journal`: each URL queued, each URL done
//! with where the WARC file stood after its records, each payload first
//! archived. One line each, flushed as it happens, so that a run killed at
//! any moment can go on where it stood (`--resume`): the queue rebuilt,
//! the last WARC file cut at the end of the last URL done, nothing
//! captured twice except as a revisit.
//!
//! ```text
//! Q <hops> <url> <via or ->      queued
//! D <file index> <offset> <url>  done: its records end at <offset>
//! P <digest> <date> <record id> <url>   a payload first archived
//! ```
//!
//! URLs are normal forms: no space, no line end. A last line without its
//! LF (the kill came while it was written) is ignored.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// A journal being written.
#[derive(Debug)]
pub struct Journal {
    file: File,
    path: PathBuf,
}

/// What a journal says of an interrupted run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Resumed {
    /// URLs queued and not done, in order: (hops, url, via).
    pub queue: Vec<(u32, String, Option<String>)>,
    /// Every URL queued, done or not.
    pub seen: HashSet<String>,
    /// Payloads archived: digest, date, record id, target.
    pub payloads: Vec<(String, String, String, String)>,
    /// The WARC file and offset after the last URL done.
    pub position: Option<(u32, u64)>,
}

impl Journal {
    /// A new journal; one that exists is refused (it belongs to a run
    /// that `--resume` would continue).
    ///
    /// # Errors
    /// The file exists or cannot be created.
    pub fn create(path: &Path) -> io::Result<Journal> {
        let file = OpenOptions::new().append(true).create_new(true).open(path).map_err(|e| {
            let hint = if e.kind() == io::ErrorKind::AlreadyExists {
                ": a run with this name was begun; go on with --resume, or remove it"
            } else {
                ""
            };
            io::Error::new(e.kind(), format!("{}: {e}{hint}", path.display()))
        })?;
        Ok(Journal { file, path: path.to_path_buf() })
    }

    /// Reads the journal of an interrupted run and opens it to go on.
    ///
    /// # Errors
    /// Reading or opening the file.
    pub fn resume(path: &Path) -> io::Result<(Journal, Resumed)> {
        let text =
            std::fs::read(path).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        let whole = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let mut r = Resumed::default();
        let mut done = HashSet::new();
        let mut queued = Vec::new();
        for line in String::from_utf8_lossy(&text[..whole]).lines() {
            let f: Vec<&str> = line.split(' ').collect();
            match f[..] {
                ["Q", hops, url, via] if r.seen.insert(url.to_string()) => {
                    let via = (via != "-").then(|| via.to_string());
                    queued.push((hops.parse().unwrap_or(0), url.to_string(), via));
                }
                ["D", index, offset, url] => {
                    done.insert(url.to_string());
                    if let (Ok(i), Ok(o)) = (index.parse(), offset.parse()) {
                        r.position = Some((i, o));
                    }
                }
                ["P", digest, date, id, url] => {
                    r.payloads.push((digest.into(), date.into(), id.into(), url.into()));
                }
                _ => {}
            }
        }
        r.queue = queued.into_iter().filter(|q| !done.contains(&q.1)).collect();
        // Cut a partial last line, so the next line starts whole.
        let file = OpenOptions::new().write(true).open(path)?;
        file.set_len(whole as u64)?;
        drop(file);
        let file = OpenOptions::new().append(true).open(path)?;
        Ok((Journal { file, path: path.to_path_buf() }, r))
    }

    /// The journal's path.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn line(&mut self, line: &str) -> io::Result<()> {
        self.file.write_all(format!("{line}\n").as_bytes())
    }

    pub(crate) fn queued(&mut self, hops: u32, url: &str, via: Option<&str>) -> io::Result<()> {
        self.line(&format!("Q {hops} {url} {}", via.unwrap_or("-")))
    }

    pub(crate) fn done(&mut self, url: &str, (index, offset): (u32, u64)) -> io::Result<()> {
        self.line(&format!("D {index} {offset} {url}"))
    }

    pub(crate) fn payload(&mut self, digest: &str, date: &str, id: &str, url: &str) -> io::Result<()> {
        self.line(&format!("P {digest} {date} {id} {url}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_journal_cut_mid_line_resumes_what_is_not_done() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.journal");
        let mut j = Journal::create(&path).unwrap();
        j.queued(0, "gopher://h/", None).unwrap();
        j.queued(1, "gopher://h/0/a", Some("gopher://h/")).unwrap();
        j.queued(1, "gopher://h/0/b", Some("gopher://h/")).unwrap();
        j.done("gopher://h/", (0, 700)).unwrap();
        j.payload("sha1:X", "2026-01-01T00:00:00Z", "<urn:uuid:1>", "gopher://h/").unwrap();
        j.done("gopher://h/0/a", (0, 900)).unwrap();
        drop(j);
        // A kill while the next line was written.
        OpenOptions::new().append(true).open(&path).unwrap().write_all(b"D 0 1200 gopher://h/0/").unwrap();
        assert!(Journal::create(&path).is_err(), "an existing journal is never overwritten");
        let (mut j, r) = Journal::resume(&path).unwrap();
        assert_eq!(r.queue, [(1, "gopher://h/0/b".to_string(), Some("gopher://h/".to_string()))]);
        assert_eq!(r.position, Some((0, 900)));
        assert_eq!(r.seen.len(), 3);
        assert_eq!(r.payloads[0].3, "gopher://h/");
        j.done("gopher://h/0/b", (0, 1100)).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.ends_with("D 0 900 gopher://h/0/a\nD 0 1100 gopher://h/0/b\n"), "{text}");
    }
}

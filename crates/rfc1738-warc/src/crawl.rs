//! The crawl: from seeds, breadth first, each URL reached once, what it
//! locates written as WARC records, the URLs it names followed within
//! scope and limits.
//!
//! Every discovered URL goes through the same checks before it is
//! queued: it parses, §6 allows it ([`rfc1738_access::plan`]: no CR, LF
//! or NUL reaching a protocol line, no port 0, no privileged port that is
//! not the scheme's), it is in scope, and its normal form has not been
//! seen. A refused URL is logged and never connected to.

use crate::capture::{self, Fetch, Link, PlusRequest};
use crate::journal::{Journal, Resumed};
use crate::record::{Record, RecordType};
use crate::robots::Robots;
use crate::scope::{Place, Scope};
use crate::spool::Spool;
use crate::writer::{WarcWriter, Written};
use rfc1738::{SchemeKind, Url};
use rfc1738_access::{AccessError, Content, Fetched, MenuOutput, Options, Sessions};
use std::collections::{HashMap, HashSet, VecDeque};
use std::io;
use std::time::{Duration, Instant};

/// The revisit profile of ISO 28500 §6.7.2.
const IDENTICAL_PAYLOAD: &str = "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest";

/// The Content-Type of a Gopher+ attribute block (`!`, §3.4.6): Gopher+
/// names its menus `application/gopher+-menu`, and this after them.
const ATTRIBUTES: &str = "application/gopher+-attributes";

/// The most of a menu, listing or overview read for the URLs it names:
/// the record keeps all that came (up to `--max-bytes`), the crawl follows
/// the items of the first 64 MiB.
const MENU_LIMIT: u64 = 64 << 20;

/// What a crawl does.
#[derive(Debug)]
pub struct Config {
    /// The URLs to start from.
    pub seeds: Vec<String>,
    /// How far from the seeds.
    pub scope: Scope,
    /// The most hops from a seed (a seed is 0).
    pub depth: u32,
    /// The most URLs accessed.
    pub max_items: u64,
    /// The most content octets in all; an access is cut at what is left.
    pub max_total_bytes: u64,
    /// The most time for the whole run; an access ends by then.
    pub max_run_time: Duration,
    /// The pause between two accesses to the same host and port.
    pub wait: Duration,
    /// Terms for gopher type 7 searches; none: searches are not followed.
    pub search: Vec<String>,
    /// Obey robots rules: http's `/robots.txt`, and the `robots.txt`
    /// selector gopher crawlers read.
    pub robots: bool,
    /// The limits and choices of each access.
    pub access: Options,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            seeds: Vec::new(),
            scope: Scope::Prefix,
            depth: 5,
            max_items: 100_000,
            max_total_bytes: 10 << 30,
            max_run_time: Duration::from_secs(24 * 3600),
            wait: Duration::from_secs(1),
            search: Vec::new(),
            robots: true,
            access: Options::default(),
        }
    }
}

/// A URL waiting in the frontier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Queued {
    /// The normal form.
    pub url: String,
    /// Hops from its seed.
    pub hops: u32,
    /// The URL whose menu or listing named it; `None` for a seed.
    pub via: Option<String>,
}

/// How a run went, in numbers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// URLs accessed and archived (truncated ones included).
    pub captured: u64,
    /// Of those, archived as revisits of an identical payload.
    pub revisits: u64,
    /// Of those, cut short (`WARC-Truncated`).
    pub truncated: u64,
    /// URLs refused before connecting (§6, no URL).
    pub refused: u64,
    /// Accesses that failed with nothing to archive.
    pub failed: u64,
    /// URLs out of scope or past the depth.
    pub skipped: u64,
    /// Why the run stopped early, if it did.
    pub stopped: Option<String>,
    /// Content octets archived.
    pub bytes: u64,
}

/// Where a run stands, after each URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// URLs accessed, archived or not.
    pub done: u64,
    /// URLs waiting.
    pub queued: usize,
    /// Content octets archived.
    pub bytes: u64,
}

/// What is called after each URL.
type OnProgress<'a> = Box<dyn FnMut(&Progress) + 'a>;

/// The frontier a crawl starts with: the seeds, each checked as every
/// discovered URL is (parse, §6, normal form), without connecting.
/// Refused seeds are `Err` with the reason.
#[must_use]
pub fn plan_frontier(config: &Config) -> Vec<Result<Queued, String>> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for seed in &config.seeds {
        match check(seed, &config.access) {
            Ok(url) => {
                let url = url.as_str().to_string();
                if seen.insert(url.clone()) {
                    out.push(Ok(Queued { url, hops: 0, via: None }));
                }
            }
            Err(e) => out.push(Err(format!("{seed}: {e}"))),
        }
    }
    out
}

/// Parses `text`, makes the §6 checks of an access, and gives its normal form.
fn check(text: &str, opts: &Options) -> Result<Url, String> {
    let url = Url::parse(text).map_err(|e| format!("not a url: {e}"))?.normalize();
    rfc1738_access::plan(url.as_str(), opts).map_err(|e| e.to_string())?;
    if !matches!(
        url.kind(),
        SchemeKind::Gopher | SchemeKind::Ftp | SchemeKind::Http | SchemeKind::News | SchemeKind::Nntp
    ) {
        return Err(format!(
            "the {} scheme is not archived (gopher, ftp, http, news and nntp are)",
            url.scheme()
        ));
    }
    Ok(url)
}

/// A crawl in progress.
pub struct Crawl<'a> {
    config: Config,
    writer: &'a mut WarcWriter,
    log: Box<dyn FnMut(&str) + 'a>,
    progress: Option<OnProgress<'a>>,
    done: u64,
    seeds: Vec<Place>,
    queue: VecDeque<Queued>,
    seen: HashSet<String>,
    /// Payload digest to the record that first held it: target, date, id.
    payloads: HashMap<String, (String, String, String)>,
    last_access: HashMap<(String, u16), Instant>,
    /// The robots rules of each scheme, host and port read so far.
    robots: HashMap<(String, String, u16), Robots>,
    started: Instant,
    summary: Summary,
    text: String,
    /// The configured per-access limits, before a run's remainder cuts them.
    max_bytes: u64,
    total_timeout: Duration,
    journal: Option<Journal>,
    /// The ftp control connections kept open, one per server and login.
    sessions: Sessions,
}

impl<'a> Crawl<'a> {
    /// A crawl of `config`'s seeds into `writer`, saying each line of the
    /// run's log to `log` as it happens.
    pub fn new(mut config: Config, writer: &'a mut WarcWriter, log: impl FnMut(&str) + 'a) -> Crawl<'a> {
        // Menus as the server sent them: the archive keeps the bytes.
        config.access.menus = MenuOutput::Raw;
        // A redirect is archived as the response it is; its Location is a
        // discovered URL like any other, checked and scoped.
        config.access.max_redirects = 0;
        let (max_bytes, total_timeout) = (config.access.max_bytes, config.access.total_timeout);
        let mut crawl = Crawl {
            config,
            writer,
            log: Box::new(log),
            progress: None,
            done: 0,
            seeds: Vec::new(),
            queue: VecDeque::new(),
            seen: HashSet::new(),
            payloads: HashMap::new(),
            last_access: HashMap::new(),
            robots: HashMap::new(),
            started: Instant::now(),
            summary: Summary::default(),
            text: String::new(),
            max_bytes,
            total_timeout,
            journal: None,
            sessions: Sessions::default(),
        };
        for seed in plan_frontier(&crawl.config) {
            match seed {
                // `check` parsed the normal form it returns.
                Ok(q) => {
                    if let Ok(url) = Url::parse(&q.url) {
                        crawl.seeds.push(Place::of(&url));
                    }
                    crawl.seen.insert(q.url.clone());
                    crawl.queue.push_back(q);
                }
                Err(e) => {
                    crawl.summary.refused += 1;
                    crawl.say(&format!("refused seed {e}"));
                }
            }
        }
        crawl
    }

    /// Calls `f` after each URL with where the run stands (a progress
    /// display).
    #[must_use]
    pub fn progress(mut self, f: impl FnMut(&Progress) + 'a) -> Crawl<'a> {
        self.progress = Some(Box::new(f));
        self
    }

    /// Payloads an earlier run archived (`--dedup-cdxj`): digest, URL,
    /// date. A payload among them is written as a revisit of it.
    #[must_use]
    pub fn known_payloads(mut self, known: Vec<(String, String, String)>) -> Crawl<'a> {
        for (digest, url, date) in known {
            self.payloads.entry(digest).or_insert((url, date, String::new()));
        }
        self
    }

    /// Keeps a journal of the run (`--resume` reads it); the seeds are
    /// its first lines.
    ///
    /// # Errors
    /// Writing the journal.
    pub fn journal(mut self, mut journal: Journal) -> io::Result<Crawl<'a>> {
        for q in &self.queue {
            journal.queued(q.hops, &q.url, q.via.as_deref())?;
        }
        self.journal = Some(journal);
        Ok(self)
    }

    /// Goes on with an interrupted run: its queue, the URLs it saw and the
    /// payloads it archived, from its journal, which it goes on writing.
    #[must_use]
    pub fn resume(mut self, journal: Journal, resumed: Resumed) -> Crawl<'a> {
        self.queue = resumed.queue.into_iter().map(|(hops, url, via)| Queued { url, hops, via }).collect();
        self.seen = resumed.seen;
        for (digest, date, id, target) in resumed.payloads {
            self.payloads.insert(digest, (target, date, id));
        }
        self.say(&format!("resumed: {} queued urls", self.queue.len()));
        self.journal = Some(journal);
        self
    }

    /// Runs to the end of the frontier or a limit; the run's log is the
    /// last record.
    ///
    /// # Errors
    /// Writing the WARC files: the run stops at once.
    pub fn run(mut self) -> io::Result<Summary> {
        while let Some(item) = self.queue.pop_front() {
            if let Some(why) = self.limit_reached() {
                self.summary.stopped = Some(why.clone());
                self.say(&format!("stopped: {why}; {} queued urls not accessed", self.queue.len() + 1));
                break;
            }
            self.visit(&item)?;
            if let Some(j) = &mut self.journal {
                j.done(&item.url, self.writer.position())?;
            }
            self.done += 1;
            let now = Progress { done: self.done, queued: self.queue.len(), bytes: self.summary.bytes };
            if let Some(f) = &mut self.progress {
                f(&now);
            }
        }
        let s = &self.summary;
        let line = format!(
            "done: {} captured ({} revisits, {} truncated), {} refused, {} failed, {} skipped, {} bytes",
            s.captured, s.revisits, s.truncated, s.refused, s.failed, s.skipped, s.bytes
        );
        self.say(&line);
        let mut log = Record::new(RecordType::Resource)
            .field("WARC-Target-URI", "urn:X-rfc1738:log")
            .field("Content-Type", "text/plain; charset=utf-8")
            .block(Spool::of(self.text.as_bytes()));
        log.payload_from = Some(0);
        self.writer.write(&mut log)?;
        Ok(self.summary)
    }

    fn say(&mut self, line: &str) {
        let at = self.started.elapsed().as_secs_f64();
        self.text.push_str(&format!("{at:9.3} {line}\n"));
        (self.log)(line);
    }

    fn limit_reached(&self) -> Option<String> {
        let c = &self.config;
        if self.summary.captured + self.summary.failed >= c.max_items {
            return Some(format!("{} urls accessed, the --max-items limit", c.max_items));
        }
        if self.summary.bytes >= c.max_total_bytes {
            return Some(format!("{} bytes archived, the --max-total-bytes limit", c.max_total_bytes));
        }
        if self.started.elapsed() >= c.max_run_time {
            return Some(format!("{} s run, the --max-run-time limit", c.max_run_time.as_secs()));
        }
        None
    }

    /// Waits until the host has had `wait` (or its robots rules'
    /// `Crawl-delay`, when longer, up to a minute) since its last access.
    fn polite(&mut self, url: &Url) {
        let key = (url.host().unwrap_or("").to_string(), url.effective_port().unwrap_or(0));
        let delay = self
            .robots
            .iter()
            .filter(|((_, h, p), _)| *h == key.0 && *p == key.1)
            .filter_map(|(_, r)| r.delay)
            .fold(0.0f64, f64::max)
            .min(60.0);
        let wait = self.config.wait.max(Duration::from_secs_f64(delay));
        if let Some(last) = self.last_access.get(&key) {
            let ready = *last + wait;
            let now = Instant::now();
            if ready > now {
                std::thread::sleep(ready - now);
            }
        }
        self.last_access.insert(key, Instant::now());
    }

    /// Cuts the access's limits to what the run has left.
    fn budget(&mut self) {
        let left_time = self.config.max_run_time.saturating_sub(self.started.elapsed());
        self.config.access.total_timeout = self.total_timeout.min(left_time).max(Duration::from_millis(1));
        let left_bytes = self.config.max_total_bytes.saturating_sub(self.summary.bytes);
        self.config.access.max_bytes = self.max_bytes.min(left_bytes);
    }

    /// The path robots rules match, for gopher (the selector) and http
    /// (the path and search); `None` for the schemes without rules.
    fn robots_path(url: &Url) -> Option<String> {
        match url.kind() {
            SchemeKind::Gopher => url
                .gopher()
                .map(|g| String::from_utf8_lossy(&rfc1738::pct::decode(g.selector())).into_owned()),
            SchemeKind::Http => Some(format!("/{}", url.url_path().unwrap_or(""))),
            _ => None,
        }
    }

    /// Whether the robots rules of the URL's server allow it; the rules
    /// are read on the first URL of each server.
    fn robots_allow(&mut self, url: &Url) -> bool {
        let Some(path) = Self::robots_path(url).filter(|_| self.config.robots) else { return true };
        let host = url.host().unwrap_or("").to_string();
        let port = url.effective_port().unwrap_or(0);
        let key = (url.scheme().to_string(), host.clone(), port);
        if !self.robots.contains_key(&key) {
            let builder = rfc1738::build::GopherBuilder::new(&host).gopher_type(b'0').selector("robots.txt");
            let at = match url.kind() {
                SchemeKind::Gopher => {
                    builder.port(port).build().map(|u| u.as_str().to_string()).unwrap_or_default()
                }
                _ => format!("http://{host}:{port}/robots.txt"),
            };
            self.polite(url);
            self.budget();
            // At most 512 KiB of rules (RFC 9309 §2.5 asks for 500 KiB at least).
            let limit = self.config.access.max_bytes;
            self.config.access.max_bytes = limit.min(512 << 10);
            let mut fetch = capture::access(&at, &self.config.access, false, &mut self.sessions);
            self.config.access.max_bytes = limit;
            let text = fetch.body.to_vec(512 << 10).unwrap_or_default();
            let robots = if fetch.result.is_ok() {
                Robots::parse(&String::from_utf8_lossy(&text))
            } else {
                Robots::default()
            };
            if robots != Robots::default() {
                self.say(&format!("robots rules read from {at}"));
            }
            self.robots.insert(key.clone(), robots);
        }
        self.robots[&key].allows(&path)
    }

    fn visit(&mut self, item: &Queued) -> io::Result<()> {
        // Every queued URL is a normal form that parsed; a journal edited
        // by hand may hold another.
        let Ok(url) = Url::parse(&item.url) else {
            self.summary.failed += 1;
            self.say(&format!("failed {}: not a url", rfc1738_access::show(item.url.as_bytes())));
            return Ok(());
        };
        if !self.robots_allow(&url) {
            self.summary.skipped += 1;
            self.say(&format!("disallowed by robots rules {}", item.url));
            return Ok(());
        }
        self.polite(&url);
        self.budget();
        let http = url.kind() == SchemeKind::Http;
        let fetch = capture::access(&item.url, &self.config.access, http, &mut self.sessions);
        if let Some(at) = self
            .last_access
            .get_mut(&(url.host().unwrap_or("").to_string(), url.effective_port().unwrap_or(0)))
        {
            // The wait counts from the end of the access.
            *at = Instant::now();
        }
        match url.kind() {
            SchemeKind::Gopher => self.gopher(item, &url, fetch),
            SchemeKind::Ftp => self.ftp(item, &url, fetch),
            SchemeKind::Http => self.http(item, &url, fetch),
            _ => self.news(item, &url, fetch),
        }
    }

    /// Whether the access gave something to archive; says why when not.
    fn archivable(&mut self, item: &Queued, fetch: &Fetch) -> Option<Option<&'static str>> {
        match &fetch.result {
            Ok(_) => Some(None),
            Err(e) => match capture::truncation(e) {
                Some(why) if !fetch.body.is_empty() => {
                    self.say(&format!("truncated {} ({why}): {e}", item.url));
                    Some(Some(why))
                }
                _ => {
                    self.summary.failed += 1;
                    self.say(&format!("failed {}: {e}", item.url));
                    None
                }
            },
        }
    }

    fn gopher(&mut self, item: &Queued, url: &Url, mut fetch: Fetch) -> io::Result<()> {
        let Some(truncated) = self.archivable(item, &fetch) else { return Ok(()) };
        let (gtype, plus) = url.gopher().map_or((b'1', false), |g| (g.gopher_type(), g.plus().is_some()));
        let is_menu = matches!(fetch.result, Ok(Fetched { content: Content::Menu { .. }, .. }))
            || matches!(gtype, b'1' | b'7') && !plus;
        let plus_request = capture::plus_request(url);
        let (links, content_type) = match &plus_request {
            _ if is_menu => {
                let menu = fetch.body.to_vec(MENU_LIMIT)?;
                (capture::menu_links(&menu, &self.config.search), capture::gopher_content_type(gtype))
            }
            // §3.4.6, §3.4.8: the attributes name the views, each asked
            // for as a Gopher+ client does, and typed as the view says.
            PlusRequest::Attributes => {
                let attributes = fetch.body.to_vec(MENU_LIMIT)?;
                (capture::view_links(url, &attributes), ATTRIBUTES)
            }
            PlusRequest::View(mime) => (Vec::new(), mime.as_str()),
            // An HTML item's absolute links: a selector has no hierarchy
            // to resolve a relative one against.
            PlusRequest::None if gtype == b'h' => {
                let page = fetch.body.to_vec(MENU_LIMIT)?;
                (crate::html::links(None, &page), capture::gopher_content_type(gtype))
            }
            _ => (Vec::new(), capture::gopher_content_type(gtype)),
        };
        let written = self.content(item, content_type, fetch.body, 0, truncated)?;
        // The metadata record: how the resource was asked for and where
        // it was found (docs/WARC.md).
        let mut fields = vec![
            ("gopher-type".to_string(), capture::escape_octets(&[gtype])),
            ("hopsFromSeed".to_string(), item.hops.to_string()),
        ];
        for line in fetch.talk.sent() {
            fields.push(("gopher-request".into(), capture::escape_octets(line)));
        }
        for line in fetch.talk.received() {
            fields.push(("gopher-plus-header".into(), capture::escape_octets(line)));
        }
        if let Some(via) = &item.via {
            fields.push(("via".into(), via.clone()));
        }
        for link in links.iter().flatten() {
            fields.push(("outlink".into(), link.clone()));
        }
        let body: String = fields.iter().map(|(n, v)| format!("{n}: {v}\r\n")).collect();
        self.metadata(item, &written, "application/warc-fields", body.into_bytes())?;
        // An item's attributes and views are the item: they count no hop.
        let hops = if plus_request == PlusRequest::Attributes { item.hops } else { item.hops + 1 };
        self.follow(item, hops, links)
    }

    fn ftp(&mut self, item: &Queued, url: &Url, mut fetch: Fetch) -> io::Result<()> {
        let listing = url.ftp().is_some_and(|f| f.commands().last().is_some_and(|c| c.verb == "NLST"));
        if let Err(AccessError::Refused { command, .. }) = &fetch.result {
            // §3.2.2: a URL names a file or, with an empty name, a
            // directory; NLST names both alike. A name RETR refuses may be
            // a directory: it is listed, once, as one.
            if command.starts_with("RETR") {
                if let Some(dir) = capture::ftp_as_directory(&item.url) {
                    self.say(&format!("not a file: {}; listing it as a directory", item.url));
                    self.discover(&dir, item.hops, item.via.clone())?;
                    return Ok(());
                }
            }
        }
        let Some(truncated) = self.archivable(item, &fetch) else { return Ok(()) };
        let links = if listing {
            let names = fetch.body.to_vec(MENU_LIMIT)?;
            capture::ftp_links(url, &names)
        } else {
            Vec::new()
        };
        let kind = if listing { "text/plain" } else { "application/octet-stream" };
        let written = self.content(item, kind, fetch.body, 0, truncated)?;
        self.metadata(item, &written, "text/x-ftp-control-conversation", fetch.talk.ftp_text())?;
        self.follow(item, item.hops + 1, links)
    }

    /// §3.3: the response as it crossed the wire, then the request it
    /// answered. A redirect is a response too; its Location is followed
    /// as a discovered URL.
    fn http(&mut self, item: &Queued, url: &Url, mut fetch: Fetch) -> io::Result<()> {
        let wire = fetch.wire.take().unwrap_or_default();
        let (request, response) = (wire.bytes(0, true), wire.bytes(0, false));
        let Some(head_end) = capture::http_body_start(&response) else {
            let why = fetch.result.err().map_or("no http response".to_string(), |e| e.to_string());
            self.summary.failed += 1;
            self.say(&format!("failed {}: {why}", item.url));
            return Ok(());
        };
        let got = (response.len() - head_end) as u64;
        let whole = capture::http_content_length(&response[..head_end]).is_none_or(|n| got >= n);
        // A page's links, as far as it came (a menu's are read so too).
        let links = match &fetch.result {
            Ok(_) | Err(AccessError::TooLarge { .. } | AccessError::Limit { .. })
                if capture::is_html(&response[..head_end]) =>
            {
                crate::html::links(Some(url), &fetch.body.to_vec(MENU_LIMIT)?)
            }
            _ => Vec::new(),
        };
        let (truncated, location) = match &fetch.result {
            Ok(_) => (None, None),
            // Answers the access does not read to their end (a redirect,
            // an error status): kept as far as they came.
            Err(AccessError::Redirect { location, .. }) => {
                ((!whole).then_some("unspecified"), Some(location.clone()))
            }
            Err(AccessError::Refused { .. }) => ((!whole).then_some("unspecified"), None),
            Err(e) => {
                let why = capture::truncation(e).unwrap_or("unspecified");
                self.say(&format!("truncated {} ({why}): {e}", item.url));
                (Some(why), None)
            }
        };
        let written = self.content(
            item,
            "application/http; msgtype=response",
            Spool::of(&response),
            head_end as u64,
            truncated,
        )?;
        self.linked(RecordType::Request, item, &written, "application/http; msgtype=request", request)?;
        if let Some(location) = location {
            self.discover(&location, item.hops + 1, Some(item.url.clone()))?;
        }
        self.follow(item, item.hops + 1, links)
    }

    /// §3.6, §3.7: an article as `message/news` with the CR LF line ends
    /// of the wire; a group's overview as text, its articles followed.
    fn news(&mut self, item: &Queued, url: &Url, mut fetch: Fetch) -> io::Result<()> {
        let Some(truncated) = self.archivable(item, &fetch) else { return Ok(()) };
        let text = fetch.body.to_vec(MENU_LIMIT)?;
        let article = matches!(fetch.result, Ok(Fetched { content: Content::Article, .. }))
            || url.nntp().is_some_and(|n| n.article().is_some())
            || url.news().is_some_and(|n| n.article().is_some());
        let (kind, body, links) = if article {
            ("message/news", capture::crlf_lines(&text), Vec::new())
        } else {
            ("text/plain; charset=utf-8", text.clone(), capture::overview_links(url, &text))
        };
        let written = self.content(item, kind, Spool::of(&body), 0, truncated)?;
        let mut fields = vec![("hopsFromSeed".to_string(), item.hops.to_string())];
        for (sent, line) in &fetch.talk.lines {
            let name = if *sent { "nntp-request" } else { "nntp-response" };
            fields.push((name.into(), capture::escape_octets(line)));
        }
        if let Some(via) = &item.via {
            fields.push(("via".into(), via.clone()));
        }
        let block: String = fields.iter().map(|(n, v)| format!("{n}: {v}\r\n")).collect();
        self.metadata(item, &written, "application/warc-fields", block.into_bytes())?;
        self.follow(item, item.hops + 1, links)
    }

    /// Writes the resource (an http response when the payload starts
    /// past 0, after the head), or a revisit when its payload was archived
    /// before; the record's id.
    fn content(
        &mut self,
        item: &Queued,
        content_type: &str,
        mut body: Spool,
        payload_from: u64,
        truncated: Option<&'static str>,
    ) -> io::Result<(String, Written)> {
        let digest = if payload_from == 0 { body.digest() } else { body.digest_from(payload_from)? };
        let http = payload_from > 0;
        let first = self.payloads.get(&digest).cloned();
        let mut record = match (&first, truncated) {
            // §6.7.2: a revisit of an identical payload has no block.
            // §6.7.2: a revisit of an identical payload keeps the
            // protocol's head (an http response's), no payload.
            (Some((target, date, id)), None) => {
                self.summary.revisits += 1;
                let mut r = Record::new(RecordType::Revisit)
                    .field("WARC-Target-URI", &item.url)
                    .field("WARC-Profile", IDENTICAL_PAYLOAD)
                    .field("WARC-Refers-To-Target-URI", target)
                    .field("WARC-Refers-To-Date", date);
                // An earlier run's index (--dedup-cdxj) names no record id.
                if !id.is_empty() {
                    r = r.field("WARC-Refers-To", id);
                }
                r.field("WARC-Payload-Digest", &digest)
                    .field("Content-Type", content_type)
                    .block(Spool::of(&body.to_vec(payload_from)?))
            }
            _ => {
                let kind = if http { RecordType::Response } else { RecordType::Resource };
                let mut r =
                    Record::new(kind).field("WARC-Target-URI", &item.url).field("Content-Type", content_type);
                if let Some(why) = truncated {
                    r = r.field("WARC-Truncated", why);
                }
                r.block = std::mem::take(&mut body);
                r.payload_from = Some(payload_from);
                r
            }
        };
        let written = self.writer.write(&mut record)?;
        if first.is_none() && truncated.is_none() {
            if let Some(j) = &mut self.journal {
                j.payload(&digest, &record.date, &record.id, &item.url)?;
            }
            self.payloads.insert(digest, (item.url.clone(), record.date.clone(), record.id.clone()));
        }
        self.summary.captured += 1;
        self.summary.truncated += u64::from(truncated.is_some());
        let bytes = record.block.len().max(body.len()).saturating_sub(payload_from);
        self.summary.bytes += bytes;
        let how = if record.kind == RecordType::Revisit { "revisit" } else { "captured" };
        self.say(&format!("{how} {} ({bytes} bytes)", item.url));
        Ok((record.id, written))
    }

    fn metadata(
        &mut self,
        item: &Queued,
        of: &(String, Written),
        content_type: &str,
        body: Vec<u8>,
    ) -> io::Result<()> {
        self.linked(RecordType::Metadata, item, of, content_type, body)
    }

    /// A record linked to `of` by `WARC-Concurrent-To` (§5.7).
    fn linked(
        &mut self,
        kind: RecordType,
        item: &Queued,
        of: &(String, Written),
        content_type: &str,
        body: Vec<u8>,
    ) -> io::Result<()> {
        let mut record = Record::new(kind)
            .field("WARC-Target-URI", &item.url)
            .field("WARC-Concurrent-To", &of.0)
            .field("Content-Type", content_type)
            .block(Spool::of(&body));
        self.writer.write(&mut record)?;
        Ok(())
    }

    /// Discovers the URLs `item` names, each `hops` from its seed.
    fn follow(&mut self, item: &Queued, hops: u32, links: Vec<Link>) -> io::Result<()> {
        for link in links {
            match link {
                Ok(url) => self.discover(&url, hops, Some(item.url.clone()))?,
                // Said once: a menu of a million such lines is one line of log.
                Err(why) if self.seen.insert(format!("refused {why}")) => {
                    self.summary.refused += 1;
                    self.say(&format!("refused (from {}): {why}", item.url));
                }
                Err(_) => {}
            }
        }
        Ok(())
    }

    /// The checks every discovered URL passes before it is queued: §6
    /// first (a refused URL is logged, never connected to), then the
    /// normal form against the set of URLs seen, scope and depth.
    fn discover(&mut self, text: &str, hops: u32, via: Option<String>) -> io::Result<()> {
        let from = via.as_deref().unwrap_or("a seed");
        let url = match check(text, &self.config.access) {
            Ok(url) => url,
            Err(why) => {
                if self.seen.insert(format!("refused {text}")) {
                    self.summary.refused += 1;
                    let shown = rfc1738_access::show(text.as_bytes());
                    self.say(&format!("refused {shown} (from {from}): {why}"));
                }
                return Ok(());
            }
        };
        let normal = url.as_str().to_string();
        if !self.seen.insert(normal.clone()) {
            return Ok(());
        }
        let place = Place::of(&url);
        if !self.seeds.iter().any(|s| place.within(s, self.config.scope)) {
            self.summary.skipped += 1;
            self.say(&format!("out of scope {normal} (from {from})"));
            return Ok(());
        }
        if hops > self.config.depth {
            self.summary.skipped += 1;
            self.say(&format!("past the depth {normal} (from {from})"));
            return Ok(());
        }
        if let Some(j) = &mut self.journal {
            j.queued(hops, &normal, via.as_deref())?;
        }
        self.queue.push_back(Queued { url: normal, hops, via });
        Ok(())
    }
}

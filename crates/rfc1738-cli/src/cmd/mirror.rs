//! `rfc1738 mirror URL... --warc NAME`: archive what URLs locate, and
//! what their menus, listings and pages name, into WARC files.
//!
//! The crawl is the `rfc1738-warc` crate; this module wires arguments,
//! the log on stderr and exit codes: 0 every URL archived whole, 1 some
//! URL refused, failed or cut short (the run goes on past each), 2 a
//! usage or I/O error.

use crate::diag::escape as show;
use rfc1738_access::Options;
use rfc1738_warc::{
    cdxj_index, plan_frontier, read_cdxj, read_heads, write_cdxj, write_wacz, Config, Crawl, Journal, Page,
    Progress, Scope, WarcWriter,
};
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// The examples at the end of `mirror --help`.
pub const EXAMPLES: &str = "\
Examples:
  rfc1738 mirror --warc gopher-dom gopher://gopher.dom/
      a gopher server, menu by menu
  rfc1738 mirror --warc pub --depth 3 ftp://ftp.dom/pub/
      an ftp tree: files, listings, conversations
  rfc1738 mirror --plan gopher://gopher.dom/ ftp://ftp.dom/
      the seeds as checked, without connecting";

/// Arguments of `mirror`.
#[derive(clap::Args, Debug)]
pub struct MirrorArgs {
    /// The URLs to start from (gopher, ftp, http, news, nntp).
    #[arg(required = true)]
    urls: Vec<String>,
    /// Write NAME-00000.warc.gz, NAME-00001.warc.gz, ... (NAME may hold a directory).
    #[arg(long, value_name = "NAME", required_unless_present = "plan")]
    warc: Option<PathBuf>,
    /// Print the frontier the crawl starts with, each seed checked, without connecting.
    #[arg(long)]
    plan: bool,
    /// Go on with the interrupted run of --warc NAME, from NAME.journal.
    ///
    /// Go on with the interrupted run of --warc NAME, from NAME.journal: the
    /// last WARC file cut at the end of the last URL done, the queue as it stood.
    #[arg(long, requires = "warc")]
    resume: bool,
    /// Write a CDXJ index of the WARC files to FILE at the end.
    ///
    /// Write a CDXJ index of the WARC files to FILE at the end (sorted; an
    /// http key is its SURT, any other keeps its scheme: gopher://(...)).
    #[arg(long, value_name = "FILE", requires = "warc")]
    cdxj: Option<PathBuf>,
    /// Write a WACZ package of the run to FILE at the end.
    ///
    /// Write a WACZ package (WACZ 1.1.1) of the WARC files, their index and
    /// the seeds as pages to FILE at the end.
    #[arg(long, value_name = "FILE", requires = "warc")]
    wacz: Option<PathBuf>,
    /// An earlier run's CDXJ index: a payload it holds is archived as a revisit of it.
    #[arg(long, value_name = "FILE", requires = "warc")]
    dedup_cdxj: Option<PathBuf>,
    /// Which discovered URLs to follow: `prefix`, `host` or `any`.
    ///
    /// Which discovered URLs to follow: `prefix` (the seed's scheme, host,
    /// port and path prefix), `host` (the seed's host) or `any`.
    #[arg(long, value_name = "SCOPE", default_value = "prefix", value_parser = scope)]
    scope: Scope,
    /// The most hops from a seed.
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u32).range(0..=1000))]
    depth: u32,
    /// The most URLs accessed.
    #[arg(long, value_name = "N", default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    max_items: u64,
    /// The most content bytes archived in all.
    #[arg(long, value_name = "BYTES", default_value_t = 10 << 30, value_parser = crate::flags::max_bytes)]
    max_total_bytes: u64,
    /// Seconds allowed for the whole run.
    #[arg(long, value_name = "SECS", default_value_t = 86_400, value_parser = crate::flags::seconds)]
    max_run_time: u64,
    /// Seconds between two accesses to the same host and port (one connection at a time).
    #[arg(long, value_name = "SECS", default_value = "1", value_parser = wait)]
    wait: Duration,
    /// A search term for gopher type 7 items (repeatable); without one, searches are not followed.
    #[arg(long, value_name = "TERM")]
    search: Vec<String>,
    /// Do not read robots rules (http's /robots.txt, the robots.txt selector of a gopher server).
    #[arg(long)]
    no_robots: bool,
    /// Begin a new WARC file past this size.
    #[arg(long, value_name = "BYTES", default_value_t = 1 << 30, value_parser = crate::flags::max_bytes)]
    max_warc_size: u64,
    /// The most content bytes of one URL; past it the record is kept, truncated.
    #[arg(long, value_name = "BYTES", default_value_t = 1 << 30, value_parser = crate::flags::max_bytes)]
    max_bytes: u64,
    /// Seconds allowed for connecting and for each read or write.
    #[arg(long, value_name = "SECS", default_value_t = 30, value_parser = crate::flags::seconds)]
    timeout: u64,
    /// Seconds allowed for one URL's access.
    #[arg(long, value_name = "SECS", default_value_t = 600, value_parser = crate::flags::seconds)]
    max_time: u64,
    /// Connect to an explicit port below 1024 that is not the scheme's default (RFC 1738 §6).
    #[arg(long)]
    allow_privileged_port: bool,
    /// The e-mail address sent as the anonymous ftp password (default: $EMAIL, else $USER@localhost).
    #[arg(long, value_name = "ADDRESS")]
    email: Option<String>,
    /// The NNTP server for news: URLs [default: $NNTPSERVER].
    #[arg(long, value_name = "HOST[:PORT]")]
    news_server: Option<String>,
}

fn scope(s: &str) -> Result<Scope, String> {
    match s {
        "prefix" => Ok(Scope::Prefix),
        "host" => Ok(Scope::Host),
        "any" => Ok(Scope::Any),
        _ => Err("the scope is prefix, host or any".into()),
    }
}

fn wait(s: &str) -> Result<Duration, String> {
    let secs: f64 = s.parse().map_err(|_| "not a number of seconds".to_string())?;
    if !(0.0..=3600.0).contains(&secs) {
        return Err("the wait is from 0 to 3600 seconds".into());
    }
    Ok(Duration::from_secs_f64(secs))
}

/// Runs `mirror`.
pub fn run(args: MirrorArgs) -> ExitCode {
    let config = match config(&args) {
        Ok(c) => c,
        Err(msg) => {
            let _ = writeln!(io::stderr(), "rfc1738: mirror: {}", show(msg.as_bytes()));
            return ExitCode::from(2);
        }
    };
    if args.plan {
        let mut out = io::stdout().lock();
        let mut refused = false;
        for seed in plan_frontier(&config) {
            let line = match seed {
                Ok(q) => format!("queue {}", q.url),
                Err(e) => {
                    refused = true;
                    format!("refuse {}", show(e.as_bytes()))
                }
            };
            if let Err(e) = writeln!(out, "{line}") {
                return if e.kind() == io::ErrorKind::BrokenPipe { ExitCode::SUCCESS } else { fail(&e) };
            }
        }
        return ExitCode::from(u8::from(refused));
    }
    let Some(name) = &args.warc else { return ExitCode::from(2) };
    let seeds: Vec<String> = plan_frontier(&config).into_iter().flatten().map(|q| q.url).collect();
    let info = vec![
        ("software".to_string(), format!("rfc1738-mirror/{}", env!("CARGO_PKG_VERSION"))),
        ("format".to_string(), "WARC File Format 1.1".to_string()),
        (
            "conformsTo".to_string(),
            "http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/".to_string(),
        ),
        ("description".to_string(), format!("rfc1738 mirror {}", args.urls.join(" "))),
    ];
    let mut journal_path = name.clone().into_os_string();
    journal_path.push(".journal");
    let journal_path = PathBuf::from(journal_path);
    // On a terminal, a status line under the log: each log line first
    // clears it, and the next URL done draws it again.
    let terminal = io::stderr().is_terminal();
    let status = std::rc::Rc::new(std::cell::Cell::new(false));
    let shown = status.clone();
    let say = move |line: &str| {
        let clear = if shown.replace(false) { "\r\x1b[K" } else { "" };
        let _ = writeln!(io::stderr(), "{clear}rfc1738: mirror: {}", show(line.as_bytes()));
    };
    let drawn = status.clone();
    let draw = move |p: &Progress| {
        if terminal {
            let _ = write!(io::stderr(), "\r\x1b[K{} done, {} queued, {} bytes", p.done, p.queued, p.bytes);
            drawn.set(true);
        }
    };
    let (mut writer, journal) = if args.resume {
        let resumed = Journal::resume(&journal_path).and_then(|(journal, resumed)| {
            let writer = WarcWriter::continue_run(name, args.max_warc_size, info, resumed.position)?;
            Ok((writer, (journal, Some(resumed))))
        });
        match resumed {
            Ok(r) => r,
            Err(e) => return fail(&e),
        }
    } else {
        let writer = WarcWriter::new(name, args.max_warc_size, info);
        match writer.check_new().and_then(|()| Journal::create(&journal_path)) {
            Ok(j) => (writer, (j, None)),
            Err(e) => return fail(&e),
        }
    };
    let known = match &args.dedup_cdxj {
        Some(path) => match read_cdxj(path) {
            Ok(k) => k,
            Err(e) => return fail(&e),
        },
        None => Vec::new(),
    };
    let crawl = Crawl::new(config, &mut writer, say).known_payloads(known).progress(draw);
    let crawl = match journal {
        (journal, Some(resumed)) => Ok(crawl.resume(journal, resumed)),
        (journal, None) => crawl.journal(journal),
    };
    let summary = match crawl.and_then(Crawl::run) {
        Ok(s) => s,
        Err(e) => return fail(&e),
    };
    if status.get() {
        let _ = write!(io::stderr(), "\r\x1b[K");
    }
    let files = match writer.finish() {
        Ok(f) => f,
        Err(e) => return fail(&e),
    };
    // Every file of NAME, those of an interrupted run too.
    let all: Vec<PathBuf> = (0..)
        .map(|i| name.with_file_name(format!("{}-{i:05}.warc.gz", file_name(name))))
        .take_while(|p| p.exists())
        .collect();
    if let Some(path) = &args.cdxj {
        let written = cdxj_index(&all)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))
            .and_then(|lines| write_cdxj(path, &lines));
        if let Err(e) = written {
            return fail(&e);
        }
    }
    if let Some(path) = &args.wacz {
        if let Err(e) = wacz(path, &all, &seeds, &args.urls.join(" ")) {
            return fail(&e);
        }
    }
    let mut out = io::stdout().lock();
    for f in files {
        let _ = writeln!(out, "{}", f.display());
    }
    let whole = summary.refused == 0 && summary.failed == 0 && summary.truncated == 0;
    ExitCode::from(u8::from(!whole))
}

fn config(args: &MirrorArgs) -> Result<Config, String> {
    let news_server = match args.news_server.clone().or_else(|| std::env::var("NNTPSERVER").ok()) {
        Some(s) => Some(rfc1738_access::news_server(&s).map_err(|e| e.to_string())?),
        None => None,
    };
    // §3.2.1: the password of an anonymous login is the end user's e-mail
    // address; an empty $EMAIL says none.
    let email =
        args.email.clone().or_else(|| std::env::var("EMAIL").ok().filter(|e| !e.is_empty())).unwrap_or_else(
            || format!("{}@localhost", std::env::var("USER").unwrap_or_else(|_| "anonymous".into())),
        );
    let access = Options {
        io_timeout: Duration::from_secs(args.timeout.max(1)),
        total_timeout: Duration::from_secs(args.max_time.max(1)),
        max_bytes: args.max_bytes,
        allow_privileged_ports: args.allow_privileged_port,
        email,
        news_server,
        ..Options::default()
    };
    Ok(Config {
        seeds: args.urls.clone(),
        scope: args.scope,
        depth: args.depth,
        max_items: args.max_items,
        max_total_bytes: args.max_total_bytes,
        max_run_time: Duration::from_secs(args.max_run_time.max(1)),
        wait: args.wait,
        search: args.search.clone(),
        robots: !args.no_robots,
        access,
    })
}

/// The WACZ of `files`: the seeds archived are its pages.
fn wacz(path: &std::path::Path, files: &[PathBuf], seeds: &[String], title: &str) -> io::Result<()> {
    let mut pages = Vec::new();
    for f in files {
        let heads = read_heads(f).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
        for h in heads {
            let target = h.get("WARC-Target-URI").unwrap_or("");
            let archived = matches!(h.get("WARC-Type"), Some("resource" | "response"));
            if archived && seeds.iter().any(|s| s == target) && !pages.iter().any(|p: &Page| p.url == target)
            {
                pages.push(Page {
                    url: target.to_string(),
                    date: h.get("WARC-Date").unwrap_or("").to_string(),
                });
            }
        }
    }
    write_wacz(path, files, &pages, title)
}

fn file_name(p: &std::path::Path) -> String {
    p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

fn fail(e: &io::Error) -> ExitCode {
    let _ = writeln!(io::stderr(), "rfc1738: mirror: {}", show(e.to_string().as_bytes()));
    ExitCode::from(2)
}

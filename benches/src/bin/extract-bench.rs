//! Finding URLs in running text: `rfc1738`'s extractor beside `linkify`.
//!
//! `cargo run --release -p rfc1738-bench --bin extract-bench [-- --quick]`
//! (the `extract` feature, on by default, brings in `rfc1738`'s extractor;
//! see `src/subject.rs`).

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Duration;

use rfc1738_bench::corpus::{self, CorpusFile};
use rfc1738_bench::rng::Rng;
use rfc1738_bench::stats::summarize;
use rfc1738_bench::table::{Align, Table};
use rfc1738_bench::{cli, machine, reps_for, schemes, sig3, subject, time};

const ABOUT: &str = "Finds the URLs in four texts (prose without URLs, prose with sparse URLs, \
the RFC 1738 Appendix repeated, URL-dense text) with rfc1738's extractor and with linkify.";

/// Size of each text in a full run, and in a `--quick` run.
const TEXT_BYTES: usize = 1 << 20;
const QUICK_TEXT_BYTES: usize = 32 << 10;
const ROUNDS: usize = 15;
const QUICK_ROUNDS: usize = 3;
const SEED: u64 = 1994;
/// Target duration of one timed sample; a fast finder searches the text
/// several times per sample so the clock's resolution does not matter.
const SAMPLE: Duration = Duration::from_millis(2);

/// RFC 1738, Appendix "Recommendations for URLs in Context", whole.
const APPENDIX: &str = "\
URIs, including URLs, are intended to be transmitted through
protocols which provide a context for their interpretation.
In some cases, it will be necessary to distinguish URLs from other
possible data structures in a syntactic structure. In this case, is
recommended that URLs be preceeded with a prefix consisting of the
characters \"URL:\". For example, this prefix may be used to
distinguish URLs from other kinds of URIs.
In addition, there are many occasions when URLs are included in other
kinds of text; examples include electronic mail, USENET news
messages, or printed on paper. In such cases, it is convenient to
have a separate syntactic wrapper that delimits the URL and separates
it from the rest of the text, and in particular from punctuation
marks that might be mistaken for part of the URL. For this purpose,
is recommended that angle brackets (\"<\" and \">\"), along with the
prefix \"URL:\", be used to delimit the boundaries of the URL. This
wrapper does not form part of the URL and should not be used in
contexts in which delimiters are already specified.
In the case where a fragment/anchor identifier is associated with a
URL (following a \"#\"), the identifier would be placed within the
brackets as well.
In some cases, extra whitespace (spaces, linebreaks, tabs, etc.) may
need to be added to break long URLs across lines. The whitespace
should be ignored when extracting the URL.
No whitespace should be introduced after a hyphen (\"-\") character.
Because some typesetters and printers may (erroneously) introduce a
hyphen at the end of line when breaking a line, the interpreter of a
URL containing a line break immediately after a hyphen should ignore
all unencoded whitespace around the line break, and should be aware
that the hyphen may or may not actually be part of the URL.
Examples:
Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;
type=d> but you can probably pick it up from <URL:ftp://ds.in
ternic.net/rfc>. Note the warning in <URL:http://ds.internic.
net/instructions/overview.html#WARNING>.
";

const WORDS: &[&str] = &[
    "the",
    "of",
    "and",
    "a",
    "to",
    "in",
    "is",
    "that",
    "for",
    "it",
    "as",
    "with",
    "be",
    "on",
    "not",
    "this",
    "by",
    "are",
    "or",
    "from",
    "which",
    "an",
    "may",
    "some",
    "other",
    "network",
    "resource",
    "protocol",
    "document",
    "server",
    "client",
    "access",
    "name",
    "information",
    "address",
    "host",
    "file",
    "mail",
    "message",
    "archive",
    "directory",
    "system",
    "user",
    "reference",
    "locator",
    "scheme",
    "syntax",
    "section",
    "example",
    "character",
    "encoding",
];

/// One text to search, and how many URLs were planted in it.
struct Text {
    name: &'static str,
    body: String,
    planted: usize,
}

/// Counts the URLs found in a text; `None` when the finder is not built in.
type FindFn = dyn Fn(&str) -> Option<usize>;

/// One way of finding URLs: returns how many it found, or `None` when it is
/// not available in this build.
struct Finder {
    name: &'static str,
    run: Box<FindFn>,
}

fn main() -> ExitCode {
    let options = match cli::parse("extract-bench", ABOUT) {
        Ok(options) => options,
        Err(code) => return code,
    };
    let size = if options.quick { QUICK_TEXT_BYTES } else { TEXT_BYTES };
    let rounds = options.rounds.unwrap_or(if options.quick { QUICK_ROUNDS } else { ROUNDS });
    let pool = url_pool(&options.corpus);
    let texts = texts(&pool, size);

    let mut linkify = linkify::LinkFinder::new();
    linkify.kinds(&[linkify::LinkKind::Url]);
    let finders: Vec<Finder> = [
        Finder { name: "rfc1738", run: Box::new(subject::extract) },
        Finder {
            name: "linkify",
            run: Box::new(move |text| Some(linkify.links(text).map(std::hint::black_box).count())),
        },
    ]
    .into_iter()
    .filter(|f| options.selects(f.name))
    .collect();

    println!("extract-bench: {}", machine());
    println!(
        "{rounds} rounds{}, texts of {size} bytes, URL pool of {} URLs",
        if options.quick { " (--quick)" } else { "" },
        pool.len()
    );
    if !cfg!(feature = "extract") {
        println!("rfc1738: not measured (built without the `extract` feature)");
    }
    println!();

    let mut table = Table::new(&[
        ("text", Align::Left),
        ("planted", Align::Right),
        ("finder", Align::Left),
        ("found", Align::Right),
        ("µs/text", Align::Right),
        ("spread", Align::Right),
        ("MB/s", Align::Right),
        ("× rfc1738", Align::Right),
    ]);
    for text in &texts {
        let reps: Vec<u32> = finders
            .iter()
            .map(|finder| {
                reps_for(SAMPLE, || {
                    black_box((finder.run)(&text.body));
                })
            })
            .collect();
        let mut samples = vec![Vec::with_capacity(rounds); finders.len()];
        let mut found = vec![None; finders.len()];
        for round in 0..=rounds {
            for k in 0..finders.len() {
                let f = (k + round) % finders.len();
                let (elapsed, n) = time(|| {
                    let mut n = None;
                    for _ in 0..reps[f] {
                        n = black_box((finders[f].run)(black_box(&text.body)));
                    }
                    n
                });
                found[f] = n;
                if round > 0 && n.is_some() {
                    samples[f].push(elapsed.as_nanos() as f64 / f64::from(reps[f]));
                }
            }
        }
        let medians: Vec<Option<f64>> =
            samples.iter().map(|s| (!s.is_empty()).then(|| summarize(s).median)).collect();
        for (f, finder) in finders.iter().enumerate() {
            let (us, spread, mbs) = match medians[f] {
                Some(ns) => (
                    sig3(ns / 1e3),
                    format!("{:.1}%", summarize(&samples[f]).spread * 100.0),
                    sig3(text.body.len() as f64 / ns * 1e3),
                ),
                None => ("n/a".into(), "n/a".into(), "n/a".into()),
            };
            let reference = finders.iter().position(|f| f.name == "rfc1738").and_then(|r| medians[r]);
            let ratio = match (medians[f], reference) {
                (Some(ns), Some(r)) => format!("{:.2}", ns / r),
                _ => "n/a".into(),
            };
            table.row(vec![
                text.name.to_owned(),
                text.planted.to_string(),
                finder.name.to_owned(),
                found[f].map_or_else(|| "n/a".into(), |n| n.to_string()),
                us,
                spread,
                mbs,
                ratio,
            ]);
        }
    }
    print!("{}", table.render(options.markdown));
    ExitCode::SUCCESS
}

/// URLs to plant in the texts: the generated RFC 1738 scheme corpus, plus the
/// `.txt` lists of the corpus directory when it is there.
fn url_pool(corpus_dir: &std::path::Path) -> Vec<String> {
    let mut files = vec![CorpusFile::from_text(schemes::FILE_NAME, schemes::corpus())];
    if let Ok(more) = corpus::read_dir(corpus_dir) {
        files.extend(more.into_iter().filter(|f| f.name.ends_with(".txt")));
    }
    files
        .iter()
        .flat_map(CorpusFile::urls)
        .filter(|u| !u.is_empty() && !u.contains(char::is_whitespace))
        .map(str::to_owned)
        .collect()
}

/// The four texts, each about `size` bytes.
fn texts(pool: &[String], size: usize) -> Vec<Text> {
    let mut rng = Rng::new(SEED);
    let plain = Text { name: "prose, no URLs", body: prose(&mut rng, size, None), planted: 0 };
    let mut planted = 0;
    let sparse_body = prose(&mut rng, size, Some((pool, &mut planted)));
    let sparse = Text { name: "prose, sparse URLs", body: sparse_body, planted };
    let copies = size.div_ceil(APPENDIX.len());
    let appendix = Text {
        name: "RFC 1738 Appendix",
        body: APPENDIX.repeat(copies),
        // Each copy holds the three examples in <URL:...> wrappers.
        planted: 3 * copies,
    };
    let mut dense_body = String::with_capacity(size + 256);
    let mut dense_planted = 0;
    while dense_body.len() < size {
        let url = rng.pick(pool);
        match rng.below(4) {
            0 => dense_body += &format!("<URL:{url}> "),
            1 => dense_body += &format!("({url}), "),
            2 => dense_body += &format!("{url}\n"),
            _ => dense_body += &format!("{url} "),
        }
        dense_planted += 1;
    }
    let dense = Text { name: "URL-dense", body: dense_body, planted: dense_planted };
    vec![plain, sparse, appendix, dense]
}

/// Sentences of common words, about `size` bytes; with a pool, one URL in
/// about every 60 words, counted into the pool's counter.
fn prose(rng: &mut Rng, size: usize, mut urls: Option<(&[String], &mut usize)>) -> String {
    let mut text = String::with_capacity(size + 256);
    let mut in_sentence = 0;
    while text.len() < size {
        let word = *rng.pick(WORDS);
        if in_sentence == 0 {
            let mut chars = word.chars();
            let first = chars.next().map(|c| c.to_ascii_uppercase()).unwrap_or(' ');
            text.push(first);
            text.push_str(chars.as_str());
        } else {
            text.push_str(word);
        }
        in_sentence += 1;
        if let Some((pool, count)) = urls.as_mut() {
            if rng.chance(2) {
                // §Appendix: a URL in text may come bare or as <URL:...>.
                let wrapped = rng.chance(50);
                text.push_str(if wrapped { " <URL:" } else { " at " });
                let url: &String = rng.pick(pool);
                text.push_str(url);
                if wrapped {
                    text.push('>');
                }
                **count += 1;
            }
        }
        if in_sentence > rng.range(6, 20) {
            text.push_str(if rng.chance(20) { ".\n" } else { ". " });
            in_sentence = 0;
        } else if rng.chance(8) {
            text.push_str(", ");
        } else {
            text.push(' ');
        }
    }
    text
}

//! Parses every URL of every corpus file with every parser, interleaved, and
//! prints one table per file plus a summary.
//!
//! `cargo run --release -p rfc1738-bench --bin parse-bench [-- --quick] [--corpus DIR]`

use std::process::ExitCode;

use rfc1738_bench::corpus::{self, CorpusFile};
use rfc1738_bench::parsers::{self, Parser};
use rfc1738_bench::stats::{summarize, Summary};
use rfc1738_bench::table::{Align, Table};
use rfc1738_bench::{cli, machine, schemes, sig3, time};

const ABOUT: &str = "Parses every line of every .txt/.csv file in the corpus directory (and the \
generated RFC 1738 scheme corpus) with rfc1738 and its peers; prints ns per URL, spread, MB/s, \
accepted count and the ratio to rfc1738.";

/// Rounds in a full run; each round times every parser once on every file.
const ROUNDS: usize = 21;
/// Rounds, and URLs kept per file, in a `--quick` run.
const QUICK_ROUNDS: usize = 3;
const QUICK_URLS: usize = 2000;

/// The measurements of one parser on one file.
struct Cell {
    /// Nanoseconds of each timed pass over the whole file, in round order.
    pass_ns: Vec<f64>,
    accepted: usize,
}

fn main() -> ExitCode {
    let options = match cli::parse("parse-bench", ABOUT) {
        Ok(options) => options,
        Err(code) => return code,
    };
    let mut files = match corpus::read_dir(&options.corpus) {
        Ok(files) => files,
        Err(e) => {
            eprintln!(
                "parse-bench: {}: {e} (only the generated corpus is measured)",
                options.corpus.display()
            );
            Vec::new()
        }
    };
    files.push(CorpusFile::from_text(schemes::FILE_NAME, schemes::corpus()));
    let rounds = options.rounds.unwrap_or(if options.quick { QUICK_ROUNDS } else { ROUNDS });
    if options.quick {
        files.iter_mut().for_each(|f| f.truncate(QUICK_URLS));
    }
    let inputs: Vec<Vec<&str>> = files.iter().map(CorpusFile::urls).collect();
    let parsers: Vec<Parser> = parsers::all().into_iter().filter(|p| options.selects(p.name)).collect();

    println!("parse-bench: {}", machine());
    println!(
        "{rounds} rounds{}, corpus {}",
        if options.quick { " (--quick)" } else { "" },
        options.corpus.display()
    );
    println!();

    if parsers.iter().filter(|p| p.name.starts_with("rfc1738")).count() == 2 {
        check_parse_matches_validate(&inputs);
    }
    let buffers: Vec<(&str, &[std::ops::Range<usize>])> =
        files.iter().map(CorpusFile::text_and_spans).collect();
    let cells = measure(&parsers, &inputs, &buffers, rounds);

    for (f, file) in files.iter().enumerate() {
        let urls = inputs[f].len();
        let bytes: usize = inputs[f].iter().map(|u| u.len()).sum();
        println!(
            "{}: {urls} URLs, {bytes} bytes, {:.1} bytes per URL",
            file.name,
            bytes as f64 / urls.max(1) as f64
        );
        print!("{}", file_table(&parsers, &cells[f], urls, bytes).render(options.markdown));
        println!();
    }
    let total_urls: usize = inputs.iter().map(Vec::len).sum();
    let total_bytes: usize = inputs.iter().flatten().map(|u| u.len()).sum();
    println!("all files: {total_urls} URLs, {total_bytes} bytes (each round: one pass over every file)");
    print!("{}", summary_table(&parsers, &cells, total_urls, total_bytes).render(options.markdown));
    println!();
    println!("time relative to {} (peer / {0}; above 1 = {0} is faster)", parsers::REFERENCE);
    print!("{}", ratio_table(&parsers, &files, &cells).render(options.markdown));
    ExitCode::SUCCESS
}

/// `validate` promises the same verdict as `parse`; a benchmark that
/// compared the two on different work would mislead, so say so loudly.
fn check_parse_matches_validate(inputs: &[Vec<&str>]) {
    let differ = inputs
        .iter()
        .flatten()
        .filter(|u| rfc1738_bench::subject::parse(u) != rfc1738_bench::subject::validate(u))
        .count();
    if differ > 0 {
        eprintln!("parse-bench: warning: rfc1738 parse and validate disagree on {differ} inputs");
    }
}

/// Times every parser on every file `rounds` times, after one untimed warm-up
/// round. Within a round the parser order rotates, so no parser always runs
/// first (cold) or right after the same neighbour.
fn measure(
    parsers: &[Parser],
    inputs: &[Vec<&str>],
    buffers: &[(&str, &[std::ops::Range<usize>])],
    rounds: usize,
) -> Vec<Vec<Cell>> {
    let mut cells: Vec<Vec<Cell>> = inputs
        .iter()
        .map(|_| parsers.iter().map(|_| Cell { pass_ns: Vec::with_capacity(rounds), accepted: 0 }).collect())
        .collect();
    for round in 0..=rounds {
        for (f, urls) in inputs.iter().enumerate() {
            for k in 0..parsers.len() {
                let p = (k + round) % parsers.len();
                let (elapsed, accepted) = match parsers[p].batch {
                    Some(batch) => time(|| batch(buffers[f].0, buffers[f].1)),
                    None => time(|| (parsers[p].run)(urls)),
                };
                let cell = &mut cells[f][p];
                cell.accepted = accepted;
                if round > 0 {
                    cell.pass_ns.push(elapsed.as_nanos() as f64);
                }
            }
        }
    }
    cells
}

const COLUMNS: &[(&str, Align)] = &[
    ("parser", Align::Left),
    ("ns/URL", Align::Right),
    ("spread", Align::Right),
    ("MB/s", Align::Right),
    ("accepted", Align::Right),
    ("× rfc1738", Align::Right),
];

/// One row per parser, from each parser's per-round pass times over `urls`
/// URLs of `bytes` bytes in all.
fn table(parsers: &[Parser], passes: &[(Summary, usize)], urls: usize, bytes: usize) -> Table {
    let mut table = Table::new(COLUMNS);
    let per_url = |s: &Summary| s.median / urls.max(1) as f64;
    let reference = parsers.iter().position(|p| p.name == parsers::REFERENCE).map(|r| per_url(&passes[r].0));
    for (parser, (summary, accepted)) in parsers.iter().zip(passes) {
        let ns = per_url(summary);
        table.row(vec![
            parser.name.to_owned(),
            sig3(ns),
            format!("{:.1}%", summary.spread * 100.0),
            sig3(bytes as f64 / summary.median * 1e3),
            format!("{accepted} ({:.1}%)", 100.0 * *accepted as f64 / urls.max(1) as f64),
            reference.map_or_else(|| "n/a".to_owned(), |r| format!("{:.2}", ns / r)),
        ]);
    }
    table
}

fn file_table(parsers: &[Parser], cells: &[Cell], urls: usize, bytes: usize) -> Table {
    let passes: Vec<(Summary, usize)> = cells.iter().map(|c| (summarize(&c.pass_ns), c.accepted)).collect();
    table(parsers, &passes, urls, bytes)
}

/// The whole corpus as one input: in each round, the sum over files of that
/// round's pass times.
fn summary_table(parsers: &[Parser], cells: &[Vec<Cell>], urls: usize, bytes: usize) -> Table {
    let passes: Vec<(Summary, usize)> = (0..parsers.len())
        .map(|p| {
            let rounds = cells[0][p].pass_ns.len();
            let totals: Vec<f64> =
                (0..rounds).map(|r| cells.iter().map(|per_file| per_file[p].pass_ns[r]).sum()).collect();
            let accepted = cells.iter().map(|per_file| per_file[p].accepted).sum();
            (summarize(&totals), accepted)
        })
        .collect();
    table(parsers, &passes, urls, bytes)
}

/// Each parser's median time over `rfc1738`'s, per file and for all files.
fn ratio_table(parsers: &[Parser], files: &[CorpusFile], cells: &[Vec<Cell>]) -> Table {
    let mut columns = vec![("parser", Align::Left)];
    columns.extend(files.iter().map(|f| (f.name.as_str(), Align::Right)));
    columns.push(("all files", Align::Right));
    let mut table = Table::new(&columns);
    let Some(r) = parsers.iter().position(|p| p.name == parsers::REFERENCE) else {
        return table;
    };
    let median = |f: usize, p: usize| summarize(&cells[f][p].pass_ns).median;
    for (p, parser) in parsers.iter().enumerate() {
        let mut row = vec![parser.name.to_owned()];
        row.extend((0..files.len()).map(|f| format!("{:.2}", median(f, p) / median(f, r))));
        let all = |p: usize| (0..files.len()).map(|f| median(f, p)).sum::<f64>();
        row.push(format!("{:.2}", all(p) / all(r)));
        table.row(row);
    }
    table
}

//! Time per byte for inputs from 100 B to 1 MiB, in shapes that stress one
//! part of the grammar each, so that any superlinear growth shows.
//!
//! `cargo run --release -p rfc1738-bench --bin growth-bench [-- --quick]`

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use rfc1738_bench::parsers::{self, Parser};
use rfc1738_bench::table::{Align, Table};
use rfc1738_bench::{cli, machine, reps_for, sig3};

const ABOUT: &str = "Parses inputs of 100 B to 1 MiB in several shapes (long paths, long host \
names, runs of escapes, ...) and prints ns per byte for each size, so that linear growth shows as \
a flat column.";

/// Input sizes in bytes.
const SIZES: &[usize] = &[100, 1_000, 10_000, 100_000, 1 << 20];
/// Measured rounds per cell (one untimed warm-up comes first).
const ROUNDS: usize = 9;
const QUICK_ROUNDS: usize = 2;
/// Target duration of one timed sample; short inputs are repeated to fill it.
const SAMPLE: Duration = Duration::from_millis(4);
const QUICK_SAMPLE: Duration = Duration::from_micros(200);
/// ns/byte at 1 MiB over ns/byte at 10 kB above which a row is flagged.
const FLAG_GROWTH: f64 = 1.5;

/// One input shape: `prefix`, then `unit` repeated, then `filler` bytes up to
/// the size, then `suffix`.
struct Shape {
    name: &'static str,
    /// What the shape stresses, and whether it is a valid URL.
    what: &'static str,
    prefix: &'static str,
    unit: &'static str,
    filler: char,
    suffix: &'static str,
}

const SHAPES: &[Shape] = &[
    Shape {
        name: "long path",
        what: "http hpath of many 8-byte segments",
        prefix: "http://example.com/",
        unit: "segment/",
        filler: 'a',
        suffix: "",
    },
    Shape {
        name: "long host",
        what: "hostname of many domainlabels",
        prefix: "http://",
        unit: "abcdefgh.",
        filler: 'a',
        suffix: "com/",
    },
    Shape {
        name: "escapes",
        what: "ftp fsegment made only of %HH escapes",
        prefix: "ftp://example.com/",
        unit: "%41%7e",
        filler: 'a',
        suffix: ";type=i",
    },
    Shape {
        name: "long search",
        what: "http search of key=value pairs",
        prefix: "http://example.com/search?",
        unit: "key=value&",
        filler: 'a',
        suffix: "",
    },
    Shape {
        name: "empty segments",
        what: "ftp path of empty fsegments (CWD with no argument)",
        prefix: "ftp://example.com/",
        unit: "/",
        filler: '/',
        suffix: "file",
    },
    Shape {
        name: "long login",
        what: "ftp user of almost the whole input, then a password",
        prefix: "ftp://",
        unit: "user;pass&",
        filler: 'u',
        suffix: ":secret@example.com/",
    },
    Shape {
        name: "gopher selector",
        what: "gopher selector with escapes, then search and gopher+",
        prefix: "gopher://example.com/1",
        unit: "sel%20ector",
        filler: 's',
        suffix: "%09query%09+",
    },
    Shape {
        name: "news article",
        what: "news article: long id, '@' and host at the end",
        prefix: "news:",
        unit: "part.id;",
        filler: 'a',
        suffix: "@example.com",
    },
    Shape {
        name: "mailto",
        what: "long encoded822addr",
        prefix: "mailto:",
        unit: "first.last",
        filler: 'x',
        suffix: "@example.com",
    },
    Shape {
        name: "prospero fields",
        what: "prospero with many ;field=value specs",
        prefix: "prospero://example.com/dir/file",
        unit: ";name=value",
        filler: 'v',
        suffix: "",
    },
    Shape {
        name: "late error",
        what: "INVALID: long http path, a space in the last byte",
        prefix: "http://example.com/",
        unit: "segment/",
        filler: 'a',
        suffix: " ",
    },
    Shape {
        name: "colons in login",
        what: "INVALID: ftp login of many ':' (user and password hold none)",
        prefix: "ftp://",
        unit: "a:",
        filler: 'a',
        suffix: "@example.com/",
    },
    Shape {
        name: "at signs",
        what: "INVALID: ftp login with many '@'",
        prefix: "ftp://",
        unit: "a@",
        filler: 'a',
        suffix: "example.com/",
    },
];

impl Shape {
    /// The input of exactly `size` bytes (or the shortest possible one).
    fn build(&self, size: usize) -> String {
        let mut s = String::with_capacity(size);
        s.push_str(self.prefix);
        let room = size.saturating_sub(self.prefix.len() + self.suffix.len());
        for _ in 0..room / self.unit.len() {
            s.push_str(self.unit);
        }
        while s.len() + self.suffix.len() < size {
            s.push(self.filler);
        }
        s.push_str(self.suffix);
        s
    }
}

fn main() -> ExitCode {
    let options = match cli::parse("growth-bench", ABOUT) {
        Ok(options) => options,
        Err(code) => return code,
    };
    let rounds = options.rounds.unwrap_or(if options.quick { QUICK_ROUNDS } else { ROUNDS });
    let sample = if options.quick { QUICK_SAMPLE } else { SAMPLE };
    let parsers: Vec<Parser> = parsers::all().into_iter().filter(|p| options.selects(p.name)).collect();

    println!("growth-bench: {}", machine());
    println!(
        "{rounds} rounds{} of about {sample:?} per cell; ns per byte (fastest round), * = rejected",
        if options.quick { " (--quick)" } else { "" }
    );
    println!();

    let mut columns = vec![("shape", Align::Left), ("bytes", Align::Right)];
    columns.extend(parsers.iter().map(|p| (p.name, Align::Right)));
    let mut table = Table::new(&columns);
    let mut growth = Table::new(&columns);
    for shape in SHAPES {
        let mut per_size = Vec::new();
        for &size in SIZES {
            let input = shape.build(size);
            let cells = measure(&parsers, &input, rounds, sample);
            let mut row = vec![shape.name.to_owned(), input.len().to_string()];
            row.extend(cells.iter().map(|&(ns_per_byte, accepted)| {
                format!("{}{}", sig3(ns_per_byte), if accepted { "" } else { "*" })
            }));
            table.row(row);
            per_size.push(cells);
        }
        // Growth: ns/byte at the largest size over ns/byte at 10 kB, where the
        // fixed cost per call no longer dominates.
        let base = SIZES.iter().position(|&s| s == 10_000).unwrap_or(0);
        let last = SIZES.len() - 1;
        let mut row = vec![shape.name.to_owned(), format!("{}→{}", SIZES[base], SIZES[last])];
        row.extend((0..parsers.len()).map(|p| {
            let ((small, small_ok), (large, large_ok)) = (per_size[base][p], per_size[last][p]);
            if small_ok != large_ok {
                // Accepted at one size and rejected at the other: the work differs.
                return "-".to_owned();
            }
            let ratio = large / small;
            let flag = if ratio > FLAG_GROWTH { " !" } else { "" };
            format!("{ratio:.2}{flag}")
        }));
        growth.row(row);
    }
    print!("{}", table.render(options.markdown));
    println!();
    println!(
        "growth: ns/byte at {} B over ns/byte at 10000 B (1.00 = linear; ! = above {FLAG_GROWTH}; \
         - = accepted at one size only)",
        SIZES[SIZES.len() - 1]
    );
    print!("{}", growth.render(options.markdown));
    println!();
    println!("shapes:");
    if options.markdown {
        println!();
    }
    for shape in SHAPES {
        if options.markdown {
            let suffix =
                if shape.suffix.is_empty() { String::new() } else { format!(" + `{}`", shape.suffix) };
            println!("- `{}`: `{}` + `{}`...{suffix}: {}", shape.name, shape.prefix, shape.unit, shape.what);
        } else {
            println!("  {:<16} {}", shape.name, shape.what);
        }
    }
    ExitCode::SUCCESS
}

/// The lowest ns per byte of each parser on `input` over the rounds, and
/// whether it accepted it. The work is deterministic, so the fastest round is
/// the one least disturbed by the rest of the machine; a median would let a
/// neighbour's build show up as growth at the large sizes, where a round is
/// only one or two calls.
/// Each sample repeats the parse enough times to last about `sample`; the
/// parsers take turns within a round.
fn measure(parsers: &[Parser], input: &str, rounds: usize, sample: Duration) -> Vec<(f64, bool)> {
    let one = [input];
    let reps: Vec<u32> = parsers
        .iter()
        .map(|p| {
            reps_for(sample, || {
                black_box((p.run)(&one));
            })
        })
        .collect();
    let mut samples = vec![Vec::with_capacity(rounds); parsers.len()];
    let mut accepted = vec![false; parsers.len()];
    for round in 0..=rounds {
        for k in 0..parsers.len() {
            let p = (k + round) % parsers.len();
            let start = Instant::now();
            let mut n = 0;
            for _ in 0..reps[p] {
                n += (parsers[p].run)(black_box(&one));
            }
            let elapsed = start.elapsed();
            accepted[p] = n > 0;
            if round > 0 {
                samples[p].push(elapsed.as_nanos() as f64 / f64::from(reps[p]) / input.len() as f64);
            }
        }
    }
    samples.iter().zip(accepted).map(|(s, a)| (s.iter().copied().fold(f64::INFINITY, f64::min), a)).collect()
}

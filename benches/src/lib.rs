//! Benchmarks of the `rfc1738` crate beside other URL parsers and link finders.
//!
//! Three binaries, each printing one side-by-side table per run:
//!
//! - `parse-bench`: every URL of every corpus file through every parser;
//! - `growth-bench`: time per byte for inputs from 100 B to 1 MiB;
//! - `extract-bench`: finding URLs in running text, beside `linkify`;
//!
//! and `gen-corpus`, which writes the generated RFC 1738 scheme corpus.
//! The library holds what they share. See `benches/README.md`.

pub mod cli;
pub mod corpus;
pub mod parsers;
pub mod rng;
pub mod schemes;
pub mod stats;
pub mod subject;
pub mod table;

use std::hint::black_box;
use std::time::{Duration, Instant};

/// Times one call of `f`, whose result is kept alive through `black_box`.
pub fn time<T>(f: impl FnOnce() -> T) -> (Duration, T) {
    let start = Instant::now();
    let out = black_box(f());
    (start.elapsed(), out)
}

/// How many calls of `f` fill about `target`, judged from one call (at least 1).
pub fn reps_for(target: Duration, mut f: impl FnMut()) -> u32 {
    let start = Instant::now();
    f();
    let once = start.elapsed().max(Duration::from_nanos(20));
    u32::try_from((target.as_nanos() / once.as_nanos()).clamp(1, 1_000_000)).unwrap_or(1)
}

/// One line naming the machine: CPU model, logical CPUs, OS, compiler.
#[must_use]
pub fn machine() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .and_then(|l| l.split_once(':'))
        .map_or("unknown CPU", |(_, m)| m.trim())
        .to_owned();
    let cpus = std::thread::available_parallelism().map_or(0, std::num::NonZeroUsize::get);
    let rustc = std::process::Command::new("rustc")
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map_or_else(|| "rustc ?".to_owned(), |s| s.trim().to_owned());
    format!("{model}, {cpus} logical CPUs, {} {}, {rustc}", std::env::consts::OS, std::env::consts::ARCH)
}

/// Formats a duration-per-unit number with three significant digits.
#[must_use]
pub fn sig3(x: f64) -> String {
    if !x.is_finite() {
        return "-".to_owned();
    }
    let digits = if x >= 100.0 {
        0
    } else if x >= 10.0 {
        1
    } else if x >= 1.0 {
        2
    } else {
        3
    };
    format!("{x:.digits$}")
}

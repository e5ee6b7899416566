//! Writes the generated RFC 1738 scheme corpus to `benches/data/`.
//!
//! `cargo run -p rfc1738-bench --bin gen-corpus [-- OUT]`

use std::path::PathBuf;
use std::process::ExitCode;

use rfc1738_bench::schemes;

fn main() -> ExitCode {
    let out = std::env::args_os().nth(1).map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data").join(schemes::FILE_NAME),
        PathBuf::from,
    );
    let text = schemes::corpus();
    if let Err(e) = std::fs::write(&out, &text) {
        eprintln!("gen-corpus: {}: {e}", out.display());
        return ExitCode::from(2);
    }
    println!(
        "gen-corpus: wrote {} URLs ({} bytes, seed {}) to {}",
        text.lines().count(),
        text.len(),
        schemes::SEED,
        out.display()
    );
    ExitCode::SUCCESS
}

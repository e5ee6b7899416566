//! `rfc1738 parse [--json] [URL...]`

use super::{for_each_input, report};
use crate::input::{Line, DEFAULT_MAX_LEN};
use crate::outcome::{options, parse_bytes_with, Problem};
use crate::{json, status};
use serde_json::Value;
use std::io::{self, BufWriter, Write};

/// Arguments of `parse`.
#[derive(clap::Args)]
pub struct ParseArgs {
    /// Write one JSON object per input, one per line, in input order.
    #[arg(long)]
    json: bool,
    /// Accept the deviations real-world URLs have, each reported in `warnings`.
    #[arg(long)]
    lenient: bool,
    /// The longest input line read from stdin, in bytes.
    #[arg(long, default_value_t = DEFAULT_MAX_LEN)]
    max_len: usize,
    /// URLs to parse; with none, one per line from stdin.
    urls: Vec<String>,
}

/// Runs `parse`.
pub fn run(args: &ParseArgs) -> io::Result<u8> {
    let mut out = BufWriter::new(io::stdout().lock());
    let mut invalid = 0u64;
    for_each_input(&args.urls, args.max_len, &mut out, |out, line| {
        let (input, result) = match line {
            Line::Text(t) => {
                let r = parse_bytes_with(&t, &options(args.lenient));
                (t, r)
            }
            Line::TooLong(n) => (Vec::new(), Err(Problem::too_long(n, args.max_len))),
        };
        let (result, warnings) = match result {
            Ok((url, w)) => (Ok(url), w),
            Err(p) => (Err(p), Vec::new()),
        };
        invalid += u64::from(result.is_err());
        if args.json {
            serde_json::to_writer(&mut *out, &json::object(&input, &result, &warnings))?;
            return writeln!(out);
        }
        match &result {
            Ok(_) => breakdown(out, &input, &json::object(&input, &result, &warnings)),
            Err(p) => {
                out.flush()?;
                report(&mut anstream::stderr().lock(), &input, p)
            }
        }
    })?;
    out.flush()?;
    Ok(if invalid == 0 { status::OK } else { status::INVALID })
}

/// The readable breakdown: the input, then one line per component.
fn breakdown(out: &mut impl Write, input: &[u8], obj: &Value) -> io::Result<()> {
    writeln!(out, "{}", String::from_utf8_lossy(input))?;
    const TOP: [&str; 9] =
        ["scheme", "kind", "user", "password", "host", "port", "effective_port", "url_path", "fragment"];
    for key in TOP {
        if let Some(v) = obj.get(key) {
            writeln!(out, "  {key:<16}{}", show(v))?;
        }
    }
    let kind = obj["kind"].as_str().unwrap_or("");
    if let Some(Value::Object(view)) = obj.get(kind) {
        for (k, v) in view {
            match v {
                Value::Array(items) if !items.is_empty() => {
                    writeln!(out, "  {:<16}{}", format!("{kind}.{k}"), show(&items[0]))?;
                    for item in &items[1..] {
                        writeln!(out, "  {:<16}{}", "", show(item))?;
                    }
                }
                _ => writeln!(out, "  {:<16}{}", format!("{kind}.{k}"), show(v))?,
            }
        }
    }
    if let Some(Value::Array(warnings)) = obj.get("warnings") {
        for w in warnings {
            let line = format!(
                "{} at offset {} ({})",
                w["message"].as_str().unwrap_or(""),
                w["offset"],
                show(&w["kind"])
            );
            writeln!(out, "  {:<16}{line}", "warning")?;
        }
    }
    writeln!(out)
}

/// A JSON value shown for people: `(absent)` for null, `""` for empty.
fn show(v: &Value) -> String {
    match v {
        Value::Null => "(absent)".into(),
        Value::String(s) if s.is_empty() => "\"\"".into(),
        Value::String(s) => s.escape_debug().to_string(),
        Value::Array(a) if a.is_empty() => "(none)".into(),
        Value::Array(a) => a.iter().map(show).collect::<Vec<_>>().join(" = "),
        other => other.to_string(),
    }
}

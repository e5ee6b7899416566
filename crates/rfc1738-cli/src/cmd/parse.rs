//! `rfc1738 parse [--json] [URL...]`

use super::{for_each_input, report};
use crate::input::{Line, DEFAULT_MAX_LEN};
use crate::outcome::{parse_bytes, Problem};
use crate::{json, status};
use serde_json::Value;
use std::io::{self, BufWriter, Write};

/// Arguments of `parse`.
#[derive(clap::Args)]
pub struct ParseArgs {
    /// Write one JSON object per input, one per line, in input order.
    #[arg(long)]
    json: bool,
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
    for_each_input(&args.urls, args.max_len, |line| {
        let (input, result) = match line {
            Line::Text(t) => {
                let r = parse_bytes(&t);
                (t, r)
            }
            Line::TooLong(n) => (Vec::new(), Err(Problem::too_long(n, args.max_len))),
        };
        invalid += u64::from(result.is_err());
        if args.json {
            serde_json::to_writer(&mut out, &json::object(&input, &result))?;
            return writeln!(out);
        }
        match &result {
            Ok(_) => breakdown(&mut out, &input, &json::object(&input, &result)),
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

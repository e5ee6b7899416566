//! The answers beyond the parse (feature `full`, the default): the
//! `parse --json` record, the warnings, the normal form, the explanation,
//! resolution (RFC 1808) and extraction (Appendix), from the report crate
//! as the command gives them.

use crate::state::{fail, input, put_text, text, with, State, OUT_LEN, TABLE_LEN};
use rfc1738::ResolveErrorKind;
use rfc1738_report::outcome::{options, parse_bytes_with, Problem};
use rfc1738_report::{explain, json};
use serde_json::{json, Value};

export! {
    /// The `parse --json` record, in the out buffer; returns its length.
    pub fn rfc1738_record(len: usize, lenient: u32) -> usize {
        with(|s| {
            let bytes = input(&s.input, len);
            let (result, warnings) = match parse_bytes_with(bytes, &options(lenient != 0)) {
                Ok((url, w)) => (Ok(url), w),
                Err(p) => (Err(p), Vec::new()),
            };
            let record = json::object(bytes, &result, &warnings);
            answer(s, &record)
        })
    }

    /// The normal form: 1 and its text in the out buffer, or 0 and the error.
    pub fn rfc1738_normalize(len: usize, lenient: u32) -> u32 {
        with(|s| {
            let State { input: buf, out, table } = s;
            match parse_bytes_with(input(buf, len), &options(lenient != 0)) {
                Ok((url, _)) => {
                    put_text(table, out, url.normalize().as_str());
                    1
                }
                Err(p) => problem(table, out, &p),
            }
        })
    }

    /// What a client does with the URL, one line each (RFC 1738 §3), as a
    /// JSON array in the out buffer: 1; or 0 and the error.
    pub fn rfc1738_explain(len: usize, lenient: u32) -> u32 {
        with(|s| match parse_bytes_with(input(&s.input, len), &options(lenient != 0)) {
            Ok((url, _)) => {
                answer(s, &json!(explain::explain(&url)));
                1
            }
            Err(p) => {
                let State { out, table, .. } = s;
                problem(table, out, &p)
            }
        })
    }

    /// The reference (the `reference` bytes after the `base` bytes)
    /// resolved against the base (RFC 1808 §4): 1 and the URL's text; 0
    /// and the base's parse error; 2 and the resolve error (slot 0 its
    /// offset in the reference, or in the resolved text for kind
    /// `not-rfc1738`; the out buffer its kind, rule, message and the
    /// resolved text, each ended by a NUL).
    pub fn rfc1738_resolve(base: usize, reference: usize, lenient: u32) -> u32 {
        with(|s| {
            let State { input: buf, out, table } = s;
            let bytes = &buf[..(base + reference).min(buf.len())];
            let (base_bytes, reference_bytes) = bytes.split_at(base.min(bytes.len()));
            let opts = options(lenient != 0);
            let url = match parse_bytes_with(base_bytes, &opts) {
                Ok((url, _)) => url,
                Err(p) => return problem(table, out, &p),
            };
            match url.resolve_with(text(reference_bytes), &opts) {
                Ok((resolved, _)) => {
                    put_text(table, out, resolved.as_str());
                    1
                }
                Err(e) => {
                    let (kind, rule, resolved) = match e.kind() {
                        ResolveErrorKind::NotHierarchical(_) => ("not-hierarchical", "", ""),
                        ResolveErrorKind::InvalidChar => ("invalid-char", "", ""),
                        ResolveErrorKind::InvalidEscape => ("invalid-escape", "", ""),
                        ResolveErrorKind::NotRfc1738 { resolved, error } => {
                            ("not-rfc1738", error.rule().name(), resolved.as_str())
                        }
                        _ => ("resolve", "", ""),
                    };
                    out.clear();
                    for piece in [kind, rule, &e.to_string(), resolved] {
                        out.extend_from_slice(piece.as_bytes());
                        out.push(0);
                    }
                    table[0] = e.offset() as u32;
                    table[OUT_LEN] = out.len() as u32;
                    2
                }
            }
        })
    }

    /// The URLs in free text (RFC 1738 Appendix), a JSON array in the out
    /// buffer: `{url, start, end, form, hyphenBreaks, valid, scheme,
    /// error}`, offsets in bytes of the text. Returns how many.
    pub fn rfc1738_extract(len: usize) -> usize {
        with(|s| {
            let found: Vec<Value> = rfc1738::extract::find_iter(text(input(&s.input, len)))
                .map(|m| {
                    let verdict = m.validate().map_err(Problem::from);
                    json!({
                        "url": m.as_str(),
                        "start": m.start(),
                        "end": m.end(),
                        "form": m.form().as_str(),
                        "hyphenBreaks": m.hyphen_breaks(),
                        "valid": verdict.is_ok(),
                        "scheme": m.scheme().to_ascii_lowercase(),
                        "error": verdict.err().map(|p| error_json(&p)),
                    })
                })
                .collect();
            let n = found.len();
            answer(s, &Value::Array(found));
            n
        })
    }

    /// The warnings of a URL (deviations a lenient parse accepted, §6
    /// security warnings), a JSON array in the out buffer: `{offset, len,
    /// kind, security, message}`. Returns the out length; an input that
    /// is not a URL has none.
    pub fn rfc1738_warnings(len: usize, lenient: u32) -> usize {
        with(|s| {
            let notes: Vec<Value> = match parse_bytes_with(input(&s.input, len), &options(lenient != 0)) {
                Ok((url, mut warnings)) => {
                    warnings.extend(url.security_warnings());
                    warnings.sort_by_key(rfc1738::Warning::offset);
                    warnings.iter().map(json::warning).collect()
                }
                Err(_) => Vec::new(),
            };
            answer(s, &Value::Array(notes))
        })
    }
}

fn problem(table: &mut [u32; TABLE_LEN], out: &mut Vec<u8>, p: &Problem) -> u32 {
    fail(table, out, p.offset, [p.kind, p.rule, &p.message])
}

/// A JSON answer in the out buffer; returns its length.
fn answer(s: &mut State, value: &Value) -> usize {
    s.out.clear();
    // Writing to a `Vec` cannot fail.
    let _ = serde_json::to_writer(&mut s.out, value);
    s.table[OUT_LEN] = s.out.len() as u32;
    s.out.len()
}

fn error_json(p: &Problem) -> Value {
    json!({"offset": p.offset, "kind": p.kind, "rule": p.rule, "message": p.message})
}

//! What the rfc1738 explorer answers, as plain functions of their input.
//!
//! `rfc1738 serve` (the crate `rfc1738-serve`) reads HTTP requests and
//! writes these answers; the static page's WebAssembly module
//! (`rfc1738-wasm`, feature `explorer`) gives the same answers to the
//! same page in the browser, with no server. One source, so the two
//! cannot differ.

use rfc1738::Url;
use rfc1738_report::outcome::{options, parse_bytes_with, scheme_of, validate_bytes, Note, Problem};
use rfc1738_report::{clf, explain, json, spans};
use serde_json::{json, Value};
use std::ops::Range;

/// `GET /api/parse?url=`: the `parse --json` record.
#[must_use]
pub fn parse(input: &str, lenient: bool) -> Value {
    let (result, warnings) = split(parse_bytes_with(input.as_bytes(), &options(lenient)));
    json::object(input.as_bytes(), &result, &warnings)
}

type Parsed = Result<(Url, Vec<rfc1738::Warning>), Problem>;

fn split(parsed: Parsed) -> (Result<Url, Problem>, Vec<rfc1738::Warning>) {
    match parsed {
        Ok((url, w)) => (Ok(url), w),
        Err(p) => (Err(p), Vec::new()),
    }
}

/// `GET /api/view?url=`: everything the explorer shows of one input: the
/// record, the spans of its parts, the explanation and the normal form.
/// For an input that is not a URL (`record.valid` false) the spans, the
/// explanation and the normal form are empty, and two more readings say
/// what can be said of it: `partial`, the parts read before the error (the
/// reading of the text up to the error's offset, when that text is a URL;
/// else the scheme alone), and `lenient`, what a lenient reading makes of
/// the whole input (its view, warnings included; `null` when even that
/// fails or the reading asked for was already lenient).
#[must_use]
pub fn view(input: &str, lenient: bool) -> Value {
    let (result, warnings) = split(parse_bytes_with(input.as_bytes(), &options(lenient)));
    let record = json::object(input.as_bytes(), &result, &warnings);
    match &result {
        Ok(url) => json!({
            "record": record,
            "spans": span_list(url),
            "explain": explain::explain(url),
            "normal": url.normalize().as_str(),
        }),
        Err(problem) => {
            let lenient_view = if lenient {
                Value::Null
            } else {
                match parse_bytes_with(input.as_bytes(), &options(true)) {
                    Ok(_) => view(input, true),
                    Err(_) => Value::Null,
                }
            };
            json!({
                "record": record,
                "spans": [],
                "explain": [],
                "normal": null,
                "partial": partial(input, problem.offset),
                "lenient": lenient_view,
            })
        }
    }
}

fn span_list(url: &Url) -> Vec<Value> {
    spans::spans(url)
        .into_iter()
        .map(|s| json!({"part": s.part, "start": s.range.start, "end": s.range.end}))
        .collect()
}

/// The parts read before the error at `offset`: `{end, record, spans}`,
/// `record` being the reading of `input[..end]` (`null` when that is not a
/// URL, and then `spans` has the scheme alone, if there is one).
fn partial(input: &str, offset: usize) -> Value {
    let end = (0..=offset.min(input.len())).rev().find(|&k| input.is_char_boundary(k)).unwrap_or(0);
    let prefix = &input[..end];
    if let Ok((url, warnings)) = parse_bytes_with(prefix.as_bytes(), &options(false)) {
        let record = json::object(prefix.as_bytes(), &Ok(url.clone()), &warnings);
        return json!({"end": end, "record": record, "spans": span_list(&url)});
    }
    let spans = match scheme_of(input.as_bytes()) {
        Some(name) if name.len() < end => vec![json!({"part": "scheme", "start": 0, "end": name.len()})],
        _ => Vec::new(),
    };
    json!({"end": end, "record": null, "spans": spans})
}

/// `GET /api/normalize?url=`: `{input, valid: true, normal}`, or the record
/// of an input that is not a URL (`valid: false`).
#[must_use]
pub fn normalize(input: &str) -> Value {
    match parse_bytes_with(input.as_bytes(), &options(false)) {
        Ok((url, _)) => json!({"input": input, "valid": true, "normal": url.normalize().as_str()}),
        Err(_) => parse(input, false),
    }
}

/// `GET /api/explain?url=`: `{input, valid: true, explain}`, what a client
/// does with the URL in words, one line each; or the record of an input
/// that is not a URL (`valid: false`).
#[must_use]
pub fn explain(input: &str) -> Value {
    match parse_bytes_with(input.as_bytes(), &options(false)) {
        Ok((url, _)) => json!({"input": input, "valid": true, "explain": explain::explain(&url)}),
        Err(_) => parse(input, false),
    }
}

/// What the lines of a `POST /api/check` body hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One URL per line.
    Url,
    /// A Common Log Format entry per line; its request URL is checked.
    Clf,
}

impl Format {
    /// The name of the format, as `check --format` spells it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Format::Url => "url",
            Format::Clf => "clf",
        }
    }
}

/// Lines looked at to tell a log from a list of URLs.
const SNIFFED: usize = 20;

/// A log when most of the first non-empty lines (up to 20) are Common Log
/// Format entries (a `[date]`, then a quoted request); a list of URLs
/// otherwise. A URL holds neither `[` nor `"` (§2.2: unsafe), so a list
/// of URLs, even invalid ones, is rarely taken for a log.
#[must_use]
pub fn detect(lines: &[&[u8]]) -> Format {
    let sample: Vec<&&[u8]> = lines.iter().filter(|l| !l.is_empty()).take(SNIFFED).collect();
    let logged = sample
        .iter()
        .filter(|l| {
            let date = l.iter().position(|&b| b == b'[');
            let quote = l.iter().position(|&b| b == b'"');
            matches!((date, quote), (Some(d), Some(q)) if d < q) && clf::raw_request(l).is_ok()
        })
        .count();
    if !sample.is_empty() && logged * 2 > sample.len() {
        Format::Clf
    } else {
        Format::Url
    }
}

/// Where each line of a request body lies, without its `\n` or `\r\n`; a
/// last line without a line break counts, an empty body has none.
#[must_use]
pub fn line_ranges(body: &[u8]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < body.len() {
        let end = body[start..].iter().position(|&b| b == b'\n').map_or(body.len(), |k| start + k);
        let text_end = if end > start && body[end - 1] == b'\r' { end - 1 } else { end };
        out.push(start..text_end);
        start = end + 1;
    }
    out
}

/// `POST /api/check`: one JSON object per line, as `check --json` writes
/// them (without `file`): `{line, input, valid, scheme, error, warnings}`.
/// `first` is the number of the first line; `lenient` accepts the
/// deviations real URLs have, each a warning. An empty line holds no URL:
/// no object, as the command counts none. In a log, the line is the log
/// entry, checked as `check --input-format clf` checks it (the request URL and
/// the Combined referer), the error's offset in the line, and the
/// record's every field comes too (`null` where the line has none).
pub fn check(lines: &[&[u8]], first: u64, format: Format, lenient: bool, out: &mut Vec<u8>) {
    for (k, line) in lines.iter().enumerate() {
        if line.is_empty() {
            continue;
        }
        let mut obj = serde_json::Map::new();
        obj.insert("line".into(), json!(first + k as u64));
        obj.insert("input".into(), json!(String::from_utf8_lossy(line)));
        match format {
            Format::Url => {
                let (verdict, warnings) = if lenient {
                    match parse_bytes_with(line, &options(true)) {
                        Ok((_, w)) => (Ok(()), w.iter().map(|w| Note::from(w).to_json()).collect()),
                        Err(p) => (Err(p), Vec::new()),
                    }
                } else {
                    (validate_bytes(line), Vec::new())
                };
                obj.insert("valid".into(), json!(verdict.is_ok()));
                obj.insert("scheme".into(), json!(scheme_of(line)));
                obj.insert("error".into(), verdict.err().map_or(Value::Null, |p| error(&p)));
                obj.insert("warnings".into(), Value::Array(warnings));
            }
            // The one rule of a log line (`check --input-format clf`).
            Format::Clf => obj.extend(clf::record_with(line, lenient, clf::Fields::BOTH).to_json()),
        }
        // Writing to a `Vec` cannot fail.
        let _ = serde_json::to_writer(&mut *out, &Value::Object(obj));
        out.push(b'\n');
    }
}

fn error(p: &Problem) -> Value {
    json!({"offset": p.offset, "kind": p.kind, "rule": p.rule, "message": p.message})
}

/// `POST /api/extract`: the URLs in free text (RFC 1738 Appendix), one
/// JSON object each, as they are found: `{url, start, end, form, valid,
/// scheme, error}`, the offsets in bytes of the text. The search begins
/// at byte `from`: at the `end` of the last URL found, it goes on as if it
/// had not stopped.
pub fn extract(text: &str, from: usize) -> impl Iterator<Item = Value> + Send + '_ {
    rfc1738::extract::Finder::new().find_iter_from(text, from).map(|m| {
        let verdict = m.validate().map_err(Problem::from);
        json!({
            "url": m.as_str(),
            "start": m.start(),
            "end": m.end(),
            "form": m.form().as_str(),
            "valid": verdict.is_ok(),
            "scheme": m.scheme().to_ascii_lowercase(),
            "error": verdict.err().map(|p| error(&p)),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(body: &[u8]) -> Vec<&[u8]> {
        line_ranges(body).into_iter().map(|r| &body[r]).collect()
    }

    #[test]
    fn view_has_spans_explanation_and_normal_form() {
        let v = view("FTP://@host.dom/a/b;type=i", false);
        assert_eq!(v["record"]["user"], "");
        assert_eq!(v["spans"][0], json!({"part": "scheme", "start": 0, "end": 3}));
        assert_eq!(v["normal"], "ftp://@host.dom/a/b;type=i");
        assert!(v["explain"].as_array().unwrap().iter().any(|l| l == "TYPE I"), "{v}");
        let bad = view("http://h/<script>", false);
        assert_eq!(bad["record"]["error"]["offset"], 9);
        assert_eq!(bad["spans"], json!([]));
    }

    #[test]
    fn an_invalid_url_is_read_up_to_its_error_and_leniently() {
        let v = view("http://host.dom/my file.html", false);
        assert_eq!(v["partial"]["end"], 18);
        assert_eq!(v["partial"]["record"]["host"], "host.dom");
        let parts: Vec<&Value> =
            v["partial"]["spans"].as_array().unwrap().iter().map(|s| &s["part"]).collect();
        assert_eq!(parts, ["scheme", "host", "http.path"]);
        assert_eq!(v["lenient"]["record"]["valid"], true);
        assert_eq!(v["lenient"]["record"]["warnings"][0]["offset"], 18);
        assert_eq!(v["lenient"]["normal"], "http://host.dom/my%20file.html");
        // The text before the error is no URL: the scheme alone is read.
        let v = view("http://h:x/", false);
        assert_eq!(v["partial"]["record"], Value::Null);
        assert_eq!(v["partial"]["spans"], json!([{"part": "scheme", "start": 0, "end": 4}]));
        // Nothing to read at all.
        let v = view("no scheme", false);
        assert_eq!((v["partial"]["spans"].clone(), v["lenient"].clone()), (json!([]), Value::Null));
    }

    #[test]
    fn a_log_is_told_from_a_list() {
        let log: &[&[u8]] = &[
            br#"127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /a HTTP/1.0" 200 2"#,
            b"x",
            br#"127.0.0.1 - - [10/Oct/2000:13:55:37 -0700] "GET /a b HTTP/1.0" 200 2"#,
        ];
        assert_eq!(detect(log), Format::Clf);
        assert_eq!(detect(&[b"http://a/", b"http://b/ \"quoted\" [x]"]), Format::Url);
        assert_eq!(detect(&[]), Format::Url);
        let mut out = Vec::new();
        check(log, 1, Format::Clf, false, &mut out);
        let rows: Vec<Value> =
            String::from_utf8(out).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!((rows[0]["valid"].as_bool(), rows[0]["scheme"].as_str()), (Some(true), Some("http")));
        assert_eq!((rows[0]["method"].as_str(), rows[0]["status"].as_u64()), (Some("GET"), Some(200)));
        assert_eq!((rows[1]["method"].clone(), rows[1]["status"].clone()), (Value::Null, Value::Null));
        assert_eq!(
            (rows[1]["error"]["kind"].as_str(), rows[2]["error"]["offset"].as_u64()),
            (Some("clf-no-request"), Some(50))
        );
    }

    #[test]
    fn lines_and_check() {
        assert_eq!(lines(b""), Vec::<&[u8]>::new());
        assert_eq!(lines(b"a\r\nb\n"), [b"a", b"b"]);
        assert_eq!(lines(b"a\n\nb"), [&b"a"[..], b"", b"b"]);
        let mut out = Vec::new();
        check(&lines(b"http://h/\nhttp://h/ x\n"), 1, Format::Url, false, &mut out);
        let text = String::from_utf8(out).unwrap();
        let rows: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(rows[0]["valid"], true);
        assert_eq!((rows[1]["line"].as_u64(), rows[1]["error"]["offset"].as_u64()), (Some(2), Some(9)));
        let mut out = Vec::new();
        check(&lines(b"http://h/ x\n"), 1, Format::Url, true, &mut out);
        let row: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!((row["valid"].as_bool(), row["warnings"][0]["offset"].as_u64()), (Some(true), Some(9)));
    }

    #[test]
    fn extract_finds_urls_with_offsets() {
        let text = "see <URL:ftp://h.dom/x> and http://a.dom/.";
        let rows: Vec<Value> = extract(text, 0).collect();
        // A search resumed at the end of each URL finds what the whole
        // search finds after it, wrappers, bare URLs and text between alike.
        let mixed = "<URL:ftp://a.dom/x> (http://b.dom/y), <news:c.d> \"gopher://e.dom/1\" mailto:f@g.dom.";
        let whole: Vec<Value> = extract(mixed, 0).collect();
        assert_eq!(whole.len(), 5, "{whole:?}");
        for k in 0..whole.len() {
            let end = whole[k]["end"].as_u64().unwrap() as usize;
            assert_eq!(extract(mixed, end).collect::<Vec<_>>(), whole[k + 1..], "after {}", whole[k]["url"]);
        }
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0]["url"], "ftp://h.dom/x");
        // The span is the match in the text, its `<URL:` wrapper included.
        let (start, end) =
            (rows[0]["start"].as_u64().unwrap() as usize, rows[0]["end"].as_u64().unwrap() as usize);
        assert_eq!(&text[start..end], "<URL:ftp://h.dom/x>");
    }
}

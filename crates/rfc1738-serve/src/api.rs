//! What each endpoint answers, as plain functions of their input: the
//! HTTP layer (`lib.rs`) only reads requests and writes these.

use rfc1738::Url;
use rfc1738_report::outcome::{options, parse_bytes_with, scheme_of, validate_bytes, Problem};
use rfc1738_report::{explain, json, spans};
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
#[must_use]
pub fn view(input: &str, lenient: bool) -> Value {
    let (result, warnings) = split(parse_bytes_with(input.as_bytes(), &options(lenient)));
    let record = json::object(input.as_bytes(), &result, &warnings);
    let Ok(url) = &result else {
        return json!({"record": record, "spans": [], "explain": [], "normal": null});
    };
    let spans: Vec<Value> = spans::spans(url)
        .into_iter()
        .map(|s| json!({"part": s.part, "start": s.range.start, "end": s.range.end}))
        .collect();
    json!({
        "record": record,
        "spans": spans,
        "explain": explain::explain(url),
        "normal": url.normalize().as_str(),
    })
}

/// `GET /api/normalize?url=`: `{input, normal}`, or the record of an
/// invalid input.
///
/// # Errors
///
/// The `parse --json` record of an input that is not a URL.
pub fn normalize(input: &str) -> Result<Value, Value> {
    match parse_bytes_with(input.as_bytes(), &options(false)) {
        Ok((url, _)) => Ok(json!({"input": input, "normal": url.normalize().as_str()})),
        Err(_) => Err(parse(input, false)),
    }
}

/// `GET /api/explain?url=`: what a client does with the URL, in words,
/// one line each.
///
/// # Errors
///
/// The `parse --json` record of an input that is not a URL.
pub fn explain(input: &str) -> Result<String, Value> {
    match parse_bytes_with(input.as_bytes(), &options(false)) {
        Ok((url, _)) => Ok(explain::explain(&url).join("\n") + "\n"),
        Err(_) => Err(parse(input, false)),
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
/// them (without `file`): `{line, input, valid, scheme, error}`. `first`
/// is the number of the first line.
pub fn check(lines: &[&[u8]], first: u64, out: &mut Vec<u8>) {
    for (k, line) in lines.iter().enumerate() {
        let verdict = validate_bytes(line);
        let obj = json!({
            "line": first + k as u64,
            "input": String::from_utf8_lossy(line),
            "valid": verdict.is_ok(),
            "scheme": scheme_of(line),
            "error": verdict.err().map(|p| error(&p)),
        });
        // Writing to a `Vec` cannot fail.
        let _ = serde_json::to_writer(&mut *out, &obj);
        out.push(b'\n');
    }
}

fn error(p: &Problem) -> Value {
    json!({"offset": p.offset, "kind": p.kind, "rule": p.rule, "message": p.message})
}

/// `POST /api/extract`: the URLs in free text (RFC 1738 Appendix), one
/// JSON object each, as they are found: `{url, start, end, form, valid,
/// scheme, error}`, the offsets in bytes of the text.
pub fn extract(text: &str) -> impl Iterator<Item = Value> + Send + '_ {
    rfc1738::extract::find_iter(text).map(|m| {
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
    fn lines_and_check() {
        assert_eq!(lines(b""), Vec::<&[u8]>::new());
        assert_eq!(lines(b"a\r\nb\n"), [b"a", b"b"]);
        assert_eq!(lines(b"a\n\nb"), [&b"a"[..], b"", b"b"]);
        let mut out = Vec::new();
        check(&lines(b"http://h/\nhttp://h/ x\n"), 1, &mut out);
        let text = String::from_utf8(out).unwrap();
        let rows: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(rows[0]["valid"], true);
        assert_eq!((rows[1]["line"].as_u64(), rows[1]["error"]["offset"].as_u64()), (Some(2), Some(9)));
    }

    #[test]
    fn extract_finds_urls_with_offsets() {
        let text = "see <URL:ftp://h.dom/x> and http://a.dom/.";
        let rows: Vec<Value> = extract(text).collect();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0]["url"], "ftp://h.dom/x");
        // The span is the match in the text, its `<URL:` wrapper included.
        let (start, end) =
            (rows[0]["start"].as_u64().unwrap() as usize, rows[0]["end"].as_u64().unwrap() as usize);
        assert_eq!(&text[start..end], "<URL:ftp://h.dom/x>");
    }
}

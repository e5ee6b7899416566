//! The explorer page's requests, answered in the browser (feature
//! `explorer`): the static page's shim (`site/shim.js`) calls these where
//! the served page asks `rfc1738 serve`. The answers are the server's
//! own, from the same crate (`rfc1738-api`), so the bytes are the same.

use crate::state::{input, text, with, State, OUT_LEN};
use rfc1738_api as api;

/// `GET /api/view?url=`: the JSON of the view, in `out`.
pub(crate) fn view(input: &[u8], lenient: bool, out: &mut Vec<u8>) {
    let text = text(input);
    out.clear();
    // Writing to a `Vec` cannot fail.
    let _ = serde_json::to_writer(&mut *out, &api::view(text, lenient));
}

/// `POST /api/check?format=`: one JSON line per line of `body`, in `out`;
/// returns the format the lines were read in. `format`: 0 tells it from
/// the lines (the first 100, as the server does), 1 a list of URLs, 2 a
/// log.
pub(crate) fn check(body: &[u8], lenient: bool, format: u32, out: &mut Vec<u8>) -> api::Format {
    let lines: Vec<&[u8]> = api::line_ranges(body).into_iter().map(|r| &body[r]).collect();
    let format = match format {
        1 => api::Format::Url,
        2 => api::Format::Clf,
        _ => api::detect(&lines[..lines.len().min(100)]),
    };
    out.clear();
    api::check(&lines, 1, format, lenient, out);
    format
}

/// `POST /api/extract`: one JSON line per URL found in `text`, in `out`.
pub(crate) fn extract(body: &[u8], out: &mut Vec<u8>) {
    out.clear();
    for found in api::extract(text(body), 0) {
        // Writing to a `Vec` cannot fail.
        let _ = serde_json::to_writer(&mut *out, &found);
        out.push(b'\n');
    }
}

export! {
    /// The explorer's `GET /api/view`: its JSON in the out buffer; returns
    /// the length.
    pub fn rfc1738_api_view(len: usize, lenient: u32) -> usize {
        with(|s| {
            let State { input: buf, out, table } = s;
            view(input(buf, len), lenient != 0, out);
            table[OUT_LEN] = out.len() as u32;
            out.len()
        })
    }

    /// The explorer's `POST /api/check`: JSON lines in the out buffer;
    /// returns the format read, 0 a list of URLs, 1 a log. `format` asks
    /// for one: 0 either, 1 URLs, 2 a log.
    pub fn rfc1738_api_check(len: usize, lenient: u32, format: u32) -> u32 {
        with(|s| {
            let State { input: buf, out, table } = s;
            let read = check(input(buf, len), lenient != 0, format, out);
            table[OUT_LEN] = out.len() as u32;
            u32::from(read == api::Format::Clf)
        })
    }

    /// The explorer's `POST /api/extract`: JSON lines in the out buffer;
    /// returns the length.
    pub fn rfc1738_api_extract(len: usize) -> usize {
        with(|s| {
            let State { input: buf, out, table } = s;
            extract(input(buf, len), out);
            table[OUT_LEN] = out.len() as u32;
            out.len()
        })
    }
}

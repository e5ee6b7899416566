//! The Common Log Format reader (`clf::raw_request`) pinned on the lines
//! that are easy to read wrong, and held to the reader it replaced (kept
//! here as `oracle`) on lines made of the bytes it decides on.

use rfc1738_report::clf::{raw_request, ClfError};

/// What [`raw_request`] reads of a line, in one line of text:
/// `method|target@offset|protocol|status|bytes`, or the error.
fn read(line: &[u8]) -> String {
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    match raw_request(line) {
        Err(e) => format!("{e:?}"),
        Ok(r) => format!(
            "{}|{}@{}|{}|{:?}|{:?}",
            text(r.method),
            text(r.target),
            r.offset,
            r.protocol.map_or_else(|| "-".into(), text),
            r.status,
            r.bytes
        ),
    }
}

/// Lines whose reading is easy to get wrong, and what is read of each.
/// They pin the reader byte for byte, every error and its offset.
const TRICKY: &[(&[u8], &str)] = &[
    // Escapes inside the request: `\"` and `\\` stay in the field.
    (br#"h - - [d] "GET /a\"b HTTP/1.1" 400 0"#, r#"GET|/a\"b@15|HTTP/1.1|Some(400)|Some(0)"#),
    (br#"h - - [d] "GET /a\\" 200 1"#, r#"GET|/a\\@15|-|Some(200)|Some(1)"#),
    (br#"h - - [d] "GET /a\\\"" 200 1"#, r#"GET|/a\\\"@15|-|Some(200)|Some(1)"#),
    (br#"h - - [d] "GET /\"a b\" HTTP/1.0" 200 1"#, r#"GET|/\"a b\"@15|HTTP/1.0|Some(200)|Some(1)"#),
    (br#"h - - [d] "\"" 200 1"#, "NotRequest(11)"),
    (br#"h - - [d] "\" 200 1"#, "Unterminated(10)"),
    (br#"h - - [d] "GET /a\" 200 1"#, "Unterminated(10)"),
    // A backslash at the end of the line, escaped or not.
    (br#"h - - [d] "GET /a\"#, "Unterminated(10)"),
    (br#"h - - [d] "GET /a\\"#, "Unterminated(10)"),
    (br#"h - - [d] "\"#, "Unterminated(10)"),
    (br#"h - - [d] ""#, "Unterminated(10)"),
    (br#"\"h - - [d] "GET / HTTP/1.0" 200 1"#, "NoDate(1)"),
    // Spaces: several after the method, several before the protocol,
    // one before the method, none but after the method.
    (br#"h - - [d] "GET   /a HTTP/1.1" 400 0"#, "GET|/a@17|HTTP/1.1|Some(400)|Some(0)"),
    (br#"h - - [d] "GET /a   HTTP/1.1" 400 0"#, "GET|/a@15|HTTP/1.1|Some(400)|Some(0)"),
    (br#"h - - [d] " GET /a HTTP/1.1" 400 0"#, "NotRequest(11)"),
    (br#"h - - [d] "GET   " 400 0"#, "NoTarget(17)"),
    (br#"h - - [d] "GET /a " 400 0"#, "NotRequest(17)"),
    (br#"h - - [d] "GET /a HTTP/1.1 " 400 0"#, "NotRequest(26)"),
    (br#"h - - [d] "GET" 400 0"#, "NoTarget(14)"),
    (br#"h - - [d] "" 400 0"#, "NotRequest(11)"),
    (br#"h - - [d] " " 400 0"#, "NotRequest(11)"),
    // A target with a space keeps it when `HTTP/x.y` follows (a malformed
    // target, logged as received); without a protocol, or with a last word
    // that is not `HTTP/x.y` (RFC 7230 §2.6), it is no request line.
    (br#"h - - [d] "GET /a b HTTP/1.1" 400 0"#, "GET|/a b@15|HTTP/1.1|Some(400)|Some(0)"),
    (br#"h - - [d] "GET /a b" 400 0"#, "NotRequest(18)"),
    (br#"h - - [d] "GET / FOO/9 bar" 400 0"#, "NotRequest(23)"),
    (br#"h - - [d] "GET /a http/1.1" 400 0"#, "NotRequest(18)"),
    (br#"h - - [d] "GET /a HTTP/" 400 0"#, "NotRequest(18)"),
    (br#"h - - [d] "GET /a b HTTP/2" 400 0"#, "NotRequest(20)"),
    (br#"h - - [d] "GET /a HTTP/1.10" 400 0"#, "NotRequest(18)"),
    // The method is a token (RFC 7230 §3.2.6): TLS or other binary bytes,
    // escaped by the server, are no request.
    (br#"h - - [d] "\x16\x03\x01\x00\xA5\x01 \x02" 400 0"#, "NotRequest(11)"),
    (br#"h - - [d] "G\x01T /x HTTP/1.1" 400 0"#, "NotRequest(12)"),
    (b"h - - [d] \"G\x01T /x HTTP/1.1\" 400 0", "NotRequest(12)"),
    (br#"h - - [d] "M-SEARCH * HTTP/1.1" 200 0"#, "M-SEARCH|*@20|HTTP/1.1|Some(200)|Some(0)"),
    (br#"h - - [d] "GET HTTP/1.1 HTTP/1.1" 400 0"#, "GET|HTTP/1.1@15|HTTP/1.1|Some(400)|Some(0)"),
    // `"-"`: no request; the fields around it are read first.
    (br#"h - - [d] "-" 408 0"#, "Dash(11)"),
    (br#"h - - [d] "-" 408"#, "NoBytes(17)"),
    (br#"h - - "-" 408 0"#, "NoDate(6)"),
    (br#"h - - [d] "- " 408 0"#, "NoTarget(13)"),
    (br#"h - - [d] "--" 408 0"#, "NoTarget(13)"),
    // `host ident user [date] ` before the request, or not a log line;
    // the error names the field that is missing.
    (br#"h - - [d]"GET / HTTP/1.0" 200 1"#, "NoDate(9)"),
    (br#"h - - d] "GET / HTTP/1.0" 200 1"#, "NoDate(9)"),
    (br#"h - -[d] "GET / HTTP/1.0" 200 1"#, "NoDate(9)"),
    (br#" h - - [d] "GET / HTTP/1.0" 200 1"#, "NoHost(0)"),
    (br#"[d] "GET / HTTP/1.0" 200 1"#, "NoHost(0)"),
    (br#"x [d] "GET / HTTP/1.0" 200 1"#, "NoIdent(2)"),
    (br#"x - [d] "GET / HTTP/1.0" 200 1"#, "NoUser(4)"),
    (br#"x  - [d] "GET / HTTP/1.0" 200 1"#, "NoIdent(5)"),
    (br#"v.dom:80 h - - [d] "GET / HTTP/1.0" 200 1"#, "ExtraField(13)"),
    (br#"] "GET / HTTP/1.0" 200 1"#, "NoDate(2)"),
    (br#"h [] "GET / HTTP/1.0" 200 1"#, "NoIdent(2)"),
    (br#"h [ [d] "GET / HTTP/1.0" 200 1"#, "NoIdent(2)"),
    (br#"h - u [x] [d] "GET / HTTP/1.0" 200 1"#, "GET|/@19|HTTP/1.0|Some(200)|Some(1)"),
    (br#"h x[ y] "GET / HTTP/1.0" 200 1"#, "NoDate(8)"),
    (br#"h [x] y] "GET / HTTP/1.0" 200 1"#, "NoIdent(2)"),
    // The status: three digits or `-`; the size: up to 19 digits or `-`.
    (br#"h - - [d] "GET / HTTP/1.0" - -"#, "GET|/@15|HTTP/1.0|None|None"),
    (br#"h - - [d] "GET / HTTP/1.0" 000 0"#, "GET|/@15|HTTP/1.0|Some(0)|Some(0)"),
    (
        br#"h - - [d] "GET / HTTP/1.0" 999 9999999999999999999"#,
        "GET|/@15|HTTP/1.0|Some(999)|Some(9999999999999999999)",
    ),
    (br#"h - - [d] "GET / HTTP/1.0" 200 18446744073709551615"#, "NoBytes(31)"),
    (br#"h - - [d] "GET / HTTP/1.0" 200 00000000000000000001"#, "NoBytes(31)"),
    (br#"h - - [d] "GET / HTTP/1.0" 200 1 "-" "ua""#, "GET|/@15|HTTP/1.0|Some(200)|Some(1)"),
    (br#"h - - [d] "GET / HTTP/1.0" 200 1  "#, "GET|/@15|HTTP/1.0|Some(200)|Some(1)"),
    (br#"h - - [d] "GET / HTTP/1.0" 200 "#, "NoBytes(31)"),
    (br#"h - - [d] "GET / HTTP/1.0" 200  1"#, "NoBytes(31)"),
    (br#"h - - [d] "GET / HTTP/1.0"  200 1"#, "NoStatus(26)"),
    (br#"h - - [d] "GET / HTTP/1.0"200 1"#, "NoStatus(26)"),
    (br#"h - - [d] "GET / HTTP/1.0" 2000 1"#, "NoStatus(26)"),
    (br#"h - - [d] "GET / HTTP/1.0" 20 1"#, "NoStatus(26)"),
    (br#"h - - [d] "GET / HTTP/1.0" 2x0 1"#, "NoStatus(26)"),
    (br#"h - - [d] "GET / HTTP/1.0" -- 1"#, "NoStatus(26)"),
    (br#"h - - [d] "GET / HTTP/1.0" 200 1x"#, "NoBytes(31)"),
    (br#"h - - [d] "GET / HTTP/1.0" 200 -1"#, "NoBytes(31)"),
    (br#"h - - [d] "GET / HTTP/1.0" 200 +1"#, "NoBytes(31)"),
    (br#"h - - [d] "GET / HTTP/1.0" 200 1"2"#, "NoBytes(31)"),
    (br#"h - - [d] "GET / HTTP/1.0" -"#, "NoBytes(28)"),
    (br#"h - - [d] "GET / HTTP/1.0" "#, "NoStatus(26)"),
    // Octets that are not UTF-8: in the head, the method, the target,
    // the protocol, after the request, as a status.
    (b"h\xff - [d\xfe] \"GET / HTTP/1.0\" 200 1", "NoUser(5)"),
    (b"h\xff - - [d\xfe] \"GET / HTTP/1.0\" 200 1", "GET|/@17|HTTP/1.0|Some(200)|Some(1)"),
    (b"h - - [d] \"GET /\xfe\xff HTTP/1.0\xc3\" 200 1", "NotRequest(19)"),
    (b"h - - [d] \"GET /\xfe\xff HTTP/1.0\" 200 1", "GET|/\u{fffd}\u{fffd}@15|HTTP/1.0|Some(200)|Some(1)"),
    (b"h - - [d] \"G\xffT /\xfe\xff HTTP/1.0\xc3\" 200 1", "NotRequest(12)"),
    (
        b"h - - [d] \"GET /\xc3\\\"\xa9 HTTP/1.0\" 200 1",
        "GET|/\u{fffd}\\\"\u{fffd}@15|HTTP/1.0|Some(200)|Some(1)",
    ),
    (b"h - - [d] \"GET / HTTP/1.0\" 200 1 \"\xff\"", "GET|/@15|HTTP/1.0|Some(200)|Some(1)"),
    (b"h - - [d] \"GET / HTTP/1.0\" \xd9\xa3\xd9\xa3 1", "NoStatus(26)"),
    (b"\xff\xfe", "NoRequest(2)"),
    (b"h - - [d] \x22GET /\xff\\", "Unterminated(10)"),
];

#[test]
fn tricky_lines_read_as_pinned() {
    let wrong: Vec<String> = TRICKY
        .iter()
        .filter(|(line, expected)| read(line) != *expected)
        .map(|(line, _)| format!("{}\n  reads {}", String::from_utf8_lossy(line), read(line)))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The reader as it was before it searched with `memchr`: byte by
/// byte, several passes. Kept as the oracle the reader is held to.
mod oracle {
    use rfc1738_report::clf::{ClfError, RawRequest};

    fn quotes(b: &[u8]) -> Result<(usize, usize), ClfError> {
        let open = b.iter().position(|&c| c == b'"').ok_or(ClfError::NoRequest(b.len()))?;
        let mut i = open + 1;
        loop {
            match b.get(i) {
                None => return Err(ClfError::Unterminated(open)),
                Some(b'\\') => i += 2,
                Some(b'"') => return Ok((open, i)),
                Some(_) => i += 1,
            }
        }
    }

    /// `host SP ident SP user SP "[" date "]" SP`, word by word.
    fn head(h: &[u8]) -> Result<(), ClfError> {
        let open = h.len();
        if !h.ends_with(b"] ") {
            return Err(ClfError::NoDate(open));
        }
        let h = &h[..h.len() - 2];
        let date = (0..h.len()).find(|&k| h[k] == b'[' && (k == 0 || h[k - 1] == b' '));
        let Some(date) = date else { return Err(ClfError::NoDate(open)) };
        if date == 0 {
            return Err(ClfError::NoHost(0));
        }
        let words: Vec<&[u8]> = h[..date - 1].split(|&c| c == b' ').collect();
        let mut at = 0;
        for (n, w) in words.iter().enumerate() {
            if n == 3 {
                return Err(ClfError::ExtraField(at));
            }
            if w.is_empty() {
                return Err([ClfError::NoHost(0), ClfError::NoIdent(date), ClfError::NoUser(date)][n]);
            }
            at += w.len() + 1;
        }
        match words.len() {
            1 => Err(ClfError::NoIdent(date)),
            2 => Err(ClfError::NoUser(date)),
            _ => Ok(()),
        }
    }

    fn fields(b: &[u8], open: usize, close: usize) -> Result<(Option<u16>, Option<u64>), ClfError> {
        head(&b[..open])?;
        let after = close + 1;
        let bad = ClfError::NoStatus(after);
        if b.get(after) != Some(&b' ') {
            return Err(bad);
        }
        let words: Vec<&[u8]> = b[after + 1..].splitn(3, |&c| c == b' ').collect();
        let status = match words[0] {
            b"-" => None,
            [a, b, c] if [a, b, c].iter().all(|d| d.is_ascii_digit()) => {
                Some(u16::from(a - b'0') * 100 + u16::from(b - b'0') * 10 + u16::from(c - b'0'))
            }
            _ => return Err(bad),
        };
        let size_at = after + 1 + words[0].len() + 1;
        let bytes = match words.get(1).copied() {
            None => return Err(ClfError::NoBytes(size_at - 1)),
            Some([b'-']) => None,
            Some(d) if !d.is_empty() && d.len() <= 19 && d.iter().all(u8::is_ascii_digit) => {
                Some(d.iter().fold(0u64, |n, &c| n * 10 + u64::from(c - b'0')))
            }
            Some(_) => return Err(ClfError::NoBytes(size_at)),
        };
        Ok((status, bytes))
    }

    fn tchar(c: u8) -> bool {
        c.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&c)
    }

    pub(super) fn raw_request(b: &[u8]) -> Result<RawRequest<'_>, ClfError> {
        let (open, close) = quotes(b)?;
        let (status, bytes) = fields(b, open, close)?;
        let from = open + 1;
        if &b[from..close] == b"-" {
            return Err(ClfError::Dash(from));
        }
        let r = &b[from..close];
        let m = r.iter().take_while(|&&c| tchar(c)).count();
        if m == r.len() && m > 0 {
            return Err(ClfError::NoTarget(close));
        }
        if m == 0 || r[m] != b' ' {
            return Err(ClfError::NotRequest(from + m));
        }
        let method = from..from + m;
        let start = (method.end..close).find(|&k| b[k] != b' ').ok_or(ClfError::NoTarget(close))?;
        let words: Vec<&[u8]> = b[start..close].split(|&c| c == b' ').collect();
        let (target, protocol) = if words.len() == 1 {
            (start..close, None)
        } else {
            let last = words[words.len() - 1];
            let version = last.len() == 8
                && last.starts_with(b"HTTP/")
                && last[5].is_ascii_digit()
                && last[6] == b'.'
                && last[7].is_ascii_digit();
            if !version {
                let at = if last.is_empty() { close - 1 } else { close - last.len() };
                return Err(ClfError::NotRequest(at));
            }
            let p = close - 8;
            let end = (start..p).rev().find(|&k| b[k] != b' ').unwrap() + 1;
            (start..end, Some(p..close))
        };
        Ok(RawRequest {
            method: &b[method],
            offset: target.start,
            target: &b[target],
            protocol: protocol.map(|p| &b[p]),
            status,
            bytes,
        })
    }
}

/// SplitMix64: the same lines on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, from: &[&'a [u8]]) -> &'a [u8] {
        from[self.below(from.len())]
    }
}

/// The bytes the reader decides on, and a few it does not.
const ALPHABET: &[u8] = b"\"\\ []-0123456789HTP/aG:\xff\xc3";

fn noise(rng: &mut Rng, out: &mut Vec<u8>, max: usize) {
    for _ in 0..rng.below(max + 1) {
        out.push(ALPHABET[rng.below(ALPHABET.len())]);
    }
}

/// A log line put together from pieces, each well formed or not.
fn generated_line(rng: &mut Rng) -> Vec<u8> {
    let mut l = Vec::new();
    match rng.below(6) {
        0 => noise(rng, &mut l, 12),
        1 => l.extend_from_slice(b"h - - [d] "),
        _ => l.extend_from_slice(rng.pick(&[
            b"h - - [d] ",
            b"10.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] ",
            b"h [ [d] ",
            b" h - - [d] ",
            b"h - - [d]",
            b"[d] ",
            b"h x[d] ",
            b"v.dom:80 h - - [d] ",
            b"h - - u [d] ",
            b"h - [d] ",
            b"h \xff [d\\] ",
        ])),
    }
    if rng.below(8) != 0 {
        l.push(b'"');
    }
    match rng.below(5) {
        0 => noise(rng, &mut l, 24),
        // `"-"`, and a method alone.
        1 => l.push(b'-'),
        2 => {
            l.extend_from_slice(rng.pick(&[b"GET", b"\\x16\\x03", b""]));
            l.extend_from_slice(&b"    "[..rng.below(4)]);
        }
        _ => {
            l.extend_from_slice(rng.pick(&[b"GET", b"CONNECT", b"", b"-", b"G\xffT", b"\\"]));
            l.extend_from_slice(&b"    "[..rng.below(4)]);
            l.extend_from_slice(rng.pick(&[
                b"/a",
                b"http://h.dom/p?q",
                b"*",
                b"/a b",
                b"/a\\\"b",
                b"/a\\\\",
                b"/a\\",
                b"HTTP/1.1",
                b"",
                b"/\xff",
            ]));
            noise(rng, &mut l, 3);
            l.extend_from_slice(&b"    "[..rng.below(4)]);
            l.extend_from_slice(rng.pick(&[
                b"HTTP/1.0",
                b"HTTP/",
                b"http/1.1",
                b"",
                b"HTTP/1.1 ",
                b"HTTP/2\\\"",
            ]));
        }
    }
    if rng.below(8) != 0 {
        l.push(b'"');
    }
    match rng.below(4) {
        0 => noise(rng, &mut l, 12),
        1 => l.extend_from_slice(rng.pick(&[b" 200 1", b" - -", b" 404 512 \"-\" \"ua\"", b" 200 0 "])),
        _ => {
            l.extend_from_slice(
                rng.pick(&[b" 200", b" -", b" 2000", b" 20", b"  200", b"200", b" 2x0", b""]),
            );
            l.extend_from_slice(rng.pick(&[
                b" 1",
                b" -",
                b" 9999999999999999999",
                b" 18446744073709551615",
                b" ",
                b"",
                b" 1x",
                b"  1",
            ]));
            l.extend_from_slice(rng.pick(&[b"", b" ", b" \"-\" \"ua\"", b"\"", b" \xff"]));
        }
    }
    l
}

/// A line with one byte of the alphabet put in, taken out or replaced.
fn mutated(rng: &mut Rng, line: &[u8]) -> Vec<u8> {
    let mut l = line.to_vec();
    for _ in 0..=rng.below(3) {
        let at = rng.below(l.len() + 1);
        let c = ALPHABET[rng.below(ALPHABET.len())];
        match rng.below(3) {
            0 => l.insert(at, c),
            1 if at < l.len() => drop(l.remove(at)),
            _ if at < l.len() => l[at] = c,
            _ => l.push(c),
        }
    }
    l
}

#[test]
fn the_reader_reads_as_the_oracle() {
    let mut lines: Vec<Vec<u8>> = TRICKY.iter().map(|(l, _)| l.to_vec()).collect();
    let fuzz = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/clf");
    for entry in std::fs::read_dir(fuzz).into_iter().flatten().flatten() {
        lines.push(std::fs::read(entry.path()).unwrap());
    }
    let mut rng = Rng(1738);
    let seeds = lines.clone();
    for _ in 0..200_000 {
        lines.push(generated_line(&mut rng));
    }
    for _ in 0..100_000 {
        let seed = &seeds[rng.below(seeds.len())];
        lines.push(mutated(&mut rng, seed));
    }
    for _ in 0..50_000 {
        let mut l = Vec::new();
        noise(&mut rng, &mut l, 40);
        lines.push(l);
    }
    let mut seen = std::collections::BTreeMap::new();
    for line in &lines {
        let got = raw_request(line);
        assert_eq!(got, oracle::raw_request(line), "{}", String::from_utf8_lossy(line));
        let outcome = got.map_or_else(ClfError::id, |r| if r.protocol.is_some() { "ok" } else { "ok-0.9" });
        *seen.entry(outcome).or_insert(0) += 1;
    }
    // Every answer is given often, so that each is compared.
    assert_eq!(seen.len(), 14, "{seen:?}");
    assert!(seen.values().all(|&n| n > 1000), "{seen:?}");
}

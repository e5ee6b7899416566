//! Tests of `rfc1738::extract`: the cases in `extract-cases/extract.txt` (the format
//! is described at the top of that file), adversarial inputs, and
//! properties over generated text.

use rfc1738::extract::{find_iter, Finder, Form, Match, MAX_WRAPPER};

const OPEN: char = '⟦';
const CLOSE: char = '⟧';

/// One URL a case expects.
#[derive(Debug, PartialEq)]
struct Expected {
    span: (usize, usize),
    form: Form,
    url: String,
    alternative: Option<String>,
}

/// Decodes the escapes `\n \r \t \s \\ \u{HEX}` of a case line, and
/// `{COUNT}` after `\n \r \t \s`.
fn unescape(s: &str, line: usize) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let mut repeated = |c: char, chars: &mut std::iter::Peekable<std::str::Chars<'_>>| {
            let mut count = 1;
            if chars.peek() == Some(&'{') {
                chars.next();
                let digits: String = chars.by_ref().take_while(|&c| c != '}').collect();
                count = digits.parse().unwrap_or_else(|_| panic!("line {line}: bad {{COUNT}}"));
            }
            out.extend(std::iter::repeat(c).take(count));
        };
        match chars.next() {
            Some('n') => repeated('\n', &mut chars),
            Some('r') => repeated('\r', &mut chars),
            Some('t') => repeated('\t', &mut chars),
            Some('s') => repeated(' ', &mut chars),
            Some('\\') => out.push('\\'),
            Some('u') => {
                let rest: String = chars.by_ref().take_while(|&c| c != '}').collect();
                let hex = rest.strip_prefix('{').unwrap_or_else(|| panic!("line {line}: bad \\u escape"));
                let code =
                    u32::from_str_radix(hex, 16).unwrap_or_else(|_| panic!("line {line}: bad \\u escape"));
                out.push(char::from_u32(code).unwrap_or_else(|| panic!("line {line}: bad \\u escape")));
            }
            other => panic!("line {line}: unknown escape \\{other:?}"),
        }
    }
    out
}

/// The URL a span stands for when the case does not list it: the wrapper
/// removed and the whitespace deleted.
fn default_url(written: &str) -> (Form, String) {
    let (form, inner) = if written.len() >= 5 && written[..5].eq_ignore_ascii_case("<URL:") {
        (Form::UrlPrefix, &written[5..written.len() - 1])
    } else if let Some(inner) = written.strip_prefix('<') {
        (Form::Angle, &inner[..inner.len() - 1])
    } else {
        (Form::Bare, written)
    };
    (form, inner.chars().filter(|c| !c.is_whitespace() && *c != '\u{200B}').collect())
}

/// Reads one case: the text to search and the URLs expected.
fn parse_case(line: &str, n: usize) -> (String, Vec<Expected>) {
    let (input, listed) = match line.split_once(" ==> ") {
        Some((input, listed)) => (input, Some(listed)),
        None => (line, None),
    };
    let input = unescape(input, n);
    let mut text = String::new();
    let mut spans = Vec::new();
    let mut open = None;
    for c in input.chars() {
        match c {
            OPEN => open = Some(text.len()),
            CLOSE => {
                spans.push((open.take().unwrap_or_else(|| panic!("line {n}: unopened marker")), text.len()))
            }
            _ => text.push(c),
        }
    }
    let mut expected: Vec<Expected> = spans
        .iter()
        .map(|&(s, e)| {
            let (form, url) = default_url(&text[s..e]);
            Expected { span: (s, e), form, url, alternative: None }
        })
        .collect();
    if let Some(listed) = listed {
        let listed: Vec<&str> = listed.split(" | ").collect();
        assert_eq!(listed.len(), expected.len(), "line {n}: as many URLs listed as marked");
        for (exp, item) in expected.iter_mut().zip(listed) {
            let mut words = item.split(' ');
            exp.url = words.next().unwrap_or_default().to_owned();
            for word in words {
                let alt =
                    word.strip_prefix("alt=").unwrap_or_else(|| panic!("line {n}: unknown field {word:?}"));
                exp.alternative = Some(alt.to_owned());
            }
        }
    }
    (text, expected)
}

fn actual(m: &Match<'_>) -> Expected {
    Expected {
        span: (m.start(), m.end()),
        form: m.form(),
        url: m.as_str().to_owned(),
        alternative: m.alternative(),
    }
}

#[test]
fn cases() {
    let file = include_str!("extract-cases/extract.txt");
    let mut failures = Vec::new();
    let mut count = 0;
    for (i, line) in file.lines().enumerate() {
        let n = i + 1;
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        count += 1;
        let (text, expected) = parse_case(line, n);
        let got: Vec<Expected> = find_iter(&text).map(|m| actual(&m)).collect();
        if got != expected {
            failures.push(format!("line {n}: {text:?}\n  expected {expected:?}\n  got      {got:?}"));
        }
    }
    assert!(count > 100, "the case file was read");
    assert!(failures.is_empty(), "{} of {count} cases failed:\n{}", failures.len(), failures.join("\n"));
}

/// The Appendix example exactly as RFC 1738 prints it, page layout included.
#[test]
fn rfc_appendix_example() {
    let text = "   Examples:

      Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;
      type=d> but you can probably pick it up from <URL:ftp://ds.in
      ternic.net/rfc>. Note the warning in <URL:http://ds.internic.
      net/instructions/overview.html#WARNING>.
";
    let urls: Vec<_> = find_iter(text).map(Match::into_string).collect();
    assert_eq!(
        urls,
        [
            "ftp://info.cern.ch/pub/www/doc;type=d",
            "ftp://ds.internic.net/rfc",
            "http://ds.internic.net/instructions/overview.html#WARNING",
        ]
    );
    assert!(find_iter(text).all(|m| m.form() == Form::UrlPrefix && !m.is_ambiguous()));
}

/// Wrapped URLs from the RFC's references: all found whole, all valid.
#[test]
fn rfc_references_parse() {
    let text = "
   [1] Anklesaria, F., McCahill, M., Lindner, P., Johnson, D.,
       Torrey, D., and B. Alberti, \"The Internet Gopher Protocol
       (a distributed document search and retrieval protocol)\",
       RFC 1436, University of Minnesota, March 1993.
       <URL:ftp://ds.internic.net/rfc/rfc1436.txt;type=a>

   [2] Anklesaria, F., Lindner, P., McCahill, M., Torrey, D.,
       Johnson, D., and B. Alberti, \"Gopher+: Upward compatible
       enhancements to the Internet Gopher protocol\",
       University of Minnesota, July 1993.
       <URL:ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol
       /Gopher+/Gopher+.txt>

   [12] Kunze, J., \"Functional Requirements for Internet Resource
        Locators\", Work in Progress, December 1994.
        <URL:ftp://ds.internic.net/internet-drafts
        /draft-ietf-uri-irl-fun-req-02.txt>

   [14] Neuman, B., and S. Augart, \"The Prospero Protocol\",
        USC/Information Sciences Institute, June 1993.
        <URL:ftp://prospero.isi.edu/pub/prospero/doc
        /prospero-protocol.PS.Z>

   [18] Yeong, W. \"Towards Networked Information Retrieval\", Technical
        report 91-06-25-01, Performance Systems International, Inc.
        <URL:ftp://uu.psi.com/wp/nir.txt>, June 1991.
";
    let found: Vec<_> = find_iter(text).collect();
    let urls: Vec<_> = found.iter().map(Match::as_str).collect();
    assert_eq!(
        urls,
        [
            "ftp://ds.internic.net/rfc/rfc1436.txt;type=a",
            "ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol/Gopher+/Gopher+.txt",
            "ftp://ds.internic.net/internet-drafts/draft-ietf-uri-irl-fun-req-02.txt",
            "ftp://prospero.isi.edu/pub/prospero/doc/prospero-protocol.PS.Z",
            "ftp://uu.psi.com/wp/nir.txt",
        ]
    );
    for m in &found {
        let url = m.parse().unwrap_or_else(|e| panic!("{m}: {e}"));
        assert_eq!(url.scheme(), "ftp");
        assert_eq!(m.validate(), Ok(()));
    }
}

/// The parse result comes with each URL; an error's offset maps back into
/// the text.
#[test]
fn parse_results() {
    let text = "Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;
      type=d> but you can probably pick it up from <URL:ftp://ds.in
      ternic.net/rfc>. Note the warning in <URL:http://ds.internic.
      net/instructions/overview.html#WARNING>.";
    for m in find_iter(text) {
        let url = m.parse().unwrap_or_else(|e| panic!("{m}: {e}"));
        assert_eq!(url.as_str(), m.as_str());
    }
    let m = find_iter(text).last().unwrap();
    assert_eq!(m.parse().unwrap().fragment(), Some("WARNING"));

    // Unsafe characters are kept inside a wrapper, and make it invalid.
    let text = "see <URL:http://a.org/\n   ~joe/> or <http://a.org/{x}>";
    let errors: Vec<_> = find_iter(text)
        .map(|m| {
            let e = m.validate().unwrap_err();
            (m.parse().unwrap_err(), &text[m.text_offset(e.offset())..][..1])
        })
        .collect();
    assert_eq!(errors.len(), 2);
    assert_eq!((errors[0].1, errors[1].1), ("~", "{"));
    // A bare URL stops short of them, and is valid.
    let m = find_iter("http://a.org/~joe/").next().unwrap();
    assert_eq!((m.as_str(), m.validate()), ("http://a.org/", Ok(())));
}

#[test]
fn bare_can_be_turned_off() {
    let text = "http://a.org/ <URL:http://b.org/> <mailto:c@d.org>";
    let urls: Vec<_> = Finder::new().bare(false).find_iter(text).map(Match::into_string).collect();
    assert_eq!(urls, ["http://b.org/", "mailto:c@d.org"]);
}

// Adversarial inputs. Each is 1 MiB or more: a scan that went back over
// the text for every candidate would take some 10^12 steps on them, far
// beyond any test run, so finishing at all bounds the work to about linear.
// The assertions are on results; timings belong in the benchmarks.

const MIB: usize = 1 << 20;

fn urls(text: &str) -> Vec<String> {
    find_iter(text).map(Match::into_string).collect()
}

#[test]
fn adversarial_runs_of_one_character() {
    for c in ["<", ":", ".", "@", "-", "/", "(", ")", "'", "#", "%", ">", "\n", " ", "a", "见"] {
        let text = c.repeat(MIB / c.len());
        assert!(urls(&text).is_empty(), "{c:?}");
        // With a URL after the run, the URL is still found.
        let text = format!("{text} http://a.org/x");
        assert_eq!(urls(&text), ["http://a.org/x"], "{c:?}");
    }
}

#[test]
fn adversarial_unterminated_wrappers() {
    let text = "<URL:".repeat(MIB / 5);
    assert!(urls(&text).is_empty());
    let text = "<http:".repeat(MIB / 6);
    assert!(urls(&text).is_empty());
    let text = "<URL:http://a.org/ ".repeat(MIB / 19);
    assert_eq!(urls(&text).len(), MIB / 19, "each abandoned wrapper leaves its bare URL");
    // One wrapper that is never closed, over a long text of URL characters.
    let text = format!("<URL:http://{}", "a".repeat(MIB));
    assert_eq!(urls(&text), [format!("http://{}", "a".repeat(MIB))]);
    // One wrapper, closed at the very end, across many lines: read whole up
    // to MAX_WRAPPER bytes; past it, no wrapper, and the bare URL ends at
    // the first line break.
    let lines = (MAX_WRAPPER - 19) / 2;
    let text = format!("<URL:http://a.org/{}>", "x\n".repeat(lines));
    assert!(text.len() <= MAX_WRAPPER);
    assert_eq!(urls(&text), [format!("http://a.org/{}", "x".repeat(lines))]);
    let text = format!("<URL:http://a.org/{}>", "x\n".repeat(MIB / 2));
    assert_eq!(urls(&text), ["http://a.org/x"]);
    // Quote marks on every line of a quoted message.
    let lines = (MAX_WRAPPER - 21) / 4;
    let text = format!("> <URL:http://a.org/{}>", "x\n> ".repeat(lines));
    assert_eq!(urls(&text), [format!("http://a.org/{}", "x".repeat(lines))]);
    let text = format!("> <URL:http://a.org/{}>", "x\n> ".repeat(MIB / 4));
    assert_eq!(urls(&text), ["http://a.org/x"]);
    // Blank lines and runs of spaces: within the bound, deleted; past it,
    // nothing joined; many wrappers never closed, each abandoned at the
    // next "<".
    let text = format!("<URL:a:b{}c>", "\n".repeat(MAX_WRAPPER - 10));
    assert_eq!(urls(&text), ["a:bc"]);
    let text = format!("<URL:a:b{}c>", "\n".repeat(MAX_WRAPPER - 9));
    assert!(urls(&text).is_empty());
    let text = format!("<URL:http://a.org/{}x>", " \r\n\r\n\t".repeat(MIB / 6));
    assert_eq!(urls(&text), ["http://a.org/"]);
    let text = "<URL:http://a.org/\n\n".repeat(MIB / 20);
    assert_eq!(urls(&text).len(), MIB / 20, "each abandoned wrapper leaves its bare URL");
    let text = "<URL:a:b\n\n c> ".repeat(MIB / 16);
    assert_eq!(urls(&text).len(), MIB / 16);
    let text = format!("<URL:a:b{}", " ".repeat(MIB));
    assert!(urls(&text).is_empty());
    let text = format!("{}<URL:http://a.org/>", "> ".repeat(MIB / 2));
    assert_eq!(urls(&text), ["http://a.org/"]);
    let text = format!("{}{}", ">".repeat(MIB / 2), "<URL:".repeat(MIB / 10));
    assert!(urls(&text).is_empty());
    // Wrappers that cross a line after a long line: the quote marks of
    // each line are counted once.
    let text = format!("{}{}", "> ".repeat(MIB / 2), "<URL:a:b\nc> ".repeat(MIB / 12));
    assert_eq!(urls(&text).len(), MIB / 12);
    let text = format!("{}{}", "x ".repeat(MIB / 2), "<URL:a:b\n<URL:c:d\n".repeat(MIB / 20));
    assert_eq!(urls(&text).len(), 0);
}

#[test]
fn adversarial_schemes_and_punctuation() {
    // A long scheme, many times.
    let text = format!("{}:", "a".repeat(MIB));
    assert!(urls(&text).is_empty());
    let text = "ab:".repeat(MIB / 3);
    assert!(urls(&text).is_empty());
    let text = "ab:// ".repeat(MIB / 6);
    assert!(urls(&text).is_empty());
    // Bodies that are all trailing punctuation.
    let text = format!("http://{}", ".:".repeat(MIB / 2));
    assert!(urls(&text).is_empty());
    let text = "ab://.:".repeat(MIB / 7);
    assert_eq!(urls(&text).len(), 1, "one URL: the rest is its body");
    // Unbalanced brackets and quotes.
    let text = format!("http://a.org/{}", "(".repeat(MIB));
    assert_eq!(urls(&text), ["http://a.org/"]);
    let text = format!("http://a.org/{}", "'".repeat(MIB + 1));
    assert_eq!(urls(&text), [format!("http://a.org/{}", "'".repeat(MIB))]);
    let text = "http://a.org/)".repeat(MIB / 14);
    assert_eq!(urls(&text).len(), MIB / 14);
    // Many hyphen breaks in one wrapper, as many as its bound holds; and a
    // wrapper past it, with many more.
    let n = (MAX_WRAPPER - 20) / 3;
    let text = format!("<URL:http://a.org/{}x>", "a-\n".repeat(n));
    let m = find_iter(&text).next().unwrap();
    assert_eq!(m.hyphen_breaks().len(), n);
    assert_eq!(m.alternative().unwrap().len(), m.as_str().len() - n);
    let text = format!("<URL:http://a.org/{}x>", "a-\n".repeat(MIB / 3));
    assert_eq!(urls(&text), ["http://a.org/a-"]);
    // Many URLs.
    let text = "mailto:a@b.c ".repeat(MIB / 13);
    assert_eq!(urls(&text).len(), MIB / 13);
    let text = "<news:a>".repeat(MIB / 8);
    assert_eq!(urls(&text).len(), MIB / 8);
}

// Properties over generated text: a small deterministic generator (xorshift)
// picks pieces that exercise every rule.

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

const PIECES: &[&str] = &[
    "<", ">", "<URL:", "<url:", ":", "//", "/", ".", ",", ";", "!", "?", "'", "\"", "(", ")", "[", "]", "#",
    "%", "%4", "%41", "-", "-\n", "\n", "\r\n", "\n\n", " ", "\t", "\u{A0}", "> ", "a", "b", "x.org", "3",
    "C", "http", "ftp", "mailto", "news", "http://", "news:", "mailto:", "@", "~", "é", "。", "）", "「",
    "\u{200B}", "=", "&", "*",
];

fn generate(rng: &mut Rng) -> String {
    let len = rng.next() % 40;
    (0..len).map(|_| rng.pick(PIECES)).collect()
}

fn is_bare_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"$-_.+!*'(),;/?:@&=%#".contains(&b)
}

#[test]
fn properties_on_generated_text() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..200_000 {
        let text = generate(&mut rng);
        let found: Vec<Match<'_>> = find_iter(&text).collect();
        let mut last_end = 0;
        for m in &found {
            let ctx = format!("{text:?} -> {m:?}");
            // Spans are in order, do not overlap, and lie on characters.
            assert!(last_end <= m.start() && m.start() < m.end() && m.end() <= text.len(), "{ctx}");
            assert!(text.is_char_boundary(m.start()) && text.is_char_boundary(m.end()), "{ctx}");
            last_end = m.end();
            let written = &text[m.range()];
            let url = m.as_str();
            // Every URL starts with a scheme of a letter, then a colon.
            assert!(url.as_bytes()[0].is_ascii_alphabetic() && !m.scheme().is_empty(), "{ctx}");
            assert!(!url.chars().any(char::is_whitespace), "{ctx}");
            match m.form() {
                Form::Bare => {
                    assert_eq!(written, url, "{ctx}");
                    assert!(url.bytes().all(is_bare_byte), "{ctx}");
                    assert!(!url.ends_with(['.', ',', ';', ':', '!', '?', '(', '#']), "{ctx}");
                    assert!(!m.is_ambiguous(), "{ctx}");
                    // Found again on its own, the URL is the same.
                    let again: Vec<_> = find_iter(url).map(|m| (m.range(), m.form())).collect();
                    assert_eq!(again, [(0..url.len(), Form::Bare)], "{ctx}");
                }
                Form::UrlPrefix | Form::Angle => {
                    assert!(written.starts_with('<') && written.ends_with('>'), "{ctx}");
                    let inner = &written[if m.form() == Form::Angle { 1 } else { 5 }..written.len() - 1];
                    if !inner.contains('>') {
                        let expected: String =
                            inner.chars().filter(|c| !c.is_whitespace() && *c != '\u{200B}').collect();
                        assert_eq!(url, expected, "{ctx}");
                    }
                    // Wrapped anew, the URL is found whole.
                    let rewrapped = format!("<URL:{url}>");
                    let again: Vec<_> = find_iter(&rewrapped).map(Match::into_string).collect();
                    assert_eq!(again, [url], "{ctx}");
                    // Every character of the URL maps back to itself in the text.
                    for (k, c) in url.char_indices() {
                        assert!(text[m.text_offset(k)..].starts_with(c), "{ctx} at {k}");
                    }
                    if let Some(alt) = m.alternative() {
                        assert_eq!(alt.len() + m.hyphen_breaks().len(), url.len(), "{ctx}");
                    }
                }
            }
        }
        // Without bare URLs, the wrapped ones are the same.
        let wrapped: Vec<_> = found.iter().filter(|m| m.form().is_wrapped()).cloned().collect();
        let only: Vec<_> = Finder::new().bare(false).find_iter(&text).collect();
        assert_eq!(only, wrapped, "{text:?}");
    }
}

/// The library example of the README.
#[test]
fn readme_example() {
    let text = "Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;
      type=d> (see also http://info.cern.ch/).";
    let found: Vec<_> = Finder::new().find_iter(text).collect();
    assert_eq!(found[0].as_str(), "ftp://info.cern.ch/pub/www/doc;type=d");
    assert_eq!((found[0].form(), found[0].range()), (Form::UrlPrefix, 27..77));
    assert_eq!(found[1].as_str(), "http://info.cern.ch/");
    assert!(found[1].parse().is_ok());
}

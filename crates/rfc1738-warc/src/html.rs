//! The links of an HTML page: the `href` and `src` attributes of its
//! tags, resolved against the page (or its `<base href>`) by RFC 1808.
//!
//! A crawl reads pages for the URLs they name, not to show them: a tag
//! scanner is enough. It skips comments, declarations and the text of
//! `script` and `style` elements, where a `<a href` is not a tag.

use rfc1738::Url;

/// The schemes a crawl archives; links to others (`mailto:`,
/// `javascript:`, `data:`, `https:`) are not followed, as a gopher
/// menu's telnet items are not.
const ARCHIVED: [&str; 5] = ["gopher", "ftp", "http", "news", "nntp"];

/// The URL each `href` and `src` of `html` names, in order, fragments
/// dropped (they locate a part of a document, not another one). Relative
/// references are resolved against `<base href>`, else `page`; without a
/// page (a gopher `h` item: a selector has no hierarchy) they are not
/// followed. A link that makes no URL is an `Err` saying why.
pub(crate) fn links(page: Option<&Url>, html: &[u8]) -> Vec<Result<String, String>> {
    let attributes = attributes(html);
    let base = attributes
        .iter()
        .find(|(tag, name, _)| tag == "base" && name == "href")
        .and_then(|(_, _, href)| page?.resolve(&browser_escape(href)).ok());
    let base = base.as_ref().or(page);
    let mut out = Vec::new();
    for (tag, name, value) in &attributes {
        if tag == "base" || !matches!(name.as_str(), "href" | "src") {
            continue;
        }
        let reference = browser_escape(value);
        let reference = reference.split('#').next().unwrap_or("");
        if reference.is_empty() {
            continue;
        }
        let resolved = match scheme(reference) {
            Some(s) if !ARCHIVED.contains(&s.to_ascii_lowercase().as_str()) => continue,
            Some(_) => Url::parse(reference).map_err(|e| e.to_string()),
            None => match base {
                Some(base) => base.resolve(reference).map_err(|e| e.to_string()),
                None => continue,
            },
        };
        out.push(
            resolved.map(|u| u.as_str().to_string()).map_err(|e| {
                format!("the link {:?} makes no url: {e}", rfc1738_access::show(value.as_bytes()))
            }),
        );
    }
    out
}

/// The scheme of an absolute reference (RFC 1808 §2.2: letters, digits,
/// `+`, `.`, `-`, then `:`); `None` for a relative one.
fn scheme(reference: &str) -> Option<&str> {
    let (scheme, _) = reference.split_once(':')?;
    let mut bytes = scheme.bytes();
    let first = bytes.next()?;
    (first.is_ascii_alphabetic() && bytes.all(|b| b.is_ascii_alphanumeric() || b"+.-".contains(&b)))
        .then_some(scheme)
}

/// An attribute value as a browser reads it for a URL: ASCII whitespace
/// around it dropped, TAB, CR and LF in it removed, and the octets no URL
/// holds (space, non-ASCII, `"<>\^`{|}`) written `%HH`.
fn browser_escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for &b in value.trim_matches(|c: char| c.is_ascii_whitespace()).as_bytes() {
        match b {
            b'\t' | b'\r' | b'\n' => {}
            0x21..=0x7e if !b"\"<>\\^`{|}".contains(&b) => out.push(char::from(b)),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Every attribute of every start tag: tag and name in lower case, the
/// value with its character references decoded.
pub(crate) fn attributes(html: &[u8]) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(lt) = html[i..].iter().position(|&b| b == b'<') {
        i += lt + 1;
        let rest = &html[i..];
        if rest.starts_with(b"!--") {
            i = find(html, i + 3, b"-->").map_or(html.len(), |at| at + 3);
            continue;
        }
        let name_len = rest.iter().take_while(|b| b.is_ascii_alphanumeric()).count();
        if name_len == 0 {
            // An end tag, a declaration, a `<` in text: up to its `>`.
            continue;
        }
        let tag = String::from_utf8_lossy(&rest[..name_len]).to_ascii_lowercase();
        i += name_len;
        i = tag_attributes(html, i, &tag, &mut out);
        if tag == "script" || tag == "style" {
            // Raw text: the element ends at its end tag, whatever it holds.
            let end = format!("</{tag}");
            i = find_ignore_case(html, i, end.as_bytes()).unwrap_or(html.len());
        }
    }
    out
}

/// The attributes of one start tag from `i`, pushed to `out`; where the
/// tag ends (after its `>`).
fn tag_attributes(html: &[u8], mut i: usize, tag: &str, out: &mut Vec<(String, String, String)>) -> usize {
    let space = |b: &u8| b.is_ascii_whitespace() || *b == b'/';
    loop {
        while html.get(i).is_some_and(space) {
            i += 1;
        }
        match html.get(i) {
            None => return i,
            Some(b'>') => return i + 1,
            _ => {}
        }
        let start = i;
        while html.get(i).is_some_and(|b| !space(b) && !b"=>".contains(b)) {
            i += 1;
        }
        let name = String::from_utf8_lossy(&html[start..i]).to_ascii_lowercase();
        while html.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        let mut value = Vec::new();
        if html.get(i) == Some(&b'=') {
            i += 1;
            while html.get(i).is_some_and(u8::is_ascii_whitespace) {
                i += 1;
            }
            match html.get(i) {
                Some(&q) if q == b'"' || q == b'\'' => {
                    let end = html[i + 1..].iter().position(|&b| b == q).map_or(html.len(), |n| i + 1 + n);
                    value = html[i + 1..end].to_vec();
                    i = (end + 1).min(html.len());
                }
                _ => {
                    let start = i;
                    while html.get(i).is_some_and(|b| !b.is_ascii_whitespace() && *b != b'>') {
                        i += 1;
                    }
                    value = html[start..i].to_vec();
                }
            }
        }
        out.push((tag.to_string(), name, decode_references(&String::from_utf8_lossy(&value))));
    }
}

fn find(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    hay.get(from..)?.windows(needle.len()).position(|w| w == needle).map(|at| from + at)
}

fn find_ignore_case(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    hay.get(from..)?.windows(needle.len()).position(|w| w.eq_ignore_ascii_case(needle)).map(|at| from + at)
}

/// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#N;` and `&#xH;`
/// decoded; any other `&` kept as it is.
fn decode_references(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let end = rest.find(';').filter(|&e| e <= 10);
        let decoded = end.and_then(|e| match &rest[1..e] {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            n if n.starts_with("#x") || n.starts_with("#X") => {
                u32::from_str_radix(&n[2..], 16).ok().and_then(char::from_u32)
            }
            n if n.starts_with('#') => n[1..].parse().ok().and_then(char::from_u32),
            _ => None,
        });
        match (decoded, end) {
            (Some(c), Some(e)) => {
                out.push(c);
                rest = &rest[e + 1..];
            }
            _ => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(page: &str, html: &str) -> Vec<Result<String, String>> {
        links(Some(&Url::parse(page).unwrap()), html.as_bytes())
    }

    #[test]
    fn hrefs_and_srcs_resolved_against_the_page() {
        let got = of(
            "http://h.example/a/b.html",
            "<A HREF=c.html>x</A><img src = '../d.gif'><a href=\"/e?x=1&amp;y=2#f\"></a>\
             <a name=top><a href='#top'><a href=' g h '><link href=\"ftp://h.example/pub/\">",
        );
        let want = [
            "http://h.example/a/c.html",
            "http://h.example/d.gif",
            "http://h.example/e?x=1&y=2",
            "http://h.example/a/g%20h",
            "ftp://h.example/pub/",
        ];
        assert_eq!(got, want.map(|u| Ok(u.to_string())));
    }

    #[test]
    fn comments_scripts_and_other_schemes_name_nothing() {
        let got = of(
            "http://h.example/",
            "<!-- <a href=x.html> --><script>document.write('<a href=y.html>')</script>\
             <style>a { background: url(<img src=z.gif>) }</STYLE>\
             <a href=mailto:me@h.example><a href=javascript:void(0)><a href=https://h.example/>\
             <a href=ok.html>",
        );
        assert_eq!(got, [Ok("http://h.example/ok.html".to_string())]);
    }

    #[test]
    fn a_base_element_moves_every_relative_link() {
        let got = of("http://h.example/a/", "<head><base href=\"/b/\"></head><a href=c>");
        assert_eq!(got, [Ok("http://h.example/b/c".to_string())]);
    }

    #[test]
    fn without_a_page_only_absolute_links_count() {
        let got = links(None, b"<a href=rel.html><a href=\"gopher://g.example/1/\">");
        assert_eq!(got, [Ok("gopher://g.example/1/".to_string())]);
    }

    #[test]
    fn what_makes_no_url_says_why_and_nothing_panics() {
        let got = of("http://h.example/", "<a href=\"ftp://h.example/%zz\">");
        assert!(got[0].as_ref().unwrap_err().contains("makes no url"), "{got:?}");
        for html in
            ["<", "<a", "<a href", "<a href=", "<a href='x", "<!--", "<script>", "&#xFFFFFFFF;", "<a\u{0}>"]
        {
            let _ = of("http://h.example/", html);
        }
        assert_eq!(decode_references("&#65;&#x42;&amp&lt;&nope;"), "AB&amp<&nope;");
    }
}

//! A generated corpus of URLs in the schemes RFC 1738 defines.
//!
//! The real URL lists are almost all `http`, `https` and `file`; this corpus
//! covers `ftp`, `gopher`, `news`, `nntp`, `telnet`, `wais`, `mailto`,
//! `file`, `prospero`, `http` and other schemes, following the §5 BNF, with
//! escapes, logins, ports, `;type=` codes and a share of broken inputs (a
//! byte outside `xchar`, a bad escape, a bad port) so the error paths run
//! too. It is a pure function of the seed, so every run and every machine
//! measures the same URLs; `gen-corpus` writes it to
//! `benches/data/rfc1738-schemes.txt` for reading and for other tools.

use crate::rng::Rng;

/// The seed of the committed corpus.
pub const SEED: u64 = 1738;
/// The number of URLs in the committed corpus.
pub const COUNT: usize = 2000;
/// File name of the generated corpus, in tables and under `benches/data/`.
pub const FILE_NAME: &str = "rfc1738-schemes.txt";
/// Percentage of generated URLs that get one deliberate error.
pub const BROKEN_PERCENT: usize = 10;

const WORDS: &[&str] = &[
    "pub",
    "rfc",
    "doc",
    "info",
    "src",
    "gnu",
    "mirrors",
    "archive",
    "internet-drafts",
    "ietf",
    "README",
    "index",
    "welcome",
    "software",
    "unix",
    "X11",
    "contrib",
    "lib",
    "v1.2",
    "draft",
    "comp",
    "news",
    "data",
    "Mail",
    "users",
    "home",
    "cern",
    "www",
    "library",
    "catalog",
];
const TOPS: &[&str] = &["com", "edu", "net", "org", "gov", "mil", "uk", "de", "fr", "jp", "ch"];
const GROUPS: &[&str] = &[
    "comp.infosystems.www",
    "alt.hypertext",
    "news.announce.newusers",
    "comp.lang.c",
    "rec.arts.books",
    "sci.math",
    "comp.protocols.tcp-ip",
    "de.comp.lang.c++",
    "misc.test",
];
const EXTS: &[&str] = &["txt", "ps", "tar.Z", "html", "gz", "zip", "tex", "c"];
const OTHER_SCHEMES: &[&str] = &["x-dns", "cid", "mid", "z39.50s", "afs", "vemmi", "tn3270"];

/// Generates `count` URLs from `seed`, one per line, each line ending in `\n`.
#[must_use]
pub fn generate(seed: u64, count: usize) -> String {
    let mut rng = Rng::new(seed);
    let mut out = String::new();
    for _ in 0..count {
        let mut url = one(&mut rng);
        if rng.chance(BROKEN_PERCENT) {
            url = break_it(&mut rng, &url);
        }
        out.push_str(&url);
        out.push('\n');
    }
    out
}

/// The committed corpus: [`generate`]`(`[`SEED`]`, `[`COUNT`]`)`.
#[must_use]
pub fn corpus() -> String {
    generate(SEED, COUNT)
}

fn one(rng: &mut Rng) -> String {
    let scheme_pick = rng.below(100);
    let mut url = match scheme_pick {
        0..=19 => ftp(rng),
        20..=29 => http(rng),
        30..=39 => gopher(rng),
        40..=49 => mailto(rng),
        50..=57 => news(rng),
        58..=64 => nntp(rng),
        65..=71 => telnet(rng),
        72..=79 => wais(rng),
        80..=89 => file(rng),
        90..=95 => prospero(rng),
        _ => other(rng),
    };
    // §2.1: "programs interpreting URLs should treat upper case letters as
    // equivalent to lower case in scheme names".
    if rng.chance(5) {
        let colon = url.find(':').unwrap_or(0);
        url = url[..colon].to_ascii_uppercase() + &url[colon..];
    }
    url
}

fn ftp(rng: &mut Rng) -> String {
    let mut url = format!("ftp://{}", login(rng, 30));
    if rng.chance(90) {
        url.push('/');
        let n = rng.range(0, 4);
        for _ in 0..n {
            url += &segment(rng, "?:@&=");
            url.push('/');
        }
        url += &file_name(rng);
        if rng.chance(25) {
            url += ";type=";
            url.push(*rng.pick(&['a', 'i', 'd', 'A', 'I']));
        }
    }
    url
}

fn http(rng: &mut Rng) -> String {
    let mut url = format!("http://{}", hostport(rng));
    if rng.chance(85) {
        url.push('/');
        let n = rng.range(0, 4);
        let segments: Vec<String> = (0..n).map(|_| segment(rng, ";:@&=")).collect();
        url += &segments.join("/");
        if rng.chance(30) {
            url.push('?');
            url += &search(rng);
        }
    }
    url
}

fn gopher(rng: &mut Rng) -> String {
    let mut url = format!("gopher://{}", hostport(rng));
    if rng.chance(85) {
        url.push('/');
        url.push(*rng.pick(&['0', '1', '7', '9', 'h', 'I', 's']));
        url += &path_of(rng, 3);
        if rng.chance(20) {
            url += "%09";
            url += &search(rng);
            if rng.chance(30) {
                url += "%09+";
            }
        }
    }
    url
}

fn mailto(rng: &mut Rng) -> String {
    let user = word(rng).to_ascii_lowercase();
    let mut addr = if rng.chance(20) { format!("{user}.{}", word(rng).to_ascii_lowercase()) } else { user };
    if rng.chance(10) {
        // RFC 822 local parts may need escapes (§5: encoded822addr).
        addr += "%25relay";
    }
    format!("mailto:{addr}@{}", hostname(rng))
}

fn news(rng: &mut Rng) -> String {
    match rng.below(10) {
        0 => "news:*".to_owned(),
        1..=3 => format!("news:{}{}@{}", rng.range(1000, 999_999), segment(rng, ";/?:&="), hostname(rng)),
        _ => format!("news:{}", rng.pick(GROUPS)),
    }
}

fn nntp(rng: &mut Rng) -> String {
    let mut url = format!("nntp://{}/{}", hostport(rng), rng.pick(GROUPS));
    if rng.chance(60) {
        url += &format!("/{}", rng.range(1, 99_999));
    }
    url
}

fn telnet(rng: &mut Rng) -> String {
    let mut url = format!("telnet://{}", login(rng, 50));
    if rng.chance(40) {
        url.push('/');
    }
    url
}

fn wais(rng: &mut Rng) -> String {
    let mut url = format!("wais://{}/{}", hostport(rng), word(rng));
    match rng.below(3) {
        0 => {}
        1 => url += &format!("?{}", search(rng)),
        _ => url += &format!("/TEXT/{}{}", rng.range(0, 9999), segment(rng, "")),
    }
    url
}

fn file(rng: &mut Rng) -> String {
    let host = match rng.below(3) {
        0 => String::new(),
        1 => "localhost".to_owned(),
        _ => hostname(rng),
    };
    format!("file://{host}/{}{}", path_of(rng, 4), file_name(rng))
}

fn prospero(rng: &mut Rng) -> String {
    let mut url = format!("prospero://{}/{}", hostport(rng), path_of(rng, 3));
    url += &word(rng);
    let n = rng.range(0, 2);
    for _ in 0..n {
        url += &format!(";{}={}", word(rng).to_ascii_lowercase(), segment(rng, "?:@&"));
    }
    url
}

fn other(rng: &mut Rng) -> String {
    let scheme = rng.pick(OTHER_SCHEMES);
    if rng.chance(50) {
        format!("{scheme}://{}/{}", hostport(rng), path_of(rng, 2))
    } else {
        format!("{scheme}:{}", segment(rng, ";/?:@&="))
    }
}

fn word(rng: &mut Rng) -> String {
    (*rng.pick(WORDS)).to_owned()
}

fn file_name(rng: &mut Rng) -> String {
    format!("{}.{}", segment(rng, ""), rng.pick(EXTS))
}

/// Some `/`-terminated segments.
fn path_of(rng: &mut Rng, max: usize) -> String {
    let n = rng.range(0, max);
    (0..n).map(|_| segment(rng, "") + "/").collect()
}

/// A segment of `uchar`s plus the `extra_chars` its rule allows.
fn segment(rng: &mut Rng, extra_chars: &str) -> String {
    let mut s = word(rng);
    let n = rng.range(0, 3);
    for _ in 0..n {
        match rng.below(8) {
            0 => s += &format!("%{:02X}", rng.pick(b" ~#%\"<>{}[]|^`\\".as_slice())),
            1 => s.push(char::from(*rng.pick(b"$-_.+!*'(),".as_slice()))),
            2 if !extra_chars.is_empty() => {
                s.push(char::from(*rng.pick(extra_chars.as_bytes())));
            }
            _ => s += &word(rng),
        }
    }
    s
}

fn search(rng: &mut Rng) -> String {
    let n = rng.range(1, 3);
    let pairs: Vec<String> =
        (0..n).map(|_| format!("{}={}", word(rng).to_ascii_lowercase(), segment(rng, ";:@"))).collect();
    pairs.join("&")
}

/// `[ user [ ":" password ] "@" ] hostport`, with a login `percent` of the time.
fn login(rng: &mut Rng, percent: usize) -> String {
    let mut s = String::new();
    if rng.chance(percent) {
        s += if rng.chance(50) { "anonymous" } else { "guest" };
        if rng.chance(60) {
            s.push(':');
            s += &segment(rng, ";?&=");
        }
        s.push('@');
    }
    s + &hostport(rng)
}

fn hostport(rng: &mut Rng) -> String {
    let mut s = if rng.chance(10) {
        let octets: Vec<String> = (0..4).map(|_| rng.below(256).to_string()).collect();
        octets.join(".")
    } else {
        hostname(rng)
    };
    if rng.chance(20) {
        s += &format!(":{}", rng.pick(&[21, 70, 80, 119, 210, 1025, 8080]));
    }
    s
}

fn hostname(rng: &mut Rng) -> String {
    let n = rng.range(1, 3);
    let mut labels: Vec<String> = (0..n)
        .map(|_| {
            let w = word(rng).to_ascii_lowercase();
            // domainlabel: alphadigits, hyphens only inside.
            w.chars().filter(char::is_ascii_alphanumeric).collect()
        })
        .collect();
    labels.push((*rng.pick(TOPS)).to_owned());
    labels.join(".")
}

/// One deliberate error after the scheme: a byte outside `xchar`, a bad
/// escape, or a port that is not digits.
fn break_it(rng: &mut Rng, url: &str) -> String {
    let colon = url.find(':').map_or(0, |c| c + 1);
    let at = rng.range(colon, url.len());
    match rng.below(3) {
        0 => format!("{}{}{}", &url[..at], rng.pick(&[" ", "\"", "<", "{", "^", "~"]), &url[at..]),
        1 => format!("{}%G{}", &url[..at], &url[at..]),
        _ => match url[colon..].strip_prefix("//") {
            Some(rest) => {
                let end = rest.find('/').map_or(url.len(), |i| colon + 2 + i);
                format!("{}:8o{}", &url[..end], &url[end..])
            }
            None => format!("{} ", url),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::{corpus, generate, FILE_NAME};

    #[test]
    fn deterministic() {
        assert_eq!(generate(7, 50), generate(7, 50));
        assert_ne!(generate(7, 50), generate(8, 50));
    }

    #[test]
    fn committed_file_is_current() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data").join(FILE_NAME);
        let committed = std::fs::read_to_string(&path).expect("benches/data corpus present");
        assert!(
            committed == corpus(),
            "{} is stale: run `cargo run -p rfc1738-bench --bin gen-corpus`",
            path.display()
        );
    }
}

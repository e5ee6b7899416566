//! Robots rules (RFC 9309), read as http crawlers read `/robots.txt` and
//! as gopher crawlers read the selector `robots.txt` of a server: the
//! group for this crawler's name, else the group for `*`; the longest
//! `Allow` or `Disallow` prefix that matches a path decides, `Allow` on a
//! tie; no rule matching allows. `Crawl-delay` lengthens the wait.

/// The name the rules are looked up by (RFC 9309 §2.2.1: the product token).
pub(crate) const AGENT: &str = "rfc1738-mirror";

/// The rules of one server for this crawler.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Robots {
    /// `(allow, prefix)` pairs.
    rules: Vec<(bool, String)>,
    /// `Crawl-delay`, in seconds, when given.
    pub(crate) delay: Option<f64>,
}

impl Robots {
    /// Reads a robots.txt; what is not a rule is ignored.
    pub(crate) fn parse(text: &str) -> Robots {
        // Groups: the user-agent lines that open each, and its rules.
        let mut groups: Vec<(Vec<String>, Robots)> = Vec::new();
        let mut in_agents = false;
        for line in text.lines() {
            let line = line.split('#').next().unwrap_or("").trim();
            let Some((key, value)) = line.split_once(':') else { continue };
            let (key, value) = (key.trim().to_ascii_lowercase(), value.trim());
            match key.as_str() {
                "user-agent" => {
                    if !in_agents {
                        groups.push((Vec::new(), Robots::default()));
                    }
                    in_agents = true;
                    if let Some(g) = groups.last_mut() {
                        g.0.push(value.to_ascii_lowercase());
                    }
                }
                "allow" | "disallow" => {
                    in_agents = false;
                    // An empty Disallow allows everything: no rule.
                    if let (Some(g), false) = (groups.last_mut(), value.is_empty()) {
                        g.1.rules.push((key == "allow", value.to_string()));
                    }
                }
                "crawl-delay" => {
                    in_agents = false;
                    if let Some(g) = groups.last_mut() {
                        g.1.delay = value.parse().ok().filter(|d: &f64| d.is_finite() && *d >= 0.0);
                    }
                }
                _ => {}
            }
        }
        let ours = groups.iter().find(|(agents, _)| agents.iter().any(|a| a == AGENT));
        let any = groups.iter().find(|(agents, _)| agents.iter().any(|a| a == "*"));
        ours.or(any).map(|(_, r)| r.clone()).unwrap_or_default()
    }

    /// Whether `path` may be accessed.
    pub(crate) fn allows(&self, path: &str) -> bool {
        let mut best: Option<(usize, bool)> = None;
        for (allow, prefix) in &self.rules {
            let matched = match prefix.strip_suffix('$') {
                Some(exact) => path == exact,
                None => path.starts_with(prefix.as_str()),
            };
            if matched
                && best.is_none_or(|(len, a)| prefix.len() > len || prefix.len() == len && *allow && !a)
            {
                best = Some((prefix.len(), *allow));
            }
        }
        best.is_none_or(|(_, allow)| allow)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_longest_match_decides_and_our_group_comes_first() {
        let r = Robots::parse(
            "# comment\nUser-agent: *\nDisallow: /private\nAllow: /private/ok\n\n\
             User-agent: other\nDisallow: /\n",
        );
        assert!(r.allows("/public"));
        assert!(!r.allows("/private/x"));
        assert!(r.allows("/private/ok/y"));
        let ours = Robots::parse(
            "User-agent: *\nDisallow:\n\nUser-agent: RFC1738-Mirror\nDisallow: /\nCrawl-delay: 2\n",
        );
        assert!(!ours.allows("/anything"));
        assert_eq!(ours.delay, Some(2.0));
        assert!(Robots::parse("User-agent: *\nDisallow:\n").allows("/x"));
        assert!(Robots::parse("3'robots.txt' does not exist\t\terror.host\t1\r\n").allows("/x"));
        assert!(!Robots::parse("User-agent: *\nDisallow: /a$\n").allows("/a"));
        assert!(Robots::parse("User-agent: *\nDisallow: /a$\n").allows("/ab"));
    }
}

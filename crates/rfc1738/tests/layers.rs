//! The floors of every crate of the workspace, written down once and
//! checked.
//!
//! Each module stands on a floor. A module may import modules of its own
//! floor or of the floors below; never one above. No files import each
//! other in a circle, on any floor. The crate root (`lib.rs`, `main.rs`)
//! is the roof: it may import anything, and nothing imports what it
//! defines itself.
//!
//! An import is any path through `crate::`, `super::` or a child module's
//! name, in code (comments, strings and `#[cfg(test)]` modules are not
//! read). `docs/ARCHITECTURE.md` draws these tables.
//!
//! A new file fails this test until it has a line in its crate's table.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A crate's floors, from the ground up, and each module's floor.
struct Crate {
    dir: &'static str,
    floors: &'static [&'static str],
    modules: &'static [(&'static str, usize)],
}

const CRATES: &[Crate] = &[
    Crate {
        dir: "rfc1738",
        floors: &[
            "ground: character classes, errors, warnings",
            "the shared rules of §2 and §3.1: escapes, scheme name, reader, host, login, the URL's storage",
            "one module per scheme of §3: grammar, view, meaning",
            "the parse: the fast path and the rules' dispatch",
            "what works on a parsed URL",
        ],
        modules: &[
            ("chars", 1),
            ("simd", 1),
            ("error", 1),
            ("warning", 1),
            ("testing", 1),
            ("pct", 2),
            ("options", 2),
            ("kind", 2),
            ("url", 2),
            ("reader", 2),
            ("host", 2),
            ("schemepart", 2),
            ("scheme", 3),
            ("scheme::file", 3),
            ("scheme::ftp", 3),
            ("scheme::gopher", 3),
            ("scheme::http", 3),
            ("scheme::mailto", 3),
            ("scheme::news", 3),
            ("scheme::nntp", 3),
            ("scheme::other", 3),
            ("scheme::prospero", 3),
            ("scheme::telnet", 3),
            ("scheme::wais", 3),
            ("fast", 4),
            ("parse", 4),
            ("bulk", 4),
            ("normalize", 5),
            ("build", 5),
            ("security", 5),
            ("extract", 5),
            ("resolve", 5),
            ("convert", 5),
            ("convert::http", 5),
            ("convert::serde", 5),
            ("convert::url", 5),
            ("extract::form", 5),
            ("extract::scan", 5),
        ],
    },
    Crate {
        dir: "rfc1738-report",
        floors: &[
            "bytes in, a URL or a problem out; the caret",
            "what is said of a URL",
            "a log line in any server's format",
        ],
        modules: &[
            ("outcome", 1),
            ("parts", 1),
            ("diag", 1),
            ("compression", 1),
            ("logtime", 1),
            ("json", 2),
            ("logfields", 2),
            ("explain", 2),
            ("clf", 2),
            ("template", 2),
            ("spans", 2),
            ("set", 2),
            ("sql", 2),
            ("logformat", 3),
            ("logtable", 3),
        ],
    },
    Crate {
        dir: "rfc1738-serve",
        floors: &["settings, the embedded page, the Host rule, the error answers", "the connections"],
        modules: &[("config", 1), ("page", 1), ("host", 1), ("problem", 1), ("net", 2)],
    },
    Crate {
        // One file: what each endpoint of the explorer answers.
        dir: "rfc1738-api",
        floors: &[],
        modules: &[],
    },
    Crate {
        // The parse's interface is the roof (`lib.rs`).
        dir: "rfc1738-wasm",
        floors: &[
            "the buffers and how answers are written",
            "the answers beyond the parse, the explorer page's",
        ],
        modules: &[("state", 1), ("full", 2), ("explorer", 2)],
    },
    Crate {
        dir: "rfc1738-access",
        floors: &[
            "vocabulary: errors, options, trace, plans, menus, results",
            "what a URL asks for, checked (§6)",
            "connections with a budget",
            "one module per protocol",
            "entry points for the fuzz targets",
        ],
        modules: &[
            ("error", 1),
            ("options", 1),
            ("trace", 1),
            ("plan", 1),
            ("advice", 1),
            ("menu", 1),
            ("fetched", 1),
            ("wire", 1),
            ("target", 2),
            ("net", 3),
            ("ftp", 4),
            ("gopher", 4),
            ("http", 4),
            ("news", 4),
            ("fuzzing", 5),
        ],
    },
    Crate {
        dir: "rfc1738-warc",
        floors: &[
            "digests, ids, dates, spooled blocks",
            "one record",
            "files of records: the writer and the reader; scope, journal, robots rules, html links",
            "one access as the archive keeps it; the index of the files",
            "the crawl; WACZ packages",
        ],
        modules: &[
            ("digest", 1),
            ("spool", 1),
            ("record", 2),
            ("writer", 3),
            ("reader", 3),
            ("scope", 3),
            ("journal", 3),
            ("robots", 3),
            ("html", 3),
            ("capture", 4),
            ("cdxj", 4),
            ("crawl", 5),
            ("wacz", 5),
        ],
    },
    Crate {
        dir: "rfc1738-py",
        floors: &[
            "Python values and Arrow columns in and out",
            "one URL at a time",
            "builders and Arrow columns",
            "log lines as columns",
        ],
        modules: &[
            ("compressed", 1),
            ("convert", 1),
            ("ffi", 1),
            ("pool", 1),
            ("replace", 1),
            ("views", 1),
            ("url", 2),
            ("build", 3),
            ("arrow", 3),
            ("clf", 4),
            ("logtable", 4),
            ("parts", 4),
            ("peers", 4),
        ],
    },
    Crate {
        dir: "rfc1738-duckdb",
        floors: &["DuckDB vectors in and out", "the rfc1738_* functions", "the entry point DuckDB calls"],
        modules: &[("vector", 1), ("table", 1), ("functions", 2), ("log", 2), ("entry", 3)],
    },
    Crate {
        dir: "rfc1738-cli",
        floors: &["exit statuses, input", "what the subcommands share", "one module per subcommand"],
        modules: &[
            ("status", 1),
            ("input", 1),
            ("output", 1),
            ("flags", 1),
            ("decompress", 2),
            ("progress", 2),
            ("cmd", 2),
            ("cmd::help", 2),
            ("cmd::check", 3),
            ("cmd::completions", 3),
            ("cmd::man", 3),
            ("cmd::mirror", 3),
            ("cmd::examples", 3),
            ("cmd::explain", 3),
            ("cmd::extract", 3),
            ("cmd::fetch", 3),
            ("cmd::lint", 3),
            ("cmd::normalize", 3),
            ("cmd::parse", 3),
            ("cmd::same", 3),
            ("cmd::serve", 3),
            ("cmd::relative", 3),
            ("cmd::resolve", 3),
            ("cmd::set", 3),
        ],
    },
];

const ROOT: &str = "";

#[test]
fn every_crate_has_a_table_and_every_module_a_floor() {
    let crates = workspace().join("crates");
    let mut dirs: Vec<String> = fs::read_dir(&crates)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("Cargo.toml").exists())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    let mut problems = Vec::new();
    for dir in &dirs {
        match CRATES.iter().find(|c| c.dir == dir) {
            None => problems.push(format!("crates/{dir}: no table; add one to CRATES in {}", file!())),
            Some(c) => {
                let files = modules(&crates.join(dir).join("src"));
                let table: BTreeSet<&str> = c.modules.iter().map(|m| m.0).collect();
                for (m, path) in &files {
                    if m != ROOT && !table.contains(m.as_str()) {
                        problems.push(format!(
                            "{}: module `{m}` has no floor; add it to {dir}'s table in {}",
                            path.display(),
                            file!()
                        ));
                    }
                }
                for m in table {
                    if !files.contains_key(m) {
                        problems.push(format!("crates/{dir}: the table names `{m}`, which has no file"));
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "\n{}\n", problems.join("\n"));
}

#[test]
fn no_module_imports_from_a_higher_floor() {
    let mut problems = Vec::new();
    for c in CRATES {
        let graph = graph(c);
        let floor = |m: &str| c.modules.iter().find(|e| e.0 == m).map(|e| e.1);
        for (from, tos) in &graph {
            let Some(f) = floor(from) else { continue };
            for to in tos {
                if to == ROOT {
                    problems.push(format!(
                        "{}/{from}: uses an item the crate root defines; move it into a module of its own",
                        c.dir
                    ));
                    continue;
                }
                let Some(t) = floor(to) else { continue };
                if t > f {
                    problems.push(format!(
                        "{}: `{from}` (floor {f}: {}) imports `{to}` (floor {t}: {}); a module may only use its \
                         own floor and those below: move the piece it needs down",
                        c.dir,
                        c.floors[f - 1],
                        c.floors[t - 1]
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "\n{}\n", problems.join("\n"));
}

#[test]
fn no_files_import_each_other_in_a_circle() {
    let mut problems = Vec::new();
    for c in CRATES {
        let graph = graph(c);
        if let Some(circle) = find_circle(&graph) {
            problems.push(format!("{}: {}", c.dir, circle.join(" -> ")));
        }
    }
    assert!(problems.is_empty(), "import circles:\n{}\n", problems.join("\n"));
}

#[test]
fn the_reader_sees_imports_the_way_the_compiler_does() {
    let text = strip_code(
        "use crate::a::{self, B};\n// crate::commented\nlet s = \"crate::quoted\";\nlet c = '\"';\n\
         use super::c::D;\nchild::f();\n#[cfg(test)]\nmod tests { use crate::tested; }\n",
    );
    let mods: BTreeSet<String> =
        ["a", "c", "x", "x::c", "x::child", "commented", "quoted", "tested"].map(String::from).into();
    let found = imports(&text, "x::y", &mods, &BTreeMap::new(), &|_| false);
    assert_eq!(found, ["a", "x::c"].map(String::from).into(), "{text}");
    let found = imports(&text, "x", &mods, &BTreeMap::new(), &|_| false);
    assert!(found.contains("x::child") && found.contains("c"), "{found:?}");
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.rs` file under `src`, by module path (`""` for the root).
fn modules(src: &Path) -> BTreeMap<String, PathBuf> {
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()) {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(src).unwrap().with_extension("");
                let mut name = rel.to_string_lossy().replace(['/', '\\'], "::");
                if let Some(parent) = name.strip_suffix("::mod") {
                    name = parent.to_string();
                }
                if matches!(name.as_str(), "lib" | "main") {
                    name = ROOT.to_string();
                }
                out.insert(name, path);
            }
        }
    }
    out
}

/// Which modules each module of crate `c` imports.
fn graph(c: &Crate) -> BTreeMap<String, BTreeSet<String>> {
    let files = modules(&workspace().join("crates").join(c.dir).join("src"));
    let names: BTreeSet<String> = files.keys().cloned().collect();
    let root = files.get(ROOT).map(|p| strip_code(&fs::read_to_string(p).unwrap())).unwrap_or_default();
    let reexports = reexports(&root, &names);
    let root_items = |name: &str| defines(&root, name);
    let mut graph = BTreeMap::new();
    for (m, path) in &files {
        if m == ROOT {
            continue;
        }
        let text = strip_code(&fs::read_to_string(path).unwrap());
        let found = imports(&text, m, &names, &reexports, &root_items);
        graph.insert(m.clone(), found);
    }
    graph
}

/// The root's `pub use module::{Name, ...}` lines: name -> module.
fn reexports(root: &str, names: &BTreeSet<String>) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for stmt in root.split(';') {
        let Some(path) =
            stmt.trim().strip_prefix("pub use ").or_else(|| stmt.trim().strip_prefix("pub(crate) use "))
        else {
            continue;
        };
        let head = path.split("::").next().unwrap_or("").trim();
        if !names.contains(head) {
            continue;
        }
        let (prefix, items) = match path.split_once('{') {
            Some((p, rest)) => (p.trim_end_matches("::"), rest.trim_end_matches('}').to_string()),
            None => {
                let (p, last) = path.rsplit_once("::").unwrap_or(("", path));
                (p, last.to_string())
            }
        };
        let module = longest_module(&prefix.split("::").map(str::trim).collect::<Vec<_>>(), names);
        for item in items.split(',') {
            let name = item.split(" as ").last().unwrap_or("").trim();
            if !name.is_empty() {
                out.insert(name.to_string(), module.clone());
            }
        }
    }
    out
}

/// Whether the root text defines an item `name` itself.
fn defines(root: &str, name: &str) -> bool {
    ["fn", "struct", "enum", "mod", "const", "static", "type", "trait"].iter().any(|kw| {
        let needle = format!("{kw} {name}");
        root.match_indices(&needle)
            .any(|(k, _)| !root.as_bytes().get(k + needle.len()).copied().is_some_and(is_ident))
    })
}

/// The modules the code `text` of module `m` imports.
fn imports(
    text: &str,
    m: &str,
    names: &BTreeSet<String>,
    reexports: &BTreeMap<String, String>,
    root_items: &dyn Fn(&str) -> bool,
) -> BTreeSet<String> {
    let b = text.as_bytes();
    let parent: Vec<&str> = match m.rsplit_once("::") {
        Some((p, _)) => p.split("::").collect(),
        None => Vec::new(),
    };
    let own: Vec<&str> = m.split("::").collect();
    let children: Vec<&str> = names
        .iter()
        .filter_map(|n| n.strip_prefix(m).and_then(|r| r.strip_prefix("::")))
        .filter(|r| !r.contains("::"))
        .collect();
    let mut found = BTreeSet::new();
    let mut i = 0;
    while i < b.len() {
        let starts_word =
            i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b':');
        if !starts_word || !(b[i].is_ascii_alphabetic() || b[i] == b'_') {
            i += 1;
            continue;
        }
        let word_end = i + b[i..].iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'_').count();
        let word = &text[i..word_end];
        if !text[word_end..].starts_with("::") {
            i = word_end;
            continue;
        }
        let base: Option<Vec<&str>> = match word {
            "crate" => Some(Vec::new()),
            "super" => Some(parent.clone()),
            "self" => Some(own.clone()),
            w if children.contains(&w) => Some(own.iter().copied().chain([w]).collect()),
            _ => None,
        };
        let Some(base) = base else {
            i = word_end;
            continue;
        };
        let (paths, end) = path_after(text, word_end + 2);
        for tail in paths {
            let mut full: Vec<&str> = base.clone();
            full.extend(tail.iter().copied());
            let target = longest_module(&full, names);
            let target = if target == ROOT {
                match full.first().and_then(|n| reexports.get(*n)) {
                    Some(module) => module.clone(),
                    // An item the root defines itself.
                    None if full.first().is_some_and(|n| root_items(n)) => ROOT.to_string(),
                    // A name the root takes from another crate.
                    None => continue,
                }
            } else {
                target
            };
            if target != m {
                found.insert(target);
            }
        }
        i = end;
    }
    found
}

/// The paths written from `i` (just after a `::`): `a::b`, or a group
/// `{a::b, c, d::{e, f}}`, each cut to its segments that may name modules.
fn path_after(text: &str, mut i: usize) -> (Vec<Vec<&str>>, usize) {
    let b = text.as_bytes();
    let mut segs = Vec::new();
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i < b.len() && b[i] == b'{' {
            let close = matching_brace(b, i);
            let inner = &text[i + 1..close];
            let mut out = Vec::new();
            for item in split_top(inner) {
                let (mut sub, _) = path_after(item.trim(), 0);
                for s in &mut sub {
                    let mut full = segs.clone();
                    full.append(s);
                    out.push(full);
                }
            }
            return (out, close + 1);
        }
        let start = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
            i += 1;
        }
        if start == i {
            break;
        }
        let seg = &text[start..i];
        if seg != "self" {
            segs.push(seg);
        }
        if !text[i..].starts_with("::") {
            break;
        }
        i += 2;
    }
    (vec![segs], i)
}

fn matching_brace(b: &[u8], open: usize) -> usize {
    let mut depth = 0;
    for (k, &c) in b.iter().enumerate().skip(open) {
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    b.len() - 1
}

fn split_top(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (k, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out.into_iter().filter(|x| !x.trim().is_empty()).collect()
}

/// The longest prefix of `path` that names a module (`ROOT` if none).
fn longest_module(path: &[&str], names: &BTreeSet<String>) -> String {
    (1..=path.len()).rev().map(|k| path[..k].join("::")).find(|c| names.contains(c)).unwrap_or_default()
}

/// The code without comments, string and character literals, and
/// `#[cfg(test)]` modules.
fn strip_code(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &src[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |k| k + 2);
        } else if let Some((open, hashes)) = raw_string_start(rest, i == 0 || !is_ident(b[i - 1])) {
            let close = format!("\"{}", "#".repeat(hashes));
            i += open + rest[open..].find(&close).map_or(rest.len() - open, |k| k + close.len());
            out.push_str("\"\"");
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            out.push_str("\"\"");
            i = j + 1;
        } else if b[i] == b'\'' && (b.get(i + 2) == Some(&b'\'') || b.get(i + 1) == Some(&b'\\')) {
            let j = if b[i + 1] == b'\\' { i + 2 + rest[2..].find('\'').unwrap_or(0) } else { i + 2 };
            out.push_str("' '");
            i = j + 1;
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    drop_test_modules(out)
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// `r"`, `r#"`, `br"`...: when a raw string starts here, the length of
/// its opening and its number of `#`s.
fn raw_string_start(rest: &str, at_word_start: bool) -> Option<(usize, usize)> {
    if !at_word_start {
        return None;
    }
    let b = usize::from(rest.starts_with('b'));
    let r = rest[b..].strip_prefix('r')?;
    let hashes = r.bytes().take_while(|&c| c == b'#').count();
    (r.as_bytes().get(hashes) == Some(&b'"')).then_some((b + 1 + hashes + 1, hashes))
}

fn drop_test_modules(mut s: String) -> String {
    while let Some(at) = s.find("#[cfg(test)]") {
        let after = &s[at..];
        // The item after the attribute: up to its `;`, or its block.
        let end = match (after.find(';'), after.find('{')) {
            (Some(semi), Some(open)) if semi < open => at + semi,
            (_, Some(open)) => matching_brace(s.as_bytes(), at + open),
            (Some(semi), None) => at + semi,
            (None, None) => s.len() - 1,
        };
        s.replace_range(at..=end, "");
    }
    s
}

/// A circle of imports, if there is one: the modules in order.
fn find_circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        m: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(m.to_string(), 1);
        stack.push(m.to_string());
        for to in graph.get(m).into_iter().flatten() {
            match state.get(to.as_str()).copied().unwrap_or(0) {
                1 => {
                    let from = stack.iter().position(|s| s == to).unwrap();
                    let mut circle = stack[from..].to_vec();
                    circle.push(to.clone());
                    return Some(circle);
                }
                0 if graph.contains_key(to.as_str()) => {
                    if let Some(c) = visit(to, graph, state, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(m.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for m in graph.keys() {
        if state.get(m.as_str()).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(m, graph, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

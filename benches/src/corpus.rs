//! Reading the URL lists: one URL per line, or two per row in a CSV file.

use std::fs;
use std::io;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// One input file held in memory: its text once, and where each URL lies.
pub struct CorpusFile {
    /// File name shown in the tables.
    pub name: String,
    text: String,
    spans: Vec<Range<usize>>,
}

impl CorpusFile {
    /// Splits `text` into URLs: one per line, or for a `.csv` name two per
    /// row (`base,relative`, header skipped). A UTF-8 byte-order mark is
    /// dropped, a `\r` before `\n` is not part of the URL.
    #[must_use]
    pub fn from_text(name: &str, text: String) -> Self {
        let body_start = if text.starts_with('\u{feff}') { 3 } else { 0 };
        let csv = Path::new(name).extension().is_some_and(|e| e == "csv");
        let mut spans = Vec::new();
        let mut at = body_start;
        let mut first = true;
        for line in text[body_start..].split_inclusive('\n') {
            let start = at;
            at += line.len();
            let line = line.strip_suffix('\n').unwrap_or(line);
            let line = line.strip_suffix('\r').unwrap_or(line);
            let end = start + line.len();
            if csv {
                if std::mem::take(&mut first) && line == "base,relative" {
                    continue;
                }
                // No field in these files is quoted; split at the first comma.
                match line.find(',') {
                    Some(comma) => {
                        spans.push(start..start + comma);
                        spans.push(start + comma + 1..end);
                    }
                    None => spans.push(start..end),
                }
            } else {
                spans.push(start..end);
            }
        }
        Self { name: name.to_owned(), text, spans }
    }

    /// Reads and splits one file; bytes that are not UTF-8 become U+FFFD.
    ///
    /// # Errors
    ///
    /// Returns the I/O error when the file cannot be read.
    pub fn read(path: &Path) -> io::Result<Self> {
        let bytes = fs::read(path)?;
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        };
        let name =
            path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
        Ok(Self::from_text(&name, text))
    }

    /// The URLs, in file order.
    #[must_use]
    pub fn urls(&self) -> Vec<&str> {
        self.spans.iter().map(|r| &self.text[r.clone()]).collect()
    }

    /// The whole text, and where each URL lies in it.
    #[must_use]
    pub fn text_and_spans(&self) -> (&str, &[Range<usize>]) {
        (&self.text, &self.spans)
    }

    /// Keeps only the first `n` URLs.
    pub fn truncate(&mut self, n: usize) {
        self.spans.truncate(n);
    }
}

/// The workspace root: the parent of this package's directory.
#[must_use]
pub fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}

/// The default corpus directory: `../shared/corpus` from the workspace root,
/// or failing that the nearest `shared/corpus` above the root (a checkout
/// in a subdirectory, such as a git worktree, finds the same lists).
#[must_use]
pub fn default_corpus_dir() -> PathBuf {
    let root = workspace_root();
    let direct = root.join("../shared/corpus");
    if direct.is_dir() {
        return direct;
    }
    root.ancestors().map(|dir| dir.join("shared/corpus")).find(|dir| dir.is_dir()).unwrap_or(direct)
}

/// Reads every `.txt` and `.csv` file in `dir`, sorted by name.
///
/// # Errors
///
/// Returns the I/O error when the directory or a file cannot be read.
pub fn read_dir(dir: &Path) -> io::Result<Vec<CorpusFile>> {
    let mut paths = Vec::new();
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if path.is_file() && matches!(ext, "txt" | "csv") {
            paths.push(path);
        }
    }
    paths.sort();
    paths.iter().map(|p| CorpusFile::read(p)).collect()
}

#[cfg(test)]
mod tests {
    use super::CorpusFile;

    #[test]
    fn lines_bom_and_crlf() {
        let f = CorpusFile::from_text("a.txt", "\u{feff}http://a/\r\nftp://b/\n\nnews:c".into());
        assert_eq!(f.urls(), ["http://a/", "ftp://b/", "", "news:c"]);
    }

    #[test]
    fn csv_two_per_row() {
        let f = CorpusFile::from_text("r.csv", "base,relative\nhttp://a/,b/c\nhttp://d/,#\n".into());
        assert_eq!(f.urls(), ["http://a/", "b/c", "http://d/", "#"]);
    }
}

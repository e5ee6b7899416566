//! Plain-text and Markdown tables.

/// Column alignment.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// Text columns.
    Left,
    /// Number columns.
    Right,
}

/// A table built row by row, printed once complete.
pub struct Table {
    headers: Vec<String>,
    align: Vec<Align>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// An empty table with these columns.
    #[must_use]
    pub fn new(columns: &[(&str, Align)]) -> Self {
        Self {
            headers: columns.iter().map(|(h, _)| (*h).to_owned()).collect(),
            align: columns.iter().map(|(_, a)| *a).collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row (one cell per column).
    pub fn row(&mut self, cells: Vec<String>) {
        debug_assert_eq!(cells.len(), self.headers.len());
        self.rows.push(cells);
    }

    /// Renders the table, as Markdown or as aligned plain text.
    #[must_use]
    pub fn render(&self, markdown: bool) -> String {
        let widths: Vec<usize> = (0..self.headers.len())
            .map(|c| {
                self.rows
                    .iter()
                    .map(|r| r[c].chars().count())
                    .chain([self.headers[c].chars().count()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let line = |cells: &[String]| {
            let padded: Vec<String> = cells
                .iter()
                .zip(&widths)
                .zip(&self.align)
                .map(|((cell, &w), &a)| match a {
                    Align::Left => format!("{cell:<w$}"),
                    Align::Right => format!("{cell:>w$}"),
                })
                .collect();
            if markdown {
                format!("| {} |\n", padded.join(" | "))
            } else {
                format!("{}\n", padded.join("  ").trim_end())
            }
        };
        // Markdown needs a blank line between a caption paragraph and a table.
        let mut out = if markdown { String::from("\n") } else { String::new() };
        out += &line(&self.headers);
        let rule: Vec<String> = widths
            .iter()
            .zip(&self.align)
            .map(|(&w, &a)| match (markdown, a) {
                (true, Align::Left) => format!(":{}", "-".repeat(w.max(2) - 1)),
                (true, Align::Right) => format!("{}:", "-".repeat(w.max(2) - 1)),
                (false, _) => "-".repeat(w),
            })
            .collect();
        out += &line(&rule);
        for row in &self.rows {
            out += &line(row);
        }
        out
    }
}

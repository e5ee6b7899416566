//! Gopher menus (RFC 1436 §3.8): one item a line, read into
//! [`MenuItem`]s, each with its own gopher URL (§3.4).

use rfc1738::build::GopherBuilder;

/// One item of a gopher menu (RFC 1436 §3.8): a type, a display string, and
/// where the item is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MenuItem {
    /// The gopher type character (`0` file, `1` menu, `7` search, `i` info...).
    pub item_type: u8,
    /// What the user sees.
    pub display: String,
    /// The selector, as octets.
    pub selector: Vec<u8>,
    /// The host of the item.
    pub host: String,
    /// The port of the item.
    pub port: u16,
    /// Whether the item is tagged as a Gopher+ item (`+` or `?`, §3.4.4).
    pub plus: bool,
}

impl MenuItem {
    /// The item's own gopher URL (§3.4.1), or `None` for an item that
    /// locates nothing (`i` information lines, `3` errors).
    ///
    /// # Examples
    /// ```
    /// let menu = rfc1738_access::parse_menu(b"0About it\t/about.txt\tgopher.example\t70\r\n.\r\n");
    /// assert_eq!(menu[0].url().as_deref(), Some("gopher://gopher.example/0/about.txt"));
    /// ```
    #[must_use]
    pub fn url(&self) -> Option<String> {
        if matches!(self.item_type, b'i' | b'3') || self.host.is_empty() {
            return None;
        }
        // The library's builder encodes the selector for §3.4 and checks the
        // host: a host such as `evil\rQUIT` or `evil.example/x:25@y` makes no
        // URL rather than one that names another host or breaks a line.
        let mut b = GopherBuilder::new(&self.host).gopher_type(self.item_type).selector(&self.selector);
        if self.port != 70 {
            b = b.port(self.port);
        }
        b.build().ok().map(|u| u.as_str().to_string())
    }
}

/// Reads a gopher menu: one item a line, TAB-separated fields, up to a line
/// holding only `.`. Lines with too few fields are skipped.
///
/// # Examples
/// ```
/// let items = rfc1738_access::parse_menu(b"1Docs\t/docs\th\t7070\t+\r\n.\r\n");
/// assert_eq!((items[0].item_type, items[0].port, items[0].plus), (b'1', 7070, true));
/// ```
#[must_use]
pub fn parse_menu(menu: &[u8]) -> Vec<MenuItem> {
    menu.split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .take_while(|l| *l != b".")
        .filter_map(parse_item)
        .collect()
}

/// One menu line (without its CR LF) as an item; `None` for a line with
/// too few fields.
pub(crate) fn parse_item(line: &[u8]) -> Option<MenuItem> {
    let (&item_type, rest) = line.split_first()?;
    let fields: Vec<&[u8]> = rest.split(|&b| b == b'\t').collect();
    let text = |i: usize| String::from_utf8_lossy(fields.get(i).copied().unwrap_or_default()).into_owned();
    Some(MenuItem {
        item_type,
        display: text(0),
        selector: fields.get(1)?.to_vec(),
        host: text(2),
        port: text(3).trim().parse().unwrap_or(0),
        plus: matches!(fields.get(4), Some(f) if f.starts_with(b"+") || f.starts_with(b"?")),
    })
}

//! What an access retrieved: how many octets, and what they are.

/// What an access retrieved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fetched {
    /// Octets read from the server (for a gopher menu written as items,
    /// the size of the menu as sent).
    pub bytes: u64,
    /// What the octets are.
    pub content: Content,
}

/// The kind of resource retrieved.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Content {
    /// A file (ftp `RETR`, gopher item, local file).
    Data,
    /// An ftp name list (`NLST`, typecode `d`, §3.2.2).
    Listing,
    /// A gopher menu (type 1) or search result (type 7), written as it
    /// was read, item by item.
    Menu {
        /// The items (lines with the fields of an item) seen.
        items: u64,
    },
    /// An http response body.
    Http {
        /// The final status code.
        status: u16,
        /// The `Content-Type`, when sent.
        content_type: Option<String>,
    },
    /// The group list of `news:*`.
    NewsGroups,
    /// The overview of a group's articles.
    NewsOverview,
    /// One article.
    Article,
}

//! The exchange an access performs, computed without connecting.

use std::fmt;
use std::path::PathBuf;

/// One step of a [`Plan`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Step {
    /// Open a connection.
    Connect {
        /// The host.
        host: String,
        /// The port.
        port: u16,
    },
    /// Send this line (CR LF follows on the wire); a password is masked.
    Send(Vec<u8>),
    /// Read this local file.
    Open(PathBuf),
    /// What happens that is not a line sent: a choice, a fallback, advice.
    Note(String),
}

/// The exchange an access would perform, step by step.
///
/// Its [`fmt::Display`] is the text of `rfc1738 fetch --plan`: `connect
/// host:port`, `> line` for each line sent, `open path`, `# note`.
///
/// # Examples
/// ```
/// let plan = rfc1738_access::plan("ftp://myname@host.dom/%2Fetc/motd", &Default::default())?;
/// let text = plan.to_string();
/// assert!(text.contains("> CWD /etc\n> EPSV\n"));
/// assert!(text.contains("> RETR motd\n"));
/// # Ok::<(), rfc1738_access::AccessError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    steps: Vec<Step>,
}

impl Plan {
    pub(crate) fn push(&mut self, step: Step) {
        self.steps.push(step);
    }

    pub(crate) fn send(&mut self, line: impl Into<Vec<u8>>) {
        self.steps.push(Step::Send(line.into()));
    }

    pub(crate) fn note(&mut self, note: impl Into<String>) {
        self.steps.push(Step::Note(note.into()));
    }

    /// The steps in order.
    #[must_use]
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// Only the lines sent, in order.
    #[must_use]
    pub fn sent(&self) -> Vec<&[u8]> {
        self.steps
            .iter()
            .filter_map(|s| match s {
                Step::Send(line) => Some(line.as_slice()),
                _ => None,
            })
            .collect()
    }
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for step in &self.steps {
            match step {
                Step::Connect { host, port } => writeln!(f, "connect {host}:{port}")?,
                Step::Send(line) => writeln!(f, "> {}", show(line))?,
                Step::Open(path) => writeln!(f, "open {}", path.display())?,
                Step::Note(note) => writeln!(f, "# {note}")?,
            }
        }
        Ok(())
    }
}

/// Text from a server or an input, made safe for a terminal
/// ([`rfc1738::escape_text`]): the one escape every human-facing line of
/// this crate goes through (errors, traces, plans, menu items), as the
/// command's. Printable text stays as it is, UTF-8
/// included; CR, LF, TAB and `\` become `\r`, `\n`, `\t`, `\\`; other
/// control octets (ESC, BEL, DEL) and octets that are not UTF-8 become
/// `\xHH`; C1 controls and the characters that reorder or break a
/// terminal line (bidi overrides, LINE and PARAGRAPH SEPARATOR) become
/// `\u{HHHH}`.
///
/// # Examples
/// ```
/// assert_eq!(rfc1738_access::show(b"530 \x1b[31mno\r\n"), "530 \\x1B[31mno\\r\\n");
/// assert_eq!(rfc1738_access::show("caf\u{e9} \u{202e}".as_bytes()), "caf\u{e9} \\u{202E}");
/// ```
#[must_use]
pub fn show(line: &[u8]) -> String {
    rfc1738::escape_text(line).into_owned()
}

//! The exchange as it happens, for `--trace` and progress displays.

/// One thing that happened during an access.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum Event<'a> {
    /// A connection is being opened.
    Connect {
        /// The host.
        host: &'a str,
        /// The port.
        port: u16,
    },
    /// A protocol line was sent, without its CR LF (a password is masked).
    Sent(&'a [u8]),
    /// A protocol line was received, without its CR LF.
    Received(&'a [u8]),
    /// Content was written to the output: the running count, and the total
    /// when the server announced one.
    Progress {
        /// Octets written so far.
        bytes: u64,
        /// Octets expected, when known.
        total: Option<u64>,
    },
    /// A remark on a choice made (a fallback, a tolerated refusal).
    Note(&'a str),
}

/// Receives the [`Event`]s of an access.
///
/// Any `FnMut(&Event)` is a `Trace`.
///
/// # Examples
/// ```
/// use rfc1738_access::{Event, Trace};
/// let mut sent = Vec::new();
/// let mut trace = |e: &Event<'_>| if let Event::Sent(line) = e { sent.push(line.to_vec()) };
/// trace.event(&Event::Sent(b"QUIT"));
/// assert_eq!(sent, [b"QUIT".to_vec()]);
/// ```
pub trait Trace {
    /// Called for each event, in order.
    fn event(&mut self, event: &Event<'_>);
}

impl<F: FnMut(&Event<'_>)> Trace for F {
    fn event(&mut self, event: &Event<'_>) {
        self(event);
    }
}

/// A [`Trace`] that ignores everything.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoTrace;

impl Trace for NoTrace {
    fn event(&mut self, _: &Event<'_>) {}
}

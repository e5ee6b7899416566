//! The bytes of an access's connections as they crossed the wire, for an
//! archive: an http request and response as sent and received, before
//! any decoding of the transfer coding.

use std::sync::{Arc, Mutex, MutexGuard};

/// One run of bytes in one direction on one connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// The connection, numbered from 0 in the order they were opened
    /// (an ftp data connection is one too).
    pub connection: usize,
    /// Whether the bytes were sent (else received).
    pub sent: bool,
    /// The bytes.
    pub bytes: Vec<u8>,
}

/// A recorder of the bytes of every connection of an access
/// ([`crate::fetch_recorded`]). A clone records into the same place.
///
/// It keeps what the access reads and writes, so the access's limits
/// bound it: a reply head, a line, the content (`max_bytes`), plus what
/// a buffer reads ahead (at most 64 KiB).
///
/// # Examples
/// ```
/// let wire = rfc1738_access::Wire::default();
/// assert!(wire.chunks().is_empty());
/// ```
#[derive(Debug, Clone, Default)]
pub struct Wire {
    inner: Arc<Mutex<State>>,
}

#[derive(Debug, Default)]
struct State {
    chunks: Vec<Chunk>,
    connections: usize,
}

impl Wire {
    fn state(&self) -> MutexGuard<'_, State> {
        self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A new connection's number.
    pub(crate) fn open(&self) -> usize {
        let mut s = self.state();
        s.connections += 1;
        s.connections - 1
    }

    /// Records `bytes` of `connection`; a run in the same direction on the
    /// same connection grows the last chunk.
    pub(crate) fn record(&self, connection: usize, sent: bool, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        let mut s = self.state();
        match s.chunks.last_mut() {
            Some(c) if c.connection == connection && c.sent == sent => c.bytes.extend_from_slice(bytes),
            _ => s.chunks.push(Chunk { connection, sent, bytes: bytes.to_vec() }),
        }
    }

    /// Everything recorded, in order.
    #[must_use]
    pub fn chunks(&self) -> Vec<Chunk> {
        self.state().chunks.clone()
    }

    /// The bytes of `connection` in one direction, joined.
    #[must_use]
    pub fn bytes(&self, connection: usize, sent: bool) -> Vec<u8> {
        let s = self.state();
        s.chunks
            .iter()
            .filter(|c| c.connection == connection && c.sent == sent)
            .flat_map(|c| c.bytes.clone())
            .collect()
    }

    /// How many connections were opened.
    #[must_use]
    pub fn connections(&self) -> usize {
        self.state().connections
    }
}

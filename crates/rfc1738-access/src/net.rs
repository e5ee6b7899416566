//! Connections within a deadline, bounded protocol lines, and limited
//! copies: whatever a server sends, an access keeps a bounded amount of it
//! and ends by its deadline.

use crate::error::Deadline;
use crate::target::Endpoint;
use crate::wire::Wire;
use crate::{AccessError, Event, Options, Trace};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

/// The limits of one access, shared by its connections.
pub(crate) struct Budget<'o> {
    pub opts: &'o Options,
    deadline: Instant,
    written: u64,
    /// Where the bytes of every connection go as they cross the wire.
    wire: Option<Wire>,
}

impl<'o> Budget<'o> {
    pub(crate) fn new(opts: &'o Options) -> Budget<'o> {
        Budget { opts, deadline: Instant::now() + opts.total_timeout, written: 0, wire: None }
    }

    /// A budget whose connections record their bytes into `wire`.
    pub(crate) fn recorded(opts: &'o Options, wire: Wire) -> Budget<'o> {
        Budget { wire: Some(wire), ..Budget::new(opts) }
    }

    fn check_time(&self) -> Result<(), AccessError> {
        if Instant::now() > self.deadline {
            return Err(AccessError::Deadline { limit: self.opts.total_timeout });
        }
        Ok(())
    }

    /// How long the next operation may wait: `io_timeout`, or less when
    /// the deadline is nearer.
    fn wait(&self) -> Result<Duration, AccessError> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(AccessError::Deadline { limit: self.opts.total_timeout });
        }
        Ok(left.min(self.opts.io_timeout))
    }

    /// A connected stream, held to this access's deadline.
    fn conn(&self, stream: TcpStream) -> Conn {
        Conn {
            stream,
            deadline: self.deadline,
            total: self.opts.total_timeout,
            io_timeout: self.opts.io_timeout,
            wire: self.wire.as_ref().map(|w| (w.clone(), w.open())),
        }
    }

    /// Writes content to `out`, within the size limit.
    pub(crate) fn write(
        &mut self,
        out: &mut dyn Write,
        data: &[u8],
        total: Option<u64>,
        trace: &mut dyn Trace,
    ) -> Result<(), AccessError> {
        self.check_time()?;
        let room = self.opts.max_bytes.saturating_sub(self.written);
        let n = data.len().min(usize::try_from(room).unwrap_or(usize::MAX));
        out.write_all(&data[..n]).map_err(AccessError::Io)?;
        self.written += n as u64;
        trace.event(&Event::Progress { bytes: self.written, total });
        if n < data.len() {
            return Err(AccessError::TooLarge { limit: self.opts.max_bytes });
        }
        Ok(())
    }

    /// Copies `src` to its end into `out`, within the limits.
    pub(crate) fn copy(
        &mut self,
        src: &mut dyn Read,
        out: &mut dyn Write,
        total: Option<u64>,
        trace: &mut dyn Trace,
    ) -> Result<u64, AccessError> {
        let start = self.written;
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            self.check_time()?;
            let n = match src.read(&mut buf) {
                Ok(0) => return Ok(self.written - start),
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e.into()),
            };
            self.write(out, &buf[..n], total, trace)?;
        }
    }

    /// Content octets written so far.
    pub(crate) fn written(&self) -> u64 {
        self.written
    }

    /// Puts a connection opened by an earlier access under this one's
    /// deadline and timeouts.
    pub(crate) fn renew(&self, conn: &mut Conn) {
        conn.deadline = self.deadline;
        conn.total = self.opts.total_timeout;
        conn.io_timeout = self.opts.io_timeout;
    }
}

/// A TCP stream whose every read and write waits at most `io_timeout`,
/// and never past the access's deadline: a server that sends one byte
/// before each timeout cannot stretch the access.
pub(crate) struct Conn {
    stream: TcpStream,
    deadline: Instant,
    total: Duration,
    io_timeout: Duration,
    /// The recorder and this connection's number in it.
    wire: Option<(Wire, usize)>,
}

impl Conn {
    /// How long the next read or write may wait.
    fn wait(&self) -> io::Result<Duration> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::Error::new(io::ErrorKind::TimedOut, Deadline(self.total)));
        }
        Ok(left.min(self.io_timeout))
    }

    /// The TCP stream, for its addresses.
    pub(crate) fn tcp(&self) -> &TcpStream {
        &self.stream
    }

    /// A timeout of the socket is the deadline's when the deadline was
    /// what cut the wait short.
    fn named(&self, e: io::Error) -> io::Error {
        let timed_out = matches!(e.kind(), io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock);
        if timed_out && Instant::now() >= self.deadline {
            return io::Error::new(io::ErrorKind::TimedOut, Deadline(self.total));
        }
        e
    }
}

impl Read for Conn {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.stream.set_read_timeout(Some(self.wait()?))?;
        let n = self.stream.read(buf).map_err(|e| self.named(e))?;
        if let Some((wire, id)) = &self.wire {
            wire.record(*id, false, &buf[..n]);
        }
        Ok(n)
    }
}

impl Write for Conn {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.stream.set_write_timeout(Some(self.wait()?))?;
        let n = self.stream.write(buf).map_err(|e| self.named(e))?;
        if let Some((wire, id)) = &self.wire {
            wire.record(*id, true, &buf[..n]);
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.stream.flush()
    }
}

/// Opens a TCP connection within the access's timeouts.
pub(crate) fn connect(
    ep: &Endpoint,
    budget: &Budget<'_>,
    trace: &mut dyn Trace,
) -> Result<Conn, AccessError> {
    trace.event(&Event::Connect { host: &ep.host, port: ep.port });
    let address = format!("{}:{}", ep.host, ep.port);
    let fail = |source| AccessError::Connect { address: address.clone(), source };
    let addrs = lookup(&ep.host, ep.port, budget).map_err(fail)?;
    let mut last = io::Error::new(io::ErrorKind::NotFound, "no address");
    for addr in addrs {
        match connect_addr(addr, budget) {
            Ok(conn) => return Ok(conn),
            Err(AccessError::Connect { source, .. }) => last = source,
            Err(e) => return Err(e),
        }
    }
    Err(fail(last))
}

/// The addresses of `host`, looked up within the access's timeouts: the
/// system's resolver has no timeout of its own, so it runs on a thread of
/// its own, left behind if it does not answer in time.
fn lookup(host: &str, port: u16, budget: &Budget<'_>) -> io::Result<Vec<SocketAddr>> {
    let host = host.to_string();
    lookup_with(move || (host.as_str(), port).to_socket_addrs().map(Iterator::collect), budget)
}

/// What `resolve` answers, or a timeout when it has not answered within
/// the budget's next wait.
fn lookup_with(
    resolve: impl FnOnce() -> io::Result<Vec<SocketAddr>> + Send + 'static,
    budget: &Budget<'_>,
) -> io::Result<Vec<SocketAddr>> {
    let wait = budget
        .wait()
        .map_err(|_| io::Error::new(io::ErrorKind::TimedOut, Deadline(budget.opts.total_timeout)))?;
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    std::thread::spawn(move || {
        let _ = tx.send(resolve());
    });
    match rx.recv_timeout(wait) {
        Ok(result) => result,
        Err(_) => Err(io::Error::new(io::ErrorKind::TimedOut, "the name lookup did not answer in time")),
    }
}

/// Reads `open`'s file to its end into `out` within the access's deadline:
/// the open (a FIFO waits there for a writer) and each read (a slow device)
/// run on a thread of their own, which is left behind if the deadline
/// passes first.
pub(crate) fn copy_file(
    path: std::path::PathBuf,
    budget: &mut Budget<'_>,
    trace: &mut dyn Trace,
    out: &mut dyn Write,
) -> Result<u64, AccessError> {
    // Two chunks in flight: the reader stays at most 128 KiB ahead.
    let (tx, rx) = std::sync::mpsc::sync_channel::<io::Result<(Vec<u8>, Option<u64>)>>(2);
    std::thread::spawn(move || {
        let mut f = match std::fs::File::open(&path) {
            Ok(f) => f,
            Err(e) => return drop(tx.send(Err(e))),
        };
        let total = f.metadata().ok().filter(std::fs::Metadata::is_file).map(|m| m.len());
        loop {
            let mut buf = vec![0u8; 64 * 1024];
            match f.read(&mut buf) {
                Ok(n) => {
                    buf.truncate(n);
                    if tx.send(Ok((buf, total))).is_err() || n == 0 {
                        return;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return drop(tx.send(Err(e))),
            }
        }
    });
    let start = budget.written;
    loop {
        let wait = budget.wait()?;
        match rx.recv_timeout(wait) {
            Ok(Ok((chunk, _))) if chunk.is_empty() => return Ok(budget.written - start),
            Ok(Ok((chunk, total))) => budget.write(out, &chunk, total, trace)?,
            Ok(Err(e)) => return Err(AccessError::Io(e)),
            Err(_) => {
                budget.check_time()?;
                return Err(AccessError::Timeout);
            }
        }
    }
}

/// Opens a TCP connection to one address within the access's timeouts.
pub(crate) fn connect_addr(addr: SocketAddr, budget: &Budget<'_>) -> Result<Conn, AccessError> {
    let wait = budget.wait()?;
    let fail = |source| AccessError::Connect { address: addr.to_string(), source };
    let stream = TcpStream::connect_timeout(&addr, wait).map_err(fail)?;
    Ok(budget.conn(stream))
}

/// A line-oriented control connection (ftp, nntp): over a TCP
/// connection, or, for the fuzz targets, over any stream of bytes.
pub(crate) struct LineConn<S = Conn> {
    reader: BufReader<S>,
    /// The longest line accepted.
    max_line: usize,
    /// The most bytes of one reply, all its lines.
    max_reply: usize,
}

impl LineConn<Conn> {
    /// The underlying stream.
    pub(crate) fn stream(&self) -> &TcpStream {
        self.reader.get_ref().tcp()
    }

    /// The connection of an earlier access, under `budget`'s limits now.
    pub(crate) fn renew(&mut self, budget: &Budget<'_>) {
        budget.renew(self.reader.get_mut());
        self.max_line = budget.opts.max_line;
        self.max_reply = budget.opts.max_header_bytes;
    }

    /// A last few seconds for a connection whose access is over (a QUIT).
    pub(crate) fn grace(&mut self, time: Duration) {
        let conn = self.reader.get_mut();
        conn.deadline = Instant::now() + time;
        conn.total = time;
        conn.io_timeout = time;
    }
}

impl<S: Read + Write> LineConn<S> {
    pub(crate) fn new(conn: S, opts: &Options) -> LineConn<S> {
        LineConn { reader: BufReader::new(conn), max_line: opts.max_line, max_reply: opts.max_header_bytes }
    }

    /// The stream (the fuzz targets read what was sent).
    #[cfg(feature = "fuzzing")]
    pub(crate) fn into_inner(self) -> S {
        self.reader.into_inner()
    }

    /// The most bytes of one reply, all its lines.
    pub(crate) fn max_reply(&self) -> usize {
        self.max_reply
    }

    /// Sends `line` and CR LF; the trace shows `shown`.
    pub(crate) fn send(
        &mut self,
        line: &[u8],
        shown: &[u8],
        trace: &mut dyn Trace,
    ) -> Result<(), AccessError> {
        trace.event(&Event::Sent(shown));
        let stream = self.reader.get_mut();
        stream.write_all(&[line, b"\r\n"].concat())?;
        stream.flush()?;
        Ok(())
    }

    /// Reads one line, without its CR LF.
    pub(crate) fn line(&mut self, trace: &mut dyn Trace) -> Result<Vec<u8>, AccessError> {
        let line = read_line(&mut self.reader, self.max_line)?
            .ok_or_else(|| AccessError::Protocol("the server closed the connection".into()))?;
        trace.event(&Event::Received(&line));
        Ok(line)
    }

    /// One line of a multi-line block, not traced; `None` at the end.
    pub(crate) fn block_line(&mut self) -> Result<Option<Vec<u8>>, AccessError> {
        read_line(&mut self.reader, self.max_line)
    }
}

/// The error of a line longer than `max_line` octets.
pub(crate) fn line_too_long(max_line: usize) -> AccessError {
    AccessError::Limit { what: "a line from the server", limit: max_line as u64, option: "max_line" }
}

/// Reads one line of at most `max_line` octets, without CR LF (or a lone
/// LF); `None` at the end of the stream. Nothing past the limit is read.
pub(crate) fn read_line(reader: &mut dyn BufRead, max_line: usize) -> Result<Option<Vec<u8>>, AccessError> {
    let mut line = Vec::new();
    // The line, its CR and its LF.
    let n = reader.take(max_line as u64 + 2).read_until(b'\n', &mut line)?;
    if n == 0 {
        return Ok(None);
    }
    let ending = if line.ends_with(b"\r\n") { 2 } else { usize::from(line.ends_with(b"\n")) };
    if line.len() - ending > max_line || ending == 0 && line.len() > max_line {
        return Err(line_too_long(max_line));
    }
    if line.last() == Some(&b'\n') {
        line.pop();
        if line.last() == Some(&b'\r') {
            line.pop();
        }
    }
    Ok(Some(line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_lookup_that_does_not_answer_ends_at_the_deadline() {
        // A resolver that hangs (an unreachable DNS server): the access
        // gives up when `--max-time` says, not when the resolver does.
        let opts = Options { total_timeout: Duration::from_millis(300), ..Options::default() };
        let budget = Budget::new(&opts);
        let start = Instant::now();
        let hang = || {
            std::thread::sleep(Duration::from_secs(30));
            Ok(Vec::new())
        };
        let err = lookup_with(hang, &budget).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        assert!(start.elapsed() < Duration::from_secs(3), "took {:?}", start.elapsed());
        assert!(err.to_string().contains("did not answer in time"), "{err}");
    }

    #[test]
    fn a_name_lookup_that_answers_in_time_gives_its_addresses() {
        let opts = Options::default();
        let addr = SocketAddr::from(([127, 0, 0, 1], 70));
        assert_eq!(lookup_with(move || Ok(vec![addr]), &Budget::new(&opts)).unwrap(), [addr]);
        assert_eq!(lookup("127.0.0.1", 70, &Budget::new(&opts)).unwrap(), [addr]);
    }
}

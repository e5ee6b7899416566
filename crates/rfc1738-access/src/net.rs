//! Connections with timeouts, protocol lines, and limited copies.

use crate::target::Endpoint;
use crate::{AccessError, Event, Options, Trace};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Instant;

/// The longest protocol line accepted from a server.
const MAX_LINE: usize = 64 * 1024;

/// The limits of one access, shared by its connections.
pub(crate) struct Budget<'o> {
    pub opts: &'o Options,
    deadline: Instant,
    written: u64,
}

impl<'o> Budget<'o> {
    pub(crate) fn new(opts: &'o Options) -> Budget<'o> {
        Budget { opts, deadline: Instant::now() + opts.total_timeout, written: 0 }
    }

    fn check_time(&self) -> Result<(), AccessError> {
        if Instant::now() > self.deadline {
            return Err(AccessError::Timeout);
        }
        Ok(())
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
}

/// Opens a TCP connection with the access's timeouts.
pub(crate) fn connect(
    ep: &Endpoint,
    budget: &Budget<'_>,
    trace: &mut dyn Trace,
) -> Result<TcpStream, AccessError> {
    trace.event(&Event::Connect { host: &ep.host, port: ep.port });
    let address = format!("{}:{}", ep.host, ep.port);
    let fail = |source| AccessError::Connect { address: address.clone(), source };
    let addrs = (ep.host.as_str(), ep.port).to_socket_addrs().map_err(fail)?;
    let mut last = std::io::Error::new(std::io::ErrorKind::NotFound, "no address");
    for addr in addrs {
        budget.check_time()?;
        match TcpStream::connect_timeout(&addr, budget.opts.io_timeout) {
            Ok(stream) => {
                stream.set_read_timeout(Some(budget.opts.io_timeout)).map_err(fail)?;
                stream.set_write_timeout(Some(budget.opts.io_timeout)).map_err(fail)?;
                return Ok(stream);
            }
            Err(e) => last = e,
        }
    }
    Err(fail(last))
}

/// A line-oriented control connection (ftp, nntp).
pub(crate) struct LineConn {
    reader: BufReader<TcpStream>,
}

impl LineConn {
    pub(crate) fn new(stream: TcpStream) -> LineConn {
        LineConn { reader: BufReader::new(stream) }
    }

    /// The underlying stream.
    pub(crate) fn stream(&self) -> &TcpStream {
        self.reader.get_ref()
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
        let line = read_line(&mut self.reader)?
            .ok_or_else(|| AccessError::Protocol("the server closed the connection".into()))?;
        trace.event(&Event::Received(&line));
        Ok(line)
    }

    /// The reader, for multi-line blocks.
    pub(crate) fn reader(&mut self) -> &mut BufReader<TcpStream> {
        &mut self.reader
    }
}

/// Reads one line of at most [`MAX_LINE`] octets, without CR LF (or a lone
/// LF); `None` at the end of the stream.
pub(crate) fn read_line(reader: &mut dyn BufRead) -> Result<Option<Vec<u8>>, AccessError> {
    let mut line = Vec::new();
    let n = reader.take(MAX_LINE as u64 + 1).read_until(b'\n', &mut line)?;
    if n == 0 {
        return Ok(None);
    }
    if line.len() > MAX_LINE {
        return Err(AccessError::Protocol("a line from the server is too long".into()));
    }
    if line.last() == Some(&b'\n') {
        line.pop();
        if line.last() == Some(&b'\r') {
            line.pop();
        }
    }
    Ok(Some(line))
}

//! The socket under both ends of the table (issue 29): a [`Tcp`] stream that retries a read or a
//! write interrupted by a signal (EINTR) instead of reporting "Interrupted system call", and can
//! carry a deadline for a whole exchange (the host's handshake), so a peer sending one byte every
//! few seconds cannot stretch it; and the [`Backoff`] a client waits between reconnections.

use std::io::{self, ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// A TCP stream whose reads and writes retry EINTR, and fail with `TimedOut` once its deadline
/// (if any) has passed, however the bytes trickle in.
#[derive(Debug)]
pub struct Tcp {
    inner: TcpStream,
    deadline: Option<Instant>,
    /// The socket's own read timeout outside a deadline (restored when the deadline is lifted).
    idle: Option<Duration>,
}

impl Tcp {
    /// Wraps a connected stream, with no deadline.
    pub fn new(inner: TcpStream) -> Tcp {
        let idle = inner.read_timeout().ok().flatten();
        Tcp {
            inner,
            deadline: None,
            idle,
        }
    }

    /// The stream underneath (to set its timeouts, read its addresses).
    pub fn get(&self) -> &TcpStream {
        &self.inner
    }

    /// Sets (or lifts, with `None`) the deadline for everything read from now on.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
        if deadline.is_none() {
            let _ = self.inner.set_read_timeout(self.idle);
        }
    }

    /// Sets the read timeout used outside a deadline.
    pub fn set_read_timeout(&mut self, t: Option<Duration>) -> io::Result<()> {
        self.idle = t;
        self.inner.set_read_timeout(t)
    }

    fn before_read(&self) -> io::Result<()> {
        let Some(d) = self.deadline else {
            return Ok(());
        };
        let left = d.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::Error::new(ErrorKind::TimedOut, "the deadline passed"));
        }
        self.inner.set_read_timeout(Some(left))
    }
}

impl Read for Tcp {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            self.before_read()?;
            match self.inner.read(buf) {
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                other => return other,
            }
        }
    }
}

impl Write for Tcp {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        retry(|| self.inner.write(buf))
    }
    fn flush(&mut self) -> io::Result<()> {
        retry(|| self.inner.flush())
    }
}

/// Runs `f` again while it is interrupted by a signal (EINTR).
pub fn retry<T>(mut f: impl FnMut() -> io::Result<T>) -> io::Result<T> {
    loop {
        match f() {
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            other => return other,
        }
    }
}

/// Connects within `timeout`, retrying EINTR.
pub fn connect(addr: &SocketAddr, timeout: Duration) -> io::Result<TcpStream> {
    retry(|| TcpStream::connect_timeout(addr, timeout))
}

/// How long a client waits before reconnecting: from [`Backoff::FIRST`], doubling up to
/// [`Backoff::CAP`], each wait drawn at random between half and all of it (jitter, so clients
/// dropped together do not come back together).
#[derive(Clone, Debug)]
pub struct Backoff {
    next: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff {
            next: Backoff::FIRST,
        }
    }
}

impl Backoff {
    /// The first wait (at most).
    pub const FIRST: Duration = Duration::from_millis(250);
    /// The longest wait.
    pub const CAP: Duration = Duration::from_secs(8);

    /// The next wait (and doubles the one after, up to the cap).
    pub fn wait(&mut self) -> Duration {
        let full = self.next;
        self.next = (self.next * 2).min(Backoff::CAP);
        let half = full / 2;
        let r = getrandom::u32().unwrap_or(u32::MAX / 2);
        half + half.mul_f64(f64::from(r) / f64::from(u32::MAX))
    }

    /// How long a connection must have held for its loss to start the waits afresh: one dropped
    /// sooner counts as the host still refusing (and the next wait is longer).
    pub const STABLE: Duration = Duration::from_secs(10);

    /// Back to the first wait (after a connection that held).
    pub fn reset(&mut self) {
        self.next = Backoff::FIRST;
    }

    /// The wait after losing a connection that had held for `held`.
    pub fn after(&mut self, held: Duration) -> Duration {
        if held >= Backoff::STABLE {
            self.reset();
        }
        self.wait()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_with_jitter_up_to_its_cap() {
        let mut b = Backoff::default();
        let waits: Vec<Duration> = (0..12).map(|_| b.wait()).collect();
        assert!(waits[0] >= Backoff::FIRST / 2 && waits[0] <= Backoff::FIRST);
        assert!(waits[3] >= Backoff::FIRST * 4 && waits[3] <= Backoff::FIRST * 8);
        assert!(waits.iter().all(|w| *w <= Backoff::CAP));
        assert!(waits[11] >= Backoff::CAP / 2);
        // Eight waits take far longer than the 27 reconnections a second of issue 29.
        let first8: Duration = waits.iter().take(8).sum();
        assert!(first8 >= Duration::from_secs(10), "{first8:?}");
        // A connection dropped at once keeps the waits long; one that held starts them afresh.
        assert!(b.after(Duration::from_millis(5)) >= Backoff::CAP / 2);
        assert!(b.after(Backoff::STABLE) <= Backoff::FIRST);
    }

    #[test]
    fn a_deadline_bounds_a_trickling_read() {
        let l = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let addr = l.local_addr().unwrap();
        let t = std::thread::spawn(move || {
            let mut s = connect(&addr, Duration::from_secs(5)).unwrap();
            // One byte every 50 ms, for longer than the deadline.
            for _ in 0..40 {
                if s.write_all(b"x").is_err() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        });
        let (s, _) = l.accept().unwrap();
        let mut s = Tcp::new(s);
        s.set_deadline(Some(Instant::now() + Duration::from_millis(300)));
        let mut buf = [0u8; 1];
        let started = Instant::now();
        let err = loop {
            match s.read(&mut buf) {
                Ok(0) => panic!("closed before the deadline"),
                Ok(_) => continue,
                Err(e) => break e,
            }
        };
        assert!(matches!(
            err.kind(),
            ErrorKind::TimedOut | ErrorKind::WouldBlock
        ));
        assert!(started.elapsed() < Duration::from_secs(2));
        drop(s);
        let _ = t.join();
    }

    /// Issue 29: "Interrupted system call (os error 4)" from a client's connection. A signal
    /// handler installed without SA_RESTART interrupts a blocked read; the stream reads on.
    #[cfg(unix)]
    #[test]
    fn a_signal_during_a_read_is_retried_not_reported() {
        extern "C" fn nothing(_: libc::c_int) {}
        // SAFETY: installs a handler that does nothing, for a signal nothing else in the tests
        // uses; the struct is zeroed then filled as sigaction(2) asks.
        unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = nothing as *const () as usize;
            sa.sa_flags = 0;
            libc::sigemptyset(&mut sa.sa_mask);
            assert_eq!(libc::sigaction(libc::SIGUSR2, &sa, std::ptr::null_mut()), 0);
        }
        let l = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let addr = l.local_addr().unwrap();
        let mut client = connect(&addr, Duration::from_secs(5)).unwrap();
        let (server, _) = l.accept().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let reader = std::thread::spawn(move || {
            // SAFETY: pthread_self has no preconditions.
            let _ = tx.send(unsafe { libc::pthread_self() });
            let mut s = Tcp::new(server);
            let mut b = [0u8; 5];
            s.read(&mut b).map(|n| b[..n].to_vec())
        });
        let tid = rx.recv().unwrap();
        for _ in 0..20 {
            // SAFETY: the reader thread is alive until it has read, which needs the write below.
            unsafe {
                libc::pthread_kill(tid, libc::SIGUSR2);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        client.write_all(b"hello").unwrap();
        assert_eq!(reader.join().unwrap().unwrap(), b"hello");
    }
}

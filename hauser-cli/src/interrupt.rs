//! Ctrl-C and progress for the long loops (bootstrap, `kb synth`, `kb build`, scoring).
//!
//! A command that runs a long loop calls [`install`] (directly or through [`CliMonitor`]) just
//! before the loop. From then on the first Ctrl-C only raises a flag: the loop sees it within
//! a fraction of a second, stops, its temporary output is removed, and the command exits with
//! status 130 and the one line `hauser: interrupted`. A second Ctrl-C exits at once (130),
//! for a stretch that does not poll the flag. Commands that never call [`install`] keep the
//! default behaviour of Ctrl-C (immediate termination), which suits their short runs.

use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use hauser_core::limits::Monitor;
use indicatif::ProgressBar;

use crate::error::CliError;

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Installs the Ctrl-C handler (once per process; later calls do nothing).
pub fn install() {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        // When another handler is already installed (a program embedding this crate), the
        // error is ignored: Ctrl-C then keeps that program's behaviour.
        let _ = ctrlc::set_handler(|| {
            if INTERRUPTED.swap(true, Ordering::SeqCst) {
                eprintln!("hauser: interrupted");
                std::process::exit(130);
            }
        });
    });
}

/// Whether Ctrl-C was pressed since [`install`].
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// [`CliError::Interrupted`] once Ctrl-C was pressed.
///
/// # Errors
/// [`CliError::Interrupted`].
pub fn check() -> Result<(), CliError> {
    if interrupted() {
        Err(CliError::Interrupted)
    } else {
        Ok(())
    }
}

/// A progress bar on standard error (drawn only when it is a terminal) that is also a
/// [`Monitor`] cancelled by Ctrl-C. Creating one installs the Ctrl-C handler; dropping it
/// clears the bar.
#[derive(Debug)]
pub struct CliMonitor {
    bar: ProgressBar,
}

impl CliMonitor {
    /// A bar for `total` items (a spinner when unknown) labelled `what`.
    pub fn new(total: Option<u64>, what: &str) -> Self {
        install();
        Self {
            bar: crate::progress::bar(
                total.map(|t| usize::try_from(t).unwrap_or(usize::MAX)),
                what,
            ),
        }
    }

    /// A bar counting `total` bytes (a spinner when unknown), labelled `what`.
    pub fn bytes(total: Option<u64>, what: &str) -> Self {
        install();
        Self {
            bar: crate::progress::bytes(total, what),
        }
    }

    /// The progress bar (e.g. to change its message between phases).
    pub fn bar(&self) -> &ProgressBar {
        &self.bar
    }
}

impl Drop for CliMonitor {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

impl Monitor for CliMonitor {
    fn advance(&self, n: u64) {
        self.bar.inc(n);
    }

    fn is_cancelled(&self) -> bool {
        interrupted()
    }
}

/// The I/O error a [`MonitoredRead`] returns once its monitor cancels.
#[derive(Debug, thiserror::Error)]
#[error("interrupted")]
pub struct Cancelled;

/// A reader that reports the bytes it reads to a [`Monitor`] and fails with [`Cancelled`] (as
/// an `io::Error` of kind `Other`, which readers do not retry) once the monitor cancels: it
/// gives progress and Ctrl-C to parsers that only see a reader.
#[derive(Debug)]
pub struct MonitoredRead<'a, R, M: ?Sized> {
    inner: R,
    monitor: &'a M,
}

impl<'a, R: Read, M: Monitor + ?Sized> MonitoredRead<'a, R, M> {
    /// Wraps `inner`.
    pub fn new(inner: R, monitor: &'a M) -> Self {
        Self { inner, monitor }
    }
}

impl<R: Read, M: Monitor + ?Sized> Read for MonitoredRead<'_, R, M> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.monitor.is_cancelled() {
            return Err(io::Error::other(Cancelled));
        }
        let n = self.inner.read(buf)?;
        self.monitor.advance(n as u64);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;

    struct Budget(AtomicU64, u64);

    impl Monitor for Budget {
        fn advance(&self, n: u64) {
            self.0.fetch_add(n, Ordering::Relaxed);
        }
        fn is_cancelled(&self) -> bool {
            self.0.load(Ordering::Relaxed) >= self.1
        }
    }

    #[test]
    fn monitored_read_counts_bytes_and_stops_when_cancelled() {
        let data = vec![7u8; 10_000];
        let m = Budget(AtomicU64::new(0), u64::MAX);
        let mut out = Vec::new();
        MonitoredRead::new(&data[..], &m)
            .read_to_end(&mut out)
            .expect("read");
        assert_eq!(out, data);
        assert_eq!(m.0.load(Ordering::Relaxed), 10_000);

        // A source that gives 64 bytes per read, like a pipe.
        struct Trickle<'d>(&'d [u8]);
        impl Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = buf.len().min(64).min(self.0.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let m = Budget(AtomicU64::new(0), 100);
        let mut r = MonitoredRead::new(Trickle(&data), &m);
        let e = r.read_to_end(&mut Vec::new()).expect_err("cancelled");
        assert!(e.get_ref().is_some_and(|x| x.is::<Cancelled>()), "{e}");
        assert_eq!(m.0.load(Ordering::Relaxed), 128);
    }
}

//! Ctrl-C, termination signals and progress for the long loops (bootstrap, `kb synth`, `kb
//! build`, scoring).
//!
//! Every command calls [`install_handlers`] when it starts. A command that runs a long loop
//! also calls [`install`] (directly or through [`CliMonitor`]) just before the loop. From then
//! on the first Ctrl-C only raises a flag: the loop sees it within a fraction of a second,
//! stops, its temporary output is removed, and the command exits with status 130 and the one
//! line `hauser: interrupted`. A second Ctrl-C exits at once (130), for a stretch that does not
//! poll the flag. Before a loop polls (or in a command without one), Ctrl-C exits at once.
//! Whenever the process exits at once, on Ctrl-C, SIGTERM or SIGHUP, the temporary files of
//! the outputs still being written ([`crate::io::files::OutputFile`]) are removed first: the
//! targets are untouched and nothing hidden is left beside them. SIGTERM and SIGHUP then take
//! their default action, so the exit status says which signal ended the run.

use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

use hauser_core::limits::Monitor;
use indicatif::ProgressBar;

use crate::error::CliError;

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
/// Whether a loop polls [`INTERRUPTED`]: only then does the first Ctrl-C wait for it.
static POLLED: AtomicBool = AtomicBool::new(false);
/// The temporary files of the outputs being written, removed before an immediate exit.
static TEMPS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Installs the handlers of Ctrl-C, SIGTERM and SIGHUP for the whole run (once per process;
/// later calls do nothing): each removes the temporary outputs before the process ends.
pub fn install_handlers() {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        // When another handler is already installed (a program embedding this crate), the
        // error is ignored: Ctrl-C then keeps that program's behaviour.
        let _ = ctrlc::set_handler(|| {
            let first = !INTERRUPTED.swap(true, Ordering::SeqCst);
            if first && POLLED.load(Ordering::SeqCst) {
                return;
            }
            remove_temps();
            eprintln!("hauser: interrupted");
            std::process::exit(130);
        });
        #[cfg(unix)]
        on_termination();
    });
}

/// SIGTERM and SIGHUP, watched by a thread of signal-hook's: the temporary outputs are
/// removed, then the signal's default action ends the process.
#[cfg(unix)]
fn on_termination() {
    use signal_hook::consts::{SIGHUP, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            remove_temps();
            let _ = signal_hook::low_level::emulate_default_handler(signal);
            // Only reached if the default action did not end the process.
            std::process::exit(128 + signal);
        }
    });
}

/// Marks the loop that starts as one that polls the Ctrl-C flag ([`interrupted`], [`check`]),
/// and installs the handlers if [`install_handlers`] has not.
pub fn install() {
    POLLED.store(true, Ordering::SeqCst);
    install_handlers();
}

fn temps() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    // A panic elsewhere while the list was held leaves it usable: it is only paths.
    TEMPS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Records a temporary output file, to be removed if the process is ended by a signal.
pub(crate) fn register_temp(path: &Path) {
    temps().push(path.to_path_buf());
}

/// Forgets a temporary output file (committed, or removed by its owner).
pub(crate) fn forget_temp(path: &Path) {
    let mut t = temps();
    if let Some(i) = t.iter().position(|p| p == path) {
        t.swap_remove(i);
    }
}

fn remove_temps() {
    for path in temps().iter() {
        // Best effort: a file already renamed over its target is simply not found.
        let _ = std::fs::remove_file(path);
    }
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
            bar: crate::io::progress::bar(
                total.map(|t| usize::try_from(t).unwrap_or(usize::MAX)),
                what,
            ),
        }
    }

    /// A bar counting `total` bytes (a spinner when unknown), labelled `what`.
    pub fn bytes(total: Option<u64>, what: &str) -> Self {
        install();
        Self {
            bar: crate::io::progress::bytes(total, what),
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

//! Rust work with the interpreter released, and Ctrl-C.
//!
//! Python runs its signal handlers (the one raising `KeyboardInterrupt` included) only on the
//! main thread and only between bytecodes, so a long Rust call would make Ctrl-C wait for it. A
//! long call therefore runs on a worker thread while the calling thread, detached from the
//! interpreter, wakes every 50 ms to let Python check its signals. On `KeyboardInterrupt` the
//! [`Cancel`] flag is raised and the exception is returned at once: work that polls the flag
//! (chunked text metrics, bootstrap and permutation tests, knowledge-base builds, simile
//! scoring) stops at its next check; work that cannot be cut (one model forward pass, one
//! corpus statistic) finishes in the background and its result is dropped.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

use hauser_core::limits::Monitor;
use pyo3::prelude::*;

/// How often the waiting thread lets Python look at its signals.
const POLL: Duration = Duration::from_millis(50);

/// Inputs of at least this many texts (or pairs, items, resamples) run on a worker thread with
/// Ctrl-C checks; smaller ones, done in milliseconds, run directly (a thread costs tens of
/// microseconds, much more than one short sentence score).
pub(crate) const LONG: usize = 20_000;

/// Raised once the caller pressed Ctrl-C; work polls it between chunks.
#[derive(Debug, Default)]
pub(crate) struct Cancel(AtomicBool);

impl Cancel {
    /// Whether the work should stop.
    pub(crate) fn cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl Monitor for Cancel {
    fn is_cancelled(&self) -> bool {
        self.cancelled()
    }
}

/// Runs `work` with the interpreter released and returns its result. When `long`, `work` runs
/// on a worker thread and Ctrl-C returns `KeyboardInterrupt` immediately (see the module
/// documentation); otherwise it runs on this thread.
///
/// # Errors
/// The exception of a signal handler (`KeyboardInterrupt` for Ctrl-C).
pub(crate) fn run<T, F>(py: Python<'_>, long: bool, work: F) -> PyResult<T>
where
    T: Send + 'static,
    F: FnOnce(&Cancel) -> T + Send + 'static,
{
    let cancel = Arc::new(Cancel::default());
    if !long {
        return Ok(py.detach(move || work(&cancel)));
    }
    let (tx, rx) = mpsc::channel();
    let worker_cancel = Arc::clone(&cancel);
    // Not a scoped thread: after Ctrl-C the caller must not wait for work that cannot stop.
    let spawned = std::thread::Builder::new()
        .name("hauser-work".into())
        .spawn(move || {
            // The receiver is gone when the caller was interrupted; nothing to deliver then.
            let _ = tx.send(work(&worker_cancel));
        });
    if let Err(e) = spawned {
        return Err(crate::errors::os_error(
            e.kind(),
            format!("cannot start a worker thread: {e}"),
        ));
    }
    py.detach(move || loop {
        match rx.recv_timeout(POLL) {
            Ok(out) => return Ok(out),
            Err(RecvTimeoutError::Timeout) => {
                if let Err(e) = Python::attach(|py| py.check_signals()) {
                    cancel.cancel();
                    return Err(e);
                }
            }
            // The worker ended without a result: it panicked.
            Err(RecvTimeoutError::Disconnected) => {
                return Err(pyo3::exceptions::PyRuntimeError::new_err(
                    "internal error: the worker thread stopped without a result",
                ))
            }
        }
    })
}

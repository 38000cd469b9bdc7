//! Helpers of the unit tests of several modules.

use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

/// A writer whose bytes a test can read while a stream is still running (the streaming tests
/// of `classify` and `narratives` check that records are out before the next chunk runs).
pub(crate) struct Shared(pub(crate) Rc<RefCell<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

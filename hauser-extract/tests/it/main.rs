//! The integration tests of `hauser-extract`, one binary: each module was a test file of its own.
#![allow(clippy::unwrap_used)]

mod extract_accuracy;
mod no_panic;

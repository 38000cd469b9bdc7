//! The integration tests of `hauser-core`, one binary: each module was a test file of its own.
#![allow(clippy::unwrap_used)]

mod no_panic;
mod pipeline;
mod treebank_golden;

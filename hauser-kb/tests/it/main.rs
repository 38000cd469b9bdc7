//! The integration tests of `hauser-kb`, one binary: each module was a test file of its own.
#![allow(clippy::unwrap_used)]

mod corruption;
mod golden;
mod ingest;
mod lookups;
mod scorers;

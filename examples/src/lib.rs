//! Example programs for the hauser-rs crates live in `examples/`; this library is empty.

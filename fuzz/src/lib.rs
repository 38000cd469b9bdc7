//! The fuzz targets' bodies (`targets`), one function per target. `hauser-cli`'s tests
//! (`tests/it/fuzz/`) include the same module and replay the committed seeds and crash
//! reproducers through it on every `cargo test`, without the instrumented build.
pub mod targets;

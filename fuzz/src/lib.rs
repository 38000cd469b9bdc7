//! The fuzz targets' bodies, shared with `hauser-cli`'s tests (`tests/it/fuzz/`), which replay
//! the committed seeds and crash reproducers through them on every `cargo test`.
#[path = "../../hauser-cli/tests/it/fuzz/targets.rs"]
pub mod targets;

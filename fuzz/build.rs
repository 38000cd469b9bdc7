//! Empty: the build script exists so that `syn` can be a build dependency with the features the
//! main workspace resolves for it (see Cargo.toml), which keeps the shared compiled dependencies.
fn main() {}

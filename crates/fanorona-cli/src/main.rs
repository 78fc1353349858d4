//! The `fanorona` command.
fn main() {}

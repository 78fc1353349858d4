//! Release automation for the fanorona workspace.
fn main() {}

//! The Fanorona 3D client.
fn main() {}

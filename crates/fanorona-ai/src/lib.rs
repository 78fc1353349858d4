//! Search engine and solver for the board game Fanorona, built on `fanorona-core`.

pub mod solve;

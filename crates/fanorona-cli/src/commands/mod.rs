//! The subcommands, one module each.

pub mod convert;
pub mod perft;
pub mod records;
pub mod show;
pub mod validate;
pub mod solve;

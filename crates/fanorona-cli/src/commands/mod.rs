//! The subcommands, one module each.

pub mod analyse;
pub mod bench;
pub mod book;
pub mod convert;
pub mod engine;
pub mod nnue;
pub mod openings;
pub mod perft;
pub mod play_match;
pub mod puzzles;
pub mod records;
pub mod records_json;
pub mod show;
pub mod solve;
pub mod tune;
pub mod validate;
pub mod verify_proof;

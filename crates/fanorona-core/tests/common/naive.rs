//! The independent simple generator used by the integration tests is the crate's public
//! [`fanorona_core::reference`] module (plain arrays, no code shared with the fast generator).

pub use fanorona_core::reference::Board;

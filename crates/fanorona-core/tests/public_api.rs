//! The public API, pinned: the listing of every public item of `src/` must be
//! `tests/public-api.txt`, so that a change to the API is always a deliberate one (the semver
//! guard of this crate; see docs/xtask.md, "Semver"). After a deliberate change:
//!
//! ```text
//! FANORONA_BLESS=1 cargo test -p fanorona-core --test public_api
//! ```
//!
//! then review the diff of `tests/public-api.txt` and note breaking changes in CHANGELOG.md.
//! The listing code is shared with the other crates: `xtask/src/public_api.rs`. This test and
//! the listing are not part of the published package (`exclude` in `Cargo.toml`).

#[path = "../../../xtask/src/public_api.rs"]
mod public_api;

#[test]
fn public_api_is_as_listed() {
    public_api::check(std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
}

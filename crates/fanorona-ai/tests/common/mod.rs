//! Helpers shared by the integration tests.

use std::path::PathBuf;

use fanorona_ai::solve::tablebase::Tablebase;
use fanorona_ai::solve::{self, Budget};
use fanorona_core::BoardSize;

/// The endgame tables of `size` up to `stones` stones under the solver's rules, made in
/// memory (small boards and few stones: a test's tables).
#[allow(dead_code, reason = "not every test binary makes tables")]
pub fn tables(size: BoardSize, stones: u32) -> Tablebase {
    Tablebase::generate(
        size,
        solve::solver_rules(),
        stones,
        &Budget::default(),
        &mut |_| {},
    )
    .expect("small tables generate")
    .0
}

/// A directory of the repository outside this crate (`tables`, `tables/certificates`), for the
/// tests of committed data: the endgame tables and the proof certificates (5 MB together) are
/// not part of the published package. In the repository the directory must exist; in a crate
/// unpacked from its package (which has `Cargo.toml.orig`) the test is skipped with a note.
#[allow(dead_code, reason = "not every test binary reads the repository")]
pub fn repository_dir(relative: &str) -> Option<PathBuf> {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    if manifest.join("Cargo.toml.orig").exists() {
        eprintln!(
            "skipped: this test reads the repository's `{relative}/`, which is not part of the \
             published package; run it in the repository"
        );
        return None;
    }
    let dir = manifest.join("../..").join(relative);
    assert!(
        dir.is_dir(),
        "the repository's {} is missing",
        dir.display()
    );
    Some(dir)
}

//! Helpers shared by the integration tests.

use std::path::PathBuf;

/// A directory of the repository outside this crate (`tables`, `tables/certificates`), for the
/// tests of committed data: the endgame tables and the proof certificates (5 MB together) are
/// not part of the published package. In the repository the directory must exist; in a crate
/// unpacked from its package (which has `Cargo.toml.orig`) the test is skipped with a note.
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

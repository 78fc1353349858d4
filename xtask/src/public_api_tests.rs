//! Tests of the public-API extractor (`public_api.rs`) on small hand-written crates.

use std::path::Path;

use crate::public_api::{Checked, compare, listing};

fn crate_with(dir: &Path, lib: &str) {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::create_dir_all(dir.join("tests")).unwrap();
    std::fs::write(dir.join("src/lib.rs"), lib).unwrap();
}

const LIB: &str = r#"//! A crate.
mod private;
pub use private::Thing;

/// A point.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Point {
    /// x.
    pub x: u8,
    hidden: u8,
}

struct Private {
    a: u8,
}

impl Private {
    pub fn not_api(&self) -> u8 {
        self.a
    }
}

impl Point {
    /// Makes one.
    pub fn new(x: u8) -> Point {
        let s = "{ not a brace";
        Point { x, hidden: s.len() as u8 }
    }

    fn helper(&self) {}
}

impl Point {
    pub(crate) fn crate_only(&self) -> u8 {
        self.hidden
    }
}

impl<T: Copy> From<T> for Point {
    fn from(_: T) -> Point {
        Point::new(0)
    }
}

/// Kinds.
pub enum Kind {
    A,
    B(u8),
    C { x: u8 },
    D {
        /// y.
        y: u8,
    },
    E,
}

#[cfg(test)]
mod tests {
    pub fn test_only() {}
}
"#;

#[test]
fn lists_public_items_inherent_impls_and_marks() {
    let dir = tempfile::tempdir().unwrap();
    crate_with(dir.path(), LIB);
    // Written by hand from LIB: private types' impls, private fns, an impl of a public type
    // with only crate-visible items, and test code are not API.
    let expected = "# src/lib.rs\n\
        pub use private::Thing;\n\
        #[derive(Clone, Copy, Debug)] #[non_exhaustive] pub struct Point\n  \
        pub x: u8\n\
        impl Point\n  \
        pub fn new(x: u8) -> Point\n\
        impl<T: Copy> From<T> for Point\n  \
        fn from(_: T) -> Point\n\
        pub enum Kind\n  \
        A\n  \
        B(u8)\n  \
        C { x: u8 }\n  \
        D\n    \
        y: u8\n  \
        E\n";
    assert_eq!(listing(dir.path()), expected);
}

#[test]
fn a_change_is_reported_until_blessed() {
    let dir = tempfile::tempdir().unwrap();
    crate_with(dir.path(), LIB);
    assert!(matches!(compare(dir.path(), false), Checked::Changed(_)));
    assert_eq!(compare(dir.path(), true), Checked::Blessed);
    assert_eq!(compare(dir.path(), false), Checked::Same);
    crate::public_api::check(dir.path());
    std::fs::write(
        dir.path().join("src/lib.rs"),
        LIB.replace("pub x: u8", "pub x: u16"),
    )
    .unwrap();
    let Checked::Changed(message) = compare(dir.path(), false) else {
        panic!("a changed field type must be reported");
    };
    assert!(message.contains("  -   pub x: u8"), "{message}");
    assert!(message.contains("  +   pub x: u16"), "{message}");
}

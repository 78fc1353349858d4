//! The public-API listing behind the snapshot tests of the publishable library crates
//! (`crates/fanorona-core/tests/public_api.rs`, `crates/fanorona-ai/tests/public_api.rs`): one
//! copy of the code, included by each test with `#[path]` (and by xtask's own tests, which check
//! the extractor on small sources). It uses the standard library only.
//!
//! A crate's listing of every public item of its `src/` (signatures, enum variants, public
//! fields, trait impls of its public types, `#[non_exhaustive]` marks) is compared with its
//! `tests/public-api.txt`, so that a change to the API is always a deliberate one. After a
//! deliberate change, write the new listing with
//!
//! ```text
//! FANORONA_BLESS=1 cargo test -p fanorona-core --test public_api
//! FANORONA_BLESS=1 cargo test -p fanorona-ai --test public_api
//! ```
//!
//! and review its diff: a removed or changed line is a breaking change (a major version, and a
//! CHANGELOG entry under "Changed" or "Removed"); an added line is a minor one, unless it adds a
//! variant to an enum or a field to a struct that is not `#[non_exhaustive]`.
//!
//! The listing is made from the source text, not by the compiler: it reads one item per line
//! group and knows the shapes `rustfmt` writes. It is a tripwire, not a semver checker (that needs
//! a published baseline: see docs/xtask.md, "Semver").
//!
//! The test files (and `public-api.txt`) are left out of the published packages (`exclude` in the
//! crates' `Cargo.toml`): this file is outside the crates.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// What a block opened by `{` is, for deciding which lines inside it are API.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Block {
    /// A module body (the file itself, or `mod x { ... }`).
    Module,
    /// `impl ... { ... }` or `pub trait ... { ... }`: its `pub fn` (or trait `fn`) lines count.
    Impl { trait_: bool },
    /// `pub enum`: its variants count.
    Enum,
    /// `pub struct`: its `pub` fields count.
    Struct,
    /// A struct-like variant of a public enum: all its fields count.
    Variant,
    /// Anything else (function bodies, private items, macros, tests).
    Private,
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("src/ is readable")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The line without a trailing `//` comment (string contents are left alone: a `//` inside
/// a string on an API line is not expected).
fn code(line: &str) -> &str {
    let t = line.trim();
    if t.starts_with("//") { "" } else { t }
}

/// The numbers of `{` and `}` in a line of code, outside string and character literals.
fn braces(line: &str) -> (usize, usize) {
    let b = line.as_bytes();
    let (mut open, mut close, mut i) = (0, 0, 0);
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            // A character literal ('x' or '\x'), not a lifetime ('a).
            b'\'' if b.get(i + 1) == Some(&b'\\') => {
                i += 2;
                while i < b.len() && b[i] != b'\'' {
                    i += 1;
                }
            }
            b'\'' if b.get(i + 2) == Some(&b'\'') => i += 2,
            b'{' => open += 1,
            b'}' => close += 1,
            _ => {}
        }
        i += 1;
    }
    (open, close)
}

/// The type an `impl` header is for: `Position` in `impl<'a> fmt::Display for Position`.
fn self_type(header: &str) -> &str {
    let rest = match header.find(" for ") {
        Some(i) => &header[i + 5..],
        None => {
            let after = header.trim_start_matches("impl").trim_start();
            // Skip the impl's generics, `<...>`, nested ones included.
            let mut depth = 0;
            let mut start = 0;
            if after.starts_with('<') {
                for (i, c) in after.char_indices() {
                    match c {
                        '<' => depth += 1,
                        '>' => depth -= 1,
                        _ => {}
                    }
                    if depth == 0 {
                        start = i + 1;
                        break;
                    }
                }
            }
            &after[start..]
        }
    };
    let rest = rest.trim();
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(rest.len());
    rest[..end].rsplit("::").next().unwrap_or("")
}

/// The names of the public types (`pub struct`, `pub enum`, `pub trait`, `pub type`).
fn public_types(files: &[PathBuf]) -> Vec<String> {
    let mut names = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).expect("a readable source file");
        for line in text.lines().map(str::trim) {
            for kw in ["pub struct ", "pub enum ", "pub trait ", "pub type "] {
                if let Some(rest) = line.strip_prefix(kw) {
                    let end = rest
                        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .unwrap_or(rest.len());
                    // `pub struct $name` inside a macro has no name of its own.
                    if end > 0 {
                        names.push(rest[..end].to_owned());
                    }
                }
            }
        }
    }
    names
}

/// The listing of the public items of the crate at `root` (its `src/` directory).
pub fn listing(root: &Path) -> String {
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    let types = public_types(&files);
    let mut out = String::new();
    for file in files {
        let rel = file
            .strip_prefix(root)
            .expect("under the crate")
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(&file).expect("a readable source file");
        let _ = writeln!(out, "# {rel}");
        let mut stack: Vec<Block> = vec![Block::Module];
        let mut pending = String::new();
        let mut non_exhaustive = false;
        let mut derives = String::new();
        let mut cfg_test = false;
        // The header of an inherent `impl` block, held back until the block shows a public
        // item (an `impl` with only private or `pub(crate)` items is no API), with the stack
        // depth of its block.
        let mut held: Option<(usize, String)> = None;
        for raw in text.lines() {
            let line = code(raw);
            if line.is_empty() {
                continue;
            }
            let top = *stack.last().expect("the file block");
            if !pending.is_empty() {
                pending.push(' ');
                pending.push_str(line);
            } else if line == "#[non_exhaustive]" {
                non_exhaustive = true;
                continue;
            } else if line == "#[cfg(test)]" {
                cfg_test = true;
                continue;
            } else if line.starts_with("#[derive(")
                || line.starts_with("#[cfg_attr(feature = \"serde\", derive(")
            {
                derives.push_str(line);
                derives.push(' ');
                continue;
            } else if line.starts_with("#[") {
                continue;
            } else {
                pending.push_str(line);
            }
            // An item header ends at its `{` or `;`; a field or variant at its `,`.
            let ends = pending.ends_with('{')
                || pending.ends_with(';')
                || (pending.ends_with(',')
                    && matches!(top, Block::Enum | Block::Struct | Block::Variant))
                || pending.ends_with('}')
                || (matches!(top, Block::Enum) && !pending.contains('('));
            if !ends {
                continue;
            }
            let item = std::mem::take(&mut pending);
            let (opens, closes) = braces(&item);
            let public = item.starts_with("pub ") && !cfg_test;
            let shown = match top {
                Block::Module => {
                    public
                        || (item.starts_with("impl")
                            && !cfg_test
                            && types.iter().any(|t| t == self_type(&item)))
                }
                Block::Impl { trait_: false } => public,
                Block::Impl { trait_: true } => {
                    item.starts_with("fn ") || item.starts_with("type ")
                }
                Block::Enum => item.chars().next().is_some_and(|c| c.is_ascii_uppercase()),
                Block::Struct => public,
                Block::Variant => !item.starts_with('}'),
                Block::Private => false,
            };
            if shown {
                let mut sig = item.trim_end_matches(['{', ',']).trim().to_owned();
                let variant = matches!(top, Block::Enum);
                if let Some(body) = sig
                    .find(" { ")
                    .filter(|_| closes > 0 && opens == closes && !variant)
                {
                    sig.truncate(body);
                }
                let depth = "  ".repeat(stack.len() - 1);
                let mark = if non_exhaustive {
                    "#[non_exhaustive] "
                } else {
                    ""
                };
                let line = format!("{depth}{derives}{mark}{sig}");
                let inherent = matches!(top, Block::Module)
                    && item.starts_with("impl")
                    && !item.contains(" for ")
                    && opens > closes;
                if inherent {
                    held = Some((stack.len() + 1, line));
                } else {
                    if let Some((_, header)) = held.take() {
                        let _ = writeln!(out, "{header}");
                    }
                    let _ = writeln!(out, "{line}");
                }
            }
            non_exhaustive = false;
            derives.clear();
            for _ in 0..opens.saturating_sub(closes) {
                let kind = if !shown || cfg_test {
                    Block::Private
                } else if top == Block::Enum {
                    Block::Variant
                } else if item.starts_with("impl") || item.starts_with("unsafe impl") {
                    Block::Impl {
                        trait_: item.contains(" for "),
                    }
                } else if item.starts_with("pub trait") {
                    Block::Impl { trait_: true }
                } else if item.starts_with("pub enum") {
                    Block::Enum
                } else if item.starts_with("pub struct") {
                    Block::Struct
                } else if item.starts_with("pub mod") {
                    Block::Module
                } else {
                    Block::Private
                };
                stack.push(kind);
            }
            for _ in 0..closes.saturating_sub(opens) {
                if stack.len() > 1 {
                    stack.pop();
                }
            }
            // An inherent impl closed with nothing public in it: not listed.
            if held.as_ref().is_some_and(|(level, _)| stack.len() < *level) {
                held = None;
            }
            if cfg_test && opens > closes {
                cfg_test = false;
                // Everything under `#[cfg(test)]` stays private: mark the block.
                if let Some(last) = stack.last_mut() {
                    *last = Block::Private;
                }
            }
        }
    }
    out
}

/// What [`check`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum Checked {
    /// The listing is the pinned one.
    Same,
    /// `bless` was set: the listing was written to `tests/public-api.txt`.
    Blessed,
    /// The listing differs: the message says how.
    Changed(String),
}

/// Compares the listing of the crate at `root` with its `tests/public-api.txt`, or writes it
/// there when `bless` is set.
pub fn compare(root: &Path, bless: bool) -> Checked {
    let now = listing(root);
    let path = root.join("tests/public-api.txt");
    if bless {
        std::fs::write(&path, &now).expect("tests/public-api.txt is writable");
        return Checked::Blessed;
    }
    let pinned = std::fs::read_to_string(&path).unwrap_or_default();
    if pinned == now {
        return Checked::Same;
    }
    let old: Vec<&str> = pinned.lines().collect();
    let new: Vec<&str> = now.lines().collect();
    let removed: Vec<&&str> = old.iter().filter(|l| !new.contains(l)).take(20).collect();
    let added: Vec<&&str> = new.iter().filter(|l| !old.contains(l)).take(20).collect();
    let name = root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    Checked::Changed(format!(
        "the public API changed.\nremoved or changed (breaking):\n{}\nadded:\n{}\n\
         If this is deliberate, run FANORONA_BLESS=1 cargo test -p {name} --test public_api, \
         review the diff of tests/public-api.txt and note it in CHANGELOG.md.",
        removed
            .iter()
            .map(|l| format!("  - {l}"))
            .collect::<Vec<_>>()
            .join("\n"),
        added
            .iter()
            .map(|l| format!("  + {l}"))
            .collect::<Vec<_>>()
            .join("\n"),
    ))
}

/// The snapshot test: [`compare`], blessing when `FANORONA_BLESS` is set; panics on a change.
pub fn check(root: &Path) {
    if let Checked::Changed(message) = compare(root, std::env::var_os("FANORONA_BLESS").is_some()) {
        panic!("{message}");
    }
}

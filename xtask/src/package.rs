//! `cargo xtask package`: package the publishable crates and build and test them from their
//! packages alone, the way crates.io users and docs.rs get them.
//!
//! `cargo package` verifies a package by building it, not by running its tests, so a test that
//! reads a file left out of the package passes in the repository and fails for everyone else.
//! This task packs every publishable crate (`cargo package --no-verify`, all together so that
//! the engine and the CLI see the just-packed core), unpacks the `.crate` files into
//! `target/package-check/`, makes them one workspace there whose `[patch.crates-io]` points the
//! crates at each other, and runs `cargo test` in it: libraries, binaries, integration tests,
//! examples and doctests, every file of it from the packages.

use std::fmt::Write as _;
use std::fs::{self, File};
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use flate2::read::GzDecoder;

use crate::cargo::Metadata;
use crate::cmd::Cmd;
use crate::flags::Args;
use crate::step;

/// Help for `cargo xtask package`.
pub const HELP: &str = "\
cargo xtask package: package the publishable crates and test them from the packages alone

USAGE:
    cargo xtask package [--no-run]

In order, stopping at the first failure:
    0. the crate READMEs and doc comments link the repository's files absolutely (relative
       links break on crates.io and docs.rs)
    1. cargo package --no-verify --offline --allow-dirty -p <each publishable crate>
       (target/package/NAME-VERSION.crate)
    2. unpacks them into target/package-check/, one workspace whose [patch.crates-io] points
       the crates at each other, with the repository's Cargo.lock and profiles
    3. cargo test --workspace --offline --no-fail-fast there, sharing the repository's target directory so
       that dependencies already built are not built again

OPTIONS:
    --no-run    build the tests of the packages but do not run them
    -h, --help  print this help
";

/// Options of `cargo xtask package`.
#[derive(Debug, Default)]
pub struct Options {
    /// Build the tests without running them.
    pub no_run: bool,
}

/// Parses the arguments of `cargo xtask package`.
pub fn parse(mut args: Args) -> Result<Options> {
    let no_run = args.flag("--no-run");
    args.finish()?;
    Ok(Options { no_run })
}

/// Runs the task.
pub fn run(options: &Options) -> Result<()> {
    let started = Instant::now();
    let metadata = Metadata::load(Path::new("."))?;
    let crates: Vec<(String, String)> = metadata
        .packages
        .iter()
        .filter(|p| p.publishable)
        .map(|p| (p.name.clone(), p.version.clone()))
        .collect();
    step(
        "links that work on crates.io and docs.rs",
        "cargo test -p xtask published_readmes_and_docs_link_absolutely",
        || {
            let problems = link_problems(&metadata.workspace_root)?;
            if !problems.is_empty() {
                anyhow::bail!(
                    "relative links (write https://github.com/fanorona-rs/fanorona/blob/main/...):\n  {}",
                    problems.join("\n  ")
                );
            }
            Ok(())
        },
    )?;
    let pack = Cmd::cargo()
        .args(["package", "--no-verify", "--offline", "--allow-dirty"])
        .args(crates.iter().flat_map(|(name, _)| ["-p", name.as_str()]));
    step("pack the publishable crates", &pack, || pack.run())?;

    let target = metadata.target_directory.clone();
    let check = target.join("package-check");
    step(
        "unpack them into one workspace",
        "cargo xtask package",
        || unpack(&metadata.workspace_root, &target, &check, &crates),
    )?;

    let mut test = Cmd::cargo()
        .args([
            "test",
            "--workspace",
            "--offline",
            "--no-fail-fast",
            "--manifest-path",
        ])
        .arg(check.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target);
    if options.no_run {
        test = test.arg("--no-run");
    }
    step("test the packages", &test, || test.run())?;
    eprintln!(
        "\nthe packages of {} build and pass their tests from their own files ({:.1} s)",
        crates
            .iter()
            .map(|(name, _)| name.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Unpacks `target/package/NAME-VERSION.crate` of each crate into `check`, with a workspace
/// manifest and the repository's lock file.
fn unpack(root: &Path, target: &Path, check: &Path, crates: &[(String, String)]) -> Result<()> {
    if check.exists() {
        fs::remove_dir_all(check).with_context(|| format!("removing {}", check.display()))?;
    }
    fs::create_dir_all(check).with_context(|| format!("creating {}", check.display()))?;
    let mut dirs = Vec::new();
    for (name, version) in crates {
        let file = target
            .join("package")
            .join(format!("{name}-{version}.crate"));
        let archive = File::open(&file).with_context(|| format!("opening {}", file.display()))?;
        let mut archive = tar::Archive::new(GzDecoder::new(archive));
        // Packaged files carry a fixed old time; unpacked with it, a changed file would look
        // older than the test binaries built from the last package, and cargo would run those.
        archive.set_preserve_mtime(false);
        archive
            .unpack(check)
            .with_context(|| format!("unpacking {}", file.display()))?;
        dirs.push((name.clone(), format!("{name}-{version}")));
    }
    let root_manifest =
        fs::read_to_string(root.join("Cargo.toml")).context("reading Cargo.toml")?;
    fs::write(check.join("Cargo.toml"), manifest(&dirs, &root_manifest))
        .context("writing the package workspace's Cargo.toml")?;
    fs::copy(root.join("Cargo.lock"), check.join("Cargo.lock")).context("copying Cargo.lock")?;
    Ok(())
}

/// The manifest of the workspace of unpacked crates: `dirs` holds (crate, directory) pairs.
/// The repository's `[profile.*]` sections come along, so that the crates are optimised as in
/// the repository (the engine's tests are slow unoptimised) and built dependencies are reused.
pub fn manifest(dirs: &[(String, String)], root_manifest: &str) -> String {
    let mut out = String::from(
        "# Made by `cargo xtask package`: the publishable crates, unpacked from their packages.\n\
         [workspace]\nresolver = \"3\"\nmembers = [",
    );
    let members: Vec<String> = dirs.iter().map(|(_, dir)| format!("\"{dir}\"")).collect();
    out += &members.join(", ");
    out += "]\n\n[patch.crates-io]\n";
    for (name, dir) in dirs {
        let _ = writeln!(out, "{name} = {{ path = \"{dir}\" }}");
    }
    let mut in_profile = false;
    for line in root_manifest.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            in_profile = trimmed.starts_with("[profile.");
            if in_profile {
                out.push('\n');
            }
        }
        if in_profile && !trimmed.is_empty() && !trimmed.starts_with('#') {
            out += line;
            out.push('\n');
        }
    }
    out
}

/// The link targets of markdown `text` that are not absolute (`http(s)://`, `mailto:`) nor
/// anchors (`#...`): they break on crates.io, which shows a crate's README away from the
/// repository.
pub fn relative_links(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        let end = rest.find(')').unwrap_or(rest.len());
        let target = rest[..end].trim();
        let absolute = ["http://", "https://", "mailto:", "#"]
            .iter()
            .any(|p| target.starts_with(p));
        if !absolute {
            found.push(target.to_owned());
        }
        rest = &rest[end..];
    }
    found
}

/// The places in the doc comments of `source` that name a file of the repository's `docs/` as
/// code (`` `docs/rules.md` ``) instead of linking it absolutely: such a path means nothing on
/// docs.rs. Each as `line: text`.
pub fn bare_docs_paths(source: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (n, line) in source.lines().enumerate() {
        let doc = line.trim_start();
        if !(doc.starts_with("///") || doc.starts_with("//!")) {
            continue;
        }
        let mut from = 0;
        while let Some(i) = doc[from..].find("`docs/") {
            let at = from + i;
            if !doc[..at].ends_with('[') {
                found.push(format!("{}: {}", n + 1, doc.trim()));
                break;
            }
            from = at + 1;
        }
        for target in relative_links(doc) {
            // Intra-doc links (`crate::x`, `Self::y`, `self#section`) are rustdoc's own.
            if target.contains(".md") || target.starts_with("../") || target.starts_with("./") {
                found.push(format!("{}: {}", n + 1, doc.trim()));
            }
        }
    }
    found
}

/// What crates.io and docs.rs show must work away from the repository: the READMEs of the
/// publishable crates link absolutely, and their doc comments link `docs/` files absolutely.
/// Each problem as `FILE: what`.
pub fn link_problems(root: &Path) -> Result<Vec<String>> {
    let mut problems = Vec::new();
    for name in PUBLISHED {
        let dir = root.join("crates").join(name);
        let readme = dir.join("README.md");
        let text =
            fs::read_to_string(&readme).with_context(|| format!("reading {}", readme.display()))?;
        for link in relative_links(&text) {
            problems.push(format!("crates/{name}/README.md: relative link `{link}`"));
        }
        let mut files = vec![dir.join("src")];
        while let Some(path) = files.pop() {
            if path.is_dir() {
                for entry in fs::read_dir(&path)? {
                    files.push(entry?.path());
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = fs::read_to_string(&path)?;
                let shown = path
                    .strip_prefix(root)
                    .unwrap_or(&path)
                    .display()
                    .to_string();
                for place in bare_docs_paths(&text) {
                    problems.push(format!("{shown}:{place}"));
                }
            }
        }
    }
    Ok(problems)
}

/// The crates whose READMEs and docs are checked by [`link_problems`].
const PUBLISHED: [&str; 3] = ["fanorona-core", "fanorona-ai", "fanorona-cli"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workspace_patches_the_crates_and_keeps_the_profiles() {
        let root = "[workspace]\nmembers = [\"crates/*\"]\n\n[workspace.dependencies]\na = \"1\"\n\n\
                    # A comment.\n[profile.dev]\n# Why.\ndebug = \"line-tables-only\"\n\n\
                    [profile.dev.package.core]\nopt-level = 3\n\n[workspace.lints.rust]\nx = \"warn\"\n";
        let dirs = [
            ("core".to_owned(), "core-0.1.0".to_owned()),
            ("cli".to_owned(), "cli-0.1.0".to_owned()),
        ];
        assert_eq!(
            manifest(&dirs, root),
            "# Made by `cargo xtask package`: the publishable crates, unpacked from their packages.\n\
             [workspace]\nresolver = \"3\"\nmembers = [\"core-0.1.0\", \"cli-0.1.0\"]\n\n\
             [patch.crates-io]\ncore = { path = \"core-0.1.0\" }\ncli = { path = \"cli-0.1.0\" }\n\n\
             [profile.dev]\ndebug = \"line-tables-only\"\n\n\
             [profile.dev.package.core]\nopt-level = 3\n"
        );
    }

    #[test]
    fn finds_relative_links() {
        let text = "[a](https://x.org/a) [b](docs/b.md) [c](#c) [d](../d.png) [e](mailto:e@x)";
        assert_eq!(relative_links(text), ["docs/b.md", "../d.png"]);
        let source = "/// See `docs/rules.md`.\n/// See [`docs/rules.md`](https://x.org/docs/rules.md).\n\
                      //! [x](crate::X) and [y](../docs/y.md)\nlet s = \"`docs/z.md`\";\n";
        assert_eq!(
            bare_docs_paths(source),
            [
                "1: /// See `docs/rules.md`.",
                "3: //! [x](crate::X) and [y](../docs/y.md)"
            ]
        );
    }

    #[test]
    fn published_readmes_and_docs_link_absolutely() {
        let problems = link_problems(&crate::project_root()).unwrap();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn parses_its_flag() {
        let args = |w: &[&str]| Args::new("package", w.iter().map(|s| (*s).to_owned()).collect());
        assert!(parse(args(&["--no-run"])).unwrap().no_run);
        assert!(!parse(args(&[])).unwrap().no_run);
        assert!(parse(args(&["--frobnicate"])).is_err());
    }
}

//! `cargo xtask dist`: release binaries for the host, packed with the documents into
//! `target/dist/fanorona-<version>-<target>.tar.gz`, a `SHA256SUMS` file, and a check of the
//! archive (unpacked, `fanorona --version` and `fanorona-3d --version` run from it) before
//! success is reported.
//!
//! Archives are reproducible: entries are sorted, owned by root, and dated with the time of the
//! last commit (or `SOURCE_DATE_EPOCH` when set).

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use flate2::Compression;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use sha2::{Digest, Sha256};

use crate::cargo::{self, Metadata};
use crate::cmd::Cmd;
use crate::flags::Args;
use crate::step;

/// Help for `cargo xtask dist`.
pub const HELP: &str = "\
cargo xtask dist: build and pack a release archive for this machine

USAGE:
    cargo xtask dist [--no-client]

Builds `fanorona` and the 3D client `fanorona-3d` with the release profile for the host target,
packs them with README.md, the licence files, CHANGELOG.md and docs/ into
    target/dist/fanorona-<version>-<target>.tar.gz
writes target/dist/SHA256SUMS (in the format `sha256sum -c` reads), then unpacks the archive into
a temporary directory and runs each program in it with `--version` before reporting success.

OPTIONS:
    --no-client    leave out the 3D client (its release build takes long on small machines);
                   the archive name is the same, so do not publish such an archive
    -h, --help     print this help
";

/// Options of `cargo xtask dist`.
#[derive(Debug)]
pub struct Options {
    no_client: bool,
}

/// Parses the arguments of `cargo xtask dist`.
pub fn parse(mut args: Args) -> Result<Options> {
    let no_client = args.flag("--no-client");
    args.finish()?;
    Ok(Options { no_client })
}

/// The name of the release archive.
pub fn archive_name(version: &str, target: &str) -> String {
    format!("{}.tar.gz", archive_root(version, target))
}

/// The directory every entry of the archive sits in.
pub fn archive_root(version: &str, target: &str) -> String {
    format!("fanorona-{version}-{target}")
}

/// The file name of an executable on `target`.
pub fn exe_name(name: &str, target: &str) -> String {
    if target.contains("windows") {
        format!("{name}.exe")
    } else {
        name.to_owned()
    }
}

/// One file to put in the archive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Where the file is now.
    pub source: PathBuf,
    /// Its path inside the archive, below the root directory, with `/` separators.
    pub dest: String,
    /// Whether it is a program (mode 755 rather than 644).
    pub executable: bool,
}

/// The documents that go into every archive, found in the workspace `root`: README, licences,
/// CHANGELOG and everything under `docs/`. Fails, naming them, when any is missing.
pub fn document_entries(root: &Path) -> Result<Vec<Entry>> {
    let mut entries = Vec::new();
    let mut missing = Vec::new();
    for name in ["README.md", "CHANGELOG.md"] {
        if root.join(name).is_file() {
            entries.push(Entry {
                source: root.join(name),
                dest: name.to_owned(),
                executable: false,
            });
        } else {
            missing.push(name.to_owned());
        }
    }
    let mut licences: Vec<String> = fs::read_dir(root)
        .with_context(|| format!("reading {}", root.display()))?
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_file())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| {
            let upper = n.to_ascii_uppercase();
            upper.starts_with("LICENSE")
                || upper.starts_with("LICENCE")
                || upper.starts_with("COPYING")
        })
        .collect();
    licences.sort();
    if licences.is_empty() {
        missing.push("LICENSE* (licence files)".to_owned());
    }
    for name in licences {
        entries.push(Entry {
            source: root.join(&name),
            dest: name,
            executable: false,
        });
    }
    let docs = root.join("docs");
    if docs.is_dir() {
        add_tree(&docs, "docs", &mut entries)?;
    } else {
        missing.push("docs/".to_owned());
    }
    if !missing.is_empty() {
        bail!(
            "files for the archive are missing from {}: {}",
            root.display(),
            missing.join(", ")
        );
    }
    Ok(entries)
}

/// Adds every file below `dir`, named `prefix/...` in the archive.
fn add_tree(dir: &Path, prefix: &str, entries: &mut Vec<Entry>) -> Result<()> {
    for entry in fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let entry = entry?;
        let name = entry
            .file_name()
            .into_string()
            .map_err(|n| anyhow::anyhow!("file name {n:?} is not UTF-8"))?;
        let path = entry.path();
        let dest = format!("{prefix}/{name}");
        if path.is_dir() {
            add_tree(&path, &dest, entries)?;
        } else if path.is_file() {
            entries.push(Entry {
                source: path,
                dest,
                executable: false,
            });
        }
    }
    Ok(())
}

/// Writes a gzipped tar archive of `entries` below the directory `root_dir`, sorted by path,
/// with every entry dated `mtime` (seconds since 1970) and owned by user and group 0.
pub fn write_archive(out: &Path, root_dir: &str, entries: &[Entry], mtime: u64) -> Result<()> {
    let mut entries: Vec<&Entry> = entries.iter().collect();
    entries.sort_by(|a, b| a.dest.cmp(&b.dest));
    if let Some(pair) = entries.windows(2).find(|w| w[0].dest == w[1].dest) {
        bail!("two files would be `{}` in the archive", pair[0].dest);
    }
    let file = File::create(out).with_context(|| format!("creating {}", out.display()))?;
    let mut builder = tar::Builder::new(GzEncoder::new(file, Compression::best()));
    let mut directories: Vec<String> = vec![root_dir.to_owned()];
    for entry in &entries {
        // Parent directories first, each once.
        let mut parts: Vec<&str> = entry.dest.split('/').collect();
        parts.pop();
        let mut dir = root_dir.to_owned();
        for part in parts {
            dir = format!("{dir}/{part}");
            if !directories.contains(&dir) {
                directories.push(dir.clone());
            }
        }
    }
    for dir in &directories {
        let mut header = tar::Header::new_gnu();
        header.set_entry_type(tar::EntryType::Directory);
        header.set_size(0);
        header.set_mode(0o755);
        header.set_mtime(mtime);
        header.set_uid(0);
        header.set_gid(0);
        builder.append_data(&mut header, format!("{dir}/"), io::empty())?;
    }
    for entry in entries {
        let data = fs::read(&entry.source)
            .with_context(|| format!("reading {}", entry.source.display()))?;
        let mut header = tar::Header::new_gnu();
        header.set_entry_type(tar::EntryType::Regular);
        header.set_size(data.len() as u64);
        header.set_mode(if entry.executable { 0o755 } else { 0o644 });
        header.set_mtime(mtime);
        header.set_uid(0);
        header.set_gid(0);
        builder
            .append_data(
                &mut header,
                format!("{root_dir}/{}", entry.dest),
                data.as_slice(),
            )
            .with_context(|| format!("adding {} to the archive", entry.dest))?;
    }
    builder.into_inner()?.finish()?.flush()?;
    Ok(())
}

/// The SHA-256 of a file, in lower-case hexadecimal.
pub fn sha256_file(path: &Path) -> Result<String> {
    let mut file = File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0; 1 << 16];
    loop {
        let read = file.read(&mut buffer)?;
        if read == 0 {
            break;
        }
        hasher.update(&buffer[..read]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// The contents of a `SHA256SUMS` file for (hash, file name) pairs, sorted by name, in the
/// format `sha256sum --check` reads.
pub fn sums_file(sums: &[(String, String)]) -> String {
    let mut lines: Vec<String> = sums
        .iter()
        .map(|(hash, name)| format!("{hash}  {name}\n"))
        .collect();
    lines.sort_by(|a, b| a[66..].cmp(&b[66..]));
    lines.concat()
}

/// Writes `SHA256SUMS` in `dist` for every release archive there.
fn write_sums(dist: &Path) -> Result<String> {
    let mut sums = Vec::new();
    for entry in fs::read_dir(dist)? {
        let name = entry?.file_name().to_string_lossy().into_owned();
        if name.starts_with("fanorona-") && name.ends_with(".tar.gz") {
            sums.push((sha256_file(&dist.join(&name))?, name));
        }
    }
    let text = sums_file(&sums);
    fs::write(dist.join("SHA256SUMS"), &text)?;
    Ok(text)
}

/// Unpacks `archive` into `into` and checks it: the checksum in `SHA256SUMS` beside it, every
/// packed file present, and every program in it printing `version` for `--version`.
pub fn verify(
    archive: &Path,
    into: &Path,
    root_dir: &str,
    entries: &[Entry],
    version: &str,
) -> Result<()> {
    let name = archive
        .file_name()
        .and_then(|n| n.to_str())
        .context("archive without a name")?;
    let sums =
        fs::read_to_string(archive.with_file_name("SHA256SUMS")).context("reading SHA256SUMS")?;
    let hash = sha256_file(archive)?;
    if !sums.lines().any(|l| l == format!("{hash}  {name}")) {
        bail!("SHA256SUMS has no line `{hash}  {name}`");
    }
    tar::Archive::new(GzDecoder::new(File::open(archive)?))
        .unpack(into)
        .with_context(|| format!("unpacking {}", archive.display()))?;
    let unpacked = into.join(root_dir);
    let missing: Vec<&str> = entries
        .iter()
        .map(|e| e.dest.as_str())
        .filter(|dest| !unpacked.join(dest).is_file())
        .collect();
    if !missing.is_empty() {
        bail!("the archive lacks {}", missing.join(", "));
    }
    for program in entries.iter().filter(|e| e.executable) {
        let printed = Cmd::new(unpacked.join(&program.dest))
            .arg("--version")
            .read()?;
        if !printed.split_whitespace().any(|word| word == version) {
            bail!(
                "`{} --version` from the archive printed `{}`, not version {version}",
                program.dest,
                printed.trim()
            );
        }
        eprintln!(
            "the unpacked `{} --version` says: {}",
            program.dest,
            printed.trim()
        );
    }
    Ok(())
}

/// The time stamp for archive entries: `SOURCE_DATE_EPOCH`, else the time of the last commit,
/// else 0.
fn archive_mtime() -> u64 {
    if let Some(epoch) = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|v| v.trim().parse().ok())
    {
        return epoch;
    }
    Cmd::new("git")
        .args(["log", "-1", "--format=%ct"])
        .read()
        .ok()
        .and_then(|t| t.trim().parse().ok())
        .unwrap_or(0)
}

/// Builds, packs and checks the archive.
pub fn run(options: &Options) -> Result<()> {
    let metadata = Metadata::load(Path::new("."))?;
    let root = metadata.workspace_root.clone();
    let version = metadata.package("fanorona-cli")?.version.clone();
    let target = cargo::host_target()?;
    let documents = document_entries(&root)?;

    let mut binaries = vec![("fanorona-cli", "fanorona")];
    if !options.no_client {
        binaries.push(("fanorona-bevy", "fanorona-3d"));
    }
    let mut entries = Vec::new();
    for (package, bin) in binaries {
        let build = format!("cargo build --release -p {package} --bin {bin}");
        let exe = step(&format!("release build of {bin}"), build, || {
            cargo::build_binary(package, bin, &["--release"])
        })?;
        entries.push(Entry {
            source: exe,
            dest: exe_name(bin, &target),
            executable: true,
        });
    }
    entries.extend(documents);

    let dist = metadata.target_directory.join("dist");
    let root_dir = archive_root(&version, &target);
    let archive = dist.join(archive_name(&version, &target));
    step("pack", "cargo xtask dist", || {
        fs::create_dir_all(&dist)?;
        write_archive(&archive, &root_dir, &entries, archive_mtime())?;
        let sums = write_sums(&dist)?;
        eprintln!(
            "wrote {} and SHA256SUMS:\n{}",
            archive.display(),
            sums.trim_end()
        );
        Ok(())
    })?;
    step("verify the archive", "cargo xtask dist", || {
        let unpack = tempfile::tempdir()?;
        verify(&archive, unpack.path(), &root_dir, &entries, &version)
    })?;
    let size = fs::metadata(&archive)?.len();
    println!(
        "{} ({:.1} MiB, {} files) is ready",
        archive.display(),
        size as f64 / 1048576.0,
        entries.len()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_archives_by_version_and_target() {
        assert_eq!(
            archive_name("0.2.0", "x86_64-unknown-linux-gnu"),
            "fanorona-0.2.0-x86_64-unknown-linux-gnu.tar.gz"
        );
        assert_eq!(
            archive_root("1.0.0-rc.1", "aarch64-apple-darwin"),
            "fanorona-1.0.0-rc.1-aarch64-apple-darwin"
        );
        assert_eq!(
            exe_name("fanorona", "x86_64-pc-windows-msvc"),
            "fanorona.exe"
        );
        assert_eq!(
            exe_name("fanorona-3d", "x86_64-apple-darwin"),
            "fanorona-3d"
        );
    }

    #[test]
    fn sha256_of_known_inputs() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("abc");
        fs::write(&path, "abc").unwrap();
        // The "abc" example of FIPS 180-2.
        assert_eq!(
            sha256_file(&path).unwrap(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        fs::write(&path, "").unwrap();
        assert_eq!(
            sha256_file(&path).unwrap(),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        let sums = sums_file(&[
            ("b".repeat(64), "z.tar.gz".into()),
            ("a".repeat(64), "a.tar.gz".into()),
        ]);
        assert_eq!(
            sums,
            format!(
                "{}  a.tar.gz\n{}  z.tar.gz\n",
                "a".repeat(64),
                "b".repeat(64)
            )
        );
    }

    /// A workspace-like directory with the documents and a stand-in `fanorona` program.
    fn sample_tree(dir: &Path, with_licence: bool) {
        fs::write(dir.join("README.md"), "# fanorona\n").unwrap();
        fs::write(dir.join("CHANGELOG.md"), "# Changelog\n").unwrap();
        if with_licence {
            fs::write(dir.join("LICENSE-MIT"), "MIT\n").unwrap();
            fs::write(dir.join("LICENSE-APACHE"), "Apache\n").unwrap();
        }
        fs::create_dir_all(dir.join("docs/cli")).unwrap();
        fs::write(dir.join("docs/rules.md"), "# Rules\n").unwrap();
        fs::write(dir.join("docs/cli/perft.md"), "# perft\n").unwrap();
        fs::write(dir.join("Cargo.toml"), "[workspace]\n").unwrap();
    }

    #[test]
    fn collects_the_documents() {
        let dir = tempfile::tempdir().unwrap();
        sample_tree(dir.path(), true);
        let mut dests: Vec<String> = document_entries(dir.path())
            .unwrap()
            .into_iter()
            .map(|e| e.dest)
            .collect();
        dests.sort();
        assert_eq!(
            dests,
            [
                "CHANGELOG.md",
                "LICENSE-APACHE",
                "LICENSE-MIT",
                "README.md",
                "docs/cli/perft.md",
                "docs/rules.md"
            ]
        );

        let bare = tempfile::tempdir().unwrap();
        sample_tree(bare.path(), false);
        fs::remove_file(bare.path().join("CHANGELOG.md")).unwrap();
        let err = document_entries(bare.path()).unwrap_err().to_string();
        assert!(
            err.ends_with("CHANGELOG.md, LICENSE* (licence files)"),
            "{err}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn packs_unpacks_and_verifies_an_archive() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        sample_tree(dir.path(), true);
        let program = dir.path().join("fanorona");
        fs::write(&program, "#!/bin/sh\necho \"fanorona 0.3.1\"\n").unwrap();
        let mut entries = vec![Entry {
            source: program,
            dest: "fanorona".into(),
            executable: true,
        }];
        entries.extend(document_entries(dir.path()).unwrap());

        let target = "x86_64-unknown-linux-gnu";
        let dist = dir.path().join("dist");
        fs::create_dir_all(&dist).unwrap();
        let archive = dist.join(archive_name("0.3.1", target));
        let root_dir = archive_root("0.3.1", target);
        write_archive(&archive, &root_dir, &entries, 1_700_000_000).unwrap();
        let sums = write_sums(&dist).unwrap();
        assert_eq!(
            sums,
            format!(
                "{}  fanorona-0.3.1-x86_64-unknown-linux-gnu.tar.gz\n",
                sha256_file(&archive).unwrap()
            )
        );

        // The listing: directories first, then files in order, all under the root directory.
        let mut listing = Vec::new();
        let mut tar = tar::Archive::new(GzDecoder::new(File::open(&archive).unwrap()));
        for entry in tar.entries().unwrap() {
            let entry = entry.unwrap();
            let header = entry.header();
            assert_eq!(header.mtime().unwrap(), 1_700_000_000);
            assert_eq!(header.uid().unwrap(), 0);
            let path = entry.path().unwrap().to_string_lossy().into_owned();
            // Every path is below the root directory; show them relative to it.
            let inside = path.strip_prefix(&format!("{root_dir}/")).unwrap();
            let shown = if inside.is_empty() { "(root)/" } else { inside };
            listing.push(format!("{:o} {shown}", header.mode().unwrap()));
        }
        assert_eq!(
            listing,
            [
                "755 (root)/".to_owned(),
                "755 docs/".into(),
                "755 docs/cli/".into(),
                "644 CHANGELOG.md".into(),
                "644 LICENSE-APACHE".into(),
                "644 LICENSE-MIT".into(),
                "644 README.md".into(),
                "644 docs/cli/perft.md".into(),
                "644 docs/rules.md".into(),
                "755 fanorona".into(),
            ]
        );

        // The same input gives the same bytes.
        let again = dist.join("again.tar");
        write_archive(&again, &root_dir, &entries, 1_700_000_000).unwrap();
        assert_eq!(fs::read(&again).unwrap(), fs::read(&archive).unwrap());
        fs::remove_file(&again).unwrap();

        let unpack = tempfile::tempdir().unwrap();
        verify(&archive, unpack.path(), &root_dir, &entries, "0.3.1").unwrap();
        let unpacked = unpack.path().join(&root_dir).join("fanorona");
        assert_eq!(
            fs::metadata(unpacked).unwrap().permissions().mode() & 0o777,
            0o755
        );

        // A wrong version, a missing file and a tampered archive are all caught.
        let err = verify(
            &archive,
            tempfile::tempdir().unwrap().path(),
            &root_dir,
            &entries,
            "0.3.2",
        );
        assert!(
            err.unwrap_err()
                .to_string()
                .contains("printed `fanorona 0.3.1`, not version 0.3.2")
        );
        let mut more = entries.clone();
        more.push(Entry {
            source: PathBuf::new(),
            dest: "fanorona-3d".into(),
            executable: true,
        });
        let err = verify(
            &archive,
            tempfile::tempdir().unwrap().path(),
            &root_dir,
            &more,
            "0.3.1",
        );
        assert_eq!(
            err.unwrap_err().to_string(),
            "the archive lacks fanorona-3d"
        );
        fs::write(
            dist.join("SHA256SUMS"),
            format!("{}  {}\n", "0".repeat(64), archive_name("0.3.1", target)),
        )
        .unwrap();
        let err = verify(
            &archive,
            tempfile::tempdir().unwrap().path(),
            &root_dir,
            &entries,
            "0.3.1",
        );
        assert!(
            err.unwrap_err()
                .to_string()
                .starts_with("SHA256SUMS has no line")
        );
    }

    #[test]
    fn refuses_two_files_with_one_name() {
        let dir = tempfile::tempdir().unwrap();
        sample_tree(dir.path(), true);
        let readme = Entry {
            source: dir.path().join("README.md"),
            dest: "README.md".into(),
            executable: false,
        };
        let err = write_archive(
            &dir.path().join("x.tar.gz"),
            "r",
            &[readme.clone(), readme],
            0,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "two files would be `README.md` in the archive"
        );
    }
}

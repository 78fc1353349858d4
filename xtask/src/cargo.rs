//! What the tasks need to know from cargo: workspace members, versions, the target directory,
//! the host target, and the paths of the executables a build produced.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::cmd::Cmd;

/// One workspace member, as `cargo metadata` describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Package {
    /// The package name.
    pub name: String,
    /// Its version.
    pub version: String,
    /// Its `Cargo.toml`.
    pub manifest_path: PathBuf,
    /// Whether it may be published to crates.io (`publish` not set to `false` or `[]`).
    pub publishable: bool,
    /// The names of its benchmark targets.
    pub benches: Vec<String>,
}

/// The parts of `cargo metadata --no-deps` the tasks use.
#[derive(Clone, Debug)]
pub struct Metadata {
    /// The workspace root directory.
    pub workspace_root: PathBuf,
    /// Where build outputs go (honours `CARGO_TARGET_DIR`).
    pub target_directory: PathBuf,
    /// The workspace members.
    pub packages: Vec<Package>,
}

impl Metadata {
    /// Reads the metadata of the workspace in `dir`.
    pub fn load(dir: &Path) -> Result<Metadata> {
        let json = Cmd::cargo()
            .args(["metadata", "--format-version", "1", "--no-deps"])
            .current_dir(dir)
            .read()?;
        Metadata::parse(&json)
    }

    /// Parses the JSON that `cargo metadata --format-version 1` prints.
    pub fn parse(json: &str) -> Result<Metadata> {
        let value: Value = serde_json::from_str(json).context("parsing `cargo metadata` output")?;
        let text = |v: &Value, key: &str| -> Result<String> {
            v[key]
                .as_str()
                .map(str::to_owned)
                .with_context(|| format!("metadata has no `{key}`"))
        };
        let mut packages = Vec::new();
        for package in value["packages"]
            .as_array()
            .context("metadata has no `packages`")?
        {
            let publishable = match &package["publish"] {
                Value::Null => true,
                Value::Array(registries) => !registries.is_empty(),
                _ => false,
            };
            let benches = package["targets"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|t| {
                    t["kind"]
                        .as_array()
                        .is_some_and(|k| k.iter().any(|k| k == "bench"))
                })
                .filter_map(|t| t["name"].as_str().map(str::to_owned))
                .collect();
            packages.push(Package {
                name: text(package, "name")?,
                version: text(package, "version")?,
                manifest_path: text(package, "manifest_path")?.into(),
                publishable,
                benches,
            });
        }
        Ok(Metadata {
            workspace_root: text(&value, "workspace_root")?.into(),
            target_directory: text(&value, "target_directory")?.into(),
            packages,
        })
    }

    /// The member called `name`.
    pub fn package(&self, name: &str) -> Result<&Package> {
        self.packages
            .iter()
            .find(|p| p.name == name)
            .with_context(|| format!("the workspace has no package `{name}`"))
    }
}

/// The target triple of the machine running the task, from `rustc -vV`.
pub fn host_target() -> Result<String> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let info = Cmd::new(rustc).arg("-vV").read()?;
    parse_host(&info).context("`rustc -vV` printed no `host:` line")
}

fn parse_host(rustc_vv: &str) -> Option<String> {
    rustc_vv
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .map(|h| h.trim().to_owned())
}

/// Runs a `cargo build` command and returns the executables it produced, by target name.
/// The command gets `--message-format=json-render-diagnostics` added, so compiler messages
/// still appear as usual.
pub fn build_executables(build: Cmd) -> Result<Vec<(String, PathBuf)>> {
    let mut executables = Vec::new();
    build
        .arg("--message-format=json-render-diagnostics")
        .for_each_line(|line| {
            if let Some(found) = executable_of(line)? {
                executables.push(found);
            }
            Ok(())
        })?;
    Ok(executables)
}

/// The executable named in one line of cargo's JSON messages, if it names one.
fn executable_of(line: &str) -> Result<Option<(String, PathBuf)>> {
    if !line.starts_with('{') {
        return Ok(None);
    }
    let message: Value = serde_json::from_str(line).context("parsing a cargo JSON message")?;
    // Test harnesses (`profile.test`) are executables too, with the target's name.
    if message["reason"] != "compiler-artifact" || message["profile"]["test"] == true {
        return Ok(None);
    }
    match (
        message["target"]["name"].as_str(),
        message["executable"].as_str(),
    ) {
        (Some(name), Some(exe)) => Ok(Some((name.to_owned(), PathBuf::from(exe)))),
        _ => Ok(None),
    }
}

/// Builds one binary with the given extra `cargo build` arguments and returns its path.
pub fn build_binary(package: &str, bin: &str, extra: &[&str]) -> Result<PathBuf> {
    let build = Cmd::cargo()
        .args(["build", "-p", package, "--bin", bin])
        .args(extra);
    let executables = build_executables(build)?;
    match executables.into_iter().find(|(name, _)| name == bin) {
        Some((_, path)) => Ok(path),
        None => bail!("building `{package}` produced no executable `{bin}`"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_members_publishability_and_benches() {
        let json = r#"{
          "packages": [
            {"name": "fanorona-core", "version": "0.1.0", "publish": null,
             "manifest_path": "/w/crates/fanorona-core/Cargo.toml",
             "targets": [{"kind": ["lib"], "name": "fanorona_core"},
                         {"kind": ["bench"], "name": "movegen"}]},
            {"name": "xtask", "version": "0.1.0", "publish": [],
             "manifest_path": "/w/xtask/Cargo.toml",
             "targets": [{"kind": ["bin"], "name": "xtask"}]}
          ],
          "workspace_root": "/w", "target_directory": "/t", "version": 1
        }"#;
        let metadata = Metadata::parse(json).unwrap();
        assert_eq!(metadata.workspace_root, Path::new("/w"));
        assert_eq!(metadata.target_directory, Path::new("/t"));
        let core = metadata.package("fanorona-core").unwrap();
        assert!(core.publishable);
        assert_eq!(core.benches, ["movegen"]);
        let xtask = metadata.package("xtask").unwrap();
        assert!(!xtask.publishable);
        assert!(xtask.benches.is_empty());
        assert!(metadata.package("nope").is_err());
    }

    #[test]
    fn reads_this_workspace() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let metadata = Metadata::load(root).unwrap();
        let xtask = metadata.package("xtask").unwrap();
        assert!(!xtask.publishable);
        assert_eq!(xtask.version, env!("CARGO_PKG_VERSION"));
    }

    #[test]
    fn finds_the_host_and_executables() {
        let vv = "rustc 1.95.0\nbinary: rustc\nhost: x86_64-unknown-linux-gnu\nrelease: 1.95.0\n";
        assert_eq!(parse_host(vv).as_deref(), Some("x86_64-unknown-linux-gnu"));
        assert!(!host_target().unwrap().is_empty());

        let artifact = r#"{"reason":"compiler-artifact","target":{"name":"fanorona","kind":["bin"]},"profile":{"test":false},"executable":"/t/debug/fanorona"}"#;
        assert_eq!(
            executable_of(artifact).unwrap(),
            Some(("fanorona".to_owned(), PathBuf::from("/t/debug/fanorona")))
        );
        let harness = r#"{"reason":"compiler-artifact","target":{"name":"fanorona","kind":["bin"]},"profile":{"test":true},"executable":"/t/debug/deps/fanorona-0123"}"#;
        assert_eq!(executable_of(harness).unwrap(), None);
        let library = r#"{"reason":"compiler-artifact","target":{"name":"core","kind":["lib"]},"executable":null}"#;
        assert_eq!(executable_of(library).unwrap(), None);
        assert_eq!(
            executable_of(r#"{"reason":"build-finished","success":true}"#).unwrap(),
            None
        );
        assert_eq!(executable_of("warning: something").unwrap(), None);
    }
}

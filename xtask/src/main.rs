//! Release automation for the fanorona workspace, run as `cargo xtask <task>`.
//!
//! `main` parses the task name and hands the rest of the arguments to one module per task. Every
//! task starts from the workspace root, runs its commands through [`cmd::Cmd`] and, when a step
//! fails, says which step and the command that runs it alone. See `docs/xtask.md`.

mod bench;
mod cargo;
mod ci;
mod cmd;
mod dist;
mod docs;
mod examples;
mod flags;
mod package;
// The public-API listing of the snapshot tests (included by the crates' tests via #[path]);
// compiled here only to test the extractor itself.
#[cfg(test)]
mod public_api;
#[cfg(test)]
mod public_api_tests;
mod release;
mod screenshot;

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};

use crate::flags::Args;

const HELP: &str = "\
cargo xtask: release work for the fanorona workspace

USAGE:
    cargo xtask <TASK> [OPTIONS]

TASKS:
    ci         run every check CI runs (fmt, clippy, tests, docs, client smoke test)
    dist       build release binaries and pack target/dist/fanorona-<version>-<target>.tar.gz
    release    bump the version, date the CHANGELOG, check, package, commit and tag
    bench      run the criterion benchmarks and print a table of the results
    docs       regenerate the generated parts of docs/ (or check them with --check)
    package    package the publishable crates and test them from the packages alone

Run `cargo xtask <TASK> --help` for the options of one task.
";

/// A step of a task that failed, with the command that runs it alone.
#[derive(Debug)]
pub struct StepFailed {
    step: String,
    alone: String,
    source: anyhow::Error,
}

impl StepFailed {
    /// Wraps the error of step `step`, which `alone` runs by itself.
    pub fn new(step: impl Into<String>, alone: impl Into<String>, source: anyhow::Error) -> Self {
        StepFailed {
            step: step.into(),
            alone: alone.into(),
            source,
        }
    }
}

impl fmt::Display for StepFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "step `{}` failed", self.step)
    }
}

impl std::error::Error for StepFailed {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(self.source.as_ref())
    }
}

/// Runs `body` as the step `step` of a task: prints a header, and on failure wraps the error
/// in [`StepFailed`] naming `alone`, the command that runs the step by itself.
pub fn step<T>(
    step: &str,
    alone: impl fmt::Display,
    body: impl FnOnce() -> Result<T>,
) -> Result<T> {
    eprintln!("\n==> {step}");
    body().map_err(|err| StepFailed::new(step, alone.to_string(), err).into())
}

/// The workspace root: the parent of this crate's directory.
fn project_root() -> PathBuf {
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    manifest_dir
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or(manifest_dir)
}

fn run(mut words: Vec<String>) -> Result<()> {
    if words.is_empty() {
        print!("{HELP}");
        bail!("no task given");
    }
    let task = words.remove(0);
    if task == "-h" || task == "--help" || task == "help" {
        print!("{HELP}");
        return Ok(());
    }
    const TASKS: [&str; 6] = ["ci", "dist", "release", "bench", "docs", "package"];
    if !TASKS.contains(&task.as_str()) {
        bail!("unknown task `{task}`; run `cargo xtask --help` for the list");
    }
    let root = project_root();
    std::env::set_current_dir(&root)
        .with_context(|| format!("changing to the workspace root {}", root.display()))?;

    macro_rules! dispatch {
        ($name:literal, $module:ident) => {{
            let args = Args::new($name, words);
            if args.help() {
                print!("{}", $module::HELP);
                return Ok(());
            }
            $module::run(&$module::parse(args)?)
        }};
    }
    match task.as_str() {
        "ci" => dispatch!("ci", ci),
        "dist" => dispatch!("dist", dist),
        "release" => dispatch!("release", release),
        "bench" => dispatch!("bench", bench),
        "docs" => dispatch!("docs", docs),
        "package" => dispatch!("package", package),
        other => bail!("unknown task `{other}`; run `cargo xtask --help` for the list"),
    }
}

fn main() -> ExitCode {
    let words: Vec<String> = std::env::args().skip(1).collect();
    match run(words) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("\nerror: {err}");
            for cause in err.chain().skip(1) {
                eprintln!("  caused by: {cause}");
            }
            // The innermost step is the most precise one to run again.
            if let Some(failed) = err
                .chain()
                .filter_map(|e| e.downcast_ref::<StepFailed>())
                .last()
            {
                eprintln!(
                    "\nstep {} failed; run it alone with: {}",
                    failed.step, failed.alone
                );
            }
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_root_holds_the_workspace_manifest() {
        let manifest = std::fs::read_to_string(project_root().join("Cargo.toml")).unwrap();
        assert!(manifest.contains("[workspace]"));
    }

    #[test]
    fn a_failed_step_names_itself_and_its_command() {
        let err = step("build", "cargo build -p x", || -> Result<()> {
            bail!("boom")
        })
        .unwrap_err();
        assert_eq!(err.to_string(), "step `build` failed");
        let failed = err.downcast_ref::<StepFailed>().unwrap();
        assert_eq!(failed.alone, "cargo build -p x");
        assert_eq!(err.chain().nth(1).unwrap().to_string(), "boom");
        assert_eq!(step("ok", "true", || Ok(7)).unwrap(), 7);
    }

    #[test]
    fn every_task_has_help() {
        for (task, help) in [
            ("ci", ci::HELP),
            ("dist", dist::HELP),
            ("release", release::HELP),
            ("bench", bench::HELP),
            ("docs", docs::HELP),
        ] {
            assert!(
                HELP.contains(&format!("    {task} ")),
                "{task} missing from the task list"
            );
            assert!(help.starts_with(&format!("cargo xtask {task}")), "{task}");
            assert!(help.contains("-h, --help"), "{task}");
        }
        assert!(
            run(vec!["frobnicate".to_owned()])
                .unwrap_err()
                .to_string()
                .contains("unknown task")
        );
    }
}

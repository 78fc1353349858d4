//! `cargo xtask ci`: every check CI runs, in order, with a time per step and a summary.

use std::time::{Duration, Instant};

use anyhow::{Result, bail};

use crate::StepFailed;
use crate::cmd::Cmd;
use crate::flags::Args;
use crate::screenshot::{self, Size};

/// Help for `cargo xtask ci`.
pub const HELP: &str = "\
cargo xtask ci: run every check CI runs, in order

USAGE:
    cargo xtask ci [--keep-going] [--step NAME]... [--skip-smoke]

STEPS:
    fmt      cargo fmt --all --check
    clippy   cargo clippy --workspace --all-targets -- -D warnings
    test     cargo test --workspace (with the public-API snapshots of fanorona-core and
             fanorona-ai, tests/public_api.rs: an API change fails until blessed)
    package  the publishable crates packed, unpacked and tested from their packages alone
             (cargo xtask package)
    doc      RUSTDOCFLAGS='-D warnings' cargo doc --workspace --no-deps
    docs     the generated CLI pages and diagrams in docs/ are up to date, and the examples
             of README.md and docs/ run as written: `console` blocks, `engine-session`
             blocks (turns checked legal) and the counted numbers of tables; those marked
             slow are left to `cargo xtask docs --check-slow`
             (cargo xtask docs --check --no-screenshots)
    smoke    the 3D client saves a 640x360 screenshot under xvfb-run (or the current display)
             and the result must be a non-empty PNG; skipped with a note when there is no
             display

OPTIONS:
    --keep-going    run every step even after one fails, and report all failures at the end
    --step NAME     run only this step (may be repeated, or a comma-separated list)
    --skip-smoke    leave out the screenshot smoke test
    -h, --help      print this help

The first failing step stops the run (unless --keep-going) with the command to run it alone.
";

/// One check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Formatting.
    Fmt,
    /// Clippy with warnings denied.
    Clippy,
    /// The tests of every crate.
    Test,
    /// The publishable crates, tested from their packages.
    Package,
    /// The documentation, with warnings denied.
    Doc,
    /// The generated parts of `docs/` are up to date.
    Docs,
    /// The client's screenshot smoke test.
    Smoke,
}

impl Step {
    /// Every step, in the order CI runs them.
    pub const ALL: [Step; 7] = [
        Step::Fmt,
        Step::Clippy,
        Step::Test,
        Step::Package,
        Step::Doc,
        Step::Docs,
        Step::Smoke,
    ];

    /// The step's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Step::Fmt => "fmt",
            Step::Clippy => "clippy",
            Step::Test => "test",
            Step::Package => "package",
            Step::Doc => "doc",
            Step::Docs => "docs",
            Step::Smoke => "smoke",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Step::Fmt => "formatting",
            Step::Clippy => "clippy, warnings denied",
            Step::Test => "tests of every crate",
            Step::Package => "publishable crates tested from their packages",
            Step::Doc => "documentation, warnings denied",
            Step::Docs => "generated docs up to date, examples run as written",
            Step::Smoke => "3D client screenshot smoke test",
        }
    }

    /// Parses a step name.
    pub fn from_name(name: &str) -> Result<Step> {
        match Step::ALL.into_iter().find(|s| s.name() == name) {
            Some(step) => Ok(step),
            None => {
                let names: Vec<_> = Step::ALL.iter().map(|s| s.name()).collect();
                bail!("unknown step `{name}`; the steps are {}", names.join(", "))
            }
        }
    }

    /// The cargo command of a step that is one command (all but the smoke test).
    pub fn command(self) -> Option<Cmd> {
        let cargo = Cmd::cargo();
        Some(match self {
            Step::Fmt => cargo.args(["fmt", "--all", "--check"]),
            Step::Clippy => cargo.args([
                "clippy",
                "--workspace",
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ]),
            Step::Test => cargo.args(["test", "--workspace"]),
            Step::Doc => cargo
                .args(["doc", "--workspace", "--no-deps"])
                .env("RUSTDOCFLAGS", "-D warnings"),
            Step::Package | Step::Docs | Step::Smoke => return None,
        })
    }

    /// How to run the step alone, for failure messages.
    pub fn alone(self) -> String {
        match self.command() {
            Some(cmd) => format!("{cmd}   (or: cargo xtask ci --step {})", self.name()),
            None => format!("cargo xtask ci --step {}", self.name()),
        }
    }
}

/// What became of one step.
#[derive(Debug)]
enum Outcome {
    Passed(Duration),
    Skipped(String),
    Failed(Duration, anyhow::Error),
    NotRun,
}

/// Options of `cargo xtask ci`.
#[derive(Debug, Default)]
pub struct Options {
    /// Run every step even after a failure.
    pub keep_going: bool,
    /// Run only these steps (all when empty).
    pub only: Vec<Step>,
    /// Leave out the smoke test.
    pub skip_smoke: bool,
}

/// Parses the arguments of `cargo xtask ci`.
pub fn parse(mut args: Args) -> Result<Options> {
    let keep_going = args.flag("--keep-going");
    let skip_smoke = args.flag("--skip-smoke");
    let mut only = Vec::new();
    for value in args.values("--step")? {
        for name in value.split(',').filter(|n| !n.is_empty()) {
            only.push(Step::from_name(name)?);
        }
    }
    args.finish()?;
    Ok(Options {
        keep_going,
        only,
        skip_smoke,
    })
}

/// Runs the checks.
pub fn run(options: &Options) -> Result<()> {
    let selected: Vec<Step> = Step::ALL
        .into_iter()
        .filter(|s| options.only.is_empty() || options.only.contains(s))
        .collect();
    let mut outcomes: Vec<(Step, Outcome)> =
        selected.iter().map(|&s| (s, Outcome::NotRun)).collect();
    let started = Instant::now();
    let mut stopped = false;
    for (step, outcome) in &mut outcomes {
        if stopped {
            break;
        }
        eprintln!("\n==> {} ({})", step.name(), step.title());
        let step_started = Instant::now();
        *outcome = if *step == Step::Smoke && options.skip_smoke {
            Outcome::Skipped("--skip-smoke given".to_owned())
        } else {
            match run_step(*step) {
                Ok(None) => Outcome::Passed(step_started.elapsed()),
                Ok(Some(reason)) => Outcome::Skipped(reason),
                Err(err) => Outcome::Failed(step_started.elapsed(), err),
            }
        };
        match outcome {
            Outcome::Passed(took) => eprintln!("==> {} passed in {}", step.name(), seconds(*took)),
            Outcome::Skipped(reason) => eprintln!("==> {} SKIPPED: {reason}", step.name()),
            Outcome::Failed(took, err) => {
                eprintln!(
                    "==> {} FAILED after {}: {err:#}",
                    step.name(),
                    seconds(*took)
                );
                eprintln!("    run it alone with: {}", step.alone());
                stopped = !options.keep_going;
            }
            Outcome::NotRun => {}
        }
    }
    eprintln!("\n{}", summary(&outcomes, started.elapsed()));

    let mut failed = outcomes
        .into_iter()
        .filter_map(|(step, outcome)| match outcome {
            Outcome::Failed(_, err) => Some((step, err)),
            _ => None,
        });
    match (failed.next(), failed.next()) {
        (None, _) => Ok(()),
        (Some((step, err)), None) => Err(StepFailed::new(step.name(), step.alone(), err).into()),
        (Some(first), Some(second)) => {
            let all: Vec<_> = [first, second].into_iter().chain(failed).collect();
            let mut message = format!("{} steps failed:", all.len());
            for (step, err) in &all {
                message += &format!(
                    "\n  {}: {err:#}\n    run it alone with: {}",
                    step.name(),
                    step.alone()
                );
            }
            bail!(message)
        }
    }
}

/// Runs one step; `Ok(Some(reason))` when it was skipped.
fn run_step(step: Step) -> Result<Option<String>> {
    if let Some(cmd) = step.command() {
        cmd.run()?;
        return Ok(None);
    }
    if step == Step::Docs {
        crate::docs::run(&crate::docs::Options::check_without_screenshots())?;
        return Ok(None);
    }
    if step == Step::Package {
        crate::package::run(&crate::package::Options::default())?;
        return Ok(None);
    }
    smoke()
}

/// The screenshot smoke test: the client must start, draw a frame and save it as a PNG.
fn smoke() -> Result<Option<String>> {
    let display = match screenshot::find_display() {
        Ok(display) => display,
        Err(reason) => {
            eprintln!("note: skipped: {reason}");
            return Ok(Some(reason));
        }
    };
    let client = screenshot::build_client()?;
    let dir = tempfile::tempdir()?;
    let out = dir.path().join("smoke.png");
    let size = Size {
        width: 640,
        height: 360,
    };
    let saved = screenshot::capture(&client, display, &out, size, &[])?;
    eprintln!(
        "the client saved a {saved} PNG of {} bytes",
        std::fs::metadata(&out)?.len()
    );
    Ok(None)
}

/// A duration in seconds with one decimal.
fn seconds(d: Duration) -> String {
    format!("{:.1} s", d.as_secs_f64())
}

/// The table printed at the end of a run.
fn summary(outcomes: &[(Step, Outcome)], total: Duration) -> String {
    let mut table = String::from("summary:\n");
    for (step, outcome) in outcomes {
        let (status, detail) = match outcome {
            Outcome::Passed(took) => ("passed", seconds(*took)),
            Outcome::Skipped(reason) => ("skipped", reason.clone()),
            Outcome::Failed(took, _) => ("FAILED", seconds(*took)),
            Outcome::NotRun => ("not run", String::new()),
        };
        let line = format!("  {:<8} {:<8} {}", step.name(), status, detail);
        table.push_str(line.trim_end());
        table.push('\n');
    }
    table += &format!("  total             {}", seconds(total));
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> Args {
        Args::new("ci", words.iter().map(|w| (*w).to_owned()).collect())
    }

    #[test]
    fn parses_steps_and_flags() {
        let options = parse(args(&["--step", "fmt,doc", "--step=smoke", "--keep-going"])).unwrap();
        assert_eq!(options.only, [Step::Fmt, Step::Doc, Step::Smoke]);
        assert!(options.keep_going);
        assert!(!options.skip_smoke);
        let err = parse(args(&["--step", "lint"])).unwrap_err().to_string();
        assert_eq!(
            err,
            "unknown step `lint`; the steps are fmt, clippy, test, package, doc, docs, smoke"
        );
    }

    #[test]
    fn each_step_says_how_to_run_it_alone() {
        assert_eq!(
            Step::Clippy.alone(),
            "cargo clippy --workspace --all-targets -- -D warnings   (or: cargo xtask ci --step clippy)"
        );
        assert_eq!(
            Step::Doc.command().unwrap().to_string(),
            "RUSTDOCFLAGS='-D warnings' cargo doc --workspace --no-deps"
        );
        assert_eq!(Step::Smoke.alone(), "cargo xtask ci --step smoke");
        assert_eq!(Step::Docs.alone(), "cargo xtask ci --step docs");
        assert_eq!(Step::Package.alone(), "cargo xtask ci --step package");
        for step in Step::ALL {
            assert!(
                HELP.contains(&format!("    {:<9}", step.name())),
                "{} not in help",
                step.name()
            );
        }
    }

    #[test]
    fn summary_lists_every_step() {
        let outcomes = [
            (Step::Fmt, Outcome::Passed(Duration::from_millis(1300))),
            (
                Step::Clippy,
                Outcome::Failed(Duration::from_secs(60), anyhow::anyhow!("x")),
            ),
            (Step::Test, Outcome::NotRun),
            (
                Step::Smoke,
                Outcome::Skipped("no display/xvfb-run".to_owned()),
            ),
        ];
        assert_eq!(
            summary(&outcomes, Duration::from_secs(62)),
            "summary:\n  fmt      passed   1.3 s\n  clippy   FAILED   60.0 s\n  test     not run\n  \
             smoke    skipped  no display/xvfb-run\n  total             62.0 s"
        );
    }
}

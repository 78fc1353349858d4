//! `cargo xtask release <version>`: bump the version everywhere, date the CHANGELOG, run the
//! checks, package the publishable crates, commit and tag.
//!
//! The edits are pure functions on file contents ([`bump_manifest`], [`release_changelog`]), so
//! that they are tested without a repository and a dry run can show them without writing.

use std::cmp::Ordering;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, bail};

use crate::cargo::Metadata;
use crate::cmd::Cmd;
use crate::flags::Args;
use crate::{ci, step};

/// Help for `cargo xtask release`.
pub const HELP: &str = "\
cargo xtask release: make a release commit and tag

USAGE:
    cargo xtask release <VERSION> [--dry-run] [--date YYYY-MM-DD]

In order, stopping at the first failure:
    1. checks that the working tree is clean, the branch is `main`, the tag v<VERSION> does not
       exist and VERSION is newer than the workspace version
    2. sets the version in the workspace: [workspace.package], the `version` of path
       dependencies on workspace members, members with a version of their own
    3. updates Cargo.lock (cargo update --workspace)
    4. moves the CHANGELOG's Unreleased section under `## [VERSION] - DATE`
    5. runs the checks (cargo xtask ci)
    6. runs `cargo package` for every publishable crate
    7. commits (`Release VERSION`) and makes the annotated tag vVERSION
Pushing is left to you: git push origin main vVERSION

OPTIONS:
    --dry-run          print the checks, the file changes and the commands, and change nothing
    --date YYYY-MM-DD  the release date for the CHANGELOG (default: today, UTC)
    -h, --help         print this help
";

/// Options of `cargo xtask release`.
#[derive(Debug)]
pub struct Options {
    version: Version,
    dry_run: bool,
    date: String,
}

/// Parses the arguments of `cargo xtask release`.
pub fn parse(mut args: Args) -> Result<Options> {
    let dry_run = args.flag("--dry-run");
    let date = match args.value("--date")? {
        Some(date) => {
            check_date(&date)?;
            date
        }
        None => today(),
    };
    let version = args
        .positional()
        .context("give the new version, e.g. `cargo xtask release 0.2.0`")?;
    args.finish()?;
    Ok(Options {
        version: version.parse()?,
        dry_run,
        date,
    })
}

/// A semantic version: `MAJOR.MINOR.PATCH`, optionally `-PRERELEASE` and `+BUILD`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Version {
    major: u64,
    minor: u64,
    patch: u64,
    pre: String,
    build: String,
}

impl std::str::FromStr for Version {
    type Err = anyhow::Error;

    fn from_str(text: &str) -> Result<Version> {
        let invalid =
            || format!("`{text}` is not a version of the form MAJOR.MINOR.PATCH (e.g. 0.2.0)");
        let (rest, build) = text.split_once('+').unwrap_or((text, ""));
        let (core, pre) = rest.split_once('-').unwrap_or((rest, ""));
        let numbers: Vec<&str> = core.split('.').collect();
        let [major, minor, patch] = numbers[..] else {
            bail!(invalid())
        };
        let number = |part: &str| -> Result<u64> {
            let leading_zero = part.len() > 1 && part.starts_with('0');
            if part.is_empty() || leading_zero || !part.bytes().all(|b| b.is_ascii_digit()) {
                bail!(invalid());
            }
            part.parse().with_context(invalid)
        };
        let identifiers_ok = |s: &str| {
            s.split('.').all(|id| {
                !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            })
        };
        if (text.contains('-') && !identifiers_ok(pre))
            || (text.contains('+') && !identifiers_ok(build))
        {
            bail!(invalid());
        }
        Ok(Version {
            major: number(major)?,
            minor: number(minor)?,
            patch: number(patch)?,
            pre: pre.to_owned(),
            build: build.to_owned(),
        })
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        if !self.pre.is_empty() {
            write!(f, "-{}", self.pre)?;
        }
        if !self.build.is_empty() {
            write!(f, "+{}", self.build)?;
        }
        Ok(())
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Version) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Version {
    /// Semantic-version precedence: a pre-release comes before its release; build metadata only
    /// breaks ties so that the order stays consistent with equality.
    fn cmp(&self, other: &Version) -> Ordering {
        let numbers =
            (self.major, self.minor, self.patch).cmp(&(other.major, other.minor, other.patch));
        let pre = match (self.pre.is_empty(), other.pre.is_empty()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            (false, false) => compare_pre(&self.pre, &other.pre),
        };
        numbers.then(pre).then_with(|| self.build.cmp(&other.build))
    }
}

/// Compares two pre-release strings identifier by identifier: numbers numerically and before
/// words, words in ASCII order, and a shorter list first when one is a prefix of the other.
fn compare_pre(a: &str, b: &str) -> Ordering {
    let mut a_ids = a.split('.');
    let mut b_ids = b.split('.');
    loop {
        match (a_ids.next(), b_ids.next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) => {
                let order = match (x.parse::<u64>(), y.parse::<u64>()) {
                    (Ok(x), Ok(y)) => x.cmp(&y),
                    (Ok(_), Err(_)) => Ordering::Less,
                    (Err(_), Ok(_)) => Ordering::Greater,
                    (Err(_), Err(_)) => x.cmp(y),
                };
                if order != Ordering::Equal {
                    return order;
                }
            }
        }
    }
}

/// The name of a TOML table header line (`[a.b]` or `[[a.b]]`), without spaces or quotes.
fn table_name(line: &str) -> Option<String> {
    let line = line.trim();
    let inner = line
        .strip_prefix("[[")
        .and_then(|l| l.split_once("]]"))
        .map(|(name, _)| name);
    let inner = inner.or_else(|| {
        line.strip_prefix('[')
            .and_then(|l| l.split_once(']'))
            .map(|(name, _)| name)
    })?;
    Some(
        inner
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '"' && *c != '\'')
            .collect(),
    )
}

/// The key of a `key = value` line, without quotes, and the text after the `=`.
fn key_value(line: &str) -> Option<(String, &str)> {
    let trimmed = line.trim_start();
    if trimmed.starts_with('#') || trimmed.starts_with('[') {
        return None;
    }
    let (key, value) = trimmed.split_once('=')?;
    Some((key.trim().trim_matches('"').to_owned(), value))
}

/// Replaces the version in the first `version = "..."` field of `text` (a whole `version` line
/// or an inline table), keeping a requirement operator such as `=` or `^`. `None` when `text`
/// has no such field.
fn replace_version_field(text: &str, new: &Version) -> Option<String> {
    let mut from = 0;
    while let Some(found) = text[from..].find("version") {
        let start = from + found;
        let end = start + "version".len();
        from = end;
        let before_ok = text[..start]
            .chars()
            .next_back()
            .is_none_or(|c| c == '{' || c == ',' || c.is_whitespace());
        let after = &text[end..];
        let Some(value) = after.trim_start().strip_prefix('=') else {
            continue;
        };
        let Some(value) = value.trim_start().strip_prefix('"') else {
            continue;
        };
        if !before_ok {
            continue;
        }
        let value_start = text.len() - value.len();
        let close = value.find('"')?;
        let requirement = &value[..close];
        let operator_len = requirement.len()
            - requirement
                .trim_start_matches(|c: char| "=^~<> ".contains(c))
                .len();
        let mut out = String::with_capacity(text.len() + 8);
        out.push_str(&text[..value_start + operator_len]);
        out.push_str(&new.to_string());
        out.push_str(&text[value_start + close..]);
        return Some(out);
    }
    None
}

/// Whether a table of that name lists dependencies.
fn is_dependency_table(table: &str) -> bool {
    table.ends_with("dependencies")
}

/// Sets `new` as the version in one `Cargo.toml`: the `version` of `[package]` and
/// `[workspace.package]` when it is written out (not `version.workspace = true`), and the
/// `version` of every dependency on one of the workspace `members`, in any dependency table,
/// inline (`name = { path = "..", version = ".." }`) or as its own table
/// (`[dependencies.name]`). Everything else, comments and layout included, is left as it was.
pub fn bump_manifest(text: &str, new: &Version, members: &[&str]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut table = String::new();
    for line in text.split_inclusive('\n') {
        if let Some(name) = table_name(line) {
            table = name;
            out.push_str(line);
            continue;
        }
        let replaced = key_value(line).and_then(|(key, value)| {
            let package_table = table == "package" || table == "workspace.package";
            let member_table = table
                .rsplit_once('.')
                .is_some_and(|(deps, name)| is_dependency_table(deps) && members.contains(&name));
            let own_version = (package_table || member_table) && key == "version";
            let inline_member = is_dependency_table(&table)
                && members.contains(&key.as_str())
                && value.trim_start().starts_with('{');
            if own_version || inline_member {
                replace_version_field(line, new)
            } else {
                None
            }
        });
        out.push_str(replaced.as_deref().unwrap_or(line));
    }
    out
}

/// The version in `[workspace.package]` (or `[package]`) of a manifest.
pub fn manifest_version(text: &str) -> Result<Version> {
    let mut table = String::new();
    for line in text.lines() {
        if let Some(name) = table_name(line) {
            table = name;
        } else if (table == "workspace.package" || table == "package")
            && let Some((key, value)) = key_value(line)
            && key == "version"
            && let Some((quoted, _)) = value
                .trim()
                .strip_prefix('"')
                .and_then(|v| v.split_once('"'))
        {
            return quoted.parse();
        }
    }
    bail!("no `version = \"...\"` in [workspace.package] or [package]")
}

/// Moves the content of the CHANGELOG's `## [Unreleased]` section under a new
/// `## [VERSION] - DATE` heading, leaving an empty Unreleased section above it. When the file
/// ends with Keep-a-Changelog comparison links, the `[Unreleased]` link is moved on and a link
/// for the new version is added.
///
/// Fails when there is no Unreleased section, when it is empty, or when the version already
/// has a section.
pub fn release_changelog(text: &str, version: &Version, date: &str) -> Result<String> {
    let lines: Vec<&str> = text.lines().collect();
    let is_heading = |l: &str| l.starts_with("## ");
    let heading_name = |l: &str| {
        l[3..]
            .trim()
            .trim_start_matches('[')
            .split([']', ' '])
            .next()
            .unwrap_or("")
            .to_owned()
    };
    let is_link = |l: &str| l.starts_with('[') && l.contains("]: ");

    let Some(start) = lines
        .iter()
        .position(|l| is_heading(l) && heading_name(l).eq_ignore_ascii_case("unreleased"))
    else {
        bail!("CHANGELOG.md has no `## [Unreleased]` section");
    };
    let version_text = version.to_string();
    if lines
        .iter()
        .any(|l| is_heading(l) && heading_name(l) == version_text)
    {
        bail!("CHANGELOG.md already has a section for {version}");
    }
    let end = lines[start + 1..]
        .iter()
        .position(|l| is_heading(l) || is_link(l))
        .map_or(lines.len(), |at| start + 1 + at);
    let body = &lines[start + 1..end];
    let first = body.iter().position(|l| !l.trim().is_empty());
    let last = body.iter().rposition(|l| !l.trim().is_empty());
    let (Some(first), Some(last)) = (first, last) else {
        bail!("the Unreleased section of CHANGELOG.md is empty: describe the release there first");
    };
    let bracketed = lines[start].contains('[');

    let mut out: Vec<String> = lines[..start].iter().map(|l| (*l).to_owned()).collect();
    out.push(lines[start].to_owned());
    out.push(String::new());
    out.push(if bracketed {
        format!("## [{version}] - {date}")
    } else {
        format!("## {version} - {date}")
    });
    out.push(String::new());
    out.extend(body[first..=last].iter().map(|l| (*l).to_owned()));
    if end < lines.len() {
        out.push(String::new());
    }
    for line in &lines[end..] {
        let lower = line.to_ascii_lowercase();
        let compare = lower
            .strip_prefix("[unreleased]: ")
            .and_then(|_| line.split_once("]: ").map(|(_, url)| url))
            .and_then(|url| url.rsplit_once("/compare/"))
            .and_then(|(base, range)| {
                range
                    .strip_suffix("...HEAD")
                    .map(|previous| (base, previous))
            });
        match compare {
            Some((base, previous)) => {
                out.push(format!(
                    "{}]: {base}/compare/v{version}...HEAD",
                    &line[..line.find(']').unwrap_or(0)]
                ));
                out.push(format!(
                    "[{version}]: {base}/compare/{previous}...v{version}"
                ));
            }
            None => out.push((*line).to_owned()),
        }
    }
    let mut text = out.join("\n");
    text.push('\n');
    Ok(text)
}

/// Checks a `YYYY-MM-DD` date.
fn check_date(date: &str) -> Result<()> {
    let parts: Vec<&str> = date.split('-').collect();
    let ok = matches!(parts[..], [y, m, d] if y.len() == 4 && m.len() == 2 && d.len() == 2)
        && parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit()))
        && (1..=12).contains(&parts[1].parse::<u32>().unwrap_or(0))
        && (1..=31).contains(&parts[2].parse::<u32>().unwrap_or(0));
    if !ok {
        bail!("`{date}` is not a date of the form YYYY-MM-DD");
    }
    Ok(())
}

/// The calendar date (year, month, day) of a day counted from 1970-01-01, proleptic Gregorian.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    // Count from 0000-03-01 so that leap days fall at the end of each year, in 400-year eras.
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_from_march + 2) / 5 + 1) as u32;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Today's date, UTC, as `YYYY-MM-DD`.
fn today() -> String {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (year, month, day) = civil_from_days((seconds / 86_400) as i64);
    format!("{year:04}-{month:02}-{day:02}")
}

/// One file's old and new contents.
struct Edit {
    path: PathBuf,
    old: String,
    new: String,
}

/// The edits the release makes to the manifests of the workspace in `root`.
fn manifest_edits(root: &Path, metadata: &Metadata, new: &Version) -> Result<Vec<Edit>> {
    let members: Vec<&str> = metadata.packages.iter().map(|p| p.name.as_str()).collect();
    let mut paths = vec![root.join("Cargo.toml")];
    paths.extend(metadata.packages.iter().map(|p| p.manifest_path.clone()));
    let mut edits = Vec::new();
    for path in paths {
        let old =
            fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
        let new = bump_manifest(&old, new, &members);
        if new != old {
            let path = path
                .strip_prefix(root)
                .map(Path::to_path_buf)
                .unwrap_or(path);
            edits.push(Edit { path, old, new });
        }
    }
    Ok(edits)
}

/// Sets the version of the whole workspace in `root`: manifests, then the lockfile.
pub fn bump_workspace(root: &Path, new: &Version) -> Result<()> {
    let metadata = Metadata::load(root)?;
    for edit in manifest_edits(root, &metadata, new)? {
        fs::write(root.join(&edit.path), &edit.new)
            .with_context(|| format!("writing {}", edit.path.display()))?;
    }
    Cmd::cargo()
        .args(["update", "--workspace"])
        .current_dir(root)
        .run()
}

/// A line-by-line difference of two texts, as `-`/`+` lines with one line of context and the
/// line numbers of the old text for removed lines and of the new text for the others.
fn diff(old: &str, new: &str) -> String {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    // Longest common subsequence table, from the ends.
    let mut lcs = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut ops: Vec<(char, usize, &str)> = Vec::new(); // (kind, line number, text)
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            ops.push((' ', j + 1, a[i]));
            i += 1;
            j += 1;
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            ops.push(('-', i + 1, a[i]));
            i += 1;
        } else {
            ops.push(('+', j + 1, b[j]));
            j += 1;
        }
    }
    let near_change = |k: usize| {
        ops[k.saturating_sub(1)..(k + 2).min(ops.len())]
            .iter()
            .any(|(kind, _, _)| *kind != ' ')
    };
    let mut out = String::new();
    let mut skipped = false;
    for (k, (kind, line, text)) in ops.iter().enumerate() {
        if near_change(k) {
            if skipped && !out.is_empty() {
                out.push_str("      ...\n");
            }
            skipped = false;
            out.push_str(&format!("{line:>5} {kind} {text}\n"));
        } else {
            skipped = true;
        }
    }
    out
}

/// The outcome of the checks made before releasing.
struct Preconditions {
    problems: Vec<String>,
    passed: Vec<String>,
}

fn preconditions(current: &Version, new: &Version) -> Result<Preconditions> {
    let mut problems = Vec::new();
    let mut passed = Vec::new();
    let mut check = |ok: bool, good: String, bad: String| {
        if ok {
            passed.push(good)
        } else {
            problems.push(bad)
        }
    };

    let changed = Cmd::new("git").args(["status", "--porcelain"]).read()?;
    let count = changed.lines().count();
    check(
        count == 0,
        "the working tree is clean".into(),
        format!("the working tree has {count} changed or untracked files (git status)"),
    );
    let branch = Cmd::new("git")
        .args(["rev-parse", "--abbrev-ref", "HEAD"])
        .read()?;
    let branch = branch.trim();
    check(
        branch == "main",
        "on branch main".into(),
        format!("on branch `{branch}`, not `main`"),
    );
    let tag = format!("v{new}");
    let existing = Cmd::new("git").args(["tag", "--list", &tag]).read()?;
    check(
        existing.trim().is_empty(),
        format!("tag {tag} does not exist yet"),
        format!("tag {tag} already exists"),
    );
    check(
        new > current,
        format!("{new} is newer than {current}"),
        format!("{new} is not newer than the current version {current}"),
    );
    Ok(Preconditions { problems, passed })
}

/// Makes the release.
pub fn run(options: &Options) -> Result<()> {
    let new = &options.version;
    let metadata = Metadata::load(Path::new("."))?;
    let root = metadata.workspace_root.clone();
    let root_manifest =
        fs::read_to_string(root.join("Cargo.toml")).context("reading Cargo.toml")?;
    let current = manifest_version(&root_manifest)
        .context("reading the workspace version from Cargo.toml")?;
    let publishable: Vec<&str> = metadata
        .packages
        .iter()
        .filter(|p| p.publishable)
        .map(|p| p.name.as_str())
        .collect();

    let checks = preconditions(&current, new)?;
    let mut edits = manifest_edits(&root, &metadata, new)?;
    let changelog = fs::read_to_string(root.join("CHANGELOG.md"))
        .context("reading CHANGELOG.md")
        .and_then(|old| {
            Ok(Edit {
                path: "CHANGELOG.md".into(),
                new: release_changelog(&old, new, &options.date)?,
                old,
            })
        });
    let mut problems = checks.problems;
    match changelog {
        Ok(edit) => edits.push(edit),
        Err(err) => problems.push(format!("{err:#}")),
    }

    let update = Cmd::cargo().args(["update", "--workspace"]);
    let checks_cmd = Cmd::cargo().args(["xtask", "ci"]);
    let package = Cmd::cargo()
        .args(["package", "--allow-dirty"])
        .args(publishable.iter().flat_map(|p| ["-p", p]));
    let commit = Cmd::new("git").args(["commit", "--all", "-m", &format!("Release {new}")]);
    let tag = Cmd::new("git").args([
        "tag",
        "-a",
        &format!("v{new}"),
        "-m",
        &format!("fanorona {new}"),
    ]);

    if options.dry_run {
        println!(
            "release {new} (now {current}), dated {}: dry run, nothing is changed\n",
            options.date
        );
        println!("checks before releasing:");
        for good in &checks.passed {
            println!("  ok    {good}");
        }
        for bad in &problems {
            println!("  FAIL  {bad}");
        }
        for edit in &edits {
            println!("\nwould change {}:", edit.path.display());
            print!("{}", diff(&edit.old, &edit.new));
        }
        println!("\nwould then run:");
        for cmd in [&update, &checks_cmd, &package, &commit, &tag] {
            println!("  {cmd}");
        }
        println!("\nand leave the pushing to you: git push origin main v{new}");
        if !problems.is_empty() {
            println!(
                "\nA real release would stop now: {} check(s) failed.",
                problems.len()
            );
        }
        return Ok(());
    }

    if !problems.is_empty() {
        bail!("cannot release {new}:\n  {}", problems.join("\n  "));
    }
    let changelog = edits.pop().context("the CHANGELOG edit is missing")?;
    let prepared = step(
        "set the version in the manifests and Cargo.lock",
        &update,
        || bump_workspace(&root, new),
    )
    .and_then(|()| {
        step(
            "date the CHANGELOG",
            "cargo xtask release --dry-run",
            || {
                fs::write(root.join(&changelog.path), &changelog.new)
                    .context("writing CHANGELOG.md")
            },
        )
    })
    .and_then(|()| step("checks", &checks_cmd, || ci::run(&ci::Options::default())))
    .and_then(|()| step("package the publishable crates", &package, || package.run()));
    if prepared.is_err() {
        let mut files: Vec<String> = edits.iter().map(|e| e.path.display().to_string()).collect();
        files.push("Cargo.lock".to_owned());
        files.push("CHANGELOG.md".to_owned());
        eprintln!(
            "\nnote: nothing was committed; undo the edits with: git checkout -- {}",
            files.join(" ")
        );
    }
    prepared?;
    step("commit", &commit, || commit.run())?;
    step("tag", &tag, || tag.run())?;
    println!("\nreleased {new}: commit and tag v{new} made. Publish with:");
    println!("  git push origin main v{new}");
    // Cargo publishes several packages in dependency order, each against the others.
    let packages: Vec<String> = publishable.iter().map(|p| format!("-p {p}")).collect();
    println!("  cargo publish {}", packages.join(" "));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &str) -> Version {
        text.parse().unwrap()
    }

    #[test]
    fn parses_and_orders_versions() {
        assert_eq!(v("0.2.0").to_string(), "0.2.0");
        assert_eq!(v("1.0.0-rc.1+build.5").to_string(), "1.0.0-rc.1+build.5");
        for bad in [
            "0.2",
            "0.2.0.1",
            "v0.2.0",
            "01.2.3",
            "1.2.x",
            "1.2.3-",
            "1.2.3-a..b",
            "",
        ] {
            let err = bad.parse::<Version>().unwrap_err().to_string();
            assert!(err.contains("is not a version"), "{bad}: {err}");
        }
        // The precedence example of the semantic versioning specification, in order.
        let ordered = [
            "1.0.0-alpha",
            "1.0.0-alpha.1",
            "1.0.0-alpha.beta",
            "1.0.0-beta",
            "1.0.0-beta.2",
            "1.0.0-beta.11",
            "1.0.0-rc.1",
            "1.0.0",
        ];
        for pair in ordered.windows(2) {
            assert!(v(pair[0]) < v(pair[1]), "{} < {}", pair[0], pair[1]);
        }
        assert!(v("0.10.0") > v("0.9.9"));
        assert!(v("0.1.1") > v("0.1.0"));
    }

    const ROOT: &str = r#"[workspace]
members = ["crates/*"]

[workspace.package]
version = "0.1.0" # keep in step with the tags
rust-version = "1.95"

[workspace.dependencies]
fanorona-core = { path = "crates/fanorona-core", version = "0.1.0" }
fanorona-ai = { version = "=0.1.0", path = "crates/fanorona-ai" }
serde = { version = "1", features = ["derive"] }
smallvec = "1.15"

[workspace.dependencies.fanorona-cli]
path = "crates/fanorona-cli"
version = "0.1.0"

[profile.dev.package.fanorona-core]
opt-level = 3
"#;

    #[test]
    fn bumps_the_workspace_version_and_member_dependencies_only() {
        let members = ["fanorona-core", "fanorona-ai", "fanorona-cli"];
        let bumped = bump_manifest(ROOT, &v("0.2.0"), &members);
        let expected = ROOT
            .replace(r#"version = "0.1.0" # keep"#, r#"version = "0.2.0" # keep"#)
            .replace(
                r#"fanorona-core", version = "0.1.0""#,
                r#"fanorona-core", version = "0.2.0""#,
            )
            .replace(r#"version = "=0.1.0""#, r#"version = "=0.2.0""#)
            .replace(
                "path = \"crates/fanorona-cli\"\nversion = \"0.1.0\"",
                "path = \"crates/fanorona-cli\"\nversion = \"0.2.0\"",
            );
        assert_eq!(bumped, expected);
        assert_eq!(bumped.matches("0.2.0").count(), 4);
        assert!(bumped.contains(r#"serde = { version = "1", features = ["derive"] }"#));
        assert!(bumped.contains(r#"rust-version = "1.95""#));
        assert_eq!(manifest_version(&bumped).unwrap(), v("0.2.0"));
    }

    #[test]
    fn bumps_a_member_with_its_own_version() {
        let member = "[package]\nname = \"b\"\nversion = \"0.1.0\"\nedition.workspace = true\n\n\
                      [dependencies]\na = { path = \"../a\", version = \"0.1.0\" }\nother = { version = \"0.1.0\" }\n\n\
                      [dev-dependencies]\n\"a\" = { path = \"../a\", version = \"0.1.0\", features = [\"x\"] }\n";
        let bumped = bump_manifest(member, &v("1.0.0"), &["a", "b"]);
        assert_eq!(
            bumped,
            "[package]\nname = \"b\"\nversion = \"1.0.0\"\nedition.workspace = true\n\n\
             [dependencies]\na = { path = \"../a\", version = \"1.0.0\" }\nother = { version = \"0.1.0\" }\n\n\
             [dev-dependencies]\n\"a\" = { path = \"../a\", version = \"1.0.0\", features = [\"x\"] }\n"
        );
        let inherits = "[package]\nname = \"a\"\nversion.workspace = true\n\n[dependencies]\nb.workspace = true\n";
        assert_eq!(bump_manifest(inherits, &v("1.0.0"), &["a", "b"]), inherits);
    }

    #[test]
    fn bumps_a_sample_workspace_and_its_lockfile() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let write = |path: &str, text: &str| {
            let path = root.join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        };
        write(
            "Cargo.toml",
            "[workspace]\nmembers = [\"a\", \"b\"]\nresolver = \"3\"\n\n[workspace.package]\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
             [workspace.dependencies]\na = { path = \"a\", version = \"0.1.0\" }\n",
        );
        write(
            "a/Cargo.toml",
            "[package]\nname = \"a\"\nversion.workspace = true\nedition.workspace = true\n",
        );
        write("a/src/lib.rs", "");
        write(
            "b/Cargo.toml",
            "[package]\nname = \"b\"\nversion = \"0.1.0\"\nedition.workspace = true\n\n[dependencies]\na.workspace = true\n",
        );
        write("b/src/lib.rs", "");
        Cmd::cargo()
            .args(["generate-lockfile", "--offline"])
            .current_dir(root)
            .read()
            .unwrap();
        assert!(
            fs::read_to_string(root.join("Cargo.lock"))
                .unwrap()
                .contains("name = \"a\"\nversion = \"0.1.0\"")
        );

        // `cargo update --workspace` needs no network for a workspace without dependencies.
        bump_workspace(root, &v("0.2.0")).unwrap();
        let lock = fs::read_to_string(root.join("Cargo.lock")).unwrap();
        assert!(lock.contains("name = \"a\"\nversion = \"0.2.0\""), "{lock}");
        assert!(lock.contains("name = \"b\"\nversion = \"0.2.0\""), "{lock}");
        let metadata = Metadata::load(root).unwrap();
        for package in &metadata.packages {
            assert_eq!(package.version, "0.2.0", "{}", package.name);
        }
        let root_manifest = fs::read_to_string(root.join("Cargo.toml")).unwrap();
        assert!(root_manifest.contains("a = { path = \"a\", version = \"0.2.0\" }"));
    }

    const CHANGELOG: &str = "# Changelog\n\nAll notable changes.\n\n## [Unreleased]\n\n### Added\n- `cargo xtask`.\n\n\
                             ## [0.1.0] - 2024-01-01\n\n- First release.\n\n\
                             [Unreleased]: https://github.com/o/r/compare/v0.1.0...HEAD\n\
                             [0.1.0]: https://github.com/o/r/releases/tag/v0.1.0\n";

    #[test]
    fn moves_the_unreleased_section_under_the_new_version() {
        let released = release_changelog(CHANGELOG, &v("0.2.0"), "2024-03-05").unwrap();
        assert_eq!(
            released,
            "# Changelog\n\nAll notable changes.\n\n## [Unreleased]\n\n## [0.2.0] - 2024-03-05\n\n### Added\n- `cargo xtask`.\n\n\
             ## [0.1.0] - 2024-01-01\n\n- First release.\n\n\
             [Unreleased]: https://github.com/o/r/compare/v0.2.0...HEAD\n\
             [0.2.0]: https://github.com/o/r/compare/v0.1.0...v0.2.0\n\
             [0.1.0]: https://github.com/o/r/releases/tag/v0.1.0\n"
        );
        // Releasing again needs new entries first, and the same version cannot be released twice.
        let err = release_changelog(&released, &v("0.3.0"), "2024-04-01").unwrap_err();
        assert_eq!(
            err.to_string(),
            "the Unreleased section of CHANGELOG.md is empty: describe the release there first"
        );
        let err = release_changelog(CHANGELOG, &v("0.1.0"), "2024-04-01").unwrap_err();
        assert_eq!(
            err.to_string(),
            "CHANGELOG.md already has a section for 0.1.0"
        );
    }

    #[test]
    fn a_first_release_without_links_or_brackets() {
        let text = "# Changelog\n\n## Unreleased\n- Everything.\n";
        assert_eq!(
            release_changelog(text, &v("0.1.0"), "2024-02-29").unwrap(),
            "# Changelog\n\n## Unreleased\n\n## 0.1.0 - 2024-02-29\n\n- Everything.\n"
        );
        let err =
            release_changelog("# Changelog\n\n## 0.1.0\n", &v("0.2.0"), "2024-02-29").unwrap_err();
        assert_eq!(
            err.to_string(),
            "CHANGELOG.md has no `## [Unreleased]` section"
        );
    }

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        // 2000-01-01: 30 years of 365 days plus 7 leap days (1972..=1996).
        assert_eq!(civil_from_days(30 * 365 + 7), (2000, 1, 1));
        assert_eq!(civil_from_days(30 * 365 + 7 + 31 + 28), (2000, 2, 29));
        assert_eq!(civil_from_days(30 * 365 + 7 + 31 + 29), (2000, 3, 1));
        // 2024-01-01: 54 years plus 13 leap days (1972..=2020).
        assert_eq!(civil_from_days(54 * 365 + 13), (2024, 1, 1));
        // 2100 is not a leap year: 2100-02-28 is followed by 2100-03-01.
        let y2100 = 130 * 365 + 32; // leap days 1972..=2096
        assert_eq!(civil_from_days(y2100 + 31 + 27), (2100, 2, 28));
        assert_eq!(civil_from_days(y2100 + 31 + 28), (2100, 3, 1));
        check_date(&today()).unwrap();
        check_date("2024-02-29").unwrap();
        for bad in ["2024-2-29", "2024-13-01", "24-01-01", "2024-01-00", "today"] {
            assert!(check_date(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn diff_shows_changed_lines_with_context() {
        let old = "a\nb\nc\nd\ne\nf\ng\n";
        let new = "a\nb\nC\nd\ne\nf\ng\nh\n";
        assert_eq!(
            diff(old, new),
            "    2   b\n    3 - c\n    3 + C\n    4   d\n      ...\n    7   g\n    8 + h\n"
        );
        assert_eq!(diff(old, old), "");
    }

    #[test]
    fn parses_its_arguments() {
        let args = |w: &[&str]| Args::new("release", w.iter().map(|w| (*w).to_owned()).collect());
        let options = parse(args(&["0.2.0", "--dry-run", "--date", "2024-03-05"])).unwrap();
        assert_eq!(options.version, v("0.2.0"));
        assert!(options.dry_run);
        assert_eq!(options.date, "2024-03-05");
        assert!(
            parse(args(&["--dry-run"]))
                .unwrap_err()
                .to_string()
                .contains("give the new version")
        );
        assert!(parse(args(&["0.2"])).is_err());
    }
}

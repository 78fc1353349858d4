//! `cargo xtask bench`: run the criterion benchmarks and print a short table of the results.
//!
//! Criterion saves each benchmark's measurement under `<target>/criterion/<id>/new/`:
//! `benchmark.json` (its id and declared throughput) and `estimates.json` (times in
//! nanoseconds). The table is made from those files, so it lists every benchmark without this
//! task knowing their names.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::cargo::Metadata;
use crate::cmd::Cmd;
use crate::flags::Args;
use crate::step;

/// Help for `cargo xtask bench`.
pub const HELP: &str = "\
cargo xtask bench: run the criterion benchmarks and print a table of the results

USAGE:
    cargo xtask bench [--package NAME]... [--report] [-- <criterion arguments>]

Runs `cargo bench -p <package> --bench <name>` for every benchmark target in the workspace
(the release-like bench profile; the 3D client has no benchmarks and is not built), then prints
one line per benchmark: its id, the time per iteration and, where the benchmark declares a
throughput (nodes searched, records validated, ...), the rate per second.

OPTIONS:
    --package NAME   only the benchmarks of this package (may be repeated)
    --report         do not run anything; print the table of the results already saved
    -- ARGS          passed to the benchmarks, e.g. `-- perft` to run the ids containing `perft`
                     or `-- --quick` for a short run
    -h, --help       print this help
";

/// Options of `cargo xtask bench`.
#[derive(Debug)]
pub struct Options {
    packages: Vec<String>,
    report_only: bool,
    criterion_args: Vec<String>,
}

/// Parses the arguments of `cargo xtask bench`.
pub fn parse(mut args: Args) -> Result<Options> {
    let criterion_args = args.trailing();
    let report_only = args.flag("--report");
    let packages = args.values("--package")?;
    args.finish()?;
    Ok(Options {
        packages,
        report_only,
        criterion_args,
    })
}

/// What a benchmark processes per iteration, as criterion records it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Throughput {
    /// Elements (nodes, turns, records...).
    Elements(u64),
    /// Bytes, reported in binary multiples.
    Bytes(u64),
    /// Bytes, reported in decimal multiples.
    BytesDecimal(u64),
    /// Bits.
    Bits(u64),
}

/// One benchmark's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// The benchmark id, e.g. `perft/start/5`.
    pub id: String,
    /// The typical time of one iteration in nanoseconds (criterion's slope estimate when it has
    /// one, else the mean), as criterion itself reports it.
    pub nanos: f64,
    /// What one iteration processes, when the benchmark says.
    pub throughput: Option<Throughput>,
}

impl Measurement {
    /// Reads the contents of a `benchmark.json` and the `estimates.json` beside it.
    pub fn parse(benchmark_json: &str, estimates_json: &str) -> Result<Measurement> {
        let benchmark: Value =
            serde_json::from_str(benchmark_json).context("parsing benchmark.json")?;
        let estimates: Value =
            serde_json::from_str(estimates_json).context("parsing estimates.json")?;
        let id = benchmark["full_id"]
            .as_str()
            .or_else(|| benchmark["title"].as_str())
            .context("benchmark.json has no `full_id`")?
            .to_owned();
        let typical = if estimates["slope"].is_object() {
            &estimates["slope"]
        } else {
            &estimates["mean"]
        };
        let nanos = typical["point_estimate"]
            .as_f64()
            .context("estimates.json has no mean")?;
        let throughput = match &benchmark["throughput"] {
            Value::Object(map) => {
                let (kind, value) = map
                    .iter()
                    .next()
                    .context("empty throughput in benchmark.json")?;
                let count = |v: &Value| {
                    v.as_u64()
                        .with_context(|| format!("bad `{kind}` throughput"))
                };
                Some(match kind.as_str() {
                    "Elements" => Throughput::Elements(count(value)?),
                    "Bytes" => Throughput::Bytes(count(value)?),
                    "BytesDecimal" => Throughput::BytesDecimal(count(value)?),
                    "Bits" => Throughput::Bits(count(value)?),
                    "ElementsAndBytes" => Throughput::Elements(count(&value["elements"])?),
                    other => bail!("unknown throughput kind `{other}` in benchmark.json"),
                })
            }
            _ => None,
        };
        Ok(Measurement {
            id,
            nanos,
            throughput,
        })
    }

    /// The rate per second, formatted, when the benchmark declares a throughput.
    pub fn rate(&self) -> Option<String> {
        let per_second = |count: u64| count as f64 / (self.nanos * 1e-9);
        Some(match self.throughput? {
            Throughput::Elements(n) => format!("{}elem/s", scaled(per_second(n), 1000.0, "")),
            Throughput::Bytes(n) => format!("{}B/s", scaled(per_second(n), 1024.0, "i")),
            Throughput::BytesDecimal(n) => format!("{}B/s", scaled(per_second(n), 1000.0, "")),
            Throughput::Bits(n) => format!("{}bit/s", scaled(per_second(n), 1000.0, "")),
        })
    }
}

/// A number with a K/M/G/T prefix (`Ki`, `Mi`... when `base` is 1024), and a space before the
/// unit that follows.
fn scaled(value: f64, base: f64, binary_suffix: &str) -> String {
    let mut value = value;
    let mut prefix = "";
    for next in ["K", "M", "G", "T"] {
        if value < base {
            break;
        }
        value /= base;
        prefix = next;
    }
    let suffix = if prefix.is_empty() { "" } else { binary_suffix };
    format!("{value:.2} {prefix}{suffix}")
}

/// A time in nanoseconds with a fitting unit.
fn format_time(nanos: f64) -> String {
    if nanos < 1e3 {
        format!("{nanos:.2} ns")
    } else if nanos < 1e6 {
        format!("{:.2} µs", nanos / 1e3)
    } else if nanos < 1e9 {
        format!("{:.2} ms", nanos / 1e6)
    } else {
        format!("{:.2} s", nanos / 1e9)
    }
}

/// The table of results, sorted by id.
pub fn table(measurements: &[Measurement]) -> String {
    let mut rows: Vec<[String; 3]> = measurements
        .iter()
        .map(|m| {
            [
                m.id.clone(),
                format_time(m.nanos),
                m.rate().unwrap_or_default(),
            ]
        })
        .collect();
    rows.sort();
    rows.insert(
        0,
        ["benchmark".into(), "time/iter".into(), "throughput".into()],
    );
    let id_width = rows.iter().map(|r| r[0].chars().count()).max().unwrap_or(0);
    let time_width = rows.iter().map(|r| r[1].chars().count()).max().unwrap_or(0);
    let mut out = String::new();
    for [id, time, rate] in rows {
        let line = format!("{id:<id_width$}  {time:>time_width$}  {rate}");
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Every `new/benchmark.json` under `dir`, with its modification time.
fn find_results(dir: &Path, found: &mut Vec<(PathBuf, SystemTime)>) -> Result<()> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(err) => return Err(err).with_context(|| format!("reading {}", dir.display())),
    };
    for entry in entries {
        let path = entry?.path();
        if path.is_dir() {
            find_results(&path, found)?;
        } else if path.file_name().is_some_and(|n| n == "benchmark.json")
            && path
                .parent()
                .and_then(Path::file_name)
                .is_some_and(|n| n == "new")
        {
            let modified = fs::metadata(&path)?.modified()?;
            found.push((path, modified));
        }
    }
    Ok(())
}

/// The measurements saved under `criterion_home`, leaving out those older than `since`.
pub fn load_results(criterion_home: &Path, since: Option<SystemTime>) -> Result<Vec<Measurement>> {
    let mut found = Vec::new();
    find_results(criterion_home, &mut found)?;
    let mut measurements = Vec::new();
    for (path, modified) in found {
        if since.is_some_and(|since| modified < since) {
            continue;
        }
        let estimates = path.with_file_name("estimates.json");
        let read =
            |p: &Path| fs::read_to_string(p).with_context(|| format!("reading {}", p.display()));
        let measurement = Measurement::parse(&read(&path)?, &read(&estimates)?)
            .with_context(|| format!("in {}", path.display()))?;
        measurements.push(measurement);
    }
    Ok(measurements)
}

/// Runs the benchmarks and prints the table.
pub fn run(options: &Options) -> Result<()> {
    let metadata = Metadata::load(Path::new("."))?;
    for name in &options.packages {
        metadata.package(name)?;
    }
    let criterion_home = metadata.target_directory.join("criterion");
    // File times can be coarse: count results written from a moment before the run.
    let started = SystemTime::now() - Duration::from_secs(2);
    if !options.report_only {
        let selected: Vec<_> = metadata
            .packages
            .iter()
            .filter(|p| !p.benches.is_empty())
            .filter(|p| options.packages.is_empty() || options.packages.contains(&p.name))
            .collect();
        if selected.is_empty() {
            bail!("no benchmark targets in the selected packages");
        }
        for package in selected {
            let mut cmd = Cmd::cargo().args(["bench", "-p", &package.name]);
            for bench in &package.benches {
                cmd = cmd.args(["--bench", bench]);
            }
            if !options.criterion_args.is_empty() {
                cmd = cmd.arg("--").args(&options.criterion_args);
            }
            let cmd = cmd.env("CRITERION_HOME", &criterion_home);
            step(&format!("benchmarks of {}", package.name), &cmd, || {
                cmd.run()
            })?;
        }
    }
    let measurements = load_results(&criterion_home, (!options.report_only).then_some(started))?;
    if measurements.is_empty() {
        bail!("no benchmark results under {}", criterion_home.display());
    }
    println!("\n{}", table(&measurements));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const PERFT: &str = r#"{"group_id":"perft","function_id":"start","value_str":"5",
        "throughput":{"Elements":4500000},"full_id":"perft/start/5","directory_name":"perft/start/5",
        "title":"perft/start/5"}"#;
    const ESTIMATES: &str = r#"{"mean":{"confidence_interval":{"confidence_level":0.95,
        "lower_bound":1.4e8,"upper_bound":1.6e8},"point_estimate":1.5e8,"standard_error":1e6},
        "median":{"confidence_interval":{"confidence_level":0.95,"lower_bound":1.4e8,
        "upper_bound":1.6e8},"point_estimate":1.49e8,"standard_error":1e6},
        "median_abs_dev":{"confidence_interval":{"confidence_level":0.95,"lower_bound":1.0,
        "upper_bound":2.0},"point_estimate":1.5,"standard_error":0.1},"slope":null,
        "std_dev":{"confidence_interval":{"confidence_level":0.95,"lower_bound":1.0,
        "upper_bound":2.0},"point_estimate":1.5,"standard_error":0.1}}"#;

    #[test]
    fn reads_a_criterion_result() {
        let m = Measurement::parse(PERFT, ESTIMATES).unwrap();
        assert_eq!(m.id, "perft/start/5");
        assert_eq!(m.nanos, 1.5e8);
        assert_eq!(m.throughput, Some(Throughput::Elements(4_500_000)));
        // 4.5 million nodes in 0.15 s.
        assert_eq!(m.rate().unwrap(), "30.00 Melem/s");

        let with_slope = ESTIMATES.replace(
            r#""slope":null"#,
            r#""slope":{"confidence_interval":{"confidence_level":0.95,"lower_bound":1.0,"upper_bound":3.0},"point_estimate":2.0,"standard_error":0.1}"#,
        );
        let plain = r#"{"full_id":"record/validate","throughput":null}"#;
        let m = Measurement::parse(plain, &with_slope).unwrap();
        assert_eq!((m.nanos, m.throughput, m.rate()), (2.0, None, None));
        assert!(Measurement::parse("{}", ESTIMATES).is_err());
        assert!(
            Measurement::parse(r#"{"full_id":"x","throughput":{"Furlongs":3}}"#, ESTIMATES)
                .is_err()
        );
    }

    #[test]
    fn formats_rates_and_times() {
        let m = |nanos: f64, throughput| Measurement {
            id: String::new(),
            nanos,
            throughput,
        };
        assert_eq!(
            m(1e9, Some(Throughput::Bytes(3 * 1024 * 1024)))
                .rate()
                .unwrap(),
            "3.00 MiB/s"
        );
        assert_eq!(
            m(1e9, Some(Throughput::BytesDecimal(2_500)))
                .rate()
                .unwrap(),
            "2.50 KB/s"
        );
        assert_eq!(
            m(2e9, Some(Throughput::Elements(500))).rate().unwrap(),
            "250.00 elem/s"
        );
        assert_eq!(
            m(1e6, Some(Throughput::Bits(8))).rate().unwrap(),
            "8.00 Kbit/s"
        );
        assert_eq!(format_time(12.345), "12.35 ns");
        assert_eq!(format_time(1_500.0), "1.50 µs");
        assert_eq!(format_time(2_340_000.0), "2.34 ms");
        assert_eq!(format_time(4.2e9), "4.20 s");
    }

    #[test]
    fn the_table_is_sorted_and_aligned() {
        let measurements = [
            Measurement {
                id: "search/start/6".into(),
                nanos: 2.5e8,
                throughput: Some(Throughput::Elements(1_000_000)),
            },
            Measurement {
                id: "perft/start/5".into(),
                nanos: 1.5e8,
                throughput: Some(Throughput::Elements(4_500_000)),
            },
            Measurement {
                id: "record/validate".into(),
                nanos: 900.0,
                throughput: None,
            },
        ];
        assert_eq!(
            table(&measurements),
            "benchmark        time/iter  throughput\n\
             perft/start/5    150.00 ms  30.00 Melem/s\n\
             record/validate  900.00 ns\n\
             search/start/6   250.00 ms  4.00 Melem/s\n"
        );
    }

    #[test]
    fn finds_saved_results_and_skips_old_ones() {
        let dir = tempfile::tempdir().unwrap();
        let new = dir.path().join("perft/start/5/new");
        let base = dir.path().join("perft/start/5/base");
        for d in [&new, &base] {
            fs::create_dir_all(d).unwrap();
            fs::write(d.join("benchmark.json"), PERFT).unwrap();
            fs::write(d.join("estimates.json"), ESTIMATES).unwrap();
        }
        let found = load_results(dir.path(), None).unwrap();
        assert_eq!(found.len(), 1, "only `new` results count");
        assert_eq!(found[0].id, "perft/start/5");
        let later = SystemTime::now() + Duration::from_secs(3600);
        assert!(load_results(dir.path(), Some(later)).unwrap().is_empty());
        assert!(
            load_results(&dir.path().join("missing"), None)
                .unwrap()
                .is_empty()
        );
    }
}

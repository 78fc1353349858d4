//! The hostile suite: the `fanorona` binary against bad inputs and faults (closed pipes, full
//! disks, Ctrl-C mid-write, outputs that are inputs, bad and conflicting options). Each case
//! checks the exit status, that the message names the place, that nothing panicked, and that no
//! destination was truncated or half written.

use std::ffi::OsStr;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A fresh scratch folder for one test, removed when the test ends.
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("fanorona-hostile-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("scratch folder");
    Scratch(dir)
}

/// The binary under test: this build's, or the one `FANORONA_HOSTILE_BIN` names (to check
/// that the suite catches an older build's faults).
fn bin() -> Command {
    match std::env::var_os("FANORONA_HOSTILE_BIN") {
        Some(path) => Command::new(path),
        None => Command::new(env!("CARGO_BIN_EXE_fanorona")),
    }
}

fn run_in(dir: &Path, args: &[impl AsRef<OsStr>]) -> Output {
    run_io(dir, args, |_| {})
}

/// Runs the binary in `dir` with no standard input and `io` applied to the command (its
/// standard output or error redirected), and collects its output.
fn run_io(dir: &Path, args: &[impl AsRef<OsStr>], io: impl FnOnce(&mut Command)) -> Output {
    let mut command = bin();
    command.current_dir(dir).args(args).stdin(Stdio::null());
    io(&mut command);
    command.output().expect("the binary runs")
}

/// /dev/full, for writing: every write fails with "No space left on device".
#[cfg(target_os = "linux")]
fn dev_full() -> fs::File {
    fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full")
}

/// Starts the binary in `dir` with no standard input, standard output dropped and standard
/// error kept, for a test that interrupts it.
#[cfg(unix)]
fn spawn_in(dir: &Path, args: &[&str]) -> Child {
    bin()
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs")
}

/// Waits until `ready` holds (checked every 10 ms), failing after 20 s or when the child
/// ends first; `what` names what is awaited.
#[cfg(unix)]
fn wait_until(child: &mut Child, what: &str, mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{what}: not within 20 s"
        );
        assert!(
            child.try_wait().expect("wait").is_none(),
            "{what}: the command ended first"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Sends `signal` (`-INT`, `-TERM`) to the child and checks that it stops as interrupted:
/// status 130, no panic. Its output.
#[cfg(unix)]
fn interrupt(child: Child, signal: &str, what: &str) -> Output {
    let killed = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    let o = child.wait_with_output().expect("finishes");
    assert_eq!(o.status.code(), Some(130), "{what}: {}", err(&o));
    assert!(!err(&o).contains("panicked"), "{what}: {}", err(&o));
    o
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// No panic, and at most one line on standard error.
fn assert_clean_failure(o: &Output, status: i32, names: &str) {
    let e = err(o);
    assert_eq!(o.status.code(), Some(status), "stderr: {e}");
    assert!(!e.contains("panicked"), "a panic: {e}");
    assert!(!e.contains("RUST_BACKTRACE"), "a panic: {e}");
    assert!(e.contains(names), "the message should name {names:?}: {e}");
}

/// Temporary files left in `dir`.
fn leftovers(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .expect("readable")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("fanorona-tmp"))
        .collect()
}

const GAME: &str = "[Event \"x\"]\n[Result \"*\"]\n\n1. f2-e3A d5-d4A *\n";

/// Commands whose standard output is a pipe closed before they write: a quiet exit.
#[test]
fn closed_stdout_pipe_exits_quietly() {
    let cases: &[&[&str]] = &[
        &["perft", "2"],
        &["divide", "2"],
        &["perft", "1", "--json"],
        &["show"],
        &["show", "--format", "svg"],
        &["bench", "--depth", "1"],
        &["solve", "--board", "3x3"],
        &["analyse", "--depth", "1"],
        &[
            "match",
            "random",
            "random",
            "--games",
            "1",
            "--threads",
            "1",
        ],
        &["validate", "-"],
        &["convert", "--from", "fgn", "--to", "json", "-"],
        &["engine"],
        &["openings", "--count", "1", "--plies", "2", "--nodes", "100"],
    ];
    for args in cases {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let mut child = bin()
            .args(*args)
            .stdin(Stdio::piped())
            .stdout(writer)
            .stderr(Stdio::piped())
            .spawn()
            .expect("runs");
        let _ = child
            .stdin
            .take()
            .expect("stdin")
            .write_all(GAME.as_bytes());
        let o = child.wait_with_output().expect("finishes");
        let e = err(&o);
        assert_eq!(o.status.code(), Some(141), "{args:?}: {e}");
        assert!(
            !e.contains("error") && !e.contains("panicked") && !e.contains("Broken pipe"),
            "{args:?} should be quiet: {e}"
        );
    }
}

/// Standard output on a full disk: one message, status 2, no panic.
#[cfg(target_os = "linux")]
#[test]
fn full_disk_on_stdout_is_one_message() {
    let cases: &[&[&str]] = &[
        &["perft", "2"],
        &["divide", "2", "--json"],
        &["show"],
        &["bench", "--depth", "1", "--json"],
        &["solve", "--board", "3x3"],
        &["analyse", "--depth", "1"],
        &[
            "match",
            "random",
            "random",
            "--games",
            "1",
            "--threads",
            "1",
        ],
        &["openings", "--count", "1", "--plies", "2", "--nodes", "100"],
        &["convert", "--from", "fgn", "--to", "json", "-"],
    ];
    let dir = scratch("stdout-full");
    for args in cases {
        let o = run_io(&dir, args, |c| {
            c.stdout(dev_full());
        });
        assert_clean_failure(&o, 2, "No space left on device");
        assert_eq!(
            err(&o).matches("error:").count(),
            1,
            "{args:?}: {}",
            err(&o)
        );
    }
}

/// Standard error on a full disk: the command still does its work, without a panic.
#[cfg(target_os = "linux")]
#[test]
fn full_disk_on_stderr_is_no_panic() {
    let dir = scratch("stderr-full");
    fs::write(dir.join("bad.fgn"), "[Event \"x\"]\n\n1. f2-e3A zz-zz *\n").expect("write");
    let cases: &[(&[&str], i32)] = &[
        (&["perft", "2"], 0),
        (&["convert", "bad.fgn", "out.json"], 1),
        (&["convert", "missing.fgn", "out.json"], 2),
        (&["validate", "missing.fgn"], 2),
    ];
    for (args, status) in cases {
        let o = run_io(&dir, args, |c| {
            c.stderr(dev_full());
        });
        assert_eq!(o.status.code(), Some(*status), "{args:?}");
    }
}

/// An output that is an input (the same path, a symbolic link, a hard link) is refused and the
/// input is untouched.
#[cfg(unix)]
#[test]
fn output_that_is_an_input_is_refused() {
    let dir = scratch("same");
    fs::write(dir.join("a.fgn"), GAME).expect("write");
    std::os::unix::fs::symlink("a.fgn", dir.join("link.fgn")).expect("symlink");
    fs::hard_link(dir.join("a.fgn"), dir.join("hard.fgn")).expect("hard link");
    fs::write(dir.join("open.txt"), "5x9\n").expect("write");
    let cases: &[(&[&str], &str)] = &[
        (&["convert", "a.fgn", "a.fgn"], "a.fgn"),
        (&["convert", "a.fgn", "./a.fgn"], "a.fgn"),
        (&["convert", "a.fgn", "link.fgn"], "link.fgn"),
        (&["convert", "a.fgn", "hard.fgn"], "hard.fgn"),
        (&["convert", "link.fgn", "hard.fgn"], "hard.fgn"),
        (&["show", "a.fgn", "--svg", "link.fgn"], "link.fgn"),
        (
            &[
                "analyse",
                "--record",
                "a.fgn",
                "--per-turn",
                "--out",
                "hard.fgn",
            ],
            "hard.fgn",
        ),
    ];
    for (args, names) in cases {
        let o = run_in(&dir, args);
        assert_clean_failure(&o, 2, names);
        assert!(err(&o).contains("same file"), "{args:?}: {}", err(&o));
        assert_eq!(fs::read_to_string(dir.join("a.fgn")).expect("read"), GAME);
    }
    // Standard output redirected to the input.
    let out = fs::OpenOptions::new()
        .append(true)
        .open(dir.join("a.fgn"))
        .expect("open");
    let o = run_io(&dir, &["convert", "--to", "fgn", "a.fgn"], |c| {
        c.stdout(out);
    });
    assert_clean_failure(&o, 2, "standard output");
    assert_eq!(fs::read_to_string(dir.join("a.fgn")).expect("read"), GAME);
    assert!(leftovers(&dir).is_empty());
}

/// A run that fails leaves an existing destination as it was, and no temporary file.
#[test]
fn failed_runs_leave_the_destination_untouched() {
    let dir = scratch("failed");
    fs::write(dir.join("bad.json"), "[{\"tags\": [").expect("write");
    fs::write(dir.join("bad.fgn"), "[Event \"x\"]\n\n1. f2-e3A zz-zz *\n").expect("write");
    fs::write(dir.join("out.fgn"), "precious").expect("write");
    fs::write(dir.join("out.svg"), "precious").expect("write");
    let cases: &[(&[&str], &str)] = &[
        (&["convert", "bad.json", "out.fgn"], "bad.json"),
        (&["convert", "missing.fgn", "out.fgn"], "missing.fgn"),
        (
            &["show", "--fen", "nonsense", "--svg", "out.svg"],
            "nonsense",
        ),
        (&["show", "bad.json", "--svg", "out.svg"], "bad.json"),
        (
            &[
                "analyse",
                "--record",
                "bad.fgn",
                "--per-turn",
                "--out",
                "out.fgn",
            ],
            "bad.fgn",
        ),
    ];
    for (args, names) in cases {
        let o = run_in(&dir, args);
        assert_clean_failure(&o, 2, names);
        assert_eq!(
            fs::read_to_string(dir.join("out.fgn")).expect("read"),
            "precious",
            "{args:?}"
        );
        assert_eq!(
            fs::read_to_string(dir.join("out.svg")).expect("read"),
            "precious"
        );
        assert!(
            leftovers(&dir).is_empty(),
            "{args:?}: {:?}",
            leftovers(&dir)
        );
    }
    // A read-only destination stays as it was.
    fs::write(dir.join("good.fgn"), GAME).expect("write");
    let mut ro = fs::metadata(dir.join("out.fgn"))
        .expect("meta")
        .permissions();
    ro.set_readonly(true);
    fs::set_permissions(dir.join("out.fgn"), ro).expect("chmod");
    let o = run_in(&dir, &["convert", "good.fgn", "out.fgn"]);
    assert_clean_failure(&o, 2, "out.fgn");
    assert_eq!(
        fs::read_to_string(dir.join("out.fgn")).expect("read"),
        "precious"
    );
    // An output folder that does not exist: a message naming it, nothing written.
    let o = run_in(&dir, &["convert", "bad.fgn", "no/such/dir/x.json"]);
    assert_clean_failure(&o, 2, "no/such/dir/x.json");
}

/// Ctrl-C while a conversion is being written: the destination is untouched and the temporary
/// file removed.
#[cfg(unix)]
#[test]
fn sigint_mid_write_leaves_no_partial_file() {
    let dir = scratch("sigint");
    fs::write(dir.join("out.json"), "precious").expect("write");
    let mut child = bin()
        .current_dir(&dir)
        .args(["convert", "--from", "fgn", "-", "out.json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut stdin = child.stdin.take().expect("stdin");
    // Half the input: the command has started writing and waits for the rest.
    for _ in 0..200 {
        stdin.write_all(GAME.as_bytes()).expect("write");
    }
    stdin.flush().expect("flush");
    wait_until(&mut child, "a temporary file", || {
        !leftovers(&dir).is_empty()
    });
    let tmp = leftovers(&dir);
    assert!(tmp[0].starts_with(".out.json.fanorona-tmp-"), "{tmp:?}");
    interrupt(child, "-INT", "convert");
    drop(stdin);
    assert_eq!(
        fs::read_to_string(dir.join("out.json")).expect("read"),
        "precious"
    );
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
}

/// Ctrl-C during a match: the games finished so far are in --out, whole, and nothing else.
#[cfg(unix)]
#[test]
fn sigint_during_a_match_keeps_finished_games() {
    let dir = scratch("match-sigint");
    let mut child = spawn_in(
        &dir,
        &[
            "match",
            "random",
            "random",
            "--games",
            "1000000",
            "--threads",
            "1",
            "--out",
            "games.fgn",
        ],
    );
    let path = dir.join("games.fgn");
    wait_until(&mut child, "a game written", || games_in(&path) >= 1);
    interrupt(child, "-INT", "match");
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
    let v = run_in(&dir, &["validate", "--json", "games.fgn"]);
    let report: serde_json::Value = serde_json::from_slice(&v.stdout).expect("JSON");
    assert_eq!(v.status.code(), Some(0), "{report}");
    let kept = report["games"].as_u64().expect("games");
    assert!(kept >= 1, "{report}");
    // The match goes on from there (--resume), to three games more, and its games file is
    // the one of the same match played at once (but for the timing tags).
    let more = (kept + 3).to_string();
    let args = [
        "match",
        "random",
        "random",
        "--games",
        &more,
        "--threads",
        "1",
    ];
    let o = run_in(
        &dir,
        &[&args[..], &["--out", "games.fgn", "--resume", "--json"]].concat(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["resumed"].as_u64(), Some(kept), "{v}");
    assert_eq!(v["games_written"], 3, "{v}");
    let o = run_in(&dir, &[&args[..], &["--out", "at-once.fgn"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let untimed = |name: &str| -> String {
        fs::read_to_string(dir.join(name))
            .expect("read")
            .lines()
            .filter(|l| !l.starts_with("[LongestTurnMs ") && !l.starts_with("[TurnTimesMs "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(untimed("games.fgn"), untimed("at-once.fgn"));
}

/// A successful conversion replaces the destination, keeps its permissions, and writes
/// through a symbolic link to the file it points to.
#[cfg(unix)]
#[test]
fn outputs_replace_whole_files() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("replace");
    fs::write(dir.join("a.fgn"), GAME).expect("write");
    fs::write(dir.join("target.json"), "old").expect("write");
    fs::set_permissions(dir.join("target.json"), fs::Permissions::from_mode(0o640)).expect("chmod");
    std::os::unix::fs::symlink("target.json", dir.join("link.json")).expect("symlink");
    let o = run_in(&dir, &["convert", "a.fgn", "link.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let written = fs::read_to_string(dir.join("target.json")).expect("read");
    assert!(written.starts_with('['), "{written}");
    assert!(
        fs::symlink_metadata(dir.join("link.json"))
            .expect("link")
            .file_type()
            .is_symlink()
    );
    let mode = fs::metadata(dir.join("target.json"))
        .expect("meta")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o640);
    assert!(leftovers(&dir).is_empty());
}

/// A file name with terminal escape codes is printed escaped.
#[test]
fn escape_codes_in_names_are_not_printed_raw() {
    let dir = scratch("escape");
    for args in [
        &["validate", "a\u{1b}[31mred.fgn"][..],
        &["convert", "a\u{1b}[31mred.fgn", "x.json"][..],
        &["show", "a\u{1b}[31mred.fgn"][..],
        &["analyse", "--record", "a\u{1b}[31mred.fgn"][..],
        &[
            "match",
            "random",
            "random",
            "--openings",
            "a\u{1b}[31mred.fgn",
        ][..],
    ] {
        let o = run_in(&dir, args);
        assert_clean_failure(&o, 2, "a\\x1b[31mred.fgn");
        assert!(!err(&o).contains('\u{1b}'), "{args:?}: {}", err(&o));
    }
    // Escape codes inside a record are not printed raw either.
    fs::write(
        dir.join("esc.fgn"),
        "[Event \"x\u{1b}[31m\"]\n\n1. f2-e3A \u{1b}]0;title\u{7} *\n",
    )
    .expect("write");
    for args in [
        &["validate", "esc.fgn"][..],
        &["convert", "esc.fgn", "esc.json"][..],
    ] {
        let o = run_in(&dir, args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", err(&o));
        assert!(
            !o.stdout.contains(&0x1b) && !o.stderr.contains(&0x1b),
            "{args:?}"
        );
        assert!(
            err(&o).contains("esc.fgn:3:")
                || String::from_utf8_lossy(&o.stdout).contains("esc.fgn:3:")
        );
    }
}

/// No error message repeats its operating-system cause.
#[test]
fn os_errors_are_not_doubled() {
    let dir = scratch("doubled");
    for args in [
        &["validate", "missing.fgn"][..],
        &["convert", "missing.fgn", "x.json"][..],
        &["analyse", "--record", "missing.fgn"][..],
        &["analyse", "--tables", "missing", "--depth", "1"][..],
        &["solve", "--probe", "missing", "--board", "3x3"][..],
        &["match", "random", "random", "--openings", "missing"][..],
        &["show", "missing.fgn"][..],
        &["verify-proof", "missing.cert"][..],
    ] {
        let o = run_in(&dir, args);
        assert_clean_failure(&o, 2, "missing");
        let e = err(&o);
        assert_eq!(
            e.matches("No such file or directory").count(),
            1,
            "{args:?}: {e}"
        );
        assert!(!e.contains("os error"), "{args:?}: {e}");
    }
    // A folder given as an input: one clean message, in game 1 when a game is named.
    fs::create_dir_all(dir.join("folder")).expect("mkdir");
    for args in [
        &["validate", "folder"][..],
        &["convert", "--from", "fgn", "folder", "x.json"][..],
        &["convert", "--from", "json", "folder", "x.fgn"][..],
        &["convert", "--from", "boardspace", "folder", "x.fgn"][..],
        &["analyse", "--record", "folder"][..],
        &["show", "folder"][..],
        &["match", "random", "random", "--openings", "folder"][..],
        &["verify-proof", "folder"][..],
    ] {
        let o = run_in(&dir, args);
        assert_clean_failure(&o, 2, "folder");
        let e = err(&o);
        assert!(e.contains("Is a directory"), "{args:?}: {e}");
        assert!(!e.contains("os error"), "{args:?}: {e}");
        assert!(!e.contains("game 0"), "{args:?}: {e}");
    }
}

/// Numeric options out of range: a message naming the option, status 2, no panic.
#[test]
fn numeric_options_are_range_checked() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["solve", "--board", "3x3", "--max-time", "1e20"],
            "--max-time",
        ),
        (&["solve", "--board", "3x3", "--max-time=-1"], "--max-time"),
        (
            &["solve", "--board", "3x3", "--max-time", "NaN"],
            "--max-time",
        ),
        (
            &["solve", "--board", "3x3", "--max-memory", "99999T"],
            "--max-memory",
        ),
        (
            &["solve", "--tables", "t", "--max-stones", "40"],
            "--max-stones",
        ),
        (
            &["solve", "--board", "3x3", "--line", "18446744073709551616"],
            "--line",
        ),
        (&["analyse", "--hash", "18446744073709551615"], "--hash"),
        (&["analyse", "--hash", "0"], "--hash"),
        (&["analyse", "--depth", "4294967295"], "--depth"),
        (
            &["analyse", "--movetime", "18446744073709551615"],
            "--movetime",
        ),
        (&["analyse", "--nodes", "0"], "--nodes"),
        (&["analyse", "--record", "a.fgn", "--game", "0"], "--game"),
        (&["perft", "1000"], "DEPTH"),
        (&["perft", "-1"], "DEPTH"),
        (&["bench", "--depth", "0"], "--depth"),
        (&["show", "a.fgn", "--game", "0"], "--game"),
        (&["match", "random", "random", "--games", "0"], "--games"),
        (
            &["match", "random", "random", "--threads", "0"],
            "--threads",
        ),
        (
            &["match", "random", "random", "--movetime", "99999999999999"],
            "--movetime",
        ),
        (
            &["match", "random", "random", "--max-turns", "0"],
            "--max-turns",
        ),
        (
            &["match", "random", "random", "--random-plies", "1e9"],
            "--random-plies",
        ),
    ];
    let dir = scratch("ranges");
    for (args, names) in cases {
        let o = run_in(&dir, args);
        assert_clean_failure(&o, 2, names);
    }
}

/// Options that contradict each other are errors, not silently resolved.
#[test]
fn conflicting_options_are_errors() {
    let dir = scratch("conflicts");
    fs::write(dir.join("a.fgn"), GAME).expect("write");
    let cases: &[(&[&str], &str)] = &[
        (
            &["perft", "1", "--rules", "stuck=draws", "--stuck", "loses"],
            "stuck",
        ),
        (
            &["perft", "1", "--rules", "stuck=draws,stuck=loses"],
            "stuck",
        ),
        (
            &["analyse", "--rules", "repetition=3", "--repetition", "4"],
            "repetition",
        ),
        (
            &["analyse", "--record", "a.fgn", "--fen", "3/3/3 w"],
            "--fen",
        ),
        (
            &["analyse", "--record", "a.fgn", "--board", "5x5"],
            "--board",
        ),
        (
            &["analyse", "--record", "a.fgn", "--stuck", "draws"],
            "--stuck",
        ),
        (&["show", "a.fgn", "--rules", "stuck=draws"], "--rules"),
        (
            &["match", "engine:depth=1:depth=2", "random", "--games", "1"],
            "depth is given twice",
        ),
        (
            &["perft", "1", "--rules", "game=capture,game=capture"],
            "names game twice",
        ),
        (&["show", "--format", "text", "--svg", "x.svg"], "--svg"),
        (&["solve", "--probe", "t", "--method", "pn"], "--method"),
        (
            &[
                "match",
                "random",
                "random",
                "--openings",
                "o",
                "--board",
                "5x5",
            ],
            "--board",
        ),
    ];
    for (args, names) in cases {
        let o = run_in(&dir, args);
        assert_clean_failure(&o, 2, names);
    }
    assert!(!dir.join("x.svg").exists());
}

/// `analyse --record`: the record's own errors as `validate` reports them, other games'
/// errors ignored, formats by extension, and --per-turn keeping comments and NAGs.
#[test]
fn analyse_reads_records_like_validate() {
    let dir = scratch("analyse");
    let text = "[Event \"bad\"]\n\n1. f2-e3A d5-d4A 2. a1-a2 *\n\n\
                [Event \"good\"]\n\n{start} 1. f2-e3A $1 {nice} d5-d4A *\n";
    fs::write(dir.join("two.fgn"), text).expect("write");
    let v = run_in(&dir, &["validate", "two.fgn"]);
    let line = String::from_utf8_lossy(&v.stdout)
        .lines()
        .next()
        .expect("a problem line")
        .to_owned();
    assert!(line.starts_with("two.fgn:3:"), "{line}");
    let a = run_in(&dir, &["analyse", "--record", "two.fgn", "--depth", "1"]);
    assert_clean_failure(&a, 2, &line);
    assert!(!err(&a).contains("GameReport"), "{}", err(&a));
    // Game 2 is fine, whatever game 1 holds.
    let a = run_in(
        &dir,
        &[
            "analyse",
            "--record",
            "two.fgn",
            "--game",
            "2",
            "--depth",
            "1",
            "--per-turn",
        ],
    );
    assert_eq!(a.status.code(), Some(0), "{}", err(&a));
    let annotated = String::from_utf8_lossy(&a.stdout).into_owned();
    for kept in ["{start}", "$1", "{nice}", "engine"] {
        assert!(annotated.contains(kept), "{kept} missing: {annotated}");
    }
    // The engine adds its own NAG: White's a1-b1A takes both black stones and wins at once;
    // a3-b2A takes one and leaves Black a stone, so it throws the win away: ?? ($4), after the
    // record's own $1 and comment.
    fs::write(
        dir.join("blunder.fgn"),
        "[Event \"x\"]\n[FEN \"9/9/W8/9/W1BB5 w\"]\n\n1. a3-b2A $1 {mine} *\n",
    )
    .expect("write");
    let a = run_in(
        &dir,
        &[
            "analyse",
            "--record",
            "blunder.fgn",
            "--depth",
            "1",
            "--per-turn",
        ],
    );
    assert_eq!(a.status.code(), Some(0), "{}", err(&a));
    let annotated = String::from_utf8_lossy(&a.stdout).into_owned();
    let tokens: Vec<&str> = annotated.split_whitespace().collect();
    let at = tokens
        .iter()
        .position(|t| *t == "a3-b2A")
        .expect("the turn");
    assert_eq!(
        tokens[at..at + 7],
        [
            "a3-b2A", "$1", "{mine}", "$4", "{engine", "prefers", "a1-b1A,"
        ],
        "{annotated}"
    );
    assert!(annotated.contains("win 1"), "{annotated}");
    // JSON records are read as JSON.
    let c = run_in(&dir, &["convert", "two.fgn", "two.json"]);
    assert_eq!(c.status.code(), Some(0), "{}", err(&c));
    let a = run_in(
        &dir,
        &[
            "analyse", "--record", "two.json", "--game", "2", "--depth", "1",
        ],
    );
    assert_eq!(a.status.code(), Some(0), "{}", err(&a));
    let a = run_in(&dir, &["analyse", "--record", "two.json", "--depth", "1"]);
    assert_clean_failure(&a, 2, "two.json:");
    assert!(err(&a).contains("a1-a2"), "{}", err(&a));
    let a = run_in(
        &dir,
        &[
            "analyse", "--record", "two.json", "--game", "3", "--depth", "1",
        ],
    );
    assert_clean_failure(&a, 2, "two.json has 2 game(s)");
}

/// `validate --json` keeps its schema for a file that cannot be read.
#[test]
fn validate_json_schema_for_missing_files() {
    let dir = scratch("schema");
    let o = run_in(&dir, &["validate", "--json", "missing.fgn"]);
    assert_eq!(o.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let file = &v["files"][0];
    for key in ["file", "games", "invalid", "error", "problems"] {
        assert!(!file[key].is_null(), "{key} missing: {file}");
    }
    assert_eq!(file["problems"], serde_json::json!([]));
}

/// A character device for a test: made in `dir` (`mknod`, which needs privileges) when
/// possible, else the system's own `fallback` (then a build that replaces its destination by
/// a rename cannot, and fails: the system's device is never at risk from this test).
#[cfg(target_os = "linux")]
fn char_device(dir: &Path, name: &str, minor: u32, fallback: &str) -> PathBuf {
    let path = dir.join(name);
    let made = Command::new("mknod")
        .arg(&path)
        .args(["c", "1", &minor.to_string()])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if made { path } else { PathBuf::from(fallback) }
}

#[cfg(unix)]
fn is_char_device(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    fs::metadata(path).is_ok_and(|m| m.file_type().is_char_device())
}

/// Every command that writes a file, with `DEV` for the file.
const FILE_WRITERS: &[&[&str]] = &[
    &["convert", "x.fgn", "DEV", "--to", "json"],
    &["convert", "x.fgn", "DEV", "--to", "fgn"],
    &["show", "x.fgn", "--svg", "DEV"],
    &[
        "analyse",
        "--record",
        "x.fgn",
        "--per-turn",
        "--depth",
        "1",
        "--out",
        "DEV",
    ],
    &[
        "openings", "--count", "1", "--plies", "2", "--nodes", "100", "--out", "DEV",
    ],
    &[
        "match",
        "random",
        "random",
        "--games",
        "1",
        "--threads",
        "1",
        "--out",
        "DEV",
    ],
    &["solve", "--board", "3x3", "--certificate", "DEV"],
];

/// A destination that is a device (/dev/null, /dev/full) is written in place, never replaced
/// by a rename (as root, that would put a regular file in place of /dev/null); a full device
/// is a write error naming it, status 2; a named pipe gets the output.
#[cfg(target_os = "linux")]
#[test]
fn devices_and_pipes_are_written_in_place() {
    let dir = scratch("devices");
    fs::write(dir.join("x.fgn"), GAME).expect("write");
    let full = char_device(&dir, "full", 7, "/dev/full");
    let null = char_device(&dir, "null", 3, "/dev/null");
    let with = |args: &[&str], dev: &Path| -> Vec<String> {
        args.iter()
            .map(|a| {
                if *a == "DEV" {
                    dev.to_string_lossy().into_owned()
                } else {
                    (*a).to_owned()
                }
            })
            .collect()
    };
    for args in FILE_WRITERS {
        let o = run_in(&dir, &with(args, &full));
        assert_clean_failure(&o, 2, "No space left on device");
        assert!(
            err(&o).contains(&*full.to_string_lossy()),
            "{args:?}: the message should name the file: {}",
            err(&o)
        );
        assert!(
            is_char_device(&full),
            "{args:?} replaced {}",
            full.display()
        );
        let o = run_in(&dir, &with(args, &null));
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", err(&o));
        assert!(
            is_char_device(&null),
            "{args:?} replaced {}",
            null.display()
        );
        assert!(leftovers(&dir).is_empty(), "{args:?}");
    }
    // A named pipe: the reader gets the conversion, the pipe stays a pipe.
    let fifo = dir.join("pipe");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let (tx, rx) = std::sync::mpsc::channel();
    let reading = fifo.clone();
    // Detached: if the pipe were replaced, this reader would wait for ever.
    std::thread::spawn(move || {
        let _ = tx.send(fs::read_to_string(&reading));
    });
    let o = run_in(&dir, &["convert", "x.fgn", "pipe", "--to", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let text = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("the pipe's reader gets the output")
        .expect("readable");
    let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(v.as_array().map(Vec::len), Some(1), "{text}");
    use std::os::unix::fs::FileTypeExt;
    assert!(fs::metadata(&fifo).expect("meta").file_type().is_fifo());
}

/// Runs the binary in `dir`, killed after `limit`: `None` if it had to be.
fn run_within(dir: &Path, args: &[&str], limit: Duration) -> Option<Output> {
    let mut command = bin();
    command.current_dir(dir).args(args);
    output_within(command, limit)
}

/// Runs `command` with no standard input, its output captured, killed after `limit`: `None`
/// if it had to be.
fn output_within(mut command: Command, limit: Duration) -> Option<Output> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    Some(child.wait_with_output().expect("output"))
}

/// Every command that writes a file checks that it can before its (long) work: a destination
/// in a folder that does not exist fails at once, naming it.
#[test]
fn outputs_are_checked_before_the_work() {
    let dir = scratch("checked-first");
    fs::write(dir.join("x.fgn"), GAME).expect("write");
    let cases: &[&[&str]] = &[
        &[
            "openings",
            "--count",
            "100000",
            "--out",
            "no/such/dir/o.txt",
        ],
        &[
            "solve",
            "--board",
            "5x5",
            "--certificate",
            "no/such/dir/c.cert",
        ],
        &[
            "analyse",
            "--record",
            "x.fgn",
            "--per-turn",
            "--movetime",
            "60000",
            "--out",
            "no/such/dir/a.fgn",
        ],
        &[
            "match",
            "random",
            "random",
            "--games",
            "1000000",
            "--out",
            "no/such/dir/m.fgn",
        ],
    ];
    for args in cases {
        let o = run_within(&dir, args, Duration::from_secs(20))
            .unwrap_or_else(|| panic!("{args:?} worked before checking its output"));
        assert_clean_failure(&o, 2, "no/such/dir/");
    }
}

/// Ctrl-C (SIGINT) or SIGTERM in the middle of any command that writes files: the
/// destination stays as it was and no temporary file or folder is left.
#[cfg(unix)]
#[test]
fn interrupts_leave_no_partial_file_in_any_command() {
    let dir = scratch("interrupts");
    fs::write(dir.join("x.fgn"), GAME).expect("write");
    fs::create_dir_all(dir.join("tables")).expect("mkdir");
    fs::write(dir.join("tables").join("old.tb"), "precious").expect("write");
    // (arguments, destination, signal)
    let cases: &[(&[&str], &str, &str)] = &[
        (
            &[
                "analyse",
                "--record",
                "x.fgn",
                "--per-turn",
                "--movetime",
                "2000",
                "--out",
                "out.fgn",
            ],
            "out.fgn",
            "-TERM",
        ),
        (
            &["openings", "--count", "100000", "--out", "out.txt"],
            "out.txt",
            "-INT",
        ),
        (
            &["solve", "--board", "5x5", "--certificate", "out.cert"],
            "out.cert",
            "-TERM",
        ),
        (
            // Up to 6 stones: seconds of work, so the signal comes in the middle of it
            // (the default 4 stones take a tenth of a second on a quiet machine).
            &[
                "solve",
                "--board",
                "5x5",
                "--tables",
                "tables",
                "--max-stones",
                "6",
            ],
            "tables/old.tb",
            "-INT",
        ),
    ];
    for (args, dest, signal) in cases {
        let dest = dir.join(dest);
        if !dest.ends_with("old.tb") {
            fs::write(&dest, "precious").expect("write");
        }
        let watched = dest.parent().expect("a folder").to_owned();
        let mut child = spawn_in(&dir, args);
        let what = format!("{args:?}: a temporary file");
        wait_until(&mut child, &what, || !leftovers(&watched).is_empty());
        std::thread::sleep(Duration::from_millis(100));
        interrupt(child, signal, &format!("{args:?}"));
        assert_eq!(
            fs::read_to_string(&dest).expect("read"),
            "precious",
            "{args:?}"
        );
        assert!(
            leftovers(&watched).is_empty(),
            "{args:?}: {:?}",
            leftovers(&watched)
        );
    }
}

/// A huge bad argument gives a short message that still names the option and the reason.
#[test]
fn huge_arguments_give_short_messages() {
    let dir = scratch("huge-args");
    let fen = "9/".repeat(50_000);
    let play = "x".repeat(100_000);
    let player = format!("engine:{}", "x".repeat(100_000));
    let cases: &[(&[&str], &str, &str)] = &[
        (&["perft", "1", "--fen", &fen], "in --fen", "rank"),
        (
            &["analyse", "--depth", "1", "--play", &play],
            "in --play",
            "expected a point",
        ),
        (&["match", &player, "random"], "player", "known: "),
    ];
    for (args, start, reason) in cases {
        let o = run_in(&dir, args);
        assert_clean_failure(&o, 2, start);
        let e = err(&o);
        assert!(e.len() < 1500, "{start}: {} bytes", e.len());
        assert!(e.contains(reason), "{e}");
        assert!(e.contains("characters left out"), "{e}");
    }
}

/// A file read whole (the opening suite of `match --openings`) is read up to its limit, also
/// when it has no length to check first (a device, a pipe): /dev/zero is refused in bounded
/// memory. (The child runs under a 1 GB address-space limit, so that a build without the
/// bound fails this test instead of eating the machine's memory.)
#[cfg(target_os = "linux")]
#[test]
fn endless_inputs_read_whole_are_bounded() {
    let dir = scratch("endless");
    let bin = match std::env::var_os("FANORONA_HOSTILE_BIN") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_BIN_EXE_fanorona")),
    };
    let o = Command::new("sh")
        .current_dir(&dir)
        .arg("-c")
        .arg("ulimit -v 1000000; exec \"$0\" match random random --games 1 --openings /dev/zero")
        .arg(&bin)
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    assert_clean_failure(&o, 2, "/dev/zero: larger than 64 MiB");
}

/// A small file system mounted for one test, unmounted when dropped.
#[cfg(target_os = "linux")]
struct Mounted(PathBuf);

#[cfg(target_os = "linux")]
impl Drop for Mounted {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

/// A disk that fills up while a file is written (a 12 KiB tmpfs, so this test needs the
/// right to mount: it is skipped, saying so, without it): a conversion leaves the destination
/// as it was and no temporary file; a match stops with a message and keeps its finished
/// games, whole.
#[cfg(target_os = "linux")]
#[test]
fn a_full_file_system_keeps_destinations_whole() {
    let dir = scratch("full-fs");
    let disk = dir.join("disk");
    fs::create_dir_all(&disk).expect("mkdir");
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=12k", "tmpfs"])
        .arg(&disk)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!("skipped: mounting a small file system needs privileges");
        return;
    }
    let _mount = Mounted(disk.clone());
    fs::write(dir.join("many.fgn"), GAME.repeat(2000)).expect("write");
    fs::write(disk.join("out.json"), "precious").expect("write");
    let o = run_in(&dir, &["convert", "many.fgn", "disk/out.json"]);
    assert_clean_failure(&o, 2, "disk/out.json: No space left on device");
    assert_eq!(
        fs::read_to_string(disk.join("out.json")).expect("read"),
        "precious"
    );
    assert!(leftovers(&disk).is_empty(), "{:?}", leftovers(&disk));
    fs::remove_file(disk.join("out.json")).expect("rm");
    let o = run_in(
        &dir,
        &[
            "match",
            "random",
            "random",
            "--games",
            "1000",
            "--threads",
            "1",
            "--out",
            "disk/games.fgn",
        ],
    );
    assert_clean_failure(&o, 2, "disk/games.fgn: No space left on device");
    assert!(leftovers(&disk).is_empty(), "{:?}", leftovers(&disk));
    let v = run_in(&dir, &["validate", "--json", "disk/games.fgn"]);
    let report: serde_json::Value = serde_json::from_slice(&v.stdout).expect("JSON");
    assert_eq!(v.status.code(), Some(0), "{report}");
    assert!(report["games"].as_u64().expect("games") >= 1, "{report}");
}

/// Whether process `pid` is gone (or a zombie waiting to be reaped).
#[cfg(target_os = "linux")]
fn process_gone(pid: &str) -> bool {
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        // "PID (NAME) STATE ...": the state follows the last ')'.
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z')),
    }
}

/// The processes listed in `file` are all gone within a few seconds.
#[cfg(target_os = "linux")]
fn assert_processes_end(file: &Path, what: &str) {
    let pids = fs::read_to_string(file).expect("the engine wrote its process ids");
    let start = Instant::now();
    for pid in pids.split_whitespace() {
        while !process_gone(pid) {
            if start.elapsed() > Duration::from_secs(10) {
                // Clean up before failing: no test leaves processes behind.
                for p in pids.split_whitespace() {
                    let _ = Command::new("kill").args(["-KILL", p]).status();
                }
                panic!("{what}: process {pid} outlived the match ({pids:?})");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// External engines never outlive `fanorona match`, nor do the processes they start: not
/// when an engine times out (it is killed with its process group), not when the match is
/// stopped by SIGTERM (the engines still running are killed before the exit).
#[cfg(target_os = "linux")]
#[test]
fn external_engines_never_outlive_the_match() {
    let dir = scratch("engines-end");
    // An engine (a shell) that thinks for ever in a child process (`sleep`).
    fs::write(
        dir.join("engine.sh"),
        "echo $$ >> pids\n\
         while IFS= read -r line; do\n\
         case \"$line\" in\n\
         uci) echo 'id name sleeper'; echo uciok ;;\n\
         isready) echo readyok ;;\n\
         go*) sleep 1000 & echo $! >> pids; wait ;;\n\
         esac\n\
         done\n",
    )
    .expect("write");
    let engine = format!("uci:/bin/sh {}", dir.join("engine.sh").display());
    let two_games = ["match", &engine, "random", "--games", "2"];
    // Time-outs: each game is a time forfeit, and the engine and its `sleep` are killed.
    let timeouts = ["--turn-timeout", "200", "--quit-timeout", "200"];
    let o = run_in(&dir, &[&two_games[..], &timeouts].concat());
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_processes_end(&dir.join("pids"), "after time-outs");
    // SIGTERM while the engine thinks.
    fs::remove_file(dir.join("pids")).expect("rm");
    let waits = ["--turn-timeout", "100000", "--out", "games.fgn"];
    let mut child = spawn_in(&dir, &[&two_games[..], &waits].concat());
    // The engine's shell and its `sleep`: two ids.
    wait_until(&mut child, "the engine thinking", || {
        fs::read_to_string(dir.join("pids")).map_or(0, |t| t.split_whitespace().count()) >= 2
    });
    interrupt(child, "-TERM", "match");
    assert_processes_end(&dir.join("pids"), "after SIGTERM");
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
}

// ---------------------------------------------------------------------------------------------
// Issue 26, part B: the solver's inputs (certificates, df-pn checkpoints, options a game does
// not use) and the smaller readers (opening suites, table checks, escapes).
// ---------------------------------------------------------------------------------------------

/// FNV-1a 64 (the certificate's and the checkpoint's checksum), written here independently.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// A certificate's text with `edit` applied to its lines and the end line's checksum fixed.
fn resealed_certificate(text: &str, edit: impl Fn(&mut Vec<String>)) -> String {
    let mut lines: Vec<String> = text
        .lines()
        .filter(|l| !l.starts_with("end "))
        .map(str::to_owned)
        .collect();
    edit(&mut lines);
    let body: String = lines.iter().map(|l| format!("{l}\n")).collect();
    format!("{body}end {:016x}\n", fnv1a(body.as_bytes()))
}

/// The 3x3 certificate (a win for White), made by the binary itself.
fn certificate_3x3(dir: &Path) -> String {
    let o = run_in(
        dir,
        &["solve", "--board", "3x3", "--certificate", "3x3.cert"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    fs::read_to_string(dir.join("3x3.cert")).expect("certificate")
}

/// `verify-proof` checks the capture game only: a start naming Vela or Telo (checksum fixed)
/// is refused at its line, not reported valid (the Telo position is in fact lost).
#[test]
fn verify_proof_refuses_starts_of_other_games() {
    let dir = scratch("cert-games");
    let text = certificate_3x3(&dir);
    for game in ["telo", "vela"] {
        let bad = resealed_certificate(&text, |lines| {
            let i = lines.iter().position(|l| l.starts_with("start ")).unwrap();
            lines[i] = format!("{} {game}", lines[i]);
        });
        fs::write(dir.join("bad.cert"), bad).expect("write");
        let o = run_in(&dir, &["verify-proof", "bad.cert"]);
        assert_clean_failure(&o, 1, "bad.cert:4:");
        assert!(err(&o).contains(game), "{game}: {}", err(&o));
        let o = run_in(&dir, &["verify-proof", "bad.cert", "--json"]);
        assert_eq!(o.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&o.stdout).contains("\"valid\":false"));
    }
    let bad = resealed_certificate(&text, |lines| lines[2].push_str(",game=telo"));
    fs::write(dir.join("bad.cert"), bad).expect("write");
    assert_clean_failure(
        &run_in(&dir, &["verify-proof", "bad.cert"]),
        1,
        "bad.cert:3:",
    );
}

/// A tiny certificate whose header announces two billion positions is refused at that line,
/// not aborted reserving 48 GB, however much memory `--max-memory` allows.
#[test]
fn verify_proof_bounds_header_counts_by_the_file_size() {
    let dir = scratch("cert-count");
    let text = certificate_3x3(&dir);
    let bad = resealed_certificate(&text, |lines| {
        let i = lines
            .iter()
            .position(|l| l.starts_with("strategy "))
            .unwrap();
        lines[i] = "strategy white 2000000000 ordered".to_owned();
    });
    assert!(bad.len() < 4096);
    fs::write(dir.join("big.cert"), bad).expect("write");
    let o = run_in(&dir, &["verify-proof", "big.cert", "--max-memory", "64G"]);
    assert_clean_failure(&o, 1, "big.cert:6:");
    assert!(err(&o).contains("2000000000"), "{}", err(&o));
}

/// The records of a df-pn checkpoint: their first byte and count (format 2: seven header
/// lines, 30-byte records, a 21-byte end line; format 1: magic, position line, 17 bytes).
fn checkpoint_records(bytes: &[u8]) -> (usize, usize) {
    let line_end = |from: usize| from + bytes[from..].iter().position(|&b| b == b'\n').unwrap() + 1;
    if bytes.starts_with(b"fanorona-dfpn 1\n") {
        let first = line_end(16) + 17;
        (first, (bytes.len() - first) / 30)
    } else {
        let first = (0..7).fold(0, |at, _| line_end(at));
        (first, (bytes.len() - first - 21) / 30)
    }
}

/// A df-pn checkpoint is checked before it is trusted: one edited to prove every position (it
/// used to turn "Black cannot force a win" into "can", exit 0), one of another board, and one
/// larger than `--max-memory` are refused with a located error, and the file is left as it was.
#[test]
fn solve_checkpoints_are_checked_before_they_are_trusted() {
    let dir = scratch("checkpoints");
    let prove = ["solve", "--board", "3x3", "--prove", "black", "--dfpn"];
    let with = |extra: &[&'static str]| -> Vec<&'static str> {
        [&prove[..], &["--checkpoint", "c.dfpn"], extra].concat()
    };
    let o = run_in(&dir, &with(&[]));
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("Black cannot force a win"));
    let good = fs::read(dir.join("c.dfpn")).expect("checkpoint");
    // Every record's proof number set to 0 (proved), the rest left alone.
    let (first, count) = checkpoint_records(&good);
    assert!(count > 0);
    let mut forged = good.clone();
    for i in 0..count {
        forged[first + 30 * i + 16..first + 30 * i + 20].fill(0);
    }
    fs::write(dir.join("c.dfpn"), &forged).expect("write");
    let o = run_in(&dir, &with(&[]));
    assert_clean_failure(&o, 2, "c.dfpn");
    assert!(!String::from_utf8_lossy(&o.stdout).contains("can force"));
    assert!(
        err(&o).contains("record ") || err(&o).contains("byte "),
        "{}",
        err(&o)
    );
    assert_eq!(
        fs::read(dir.join("c.dfpn")).unwrap(),
        forged,
        "left as it was"
    );
    // Another board's search: refused at the board line.
    fs::write(dir.join("c.dfpn"), &good).expect("write");
    let other = [
        "solve",
        "--board",
        "3x5",
        "--prove",
        "black",
        "--dfpn",
        "--checkpoint",
        "c.dfpn",
    ];
    let o = run_in(&dir, &other);
    assert_clean_failure(&o, 2, "line 2");
    assert_eq!(fs::read(dir.join("c.dfpn")).unwrap(), good);
    // More entries than the memory budget holds (48 bytes each at least): refused before reading them.
    let o = run_in(&dir, &with(&["--max-memory", "1K"]));
    assert_clean_failure(&o, 2, "c.dfpn");
    assert!(err(&o).contains("budget"), "{}", err(&o));
    assert_eq!(fs::read(dir.join("c.dfpn")).unwrap(), good);
}

/// Under `game=telo`, `solve` takes none of the methods' options: each is an error naming it
/// (exit 2), never silently ignored with exit 0; nothing is written.
#[test]
fn solve_refuses_options_a_game_does_not_use() {
    let dir = scratch("telo-options");
    let telo = ["solve", "--board", "3x3", "--rules", "game=telo"];
    for extra in [
        &["--certificate", "/nonexistent/dir/x"][..],
        &["--certificate", "x.cert"][..],
        &["--tables", "t"][..],
        &["--probe", "t"][..],
        &["--prove", "white"][..],
        &["--prove", "white", "--dfpn", "--checkpoint", "c.dfpn"][..],
        &["--check-tables", "t"][..],
        &["--method", "pn"][..],
        &["--max-memory", "1G"][..],
        &["--max-time", "10"][..],
        &["--line", "3"][..],
    ] {
        let o = run_in(&dir, &[&telo[..], extra].concat());
        assert_clean_failure(&o, 2, extra[0]);
        assert!(err(&o).contains("game=telo"), "{extra:?}: {}", err(&o));
    }
    assert!(
        fs::read_dir(&*dir).unwrap().next().is_none(),
        "nothing written"
    );
    // The same position string with the game word, and the options it does take.
    let o = run_in(
        &dir,
        &["solve", "--fen", "3/3/3 w telo", "--prove", "white"],
    );
    assert_clean_failure(&o, 2, "--prove");
    let o = run_in(&dir, &[&telo[..], &["--json"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    // Endgame tables are of the capture game; --max-stones belongs to the tables.
    let o = run_in(&dir, &["solve", "--rules", "game=vela", "--tables", "t"]);
    assert_clean_failure(&o, 2, "--tables");
    let o = run_in(&dir, &["solve", "--board", "3x3", "--max-stones", "3"]);
    assert_clean_failure(&o, 2, "--max-stones");
}

/// Opening suites: a leading byte-order mark is accepted (as the record readers accept it), and
/// errors give the real line and column, never "line 0".
#[test]
fn opening_suites_accept_a_bom_and_locate_their_errors() {
    let dir = scratch("openings-errors");
    let suite = |name: &str, text: &str| {
        fs::write(dir.join(name), text).expect("write");
        run_in(
            &dir,
            &[
                "match",
                "random",
                "random",
                "--games",
                "2",
                "--openings",
                name,
            ],
        )
    };
    let o = suite("bom.txt", "\u{feff}BBB/B1W/WWW w\n");
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let o = suite("empty.txt", "# nothing\n\n# yet\n");
    assert_clean_failure(&o, 2, "empty.txt: line 3, column 1: no position");
    let o = suite("bad.txt", "# c\n\n  BBB/BxW/WWW w\n");
    assert_clean_failure(&o, 2, "bad.txt: line 3, column 8:");
    assert!(!err(&o).contains("line 0"), "{}", err(&o));
}

/// `--check-tables` with a class file missing is an I/O error (exit 2) naming the file, not a
/// verdict that the tables are invalid (exit 1); a damaged file still is one.
#[test]
fn check_tables_tells_a_missing_file_from_an_invalid_one() {
    let dir = scratch("check-tables");
    let tables = ["solve", "--board", "3x3", "--max-stones", "3"];
    let o = run_in(&dir, &[&tables[..], &["--tables", "t"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let check = [&tables[..], &["--check-tables", "t"]].concat();
    assert_eq!(run_in(&dir, &check).status.code(), Some(0));
    let files: Vec<PathBuf> = fs::read_dir(dir.join("t"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "fntb"))
        .collect();
    let victim = files.iter().max().unwrap();
    let saved = fs::read(victim).unwrap();
    fs::remove_file(victim).unwrap();
    let name = victim.file_name().unwrap().to_str().unwrap();
    let o = run_in(&dir, &check);
    assert_clean_failure(&o, 2, name);
    assert!(!String::from_utf8_lossy(&o.stdout).contains("invalid"));
    // A damaged class is a verdict: invalid, exit 1.
    let mut bad = saved;
    let last = bad.len() - 1;
    bad[last] ^= 0x40;
    fs::write(victim, bad).unwrap();
    let o = run_in(&dir, &check);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("invalid:"));
}

/// Control characters in messages are escaped in one form everywhere, `\x1b` (as the docs
/// say), whether the text is a file name, a position string or a record's contents.
#[test]
fn control_characters_are_escaped_in_one_form() {
    let dir = scratch("escape-form");
    fs::write(
        dir.join("tag.fgn"),
        "[Event \"x\"]\n[FEN \"BBB/B\u{1b}W/WWW w\"]\n\n*\n",
    )
    .expect("write");
    for args in [
        &["show", "--fen", "BBB/B\u{1b}W/WWW w"][..],
        &["perft", "1", "--fen", "BBB/B1W/WWW \u{1b}"][..],
        &["validate", "tag.fgn"][..],
        &["validate", "x\u{7}.fgn"][..],
        &["solve", "--board", "3x3", "--rules", "stuck=\u{1b}"][..],
    ] {
        let o = run_in(&dir, args);
        let text = format!("{}{}", err(&o), String::from_utf8_lossy(&o.stdout));
        assert!(
            o.status.code().is_some_and(|c| c == 1 || c == 2),
            "{args:?}: {text}"
        );
        assert!(
            text.contains("\\x1b") || text.contains("\\x07"),
            "{args:?}: {text}"
        );
        assert!(!text.contains("\\u{"), "{args:?}: {text}");
        assert!(
            !text.contains('\u{1b}') && !text.contains('\u{7}'),
            "{args:?}: {text}"
        );
    }
}

/// `verify-proof` of a FIFO (or a device) is refused at once, not a hang on its open: a
/// certificate is read twice, so only a file will do.
#[cfg(unix)]
#[test]
fn verify_proof_of_a_fifo_does_not_hang() {
    let dir = scratch("cert-fifo");
    let fifo = dir.join("pipe.cert");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        return; // no mkfifo here: nothing to check
    }
    let o = run_within(
        &dir,
        &["verify-proof", "pipe.cert"],
        Duration::from_secs(20),
    )
    .expect("verify-proof of a FIFO must not hang");
    assert_clean_failure(&o, 2, "pipe.cert");
    assert!(err(&o).contains("not a regular file"), "{}", err(&o));
}

// ---------------------------------------------------------------------------------------------
// Issue 26, part A: no data loss (a match that plays no game, a killed match), no panic, abort
// or hang (failing workers, threads that cannot be made), bounded memory.
// ---------------------------------------------------------------------------------------------

/// A fake external engine (a /bin/sh script in `dir`): `uci_reply` is what it prints to
/// `uci`; it answers `isready` and plays nothing.
#[cfg(unix)]
fn sh_engine(dir: &Path, name: &str, uci_reply: &str) -> String {
    let script = dir.join(name);
    fs::write(
        &script,
        format!(
            "while IFS= read -r line; do\n\
             case \"$line\" in\n\
             uci) {uci_reply} ;;\n\
             isready) echo readyok ;;\n\
             quit) exit 0 ;;\n\
             esac\n\
             done\n"
        ),
    )
    .expect("write");
    format!("uci:/bin/sh {}", script.display())
}

/// A match that fails before its first game (an engine that cannot be started, a network that
/// cannot be read, no `uciok`, an option the engine does not list) leaves an existing games
/// file exactly as it was, and no temporary file.
#[cfg(unix)]
#[test]
fn a_match_that_plays_no_game_leaves_the_games_file_as_it_was() {
    let dir = scratch("match-no-game");
    let silent = sh_engine(&dir, "silent.sh", ":");
    let plain = sh_engine(&dir, "plain.sh", "echo 'id name plain'; echo uciok");
    let unlisted = format!("{plain} option.Hash=64");
    let kept = format!("{GAME}\n{GAME}");
    for second in [
        "uci:./nonexistent",
        "engine:evalfile=/dev/zero",
        &silent,
        &unlisted,
    ] {
        fs::write(dir.join("keep.fgn"), &kept).expect("write");
        let started = Instant::now();
        let o = run_in(
            &dir,
            &[
                "match",
                "greedy",
                second,
                "--games",
                "4",
                "--handshake-timeout",
                "500",
                "--out",
                "keep.fgn",
            ],
        );
        assert!(started.elapsed() < Duration::from_secs(15), "{second}");
        assert_eq!(o.status.code(), Some(2), "{second}: {}", err(&o));
        assert!(!err(&o).contains("panicked"), "{second}: {}", err(&o));
        assert_eq!(
            fs::read_to_string(dir.join("keep.fgn")).expect("read"),
            kept,
            "{second}: the games file was changed"
        );
        assert!(
            leftovers(&dir).is_empty(),
            "{second}: {:?}",
            leftovers(&dir)
        );
    }
}

/// Games in a file, counted by their first tag.
fn games_in(path: &Path) -> usize {
    fs::read_to_string(path)
        .unwrap_or_default()
        .matches("[Event \"fanorona match\"]")
        .count()
}

/// A match killed outright (SIGKILL, as the OOM killer or a power cut would stop it): the
/// games it finished are in --out, no temporary file is left, and `--resume` goes on from
/// them to the games file of the same match played at once.
#[cfg(unix)]
#[test]
fn a_killed_match_keeps_its_games_and_resume_goes_on() {
    let dir = scratch("match-sigkill");
    let base = ["match", "random", "random", "--threads", "1"];
    let mut child = spawn_in(
        &dir,
        &[&base[..], &["--games", "1000000", "--out", "games.fgn"]].concat(),
    );
    let path = dir.join("games.fgn");
    wait_until(&mut child, "three games in games.fgn", || {
        games_in(&path) >= 3
    });
    child.kill().expect("SIGKILL");
    child.wait().expect("waited");
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
    let seen = games_in(&path);
    // The kill may have come in the middle of a game being appended: that game is dropped
    // and played again.
    let more = (seen + 2).to_string();
    let o = run_in(
        &dir,
        &[
            &base[..],
            &["--games", &more, "--out", "games.fgn", "--resume", "--json"],
        ]
        .concat(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let resumed = v["resumed"].as_u64().expect("resumed") as usize;
    assert!(resumed == seen || resumed + 1 == seen, "{seen}: {v}");
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
    let o = run_in(
        &dir,
        &[&base[..], &["--games", &more, "--out", "at-once.fgn"]].concat(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let untimed = |name: &str| -> String {
        fs::read_to_string(dir.join(name))
            .expect("read")
            .lines()
            .filter(|l| !l.starts_with("[LongestTurnMs ") && !l.starts_with("[TurnTimesMs "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(untimed("games.fgn"), untimed("at-once.fgn"));
}

/// A games file that ends with part of a game (a match killed while appending it): `--resume`
/// says so, with the line, drops that part and plays the game again.
#[test]
fn resume_drops_a_torn_last_game() {
    let dir = scratch("match-torn");
    let base = [
        "match",
        "random",
        "random",
        "--threads",
        "1",
        "--out",
        "g.fgn",
    ];
    let o = run_in(&dir, &[&base[..], &["--games", "3"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let whole = fs::read_to_string(dir.join("g.fgn")).expect("read");
    let first_game_end = whole.find("\n\n[Event").expect("two games") + 2;
    assert!(whole.ends_with('\n'));
    // The torn game starts after the empty line that follows the file.
    let lines = whole.lines().count() + 2;
    let torn = format!("{whole}\n{}", &whole[..first_game_end / 2]);
    fs::write(dir.join("g.fgn"), &torn).expect("write");
    let o = run_in(
        &dir,
        &[&base[..], &["--games", "4", "--resume", "--json"]].concat(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        err(&o).contains(&format!("g.fgn:{lines}: the last game is incomplete")),
        "{}",
        err(&o)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["resumed"], 3, "{v}");
    assert_eq!(v["games_written"], 1, "{v}");
    let now = fs::read_to_string(dir.join("g.fgn")).expect("read");
    assert!(
        now.starts_with(&whole),
        "the whole games are kept as they were"
    );
    assert_eq!(games_in(&dir.join("g.fgn")), 4);
    let check = run_in(&dir, &["validate", "g.fgn"]);
    assert_eq!(check.status.code(), Some(0), "{}", err(&check));
    // A damaged game before the last one is still an error, and the file is left alone.
    let damaged = whole.replacen("[Event \"fanorona match\"]", "[Event \"fanorona match\"", 1);
    fs::write(dir.join("g.fgn"), &damaged).expect("write");
    let o = run_in(&dir, &[&base[..], &["--games", "4", "--resume"]].concat());
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert_eq!(
        fs::read_to_string(dir.join("g.fgn")).expect("read"),
        damaged
    );
}

/// The temporary files and folders of a killed run (whose process is gone) are removed by
/// the next run writing the same output; those of a running process are left alone.
#[cfg(target_os = "linux")]
#[test]
fn temporary_files_of_a_killed_run_are_removed_by_the_next() {
    let dir = scratch("stale");
    fs::write(dir.join("a.fgn"), GAME).expect("write");
    // Above the largest process number Linux gives (2^22): no such process runs.
    let stale = ".out.json.fanorona-tmp-4194400-0";
    let running = format!(".out.json.fanorona-tmp-{}-0", std::process::id());
    let other = ".other.json.fanorona-tmp-4194400-0";
    for name in [stale, &running, other] {
        fs::write(dir.join(name), "left over").expect("write");
    }
    let o = run_in(&dir, &["convert", "a.fgn", "out.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let mut left = leftovers(&dir);
    left.sort();
    let mut expected = vec![running.clone(), other.to_owned()];
    expected.sort();
    assert_eq!(left, expected);
    // The temporary folder of a killed `solve --tables`.
    fs::create_dir_all(dir.join("tables/.fanorona-tmp-4194400-3")).expect("mkdir");
    fs::write(dir.join("tables/.fanorona-tmp-4194400-3/x.tb"), "half").expect("write");
    let o = run_in(
        &dir,
        &[
            "solve",
            "--board",
            "3x3",
            "--tables",
            "tables",
            "--max-stones",
            "2",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        leftovers(&dir.join("tables")).is_empty(),
        "{:?}",
        leftovers(&dir.join("tables"))
    );
}

/// The binary under test, as a path (for running it under another command).
#[cfg(target_os = "linux")]
fn bin_path() -> std::ffi::OsString {
    std::env::var_os("FANORONA_HOSTILE_BIN")
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_fanorona").into())
}

/// Runs `sh -c SCRIPT` in `dir` with `$BIN` the binary under test and `$LIMIT` a `prlimit`
/// command line capping the address space at `bytes`, killed after `limit`; `None` when it
/// ran past `limit`. Skipped (a note, `Some(None)` is never returned then: the caller gets
/// `Err`) where `prlimit` cannot set the limit.
#[cfg(target_os = "linux")]
fn run_limited(
    dir: &Path,
    bytes: u64,
    script: &str,
    limit: Duration,
) -> Result<Option<Output>, ()> {
    let works = Command::new("prlimit")
        .args([format!("--as={bytes}"), "true".to_owned()])
        .status()
        .is_ok_and(|s| s.success());
    if !works {
        eprintln!("skipped: `prlimit --as` is not available here");
        return Err(());
    }
    let mut command = Command::new("/bin/sh");
    command
        .args(["-c", script])
        .env("BIN", bin_path())
        .env("LIMIT", format!("prlimit --as={bytes} --"))
        .current_dir(dir);
    Ok(output_within(command, limit))
}

/// Twenty finished games in `dir/g.fgn`, for `nnue label`.
fn twenty_games(dir: &Path) {
    let o = run_in(
        dir,
        &[
            "match",
            "random",
            "random",
            "--games",
            "20",
            "--threads",
            "1",
            "--out",
            "g.fgn",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
}

/// `nnue label` whose tables cannot be had (`--hash 4096` in 1.5 GB of address space): a
/// clear error naming --hash, status 2, at once; before, a worker panicked and the reader
/// waited for ever on the full job channel.
#[cfg(target_os = "linux")]
#[test]
fn nnue_label_with_tables_that_cannot_be_had_ends_with_an_error() {
    let dir = scratch("label-nomem");
    twenty_games(&dir);
    let script = "$LIMIT \"$BIN\" nnue label g.fgn --out h.data --hash 4096 --nodes 100";
    let Ok(o) = run_limited(&dir, 1_500_000_000, script, Duration::from_secs(30)) else {
        return;
    };
    let o = o.expect("nnue label ended within 30 s (no hang)");
    assert_clean_failure(&o, 2, "--hash 4096");
    assert!(err(&o).contains("cannot allocate"), "{}", err(&o));
    assert!(!dir.join("h.data").exists());
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
}

/// More threads than the system gives (64 of them in 600 MB of address space): every command
/// runs with the threads it could have, says so where it asked for them, and never panics
/// or aborts. Before, `analyse`, `nnue label` and the engine aborted (status 134).
#[cfg(target_os = "linux")]
#[test]
fn threads_that_cannot_be_had_are_not_a_crash() {
    let dir = scratch("threads-nomem");
    twenty_games(&dir);
    let cases = [
        (
            "analyse",
            "$LIMIT \"$BIN\" analyse --threads 64 --depth 5",
            "best ",
        ),
        (
            "nnue label",
            "$LIMIT \"$BIN\" nnue label g.fgn --out h.data --threads 64 --nodes 100",
            "20 games",
        ),
        (
            "match",
            "$LIMIT \"$BIN\" match random greedy --games 64 --concurrency 64 --json",
            "\"games\":64",
        ),
        (
            "engine",
            "(printf 'uci\\nsetoption name Threads value 64\\nisready\\ngo depth 5\\n'; sleep 1) \
             | $LIMIT \"$BIN\" engine",
            "bestmove ",
        ),
    ];
    for (what, script, says) in cases {
        let Ok(o) = run_limited(&dir, 600_000_000, script, Duration::from_secs(60)) else {
            return;
        };
        let o = o.unwrap_or_else(|| panic!("{what}: ended within 60 s"));
        let (out, e) = (String::from_utf8_lossy(&o.stdout), err(&o));
        assert_eq!(o.status.code(), Some(0), "{what}: {e}");
        assert!(
            !e.contains("panicked") && !e.contains("memory allocation"),
            "{what}: {e}"
        );
        assert!(out.contains(says), "{what}: {out}");
        // 64 search threads do not fit in 600 MB (their stacks, the allocator's arenas and
        // their tables' share): the command says how many it could have. (The game threads of
        // a match between random and greedy players need little, and may all start.)
        if what != "match" {
            assert!(
                out.contains("the system could not start")
                    || e.contains("the system could not start"),
                "{what}: {out} {e}"
            );
        }
    }
}

/// `setoption name Hash value 16384` keeps the engine answering: the table is made at once
/// (its memory is given page by page as the search fills it), or refused at once, with the
/// memory the machine has, where it would not fit. Before, the engine filled 12 GiB and did
/// not answer `isready` for most of a minute.
#[cfg(unix)]
#[test]
fn a_huge_hash_keeps_the_engine_answering() {
    let dir = scratch("huge-hash");
    let mut child = bin()
        .arg("engine")
        .current_dir(&*dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let wait_for = |prefix: &str, within: Duration| -> Vec<String> {
        let start = Instant::now();
        let mut seen = Vec::new();
        loop {
            let left = within.saturating_sub(start.elapsed());
            match rx.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(_) => panic!("no {prefix:?} within {within:?}: {seen:?}"),
            }
        }
    };
    writeln!(stdin, "uci").expect("write");
    wait_for("uciok", Duration::from_secs(10));
    writeln!(stdin, "setoption name Hash value 16384\nisready").expect("write");
    let seen = wait_for("readyok", Duration::from_secs(5));
    // Refused only where the machine has not the 12 GiB the table takes, saying so.
    if let Some(error) = seen.iter().find(|l| l.starts_with("info string error")) {
        assert!(
            error.contains("MiB of memory available") && error.contains("stays at"),
            "{error}"
        );
    }
    writeln!(stdin, "go depth 4").expect("write");
    wait_for("bestmove ", Duration::from_secs(20));
    writeln!(stdin, "quit").expect("write");
    let status = child.wait().expect("exits");
    assert!(status.success());
}

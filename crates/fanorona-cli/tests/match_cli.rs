//! `fanorona match` and `fanorona openings` as a user runs them: faults of players, the games
//! file, the statistics and the rerun command.

use std::time::{Duration, Instant};

#[allow(dead_code, reason = "each test binary uses part of the helpers")]
mod common;

use common::{Dir, fanorona, stderr, stdout};

fn json(out: &std::process::Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", stderr(out));
    serde_json::from_str(&stdout(out)).unwrap()
}

/// White a1, Black c1: White wins at once with a1-b1A.
const ONE_TURN: &str = "9/9/9/9/W1B6 w";

/// A fake engine run by /bin/sh: `go` runs `on_go`.
fn fake(dir: &Dir, on_go: &str) -> String {
    fake_engine(dir, "echo readyok", on_go)
}

/// A fake engine run by /bin/sh: `isready` runs `on_isready`, `go` runs `on_go`.
fn fake_engine(dir: &Dir, on_isready: &str, on_go: &str) -> String {
    let script = dir.path("engine.sh");
    std::fs::write(
        &script,
        format!(
            "while IFS= read -r line; do\n\
             case \"$line\" in\n\
             uci) echo 'id name fake'; echo 'option name Rules type string default standard'; echo uciok ;;\n\
             isready) {on_isready} ;;\n\
             go*) {on_go} ;;\n\
             quit) exit 0 ;;\n\
             esac\n\
             done\n"
        ),
    )
    .unwrap();
    format!("uci:/bin/sh {script}")
}

fn records(path: &str) -> String {
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn a_faulty_engine_loses_its_games_and_every_game_is_kept() {
    let dir = Dir::new();
    let openings = dir.path("one.txt");
    std::fs::write(&openings, format!("{ONE_TURN}\n")).unwrap();
    let out_path = dir.path("games.fgn");
    for (on_go, tag) in [
        ("exit 3", "abandoned"),
        (":", "time forfeit"),
        ("echo 'bestmove e5-e4'", "illegal turn"),
        (r"printf '\377\n'", "protocol violation"),
    ] {
        let engine = fake(&dir, on_go);
        let started = Instant::now();
        let out = fanorona(&[
            "match",
            &engine,
            "greedy",
            "--games",
            "4",
            "--openings",
            &openings,
            "--turn-timeout",
            "300",
            "--json",
            "--out",
            &out_path,
        ]);
        assert!(started.elapsed() < Duration::from_secs(10));
        let v = json(&out);
        assert_eq!(v["games"], 4, "{on_go}");
        assert_eq!(v["losses"], 4);
        assert_eq!(v["faults"]["first"], 2);
        assert_eq!(v["terminations"][tag], 2, "{v}");
        assert_eq!(v["terminations"]["normal"], 2, "{v}");
        assert_eq!(v["games_written"], 4);
        let text = records(&out_path);
        assert_eq!(text.matches("[Event \"fanorona match\"]").count(), 4);
        assert_eq!(text.matches(&format!("[Termination \"{tag}\"]")).count(), 2);
        assert!(text.contains("White (fake) forfeits by"), "{text}");
        // The records replay by the rules, forfeits included.
        let check = fanorona(&["validate", &out_path]);
        assert!(check.status.success(), "{}", stdout(&check));
        let left: Vec<_> = std::fs::read_dir(&dir.0)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .filter(|n| n.to_string_lossy().contains("fanorona-tmp"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }
}

#[test]
fn setting_up_has_a_time_out_of_its_own_longer_than_the_handshake() {
    let dir = Dir::new();
    let openings = dir.path("one.txt");
    std::fs::write(&openings, format!("{ONE_TURN}\n")).unwrap();
    // An engine that takes a second to answer `isready`, as one loading endgame tables does.
    let engine = fake_engine(&dir, "sleep 1; echo readyok", "echo 'bestmove a1-b1A'");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "match",
            &engine,
            "random",
            "--games",
            "1",
            "--openings",
            &openings,
            "--handshake-timeout",
            "300",
            "--json",
        ];
        args.extend_from_slice(extra);
        fanorona(&args)
    };
    // `uciok` comes at once; each `readyok` waits on the setup time-out (default 60 s).
    let v = json(&run(&[]));
    assert_eq!(v["games"], 1, "{v}");
    assert_eq!(v["wins"], 1, "{v}");
    assert_eq!(v["faults"]["first"], 0, "{v}");
    // A setup time-out shorter than the engine's second is not waited past.
    let started = Instant::now();
    let out = run(&["--setup-timeout", "300"]);
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(!out.status.success(), "{}", stdout(&out));
    assert!(stderr(&out).contains("readyok"), "{}", stderr(&out));
}

#[test]
fn an_unwritable_out_path_fails_before_any_game() {
    let dir = Dir::new();
    let started = Instant::now();
    let missing = dir.path("no/such/folder/games.fgn");
    let out = fanorona(&[
        "match",
        "engine:movetime=2000",
        "engine:movetime=2000",
        "--games",
        "2",
        "--out",
        &missing,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("games.fgn"), "{}", stderr(&out));
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "no game was played"
    );
    // A read-only destination is not replaced, and the refusal comes first.
    let games = dir.path("games.fgn");
    std::fs::write(&games, "kept").unwrap();
    let mut perms = std::fs::metadata(&games).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&games, perms).unwrap();
    let out = fanorona(&["match", "random", "random", "--games", "2", "--out", &games]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("read-only"), "{}", stderr(&out));
    assert_eq!(records(&games), "kept");
    // Nor is the openings file.
    let openings = dir.path("one.txt");
    std::fs::write(&openings, format!("{ONE_TURN}\n")).unwrap();
    let out = fanorona(&[
        "match",
        "random",
        "random",
        "--openings",
        &openings,
        "--out",
        &openings,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(records(&openings), format!("{ONE_TURN}\n"));
}

#[test]
fn the_turn_limit_is_recorded_as_an_adjudication() {
    let dir = Dir::new();
    let games = dir.path("games.fgn");
    let out = fanorona(&[
        "match",
        "random",
        "random",
        "--games",
        "2",
        "--max-turns",
        "3",
        "--no-openings",
        "--json",
        "--out",
        &games,
    ]);
    let v = json(&out);
    assert_eq!(v["draws"], 2);
    assert_eq!(v["terminations"]["adjudication"], 2);
    let text = records(&games);
    assert_eq!(text.matches("[Termination \"adjudication\"]").count(), 2);
    assert!(text.contains("Draw adjudicated at the 3-turn limit"));
    assert!(!text.contains("agreement"));
}

#[test]
fn conflicting_or_bad_options_are_errors() {
    for (args, says) in [
        (
            vec!["match", "engine:depth=1:depth=2", "random"],
            "depth is given twice",
        ),
        (
            vec!["match", "engine:casual:strong", "random"],
            "more than one level",
        ),
        (vec!["match", "random", "random", "--sprt", "10,0"], "ELO0"),
        (
            vec!["match", "random", "random", "--sprt", "0"],
            "ELO0,ELO1",
        ),
        (
            vec![
                "match", "random", "random", "--sprt", "0,5", "--alpha", "0.7",
            ],
            "alpha",
        ),
        (
            vec!["match", "random", "random", "--alpha", "0.1"],
            "--sprt",
        ),
        (vec!["match", "random", "random", "--games", "0"], "games"),
        (
            vec!["match", "random", "random", "--concurrency", "0"],
            "concurrency",
        ),
    ] {
        let out = fanorona(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn an_sprt_stops_and_the_summary_has_pairs_elo_and_the_rerun_command() {
    let dir = Dir::new();
    let openings = dir.path("one.txt");
    std::fs::write(&openings, format!("{ONE_TURN}\n")).unwrap();
    // Whoever has White wins: every pair is 1-1, so H1 (+50) is rejected.
    let out = fanorona(&[
        "match",
        "random",
        "greedy",
        "--games",
        "1000",
        "--openings",
        &openings,
        "--sprt",
        "0,50",
        "--json",
    ]);
    let v = json(&out);
    assert_eq!(v["stop"], "sprt");
    assert_eq!(v["sprt"]["decision"], "H0");
    assert!(v["sprt"]["llr"].as_f64().unwrap() <= v["sprt"]["lower"].as_f64().unwrap());
    let games = v["games"].as_u64().unwrap();
    assert!(games < 1000 && games.is_multiple_of(2));
    assert_eq!(v["pentanomial"][2].as_u64().unwrap() * 2, games);
    assert_eq!(v["elo"], 0.0);
    assert_eq!(v["elo_basis"], "pairs");
    // The rerun command plays the same match.
    let command = v["command"].as_str().unwrap();
    assert!(command.starts_with("fanorona match random greedy --games 1000 "));
    assert!(command.contains("--sprt 0,50 --alpha 0.05 --beta 0.05"));
    let words: Vec<&str> = command.split(' ').skip(1).collect();
    let mut again = words.clone();
    again.push("--json");
    let w = json(&fanorona(&again));
    assert_eq!(w["pentanomial"], v["pentanomial"]);
    assert_eq!(w["command"], v["command"]);
    // Without --games an SPRT may play up to 100000 games.
    let v = json(&fanorona(&[
        "match",
        "random",
        "greedy",
        "--openings",
        &openings,
        "--sprt",
        "0,50",
        "--json",
    ]));
    assert_eq!(v["stop"], "sprt");
    assert!(v["command"].as_str().unwrap().contains("--games 100000"));
}

#[test]
fn the_rerun_command_writes_the_games_where_the_match_did() {
    let dir = Dir::new();
    let openings = dir.path("one.txt");
    std::fs::write(&openings, format!("{ONE_TURN}\n")).unwrap();
    let games = dir.path("games.fgn");
    for (resume, tail) in [
        (false, format!(" --out {games}")),
        (true, format!(" --out {games} --resume")),
    ] {
        let mut args = vec![
            "match",
            "random",
            "greedy",
            "--games",
            "2",
            "--openings",
            &openings,
            "--out",
            &games,
            "--json",
        ];
        if resume {
            args.push("--resume");
        }
        let v = json(&fanorona(&args));
        let command = v["command"].as_str().unwrap();
        assert!(command.ends_with(&tail), "{command}");
    }
}

#[test]
fn the_text_summary_names_the_conditions() {
    let out = fanorona(&[
        "match",
        "engine:depth=1",
        "random",
        "--games",
        "4",
        "--concurrency",
        "2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("pentanomial [0, 0, 0, 0, 2]"), "{text}");
    assert!(
        text.contains("the built-in 5x9 suite (300 positions)"),
        "{text}"
    );
    assert!(text.contains("rerun: fanorona match engine:depth=1 random --games 4"));
}

#[test]
fn openings_generates_a_suite_that_match_reads() {
    let dir = Dir::new();
    let suite = dir.path("5x5.txt");
    let args = [
        "openings",
        "--board",
        "5x5",
        "--plies",
        "2",
        "--count",
        "6",
        "--max-eval",
        "100",
        "--nodes",
        "2000",
        "--out",
        &suite,
    ];
    let out = fanorona(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = records(&suite);
    assert_eq!(text.lines().filter(|l| !l.starts_with('#')).count(), 6);
    assert!(text.contains("# Generated by: fanorona openings --board 5x5 --plies 2"));
    // Reproducible.
    let again = dir.path("again.txt");
    let mut args2 = args.to_vec();
    *args2.last_mut().unwrap() = &again;
    assert!(fanorona(&args2).status.success());
    assert_eq!(records(&again), text);
    let v = json(&fanorona(&[
        "match",
        "random",
        "random",
        "--games",
        "12",
        "--openings",
        &suite,
        "--json",
    ]));
    assert_eq!(v["openings"]["positions"], 6);
    assert_eq!(v["openings"]["distinct_starts"], 6);
    // A suite with a repeated position is refused, with the line.
    std::fs::write(&again, format!("{text}{}\n", text.lines().last().unwrap())).unwrap();
    let out = fanorona(&["match", "random", "random", "--openings", &again]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("same position as line"),
        "{}",
        stderr(&out)
    );
    // Impossible demands fail with advice.
    let out = fanorona(&[
        "openings", "--board", "3x3", "--plies", "1", "--count", "50", "--nodes", "100",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--max-tries"), "{}", stderr(&out));
}

#[test]
fn this_engine_plays_as_an_external_engine_under_the_match_rules() {
    // The engine protocol end to end: handshake, the rules once per game, position, go.
    let engine = format!("uci:{} engine", env!("CARGO_BIN_EXE_fanorona"));
    let v = json(&fanorona(&[
        "match",
        &engine,
        "engine:depth=1",
        "--games",
        "2",
        "--movetime",
        "20",
        "--max-turns",
        "30",
        "--stuck",
        "draws",
        "--json",
    ]));
    assert_eq!(v["games"], 2, "{v}");
    assert_eq!(v["faults"]["first"], 0, "{v}");
    assert_eq!(v["notes"].as_array().unwrap().len(), 0, "{v}");
    assert_eq!(v["openings"]["source"], "setup", "{v}");
    assert!(v["command"].as_str().unwrap().contains("--rules "));
}

#[test]
fn engine_options_reach_external_engines_and_are_confirmed() {
    let bin = env!("CARGO_BIN_EXE_fanorona");
    // Accepted: this engine takes Threads 2 (a 2-thread player against a 1-thread one).
    let engine = format!("uci:{bin} engine option.Threads=2 option.Hash=4");
    let v = json(&fanorona(&[
        "match",
        &engine,
        "engine:depth=2:threads=2",
        "--games",
        "2",
        "--nodes",
        "2000",
        "--max-turns",
        "20",
        "--no-openings",
        "--json",
    ]));
    assert_eq!(v["games"], 2, "{v}");
    assert_eq!(v["faults"]["first"], 0, "{v}");
    assert_eq!(v["first"], engine.as_str(), "{v}");
    assert_eq!(v["second"], "engine:depth=2:threads=2", "{v}");
    assert!(v["command"].as_str().unwrap().contains("option.Threads=2"));
    // Rejected by the engine (it answers an error to `setoption`): stopped before any game.
    let out = fanorona(&[
        "match",
        &format!("uci:{bin} engine option.Threads=0"),
        "random",
        "--games",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("the first player"), "{err}");
    assert!(err.contains("option Threads=0: rejected"), "{err}");
    assert!(err.contains("Threads takes a number from 1"), "{err}");
    // Not advertised after `uci`.
    let out = fanorona(&[
        "match",
        "random",
        &format!("uci:{bin} engine option.Ponder=true"),
        "--games",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("the second player"), "{err}");
    assert!(
        err.contains("option Ponder: not advertised after uci"),
        "{err}"
    );
    // Written wrong: a usage error naming the word.
    let out = fanorona(&["match", "random", "uci:./x option.Threads", "--games", "2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("option.NAME=VALUE"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_fake_engine_receives_its_options_in_order_before_the_first_game() {
    let dir = Dir::new();
    let log = dir.path("log.txt");
    let script = dir.path("engine.sh");
    std::fs::write(
        &script,
        format!(
            "while IFS= read -r line; do\n\
             echo \"$line\" >> {log}\n\
             case \"$line\" in\n\
             uci) echo 'id name fake'; echo 'option name Threads type spin default 1 min 1 max 8'; \
             echo 'option name Style type string default x'; echo uciok ;;\n\
             isready) echo readyok ;;\n\
             go*) echo 'bestmove a1-b1A' ;;\n\
             quit) exit 0 ;;\n\
             esac\n\
             done\n"
        ),
    )
    .unwrap();
    let openings = dir.path("one.txt");
    std::fs::write(&openings, format!("{ONE_TURN}\n")).unwrap();
    let engine = format!("uci:/bin/sh {script} option.Threads=3 option.Style=sharp");
    let out = fanorona(&[
        "match",
        &engine,
        "random",
        "--games",
        "1",
        "--openings",
        &openings,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines = records(&log);
    // The check before the match, then the game's own start: each time the options right
    // after `uciok`, in the order given, confirmed by `isready`.
    let expected =
        "uci\nsetoption name Threads value 3\nsetoption name Style value sharp\nisready\n";
    assert_eq!(lines.matches(expected).count(), 2, "{lines}");
    assert!(lines.starts_with(expected), "{lines}");
}

/// The games of a file, each its text.
fn raw_games(path: &str) -> Vec<String> {
    records(path)
        .split("[Event ")
        .filter(|g| !g.trim().is_empty())
        .map(|g| format!("[Event {}", g.trim_end()))
        .collect()
}

/// The games of a file, each its text without the timing tags (they differ from run to run).
fn games_of(path: &str) -> Vec<String> {
    raw_games(path)
        .iter()
        .map(|g| {
            g.lines()
                .filter(|l| !l.starts_with("[LongestTurnMs ") && !l.starts_with("[TurnTimesMs "))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect()
}

/// A match of fixed-node engines (the same games on any machine), randomised openings.
fn node_match(games: &str, out: &str) -> Vec<String> {
    [
        "match",
        "engine:nodes=400",
        "engine:v0:nodes=400",
        "--games",
        games,
        "--random-plies",
        "2",
        "--max-turns",
        "60",
        "--seed",
        "5",
        "--sprt=-20,20",
        "--out",
        out,
        "--json",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect()
}

fn run_owned(args: &[String]) -> std::process::Output {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    fanorona(&args)
}

/// The statistics of a match summary, without timings and the games-file counters.
fn statistics(v: &serde_json::Value) -> Vec<serde_json::Value> {
    [
        "games",
        "wins",
        "draws",
        "losses",
        "score",
        "elo",
        "elo_margin",
        "elo_games",
        "elo_games_margin",
        "pairs",
        "pentanomial",
        "faults",
        "terminations",
        "repeated_games",
        "sprt",
        "stop",
        "openings",
    ]
    .iter()
    .map(|k| v[*k].clone())
    .collect()
}

#[test]
fn a_resumed_match_gives_the_games_and_statistics_of_one_played_at_once() {
    let dir = Dir::new();
    let whole = dir.path("whole.fgn");
    let at_once = json(&run_owned(&node_match("8", &whole)));
    assert_eq!(at_once["games"], 8, "{at_once}");
    assert_eq!(at_once["resumed"], 0);
    // In three sittings: 3 games (a pair cut in half), then to 6, then to 8.
    let parts = dir.path("parts.fgn");
    let first = json(&run_owned(&node_match("3", &parts)));
    assert_eq!(first["games"], 3);
    let mut resume = node_match("6", &parts);
    resume.push("--resume".into());
    let second = json(&run_owned(&resume));
    assert_eq!(
        (second["resumed"].clone(), second["games"].clone()),
        (3.into(), 6.into())
    );
    assert_eq!(second["games_written"], 3);
    let mut resume = node_match("8", &parts);
    resume.push("--resume".into());
    let third = json(&run_owned(&resume));
    assert_eq!(third["resumed"], 6);
    // A negative SPRT bound is written so that the rerun command reads it back.
    assert!(
        third["command"]
            .as_str()
            .unwrap()
            .contains(" --sprt=-20,20 "),
        "{third}"
    );
    assert_eq!(statistics(&third), statistics(&at_once));
    assert_eq!(games_of(&parts), games_of(&whole));
    // A games file with games missing in the middle (an interruption with games running at
    // once): the missing ones are played, in their places in the statistics.
    let gaps = dir.path("gaps.fgn");
    let kept: Vec<String> = raw_games(&whole)
        .into_iter()
        .enumerate()
        .filter(|(i, _)| [0, 1, 2, 4].contains(i))
        .map(|(_, g)| format!("{g}\n\n"))
        .collect();
    // (Its end without a line break, as an editor may leave it.)
    std::fs::write(&gaps, kept.concat().trim_end()).unwrap();
    let mut resume = node_match("8", &gaps);
    resume.push("--resume".into());
    let filled = json(&run_owned(&resume));
    assert_eq!(filled["resumed"], 4);
    assert_eq!(statistics(&filled), statistics(&at_once));
    let mut filled_games = games_of(&gaps);
    filled_games.sort_by_key(|g| {
        let round = g.split("[Round \"").nth(1).unwrap();
        round[..round.find('"').unwrap()].parse::<usize>().unwrap()
    });
    assert_eq!(filled_games, games_of(&whole));
    // A missing file starts the match.
    let fresh = dir.path("fresh.fgn");
    let mut resume = node_match("2", &fresh);
    resume.push("--resume".into());
    let started = json(&run_owned(&resume));
    assert_eq!(
        (started["resumed"].clone(), started["games"].clone()),
        (0.into(), 2.into())
    );
}

#[test]
fn games_of_another_match_are_refused_and_the_file_is_left_alone() {
    let dir = Dir::new();
    let path = dir.path("games.fgn");
    json(&run_owned(&node_match("2", &path)));
    let before = std::fs::read(&path).unwrap();
    let changed = |from: &str, to: &str| -> Vec<String> {
        let mut args = node_match("4", &path);
        let i = args.iter().position(|a| a == from).unwrap();
        args[i] = to.to_owned();
        args.push("--resume".into());
        args
    };
    for (args, says) in [
        (
            changed("engine:v0:nodes=400", "engine:v0:nodes=500"),
            "played with another second player: MatchSecond is \"engine:v0:nodes=400\", this match's is \"engine:v0:nodes=500\"",
        ),
        (changed("5", "6"), "another seed (--seed)"),
        (changed("60", "61"), "another turn limit (--max-turns)"),
        (
            changed("--sprt=-20,20", "--stuck=draws"),
            "played under the rules opening-restriction=off,compulsory-continuation=off,stuck=loses,",
        ),
        (
            changed("4", "1"),
            "the finished game of round 2: the match has 1 games",
        ),
    ] {
        let out = run_owned(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains(&path), "{err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(std::fs::read(&path).unwrap(), before, "{args:?}");
    }
    // Games not written by `fanorona match` (or before its settings tags).
    let other = dir.path("other.fgn");
    std::fs::write(&other, "[Event \"club\"]\n\n1. f2-e3A *\n").unwrap();
    let mut args = node_match("2", &other);
    args.push("--resume".into());
    let out = run_owned(&args);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("other.fgn:1:1: game 1: not a game of `fanorona match`"),
        "{}",
        stderr(&out)
    );
    let untagged = records(&path).replace("[MatchSeed \"5\"]\n", "");
    std::fs::write(&other, &untagged).unwrap();
    let out = run_owned(&args);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("game 1 (round 1): no [MatchSeed] tag"),
        "{}",
        stderr(&out)
    );
    assert_eq!(records(&other), untagged);
    // Hostile values: a time beyond any duration, a round beyond any number.
    let text = records(&path);
    let timing = text
        .lines()
        .find(|l| l.starts_with("[LongestTurnMs "))
        .unwrap();
    for (from, to) in [
        (timing, "[LongestTurnMs \"1e308,1\"]"),
        (timing, "[LongestTurnMs \"-1,1\"]"),
        ("[Round \"1\"]", "[Round \"99999999999999999999999\"]"),
        ("[Round \"1\"]", "[Round \"18446744073709551615\"]"),
    ] {
        std::fs::write(&other, text.replacen(from, to, 1)).unwrap();
        let out = run_owned(&args);
        assert_eq!(out.status.code(), Some(2), "{to}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
        assert!(stderr(&out).contains("other.fgn"), "{}", stderr(&out));
    }
    // --resume needs --out.
    let out = fanorona(&["match", "random", "random", "--resume"]);
    assert_eq!(out.status.code(), Some(2));
}

// ---------------------------------------------------------------------------------------------
// Issue 26, part A: what is kept of an external engine's handshake is bounded.
// ---------------------------------------------------------------------------------------------

/// An engine that lists more options before `uciok` than any engine has (1,500), or an
/// option name of 300 bytes: a protocol error naming the limit, before the first game, in
/// bounded memory (before, every option was kept: 1.5 million of them grew the match to
/// 800 MB).
#[test]
fn a_handshake_with_too_many_or_too_long_options_is_refused() {
    let dir = Dir::new();
    let long = "x".repeat(300);
    for (uci, says) in [
        (
            "i=0; while [ $i -lt 1500 ]; do echo \"option name O$i type check default false\"; \
             i=$((i+1)); done; echo uciok"
                .to_owned(),
            "more than 1000 options before uciok",
        ),
        (
            format!("echo 'option name {long} type check default false'; echo uciok"),
            "an option name of 300 bytes before uciok (at most 256)",
        ),
    ] {
        let script = dir.path("many.sh");
        std::fs::write(
            &script,
            format!(
                "while IFS= read -r line; do\n\
                 case \"$line\" in\n\
                 uci) {uci} ;;\n\
                 isready) echo readyok ;;\n\
                 quit) exit 0 ;;\n\
                 esac\n\
                 done\n"
            ),
        )
        .unwrap();
        let started = Instant::now();
        let out = fanorona(&[
            "match",
            &format!("uci:/bin/sh {script}"),
            "random",
            "--games",
            "2",
        ]);
        assert!(started.elapsed() < Duration::from_secs(20));
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(stderr(&out).contains(says), "{}", stderr(&out));
    }
    // A few hundred options, as a real engine may list, are fine.
    let script = dir.path("fine.sh");
    std::fs::write(
        &script,
        "while IFS= read -r line; do\n\
         case \"$line\" in\n\
         uci) i=0; while [ $i -lt 300 ]; do echo \"option name O$i type check default false\"; \
         i=$((i+1)); done; echo uciok ;;\n\
         isready) echo readyok ;;\n\
         go*) echo 'bestmove (none)' ;;\n\
         quit) exit 0 ;;\n\
         esac\n\
         done\n",
    )
    .unwrap();
    let out = fanorona(&[
        "match",
        &format!("uci:/bin/sh {script} option.O7=true"),
        "random",
        "--games",
        "2",
        "--json",
    ]);
    assert!(
        !stderr(&out).contains("options before uciok"),
        "{}",
        stderr(&out)
    );
}

/// The turn times: the wall time the match measured beside the search time the engine
/// reported (`info ... time`), their distribution in the summary, and the per-game tag read
/// back on --resume.
#[test]
fn turn_times_show_the_engines_own_time_beside_the_wall_time() {
    let dir = Dir::new();
    let openings = dir.path("one.txt");
    std::fs::write(&openings, format!("{ONE_TURN}\n")).unwrap();
    let out_path = dir.path("games.fgn");
    // It says it searched 50 ms, but answers after 300 ms: 250 ms are not its search's.
    let engine = fake(
        &dir,
        "echo 'info depth 1 score cp 0 time 50 pv a1-b1A'; echo 'info nodes 9 time 50'; \
         sleep 0.3; echo 'bestmove a1-b1A'",
    );
    let run = |games: &str, resume: bool| {
        let mut args = vec![
            "match",
            &engine,
            "random",
            "--games",
            games,
            "--openings",
            &openings,
            "--movetime",
            "100",
            "--out",
            &out_path,
            "--json",
        ];
        if resume {
            args.push("--resume");
        }
        json(&fanorona(&args))
    };
    // Game 1: the engine has White and wins with its one turn; game 2: random has White and
    // wins with its only legal turn, so the engine plays one turn in all.
    let v = run("2", false);
    let first = &v["turn_times_ms"]["first"];
    assert_eq!(first["turns"], 1, "{v}");
    let wall = first["max"].as_f64().unwrap();
    assert!(wall >= 300.0, "{v}");
    assert_eq!(first["median"], first["max"], "{v}");
    assert_eq!(first["over_movetime"], 1, "{v}");
    let search = &v["search_times_ms"]["first"];
    assert_eq!(
        (search["turns"].as_u64(), search["max"].as_f64()),
        (Some(1), Some(50.0)),
        "{v}"
    );
    assert_eq!(search["over_movetime"], 0, "{v}");
    // Random reports no search time.
    assert_eq!(v["turn_times_ms"]["second"]["turns"], 1, "{v}");
    assert_eq!(v["search_times_ms"]["second"]["turns"], 0, "{v}");
    let text = records(&out_path);
    let tag = text
        .lines()
        .find(|l| l.starts_with("[TurnTimesMs "))
        .unwrap();
    assert!(tag.ends_with("/50.0\"]"), "{tag}");
    // Resumed: the times of the games in the file are counted again from their tags.
    let v = run("4", true);
    assert_eq!(v["turn_times_ms"]["first"]["turns"], 2, "{v}");
    assert_eq!(v["search_times_ms"]["first"]["turns"], 2, "{v}");
    assert_eq!(v["search_times_ms"]["first"]["median"], 50.0, "{v}");
    // The text summary says both.
    let out = fanorona(&[
        "match",
        &engine,
        "random",
        "--games",
        "4",
        "--openings",
        &openings,
        "--movetime",
        "100",
        "--out",
        &out_path,
        "--resume",
    ]);
    let summary = stdout(&out);
    assert!(
        summary.contains("turn times, first player: median ")
            && summary.contains("2 over --movetime; the engine's own search times: median 50.0, p99 50.0, max 50.0 ms, 0 over --movetime"),
        "{summary}"
    );
}

/// A match on a game clock: the clocks go to the engine with `go`, a turn past its clock and
/// the margin loses on time, and the time control is in the games file and the summary.
#[test]
fn a_game_clock_is_sent_and_a_turn_past_it_loses_on_time() {
    let dir = Dir::new();
    let openings = dir.path("one.txt");
    std::fs::write(&openings, format!("{ONE_TURN}\n")).unwrap();
    let log = dir.path("go.log");
    let out_path = dir.path("games.fgn");
    let run = |engine: &str| {
        json(&fanorona(&[
            "match",
            engine,
            "random",
            "--games",
            "1",
            "--openings",
            &openings,
            "--tc",
            "0.3+0.1",
            "--time-margin",
            "50",
            "--out",
            &out_path,
            "--json",
        ]))
    };
    // Answers at once: wins with its one turn, and was told both clocks.
    let quick = fake(
        &dir,
        &format!("echo \"$line\" >> {log}; echo 'bestmove a1-b1A'"),
    );
    let v = run(&quick);
    assert_eq!(
        (v["wins"].as_u64(), v["time_control"].as_str()),
        (Some(1), Some("0.3+0.1")),
        "{v}"
    );
    assert_eq!(
        std::fs::read_to_string(&log).unwrap().trim(),
        "go wtime 300 btime 300 winc 100 binc 100"
    );
    let text = records(&out_path);
    assert!(text.contains("[TimeControl \"0.3+0.1\"]"), "{text}");
    assert!(text.contains("[MatchLimits \"tc=0.3+0.1\"]"), "{text}");
    // Answers after 0.6 s, past its 0.3 s and the 50 ms margin: lost on time.
    let slow = fake(&dir, "sleep 0.6; echo 'bestmove a1-b1A'");
    let v = run(&slow);
    assert_eq!(v["losses"], 1, "{v}");
    assert_eq!(v["terminations"]["time forfeit"], 1, "{v}");
    let text = records(&out_path);
    assert!(
        text.contains("forfeits by time-out: lost on time: the turn took "),
        "{text}"
    );
    assert!(
        text.contains("with 300.0 ms on its clock (margin 50 ms)"),
        "{text}"
    );
}

/// Shards played as separate processes, merged, give the statistics of the whole match played
/// in one place (fixed-node players: the same games anywhere); a file given twice, a shard
/// missing and another match's games are refused.
#[test]
fn shards_merged_give_the_whole_match() {
    let dir = Dir::new();
    let whole = dir.path("whole.fgn");
    let at_once = json(&run_owned(&node_match("10", &whole)));
    let shards: Vec<String> = (1..=3)
        .map(|k| dir.path(&format!("shard{k}.fgn")))
        .collect();
    let children: Vec<std::process::Child> = shards
        .iter()
        .enumerate()
        .map(|(k, out)| {
            let mut args = node_match("10", out);
            args.extend(["--shard".to_owned(), format!("{}/3", k + 1)]);
            std::process::Command::new(env!("CARGO_BIN_EXE_fanorona"))
                .args(&args)
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    // Pairs 0..5 go to shards 1, 2, 3, 1, 2: 4, 4 and 2 games.
    let counts: Vec<usize> = shards.iter().map(|s| raw_games(s).len()).collect();
    assert_eq!(counts, [4, 4, 2]);
    assert!(records(&shards[1]).contains("[MatchShard \"2/3\"]"));
    let merge = |files: &[&String]| {
        let mut args = node_match("10", "unused");
        let at = args.iter().position(|a| a == "--out").unwrap();
        args.drain(at..at + 2);
        args.push("--merge".to_owned());
        args.extend(files.iter().map(|f| (*f).clone()));
        run_owned(&args)
    };
    let merged = json(&merge(&[&shards[2], &shards[0], &shards[1]]));
    assert_eq!(merged["merged_files"], 3);
    assert_eq!(statistics(&merged), statistics(&at_once));
    // The games of the shards are the games of the whole match.
    let mut games: Vec<String> = shards.iter().flat_map(|s| games_of(s)).collect();
    let strip = |g: &String| {
        g.lines()
            .filter(|l| !l.starts_with("[MatchShard "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let round = |g: &String| -> usize {
        let l = g.lines().find(|l| l.starts_with("[Round ")).unwrap();
        l[8..l.len() - 2].parse().unwrap()
    };
    games.sort_by_key(round);
    let games: Vec<String> = games.iter().map(strip).collect();
    assert_eq!(games, games_of(&whole));
    // Refused: a file twice, a shard missing, another match's games.
    let twice = merge(&[&shards[0], &shards[1], &shards[1]]);
    assert!(!twice.status.success());
    assert!(stderr(&twice).contains("is in "), "{}", stderr(&twice));
    let missing = merge(&[&shards[0], &shards[1]]);
    assert!(!missing.status.success());
    assert!(
        stderr(&missing).contains("2 rounds missing (rounds 5, 6)"),
        "{}",
        stderr(&missing)
    );
    let other = dir.path("other.fgn");
    let mut args = node_match("2", &other);
    let seed = args.iter().position(|a| a == "5").unwrap();
    args[seed] = "6".to_owned();
    json(&run_owned(&args));
    let foreign = merge(&[&shards[0], &shards[1], &shards[2], &other]);
    assert!(!foreign.status.success());
    assert!(
        stderr(&foreign).contains("another seed"),
        "{}",
        stderr(&foreign)
    );
}

#[test]
fn games_played_again_turn_for_turn_are_counted_and_said() {
    let dir = Dir::new();
    let openings = dir.path("one.txt");
    std::fs::write(&openings, format!("{ONE_TURN}\n")).unwrap();
    let args = |json: bool| {
        let mut a = vec![
            "match",
            "engine:depth=1",
            "engine:depth=1",
            "--games",
            "6",
            "--openings",
            &openings,
        ];
        if json {
            a.push("--json");
        }
        fanorona(&a)
    };
    // One start, White's one legal turn: the first pair's two games (the first player White,
    // then Black) come again in the other two pairs.
    let v = json(&args(true));
    assert_eq!(v["repeated_games"], 4, "{v}");
    let out = args(false);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("  repeated games: 4 of 6 played exactly as an earlier game"),
        "{}",
        stdout(&out)
    );
}

use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::*;

/// White a1, Black c1: White to move wins at once with a1-b1A (whoever has White).
const ONE_TURN: &str = "9/9/9/9/W1B6 w";

fn one_turn() -> Position {
    Position::from_fen(ONE_TURN).unwrap()
}

fn config(games: usize) -> MatchConfig {
    MatchConfig {
        games,
        openings: vec![one_turn()],
        timeouts: Timeouts {
            // Starting a shell script can take longer than a turn's wait on a loaded machine
            // (a well-behaved fake once missed 300 ms for `uciok` while Bevy was compiling):
            // the handshake gets more room; the tests of engines that never answer it stay
            // well within their bounds.
            handshake: Duration::from_secs(1),
            setup: Duration::from_secs(1),
            ..Timeouts::all(Duration::from_millis(300))
        },
        ..MatchConfig::default()
    }
}

fn run(first: &str, second: &str, config: &MatchConfig) -> MatchResult {
    play_match(
        &first.parse().unwrap(),
        &second.parse().unwrap(),
        config,
        |_, _| Ok(()),
    )
    .unwrap()
}

#[test]
fn colours_alternate_and_results_count_for_the_first_player() {
    let config = MatchConfig {
        games: 4,
        concurrency: 2,
        ..MatchConfig::default()
    };
    let r = run("engine:depth=2", "random", &config);
    assert_eq!(r.games.len(), 4);
    for (i, g) in r.games.iter().enumerate() {
        assert_eq!(g.index, i);
        assert_eq!(g.first_is_white, i % 2 == 0);
        let o = g.game.outcome().unwrap();
        assert_eq!(g.winner, o.winner);
        assert_eq!(g.termination, Termination::Rules(o.reason));
    }
    // A depth-2 search beats random play.
    assert_eq!(r.tally.wins, 4, "{r:?}");
    assert_eq!(r.tally.pentanomial.counts, [0, 0, 0, 0, 2]);
    assert_eq!(r.stop, Stop::Completed);
}

#[test]
fn pairs_are_scored_pentanomially() {
    // Whoever has White wins: every pair is 1-1.
    let r = run("random", "greedy", &config(6));
    assert_eq!((r.tally.wins, r.tally.losses), (3, 3));
    assert_eq!(r.tally.pentanomial.counts, [0, 0, 3, 0, 0]);
    assert_eq!(r.distinct_starts, 1);
    // White's one legal turn wins: the first pair's two games (the first player White, then
    // Black) are played again, turn for turn, by the other two pairs.
    assert_eq!(r.tally.repeated_games, 4);
}

#[test]
fn random_openings_are_shared_by_a_pair_and_differ_between_pairs() {
    let config = MatchConfig {
        games: 8,
        random_plies: 3,
        max_turns: 0,
        ..MatchConfig::default()
    };
    let r = run("random", "random", &config);
    let starts: Vec<Position> = r.games.iter().map(|g| *g.game.start()).collect();
    for k in 0..4 {
        assert_eq!(starts[2 * k], starts[2 * k + 1]);
    }
    let distinct: HashSet<Position> = starts.iter().copied().collect();
    assert_eq!(distinct.len(), 4);
    assert_eq!(r.distinct_starts, 4);
    assert_eq!(starts[0].turn_number(), 2); // three turns: White, Black, White
    assert!(r.notes.is_empty(), "{:?}", r.notes);
    // A game's start and colours are never those of an earlier game.
    assert_eq!(r.tally.repeated_games, 0);
}

#[test]
fn other_seeds_draw_other_random_openings() {
    // From one opening, the pairs of seed 1 and of seed 2 start from different positions
    // (a seed only XORed with the pair number would give both the same four, reordered).
    let starts = |seed: u64| -> HashSet<Position> {
        let config = MatchConfig {
            games: 8,
            openings: vec![Position::standard()],
            random_plies: 4,
            max_turns: 0,
            seed,
            ..MatchConfig::default()
        };
        let r = run("random", "random", &config);
        r.games.iter().map(|g| *g.game.start()).collect()
    };
    let (one, two) = (starts(1), starts(2));
    assert_eq!((one.len(), two.len()), (4, 4));
    assert!(one.is_disjoint(&two));
}

#[test]
fn random_openings_are_deduplicated_and_repeats_are_reported() {
    // On 3x3 one random turn from the setup reaches only a few positions: once they are all
    // used, the repeats are said.
    let opening = Position::start(fanorona_core::BoardSize::TELO);
    let few: HashSet<Position> = opening
        .legal_turns()
        .iter()
        .map(|t| opening.play_unchecked(t))
        .collect();
    let config = MatchConfig {
        games: 2 * (few.len() + 3),
        openings: vec![opening],
        random_plies: 1,
        max_turns: 0,
        ..MatchConfig::default()
    };
    let r = run("random", "random", &config);
    assert_eq!(r.distinct_starts, few.len());
    let firsts: Vec<Position> = r.games[..2 * few.len()]
        .iter()
        .step_by(2)
        .map(|g| *g.game.start())
        .collect();
    assert_eq!(firsts.iter().collect::<HashSet<_>>().len(), few.len());
    assert!(r.notes[0].starts_with("3 of"), "{:?}", r.notes);
}

#[test]
fn the_turn_limit_is_an_adjudication_not_an_agreement() {
    let mut a = PlayerSpec::Random.build(1, None).unwrap();
    let mut b = PlayerSpec::Random.build(2, None).unwrap();
    let end = play_game(a.as_mut(), b.as_mut(), Position::standard(), 3);
    assert_eq!(end.game.turns().len(), 3);
    assert_eq!(end.winner, None);
    assert_eq!(end.termination, Termination::Adjudicated { turns: 3 });
    assert_eq!(end.termination.tag(), "adjudication");
}

#[test]
fn an_sprt_stops_the_match_when_it_decides_with_pairs_complete() {
    // Every pair is 1-1 (score 50%): H1 (+50 Elo) is rejected long before 400 games.
    for concurrency in [1, 3] {
        let config = MatchConfig {
            games: 400,
            concurrency,
            sprt: Some(Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap()),
            ..config(0)
        };
        let r = run("random", "greedy", &config);
        let Stop::Sprt {
            decision, status, ..
        } = r.stop
        else {
            panic!("{:?}", r.stop)
        };
        assert_eq!(decision, SprtDecision::H0);
        assert!(status.llr <= status.lower);
        assert!(r.games.len() < 400);
        assert_eq!(r.games.len() % 2, 0, "pairs complete");
        assert_eq!(r.tally.pentanomial.pairs() as usize * 2, r.games.len());
        assert_eq!(
            r.tally.sprt.unwrap().llr,
            config.sprt.unwrap().llr(&r.tally.pentanomial)
        );
    }
}

#[test]
fn a_failing_callback_stops_the_match_and_keeps_what_was_played() {
    let calls = Mutex::new(0);
    let r = play_match(
        &"random".parse().unwrap(),
        &"greedy".parse().unwrap(),
        &config(10),
        |_, _| {
            let mut c = calls.lock().unwrap();
            *c += 1;
            if *c == 3 {
                Err("disk full".into())
            } else {
                Ok(())
            }
        },
    )
    .unwrap();
    assert_eq!(r.stop, Stop::Aborted("disk full".into()));
    // Game 2 failed to be written; game 3 completes its pair.
    assert_eq!(r.games.len(), 4);
}

#[test]
fn zero_games_is_an_error() {
    let e = play_match(
        &PlayerSpec::Random,
        &PlayerSpec::Random,
        &config(0),
        |_, _| Ok(()),
    )
    .unwrap_err();
    assert!(matches!(e, MatchError::Config(_)));
}

/// Fake engines: shell scripts run by `/bin/sh` (so no script is ever executed while being
/// written).
#[cfg(unix)]
mod fake {
    use std::path::PathBuf;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    static NEXT: AtomicUsize = AtomicUsize::new(0);

    pub struct Fake {
        pub dir: PathBuf,
    }

    impl Drop for Fake {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }

    pub const UCI: &str =
        r#"echo "id name fake"; echo "option name Rules type string default standard"; echo uciok"#;

    /// A fake engine: `uci` answers `on_uci`, `go` runs `on_go`, `quit` runs `on_quit`, and
    /// `after` runs at the end of input. `$DIR` is its own folder.
    pub fn engine(on_uci: &str, on_go: &str, on_quit: &str, after: &str) -> (Fake, String) {
        let dir = std::env::temp_dir().join(format!(
            "fanorona-fake-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let script = dir.join("engine.sh");
        let text = format!(
            "DIR='{}'\n\
             while IFS= read -r line; do\n\
             case \"$line\" in\n\
             uci) {on_uci} ;;\n\
             isready) echo readyok ;;\n\
             go*) {on_go} ;;\n\
             quit) {on_quit} ;;\n\
             esac\n\
             done\n\
             {after}\n",
            dir.display()
        );
        std::fs::write(&script, text).unwrap();
        let spec = format!("uci:/bin/sh {}", script.display());
        (Fake { dir }, spec)
    }

    /// Plays a 4-game match of the fake (first) against greedy from the one-turn opening.
    pub fn against_greedy(spec: &str) -> MatchResult {
        let started = Instant::now();
        let r = run(spec, "greedy", &config(4));
        assert!(started.elapsed() < Duration::from_secs(10));
        assert_eq!(r.games.len(), 4, "the match goes on: {r:?}");
        r
    }

    /// The fault of the fake's White game (game 0), which it loses.
    pub fn fault(r: &MatchResult) -> (FaultKind, String) {
        let g = &r.games[0];
        assert_eq!(g.winner, Some(Color::Black));
        match &g.termination {
            Termination::Forfeit {
                loser: Color::White,
                kind,
                detail,
            } => (*kind, detail.clone()),
            t => panic!("{t:?}"),
        }
    }
}

#[cfg(unix)]
#[test]
fn a_well_behaved_fake_plays_its_games() {
    let (_f, spec) = fake::engine(fake::UCI, "echo 'bestmove a1-b1A'", "exit 0", "");
    let r = fake::against_greedy(&spec);
    assert_eq!(r.tally.pentanomial.counts, [0, 0, 2, 0, 0]);
    assert_eq!(r.games[0].white, "fake");
    assert!(r.notes.is_empty());
}

#[cfg(unix)]
#[test]
fn an_engine_that_never_answers_go_loses_on_time_and_the_match_goes_on() {
    let (_f, spec) = fake::engine(fake::UCI, ":", "exit 0", "");
    let r = fake::against_greedy(&spec);
    let (kind, detail) = fake::fault(&r);
    assert_eq!(kind, FaultKind::Timeout);
    assert!(detail.contains("no bestmove"), "{detail}");
    assert_eq!(r.games[0].termination.tag(), "time forfeit");
    assert_eq!((r.tally.losses, r.tally.first_faults), (4, 2));
}

#[cfg(unix)]
#[test]
fn an_engine_that_crashes_mid_game_loses() {
    let (_f, spec) = fake::engine(fake::UCI, "exit 3", "exit 0", "");
    let r = fake::against_greedy(&spec);
    let (kind, detail) = fake::fault(&r);
    assert_eq!(kind, FaultKind::Crash);
    assert!(detail.contains("ended"), "{detail}");
    assert_eq!(r.games[0].termination.tag(), "abandoned");
}

#[cfg(unix)]
#[test]
fn an_engine_that_plays_an_illegal_turn_loses() {
    for answer in ["e5-e4", "a1-a2", "%%%", ""] {
        let (_f, spec) = fake::engine(
            fake::UCI,
            &format!("echo 'bestmove {answer}'"),
            "exit 0",
            "",
        );
        let r = fake::against_greedy(&spec);
        let (kind, _) = fake::fault(&r);
        assert_eq!(kind, FaultKind::IllegalTurn, "{answer}");
        assert_eq!(r.games[0].termination.tag(), "illegal turn");
    }
}

#[cfg(unix)]
#[test]
fn an_engine_that_prints_garbage_loses() {
    // Bytes that are not UTF-8, then a line longer than the cap: protocol violations.
    for garbage in [
        r"printf '\377\376garbage\n'",
        "head -c 70000 /dev/zero | tr '\\0' x; echo",
    ] {
        let (_f, spec) = fake::engine(fake::UCI, garbage, "exit 0", "");
        let r = fake::against_greedy(&spec);
        let (kind, detail) = fake::fault(&r);
        assert_eq!(kind, FaultKind::Protocol, "{detail}");
        assert_eq!(r.games[0].termination.tag(), "protocol violation");
    }
}

#[cfg(unix)]
#[test]
fn an_engine_that_ignores_quit_is_killed() {
    // It keeps running after quit and after the end of its input.
    let (_f, spec) = fake::engine(
        fake::UCI,
        "echo 'bestmove a1-b1A'",
        ":",
        "while true; do sleep 0.05; done",
    );
    let started = Instant::now();
    let r = fake::against_greedy(&spec);
    assert_eq!(r.tally.pentanomial.counts, [0, 0, 2, 0, 0]);
    // Five processes (one check, four games), each waited for 300 ms and then killed.
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[cfg(unix)]
#[test]
fn an_engine_that_never_sends_uciok_is_refused_before_the_match() {
    let (_f, spec) = fake::engine(":", ":", "exit 0", "");
    let started = Instant::now();
    let e = play_match(
        &spec.parse().unwrap(),
        &PlayerSpec::Greedy,
        &config(4),
        |_, _| Ok(()),
    )
    .unwrap_err();
    // The 1 s handshake wait and a little more, never the whole match.
    assert!(started.elapsed() < Duration::from_secs(5));
    match e {
        MatchError::Player {
            which: "first",
            error: PlayerError::Timeout { waiting_for, .. },
        } => assert_eq!(waiting_for, "uciok"),
        e => panic!("{e:?}"),
    }
}

#[cfg(unix)]
#[test]
fn an_engine_that_stops_answering_uciok_later_loses_its_games() {
    // The first start (the check before the match) answers; later ones do not.
    let (_f, spec) = fake::engine(
        r#"n=$(cat "$DIR/starts" 2>/dev/null || echo 0); echo $((n + 1)) > "$DIR/starts"; if [ "$n" = 0 ]; then echo uciok; fi"#,
        "echo 'bestmove a1-b1A'",
        "exit 0",
        "",
    );
    let r = fake::against_greedy(&spec);
    let (kind, detail) = fake::fault(&r);
    assert_eq!(kind, FaultKind::Timeout);
    assert!(detail.contains("uciok"), "{detail}");
    for g in &r.games {
        assert!(matches!(g.termination, Termination::Forfeit { .. }));
        assert_eq!(g.game.turns().len(), 0);
    }
}

#[cfg(unix)]
#[test]
fn rule_options_are_confirmed_or_the_engine_is_refused() {
    let rules: fanorona_core::Rules = "stuck=draws".parse().unwrap();
    let odd = MatchConfig {
        openings: vec![Position::from_fen_with(ONE_TURN, rules).unwrap()],
        ..config(2)
    };
    let check = |spec: &str, config: &MatchConfig| {
        play_match(
            &spec.parse().unwrap(),
            &PlayerSpec::Greedy,
            config,
            |_, _| Ok(()),
        )
    };
    // No rule option advertised: refused under other rules, a note under the standard ones.
    let (_f, bare) = fake::engine(
        "echo 'id name bare'; echo uciok",
        "echo 'bestmove a1-b1A'",
        "exit 0",
        "",
    );
    match check(&bare, &odd).unwrap_err() {
        MatchError::Player {
            error: PlayerError::Unsupported { option, .. },
            ..
        } => assert_eq!(option, "Rules"),
        e => panic!("{e:?}"),
    }
    let r = check(&bare, &config(2)).unwrap();
    assert_eq!(r.notes.len(), 1);
    assert!(r.notes[0].contains("standard rules"), "{:?}", r.notes);
    // Advertised but rejected with an error line: refused.
    let (_f, rejecting) = fake::engine(fake::UCI, "echo 'bestmove a1-b1A'", "exit 0", "");
    let text = std::fs::read_to_string(_f.dir.join("engine.sh"))
        .unwrap()
        .replace(
            "isready) echo readyok ;;",
            "setoption*) echo 'info string error: no such rules' ;;\nisready) echo readyok ;;",
        );
    std::fs::write(_f.dir.join("engine.sh"), text).unwrap();
    let e = check(&rejecting, &odd).unwrap_err();
    assert!(e.to_string().contains("no such rules"), "{e}");
    // What is sent: the rules once per game, before isready.
    let (_f, logging) = fake::engine(fake::UCI, "echo 'bestmove a1-b1A'", "exit 0", "");
    let text = std::fs::read_to_string(_f.dir.join("engine.sh"))
        .unwrap()
        .replace(
            "while IFS= read -r line; do\n",
            "while IFS= read -r line; do\necho \"$line\" >> \"$DIR/log\"\n",
        );
    std::fs::write(_f.dir.join("engine.sh"), text).unwrap();
    let r = check(&logging, &odd).unwrap();
    assert_eq!(r.games.len(), 2);
    let log = std::fs::read_to_string(_f.dir.join("log")).unwrap();
    let set = "setoption name Rules value ";
    // Three processes (the check and two games), the rules once each.
    assert_eq!(log.matches(set).count(), 3, "{log}");
    assert!(log.contains(&format!("{set}{}", rules.to_full_string())));
    let lines: Vec<&str> = log.lines().collect();
    let at = lines.iter().position(|l| l.starts_with(set)).unwrap();
    assert_eq!(lines[at + 1], "isready");
}

#[test]
fn without_kept_games_the_callback_sees_every_game_and_the_counts_are_whole() {
    let seen = Mutex::new(Vec::new());
    let config = MatchConfig {
        keep_games: false,
        concurrency: 2,
        ..config(8)
    };
    let r = play_match(&PlayerSpec::Random, &PlayerSpec::Greedy, &config, |g, t| {
        seen.lock().unwrap().push(g.index);
        assert_eq!(t.games(), seen.lock().unwrap().len());
        Ok(())
    })
    .unwrap();
    assert!(r.games.is_empty());
    let mut seen = seen.into_inner().unwrap();
    seen.sort_unstable();
    assert_eq!(seen, (0..8).collect::<Vec<_>>());
    assert_eq!(r.tally.games(), 8);
    assert_eq!(r.tally.pentanomial.pairs(), 4);
    assert_eq!(r.tally.terminations.get("normal"), Some(&8));
}

#[cfg(unix)]
#[test]
fn an_engine_that_floods_its_output_loses_on_time() {
    // It answers `go` with endless info lines and no bestmove.
    let (_f, spec) = fake::engine(fake::UCI, "exec yes 'info string spam'", "exit 0", "");
    let r = fake::against_greedy(&spec);
    let (kind, detail) = fake::fault(&r);
    assert_eq!(kind, FaultKind::Timeout, "{detail}");
}

#[cfg(unix)]
#[test]
fn the_longest_turn_of_each_player_is_measured() {
    let (_f, spec) = fake::engine(fake::UCI, "sleep 0.2; echo 'bestmove a1-b1A'", "exit 0", "");
    let r = fake::against_greedy(&spec);
    assert_eq!(r.tally.pentanomial.counts, [0, 0, 2, 0, 0]);
    assert!(r.tally.first_longest_turn >= Duration::from_millis(200));
    assert!(r.tally.second_longest_turn < Duration::from_millis(200));
    // The fake had White in game 0: its time is White's.
    assert!(r.games[0].longest_turn[0] >= Duration::from_millis(200));
}

/// The match of the resume tests: deterministic players (fixed depth; greedy and random are
/// seeded per game) from randomised openings, so that every game is its own.
fn resumable(games: usize) -> MatchConfig {
    MatchConfig {
        games,
        random_plies: 2,
        max_turns: 40,
        seed: 7,
        ..MatchConfig::default()
    }
}

fn resume(
    first: &str,
    second: &str,
    config: &MatchConfig,
    finished: Vec<MatchGame>,
) -> Result<MatchResult, MatchError> {
    let played = Mutex::new(Vec::new());
    let r = resume_match(
        &first.parse().unwrap(),
        &second.parse().unwrap(),
        config,
        finished,
        |g, _| {
            played.lock().unwrap().push(g.index);
            Ok(())
        },
    )?;
    let mut played = played.into_inner().unwrap();
    played.sort_unstable();
    let kept: Vec<usize> = r.games.iter().map(|g| g.index).collect();
    // Every game of the match is in the result once; the callback saw the new ones only.
    assert!(kept.windows(2).all(|w| w[0] < w[1]), "{kept:?}");
    assert!(played.iter().all(|i| kept.contains(i)));
    Ok(r)
}

/// The parts of a game that do not depend on timing.
fn same_games(a: &[MatchGame], b: &[MatchGame]) {
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(b) {
        assert_eq!(x.index, y.index);
        assert_eq!(
            x.game.start().to_fen(),
            y.game.start().to_fen(),
            "{}",
            x.index
        );
        assert_eq!(x.game.turns(), y.game.turns(), "{}", x.index);
        assert_eq!((x.winner, &x.termination), (y.winner, &y.termination));
    }
}

#[test]
fn a_resumed_match_plays_the_missing_games_and_counts_as_one_played_at_once() {
    for concurrency in [1, 2] {
        let config = MatchConfig {
            concurrency,
            ..resumable(8)
        };
        let whole = run("engine:depth=2", "greedy", &config);
        // Interrupted with game 3 unfinished while 4 was done (concurrency), and the match
        // was 6 games long then: games 0, 1, 2, 4 were kept.
        let kept: Vec<MatchGame> = whole
            .games
            .iter()
            .filter(|g| [0, 1, 2, 4].contains(&g.index))
            .cloned()
            .collect();
        let resumed = resume("engine:depth=2", "greedy", &config, kept).unwrap();
        same_games(&resumed.games, &whole.games);
        let (a, b) = (&resumed.tally, &whole.tally);
        assert_eq!((a.wins, a.draws, a.losses), (b.wins, b.draws, b.losses));
        assert_eq!(a.pentanomial, b.pentanomial);
        assert_eq!(a.terminations, b.terminations);
        assert_eq!(resumed.distinct_starts, whole.distinct_starts);
        assert_eq!(resumed.stop, Stop::Completed);
    }
}

#[test]
fn a_resumed_match_whose_sprt_had_decided_plays_no_new_pair() {
    let config = MatchConfig {
        games: 400,
        sprt: Some(Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap()),
        ..config(0)
    };
    let whole = run("random", "greedy", &config);
    let Stop::Sprt { games, .. } = whole.stop else {
        panic!("{:?}", whole.stop)
    };
    // All but the last game kept: the decision is in the games kept, so only the last pair is
    // completed.
    let mut kept = whole.games.clone();
    kept.pop();
    let resumed = resume("random", "greedy", &config, kept).unwrap();
    assert_eq!(resumed.stop, whole.stop);
    assert_eq!(resumed.games.len(), games);
    assert_eq!(resumed.tally.pentanomial, whole.tally.pentanomial);
    // Everything kept: nothing is played, and no player is even started.
    let all = resume(
        "random",
        "uci:/nonexistent/engine",
        &config,
        whole.games.clone(),
    );
    assert_eq!(all.unwrap().tally.games(), games);
}

#[test]
fn games_of_another_match_are_refused_before_any_game() {
    let whole = run("random", "greedy", &resumable(4));
    let refused = |config: &MatchConfig, games: Vec<MatchGame>, says: &str| {
        // An engine that cannot start shows that nothing was started.
        let e = resume("uci:/nonexistent/engine", "greedy", config, games).unwrap_err();
        assert!(matches!(e, MatchError::Resume { .. }), "{e}");
        assert!(e.to_string().contains(says), "{e}");
    };
    // Another seed draws other random openings.
    let other_seed = MatchConfig {
        seed: 8,
        ..resumable(4)
    };
    refused(&other_seed, whole.games.clone(), "round 1: it starts from");
    // No random turns.
    let other_plies = MatchConfig {
        random_plies: 0,
        ..resumable(4)
    };
    refused(
        &other_plies,
        whole.games.clone(),
        "but this match's openings",
    );
    // A shorter match.
    refused(
        &resumable(2),
        whole.games.clone(),
        "round 4: the match has 2 games",
    );
    // A game given twice; colours swapped.
    let twice = vec![whole.games[1].clone(), whole.games[1].clone()];
    refused(&resumable(4), twice, "round 2: given twice");
    let mut swapped = whole.games[2].clone();
    swapped.first_is_white = false;
    refused(
        &resumable(4),
        vec![swapped],
        "round 3: the first player has White",
    );
}

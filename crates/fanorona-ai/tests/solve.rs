//! The exact solvers checked against hand analysis, an independent brute force and each other.

use std::collections::HashMap;

use fanorona_ai::solve::{self, Budget, SolveError, Value, layered, pns, retro};
use fanorona_core::{BoardSize, Position, Rules, StuckRule};

fn pos(fen: &str) -> Position {
    Position::from_fen_with(fen, solve::solver_rules()).expect("valid position string")
}

/// Stones and side to move only (the solver's positions carry their own counters).
fn placement(p: &Position) -> String {
    let fen = p.to_fen();
    let mut fields = fen.split(' ');
    format!("{} {}", fields.next().unwrap(), fields.next().unwrap())
}

fn retro_of(p: &Position) -> retro::Solution {
    retro::solve(p, &Budget::default(), &mut |_| {}).expect("small enough to solve")
}

fn pn_of(p: &Position) -> pns::PnSolution {
    pns::solve(p, &Budget::default(), &mut |_| {}).expect("small enough to solve")
}

/// Positions small enough to work out by hand (3x3 board, a1 bottom left).
#[test]
fn hand_checked_positions() {
    // Black b2 against White a1, Black to move: b2-c3 withdraws from a1 and captures it.
    let p = pos("3/1B1/W2 b");
    assert_eq!(retro_of(&p).value, Value::Win);
    assert_eq!(retro_of(&p).distance, 1);
    assert_eq!(pn_of(&p).value, Value::Win);
    assert_eq!(pn_of(&p).best.unwrap().to_string(), "b2-c3W");
    // The same with White to move: White has no capture (a1 touches b2, nothing to approach
    // or withdraw from), and both paikas, a1-a2 and a1-b1, are answered by a withdrawal
    // (b2-c2W, b2-b3W) that takes White's last stone: a loss in 2.
    let p = pos("3/1B1/W2 w");
    let s = retro_of(&p);
    assert_eq!((s.value, s.distance), (Value::Loss, 2));
    assert_eq!(pn_of(&p).value, Value::Loss);
    // A full board: Black b2 to move cannot move at all and loses, or draws by option.
    let p = pos("WWW/WBW/WWW b");
    assert_eq!(
        (retro_of(&p).value, retro_of(&p).distance),
        (Value::Loss, 0)
    );
    assert_eq!(pn_of(&p).value, Value::Loss);
    let mut rules = solve::solver_rules();
    rules = rules.with_stuck(StuckRule::Draws);
    let p = p.with_rules(rules).unwrap();
    assert_eq!(retro_of(&p).value, Value::Draw);
    assert_eq!(pn_of(&p).value, Value::Draw);
    assert!(retro_of(&p).best.is_none());
}

/// Values of every position reachable from `start`, by a brute force that shares nothing
/// with the solver: a map from position strings to values, recomputed until nothing changes.
fn brute_force(start: &Position) -> HashMap<String, Value> {
    let mut children: HashMap<String, (Position, Vec<String>)> = HashMap::new();
    let mut todo = vec![*start];
    while let Some(p) = todo.pop() {
        let fen = placement(&p);
        if children.contains_key(&fen) {
            continue;
        }
        let mut kids = Vec::new();
        if p.outcome().is_none() {
            for t in p.legal_turns() {
                let c = p.play_unchecked(&t);
                kids.push(placement(&c));
                todo.push(c);
            }
        }
        children.insert(fen, (p, kids));
    }
    let mut value: HashMap<String, Value> = HashMap::new();
    loop {
        let mut changed = false;
        for (fen, (p, kids)) in &children {
            if value.contains_key(fen) {
                continue;
            }
            let v = if let Some(o) = p.outcome() {
                Some(if o.winner.is_some() {
                    Value::Loss
                } else {
                    Value::Draw
                })
            } else if kids.iter().any(|k| value.get(k) == Some(&Value::Loss)) {
                Some(Value::Win)
            } else if kids.iter().all(|k| value.get(k) == Some(&Value::Win)) {
                Some(Value::Loss)
            } else {
                None
            };
            if let Some(v) = v {
                value.insert(fen.clone(), v);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    for fen in children.keys() {
        value.entry(fen.clone()).or_insert(Value::Draw);
    }
    value
}

/// The shortest forced win for the side to move, by plain depth-limited search.
fn forced_win_within(p: &Position, plies: u32) -> bool {
    if plies == 0 {
        return false;
    }
    p.legal_turns().iter().any(|t| {
        let c = p.play_unchecked(t);
        if let Some(o) = c.outcome() {
            return o.winner == Some(p.side_to_move());
        }
        plies >= 2
            && c.legal_turns().iter().all(|r| {
                let g = c.play_unchecked(r);
                match g.outcome() {
                    Some(o) => o.winner == Some(p.side_to_move()),
                    None => forced_win_within(&g, plies - 2),
                }
            })
    })
}

#[test]
fn three_by_three_is_a_white_win_in_eleven() {
    let start = solve::start(BoardSize::TELO);
    assert_eq!(start.to_fen(), "BBB/B1W/WWW w");
    let s = retro_of(&start);
    assert_eq!(s.value, Value::Win);
    assert_eq!(s.distance, 11);
    assert_eq!(s.states, 1012);
    // Independently: a forced win within 11 turns, none within 9.
    assert!(forced_win_within(&start, 11));
    assert!(!forced_win_within(&start, 9));
    // Every reachable position agrees with the brute force.
    let brute = brute_force(&start);
    assert_eq!(brute.len() as u64, s.states);
    let mut checked = 0;
    for (p, v, _) in s.positions() {
        assert_eq!(brute[&placement(&p)], v, "{p}");
        checked += 1;
    }
    assert_eq!(checked, 1012);
    assert_eq!(s.counts, [630, 58, 324]);
    // The best line wins: it ends with Black to move and no black stone.
    let line = s.best_line(40);
    assert_eq!(line.len(), 11);
    let mut p = start;
    for t in &line {
        assert!(p.is_legal(t));
        p = p.play_unchecked(t);
    }
    assert_eq!(
        p.outcome().and_then(|o| o.winner),
        Some(fanorona_core::Color::White)
    );
    // Proof-number search agrees, and its first turn wins.
    let pn = pn_of(&start);
    assert_eq!(pn.value, Value::Win);
    let first = pn.best.unwrap();
    assert_eq!(
        s.probe(&start.play_unchecked(&first)).unwrap().0,
        Value::Loss
    );
}

#[test]
fn retrograde_and_proof_numbers_agree_on_small_boards() {
    for (size, value, distance) in [
        ("3x3", Value::Win, 11),
        ("3x5", Value::Win, 11),
        ("5x3", Value::Win, 13),
    ] {
        let size: BoardSize = size.parse().unwrap();
        let start = solve::start(size);
        let s = retro_of(&start);
        assert_eq!((s.value, s.distance), (value, distance), "{size}");
        assert_eq!(pn_of(&start).value, value, "{size}");
        // A sample of every kind of reachable position, wins, draws and losses alike.
        let mut seen = [0u32; 3];
        let stride = (s.states / 3000).max(1) as usize;
        for (i, (p, v, _)) in s.positions().enumerate() {
            let k = match v {
                Value::Win => 0,
                Value::Draw => 1,
                Value::Loss => 2,
            };
            if seen[k] >= 40 || i % stride != 0 {
                continue;
            }
            seen[k] += 1;
            assert_eq!(pn_of(&p).value, v, "{size}: {p}");
        }
        assert!(seen.iter().all(|&n| n >= 20), "{size}: {seen:?}");
    }
}

#[test]
fn rule_options_are_honoured() {
    // With a no-capture limit the count becomes part of the position: more positions, and
    // both methods still agree.
    let mut rules = solve::solver_rules();
    rules = rules.with_no_capture_limit(core::num::NonZeroU16::new(4));
    let start = Position::start_with(BoardSize::TELO, rules).unwrap();
    let s = retro_of(&start);
    assert!(s.states > 1012);
    assert_eq!(s.value, pn_of(&start).value);
    // A limit of 1 turn: after one paika the game is drawn, so White a1 against Black b2
    // (White to move, no capture) is no longer lost.
    rules = rules.with_no_capture_limit(core::num::NonZeroU16::new(1));
    let p = Position::from_fen_with("3/1B1/W2 w", rules).unwrap();
    assert_eq!(retro_of(&p).value, Value::Draw);
    assert_eq!(pn_of(&p).value, Value::Draw);
    // Compulsory continuation and the opening restriction change the game tree.
    for rules in [
        "compulsory-continuation=on,no-capture-limit=off",
        "opening-restriction=on,no-capture-limit=off",
    ] {
        let rules: Rules = rules.parse().unwrap();
        let start = Position::start_with("3x5".parse().unwrap(), rules).unwrap();
        let s = retro_of(&start);
        assert_eq!(s.value, pn_of(&start).value, "{rules}");
        assert_ne!(s.states, 444_908, "{rules}");
    }
}

#[test]
fn budgets_stop_a_solve() {
    let start = solve::start(BoardSize::DIMY);
    let budget = Budget::default().with_max_bytes(1 << 20);
    match retro::solve(&start, &budget, &mut |_| {}) {
        Err(SolveError::MemoryLimit { limit, .. }) => assert_eq!(limit, 1 << 20),
        other => panic!("expected the memory budget to stop the solve, got {other:?}"),
    }
    match pns::solve(&start, &budget, &mut |_| {}) {
        Err(SolveError::MemoryLimit { .. }) => {}
        other => panic!("expected the memory budget to stop the search, got {other:?}"),
    }
    let budget = Budget::default().with_max_time(std::time::Duration::from_millis(1));
    let err = retro::solve(&start, &budget, &mut |_| {}).unwrap_err();
    assert!(
        err.to_string().starts_with("time budget of 0.0 s ran out"),
        "{err}"
    );
}

#[test]
fn layered_analysis_agrees_with_retrograde_analysis() {
    for (size, rules) in [
        ("3x3", "no-capture-limit=off"),
        ("3x3", "stuck=draws,no-capture-limit=off"),
        ("5x3", "no-capture-limit=off"),
        ("3x5", "compulsory-continuation=on,no-capture-limit=off"),
    ] {
        let rules: Rules = rules.parse().unwrap();
        let start = Position::start_with(size.parse().unwrap(), rules).unwrap();
        let r = retro_of(&start);
        let l = layered::solve(&start, &Budget::default(), &mut |_| {}).unwrap();
        assert_eq!(
            (l.value, l.distance),
            (r.value, r.distance),
            "{size} {rules}"
        );
        assert_eq!(l.best, r.best, "{size} {rules}");
        // The same wins and draws; retro also counts the positions where the side to move
        // has no stone left (losses at distance 0), layered does not store them.
        assert_eq!(l.counts[..2], r.counts[..2], "{size} {rules}");
        let empty = r
            .positions()
            .filter(|(p, _, _)| p.stones(p.side_to_move()).is_empty())
            .count() as u64;
        assert_eq!(l.counts[2] + empty, r.counts[2], "{size} {rules}");
        assert_eq!(l.states + empty, r.states, "{size} {rules}");
    }
    let start = Position::start(BoardSize::TELO); // the no-capture limit on
    assert!(matches!(
        layered::solve(&start, &Budget::default(), &mut |_| {}),
        Err(SolveError::Unsupported(_))
    ));
}

#[test]
fn proof_number_search_within_a_tight_memory_budget() {
    // Positions whose searches need the most memory; with a budget that forces the tree to be
    // cut back, the values must not change.
    let start = solve::start("5x3".parse().unwrap());
    let s = retro_of(&start);
    let mut heavy: Vec<(u64, Position, Value)> = s
        .positions()
        .step_by(120)
        .map(|(p, v, _)| (pn_of(&p).bytes, p, v))
        .collect();
    heavy.sort_by_key(|h| std::cmp::Reverse(h.0));
    let mut collapsed = 0;
    for (bytes, p, v) in heavy.into_iter().take(6) {
        let budget = Budget::default().with_max_bytes(bytes * 3 / 4);
        match pns::solve(&p, &budget, &mut |_| {}) {
            Ok(r) => {
                assert_eq!(r.value, v, "{p}");
                collapsed +=
                    r.win_search.collapses + r.loss_search.as_ref().map_or(0, |l| l.collapses);
            }
            // Fragmented blocks can still outgrow a budget this tight: an error, never a
            // wrong value.
            Err(SolveError::MemoryLimit { .. }) => {}
            Err(e) => panic!("{p}: {e}"),
        }
    }
    assert!(
        collapsed > 0,
        "the budget never forced the tree to be cut back"
    );
}

use std::sync::atomic::AtomicBool;

use fanorona_core::{EndReason, Game, Position, Rules};

use super::*;
use crate::params::TEMPO;

fn run(game: &Game, limits: Limits) -> SearchResult {
    let stop = AtomicBool::new(false);
    Searcher::new(1)
        .search(game, &limits, &SearchOptions::default(), &stop, |_| {})
        .expect("the game is not over")
}

fn game(fen: &str) -> Game {
    Game::new(Position::from_fen(fen).unwrap())
}

#[test]
fn takes_the_last_stones_and_reports_a_win_in_one() {
    // White a1; Black c1, d1. a1-b1A takes both; a1-b2 would be a paika, not allowed.
    let g = game("9/9/9/9/W1BB5 w");
    let r = run(&g, Limits::depth(3));
    assert_eq!(r.best.to_string(), "a1-b1A");
    assert_eq!(r.score, Score::Win(1));
    assert_eq!(r.value, WIN - 1);
    assert_eq!(r.pv_text(), "a1-b1A");
}

#[test]
fn a_single_legal_turn_is_answered_even_with_one_node() {
    let g = game("9/9/9/9/W1B6 w");
    assert_eq!(g.position().legal_turns().len(), 1);
    let r = run(&g, Limits::nodes(1));
    assert_eq!(r.best.to_string(), "a1-b1A");
    assert!(r.nodes <= 1);
    let timed = run(&g, Limits::movetime(Duration::from_secs(10)));
    assert_eq!(timed.best.to_string(), "a1-b1A");
    assert!(timed.time < Duration::from_secs(1));
}

#[test]
fn depth_and_node_limits_are_respected() {
    let g = Game::default();
    let r = run(&g, Limits::depth(1));
    assert_eq!(r.depth, 1);
    assert!(g.position().is_legal(&r.best));
    // The opening: from depth 2 the search sees the two-stone captures as best (at depth 1
    // the capped quiescence search of the replies decides alone).
    let r = run(&g, Limits::depth(2));
    assert_eq!(r.depth, 2);
    assert_eq!(r.best.captured().count(), 2);
    let r = run(&g, Limits::nodes(1));
    assert_eq!(r.depth, 0);
    assert!(g.position().is_legal(&r.best));
    assert_eq!(r.pv, vec![r.best]);
    let r = run(&g, Limits::nodes(2_000));
    assert!(r.nodes <= 2_000);
    assert!(g.position().is_legal(&r.best));
}

#[test]
fn info_streams_every_completed_iteration() {
    let g = Game::default();
    let stop = AtomicBool::new(false);
    let mut depths = Vec::new();
    let mut last_nodes = 0;
    let r = Searcher::new(1)
        .search(
            &g,
            &Limits::depth(5),
            &SearchOptions::default(),
            &stop,
            |info| {
                depths.push(info.depth);
                assert!(info.nodes >= last_nodes);
                last_nodes = info.nodes;
                assert_eq!(
                    info.pv.first().map(|t| g.position().is_legal(t)),
                    Some(true)
                );
            },
        )
        .unwrap();
    assert_eq!(depths, vec![1, 2, 3, 4, 5]);
    assert_eq!(r.nodes, last_nodes);
    // The principal variation is a legal line.
    let mut line = g.clone();
    for t in &r.pv {
        line.play(t).unwrap();
    }
}

#[test]
fn a_stop_before_the_start_still_gives_a_legal_turn() {
    let g = Game::default();
    let stop = AtomicBool::new(true);
    let r = Searcher::new(1)
        .search(
            &g,
            &Limits::infinite(),
            &SearchOptions::default(),
            &stop,
            |_| {},
        )
        .unwrap();
    assert!(g.position().is_legal(&r.best));
    assert!(r.depth <= 1);
}

#[test]
fn the_no_capture_limit_is_a_draw_inside_the_search() {
    // White a1, c1 against Black i5: two stones to one, but 99 turns without a capture and
    // no capture in reach: whatever White does, the limit of 100 draws the game.
    let g = game("8B/9/9/9/W1W6 w 99 50");
    let r = run(&g, Limits::depth(4));
    assert_eq!(r.score, Score::Cp(DRAW));
    // With the limit off, the same position is a clear lead.
    let off: Rules = "no-capture-limit=off".parse().unwrap();
    let g = Game::new(g.position().with_rules_unchecked(off));
    let r = run(&g, Limits::depth(4));
    assert!(r.value > 50, "{}", r.value);
}

#[test]
fn a_losing_side_steers_into_a_repetition_draw() {
    // Black (i5) is a stone down against a1, c1. The stones shuffle: after this history the
    // turn i4-i5 brings back the first position a third time, a draw.
    let mut g = game("8B/9/9/9/W1W6 w");
    for t in [
        "a1-a2", "i5-i4", "a2-a1", "i4-i5", "a1-a2", "i5-i4", "a2-a1",
    ] {
        g.play_text(t).unwrap();
    }
    let r = run(&g, Limits::depth(3));
    assert_eq!(r.best.to_string(), "i4-i5");
    assert_eq!(r.score, Score::Cp(DRAW));
    g.play(&r.best).unwrap();
    assert_eq!(g.outcome().map(|o| o.reason), Some(EndReason::Repetition));
}

#[test]
fn a_finished_game_is_an_error() {
    let g = game("9/9/9/9/W8 b");
    let stop = AtomicBool::new(false);
    let err = Searcher::new(1)
        .search(
            &g,
            &Limits::depth(2),
            &SearchOptions::default(),
            &stop,
            |_| {},
        )
        .unwrap_err();
    assert!(matches!(err, SearchError::GameOver(o) if o.reason == EndReason::NoStones));
}

#[test]
fn exact_root_scores_every_turn() {
    let g = Game::default();
    let stop = AtomicBool::new(false);
    let options = SearchOptions {
        exact_root: true,
        ..SearchOptions::default()
    };
    let r = Searcher::new(1)
        .search(&g, &Limits::depth(2), &options, &stop, |_| {})
        .unwrap();
    assert_eq!(r.root_moves.len(), 5);
    assert_eq!(r.root_moves[0].turn, r.best);
    assert_eq!(r.root_moves[0].value, r.value);
    assert!(r.root_moves.windows(2).all(|w| w[0].value >= w[1].value));
    // Exact scores, not bounds: a one-stone capture scores below the two-stone ones.
    assert!(r.root_moves[4].value < r.root_moves[0].value);
    assert!(r.root_moves[4].value > -WIN_BOUND);
}

#[test]
fn evaluation_noise_is_reproducible_and_bounded() {
    let g = Game::default();
    let stop = AtomicBool::new(false);
    let options = SearchOptions {
        eval_noise: 50,
        seed: 9,
        ..SearchOptions::default()
    };
    let a = Searcher::new(1)
        .search(&g, &Limits::depth(3), &options, &stop, |_| {})
        .unwrap();
    let b = Searcher::new(1)
        .search(&g, &Limits::depth(3), &options, &stop, |_| {})
        .unwrap();
    assert_eq!((a.best, a.value, a.nodes), (b.best, b.value, b.nodes));
    let mut w = Worker {
        tables: None,
        table_stones: 0,
        tb_hits: 0,
        nnue: None,
        tt: &TranspositionTable::new(1),
        history: &mut History::default(),
        published: None,
        killers: Box::new([[0; 2]; MAX_PLY + 2]),
        hashes: Vec::new(),
        root_index: 0,
        pv: Box::new([[0; MAX_PLY + 1]; MAX_PLY + 1]),
        pv_len: [0; MAX_PLY + 1],
        nodes: 0,
        seldepth: 0,
        stop: &stop,
        hard: None,
        node_limit: u64::MAX,
        aborted: false,
        noise: 50,
        selective: false,
        contempt: 0,
        seed: 9,
        repetition: None,
        no_capture_limit: None,
        stuck: StuckRule::Loses,
        null_allowed: true,
        best: None,
    };
    let e = w.eval(g.position(), 0);
    assert!((e - TEMPO).abs() <= 50);
}

#[test]
fn endgame_tables_give_exact_values_inside_the_search() {
    use crate::solve::tablebase::Tablebase;
    use crate::solve::{Budget, solver_rules};
    use fanorona_core::BoardSize;
    use std::sync::Arc;

    // The 3x3 tables up to 3 stones: White a1, c1 against Black b3, White to move, is a
    // win in 7 turns (the solver's own example), i.e. on White's fourth turn.
    let rules = solver_rules();
    let (tables, _) =
        Tablebase::generate(BoardSize::TELO, rules, 3, &Budget::default(), &mut |_| {}).unwrap();
    let pos = Position::from_fen_with("1B1/3/W1W w", rules).unwrap();
    let game = Game::new(pos);
    let stop = AtomicBool::new(false);
    let mut s = Searcher::new(1);
    s.set_tablebase(Some(Arc::new(tables)));
    let r = s
        .search(
            &game,
            &Limits::depth(2),
            &SearchOptions::default(),
            &stop,
            |_| {},
        )
        .unwrap();
    assert_eq!(r.score, Score::Win(4));
    assert_eq!(r.value, WIN - 7);
}

#[test]
fn several_threads_answer_legal_turns_within_the_limits() {
    let stop = AtomicBool::new(false);
    let mut s = Searcher::new(4);
    s.set_threads(3);
    assert_eq!(s.threads(), 3);
    let mut game = Game::default();
    // A few turns of a game, each side under another limit.
    for n in 0..6 {
        let limits = match n % 3 {
            0 => Limits::depth(5),
            1 => Limits::nodes(20_000),
            _ => Limits::movetime(Duration::from_millis(40)),
        };
        let started = std::time::Instant::now();
        let mut depths = Vec::new();
        let r = s
            .search(&game, &limits, &SearchOptions::default(), &stop, |i| {
                depths.push(i.depth);
            })
            .unwrap();
        let spent = started.elapsed();
        assert!(game.position().is_legal(&r.best), "{}", r.best);
        // Whichever thread's iteration answers, the line, the depth and the last report agree.
        assert_eq!(r.pv.first(), Some(&r.best));
        assert_eq!(depths.last(), Some(&r.depth));
        match n % 3 {
            0 => assert_eq!(depths, vec![1, 2, 3, 4, 5]),
            1 => assert!(r.nodes <= 20_000, "{} nodes", r.nodes),
            // A loaded machine can delay the threads; the margin is for that, not for the search.
            _ => assert!(spent < Duration::from_millis(40 + 100), "{spent:?}"),
        }
        game.play(&r.best).unwrap();
    }
    // A stop ends every thread at once, with a legal turn.
    let stop = AtomicBool::new(true);
    let r = s
        .search(
            &game,
            &Limits::infinite(),
            &SearchOptions::default(),
            &stop,
            |_| {},
        )
        .unwrap();
    assert!(game.position().is_legal(&r.best));
    s.set_threads(0);
    assert_eq!(s.threads(), 1);
}

#[test]
fn a_helper_thread_keeps_ahead_and_a_deeper_answer_is_taken() {
    // Two threads for a fixed time on the start: the answer is a completed iteration of one of
    // them, reported last, its line starting with the answer.
    let stop = AtomicBool::new(false);
    let mut s = Searcher::new(8);
    s.set_threads(2);
    let game = Game::default();
    let mut reports = Vec::new();
    let r = s
        .search(
            &game,
            &Limits::movetime(Duration::from_millis(150)),
            &SearchOptions::default(),
            &stop,
            |i| reports.push((i.depth, i.pv.first().copied())),
        )
        .unwrap();
    assert!(game.position().is_legal(&r.best));
    assert_eq!(r.pv.first(), Some(&r.best));
    assert_eq!(reports.last(), Some(&(r.depth, Some(r.best))));
    assert!(r.depth >= 1);
}

#[test]
fn null_moves_do_not_hide_a_forced_loss_with_few_stones() {
    // White a1, c1 against Black i5, far apart: a quiet position where White leads. The
    // search still reports a lead, not a decided game, at every depth.
    let g = game("8B/9/9/9/W1W6 w");
    let r = run(&g, Limits::depth(8));
    assert!(r.value > 50 && r.value < WIN_BOUND, "{}", r.value);
    assert!(g.position().is_legal(&r.best));
}

#[test]
fn the_clock_manager_stops_early_when_stable_and_late_when_unsure() {
    let ms = Duration::from_millis;
    let turns = Position::standard().legal_turns();
    let (a, b) = (turns[0], turns[1]);
    // Soft 100 ms, hard 200 ms; the same best turn after every iteration.
    let mut m = TimeManager::new(ms(100), ms(200));
    assert!(m.next_iteration(ms(10), a));
    assert!(m.next_iteration(ms(20), a));
    assert!(m.next_iteration(ms(30), a));
    // Three times the same turn again: the soft limit shrinks to 60 ms.
    assert!(m.next_iteration(ms(40), a));
    assert!(!m.next_iteration(ms(70), a));
    // A change of the best turn stretches the soft limit to 160 ms.
    let mut m = TimeManager::new(ms(100), ms(300));
    assert!(m.next_iteration(ms(90), a));
    assert!(m.next_iteration(ms(120), b));
    let mut m = TimeManager::new(ms(100), ms(300));
    assert!(m.next_iteration(ms(90), a));
    assert!(!m.next_iteration(ms(165), b));
    // An iteration predicted to end past the hard limit (150% of the last one's 100 ms after
    // 150 ms, against 200 ms) is not started, even with time left before the soft limit.
    let mut m = TimeManager::new(ms(100), ms(200));
    assert!(m.next_iteration(ms(50), a));
    assert!(!m.next_iteration(ms(150), b));
    // Otherwise the soft limit itself.
    let mut m = TimeManager::new(ms(100), ms(400));
    assert!(m.next_iteration(ms(99), a));
    let mut m = TimeManager::new(ms(100), ms(400));
    assert!(!m.next_iteration(ms(150), a));
}

#[test]
fn a_clock_search_ends_within_its_hard_limit_with_a_legal_turn() {
    // 2 s left, no increment: a hard limit of about 80 ms (a 25th of the time left).
    let game = Game::default();
    let limits = Limits::clock(Duration::from_secs(2), Duration::ZERO);
    let (_, hard) = limits.time_budget().unwrap();
    // Scheduling on a loaded machine only adds delay, so the quickest of a few tries is the
    // search's own overrun: it must stay within 40 ms of the hard limit.
    let mut quickest = Duration::MAX;
    for _ in 0..5 {
        let started = std::time::Instant::now();
        let r = run(&game, limits);
        quickest = quickest.min(started.elapsed());
        assert!(game.position().is_legal(&r.best));
        if quickest < hard + Duration::from_millis(40) {
            break;
        }
    }
    assert!(quickest < hard + Duration::from_millis(40), "{quickest:?}");
}

#[test]
fn with_a_network_the_engine_plays_only_legal_turns() {
    let stop = AtomicBool::new(false);
    let mut net_side = Searcher::new(1);
    net_side.set_network(Some(Network::embedded()));
    let mut classic = Searcher::new(1);
    classic.set_network(None);
    let mut rng = crate::rng::Rng::new(3);
    for game_no in 0..3 {
        // Two threads in one game: every helper keeps its own accumulators.
        net_side.set_threads(1 + game_no % 2);
        let mut g = Game::default();
        for _ in 0..2 {
            let turns = g.position().legal_turns();
            g.play(&turns[rng.below(turns.len() as u64) as usize])
                .unwrap();
        }
        while g.outcome().is_none() && g.turns().len() < 120 {
            let s = if g.position().side_to_move() == fanorona_core::Color::White {
                &mut net_side
            } else {
                &mut classic
            };
            let r = s
                .search(
                    &g,
                    &Limits::nodes(1500),
                    &SearchOptions::default(),
                    &stop,
                    |_| {},
                )
                .unwrap();
            g.play(&r.best).expect("a legal turn");
        }
    }
}

#[test]
fn the_network_is_used_on_the_standard_board_under_the_standard_rules_only() {
    let stop = AtomicBool::new(false);
    let nodes = |fen: &str, rules: Rules, network: bool| {
        let mut s = Searcher::new(1);
        s.set_network(network.then(Network::embedded));
        let g = Game::new(Position::from_fen_with(fen, rules).unwrap());
        s.search(
            &g,
            &Limits::depth(4),
            &SearchOptions::default(),
            &stop,
            |_| {},
        )
        .unwrap()
        .nodes
    };
    let standard = "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w";
    // The material network searches another tree than the hand evaluation ...
    assert_ne!(
        nodes(standard, Rules::default(), true),
        nodes(standard, Rules::default(), false)
    );
    // ... but other boards and rule sets keep the hand evaluation.
    let small = "BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w";
    assert_eq!(
        nodes(small, Rules::default(), true),
        nodes(small, Rules::default(), false)
    );
    let draws: Rules = "stuck=draws".parse().unwrap();
    assert_eq!(nodes(standard, draws, true), nodes(standard, draws, false));
}

#[test]
fn contempt_rates_draws_by_rule_below_even_for_the_side_at_the_root() {
    // White a1, c1 against Black i5, 99 turns without a capture under the limit of 100, White
    // to move with no capture: every turn reaches the limit, a draw by rule. Without contempt
    // the draw scores 0; with contempt C White rates it -C (Black, to move there, +C).
    let game = Game::new(Position::from_fen("8B/9/9/9/W1W6 w 99 30").unwrap());
    let stop = AtomicBool::new(false);
    let value = |contempt: i32| {
        let options = SearchOptions::default().with_contempt(contempt);
        let r = Searcher::new(1)
            .search(&game, &Limits::depth(3), &options, &stop, |_| {})
            .unwrap();
        assert!(game.position().is_legal(&r.best));
        r.value
    };
    assert_eq!(value(0), 0);
    assert_eq!(value(30), -30);
    assert_eq!(value(-25), 25);
    // Clamped to the largest contempt.
    assert_eq!(value(100_000), -crate::params::MAX_CONTEMPT);
}

#[test]
fn a_new_searcher_has_every_embedded_network_or_none() {
    let s = Searcher::new(1);
    let nets = s.networks();
    if crate::nnue::NNUE_BY_DEFAULT {
        assert_eq!(nets.len(), Network::embedded_all().len());
        for net in Network::embedded_all() {
            assert!(std::sync::Arc::ptr_eq(
                s.network_for(net.variant()).unwrap(),
                net
            ));
        }
    } else {
        assert!(nets.is_empty());
    }
}

#[test]
fn each_board_and_game_is_searched_with_its_own_network() {
    use crate::nnue::Variant;
    use fanorona_core::{BoardSize, GameKind};
    // A material network of Fanoron-Dimy: 100 centi-stones a stone of lead.
    let dimy = Variant::new(BoardSize::DIMY, GameKind::Capture).unwrap();
    let material = crate::nnue::tests::material_network_of(dimy);
    let mut s = Searcher::new(1);
    s.set_network(None);
    s.set_network(Some(Network::embedded()));
    s.set_network(Some(std::sync::Arc::new(material)));
    assert_eq!(s.networks().len(), 2);
    assert!(s.network_for(dimy).is_some() && s.network().is_some());
    let stop = AtomicBool::new(false);
    let score = |s: &mut Searcher, fen: &str, rules: Rules| {
        s.clear();
        let g = Game::new(Position::from_fen_with(fen, rules).unwrap());
        s.search(
            &g,
            &Limits::depth(1),
            &SearchOptions::default(),
            &stop,
            |_| {},
        )
        .unwrap()
        .score
    };
    // White a1 c1 against Black e5, nothing to capture: depth 1 sees the material only.
    // After either White turn, Black is one stone down: White's view +100 (no-capture
    // factor 1 - 1/200 after one turn: 99).
    let far = "4B/5/5/5/W1W2 w";
    assert_eq!(score(&mut s, far, Rules::default()), crate::Score::Cp(99));
    // Without it, the hand evaluation scores the same position otherwise.
    s.set_network(None);
    s.set_network(Some(Network::embedded()));
    assert_ne!(score(&mut s, far, Rules::default()), crate::Score::Cp(99));
    // The 5x9 network is unchanged by the 5x5 one: the same scores with or without it.
    let standard = "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w";
    let with_both = {
        let mut t = Searcher::new(1);
        t.set_network(Some(Network::embedded()));
        score(&mut t, standard, Rules::default())
    };
    assert_eq!(score(&mut s, standard, Rules::default()), with_both);
}

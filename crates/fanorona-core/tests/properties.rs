//! Property tests: round trips of the notations, agreement of the two turn interfaces and of
//! the independent generator, hashing, conservation of stones, termination, robust parsers.

#[allow(dead_code, reason = "each test binary uses part of the helpers")]
mod common;

use core::num::NonZeroU16;

use common::naive;
use fanorona_core::reference::{Board, Variant};
use fanorona_core::{
    Bitboard, BoardSize, Color, Game, GameKind, Position, Rules, Setup, StuckRule, Turn,
    TurnBuilder,
};
use proptest::prelude::*;

/// Any supported board with random stones (about 40% white, 40% black), a random side to move
/// and random rule options.
fn arb_position() -> impl Strategy<Value = Position> {
    (
        0..BoardSize::ALL.len(),
        any::<u64>(),
        any::<u64>(),
        any::<bool>(),
        arb_rules(),
    )
        .prop_map(|(i, a, b, black, rules)| {
            let size = BoardSize::ALL[i];
            let all = size.geometry().all().bits();
            // a decides occupancy (about 80% occupied when two bits agree), b the colour.
            let occupied = (a | a.rotate_left(17)) & all;
            let white = occupied & b;
            let black_stones = occupied & !b;
            Position::from_setup(
                {
                    let mut setup = Setup::empty(size);
                    setup.white = Bitboard::from_bits(white);
                    setup.black = Bitboard::from_bits(black_stones);
                    setup.side_to_move = if black { Color::Black } else { Color::White };
                    setup.turn_number = if a & 1 == 0 { 1 } else { 5 };
                    setup
                },
                rules,
            )
            .expect("disjoint stones on the board")
        })
}

fn arb_rules() -> impl Strategy<Value = Rules> {
    (any::<bool>(), any::<bool>(), any::<bool>()).prop_map(|(o, c, s)| {
        Rules::STANDARD
            .with_opening_restriction(o)
            .with_compulsory_continuation(c)
            .with_stuck(if s {
                StuckRule::Draws
            } else {
                StuckRule::Loses
            })
    })
}

/// A position reached by random play from the start of a random board size.
fn arb_played() -> impl Strategy<Value = Position> {
    (0..BoardSize::ALL.len(), any::<u64>(), 0usize..60).prop_map(|(i, mut seed, plies)| {
        let mut pos = Position::start(BoardSize::ALL[i]);
        for _ in 0..plies {
            let turns = pos.legal_turns();
            if turns.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            pos = pos.play_unchecked(&turns[(seed % turns.len() as u64) as usize]);
        }
        pos
    })
}

fn sorted_texts(turns: impl IntoIterator<Item = Turn>) -> Vec<String> {
    let mut v: Vec<String> = turns.into_iter().map(|t| t.to_string()).collect();
    v.sort();
    v
}

/// Every turn the builder can make from `b`, step by step and by placement, depth first.
/// Checks on the way that the builder never strands a player: every state it reaches can
/// end or go on, and every state is the start of some legal turn (`legal`).
fn builder_turns(b: &TurnBuilder, legal: &[Turn], out: &mut Vec<Turn>) {
    let steps = b.legal_steps();
    let places = b.legal_placements();
    if let Some(so_far) = b.turn_so_far() {
        let made: Vec<_> = so_far.steps().collect();
        let begins = |t: &Turn| {
            if so_far.is_placement() {
                *t == so_far
            } else {
                t.steps().take(made.len()).eq(made.iter().copied())
            }
        };
        assert!(
            legal.iter().any(begins),
            "the builder's steps {made:?} begin no legal turn of {}",
            b.start()
        );
        assert!(
            b.can_end() || !steps.is_empty(),
            "a dead end after {made:?} in {}",
            b.start()
        );
    }
    if b.can_end() {
        out.push(b.finish().expect("can end"));
    }
    for step in steps {
        let mut next = b.clone();
        next.play_step(step).expect("a listed step is playable");
        builder_turns(&next, legal, out);
    }
    for at in places.points(b.start().size()) {
        let mut next = b.clone();
        next.place(at).expect("a listed placement is playable");
        assert!(next.legal_steps().is_empty() && next.legal_placements().is_empty());
        builder_turns(&next, legal, out);
    }
}

/// Rules of the capture game or of Vela (every board) with random options.
fn arb_rules_any() -> impl Strategy<Value = Rules> {
    (
        arb_rules(),
        any::<bool>(),
        prop_oneof![Just(None), (2u8..=255).prop_map(Some)],
        prop_oneof![Just(None), (1u16..).prop_map(NonZeroU16::new)],
    )
        .prop_map(|(rules, vela, repetition, limit)| {
            rules
                .with_game(if vela {
                    GameKind::Vela
                } else {
                    GameKind::Capture
                })
                .with_repetition(repetition)
                .expect("2 or more")
                .with_no_capture_limit(limit)
        })
}

/// Any board with random stones under the capture game's or Vela's rules.
fn arb_position_any_game() -> impl Strategy<Value = Position> {
    (arb_position(), arb_rules_any()).prop_map(|(pos, rules)| {
        pos.with_rules(rules)
            .expect("the capture game and Vela play on every board")
    })
}

/// A Fanoron-Telo position: at most three stones a side on the 3x3 board, either side to
/// move, random options.
fn arb_telo() -> impl Strategy<Value = Position> {
    (
        proptest::sample::subsequence((0u8..9).collect::<Vec<_>>(), 0..=6),
        any::<u8>(),
        any::<bool>(),
        arb_rules(),
    )
        .prop_filter_map(
            "a legal Fanoron-Telo setup",
            |(points, split, black, rules)| {
                let (mut white, mut black_stones) = (0u64, 0u64);
                for (i, p) in points.iter().enumerate() {
                    if split >> i & 1 == 0 && white.count_ones() < 3
                        || black_stones.count_ones() == 3
                    {
                        white |= 1 << p;
                    } else {
                        black_stones |= 1 << p;
                    }
                }
                let mut setup = Setup::empty(BoardSize::TELO);
                setup.white = Bitboard::from_bits(white);
                setup.black = Bitboard::from_bits(black_stones);
                setup.side_to_move = if black { Color::Black } else { Color::White };
                Position::from_setup(setup, rules.with_game(GameKind::Telo)).ok()
            },
        )
}

/// A position reached by random play from the start under any game: the capture game and
/// Vela on a random board, Fanoron-Telo on its own.
fn arb_played_any_game() -> impl Strategy<Value = Position> {
    (
        0..BoardSize::ALL.len() + 1,
        arb_rules_any(),
        any::<u64>(),
        0usize..60,
    )
        .prop_map(|(i, rules, mut seed, plies)| {
            let mut pos = match BoardSize::ALL.get(i) {
                Some(&size) => Position::start_with(size, rules),
                None => Position::start_with(BoardSize::TELO, rules.with_game(GameKind::Telo)),
            }
            .expect("a starting position");
            for _ in 0..plies {
                let turns = pos.legal_turns();
                if turns.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos = pos
                    .play(&turns[(seed % turns.len() as u64) as usize])
                    .expect("legal");
            }
            pos
        })
}

/// Positions of every game kind, board size and rule option.
fn arb_any_game() -> impl Strategy<Value = Position> {
    prop_oneof![
        arb_position(),
        arb_played(),
        arb_position_any_game(),
        arb_played_any_game(),
        arb_telo(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn fen_round_trip(pos in prop_oneof![arb_position(), arb_played()]) {
        let text = pos.to_fen();
        let back = Position::from_fen_with(&text, pos.rules()).unwrap();
        prop_assert_eq!(back, pos);
        prop_assert_eq!(back.to_fen(), text);
    }

    #[test]
    fn turn_text_round_trip(pos in prop_oneof![arb_position(), arb_played()]) {
        for turn in pos.legal_turns() {
            let text = turn.to_string();
            prop_assert_eq!(pos.parse_turn(&text).unwrap(), turn);
            let dashless = text.replace('-', "");
            prop_assert_eq!(pos.parse_turn(&dashless).unwrap(), turn);
        }
    }

    #[test]
    fn step_interface_agrees_with_turn_list(pos in arb_any_game()) {
        let legal = pos.legal_turns();
        let mut built = Vec::new();
        builder_turns(&pos.begin_turn(), &legal, &mut built);
        // The builder reaches every legal turn, and only those: equal values (the captured
        // stones too), not only equal texts, each once.
        prop_assert_eq!(sorted_texts(built.iter().copied()), sorted_texts(legal.iter().copied()));
        for t in &built {
            prop_assert!(legal.contains(t), "{t} built but not legal in {pos}");
        }
        for t in legal.iter() {
            prop_assert!(built.contains(t), "{t} legal but not built in {pos}");
        }
        // Each legal turn is reached step by step along its own steps, the stones each step
        // takes add up to the turn's, the board the builder shows is the position after the
        // turn, and the built turn plays.
        for t in legal.iter() {
            let mut b = pos.begin_turn();
            let mut taken = Bitboard::EMPTY;
            if t.is_placement() {
                prop_assert!(b.legal_placements().contains(t.to()));
                b.place(t.to()).unwrap();
            }
            for step in t.steps() {
                prop_assert!(b.legal_steps().contains(&step), "{step} of {t} not offered in {pos}");
                taken |= b.captured_by(step);
                b.play_step(step).unwrap();
            }
            let done = b.finish().unwrap();
            prop_assert_eq!(done, *t);
            prop_assert_eq!(taken, t.captured());
            let next = pos.play(&done).unwrap();
            let us = pos.side_to_move();
            prop_assert_eq!(b.stones(us), next.stones(us));
            prop_assert_eq!(b.stones(us.other()), next.stones(us.other()));
        }
        // The independent reference generator agrees where it plays the same rules (the
        // standard options of each game).
        let kind = pos.rules().game();
        if pos.rules() == Rules::STANDARD.with_game(kind) {
            let variant = match kind {
                GameKind::Vela => Variant::Vela,
                GameKind::Telo => Variant::Telo,
                _ => Variant::Standard,
            };
            let board = Board::from_fen(&pos.to_fen()).unwrap().with_variant(variant);
            let mut reference: Vec<String> = board.turns().into_iter().map(|t| t.text).collect();
            reference.sort();
            prop_assert_eq!(reference, sorted_texts(built.iter().copied()));
        }
        // The turns of each stone, put together, are the whole list.
        let mut by_stone = Vec::new();
        for p in pos.size().points() {
            pos.for_each_turn_from(p, |t| {
                assert_eq!(t.from(), p);
                by_stone.push(t);
            });
        }
        prop_assert_eq!(sorted_texts(by_stone), sorted_texts(legal.iter().copied()));
        // Counting in bulk agrees with the list, under every rule option.
        prop_assert_eq!(pos.count_turns(), legal.len() as u64);
    }

    #[test]
    fn independent_generator_agrees(pos in prop_oneof![arb_position(), arb_played()]) {
        let pos = pos.with_rules(Rules::STANDARD).unwrap();
        let board = naive::Board::from_fen(&pos.to_fen()).unwrap();
        let naive_turns: Vec<String> = {
            let mut v: Vec<String> = board.turns().into_iter().map(|t| t.text).collect();
            v.sort();
            v
        };
        prop_assert_eq!(naive_turns, sorted_texts(pos.legal_turns()));
        prop_assert_eq!(pos.count_turns(), pos.legal_turns().len() as u64);
    }

    #[test]
    fn hash_and_stones_after_play(pos in prop_oneof![arb_position(), arb_played()]) {
        let us = pos.side_to_move();
        let them = us.other();
        for turn in pos.legal_turns() {
            let next = pos.play(&turn).unwrap();
            prop_assert_eq!(next.zobrist(), next.compute_zobrist());
            // The mover keeps its count; the opponent loses exactly the captured stones.
            prop_assert_eq!(next.stones(us).count(), pos.stones(us).count());
            prop_assert!((turn.captured() & !pos.stones(them)).is_empty());
            prop_assert_eq!(next.stones(them), pos.stones(them) & !turn.captured());
            // No stone appears except the mover on its destination.
            let new = next.occupied() & !pos.occupied();
            prop_assert!((new & !turn.to().bit()).is_empty());
            prop_assert_eq!(next.side_to_move(), them);
            prop_assert_eq!(turn.is_capture(), !turn.captured().is_empty());
        }
    }

    #[test]
    fn random_games_end(i in 0..BoardSize::ALL.len(), mut seed in 1u64..) {
        let mut game = Game::new(Position::start(BoardSize::ALL[i]));
        let stones = game.position().occupied().count() as usize;
        // Each capture removes a stone; between captures at most 100 turns (the default
        // no-capture limit): the game must end within this bound.
        let bound = (stones + 1) * 101;
        while game.outcome().is_none() {
            prop_assert!(game.turns().len() < bound, "game did not end");
            let turns = game.position().legal_turns();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            game.play(&turns[(seed % turns.len() as u64) as usize]).unwrap();
        }
    }

    #[test]
    fn parsers_never_panic(s in "\\PC{0,80}", bytes in proptest::collection::vec(any::<u8>(), 0..80)) {
        let lossy = String::from_utf8_lossy(&bytes);
        for text in [s.as_str(), lossy.as_ref()] {
            let _ = Position::from_fen(text);
            let _ = text.parse::<BoardSize>();
            let _ = text.parse::<Rules>();
            let _ = Position::standard().parse_turn(text);
            let _ = Position::start(BoardSize::TELO).parse_turn(text);
        }
    }

    #[test]
    fn fen_like_strings_never_panic(s in "[WB1-9/]{0,60} [wbx]( [0-9]{1,6}){0,3}") {
        let _ = Position::from_fen(&s);
    }

    #[test]
    fn turn_like_strings_never_panic(s in "([a-j][0-9]-?[AWX]?){0,12}") {
        let _ = Position::standard().parse_turn(&s);
    }
}

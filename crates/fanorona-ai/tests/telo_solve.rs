//! Fanoron-Telo solved (`fanorona_ai::telo`): hand-checked positions, and the whole solution
//! checked as a certificate against the plain-array reference generator of `fanorona-core`.

use std::collections::HashMap;

use fanorona_ai::solve::Value;
use fanorona_ai::telo::TeloSolution;
use fanorona_core::reference::{Board, Cell};
use fanorona_core::{Position, Rules};

#[test]
fn hand_checked_positions() {
    let s = TeloSolution::solve(Rules::TELO).unwrap();
    let v = |fen: &str| s.value(&Position::from_fen(fen).unwrap());
    // White a3 b3, Black a2 b2, White to place: c3 completes the top rank.
    assert_eq!(v("WW1/BB1/3 w telo"), Some((Value::Win, 1)));
    // A line stands: the side to move (who did not make it) has lost.
    assert_eq!(v("WWW/BB1/3 b telo"), Some((Value::Loss, 0)));
    // White a3 b3 threatens c3; Black (a2) must block: after c3 the game goes on, after any
    // other placement White wins at once.
    let pos = Position::from_fen("WW1/B2/3 b telo").unwrap();
    for turn in pos.legal_turns() {
        let after = s.value(&pos.play(&turn).unwrap()).unwrap();
        if turn.to_string() == "c3" {
            assert_ne!(after, (Value::Win, 1), "c3 blocks");
        } else {
            assert_eq!(
                after,
                (Value::Win, 1),
                "{turn} lets White complete the rank"
            );
        }
    }
}

/// Every value is checked by its definition on the reference generator's turns: a loss in 0
/// has no turn; a win in n has a turn to a loss in n-1 and none to a shorter loss; a loss in
/// n has only turns to wins, the longest in n-1; a draw has no turn to a loss and some turn
/// to a draw. This holds for one solution only, the true one.
#[test]
fn the_solution_is_a_certificate() {
    let s = TeloSolution::solve(Rules::TELO).unwrap();
    let mut by_cells: HashMap<(Vec<Cell>, String), (Value, u16)> = HashMap::new();
    for (pos, v) in s.iter() {
        let fen = pos.to_fen();
        let b = Board::from_fen(&fen).unwrap();
        let side = fen.split(' ').nth(1).unwrap().to_owned();
        by_cells.insert((b.cells().to_vec(), side), v);
    }
    let mut checked = 0;
    for (pos, v) in s.iter() {
        let b = Board::from_fen(&pos.to_fen()).unwrap();
        let turns = b.turns();
        let succ: Vec<(Value, u16)> = turns
            .iter()
            .map(|t| {
                let fen_side = if pos.to_fen().contains(" w") {
                    "b"
                } else {
                    "w"
                };
                *by_cells
                    .get(&(t.after.cells().to_vec(), fen_side.to_owned()))
                    .expect("every successor is in the solution")
            })
            .collect();
        match v {
            (Value::Loss, 0) => assert!(turns.is_empty(), "{}", pos.to_fen()),
            (Value::Win, n) => {
                assert!(succ.contains(&(Value::Loss, n - 1)), "{}", pos.to_fen());
                assert!(
                    succ.iter().all(|&(w, d)| w != Value::Loss || d >= n - 1),
                    "{}",
                    pos.to_fen()
                );
            }
            (Value::Loss, n) => {
                assert!(succ.iter().all(|&(w, _)| w == Value::Win));
                assert_eq!(succ.iter().map(|&(_, d)| d).max(), Some(n - 1));
            }
            (Value::Draw, _) => {
                assert!(succ.iter().all(|&(w, _)| w != Value::Loss));
                assert!(succ.iter().any(|&(w, _)| w == Value::Draw));
            }
        }
        checked += 1;
    }
    assert_eq!(checked, s.iter().count());
    let [w, d, l] = s.counts();
    println!(
        "Telo: {} positions, {w} won, {d} drawn, {l} lost; start {:?}; longest {}",
        w + d + l,
        s.start(),
        s.longest()
    );
}

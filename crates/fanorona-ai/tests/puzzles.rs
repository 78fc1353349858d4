//! Every shipped puzzle re-checked: a tactic by the search at its depth, a win in N exactly
//! by the endgame tables committed under `tables/` (5x9, up to 4 stones).

mod common;

use fanorona_ai::puzzles::{self, PuzzleKind, check};
use fanorona_ai::solve::tablebase::Tablebase;

#[test]
fn every_shipped_puzzle_checks() {
    let set = puzzles::shipped();
    let needs_tables = set
        .puzzles()
        .iter()
        .any(|p| matches!(p.kind(), PuzzleKind::WinIn { .. }));
    let tables = match common::repository_dir("tables") {
        Some(dir) => Some(Tablebase::load(&dir).expect("the committed tables load")),
        None if needs_tables => return,
        None => None,
    };
    let mut searcher = check::searcher();
    let mut failures = Vec::new();
    for p in set.puzzles() {
        if let Err(e) = check::check(p, &mut searcher, tables.as_ref()) {
            failures.push(format!("{}: {e}", p.id()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} puzzles fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

//! Every shipped puzzle re-checked: a tactic by the search at its depth, a win in N exactly
//! by the endgame tables committed under `tables/` (5x9, up to 4 stones).

mod common;

use fanorona_ai::puzzles::{self, PuzzleKind, check};
use fanorona_ai::solve::tablebase::Tablebase;

#[test]
fn every_shipped_puzzle_checks() {
    let set = puzzles::shipped();
    // Outside the repository (the published package) the tables are not there: the tactics
    // are still checked.
    let tables = common::repository_dir("tables")
        .map(|dir| Tablebase::load(&dir).expect("the committed tables load"));
    let mut searcher = check::searcher();
    let mut failures = Vec::new();
    let mut checked = 0;
    for p in set.puzzles() {
        if tables.is_none() && matches!(p.kind(), PuzzleKind::WinIn { .. }) {
            continue;
        }
        checked += 1;
        if let Err(e) = check::check(p, &mut searcher, tables.as_ref()) {
            failures.push(format!("{}: {e}", p.id()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} puzzles fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
    if tables.is_some() {
        assert_eq!(checked, set.len());
    }
}

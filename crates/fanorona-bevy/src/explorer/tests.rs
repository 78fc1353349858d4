//! Headless tests of the opening explorer.

use bevy::prelude::*;
use fanorona_ai::Score;
use fanorona_ai::book::{self, BookEntry};
use fanorona_core::{BoardSize, Color as Side, Position, Rules};

use super::{Explorer, row_text};
use crate::game::flow::Command;
use crate::test_support::*;

/// The five legal first turns of the standard game (worked out by hand: only the stones next
/// to the empty centre e3 can move, and each move there captures).
const OPENINGS: [&str; 5] = ["d2-e3A", "e2-e3A", "f2-e3A", "d3-e3A", "d3-e3W"];

#[test]
fn the_explorer_lists_the_books_turns_in_analysis() {
    let mut app = two_people(Position::standard());
    app.add_plugins((crate::analysis::plugin, super::plugin));
    app.update();
    assert!(!app.world().resource::<Explorer>().shown);
    app.world_mut()
        .write_message(crate::analysis::AnalysisRequest::Toggle);
    app.update();
    app.update();
    let explorer = app.world().resource::<Explorer>().clone();
    assert!(explorer.shown && explorer.has_book);
    let shipped = book::shipped(BoardSize::STANDARD, Rules::STANDARD).expect("a 5x9 book");
    let expected = shipped.entries(&Position::standard());
    assert!(!expected.is_empty());
    assert_eq!(explorer.entries, expected);
    for entry in &explorer.entries {
        assert!(
            OPENINGS.contains(&entry.turn.to_string().as_str()),
            "{}",
            entry.turn
        );
    }
    // A turn played: the explorer follows the position on the board.
    let first = explorer.entries[0].turn;
    send(&mut app, Command::PlayText(first.to_string()));
    app.update();
    let now = app.world().resource::<Explorer>().clone();
    let mut after = Position::standard();
    after = after.play_unchecked(&first);
    assert_eq!(now.entries, shipped.entries(&after));
    // Looking back at the start: the start's turns again.
    send(&mut app, Command::View(Some(0)));
    app.update();
    assert_eq!(app.world().resource::<Explorer>().entries, expected);
}

#[test]
fn a_book_turn_is_written_with_its_results_and_score() {
    let start = Position::standard();
    let mut entry = BookEntry::new(start.parse_turn("d2-e3A").expect("legal"));
    entry.wins = 3;
    entry.draws = 1;
    entry.losses = 2;
    entry.score = Some(Score::Cp(-12));
    entry.depth = 8;
    // (3 + 1/2) / 6 = 58%; the engine's -0.12 for White, to move.
    let en = |msg| crate::i18n::Tr::english().msg(&msg);
    assert_eq!(
        en(row_text(&entry, Side::White)),
        "d2-e3A  +3 =1 -2  58%  engine -0.12 (d8)"
    );
    // A turn from games only: no engine score.
    let mut games = BookEntry::new(start.parse_turn("f2-e3A").expect("legal"));
    games.wins = 1;
    assert_eq!(en(row_text(&games, Side::White)), "f2-e3A  +1 =0 -0  100%");
    // A turn only searched: its score alone, from White's side with Black to move.
    let mut searched = BookEntry::new(start.parse_turn("e2-e3A").expect("legal"));
    searched.score = Some(Score::Cp(50));
    searched.depth = 7;
    assert_eq!(
        en(row_text(&searched, Side::Black)),
        "e2-e3A  engine -0.50 (d7)"
    );
}

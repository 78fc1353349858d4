//! Headless tests of retrying the mistakes of a reviewed game.

use std::time::Duration;

use bevy::prelude::*;
use fanorona_core::Position;

use super::{Mistakes, MistakesCommand, TryState};
use crate::analysis::review::{Review, ReviewRequest};
use crate::game::engine::MinThink;
use crate::game::flow::{Command, Match, Player};
use crate::settings::Settings;
use crate::test_support::*;

// White a1 can capture c1, d1 and e1 by approach (a1-b1A) or only a3 (a1-a2A); White also
// has i5, far away. Taking one stone instead of three is the review's mistake on turn 1 (see
// the review's test).
const THROWN: &str = "8W/9/B8/9/W1BBB4 w";

fn reviewed_app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin))
        .insert_resource(Settings::default())
        .insert_resource(MinThink(Duration::ZERO))
        .insert_resource(Match::new(
            Position::from_fen(THROWN).expect("valid"),
            [Player::Human, Player::Human],
            1,
        ))
        .init_state::<crate::Screen>()
        .insert_state(crate::Screen::Playing)
        .add_plugins((
            crate::game::flow::plugin,
            crate::game::engine::plugin,
            crate::analysis::review::plugin,
            super::plugin,
        ));
    app.update();
    send(&mut app, Command::PlayText("a1-a2A".into()));
    app.world_mut().write_message(ReviewRequest::Toggle);
    app.update();
    update_until(&mut app, "the review", |app| {
        app.world().resource::<Review>().complete()
    });
    app
}

fn mistakes(app: &App) -> &Mistakes {
    app.world().resource::<Mistakes>()
}

#[test]
fn a_mistake_is_retried_wrong_then_revealed_then_right() {
    let mut app = reviewed_app();
    app.world_mut().write_message(MistakesCommand::Start);
    app.update();
    app.update();
    let item = *mistakes(&app).item().expect("one mistake");
    assert_eq!(mistakes(&app).items.len(), 1);
    assert_eq!(
        (item.ply, item.played.to_string()),
        (0, "a1-a2A".to_string())
    );
    // The better turn takes the three stones c1, d1 and e1.
    let three = bits(&["c1", "d1", "e1"]);
    assert_eq!(item.better.captured() & three, three);
    // The position before the mistake is on the board, and the review rests meanwhile.
    assert!(turns(&app).is_empty());
    assert_eq!(game(&app).game().position().to_fen(), THROWN);
    assert!(!app.world().resource::<Review>().enabled);
    // The same mistake again: wrong; the position is set up again and the better turn shown.
    send(&mut app, Command::PlayText("a1-a2A".into()));
    app.update();
    assert_eq!(mistakes(&app).state, TryState::Revealed);
    let feedback = crate::i18n::Tr::english().msg(&mistakes(&app).feedback);
    assert!(feedback.contains(&item.better.to_string()), "{feedback}");
    assert!(
        feedback.contains("is the game's mistake again"),
        "{feedback}"
    );
    app.update();
    assert!(turns(&app).is_empty());
    assert_eq!(game(&app).hint(), Some(item.better));
    // The better turn now: right, but not at the first try.
    send(&mut app, Command::PlayText(item.better.to_string()));
    app.update();
    assert_eq!(mistakes(&app).state, TryState::Right);
    assert_eq!(mistakes(&app).right_first(), 0);
    // Again, and right at once: counted as found at the first try.
    app.world_mut().write_message(MistakesCommand::Again);
    app.update();
    app.update();
    assert_eq!(mistakes(&app).state, TryState::Trying);
    send(&mut app, Command::PlayText(item.better.to_string()));
    app.update();
    assert_eq!(mistakes(&app).state, TryState::Right);
    assert_eq!(mistakes(&app).right_first(), 1);
    // Back to the reviewed game, with its review.
    app.world_mut().write_message(MistakesCommand::Exit);
    app.update();
    app.update();
    assert!(app.world().get_resource::<Mistakes>().is_none());
    assert_eq!(turns(&app), ["a1-a2A"]);
    assert!(app.world().resource::<Review>().enabled);
}

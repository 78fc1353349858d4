//! Game clocks: a time control (base time and an increment per turn) for games against the
//! engine and between two people. The side to move's clock runs (not while stones are
//! animated, not in the tutorial); a finished turn adds the increment; a clock at zero loses
//! the game on time. The engine gets its remaining time and plays within it.

use std::time::Duration;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use fanorona_core::Color as Side;

use crate::game::flow::{Animating, FlowSet, Match};
use crate::i18n::Msg;

/// A time control chosen in the menu.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TimeControl {
    /// No clocks.
    #[default]
    Off,
    /// 1 minute, no increment.
    OneMinute,
    /// 3 minutes + 2 seconds a turn.
    ThreePlusTwo,
    /// 5 minutes + 3 seconds a turn.
    FivePlusThree,
    /// 10 minutes + 5 seconds a turn.
    TenPlusFive,
    /// 30 minutes + 20 seconds a turn.
    ThirtyPlusTwenty,
}

impl TimeControl {
    /// All time controls, in menu order.
    pub const ALL: [TimeControl; 6] = [
        TimeControl::Off,
        TimeControl::OneMinute,
        TimeControl::ThreePlusTwo,
        TimeControl::FivePlusThree,
        TimeControl::TenPlusFive,
        TimeControl::ThirtyPlusTwenty,
    ];

    /// Base time and increment, `None` without clocks.
    pub fn times(self) -> Option<(Duration, Duration)> {
        let (minutes, increment) = match self {
            TimeControl::Off => return None,
            TimeControl::OneMinute => (1, 0),
            TimeControl::ThreePlusTwo => (3, 2),
            TimeControl::FivePlusThree => (5, 3),
            TimeControl::TenPlusFive => (10, 5),
            TimeControl::ThirtyPlusTwenty => (30, 20),
        };
        Some((
            Duration::from_secs(minutes * 60),
            Duration::from_secs(increment),
        ))
    }

    /// Text shown in the menu.
    pub fn label(self) -> Msg {
        match self.times() {
            None => Msg::new("clock-off"),
            Some((base, inc)) => Msg::new("clock-control")
                .with("minutes", base.as_secs() / 60)
                .with("increment", inc.as_secs()),
        }
    }
}

/// The clocks of the game on the board.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Clocks {
    /// Base time and increment; `None`: no clocks.
    pub control: Option<(Duration, Duration)>,
    /// Time left, indexed by `Color::index`.
    pub remaining: [Duration; 2],
    /// The match (its generation's upper bits) these clocks belong to.
    game: Option<u64>,
    /// Turns played when last seen, to add the increment after each turn.
    turns: usize,
}

impl Clocks {
    /// Clocks for a game with this time control (both sides at the base time).
    pub fn new(control: Option<(Duration, Duration)>) -> Clocks {
        let base = control.map_or(Duration::ZERO, |(b, _)| b);
        Clocks {
            control,
            remaining: [base; 2],
            game: None,
            turns: 0,
        }
    }

    /// Time left for `side`, `None` without clocks.
    pub fn left(&self, side: Side) -> Option<Duration> {
        self.control.map(|_| self.remaining[side.index()])
    }

    /// The engine's clock for `side`: what `fanorona-ai` spreads over the rest of the game.
    pub fn engine_clock(&self, side: Side) -> Option<fanorona_ai::Clock> {
        let (_, increment) = self.control?;
        Some(fanorona_ai::Clock::new(
            self.remaining[side.index()],
            increment,
        ))
    }
}

/// A clock as shown: `4:59` (tenths under 20 seconds: `0:12.3`).
pub fn clock_text(left: Duration) -> String {
    let secs = left.as_secs();
    if secs < 20 {
        format!("0:{:02}.{}", secs, left.subsec_millis() / 100)
    } else {
        format!("{}:{:02}", secs / 60, secs % 60)
    }
}

/// The clocks' game identity: a new match (new game, load, tutorial) resets them.
fn match_id(game: &Match) -> u64 {
    game.generation() >> 32
}

fn tick(
    time: Res<Time>,
    mut clocks: ResMut<Clocks>,
    settings: Option<Res<crate::settings::Settings>>,
    mut game: ResMut<Match>,
    animating: Option<Res<Animating>>,
    tutorial: Option<Res<crate::tutorial::Tutorial>>,
) {
    let id = match_id(&game);
    if clocks.game != Some(id) {
        // A new match: the clocks of the time control chosen in the menu (none in the
        // tutorial, in review of a loaded game the clocks start at its current position).
        let control = if tutorial.is_some() {
            None
        } else {
            settings
                .as_ref()
                .and_then(|s| s.clock.times())
                .or(clocks.control.filter(|_| clocks.game.is_none()))
        };
        let mut fresh = Clocks::new(control);
        fresh.game = Some(id);
        fresh.turns = game.game().turns().len();
        *clocks = fresh;
        return;
    }
    let Some((_, increment)) = clocks.control else {
        return;
    };
    let turns = game.game().turns().len();
    if turns > clocks.turns {
        // The side that just moved gets its increment (once per turn played).
        for ply in clocks.turns..turns {
            let mover = if ply % 2 == 0 {
                game.game().start().side_to_move()
            } else {
                game.game().start().side_to_move().other()
            };
            let left = &mut clocks.remaining[mover.index()];
            *left = left.saturating_add(increment);
        }
    }
    clocks.turns = turns;
    if game.outcome().is_some() || animating.is_some_and(|a| a.0) {
        return;
    }
    let side = game.side_to_move();
    let left = &mut clocks.remaining[side.index()];
    *left = left.saturating_sub(time.delta());
    if left.is_zero() {
        game.lose_on_time(side);
    }
}

/// The clock plugin.
pub fn plugin(app: &mut App) {
    app.init_resource::<Clocks>().add_systems(
        Update,
        tick.after(FlowSet)
            .before(crate::game::engine::EngineSet)
            .run_if(resource_exists::<Match>.and_then(not(in_state(crate::Screen::Menu)))),
    );
}

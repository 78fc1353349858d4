//! The engine level as a slider over every level of `fanorona-ai` (weakest first, each with
//! its Elo on the ladder's scale), and the player's rating estimated from their results
//! against the levels ([`fanorona_ai::estimate_rating`]). Each game a person finishes against
//! the engine is counted once, for the engine's level, in the settings.

use bevy::prelude::*;
use fanorona_ai::{Level, RatingEstimate, estimate_rating};
use fanorona_core::Color as Side;

use crate::game::flow::{Match, Player};
use crate::i18n::{Localized, Msg};
use crate::settings::{LevelResult, Settings};
use crate::ui::theme::{ACCENT, BUTTON, DIM, TEXT, tr_text};
use crate::ui::widgets::Action;

/// One segment of the slider: the level of this number (1 is the weakest).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelStep(pub u8);

#[derive(Component)]
struct LevelLabel;

#[derive(Component)]
struct RatingLabel;

/// The level of a menu number (1 is the weakest).
pub fn level_of(number: u8) -> Level {
    Level::from_index(number.saturating_sub(1)).unwrap_or(Level::Maximum)
}

/// `Engine level: 7 hobbyist (Elo 1450)`.
pub fn level_text(number: u8) -> Msg {
    let level = level_of(number);
    Msg::new("levels-level")
        .with("number", level.number())
        .with("name", crate::game::engine::level_name(level))
        .with("elo", level.elo())
}

/// The player's results as the estimate wants them (levels unknown to this version are left
/// out).
pub fn results(settings: &Settings) -> Vec<(Level, u32, u32, u32)> {
    settings
        .level_results
        .iter()
        .filter_map(|r| {
            let level = Level::ALL.iter().find(|l| l.name() == r.level)?;
            Some((*level, r.wins, r.draws, r.losses))
        })
        .collect()
}

/// The player's estimated rating, if they finished a game against the engine.
pub fn estimate(settings: &Settings) -> Option<RatingEstimate> {
    estimate_rating(&results(settings))
}

/// The line under the slider.
pub fn rating_text(settings: &Settings) -> Msg {
    match estimate(settings) {
        Some(r) => Msg::new("levels-rating")
            .with("elo", r.elo.round() as i64)
            .with("error", r.error.round() as i64)
            .with("games", r.games),
        None => Msg::new("levels-no-rating"),
    }
}

/// Counts a finished game of a person against the engine at `level` (1 is the weakest):
/// `winner` is the result, `person` the person's side.
pub fn record(settings: &mut Settings, level: u8, person: Side, winner: Option<Side>) {
    let name = level_of(level).name();
    let index = match settings.level_results.iter().position(|r| r.level == name) {
        Some(i) => i,
        None => {
            settings.level_results.push(LevelResult {
                level: name.to_string(),
                ..LevelResult::default()
            });
            settings.level_results.len() - 1
        }
    };
    let entry = &mut settings.level_results[index];
    match winner {
        Some(w) if w == person => entry.wins += 1,
        Some(_) => entry.losses += 1,
        None => entry.draws += 1,
    }
}

/// Counts each game a person finishes against the engine, once (by the match's instance);
/// only a game seen in progress (a finished record opened from a file is not a result).
fn record_results(
    game: Option<Res<Match>>,
    mut settings: ResMut<Settings>,
    mut live: Local<Option<u64>>,
) {
    let Some(game) = game else {
        return;
    };
    let id = game.generation() >> 32;
    let Some(outcome) = game.outcome() else {
        *live = Some(id);
        return;
    };
    if *live != Some(id) {
        return;
    }
    let person = match game.players() {
        [Player::Human, Player::Engine] => Side::White,
        [Player::Engine, Player::Human] => Side::Black,
        _ => return,
    };
    // A game resigned before any turn is not a game played.
    if game.game().turns().is_empty() {
        return;
    }
    *live = None;
    record(&mut settings, game.level(), person, outcome.winner);
}

/// The slider for the menu: a label, one segment a level (the chosen one and those below it
/// filled), and the player's rating.
pub fn spawn_slider(commands: &mut Commands, settings: &Settings) -> Entity {
    let track = commands
        .spawn(Node {
            column_gap: px(2.0),
            height: px(18.0),
            width: percent(100.0),
            ..default()
        })
        .id();
    for level in Level::ALL {
        let number = level.number();
        let step = commands
            .spawn((
                Button,
                Action::Level(number),
                LevelStep(number),
                Node {
                    flex_grow: 1.0,
                    height: percent(100.0),
                    border_radius: BorderRadius::all(px(3.0)),
                    ..default()
                },
                BackgroundColor(step_color(number, settings.level())),
            ))
            .id();
        commands.entity(track).add_child(step);
    }
    let row = commands
        .spawn(Node {
            flex_direction: FlexDirection::Column,
            row_gap: px(4.0),
            ..default()
        })
        .id();
    let label = commands
        .spawn((
            LevelLabel,
            tr_text(level_text(settings.level()), 16.0, TEXT),
        ))
        .id();
    let rating = commands
        .spawn((RatingLabel, tr_text(rating_text(settings), 14.0, DIM)))
        .id();
    commands.entity(row).add_children(&[label, track, rating]);
    row
}

fn step_color(number: u8, chosen: u8) -> Color {
    if number <= chosen { ACCENT } else { BUTTON }
}

/// Keeps the slider on the chosen level.
fn refresh_slider(
    settings: Res<Settings>,
    mut steps: Query<(&LevelStep, &mut BackgroundColor, &Interaction)>,
    mut labels: Query<&mut Localized, (With<LevelLabel>, Without<RatingLabel>)>,
    mut ratings: Query<&mut Localized, (With<RatingLabel>, Without<LevelLabel>)>,
) {
    let chosen = settings.level();
    for (step, mut background, interaction) in &mut steps {
        // Hovering shows the button's own colour; otherwise the slider's fill.
        if *interaction != Interaction::None {
            continue;
        }
        let wanted = step_color(step.0, chosen);
        if background.0 != wanted {
            background.0 = wanted;
        }
    }
    if !settings.is_changed() {
        return;
    }
    let label = level_text(chosen);
    for mut t in &mut labels {
        if t.0 != label {
            t.0.clone_from(&label);
        }
    }
    let rating = rating_text(&settings);
    for mut t in &mut ratings {
        if t.0 != rating {
            t.0.clone_from(&rating);
        }
    }
}

/// The plugin.
pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            record_results.after(crate::game::flow::FlowSet),
            refresh_slider,
        ),
    );
}

#[cfg(test)]
mod tests;

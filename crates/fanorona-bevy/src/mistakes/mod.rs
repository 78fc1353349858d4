//! Learn from your mistakes: once the review has evaluated a game, each mistake a person made
//! (the review's marks) becomes a position to play again. A try that is the mistake again,
//! or loses as much of the evaluation bar as a mistake does, is wrong: the position is set up
//! again and the engine's better turn is shown by the hint's arrow; a right try counts. The
//! reviewed game comes back on leaving.
//!
//! The feature reads the review's public results ([`Review::mistakes`], [`Review::evals`]) and
//! plays through the shared [`Match`]; it reports its panel to the [`Layout`].

use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};

use bevy::prelude::*;
use fanorona_ai::{Limits, SearchOptions, Searcher};
use fanorona_core::{Color as Side, Game, Turn};

use crate::Screen;
use crate::analysis::review::{MISTAKE, REVIEW_DEPTH, REVIEW_TIME, Review, ReviewRequest};
use crate::analysis::white_share;
use crate::game::flow::{BoardJump, Command, FlowSet, Match, Player, turn_number};
use crate::i18n::{Localized, Msg};
use crate::ui::layout::{GRAPH_EDGE, LEFT_EDGE, Layout};
use crate::ui::theme::{ACCENT, DIM, TEXT, TEXT_BODY, TEXT_LARGE, tr_text};
use crate::ui::widgets::{Action, Focusable, button};

/// What the buttons ask.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MistakesCommand {
    /// Begin with the first mistake of the reviewed game.
    Start,
    /// Go to the next mistake (after the last: back to the game).
    Next,
    /// Set this mistake's position up again.
    Again,
    /// Back to the reviewed game.
    Exit,
}

/// One mistake to play again.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Item {
    /// Turns played before it (the position to play from is after `ply` turns).
    pub ply: usize,
    /// Who made it.
    pub mover: Side,
    /// The turn played in the game.
    pub played: Turn,
    /// The engine's better turn.
    pub better: Turn,
    /// The mover's share of the evaluation bar before the mistake (with the best turn).
    pub share: f32,
}

/// Where a try stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TryState {
    /// Waiting for the player's turn.
    Trying,
    /// The engine is checking the turn played.
    Judging,
    /// The try was wrong: the better turn is shown; play it.
    Revealed,
    /// A right turn was played.
    Right,
}

/// Retrying the mistakes (present while it runs).
#[derive(Resource)]
pub struct Mistakes {
    /// The mistakes, in the order of the game.
    pub items: Vec<Item>,
    /// The one being tried.
    pub index: usize,
    /// Where the try stands.
    pub state: TryState,
    /// What was said about the last try.
    pub feedback: Msg,
    /// The mistakes answered right at the first try.
    pub first_try: Vec<bool>,
    /// Wrong tries at this mistake.
    pub wrong: u32,
    /// The reviewed game, brought back on leaving.
    original: Match,
    /// The match set up for the current try (another one ends the retrying).
    match_id: u64,
    judging: Option<Mutex<Receiver<f32>>>,
    stop: Arc<AtomicBool>,
    /// The review was on (it is paused while retrying, so that it keeps the reviewed game's
    /// evaluations, and turned on again on leaving).
    review_was_on: bool,
}

impl Mistakes {
    /// The mistake being tried.
    pub fn item(&self) -> Option<&Item> {
        self.items.get(self.index)
    }

    /// How many were right at the first try.
    pub fn right_first(&self) -> usize {
        self.first_try.iter().filter(|b| **b).count()
    }
}

/// The mistakes of `game`'s people that the review found, with their better turns.
pub fn items(review: &Review, game: &Match) -> Vec<Item> {
    let players = game.players();
    review
        .mistakes()
        .iter()
        .filter(|m| players[m.mover.index()] == Player::Human)
        .filter_map(|m| {
            let ply = m.turn - 1;
            let played = *game.game().turns().get(ply)?;
            let better = m.better?;
            let white = review.evals().get(ply)?.as_ref()?.white_share;
            let share = match m.mover {
                Side::White => white,
                Side::Black => 1.0 - white,
            };
            Some(Item {
                ply,
                mover: m.mover,
                played,
                better,
                share,
            })
        })
        .collect()
}

fn match_id(game: &Match) -> u64 {
    game.generation() >> 32
}

/// The game up to the position before `item` (the original's turns before it).
fn position_match(original: &Match, item: &Item) -> Match {
    let mut game = Game::new(*original.game().start());
    for turn in &original.game().turns()[..item.ply] {
        // The turns were played in this game before: replaying them succeeds.
        let _ = game.play(turn);
    }
    Match::from_game(game, [Player::Human, Player::Human], original.level())
}

fn describe(item: &Item) -> Msg {
    Msg::new("mistakes-describe")
        .with("number", turn_number(item.ply + 1))
        .with("played", item.played.to_string())
        .with("side", crate::game::flow::side_name(item.mover))
}

fn mistakes_commands(
    mut commands: Commands,
    mut requests: MessageReader<MistakesCommand>,
    mistakes: Option<ResMut<Mistakes>>,
    review: Option<Res<Review>>,
    game: Option<Res<Match>>,
    mut jumps: MessageWriter<BoardJump>,
    mut next: ResMut<NextState<Screen>>,
    mut reviews: MessageWriter<ReviewRequest>,
) {
    let mut mistakes = mistakes;
    for request in requests.read() {
        jumps.write(BoardJump);
        match request {
            MistakesCommand::Start => {
                let (Some(review), Some(game)) = (review.as_deref(), game.as_deref()) else {
                    continue;
                };
                if mistakes.is_some() {
                    continue;
                }
                let found = items(review, game);
                let Some(first) = found.first() else {
                    continue;
                };
                let try_match = position_match(game, first);
                let state = Mistakes {
                    feedback: describe(first),
                    first_try: vec![false; found.len()],
                    items: found,
                    index: 0,
                    state: TryState::Trying,
                    wrong: 0,
                    original: game.clone(),
                    match_id: match_id(&try_match),
                    judging: None,
                    stop: Arc::default(),
                    review_was_on: review.enabled,
                };
                if review.enabled {
                    reviews.write(ReviewRequest::Toggle);
                }
                commands.insert_resource(try_match);
                commands.insert_resource(state);
                next.set(Screen::Playing);
            }
            MistakesCommand::Next | MistakesCommand::Again => {
                let Some(m) = mistakes.as_deref_mut() else {
                    continue;
                };
                let index = if *request == MistakesCommand::Next {
                    m.index + 1
                } else {
                    m.index
                };
                let Some(item) = m.items.get(index).copied() else {
                    leave(&mut commands, m, &mut reviews);
                    continue;
                };
                let try_match = position_match(&m.original, &item);
                m.index = index;
                m.state = TryState::Trying;
                m.wrong = 0;
                m.feedback = describe(&item);
                m.match_id = match_id(&try_match);
                m.judging = None;
                commands.insert_resource(try_match);
            }
            MistakesCommand::Exit => {
                if let Some(m) = mistakes.as_deref() {
                    leave(&mut commands, m, &mut reviews);
                }
            }
        }
    }
}

/// Back to the reviewed game (and its review).
fn leave(commands: &mut Commands, m: &Mistakes, reviews: &mut MessageWriter<ReviewRequest>) {
    m.stop.store(true, std::sync::atomic::Ordering::Relaxed);
    commands.insert_resource(m.original.clone());
    commands.remove_resource::<Mistakes>();
    if m.review_was_on {
        reviews.write(ReviewRequest::Toggle);
    }
}

/// The share of the evaluation bar `mover` keeps after `turn` in `before` (searched like the
/// review's evaluations), on a worker thread.
fn judge_in_background(
    before: Game,
    turn: Turn,
    mover: Side,
    stop: Arc<AtomicBool>,
) -> Option<Mutex<Receiver<f32>>> {
    let (send, receive) = channel();
    std::thread::Builder::new()
        // i18n: not text (a thread's name)
        .name("fanorona-mistakes".into())
        .spawn(move || {
            let mut after = before;
            if after.play(&turn).is_err() {
                return;
            }
            let share = if let Some(outcome) = after.outcome() {
                match outcome.winner {
                    Some(w) if w == mover => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                }
            } else {
                let mut searcher = Searcher::new(16);
                let limits = Limits::depth(REVIEW_DEPTH).with_movetime(REVIEW_TIME);
                let Ok(result) =
                    searcher.search(&after, &limits, &SearchOptions::default(), &stop, |_| {})
                else {
                    return;
                };
                let white = white_share(result.score, after.position().side_to_move());
                match mover {
                    Side::White => white,
                    Side::Black => 1.0 - white,
                }
            };
            let _ = send.send(share);
        })
        .ok()
        .map(|_| Mutex::new(receive))
}

/// Judges the try played on the board.
fn follow_try(
    mut commands: Commands,
    mistakes: Option<ResMut<Mistakes>>,
    game: Option<Res<Match>>,
    mut moves: MessageWriter<Command>,
) {
    let (Some(mut m), Some(game)) = (mistakes, game) else {
        return;
    };
    if match_id(&game) != m.match_id {
        if game.generation() >> 32 != match_id(&m.original) {
            // Another game was started or loaded: the retrying is over.
            commands.remove_resource::<Mistakes>();
        }
        return;
    }
    let Some(item) = m.item().copied() else {
        return;
    };
    let turns = game.game().turns();
    match m.state {
        TryState::Trying | TryState::Revealed if turns.len() > item.ply => {
            let tried = turns[item.ply];
            let revealed = m.state == TryState::Revealed;
            if tried == item.better {
                right(&mut m, &tried, revealed);
            } else if tried == item.played {
                wrong(&mut commands, &mut m, &item, &game, "mistakes-why-same");
            } else {
                let before = position_match(&m.original, &item).game().clone();
                m.judging = judge_in_background(before, tried, item.mover, m.stop.clone());
                m.state = TryState::Judging;
                m.feedback = Msg::new("mistakes-checking").with("turn", tried.to_string());
                if revealed {
                    // After the reveal, any good turn still counts as found, not as a first try.
                    m.wrong += 1;
                }
            }
        }
        TryState::Judging => {
            let share = m
                .judging
                .as_ref()
                .and_then(|r| r.lock().ok().and_then(|r| r.try_recv().ok()));
            let Some(share) = share else {
                return;
            };
            m.judging = None;
            let Some(&tried) = turns.get(item.ply) else {
                return;
            };
            if item.share - share < MISTAKE {
                let revealed = m.wrong > 0;
                right(&mut m, &tried, revealed);
            } else {
                wrong(&mut commands, &mut m, &item, &game, "mistakes-why-loses");
            }
        }
        _ => {}
    }
    if m.state == TryState::Revealed
        && game.game().turns().len() == item.ply
        && game.hint() != Some(item.better)
    {
        moves.write(Command::ShowHint {
            generation: game.generation(),
            turn: item.better,
        });
    }
}

fn right(m: &mut Mistakes, tried: &Turn, revealed: bool) {
    if !revealed && m.wrong == 0 {
        let index = m.index;
        if let Some(first) = m.first_try.get_mut(index) {
            *first = true;
        }
    }
    let first = !(revealed || m.wrong > 0);
    m.state = TryState::Right;
    m.feedback = Msg::new(if first {
        "mistakes-right-first"
    } else {
        "mistakes-right"
    })
    .with("turn", tried.to_string());
}

fn wrong(commands: &mut Commands, m: &mut Mistakes, item: &Item, game: &Match, why: &'static str) {
    let tried = game
        .game()
        .turns()
        .get(item.ply)
        .map(ToString::to_string)
        .unwrap_or_default();
    m.wrong += 1;
    m.state = TryState::Revealed;
    m.feedback = Msg::new("mistakes-wrong")
        .with("turn", tried)
        .with("why", Msg::new(why))
        .with("better", item.better.to_string());
    let again = position_match(&m.original, item);
    m.match_id = match_id(&again);
    commands.insert_resource(again);
}

// ---------------------------------------------------------------- the panel and the offer

#[derive(Component)]
struct MistakesPanel;

#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum MistakesText {
    Title,
    Feedback,
    Count,
}

/// The offer under the board once a reviewed game has mistakes to retry.
#[derive(Component)]
struct Offer;

#[derive(Component)]
struct OfferText;

fn spawn_ui(mut commands: Commands) {
    commands.spawn((
        Offer,
        DespawnOnExit(Screen::Playing),
        crate::game::input::BlocksBoard,
        Interaction::None,
        Node {
            position_type: PositionType::Absolute,
            left: px(LEFT_EDGE),
            bottom: px(GRAPH_EDGE),
            display: Display::None,
            ..default()
        },
        children![(
            Button,
            Action::Mistakes(MistakesCommand::Start),
            Focusable(90),
            Node {
                padding: UiRect::axes(px(10.0), px(4.0)),
                border_radius: BorderRadius::all(px(6.0)),
                ..default()
            },
            BackgroundColor(crate::ui::BUTTON),
            children![(
                OfferText,
                tr_text(Msg::default(), 15.0, ACCENT),
                Pickable::IGNORE
            )],
        )],
    ));
    let line = |which: MistakesText, size: f32, color: Color| {
        (
            which,
            tr_text(Msg::default(), size, color),
            Node {
                max_width: px(300.0),
                ..default()
            },
        )
    };
    commands.spawn((
        MistakesPanel,
        DespawnOnExit(Screen::Playing),
        crate::game::input::BlocksBoard,
        Interaction::None,
        Node {
            display: Display::None,
            ..crate::ui::layout::wide_panel_node()
        },
        BackgroundColor(crate::ui::layout::WIDE_PANEL_BACKGROUND),
        children![
            tr_text("mistakes-title-heading", TEXT_LARGE, ACCENT),
            line(MistakesText::Title, 16.0, ACCENT),
            line(MistakesText::Feedback, TEXT_BODY, TEXT),
            line(MistakesText::Count, TEXT_BODY, DIM),
            (
                Node {
                    column_gap: px(6.0),
                    row_gap: px(6.0),
                    flex_wrap: FlexWrap::Wrap,
                    ..default()
                },
                children![
                    button("mistakes-again", Action::Mistakes(MistakesCommand::Again)),
                    button("mistakes-next", Action::Mistakes(MistakesCommand::Next)),
                    button("mistakes-back", Action::Mistakes(MistakesCommand::Exit)),
                ],
            ),
        ],
    ));
}

fn refresh_ui(
    mistakes: Option<Res<Mistakes>>,
    review: Option<Res<Review>>,
    game: Option<Res<Match>>,
    tutorial: Option<Res<crate::tutorial::Tutorial>>,
    mut offers: Query<&mut Node, (With<Offer>, Without<MistakesPanel>)>,
    mut offer_text: Query<&mut Localized, (With<OfferText>, Without<MistakesText>)>,
    mut panels: Query<&mut Node, (With<MistakesPanel>, Without<Offer>)>,
    mut texts: Query<(&MistakesText, &mut Localized), Without<OfferText>>,
) {
    // The offer: a complete review with mistakes of a person, nothing else running.
    let available = match (&mistakes, review.as_deref(), game.as_deref()) {
        (None, Some(review), Some(game)) if review.enabled && review.complete() => {
            items(review, game).len()
        }
        _ => 0,
    };
    let offer = available > 0 && tutorial.is_none();
    let display = |shown: bool| if shown { Display::Flex } else { Display::None };
    for mut node in &mut offers {
        if node.display != display(offer) {
            node.display = display(offer);
        }
    }
    if offer {
        let label = Msg::new("mistakes-offer").with("count", available);
        for mut t in &mut offer_text {
            if t.0 != label {
                t.0.clone_from(&label);
            }
        }
    }
    for mut node in &mut panels {
        if node.display != display(mistakes.is_some()) {
            node.display = display(mistakes.is_some());
        }
    }
    let Some(m) = mistakes else {
        return;
    };
    for (which, mut t) in &mut texts {
        let value = match which {
            MistakesText::Title => Msg::new("mistakes-title")
                .with("number", m.index + 1)
                .with("count", m.items.len()),
            MistakesText::Feedback => m.feedback.clone(),
            MistakesText::Count => Msg::new("mistakes-count")
                .with("right", m.right_first())
                .with("count", m.items.len()),
        };
        if t.0 != value {
            t.0 = value;
        }
    }
}

/// The plugin.
pub fn plugin(app: &mut App) {
    app.add_message::<MistakesCommand>()
        .init_resource::<Layout>()
        .add_systems(
            PreUpdate,
            crate::ui::layout::report_training_panel::<Mistakes>,
        )
        .add_systems(OnEnter(Screen::Playing), spawn_ui)
        .add_systems(
            Update,
            (
                mistakes_commands.before(FlowSet),
                follow_try.after(FlowSet),
                refresh_ui.run_if(in_state(Screen::Playing)),
            )
                .chain(),
        );
}

#[cfg(test)]
mod tests;

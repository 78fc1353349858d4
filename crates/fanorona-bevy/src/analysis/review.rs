//! Game review: the engine evaluates every position of the game (in the background, on its
//! own thread and table), a graph under the board plots the evaluation across the game with
//! the mistakes marked, and clicking the graph (or the list of turns) shows the position
//! after that turn. A game opened from a file (`fanorona-3d FILE`, or loaded from the menu)
//! is reviewed at once; `G` or the **Review** button turns the review on and off.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bevy::prelude::*;
use fanorona_ai::{Limits, Score, SearchOptions, Searcher};
use fanorona_core::{Color as Side, Game, Position, Turn};

use crate::Screen;
use crate::analysis::white_share;
use crate::game::engine::Thinking;
use crate::game::flow::{Command, FlowSet, Match};
use crate::i18n::{Localized, Msg};

/// The depth of each position's evaluation.
pub const REVIEW_DEPTH: u32 = 8;
/// The longest one position's evaluation runs.
pub const REVIEW_TIME: Duration = Duration::from_millis(400);
/// Size of the review engine's transposition table.
const HASH_MB: usize = 16;
/// A turn that lowers its mover's share of the evaluation bar by this much is a mistake
/// (from an equal position: a stone and a half lost).
pub const MISTAKE: f32 = 0.15;
/// ... and by this much a blunder (from an equal position: more than three stones).
pub const BLUNDER: f32 = 0.30;

/// The evaluation of one position of the game, from White's side.
#[derive(Clone, Debug, PartialEq)]
pub struct Eval {
    /// White's share of the evaluation bar, from 0 (Black wins) to 1 (White wins).
    pub white_share: f32,
    /// In words: `+1.25` (stones for White), `Black wins in 3`, `1-0` (the game is over).
    pub text: Msg,
    /// The engine's best turn in this position (`None` when the game is over there).
    pub best: Option<Turn>,
}

impl Eval {
    /// The evaluation a search found, `score` for `side` (to move).
    pub fn from_score(score: Score, side: Side, best: Option<Turn>) -> Eval {
        let text = crate::analysis::score_text(score, side);
        Eval {
            white_share: white_share(score, side),
            text,
            best,
        }
    }

    /// The evaluation of a finished game: its result.
    pub fn from_outcome(winner: Option<Side>) -> Eval {
        match winner {
            Some(Side::White) => Eval {
                white_share: 1.0,
                text: Msg::new("score-result").with("result", "1-0"),
                best: None,
            },
            Some(Side::Black) => Eval {
                white_share: 0.0,
                text: Msg::new("score-result").with("result", "0-1"),
                best: None,
            },
            None => Eval {
                white_share: 0.5,
                text: Msg::new("score-result").with("result", "1/2-1/2"),
                best: None,
            },
        }
    }
}

/// How bad a turn was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Lost at least [`MISTAKE`] of the bar.
    Mistake,
    /// Lost at least [`BLUNDER`] of the bar.
    Blunder,
}

impl Severity {
    /// `$count` of them, in the player's language: `1 mistake`, `2 blunders`.
    pub fn counted(self, count: usize) -> Msg {
        Msg::new(match self {
            Severity::Mistake => "review-mistakes",
            Severity::Blunder => "review-blunders",
        })
        .with("count", count)
    }

    /// The annotation (`?`, `??`) written after the turn.
    pub fn mark(self) -> &'static str {
        match self {
            Severity::Mistake => "?",
            Severity::Blunder => "??",
        }
    }
}

/// A turn that lost much of its mover's evaluation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mistake {
    /// The turn, counted from 1 (the position after it is ply `turn`).
    pub turn: usize,
    /// Who played it.
    pub mover: Side,
    /// The share of the bar the mover lost.
    pub loss: f32,
    /// How bad it was.
    pub severity: Severity,
    /// The engine's choice in the position before it, when it differs.
    pub better: Option<Turn>,
}

/// The mistakes of a game: the turns after which the mover's share of the evaluation bar is
/// at least [`MISTAKE`] lower than before. `shares[p]` is White's share in the position
/// after `p` turns (`None`: not evaluated yet); `start_side` moves first.
pub fn mistakes(shares: &[Option<f32>], start_side: Side) -> Vec<Mistake> {
    let mut found = Vec::new();
    for (i, pair) in shares.windows(2).enumerate() {
        let (Some(before), Some(after)) = (pair[0], pair[1]) else {
            continue;
        };
        let mover = if i % 2 == 0 {
            start_side
        } else {
            start_side.other()
        };
        let loss = match mover {
            Side::White => before - after,
            Side::Black => after - before,
        };
        let severity = if loss >= BLUNDER {
            Severity::Blunder
        } else if loss >= MISTAKE {
            Severity::Mistake
        } else {
            continue;
        };
        found.push(Mistake {
            turn: i + 1,
            mover,
            loss,
            severity,
            better: None,
        });
    }
    found
}

/// The review: on or off, and the evaluations found so far.
#[derive(Resource, Default)]
pub struct Review {
    /// Whether the review (graph and evaluations) is on.
    pub enabled: bool,
    /// The game the evaluations are about.
    start: Option<Position>,
    turns: Vec<Turn>,
    /// Per ply (0 is the start), the evaluation when found.
    evals: Vec<Option<Eval>>,
    job: Option<Job>,
}

struct Job {
    stop: Arc<AtomicBool>,
    results: Mutex<Receiver<(usize, Eval)>>,
}

impl Review {
    /// The evaluations of the positions (index: turns played), `None` where not found yet.
    pub fn evals(&self) -> &[Option<Eval>] {
        &self.evals
    }

    /// How many positions are evaluated.
    pub fn done(&self) -> usize {
        self.evals.iter().filter(|e| e.is_some()).count()
    }

    /// Whether every position of the game is evaluated.
    pub fn complete(&self) -> bool {
        !self.evals.is_empty() && self.evals.iter().all(Option::is_some)
    }

    /// White's share per position.
    pub fn shares(&self) -> Vec<Option<f32>> {
        self.evals
            .iter()
            .map(|e| e.as_ref().map(|e| e.white_share))
            .collect()
    }

    /// The mistakes found so far, each with the engine's better turn.
    pub fn mistakes(&self) -> Vec<Mistake> {
        let side = self.start.map_or(Side::White, |p| p.side_to_move());
        let mut found = mistakes(&self.shares(), side);
        for m in &mut found {
            let played = self.turns.get(m.turn - 1);
            m.better = self
                .evals
                .get(m.turn - 1)
                .and_then(|e| e.as_ref())
                .and_then(|e| e.best)
                .filter(|best| Some(best) != played);
        }
        found
    }

    /// Whether the review engine is working now.
    pub fn searching(&self) -> bool {
        self.job.is_some()
    }

    fn stop(&mut self) {
        if let Some(job) = self.job.take() {
            job.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Keeps the evaluations that still fit `game` (the same start and the same first
    /// turns), drops the others.
    fn follow(&mut self, game: &Game) {
        let same_start = self.start == Some(*game.start());
        let common = if same_start {
            self.turns
                .iter()
                .zip(game.turns())
                .take_while(|(a, b)| a == b)
                .count()
        } else {
            0
        };
        if same_start && common == self.turns.len() && common == game.turns().len() {
            return;
        }
        self.stop();
        self.start = Some(*game.start());
        self.turns = game.turns().to_vec();
        let keep = if same_start { common + 1 } else { 0 };
        self.evals.truncate(keep);
        self.evals.resize(game.turns().len() + 1, None);
    }
}

/// What the player asked.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReviewRequest {
    /// Turn the review on or off.
    Toggle,
}

/// Evaluates the positions of `game` from ply `from` on, one after the other, sending each
/// result; stops early when `stop` is set.
fn evaluate_game(
    game: &Game,
    from: usize,
    stop: &AtomicBool,
    send: &std::sync::mpsc::Sender<(usize, Eval)>,
) {
    let mut searcher = Searcher::new(HASH_MB);
    let mut replay = Game::new(*game.start());
    for (ply, turn) in game.turns().iter().enumerate() {
        if ply >= from {
            break;
        }
        if replay.play(turn).is_err() {
            return;
        }
    }
    for ply in from..=game.turns().len() {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let eval = if ply == game.turns().len() && game.outcome().is_some() {
            // The last position of a finished game (also by resignation or agreement).
            Eval::from_outcome(game.outcome().and_then(|o| o.winner))
        } else if let Some(outcome) = replay.outcome() {
            Eval::from_outcome(outcome.winner)
        } else {
            let limits = Limits::depth(REVIEW_DEPTH).with_movetime(REVIEW_TIME);
            match searcher.search(&replay, &limits, &SearchOptions::default(), stop, |_| {}) {
                Ok(result) => Eval::from_score(
                    result.score,
                    replay.position().side_to_move(),
                    result.pv.first().copied(),
                ),
                Err(_) => return,
            }
        };
        if stop.load(Ordering::Relaxed) || send.send((ply, eval)).is_err() {
            return;
        }
        if let Some(turn) = game.turns().get(ply)
            && replay.play(turn).is_err()
        {
            return;
        }
    }
}

fn requests(
    mut requests: MessageReader<ReviewRequest>,
    mut review: ResMut<Review>,
    mut game: ResMut<Match>,
) {
    for request in requests.read() {
        match request {
            ReviewRequest::Toggle => {
                review.enabled = !review.enabled;
                if !review.enabled {
                    review.stop();
                }
                game.set_message(Msg::new(if review.enabled {
                    "review-on"
                } else {
                    "review-off"
                }));
            }
        }
    }
}

/// Starts, follows and stops the review's search.
fn drive_review(mut review: ResMut<Review>, game: Res<Match>, thinking: Res<Thinking>) {
    if !review.enabled {
        review.stop();
        return;
    }
    review.follow(game.game());
    if let Some(job) = review.job.as_ref() {
        let results: Vec<(usize, Eval)> = job
            .results
            .lock()
            .map(|r| r.try_iter().collect())
            .unwrap_or_default();
        for (ply, eval) in results {
            if let Some(slot) = review.evals.get_mut(ply) {
                *slot = Some(eval);
            }
        }
    }
    // The game's engine comes first: the review waits while it thinks.
    if thinking.active() {
        review.stop();
        return;
    }
    let Some(from) = review.evals.iter().position(Option::is_none) else {
        review.stop();
        return;
    };
    if review.job.is_some() {
        return;
    }
    let stop = Arc::new(AtomicBool::new(false));
    let (send, results) = channel();
    let snapshot = game.game().clone();
    let thread_stop = stop.clone();
    let spawned = std::thread::Builder::new()
        // i18n: not text (a thread name)
        .name("fanorona-review".into())
        .spawn(move || evaluate_game(&snapshot, from, &thread_stop, &send));
    match spawned {
        Ok(_) => {
            review.job = Some(Job {
                stop,
                results: Mutex::new(results),
            });
        }
        Err(e) => error!("cannot start the review thread: {e}"),
    }
}

/// `G` turns the review on or off (not while a turn is being typed).
pub fn review_keys(
    keys: Res<ButtonInput<KeyCode>>,
    entry: Option<Res<crate::game::input::TurnEntry>>,
    mut requests: MessageWriter<ReviewRequest>,
) {
    if entry.is_some_and(|e| e.used_keys) {
        return;
    }
    if keys.just_pressed(KeyCode::KeyG) {
        requests.write(ReviewRequest::Toggle);
    }
}

/// Stops the review's search when the app exits.
fn stop_on_exit(mut exits: MessageReader<AppExit>, mut review: ResMut<Review>) {
    if exits.read().count() > 0 {
        review.stop();
    }
}

// ---------------------------------------------------------------- the graph

#[derive(Component)]
struct GraphPanel;

pub use crate::ui::layout::{GRAPH_BOTTOM, GRAPH_EDGE, GRAPH_HEIGHT};

#[derive(Component)]
struct GraphBars;

#[derive(Component)]
struct GraphText;

/// The graph's middle line (equal evaluation).
#[derive(Component)]
pub struct GraphMidline;

/// One position's bar in the graph: clicking it shows the position after `ply` turns.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphBar(pub usize);

fn spawn_graph(mut commands: Commands) {
    commands.spawn((
        GraphPanel,
        DespawnOnExit(Screen::Playing),
        crate::game::input::BlocksBoard,
        Interaction::None,
        Node {
            position_type: PositionType::Absolute,
            left: px(crate::ui::LEFT_EDGE),
            right: px(crate::ui::TURNS_EDGE),
            bottom: px(GRAPH_BOTTOM),
            height: px(GRAPH_HEIGHT),
            flex_direction: FlexDirection::Column,
            padding: UiRect::all(px(8.0)),
            row_gap: px(4.0),
            border_radius: BorderRadius::all(px(8.0)),
            display: Display::None,
            ..default()
        },
        BackgroundColor(Color::srgba(0.06, 0.07, 0.09, 0.86)),
        children![
            (
                GraphText,
                Localized::default(),
                TextFont::from_font_size(14.0),
                TextColor(crate::ui::TEXT),
            ),
            (
                Node {
                    flex_grow: 1.0,
                    ..default()
                },
                children![
                    (
                        GraphBars,
                        Node {
                            width: percent(100.0),
                            height: percent(100.0),
                            column_gap: px(1.0),
                            align_items: AlignItems::Stretch,
                            ..default()
                        },
                        // Black's part of the bar is the background.
                        BackgroundColor(Color::srgb(0.02, 0.02, 0.025)),
                    ),
                    // The middle line: above it White is ahead, below it Black, so a bar
                    // of a lost position still shows against it.
                    (
                        GraphMidline,
                        Node {
                            position_type: PositionType::Absolute,
                            left: px(0.0),
                            right: px(0.0),
                            top: percent(50.0),
                            height: px(1.0),
                            ..default()
                        },
                        BackgroundColor(crate::board::SKY_BLUE.with_alpha(0.8)),
                        Pickable::IGNORE,
                    ),
                ],
            ),
        ],
    ));
}

/// The graph's summary line: progress, the blunders and mistakes counted by their names, and
/// the first marks with the engine's better turn.
pub fn summary_text(review: &Review, game: &Game) -> Msg {
    let total = review.evals().len();
    let progress = if review.complete() {
        Msg::new("review-done")
    } else {
        Msg::new("review-progress")
            .with("done", review.done())
            .with("total", total)
    };
    let found = review.mistakes();
    let list: Vec<Msg> = found
        .iter()
        .take(3)
        .filter_map(|m| {
            // Numbered as in the list of turns: `2.` for the first side's turn of the
            // second round, `2...` for the other side's.
            let turn = game.turns().get(m.turn - 1)?;
            let played = format!(
                "{} {turn}{}",
                crate::game::flow::turn_number(m.turn),
                m.severity.mark()
            );
            Some(match m.better {
                Some(b) => Msg::new("review-mark-better")
                    .with("played", played)
                    .with("better", b.to_string()),
                None => Msg::new("review-mark").with("played", played),
            })
        })
        .collect();
    let count = |severity: Severity| {
        let n = found.iter().filter(|m| m.severity == severity).count();
        (n > 0).then(|| severity.counted(n))
    };
    let counts: Vec<Msg> = [Severity::Blunder, Severity::Mistake]
        .into_iter()
        .filter_map(count)
        .collect();
    let mistakes = if found.is_empty() {
        Msg::new("review-no-mistakes")
    } else {
        let join = |msgs: &[Msg], more: bool| {
            let mut items = msgs.iter().cloned();
            let first = items.next().unwrap_or_default();
            let all = items.fold(first, |list, item| {
                Msg::new("list-comma").with("list", list).with("item", item)
            });
            if more {
                Msg::new("list-ellipsis").with("list", all)
            } else {
                all
            }
        };
        Msg::new("review-mistakes-found")
            .with("counts", join(&counts, false))
            .with("marks", join(&list, found.len() > list.len()))
    };
    Msg::new("review-summary")
        .with("progress", progress)
        .with("mistakes", mistakes)
}

fn refresh_graph(
    mut commands: Commands,
    review: Res<Review>,
    game: Res<Match>,
    layout: Res<crate::ui::layout::Layout>,
    mut panels: Query<&mut Node, With<GraphPanel>>,
    mut texts: Query<&mut Localized, With<GraphText>>,
    bars: Query<(Entity, Option<&Children>), With<GraphBars>>,
    mut shown: Local<Option<(usize, usize, Option<usize>, bool)>>,
) {
    let display = if review.enabled {
        Display::Flex
    } else {
        Display::None
    };
    // Between the side panels: the tutorial's panel is wider than the list of turns.
    let right = px(crate::ui::layout::Layout {
        graph: true,
        ..*layout
    }
    .panels()
    .right);
    for mut node in &mut panels {
        if node.display != display {
            node.display = display;
        }
        if node.right != right {
            node.right = right;
        }
    }
    if !review.enabled {
        *shown = None;
        return;
    }
    let key = (
        review.evals().len(),
        review.done(),
        game.viewing(),
        review.enabled,
    );
    let Ok((bars, children)) = bars.single() else {
        *shown = None;
        return;
    };
    if *shown == Some(key) && children.is_some() {
        return;
    }
    *shown = Some(key);
    for mut text in &mut texts {
        text.0 = summary_text(&review, game.game());
    }
    if let Some(children) = children {
        for child in children.iter() {
            commands.entity(child).despawn();
        }
    }
    let marked: Vec<(usize, Severity)> = review
        .mistakes()
        .iter()
        .map(|m| (m.turn, m.severity))
        .collect();
    let current = game.viewing().unwrap_or(game.game().turns().len());
    for (ply, eval) in review.evals().iter().enumerate() {
        let share = eval.as_ref().map_or(0.0, |e| e.white_share);
        let mark = marked.iter().find(|(t, _)| *t == ply).map(|(_, s)| *s);
        let top = match mark {
            Some(Severity::Blunder) => crate::board::VERMILLION,
            Some(Severity::Mistake) => crate::board::ORANGE,
            None if ply == current => crate::board::SKY_BLUE,
            None => Color::NONE,
        };
        let bar = commands
            .spawn((
                Button,
                GraphBar(ply),
                crate::ui::Action::Game(Command::View(Some(ply))),
                Node {
                    flex_grow: 1.0,
                    flex_basis: px(0.0),
                    flex_direction: FlexDirection::Column,
                    justify_content: JustifyContent::FlexEnd,
                    border: UiRect::top(px(4.0)),
                    ..default()
                },
                BorderColor::all(top),
                BackgroundColor(if eval.is_some() {
                    Color::NONE
                } else {
                    Color::srgb(0.25, 0.25, 0.28)
                }),
                children![(
                    Node {
                        height: percent(share * 100.0),
                        ..default()
                    },
                    BackgroundColor(if ply == current {
                        Color::srgb(1.0, 0.97, 0.88)
                    } else {
                        Color::srgb(0.80, 0.78, 0.73)
                    }),
                    Pickable::IGNORE,
                )],
            ))
            .id();
        commands.entity(bars).add_child(bar);
    }
}

/// The review plugin.
pub fn plugin(app: &mut App) {
    app.init_resource::<Review>()
        .init_resource::<crate::ui::layout::Layout>()
        .add_message::<ReviewRequest>()
        .add_systems(OnEnter(Screen::Playing), spawn_graph)
        .add_systems(
            Update,
            (
                review_keys
                    .after(crate::game::input::type_turn)
                    .before(requests)
                    .run_if(
                        in_state(Screen::Playing).and_then(resource_exists::<ButtonInput<KeyCode>>),
                    ),
                (requests, drive_review)
                    .chain()
                    .after(FlowSet)
                    .run_if(resource_exists::<Match>.and_then(not(in_state(Screen::Menu)))),
                refresh_graph
                    .after(drive_review)
                    .run_if(in_state(Screen::Playing).and_then(resource_exists::<Match>)),
                stop_on_exit,
                report_layout,
            ),
        );
}

/// Tells the layout whether the graph takes the bottom strip.
fn report_layout(review: Res<Review>, mut layout: ResMut<crate::ui::layout::Layout>) {
    if layout.graph != review.enabled {
        layout.graph = review.enabled;
    }
}

//! The endgame trainer: positions of up to 5 stones chosen from the endgame tables (won, or
//! drawn with a losing turn to avoid), played against the tables' perfect defence. After each
//! of the player's turns the trainer says whether it kept the result, and when a turn throws a
//! win (or a draw) away, which turn kept it; at the end it counts the player's turns against
//! the fastest win. The tables are found where `fanorona solve --tables` wrote them, or built
//! in the background ([`tables`]).
//!
//! The trainer talks to the game through the shared [`Match`] (it sets up the exercise's game,
//! plays the defence's turns as typed turns) and reports its panel to the [`Layout`].

pub mod exercise;
pub mod tables;

use bevy::prelude::*;
use fanorona_ai::solve::Value;
use fanorona_core::Position;

use self::exercise::{Goal, Judgement, MATERIALS, Material};
use self::tables::{MAX_BUILD_STONES, Tables, TablesState};
use crate::Screen;
use crate::game::flow::{Animating, BoardJump, BoardView, Command, FlowSet, Match, Player};
use crate::i18n::{Localized, Msg};
use crate::ui::layout::Layout;
use crate::ui::theme::{ACCENT, DIM, TEXT, TEXT_BODY, TEXT_LARGE, TEXT_SMALL, tr_text};
use crate::ui::widgets::{Action, button};

/// What the trainer's buttons ask.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrainerCommand {
    /// Open the trainer (from the menu): the first exercise the tables allow.
    Open,
    /// A new position of this kind ([`MATERIALS`] index).
    Material(usize),
    /// Another position of the same kind.
    NewPosition,
    /// The same position again from its start.
    Again,
    /// Build the tables up to this many stones.
    Build(u8),
    /// Leave for the menu.
    Exit,
}

/// The trainer, present while it runs.
#[derive(Resource, Clone, Debug)]
pub struct Trainer {
    /// The kind of exercise ([`MATERIALS`] index).
    pub material: usize,
    /// The exercise's start, when there is one (`None`: waiting for the tables).
    pub start: Option<Position>,
    /// Turns (plies) to the end from the start under best play (0 for a draw).
    pub fastest: u16,
    /// What the trainer says about the last turn.
    pub feedback: Msg,
    /// What it says at the end of the exercise.
    pub verdict: Msg,
    /// Whether a turn threw the result away in this try.
    pub thrown: bool,
    /// The player's turns so far.
    pub turns: u32,
    /// The player's turns that kept the fastest win.
    pub best_turns: u32,
    /// The exercise is over: `Some(true)` done, `Some(false)` failed.
    pub done: Option<bool>,
    /// Turns of the game already judged.
    judged: usize,
    /// The match the trainer set up (see [`Match::generation`]): another one ends it.
    match_id: u64,
    /// Seed of the next position.
    seed: u64,
}

impl Trainer {
    fn new(material: usize, seed: u64) -> Trainer {
        Trainer {
            material,
            start: None,
            fastest: 0,
            feedback: Msg::default(),
            verdict: Msg::default(),
            thrown: false,
            turns: 0,
            best_turns: 0,
            done: None,
            judged: 0,
            match_id: u64::MAX,
            seed,
        }
    }

    /// The exercise's kind.
    pub fn kind(&self) -> Material {
        MATERIALS[self.material.min(MATERIALS.len() - 1)]
    }
}

/// The match instance of a game ([`Match::generation`] counts within an instance in its low
/// 32 bits).
fn match_id(game: &Match) -> u64 {
    game.generation() >> 32
}

/// A seed from the clock (a different position each time).
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
}

/// Starts an exercise from `start` (the player is the side to move): its game and the
/// trainer's state, for tests and the command line.
pub fn begin(world: &mut World, start: Position) {
    let material = world.get_resource::<Trainer>().map_or(0, |t| t.material);
    let mut trainer = Trainer::new(material, clock_seed());
    let fastest = world
        .get_resource::<Tables>()
        .and_then(|t| t.ready().and_then(|(tb, _)| tb.probe(&start)))
        .map_or(0, |p| p.distance);
    let game = set_up(&mut trainer, start, fastest);
    world.insert_resource(game);
    world.insert_resource(trainer);
}

/// The trainer's state for a new try of `start`, and its game.
fn set_up(trainer: &mut Trainer, start: Position, fastest: u16) -> Match {
    let game = Match::new(start, [Player::Human, Player::Human], 1);
    trainer.start = Some(start);
    trainer.fastest = fastest;
    trainer.feedback = Msg::default();
    trainer.verdict = Msg::default();
    trainer.thrown = false;
    trainer.turns = 0;
    trainer.best_turns = 0;
    trainer.done = None;
    trainer.judged = 0;
    trainer.match_id = match_id(&game);
    game
}

/// A new position of the trainer's kind from the tables, set up as the game (or the
/// reason there is none).
fn new_exercise(trainer: &mut Trainer, tables: &Tables) -> Result<Match, Msg> {
    let kind = trainer.kind();
    let Some((tb, max)) = tables.ready() else {
        return Err(tables.status_text());
    };
    if max < kind.stones() {
        return Err(Msg::new("trainer-needs-tables")
            .with("kind", kind.label())
            .with("stones", kind.stones())
            .with("max", max));
    }
    trainer.seed = trainer
        .seed
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    let start = exercise::choose(tb, kind, trainer.seed)
        .ok_or_else(|| Msg::new("trainer-no-position").with("kind", kind.label()))?;
    let fastest = tb.probe(&start).map_or(0, |p| p.distance);
    Ok(set_up(trainer, start, fastest))
}

fn trainer_commands(
    mut commands: Commands,
    mut requests: MessageReader<TrainerCommand>,
    trainer: Option<ResMut<Trainer>>,
    mut tables: ResMut<Tables>,
    mut next: ResMut<NextState<Screen>>,
    mut jumps: MessageWriter<BoardJump>,
) {
    let mut trainer = trainer.map(|t| t.clone());
    let mut changed = false;
    for request in requests.read() {
        changed = true;
        match request {
            TrainerCommand::Open => {
                tables.find();
                let mut t = Trainer::new(0, clock_seed());
                t.feedback = tables.status_text();
                // Until the tables are there, a lone-stone ending waits on the board.
                // i18n: not text (a position string)
                let start = Position::from_fen_with("9/9/1B7/9/W1B6 w", exercise::trainer_rules())
                    .expect("a valid position");
                let game = set_up(&mut t, start, 0);
                t.start = None;
                commands.insert_resource(game);
                trainer = Some(t);
                next.set(Screen::Playing);
            }
            TrainerCommand::Material(index) => {
                if let Some(t) = trainer.as_mut() {
                    t.material = (*index).min(MATERIALS.len() - 1);
                    match new_exercise(t, &tables) {
                        Ok(game) => {
                            commands.insert_resource(game);
                        }
                        Err(why) => t.feedback = why,
                    }
                }
            }
            TrainerCommand::NewPosition => {
                if let Some(t) = trainer.as_mut() {
                    match new_exercise(t, &tables) {
                        Ok(game) => {
                            commands.insert_resource(game);
                        }
                        Err(why) => t.feedback = why,
                    }
                }
            }
            TrainerCommand::Again => {
                if let Some(t) = trainer.as_mut()
                    && let Some(start) = t.start
                {
                    let fastest = t.fastest;
                    let game = set_up(t, start, fastest);
                    commands.insert_resource(game);
                }
            }
            TrainerCommand::Build(stones) => {
                tables.build(u32::from(*stones));
                if let Some(t) = trainer.as_mut() {
                    t.feedback = tables.status_text();
                }
            }
            TrainerCommand::Exit => {
                trainer = None;
                commands.remove_resource::<Match>();
                next.set(Screen::Menu);
            }
        }
        jumps.write(BoardJump);
    }
    if changed {
        match trainer {
            Some(t) => commands.insert_resource(t),
            None => commands.remove_resource::<Trainer>(),
        }
    }
}

/// When the tables become ready while the trainer waits for them, the first exercise starts.
fn start_when_ready(
    mut commands: Commands,
    trainer: Option<ResMut<Trainer>>,
    tables: Res<Tables>,
    mut jumps: MessageWriter<BoardJump>,
) {
    let Some(mut trainer) = trainer else {
        return;
    };
    if trainer.start.is_some() {
        return;
    }
    if tables.ready().is_none() {
        let status = tables.status_text();
        if trainer.feedback != status {
            trainer.feedback = status;
        }
        return;
    }
    match new_exercise(&mut trainer, &tables) {
        Ok(game) => {
            commands.insert_resource(game);
            jumps.write(BoardJump);
        }
        Err(why) => trainer.feedback = why,
    }
}

/// Judges the player's turns and plays the defence's; ends the trainer when another game
/// replaced its own.
fn follow_game(
    mut commands: Commands,
    trainer: Option<ResMut<Trainer>>,
    tables: Res<Tables>,
    game: Option<Res<Match>>,
    animating: Res<Animating>,
    min_think: Option<Res<crate::game::engine::MinThink>>,
    mut waiting: Local<Option<(u64, std::time::Instant, bool)>>,
    mut moves: MessageWriter<Command>,
) {
    let (Some(mut trainer), Some(game)) = (trainer, game) else {
        return;
    };
    if match_id(&game) != trainer.match_id {
        // A game loaded or started from the menu: the trainer is over.
        commands.remove_resource::<Trainer>();
        return;
    }
    let Some((tb, _)) = tables.ready() else {
        return;
    };
    let Some(start) = trainer.start else {
        return;
    };
    let player = start.side_to_move();
    let turns = game.game().turns();
    if turns.len() < trainer.judged {
        // Undone: judge again from there.
        trainer.judged = turns.len();
    }
    while trainer.judged < turns.len() {
        let ply = trainer.judged;
        trainer.judged += 1;
        let Some(before) = game.game().position_at(ply).copied() else {
            break;
        };
        if before.side_to_move() != player {
            continue;
        }
        trainer.turns += 1;
        let turn = turns[ply];
        let Some(judgement) = exercise::judge(tb, &before, &turn) else {
            trainer.feedback = Msg::new("trainer-not-covered").with("turn", turn.to_string());
            continue;
        };
        trainer.feedback = match judgement {
            Judgement::Kept {
                value: Value::Win,
                fastest,
                left,
            } => {
                if fastest {
                    trainer.best_turns += 1;
                }
                Msg::new(if fastest {
                    "trainer-keeps-win-fastest"
                } else {
                    "trainer-keeps-win-slower"
                })
                .with("turn", turn.to_string())
                .with("left", u32::from(left) / 2)
            }
            Judgement::Kept { .. } => {
                trainer.best_turns += 1;
                Msg::new("trainer-keeps-draw").with("turn", turn.to_string())
            }
            Judgement::ThrewAway {
                before,
                after,
                kept_by,
            } => {
                trainer.thrown = true;
                Msg::new("trainer-threw-away")
                    .with("turn", turn.to_string())
                    .with("before", value_word(before))
                    .with("after", value_word(after))
                    .with("kept", kept_by.to_string())
            }
        };
    }
    // The end of the game, or of a drawn exercise held long enough.
    if trainer.done.is_none() {
        let goal = trainer.kind().goal;
        let fastest = exercise::player_turns(trainer.fastest);
        if let Some(outcome) = game.outcome() {
            let won = outcome.winner == Some(player);
            trainer.done = Some(match goal {
                Goal::Win => won,
                Goal::Draw => outcome.winner != Some(player.other()),
            });
            trainer.verdict = if won {
                Msg::new("trainer-won")
                    .with("turns", trainer.turns)
                    .with("fastest", fastest)
            } else if outcome.winner.is_none() {
                Msg::new("trainer-drawn")
            } else {
                Msg::new("trainer-lost")
            };
        } else if goal == Goal::Draw && !trainer.thrown && trainer.turns >= exercise::HOLD_TURNS {
            trainer.done = Some(true);
            trainer.verdict = Msg::new("trainer-held").with("turns", trainer.turns);
        }
    }
    // The defence replies once the player's turn is shown (after the engine's shortest
    // thinking time, so that the player can follow).
    let to_reply = trainer.done.is_none()
        && game.outcome().is_none()
        && game.side_to_move() != player
        && game.partial_steps().is_empty()
        && game.viewing().is_none();
    if !to_reply {
        *waiting = None;
        return;
    }
    let generation = game.generation();
    if waiting.is_none_or(|(g, _, _)| g != generation) {
        *waiting = Some((generation, std::time::Instant::now(), false));
    }
    let pause = min_think.map_or(std::time::Duration::ZERO, |m| m.0);
    if let Some((_, since, sent)) = waiting.as_mut()
        && !*sent
        && !animating.0
        && since.elapsed() >= pause
        && let Some(reply) = exercise::defence(tb, game.game().position())
    {
        *sent = true;
        moves.write(Command::PlayText(reply.to_string()));
    }
}

fn value_word(value: Value) -> Msg {
    Msg::new(match value {
        Value::Win => "trainer-value-win",
        Value::Draw => "trainer-value-draw",
        Value::Loss => "trainer-value-loss",
    })
}

/// While the defence is to move, or the exercise is over or waits, the board rests.
fn rest_view(trainer: Option<Res<Trainer>>, game: Option<Res<Match>>, mut view: ResMut<BoardView>) {
    let (Some(trainer), Some(game)) = (trainer, game) else {
        return;
    };
    let player = trainer.start.map(|s| s.side_to_move());
    let rest = trainer.done.is_some()
        || player.is_none_or(|p| game.side_to_move() != p && game.partial_steps().is_empty());
    if rest && (view.interactive || !view.targets.is_empty()) {
        view.interactive = false;
        view.targets.clear();
        view.selected = None;
        view.must_capture = fanorona_core::Bitboard::EMPTY;
    }
}

// ---------------------------------------------------------------- the panel

#[derive(Component)]
struct TrainerPanel;

#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum TrainerText {
    Goal,
    Tables,
    Feedback,
    Verdict,
    Count,
}

/// A button shown only with tables of at least this many stones.
#[derive(Component, Clone, Copy)]
struct NeedsStones(u32);

/// A build button, shown while tables of this many stones are missing and nothing is built.
#[derive(Component, Clone, Copy)]
struct BuildButton(u32);

#[derive(Component)]
struct BuildBar;

#[derive(Component)]
struct BuildFill;

fn spawn_panel(mut commands: Commands, trainer: Option<Res<Trainer>>) {
    if trainer.is_none() {
        return;
    }
    let line = |which: TrainerText, size: f32, color: Color| {
        (
            which,
            tr_text(Msg::default(), size, color),
            Node {
                max_width: px(300.0),
                ..default()
            },
        )
    };
    let panel = commands
        .spawn((
            TrainerPanel,
            DespawnOnExit(Screen::Playing),
            crate::game::input::BlocksBoard,
            Interaction::None,
            crate::ui::layout::wide_panel_node(),
            BackgroundColor(crate::ui::layout::WIDE_PANEL_BACKGROUND),
        ))
        .id();
    let title = commands
        .spawn(tr_text("trainer-title", TEXT_LARGE, ACCENT))
        .id();
    let goal = commands.spawn(line(TrainerText::Goal, 16.0, ACCENT)).id();
    let feedback = commands
        .spawn(line(TrainerText::Feedback, TEXT_BODY, TEXT))
        .id();
    let verdict = commands
        .spawn(line(TrainerText::Verdict, TEXT_BODY, ACCENT))
        .id();
    let count = commands
        .spawn(line(TrainerText::Count, TEXT_BODY, DIM))
        .id();
    commands
        .entity(panel)
        .add_children(&[title, goal, feedback, verdict, count]);
    let row = |commands: &mut Commands| {
        commands
            .spawn(Node {
                column_gap: px(6.0),
                row_gap: px(6.0),
                flex_wrap: FlexWrap::Wrap,
                ..default()
            })
            .id()
    };
    let actions = row(&mut commands);
    for (label, request) in [
        ("trainer-new-position", TrainerCommand::NewPosition),
        ("trainer-again", TrainerCommand::Again),
        ("trainer-leave", TrainerCommand::Exit),
    ] {
        let b = commands.spawn(button(label, Action::Trainer(request))).id();
        commands.entity(actions).add_child(b);
    }
    commands.entity(panel).add_child(actions);
    let heading = commands
        .spawn(tr_text("trainer-exercises", TEXT_BODY, ACCENT))
        .id();
    let kinds = row(&mut commands);
    for (i, material) in MATERIALS.iter().enumerate() {
        let b = commands
            .spawn((
                button(
                    material.label(),
                    Action::Trainer(TrainerCommand::Material(i)),
                ),
                NeedsStones(material.stones()),
            ))
            .id();
        commands.entity(kinds).add_child(b);
    }
    commands.entity(panel).add_children(&[heading, kinds]);
    let tables_line = commands
        .spawn(line(TrainerText::Tables, TEXT_SMALL, DIM))
        .id();
    let bar = commands
        .spawn((
            BuildBar,
            Node {
                width: percent(100.0),
                height: px(12.0),
                border: UiRect::all(px(1.0)),
                border_radius: BorderRadius::all(px(3.0)),
                display: Display::None,
                ..default()
            },
            BorderColor::all(DIM),
            BackgroundColor(Color::srgb(0.02, 0.02, 0.025)),
            children![(
                BuildFill,
                Node {
                    width: percent(0.0),
                    height: percent(100.0),
                    ..default()
                },
                BackgroundColor(crate::board::SKY_BLUE),
            )],
        ))
        .id();
    commands.entity(panel).add_children(&[tables_line, bar]);
    for stones in 4..=MAX_BUILD_STONES {
        let label = tables::build_offer(stones);
        let b = commands
            .spawn((
                button(label, Action::Trainer(TrainerCommand::Build(stones as u8))),
                BuildButton(stones),
            ))
            .id();
        commands.entity(panel).add_child(b);
    }
}

fn refresh_panel(
    mut commands: Commands,
    trainer: Option<Res<Trainer>>,
    tables: Res<Tables>,
    panels: Query<Entity, With<TrainerPanel>>,
    mut texts: Query<(&TrainerText, &mut Localized)>,
    mut nodes: Query<
        (
            &mut Node,
            Option<&NeedsStones>,
            Option<&BuildButton>,
            Has<BuildBar>,
        ),
        (
            Or<(With<NeedsStones>, With<BuildButton>, With<BuildBar>)>,
            Without<BuildFill>,
        ),
    >,
    mut fill: Query<
        &mut Node,
        (
            With<BuildFill>,
            Without<NeedsStones>,
            Without<BuildButton>,
            Without<BuildBar>,
        ),
    >,
) {
    let Some(trainer) = trainer else {
        for panel in &panels {
            commands.entity(panel).despawn();
        }
        return;
    };
    let kind = trainer.kind();
    for (which, mut t) in &mut texts {
        let value = match which {
            TrainerText::Goal => match (trainer.start, kind.goal) {
                (None, _) => Msg::new("trainer-waiting"),
                (Some(start), goal) => Msg::new(if goal == Goal::Win {
                    "trainer-goal-win"
                } else {
                    "trainer-goal-draw"
                })
                .with("kind", kind.label())
                .with("side", crate::game::flow::side_name(start.side_to_move()))
                .with(
                    "turns",
                    if goal == Goal::Win {
                        exercise::player_turns(trainer.fastest)
                    } else {
                        exercise::HOLD_TURNS
                    },
                ),
            },
            TrainerText::Tables => tables.status_text(),
            TrainerText::Feedback => trainer.feedback.clone(),
            TrainerText::Verdict => trainer.verdict.clone(),
            TrainerText::Count => {
                if trainer.start.is_none() || trainer.turns == 0 {
                    Msg::default()
                } else {
                    Msg::new("trainer-count")
                        .with("turns", trainer.turns)
                        .with("best", trainer.best_turns)
                        .with("fastest", exercise::player_turns(trainer.fastest))
                }
            }
        };
        if t.0 != value {
            t.0 = value;
        }
    }
    let max = tables.ready().map_or(0, |(_, m)| m);
    let building = matches!(tables.state(), TablesState::Building { .. });
    for (mut node, needs, build, bar) in &mut nodes {
        let shown = if let Some(needs) = needs {
            max >= needs.0
        } else if let Some(build) = build {
            !building
                && max < build.0
                && !matches!(
                    tables.state(),
                    TablesState::Loading(_) | TablesState::Unknown
                )
        } else {
            bar && building
        };
        let display = if shown { Display::Flex } else { Display::None };
        if node.display != display {
            node.display = display;
        }
    }
    if let Some(progress) = tables.build_progress() {
        for mut node in &mut fill {
            let width = percent(progress * 100.0);
            if node.width != width {
                node.width = width;
            }
        }
    }
}

/// The trainer's plugin.
pub fn plugin(app: &mut App) {
    app.add_message::<TrainerCommand>()
        .init_resource::<Layout>()
        .init_resource::<Tables>()
        .add_systems(
            PreUpdate,
            crate::ui::layout::report_training_panel::<Trainer>,
        )
        .add_systems(OnEnter(Screen::Playing), spawn_panel)
        .add_systems(
            Update,
            (
                trainer_commands.before(FlowSet),
                tables::poll_tables,
                start_when_ready,
                follow_game.after(FlowSet),
                rest_view.after(follow_game),
                refresh_panel.run_if(in_state(Screen::Playing)),
            )
                .chain(),
        );
}

#[cfg(test)]
mod tests;

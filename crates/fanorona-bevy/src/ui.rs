//! UI panels: the menu screen (new game settings, saved games) and the game screen's panels
//! (whose turn, stones left, messages, buttons, the list of turns, the result).

use std::path::PathBuf;

use bevy::prelude::*;
use fanorona_core::{BoardSize, Color as Side, GameKind, StepKind, StuckRule};

use crate::Screen;
use crate::analysis::{Analysis, AnalysisRequest};
use crate::clock::{Clocks, TimeControl, clock_text};
use crate::engine::Thinking;
use crate::export::Export;
use crate::flow::{Command, Match, Player, players_for, side_name};
use crate::input::{BlocksBoard, TurnEntry};
use crate::persist::{GamesDir, Persist, PersistStatus, saved_games};
use crate::review::ReviewRequest;
use crate::settings::{
    AnimationSpeed, MAX_LEVEL, MIN_LEVEL, Mode, Settings, SideChoice, board_choices,
};
use crate::tutorial::{Tutorial, TutorialCommand};

const PANEL: Color = Color::srgba(0.06, 0.07, 0.09, 0.86);
pub(crate) const BUTTON: Color = Color::srgb(0.20, 0.22, 0.27);
const BUTTON_HOVER: Color = Color::srgb(0.30, 0.34, 0.42);
const BUTTON_PRESS: Color = Color::srgb(0.45, 0.36, 0.16);
pub(crate) const TEXT: Color = Color::srgb(0.93, 0.93, 0.9);
const DIM: Color = Color::srgb(0.65, 0.67, 0.7);
pub(crate) const ACCENT: Color = Color::srgb(1.0, 0.82, 0.35);
const ERROR: Color = Color::srgb(1.0, 0.45, 0.4);

/// The space between the window's edge and a panel, in logical pixels at UI scale 1.
pub const MARGIN: f32 = 12.0;
/// The width of the game screen's left panel.
pub const LEFT_PANEL_WIDTH: f32 = 300.0;
/// The width of the list of turns on the right.
pub const TURNS_PANEL_WIDTH: f32 = 230.0;
/// From the left edge to the right side of the left panel, with a gap before the board.
pub const LEFT_EDGE: f32 = MARGIN + LEFT_PANEL_WIDTH + 18.0;
/// From the right edge to the left side of the list of turns, with a gap.
pub const TURNS_EDGE: f32 = MARGIN + TURNS_PANEL_WIDTH + 13.0;

/// A setting the menu can change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Who plays.
    Mode,
    /// The person's side.
    Side,
    /// Engine level.
    Level,
    /// The game: Fanorona, Vela or Fanoron-Telo.
    Game,
    /// Board size.
    Board,
    /// Opening restriction rule option.
    Opening,
    /// Compulsory continuation rule option.
    Continuation,
    /// Stuck player loses or draws.
    Stuck,
    /// Animation speed.
    Animation,
    /// Time control.
    Clock,
    /// Sound on or off.
    Sound,
}

impl Choice {
    const ALL: [Choice; 11] = [
        Choice::Mode,
        Choice::Side,
        Choice::Level,
        Choice::Game,
        Choice::Board,
        Choice::Opening,
        Choice::Continuation,
        Choice::Stuck,
        Choice::Animation,
        Choice::Clock,
        Choice::Sound,
    ];

    fn label(self) -> &'static str {
        match self {
            Choice::Mode => "Players",
            Choice::Side => "Your colour",
            Choice::Level => "Engine level",
            Choice::Game => "Game",
            Choice::Board => "Board",
            Choice::Opening => "Opening restriction",
            Choice::Continuation => "Compulsory continuation",
            Choice::Stuck => "Player who cannot move",
            Choice::Animation => "Animation speed",
            Choice::Clock => "Clocks",
            Choice::Sound => "Sound",
        }
    }

    /// The value shown for these settings.
    pub fn value(self, s: &Settings) -> String {
        let on = |b: bool| if b { "On" } else { "Off" }.to_string();
        let rules = s.rules();
        match self {
            Choice::Mode => s.mode.label().into(),
            Choice::Side => match s.human_side {
                SideChoice::White => "White (moves first)".into(),
                SideChoice::Black => "Black".into(),
            },
            Choice::Level => format!("{} ({})", s.level(), crate::engine::ai_level(s.level())),
            Choice::Game => match rules.game() {
                GameKind::Vela => "Vela (handicap: White gives stones away)".into(),
                GameKind::Telo => "Fanoron-Telo (3x3, three in a line)".into(),
                _ => "Fanorona".into(),
            },
            Choice::Board => board_label(s.board_size(), rules.game()),
            Choice::Opening => on(rules.opening_restriction()),
            Choice::Continuation => on(rules.compulsory_continuation()),
            Choice::Stuck => match rules.stuck() {
                StuckRule::Draws => "Draws".into(),
                _ => "Loses".into(),
            },
            Choice::Animation => s.animation.label().into(),
            Choice::Clock => s.clock.label(),
            Choice::Sound => match (s.muted, cfg!(feature = "sound")) {
                (true, _) => "Off".into(),
                (false, true) => "On".into(),
                (false, false) => "On (silent: built without --features sound)".into(),
            },
        }
    }

    /// Moves this setting to its next value (wrapping around).
    pub fn cycle(self, s: &mut Settings) {
        fn next<T: PartialEq + Copy>(all: &[T], now: T) -> T {
            let i = all.iter().position(|x| *x == now).unwrap_or(0);
            all[(i + 1) % all.len()]
        }
        let mut rules = s.rules();
        match self {
            Choice::Mode => s.mode = next(&Mode::ALL, s.mode),
            Choice::Side => {
                s.human_side = next(&[SideChoice::White, SideChoice::Black], s.human_side);
            }
            Choice::Level => {
                s.level = if s.level() >= MAX_LEVEL {
                    MIN_LEVEL
                } else {
                    s.level() + 1
                };
            }
            Choice::Game => {
                rules = rules.with_game(match rules.game() {
                    GameKind::Capture => GameKind::Vela,
                    GameKind::Vela => GameKind::Telo,
                    _ => GameKind::Capture,
                });
                // Fanoron-Telo has its board; leaving it, the standard board comes back.
                if rules.game() == GameKind::Telo {
                    s.board = BoardSize::TELO.to_string();
                } else if s.board_size() == BoardSize::TELO {
                    s.board = BoardSize::STANDARD.to_string();
                }
            }
            // Fanoron-Telo is played on the 3x3 board only.
            Choice::Board if rules.game() == GameKind::Telo => {}
            Choice::Board => s.board = next(&board_choices(), s.board_size()).to_string(),
            Choice::Opening => {
                rules = rules.with_opening_restriction(!rules.opening_restriction());
            }
            Choice::Continuation => {
                rules = rules.with_compulsory_continuation(!rules.compulsory_continuation());
            }
            Choice::Stuck => {
                rules =
                    rules.with_stuck(next(&[StuckRule::Loses, StuckRule::Draws], rules.stuck()));
            }
            Choice::Animation => s.animation = next(&AnimationSpeed::ALL, s.animation),
            Choice::Clock => s.clock = next(&TimeControl::ALL, s.clock),
            Choice::Sound => s.muted = !s.muted,
        }
        s.set_rules(rules);
    }
}

fn board_label(size: BoardSize, game: GameKind) -> String {
    let name = match (size.rows(), size.cols(), game) {
        (3, 3, GameKind::Telo) => " (Fanoron-Telo's board)",
        (5, 9, _) => " Fanoron-Tsivy",
        (5, 5, _) => " Fanoron-Dimy",
        (3, 3, _) => " (Fanorona-3x3)",
        _ => "",
    };
    format!("{size}{name}")
}

/// What a button does.
#[derive(Component, Clone, Debug, PartialEq)]
pub enum Action {
    /// A game command.
    Game(Command),
    /// Save the game.
    Save,
    /// Load this record.
    Load(PathBuf),
    /// Start a new game with the menu's settings.
    Start,
    /// Back to the game in progress.
    Continue,
    /// Open the menu.
    Menu,
    /// Quit the program.
    Quit,
    /// Change a setting.
    Cycle(Choice),
    /// Open the line for typing a turn.
    TypeTurn,
    /// Ask for a hint or turn analysis on or off.
    Analysis(AnalysisRequest),
    /// Start, move through or leave the tutorial.
    Tutorial(TutorialCommand),
    /// Export the position or the game.
    Export(Export),
    /// Turn the review on or off.
    Review(ReviewRequest),
    /// Open the file browser to open a record.
    Browse,
}

#[derive(Component)]
struct ChoiceText(Choice);

#[derive(Component)]
struct SavedList;

#[derive(Component)]
struct MenuStatus;

/// The game screen's live texts.
#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum Live {
    Turn,
    Stones,
    Players,
    Thinking,
    Message,
    Result,
    Entry,
    Analysis,
    Clock,
}

/// The evaluation bar (shown in analysis mode) and its white part.
#[derive(Component)]
struct EvalBar;

#[derive(Component)]
struct EvalFill;

/// Buttons shown only in some situations.
#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum Only {
    Chain,
    Choice,
    DrawOffer,
    TwoPeople,
    Viewing,
}

#[derive(Component)]
struct TurnList;

/// The right panel with the list of turns (hidden during the tutorial).
#[derive(Component)]
struct TurnsPanel;

fn text(value: impl Into<String>, size: f32, color: Color) -> impl Bundle {
    (
        Text::new(value),
        TextFont::from_font_size(size),
        TextColor(color),
    )
}

fn button(label: impl Into<String>, action: Action) -> impl Bundle {
    (
        Button,
        action,
        Node {
            padding: UiRect::axes(px(12.0), px(6.0)),
            border_radius: BorderRadius::all(px(6.0)),
            justify_content: JustifyContent::Center,
            align_items: AlignItems::Center,
            ..default()
        },
        BackgroundColor(BUTTON),
        children![(text(label, 17.0, TEXT), Pickable::IGNORE)],
    )
}

fn panel_node() -> Node {
    Node {
        flex_direction: FlexDirection::Column,
        padding: UiRect::all(px(14.0)),
        row_gap: px(8.0),
        border_radius: BorderRadius::all(px(10.0)),
        ..default()
    }
}

/// The UI scale for a window of this logical size: 1 at 1280x720, smaller windows get
/// smaller panels, larger ones larger text.
pub fn ui_scale_for(window: Vec2) -> f32 {
    (window.x / 1280.0).min(window.y / 720.0).clamp(0.5, 2.0)
}

fn scale_ui(windows: Query<&Window>, mut scale: ResMut<UiScale>) {
    if let Some(window) = windows.iter().next() {
        let wanted = ui_scale_for(Vec2::new(window.width(), window.height()));
        if (scale.0 - wanted).abs() > 0.001 {
            scale.0 = wanted;
        }
    }
}

// ---------------------------------------------------------------- menu screen

fn spawn_menu(mut commands: Commands, mut settings: ResMut<Settings>, game: Option<Res<Match>>) {
    // The first time the menu opens, the tutorial is offered prominently.
    let offer_tutorial = !settings.tutorial_offered;
    if offer_tutorial {
        settings.tutorial_offered = true;
    }
    let rows: Vec<Entity> = Choice::ALL
        .iter()
        .map(|&choice| {
            commands
                .spawn((
                    Node {
                        justify_content: JustifyContent::SpaceBetween,
                        align_items: AlignItems::Center,
                        column_gap: px(24.0),
                        ..default()
                    },
                    children![
                        text(choice.label(), 18.0, DIM),
                        (
                            Button,
                            Action::Cycle(choice),
                            Node {
                                width: px(230.0),
                                padding: UiRect::axes(px(10.0), px(5.0)),
                                border_radius: BorderRadius::all(px(6.0)),
                                justify_content: JustifyContent::Center,
                                ..default()
                            },
                            BackgroundColor(BUTTON),
                            children![(
                                ChoiceText(choice),
                                text(choice.value(&settings), 18.0, TEXT),
                                Pickable::IGNORE
                            )],
                        )
                    ],
                ))
                .id()
        })
        .collect();
    let can_continue = game.is_some();
    let root = commands
        .spawn((
            DespawnOnExit(Screen::Menu),
            // Above the board's coordinate labels, which are UI text too.
            GlobalZIndex(10),
            Node {
                width: percent(100.0),
                height: percent(100.0),
                justify_content: JustifyContent::Center,
                align_items: AlignItems::Center,
                ..default()
            },
            BackgroundColor(Color::srgba(0.0, 0.0, 0.0, 0.35)),
        ))
        .id();
    let card = commands
        .spawn((
            Node {
                min_width: px(520.0),
                ..panel_node()
            },
            BackgroundColor(PANEL.with_alpha(0.97)),
            children![
                text("Fanorona", 44.0, ACCENT),
                text("The board game of Madagascar", 16.0, DIM),
            ],
        ))
        .id();
    commands.entity(root).add_child(card);
    if offer_tutorial {
        let offer = commands
            .spawn((
                Node {
                    flex_direction: FlexDirection::Column,
                    row_gap: px(6.0),
                    padding: UiRect::all(px(10.0)),
                    border_radius: BorderRadius::all(px(8.0)),
                    ..default()
                },
                BackgroundColor(Color::srgba(0.9, 0.62, 0.0, 0.18)),
                children![
                    text(
                        "New to Fanorona? Seven short lessons teach the rules on small boards.",
                        17.0,
                        TEXT
                    ),
                    button(
                        "Start the tutorial",
                        Action::Tutorial(TutorialCommand::Start)
                    ),
                ],
            ))
            .id();
        commands.entity(card).add_child(offer);
    }
    // The options in two columns: twelve rows in one column do not fit a 720-pixel window.
    let grid = commands
        .spawn(Node {
            display: Display::Grid,
            grid_template_columns: RepeatedGridTrack::flex(2, 1.0),
            column_gap: px(32.0),
            row_gap: px(8.0),
            ..default()
        })
        .id();
    commands.entity(grid).add_children(&rows);
    commands.entity(card).add_child(grid);
    let buttons = commands
        .spawn((
            Node {
                column_gap: px(10.0),
                margin: UiRect::top(px(10.0)),
                ..default()
            },
            children![
                button("Start new game", Action::Start),
                button("Tutorial", Action::Tutorial(TutorialCommand::Start)),
                button("Quit", Action::Quit)
            ],
        ))
        .id();
    commands.entity(card).add_child(buttons);
    if can_continue {
        let resume = commands
            .spawn(button("Back to the game", Action::Continue))
            .id();
        commands.entity(buttons).insert_children(1, &[resume]);
    }
    let saved = commands
        .spawn((
            Node {
                flex_direction: FlexDirection::Column,
                row_gap: px(4.0),
                ..default()
            },
            SavedList,
        ))
        .id();
    let status = commands.spawn((MenuStatus, text("", 15.0, DIM))).id();
    let heading = commands
        .spawn((
            Node {
                justify_content: JustifyContent::SpaceBetween,
                align_items: AlignItems::Center,
                ..default()
            },
            children![
                text("Saved games", 20.0, ACCENT),
                button("Open a file... [O]", Action::Browse),
            ],
        ))
        .id();
    commands
        .entity(card)
        .add_children(&[heading, saved, status]);
}

fn refresh_saved_list(
    mut commands: Commands,
    dir: Res<GamesDir>,
    status: Res<PersistStatus>,
    lists: Query<Entity, Added<SavedList>>,
) {
    let _ = status;
    for list in &lists {
        let games = dir.0.as_deref().map(saved_games).unwrap_or_default();
        if games.is_empty() {
            let empty = commands
                .spawn(text("No saved games yet (Save during a game)", 15.0, DIM))
                .id();
            commands.entity(list).add_child(empty);
        }
        for path in games.into_iter().take(6) {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let entry = commands
                .spawn(button(format!("Load {name}"), Action::Load(path)))
                .id();
            commands.entity(list).add_child(entry);
        }
    }
}

fn refresh_menu(
    settings: Res<Settings>,
    status: Res<PersistStatus>,
    mut texts: Query<(&ChoiceText, &mut Text)>,
    mut status_text: Query<(&mut Text, &mut TextColor), (With<MenuStatus>, Without<ChoiceText>)>,
) {
    for (choice, mut t) in &mut texts {
        let value = choice.0.value(&settings);
        if t.0 != value {
            t.0 = value;
        }
    }
    for (mut t, mut color) in &mut status_text {
        if t.0 != status.text {
            t.0.clone_from(&status.text);
            color.0 = if status.error { ERROR } else { DIM };
        }
    }
}

// ---------------------------------------------------------------- game screen

fn spawn_game_ui(mut commands: Commands) {
    let left = commands
        .spawn((
            DespawnOnExit(Screen::Playing),
            BlocksBoard,
            Interaction::None,
            Node {
                position_type: PositionType::Absolute,
                left: px(MARGIN),
                top: px(MARGIN),
                width: px(LEFT_PANEL_WIDTH),
                // Never past the window's bottom (the margins are at most 12/720 of the
                // window's height each, see `ui_scale_for`): what does not fit (the help at
                // the end first) is cut at the panel's edge.
                max_height: percent(100.0 - 2.0 * 100.0 * MARGIN / 720.0),
                overflow: Overflow::clip_y(),
                ..panel_node()
            },
            BackgroundColor(PANEL),
        ))
        .id();
    let live = |commands: &mut Commands, which: Live, size: f32, color: Color| {
        commands.spawn((which, text("", size, color))).id()
    };
    let title = commands.spawn(text("Fanorona", 28.0, ACCENT)).id();
    let turn = live(&mut commands, Live::Turn, 22.0, TEXT);
    let stones = live(&mut commands, Live::Stones, 17.0, TEXT);
    let players = live(&mut commands, Live::Players, 15.0, DIM);
    let thinking = live(&mut commands, Live::Thinking, 17.0, ACCENT);
    let result = live(&mut commands, Live::Result, 22.0, ACCENT);
    let clock = live(&mut commands, Live::Clock, 18.0, TEXT);
    let entry = live(&mut commands, Live::Entry, 17.0, ACCENT);
    let eval_bar = commands
        .spawn((
            EvalBar,
            Node {
                width: percent(100.0),
                height: px(16.0),
                flex_shrink: 0.0,
                border_radius: BorderRadius::all(px(3.0)),
                display: Display::None,
                ..default()
            },
            BackgroundColor(Color::srgb(0.02, 0.02, 0.025)),
            children![(
                EvalFill,
                Node {
                    width: percent(50.0),
                    height: percent(100.0),
                    ..default()
                },
                BackgroundColor(Color::srgb(0.93, 0.91, 0.86)),
            )],
        ))
        .id();
    let analysis = commands
        .spawn((
            Live::Analysis,
            text("", 15.0, TEXT),
            Node {
                max_width: px(272.0),
                ..default()
            },
        ))
        .id();
    let message = commands
        .spawn((
            Live::Message,
            text("", 16.0, TEXT),
            Node {
                max_width: px(272.0),
                ..default()
            },
        ))
        .id();
    commands.entity(left).add_children(&[
        title, turn, stones, clock, players, thinking, result, message, entry, eval_bar, analysis,
    ]);
    let rows: [Vec<(&str, Action, Option<Only>)>; 7] = [
        vec![(
            "End turn [Space]",
            Action::Game(Command::EndTurn),
            Some(Only::Chain),
        )],
        vec![
            (
                "Approach [A]",
                Action::Game(Command::Choose(StepKind::Approach)),
                Some(Only::Choice),
            ),
            (
                "Withdrawal [W]",
                Action::Game(Command::Choose(StepKind::Withdrawal)),
                Some(Only::Choice),
            ),
        ],
        vec![
            (
                "Accept draw",
                Action::Game(Command::AnswerDraw(true)),
                Some(Only::DrawOffer),
            ),
            (
                "Decline",
                Action::Game(Command::AnswerDraw(false)),
                Some(Only::DrawOffer),
            ),
        ],
        vec![
            ("Undo [U]", Action::Game(Command::Undo), None),
            ("Redo [R]", Action::Game(Command::Redo), None),
            ("Type turn [T]", Action::TypeTurn, None),
        ],
        vec![
            ("Hint [H]", Action::Analysis(AnalysisRequest::Hint), None),
            (
                "Analysis [E]",
                Action::Analysis(AnalysisRequest::Toggle),
                None,
            ),
            ("Review [G]", Action::Review(ReviewRequest::Toggle), None),
        ],
        vec![
            ("Copy position", Action::Export(Export::CopyPosition), None),
            ("Copy FGN", Action::Export(Export::CopyGame), None),
            ("Save position", Action::Export(Export::SavePosition), None),
        ],
        vec![
            ("New game", Action::Game(Command::NewGame), None),
            ("Resign", Action::Game(Command::Resign), None),
            (
                "Offer draw",
                Action::Game(Command::OfferDraw),
                Some(Only::TwoPeople),
            ),
            ("Save", Action::Save, None),
            ("Open [O]", Action::Browse, None),
            ("Menu", Action::Menu, None),
        ],
    ];
    for row in rows {
        let row_entity = commands
            .spawn(Node {
                column_gap: px(6.0),
                flex_wrap: FlexWrap::Wrap,
                row_gap: px(6.0),
                ..default()
            })
            .id();
        // A row whose buttons all show only in one situation is hidden with them (an empty
        // row would still take its gap).
        let shared = row[0]
            .2
            .filter(|first| row.iter().all(|(_, _, o)| *o == Some(*first)));
        if let Some(only) = shared {
            commands.entity(row_entity).insert(only);
        }
        for (label, action, only) in row {
            let b = commands.spawn(button(label, action)).id();
            if let (Some(only), None) = (only, shared) {
                commands.entity(b).insert(only);
            }
            commands.entity(row_entity).add_child(b);
        }
        commands.entity(left).add_child(row_entity);
    }
    let help = commands
        .spawn(text(
            "Click a stone, then a marked point (or drag).\nRight drag, arrows: orbit. Wheel: zoom.\nHome: reset view. M: sound on/off.\n, and . : look back and forward.",
            13.0,
            DIM,
        ))
        .id();
    commands.entity(left).add_child(help);

    // Right: the list of turns.
    commands.spawn((
        TurnsPanel,
        DespawnOnExit(Screen::Playing),
        BlocksBoard,
        Interaction::None,
        Node {
            position_type: PositionType::Absolute,
            right: px(MARGIN),
            top: px(MARGIN),
            width: px(TURNS_PANEL_WIDTH),
            max_height: percent(92.0),
            ..panel_node()
        },
        BackgroundColor(PANEL),
        children![
            text("Turns", 22.0, ACCENT),
            (
                TurnList,
                Node {
                    flex_direction: FlexDirection::Column,
                    overflow: Overflow::scroll_y(),
                    row_gap: px(2.0),
                    ..default()
                },
                ScrollPosition::default(),
            ),
            (
                button("Back to the game [Esc]", Action::Game(Command::View(None))),
                Only::Viewing
            ),
        ],
    ));
}

fn refresh_game_ui(
    game: Res<Match>,
    thinking: Res<Thinking>,
    entry: Res<TurnEntry>,
    analysis: Res<Analysis>,
    clocks: Option<Res<Clocks>>,
    mut texts: Query<(&Live, &mut Text)>,
    tutorial: Option<Res<Tutorial>>,
    mut optional: Query<
        (&Only, &mut Node),
        (Without<EvalBar>, Without<EvalFill>, Without<TurnsPanel>),
    >,
    mut bar: Query<&mut Node, (With<EvalBar>, Without<EvalFill>, Without<TurnsPanel>)>,
    mut fill: Query<&mut Node, (With<EvalFill>, Without<EvalBar>, Without<TurnsPanel>)>,
    mut turns_panel: Query<&mut Node, (With<TurnsPanel>, Without<EvalBar>, Without<EvalFill>)>,
) {
    let report = analysis.report(game.generation());
    let clocks = clocks.map(|c| c.clone()).unwrap_or_default();
    let position = game.game().position();
    let side = position.side_to_move();
    let outcome = game.outcome();
    for (live, mut t) in &mut texts {
        let value = match live {
            Live::Turn => match outcome {
                Some(_) => "Game over".to_string(),
                None => format!("{} to move", side_name(side)),
            },
            Live::Stones => {
                format!(
                    "Stones: White {}, Black {}",
                    position.stones(Side::White).count(),
                    position.stones(Side::Black).count()
                )
            }
            Live::Players => {
                let who = |p: Player| match p {
                    Player::Human => "person".to_string(),
                    Player::Engine => format!("engine level {}", game.level()),
                };
                let [w, b] = game.players();
                format!(
                    "White: {}. Black: {}. Board {}.",
                    who(w),
                    who(b),
                    game.size()
                )
            }
            Live::Thinking => {
                if thinking.active() {
                    let dots = ".".repeat(1 + (thinking.seconds() * 3.0) as usize % 3);
                    format!("Engine thinking{dots:<3} {:.1} s", thinking.seconds())
                } else {
                    String::new()
                }
            }
            Live::Message => game.message().to_string(),
            Live::Result => game.result_text().unwrap_or_default(),
            Live::Clock => match (clocks.left(Side::White), clocks.left(Side::Black)) {
                (Some(w), Some(b)) => {
                    let running = |s: Side| {
                        if outcome.is_none() && side == s {
                            " <"
                        } else {
                            ""
                        }
                    };
                    format!(
                        "White {}{}   Black {}{}",
                        clock_text(w),
                        running(Side::White),
                        clock_text(b),
                        running(Side::Black)
                    )
                }
                _ => String::new(),
            },
            Live::Analysis => match (analysis.enabled, report) {
                (false, _) => String::new(),
                (true, None) => {
                    if game.outcome().is_some() {
                        "Analysis: the game is over".into()
                    } else if analysis.searching() {
                        "Analysis: thinking...".into()
                    } else {
                        "Analysis waits for the position to settle".into()
                    }
                }
                (true, Some(r)) => format!(
                    "Evaluation {} (depth {}{}, {} nodes)\nBest line: {}",
                    r.score_text(),
                    r.depth,
                    if r.finished { "" } else { ", thinking" },
                    r.nodes,
                    r.line_text(
                        game.game().turns().len(),
                        game.game().start().side_to_move(),
                        6
                    )
                ),
            },
            Live::Entry => {
                if entry.open {
                    format!("Type a turn: {}_ (Enter plays, Esc closes)", entry.text)
                } else {
                    String::new()
                }
            }
        };
        if t.0 != value {
            t.0 = value;
        }
    }
    let turns_display = if tutorial.is_some() {
        Display::None
    } else {
        Display::Flex
    };
    for mut node in &mut turns_panel {
        if node.display != turns_display {
            node.display = turns_display;
        }
    }
    let bar_display = if analysis.enabled {
        Display::Flex
    } else {
        Display::None
    };
    for mut node in &mut bar {
        if node.display != bar_display {
            node.display = bar_display;
        }
    }
    let share = report.map_or(0.5, crate::analysis::Report::white_share);
    for mut node in &mut fill {
        let width = percent(share * 100.0);
        if node.width != width {
            node.width = width;
        }
    }
    let human_pair = game.players() == [Player::Human, Player::Human];
    for (only, mut node) in &mut optional {
        let shown = match only {
            Only::Chain => game.can_end_turn() && game.choice().is_none(),
            Only::Choice => game.choice().is_some(),
            Only::DrawOffer => game.draw_offer().is_some(),
            Only::TwoPeople => human_pair && outcome.is_none() && game.draw_offer().is_none(),
            Only::Viewing => game.viewing().is_some(),
        };
        let display = if shown { Display::Flex } else { Display::None };
        if node.display != display {
            node.display = display;
        }
    }
}

/// Empty live texts take no room (each would still add a line's gap), so the left panel fits
/// a 720-pixel window.
fn hide_empty_texts(mut texts: Query<(&Text, &mut Node), (With<Live>, Changed<Text>)>) {
    for (text, mut node) in &mut texts {
        let display = if text.0.is_empty() {
            Display::None
        } else {
            Display::Flex
        };
        if node.display != display {
            node.display = display;
        }
    }
}

fn refresh_turn_list(
    mut commands: Commands,
    game: Res<Match>,
    review: Option<Res<crate::review::Review>>,
    lists: Query<(Entity, Option<&Children>), With<TurnList>>,
    mut shown: Local<Option<(usize, Option<usize>, u64, usize)>>,
    mut scroll: Query<&mut ScrollPosition, With<TurnList>>,
) {
    // The review's mistakes are marked in the list (`?`, `??`).
    let marks: Vec<(usize, &'static str)> = review
        .as_ref()
        .filter(|r| r.enabled)
        .map(|r| {
            r.mistakes()
                .iter()
                .map(|m| (m.turn, m.severity.mark()))
                .collect()
        })
        .unwrap_or_default();
    let done = review
        .as_ref()
        .filter(|r| r.enabled)
        .map_or(0, |r| r.done() + 1);
    let key = (
        game.game().turns().len(),
        game.viewing(),
        game.generation(),
        done,
    );
    let Ok((list, children)) = lists.single() else {
        *shown = None;
        return;
    };
    if *shown == Some(key) && children.is_some() {
        return;
    }
    *shown = Some(key);
    if let Some(children) = children {
        for child in children.iter() {
            commands.entity(child).despawn();
        }
    }
    let turns = game.game().turns();
    let start_side = game.game().start().side_to_move();
    for (i, turn) in turns.iter().enumerate() {
        let ply = i + 1;
        let mover = if i % 2 == 0 {
            start_side
        } else {
            start_side.other()
        };
        let number = if mover == start_side {
            format!("{}.", i / 2 + 1)
        } else {
            String::new()
        };
        let current = game.viewing().map_or(ply == turns.len(), |v| v == ply);
        let mark = marks
            .iter()
            .find(|(t, _)| *t == ply)
            .map_or("", |(_, m)| *m);
        let color = if current {
            ACCENT
        } else if mark.is_empty() {
            TEXT
        } else {
            crate::board::VERMILLION
        };
        let entry = commands
            .spawn((
                Button,
                Action::Game(Command::View(Some(ply))),
                Node {
                    padding: UiRect::axes(px(6.0), px(2.0)),
                    column_gap: px(6.0),
                    ..default()
                },
                BackgroundColor(if current { BUTTON } else { Color::NONE }),
                children![
                    (
                        text(number, 15.0, DIM),
                        Node {
                            min_width: px(30.0),
                            ..default()
                        },
                        Pickable::IGNORE
                    ),
                    (
                        text(format!("{} {turn}{mark}", mover.char()), 15.0, color),
                        Node {
                            max_width: px(170.0),
                            ..default()
                        },
                        Pickable::IGNORE
                    ),
                ],
            ))
            .id();
        commands.entity(list).add_child(entry);
    }
    if turns.is_empty() {
        let empty = commands.spawn(text("No turns yet", 15.0, DIM)).id();
        commands.entity(list).add_child(empty);
    }
    if game.viewing().is_none()
        && let Ok(mut position) = scroll.single_mut()
    {
        // Keep the newest turn in sight.
        position.0.y = f32::MAX;
    }
}

// ---------------------------------------------------------------- buttons

fn press_buttons(
    mut buttons: Query<(&Interaction, &Action, &mut BackgroundColor), Changed<Interaction>>,
    mut settings: ResMut<Settings>,
    mut game_commands: MessageWriter<Command>,
    mut persist: MessageWriter<Persist>,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
    game: Option<ResMut<Match>>,
    mut entry: ResMut<TurnEntry>,
    mut analysis: MessageWriter<AnalysisRequest>,
    mut tutorial: MessageWriter<TutorialCommand>,
    mut exports: MessageWriter<Export>,
    mut reviews: MessageWriter<ReviewRequest>,
    mut browser: MessageWriter<crate::browser::BrowserCommand>,
    mut commands: Commands,
) {
    let mut game = game;
    for (interaction, action, mut background) in &mut buttons {
        background.0 = match interaction {
            Interaction::Pressed => BUTTON_PRESS,
            Interaction::Hovered => BUTTON_HOVER,
            Interaction::None => {
                if matches!(action, Action::Game(Command::View(_))) {
                    Color::NONE
                } else {
                    BUTTON
                }
            }
        };
        if *interaction != Interaction::Pressed {
            continue;
        }
        match action {
            Action::Game(command) => {
                game_commands.write(command.clone());
            }
            Action::Save => {
                persist.write(Persist::Save);
            }
            Action::Load(path) => {
                persist.write(Persist::Load(path.clone()));
            }
            Action::Start => {
                commands.remove_resource::<Tutorial>();
                commands.insert_resource(Match::from_settings(&settings));
                next.set(Screen::Playing);
            }
            Action::Continue => {
                if let Some(game) = game.as_deref_mut() {
                    // The menu may have changed who plays: apply it to the running game.
                    game.set_players(players_for(&settings), settings.level());
                }
                next.set(Screen::Playing);
            }
            Action::Menu => next.set(Screen::Menu),
            Action::Quit => {
                exit.write(AppExit::Success);
            }
            Action::Cycle(choice) => choice.cycle(&mut settings),
            Action::Analysis(request) => {
                analysis.write(*request);
            }
            Action::Tutorial(request) => {
                tutorial.write(*request);
            }
            Action::Export(request) => {
                exports.write(*request);
            }
            Action::Review(request) => {
                reviews.write(*request);
            }
            Action::Browse => {
                browser.write(crate::browser::BrowserCommand::Open);
            }
            Action::TypeTurn => {
                if !entry.open {
                    entry.key(&bevy::input::keyboard::Key::Character("t".into()));
                }
            }
        }
    }
}

/// After a successful load from the menu, go to the game.
fn enter_game_after_load(
    status: Res<PersistStatus>,
    game: Option<Res<Match>>,
    mut next: ResMut<NextState<Screen>>,
    mut seen: Local<u64>,
) {
    if status.serial != *seen {
        *seen = status.serial;
        if !status.error && game.is_some() && status.text.starts_with("Loaded") {
            next.set(Screen::Playing);
        }
    }
}

/// The UI plugin.
pub fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Menu), spawn_menu)
        .add_systems(OnEnter(Screen::Playing), spawn_game_ui)
        .add_systems(
            Update,
            (
                scale_ui,
                press_buttons,
                (refresh_saved_list, refresh_menu, enter_game_after_load)
                    .run_if(in_state(Screen::Menu)),
                (refresh_game_ui, hide_empty_texts, refresh_turn_list)
                    .chain()
                    .run_if(in_state(Screen::Playing).and_then(resource_exists::<Match>)),
            ),
        );
}

//! The menu screen: new game settings (and the language), the tutorial's offer and the saved
//! games.

use bevy::prelude::*;
use fanorona_core::{BoardSize, GameKind, StuckRule};

use super::theme::*;
use super::widgets::*;
use crate::Screen;
use crate::game::clock::TimeControl;
use crate::game::flow::Match;
use crate::game::persist::{GamesDir, PersistStatus, saved_games};
use crate::i18n::{Localized, Msg};
use crate::settings::{
    AnimationSpeed, MAX_LEVEL, MIN_LEVEL, Mode, Settings, SideChoice, board_choices,
};
use crate::tutorial::TutorialCommand;

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
    /// The high-contrast look.
    Contrast,
    /// The size of the interface's text.
    TextSize,
    /// The language of the texts.
    Language,
}

impl Choice {
    const ALL: [Choice; 14] = [
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
        Choice::Contrast,
        Choice::TextSize,
        Choice::Language,
    ];

    /// The setting's name (a message id).
    fn label(self) -> &'static str {
        match self {
            Choice::Mode => "menu-players",
            Choice::Side => "menu-side",
            Choice::Level => "menu-level",
            Choice::Game => "menu-game",
            Choice::Board => "menu-board",
            Choice::Opening => "menu-opening",
            Choice::Continuation => "menu-continuation",
            Choice::Stuck => "menu-stuck",
            Choice::Animation => "menu-animation",
            Choice::Clock => "menu-clock",
            Choice::Sound => "menu-sound",
            Choice::Language => "menu-language",
            Choice::Contrast => "access-contrast",
            Choice::TextSize => "access-text-size",
        }
    }

    /// A one-line explanation under the setting's name, for rules a newcomer may not know
    /// (a message id).
    pub fn help(self) -> Option<&'static str> {
        match self {
            Choice::Opening => Some("menu-opening-help"),
            Choice::Continuation => Some("menu-continuation-help"),
            _ => None,
        }
    }

    /// The value shown for these settings.
    pub fn value(self, s: &Settings) -> Msg {
        let on = |b: bool| Msg::new(if b { "menu-on" } else { "menu-off" });
        let rules = s.rules();
        match self {
            Choice::Mode => Msg::new(s.mode.label()),
            Choice::Side => Msg::new(match s.human_side {
                SideChoice::White => "menu-side-white",
                SideChoice::Black => "menu-side-black",
            }),
            Choice::Level => Msg::new("menu-level-value").with("level", s.level()).with(
                "name",
                crate::game::engine::level_name(crate::game::engine::ai_level(s.level())),
            ),
            Choice::Game => Msg::new(match rules.game() {
                GameKind::Vela => "menu-game-vela",
                GameKind::Telo => "menu-game-telo",
                _ => "menu-game-capture",
            }),
            Choice::Board => board_label(s.board_size(), rules.game()),
            Choice::Opening => on(rules.opening_restriction()),
            Choice::Continuation => on(rules.compulsory_continuation()),
            Choice::Stuck => Msg::new(match rules.stuck() {
                StuckRule::Draws => "menu-stuck-draws",
                _ => "menu-stuck-loses",
            }),
            Choice::Animation => Msg::new(s.animation.label()),
            Choice::Clock => s.clock.label(),
            Choice::Sound => match (s.muted, cfg!(feature = "sound")) {
                (true, _) => Msg::new("menu-off"),
                (false, true) => Msg::new("menu-on"),
                // A build without audio still makes the cues, silently.
                (false, false) => Msg::new("menu-sound-silent"),
            },
            Choice::Contrast => Msg::new(if s.high_contrast {
                "menu-on"
            } else {
                "menu-off"
            }),
            Choice::TextSize => Msg::new(s.text_size.label()),
            // The language's name in itself (the catalogue shown is the one chosen).
            Choice::Language => Msg::new("language-name"),
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
            Choice::Contrast => s.high_contrast = !s.high_contrast,
            Choice::TextSize => s.text_size = next(&crate::settings::TextSize::ALL, s.text_size),
            Choice::Language => s.language = Some(s.language().next()),
        }
        s.set_rules(rules);
    }
}

fn board_label(size: BoardSize, game: GameKind) -> Msg {
    let id = match (size.rows(), size.cols(), game) {
        (3, 3, GameKind::Telo) => "menu-board-telo",
        (5, 9, _) => "menu-board-tsivy",
        (5, 5, _) => "menu-board-dimy",
        (3, 3, _) => "menu-board-3x3",
        _ => "menu-board-other",
    };
    Msg::new(id).with("size", size.to_string())
}

#[derive(Component)]
struct ChoiceText(Choice);

#[derive(Component)]
struct SavedList;

#[derive(Component)]
struct MenuStatus;

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
                        (
                            Node {
                                flex_direction: FlexDirection::Column,
                                ..default()
                            },
                            children![
                                tr_text(choice.label(), 18.0, DIM),
                                (
                                    tr_text(
                                        Msg::new(choice.help().unwrap_or_default()),
                                        TEXT_SMALL,
                                        DIM
                                    ),
                                    Node {
                                        display: if choice.help().is_some() {
                                            Display::Flex
                                        } else {
                                            Display::None
                                        },
                                        ..default()
                                    },
                                ),
                            ],
                        ),
                        (
                            Button,
                            Action::Cycle(choice),
                            Focusable(100 + choice as u32),
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
                                tr_text(choice.value(&settings), 18.0, TEXT),
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
                tr_text("app-title", 44.0, ACCENT),
                tr_text("menu-subtitle", 16.0, DIM),
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
                    tr_text("menu-tutorial-offer", 17.0, TEXT),
                    (
                        button(
                            "menu-tutorial-start",
                            Action::Tutorial(TutorialCommand::Start)
                        ),
                        Focusable(5)
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
    // The engine level as a slider over every level, with the player's rating.
    let slider = crate::rating::spawn_slider(&mut commands, &settings);
    commands.entity(card).add_child(slider);
    let buttons = commands
        .spawn((
            Node {
                column_gap: px(10.0),
                row_gap: px(6.0),
                flex_wrap: FlexWrap::Wrap,
                margin: UiRect::top(px(10.0)),
                ..default()
            },
            children![
                (button("menu-start", Action::Start), Focusable(1)),
                (
                    button("menu-tutorial", Action::Tutorial(TutorialCommand::Start)),
                    Focusable(2)
                ),
                (
                    button(
                        "menu-puzzles",
                        Action::Puzzles(crate::puzzles::PuzzleCommand::Open)
                    ),
                    Focusable(3)
                ),
                (
                    button(
                        "menu-trainer",
                        Action::Trainer(crate::trainer::TrainerCommand::Open)
                    ),
                    Focusable(4)
                ),
                (
                    button(
                        "editor-open",
                        Action::Editor(crate::editor::EditorCommand::Open)
                    ),
                    Focusable(6)
                ),
                (button("menu-quit", Action::Quit), Focusable(7))
            ],
        ))
        .id();
    commands.entity(card).add_child(buttons);
    if can_continue {
        let resume = commands
            .spawn((button("menu-continue", Action::Continue), Focusable(0)))
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
    let status = commands
        .spawn((MenuStatus, tr_text(Msg::default(), 15.0, DIM)))
        .id();
    let heading = commands
        .spawn((
            Node {
                justify_content: JustifyContent::SpaceBetween,
                align_items: AlignItems::Center,
                ..default()
            },
            children![
                tr_text("menu-saved-games", 20.0, ACCENT),
                (button("menu-open-file", Action::Browse), Focusable(200)),
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
                .spawn(tr_text("menu-no-saved-games", 15.0, DIM))
                .id();
            commands.entity(list).add_child(empty);
        }
        for (i, path) in games.into_iter().take(6).enumerate() {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let entry = commands
                .spawn((
                    button(Msg::new("menu-load").with("name", name), Action::Load(path)),
                    Focusable(300 + i as u32),
                ))
                .id();
            commands.entity(list).add_child(entry);
        }
    }
}

fn refresh_menu(
    settings: Res<Settings>,
    status: Res<PersistStatus>,
    mut texts: Query<(&ChoiceText, &mut Localized)>,
    mut status_text: Query<
        (&mut Localized, &mut TextColor),
        (With<MenuStatus>, Without<ChoiceText>),
    >,
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

/// After a successful load from the menu, go to the game.
fn enter_game_after_load(
    status: Res<PersistStatus>,
    game: Option<Res<Match>>,
    mut next: ResMut<NextState<Screen>>,
    mut seen: Local<u64>,
) {
    if status.serial != *seen {
        *seen = status.serial;
        if !status.error && game.is_some() && status.text.id() == "status-loaded" {
            next.set(Screen::Playing);
        }
    }
}

/// The menu's plugin.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Menu), spawn_menu)
        .add_systems(
            Update,
            (refresh_saved_list, refresh_menu, enter_game_after_load)
                .run_if(in_state(Screen::Menu)),
        );
}

//! Buttons and what they do: a pressed button (clicked, or chosen by keys) sends [`Act`],
//! one system performs it. Acts that throw a game away (resign, a new game over one in
//! progress) ask first in a confirmation dialog. Keyboard focus moves between the buttons
//! marked [`Focusable`] with Tab, Shift+Tab and the arrows; Enter or Space presses the
//! focused one; the focused button is outlined.

use std::path::PathBuf;

use bevy::prelude::*;

use super::menu::Choice;
use super::theme::*;
use crate::Screen;
use crate::analysis::AnalysisRequest;
use crate::analysis::review::ReviewRequest;
use crate::game::export::Export;
use crate::game::flow::{Command, Match, players_for};
use crate::game::input::{BlocksBoard, TurnEntry};
use crate::game::persist::{Persist, PersistStatus};
use crate::i18n::Localized;
use crate::settings::Settings;
use crate::tutorial::{Tutorial, TutorialCommand};

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
    /// Open or use the position editor.
    Editor(crate::editor::EditorCommand),
    /// The endgame trainer.
    Trainer(crate::trainer::TrainerCommand),
    /// Retrying the mistakes of a reviewed game.
    Mistakes(crate::mistakes::MistakesCommand),
    /// The Puzzles screen.
    Puzzles(crate::puzzles::PuzzleCommand),
    /// Choose this engine level (1 is the weakest), from the level slider.
    Level(u8),
}

/// A button showing a message (an id, or a [`crate::i18n::Msg`]) that does `action`.
pub(crate) fn button(label: impl Into<Localized>, action: Action) -> impl Bundle {
    (
        Button,
        action,
        button_node(),
        BackgroundColor(BUTTON),
        children![(tr_text(label, TEXT_BUTTON, TEXT), Pickable::IGNORE)],
    )
}

/// A button was pressed (by the mouse or the keyboard): do what it says.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct Act {
    /// What to do.
    pub action: Action,
    /// The player already said yes to it in the confirmation dialog.
    pub confirmed: bool,
}

impl Act {
    /// An act not confirmed yet (it asks first when it would throw a game away).
    pub fn new(action: Action) -> Act {
        Act {
            action,
            confirmed: false,
        }
    }
}

/// A button that the keyboard can focus (Tab, arrows), in the order of `0`.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Focusable(pub u32);

/// The button with keyboard focus (`None`: no button has it; Tab gives it to the first).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Focus(pub Option<Entity>);

/// An act waiting for the player's yes or no.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Confirm(pub Option<Action>);

impl Confirm {
    /// The question asked for `action` (a message id).
    pub fn question(action: &Action) -> &'static str {
        match action {
            Action::Game(Command::Resign) => "confirm-resign",
            _ => "confirm-new-game",
        }
    }

    /// The button that says yes (a message id).
    pub fn yes_label(action: &Action) -> &'static str {
        match action {
            Action::Game(Command::Resign) => "confirm-resign-yes",
            _ => "confirm-new-game-yes",
        }
    }
}

#[derive(Component)]
struct ConfirmDialog;

/// The confirmation dialog's answer buttons.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConfirmAnswer(pub bool);

/// Whether `action` throws a game in progress away, so it must be confirmed first.
fn needs_confirmation(action: &Action, game: Option<&Match>, tutorial: bool) -> bool {
    let in_progress = game.is_some_and(|g| {
        g.outcome().is_none() && (!g.game().turns().is_empty() || !g.partial_steps().is_empty())
    });
    if tutorial || !in_progress {
        return false;
    }
    matches!(
        action,
        Action::Game(Command::Resign | Command::NewGame) | Action::Start
    )
}

fn press_buttons(
    mut buttons: Query<
        (
            &Interaction,
            Option<&Action>,
            Option<&ConfirmAnswer>,
            &mut BackgroundColor,
        ),
        // Panels carry an `Interaction` too (it keeps clicks off the board): only buttons
        // are painted and pressed here.
        (Changed<Interaction>, With<Button>),
    >,
    mut acts: MessageWriter<Act>,
    mut confirm: ResMut<Confirm>,
) {
    for (interaction, action, answer, mut background) in &mut buttons {
        background.0 = match interaction {
            Interaction::Pressed => BUTTON_PRESS,
            Interaction::Hovered => BUTTON_HOVER,
            Interaction::None => {
                if matches!(action, Some(Action::Game(Command::View(_)))) {
                    Color::NONE
                } else {
                    BUTTON
                }
            }
        };
        if *interaction != Interaction::Pressed {
            continue;
        }
        if let Some(ConfirmAnswer(yes)) = answer {
            answer_confirm(&mut confirm, *yes, &mut acts);
        } else if let Some(action) = action {
            acts.write(Act::new(action.clone()));
        }
    }
}

fn answer_confirm(confirm: &mut Confirm, yes: bool, acts: &mut MessageWriter<Act>) {
    if let Some(action) = confirm.0.take()
        && yes
    {
        acts.write(Act {
            action,
            confirmed: true,
        });
    }
}

/// Does what the pressed buttons say.
fn perform(
    mut acts: MessageReader<Act>,
    mut settings: ResMut<Settings>,
    mut game_commands: MessageWriter<Command>,
    mut persist: MessageWriter<Persist>,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
    game: Option<ResMut<Match>>,
    mut entry: ResMut<TurnEntry>,
    (mut analysis, mut tutorial, mut exports, mut reviews, mut browser): (
        MessageWriter<AnalysisRequest>,
        MessageWriter<TutorialCommand>,
        MessageWriter<Export>,
        MessageWriter<ReviewRequest>,
        MessageWriter<crate::browser::BrowserCommand>,
    ),
    mut editor: MessageWriter<crate::editor::EditorCommand>,
    mut confirm: ResMut<Confirm>,
    mut status: ResMut<PersistStatus>,
    in_tutorial: Option<Res<Tutorial>>,
    mut commands: Commands,
    (mut trainer, mut mistakes, mut puzzles): (
        MessageWriter<crate::trainer::TrainerCommand>,
        MessageWriter<crate::mistakes::MistakesCommand>,
        MessageWriter<crate::puzzles::PuzzleCommand>,
    ),
) {
    let mut game = game;
    for act in acts.read() {
        let action = &act.action;
        if !act.confirmed && needs_confirmation(action, game.as_deref(), in_tutorial.is_some()) {
            confirm.0 = Some(action.clone());
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
                // The menu's line about the last load or save is old news now.
                status.text = crate::i18n::Msg::default();
                status.error = false;
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
            Action::Editor(command) => {
                editor.write(command.clone());
            }
            Action::Trainer(request) => {
                trainer.write(*request);
            }
            Action::Mistakes(request) => {
                mistakes.write(*request);
            }
            Action::Puzzles(request) => {
                puzzles.write(*request);
            }
            Action::Level(number) => {
                settings.level = *number;
                settings.level = settings.level();
            }
            Action::TypeTurn => {
                if !entry.open {
                    entry.key(&bevy::input::keyboard::Key::Character("t".into()));
                }
            }
        }
    }
}

/// Shows the confirmation dialog while an act waits for an answer.
fn show_confirm(
    mut commands: Commands,
    confirm: Res<Confirm>,
    dialogs: Query<Entity, With<ConfirmDialog>>,
) {
    if !confirm.is_changed() {
        return;
    }
    for dialog in &dialogs {
        commands.entity(dialog).despawn();
    }
    let Some(action) = &confirm.0 else {
        return;
    };
    commands.spawn((
        ConfirmDialog,
        BlocksBoard,
        Interaction::None,
        GlobalZIndex(20),
        Node {
            position_type: PositionType::Absolute,
            width: percent(100.0),
            height: percent(100.0),
            justify_content: JustifyContent::Center,
            align_items: AlignItems::Center,
            ..default()
        },
        BackgroundColor(Color::srgba(0.0, 0.0, 0.0, 0.45)),
        children![(
            Node {
                max_width: px(420.0),
                ..panel_node()
            },
            BackgroundColor(Color::srgba(0.06, 0.07, 0.09, 0.97)),
            children![
                tr_text(Confirm::question(action), TEXT_LARGE, TEXT),
                (
                    Node {
                        column_gap: px(10.0),
                        ..default()
                    },
                    children![
                        (
                            Button,
                            ConfirmAnswer(true),
                            button_node(),
                            BackgroundColor(BUTTON),
                            children![(
                                tr_text(Confirm::yes_label(action), TEXT_BUTTON, TEXT),
                                Pickable::IGNORE
                            )],
                        ),
                        (
                            Button,
                            ConfirmAnswer(false),
                            button_node(),
                            BackgroundColor(BUTTON),
                            children![(
                                tr_text("confirm-cancel", TEXT_BUTTON, TEXT),
                                Pickable::IGNORE
                            )],
                        ),
                    ],
                ),
            ],
        )],
    ));
}

fn button_node() -> Node {
    Node {
        padding: UiRect::axes(px(10.0), px(4.0)),
        border_radius: BorderRadius::all(px(6.0)),
        justify_content: JustifyContent::Center,
        align_items: AlignItems::Center,
        ..default()
    }
}

fn arrows_pressed(keys: &ButtonInput<KeyCode>) -> bool {
    key_pressed(
        keys,
        &[
            KeyCode::ArrowUp,
            KeyCode::ArrowDown,
            KeyCode::ArrowLeft,
            KeyCode::ArrowRight,
        ],
    )
}

fn key_pressed(keys: &ButtonInput<KeyCode>, codes: &[KeyCode]) -> bool {
    codes.iter().any(|c| keys.just_pressed(*c))
}

/// The game screen's short keys: Ctrl+S saves, Ctrl+N starts a new game (asking first),
/// Esc (when there is nothing to drop: no selection, chain, look back or typing) and F10 open
/// the menu. Enter or Y answers yes to a confirmation, Esc or N no.
fn shortcut_keys(
    keys: Res<ButtonInput<KeyCode>>,
    screen: Res<State<Screen>>,
    game: Option<Res<Match>>,
    entry: Option<Res<TurnEntry>>,
    browser: Option<Res<crate::browser::Browser>>,
    tutorial: Option<Res<Tutorial>>,
    mut confirm: ResMut<Confirm>,
    mut acts: MessageWriter<Act>,
) {
    if confirm.0.is_some() {
        if key_pressed(
            &keys,
            &[KeyCode::Enter, KeyCode::NumpadEnter, KeyCode::KeyY],
        ) {
            answer_confirm(&mut confirm, true, &mut acts);
        } else if key_pressed(&keys, &[KeyCode::Escape, KeyCode::KeyN]) {
            answer_confirm(&mut confirm, false, &mut acts);
        }
        return;
    }
    if entry.is_some_and(|e| e.open || e.used_keys)
        || browser.is_some_and(|b| b.open || b.took_keys)
    {
        return;
    }
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    match screen.get() {
        Screen::Playing => {
            if ctrl && keys.just_pressed(KeyCode::KeyS) && tutorial.is_none() {
                acts.write(Act::new(Action::Save));
            } else if ctrl && keys.just_pressed(KeyCode::KeyN) && tutorial.is_none() {
                acts.write(Act::new(Action::Game(Command::NewGame)));
            } else {
                // Esc opens the menu only when it has nothing to drop (a selection, a chain, a
                // look back); F10 always.
                let nothing_to_drop = game.is_some_and(|g| {
                    g.viewing().is_none()
                        && g.selected().is_none()
                        && g.choice().is_none()
                        && g.partial_steps().is_empty()
                });
                if keys.just_pressed(KeyCode::F10)
                    || (keys.just_pressed(KeyCode::Escape) && nothing_to_drop)
                {
                    acts.write(Act::new(Action::Menu));
                }
            }
        }
        // The editor's keys are its own (see `editor`).
        Screen::Editor => {}
        Screen::Menu => {
            if ctrl && keys.just_pressed(KeyCode::KeyN) {
                acts.write(Act::new(Action::Start));
            } else if key_pressed(&keys, &[KeyCode::Escape, KeyCode::F10]) && game.is_some() {
                acts.write(Act::new(Action::Continue));
            }
        }
    }
}

/// Tab, Shift+Tab and the arrows move the keyboard focus between the [`Focusable`] buttons
/// shown; Enter or Space presses the focused button. The focus is outlined. On the screens
/// with a board (the game, the editor) the board is a stop of its own, first in the order
/// (`Focus(None)`: the arrows move the board's cursor, see `access`), and the arrows do not
/// move the focus.
fn focus_keys(
    keys: Res<ButtonInput<KeyCode>>,
    screen: Option<Res<State<Screen>>>,
    taken: Option<Res<crate::access::KeysTaken>>,
    confirm: Res<Confirm>,
    entry: Option<Res<TurnEntry>>,
    browser: Option<Res<crate::browser::Browser>>,
    mut focus: ResMut<Focus>,
    all: Query<(Entity, &Focusable, &Action)>,
    mut outlines: Query<(Entity, &mut Outline), With<Focusable>>,
    mut acts: MessageWriter<Act>,
) {
    // Not while a dialog asks (nor in the frame it was answered, by the same Enter).
    if confirm.0.is_some()
        || confirm.is_changed()
        || entry.is_some_and(|e| e.open || e.used_keys)
        || browser.is_some_and(|b| b.open || b.took_keys)
        || taken.is_some_and(|t| t.0)
    {
        return;
    }
    let mut order: Vec<(Focusable, Entity, &Action)> =
        all.iter().map(|(e, f, a)| (*f, e, a)).collect();
    order.sort_by_key(|(f, e, _)| (*f, *e));
    let board = screen.is_some_and(|s| matches!(s.get(), Screen::Playing | Screen::Editor));
    if focus
        .0
        .is_some_and(|f| order.iter().all(|(_, e, _)| *e != f))
        || (focus.0.is_none() && !board)
    {
        // The focus starts on the board, or on the menu's first button ("Back to the game"
        // or "Start").
        focus.0 = if board {
            None
        } else {
            order.first().map(|(_, e, _)| *e)
        };
    }
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    let arrows = !board;
    let forward = (keys.just_pressed(KeyCode::Tab) && !shift)
        || (arrows && key_pressed(&keys, &[KeyCode::ArrowDown, KeyCode::ArrowRight]));
    let back = (keys.just_pressed(KeyCode::Tab) && shift)
        || (arrows && key_pressed(&keys, &[KeyCode::ArrowUp, KeyCode::ArrowLeft]));
    if !order.is_empty() && (forward || back) {
        // The stops: the board (on its screens), then the buttons in order.
        let mut stops: Vec<Option<Entity>> = order.iter().map(|(_, e, _)| Some(*e)).collect();
        if board {
            stops.insert(0, None);
        }
        let at = stops.iter().position(|e| *e == focus.0).unwrap_or(0);
        let n = stops.len();
        let next = if forward {
            (at + 1) % n
        } else {
            (at + n - 1) % n
        };
        focus.0 = stops[next];
    } else if board && focus.0.is_some() && arrows_pressed(&keys) {
        // The arrows take the focus back to the board's cursor.
        focus.0 = None;
    }
    if key_pressed(
        &keys,
        &[KeyCode::Enter, KeyCode::NumpadEnter, KeyCode::Space],
    ) && let Some((_, _, action)) = focus.0.and_then(|f| order.iter().find(|(_, e, _)| *e == f))
    {
        acts.write(Act::new((*action).clone()));
    }
    for (entity, mut outline) in &mut outlines {
        let color = if focus.0 == Some(entity) {
            ACCENT
        } else {
            Color::NONE
        };
        if outline.color != color {
            outline.color = color;
        }
    }
}

/// Focusable buttons get an outline, drawn in the accent colour while focused.
fn outline_focusables(
    mut commands: Commands,
    added: Query<Entity, (Added<Focusable>, Without<Outline>)>,
) {
    for entity in &added {
        commands
            .entity(entity)
            .insert(Outline::new(px(2.0), px(2.0), Color::NONE));
    }
}

/// The widgets' systems (presses, keys, acts performed, the dialog).
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Widgets;

/// The widgets' keys (short keys, keyboard focus): the board's cursor keys run after them.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WidgetKeys;

/// The widgets' plugin: presses, short keys and focus become [`Act`]s, performed before the
/// game's flow in the same frame; the confirmation dialog follows [`Confirm`].
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Confirm>()
        .init_resource::<Focus>()
        .add_message::<Act>()
        .add_message::<crate::editor::EditorCommand>()
        // The features' messages that buttons send (their plugins register them too).
        .add_message::<crate::trainer::TrainerCommand>()
        .add_message::<crate::mistakes::MistakesCommand>()
        .add_message::<crate::puzzles::PuzzleCommand>()
        .add_systems(
            Update,
            (
                press_buttons,
                (shortcut_keys, focus_keys)
                    .chain()
                    .in_set(WidgetKeys)
                    .run_if(resource_exists::<ButtonInput<KeyCode>>),
                perform,
                show_confirm,
                outline_focusables,
            )
                .chain()
                .in_set(Widgets)
                .before(crate::game::flow::FlowSet),
        );
}

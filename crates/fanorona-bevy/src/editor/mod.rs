//! The position editor: set up any position on any board for any game, checked by
//! `fanorona-core` as it is built, then play it (against the engine or between two people),
//! analyse it, or copy it as a position string. A position string pasted (`Ctrl+V`, on the
//! menu, the game screen or here) or typed (`P`) opens in the editor.
//!
//! The [`Editor`] resource holds the stones, the side to move, the board and the rules;
//! [`Editor::check`] asks the core whether they make a position ([`Position::from_setup`]),
//! whether each side of a capture game has stones, and whether the position is already
//! decided ([`Position::outcome`]): no rule is written here. Every button sends an
//! [`EditorCommand`] through the one `Act` message; the board's clicks and the keyboard
//! cursor's presses ([`BoardPress`]) put or take away stones.

pub mod words;

use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use fanorona_core::{Bitboard, BoardSize, Color as Side, GameKind, Point, Position, Rules, Setup};

use crate::Screen;
use crate::access::{Announcer, BoardPress, KeysTaken};
use crate::game::flow::{BoardView, Match, Player, outcome_text};
use crate::game::input::{BlocksBoard, TurnEntry, cursor_point};
use crate::i18n::{Localized, Msg};
use crate::settings::{Settings, board_choices};
use crate::ui::layout::{LEFT_PANEL_WIDTH, Layout, MARGIN, RightPanel};
use crate::ui::theme::*;
use crate::ui::widgets::{Action, button};

/// What a press on the board puts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Brush {
    /// A white stone.
    #[default]
    White,
    /// A black stone.
    Black,
    /// Nothing: the stone is taken away.
    Empty,
}

/// How to play from the edited position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayAs {
    /// The person plays the side to move, the engine the other.
    AgainstEngine,
    /// Two people.
    TwoPeople,
}

/// What the editor is asked to do (by its buttons, keys, the menu and pasting).
#[derive(Message, Clone, Debug, PartialEq)]
pub enum EditorCommand {
    /// Open the editor with the game's position (the start position without a game).
    Open,
    /// Open this position string in the editor.
    OpenText(String),
    /// The next board size (the start position of that board).
    Size,
    /// The next game: Fanorona, Vela, Fanoron-Telo.
    Game,
    /// What a press puts.
    Brush(Brush),
    /// The other side to move.
    SideToMove,
    /// Take every stone away.
    Clear,
    /// The start position of the board and game.
    Reset,
    /// A press on this point: put the brush's stone there, or take the stone away.
    Press(Point),
    /// Play from the position.
    Play(PlayAs),
    /// Analyse the position (two people, analysis on).
    Analyse,
    /// Copy the position string to the clipboard.
    Copy,
    /// Read a position string from the clipboard and open it.
    Paste,
    /// Open the line where a position string is typed.
    Type,
    /// Back to the menu.
    Back,
}

/// The position being edited.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct Editor {
    /// The board.
    pub size: BoardSize,
    /// The rules (their game: capture, Vela, Fanoron-Telo).
    pub rules: Rules,
    /// White's stones.
    pub white: Bitboard,
    /// Black's stones.
    pub black: Bitboard,
    /// The side to move.
    pub side: Side,
    /// What a press puts.
    pub brush: Brush,
    /// The line under the board: the check's verdict or what the last command did.
    pub message: Msg,
    /// The position string being typed, while its line is open.
    pub entry: Option<String>,
}

impl Editor {
    /// The editor holding `position`.
    pub fn from_position(position: &Position) -> Editor {
        let mut editor = Editor {
            size: position.size(),
            rules: position.rules(),
            white: position.stones(Side::White),
            black: position.stones(Side::Black),
            side: position.side_to_move(),
            brush: Brush::White,
            message: Msg::default(),
            entry: None,
        };
        editor.message = editor.verdict();
        editor
    }

    /// The stones and the side to move as the core's plain data.
    pub fn setup(&self) -> Setup {
        let mut setup = Setup::empty(self.size);
        setup.white = self.white;
        setup.black = self.black;
        setup.side_to_move = self.side;
        setup
    }

    /// The position as the core reads it: refused with the reason (the core's own words), a
    /// side of a capture game without stones, or a position the rules already decide.
    ///
    /// # Errors
    ///
    /// The message to show.
    pub fn check(&self) -> Result<Position, Msg> {
        let position = Position::from_setup(self.setup(), self.rules)
            .map_err(|e| words::refused(&e.to_string()))?;
        if self.rules.game().captures() {
            for side in [self.side, self.side.other()] {
                if position.stones(side).is_empty() {
                    return Err(words::no_stones(side));
                }
            }
        }
        if let Some(outcome) = position.outcome() {
            return Err(words::decided(outcome_text(outcome)));
        }
        Ok(position)
    }

    /// The check in words.
    pub fn verdict(&self) -> Msg {
        match self.check() {
            Ok(_) => words::legal(self.side),
            Err(e) => e,
        }
    }

    /// The position string of the stones as they are (when the core accepts them at all).
    pub fn text(&self) -> Option<String> {
        Position::from_setup(self.setup(), self.rules)
            .ok()
            .map(|p| p.to_fen())
    }

    fn load(&mut self, position: &Position) {
        let brush = self.brush;
        *self = Editor::from_position(position);
        self.brush = brush;
    }

    /// The start position of `size` under `rules` (the empty board for Fanoron-Telo).
    fn reset(&mut self) {
        let start = Position::start_with(self.size, self.rules)
            .unwrap_or_else(|_| Position::start(self.size));
        self.white = start.stones(Side::White);
        self.black = start.stones(Side::Black);
        self.side = start.side_to_move();
    }

    /// Applies an edit (not the commands that leave the editor or use the clipboard).
    pub fn edit(&mut self, command: &EditorCommand) {
        match command {
            EditorCommand::Size => {
                if self.rules.game() != GameKind::Telo {
                    let choices = board_choices();
                    let i = choices.iter().position(|s| *s == self.size).unwrap_or(0);
                    self.size = choices[(i + 1) % choices.len()];
                    self.reset();
                }
            }
            EditorCommand::Game => {
                let game = match self.rules.game() {
                    GameKind::Capture => GameKind::Vela,
                    GameKind::Vela => GameKind::Telo,
                    _ => GameKind::Capture,
                };
                self.rules = self.rules.with_game(game);
                // Fanoron-Telo has its board; leaving it, the standard board comes back.
                if game == GameKind::Telo {
                    self.size = BoardSize::TELO;
                    self.reset();
                } else if self.size == BoardSize::TELO && game == GameKind::Capture {
                    self.size = BoardSize::STANDARD;
                    self.reset();
                }
            }
            EditorCommand::Brush(brush) => self.brush = *brush,
            EditorCommand::SideToMove => self.side = self.side.other(),
            EditorCommand::Clear => {
                self.white = Bitboard::EMPTY;
                self.black = Bitboard::EMPTY;
            }
            EditorCommand::Reset => self.reset(),
            EditorCommand::Press(point) => {
                if point.size() != self.size {
                    return;
                }
                let bit = point.bit().bits();
                let had = match (self.white.contains(*point), self.black.contains(*point)) {
                    (true, _) => Brush::White,
                    (_, true) => Brush::Black,
                    _ => Brush::Empty,
                };
                self.white = Bitboard::from_bits(self.white.bits() & !bit);
                self.black = Bitboard::from_bits(self.black.bits() & !bit);
                // The same stone again takes it away.
                match self.brush {
                    Brush::White if had != Brush::White => self.white.insert(*point),
                    Brush::Black if had != Brush::Black => self.black.insert(*point),
                    _ => false,
                };
            }
            _ => return,
        }
        self.message = self.verdict();
    }
}

/// The editor's panel and its texts.
#[derive(Component)]
struct EditorPanel;

#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum EditorText {
    Stones,
    Message,
    String,
    Entry,
    BoardButton,
    GameButton,
    SideButton,
    BrushButton(Brush),
}

fn spawn_panel(mut commands: Commands) {
    let panel = commands
        .spawn((
            EditorPanel,
            DespawnOnExit(Screen::Editor),
            BlocksBoard,
            Interaction::None,
            Node {
                position_type: PositionType::Absolute,
                left: px(MARGIN),
                top: px(MARGIN),
                width: px(LEFT_PANEL_WIDTH),
                max_height: percent(100.0 - 2.0 * 100.0 * MARGIN / 720.0),
                overflow: Overflow::clip_y(),
                row_gap: px(6.0),
                ..panel_node()
            },
            BackgroundColor(PANEL),
        ))
        .id();
    let title = commands
        .spawn(tr_text("editor-title", TEXT_LARGE, ACCENT))
        .id();
    commands.entity(panel).add_child(title);
    let line = |commands: &mut Commands, which: EditorText, size: f32, color: Color| {
        commands
            .spawn((
                which,
                tr_text(Msg::default(), size, color),
                Node {
                    max_width: px(LEFT_PANEL_WIDTH - 28.0),
                    ..default()
                },
            ))
            .id()
    };
    let stones = line(&mut commands, EditorText::Stones, TEXT_BODY, TEXT);
    commands.entity(panel).add_child(stones);
    let rows: [Vec<(EditorText, EditorCommand)>; 3] = [
        vec![
            (EditorText::BoardButton, EditorCommand::Size),
            (EditorText::GameButton, EditorCommand::Game),
        ],
        vec![
            (
                EditorText::BrushButton(Brush::White),
                EditorCommand::Brush(Brush::White),
            ),
            (
                EditorText::BrushButton(Brush::Black),
                EditorCommand::Brush(Brush::Black),
            ),
        ],
        vec![
            (
                EditorText::BrushButton(Brush::Empty),
                EditorCommand::Brush(Brush::Empty),
            ),
            (EditorText::SideButton, EditorCommand::SideToMove),
        ],
    ];
    for row in rows {
        let r = commands.spawn(button_row()).id();
        for (which, command) in row {
            let b = commands
                .spawn(button(Msg::default(), Action::Editor(command)))
                .id();
            commands.entity(b).insert(which);
            commands.entity(r).add_child(b);
        }
        commands.entity(panel).add_child(r);
    }
    let fixed: [Vec<(&str, EditorCommand)>; 5] = [
        vec![
            ("editor-clear", EditorCommand::Clear),
            ("editor-reset", EditorCommand::Reset),
        ],
        vec![
            (
                "editor-play-engine",
                EditorCommand::Play(PlayAs::AgainstEngine),
            ),
            ("editor-play-people", EditorCommand::Play(PlayAs::TwoPeople)),
        ],
        vec![
            ("editor-analyse", EditorCommand::Analyse),
            ("editor-copy", EditorCommand::Copy),
        ],
        vec![
            ("editor-paste", EditorCommand::Paste),
            ("editor-type", EditorCommand::Type),
        ],
        vec![("editor-menu", EditorCommand::Back)],
    ];
    for row in fixed {
        let r = commands.spawn(button_row()).id();
        for (label, command) in row {
            let b = commands.spawn(button(label, Action::Editor(command))).id();
            commands.entity(r).add_child(b);
        }
        commands.entity(panel).add_child(r);
    }
    let message = line(&mut commands, EditorText::Message, TEXT_BODY, ACCENT);
    let string = line(&mut commands, EditorText::String, TEXT_SMALL, TEXT);
    let entry = line(&mut commands, EditorText::Entry, TEXT_BODY, ACCENT);
    let help = commands.spawn(tr_text("editor-help", TEXT_SMALL, DIM)).id();
    commands
        .entity(panel)
        .add_children(&[message, string, entry, help]);
}

fn button_row() -> Node {
    Node {
        column_gap: px(6.0),
        flex_wrap: FlexWrap::Wrap,
        row_gap: px(4.0),
        flex_shrink: 0.0,
        ..default()
    }
}

/// Keeps the panel's texts (and the buttons' values) in step with the editor.
fn refresh_panel(
    editor: Res<Editor>,
    labels: Query<(&EditorText, &Children)>,
    mut texts: Query<(&mut Localized, Option<&EditorText>)>,
) {
    let value = |which: EditorText| -> Msg {
        match which {
            EditorText::Stones => words::stones_line(editor.white.count(), editor.black.count()),
            EditorText::Message => editor.message.clone(),
            EditorText::String => editor
                .text()
                .map(|t| words::string_line(&t))
                .unwrap_or_default(),
            EditorText::Entry => editor
                .entry
                .as_deref()
                .map(words::entry_line)
                .unwrap_or_default(),
            EditorText::BoardButton => words::board_button(editor.size),
            EditorText::GameButton => words::game_button(editor.rules.game()),
            EditorText::SideButton => words::side_button(editor.side),
            EditorText::BrushButton(b) => words::brush_button(b, editor.brush == b),
        }
    };
    for (mut t, which) in &mut texts {
        if let Some(&which) = which {
            let v = value(which);
            if t.0 != v {
                t.0 = v;
            }
        }
    }
    // The buttons' texts are their children.
    for (which, children) in &labels {
        for child in children.iter() {
            if let Ok((mut t, None)) = texts.get_mut(child) {
                let v = value(*which);
                if t.0 != v {
                    t.0 = v;
                }
            }
        }
    }
}

/// Empty lines take no room.
fn hide_empty_lines(mut lines: Query<(&Text, &mut Node), With<EditorText>>) {
    for (text, mut node) in &mut lines {
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

/// The board shows the edited stones.
fn show_on_board(editor: Res<Editor>, mut view: ResMut<BoardView>) {
    let mut stones: Vec<(Point, Side)> = Vec::new();
    for (side, set) in [(Side::White, editor.white), (Side::Black, editor.black)] {
        stones.extend(set.points(editor.size).map(|p| (p, side)));
    }
    stones.sort_by_key(|(p, _)| p.index());
    let wanted = BoardView {
        size: editor.size,
        stones,
        ..BoardView::default()
    };
    if *view != wanted {
        *view = wanted;
    }
}

/// Leaving the editor, the board shows the game again, and the list of turns takes the right
/// edge back.
fn leave(game: Option<Res<Match>>, mut view: ResMut<BoardView>, mut layout: ResMut<Layout>) {
    if let Some(game) = game {
        *view = game.board_view();
    }
    layout.right = RightPanel::Turns;
}

fn enter(
    editor: Option<Res<Editor>>,
    mut layout: ResMut<Layout>,
    mut announcer: ResMut<Announcer>,
) {
    layout.right = RightPanel::Nothing;
    let Some(editor) = editor else {
        return;
    };
    announcer.say(words::opened_words(editor.size, editor.message.clone()));
}

/// A click on the board puts or takes away a stone.
fn pick(
    windows: Query<&Window, With<PrimaryWindow>>,
    cameras: Query<(&Camera, &GlobalTransform), With<Camera3d>>,
    blockers: Query<&Interaction, With<BlocksBoard>>,
    buttons: Res<ButtonInput<MouseButton>>,
    editor: Res<Editor>,
    mut commands: MessageWriter<EditorCommand>,
) {
    if !buttons.just_pressed(MouseButton::Left) || blockers.iter().any(|i| *i != Interaction::None)
    {
        return;
    }
    let (Ok(window), Ok((camera, transform))) = (windows.single(), cameras.single()) else {
        return;
    };
    if let Some(point) = cursor_point(window, camera, transform, editor.size) {
        commands.write(EditorCommand::Press(point));
    }
}

/// The editor's keys: the brush, the side to move, typing a position string, copy, paste and
/// Esc (the menu); while the string's line is open, keys type it.
fn editor_keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut typed: MessageReader<KeyboardInput>,
    mut editor: ResMut<Editor>,
    confirm: Res<crate::ui::widgets::Confirm>,
    mut taken: ResMut<KeysTaken>,
    mut commands: MessageWriter<EditorCommand>,
) {
    if let Some(mut line) = editor.entry.clone() {
        let mut open = true;
        for input in typed.read() {
            if input.state != ButtonState::Pressed || !open {
                continue;
            }
            match &input.logical_key {
                Key::Enter => {
                    open = false;
                    commands.write(EditorCommand::OpenText(std::mem::take(&mut line)));
                }
                Key::Escape => open = false,
                Key::Backspace => {
                    line.pop();
                }
                Key::Space => line.push(' '),
                Key::Character(c) if line.len() < 200 => {
                    line.extend(c.chars().filter(|ch| !ch.is_control()));
                }
                _ => {}
            }
        }
        let wanted = open.then_some(line);
        if editor.entry != wanted {
            editor.entry = wanted;
        }
        if !taken.0 {
            taken.0 = true;
        }
        return;
    }
    typed.clear();
    // The frame the line closed, its Enter or Esc is not a short key.
    if taken.0 {
        taken.0 = false;
        return;
    }
    if confirm.0.is_some() {
        return;
    }
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    for key in keys.get_just_pressed() {
        let command = match key {
            KeyCode::KeyV if ctrl => EditorCommand::Paste,
            KeyCode::KeyC if ctrl => EditorCommand::Copy,
            _ if ctrl => continue,
            KeyCode::KeyW => EditorCommand::Brush(Brush::White),
            KeyCode::KeyB => EditorCommand::Brush(Brush::Black),
            KeyCode::Delete | KeyCode::Backspace => EditorCommand::Brush(Brush::Empty),
            KeyCode::KeyS => EditorCommand::SideToMove,
            KeyCode::KeyP => EditorCommand::Type,
            KeyCode::Escape | KeyCode::F10 => EditorCommand::Back,
            _ => continue,
        };
        commands.write(command);
    }
}

/// `Ctrl+V` on the menu and the game screen opens the pasted position string in the editor.
fn paste_key(
    keys: Res<ButtonInput<KeyCode>>,
    entry: Option<Res<TurnEntry>>,
    browser: Option<Res<crate::browser::Browser>>,
    mut commands: MessageWriter<EditorCommand>,
) {
    if entry.is_some_and(|e| e.open || e.used_keys) || browser.is_some_and(|b| b.open) {
        return;
    }
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    if ctrl && keys.just_pressed(KeyCode::KeyV) {
        commands.write(EditorCommand::Paste);
    }
}

/// The keyboard cursor's presses put or take away stones.
fn cursor_presses(
    mut presses: MessageReader<BoardPress>,
    mut commands: MessageWriter<EditorCommand>,
) {
    for BoardPress(point) in presses.read() {
        commands.write(EditorCommand::Press(*point));
    }
}

/// Performs the editor's commands.
fn perform(
    mut commands_in: MessageReader<EditorCommand>,
    mut commands: Commands,
    editor: Option<ResMut<Editor>>,
    settings: Res<Settings>,
    game: Option<Res<Match>>,
    screen: Res<State<Screen>>,
    mut next: ResMut<NextState<Screen>>,
    mut clipboard: Option<ResMut<bevy::clipboard::Clipboard>>,
    mut analysis: Option<ResMut<crate::analysis::Analysis>>,
    mut announcer: ResMut<Announcer>,
) {
    let mut editor = editor;
    for command in commands_in.read() {
        // Opening (from the menu or by pasting) creates the editor.
        let text = match command {
            EditorCommand::Paste => match clipboard.as_deref_mut().map(|c| c.fetch_text()) {
                Some(mut read) => match read.poll_result() {
                    Some(Ok(text)) => Some(Ok(text)),
                    Some(Err(e)) => Some(Err(words::no_paste(e.to_string()))),
                    None => Some(Err(words::no_paste(Msg::new("editor-clipboard-silent")))),
                },
                None => Some(Err(words::no_paste(Msg::new("editor-no-clipboard-here")))),
            },
            EditorCommand::OpenText(text) => Some(Ok(text.clone())),
            _ => None,
        };
        let fresh = || {
            let position = game
                .as_deref()
                .map(|g| *g.game().position())
                .unwrap_or_else(|| settings.start_position());
            Editor::from_position(&position)
        };
        if *command == EditorCommand::Open || text.is_some() {
            let mut opened = match editor.as_deref() {
                Some(e) if text.is_some() => e.clone(),
                _ => fresh(),
            };
            match text {
                Some(Ok(text)) => match Position::from_fen(text.trim()) {
                    Ok(position) => {
                        opened.load(&position);
                        opened.message = words::opened(opened.message);
                    }
                    Err(e) => opened.message = words::bad_string(text.trim(), &e.to_string()),
                },
                Some(Err(reason)) => opened.message = reason,
                None => {}
            }
            opened.entry = None;
            if *screen.get() == Screen::Editor {
                announcer.say(opened.message.clone());
            }
            commands.insert_resource(opened);
            NextState::set_if_neq(&mut *next, Screen::Editor);
            // The editor resource is replaced: the commands after this one wait a frame.
            break;
        }
        let Some(editor) = editor.as_deref_mut() else {
            continue;
        };
        match command {
            EditorCommand::Play(_) | EditorCommand::Analyse => match editor.check() {
                Ok(position) => {
                    let players = match command {
                        EditorCommand::Play(PlayAs::AgainstEngine) => {
                            let mut p = [Player::Engine; 2];
                            p[position.side_to_move().index()] = Player::Human;
                            p
                        }
                        _ => [Player::Human; 2],
                    };
                    commands.remove_resource::<crate::tutorial::Tutorial>();
                    commands.insert_resource(Match::new(position, players, settings.level()));
                    if let Some(analysis) = analysis.as_deref_mut() {
                        analysis.enabled = *command == EditorCommand::Analyse;
                    }
                    next.set(Screen::Playing);
                }
                Err(e) => {
                    editor.message = words::not_playable(e);
                    announcer.say(editor.message.clone());
                }
            },
            EditorCommand::Copy => {
                let Some(fen) = editor.text() else {
                    editor.message = words::not_playable(editor.verdict());
                    announcer.say(editor.message.clone());
                    continue;
                };
                editor.message = match clipboard.as_deref_mut().map(|c| c.set_text(fen.clone())) {
                    Some(Ok(())) => words::copied(),
                    Some(Err(_)) | None => words::no_clipboard(&fen),
                };
                announcer.say(editor.message.clone());
            }
            EditorCommand::Type => editor.entry = Some(String::new()),
            EditorCommand::Back => next.set(Screen::Menu),
            other => {
                editor.edit(other);
                if let EditorCommand::Press(p) = other {
                    let what = Msg::new(
                        match (editor.white.contains(*p), editor.black.contains(*p)) {
                            (true, _) => "access-white-stone",
                            (_, true) => "access-black-stone",
                            _ => "access-empty",
                        },
                    );
                    announcer.say(words::pressed(&p.to_string(), what, editor.message.clone()));
                } else {
                    announcer.say(editor.message.clone());
                }
            }
        }
    }
}

/// The editor's plugin.
pub fn plugin(app: &mut App) {
    app.add_message::<EditorCommand>()
        .add_message::<BoardPress>()
        .add_message::<KeyboardInput>()
        .init_resource::<Layout>()
        .init_resource::<BoardView>()
        .init_resource::<KeysTaken>()
        .init_resource::<Announcer>()
        .add_systems(OnEnter(Screen::Editor), (spawn_panel, enter))
        .add_systems(OnExit(Screen::Editor), leave)
        .add_systems(
            Update,
            (
                (
                    editor_keys.run_if(
                        in_state(Screen::Editor).and_then(resource_exists::<ButtonInput<KeyCode>>),
                    ),
                    paste_key.run_if(
                        not(in_state(Screen::Editor))
                            .and_then(resource_exists::<ButtonInput<KeyCode>>),
                    ),
                    pick.run_if(
                        in_state(Screen::Editor)
                            .and_then(resource_exists::<ButtonInput<MouseButton>>),
                    ),
                )
                    .before(crate::ui::widgets::WidgetKeys),
                (cursor_presses.run_if(in_state(Screen::Editor)), perform)
                    .chain()
                    .after(crate::ui::widgets::Widgets)
                    .after(crate::access::CursorKeys)
                    .before(crate::game::flow::FlowSet),
                (show_on_board, refresh_panel, hide_empty_lines)
                    .chain()
                    .after(crate::game::flow::FlowSet)
                    .run_if(in_state(Screen::Editor).and_then(resource_exists::<Editor>)),
            ),
        );
}

#[cfg(test)]
mod tests;

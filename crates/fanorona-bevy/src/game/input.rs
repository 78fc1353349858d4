//! Input and picking: a left click (or a drag from a stone to a point) on the board becomes a
//! [`Command::Click`] on the nearest point; keys become the other commands.

use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use fanorona_core::{BoardSize, Point, StepKind};

use crate::Screen;
use crate::board::{STONE_HALF_HEIGHT, point_position};
use crate::game::flow::{BoardView, Command, FlowSet};

/// UI nodes that hide the board below them: clicks on them never reach the board.
#[derive(Component, Default)]
pub struct BlocksBoard;

/// The board point under the cursor, if any.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hovered(pub Option<Point>);

/// The nearest board point to a spot on the board plane, if it is close enough.
pub fn point_near(size: BoardSize, spot: Vec3) -> Option<Point> {
    size.points()
        .map(|p| {
            (
                p,
                point_position(size, p).distance(Vec3::new(spot.x, 0.0, spot.z)),
            )
        })
        .filter(|&(_, d)| d < 0.45)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(p, _)| p)
}

/// The board point under the mouse cursor, if any (also used by the position editor).
pub(crate) fn cursor_point(
    window: &Window,
    camera: &Camera,
    transform: &GlobalTransform,
    size: BoardSize,
) -> Option<Point> {
    let cursor = window.cursor_position()?;
    let ray = camera.viewport_to_world(transform, cursor).ok()?;
    // Aim at the middle of a stone's height so clicking a stone's top lands on its point.
    let plane_origin = Vec3::Y * STONE_HALF_HEIGHT;
    let distance = ray.intersect_plane(plane_origin, InfinitePlane3d::new(Vec3::Y))?;
    point_near(size, ray.get_point(distance))
}

fn pick(
    windows: Query<&Window, With<PrimaryWindow>>,
    cameras: Query<(&Camera, &GlobalTransform), With<Camera3d>>,
    blockers: Query<&Interaction, With<BlocksBoard>>,
    buttons: Res<ButtonInput<MouseButton>>,
    view: Res<BoardView>,
    browser: Option<Res<crate::browser::Browser>>,
    mut hovered: ResMut<Hovered>,
    mut pressed_at: Local<Option<Point>>,
    mut commands: MessageWriter<Command>,
) {
    let (Ok(window), Ok((camera, transform))) = (windows.single(), cameras.single()) else {
        return;
    };
    // The file browser covers the board: no click goes through it.
    let over_ui =
        blockers.iter().any(|i| *i != Interaction::None) || browser.is_some_and(|b| b.open);
    let point = if over_ui {
        None
    } else {
        cursor_point(window, camera, transform, view.size)
    };
    if hovered.0 != point {
        hovered.0 = point;
    }
    if buttons.just_pressed(MouseButton::Left) {
        *pressed_at = point;
        if let Some(p) = point {
            commands.write(Command::Click(p));
        }
    }
    if buttons.just_released(MouseButton::Left) {
        // A drag that ends on another point is a click there.
        if let (Some(from), Some(to)) = (pressed_at.take(), point)
            && from != to
        {
            commands.write(Command::Click(to));
        }
    }
}

/// The line where a turn is typed in turn notation (`T` opens it, `Enter` plays, `Esc`
/// closes). While it is open, keys type text instead of being shortcuts.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct TurnEntry {
    /// Whether the line is open.
    pub open: bool,
    /// The text typed so far.
    pub text: String,
    /// Keys went to the line this frame (the shortcuts ignore them).
    pub used_keys: bool,
}

/// What one key does to the typing line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EntryEffect {
    /// Nothing for the line: the key is a shortcut.
    Ignored,
    /// The line changed (opened, text typed or erased).
    Edited,
    /// `Enter`: play this text.
    Submit(String),
    /// `Esc`: the line closed without playing.
    Closed,
}

impl TurnEntry {
    /// Applies one pressed key (its logical meaning, as the keyboard layout gives it).
    pub fn key(&mut self, key: &Key) -> EntryEffect {
        if !self.open {
            return match key {
                Key::Character(c) if c.eq_ignore_ascii_case("t") => {
                    self.open = true;
                    self.text.clear();
                    EntryEffect::Edited
                }
                _ => EntryEffect::Ignored,
            };
        }
        match key {
            Key::Enter => {
                self.open = false;
                EntryEffect::Submit(std::mem::take(&mut self.text))
            }
            Key::Escape => {
                self.open = false;
                self.text.clear();
                EntryEffect::Closed
            }
            Key::Backspace => {
                self.text.pop();
                EntryEffect::Edited
            }
            Key::Space => EntryEffect::Edited,
            Key::Character(c) => {
                if self.text.len() < 200 {
                    self.text.extend(
                        c.chars()
                            .filter(|ch| !ch.is_control() && !ch.is_whitespace()),
                    );
                }
                EntryEffect::Edited
            }
            // Other keys (arrows for the camera, ...) keep working while typing.
            _ => EntryEffect::Ignored,
        }
    }
}

/// Feeds the keyboard to the typing line; a finished line becomes [`Command::PlayText`].
pub fn type_turn(
    mut keys: MessageReader<KeyboardInput>,
    mut entry: ResMut<TurnEntry>,
    browser: Option<Res<crate::browser::Browser>>,
    mut commands: MessageWriter<Command>,
) {
    // The file browser's keys are its own: not text, not shortcuts.
    if browser.is_some_and(|b| b.took_keys) {
        keys.clear();
        if !entry.used_keys {
            entry.used_keys = true;
        }
        return;
    }
    let was_open = entry.open;
    let mut used = false;
    for input in keys.read() {
        if input.state != ButtonState::Pressed {
            continue;
        }
        match entry.key(&input.logical_key) {
            EntryEffect::Ignored => {}
            EntryEffect::Edited | EntryEffect::Closed => used = true,
            EntryEffect::Submit(text) => {
                used = true;
                if !text.is_empty() {
                    commands.write(Command::PlayText(text));
                }
            }
        }
    }
    let used = used || was_open || entry.open;
    if entry.used_keys != used {
        entry.used_keys = used;
    }
}

/// Keyboard shortcuts of the game screen (not while a turn is being typed). `Space` and
/// `Enter` end the turn only while neither the board's keyboard cursor nor a focused button
/// takes them (see `access`); `End` always ends it.
pub fn keys_to_commands(
    keys: Res<ButtonInput<KeyCode>>,
    entry: Option<Res<TurnEntry>>,
    cursor: Option<Res<crate::access::BoardCursor>>,
    focus: Option<Res<crate::ui::widgets::Focus>>,
    mut commands: MessageWriter<Command>,
) {
    if entry.is_some_and(|e| e.used_keys) {
        return;
    }
    let enter_taken = cursor.is_some_and(|c| c.shown) || focus.is_some_and(|f| f.0.is_some());
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    for key in keys.get_just_pressed() {
        let command = match key {
            KeyCode::Space | KeyCode::Enter if !enter_taken => Command::EndTurn,
            KeyCode::End => Command::EndTurn,
            KeyCode::KeyA => Command::Choose(StepKind::Approach),
            KeyCode::KeyW => Command::Choose(StepKind::Withdrawal),
            KeyCode::KeyZ if ctrl && shift => Command::Redo,
            KeyCode::KeyZ if ctrl => Command::Undo,
            KeyCode::KeyY if ctrl => Command::Redo,
            KeyCode::Backspace | KeyCode::KeyU => Command::Undo,
            KeyCode::KeyR => Command::Redo,
            KeyCode::Escape => Command::Cancel,
            KeyCode::Comma | KeyCode::PageUp => Command::ViewStep(-1),
            KeyCode::Period | KeyCode::PageDown => Command::ViewStep(1),
            _ => continue,
        };
        commands.write(command);
    }
}

/// The input plugin.
pub fn plugin(app: &mut App) {
    app.init_resource::<Hovered>()
        .init_resource::<TurnEntry>()
        .add_systems(
            Update,
            (pick, (type_turn, keys_to_commands).chain())
                .before(FlowSet)
                .after(crate::browser::BrowserKeys)
                .run_if(in_state(Screen::Playing)),
        );
}

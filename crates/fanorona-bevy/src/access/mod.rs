//! Playing without a mouse, with a screen reader, and without telling colours apart.
//!
//! - The board's keyboard cursor ([`BoardCursor`]): the arrow keys move it over the points
//!   (as the board is seen: up is away from the viewer), `Enter` or `Space` presses the point
//!   under it ([`BoardPress`]: a click in the game, placing or removing a stone in the
//!   editor), on a chain's capturing stone it ends the turn. The board is the first stop of
//!   the `Tab` order (see `ui::widgets`); the cursor is drawn as a black and white ring.
//! - The screen reader ([`nodes`]): every button, text and the board get an AccessKit node
//!   (`bevy_a11y`), the keyboard focus is the AccessKit focus, and a polite live region
//!   ([`LiveRegion`]) announces ([`Announcer`]) each turn played by either side in words
//!   ([`words::turn_words`]), whose turn it is, the result, and the point under the cursor.
//! - The high-contrast look and the text size ([`look`]; the board's part is in
//!   `board::contrast`).

pub mod look;
pub mod nodes;
pub mod words;

use bevy::prelude::*;
use fanorona_core::{BoardSize, Point};

use crate::Screen;
use crate::board::camera::Orbit;
use crate::board::point_position;
use crate::game::flow::{BoardView, Command, FlowSet, Match};
use crate::game::input::TurnEntry;
use crate::i18n::Msg;
use crate::ui::widgets::{Action, Confirm, Focus, Focusable, WidgetKeys};

/// The cursor's keys and their presses (before the game's flow).
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CursorKeys;

/// The board's keyboard cursor: the point it is on, and whether it is shown (from the first
/// arrow key, or `Tab` onto the board, until a mouse click on the board).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardCursor {
    /// The point under the cursor.
    pub point: Option<Point>,
    /// Whether the cursor is shown (then `Enter` and `Space` press its point).
    pub shown: bool,
}

/// `Enter` or `Space` on the board's cursor: the point is pressed (a click in the game, a
/// stone placed or removed in the editor).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardPress(pub Point);

/// A line of text that takes the keyboard (the editor's position line), set by its feature:
/// the cursor keys leave the keys to it.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KeysTaken(pub bool);

/// What the screen reader is told: the newest announcement (the live region's text, in the
/// language of the moment) and the last ones.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Announcer {
    /// The newest announcement.
    pub msg: Msg,
    /// Counts the announcements (a repeated text is still a new announcement).
    pub serial: u64,
    /// The last announcements, oldest first (at most [`Announcer::KEEP`]).
    pub history: Vec<Msg>,
}

impl Announcer {
    /// How many announcements [`Announcer::history`] keeps.
    pub const KEEP: usize = 32;

    /// Announces `msg`.
    pub fn say(&mut self, msg: Msg) {
        if msg.is_empty() {
            return;
        }
        self.msg = msg.clone();
        self.serial += 1;
        self.history.push(msg);
        if self.history.len() > Self::KEEP {
            self.history.remove(0);
        }
    }
}

/// The live region's entity: its AccessKit node carries the newest announcement.
#[derive(Component)]
pub struct LiveRegion;

/// The board's entity for the screen reader (it has the focus while the cursor has it).
#[derive(Component)]
pub struct BoardNode;

/// The cursor's ring on the board.
#[derive(Component)]
struct CursorMark;

/// Where the cursor starts: the selected stone, a stone that must capture, a stone of the
/// side to move, or the middle of the board.
fn start_point(view: &BoardView) -> Point {
    let size = view.size;
    view.selected
        .or_else(|| view.must_capture.first(size))
        .or_else(|| view.targets.first().map(|(p, _)| *p))
        .unwrap_or_else(|| middle(size))
}

fn middle(size: BoardSize) -> Point {
    size.point(size.cols() / 2, size.rows() / 2)
        .or_else(|| size.points().next())
        .expect("a board has points")
}

/// The board direction (files, ranks) of an arrow key's screen direction (`dx` right, `dy`
/// up: away from the viewer), seen from a camera turned by `yaw` (0: from White's side).
pub fn board_step(yaw: f32, (dx, dy): (i8, i8)) -> (i8, i8) {
    // On the board (files to the right, ranks away from White): the camera's right is
    // (cos yaw, sin yaw), its "away" (-sin yaw, cos yaw).
    let (s, c) = yaw.sin_cos();
    let f = f32::from(dx) * c - f32::from(dy) * s;
    let r = f32::from(dx) * s + f32::from(dy) * c;
    if f.abs() >= r.abs() {
        (f.signum() as i8, 0)
    } else {
        (0, r.signum() as i8)
    }
}

/// The point `step` away from `from`, if it is on the board.
fn moved(from: Point, (df, dr): (i8, i8)) -> Option<Point> {
    let size = from.size();
    let f = i16::from(from.file()) + i16::from(df);
    let r = i16::from(from.rank()) + i16::from(dr);
    if f < 0 || r < 0 {
        return None;
    }
    size.point(f as u8, r as u8)
}

/// The arrows move the cursor, `Enter`/`Space` press its point (while the board has the
/// keyboard focus and nothing else takes the keys).
fn cursor_keys(
    keys: Res<ButtonInput<KeyCode>>,
    mouse: Option<Res<ButtonInput<MouseButton>>>,
    screen: Res<State<Screen>>,
    view: Res<BoardView>,
    focus: Res<Focus>,
    confirm: Res<Confirm>,
    entry: Option<Res<TurnEntry>>,
    taken: Res<KeysTaken>,
    browser: Option<Res<crate::browser::Browser>>,
    orbits: Query<&Orbit>,
    mut cursor: ResMut<BoardCursor>,
    mut presses: MessageWriter<BoardPress>,
    mut announcer: ResMut<Announcer>,
) {
    if !matches!(screen.get(), Screen::Playing | Screen::Editor) {
        return;
    }
    let size = view.size;
    if cursor.point.is_some_and(|p| p.size() != size) {
        cursor.point = None;
    }
    if mouse.is_some_and(|m| m.just_pressed(MouseButton::Left)) && cursor.shown {
        cursor.shown = false;
    }
    if confirm.0.is_some()
        || confirm.is_changed()
        || entry.is_some_and(|e| e.open || e.used_keys)
        || taken.0
        || browser.is_some_and(|b| b.open || b.took_keys)
        || focus.0.is_some()
    {
        return;
    }
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    let yaw = orbits.iter().next().map_or(0.0, |o| o.yaw);
    let mut moved_to = None;
    if keys.just_pressed(KeyCode::Tab) && focus.is_changed() {
        // Tab came back to the board.
        cursor.shown = true;
        moved_to = Some(cursor.point.unwrap_or_else(|| start_point(&view)));
    }
    if !shift {
        for (code, dir) in [
            (KeyCode::ArrowUp, (0, 1)),
            (KeyCode::ArrowDown, (0, -1)),
            (KeyCode::ArrowRight, (1, 0)),
            (KeyCode::ArrowLeft, (-1, 0)),
        ] {
            if !keys.just_pressed(code) {
                continue;
            }
            let at = match cursor.point {
                Some(p) if cursor.shown => moved(p, board_step(yaw, dir)).unwrap_or(p),
                // The first arrow shows the cursor where it starts.
                Some(p) => p,
                None => start_point(&view),
            };
            cursor.shown = true;
            moved_to = Some(at);
        }
    }
    if let Some(at) = moved_to {
        cursor.point = Some(at);
        announcer.say(words::point_words(&view, at));
    } else if cursor.shown
        && keys.any_just_pressed([KeyCode::Enter, KeyCode::NumpadEnter, KeyCode::Space])
        && let Some(at) = cursor.point
    {
        presses.write(BoardPress(at));
    }
}

/// In the game, a press is a click on the point; on a chain's capturing stone that may stop,
/// it ends the turn.
fn press_in_game(
    mut presses: MessageReader<BoardPress>,
    game: Option<Res<Match>>,
    screen: Res<State<Screen>>,
    mut commands: MessageWriter<Command>,
) {
    if *screen.get() != Screen::Playing {
        presses.clear();
        return;
    }
    let Some(game) = game else {
        presses.clear();
        return;
    };
    for BoardPress(point) in presses.read() {
        let ends = !game.partial_steps().is_empty()
            && game.selected() == Some(*point)
            && game.choice().is_none()
            && game.can_end_turn();
        commands.write(if ends {
            Command::EndTurn
        } else {
            Command::Click(*point)
        });
    }
}

/// Announces what happened to the game: the turns played (by either side) in words, then
/// whose turn it is or the result; a turn taken back, a new or loaded game; after a press on
/// the board that played no turn, the game's message.
fn announce_game(
    game: Option<Res<Match>>,
    screen: Res<State<Screen>>,
    mut presses: MessageReader<BoardPress>,
    mut seen: Local<Option<(u64, usize, bool)>>,
    mut announcer: ResMut<Announcer>,
) {
    let pressed = presses.read().count() > 0;
    let Some(game) = game else {
        *seen = None;
        return;
    };
    // `Match` numbers each game it starts in the generation's high bits.
    let id = game.generation() >> 32;
    let all = game.game().turns();
    let len = all.len();
    let over = game.outcome().is_some();
    let now = (id, len, over);
    if *seen == Some(now) {
        if pressed && *screen.get() == Screen::Playing {
            announcer.say(game.message().clone());
        }
        return;
    }
    let next = next_words(&game);
    if let Some((old_id, old_len, _)) = *seen {
        if old_id != id {
            announcer.say(if len == 0 {
                words::new_game_words(game.size(), next)
            } else {
                words::loaded_words(len, next)
            });
        } else if len > old_len {
            let played: Vec<Msg> = (old_len..len)
                .filter_map(|i| {
                    let mover = game.game().position_at(i)?.side_to_move();
                    Some(words::turn_words(&all[i], mover))
                })
                .collect();
            announcer.say(words::played_words(played, next));
        } else if len < old_len {
            announcer.say(words::taken_back_words(next));
        } else {
            // Resigned, agreed, lost on time, or a resignation taken back.
            announcer.say(next);
        }
    }
    *seen = Some(now);
}

/// Whose turn it is, or the result.
fn next_words(game: &Match) -> Msg {
    game.result_text().unwrap_or_else(|| {
        let side = game.side_to_move();
        words::to_move_words(side, game.players()[side.index()])
    })
}

/// The game screen says how to play by keys when it opens.
fn announce_game_screen(game: Option<Res<Match>>, mut announcer: ResMut<Announcer>) {
    if let Some(game) = game {
        announcer.say(words::game_screen_words(next_words(&game)));
    }
}

/// Draws the cursor's ring over its point while the board has the focus.
fn draw_cursor(
    mut commands: Commands,
    cursor: Res<BoardCursor>,
    focus: Res<Focus>,
    screen: Res<State<Screen>>,
    meshes: Option<ResMut<Assets<Mesh>>>,
    materials: Option<ResMut<Assets<StandardMaterial>>>,
    mut marks: Query<(&mut Transform, &mut Visibility), With<CursorMark>>,
) {
    let shown = cursor.shown
        && focus.0.is_none()
        && matches!(screen.get(), Screen::Playing | Screen::Editor);
    let point = cursor.point.filter(|_| shown);
    if marks.is_empty() {
        let (Some(point), Some(mut meshes), Some(mut materials)) = (point, meshes, materials)
        else {
            return;
        };
        // A white ring around a black one: seen on light and dark stones, on the wood and
        // on the high-contrast board.
        let flat = |color: Color| StandardMaterial {
            base_color: color,
            unlit: true,
            ..default()
        };
        let white = materials.add(flat(Color::WHITE));
        let black = materials.add(flat(Color::BLACK));
        let outer = meshes.add(Torus::new(0.44, 0.52));
        let inner = meshes.add(Torus::new(0.38, 0.44));
        commands.spawn((
            CursorMark,
            Transform::from_translation(point_position(point.size(), point) + Vec3::Y * 0.06),
            Visibility::Inherited,
            children![
                (Mesh3d(outer), MeshMaterial3d(white)),
                (Mesh3d(inner), MeshMaterial3d(black)),
            ],
        ));
        return;
    }
    for (mut transform, mut visibility) in &mut marks {
        let wanted = if point.is_some() {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
        if *visibility != wanted {
            *visibility = wanted;
        }
        if let Some(p) = point {
            let at = point_position(p.size(), p) + Vec3::Y * 0.06;
            if transform.translation != at {
                transform.translation = at;
            }
        }
    }
}

/// Buttons that [`focusable_buttons`] made focusable.
#[derive(Component)]
struct AutoFocus;

/// Every button shown that has no place in the `Tab` order yet (the game screen's panels, the
/// tutorial's, the editor's) gets one, in the interface's order (a depth-first walk of the
/// UI tree); hidden buttons leave it. The list of turns stays out (`,` and `.` look back).
fn focusable_buttons(
    mut commands: Commands,
    roots: Query<Entity, (With<Node>, Without<ChildOf>)>,
    children: Query<&Children>,
    nodes: Query<(&Node, Option<&Visibility>)>,
    buttons: Query<(Option<&Action>, Option<&Focusable>, Has<AutoFocus>), With<Button>>,
    auto: Query<Entity, With<AutoFocus>>,
) {
    // Panels on the left first, then the others (entities do not keep their spawn order).
    let mut roots: Vec<(bool, Entity)> = roots
        .iter()
        .map(|e| (nodes.get(e).is_ok_and(|(n, _)| n.left == Val::Auto), e))
        .collect();
    roots.sort();
    let roots: Vec<Entity> = roots.into_iter().map(|(_, e)| e).collect();
    let mut next = 1000;
    let mut seen = Vec::new();
    let mut stack: Vec<Entity> = roots.into_iter().rev().collect();
    while let Some(e) = stack.pop() {
        if let Ok((node, visibility)) = nodes.get(e)
            && (node.display == Display::None || visibility == Some(&Visibility::Hidden))
        {
            continue;
        }
        if let Ok((action, focusable, is_auto)) = buttons.get(e) {
            let wanted = action.is_some_and(|a| !matches!(a, Action::Game(Command::View(Some(_)))));
            if wanted && (focusable.is_none() || is_auto) {
                seen.push(e);
                if focusable != Some(&Focusable(next)) {
                    commands.entity(e).try_insert((Focusable(next), AutoFocus));
                }
                next += 1;
            }
        }
        if let Ok(c) = children.get(e) {
            stack.extend(c.iter().rev());
        }
    }
    for e in &auto {
        if !seen.contains(&e) {
            commands.entity(e).try_remove::<(Focusable, AutoFocus)>();
        }
    }
}

/// The plugin: the cursor, the announcements, the screen reader's nodes, the look.
pub fn plugin(app: &mut App) {
    app.init_resource::<BoardCursor>()
        .init_resource::<Announcer>()
        .init_resource::<KeysTaken>()
        .init_resource::<BoardView>()
        .add_message::<BoardPress>()
        .add_message::<Command>()
        .add_systems(OnEnter(Screen::Playing), announce_game_screen)
        .add_systems(
            Update,
            (
                (
                    cursor_keys.run_if(resource_exists::<ButtonInput<KeyCode>>),
                    press_in_game,
                )
                    .chain()
                    .in_set(CursorKeys)
                    .after(WidgetKeys)
                    .after(crate::browser::BrowserKeys)
                    .before(FlowSet),
                (announce_game, draw_cursor, focusable_buttons).after(FlowSet),
            ),
        )
        .add_plugins((nodes::plugin, look::plugin));
}

#[cfg(test)]
mod tests;

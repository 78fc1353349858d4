//! Input and picking: a left click (or a drag from a stone to a point) on the board becomes a
//! [`Command::Click`] on the nearest point; keys become the other commands.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use fanorona_core::{BoardSize, Point, StepKind};

use crate::Screen;
use crate::board::{STONE_HALF_HEIGHT, point_position};
use crate::flow::{BoardView, Command, FlowSet};

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

fn cursor_point(
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
    mut hovered: ResMut<Hovered>,
    mut pressed_at: Local<Option<Point>>,
    mut commands: MessageWriter<Command>,
) {
    let (Ok(window), Ok((camera, transform))) = (windows.single(), cameras.single()) else {
        return;
    };
    let over_ui = blockers.iter().any(|i| *i != Interaction::None);
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

/// Keyboard shortcuts of the game screen.
pub fn keys_to_commands(keys: Res<ButtonInput<KeyCode>>, mut commands: MessageWriter<Command>) {
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    for key in keys.get_just_pressed() {
        let command = match key {
            KeyCode::Space | KeyCode::Enter => Command::EndTurn,
            KeyCode::KeyA => Command::Choose(StepKind::Approach),
            KeyCode::KeyW => Command::Choose(StepKind::Withdrawal),
            KeyCode::KeyZ if ctrl && shift => Command::Redo,
            KeyCode::KeyZ if ctrl => Command::Undo,
            KeyCode::KeyY if ctrl => Command::Redo,
            KeyCode::Backspace | KeyCode::KeyU => Command::Undo,
            KeyCode::KeyR => Command::Redo,
            KeyCode::KeyN if ctrl => Command::NewGame,
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
    app.init_resource::<Hovered>().add_systems(
        Update,
        (pick, keys_to_commands)
            .before(FlowSet)
            .run_if(in_state(Screen::Playing)),
    );
}

//! The camera: orbits the board with the right mouse button (or the arrow keys), zooms with
//! the wheel (or `+`/`-`) within limits, and returns to the default view with `Home`.

use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;

use crate::board::board_extent;
use crate::flow::{BoardView, Match, Player};

/// Orbit parameters of the board camera.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Orbit {
    /// Rotation around the vertical axis; 0 looks from White's side.
    pub yaw: f32,
    /// Angle above the board plane.
    pub pitch: f32,
    /// Distance from the board centre.
    pub distance: f32,
    /// The distance of the default view (zoom limits are relative to it).
    pub home_distance: f32,
}

/// Lowest camera angle above the board.
pub const MIN_PITCH: f32 = 0.35;
/// Highest camera angle (almost straight down).
pub const MAX_PITCH: f32 = 1.50;

impl Orbit {
    /// The default view for a board of `extent` (width, depth) seen on a `aspect` screen,
    /// from White's side (`yaw` 0) or Black's (`yaw` π).
    pub fn home(extent: Vec2, aspect: f32, yaw: f32) -> Orbit {
        // Fit the board's width (with room for the side panels) and depth in a 45° field of view.
        let fov = std::f32::consts::FRAC_PI_4;
        let usable_aspect = (aspect * 0.62).max(0.5);
        let fit_width = (extent.x * 0.5 + 0.4) / ((fov / 2.0).tan() * usable_aspect);
        let fit_depth = (extent.y * 0.5 + 0.8) / (fov / 2.0).tan();
        let distance = fit_width.max(fit_depth) * 1.05;
        Orbit { yaw, pitch: 0.95, distance, home_distance: distance }
    }

    /// The camera transform for these parameters.
    pub fn transform(&self) -> Transform {
        let offset = Vec3::new(
            self.distance * self.pitch.cos() * self.yaw.sin(),
            self.distance * self.pitch.sin(),
            self.distance * self.pitch.cos() * self.yaw.cos(),
        );
        let target = Vec3::new(0.0, 0.0, -0.35);
        Transform::from_translation(target + offset).looking_at(target, Vec3::Y)
    }

    /// Applies a drag (in radians) and a zoom factor, within the limits.
    pub fn adjust(&mut self, yaw: f32, pitch: f32, zoom: f32) {
        self.yaw += yaw;
        self.pitch = (self.pitch + pitch).clamp(MIN_PITCH, MAX_PITCH);
        self.distance = (self.distance * zoom)
            .clamp(self.home_distance * 0.45, self.home_distance * 1.8);
    }
}

fn spawn_camera(mut commands: Commands) {
    let orbit = Orbit::home(Vec2::new(9.5, 5.5), 16.0 / 9.0, 0.0);
    commands.spawn((
        Camera3d::default(),
        orbit.transform(),
        orbit,
        IsDefaultUiCamera,
    ));
    commands.insert_resource(ClearColor(Color::srgb(0.07, 0.09, 0.11)));
}

fn home_yaw(game: Option<&Match>) -> f32 {
    match game.map(Match::players) {
        Some([Player::Engine, Player::Human]) => std::f32::consts::PI,
        _ => 0.0,
    }
}

/// Resets the view when the board size or the person's side changes, or on `Home`.
fn home_view(
    view: Res<BoardView>,
    game: Option<Res<Match>>,
    keys: Res<ButtonInput<KeyCode>>,
    windows: Query<&Window>,
    mut cameras: Query<(&mut Orbit, &mut Transform)>,
    mut last: Local<Option<(fanorona_core::BoardSize, u32, u32, i32)>>,
) {
    let (w, h) = windows
        .iter()
        .next()
        .map(|w| (w.width().max(1.0), w.height().max(1.0)))
        .unwrap_or((1280.0, 720.0));
    let yaw = home_yaw(game.as_deref());
    let key = (view.size, w as u32, h as u32, (yaw * 10.0) as i32);
    if *last == Some(key) && !keys.just_pressed(KeyCode::Home) {
        return;
    }
    *last = Some(key);
    for (mut orbit, mut transform) in &mut cameras {
        *orbit = Orbit::home(board_extent(view.size), w / h, yaw);
        *transform = orbit.transform();
    }
}

fn orbit_controls(
    buttons: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    time: Res<Time>,
    mut cameras: Query<(&mut Orbit, &mut Transform)>,
) {
    let mut yaw = 0.0;
    let mut pitch = 0.0;
    let mut zoom = 1.0;
    if buttons.pressed(MouseButton::Right) || buttons.pressed(MouseButton::Middle) {
        yaw -= motion.delta.x * 0.008;
        pitch += motion.delta.y * 0.006;
    }
    let dt = time.delta_secs();
    if keys.pressed(KeyCode::ArrowLeft) {
        yaw += 1.5 * dt;
    }
    if keys.pressed(KeyCode::ArrowRight) {
        yaw -= 1.5 * dt;
    }
    if keys.pressed(KeyCode::ArrowUp) {
        pitch += 1.0 * dt;
    }
    if keys.pressed(KeyCode::ArrowDown) {
        pitch -= 1.0 * dt;
    }
    let lines = match scroll.unit {
        MouseScrollUnit::Line => scroll.delta.y,
        MouseScrollUnit::Pixel => scroll.delta.y / 40.0,
    };
    zoom *= 0.9_f32.powf(lines);
    if keys.pressed(KeyCode::Equal) || keys.pressed(KeyCode::NumpadAdd) {
        zoom *= 1.0 - dt;
    }
    if keys.pressed(KeyCode::Minus) || keys.pressed(KeyCode::NumpadSubtract) {
        zoom *= 1.0 + dt;
    }
    if yaw == 0.0 && pitch == 0.0 && zoom == 1.0 {
        return;
    }
    for (mut orbit, mut transform) in &mut cameras {
        orbit.adjust(yaw, pitch, zoom);
        *transform = orbit.transform();
    }
}

/// The camera plugin.
pub fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_camera)
        .add_systems(Update, (home_view, orbit_controls).chain());
}

//! The camera: orbits the board with the right mouse button (or Shift+arrow keys), zooms with
//! the wheel (or `+`/`-`) within limits, and returns to the default view with `Home`.

use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;

use crate::board::board_extent;
use crate::game::flow::{BoardView, Match, Player};
use crate::ui::layout::{Layout, Panels};

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
    /// Sideways shift of the point looked at, so the board sits between the panels.
    pub pan: f32,
    /// Shift of the point looked at along the camera's up direction (projected on the board),
    /// so the board sits in the middle from top to bottom.
    pub lift: f32,
}

/// The part of the window the panels leave free for the board, in normalized device
/// coordinates (`-1..1` from left to right and from bottom to top).
pub fn board_room(window: Vec2, panels: Panels) -> Rect {
    let scale = crate::ui::ui_scale_for(window);
    let (left, right) = (panels.left * scale, window.x - panels.right * scale);
    let bottom = panels.bottom * scale;
    Rect {
        min: Vec2::new(2.0 * left / window.x - 1.0, 2.0 * bottom / window.y - 1.0),
        max: Vec2::new(2.0 * right / window.x - 1.0, 1.0),
    }
}

/// The part of the window between the side panels of the game screen, in normalized device
/// coordinates (`-1..1` from left to right).
pub fn panel_gap(window: Vec2) -> (f32, f32) {
    let room = board_room(window, Panels::GAME);
    (room.min.x, room.max.x)
}

/// The bounds of a board of `extent` (its corners, on the surface and at stone height) on
/// the screen, in normalized device coordinates, seen from `orbit` in a window of `window`
/// logical pixels.
pub fn board_bounds(orbit: &Orbit, extent: Vec2, window: Vec2) -> (Vec2, Vec2) {
    let projection = Mat4::perspective_rh(FOV, window.x / window.y, 0.1, 1000.0);
    let view = orbit.transform().to_matrix().inverse();
    let half = extent / 2.0 + Vec2::splat(0.15);
    let mut lo = Vec2::splat(f32::MAX);
    let mut hi = Vec2::splat(f32::MIN);
    for (x, z) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
        for y in [0.0, 0.35] {
            let p = projection * view * Vec4::new(x * half.x, y, z * half.y, 1.0);
            let ndc = p.truncate().truncate() / p.w;
            lo = lo.min(ndc);
            hi = hi.max(ndc);
        }
    }
    (lo, hi)
}

/// Vertical field of view of the camera (Bevy's default).
const FOV: f32 = std::f32::consts::FRAC_PI_4;

/// Lowest camera angle above the board.
pub const MIN_PITCH: f32 = 0.35;
/// Highest camera angle (almost straight down).
pub const MAX_PITCH: f32 = 1.50;

impl Orbit {
    /// The default view for a board of `extent` (width, depth) in a window of `window`
    /// logical pixels, from White's side (`yaw` 0) or Black's (`yaw` π): the whole board,
    /// its coordinates and its stones fit between the side panels (and above the review
    /// graph when it is shown), centred there and filling the room's width or height.
    pub fn home(extent: Vec2, window: Vec2, panels: Panels, yaw: f32) -> Orbit {
        let window = window.max(Vec2::splat(64.0));
        let room = board_room(window, panels);
        let (xmin, xmax) = (room.min.x, room.max.x);
        let (ymin, ymax) = (room.min.y, room.max.y);
        let mut orbit = Orbit {
            yaw,
            pitch: 1.05,
            distance: 10.0,
            home_distance: 10.0,
            pan: 0.0,
            lift: 0.0,
        };
        for _ in 0..4 {
            // The smallest distance at which the board fits: bisect.
            let (mut near, mut far) = (1.0_f32, 200.0_f32);
            for _ in 0..40 {
                orbit.distance = (near + far) / 2.0;
                let (lo, hi) = board_bounds(&orbit, extent, window);
                let fits =
                    hi.x - lo.x <= (xmax - xmin) * 0.96 && hi.y - lo.y <= (ymax - ymin) * 0.92;
                if fits {
                    far = orbit.distance;
                } else {
                    near = orbit.distance;
                }
            }
            orbit.distance = far;
            // Centre the board between the panels and between the top and the bottom (or the
            // graph).
            let (lo, hi) = board_bounds(&orbit, extent, window);
            let half_height = orbit.distance * (FOV / 2.0).tan();
            let shift = (xmin + xmax) / 2.0 - (lo.x + hi.x) / 2.0;
            orbit.pan -= shift * half_height * window.x / window.y;
            let shift_y = (ymin + ymax) / 2.0 - (lo.y + hi.y) / 2.0;
            orbit.lift -= shift_y * half_height;
        }
        orbit.home_distance = orbit.distance;
        orbit
    }

    /// The camera transform for these parameters.
    pub fn transform(&self) -> Transform {
        let offset = Vec3::new(
            self.distance * self.pitch.cos() * self.yaw.sin(),
            self.distance * self.pitch.sin(),
            self.distance * self.pitch.cos() * self.yaw.cos(),
        );
        let right = Vec3::new(self.yaw.cos(), 0.0, -self.yaw.sin());
        // Away from the viewer on the board plane: the screen's "up" projected on the board.
        let away = Vec3::new(-self.yaw.sin(), 0.0, -self.yaw.cos());
        let target = right * self.pan + away * self.lift;
        Transform::from_translation(target + offset).looking_at(target, Vec3::Y)
    }

    /// Applies a drag (in radians) and a zoom factor, within the limits.
    pub fn adjust(&mut self, yaw: f32, pitch: f32, zoom: f32) {
        self.yaw += yaw;
        self.pitch = (self.pitch + pitch).clamp(MIN_PITCH, MAX_PITCH);
        self.distance =
            (self.distance * zoom).clamp(self.home_distance * 0.45, self.home_distance * 1.8);
    }
}

fn spawn_camera(mut commands: Commands) {
    let orbit = Orbit::home(
        Vec2::new(9.5, 5.5),
        Vec2::new(1280.0, 720.0),
        Panels::GAME,
        0.0,
    );
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

/// Resets the view when the board size, the person's side, the window's size or the panels
/// around the board change (the tutorial's panel, the review graph), or on `Home`.
fn home_view(
    view: Res<BoardView>,
    game: Option<Res<Match>>,
    layout: Option<Res<Layout>>,
    keys: Res<ButtonInput<KeyCode>>,
    windows: Query<&Window>,
    mut cameras: Query<(&mut Orbit, &mut Transform)>,
    mut last: Local<Option<(fanorona_core::BoardSize, u32, u32, i32, Layout)>>,
) {
    let (w, h) = windows
        .iter()
        .next()
        .map(|w| (w.width().max(1.0), w.height().max(1.0)))
        .unwrap_or((1280.0, 720.0));
    let yaw = home_yaw(game.as_deref());
    let layout = layout.map(|l| *l).unwrap_or_default();
    let key = (view.size, w as u32, h as u32, (yaw * 10.0) as i32, layout);
    if *last == Some(key) && !keys.just_pressed(KeyCode::Home) {
        return;
    }
    *last = Some(key);
    for (mut orbit, mut transform) in &mut cameras {
        *orbit = Orbit::home(
            board_extent(view.size),
            Vec2::new(w, h),
            layout.screen_panels(),
            yaw,
        );
        *transform = orbit.transform();
    }
}

fn orbit_controls(
    buttons: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    time: Res<Time>,
    entry: Option<Res<crate::game::input::TurnEntry>>,
    browser: Option<Res<crate::browser::Browser>>,
    mut cameras: Query<(&mut Orbit, &mut Transform)>,
) {
    // The file browser takes the wheel and the arrows while it is open.
    if browser.is_some_and(|b| b.open || b.took_keys) {
        return;
    }
    // While a turn is typed, `-` is part of the text, not a zoom.
    let typing = entry.is_some_and(|e| e.open);
    let mut yaw = 0.0;
    let mut pitch = 0.0;
    let mut zoom = 1.0;
    if buttons.pressed(MouseButton::Right) || buttons.pressed(MouseButton::Middle) {
        yaw -= motion.delta.x * 0.008;
        pitch += motion.delta.y * 0.006;
    }
    let dt = time.delta_secs();
    // Shift+arrows orbit; the arrows alone move the board's keyboard cursor (see `access`).
    let orbit_keys = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    if orbit_keys && keys.pressed(KeyCode::ArrowLeft) {
        yaw += 1.5 * dt;
    }
    if orbit_keys && keys.pressed(KeyCode::ArrowRight) {
        yaw -= 1.5 * dt;
    }
    if orbit_keys && keys.pressed(KeyCode::ArrowUp) {
        pitch += 1.0 * dt;
    }
    if orbit_keys && keys.pressed(KeyCode::ArrowDown) {
        pitch -= 1.0 * dt;
    }
    let lines = match scroll.unit {
        MouseScrollUnit::Line => scroll.delta.y,
        MouseScrollUnit::Pixel => scroll.delta.y / 40.0,
    };
    zoom *= 0.9_f32.powf(lines);
    if !typing && (keys.pressed(KeyCode::Equal) || keys.pressed(KeyCode::NumpadAdd)) {
        zoom *= 1.0 - dt;
    }
    if !typing && (keys.pressed(KeyCode::Minus) || keys.pressed(KeyCode::NumpadSubtract)) {
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
    app.add_systems(Startup, spawn_camera).add_systems(
        Update,
        (home_view, orbit_controls)
            .chain()
            .after(crate::browser::BrowserKeys),
    );
}

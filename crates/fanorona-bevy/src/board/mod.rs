//! Board rendering: the wooden board with its carved lines, the stones, the highlights and the
//! coordinates, all drawn from [`BoardView`].

pub mod camera;
pub mod contrast;

use bevy::asset::RenderAssetUsages;
use bevy::light::CascadeShadowConfigBuilder;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use fanorona_core::{BoardSize, Color as Side, Point};

use crate::game::flow::{Animating, BoardView, FlowSet};

/// Distance between two adjacent points, in world units.
pub const SPACING: f32 = 1.0;
/// Height of the board's top surface.
pub const BOARD_TOP: f32 = 0.0;
/// Radius of a stone.
pub const STONE_RADIUS: f32 = 0.34;
/// Half the height of a stone.
pub const STONE_HALF_HEIGHT: f32 = 0.15;
const MARGIN: f32 = 0.85;

/// Okabe-Ito orange: stones that must capture, the approach line.
pub const ORANGE: Color = Color::srgb(0.902, 0.624, 0.0);
/// Okabe-Ito sky blue: paika destinations.
pub const SKY_BLUE: Color = Color::srgb(0.337, 0.706, 0.914);
/// Okabe-Ito bluish green: the engine's hint.
pub const BLUISH_GREEN: Color = Color::srgb(0.0, 0.620, 0.451);
/// Okabe-Ito yellow: the selected stone.
pub const YELLOW: Color = Color::srgb(0.941, 0.894, 0.259);
/// Okabe-Ito blue: the withdrawal line, the last turn's path.
pub const BLUE: Color = Color::srgb(0.0, 0.447, 0.698);
/// Okabe-Ito vermillion: capture destinations and the forbidden direction.
pub const VERMILLION: Color = Color::srgb(0.835, 0.369, 0.0);
const THICKNESS: f32 = 0.32;
/// The colour of the coordinates (black in the high-contrast look, on its grey board).
pub const COORD_COLOR: Color = Color::srgb(0.98, 0.92, 0.78);

/// World position of a point's centre on the board surface.
pub fn point_position(size: BoardSize, point: Point) -> Vec3 {
    let file = f32::from(point.file());
    let rank = f32::from(point.rank());
    let cx = (f32::from(size.cols()) - 1.0) / 2.0;
    let cy = (f32::from(size.rows()) - 1.0) / 2.0;
    Vec3::new((file - cx) * SPACING, BOARD_TOP, -(rank - cy) * SPACING)
}

/// Where a stone resting on `point` has its centre.
pub fn stone_position(size: BoardSize, point: Point) -> Vec3 {
    point_position(size, point) + Vec3::Y * STONE_HALF_HEIGHT
}

/// The board's extent (width along x, depth along z) including the margin.
pub fn board_extent(size: BoardSize) -> Vec2 {
    Vec2::new(
        (f32::from(size.cols()) - 1.0) * SPACING + 2.0 * MARGIN,
        (f32::from(size.rows()) - 1.0) * SPACING + 2.0 * MARGIN,
    )
}

/// A stone on the board.
#[derive(Component, Clone, Copy, Debug)]
pub struct Stone {
    /// The point it stands on.
    pub point: Point,
    /// Its colour.
    pub side: Side,
}

/// Everything belonging to the board of one size (rebuilt when the size changes).
#[derive(Component)]
struct BoardPart;

/// A highlight marker (rebuilt when the view changes).
#[derive(Component)]
struct Highlight;

/// A coordinate label: a UI text kept over a world position.
#[derive(Component)]
pub struct CoordLabel(pub Vec3);

/// Meshes and materials shared by the board's entities.
#[derive(Resource)]
pub struct Palette {
    stone_mesh: Handle<Mesh>,
    white: Handle<StandardMaterial>,
    black: Handle<StandardMaterial>,
    ring: Handle<Mesh>,
    small_ring: Handle<Mesh>,
    disc: Handle<Mesh>,
    dot: Handle<Mesh>,
    bar: Handle<Mesh>,
    unit_box: Handle<Mesh>,
    arrow_head: Handle<Mesh>,
    ghost: Handle<StandardMaterial>,
    selected: Handle<StandardMaterial>,
    paika: Handle<StandardMaterial>,
    capture: Handle<StandardMaterial>,
    must: Handle<StandardMaterial>,
    approach: Handle<StandardMaterial>,
    withdrawal: Handle<StandardMaterial>,
    visited: Handle<StandardMaterial>,
    forbidden: Handle<StandardMaterial>,
    last: Handle<StandardMaterial>,
    hint: Handle<StandardMaterial>,
    wood: Handle<StandardMaterial>,
    groove: Handle<StandardMaterial>,
    rim: Handle<StandardMaterial>,
    table: Handle<StandardMaterial>,
}

/// The size the board entities were built for.
#[derive(Resource, Default)]
struct BuiltSize(Option<BoardSize>);

fn unlit(materials: &mut Assets<StandardMaterial>, color: Color) -> Handle<StandardMaterial> {
    materials.add(StandardMaterial {
        base_color: color,
        emissive: color.to_linear() * 0.6,
        perceptual_roughness: 0.6,
        alpha_mode: if color.alpha() < 1.0 {
            AlphaMode::Blend
        } else {
            AlphaMode::Opaque
        },
        ..default()
    })
}

/// A procedural wood texture: warm planks with wavy grain running along x.
fn wood_image() -> Image {
    const W: usize = 512;
    const H: usize = 256;
    let mut data = Vec::with_capacity(W * H * 4);
    let hash = |x: i32, y: i32| -> f32 {
        let mut h = (x as u32).wrapping_mul(374_761_393) ^ (y as u32).wrapping_mul(668_265_263);
        h = (h ^ (h >> 13)).wrapping_mul(1_274_126_177);
        ((h ^ (h >> 16)) & 0xffff) as f32 / 65535.0
    };
    let noise = |x: f32, y: f32| -> f32 {
        let (xi, yi) = (x.floor() as i32, y.floor() as i32);
        let (fx, fy) = (x - x.floor(), y - y.floor());
        let (sx, sy) = (fx * fx * (3.0 - 2.0 * fx), fy * fy * (3.0 - 2.0 * fy));
        let a = hash(xi, yi) + (hash(xi + 1, yi) - hash(xi, yi)) * sx;
        let b = hash(xi, yi + 1) + (hash(xi + 1, yi + 1) - hash(xi, yi + 1)) * sx;
        a + (b - a) * sy
    };
    let light = Vec3::new(0.80, 0.58, 0.35);
    let dark = Vec3::new(0.55, 0.34, 0.17);
    for y in 0..H {
        for x in 0..W {
            let (fx, fy) = (x as f32, y as f32);
            let warp = noise(fx / 90.0, fy / 40.0) * 6.0 + noise(fx / 23.0, fy / 9.0) * 0.8;
            let grain = ((fy / 7.0 + warp) * std::f32::consts::TAU).sin() * 0.5 + 0.5;
            let fine = noise(fx / 2.0, fy / 0.7) * 0.25;
            let plank = if (y / 64) % 2 == 0 { 1.0 } else { 0.94 };
            let t = (grain.powf(2.5) * 0.75 + fine).clamp(0.0, 1.0);
            let c = light.lerp(dark, t) * plank;
            data.extend_from_slice(&[
                (c.x * 255.0) as u8,
                (c.y * 255.0) as u8,
                (c.z * 255.0) as u8,
                255,
            ]);
        }
    }
    Image::new(
        Extent3d {
            width: W as u32,
            height: H as u32,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    )
}

fn setup_palette(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut images: ResMut<Assets<Image>>,
) {
    let wood_texture = images.add(wood_image());
    let palette = Palette {
        stone_mesh: meshes.add(Sphere::new(1.0).mesh().uv(48, 24)),
        white: materials.add(StandardMaterial {
            base_color: Color::srgb(0.93, 0.91, 0.86),
            perceptual_roughness: 0.22,
            reflectance: 0.6,
            clearcoat: 0.6,
            ..default()
        }),
        black: materials.add(StandardMaterial {
            base_color: Color::srgb(0.035, 0.035, 0.04),
            perceptual_roughness: 0.18,
            reflectance: 0.7,
            clearcoat: 0.8,
            ..default()
        }),
        ring: meshes.add(
            Torus::new(0.36, 0.43)
                .mesh()
                .minor_resolution(12)
                .major_resolution(48),
        ),
        small_ring: meshes.add(Torus::new(0.17, 0.24)),
        disc: meshes.add(Cylinder::new(0.2, 0.02)),
        dot: meshes.add(Cylinder::new(0.08, 0.02)),
        bar: meshes.add(Cuboid::new(0.07, 0.02, 0.5)),
        unit_box: meshes.add(Cuboid::new(1.0, 1.0, 1.0)),
        arrow_head: meshes.add(Cone::new(0.17, 0.34).mesh().resolution(24)),
        // Highlight colours from the Okabe-Ito palette, told apart by people with any common
        // colour-vision deficiency; paika and capture targets also differ in shape (a ring
        // alone, a filled disc in a ring).
        ghost: unlit(&mut materials, Color::srgba(0.55, 0.55, 0.58, 0.85)),
        selected: unlit(&mut materials, YELLOW),
        paika: unlit(&mut materials, SKY_BLUE.with_alpha(0.9)),
        capture: unlit(&mut materials, VERMILLION.with_alpha(0.9)),
        must: unlit(&mut materials, ORANGE),
        approach: unlit(&mut materials, ORANGE),
        withdrawal: unlit(&mut materials, BLUE),
        visited: unlit(&mut materials, Color::srgba(0.6, 0.6, 0.6, 0.9)),
        forbidden: unlit(&mut materials, VERMILLION),
        last: unlit(&mut materials, BLUE.with_alpha(0.75)),
        hint: unlit(&mut materials, BLUISH_GREEN.with_alpha(0.9)),
        wood: materials.add(StandardMaterial {
            base_color_texture: Some(wood_texture.clone()),
            perceptual_roughness: 0.55,
            reflectance: 0.35,
            ..default()
        }),
        groove: materials.add(StandardMaterial {
            base_color: Color::srgb(0.18, 0.09, 0.04),
            perceptual_roughness: 0.95,
            reflectance: 0.1,
            ..default()
        }),
        rim: materials.add(StandardMaterial {
            base_color_texture: Some(wood_texture),
            base_color: Color::srgb(0.55, 0.42, 0.32),
            perceptual_roughness: 0.5,
            ..default()
        }),
        table: materials.add(StandardMaterial {
            base_color: Color::srgb(0.05, 0.075, 0.07),
            perceptual_roughness: 0.95,
            ..default()
        }),
    };
    commands.insert_resource(palette);
}

fn spawn_lights(mut commands: Commands) {
    commands.insert_resource(GlobalAmbientLight {
        color: Color::srgb(1.0, 0.96, 0.9),
        brightness: 350.0,
        affects_lightmapped_meshes: true,
    });
    commands.spawn((
        DirectionalLight {
            illuminance: 9_000.0,
            shadow_maps_enabled: true,
            ..default()
        },
        // The scene is small: one shadow cascade covers it (four would cost four passes).
        CascadeShadowConfigBuilder {
            num_cascades: 1,
            minimum_distance: 0.5,
            maximum_distance: 40.0,
            ..default()
        }
        .build(),
        Transform::from_xyz(-4.0, 10.0, 6.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.spawn((
        PointLight {
            intensity: 600_000.0,
            range: 40.0,
            shadow_maps_enabled: false,
            ..default()
        },
        Transform::from_xyz(5.0, 6.0, -4.0),
    ));
}

/// Rebuilds the board (wood, grooves, point holes, coordinates) when the size changes.
fn build_board(
    mut commands: Commands,
    view: Res<BoardView>,
    mut built: ResMut<BuiltSize>,
    palette: Res<Palette>,
    mut meshes: ResMut<Assets<Mesh>>,
    old: Query<Entity, Or<(With<BoardPart>, With<Stone>, With<CoordLabel>)>>,
) {
    let size = view.size;
    if built.0 == Some(size) {
        return;
    }
    built.0 = Some(size);
    for entity in &old {
        commands.entity(entity).despawn();
    }
    let extent = board_extent(size);
    // The wooden slab with a slightly darker rim, on a dark table.
    commands.spawn((
        BoardPart,
        Mesh3d(meshes.add(Cuboid::new(extent.x, THICKNESS, extent.y))),
        MeshMaterial3d(palette.wood.clone()),
        Transform::from_xyz(0.0, BOARD_TOP - THICKNESS / 2.0, 0.0),
    ));
    commands.spawn((
        BoardPart,
        Mesh3d(meshes.add(Cuboid::new(extent.x + 0.3, THICKNESS * 0.6, extent.y + 0.3))),
        MeshMaterial3d(palette.rim.clone()),
        Transform::from_xyz(0.0, BOARD_TOP - THICKNESS * 0.7, 0.0),
    ));
    commands.spawn((
        BoardPart,
        Mesh3d(meshes.add(Plane3d::default().mesh().size(80.0, 80.0))),
        MeshMaterial3d(palette.table.clone()),
        Transform::from_xyz(0.0, BOARD_TOP - THICKNESS, 0.0),
    ));
    // Carved lines: dark grooves just above the surface, one per segment of the core geometry.
    let groove_width = 0.05;
    let straight = meshes.add(Cuboid::new(groove_width, 0.004, SPACING + groove_width));
    let diagonal = meshes.add(Cuboid::new(
        groove_width,
        0.004,
        SPACING * std::f32::consts::SQRT_2,
    ));
    for (a, b) in size.geometry().lines() {
        let pa = point_position(size, a);
        let pb = point_position(size, b);
        let mid = (pa + pb) / 2.0 + Vec3::Y * 0.001;
        let d = pb - pa;
        let is_diagonal = d.x.abs() > 0.01 && d.z.abs() > 0.01;
        let yaw = d.x.atan2(d.z);
        commands.spawn((
            BoardPart,
            contrast::GrooveLine,
            Mesh3d(if is_diagonal {
                diagonal.clone()
            } else {
                straight.clone()
            }),
            MeshMaterial3d(palette.groove.clone()),
            Transform::from_translation(mid).with_rotation(Quat::from_rotation_y(yaw)),
        ));
    }
    // A small hole at each point.
    let hole = meshes.add(Cylinder::new(0.075, 0.006));
    for point in size.points() {
        commands.spawn((
            BoardPart,
            contrast::PointHole,
            Mesh3d(hole.clone()),
            MeshMaterial3d(palette.groove.clone()),
            Transform::from_translation(point_position(size, point) + Vec3::Y * 0.002),
        ));
    }
    // Coordinates: files under the first rank, ranks left of the first file.
    for file in 0..size.cols() {
        let p = size.point(file, 0).expect("file within the board");
        let pos = point_position(size, p) + Vec3::new(0.0, 0.0, MARGIN * 0.62);
        let text = ((b'a' + file) as char).to_string();
        spawn_label(&mut commands, text, pos);
    }
    for rank in 0..size.rows() {
        let p = size.point(0, rank).expect("rank within the board");
        let pos = point_position(size, p) - Vec3::new(MARGIN * 0.62, 0.0, 0.0);
        spawn_label(&mut commands, (rank + 1).to_string(), pos);
    }
}

fn spawn_label(commands: &mut Commands, text: String, world: Vec3) {
    commands.spawn((
        CoordLabel(world),
        Node {
            position_type: PositionType::Absolute,
            width: px(30.0),
            height: px(30.0),
            justify_content: JustifyContent::Center,
            align_items: AlignItems::Center,
            ..default()
        },
        Visibility::Hidden,
        children![(
            Text::new(text),
            TextFont::from_font_size(22.0),
            TextColor(COORD_COLOR),
            TextShadow::default(),
        )],
    ));
}

/// Keeps coordinate labels over their board positions.
fn place_labels(
    camera: Query<(&Camera, &GlobalTransform), With<Camera3d>>,
    mut labels: Query<(&CoordLabel, &mut Node, &mut Visibility)>,
    ui_scale: Res<UiScale>,
) {
    // UI positions are in logical pixels divided by the UI scale.
    let scale = ui_scale.0.max(0.01);
    let Ok((camera, camera_transform)) = camera.single() else {
        return;
    };
    for (label, mut node, mut visibility) in &mut labels {
        match camera.world_to_viewport(camera_transform, label.0) {
            Ok(pos) => {
                node.left = px(pos.x / scale - 15.0);
                node.top = px(pos.y / scale - 15.0);
                *visibility = Visibility::Inherited;
            }
            Err(_) => *visibility = Visibility::Hidden,
        }
    }
}

fn stone_transform(size: BoardSize, point: Point) -> Transform {
    Transform::from_translation(stone_position(size, point)).with_scale(Vec3::new(
        STONE_RADIUS,
        STONE_HALF_HEIGHT,
        STONE_RADIUS,
    ))
}

/// Puts stones where the view says, when no animation is running.
fn sync_stones(
    mut commands: Commands,
    view: Res<BoardView>,
    animating: Res<Animating>,
    palette: Res<Palette>,
    mut stones: Query<(Entity, &mut Stone, &mut Transform)>,
) {
    if animating.0 {
        return;
    }
    let size = view.size;
    let mut wanted: Vec<(Point, Side)> = view.stones.clone();
    let mut spare = Vec::new();
    for (entity, stone, mut transform) in &mut stones {
        if let Some(i) = wanted
            .iter()
            .position(|&(p, s)| p == stone.point && s == stone.side)
        {
            wanted.swap_remove(i);
            let target = stone_transform(size, stone.point);
            if *transform != target {
                *transform = target;
            }
        } else {
            spare.push((entity, stone.side));
        }
    }
    for (point, side) in wanted {
        if let Some(i) = spare.iter().position(|&(_, s)| s == side) {
            let (entity, _) = spare.swap_remove(i);
            commands
                .entity(entity)
                .insert((Stone { point, side }, stone_transform(size, point)));
        } else {
            let material = match side {
                Side::White => palette.white.clone(),
                Side::Black => palette.black.clone(),
            };
            commands.spawn((
                Stone { point, side },
                Mesh3d(palette.stone_mesh.clone()),
                MeshMaterial3d(material),
                stone_transform(size, point),
            ));
        }
    }
    for (entity, _) in spare {
        commands.entity(entity).despawn();
    }
}

/// Redraws the highlights when the view changes.
fn draw_highlights(
    mut commands: Commands,
    view: Res<BoardView>,
    animating: Res<Animating>,
    palette: Res<Palette>,
    old: Query<Entity, With<Highlight>>,
) {
    for entity in &old {
        commands.entity(entity).despawn();
    }
    if animating.0 {
        return;
    }
    let size = view.size;
    for pair in view.last_path.windows(2) {
        let a = point_position(size, pair[0]);
        let b = point_position(size, pair[1]);
        let d = b - a;
        commands.spawn((
            Highlight,
            Mesh3d(palette.unit_box.clone()),
            MeshMaterial3d(palette.last.clone()),
            Transform::from_translation((a + b) / 2.0 + Vec3::Y * 0.005)
                .with_rotation(Quat::from_rotation_y(d.x.atan2(d.z)))
                .with_scale(Vec3::new(0.07, 0.008, d.length())),
        ));
    }
    // Where the last turn captured: a small grey cross on the empty point (a capture target
    // is a vermillion disc in a ring, so the two never look alike).
    for p in view.last_captured.points(size) {
        for turn in [0.785_f32, -0.785] {
            commands.spawn((
                Highlight,
                Mesh3d(palette.bar.clone()),
                MeshMaterial3d(palette.ghost.clone()),
                Transform::from_translation(point_position(size, p) + Vec3::Y * 0.01)
                    .with_rotation(Quat::from_rotation_y(turn))
                    .with_scale(Vec3::new(1.0, 0.5, 0.6)),
            ));
        }
    }
    // The engine's hint: an arrow along the suggested turn's path.
    if let Some((&last, _)) = view.hint.split_last() {
        for pair in view.hint.windows(2) {
            let a = point_position(size, pair[0]);
            let b = point_position(size, pair[1]);
            let d = b - a;
            let end = pair[1] == last;
            // The last segment stops where the arrowhead begins.
            let len = if end { d.length() - 0.3 } else { d.length() };
            let dir = d.normalize_or_zero();
            commands.spawn((
                Highlight,
                Mesh3d(palette.unit_box.clone()),
                MeshMaterial3d(palette.hint.clone()),
                Transform::from_translation(a + dir * len / 2.0 + Vec3::Y * 0.05)
                    .with_rotation(Quat::from_rotation_y(d.x.atan2(d.z)))
                    .with_scale(Vec3::new(0.11, 0.02, len)),
            ));
            if end {
                // A cone lying flat, its tip on the destination point.
                commands.spawn((
                    Highlight,
                    Mesh3d(palette.arrow_head.clone()),
                    MeshMaterial3d(palette.hint.clone()),
                    Transform::from_translation(b - dir * 0.17 + Vec3::Y * 0.05)
                        .with_rotation(Quat::from_rotation_arc(Vec3::Y, dir)),
                ));
            }
        }
    }
    let flat = Quat::IDENTITY;
    let mut spawn =
        |mesh: &Handle<Mesh>, material: &Handle<StandardMaterial>, at: Vec3, rotation: Quat| {
            commands.spawn((
                Highlight,
                Mesh3d(mesh.clone()),
                MeshMaterial3d(material.clone()),
                Transform::from_translation(at).with_rotation(rotation),
            ));
        };
    for &p in &view.last_path {
        spawn(
            &palette.dot,
            &palette.last,
            point_position(size, p) + Vec3::Y * 0.006,
            flat,
        );
    }
    for p in view.must_capture.points(size) {
        spawn(
            &palette.ring,
            &palette.must,
            point_position(size, p) + Vec3::Y * 0.02,
            flat,
        );
    }
    if let Some(p) = view.selected {
        spawn(
            &palette.ring,
            &palette.selected,
            point_position(size, p) + Vec3::Y * 0.03,
            flat,
        );
    }
    for &(p, capture) in &view.targets {
        let material = if capture {
            &palette.capture
        } else {
            &palette.paika
        };
        if capture {
            spawn(
                &palette.disc,
                material,
                point_position(size, p) + Vec3::Y * 0.012,
                flat,
            );
        }
        spawn(
            &palette.small_ring,
            material,
            point_position(size, p) + Vec3::Y * 0.02,
            flat,
        );
    }
    if let Some((approach, withdrawal)) = view.choice {
        for p in approach.points(size) {
            spawn(
                &palette.ring,
                &palette.approach,
                point_position(size, p) + Vec3::Y * 0.03,
                flat,
            );
        }
        for p in withdrawal.points(size) {
            spawn(
                &palette.ring,
                &palette.withdrawal,
                point_position(size, p) + Vec3::Y * 0.03,
                flat,
            );
        }
    }
    for p in view.visited.points(size) {
        spawn(
            &palette.dot,
            &palette.visited,
            point_position(size, p) + Vec3::Y * 0.008,
            flat,
        );
    }
    // The forbidden direction, drawn only where the line goes on: off the board's edge it
    // would cover the coordinates, and no step goes there anyway.
    if let Some((p, dir)) = view
        .forbidden
        .filter(|(p, dir)| size.geometry().neighbour(*p, *dir).is_some())
    {
        let (dx, dy) = dir.offset();
        let d = Vec3::new(f32::from(dx), 0.0, -f32::from(dy)).normalize();
        let at = point_position(size, p) + d * 0.5 + Vec3::Y * 0.015;
        let yaw = d.x.atan2(d.z);
        // A red cross across the forbidden direction.
        spawn(
            &palette.bar,
            &palette.forbidden,
            at,
            Quat::from_rotation_y(yaw + 0.785),
        );
        spawn(
            &palette.bar,
            &palette.forbidden,
            at,
            Quat::from_rotation_y(yaw - 0.785),
        );
    }
}

/// The board-rendering plugin.
pub fn plugin(app: &mut App) {
    app.init_resource::<BuiltSize>()
        .add_systems(Startup, (setup_palette, spawn_lights))
        .add_systems(
            Update,
            (
                build_board,
                sync_stones,
                contrast::apply_contrast,
                draw_highlights
                    .run_if(resource_changed::<BoardView>.or_else(resource_changed::<Animating>)),
            )
                .chain()
                .after(FlowSet),
        )
        .add_systems(PostUpdate, place_labels.before(bevy::ui::UiSystems::Layout));
}

#[cfg(test)]
mod tests;

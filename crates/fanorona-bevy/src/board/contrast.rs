//! The board's part of the high-contrast look (the setting `high_contrast`): a plain grey
//! board instead of the wood, black lines twice as wide and larger point marks, pure white
//! stones, and a white ring on top of every black stone, so the two sides differ by a mark and
//! by lightness, not only by colour. Turning it off restores the usual materials.

use bevy::prelude::*;
use fanorona_core::Color as Side;

use super::{Palette, Stone};
use crate::settings::Settings;

/// A carved line of the board.
#[derive(Component)]
pub struct GrooveLine;

/// The small hole at a point.
#[derive(Component)]
pub struct PointHole;

/// The white ring on a black stone in the high-contrast look.
#[derive(Component)]
pub struct StoneMark;

/// How much wider the lines are in the high-contrast look.
pub const LINE_WIDTH: f32 = 2.2;
/// How much larger the point holes are in the high-contrast look.
pub const HOLE_SIZE: f32 = 1.8;

/// The usual materials, kept while the high-contrast ones are shown.
#[derive(Resource, Clone)]
pub(super) struct UsualLook {
    wood: StandardMaterial,
    rim: StandardMaterial,
    groove: StandardMaterial,
    white: StandardMaterial,
    black: StandardMaterial,
}

/// The ring's mesh and material.
#[derive(Resource, Clone)]
pub(super) struct MarkAssets {
    mesh: Handle<Mesh>,
    material: Handle<StandardMaterial>,
}

fn high_contrast_materials(usual: &UsualLook) -> [StandardMaterial; 5] {
    [
        StandardMaterial {
            base_color: Color::srgb(0.5, 0.5, 0.5),
            base_color_texture: None,
            perceptual_roughness: 0.9,
            reflectance: 0.1,
            ..usual.wood.clone()
        },
        StandardMaterial {
            base_color: Color::srgb(0.3, 0.3, 0.3),
            base_color_texture: None,
            ..usual.rim.clone()
        },
        StandardMaterial {
            base_color: Color::BLACK,
            perceptual_roughness: 1.0,
            reflectance: 0.0,
            ..usual.groove.clone()
        },
        StandardMaterial {
            base_color: Color::WHITE,
            emissive: LinearRgba::rgb(0.35, 0.35, 0.35),
            ..usual.white.clone()
        },
        StandardMaterial {
            base_color: Color::BLACK,
            reflectance: 0.2,
            clearcoat: 0.0,
            ..usual.black.clone()
        },
    ]
}

/// Switches the board's materials and marks with the setting; keeps new lines, holes and
/// black stones in the look.
pub(super) fn apply_contrast(
    mut commands: Commands,
    settings: Option<Res<Settings>>,
    palette: Res<Palette>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut meshes: ResMut<Assets<Mesh>>,
    usual: Option<Res<UsualLook>>,
    marks: Option<Res<MarkAssets>>,
    mut last: Local<Option<bool>>,
    mut lines: Query<&mut Transform, (With<GrooveLine>, Without<PointHole>)>,
    mut holes: Query<&mut Transform, (With<PointHole>, Without<GrooveLine>)>,
    stones: Query<(Entity, &Stone, Option<&Children>)>,
    marked: Query<(), With<StoneMark>>,
) {
    let high = settings.is_some_and(|s| s.high_contrast);
    let Some(usual) = usual else {
        let keep = |h: &Handle<StandardMaterial>| materials.get(h).cloned().unwrap_or_default();
        commands.insert_resource(UsualLook {
            wood: keep(&palette.wood),
            rim: keep(&palette.rim),
            groove: keep(&palette.groove),
            white: keep(&palette.white),
            black: keep(&palette.black),
        });
        commands.insert_resource(MarkAssets {
            mesh: meshes.add(Torus::new(0.42, 0.68)),
            material: materials.add(StandardMaterial {
                base_color: Color::WHITE,
                unlit: true,
                ..default()
            }),
        });
        return;
    };
    if *last != Some(high) {
        *last = Some(high);
        let chosen = if high {
            high_contrast_materials(&usual)
        } else {
            [
                usual.wood.clone(),
                usual.rim.clone(),
                usual.groove.clone(),
                usual.white.clone(),
                usual.black.clone(),
            ]
        };
        let handles = [
            &palette.wood,
            &palette.rim,
            &palette.groove,
            &palette.white,
            &palette.black,
        ];
        for (handle, material) in handles.into_iter().zip(chosen) {
            if let Some(mut m) = materials.get_mut(handle) {
                *m = material;
            }
        }
    }
    let (line, hole) = if high {
        (LINE_WIDTH, HOLE_SIZE)
    } else {
        (1.0, 1.0)
    };
    for mut t in &mut lines {
        if t.scale.x != line {
            t.scale.x = line;
        }
    }
    for mut t in &mut holes {
        let wanted = Vec3::new(hole, 1.0, hole);
        if t.scale != wanted {
            t.scale = wanted;
        }
    }
    let Some(marks) = marks else {
        return;
    };
    for (entity, stone, children) in &stones {
        let mark = children.and_then(|c| c.iter().find(|c| marked.contains(*c)));
        match (high && stone.side == Side::Black, mark) {
            (true, None) => {
                // On top of the stone (in the stone's own scale: radius 1, flattened).
                let ring = commands
                    .spawn((
                        StoneMark,
                        Mesh3d(marks.mesh.clone()),
                        MeshMaterial3d(marks.material.clone()),
                        Transform::from_xyz(0.0, 0.92, 0.0),
                    ))
                    .id();
                commands.entity(entity).add_child(ring);
            }
            (false, Some(ring)) => commands.entity(ring).despawn(),
            _ => {}
        }
    }
}

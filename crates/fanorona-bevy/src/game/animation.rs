//! Animation: stones slide along their path one step at a time, then the stones that step
//! captures rise, shrink and leave. The engine's turns go through the same queue.

use std::collections::VecDeque;

use bevy::prelude::*;
use fanorona_core::Point;

use crate::board::{STONE_HALF_HEIGHT, STONE_RADIUS, Stone, stone_position};
use crate::game::flow::{Animating, BoardJump, BoardView, FlowSet, StepPlayed};
use crate::settings::Settings;

/// Steps waiting to be shown, and the one being shown.
#[derive(Resource, Default)]
struct Queue {
    waiting: VecDeque<StepPlayed>,
    current: Option<Current>,
}

struct Current {
    step: StepPlayed,
    sliding: bool,
    t: f32,
    moving: Option<Entity>,
    captured: Vec<Entity>,
}

/// The systems that take new steps in and move stones.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AnimSet;

fn enqueue(
    mut played: MessageReader<StepPlayed>,
    mut queue: ResMut<Queue>,
    mut animating: ResMut<Animating>,
) {
    queue.waiting.extend(played.read().copied());
    let busy = queue.current.is_some() || !queue.waiting.is_empty();
    if animating.0 != busy {
        animating.0 = busy;
    }
}

fn find(stones: &Query<(Entity, &mut Stone, &mut Transform)>, point: Point) -> Option<Entity> {
    stones
        .iter()
        .find(|(_, s, _)| s.point == point)
        .map(|(e, _, _)| e)
}

fn animate(
    mut commands: Commands,
    time: Res<Time>,
    settings: Res<Settings>,
    view: Res<BoardView>,
    mut queue: ResMut<Queue>,
    mut animating: ResMut<Animating>,
    mut stones: Query<(Entity, &mut Stone, &mut Transform)>,
) {
    let duration = settings.animation.step_seconds();
    let size = view.size;
    let mut budget = time.delta_secs();
    loop {
        if queue.current.is_none() {
            let Some(step) = queue.waiting.pop_front() else {
                break;
            };
            let moving = find(&stones, step.from);
            let captured = step
                .captured
                .points(size)
                .filter_map(|p| find(&stones, p))
                .collect();
            queue.current = Some(Current {
                step,
                sliding: true,
                t: 0.0,
                moving,
                captured,
            });
        }
        let Some(current) = queue.current.as_mut() else {
            break;
        };
        let phase = if current.sliding {
            duration
        } else {
            duration * 0.8
        };
        let dt = budget.min(phase - current.t).max(0.0);
        current.t += dt;
        budget -= dt;
        let progress = if phase > 0.0 {
            (current.t / phase).clamp(0.0, 1.0)
        } else {
            1.0
        };
        let eased = progress * progress * (3.0 - 2.0 * progress);
        if current.sliding {
            if let Some((_, mut stone, mut transform)) =
                current.moving.and_then(|e| stones.get_mut(e).ok())
            {
                let a = stone_position(size, current.step.from);
                let b = stone_position(size, current.step.to);
                let lift = (progress * std::f32::consts::PI).sin() * 0.25;
                transform.translation = a.lerp(b, eased) + Vec3::Y * lift;
                if progress >= 1.0 {
                    stone.point = current.step.to;
                }
            }
            if progress >= 1.0 {
                current.sliding = false;
                current.t = 0.0;
            }
        } else {
            for &entity in &current.captured {
                if let Ok((_, _, mut transform)) = stones.get_mut(entity) {
                    let shrink = 1.0 - eased;
                    transform.scale = Vec3::new(STONE_RADIUS, STONE_HALF_HEIGHT, STONE_RADIUS)
                        * shrink.max(0.001);
                    transform.translation.y = STONE_HALF_HEIGHT + eased * 0.9;
                }
            }
            if progress >= 1.0 {
                for &entity in &current.captured {
                    commands.entity(entity).despawn();
                }
                queue.current = None;
            }
        }
        if budget <= 0.0 && phase > 0.0 {
            break;
        }
    }
    let busy = queue.current.is_some() || !queue.waiting.is_empty();
    if animating.0 != busy {
        animating.0 = busy;
    }
}

/// Drops queued animations when the board jumps (new game, undo, load, looking back).
fn reset_on_jump(
    mut jumps: MessageReader<BoardJump>,
    mut queue: ResMut<Queue>,
    mut animating: ResMut<Animating>,
) {
    if jumps.read().count() > 0 {
        queue.waiting.clear();
        queue.current = None;
        animating.0 = false;
    }
}

/// The animation plugin.
pub fn plugin(app: &mut App) {
    app.init_resource::<Queue>().add_systems(
        Update,
        (reset_on_jump, enqueue, animate)
            .chain()
            .in_set(AnimSet)
            .after(FlowSet),
    );
}

//! Headless tests of the camera: every board fits the room the panels leave.

#![allow(
    unused_imports,
    reason = "the imports shared by the client's test modules"
)]

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use fanorona_core::{
    Bitboard, BoardSize, Color as Side, Direction, EndReason, Game, Point, Position, StepKind, Turn,
};

use crate::cli::LaunchOptions;
use crate::game::engine::{Engine, EngineAdapter, MinThink, Thinking};
use crate::game::flow::{BoardView, Command, Match, Player, StepPlayed};
use crate::game::persist::{GamesDir, Persist, PersistStatus, parse_record_text, record_text};
use crate::settings::{Settings, load_settings, save_settings};
use crate::test_support::*;

#[test]
fn every_board_size_is_offered_and_the_camera_fits_it() {
    use crate::board::board_extent;
    use crate::board::camera::{Orbit, board_bounds, board_room};
    use crate::ui::layout::Panels;
    let choices = crate::settings::board_choices();
    assert_eq!(choices.len(), 15);
    assert_eq!(choices[0], BoardSize::STANDARD);
    for size in BoardSize::ALL {
        assert!(choices.contains(&size), "{size} is offered");
    }
    // Cycling the menu's board setting visits every size and comes back.
    let mut settings = Settings::default();
    let mut seen = vec![settings.board_size()];
    for _ in 0..15 {
        crate::ui::Choice::Board.cycle(&mut settings);
        seen.push(settings.board_size());
    }
    assert_eq!(seen[15], BoardSize::STANDARD);
    seen.pop();
    seen.sort_by_key(|s| (s.rows(), s.cols()));
    seen.dedup();
    assert_eq!(seen.len(), 15);
    let layouts = [
        Panels::GAME,
        Panels::shown(false, true),
        Panels::shown(true, false),
        Panels::shown(true, true),
    ];
    for size in BoardSize::ALL {
        for window in [
            Vec2::new(640.0, 480.0),
            Vec2::new(800.0, 600.0),
            Vec2::new(1024.0, 768.0),
            Vec2::new(1280.0, 720.0),
            Vec2::new(1366.0, 768.0),
            Vec2::new(1920.0, 1080.0),
            Vec2::new(2560.0, 1080.0),
            Vec2::new(3840.0, 2160.0),
            Vec2::new(1000.0, 1200.0),
        ] {
            for panels in layouts {
                let room = board_room(window, panels);
                for yaw in [0.0, std::f32::consts::PI] {
                    let extent = board_extent(size);
                    let orbit = Orbit::home(extent, window, panels, yaw);
                    let (lo, hi) = board_bounds(&orbit, extent, window);
                    let tol = 0.01;
                    let at = format!("{size} in {window} with {panels:?}");
                    assert!(
                        lo.x >= room.min.x - tol
                            && hi.x <= room.max.x + tol
                            && lo.y >= room.min.y - tol
                            && hi.y <= room.max.y + tol,
                        "{at}: board {lo}..{hi}, room {room:?}"
                    );
                    // It fills the room: nearly all of its width or of its height.
                    let fill = ((hi.x - lo.x) / room.width()).max((hi.y - lo.y) / room.height());
                    assert!(fill > 0.88, "{at}: fills only {fill}");
                    // Centred in the room.
                    assert!(
                        ((lo.x + hi.x) - (room.min.x + room.max.x)).abs() < 0.02,
                        "{at}"
                    );
                    assert!(
                        ((lo.y + hi.y) - (room.min.y + room.max.y)).abs() < 0.03,
                        "{at}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_review_graph_and_the_panels_never_cover_the_board() {
    // Worked out by hand from the panels' sizes (`ui.rs`, `review.rs`): in an 800x600 window
    // the UI scale is min(800/1280, 600/720) = 0.625. The left panel ends at (12 + 300) * 0.625
    // = 195 px, the list of turns starts at 800 - (12 + 230) * 0.625 = 648.75 px and the graph's
    // top is (10 + 96) * 0.625 = 66.25 px above the bottom: in normalized device coordinates
    // x from 2 * 195 / 800 - 1 = -0.5125 to 2 * 648.75 / 800 - 1 = 0.621875 and y from
    // 2 * 66.25 / 600 - 1 = -0.779167 up. At 1280x720 (scale 1): x from -0.5125 to
    // 2 * 1038 / 1280 - 1 = 0.621875, y from 2 * 106 / 720 - 1 = -0.705556. At 1920x1200 the
    // scale is min(1.5, 1.6667) = 1.5: x from 2 * 468 / 1920 - 1 = -0.5125, to the same 0.621875,
    // y from 2 * 159 / 1200 - 1 = -0.735.
    use crate::board::board_extent;
    use crate::board::camera::{Orbit, board_bounds};
    use crate::ui::layout::Panels;
    for (window, x_min, x_max, y_min) in [
        (Vec2::new(800.0, 600.0), -0.5125, 0.621875, -0.779167),
        (Vec2::new(1280.0, 720.0), -0.5125, 0.621875, -0.705556),
        (Vec2::new(1920.0, 1200.0), -0.5125, 0.621875, -0.735),
    ] {
        for size in BoardSize::ALL {
            let extent = board_extent(size);
            let orbit = Orbit::home(extent, window, Panels::shown(false, true), 0.0);
            let (lo, hi) = board_bounds(&orbit, extent, window);
            assert!(
                lo.x >= x_min && hi.x <= x_max && lo.y >= y_min && hi.y <= 1.0,
                "{size} in {window}: {lo}..{hi}"
            );
        }
    }
    // The tutorial's panel (330 wide) replaces the list of turns: at 1280x720 it starts at
    // 1280 - 342 = 938 px, x = 2 * 938 / 1280 - 1 = 0.465625.
    let window = Vec2::new(1280.0, 720.0);
    let extent = board_extent(BoardSize::new(5, 5).expect("5x5"));
    let orbit = Orbit::home(extent, window, Panels::shown(true, false), 0.0);
    let (_, hi) = board_bounds(&orbit, extent, window);
    assert!(hi.x <= 0.465625, "{hi}");
}

#[test]
fn the_high_contrast_board_marks_black_stones_and_widens_the_lines() {
    use crate::board::contrast::{GrooveLine, LINE_WIDTH, StoneMark};
    use crate::board::{Palette, Stone};
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::asset::AssetPlugin::default()))
        .init_asset::<Mesh>()
        .init_asset::<StandardMaterial>()
        .init_asset::<Image>()
        .insert_resource(Settings::default())
        .init_resource::<crate::game::flow::Animating>()
        .init_resource::<UiScale>()
        .insert_resource(
            Match::new(Position::standard(), [Player::Human, Player::Human], 1).board_view(),
        )
        .add_plugins(crate::board::plugin);
    app.update();
    app.update();
    let marks = |app: &mut App| {
        app.world_mut()
            .query_filtered::<(), With<StoneMark>>()
            .iter(app.world())
            .count()
    };
    let wood = |app: &App| {
        let palette = app.world().resource::<Palette>();
        app.world()
            .resource::<Assets<StandardMaterial>>()
            .get(&palette.wood)
            .expect("the wood")
            .clone()
    };
    assert_eq!(marks(&mut app), 0);
    assert!(wood(&app).base_color_texture.is_some());
    app.world_mut().resource_mut::<Settings>().high_contrast = true;
    app.update();
    app.update();
    // The 22 black stones of the start carry a ring each, the white ones none.
    assert_eq!(marks(&mut app), 22);
    let marked_sides: Vec<Side> = app
        .world_mut()
        .query::<(&Stone, &Children)>()
        .iter(app.world())
        .map(|(s, _)| s.side)
        .collect();
    assert!(marked_sides.iter().all(|s| *s == Side::Black));
    // The board is plain grey, the lines black and wider, white stones pure white.
    let plain = wood(&app);
    assert!(plain.base_color_texture.is_none());
    assert_eq!(plain.base_color, Color::srgb(0.5, 0.5, 0.5));
    let widths: Vec<f32> = app
        .world_mut()
        .query_filtered::<&Transform, With<GrooveLine>>()
        .iter(app.world())
        .map(|t| t.scale.x)
        .collect();
    assert!(!widths.is_empty() && widths.iter().all(|w| *w == LINE_WIDTH));
    let palette_white = app.world().resource::<Palette>().white.clone();
    let white = app
        .world()
        .resource::<Assets<StandardMaterial>>()
        .get(&palette_white)
        .expect("white")
        .base_color;
    assert_eq!(white, Color::WHITE);
    // Off again: the wood and no marks.
    app.world_mut().resource_mut::<Settings>().high_contrast = false;
    app.update();
    app.update();
    assert_eq!(marks(&mut app), 0);
    assert!(wood(&app).base_color_texture.is_some());
}

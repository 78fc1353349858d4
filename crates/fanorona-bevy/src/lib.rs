//! The Fanorona 3D client, built on Bevy.
//!
//! One folder per feature, each with its plugin: [`game`] (the game being played: flow, input,
//! engine, clocks, animation, sound, export, persistence), [`board`] (the 3D board and the
//! camera), [`analysis`] (hint, analysis mode, review), the [`tutorial`], the file
//! [`browser`], the [`puzzles`] screen, the endgame [`trainer`], retrying the [`mistakes`] of a
//! reviewed game, the opening [`explorer`], the level slider and the player's [`rating`], the
//! [`ui`] (layout, theme, widgets, menu, game panels), [`access`]ibility (keyboard play, screen
//! reader, high contrast, text size) and the position [`editor`]; plus [`settings`],
//! the texts in every language ([`i18n`], message files in `locales/`),
//! the command line ([`cli`]) and batch mode ([`batch`]) for screenshots and frame timing.
//! Screens are the [`Screen`] states. The rules come only from `fanorona-core`, the engine
//! only from `fanorona-ai`.

#![allow(
    elided_lifetimes_in_paths,
    reason = "Bevy system parameters (Res, Query, Commands) are written without lifetimes by convention"
)]
#![allow(
    clippy::type_complexity,
    clippy::too_many_arguments,
    reason = "Bevy systems take their data as parameters and queries with filters: long by nature"
)]

pub mod access;
pub mod analysis;
pub mod batch;
pub mod board;
pub mod browser;
pub mod cli;
pub mod editor;
pub mod explorer;
pub mod game;
pub mod i18n;
pub mod mistakes;
pub mod puzzles;
pub mod rating;
pub mod settings;
pub mod trainer;
pub mod tutorial;
pub mod ui;

#[cfg(test)]
mod test_support;

use std::time::Duration;

use bevy::prelude::*;
use bevy::window::{PresentMode, WindowResolution};
use bevy::winit::{UpdateMode, WinitSettings};
use fanorona_core::{Game, Position};

use crate::cli::LaunchOptions;
use crate::game::flow::{Match, Player, players_for};
use crate::game::persist::{GamesDir, default_games_dir, load_game};
use crate::settings::{
    AnimationSpeed, Mode, Settings, SettingsFile, default_settings_path, load_settings,
};

/// The screens of the client.
#[derive(States, Default, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Screen {
    /// New game settings and saved games.
    #[default]
    Menu,
    /// The board and the game panels.
    Playing,
    /// The position editor.
    Editor,
}

/// Every plugin of the client except Bevy's own (used by the app and by tests).
pub fn client_plugins(app: &mut App) {
    app.add_plugins((
        i18n::plugin,
        game::plugin,
        board::plugin,
        board::camera::plugin,
        analysis::plugin,
        analysis::review::plugin,
        ui::plugin,
        tutorial::plugin,
        browser::plugin,
    ))
    // The features beyond playing (a tuple holds at most fifteen plugins).
    .add_plugins((
        access::plugin,
        editor::plugin,
        trainer::plugin,
        mistakes::plugin,
        puzzles::plugin,
        explorer::plugin,
        rating::plugin,
    ));
}

/// The game to show first, from `--position` or `--game`/`--turn`.
///
/// # Errors
///
/// A message naming the bad position string or record file.
pub fn initial_game(options: &LaunchOptions) -> Result<Option<Game>, String> {
    if let Some(text) = &options.position {
        // i18n: not text (a start-up error on the terminal)
        let position = Position::from_fen(text).map_err(|e| format!("--position {text:?}: {e}"))?;
        return Ok(Some(Game::new(position)));
    }
    let Some(path) = &options.game else {
        return Ok(None);
    };
    let full = load_game(path).map_err(|e| e.to_string())?;
    let Some(turn) = options.turn else {
        return Ok(Some(full));
    };
    if turn > full.turns().len() {
        return Err(format!(
            // i18n: not text (a start-up error on the terminal)
            "--turn {turn}: {} has only {} turns",
            path.display(),
            full.turns().len()
        ));
    }
    let mut game = Game::new(*full.start());
    for t in &full.turns()[..turn] {
        game.play(t)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(Some(game))
}

/// The window's resolution for a size in logical pixels: at the screen's scale factor (`None`:
/// a high-DPI screen draws it with more pixels), or at the one given (the same picture on
/// every screen).
pub fn window_resolution((width, height): (u32, u32), scale: Option<f32>) -> WindowResolution {
    match scale {
        // Bevy's `WindowResolution::new` takes physical pixels; without an override the window
        // is created at that size in logical pixels.
        None => WindowResolution::new(width, height),
        Some(f) => WindowResolution::new(
            (width as f32 * f).round() as u32,
            (height as f32 * f).round() as u32,
        )
        .with_scale_factor_override(f),
    }
}

/// Builds the client app for these options.
///
/// # Errors
///
/// A message when the position or record to open is not valid.
pub fn build_app(options: &LaunchOptions) -> Result<App, String> {
    let batch = options.is_batch();
    let game = initial_game(options)?;
    let (settings, settings_file, games_dir) = if batch {
        // Batch mode ignores the user's files: the same picture on every machine.
        let settings = Settings {
            mode: if options.engines {
                Mode::EngineVsEngine
            } else {
                Mode::TwoPlayers
            },
            animation: if options.engines {
                AnimationSpeed::Fast
            } else {
                AnimationSpeed::Off
            },
            // The same picture on every machine: English unless asked.
            language: Some(options.lang.unwrap_or(i18n::Language::English)),
            ..Settings::default()
        };
        (settings, None, None)
    } else {
        let path = default_settings_path();
        let settings = match path.as_deref().map(load_settings) {
            Some(Ok(s)) => s,
            Some(Err(e)) => {
                eprintln!("fanorona-3d: {e}; using default settings");
                Settings::default()
            }
            None => Settings::default(),
        };
        let mut settings = settings;
        if options.engines {
            settings.mode = Mode::EngineVsEngine;
        }
        if options.lang.is_some() {
            settings.language = options.lang;
        }
        (settings, path, default_games_dir())
    };
    let (width, height) = options.size.unwrap_or((1280, 720));
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    // i18n: not text (the window's title: the game's name in every language)
                    title: "Fanorona".into(),
                    // Batch mode draws at exactly the size asked for (the same picture on
                    // every screen); a player's window follows the screen's scale factor, so
                    // on a high-DPI screen text and board stay sharp at their usual size.
                    resolution: window_resolution(
                        (width, height),
                        options.scale_factor.or(batch.then_some(1.0)),
                    ),
                    present_mode: if options.benchmark_frames.is_some() {
                        PresentMode::AutoNoVsync
                    } else {
                        PresentMode::AutoVsync
                    },
                    ..default()
                }),
                ..default()
            })
            .set(bevy::log::LogPlugin {
                // i18n: not text (a log filter)
                filter: "wgpu=error,naga=warn,bevy_render=warn,bevy_winit=warn".into(),
                ..default()
            }),
    );
    app.insert_resource(settings.clone())
        .insert_resource(SettingsFile(settings_file))
        .insert_resource(GamesDir(games_dir))
        .init_state::<Screen>();
    client_plugins(&mut app);
    let start_playing = options.tutorial.is_none() && (game.is_some() || batch || options.engines);
    if start_playing {
        let players = players_for(&settings);
        let game = match game {
            Some(game) => game,
            None => Game::new(settings.start_position()),
        };
        let mut m = Match::from_game(game, players, settings.level());
        if batch && !options.engines {
            m.set_players([Player::Human, Player::Human], settings.level());
        }
        for name in &options.clicks {
            let point = m.size().parse_point(name).ok_or_else(|| {
                format!(
                    // i18n: not text (a start-up error on the terminal)
                    "--clicks: {name:?} is not a point of the {} board",
                    m.size()
                )
            })?;
            m.apply(&game::flow::Command::Click(point));
        }
        app.insert_resource(m);
        if !options.menu {
            app.insert_state(Screen::Playing);
        }
    }
    if let Some(lesson) = options.tutorial {
        tutorial::begin(&mut app, usize::from(lesson.saturating_sub(1)));
        if !options.menu {
            app.insert_state(Screen::Playing);
        }
    }
    // A record opened from the command line is reviewed (in batch mode only when asked).
    if options.review || (options.game.is_some() && !batch && options.turn.is_none()) {
        app.world_mut()
            .resource_mut::<analysis::review::Review>()
            .enabled = true;
    }
    if let Some(dir) = &options.browse {
        let games = app.world().resource::<GamesDir>().0.clone();
        let mut browser = app.world_mut().resource_mut::<browser::Browser>();
        browser.apply(&browser::BrowserCommand::Open, games.as_deref());
        if let Some(dir) = dir {
            browser.apply(&browser::BrowserCommand::Go(dir.clone()), None);
        }
    }
    if options.analysis {
        app.world_mut().resource_mut::<analysis::Analysis>().enabled = true;
    }
    // The training screens replace the game set up above in their first frame.
    if options.puzzles {
        app.world_mut().write_message(puzzles::PuzzleCommand::Open);
    }
    if options.trainer {
        app.world_mut().write_message(trainer::TrainerCommand::Open);
    }
    if batch {
        app.insert_resource(WinitSettings {
            focused_mode: UpdateMode::Continuous,
            unfocused_mode: UpdateMode::Continuous,
        })
        .insert_resource(batch::Batch {
            screenshot: options.screenshot.clone(),
            benchmark_frames: options.benchmark_frames,
            timeout: Duration::from_secs(options.timeout),
            warmup: Duration::from_secs(options.warmup),
        })
        .add_plugins(batch::plugin);
    }
    Ok(app)
}

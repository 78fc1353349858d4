//! Headless tests of the file browser.

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

// ---------------------------------------------------------------- the file browser

#[test]
fn the_browser_lists_folders_then_records() {
    use crate::browser::{EntryKind, list_dir};
    let dir = temp_dir("browser-list");
    for folder in ["b-games", "A-old", ".cache"] {
        std::fs::create_dir(dir.join(folder)).expect("folder");
    }
    for file in [
        "x.fgn",
        "Y.SGF",
        "z.json",
        "w.jsonl",
        "v.ndjson",
        "u.pgn",
        "notes.txt",
        ".hidden.fgn",
        "fgn",
    ] {
        std::fs::write(dir.join(file), "").expect("file");
    }
    let listing = list_dir(&dir);
    let names: Vec<(&str, EntryKind)> = listing
        .entries
        .iter()
        .map(|e| (e.name.as_str(), e.kind))
        .collect();
    assert_eq!(
        names,
        [
            ("..", EntryKind::Parent),
            ("A-old", EntryKind::Folder),
            ("b-games", EntryKind::Folder),
            ("u.pgn", EntryKind::Record),
            ("v.ndjson", EntryKind::Record),
            ("w.jsonl", EntryKind::Record),
            ("x.fgn", EntryKind::Record),
            ("Y.SGF", EntryKind::Record),
            ("z.json", EntryKind::Record),
        ]
    );
    // notes.txt, the file named `fgn`, .hidden.fgn and .cache.
    assert_eq!(listing.left_out, 4);
    assert_eq!(listing.entries[0].path, dir.parent().expect("parent"));
    assert!(listing.error.is_none());
    // A folder that cannot be read says why and still offers the way up.
    let missing = list_dir(&dir.join("missing"));
    assert!(
        missing
            .error
            .as_ref()
            .is_some_and(|e| e.to_string().contains("missing")),
        "{missing:?}"
    );
    assert_eq!(missing.entries.len(), 1);
    assert_eq!(missing.entries[0].kind, EntryKind::Parent);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game screen with the file browser, its keys and its buttons, the loader, and the games
/// folder `games`.
fn browser_app(games: PathBuf) -> App {
    use bevy::input::keyboard::KeyboardInput;
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin))
        .insert_resource(english())
        .insert_resource(MinThink(Duration::ZERO))
        .insert_resource(Match::new(
            Position::standard(),
            [Player::Human, Player::Human],
            1,
        ))
        .insert_resource(GamesDir(Some(games)))
        .init_state::<crate::Screen>()
        .insert_state(crate::Screen::Playing)
        .init_resource::<ButtonInput<KeyCode>>()
        .init_resource::<ButtonInput<MouseButton>>()
        .add_message::<KeyboardInput>()
        .add_plugins((
            crate::game::flow::plugin,
            crate::game::persist::plugin,
            crate::game::engine::plugin,
            crate::game::input::plugin,
            crate::browser::plugin,
            crate::i18n::plugin,
        ));
    app.update();
    app
}

fn browser(app: &App) -> &crate::browser::Browser {
    app.world().resource::<crate::browser::Browser>()
}

fn selected_name(app: &App) -> String {
    browser(app)
        .selected_entry()
        .map(|e| e.name.clone())
        .unwrap_or_default()
}

#[test]
fn a_record_is_opened_from_the_browser_by_keys() {
    use bevy::input::keyboard::Key;
    let root = temp_dir("browser-keys");
    let games = root.join("games");
    let deep = root.join("records").join("2026");
    std::fs::create_dir_all(&games).expect("games");
    std::fs::create_dir_all(&deep).expect("records");
    std::fs::write(deep.join("bad.fgn"), "1. a1-a2 *\n").expect("write");
    // The first two turns of the Boardspace sample, as in `records_of_every_format_open`.
    std::fs::write(
        deep.join("good.fgn"),
        "[Result \"*\"]\n\n1. f2-e3A f3-f2A *\n",
    )
    .expect("write");
    let mut app = browser_app(games.clone());
    click(&mut app, "d2");
    click(&mut app, "e3");
    assert_eq!(turns(&app), ["d2-e3A"]);
    // `O` opens the browser in the games folder, which is empty but for the way up.
    press_key(&mut app, KeyCode::KeyO, Key::Character("o".into()));
    assert!(browser(&app).open);
    assert_eq!(browser(&app).listing.dir, games);
    assert_eq!(selected_name(&app), "..");
    // Up (`Backspace`) to the root, where the folder just left is selected.
    press_key(&mut app, KeyCode::Backspace, Key::Backspace);
    assert_eq!(browser(&app).listing.dir, root);
    assert_eq!(selected_name(&app), "games");
    // Keys went to the browser, not to the game: Backspace did not undo.
    assert_eq!(turns(&app), ["d2-e3A"]);
    press_key(&mut app, KeyCode::KeyR, Key::Character("r".into()));
    assert_eq!(selected_name(&app), "records", "a letter jumps");
    press_key(&mut app, KeyCode::ArrowRight, Key::ArrowRight);
    assert_eq!(browser(&app).listing.dir, root.join("records"));
    assert_eq!(selected_name(&app), "2026");
    press_key(&mut app, KeyCode::Enter, Key::Enter);
    assert_eq!(browser(&app).listing.dir, deep);
    // `..`, bad.fgn, good.fgn: the first below `..` is selected.
    assert_eq!(selected_name(&app), "bad.fgn");
    // A record that does not load leaves the browser open with the reason; the game stays.
    press_key(&mut app, KeyCode::Enter, Key::Enter);
    app.update();
    assert!(browser(&app).open);
    let error = browser(&app).error.clone().unwrap_or_default().to_string();
    assert!(
        error.contains("bad.fgn") && error.contains("a1-a2"),
        "{error}"
    );
    assert_eq!(turns(&app), ["d2-e3A"]);
    press_key(&mut app, KeyCode::ArrowDown, Key::ArrowDown);
    assert_eq!(selected_name(&app), "good.fgn");
    press_key(&mut app, KeyCode::Enter, Key::Enter);
    app.update();
    assert!(!browser(&app).open, "closed once loaded");
    assert_eq!(turns(&app), ["f2-e3A", "f3-f2A"]);
    // Opened again, it comes back to the same folder; Esc closes it and is not also taken
    // by the game (which would drop a selection).
    let stone = game(&app).game().position().legal_turns()[0].from();
    send(&mut app, Command::Click(stone));
    assert_eq!(game(&app).selected(), Some(stone));
    press_key(&mut app, KeyCode::KeyO, Key::Character("O".into()));
    assert_eq!(browser(&app).listing.dir, deep);
    press_key(&mut app, KeyCode::Escape, Key::Escape);
    assert!(!browser(&app).open);
    assert_eq!(game(&app).selected(), Some(stone));
    // Closed, keys are the game's again: `u` undoes. The record was opened for the menu's
    // players (the person as White against the engine), so undo goes back to the person's
    // previous turn: both turns.
    press_key(&mut app, KeyCode::KeyU, Key::Character("u".into()));
    assert!(turns(&app).is_empty(), "{:?}", turns(&app));
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn the_browser_scrolls_and_opens_by_mouse() {
    use crate::browser::{BrowserCommand, BrowserRow, ROWS};
    let dir = temp_dir("browser-mouse");
    // 30 records: more than the rows shown.
    for i in 0..30 {
        std::fs::write(
            dir.join(format!("game-{i:02}.fgn")),
            "[Result \"*\"]\n\n1. f2-e3A *\n",
        )
        .expect("write");
    }
    let mut app = browser_app(dir.clone());
    // Opened from the tutorial, a record ends it.
    crate::tutorial::begin(&mut app, 0);
    app.world_mut().write_message(BrowserCommand::Open);
    app.update();
    app.update();
    let rows: Vec<(Entity, usize)> = app
        .world_mut()
        .query::<(Entity, &BrowserRow)>()
        .iter(app.world())
        .map(|(e, r)| (e, r.0))
        .collect();
    assert_eq!(rows.len(), ROWS);
    // The entries shown start at `..`; scrolling moves them and keeps the selection in sight.
    assert_eq!(browser(&app).first, 0);
    app.world_mut().write_message(BrowserCommand::Scroll(6));
    app.update();
    assert_eq!(browser(&app).first, 6);
    assert!(browser(&app).selected >= 6);
    // Past the end it stops with the last entry on the last row: 31 entries, 12 rows.
    app.world_mut().write_message(BrowserCommand::Scroll(100));
    app.update();
    assert_eq!(browser(&app).first, 31 - ROWS);
    // The rows' texts follow: the third row shows entry 21, game-20.fgn.
    let texts: Vec<String> = app
        .world_mut()
        .query::<&Text>()
        .iter(app.world())
        .map(|t| t.0.clone())
        .collect();
    assert!(texts.iter().any(|t| t.trim() == "game-20.fgn"), "{texts:?}");
    assert!(!texts.iter().any(|t| t.trim() == "game-00.fgn"));
    // A click on that row opens that record.
    let third = rows.iter().find(|(_, r)| *r == 2).expect("a third row").0;
    app.world_mut()
        .entity_mut(third)
        .insert(Interaction::Pressed);
    app.update();
    app.update();
    assert!(!browser(&app).open);
    assert_eq!(turns(&app), ["f2-e3A"]);
    let status = app.world().resource::<PersistStatus>().clone();
    assert_eq!(status.text.to_string(), "Loaded game-20.fgn");
    assert!(!app.world().contains_resource::<crate::tutorial::Tutorial>());
    let _ = std::fs::remove_dir_all(&dir);
}

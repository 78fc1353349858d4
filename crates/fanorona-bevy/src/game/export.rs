//! Export: the position on the board as a position string and the game as an FGN record, to
//! the clipboard (`Ctrl+C`, `Ctrl+Shift+C` or the buttons) and to files in the games folder.
//! The texts are written by `fanorona-core` (`Position::to_fen`, the record writer), so that
//! `fanorona show --fen` and `fanorona validate` read them back.

use bevy::clipboard::Clipboard;
use bevy::prelude::*;

use crate::Screen;
use crate::game::flow::{FlowSet, Match};
use crate::game::persist::{GamesDir, file_stamp_now, record_text, write_atomically};
use crate::i18n::Msg;

/// What to export, and where.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Export {
    /// The position shown (while looking back: that position) as a position string, to the
    /// clipboard.
    CopyPosition,
    /// The game as an FGN record, to the clipboard.
    CopyGame,
    /// The position string to a file `position-<date>-<time>.txt` in the games folder.
    SavePosition,
}

/// The last export: its text and where it went (shown in the panel, read by tests).
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct LastExport {
    /// The exported text.
    pub text: String,
    /// Where it went, in words (`"copied to the clipboard"`, a file name) or why it did not.
    pub outcome: Msg,
    /// Whether it failed.
    pub failed: bool,
}

/// The position string of the position the board shows now (looking back: that position).
pub fn shown_position_text(game: &Match) -> String {
    let game_ref = game.game();
    game.viewing()
        .and_then(|ply| game_ref.position_at(ply))
        .unwrap_or(game_ref.position())
        .to_fen()
}

fn export(
    mut requests: MessageReader<Export>,
    mut game: ResMut<Match>,
    dir: Res<GamesDir>,
    clipboard: Option<ResMut<Clipboard>>,
    mut last: ResMut<LastExport>,
) {
    let mut clipboard = clipboard;
    for request in requests.read() {
        let (what, text) = match request {
            Export::CopyPosition | Export::SavePosition => {
                (Msg::new("export-position"), Ok(shown_position_text(&game)))
            }
            Export::CopyGame => (
                Msg::new("export-record"),
                record_text(game.game(), game.players(), game.level()),
            ),
        };
        let text = match text {
            Ok(text) => text,
            Err(e) => {
                *last = LastExport {
                    text: String::new(),
                    outcome: Msg::new("export-not-written")
                        .with("what", what)
                        .with("error", e),
                    failed: true,
                };
                game.set_message(last.outcome.clone());
                continue;
            }
        };
        let (outcome, failed) = match request {
            Export::CopyPosition | Export::CopyGame => match clipboard.as_deref_mut() {
                Some(clipboard) => match clipboard.set_text(text.clone()) {
                    Ok(()) => (Msg::new("export-copied").with("what", what), false),
                    Err(e) => (
                        Msg::new("export-not-copied")
                            .with("what", what)
                            .with("error", format!("{e:?}"))
                            .with("text", &text),
                        true,
                    ),
                },
                None => (
                    Msg::new("export-no-clipboard")
                        .with("what", what)
                        .with("text", &text),
                    true,
                ),
            },
            Export::SavePosition => match dir.0.as_ref() {
                Some(dir) => {
                    // i18n: not text (a file name)
                    let path = dir.join(format!("position-{}.txt", file_stamp_now()));
                    match write_atomically(&path, format!("{text}\n").as_bytes()) {
                        Ok(()) => (
                            Msg::new("export-saved")
                                .with("what", what)
                                .with("path", path.display().to_string()),
                            false,
                        ),
                        Err(e) => (
                            Msg::new("status-cannot-save")
                                .with("path", path.display().to_string())
                                .with("error", e.to_string()),
                            true,
                        ),
                    }
                }
                None => (
                    Msg::new("export-no-folder")
                        .with("what", what)
                        .with("text", &text),
                    true,
                ),
            },
        };
        // The position string is short: show it too, so it can be read off the screen.
        let shown = if failed || matches!(request, Export::CopyGame) {
            outcome.clone()
        } else {
            Msg::new("export-shown")
                .with("outcome", outcome.clone())
                .with("text", &text)
        };
        game.set_message(shown);
        *last = LastExport {
            text,
            outcome,
            failed,
        };
    }
}

/// `Ctrl+C` copies the position string, `Ctrl+Shift+C` the game (not while a turn is typed).
pub fn export_keys(
    keys: Res<ButtonInput<KeyCode>>,
    entry: Option<Res<crate::game::input::TurnEntry>>,
    mut requests: MessageWriter<Export>,
) {
    if entry.is_some_and(|e| e.used_keys) {
        return;
    }
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    if ctrl && keys.just_pressed(KeyCode::KeyC) {
        requests.write(if shift {
            Export::CopyGame
        } else {
            Export::CopyPosition
        });
    }
}

/// The export plugin.
pub fn plugin(app: &mut App) {
    app.add_message::<Export>()
        .init_resource::<LastExport>()
        .init_resource::<GamesDir>()
        .add_systems(
            Update,
            (
                export_keys
                    .after(crate::game::input::type_turn)
                    .before(export)
                    .run_if(
                        in_state(Screen::Playing).and_then(resource_exists::<ButtonInput<KeyCode>>),
                    ),
                export.after(FlowSet).run_if(resource_exists::<Match>),
            ),
        );
}

//! Persistence: the settings file (read at start, written on every change) and saved games as
//! records in the project's record format, in `<data dir>/fanorona/games/`.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use bevy::prelude::*;
use fanorona_core::Game;

use crate::flow::{BoardJump, Match, players_for};
use crate::settings::{Settings, SettingsFile, save_settings};

/// Save or load a game.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum Persist {
    /// Save the current game as a new record file in the games directory.
    Save,
    /// Load the record file at this path.
    Load(PathBuf),
}

/// Where saved games go (absent in tests and screenshot mode unless given).
#[derive(Resource, Clone, Debug, Default)]
pub struct GamesDir(pub Option<PathBuf>);

/// The default games directory: `<data dir>/fanorona/games`.
pub fn default_games_dir() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("fanorona").join("games"))
}

/// The result of the last save or load, shown on screen.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct PersistStatus {
    /// The text shown.
    pub text: String,
    /// Whether it reports a failure.
    pub error: bool,
    /// Bumped on every new status, so screens can react once.
    pub serial: u64,
}

impl PersistStatus {
    fn set(&mut self, text: String, error: bool) {
        self.text = text;
        self.error = error;
        self.serial += 1;
    }
}

/// A record file that could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    /// The file could not be read.
    Io(PathBuf, std::io::Error),
    /// The file is not a valid record, or its turns are not legal.
    Record(PathBuf, String),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io(path, e) => write!(f, "cannot read {}: {e}", path.display()),
            LoadError::Record(path, e) => write!(f, "{} is not a valid game: {e}", path.display()),
        }
    }
}

impl std::error::Error for LoadError {}

/// The record text of a game. The one place where the client writes the record format.
pub fn record_text(game: &Game) -> String {
    format_record(game)
}

/// Reads a game from record text. The one place where the client reads the record format.
///
/// # Errors
///
/// A description of the first problem (syntax with its location, or an illegal turn).
pub fn parse_record_text(text: &str) -> Result<Game, String> {
    read_record(text)
}

/// Loads a game from a record file.
///
/// # Errors
///
/// [`LoadError`] when the file cannot be read or is not a valid record.
pub fn load_game(path: &Path) -> Result<Game, LoadError> {
    let bytes = std::fs::read(path).map_err(|e| LoadError::Io(path.to_owned(), e))?;
    let text = String::from_utf8(bytes)
        .map_err(|e| LoadError::Record(path.to_owned(), format!("not UTF-8 text ({e})")))?;
    parse_record_text(&text).map_err(|e| LoadError::Record(path.to_owned(), e))
}

// Interim record functions, replaced by `fanorona_core::record` when it lands.
fn format_record(game: &Game) -> String {
    let mut out = String::new();
    out.push_str(&format!("[Start \"{}\"]\n", game.start().to_fen()));
    out.push_str(&format!("[Rules \"{}\"]\n", game.start().rules()));
    for (i, turn) in game.turns().iter().enumerate() {
        out.push_str(&format!("{}. {turn}\n", i + 1));
    }
    out
}

fn read_record(text: &str) -> Result<Game, String> {
    let mut start = None;
    let mut rules = fanorona_core::Rules::default();
    let mut turns = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix("[Start \"").and_then(|r| r.strip_suffix("\"]")) {
            start = Some(rest.to_string());
        } else if let Some(rest) = line.strip_prefix("[Rules \"").and_then(|r| r.strip_suffix("\"]")) {
            rules = rest.parse().map_err(|e| format!("line {}: {e}", n + 1))?;
        } else if let Some((_, turn)) = line.split_once(". ") {
            turns.push((n + 1, turn.trim().to_string()));
        } else {
            return Err(format!("line {}: unexpected text {line:?}", n + 1));
        }
    }
    let start = start.ok_or("no start position")?;
    let position = fanorona_core::Position::from_fen_with(&start, rules).map_err(|e| e.to_string())?;
    let mut game = Game::new(position);
    for (line, turn) in turns {
        game.play_text(&turn).map_err(|e| format!("line {line}: {e}"))?;
    }
    Ok(game)
}

/// Saved games in `dir`, newest first.
pub fn saved_games(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut games: Vec<(SystemTime, PathBuf)> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "fgn"))
        .map(|p| (p.metadata().and_then(|m| m.modified()).unwrap_or(UNIX_EPOCH), p))
        .collect();
    games.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| b.1.cmp(&a.1)));
    games.into_iter().map(|(_, p)| p).collect()
}

/// A file name for a game saved now: `game-YYYY-MM-DD-HHMMSS.fgn` (UTC).
fn file_name_now() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (proleptic Gregorian calendar).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "game-{year:04}-{month:02}-{day:02}-{:02}{:02}{:02}.fgn",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

fn handle_persist(
    mut requests: MessageReader<Persist>,
    mut game: Option<ResMut<Match>>,
    settings: Res<Settings>,
    dir: Res<GamesDir>,
    mut status: ResMut<PersistStatus>,
    mut jumps: MessageWriter<BoardJump>,
    mut commands: Commands,
) {
    for request in requests.read() {
        match request {
            Persist::Save => {
                let (Some(game), Some(dir)) = (game.as_deref_mut(), dir.0.as_ref()) else {
                    status.set("Nothing to save".into(), true);
                    continue;
                };
                let path = dir.join(file_name_now());
                let result = std::fs::create_dir_all(dir)
                    .and_then(|()| std::fs::write(&path, record_text(game.game())));
                match result {
                    Ok(()) => {
                        let text = format!("Saved to {}", path.display());
                        game.set_message(text.clone());
                        status.set(text, false);
                    }
                    Err(e) => {
                        let text = format!("Cannot save {}: {e}", path.display());
                        game.set_message(text.clone());
                        status.set(text, true);
                    }
                }
            }
            Persist::Load(path) => match load_game(path) {
                Ok(loaded) => {
                    let mut new = Match::from_game(loaded, players_for(&settings), settings.level());
                    let name = path.file_name().map_or_else(
                        || path.display().to_string(),
                        |n| n.to_string_lossy().into_owned(),
                    );
                    let text = format!("Loaded {name}");
                    new.set_message(format!("{text}. {}", new.message()));
                    commands.insert_resource(new);
                    jumps.write(BoardJump);
                    status.set(text, false);
                }
                Err(e) => status.set(e.to_string(), true),
            },
        }
    }
}

fn save_settings_on_change(settings: Res<Settings>, file: Res<SettingsFile>) {
    if !settings.is_changed() || settings.is_added() {
        return;
    }
    if let Some(path) = &file.0
        && let Err(e) = save_settings(path, &settings)
    {
        warn!("cannot save settings: {e}");
    }
}

/// The persistence plugin.
pub fn plugin(app: &mut App) {
    app.add_message::<Persist>()
        .init_resource::<PersistStatus>()
        .init_resource::<GamesDir>()
        .init_resource::<SettingsFile>()
        .add_systems(Update, (handle_persist, save_settings_on_change));
}

//! Persistence: the settings file (read at start, written on every change) and saved games as
//! records in the project's record format, in `<data dir>/fanorona/games/`.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use bevy::prelude::*;
use fanorona_core::record::{Element, GameRecord, GameResult, Reader};
use fanorona_core::{BoardSize, Color as Side, Game, Position, Rules};

use crate::flow::{BoardJump, Match, Player, players_for};
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

/// The record text (FGN, `fanorona_core::record`) of a game. The one place where the client
/// writes the record format.
///
/// # Errors
///
/// The writer's message when the record cannot be written.
pub fn record_text(game: &Game, players: [Player; 2], level: u8) -> Result<String, String> {
    let mut record = GameRecord::default();
    let date = today();
    let name = |p: Player| match p {
        Player::Human => "Person".to_string(),
        Player::Engine => format!("fanorona-ai level {level}"),
    };
    let start = game.start();
    let result = game
        .outcome()
        .map_or(GameResult::Unknown, |o| GameResult::from_outcome(&o));
    for (tag, value) in [
        ("Event", "Casual game".to_string()),
        ("Site", "fanorona-3d".to_string()),
        ("Date", format!("{:04}.{:02}.{:02}", date.0, date.1, date.2)),
        ("Round", "-".to_string()),
        ("White", name(players[Side::White.index()])),
        ("Black", name(players[Side::Black.index()])),
        ("Result", result.as_str().to_string()),
    ] {
        record.set_tag(tag, value);
    }
    if start.size() != BoardSize::STANDARD {
        record.set_tag("Board", start.size().to_string());
    }
    let rules = start.rules();
    if rules != Rules::default() {
        record.set_tag("Rules", rules.to_string());
    }
    if *start != Position::start_with(start.size(), rules) {
        record.set_tag("FEN", start.to_fen());
    }
    record.movetext = game
        .turns()
        .iter()
        .map(|t| Element::Turn(t.to_string()))
        .collect();
    record.result = Some(result);
    record.to_fgn().map_err(|e| e.to_string())
}

/// Reads a game from record text (the first game of the text), replaying it by the rules.
/// The one place where the client reads the record format.
///
/// # Errors
///
/// A description of the first problem: syntax with its location, or an illegal turn.
pub fn parse_record_text(text: &str) -> Result<Game, String> {
    let record = Reader::new(text.as_bytes())
        .read_record()
        .map_err(|e| e.to_string())?
        .ok_or("the file holds no game")?;
    let (game, report) = record.replay();
    if let Some(problem) = report.problems.first() {
        return Err(problem.to_string());
    }
    let game = game.ok_or("the game could not be replayed")?;
    // A resignation or agreed draw is in the result token only: keep it.
    if game.outcome().is_none() {
        let mut game = game;
        match record.result {
            Some(GameResult::WhiteWins) => game.resign(Side::Black),
            Some(GameResult::BlackWins) => game.resign(Side::White),
            Some(GameResult::Draw) => game.agree_draw(),
            _ => {}
        }
        return Ok(game);
    }
    Ok(game)
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

/// Today's date (UTC) as year, month, day.
fn today() -> (i64, i64, i64) {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    civil_date(secs / 86_400)
}

/// The proleptic Gregorian date of a day counted from 1970-01-01.
fn civil_date(days: u64) -> (i64, i64, i64) {
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day)
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
        .map(|p| {
            (
                p.metadata()
                    .and_then(|m| m.modified())
                    .unwrap_or(UNIX_EPOCH),
                p,
            )
        })
        .collect();
    games.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| b.1.cmp(&a.1)));
    games.into_iter().map(|(_, p)| p).collect()
}

/// A file name for a game saved now: `game-YYYY-MM-DD-HHMMSS.fgn` (UTC).
fn file_name_now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (year, month, day) = civil_date(secs / 86_400);
    let rest = secs % 86_400;
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
                let result =
                    record_text(game.game(), game.players(), game.level()).and_then(|text| {
                        std::fs::create_dir_all(dir)
                            .and_then(|()| std::fs::write(&path, text))
                            .map_err(|e| e.to_string())
                    });
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
                    let mut new =
                        Match::from_game(loaded, players_for(&settings), settings.level());
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

//! Persistence: the settings file (read at start, written on every change) and saved games as
//! records in the project's record format, in `<data dir>/fanorona/games/`.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use bevy::prelude::*;
use fanorona_core::record::boardspace::BoardspaceReader;
use fanorona_core::record::{Element, GameRecord, GameResult, MAX_GAME_BYTES, Reader};
use fanorona_core::{BoardSize, Color as Side, Game, Position, Rules};

use crate::game::flow::{BoardJump, Match, Player, players_for};
use crate::i18n::Msg;
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
    // i18n: not text (folder names)
    dirs::data_dir().map(|d| d.join("fanorona").join("games"))
}

/// The result of the last save or load, shown on screen.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct PersistStatus {
    /// The text shown.
    pub text: Msg,
    /// Whether it reports a failure.
    pub error: bool,
    /// Bumped on every new status, so screens can react once.
    pub serial: u64,
}

impl PersistStatus {
    fn set(&mut self, text: Msg, error: bool) {
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
            // i18n: not text (the error in a log or the terminal)
            LoadError::Io(path, e) => write!(f, "cannot read {}: {e}", path.display()),
            // i18n: not text (the error in a log or the terminal)
            LoadError::Record(path, e) => write!(f, "{} is not a valid game: {e}", path.display()),
        }
    }
}

impl LoadError {
    /// What went wrong, for the screen (the system's or the record's own words inside).
    pub fn message(&self) -> Msg {
        match self {
            LoadError::Io(path, e) => Msg::new("status-cannot-read")
                .with("path", path.display().to_string())
                .with("error", e.to_string()),
            LoadError::Record(path, e) => Msg::new("status-not-a-game")
                .with("path", path.display().to_string())
                .with("error", e),
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
        // i18n: not text (a record's tag value)
        Player::Human => "Person".to_string(),
        // i18n: not text (a record's tag value)
        Player::Engine => format!("fanorona-ai level {level}"),
    };
    let start = game.start();
    let result = game
        .outcome()
        .map_or(GameResult::Unknown, |o| GameResult::from_outcome(&o));
    for (tag, value) in [
        // i18n: not text (a record's tags)
        ("Event", "Casual game".to_string()),
        // i18n: not text (a record's tags)
        ("Site", "fanorona-3d".to_string()),
        // i18n: not text (a record's tags)
        ("Date", format!("{:04}.{:02}.{:02}", date.0, date.1, date.2)),
        // i18n: not text (a record's tags)
        ("Round", "-".to_string()),
        // i18n: not text (a record's tags)
        ("White", name(players[Side::White.index()])),
        // i18n: not text (a record's tags)
        ("Black", name(players[Side::Black.index()])),
        // i18n: not text (a record's tags)
        ("Result", result.as_str().to_string()),
    ] {
        record.set_tag(tag, value);
    }
    if start.size() != BoardSize::STANDARD {
        // i18n: not text (a record's tag)
        record.set_tag("Board", start.size().to_string());
    }
    let rules = start.rules();
    if rules != Rules::default() {
        // i18n: not text (a record's tag)
        record.set_tag("Rules", rules.to_string());
    }
    if Position::start_with(start.size(), rules).ok() != Some(*start) {
        // i18n: not text (a record's tag)
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

/// The record formats the client opens: those the `fanorona` command reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordFormat {
    /// FGN (`.fgn`, also `.pgn` and any other name).
    Fgn,
    /// The JSON form of FGN records (`.json`): an array of game objects, or one game object.
    Json,
    /// JSON Lines (`.jsonl`, `.ndjson`): one game object a line.
    JsonLines,
    /// Boardspace.net's SGF-like records (`.sgf`).
    Boardspace,
}

impl RecordFormat {
    /// The format a file name implies, as for `fanorona validate`: by its extension, FGN
    /// when the extension says nothing.
    pub fn from_path(path: &Path) -> RecordFormat {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match ext.as_deref() {
            // i18n: not text (file extensions)
            Some("json") => RecordFormat::Json,
            // i18n: not text (file extensions)
            Some("jsonl" | "ndjson") => RecordFormat::JsonLines,
            // i18n: not text (file extensions)
            Some("sgf") => RecordFormat::Boardspace,
            _ => RecordFormat::Fgn,
        }
    }
}

/// The largest record file the client opens (the record readers' per-game limit).
pub const MAX_RECORD_FILE: u64 = MAX_GAME_BYTES as u64;

/// A JSON error with its place in the text.
fn json_error(e: &serde_json::Error, first_line: usize) -> String {
    format!(
        // i18n: not text (the JSON reader's own English words)
        "line {}, column {}: bad JSON game: {e}",
        e.line() + first_line,
        e.column()
    )
    // i18n: not text (the JSON reader's own English words)
    .replace(&format!(" at line {} column {}", e.line(), e.column()), "")
}

/// Reads the first game of a record text in `format`, with the readers of `fanorona-core`
/// (the same as the `fanorona` command's).
///
/// # Errors
///
/// The first problem, with its line and column when the text does not parse.
pub fn read_record(text: &str, format: RecordFormat) -> Result<GameRecord, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match format {
        RecordFormat::Fgn => Reader::new(text.as_bytes())
            .read_record()
            .map_err(|e| e.to_string())?
            // i18n: not text (a record's error detail, in English like the core's)
            .ok_or_else(|| "the file holds no game".to_string()),
        RecordFormat::Boardspace => BoardspaceReader::new(text.as_bytes())
            .next()
            // i18n: not text (a record's error detail, in English like the core's)
            .ok_or_else(|| "the file holds no game".to_string())?
            .map_err(|e| e.to_string()),
        RecordFormat::Json => {
            if text.trim_start().starts_with('[') {
                let games: Vec<GameRecord> =
                    serde_json::from_str(text).map_err(|e| json_error(&e, 0))?;
                games
                    .into_iter()
                    .next()
                    // i18n: not text (a record's error detail, in English like the core's)
                    .ok_or_else(|| "the file holds no game".to_string())
            } else {
                serde_json::from_str(text).map_err(|e| json_error(&e, 0))
            }
        }
        RecordFormat::JsonLines => {
            let (index, line) = text
                .lines()
                .enumerate()
                .find(|(_, l)| !l.trim().is_empty())
                // i18n: not text (a record's error detail, in English like the core's)
                .ok_or_else(|| "the file holds no game".to_string())?;
            serde_json::from_str(line).map_err(|e| json_error(&e, index))
        }
    }
}

/// Replays a record by the rules into a game (a resignation or agreed draw in the result
/// is kept).
///
/// # Errors
///
/// The first illegal or unreadable turn, with its place.
pub fn game_from_record(record: &GameRecord) -> Result<Game, String> {
    let (game, report) = record.replay();
    if let Some(problem) = report.problems.first() {
        return Err(problem.to_string());
    }
    // i18n: not text (a record's error detail, in English like the core's)
    let mut game = game.ok_or("the game could not be replayed")?;
    // A resignation or agreed draw is in the result token only: keep it.
    // (A game over by the rules keeps that end: resigning it is refused, and ignored here.)
    let _ = match record.result {
        Some(GameResult::WhiteWins) => game.resign(Side::Black),
        Some(GameResult::BlackWins) => game.resign(Side::White),
        Some(GameResult::Draw) => game.agree_draw(),
        _ => Ok(()),
    };
    Ok(game)
}

/// Reads a game from FGN text (the first game of the text), replaying it by the rules.
///
/// # Errors
///
/// A description of the first problem: syntax with its location, or an illegal turn.
pub fn parse_record_text(text: &str) -> Result<Game, String> {
    game_from_record(&read_record(text, RecordFormat::Fgn)?)
}

/// Loads the first game of a record file: FGN, JSON, JSON Lines or Boardspace, by the
/// file's extension.
///
/// # Errors
///
/// [`LoadError`] when the file cannot be read or is not a valid record.
pub fn load_game(path: &Path) -> Result<Game, LoadError> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| LoadError::Io(path.to_owned(), e))?;
    let mut bytes = Vec::new();
    file.take(MAX_RECORD_FILE + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| LoadError::Io(path.to_owned(), e))?;
    if bytes.len() as u64 > MAX_RECORD_FILE {
        return Err(LoadError::Record(
            path.to_owned(),
            format!(
                // i18n: not text (a record's error detail, in English like the core's)
                "the file is larger than {MAX_RECORD_FILE} bytes (take its game out with `fanorona convert`)"
            ),
        ));
    }
    let text = String::from_utf8(bytes)
        // i18n: not text (a record's error detail, in English like the core's)
        .map_err(|e| LoadError::Record(path.to_owned(), format!("not UTF-8 text ({e})")))?;
    read_record(&text, RecordFormat::from_path(path))
        .and_then(|record| game_from_record(&record))
        .map_err(|e| LoadError::Record(path.to_owned(), e))
}

/// Writes `bytes` to `path` without ever leaving a partial file there: a temporary file in
/// the same directory is written, flushed to disk and renamed over `path`.
///
/// # Errors
///
/// The operating system's error; `path` is then untouched.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir)?;
    }
    let name = path
        .file_name()
        // i18n: not text (a file name)
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    // i18n: not text (a file name)
    let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let written = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()
    })();
    let renamed = written.and_then(|()| std::fs::rename(&tmp, path));
    if renamed.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    renamed
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
        .filter(|p| crate::browser::is_record(p))
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

/// The date and time now (UTC) for file names: `YYYY-MM-DD-HHMMSS`.
pub fn file_stamp_now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (year, month, day) = civil_date(secs / 86_400);
    let rest = secs % 86_400;
    format!(
        "{year:04}-{month:02}-{day:02}-{:02}{:02}{:02}",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// A file name for a game saved now: `game-YYYY-MM-DD-HHMMSS.fgn` (UTC).
fn file_name_now() -> String {
    // i18n: not text (a file name)
    format!("game-{}.fgn", file_stamp_now())
}

fn handle_persist(
    mut requests: MessageReader<Persist>,
    mut game: Option<ResMut<Match>>,
    settings: Res<Settings>,
    dir: Res<GamesDir>,
    mut status: ResMut<PersistStatus>,
    mut jumps: MessageWriter<BoardJump>,
    mut review: Option<ResMut<crate::analysis::review::Review>>,
    mut commands: Commands,
) {
    for request in requests.read() {
        match request {
            Persist::Save => {
                let (Some(game), Some(dir)) = (game.as_deref_mut(), dir.0.as_ref()) else {
                    status.set(Msg::new("status-nothing-to-save"), true);
                    continue;
                };
                let path = dir.join(file_name_now());
                let result =
                    record_text(game.game(), game.players(), game.level()).and_then(|text| {
                        write_atomically(&path, text.as_bytes()).map_err(|e| e.to_string())
                    });
                match result {
                    Ok(()) => {
                        let text =
                            Msg::new("status-saved").with("path", path.display().to_string());
                        game.set_message(text.clone());
                        status.set(text, false);
                    }
                    Err(e) => {
                        let text = Msg::new("status-cannot-save")
                            .with("path", path.display().to_string())
                            .with("error", e);
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
                    let text = Msg::new("status-loaded").with("name", name);
                    new.set_message(
                        Msg::new("status-loaded-message")
                            .with("loaded", text.clone())
                            .with("message", new.message().clone()),
                    );
                    commands.insert_resource(new);
                    // An opened game ends the tutorial (its lessons judge their own positions).
                    commands.remove_resource::<crate::tutorial::Tutorial>();
                    jumps.write(BoardJump);
                    // An opened game is reviewed: the engine evaluates its turns.
                    if let Some(review) = review.as_deref_mut() {
                        review.enabled = true;
                    }
                    status.set(text, false);
                }
                Err(e) => status.set(e.message(), true),
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

//! Player settings (mode, colour, engine level, board, rule options, animation speed, language) and the
//! small JSON file in the user's configuration directory that keeps them across restarts.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use bevy::prelude::*;
use fanorona_core::{BoardSize, Color as Side, GameKind, Position, Rules};
use serde::{Deserialize, Serialize};

use crate::i18n::Language;

/// Who plays which side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// A person against the engine.
    #[default]
    HumanVsEngine,
    /// Two people at one screen.
    TwoPlayers,
    /// The engine plays both sides; people watch.
    EngineVsEngine,
}

impl Mode {
    /// All modes, in menu order.
    pub const ALL: [Mode; 3] = [Mode::HumanVsEngine, Mode::TwoPlayers, Mode::EngineVsEngine];

    /// Text shown in the menu (a message id).
    pub fn label(self) -> &'static str {
        match self {
            Mode::HumanVsEngine => "mode-human-vs-engine",
            Mode::TwoPlayers => "mode-two-players",
            Mode::EngineVsEngine => "mode-engine-vs-engine",
        }
    }
}

/// How fast stones move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AnimationSpeed {
    /// Slow: easy to follow long chains.
    Slow,
    /// The default.
    #[default]
    Normal,
    /// Fast.
    Fast,
    /// No animation: stones jump.
    Off,
}

impl AnimationSpeed {
    /// All speeds, in menu order.
    pub const ALL: [AnimationSpeed; 4] = [
        AnimationSpeed::Slow,
        AnimationSpeed::Normal,
        AnimationSpeed::Fast,
        AnimationSpeed::Off,
    ];

    /// Seconds one step (slide or removal) takes.
    pub fn step_seconds(self) -> f32 {
        match self {
            AnimationSpeed::Slow => 0.6,
            AnimationSpeed::Normal => 0.35,
            AnimationSpeed::Fast => 0.18,
            AnimationSpeed::Off => 0.0,
        }
    }

    /// Text shown in the menu (a message id).
    pub fn label(self) -> &'static str {
        match self {
            AnimationSpeed::Slow => "animation-slow",
            AnimationSpeed::Normal => "animation-normal",
            AnimationSpeed::Fast => "animation-fast",
            AnimationSpeed::Off => "animation-off",
        }
    }
}

/// How large the interface's text is: the whole interface (text, buttons, panels) is scaled
/// by [`TextSize::factor`] on top of the window's UI scale, so nothing wraps or overlaps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TextSize {
    /// Smaller than usual (0.85).
    Small,
    /// The default (1).
    #[default]
    Normal,
    /// Larger (1.25).
    Large,
    /// Largest (1.5).
    Huge,
}

impl TextSize {
    /// All sizes, in menu order.
    pub const ALL: [TextSize; 4] = [
        TextSize::Small,
        TextSize::Normal,
        TextSize::Large,
        TextSize::Huge,
    ];

    /// The size's name in the menu (a message id).
    pub fn label(self) -> &'static str {
        match self {
            TextSize::Small => "access-size-small",
            TextSize::Normal => "access-size-normal",
            TextSize::Large => "access-size-large",
            TextSize::Huge => "access-size-huge",
        }
    }

    /// The factor applied to the UI scale.
    pub fn factor(self) -> f32 {
        match self {
            TextSize::Small => 0.85,
            TextSize::Normal => 1.0,
            TextSize::Large => 1.25,
            TextSize::Huge => 1.5,
        }
    }
}

/// The side a person plays against the engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SideChoice {
    /// White (moves first).
    #[default]
    White,
    /// Black.
    Black,
}

impl SideChoice {
    /// The core colour.
    pub fn side(self) -> Side {
        match self {
            SideChoice::White => Side::White,
            SideChoice::Black => Side::Black,
        }
    }
}

/// Lowest engine level offered in the menu.
pub const MIN_LEVEL: u8 = 1;
/// Highest engine level offered in the menu (the levels of `fanorona-ai`, `Level::ALL`, from
/// novice to maximum).
pub const MAX_LEVEL: u8 = fanorona_ai::Level::ALL.len() as u8;

/// Board sizes offered in the menu: every size the core supports, the standard board first,
/// then from the smallest to the largest.
pub fn board_choices() -> Vec<BoardSize> {
    let mut sizes = BoardSize::ALL.to_vec();
    sizes.sort_by_key(|s| {
        (
            *s != BoardSize::STANDARD,
            u16::from(s.rows()) * u16::from(s.cols()),
            s.rows(),
        )
    });
    sizes
}

/// Everything a player chooses that should survive a restart.
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "kebab-case")]
pub struct Settings {
    /// Who plays which side.
    pub mode: Mode,
    /// The person's side against the engine.
    pub human_side: SideChoice,
    /// Engine level, `MIN_LEVEL..=MAX_LEVEL` (the level's number, 1 for the weakest). The
    /// file holds the level's name, so that adding levels never changes a saved choice; a
    /// number there is the older files' numbering of four levels (see [`level_by_name`]).
    #[serde(with = "level_by_name")]
    pub level: u8,
    /// Board size as `ROWSxCOLS` (for example `5x9`).
    pub board: String,
    /// Rule options in the core's text form (empty for the standard rules).
    pub rules: String,
    /// Animation speed.
    pub animation: AnimationSpeed,
    /// Whether the tutorial was offered already (it is offered on the first start).
    pub tutorial_offered: bool,
    /// The time control (clocks for both sides).
    pub clock: crate::game::clock::TimeControl,
    /// Whether the sounds are off.
    pub muted: bool,
    /// The high-contrast look: plain board with strong lines, marked black stones, plain
    /// panels with white text (see `board::contrast` and `access`).
    pub high_contrast: bool,
    /// The size of the interface's text.
    pub text_size: TextSize,
    /// The language chosen in the menu; none: the system's locale (see
    /// [`crate::i18n::system_language`]).
    pub language: Option<Language>,
    /// How many best lines analysis mode shows, 1 to [`crate::analysis::MAX_LINES`].
    pub analysis_lines: u8,
    /// The player's puzzle rating (Glicko-2: rating, deviation, volatility).
    pub puzzle_rating: f64,
    /// Its deviation.
    pub puzzle_deviation: f64,
    /// Its volatility.
    pub puzzle_volatility: f64,
    /// Puzzles solved in a row at the first try.
    pub puzzle_streak: u32,
    /// The longest such streak.
    pub puzzle_best_streak: u32,
    /// The player's results against each engine level, for the rating estimate.
    pub level_results: Vec<LevelResult>,
}

/// A person's results against one engine level (by its name, so that renumbered levels keep
/// their results).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "kebab-case")]
pub struct LevelResult {
    /// The level's name (`beginner`, `casual`, ...).
    pub level: String,
    /// The person's wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// The person's losses.
    pub losses: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            mode: Mode::HumanVsEngine,
            human_side: SideChoice::White,
            // Beginner: a newcomer's first game should be winnable (against the new-player
            // stand-in it scores about even).
            level: fanorona_ai::Level::Beginner.number(),
            board: BoardSize::STANDARD.to_string(),
            rules: Rules::default().to_string(),
            animation: AnimationSpeed::Normal,
            tutorial_offered: false,
            clock: crate::game::clock::TimeControl::Off,
            muted: false,
            high_contrast: false,
            text_size: TextSize::Normal,
            language: None,
            analysis_lines: crate::analysis::DEFAULT_LINES,
            puzzle_rating: 1500.0,
            puzzle_deviation: 350.0,
            puzzle_volatility: 0.06,
            puzzle_streak: 0,
            puzzle_best_streak: 0,
            level_results: Vec::new(),
        }
    }
}

impl Settings {
    /// The board size; the standard board if the stored text is not a size.
    pub fn board_size(&self) -> BoardSize {
        BoardSize::from_str(&self.board).unwrap_or(BoardSize::STANDARD)
    }

    /// The rule options; the standard rules if the stored text does not parse.
    pub fn rules(&self) -> Rules {
        Rules::from_str(&self.rules).unwrap_or_default()
    }

    /// The start position of the chosen board, game and rule options (Fanoron-Telo on its own
    /// board whatever the stored board says).
    pub fn start_position(&self) -> Position {
        let rules = self.rules();
        Position::start_with(self.board_size(), rules)
            .or_else(|_| Position::start_with(BoardSize::TELO, rules))
            .unwrap_or_else(|_| Position::start(self.board_size()))
    }

    /// Stores new rule options.
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules.to_string();
    }

    /// The language texts are shown in: the one chosen, else the system's.
    pub fn language(&self) -> Language {
        self.language.unwrap_or_else(crate::i18n::system_language)
    }

    /// The engine level clamped to the offered range.
    pub fn level(&self) -> u8 {
        self.level.clamp(MIN_LEVEL, MAX_LEVEL)
    }

    /// The number of analysis lines, clamped to the offered range.
    pub fn analysis_lines(&self) -> u8 {
        self.analysis_lines.clamp(1, crate::analysis::MAX_LINES)
    }

    /// Replaces out-of-range values by defaults, so a hand-edited file cannot break the game.
    pub fn sanitized(mut self) -> Settings {
        self.level = self.level();
        self.analysis_lines = self.analysis_lines();
        let defaults = Settings::default();
        if !(self.puzzle_rating.is_finite()
            && self.puzzle_deviation.is_finite()
            && self.puzzle_deviation > 0.0
            && self.puzzle_volatility.is_finite()
            && self.puzzle_volatility > 0.0)
        {
            self.puzzle_rating = defaults.puzzle_rating;
            self.puzzle_deviation = defaults.puzzle_deviation;
            self.puzzle_volatility = defaults.puzzle_volatility;
        }
        self.board = self.board_size().to_string();
        self.rules = self.rules().to_string();
        // Fanoron-Telo is played on the 3x3 board only.
        if self.rules().game() == GameKind::Telo {
            self.board = BoardSize::TELO.to_string();
        }
        self
    }
}

/// The engine level in the settings file: written as the level's name (`beginner`,
/// `casual`, ...); read from a name, or from a number as files before the fourteen levels
/// wrote it (1 beginner, 2 casual, 3 strong, 4 maximum). Anything else reads as the default
/// level, so a hand-edited file cannot break the game.
pub mod level_by_name {
    use fanorona_ai::Level;
    use serde::{Deserialize, Deserializer, Serializer};

    /// The old files' levels, by their number.
    const OLD_LEVELS: [Level; 4] = [
        Level::Beginner,
        Level::Casual,
        Level::Strong,
        Level::Maximum,
    ];

    /// Writes the level's name.
    pub fn serialize<S: Serializer>(number: &u8, serializer: S) -> Result<S::Ok, S::Error> {
        let level = Level::from_index(number.saturating_sub(1)).unwrap_or(Level::Beginner);
        serializer.serialize_str(level.name())
    }

    /// Reads a level's name, or an old file's number.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u8, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Saved {
            Name(String),
            Number(u64),
            Other(serde::de::IgnoredAny),
        }
        let level = match Saved::deserialize(deserializer)? {
            Saved::Name(name) => name.parse::<Level>().ok(),
            Saved::Number(n) => usize::try_from(n)
                .ok()
                .and_then(|n| n.checked_sub(1))
                .and_then(|i| OLD_LEVELS.get(i).copied()),
            Saved::Other(_) => None,
        };
        Ok(level.unwrap_or(Level::Beginner).number())
    }
}

/// Where settings live: `<config dir>/fanorona/settings.json` (for example
/// `~/.config/fanorona/settings.json` on Linux).
pub fn default_settings_path() -> Option<PathBuf> {
    // i18n: not text (folder and file names)
    dirs::config_dir().map(|dir| dir.join("fanorona").join("settings.json"))
}

/// A settings file that could not be read or written.
#[derive(Debug)]
pub enum SettingsError {
    /// Reading or writing the file failed.
    Io(PathBuf, std::io::Error),
    /// The file is not valid settings JSON.
    Parse(PathBuf, serde_json::Error),
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingsError::Io(path, e) => write!(f, "{}: {e}", path.display()),
            SettingsError::Parse(path, e) => {
                // i18n: not text (the error in a log or the terminal)
                write!(f, "{}: not a settings file: {e}", path.display())
            }
        }
    }
}

impl std::error::Error for SettingsError {}

/// Reads settings from `path`; a missing file gives the defaults.
pub fn load_settings(path: &Path) -> Result<Settings, SettingsError> {
    match std::fs::read_to_string(path) {
        Ok(text) => serde_json::from_str::<Settings>(&text)
            .map(Settings::sanitized)
            .map_err(|e| SettingsError::Parse(path.to_owned(), e)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Settings::default()),
        Err(e) => Err(SettingsError::Io(path.to_owned(), e)),
    }
}

/// Writes settings to `path` (creating its directory) through a temporary file, so that a
/// crash never leaves half a file.
pub fn save_settings(path: &Path, settings: &Settings) -> Result<(), SettingsError> {
    let text = serde_json::to_string_pretty(settings).expect("settings always serialize");
    crate::game::persist::write_atomically(path, (text + "\n").as_bytes())
        .map_err(|e| SettingsError::Io(path.to_owned(), e))
}

/// Where the settings file is, if anywhere (absent in screenshot mode and tests).
#[derive(Resource, Clone, Debug, Default)]
pub struct SettingsFile(pub Option<PathBuf>);

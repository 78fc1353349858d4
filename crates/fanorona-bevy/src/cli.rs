//! Command-line options of `fanorona-3d`, parsed with clap like the `fanorona` command.

use std::path::PathBuf;

use clap::Parser;

use crate::i18n::Language;

/// Play Fanorona on a 3D board.
///
/// Without options the client opens on the menu (the tutorial is offered on the first start).
/// A record file (FGN, JSON or Boardspace .sgf) given as FILE or with --game opens that game.
///
/// --screenshot and --benchmark-frames run without a person: they draw, measure or capture
/// and exit, with status 0 on success, 2 for bad arguments or an unreadable record or
/// position, 3 after the time-out, 4 when the picture cannot be written.
///
/// Examples:
///   fanorona-3d                                      # play
///   fanorona-3d games/2026-11-30.fgn --turn 12       # a saved game, after its 12th turn
///   fanorona-3d --tutorial 3                         # the tutorial, from its third lesson
///   fanorona-3d --screenshot out.png --size 640x360
///   fanorona-3d --menu --lang mg --screenshot menu-mg.png
///   fanorona-3d --benchmark-frames 300 --warmup 10 --size 64x64
#[derive(Parser, Clone, Debug, Default, PartialEq)]
#[command(name = "fanorona-3d", version, verbatim_doc_comment)]
pub struct LaunchOptions {
    /// A record file to open (the same as --game).
    #[arg(value_name = "FILE", conflicts_with_all = ["game", "position"])]
    pub file: Option<PathBuf>,
    /// A record file to open: FGN, JSON or Boardspace (.sgf).
    #[arg(long, value_name = "FILE", conflicts_with = "position")]
    pub game: Option<PathBuf>,
    /// With a record: show the position after N turns (both sides counted; 0 is the start).
    #[arg(long, value_name = "N")]
    pub turn: Option<usize>,
    /// Start from this position string (for example "W1B/3/B1W w").
    #[arg(long, value_name = "STRING")]
    pub position: Option<String>,
    /// Start the tutorial at this lesson (1 is the first).
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "1",
          value_parser = clap::value_parser!(u8).range(1..=7),
          conflicts_with_all = ["game", "position", "file"])]
    pub tutorial: Option<u8>,
    /// Render once, write FILE (PNG) and exit.
    #[arg(long, value_name = "FILE")]
    pub screenshot: Option<PathBuf>,
    /// Window size in logical pixels.
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    pub size: Option<(u32, u32)>,
    /// Physical pixels per logical pixel, instead of the screen's (1 with --screenshot and
    /// --benchmark-frames): 2 draws a 1280x720 window as 2560x1440 pixels, as on a high-DPI
    /// screen.
    #[arg(long, value_name = "F", value_parser = parse_scale)]
    pub scale_factor: Option<f32>,
    /// Give up after this many seconds in screenshot or benchmark mode.
    #[arg(long, value_name = "SECONDS", default_value_t = 120,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout: u64,
    /// Once the scene is drawn, time N frames, print frame, CPU and present times and exit.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub benchmark_frames: Option<u32>,
    /// Benchmark without --screenshot: let the scene settle this long first.
    #[arg(long, value_name = "SECONDS", default_value_t = 45)]
    pub warmup: u64,
    /// Click these board points first (for example b2,b3 to show a chain in progress).
    #[arg(long, value_name = "P1,P2,...", value_delimiter = ',')]
    pub clicks: Vec<String>,
    /// Open the file browser at the start, in DIR (default: the games folder).
    #[arg(long, value_name = "DIR", num_args = 0..=1)]
    pub browse: Option<Option<PathBuf>>,
    /// Open on the menu (also for --screenshot).
    #[arg(long)]
    pub menu: bool,
    /// The engine plays both sides (to watch, or to time frames while it thinks).
    #[arg(long)]
    pub engines: bool,
    /// Turn analysis mode on (evaluation bar and best line).
    #[arg(long)]
    pub analysis: bool,
    /// Review the game: the engine evaluates every turn, plotted as a graph with the mistakes
    /// marked (on by itself for a record opened without --turn).
    #[arg(long)]
    pub review: bool,
    /// Open the Puzzles screen (the puzzle nearest the player's rating).
    #[arg(long, conflicts_with = "trainer")]
    pub puzzles: bool,
    /// Open the endgame trainer (its first exercise, once the tables are found).
    #[arg(long)]
    pub trainer: bool,
    /// The language of the texts: en (English), fr (French) or mg (Malagasy), as if chosen in
    /// the menu. Default: the one chosen in the menu, else the system's (LANG, LC_ALL,
    /// LC_MESSAGES); English with --screenshot and --benchmark-frames.
    #[arg(long, value_name = "CODE", value_parser = parse_language)]
    pub lang: Option<Language>,
}

fn parse_language(text: &str) -> Result<Language, String> {
    Language::ALL
        .into_iter()
        .find(|l| l.code() == text.trim())
        .ok_or_else(|| "expected a language code: en, fr or mg".to_string())
}

fn parse_size(text: &str) -> Result<(u32, u32), String> {
    text.split_once(['x', 'X'])
        .and_then(|(w, h)| Some((w.trim().parse::<u32>().ok()?, h.trim().parse::<u32>().ok()?)))
        .filter(|&(w, h)| (64..=8192).contains(&w) && (64..=8192).contains(&h))
        .ok_or_else(|| "expected a size WxH between 64 and 8192, like 1280x720".to_string())
}

fn parse_scale(text: &str) -> Result<f32, String> {
    text.trim()
        .parse::<f32>()
        .ok()
        .filter(|f| (0.5..=4.0).contains(f))
        .ok_or_else(|| "expected a scale factor between 0.5 and 4, like 2 or 1.5".to_string())
}

impl LaunchOptions {
    /// Parses the program's arguments (the first one is the program name).
    ///
    /// # Errors
    ///
    /// clap's error for bad arguments, and for `--help` and `--version` (whose `exit` prints
    /// them and ends with status 0).
    pub fn parse_from_args<I, T>(args: I) -> Result<LaunchOptions, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let mut options = LaunchOptions::try_parse_from(args)?;
        if let Some(file) = options.file.take() {
            options.game = Some(file);
        }
        if options.turn.is_some() && options.game.is_none() {
            return Err(clap::Error::raw(
                clap::error::ErrorKind::MissingRequiredArgument,
                "--turn needs a record file (FILE or --game)\n",
            ));
        }
        for name in &mut options.clicks {
            *name = name.trim().to_string();
        }
        Ok(options)
    }

    /// Whether the program renders, measures or captures once and exits.
    pub fn is_batch(&self) -> bool {
        self.screenshot.is_some() || self.benchmark_frames.is_some()
    }
}

//! Command-line options of `fanorona-3d`.

use std::fmt;
use std::path::PathBuf;

/// What the program was asked to do.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LaunchOptions {
    /// Render once, write this PNG and exit.
    pub screenshot: Option<PathBuf>,
    /// Show this position (position string).
    pub position: Option<String>,
    /// Open this game record.
    pub game: Option<PathBuf>,
    /// With `game`: show the position after this many turns.
    pub turn: Option<usize>,
    /// Window size in logical pixels.
    pub size: Option<(u32, u32)>,
    /// Give up after this many seconds in screenshot or benchmark mode.
    pub timeout: u64,
    /// Measure the time of this many frames once the scene is drawn, print it and exit.
    pub benchmark_frames: Option<u32>,
    /// Seconds to wait before timing frames (benchmark without screenshot).
    pub warmup: u64,
    /// Points to click on the board after opening (for example `b2,b3` to show a chain in
    /// progress in a screenshot).
    pub clicks: Vec<String>,
    /// Open on the menu screen (also in screenshot mode).
    pub menu: bool,
    /// Let the engine play both sides (for watching and for measuring frames while it thinks).
    pub engines: bool,
}

/// Text printed for `--help`.
pub const USAGE: &str = "\
fanorona-3d: play Fanorona on a 3D board

USAGE:
    fanorona-3d [OPTIONS]

OPTIONS:
    --game FILE            open a saved game record
    --turn N               with --game: show the position after N turns
    --position STRING      start from this position string (e.g. \"W1B/3/B1W w\")
    --screenshot FILE      render once, write FILE (PNG) and exit
    --size WxH             window size (default 1280x720)
    --timeout SECONDS      give up after this long in screenshot/benchmark mode (default 120)
    --benchmark-frames N   once the scene is drawn, time N frames, print the result and exit
    --warmup SECONDS       benchmark without --screenshot: wait this long first (default 45)
    --engines              the engine plays both sides
    --menu                 open on the menu (also for --screenshot)
    --clicks P1,P2,...     click these board points first (e.g. to show a chain in progress)
    -h, --help             print this help
    -V, --version          print the version
";

/// A command line that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgError {
    /// An option that needs a value came last.
    MissingValue(String),
    /// An option's value does not parse.
    BadValue {
        /// The option.
        option: String,
        /// The value given.
        value: String,
        /// What was expected.
        expected: &'static str,
    },
    /// An unknown option or argument.
    Unknown(String),
    /// Options that do not go together.
    Conflict(&'static str),
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgError::MissingValue(o) => write!(f, "option {o} needs a value"),
            ArgError::BadValue {
                option,
                value,
                expected,
            } => {
                write!(f, "option {option}: {value:?} is not {expected}")
            }
            ArgError::Unknown(a) => write!(f, "unknown argument {a:?} (see --help)"),
            ArgError::Conflict(what) => write!(f, "{what}"),
        }
    }
}

impl std::error::Error for ArgError {}

/// What `parse_args` found: run, or print help or the version.
#[derive(Clone, Debug, PartialEq)]
pub enum Parsed {
    /// Run the client.
    Run(LaunchOptions),
    /// Print the usage text.
    Help,
    /// Print the version.
    Version,
}

/// Parses the arguments after the program name.
///
/// # Errors
///
/// [`ArgError`] for an unknown option, a missing or bad value, or conflicting options.
pub fn parse_args<I: IntoIterator<Item = String>>(args: I) -> Result<Parsed, ArgError> {
    let mut options = LaunchOptions {
        timeout: 120,
        warmup: 45,
        ..LaunchOptions::default()
    };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .ok_or_else(|| ArgError::MissingValue(name.into()))
        };
        match arg.as_str() {
            "-h" | "--help" => return Ok(Parsed::Help),
            "-V" | "--version" => return Ok(Parsed::Version),
            "--screenshot" => options.screenshot = Some(value(&arg)?.into()),
            "--position" => options.position = Some(value(&arg)?),
            "--game" => options.game = Some(value(&arg)?.into()),
            "--turn" => {
                let v = value(&arg)?;
                options.turn = Some(v.parse().map_err(|_| ArgError::BadValue {
                    option: arg.clone(),
                    value: v,
                    expected: "a number of turns",
                })?);
            }
            "--size" => {
                let v = value(&arg)?;
                let parsed = v
                    .split_once(['x', 'X'])
                    .and_then(|(w, h)| Some((w.parse::<u32>().ok()?, h.parse::<u32>().ok()?)))
                    .filter(|&(w, h)| (64..=8192).contains(&w) && (64..=8192).contains(&h));
                options.size = Some(parsed.ok_or(ArgError::BadValue {
                    option: arg.clone(),
                    value: v,
                    expected: "a size WxH between 64 and 8192, like 1280x720",
                })?);
            }
            "--timeout" => {
                let v = value(&arg)?;
                options.timeout = v
                    .parse()
                    .ok()
                    .filter(|&t| t > 0)
                    .ok_or(ArgError::BadValue {
                        option: arg.clone(),
                        value: v,
                        expected: "a positive number of seconds",
                    })?;
            }
            "--benchmark-frames" => {
                let v = value(&arg)?;
                options.benchmark_frames = Some(v.parse().ok().filter(|&n| n > 0).ok_or(
                    ArgError::BadValue {
                        option: arg.clone(),
                        value: v,
                        expected: "a positive number of frames",
                    },
                )?);
            }
            "--warmup" => {
                let v = value(&arg)?;
                options.warmup = v.parse().map_err(|_| ArgError::BadValue {
                    option: arg.clone(),
                    value: v,
                    expected: "a number of seconds",
                })?;
            }
            "--engines" => options.engines = true,
            "--menu" => options.menu = true,
            "--clicks" => {
                options.clicks = value(&arg)?
                    .split(',')
                    .map(|s| s.trim().to_string())
                    .collect();
            }
            _ => return Err(ArgError::Unknown(arg)),
        }
    }
    if options.position.is_some() && options.game.is_some() {
        return Err(ArgError::Conflict(
            "--position and --game cannot be used together",
        ));
    }
    if options.turn.is_some() && options.game.is_none() {
        return Err(ArgError::Conflict("--turn needs --game"));
    }
    Ok(Parsed::Run(options))
}

impl LaunchOptions {
    /// Whether the program renders, measures or captures once and exits.
    pub fn is_batch(&self) -> bool {
        self.screenshot.is_some() || self.benchmark_frames.is_some()
    }
}

//! The endgame tables on the player's machine: where they are looked for, loading them on a
//! worker thread, and building the small ones in the background (with progress) when none
//! are found. Building never runs on the window's thread, so the frame rate does not drop.
//!
//! The tables are looked for in the client's data folder ([`default_tables_dir`], where they
//! are also built: `~/.local/share/fanorona/tables` on Linux) and then in `tables/` of the
//! folder the client was started from (the repository's committed 4-stone tables). A folder
//! written by `fanorona solve --tables DIR` is used as it is.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};

use bevy::prelude::*;
use fanorona_ai::solve::tablebase::{EXTENSION, Tablebase};
use fanorona_ai::solve::{Budget, solver_rules, tablegen};
use fanorona_core::BoardSize;

use crate::i18n::{Arg, Msg};

/// The most stones the client offers to build: the 5-stone tables take 46 MiB and about 40 s
/// of one core; 6 stones would take 648 MiB and a quarter of an hour of a core.
pub const MAX_BUILD_STONES: u32 = 5;

/// Measured speed of building (`docs/solver.md`: 38.8 million positions up to 5 stones in
/// 40 s of CPU): about a million positions a second on one core.
const POSITIONS_PER_SECOND: u64 = 1_000_000;

/// Where the client builds tables and looks for them first: `<data dir>/fanorona/tables`
/// (for example `~/.local/share/fanorona/tables` on Linux).
pub fn default_tables_dir() -> Option<PathBuf> {
    // i18n: not text (folder names)
    dirs::data_dir().map(|dir| dir.join("fanorona").join("tables"))
}

/// The folders searched for tables, in order: the client's data folder, then `tables/` in
/// the current folder.
pub fn candidate_dirs() -> Vec<PathBuf> {
    default_tables_dir()
        .into_iter()
        // i18n: not text (a folder name)
        .chain(std::iter::once(PathBuf::from("tables")))
        .collect()
}

/// `n` choose `k`.
fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1))
}

/// The positions of each class of the standard board with 2 to `max_stones` stones (each
/// side at least one).
fn class_sizes(max_stones: u32) -> Vec<u64> {
    let n = BoardSize::STANDARD.len() as u64;
    let mut sizes = Vec::new();
    for stones in 2..=u64::from(max_stones) {
        for s in 1..stones {
            let o = stones - s;
            sizes.push(binomial(n, s) * binomial(n - s, o));
        }
    }
    sizes
}

/// Positions of every class of the standard board with 2 to `max_stones` stones (each side at
/// least one): what building those tables solves.
pub fn positions_up_to(max_stones: u32) -> u64 {
    class_sizes(max_stones).iter().sum()
}

/// What building the tables up to `max_stones` stones costs: bytes on disk (a file a class for
/// the distances, one byte a position, and one for win/draw/loss, two bits a position; 32
/// bytes of header each) and the seconds of one core it takes.
pub fn build_cost(max_stones: u32) -> (u64, u64) {
    let sizes = class_sizes(max_stones);
    let bytes = sizes.iter().map(|&n| 32 + n + 32 + n.div_ceil(4)).sum();
    let seconds = positions_up_to(max_stones)
        .div_ceil(POSITIONS_PER_SECOND)
        .max(1);
    (bytes, seconds)
}

/// `2.6 MiB`, `46.3 MiB`.
pub fn mib(bytes: u64) -> Msg {
    Msg::new("trainer-mib").with("value", Arg::Decimal(bytes as f64 / (1024.0 * 1024.0), 1))
}

/// The offer shown before building: the disk space and the time.
pub fn build_offer(max_stones: u32) -> Msg {
    let (bytes, seconds) = build_cost(max_stones);
    let time = if seconds < 60 {
        Msg::new("trainer-seconds").with("seconds", seconds)
    } else {
        Msg::new("trainer-minutes").with("minutes", seconds.div_ceil(60))
    };
    Msg::new("trainer-build")
        .with("stones", max_stones)
        .with("size", mib(bytes))
        .with("time", time)
}

/// Whether `dir` holds table files.
fn has_tables(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .filter_map(Result::ok)
            .any(|e| e.path().extension().is_some_and(|x| x == EXTENSION))
    })
}

/// Where the tables stand.
#[derive(Clone, Debug, Default)]
pub enum TablesState {
    /// Not looked for yet.
    #[default]
    Unknown,
    /// Being read from this folder.
    Loading(PathBuf),
    /// None found in the folders searched.
    Missing,
    /// Being built: done and total positions.
    Building {
        /// The folder written.
        dir: PathBuf,
        /// The most stones.
        max_stones: u32,
    },
    /// Loaded from this folder, covering every class up to `max_stones`.
    Ready {
        /// The tables.
        tables: Arc<Tablebase>,
        /// Their folder.
        dir: PathBuf,
        /// Every class of the standard board with at most this many stones is there.
        max_stones: u32,
    },
    /// Loading or building failed: why.
    Failed(Msg),
}

/// The progress of a build, shared with its thread.
#[derive(Default)]
struct Progress {
    /// Positions of the classes finished.
    done: AtomicU64,
    /// Positions of all the classes to build.
    total: AtomicU64,
}

/// The endgame tables of the standard board and the work on them.
#[derive(Resource)]
pub struct Tables {
    /// The folders to look in, in order.
    pub dirs: Vec<PathBuf>,
    /// Where to build (the first of [`Tables::dirs`] by default).
    pub build_dir: Option<PathBuf>,
    state: TablesState,
    progress: Arc<Progress>,
    result: Option<Mutex<Receiver<Result<(Tablebase, PathBuf), String>>>>,
}

impl Default for Tables {
    fn default() -> Self {
        Tables::in_dirs(candidate_dirs(), default_tables_dir())
    }
}

impl Tables {
    /// Tables looked for in `dirs`, built into `build_dir`.
    pub fn in_dirs(dirs: Vec<PathBuf>, build_dir: Option<PathBuf>) -> Tables {
        Tables {
            dirs,
            build_dir,
            state: TablesState::Unknown,
            progress: Arc::default(),
            result: None,
        }
    }

    /// Where the tables stand.
    pub fn state(&self) -> &TablesState {
        &self.state
    }

    /// The loaded tables and the most stones they cover.
    pub fn ready(&self) -> Option<(&Arc<Tablebase>, u32)> {
        match &self.state {
            TablesState::Ready {
                tables, max_stones, ..
            } => Some((tables, *max_stones)),
            _ => None,
        }
    }

    /// The share of the build done, from 0 to 1 (`None` when nothing is being built).
    pub fn build_progress(&self) -> Option<f32> {
        if !matches!(self.state, TablesState::Building { .. }) {
            return None;
        }
        let total = self.progress.total.load(Ordering::Relaxed).max(1);
        Some((self.progress.done.load(Ordering::Relaxed) as f32 / total as f32).min(1.0))
    }

    /// Looks for tables (once): the first folder of [`Tables::dirs`] holding table files is
    /// read on a worker thread.
    pub fn find(&mut self) {
        if !matches!(self.state, TablesState::Unknown | TablesState::Missing) {
            return;
        }
        let Some(dir) = self.dirs.iter().find(|d| has_tables(d)).cloned() else {
            self.state = TablesState::Missing;
            return;
        };
        let (send, receive) = channel();
        let thread_dir = dir.clone();
        let spawned = std::thread::Builder::new()
            // i18n: not text (a thread's name)
            .name("fanorona-tables-load".into())
            .spawn(move || {
                let loaded = Tablebase::load(&thread_dir)
                    .map(|t| (t, thread_dir.clone()))
                    .map_err(|e| e.to_string());
                let _ = send.send(loaded);
            });
        match spawned {
            Ok(_) => {
                self.result = Some(Mutex::new(receive));
                self.state = TablesState::Loading(dir);
            }
            Err(e) => self.state = TablesState::Failed(no_thread(&e)),
        }
    }

    /// Builds the tables of the standard board up to `max_stones` stones into
    /// [`Tables::build_dir`] on a worker thread, then loads them. Classes already there are
    /// kept (an interrupted build goes on where it stopped).
    pub fn build(&mut self, max_stones: u32) {
        if matches!(
            self.state,
            TablesState::Building { .. } | TablesState::Loading(_)
        ) {
            return;
        }
        let Some(dir) = self.build_dir.clone() else {
            self.state = TablesState::Failed(Msg::new("trainer-no-data-dir"));
            return;
        };
        let max_stones = max_stones.clamp(2, MAX_BUILD_STONES);
        let progress = Arc::new(Progress::default());
        progress
            .total
            .store(positions_up_to(max_stones), Ordering::Relaxed);
        let (send, receive) = channel();
        let thread_progress = progress.clone();
        let thread_dir = dir.clone();
        let spawned = std::thread::Builder::new()
            // i18n: not text (a thread's name)
            .name("fanorona-tables-build".into())
            .spawn(move || {
                let built = build_tables(&thread_dir, max_stones, &thread_progress)
                    .and_then(|()| Tablebase::load(&thread_dir).map_err(|e| e.to_string()))
                    .map(|t| (t, thread_dir.clone()));
                let _ = send.send(built);
            });
        match spawned {
            Ok(_) => {
                self.progress = progress;
                self.result = Some(Mutex::new(receive));
                self.state = TablesState::Building { dir, max_stones };
            }
            Err(e) => self.state = TablesState::Failed(no_thread(&e)),
        }
    }

    /// Takes in what a worker thread finished.
    fn poll(&mut self) {
        let Some(result) = &self.result else {
            return;
        };
        let received = result.lock().ok().and_then(|r| r.try_recv().ok());
        let Some(received) = received else {
            return;
        };
        self.result = None;
        self.state = match received {
            Ok((tables, dir)) => {
                let max_stones = tables.max_stones(BoardSize::STANDARD);
                TablesState::Ready {
                    tables: Arc::new(tables),
                    dir,
                    max_stones,
                }
            }
            Err(e) => TablesState::Failed(Msg::new("trainer-error-text").with("error", e)),
        };
    }

    /// Uses tables already in memory (tests, or tables another part of the program loaded).
    pub fn set_ready(&mut self, tables: Tablebase, dir: PathBuf) {
        let max_stones = tables.max_stones(BoardSize::STANDARD);
        self.result = None;
        self.state = TablesState::Ready {
            tables: Arc::new(tables),
            dir,
            max_stones,
        };
    }

    /// A line about the tables for the trainer's panel.
    pub fn status_text(&self) -> Msg {
        match &self.state {
            TablesState::Unknown => Msg::new("trainer-tables-looking"),
            TablesState::Loading(dir) => {
                Msg::new("trainer-tables-reading").with("dir", dir.display().to_string())
            }
            TablesState::Missing => {
                let places: Vec<String> =
                    self.dirs.iter().map(|d| d.display().to_string()).collect();
                Msg::new("trainer-tables-missing").with("dirs", places.join(", "))
            }
            TablesState::Building { dir, max_stones } => Msg::new("trainer-tables-building")
                .with("stones", *max_stones)
                .with("dir", dir.display().to_string())
                .with(
                    "percent",
                    (self.build_progress().unwrap_or(0.0) * 100.0).round() as i64,
                ),
            TablesState::Ready {
                dir, max_stones, ..
            } => Msg::new("trainer-tables-ready")
                .with("stones", *max_stones)
                .with("dir", dir.display().to_string()),
            TablesState::Failed(why) => {
                Msg::new("trainer-tables-failed").with("error", why.clone())
            }
        }
    }
}

fn no_thread(e: &std::io::Error) -> Msg {
    Msg::new("trainer-no-thread").with("error", e.to_string())
}

/// Builds the tables into `dir` (through a staging folder inside it, emptied first), counting
/// the positions of finished classes into `progress`.
fn build_tables(dir: &Path, max_stones: u32, progress: &Progress) -> Result<(), String> {
    // i18n: not text (a folder name)
    let staging = dir.join(".staging");
    let _ = std::fs::remove_dir_all(&staging);
    std::fs::create_dir_all(&staging).map_err(|e| format!("{}: {e}", staging.display()))?;
    let options =
        tablegen::Options::new(BoardSize::STANDARD, solver_rules(), max_stones).staging(&staging);
    let result = tablegen::generate(
        dir,
        &options,
        &Budget::default(),
        &mut |_| {},
        &mut |class| {
            progress
                .done
                .fetch_add(class.stats.positions, Ordering::Relaxed);
        },
    );
    let _ = std::fs::remove_dir_all(&staging);
    result.map(|_| ()).map_err(|e| e.to_string())
}

/// Follows the worker threads.
pub(super) fn poll_tables(mut tables: ResMut<Tables>) {
    if tables.result.is_some() {
        tables.poll();
    }
}

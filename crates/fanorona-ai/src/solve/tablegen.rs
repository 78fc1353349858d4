//! Endgame tables generated on disk, class pair by class pair, in little memory and resumably;
//! and their consistency check.
//!
//! [`generate`] writes the tables of a board into a directory: for each material class the
//! distance layer (`RxC-SvO.fntb`, one byte a position, the format of
//! [`tablebase`](super::tablebase)) and the compact win/draw/loss layer (`RxC-SvO.fnwdl`, two
//! bits a position). Classes are solved in pairs (`SvO` with `OvS`, linked by paikas) in order
//! of total stones, each pair's files written atomically (a temporary file renamed into place)
//! as soon as it is solved; a pair whose files are already there and load is skipped, so an
//! interrupted run resumes where it stopped. Only the pair being solved and the tables of fewer
//! stones (which captures lead to) are in memory.
//!
//! # The method
//!
//! Captures are compulsory and lead to classes already solved, so a position with a capture
//! (or without any turn) has its value and distance from the smaller tables at once: a first
//! pass over the pair settles those and counts the turns (all paikas) of every other position.
//! Then the paika positions are settled by increasing distance `d` with *un-moves*, without
//! storing any edge: each position settled at distance `d` is un-moved (a stone of the side
//! that has just moved steps back to an empty neighbour) to each parent still open; a parent of
//! a loss becomes a win at `d + 1`; a parent of a win loses one from its count, and when no
//! turn is left it becomes a loss at `d + 1`. A parent found this way is always a paika
//! position (positions with captures are settled before), so the un-move is a legal paika of
//! it. Whatever stays open is a draw. Memory: two bytes a position of the pair (the entry and
//! the count), plus the smaller tables.
//!
//! [`check`] verifies tables independently of that method, forward only: for every position of
//! every class it generates each legal turn, looks the child up, and checks that the entry is
//! exactly what the children's entries make it (a win at `1 +` the smallest distance of a
//! losing child; else a draw when a child is a draw; else a loss at `1 +` the largest distance of
//! the children; a loss at 0 or a draw without any turn, by the stuck rule), and that the
//! win/draw/loss layer agrees with the distance layer.
//!
//! # Examples
//!
//! ```
//! use fanorona_ai::solve::{self, Budget, tablegen, tablebase::Tablebase};
//! use fanorona_core::BoardSize;
//!
//! let dir = std::env::temp_dir().join(format!("fanorona-tablegen-doc-{}", std::process::id()));
//! let rules = solve::solver_rules();
//! let report = tablegen::generate(&dir, &tablegen::Options::new(BoardSize::TELO, rules, 4), &Budget::default(), &mut |_| {}, &mut |_| {})?;
//! assert_eq!(report.classes.len(), 6); // 1v1, 2v1, 1v2, 3v1, 1v3, 2v2
//! let checked = tablegen::check(&dir, BoardSize::TELO, 4, &mut |_| {})?;
//! assert_eq!(checked.positions, report.positions);
//! // A second run finds every pair done.
//! let again = tablegen::generate(&dir, &tablegen::Options::new(BoardSize::TELO, rules, 4), &Budget::default(), &mut |_| {}, &mut |_| {})?;
//! assert!(again.classes.iter().all(|c| c.resumed));
//! let tables = Tablebase::load(&dir)?;
//! assert_eq!(tables.max_stones(BoardSize::TELO), 4);
//! # std::fs::remove_dir_all(&dir).ok();
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use fanorona_core::{Bitboard, BoardSize, Color, Direction, Position, Rules, Setup, StuckRule};

use super::tablebase::{
    ClassStats, Probe, TableError, Tablebase, class_len, file_name, index, pack_wdl, unindex,
    wdl_file_name, write_distance_file, write_wdl_file,
};
use super::{Budget, Progress, SolveError};

/// An open entry during generation (the distance layer's `0`, a draw, is written at the end).
const OPEN: u8 = 0;
/// A settled draw during generation.
const DRAW: u8 = 255;
/// The largest distance an entry holds (`1 + d` in a byte, 255 kept for draws while generating).
const MAX_DISTANCE: u16 = 253;

/// One class of a [`generate`] run.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ClassReport {
    /// Its figures (time: the pair's time, shared equally by its two classes).
    pub stats: ClassStats,
    /// Whether its files were already there and were loaded instead of generated.
    pub resumed: bool,
    /// Bytes of its two files.
    pub bytes: u64,
    /// The memory the generation's arrays took while its pair was solved: two bytes a
    /// position of the pair, and the distance layers of the smaller classes its captures lead
    /// to (0 when resumed).
    pub peak_bytes: u64,
}

/// What a [`generate`] run did.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Report {
    /// Every class, in the order solved.
    pub classes: Vec<ClassReport>,
    /// Positions over all classes.
    pub positions: u64,
    /// Bytes of all the files.
    pub bytes: u64,
    /// The largest memory the generation's arrays took at once (entries and counts of a pair,
    /// plus the smaller tables its captures lead to), in bytes.
    pub peak_bytes: u64,
    /// The most threads that worked at once (fewer than asked when the system could not give
    /// them; 1 when every pair was on disk).
    pub threads: usize,
    /// Time of the whole run.
    pub time: Duration,
}

/// What to generate: the board, the rules and the most stones.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Options {
    /// The board.
    pub size: BoardSize,
    /// The rules (only the stuck rule and compulsory continuation matter).
    pub rules: Rules,
    /// Most stones in total, 2 to 8.
    pub max_stones: u32,
    /// Where files are written before they are renamed into the tables' directory (the
    /// same file system); the tables' directory itself when `None`.
    pub staging: Option<PathBuf>,
    /// Threads to work on a pair (at least 1; the files are the same with any number).
    pub threads: usize,
}

impl Options {
    /// Every class of `size` with 2 to `max_stones` stones under `rules`, on one thread.
    pub fn new(size: BoardSize, rules: Rules, max_stones: u32) -> Options {
        Options {
            size,
            rules,
            max_stones,
            staging: None,
            threads: 1,
        }
    }

    /// Writes files into `dir` first (for example a temporary folder removed when the program
    /// is interrupted), then renames them into place.
    pub fn staging(mut self, dir: impl Into<PathBuf>) -> Options {
        self.staging = Some(dir.into());
        self
    }

    /// Works on `threads` threads (at least 1): both passes are split by ranges of positions,
    /// and the files are byte for byte those of one thread.
    pub fn threads(mut self, threads: usize) -> Options {
        self.threads = threads.max(1);
        self
    }
}

/// The pairs of classes `a v b` (with `b v a`, `a >= b`) in the order [`generate`] solves
/// them: by total stones, and of a total the most unequal first.
fn pairs(max_stones: u32) -> Vec<(u8, u8)> {
    (2..=max_stones as u8)
        .flat_map(|total| {
            (total.div_ceil(2)..total)
                .rev()
                .map(move |a| (a, total - a))
        })
        .collect()
}

/// The classes that the captures of the pair `a v b` and `b v a` lead to: a capture in
/// `a v b` leaves the other side to move with fewer than `b` stones against `a`.
fn capture_classes(a: u8, b: u8) -> Vec<(u8, u8)> {
    let mut v: Vec<(u8, u8)> = (1..b).map(|k| (k, a)).collect();
    if a != b {
        v.extend((1..a).map(|k| (k, b)));
    }
    v
}

/// Generates into `dir` the tables of every material class of `options.size` with 2 to
/// `options.max_stones` stones (each side at least one), skipping pairs of classes whose files
/// are already there. `progress` hears about the work within a pair; `done` about each class
/// as soon as its files are written (or found).
///
/// Memory: while a pair is solved, two bytes a position of the pair and the distance layers of
/// the classes its captures lead to (read from `dir` when needed); nothing else is kept.
///
/// # Errors
///
/// [`TableError::BadStoneCount`], [`TableError::DistanceOverflow`], [`TableError::Io`] when a
/// file cannot be written, [`TableError::Format`] or [`TableError::Checksum`] when a file
/// already there is damaged (remove it to have it generated again), and [`TableError::Solve`]
/// when the budget runs out.
pub fn generate(
    dir: &Path,
    options: &Options,
    budget: &Budget,
    progress: &mut dyn FnMut(Progress),
    done: &mut dyn FnMut(&ClassReport),
) -> Result<Report, TableError> {
    let (size, max_stones) = (options.size, options.max_stones);
    let staging = options.staging.as_deref().unwrap_or(dir);
    if !(2..=8).contains(&max_stones) || max_stones as usize > size.len() {
        return Err(TableError::BadStoneCount { max_stones });
    }
    let rules = super::tablebase::normal_rules(options.rules);
    let clock = budget.clock();
    std::fs::create_dir_all(dir).map_err(|error| TableError::Io {
        path: dir.to_owned(),
        error,
    })?;
    let n = size.len();
    // The smaller classes the pair being solved captures into, and only those.
    let mut tb = Tablebase::new();
    tb.set_rules(size, rules);
    let mut report = Report {
        classes: Vec::new(),
        positions: 0,
        bytes: 0,
        peak_bytes: 0,
        threads: 1,
        time: Duration::ZERO,
    };
    for (a, b) in pairs(max_stones) {
        {
            let mut classes = vec![(a, b)];
            if a != b {
                classes.push((b, a));
            }
            let have = classes.iter().all(|&(s, o)| {
                dir.join(file_name(size, s, o)).exists()
                    && dir.join(wdl_file_name(size, s, o)).exists()
            });
            if have {
                for &(s, o) in &classes {
                    let entries = tb.load_class(dir, size, s, o, rules)?;
                    let stats = super::tablebase::class_stats(size, s, o, &entries, Duration::ZERO);
                    let bytes = file_bytes(dir, size, s, o);
                    let c = ClassReport {
                        stats,
                        resumed: true,
                        bytes,
                        peak_bytes: 0,
                    };
                    done(&c);
                    report.classes.push(c);
                }
                continue;
            }
            let needed = capture_classes(a, b);
            let pair_bytes: u64 = classes.iter().map(|&(s, o)| 2 * class_len(n, s, o)).sum();
            let lower_bytes: u64 = needed.iter().map(|&(s, o)| class_len(n, s, o)).sum();
            let in_memory = pair_bytes + lower_bytes;
            budget.check_bytes(in_memory, "table generation")?;
            report.peak_bytes = report.peak_bytes.max(in_memory);
            tb.retain_classes(size, &needed);
            for &(s, o) in &needed {
                if !tb.has_class(size, s, o) {
                    let entries = tb.load_class(dir, size, s, o, rules)?;
                    tb.insert_entries(size, s, o, entries);
                }
            }
            let t0 = Instant::now();
            let (solved, used) =
                solve_pair(&tb, size, rules, a, b, options.threads, &clock, progress)?;
            report.threads = report.threads.max(used);
            let time = t0.elapsed() / solved.len() as u32;
            for (s, o, entries) in solved {
                let stats = super::tablebase::class_stats(size, s, o, &entries, time);
                let flags = super::tablebase::rules_flags(rules);
                let mut bytes = write_distance_file(dir, staging, size, s, o, flags, &entries)?;
                bytes += write_wdl_file(dir, staging, size, s, o, flags, &pack_wdl(&entries))?;
                drop(entries);
                let c = ClassReport {
                    stats,
                    resumed: false,
                    bytes,
                    peak_bytes: in_memory,
                };
                done(&c);
                report.classes.push(c);
            }
        }
    }
    report.positions = report.classes.iter().map(|c| c.stats.positions).sum();
    report.bytes = report.classes.iter().map(|c| c.bytes).sum();
    report.time = clock.elapsed();
    Ok(report)
}

fn file_bytes(dir: &Path, size: BoardSize, s: u8, o: u8) -> u64 {
    [file_name(size, s, o), wdl_file_name(size, s, o)]
        .iter()
        .filter_map(|f| std::fs::metadata(dir.join(f)).ok())
        .map(|m| m.len())
        .sum()
}

/// The position of class `s v o` with White (the side to move) on `stm` and Black on `opp`.
#[inline]
pub(super) fn position(size: BoardSize, rules: Rules, stm: u64, opp: u64) -> Position {
    Position::from_setup(
        {
            let mut setup = Setup::empty(size);
            setup.white = Bitboard::from_bits(stm);
            setup.black = Bitboard::from_bits(opp);
            setup.side_to_move = Color::White;
            setup.no_capture_count = 0;
            setup.turn_number = 2;
            setup
        },
        rules,
    )
    .expect("table positions are valid")
}

/// The entry of a child of a capture (`Black` to move after White's turn) from the smaller
/// tables: `1 + d`, or [`DRAW`].
#[inline]
fn lower_entry(tb: &Tablebase, size: BoardSize, child: &Position) -> u8 {
    let c_stm = child.stones(Color::Black).bits();
    let c_opp = child.stones(Color::White).bits();
    if c_stm == 0 {
        return 1; // lost at distance 0
    }
    let cs = c_stm.count_ones() as u8;
    let co = c_opp.count_ones() as u8;
    match tb.entry(size, cs, co, index(size.len(), c_stm, c_opp)) {
        0 => DRAW,
        e => e,
    }
}

/// The entry of a position from its children's entries (each `1 + d` or [`DRAW`]); `None`
/// when it has no children.
fn from_children(children: impl Iterator<Item = u8>) -> Option<Result<u8, ()>> {
    let mut any = false;
    let mut min_loss: Option<u8> = None;
    let mut max_win: u8 = 0;
    let mut draw = false;
    for e in children {
        any = true;
        if e == DRAW || e == OPEN {
            draw = true;
        } else if (e - 1) % 2 == 0 {
            min_loss = Some(min_loss.map_or(e, |m| m.min(e)));
        } else {
            max_win = max_win.max(e);
        }
    }
    if !any {
        return None;
    }
    // The parent's entry is 1 + (1 + child's distance) = child's entry + 1.
    let up = |e: u8| -> Result<u8, ()> {
        if u16::from(e) > MAX_DISTANCE {
            Err(())
        } else {
            Ok(e + 1)
        }
    };
    Some(if let Some(e) = min_loss {
        up(e)
    } else if draw {
        Ok(DRAW)
    } else {
        up(max_win)
    })
}

/// Positions of a chunk of work shared among threads.
const CHUNK: u64 = 1 << 16;

/// Runs `work(chunk)` for every chunk `0..chunks` on this thread and up to `threads - 1` more
/// (as many as the system can give, [`crate::threads::spawn_scoped`]), the chunks taken in
/// increasing order. `between` runs on this thread after each chunk it did (progress and the
/// time budget). Stops at the first error; of errors in several chunks, the one of the lowest
/// chunk is returned (every chunk below it was done), so the result does not depend on the
/// number of threads. Returns the number of threads that worked.
fn for_chunks<E: Send>(
    threads: usize,
    chunks: u64,
    work: &(dyn Fn(u64) -> Result<(), E> + Sync),
    between: &mut dyn FnMut() -> Result<(), E>,
) -> Result<usize, E> {
    let next = AtomicU64::new(0);
    // The lowest chunk that failed (u64::MAX: none); chunks above it are not started.
    let stop = AtomicU64::new(u64::MAX);
    let failure: Mutex<Option<(u64, E)>> = Mutex::new(None);
    let fail = |chunk: u64, e: E| {
        let mut f = failure.lock().unwrap_or_else(|p| p.into_inner());
        if f.as_ref().is_none_or(|(c, _)| chunk < *c) {
            *f = Some((chunk, e));
        }
        stop.fetch_min(chunk, Ordering::SeqCst);
    };
    // Takes the next chunk and does it; false when there is none left or a chunk failed.
    let step = || -> bool {
        let c = next.fetch_add(1, Ordering::SeqCst);
        if c >= chunks || c > stop.load(Ordering::SeqCst) {
            return false;
        }
        match work(c) {
            Ok(()) => true,
            Err(e) => {
                fail(c, e);
                false
            }
        }
    };
    let mut interrupted = None;
    let used = std::thread::scope(|scope| {
        let wanted = threads.clamp(1, usize::try_from(chunks).unwrap_or(usize::MAX).max(1));
        let mut helpers = Vec::new();
        while helpers.len() + 1 < wanted {
            match crate::threads::spawn_scoped(scope, || while step() {}) {
                Some(h) => helpers.push(h),
                None => break,
            }
        }
        while step() {
            if let Err(e) = between() {
                // The time budget: every thread stops after its chunk.
                stop.store(0, Ordering::SeqCst);
                interrupted = Some(e);
                break;
            }
        }
        let used = helpers.len() + 1;
        for h in helpers {
            // A helper's panic is this computation's.
            if let Err(p) = h.join() {
                std::panic::resume_unwind(p);
            }
        }
        used
    });
    if let Some(e) = interrupted {
        return Err(e);
    }
    match failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        Some((_, e)) => Err(e),
        None => Ok(used),
    }
}

/// `len` zeros as atomic bytes, the memory reserved fallibly.
fn atomic_zeros(len: u64, what: &'static str) -> Result<Vec<AtomicU8>, TableError> {
    let oom = || {
        TableError::Solve(SolveError::MemoryLimit {
            limit: len,
            reached: len,
            what,
        })
    };
    let len = usize::try_from(len).map_err(|_| oom())?;
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| oom())?;
    v.resize_with(len, || AtomicU8::new(0));
    Ok(v)
}

/// A solved class: its stones (side to move, other side) and its distance layer.
type Solved = (u8, u8, Vec<u8>);

/// Solves classes `a v b` and `b v a` together by un-moves (see the module documentation), on
/// up to `threads` threads; returns the classes' entries and the threads that worked.
#[allow(clippy::too_many_arguments)]
fn solve_pair(
    tb: &Tablebase,
    size: BoardSize,
    rules: Rules,
    a: u8,
    b: u8,
    threads: usize,
    clock: &super::Clock,
    progress: &mut dyn FnMut(Progress),
) -> Result<(Vec<Solved>, usize), TableError> {
    let n = size.len();
    let mut classes = vec![(a, b)];
    if a != b {
        classes.push((b, a));
    }
    // slot 0: a v b, slot 1: b v a (the same as slot 0 when a == b).
    let slot_of = |s: u8| -> usize { usize::from(s != a) };
    let mut entries: Vec<Vec<AtomicU8>> = Vec::new();
    let mut counts: Vec<Vec<AtomicU8>> = Vec::new();
    for &(s, o) in &classes {
        entries.push(atomic_zeros(class_len(n, s, o), "table generation")?);
        counts.push(atomic_zeros(class_len(n, s, o), "table generation")?);
    }
    let total: u64 = classes.iter().map(|&(s, o)| class_len(n, s, o)).sum();
    let done = AtomicU64::new(0);
    let max_seed = AtomicU8::new(0);
    let mut used = 1;
    // Pass 1: positions with a capture or without a turn, from the smaller tables; the others'
    // turn counts. Each entry depends on its position only, so any split gives the same.
    for (slot, &(s, o)) in classes.iter().enumerate() {
        let len = class_len(n, s, o);
        let (e, c) = (&entries[slot], &counts[slot]);
        let work = |chunk: u64| -> Result<(), TableError> {
            let mut kids = Vec::with_capacity(32);
            let mut seed = 0u8;
            let end = len.min((chunk + 1) * CHUNK);
            for idx in chunk * CHUNK..end {
                let (stm, opp) = unindex(n, s, o, idx);
                let pos = position(size, rules, stm, opp);
                let i = idx as usize;
                if pos.has_capture() {
                    kids.clear();
                    pos.for_each_turn(|t| {
                        kids.push(lower_entry(tb, size, &pos.play_unchecked(&t)));
                    });
                    let v = from_children(kids.iter().copied())
                        .expect("a capture is a turn")
                        .map_err(|()| TableError::DistanceOverflow { stm: s, opp: o })?;
                    e[i].store(v, Ordering::Relaxed);
                    if v != DRAW {
                        seed = seed.max(v);
                    }
                } else {
                    let k = pos.count_turns();
                    if k == 0 {
                        let v = if rules.stuck() == StuckRule::Draws {
                            DRAW
                        } else {
                            1
                        };
                        e[i].store(v, Ordering::Relaxed);
                    } else {
                        let k = u8::try_from(k).map_err(|_| {
                            TableError::Solve(SolveError::Internal("more than 255 paikas"))
                        })?;
                        c[i].store(k, Ordering::Relaxed);
                    }
                }
            }
            max_seed.fetch_max(seed, Ordering::Relaxed);
            done.fetch_add(end - chunk * CHUNK, Ordering::Relaxed);
            Ok(())
        };
        used = used.max(for_chunks(
            threads,
            len.div_ceil(CHUNK),
            &work,
            &mut || {
                clock.check("table generation")?;
                progress(Progress {
                    stage: "captures",
                    done: done.load(Ordering::Relaxed),
                    total,
                });
                Ok(())
            },
        )?);
    }
    let max_seed = max_seed.into_inner();
    let geo = size.geometry();
    let dirs: Vec<Direction> = (0..8).map(Direction::from_index).collect();
    // Pass 2: by increasing distance. At level `d` the positions whose entry is `d + 1` are
    // un-moved; the entries written are `d + 2` and only open entries are written, each count
    // falls once for each of its turns (atomically), and the one decrement that reaches zero
    // writes the loss: whatever the order, the level ends with the same entries.
    let mut d: u16 = 0;
    loop {
        let code = (d + 1) as u8;
        let found = AtomicBool::new(false);
        for (slot, &(s, o)) in classes.iter().enumerate() {
            let len = class_len(n, s, o);
            let here = &entries[slot];
            // The parents of a position of `s v o` are in `o v s`.
            let pslot = slot_of(o);
            let (parents, pcounts) = (&entries[pslot], &counts[pslot]);
            let work = |chunk: u64| -> Result<(), TableError> {
                let mut any = false;
                for idx in chunk * CHUNK..len.min((chunk + 1) * CHUNK) {
                    if here[idx as usize].load(Ordering::Relaxed) != code {
                        continue;
                    }
                    any = true;
                    let (stm, opp) = unindex(n, s, o, idx);
                    let empty = geo.all().bits() & !(stm | opp);
                    let mut m = opp;
                    while m != 0 {
                        let e = m & m.wrapping_neg();
                        m &= m - 1;
                        for &dir in &dirs {
                            // The point from which a step in `dir` reaches `e`, if empty.
                            let x = geo.toward(Bitboard::from_bits(e), dir).bits() & empty;
                            if x == 0 {
                                continue;
                            }
                            let p_stm = (opp & !e) | x;
                            let pidx = index(n, p_stm, stm) as usize;
                            let pe = &parents[pidx];
                            if pe.load(Ordering::Relaxed) != OPEN {
                                continue;
                            }
                            // The child is lost: the parent wins at d + 1; or it was the
                            // parent's last turn to a win: the parent loses at d + 1.
                            if d.is_multiple_of(2)
                                || pcounts[pidx].fetch_sub(1, Ordering::Relaxed) == 1
                            {
                                if d + 1 > MAX_DISTANCE {
                                    return Err(TableError::DistanceOverflow { stm: o, opp: s });
                                }
                                pe.store(code + 1, Ordering::Relaxed);
                            }
                        }
                    }
                }
                if any {
                    found.store(true, Ordering::Relaxed);
                }
                Ok(())
            };
            used = used.max(for_chunks(
                threads,
                len.div_ceil(CHUNK),
                &work,
                &mut || clock.check("table generation").map_err(TableError::from),
            )?);
        }
        clock.check("table generation")?;
        progress(Progress {
            stage: "distance",
            done: u64::from(d),
            total: 0,
        });
        if !found.into_inner() && code >= max_seed {
            break;
        }
        d += 1;
    }
    drop(counts);
    let solved = classes
        .into_iter()
        .zip(entries)
        .map(|((s, o), e)| {
            // In place: an atomic byte and a byte have the same layout.
            let e: Vec<u8> = e
                .into_iter()
                .map(|v| match v.into_inner() {
                    DRAW => 0,
                    v => v,
                })
                .collect();
            (s, o, e)
        })
        .collect();
    Ok((solved, used))
}

/// What [`check`] found.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct CheckReport {
    /// Classes checked.
    pub classes: u64,
    /// Positions checked.
    pub positions: u64,
    /// Turns generated and looked up.
    pub turns: u64,
    /// Time taken.
    pub time: Duration,
}

/// Checks every table of `size` with 2 to `max_stones` stones in `dir`: every position's
/// entry is what its children's entries make it, and the win/draw/loss layer agrees with the
/// distance layer (see the module documentation). Needs the distance layers of all those
/// classes in memory (one byte a position).
///
/// # Errors
///
/// [`TableError::Format`] naming the class, the position and the entries that disagree;
/// loading errors as [`Tablebase::load`].
pub fn check(
    dir: &Path,
    size: BoardSize,
    max_stones: u32,
    progress: &mut dyn FnMut(Progress),
) -> Result<CheckReport, TableError> {
    check_classes(dir, size, max_stones, &[], 1, progress)
}

/// [`check`] of some classes only (`(S, O)` pairs; all when empty), with every class of fewer
/// than `max_stones` stones loaded for their children, and of `max_stones` stones only those
/// asked for and their partners: the classes of a long run can be checked as soon as they are
/// written, or on several machines. Works on up to `threads` threads (split by ranges of
/// positions); the verdict, and the position named when one disagrees (the first in the
/// order of the classes and their entries), are the same with any number.
///
/// # Errors
///
/// As [`check`].
pub fn check_classes(
    dir: &Path,
    size: BoardSize,
    max_stones: u32,
    only: &[(u8, u8)],
    threads: usize,
    progress: &mut dyn FnMut(Progress),
) -> Result<CheckReport, TableError> {
    let t0 = Instant::now();
    let n = size.len();
    let mut tb = Tablebase::new();
    let mut rules = None;
    let mut classes = Vec::new();
    for total in 2..=max_stones as u8 {
        for s in 1..total {
            let o = total - s;
            // Checking some classes: of the largest material, only they and their partners
            // (which paikas lead to) are needed.
            if u32::from(total) == max_stones
                && !only.is_empty()
                && !only.contains(&(s, o))
                && !only.contains(&(o, s))
            {
                continue;
            }
            let path = dir.join(file_name(size, s, o));
            let (entries, r) = super::tablebase::read_class(&path, size, s, o)?;
            if rules.is_some_and(|x| x != r) {
                return Err(TableError::MixedRules { path });
            }
            rules = Some(r);
            let wdl_path = dir.join(wdl_file_name(size, s, o));
            let wdl = super::tablebase::read_wdl_class(&wdl_path, size, s, o)?;
            if wdl != pack_wdl(&entries) {
                return Err(TableError::Format {
                    path: wdl_path,
                    reason: "the win/draw/loss layer disagrees with the distance layer".into(),
                });
            }
            tb.insert_entries(size, s, o, entries);
            classes.push((s, o, path));
        }
    }
    let rules = rules.unwrap_or_else(super::solver_rules);
    tb.set_rules(size, rules);
    classes.retain(|&(s, o, _)| only.is_empty() || only.contains(&(s, o)));
    let total: u64 = classes.iter().map(|&(s, o, _)| class_len(n, s, o)).sum();
    let mut report = CheckReport {
        classes: 0,
        positions: 0,
        turns: 0,
        time: Duration::ZERO,
    };
    let positions = AtomicU64::new(0);
    let turns = AtomicU64::new(0);
    for (s, o, path) in &classes {
        let (s, o) = (*s, *o);
        let len = class_len(n, s, o);
        let tb = &tb;
        let work = |chunk: u64| -> Result<(), TableError> {
            let mut kids = Vec::with_capacity(32);
            let mut looked = 0u64;
            let end = len.min((chunk + 1) * CHUNK);
            for idx in chunk * CHUNK..end {
                let (stm, opp) = unindex(n, s, o, idx);
                let pos = position(size, rules, stm, opp);
                kids.clear();
                pos.for_each_turn(|t| {
                    let child = pos.play_unchecked(&t);
                    kids.push(lower_entry(tb, size, &child));
                });
                looked += kids.len() as u64;
                let expected = match from_children(kids.iter().copied()) {
                    None if rules.stuck() == StuckRule::Draws => Some(0),
                    None => Some(1),
                    Some(Ok(DRAW)) => Some(0),
                    Some(Ok(v)) => Some(v),
                    // A child at the largest distance an entry holds and a parent one further.
                    Some(Err(())) => None,
                };
                let stored = tb.entry(size, s, o, idx);
                if Some(stored) != expected {
                    let shown = |e: u8| -> String {
                        if e == 0 {
                            "draw".to_owned()
                        } else {
                            let p = Probe::decode(e);
                            format!("{} in {}", p.wdl, p.distance)
                        }
                    };
                    return Err(TableError::Format {
                        path: path.clone(),
                        reason: format!(
                            "entry {idx} ({}) is {}, its children make it {}",
                            pos.to_fen(),
                            shown(stored),
                            expected.map_or_else(|| "beyond 254 turns".to_owned(), shown)
                        ),
                    });
                }
            }
            positions.fetch_add(end - chunk * CHUNK, Ordering::Relaxed);
            turns.fetch_add(looked, Ordering::Relaxed);
            Ok(())
        };
        for_chunks(threads, len.div_ceil(CHUNK), &work, &mut || {
            progress(Progress {
                stage: "check",
                done: positions.load(Ordering::Relaxed),
                total,
            });
            Ok(())
        })?;
        report.classes += 1;
    }
    report.positions = positions.into_inner();
    report.turns = turns.into_inner();
    report.time = t0.elapsed();
    Ok(report)
}

/// Writes `bytes` to `path` atomically: a temporary file in `staging`, synced, then renamed
/// over `path`.
pub(crate) fn write_atomic(
    path: &Path,
    staging: &Path,
    bytes: &[&[u8]],
) -> Result<u64, TableError> {
    let io = |error| TableError::Io {
        path: path.to_owned(),
        error,
    };
    let tmp: PathBuf = {
        let mut name = path.file_name().unwrap_or_default().to_os_string();
        name.push(format!(".tmp{}", std::process::id()));
        staging.join(name)
    };
    let result = (|| -> std::io::Result<u64> {
        let mut f = std::fs::File::create(&tmp)?;
        let mut len = 0u64;
        for b in bytes {
            f.write_all(b)?;
            len += b.len() as u64;
        }
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)?;
        Ok(len)
    })();
    if result.is_err() {
        std::fs::remove_file(&tmp).ok();
    }
    result.map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The classes of the pairs the generator solves, each once.
    fn classes(max_stones: u32) -> Vec<(u8, u8)> {
        pairs(max_stones)
            .into_iter()
            .flat_map(|(a, b)| {
                if a == b {
                    vec![(a, b)]
                } else {
                    vec![(a, b), (b, a)]
                }
            })
            .collect()
    }

    #[test]
    fn positions_up_to_seven_stones_are_schadds_count() {
        // Schadd, Winands, Uiterwijk, van den Herik and Bergsma, "Best Play in Fanorona
        // Leads to Draw" (2008): the 5x9 endgame databases of up to seven stones hold
        // 6,261,651,660 positions (one side to move, the colours being symmetric). Up to
        // six: 543,819,540, the sum of C(45, s) * C(45 - s, o) over s, o >= 1, s + o <= 6
        // worked out apart from this code (Python's math.comb).
        let n = BoardSize::STANDARD.len();
        let total = |stones: u32| -> u64 {
            classes(stones)
                .iter()
                .map(|&(s, o)| class_len(n, s, o))
                .sum()
        };
        assert_eq!(total(7), 6_261_651_660);
        assert_eq!(total(6), 543_819_540);
        // Every class of each total, each once: (total - 1) classes of `total` stones.
        for stones in 2..=8u32 {
            let mut c = classes(stones);
            let len = c.len();
            c.sort_unstable();
            c.dedup();
            assert_eq!(c.len(), len);
            assert_eq!(len as u32, (2..=stones).map(|t| t - 1).sum::<u32>());
        }
        // The largest seven-stone pair, solved together: 4v3 and 3v4.
        assert_eq!(class_len(n, 4, 3) + class_len(n, 3, 4), 3_176_573_400);
    }

    #[test]
    fn captures_lead_to_the_classes_loaded_for_a_pair() {
        // 4v3: White captures 1 or 2 of Black's 3 stones (Black to move, 2v4 or 1v4);
        // 3v4: 1 to 3 of Black's 4 (3v3, 2v3, 1v3). Taking every stone ends the game.
        let mut c = capture_classes(4, 3);
        c.sort_unstable();
        assert_eq!(c, vec![(1, 3), (1, 4), (2, 3), (2, 4), (3, 3)]);
        assert_eq!(capture_classes(1, 1), vec![]);
        assert_eq!(capture_classes(2, 2), vec![(1, 2)]);
    }
}

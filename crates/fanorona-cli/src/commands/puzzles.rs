//! `fanorona puzzles`: generate a puzzle set from games, self-play and the endgame tables.

use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Args;
use fanorona_ai::Rng;
use fanorona_ai::puzzles::generate::{self, Config, Generator};
use fanorona_ai::puzzles::{Puzzle, PuzzleKind, PuzzleSet, Theme};
use fanorona_ai::solve::tablebase::Tablebase;
use fanorona_core::record::Reader;
use fanorona_core::{BoardSize, GameKind, Position, Rules};
use serde_json::json;

use crate::options::ranged;
use crate::output::{self, shown};
use crate::progress;

/// Generate a puzzle set: positions where exactly one turn family wins clearly (by search)
/// or exactly the solution turns keep the win (by the endgame tables), with themes and
/// ratings, in the puzzle format (docs/puzzles.md).
///
/// Candidates are every position of the FGN games given (on the board; their rules made
/// standard), of --self-play games the engine plays against itself (two random turns, then
/// --nodes nodes a turn with --noise centi-stones of evaluation noise, so that both sides
/// make mistakes), and --random-endgames random positions within --tables. They are shuffled
/// by --seed and judged in that order until --count puzzles are found: by the tables when
/// they cover the position (a win in N, exact), otherwise by the search at --depth (a tactic:
/// one family at least +2 stones, every other at most +0.5). The same arguments give the same
/// set, byte for byte.
///
/// With --out FILE the work is saved to FILE.progress every 30 seconds; a run with the same
/// arguments resumes from it, and the finished set replaces it.
///
/// Examples:
///   fanorona puzzles --self-play 20 --board 5x5 --count 10 --seed 1
///   fanorona puzzles docs/matches/*.fgn --tables tables --random-endgames 2000 --count 1000 --out 5x9.txt
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct PuzzlesArgs {
    /// FGN game files to take positions from.
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,
    /// The board, rows x columns.
    #[arg(long, value_name = "RxC", default_value = "5x9")]
    pub board: String,
    /// Self-play games to take positions from.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = ranged::<u64>(0..=1_000_000))]
    pub self_play: u64,
    /// Nodes of each self-play turn.
    #[arg(long, default_value_t = 2_000, value_parser = ranged::<u64>(1..=1_000_000_000))]
    pub nodes: u64,
    /// Evaluation noise of the self-play, in centi-stones either way.
    #[arg(long, value_name = "CP", default_value_t = 100, value_parser = ranged::<u64>(0..=10_000))]
    pub noise: u64,
    /// Endgame tables (a folder written by `fanorona solve --tables`): the positions they
    /// cover are judged by them.
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
    /// Random positions within --tables (3 stones up to the tables' most) to take.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = ranged::<u64>(0..=100_000_000), requires = "tables")]
    pub random_endgames: u64,
    /// Depth of the search that judges tactics, in plies.
    #[arg(long, default_value_t = 6, value_parser = ranged::<u32>(1..=20))]
    pub depth: u32,
    /// Puzzles wanted: the run stops when it has found this many.
    #[arg(long, default_value_t = 100, value_parser = ranged::<u64>(1..=10_000_000))]
    pub count: u64,
    /// Seed of the self-play, the random endgames and the order of the candidates.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The ids' prefix (default: the board and a dash, such as `5x9-`); a puzzle's id is the
    /// prefix and its candidate's number in the shuffled order.
    #[arg(long)]
    pub prefix: Option<String>,
    /// Write the set to this file (written whole, then renamed into place; `-` is standard
    /// output, the default).
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
    /// Check the puzzles of this file instead of making a set: each tactic by the search at
    /// its depth, each win in N by --tables; prints the puzzles that fail and exits with
    /// status 1 when one does.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["files", "self_play", "random_endgames", "out", "json"])]
    pub check: Option<String>,
    /// Threads judging candidates at once (the set is the same with any number).
    #[arg(long, default_value_t = 1, value_parser = ranged::<usize>(1..=256))]
    pub threads: usize,
    /// Print a summary as JSON on standard output (needs --out).
    #[arg(long, requires = "out")]
    pub json: bool,
}

/// A candidate position and what it came from.
struct Candidate {
    pos: Position,
}

/// Runs `fanorona puzzles`.
pub fn run(args: &PuzzlesArgs) -> Result<ExitCode> {
    if let Some(file) = &args.check {
        return run_check(args, file);
    }
    let start = Instant::now();
    let size: BoardSize = args.board.parse().context("in --board")?;
    if size == BoardSize::TELO {
        bail!("--board 3x3 is Fanoron-Telo's board, which has no puzzles");
    }
    let prefix = args
        .prefix
        .clone()
        .unwrap_or_else(|| format!("{}x{}-", size.rows(), size.cols()));
    if !prefix
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        || prefix.len() > 20
    {
        bail!("--prefix: at most 20 ASCII letters, digits, '-' or '_'");
    }
    if let Some(out) = &args.out {
        let inputs: Vec<&str> = args.files.iter().map(String::as_str).collect();
        output::refuse_same_file(&inputs, out)?;
    }
    let tables =
        match &args.tables {
            Some(dir) => Some(Tablebase::load(dir).with_context(|| {
                format!("cannot load the tables in {}", output::shown_path(dir))
            })?),
            None => None,
        };
    let table_stones = tables.as_ref().map_or(0, |t| t.max_stones(size));
    if args.random_endgames > 0 && table_stones < 3 {
        bail!("--random-endgames: the tables hold no {size} class of 3 stones");
    }
    let command = command_line(args, size, &prefix);
    // Opened before the work, so that an output that cannot be written is known at once.
    let mut out = output::Output::open(args.out.as_deref())?;

    // The candidates, in a fixed order, then shuffled.
    let mut candidates: Vec<Candidate> = Vec::new();
    let mut games = 0u64;
    for path in &args.files {
        let file =
            std::fs::File::open(path).with_context(|| format!("cannot open {}", shown(path)))?;
        let mut reader = Reader::new(std::io::BufReader::new(file));
        loop {
            let record = match reader.read_record() {
                Ok(Some(r)) => r,
                Ok(None) => break,
                Err(e) if e.is_io() => bail!("{}: {}", shown(path), e.message()),
                Err(_) => continue,
            };
            let (Some(game), _) = record.replay() else {
                continue;
            };
            if game.start().size() != size {
                continue;
            }
            games += 1;
            push_positions(&mut candidates, game.positions());
        }
    }
    let bar = progress::bar(args.self_play, "self-play");
    let base = Rng::new(args.seed ^ 0x5E1F_0000).next_u64();
    let mut g = 0;
    while g < args.self_play {
        // A round of games, one a thread, kept in the order of their numbers.
        let round: Vec<u64> = (g..args.self_play.min(g + args.threads as u64)).collect();
        let games: Vec<_> = std::thread::scope(|scope| {
            let handles: Vec<_> = round
                .iter()
                .map(|&n| {
                    scope.spawn(move || {
                        generate::self_play(
                            size,
                            args.nodes,
                            args.noise as i32,
                            base.wrapping_add(n),
                            400,
                        )
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a self-play thread panicked"))
                .collect()
        });
        for game in games {
            push_positions(&mut candidates, game.context("self-play")?.positions());
            bar.inc(1);
        }
        g += round.len() as u64;
    }
    bar.finish_and_clear();
    let mut rng = Rng::new(args.seed ^ 0xE5D6_A3E5);
    for _ in 0..args.random_endgames {
        if let Some(pos) = generate::random_endgame(size, table_stones, &mut rng) {
            candidates.push(Candidate { pos });
        }
    }
    let total = candidates.len();
    generate::shuffle(&mut candidates, args.seed);

    // Repeats (the same stones, side to move and count of turns without capture) are judged
    // once, at their first place in the shuffled order.
    let mut seen = HashSet::new();
    let first: Vec<bool> = candidates
        .iter()
        .map(|c| seen.insert((c.pos.zobrist(), c.pos.no_capture_count())))
        .collect();
    drop(seen);
    let mut generators: Vec<Generator> = (0..args.threads)
        .map(|_| Generator::new(Config::new(args.depth), tables.clone()))
        .collect();
    let mut found: Vec<Puzzle> = Vec::new();
    let progress_path = args
        .out
        .as_deref()
        .filter(|o| *o != "-")
        .map(|o| PathBuf::from(format!("{o}.progress")));
    let mut next = 0usize;
    if let Some(path) = &progress_path
        && let Some((at, set)) = read_progress(path, &command)?
    {
        next = at.min(total);
        found = set.puzzles().to_vec();
    }
    let bar = progress::bar(total as u64, "candidates");
    bar.set_position(next as u64);
    let mut saved = Instant::now();
    let batch = 16 * args.threads;
    while next < total && (found.len() as u64) < args.count {
        let end = (next + batch).min(total);
        let todo: Vec<usize> = (next..end).filter(|&i| first[i]).collect();
        let mut made: Vec<(usize, Puzzle)> = std::thread::scope(|scope| {
            let handles: Vec<_> = generators
                .iter_mut()
                .enumerate()
                .map(|(t, generator)| {
                    let (todo, candidates, prefix) = (&todo, &candidates, &prefix);
                    scope.spawn(move || {
                        let mut out = Vec::new();
                        for &i in todo.iter().skip(t).step_by(args.threads) {
                            let id = format!("{prefix}{}", i + 1);
                            if let Some(p) = generator.judge(&candidates[i].pos, &id) {
                                out.push((i, p));
                            }
                        }
                        out
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().expect("a judging thread panicked"))
                .collect()
        });
        made.sort_by_key(|(i, _)| *i);
        next = end;
        for (i, p) in made {
            if found.len() as u64 >= args.count {
                break;
            }
            found.push(p);
            next = i + 1;
        }
        bar.set_position(next as u64);
        bar.set_message(format!("{} puzzles", found.len()));
        if let Some(path) = &progress_path
            && saved.elapsed() > Duration::from_secs(30)
        {
            write_progress(path, &command, next, &found)?;
            saved = Instant::now();
        }
    }
    bar.finish_and_clear();

    let set = PuzzleSet::new(found)?;
    let tactics = set
        .puzzles()
        .iter()
        .filter(|p| matches!(p.kind(), PuzzleKind::Tactic { .. }))
        .count();
    let wins = set.len() - tactics;
    let mut text = format!(
        "# Fanorona puzzles: {} on {size} ({tactics} tactics by search at depth {}, {wins} wins \
         in N by the endgame tables).\n\
         # The format, the criterion, the themes and the ratings: docs/puzzles.md.\n\
         # {total} candidates ({games} games from files, {} self-play games, {} random \
         endgames), {next} judged.\n\
         # Generated by: {command}\n",
        set.len(),
        args.depth,
        args.self_play,
        args.random_endgames,
    );
    text.push_str(&set.to_string());
    out.write_all(text.as_bytes())
        .context("cannot write the puzzles")?;
    out.finish()?;
    if let Some(path) = &progress_path {
        let _ = std::fs::remove_file(path);
    }
    let themes: serde_json::Map<String, serde_json::Value> = Theme::ALL
        .iter()
        .map(|t| {
            let n = set.filter(None, Some(*t)).count();
            (t.name().to_owned(), json!(n))
        })
        .collect();
    let ratings: Vec<u16> = set.puzzles().iter().map(Puzzle::rating).collect();
    let (lo, hi) = (
        ratings.iter().min().copied().unwrap_or(0),
        ratings.iter().max().copied().unwrap_or(0),
    );
    let secs = start.elapsed().as_secs_f64();
    if args.json {
        let mut w = output::stdout();
        writeln!(
            w,
            "{}",
            json!({
                "board": size.to_string(),
                "puzzles": set.len(),
                "tactics": tactics,
                "wins": wins,
                "candidates": total,
                "judged": next,
                "games": games,
                "themes": themes,
                "rating_min": lo,
                "rating_max": hi,
                "bytes": text.len(),
                "seconds": (secs * 10.0).round() / 10.0,
            })
        )?;
    } else {
        errln!(
            "{} puzzles on {size} ({tactics} tactics, {wins} wins in N) from {next} of {total} \
             candidates, {} bytes, in {secs:.1} s",
            set.len(),
            text.len()
        );
    }
    if (set.len() as u64) < args.count {
        errln!(
            "warning: found {} of the {} puzzles asked for: give more games, --self-play or \
             --random-endgames",
            set.len(),
            args.count
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `fanorona puzzles --check FILE`.
fn run_check(args: &PuzzlesArgs, file: &str) -> Result<ExitCode> {
    let start = Instant::now();
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", shown(file)))?;
    let set = PuzzleSet::parse(&text).with_context(|| format!("in {}", shown(file)))?;
    let tables =
        match &args.tables {
            Some(dir) => Some(Tablebase::load(dir).with_context(|| {
                format!("cannot load the tables in {}", output::shown_path(dir))
            })?),
            None => None,
        };
    let bar = progress::bar(set.len() as u64, "puzzles");
    let mut searcher = fanorona_ai::puzzles::check::searcher();
    let mut failed = 0;
    let mut w = output::stdout();
    for p in set.puzzles() {
        if let Err(e) = fanorona_ai::puzzles::check::check(p, &mut searcher, tables.as_ref()) {
            failed += 1;
            writeln!(w, "{}: {e}", p.id())?;
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    writeln!(
        w,
        "{} of {} puzzles check ({:.1} s)",
        set.len() - failed,
        set.len(),
        start.elapsed().as_secs_f64()
    )?;
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Adds the positions of a game (after the start) under the standard rules of its game.
fn push_positions(candidates: &mut Vec<Candidate>, positions: &[Position]) {
    for pos in positions.iter().skip(1) {
        let game = pos.rules().game();
        if game == GameKind::Telo {
            continue;
        }
        if let Ok(pos) = pos.with_rules(Rules::STANDARD.with_game(game)) {
            candidates.push(Candidate { pos });
        }
    }
}

/// The command that makes this set, for its header and to recognise its progress file.
fn command_line(args: &PuzzlesArgs, size: BoardSize, prefix: &str) -> String {
    let mut c = String::from("fanorona puzzles");
    for f in &args.files {
        c.push(' ');
        c.push_str(&shown(f));
    }
    c.push_str(&format!(" --board {size}"));
    if args.self_play > 0 {
        c.push_str(&format!(
            " --self-play {} --nodes {} --noise {}",
            args.self_play, args.nodes, args.noise
        ));
    }
    if let Some(t) = &args.tables {
        c.push_str(&format!(" --tables {}", output::shown_path(t)));
    }
    if args.random_endgames > 0 {
        c.push_str(&format!(" --random-endgames {}", args.random_endgames));
    }
    c.push_str(&format!(
        " --depth {} --count {} --seed {} --prefix {prefix}",
        args.depth, args.count, args.seed
    ));
    c
}

const PROGRESS_HEAD: &str = "# fanorona puzzles progress: ";

/// Saves the work so far (atomically).
fn write_progress(
    path: &std::path::Path,
    command: &str,
    next: usize,
    found: &[Puzzle],
) -> Result<()> {
    let set = PuzzleSet::new(found.to_vec())?;
    let text = format!("{PROGRESS_HEAD}{command}\n# next: {next}\n{set}");
    output::write_file(path, text.as_bytes())
}

/// The saved work of a run with the same command: the next candidate and the puzzles found.
fn read_progress(path: &std::path::Path, command: &str) -> Result<Option<(usize, PuzzleSet)>> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(None);
    };
    let mut lines = text.lines();
    if lines.next() != Some(&format!("{PROGRESS_HEAD}{command}")) {
        errln!(
            "note: {} is the progress of other arguments: starting afresh",
            output::shown_path(path)
        );
        return Ok(None);
    }
    let next = lines
        .next()
        .and_then(|l| l.strip_prefix("# next: "))
        .and_then(|n| n.parse().ok())
        .with_context(|| format!("{}: no '# next: N' line", output::shown_path(path)))?;
    let set =
        PuzzleSet::parse(&text).with_context(|| format!("in {}", output::shown_path(path)))?;
    errln!("resuming at candidate {next} with {} puzzles", set.len());
    Ok(Some((next, set)))
}

//! `fanorona nnue label|train`: training data for the NNUE evaluation and its trainer.

use std::collections::{BTreeMap, HashSet};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, Subcommand};
use fanorona_ai::nnue::Variant;
use fanorona_ai::nnue::data::{self, Record, Wdl};
use fanorona_ai::nnue::train::{
    self, DEFAULT_K, DEFAULT_SCALE, MAX_BUCKETS, MAX_HIDDEN, Progress, TrainOptions,
    no_capture_factor,
};
use fanorona_ai::{Limits, Searcher, evaluate};
use fanorona_core::Game;
use fanorona_core::record::{GameResult, Reader};
use serde_json::json;

use crate::options::{RuleArgs, limits, ranged, start_position};
use crate::output::{Output, refuse_same_file, shown, shown_path};
use crate::progress;

/// Train the NNUE evaluation: label positions of played games with search scores
/// (`nnue label`), then fit a network to them (`nnue train`). See docs/nnue.md for the data
/// and network file formats and the recipe of the nets.
///
/// Examples:
///   fanorona nnue label games.fgn --out train.data --valid-out valid.data --nodes 3000
///   fanorona nnue train train.data --valid valid.data --out net.nnue --hidden 128
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct NnueArgs {
    #[command(subcommand)]
    pub command: NnueCommand,
}

/// The subcommands of `fanorona nnue`.
#[derive(Subcommand, Debug)]
pub enum NnueCommand {
    Label(LabelArgs),
    Train(TrainArgs),
}

/// Label the quiet positions of finished games with a search score and the game's result, the
/// training data of `nnue train`.
///
/// Every position of every finished game (result 1-0, 0-1 or 1/2-1/2) of one board and game
/// (--board and --rules: by default the standard game on 5x9; the capture game on another
/// board such as 5x5, or game=vela, each under the standard rule options otherwise) where
/// the side to move has no capture and the game is not over becomes one 24-byte record: the stones, the side to move, the turns without capture,
/// the score of a search of the position (with the game's history, a cleared table, within
/// --nodes or --depth; from the side to move's view, clamped to +-3000 centi-stones, forced
/// wins and losses at +-3000) and the game's result for the side to move. Unfinished games and
/// games of other boards or rules are skipped and counted; a game that cannot be read or
/// replayed is an error (FILE:LINE:COL), status 2. A game that repeats an earlier one of the
/// input (the same positions, one after the other, and the same result) is skipped and
/// counted: self-play between two copies of a deterministic engine plays each game of a
/// colour-swapped pair twice, and a repeat adds no information. The records come out in the
/// order of the games, whatever --threads: the same input gives the same file. With
/// --valid-out, every --valid-every-th game (counted over all files, repeats left out) goes
/// there instead: a validation set held out by game.
///
/// Examples:
///   fanorona nnue label games.fgn --out train.data
///   fanorona nnue label a.fgn b.fgn --out t.data --valid-out v.data --nodes 2000 --threads 2
///   fanorona nnue label dimy.fgn --board 5x5 --out dimy.data
///   fanorona nnue label vela.fgn --rules game=vela --out vela.data
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct LabelArgs {
    /// FGN files of games.
    #[arg(required = true, value_name = "GAMES")]
    pub files: Vec<String>,
    /// The board of the games to label, rows x columns (default 5x9); games of other boards
    /// are skipped.
    #[arg(long, value_name = "RxC")]
    pub board: Option<String>,
    /// The game and rules of the games to label: the standard options, with game=capture
    /// (default) or game=vela; games under other rules are skipped.
    #[command(flatten)]
    pub rules: RuleArgs,
    /// The data file to write.
    #[arg(long, value_name = "DATA")]
    pub out: String,
    /// Write every --valid-every-th game's positions to this file instead.
    #[arg(long, value_name = "DATA")]
    pub valid_out: Option<String>,
    /// Which games go to --valid-out: the N-th, 2N-th, ...
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = ranged::<u64>(2..=limits::GAMES))]
    pub valid_every: u64,
    /// Nodes of each search (default 3000 when --depth is not given).
    #[arg(long, value_parser = ranged::<u64>(1..=1_000_000_000), conflicts_with = "depth")]
    pub nodes: Option<u64>,
    /// Depth of each search instead of a node count.
    #[arg(long, value_parser = ranged::<u32>(1..=limits::SEARCH_DEPTH))]
    pub depth: Option<u32>,
    /// Searches at once, each with its own table.
    #[arg(long, default_value_t = 1, value_parser = ranged::<usize>(1..=limits::THREADS))]
    pub threads: usize,
    /// Transposition table of each search, in MiB (cleared before each position).
    #[arg(long, value_name = "MB", default_value_t = 1, value_parser = ranged::<usize>(1..=limits::HASH_MB))]
    pub hash: usize,
    /// Label only part K of N of the games: the games g (counted from 1 over all files,
    /// repeats left out) with (g - 1) % N = K - 1, on one machine each; --valid-out still takes
    /// the games it would take in the whole run. The shards' data files together hold the
    /// records of the whole run (give them all to `nnue train`).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<fanorona_ai::matches::Shard>,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Fit an NNUE network to labelled positions and write its file.
///
/// The network is for the board and game of the data files (all must be of the same one; see
/// `nnue label --board --rules`): per side, twice the board's points as inputs (own and
/// opponent's stones on each point, 90 on 5x9, the board turned for Black), --hidden
/// clipped-ReLU units sharing their weights between the sides, one
/// output from both sides' units (the side to move's first) times --scale centi-stones, by
/// one of --buckets sets of output weights chosen by the number of stones on the board (set
/// min(B - 1, stones * B / points); more than one set: network file version 3). The
/// target of each position is --lambda times the game's result plus (1 - --lambda) times
/// sigmoid(K * score), the score divided by the engine's no-capture factor; the loss is the
/// squared difference from sigmoid(K * output). Adam on shuffled mini-batches, each position
/// seen in a random mirror of the board (files, ranks or both); the step size drops to 30%
/// after a third of the epochs and to 9% after two thirds. The same data and options give the
/// same file, byte for byte. Each epoch prints the training loss and, with --valid, the
/// validation loss and how well the network's evaluation predicts the validation games'
/// results (cross-entropy, beside the hand evaluation's and the search scores').
///
/// Examples:
///   fanorona nnue train train.data --valid valid.data --out net.nnue
///   fanorona nnue train a.data b.data --out net.nnue --hidden 64 --epochs 30 --lambda 0.3
///   fanorona nnue train train.data --valid valid.data --out net.nnue --buckets 8
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct TrainArgs {
    /// Data files from `nnue label`.
    #[arg(required = true, value_name = "DATA")]
    pub files: Vec<String>,
    /// The network file to write.
    #[arg(long, value_name = "NET")]
    pub out: String,
    /// Validation data files, every file up to the next option (positions of games not in
    /// the training data).
    #[arg(long, value_name = "DATA", num_args = 1..)]
    pub valid: Vec<String>,
    /// Hidden units per side.
    #[arg(long, default_value_t = 128, value_parser = ranged::<usize>(1..=MAX_HIDDEN as u64))]
    pub hidden: usize,
    /// Output buckets B, 1 to 16: sets of output weights, a position using (and training) set
    /// min(B - 1, stones * B / points) by its number of stones. 1 writes the network file
    /// version of before (1; 2 for Vela), more writes version 3.
    #[arg(long, default_value_t = 1, value_parser = ranged::<usize>(1..=MAX_BUCKETS as u64))]
    pub buckets: usize,
    /// Passes over the data.
    #[arg(long, default_value_t = 20, value_parser = ranged::<usize>(1..=100_000))]
    pub epochs: usize,
    /// Weight of the game's result in the target (0 to 1); the rest is the search score's.
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// Seed of the initial weights, the order and the mirrors.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Adam's step size.
    #[arg(long, default_value_t = 0.001)]
    pub lr: f64,
    /// Positions per step.
    #[arg(long, default_value_t = 1024, value_parser = ranged::<usize>(1..=1_000_000))]
    pub batch: usize,
    /// K: centi-stones to win probability, sigmoid(K * eval).
    #[arg(long, default_value_t = DEFAULT_K)]
    pub k: f64,
    /// The output scale S, centi-stones per unit of the network's output.
    #[arg(long, default_value_t = DEFAULT_SCALE, value_parser = ranged::<i32>(1..=100_000))]
    pub scale: i32,
    /// Train on the positions as they are, without the board's mirrors.
    #[arg(long)]
    pub no_mirrors: bool,
    /// Print the result as JSON (one object at the end).
    #[arg(long)]
    pub json: bool,
}

/// Runs `fanorona nnue`.
pub fn run(args: &NnueArgs) -> Result<ExitCode> {
    match &args.command {
        NnueCommand::Label(a) => label(a),
        NnueCommand::Train(a) => train_net(a),
    }
}

/// Opens an output file (written whole, then renamed into place); binary data never goes to
/// standard output, where the summary is.
fn open_file(path: &str) -> Result<Output> {
    if path == "-" {
        bail!("the output must be a file, not standard output (-)");
    }
    Output::open(Some(path))
}

/// A game to label: its number in the run (from 1), the game and White's result.
struct Job {
    /// The job's number among those labelled here, from 1 (the order they are written in).
    number: u64,
    /// The game's number over all the games read, from 1.
    global: u64,
    game: Game,
    white: Wdl,
}

/// What the reader found besides the games.
#[derive(Default)]
struct ReadTally {
    /// Games read (finished, standard, not repeats), in all shards.
    games: u64,
    /// Of them, games handed out to be labelled (this shard's).
    sent: u64,
    /// Of them, games of other shards.
    other_shards: u64,
    unfinished: u64,
    other_rules: u64,
    repeats: u64,
}

/// A 64-bit fingerprint of a game's positions and result: two games with the same one are
/// taken for the same game (a chance of about 3 in 100 million of a wrong match among a
/// million different games).
fn fingerprint(game: &Game, white: Wdl) -> u64 {
    // `DefaultHasher::new()` has fixed keys: the same game always gives the same value.
    let mut h = DefaultHasher::new();
    game.positions().hash(&mut h);
    white.hash(&mut h);
    h.finish()
}

/// Reads the games of `files` in order and hands the finished ones of `variant` to `send`.
fn read_games(
    files: &[String],
    variant: Variant,
    bytes_read: &AtomicU64,
    shard: Option<fanorona_ai::matches::Shard>,
    mut send: impl FnMut(Job) -> bool,
) -> Result<ReadTally> {
    let mut tally = ReadTally::default();
    let mut seen: HashSet<u64> = HashSet::new();
    let mut done_bytes = 0u64;
    for path in files {
        let name = shown(path);
        let file = std::fs::File::open(path)
            .map_err(|e| anyhow!("cannot open {name}: {}", crate::output::io_text(&e)))?;
        let mut reader = Reader::new(std::io::BufReader::new(file));
        loop {
            let record = match reader.read_record() {
                Ok(Some(r)) => r,
                Ok(None) => break,
                Err(e) => bail!("{}", e.in_file(&name)),
            };
            bytes_read.store(done_bytes + reader.bytes_read(), Ordering::Relaxed);
            let game_no = record.source.as_ref().map_or(0, |s| s.game);
            let white = match record.result {
                Some(GameResult::WhiteWins) => Wdl::Win,
                Some(GameResult::BlackWins) => Wdl::Loss,
                Some(GameResult::Draw) => Wdl::Draw,
                _ => {
                    tally.unfinished += 1;
                    continue;
                }
            };
            let (game, report) = record.replay();
            if let Some(p) = report.problems.first() {
                bail!("{name}:{}: game {game_no}: {p}", p.at);
            }
            let Some(game) = game else {
                bail!("{name}: game {game_no}: cannot be replayed");
            };
            if Variant::of(game.start()) != Some(variant) {
                tally.other_rules += 1;
                continue;
            }
            if !seen.insert(fingerprint(&game, white)) {
                tally.repeats += 1;
                continue;
            }
            tally.games += 1;
            if shard.is_some_and(|s| (tally.games - 1) % s.count() as u64 != s.index() as u64 - 1) {
                tally.other_shards += 1;
                continue;
            }
            tally.sent += 1;
            if !send(Job {
                number: tally.sent,
                global: tally.games,
                game,
                white,
            }) {
                return Ok(tally);
            }
        }
        done_bytes += reader.bytes_read();
    }
    Ok(tally)
}

fn label(args: &LabelArgs) -> Result<ExitCode> {
    let inputs: Vec<&str> = args.files.iter().map(String::as_str).collect();
    refuse_same_file(&inputs, &args.out)?;
    if let Some(v) = &args.valid_out {
        refuse_same_file(&inputs, v)?;
        if v == &args.out {
            bail!("--valid-out must differ from --out");
        }
    }
    let rules = args.rules.rules()?;
    let start = start_position(args.board.as_deref(), rules)?;
    let variant = Variant::of(&start).ok_or_else(|| {
        anyhow!(
            "no networks are made for {} under these rules: only the capture game (on any \
             board) and Vela (on 5x9), each with the standard rule options",
            start.size()
        )
    })?;
    let limits = match args.depth {
        Some(d) => Limits::depth(d),
        None => Limits::nodes(args.nodes.unwrap_or(3000)),
    };
    let total_bytes: u64 = args
        .files
        .iter()
        .map(|p| std::fs::metadata(p).map_or(0, |m| m.len()))
        .sum();
    // Both outputs exist before the work, so that one that cannot be written is known at once.
    let mut out = open_file(&args.out)?;
    data::write_header(&mut out, variant)
        .with_context(|| format!("cannot write {}", shown(&args.out)))?;
    let mut valid_out = match &args.valid_out {
        Some(v) => {
            let mut f = open_file(v)?;
            data::write_header(&mut f, variant)
                .with_context(|| format!("cannot write {}", shown(v)))?;
            Some(f)
        }
        None => None,
    };
    let start = Instant::now();
    let bar = progress::bar(total_bytes.max(1), "label");
    let bytes_read = AtomicU64::new(0);
    let (mut positions, mut valid_positions, mut valid_games) = (0u64, 0u64, 0u64);
    // Every worker's table is had before any work: one that cannot be is an error at once.
    let mut searchers = Vec::with_capacity(args.threads);
    for _ in 0..args.threads {
        let searcher = Searcher::try_new(args.hash)
            .map_err(|e| anyhow!("--hash {} with --threads {}: {e}", args.hash, args.threads))?;
        searchers.push(searcher);
    }
    let (job_tx, job_rx) = mpsc::sync_channel::<Job>(4 * args.threads);
    // Shared by the workers only: when the last one ends (the jobs ran out, or they stopped
    // on a failure), the reader's next send fails and it stops; it never waits on a full
    // channel that nobody empties.
    let job_rx = std::sync::Arc::new(Mutex::new(job_rx));
    // The first failure of a worker: the others stop at their next game.
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let outcome: Result<ReadTally> = std::thread::scope(|scope| {
        let (done_tx, done_rx) = mpsc::channel::<(u64, u64, Vec<Record>)>();
        let mut started = 0;
        for mut searcher in searchers {
            let (job_rx, done_tx, limits) =
                (std::sync::Arc::clone(&job_rx), done_tx.clone(), &limits);
            let failure = &failure;
            let worker = move || {
                loop {
                    if failure.lock().unwrap_or_else(|p| p.into_inner()).is_some() {
                        break;
                    }
                    let job = job_rx.lock().unwrap_or_else(|p| p.into_inner()).recv();
                    let Ok(job) = job else { break };
                    let labelled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        data::label_game(&mut searcher, &job.game, job.white, limits)
                    }));
                    let records = match labelled {
                        Ok(records) => records,
                        Err(panic) => {
                            let why = panic
                                .downcast_ref::<String>()
                                .map(String::as_str)
                                .or_else(|| panic.downcast_ref::<&str>().copied())
                                .unwrap_or("a failure");
                            failure
                                .lock()
                                .unwrap_or_else(|p| p.into_inner())
                                .get_or_insert_with(|| {
                                    format!("labelling game {} failed: {why}", job.number)
                                });
                            break;
                        }
                    };
                    if done_tx.send((job.number, job.global, records)).is_err() {
                        break;
                    }
                }
            };
            // A thread the system cannot give (a process or memory limit): the games are
            // labelled by those that could be had.
            if fanorona_ai::threads::spawn_scoped(scope, worker).is_none() {
                break;
            }
            started += 1;
        }
        drop(done_tx);
        drop(job_rx);
        if started == 0 {
            bail!("the system cannot start a labelling thread (a process or memory limit)");
        }
        if started < args.threads {
            errln!(
                "note: the system could not start {} of the {} labelling threads (--threads): \
                 labelling with {started}",
                args.threads - started,
                args.threads
            );
        }
        let (files, bytes_read) = (&args.files, &bytes_read);
        // The reader owns the sending end: the workers end when the jobs run out.
        let reader = std::thread::Builder::new()
            .spawn_scoped(scope, move || {
                read_games(files, variant, bytes_read, args.shard, |job| {
                    job_tx.send(job).is_ok()
                })
            })
            .map_err(|e| {
                anyhow!(
                    "the system cannot start the game reader's thread: {}",
                    crate::output::io_text(&e)
                )
            })?;
        // Write the games' records in game order.
        let mut pending: BTreeMap<u64, (u64, Vec<Record>)> = BTreeMap::new();
        let mut next = 1u64;
        let mut write_error: Option<anyhow::Error> = None;
        for (number, global, records) in done_rx {
            pending.insert(number, (global, records));
            while let Some((global, records)) = pending.remove(&next) {
                let to_valid = valid_out.is_some() && global.is_multiple_of(args.valid_every);
                let file = match (&mut valid_out, to_valid) {
                    (Some(v), true) => v,
                    _ => &mut out,
                };
                let mut bytes = Vec::with_capacity(records.len() * data::RECORD_SIZE);
                for r in &records {
                    bytes.extend_from_slice(&r.to_bytes());
                }
                if write_error.is_none()
                    && let Err(e) = file.write_all(&bytes)
                {
                    write_error = Some(anyhow!("cannot write: {e}"));
                }
                if to_valid {
                    valid_games += 1;
                    valid_positions += records.len() as u64;
                } else {
                    positions += records.len() as u64;
                }
                next += 1;
            }
            bar.set_position(bytes_read.load(Ordering::Relaxed));
            bar.set_message(format!(
                "{} games, {} positions",
                next - 1,
                positions + valid_positions
            ));
        }
        let tally = reader
            .join()
            .map_err(|_| anyhow!("the game reader failed"))?;
        if let Some(why) = failure.lock().unwrap_or_else(|p| p.into_inner()).take() {
            bail!("{why}");
        }
        let tally = tally?;
        if let Some(e) = write_error {
            return Err(e);
        }
        if next - 1 != tally.sent {
            bail!(
                "a labelling thread failed: {} of {} games labelled",
                next - 1,
                tally.sent
            );
        }
        Ok(tally)
    });
    bar.finish_and_clear();
    let tally = outcome?;
    out.finish()?;
    if let Some(v) = valid_out {
        v.finish()?;
    }
    let seconds = start.elapsed().as_secs_f64();
    let all = positions + valid_positions;
    let mut stdout = crate::output::stdout();
    if args.json {
        writeln!(
            stdout,
            "{}",
            json!({
                "files": args.files.len(),
                "variant": variant.to_string(),
                "games": tally.sent - valid_games,
                "shard": args.shard.map(|s| s.to_string()),
                "skipped_other_shards": tally.other_shards,
                "positions": positions,
                "valid_games": valid_games,
                "valid_positions": valid_positions,
                "skipped_unfinished": tally.unfinished,
                "skipped_other_rules": tally.other_rules,
                "skipped_repeats": tally.repeats,
                "out": shown(&args.out),
                "valid_out": args.valid_out.as_deref().map(shown),
                "seconds": seconds,
                "positions_per_second": all as f64 / seconds.max(1e-9),
            })
        )?;
    } else {
        writeln!(
            stdout,
            "{} games, {positions} positions -> {}",
            tally.sent - valid_games,
            shown(&args.out)
        )?;
        if let Some(v) = &args.valid_out {
            writeln!(
                stdout,
                "{valid_games} games, {valid_positions} positions -> {}",
                shown(v)
            )?;
        }
        writeln!(
            stdout,
            "skipped: {} unfinished, {} of other boards or rules, {} repeats; {:.1} s, {:.0} \
             positions/s",
            tally.unfinished,
            tally.other_rules,
            tally.repeats,
            seconds,
            all as f64 / seconds.max(1e-9)
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads the records of data files, the errors located by file; all must be of one variant
/// (`variant`, once the first file has set it).
fn load(files: &[String], variant: &mut Option<(Variant, String)>) -> Result<Vec<Record>> {
    let mut all = Vec::new();
    for path in files {
        let name = shown(path);
        let file = std::fs::File::open(path)
            .map_err(|e| anyhow!("cannot open {name}: {}", crate::output::io_text(&e)))?;
        let (v, records) = data::read_variant(std::io::BufReader::new(file))
            .map_err(|e| anyhow!("{name}: {e}"))?;
        match variant {
            Some((first, first_file)) if *first != v => bail!(
                "{name} holds positions of {v}, {first_file} of {first}: a network is for one \
                 board and game"
            ),
            Some(_) => {}
            None => *variant = Some((v, name.into_owned())),
        }
        all.extend(records);
    }
    Ok(all)
}

fn train_net(args: &TrainArgs) -> Result<ExitCode> {
    if !(0.0..=1.0).contains(&args.lambda) {
        bail!("--lambda must be between 0 and 1, not {}", args.lambda);
    }
    if !(args.lr.is_finite() && args.lr > 0.0 && args.lr <= 1.0) {
        bail!("--lr must be a number in (0, 1], not {}", args.lr);
    }
    if !(args.k.is_finite() && args.k > 0.0 && args.k <= 1.0) {
        bail!("--k must be a number in (0, 1], not {}", args.k);
    }
    let inputs: Vec<&str> = args
        .files
        .iter()
        .chain(&args.valid)
        .map(String::as_str)
        .collect();
    refuse_same_file(&inputs, &args.out)?;
    let mut variant = None;
    let train_set = load(&args.files, &mut variant)?;
    let valid = load(&args.valid, &mut variant)?;
    let variant = variant.map_or(Variant::STANDARD, |(v, _)| v);
    if train_set.is_empty() {
        bail!(
            "no training positions in {}",
            args.files
                .iter()
                .map(|f| shown(f).into_owned())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    // The network file is opened before the work: one that cannot be written is known at once.
    let mut out = open_file(&args.out)?;
    let mut options = TrainOptions::default();
    options.hidden = args.hidden;
    options.buckets = args.buckets;
    options.epochs = args.epochs;
    options.lambda = args.lambda;
    options.seed = args.seed;
    options.lr = args.lr;
    options.batch = args.batch;
    options.k = args.k;
    options.scale = args.scale;
    options.mirrors = !args.no_mirrors;
    options.variant = variant;
    // What the net has to beat: the hand evaluation and the labels' own search scores.
    let baselines = (!valid.is_empty()).then(|| {
        (
            train::result_loss(&valid, args.k, |r| f64::from(evaluate(&r.position()))),
            train::result_loss(&valid, args.k, |r| f64::from(r.score)),
        )
    });
    let mut stdout = crate::output::stdout();
    if !args.json {
        writeln!(
            stdout,
            "{} training positions of {variant}, {} validation positions; hidden {}, buckets {}, \
             lambda {}, seed {}",
            train_set.len(),
            valid.len(),
            options.hidden,
            options.buckets,
            options.lambda,
            options.seed
        )?;
        if let Some((hand, search)) = baselines {
            writeln!(
                stdout,
                "validation results, cross-entropy: hand evaluation {hand:.5}, search scores {search:.5}"
            )?;
        }
    }
    let bar = progress::bar((train_set.len() * args.epochs) as u64, "train");
    let start = Instant::now();
    let mut lines: Vec<String> = Vec::new();
    let trained = train::train(&train_set, &valid, &options, |p| match p {
        Progress::Step { epoch, done, total } => {
            bar.set_position(((epoch - 1) * total + done) as u64);
        }
        Progress::Epoch(r) => {
            let mut line = format!(
                "epoch {:>3}  lr {:.6}  train {:.6}",
                r.epoch, r.lr, r.train_loss
            );
            if let (Some(v), Some(res)) = (r.valid_loss, r.valid_result_loss) {
                line.push_str(&format!("  valid {v:.6}  results {res:.5}"));
            }
            if !args.json {
                bar.suspend(|| {
                    let _ = writeln!(crate::output::stdout(), "{line}");
                });
            }
            lines.push(line);
        }
        _ => {}
    });
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    let samples_per_second = (train_set.len() * args.epochs) as f64 / seconds.max(1e-9);
    let net = trained.net.quantise();
    out.write_all(&net.to_bytes())
        .with_context(|| format!("cannot write {}", shown(&args.out)))?;
    out.finish()?;
    // The quantised network against the float one, on the validation positions (or the
    // training ones).
    let check = if valid.is_empty() { &train_set } else { &valid };
    let (mut worst, mut sum) = (0.0f64, 0.0f64);
    for r in check.iter().take(100_000) {
        let f = trained.net.evaluate(r.white, r.black, r.side);
        let q = f64::from(net.evaluate(r.white, r.black, r.side));
        worst = worst.max((f - q).abs());
        sum += (f - q).abs();
    }
    let mean_error = sum / check.len().clamp(1, 100_000) as f64;
    let quant_result_loss = (!valid.is_empty()).then(|| {
        train::result_loss(&valid, args.k, |r| {
            f64::from(net.evaluate(r.white, r.black, r.side)) * no_capture_factor(r.no_capture)
        })
    });
    let last = trained.epochs.last();
    if args.json {
        let epochs: Vec<_> = trained
            .epochs
            .iter()
            .map(|r| {
                json!({"epoch": r.epoch, "lr": r.lr, "train_loss": r.train_loss,
                       "valid_loss": r.valid_loss, "valid_result_loss": r.valid_result_loss})
            })
            .collect();
        writeln!(
            stdout,
            "{}",
            json!({
                "out": shown(&args.out),
                "variant": variant.to_string(),
                "training_positions": train_set.len(),
                "validation_positions": valid.len(),
                "hidden": options.hidden,
                "buckets": options.buckets,
                "epochs": options.epochs,
                "lambda": options.lambda,
                "seed": options.seed,
                "lr": options.lr,
                "batch": options.batch,
                "k": options.k,
                "scale": options.scale,
                "mirrors": options.mirrors,
                "seconds": seconds,
                "samples_per_second": samples_per_second,
                "train_loss": last.map(|r| r.train_loss),
                "valid_loss": last.and_then(|r| r.valid_loss),
                "valid_result_loss": last.and_then(|r| r.valid_result_loss),
                "quantised_valid_result_loss": quant_result_loss,
                "hand_eval_valid_result_loss": baselines.map(|b| b.0),
                "search_score_valid_result_loss": baselines.map(|b| b.1),
                "quantisation_error_mean_cp": mean_error,
                "quantisation_error_max_cp": worst,
                "per_epoch": epochs,
            })
        )?;
    } else {
        writeln!(
            stdout,
            "{:.1} s, {:.0} samples/s; quantised network: mean error {mean_error:.2} cp, worst {worst:.1} cp{}",
            seconds,
            samples_per_second,
            quant_result_loss.map_or(String::new(), |l| format!(", results {l:.5}"))
        )?;
        writeln!(stdout, "wrote {}", shown_path(Path::new(&args.out)))?;
    }
    Ok(ExitCode::SUCCESS)
}

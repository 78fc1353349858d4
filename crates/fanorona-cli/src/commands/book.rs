//! `fanorona book build|show`: opening books (see docs/book.md).

use std::collections::BTreeSet;
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, Subcommand};
use fanorona_ai::Score;
use fanorona_ai::book::build::{BuildConfig, build_tree, self_play, tally};
use fanorona_ai::book::{self, Book, BookEntry};
use fanorona_core::record::{GameRecord, GameResult, Reader, Tag};
use fanorona_core::{BoardSize, Game, Position, Rules};
use serde_json::json;

use crate::options::{RuleArgs, limits, ranged};
use crate::output::{Output, OutputFile, refuse_same_file, shown};
use crate::progress;

/// Opening books: build one from the engine's search and self-play (`book build`), or show a
/// position's book turns (`book show`). The format and the method are in docs/book.md.
///
/// Examples:
///   fanorona book show
///   fanorona book show --play "d2-e3A" --json
///   fanorona book build --board 5x5 --plies 6 --games 100 --out 5x5.book
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct BookArgs {
    #[command(subcommand)]
    pub command: BookCommand,
}

/// The subcommands of `fanorona book`.
#[derive(Subcommand, Debug)]
pub enum BookCommand {
    Build(BuildArgs),
    Show(ShowArgs),
}

/// Build an opening book from the engine's own search and self-play, and from game records.
///
/// First the tree: from the setup, breadth first, every turn of a position (one per distinct
/// result) is scored by a search restricted to it with --nodes nodes (one thread, a cleared
/// table: the same score on any machine, under any load, with any --jobs); the best --width
/// turns within --margin centi-stones of the best are followed, --plies turns deep, at most
/// --max-positions positions. Then --games self-play games from the setup: in a book position
/// a turn within --margin of the best is drawn at random (from --seed and the game's number),
/// out of the book the engine plays with --game-nodes nodes (and --game-noise
/// centi-stones of evaluation noise seeded by the game); each result is counted on the
/// book turns the game played (wins, draws, losses of the side that played the turn). Then the
/// games of --records (FGN, such as docs/matches/*.fgn) are counted the same way, a turn the
/// book lacks added without a score. The same arguments give the same book, byte for byte.
///
/// With --games-out each self-play game is written to that FGN file as it ends; with --resume
/// too, the games already there (of this --seed) are counted instead of played again: an
/// interrupted build goes on where it stopped.
///
/// Examples:
///   fanorona book build --out 5x9.book
///   fanorona book build --board 5x5 --plies 10 --games 300 --out 5x5.book --seed 2
///   fanorona book build --games 400 --games-out selfplay.fgn --resume --jobs 2 --out 5x9.book
///   fanorona book build --games 0 --records docs/matches/n2-n1-50ms.fgn --out 5x9.book
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct BuildArgs {
    /// The board, rows x columns.
    #[arg(long, value_name = "RxC", default_value = "5x9")]
    pub board: String,
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Turns from the setup to the book's last positions.
    #[arg(long, default_value_t = 8, value_parser = ranged::<u64>(1..=100))]
    pub plies: u64,
    /// Turns followed from each position.
    #[arg(long, default_value_t = 3, value_parser = ranged::<u64>(1..=100))]
    pub width: u64,
    /// Turns scored more than this many centi-stones below the best are not followed, nor
    /// played in self-play.
    #[arg(long, value_name = "CP", default_value_t = 40, value_parser = ranged::<u64>(0..=10_000))]
    pub margin: u64,
    /// Nodes of each scoring search.
    #[arg(long, default_value_t = 20_000, value_parser = ranged::<u64>(1..=1_000_000_000))]
    pub nodes: u64,
    /// The most positions of the book.
    #[arg(long, default_value_t = 2_000, value_parser = ranged::<u64>(1..=1_000_000))]
    pub max_positions: u64,
    /// Self-play games.
    #[arg(long, default_value_t = 200, value_parser = ranged::<u64>(0..=limits::GAMES))]
    pub games: u64,
    /// Nodes of each self-play search.
    #[arg(long, default_value_t = 5_000, value_parser = ranged::<u64>(1..=1_000_000_000))]
    pub game_nodes: u64,
    /// Evaluation noise of the self-play searches, up to this many centi-stones either way
    /// (seeded by the game), so that games leaving the book alike still differ.
    #[arg(long, value_name = "CP", default_value_t = 10, value_parser = ranged::<u64>(0..=1_000))]
    pub game_noise: u64,
    /// Seed of the self-play games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Searches or games at once (the book does not depend on it).
    #[arg(long, default_value_t = 1, value_parser = ranged::<u64>(1..=limits::THREADS))]
    pub jobs: u64,
    /// FGN files of games whose results are counted too.
    #[arg(long, value_name = "FGN", num_args = 1..)]
    pub records: Vec<String>,
    /// Write each self-play game to this FGN file as it ends.
    #[arg(long, value_name = "FGN")]
    pub games_out: Option<String>,
    /// Count the games --games-out already holds instead of playing them again.
    #[arg(long, requires = "games_out")]
    pub resume: bool,
    /// The book file to write (written whole, then renamed into place; `-` is standard
    /// output).
    #[arg(long, value_name = "FILE")]
    pub out: String,
}

/// Show the book's turns of a position: each with its engine score (side to move's view,
/// centi-stones or a forced win) and the search it came from, and its practical results
/// (wins, draws and losses of the side that plays it, and their score).
///
/// The book is the one shipped with the engine for the position's board (5x9 and 5x5 under the
/// standard rules), or --book FILE.
///
/// Examples:
///   fanorona book show
///   fanorona book show --play "d2-e3A"
///   fanorona book show "BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w" --json
///   fanorona book show --board 5x5 --book my.book
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct ShowArgs {
    /// The position string (default: the setup of --board).
    #[arg(value_name = "POSITION")]
    pub position: Option<String>,
    /// The board, rows x columns, when no position is given.
    #[arg(long, value_name = "RxC", conflicts_with = "position")]
    pub board: Option<String>,
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Turns played from the position first, separated by spaces.
    #[arg(long, value_name = "TURNS")]
    pub play: Option<String>,
    /// The book file (default: the shipped book).
    #[arg(long, value_name = "FILE")]
    pub book: Option<String>,
    /// Write JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `fanorona book`.
pub fn run(args: &BookArgs) -> Result<ExitCode> {
    match &args.command {
        BookCommand::Build(a) => run_build(a),
        BookCommand::Show(a) => run_show(a),
    }
}

/// The tag naming a self-play game's number in --games-out.
const GAME_TAG: &str = "BookGame";
/// The tag naming the seed of a build in --games-out.
const SEED_TAG: &str = "BookSeed";

fn run_build(args: &BuildArgs) -> Result<ExitCode> {
    let size: BoardSize = args.board.parse().context("in --board")?;
    let rules = args.rules.rules()?;
    let mut config = BuildConfig::new(size, rules);
    config.plies = args.plies as usize;
    config.width = args.width as usize;
    config.margin = i32::try_from(args.margin).unwrap_or(i32::MAX);
    config.nodes = args.nodes;
    config.max_positions = args.max_positions as usize;
    config.game_nodes = args.game_nodes;
    config.game_noise = args.game_noise as i32;
    config.seed = args.seed;
    config.jobs = args.jobs as usize;
    let mut inputs: Vec<&str> = args.records.iter().map(String::as_str).collect();
    if let Some(g) = &args.games_out {
        refuse_same_file(&[g], &args.out)?;
        inputs.push(g);
    }
    refuse_same_file(&inputs, &args.out)?;
    // Opened first: an output that cannot be written is known before the work.
    let mut out = Output::open(Some(&args.out))?;
    let started = Instant::now();
    let stop = AtomicBool::new(false);

    let bar = progress::bar(args.max_positions, "book tree");
    let mut book = build_tree(&config, &stop, |scored, known| {
        bar.set_length(known as u64);
        bar.set_position(scored as u64);
    })
    .map_err(|e| anyhow!("{e}"))?;
    bar.finish_and_clear();
    let tree_secs = started.elapsed().as_secs_f64();
    let tree_book = book.clone();

    // Self-play: the games --games-out already holds (with --resume), then the others.
    let mut done: BTreeSet<u64> = BTreeSet::new();
    let mut journal = None;
    if let Some(path) = &args.games_out {
        if args.resume && std::path::Path::new(path).exists() {
            for (record, game) in read_games(path)? {
                let (Some(n), Some(seed)) = (record.tag(GAME_TAG), record.tag(SEED_TAG)) else {
                    bail!(
                        "{}: a game without the {GAME_TAG} and {SEED_TAG} tags: not a game of `book build`",
                        shown(path)
                    );
                };
                if seed != args.seed.to_string() {
                    bail!(
                        "{}: games of seed {seed}, not --seed {}: give the same seed to resume",
                        shown(path),
                        args.seed
                    );
                }
                let n: u64 = n
                    .parse()
                    .map_err(|_| anyhow!("{}: {GAME_TAG} {n} is not a number", shown(path)))?;
                if n < args.games && done.insert(n) {
                    let result = record.result.unwrap_or(GameResult::Unknown);
                    tally(&mut book, &game, result, false);
                }
            }
        }
        let mut file = OutputFile::journal(path)?;
        if !done.is_empty() {
            // The journal replaces the file: write the games kept back first.
            let old = read_games(path)?;
            for (record, _) in old {
                if record
                    .tag(GAME_TAG)
                    .and_then(|n| n.parse::<u64>().ok())
                    .is_some_and(|n| done.contains(&n))
                {
                    let text = record.to_fgn().map_err(|e| anyhow!("{e}"))?;
                    file.append(format!("{text}\n").as_bytes())?;
                }
            }
        }
        journal = Some(file);
    }
    let todo: Vec<u64> = (0..args.games).filter(|n| !done.contains(n)).collect();
    let bar = progress::bar(args.games, "self-play");
    bar.set_position(done.len() as u64);
    let mut played = 0u64;
    let mut write_error: Option<anyhow::Error> = None;
    // Contiguous runs of missing games (all of them on a fresh build).
    let mut runs: Vec<(u64, u64)> = Vec::new();
    for &n in &todo {
        match runs.last_mut() {
            Some((first, count)) if *first + *count == n => *count += 1,
            _ => runs.push((n, 1)),
        }
    }
    for (first, count) in runs {
        self_play(&tree_book, &config, first, count, &stop, |n, game| {
            let result = game
                .outcome()
                .map_or(GameResult::Unknown, |o| GameResult::from_outcome(&o));
            tally(&mut book, &game, result, false);
            played += 1;
            bar.inc(1);
            if let Some(file) = journal.as_mut()
                && write_error.is_none()
            {
                let mut record = GameRecord::from_game(&game);
                record.tags.push(Tag {
                    name: GAME_TAG.into(),
                    value: n.to_string(),
                });
                record.tags.push(Tag {
                    name: SEED_TAG.into(),
                    value: args.seed.to_string(),
                });
                let text = record.to_fgn().map_err(|e| anyhow!("{e}"));
                if let Err(e) = text.and_then(|t| file.append(format!("{t}\n").as_bytes())) {
                    write_error = Some(e);
                }
            }
        });
    }
    bar.finish_and_clear();
    if let Some(e) = write_error {
        return Err(e);
    }
    if let Some(file) = journal {
        file.commit()?;
    }

    let mut record_games = 0u64;
    for path in &args.records {
        for (record, game) in read_games(path)? {
            if game.start().size() != size || game.start().rules() != rules {
                continue;
            }
            let result = record.result.unwrap_or(GameResult::Unknown);
            if tally(&mut book, &game, result, true) > 0 {
                record_games += 1;
            }
        }
    }
    book.sort();

    let mut command = format!(
        "fanorona book build --board {size} --plies {} --width {} --margin {} --nodes {} \
         --max-positions {} --games {} --game-nodes {} --game-noise {} --seed {}",
        args.plies,
        args.width,
        args.margin,
        args.nodes,
        args.max_positions,
        args.games,
        args.game_nodes,
        args.game_noise,
        args.seed
    );
    if rules != Rules::STANDARD {
        command.push_str(&format!(" --rules {rules}"));
    }
    for r in &args.records {
        command.push_str(&format!(" --records {r}"));
    }
    let comments = vec![
        format!(
            "Opening book: {} positions, {} turns, {size}.",
            book.len(),
            book.turn_count()
        ),
        format!(
            "Scores: a {}-node search of each turn; results: {} self-play games ({} nodes a turn){}.",
            args.nodes,
            args.games,
            args.game_nodes,
            if args.records.is_empty() {
                String::new()
            } else {
                format!(" and {record_games} recorded games")
            }
        ),
        format!("Generated by: {command} (--jobs does not change the book)"),
    ];
    out.write_all(book.to_text(&comments).as_bytes())
        .context("cannot write the book")?;
    out.finish()?;
    let summary = format!(
        "book: {} positions, {} turns; {} self-play games ({} played now, {} resumed), {} \
         recorded games; tree {:.1} s, all {:.1} s -> {}",
        book.len(),
        book.turn_count(),
        args.games,
        played,
        done.len(),
        record_games,
        tree_secs,
        started.elapsed().as_secs_f64(),
        shown(&args.out)
    );
    // With the book on standard output, the summary goes to standard error.
    if args.out == "-" {
        errln!("{summary}");
    } else {
        writeln!(crate::output::stdout(), "{summary}")?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The games of an FGN file that replay by the rules, with their records.
fn read_games(path: &str) -> Result<Vec<(GameRecord, Game)>> {
    let name = shown(path);
    let file = std::fs::File::open(path)
        .map_err(|e| anyhow!("cannot open {name}: {}", crate::output::io_text(&e)))?;
    let mut reader = Reader::new(std::io::BufReader::new(file));
    let mut games = Vec::new();
    loop {
        let record = match reader.read_record() {
            Ok(Some(r)) => r,
            Ok(None) => break,
            Err(e) => bail!("{}", e.in_file(&name)),
        };
        let game_no = record.source.as_ref().map_or(0, |s| s.game);
        let (game, report) = record.replay();
        if let Some(p) = report.problems.first() {
            bail!("{name}:{}: game {game_no}: {p}", p.at);
        }
        let Some(game) = game else {
            bail!("{name}: game {game_no}: cannot be replayed");
        };
        games.push((record, game));
    }
    Ok(games)
}

fn score_json(score: Option<Score>) -> serde_json::Value {
    match score {
        None => serde_json::Value::Null,
        Some(Score::Cp(cp)) => json!({ "cp": cp }),
        Some(Score::Win(n)) => json!({ "win": n }),
    }
}

fn run_show(args: &ShowArgs) -> Result<ExitCode> {
    let rules = args.rules.rules()?;
    let mut pos = match &args.position {
        Some(fen) => Position::from_fen_with(fen, rules)
            .with_context(|| format!("in POSITION {}", fanorona_core::escape::quoted(fen)))?,
        None => crate::options::start_position(args.board.as_deref(), rules)?,
    };
    if let Some(turns) = &args.play {
        let mut game = Game::new(pos);
        for (i, t) in turns.split_whitespace().enumerate() {
            game.play_text(t)
                .with_context(|| format!("in --play, turn {} ({})", i + 1, shown(t)))?;
        }
        pos = *game.position();
    }
    let loaded;
    let (book, source): (Option<&Book>, String) = match &args.book {
        Some(path) => {
            loaded = Book::load(path).map_err(|e| anyhow!("in --book: {e}"))?;
            (Some(&loaded), path.clone())
        }
        None => (book::shipped(pos.size(), pos.rules()), "shipped".to_owned()),
    };
    let entries: Vec<BookEntry> = book.map(|b| b.entries(&pos)).unwrap_or_default();
    let mut out = crate::output::stdout();
    if args.json {
        let turns: Vec<serde_json::Value> = entries
            .iter()
            .map(|e| {
                json!({
                    "turn": e.turn.to_string(),
                    "score": score_json(e.score),
                    "depth": e.depth,
                    "nodes": e.nodes,
                    "wins": e.wins,
                    "draws": e.draws,
                    "losses": e.losses,
                    "games": e.games(),
                    "practical": e.practical(),
                })
            })
            .collect();
        let v = json!({
            "position": pos.to_fen(),
            "book": source,
            "book_positions": book.map(Book::len),
            "turns": turns,
        });
        writeln!(out, "{v}")?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(out, "position {pos}")?;
    match book {
        None => writeln!(out, "no book for {} under these rules", pos.size())?,
        Some(b) => writeln!(out, "book {} ({} positions)", source, b.len())?,
    }
    if entries.is_empty() {
        writeln!(out, "no book turn here")?;
        return Ok(ExitCode::SUCCESS);
    }
    let width = entries
        .iter()
        .map(|e| e.turn.to_string().len())
        .max()
        .unwrap_or(4)
        .max(4);
    writeln!(
        out,
        "{:<width$}  {:>7}  {:>5}  {:>8}  {:>6}  {:>5}  {:>5}  {:>5}  {:>6}",
        "turn", "score", "depth", "nodes", "games", "wins", "draws", "loss", "result"
    )?;
    for e in &entries {
        let score = match e.score {
            None => "-".to_owned(),
            Some(Score::Cp(cp)) => format!("{cp:+}"),
            Some(Score::Win(n)) => format!("win {n}"),
        };
        let practical = e
            .practical()
            .map_or("-".to_owned(), |p| format!("{:.0}%", p * 100.0));
        writeln!(
            out,
            "{:<width$}  {:>7}  {:>5}  {:>8}  {:>6}  {:>5}  {:>5}  {:>5}  {:>6}",
            e.turn.to_string(),
            score,
            e.depth,
            e.nodes,
            e.games(),
            e.wins,
            e.draws,
            e.losses,
            practical
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

//! `fanorona analyse`: the engine's view of a position or of every turn of a game.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use fanorona_ai::{Limits, SearchOptions, SearchResult, Searcher};
use fanorona_core::Game;
use fanorona_core::record::{Element, GameRecord};
use serde_json::json;

use super::records::{Format, GameSource, display_name, open_input};
use crate::options::{PositionArgs, limits, ranged};
use crate::output::Output;
use crate::progress;

/// Analyse a position or a game: best turn, score and principal variation.
///
/// A position comes from --fen/--board and the turns of --play; a game from --record (FGN,
/// JSON or Boardspace, by extension or --from), whose last position is analysed, or each
/// position before each of its turns with --per-turn (an annotated record comes out: the
/// record's comments and NAGs are kept, and a comment with the engine's choice and score is
/// added after each turn). Without a limit, each search takes one second.
///
/// Scores are from the side to move's view: "cp 35" is 0.35 stones better, "win 3" a forced
/// win within 3 of its own turns, "win -2" a forced loss.
///
/// Examples:
///   fanorona analyse --depth 10
///   fanorona analyse --fen "9/9/9/9/W1BB5 w"
///   fanorona analyse --play "f2-e3A d5-d4A" --movetime 2000
///   fanorona analyse --record game.fgn --per-turn --movetime 200 --out annotated.fgn
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct AnalyseArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Turns played from the position before the analysis, separated by spaces.
    #[arg(long, value_name = "TURNS", conflicts_with = "record")]
    pub play: Option<String>,
    /// A game record to analyse (the game's own start and rules: no position or rule option).
    #[arg(long, value_name = "FILE", conflicts_with_all = [
        "fen", "board", "rules", "opening_restriction", "compulsory_continuation", "stuck",
        "repetition", "no_capture_limit",
    ])]
    pub record: Option<String>,
    /// Format of the record (default: from its extension, FGN when unknown).
    #[arg(long, value_name = "FMT", requires = "record")]
    pub from: Option<Format>,
    /// Which game of the record, from 1.
    #[arg(long, value_name = "N", default_value_t = 1, requires = "record",
          value_parser = ranged::<usize>(1..=limits::GAME_NUMBER))]
    pub game: usize,
    /// Analyse the position before every turn of the game and write an annotated record.
    #[arg(long, requires = "record")]
    pub per_turn: bool,
    /// Where the annotated record goes (default: standard output).
    #[arg(long, value_name = "FILE", requires = "per_turn")]
    pub out: Option<String>,
    /// Search depth in plies.
    #[arg(long, value_parser = ranged::<u32>(1..=limits::SEARCH_DEPTH))]
    pub depth: Option<u32>,
    /// Nodes per search.
    #[arg(long, value_parser = ranged::<u64>(1..=u64::MAX))]
    pub nodes: Option<u64>,
    /// Milliseconds per search.
    #[arg(long, value_name = "MS", value_parser = ranged::<u64>(1..=limits::MOVETIME_MS))]
    pub movetime: Option<u64>,
    /// A folder of endgame tables (made by `fanorona solve`) for the search to probe.
    #[arg(long, value_name = "DIR")]
    pub tables: Option<String>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_parser = ranged::<usize>(1..=limits::HASH_MB))]
    pub hash: usize,
    /// Search threads (Lazy SMP; default: the processors of this machine).
    #[arg(long, value_parser = ranged::<usize>(1..=fanorona_ai::params::MAX_THREADS as u64))]
    pub threads: Option<usize>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

impl AnalyseArgs {
    fn limits(&self) -> Limits {
        let mut l = Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime.map(Duration::from_millis),
            ..Limits::default()
        };
        if l == Limits::default() {
            l.movetime = Some(Duration::from_secs(1));
        }
        l
    }
}

/// Game `index` of a record file, replayed. Another game's error does not matter; this game's
/// is reported as `validate` reports it: FILE:LINE:COLUMN: game N, turn T (Side): what.
fn read_game(path: &str, format: Option<Format>, index: usize) -> Result<(GameRecord, Game)> {
    let format = format
        .or_else(|| Format::from_path(path))
        .unwrap_or(Format::Fgn);
    let name = display_name(path);
    let (input, _) = open_input(path)?;
    let mut source = GameSource::new(format, input)?;
    let mut n = 0;
    let record = loop {
        n += 1;
        match source.next() {
            None => bail!("{name} has {} game(s), not a game number {index}", n - 1),
            Some(Err(e)) if e.fatal || n == index => bail!(
                "{name}:{}:{}: game {}: {}",
                e.at.line,
                e.at.column,
                e.game,
                e.message
            ),
            Some(Ok(record)) if n == index => break record,
            Some(_) => {}
        }
    };
    let report = record.validate(index);
    if let Some(p) = report.problems.first() {
        let more = match report.problems.len() {
            1 => String::new(),
            k => format!(" (and {} more problem(s): see `fanorona validate`)", k - 1),
        };
        bail!("{}{more}", problem_line(&name, report.game, p));
    }
    let (game, _) = record.replay();
    let game = game.ok_or_else(|| anyhow!("{name}: game {index} cannot be replayed"))?;
    Ok((record, game))
}

/// One problem as `validate` prints it.
fn problem_line(file: &str, game: usize, p: &fanorona_core::record::Problem) -> String {
    let sep = if p.turn.is_some() { "," } else { ":" };
    format!("{file}:{}:{}: game {game}{sep} {p}", p.at.line, p.at.column)
}

fn result_json(r: &SearchResult) -> serde_json::Value {
    json!({
        "best": r.best.to_string(),
        "score": r.score.to_string(),
        "depth": r.depth,
        "nodes": r.nodes,
        "ms": r.time.as_millis() as u64,
        "pv": r.pv.iter().map(ToString::to_string).collect::<Vec<_>>(),
    })
}

/// Runs `fanorona analyse`.
pub fn run(args: &AnalyseArgs) -> Result<ExitCode> {
    let mut out = crate::output::stdout();
    if let (Some(record), Some(path)) = (&args.record, &args.out) {
        crate::output::refuse_same_file(&[record], path)?;
    }
    let limits = args.limits();
    let mut searcher = Searcher::try_new(args.hash).context("--hash")?;
    searcher.set_threads(
        args.threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from)),
    );
    if let Some(dir) = &args.tables {
        let tables = fanorona_ai::solve::tablebase::Tablebase::load(dir)
            .context("cannot load the endgame tables")?;
        searcher.set_tablebase(Some(std::sync::Arc::new(tables)));
    }
    let stop = AtomicBool::new(false);
    if args.per_turn {
        let path = args.record.as_deref().expect("clap requires --record");
        return per_turn(args, path, &limits, &mut searcher, &stop);
    }
    let game = match &args.record {
        Some(path) => read_game(path, args.from, args.game)?.1,
        None => {
            let mut game = Game::new(args.position.position()?);
            for (i, t) in args
                .play
                .iter()
                .flat_map(|p| p.split_whitespace())
                .enumerate()
            {
                game.play_text(t)
                    .with_context(|| format!("in --play, turn {} ({t})", i + 1))?;
            }
            game
        }
    };
    if let Some(o) = game.outcome() {
        bail!("the game is over: {o}");
    }
    let verbose = !args.json && std::io::stderr().is_terminal();
    let r = searcher.search(&game, &limits, &SearchOptions::default(), &stop, |i| {
        if verbose {
            errln!(
                "depth {:>2} score {:<8} nodes {:>10} {:>6} ms  {}",
                i.depth,
                i.score.to_string(),
                i.nodes,
                i.time.as_millis(),
                i.pv_text()
            );
        }
    })?;
    if args.json {
        let mut v = result_json(&r);
        v["position"] = json!(game.position().to_fen());
        writeln!(out, "{v}")?;
    } else {
        writeln!(out, "position {}", game.position())?;
        writeln!(out, "best {}", r.best)?;
        writeln!(out, "score {}", r.score)?;
        writeln!(out, "depth {} nodes {} nps {}", r.depth, r.nodes, r.nps())?;
        writeln!(out, "pv {}", r.pv_text())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn per_turn(
    args: &AnalyseArgs,
    path: &str,
    limits: &Limits,
    searcher: &mut Searcher,
    stop: &AtomicBool,
) -> Result<ExitCode> {
    let (record, game) = read_game(path, args.from, args.game)?;
    // Opened before the work, so that an output that cannot be written is known at once.
    let mut out = Output::open(args.out.as_deref())?;
    let turns = game.turns();
    let bar = progress::bar(turns.len() as u64, "analyse");
    let mut entries = Vec::new();
    let mut comments = Vec::new();
    let mut replay = Game::new(*game.start());
    for (i, turn) in turns.iter().enumerate() {
        bar.set_message(format!("turn {}", i + 1));
        let r = searcher.search(&replay, limits, &SearchOptions::default(), stop, |_| {})?;
        let played_value = r
            .root_moves
            .iter()
            .find(|m| m.turn == *turn)
            .map(|m| m.value);
        let agrees = r.best == *turn;
        comments.push(if agrees {
            format!("engine agrees, {} (depth {})", r.score, r.depth)
        } else {
            format!(
                "engine prefers {}, {} (depth {}); pv {}",
                r.best,
                r.score,
                r.depth,
                r.pv_text()
            )
        });
        entries.push(json!({
            "ply": i + 1,
            "played": turn.to_string(),
            "agrees": agrees,
            "played_bound": played_value,
            "analysis": result_json(&r),
        }));
        replay.play(*turn).context("replaying the game")?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    if args.json {
        writeln!(out, "{}", json!({ "turns": entries }))?;
        out.finish()?;
        return Ok(ExitCode::SUCCESS);
    }
    let annotated = annotate(&record, comments);
    out.write_all(annotated.to_fgn()?.as_bytes())?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// The record with `comments[i]` added after its `i`-th turn, after the turn's own NAGs and
/// comments, which are kept; the engine is added to the annotators.
fn annotate(record: &GameRecord, comments: Vec<String>) -> GameRecord {
    let mut annotated = record.clone();
    annotated.source = None;
    let mut movetext = Vec::with_capacity(record.movetext.len() + comments.len());
    let mut pending: Option<String> = None;
    let mut comments = comments.into_iter();
    for element in &record.movetext {
        if matches!(element, Element::Turn(_))
            && let Some(c) = pending.take()
        {
            movetext.push(Element::Comment(c));
        }
        movetext.push(element.clone());
        if matches!(element, Element::Turn(_)) {
            pending = comments.next();
        }
    }
    if let Some(c) = pending {
        movetext.push(Element::Comment(c));
    }
    annotated.movetext = movetext;
    let engine = fanorona_ai::protocol::ENGINE_NAME;
    let annotator = match record.tag("Annotator") {
        Some(old) if !old.trim().is_empty() && !old.contains(engine) => format!("{old}, {engine}"),
        _ => engine.to_owned(),
    };
    annotated.set_tag("Annotator", annotator);
    annotated
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotations_keep_comments_and_nags() {
        let record = GameRecord {
            tags: Vec::new(),
            movetext: vec![
                Element::Comment("before".into()),
                Element::Turn("f2-e3A".into()),
                Element::Nag(1),
                Element::Comment("good".into()),
                Element::Turn("d5-d4A".into()),
            ],
            result: None,
            source: None,
        };
        let a = annotate(&record, vec!["one".into(), "two".into()]);
        assert_eq!(
            a.movetext,
            vec![
                Element::Comment("before".into()),
                Element::Turn("f2-e3A".into()),
                Element::Nag(1),
                Element::Comment("good".into()),
                Element::Comment("one".into()),
                Element::Turn("d5-d4A".into()),
                Element::Comment("two".into()),
            ]
        );
        assert_eq!(a.tag("Annotator"), Some(fanorona_ai::protocol::ENGINE_NAME));
    }
}

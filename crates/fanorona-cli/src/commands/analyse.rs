//! `fanorona analyse`: the engine's view of a position or of every turn of a game.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Args;
use fanorona_ai::{Limits, SearchOptions, SearchResult, Searcher};
use fanorona_core::Game;
use fanorona_core::record::{Element, GameRecord, Reader};
use serde_json::json;

use crate::options::PositionArgs;
use crate::progress;

/// Analyse a position or a game: best turn, score and principal variation.
///
/// A position comes from --fen/--board and the turns of --play; a game from --record, whose
/// last position is analysed, or each position before each of its turns with --per-turn
/// (an annotated record comes out: a comment after each turn with the engine's choice and
/// score). Without a limit, each search takes one second.
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
    /// A game record (FGN) to analyse.
    #[arg(long, value_name = "FILE")]
    pub record: Option<String>,
    /// Which game of the record, from 1.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub game: usize,
    /// Analyse the position before every turn of the game and write an annotated record.
    #[arg(long, requires = "record")]
    pub per_turn: bool,
    /// Where the annotated record goes (default: standard output).
    #[arg(long, value_name = "FILE", requires = "per_turn")]
    pub out: Option<String>,
    /// Search depth in plies.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Nodes per search.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Milliseconds per search.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// A folder of endgame tables (made by `fanorona solve`) for the search to probe.
    #[arg(long, value_name = "DIR")]
    pub tables: Option<String>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
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

fn read_game(path: &str, index: usize) -> Result<(GameRecord, Game)> {
    let file = std::fs::File::open(path).with_context(|| format!("cannot open {path}"))?;
    let mut reader = Reader::new(std::io::BufReader::new(file));
    let mut n = 0;
    while let Some(record) = reader
        .read_record()
        .map_err(|e| anyhow::anyhow!("{path}: {}", e.message()))?
    {
        n += 1;
        if n == index {
            let (game, report) = record.replay();
            let Some(game) = game else {
                bail!("{path}, game {index}: cannot be replayed: {report:?}");
            };
            if !report.is_valid() {
                bail!("{path}, game {index}: {report:?}");
            }
            return Ok((record, game));
        }
    }
    bail!("{path} has {n} game(s), not a game number {index}")
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
    let mut searcher = Searcher::new(args.hash.max(1));
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
        Some(path) => read_game(path, args.game)?.1,
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
    let mut out = crate::output::stdout();
    let (record, game) = read_game(path, args.game)?;
    let turns = game.turns();
    let bar = progress::bar(turns.len() as u64, "analyse");
    let mut entries = Vec::new();
    let mut movetext = Vec::new();
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
        movetext.push(Element::Turn(turn.to_string()));
        let comment = if agrees {
            format!("engine agrees, {} (depth {})", r.score, r.depth)
        } else {
            format!(
                "engine prefers {}, {} (depth {}); pv {}",
                r.best,
                r.score,
                r.depth,
                r.pv_text()
            )
        };
        movetext.push(Element::Comment(comment));
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
        return Ok(ExitCode::SUCCESS);
    }
    let mut annotated = record.clone();
    annotated.movetext = movetext;
    annotated.source = None;
    annotated.set_tag("Annotator", fanorona_ai::protocol::ENGINE_NAME);
    let text = annotated.to_fgn()?;
    match &args.out {
        Some(p) => crate::output::write_file(p, text.as_bytes())?,
        None => out.write_all(text.as_bytes())?,
    }
    Ok(ExitCode::SUCCESS)
}

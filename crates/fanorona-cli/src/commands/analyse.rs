//! `fanorona analyse`: the engine's view of a position or of every turn of a game.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use fanorona_ai::{Limits, Score, SearchOptions, SearchResult, Searcher};
use fanorona_core::Game;
use fanorona_core::record::{Element, GameRecord};
use serde_json::json;

use super::records::{Format, GameSource, display_name, open_input};
use crate::options::{EvalArgs, PositionArgs, limits, ranged};
use crate::output::Output;
use crate::progress;

/// Analyse a position or a game: best turn, score and principal variation.
///
/// A position comes from --fen/--board and the turns of --play; a game from --record (FGN,
/// JSON or Boardspace, by extension or --from), whose last position is analysed, or each
/// position before each of its turns with --per-turn (an annotated record comes out: the
/// record's comments and NAGs are kept; after each turn the engine adds a comment with its
/// choice and score, and, where the played turn is worse than the engine's by 0.4 stones or
/// more, a NAG: $6 (?!) from 0.4, $2 (?) from 1, $4 (??) from 3 stones or for a turn that
/// gives up a forced win or walks into a forced loss). A played turn other than the engine's
/// is searched a second time, alone, for its own score. Without a limit, each search takes
/// one second.
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
    #[command(flatten)]
    pub eval: EvalArgs,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

impl AnalyseArgs {
    fn limits(&self) -> Limits {
        let mut l = Limits::default();
        l.depth = self.depth;
        l.nodes = self.nodes;
        l.movetime = self.movetime.map(Duration::from_millis);
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
    if let Some(net) = args.eval.network()? {
        searcher.set_network(net);
    }
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
    note_threads(&r, &mut false);
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

/// Says once (`noted`) that the search ran with fewer threads than --threads asked for,
/// because the system could not start more (a process or memory limit).
fn note_threads(r: &fanorona_ai::SearchResult, noted: &mut bool) {
    if r.threads_not_started > 0 && !*noted {
        *noted = true;
        errln!(
            "note: the system could not start {} of the {} search threads (--threads): \
             searched with {}",
            r.threads_not_started,
            r.threads + r.threads_not_started,
            r.threads
        );
    }
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
    let mut notes = Vec::new();
    let mut replay = Game::new(*game.start());
    let mut noted = false;
    for (i, turn) in turns.iter().enumerate() {
        bar.set_message(format!("turn {}", i + 1));
        let r = searcher.search(&replay, limits, &SearchOptions::default(), stop, |_| {})?;
        note_threads(&r, &mut noted);
        let agrees = r.best == *turn;
        // The played turn's own score: the best turn's, or a search of the played turn alone.
        let played = if agrees {
            r.score
        } else {
            let alone = SearchOptions::default().with_root_turns(vec![*turn]);
            searcher
                .search(&replay, limits, &alone, stop, |_| {})?
                .score
        };
        let nag = judge(r.score, played);
        let comment = if agrees {
            format!("engine agrees, {} (depth {})", r.score, r.depth)
        } else {
            format!(
                "engine prefers {}, {} (depth {}), played {}; pv {}",
                r.best,
                r.score,
                r.depth,
                played,
                r.pv_text()
            )
        };
        notes.push(Note { nag, comment });
        entries.push(json!({
            "ply": i + 1,
            "played": turn.to_string(),
            "agrees": agrees,
            "played_score": played.to_string(),
            "nag": nag,
            "analysis": result_json(&r),
        }));
        replay.play(turn).context("replaying the game")?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    if args.json {
        writeln!(out, "{}", json!({ "turns": entries }))?;
        out.finish()?;
        return Ok(ExitCode::SUCCESS);
    }
    let annotated = annotate(&record, notes);
    out.write_all(annotated.to_fgn()?.as_bytes())?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// NAG 6, `?!`: a dubious turn.
const NAG_DUBIOUS: u8 = 6;
/// NAG 2, `?`: a mistake.
const NAG_MISTAKE: u8 = 2;
/// NAG 4, `??`: a blunder.
const NAG_BLUNDER: u8 = 4;

/// The engine's judgement of a played turn from the best turn's score and the played turn's
/// (both from the mover's view): a blunder when it gives up a forced win or walks into a
/// forced loss the best turn avoids, otherwise by the centi-stones lost: 300 and more a
/// blunder, 100 a mistake, 40 dubious.
fn judge(best: Score, played: Score) -> Option<u8> {
    match (best, played) {
        (Score::Win(b), Score::Win(p)) if b > 0 && p > 0 => None,
        (Score::Win(b), _) if b > 0 => Some(NAG_BLUNDER),
        (_, Score::Win(p)) if p < 0 => match best {
            Score::Win(b) if b < 0 => None,
            _ => Some(NAG_BLUNDER),
        },
        (Score::Cp(b), Score::Cp(p)) => match b.saturating_sub(p) {
            300.. => Some(NAG_BLUNDER),
            100.. => Some(NAG_MISTAKE),
            40.. => Some(NAG_DUBIOUS),
            _ => None,
        },
        // A losing best turn and a played turn that is not losing: search noise, no judgement.
        _ => None,
    }
}

/// What the engine adds after one turn.
struct Note {
    nag: Option<u8>,
    comment: String,
}

/// The record with `notes[i]` added after its `i`-th turn, after the turn's own NAGs and
/// comments, which are kept: the engine's NAG (unless the turn has it already), then its
/// comment. The engine is added to the annotators.
fn annotate(record: &GameRecord, notes: Vec<Note>) -> GameRecord {
    let mut annotated = record.clone();
    annotated.source = None;
    let mut movetext = Vec::with_capacity(record.movetext.len() + 2 * notes.len());
    let mut pending: Option<Note> = None;
    // The NAGs the current turn already has.
    let mut nags: Vec<u8> = Vec::new();
    let mut notes = notes.into_iter();
    let flush = |movetext: &mut Vec<Element>, note: Note, nags: &[u8]| {
        if let Some(n) = note.nag.filter(|n| !nags.contains(n)) {
            movetext.push(Element::Nag(n));
        }
        movetext.push(Element::Comment(note.comment));
    };
    for element in &record.movetext {
        if matches!(element, Element::Turn(_))
            && let Some(note) = pending.take()
        {
            flush(&mut movetext, note, &nags);
        }
        movetext.push(element.clone());
        match element {
            Element::Turn(_) => {
                pending = notes.next();
                nags.clear();
            }
            Element::Nag(n) => nags.push(*n),
            _ => {}
        }
    }
    if let Some(note) = pending {
        flush(&mut movetext, note, &nags);
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
        let record = GameRecord::new(
            Vec::new(),
            vec![
                Element::Comment("before".into()),
                Element::Turn("f2-e3A".into()),
                Element::Nag(1),
                Element::Comment("good".into()),
                Element::Turn("d5-d4A".into()),
            ],
            None,
        );
        let note = |nag, comment: &str| Note {
            nag,
            comment: comment.into(),
        };
        let a = annotate(
            &record,
            vec![note(None, "one"), note(Some(NAG_MISTAKE), "two")],
        );
        assert_eq!(
            a.movetext,
            vec![
                Element::Comment("before".into()),
                Element::Turn("f2-e3A".into()),
                Element::Nag(1),
                Element::Comment("good".into()),
                Element::Comment("one".into()),
                Element::Turn("d5-d4A".into()),
                Element::Nag(2),
                Element::Comment("two".into()),
            ]
        );
        assert_eq!(a.tag("Annotator"), Some(fanorona_ai::protocol::ENGINE_NAME));
        // A NAG the turn already has is not doubled; the engine's comes after the turn's own.
        let mut record = record;
        record.movetext = vec![
            Element::Turn("f2-e3A".into()),
            Element::Nag(4),
            Element::Turn("d5-d4A".into()),
            Element::Nag(1),
        ];
        let a = annotate(
            &record,
            vec![
                note(Some(NAG_BLUNDER), "one"),
                note(Some(NAG_DUBIOUS), "two"),
            ],
        );
        assert_eq!(
            a.movetext,
            vec![
                Element::Turn("f2-e3A".into()),
                Element::Nag(4),
                Element::Comment("one".into()),
                Element::Turn("d5-d4A".into()),
                Element::Nag(1),
                Element::Nag(6),
                Element::Comment("two".into()),
            ]
        );
    }

    #[test]
    fn played_turns_are_judged_by_what_they_lose() {
        use Score::{Cp, Win};
        // Centi-stones lost: under 40 nothing, then ?!, ?, ??.
        assert_eq!(judge(Cp(50), Cp(50)), None);
        assert_eq!(judge(Cp(50), Cp(11)), None);
        assert_eq!(judge(Cp(50), Cp(10)), Some(NAG_DUBIOUS));
        assert_eq!(judge(Cp(0), Cp(-99)), Some(NAG_DUBIOUS));
        assert_eq!(judge(Cp(0), Cp(-100)), Some(NAG_MISTAKE));
        assert_eq!(judge(Cp(200), Cp(-99)), Some(NAG_MISTAKE));
        assert_eq!(judge(Cp(200), Cp(-100)), Some(NAG_BLUNDER));
        // A played turn the second search finds better: nothing.
        assert_eq!(judge(Cp(0), Cp(30)), None);
        // Forced results: a slower win is fine, a thrown-away win or a walk into a forced
        // loss is a blunder, a slower loss in a lost position is not.
        assert_eq!(judge(Win(2), Win(5)), None);
        assert_eq!(judge(Win(2), Cp(900)), Some(NAG_BLUNDER));
        assert_eq!(judge(Cp(-900), Win(-3)), Some(NAG_BLUNDER));
        assert_eq!(judge(Win(-5), Win(-2)), None);
        assert_eq!(judge(Win(-5), Cp(-20)), None);
    }
}

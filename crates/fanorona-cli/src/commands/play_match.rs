//! `fanorona match`: games between two players, with the result and an Elo difference.

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Args;
use fanorona_ai::Limits;
use fanorona_ai::matches::{MatchConfig, MatchGame, play_match};
use fanorona_ai::players::PlayerSpec;
use fanorona_core::record::{Element, GameRecord, GameResult, Tag};
use fanorona_core::{BoardSize, Color, Position};
use serde_json::json;

use crate::options::{RuleArgs, limits, ranged};
use crate::progress;

/// Play games between two players and report wins, draws, losses and the Elo difference.
///
/// A player is `random`, `greedy` (largest capture), `engine` (full strength),
/// `engine:LEVEL` (beginner, casual, strong, maximum), `engine:depth=N`, `engine:nodes=N`,
/// `engine:movetime=MS` (options combine: `engine:casual:movetime=50`), or `uci:COMMAND`, an
/// external engine speaking the engine protocol. Colours alternate; each opening is played
/// twice, once with each colour. Results count for the first player.
///
/// Examples:
///   fanorona match engine:strong greedy --games 20 --movetime 100
///   fanorona match engine:casual engine:beginner --games 40 --threads 2
///   fanorona match engine "uci:./other-engine --uci" --movetime 200 --out games.fgn --json
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct MatchArgs {
    /// The first player (results count for it).
    pub first: String,
    /// The second player.
    pub second: String,
    /// Number of games.
    #[arg(long, default_value_t = 10, value_parser = ranged::<usize>(1..=limits::GAMES))]
    pub games: usize,
    /// Milliseconds per turn for engines whose description names no limit.
    #[arg(long, value_name = "MS", value_parser = ranged::<u64>(1..=limits::MOVETIME_MS))]
    pub movetime: Option<u64>,
    /// Depth per turn for engines whose description names no limit.
    #[arg(long, value_parser = ranged::<u32>(1..=limits::SEARCH_DEPTH))]
    pub depth: Option<u32>,
    /// Nodes per turn for engines whose description names no limit.
    #[arg(long, value_parser = ranged::<u64>(1..=u64::MAX))]
    pub nodes: Option<u64>,
    /// A file of starting positions, one position string per line (`#` starts a comment).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<String>,
    /// Play this many random turns from each opening before the players take over (the same
    /// turns for both games of a pair): varied games between deterministic engines.
    #[arg(long, value_name = "N", default_value_t = 0,
          value_parser = ranged::<usize>(0..=limits::TURNS))]
    pub random_plies: usize,
    /// Start from the setup of this board size (rows x columns) when there are no openings.
    #[arg(
        long,
        value_name = "RxC",
        default_value = "5x9",
        conflicts_with = "openings"
    )]
    pub board: String,
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Games played at once (default: the number of processors).
    #[arg(long, value_parser = ranged::<usize>(1..=limits::THREADS))]
    pub threads: Option<usize>,
    /// A game running longer than this many turns is adjudicated a draw.
    #[arg(long, default_value_t = 1000, value_parser = ranged::<usize>(1..=limits::TURNS))]
    pub max_turns: usize,
    /// Seed for the players' randomness.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write every game to this file as FGN records.
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
    /// Print the summary as JSON (`wins`, `draws`, `losses` for the first player).
    #[arg(long)]
    pub json: bool,
}

fn read_openings(path: &str, rules: fanorona_core::Rules) -> Result<Vec<Position>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        let pos = Position::from_fen_with(line, rules)
            .with_context(|| format!("{path}, line {}", i + 1))?;
        if pos.outcome().is_some() {
            bail!("{path}, line {}: the game is already over there", i + 1);
        }
        out.push(pos);
    }
    if out.is_empty() {
        bail!("{path} holds no position");
    }
    Ok(out)
}

fn record(g: &MatchGame, round: usize) -> GameRecord {
    let start = g.game.start();
    let result = match g.outcome.winner {
        Some(Color::White) => GameResult::WhiteWins,
        Some(Color::Black) => GameResult::BlackWins,
        None => GameResult::Draw,
    };
    let mut tags = vec![
        ("Event", "fanorona match".to_owned()),
        ("Round", round.to_string()),
        ("White", g.white.clone()),
        ("Black", g.black.clone()),
        ("Result", g.outcome.result_str().to_owned()),
    ];
    if start.size() != BoardSize::STANDARD {
        tags.push(("Board", start.size().to_string()));
    }
    let rules = start.rules().to_string();
    if !rules.is_empty() {
        tags.push(("Rules", rules));
    }
    if *start != Position::start_with(start.size(), start.rules()) {
        tags.push(("FEN", start.to_fen()));
    }
    let mut movetext: Vec<Element> = g
        .game
        .turns()
        .iter()
        .map(|t| Element::Turn(t.to_string()))
        .collect();
    movetext.push(Element::Comment(g.outcome.to_string()));
    GameRecord {
        tags: tags
            .into_iter()
            .map(|(name, value)| Tag {
                name: name.to_owned(),
                value,
            })
            .collect(),
        movetext,
        result: Some(result),
        source: None,
    }
}

fn show(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_owned()
    } else {
        format!("{x:+.0}")
    }
}

/// Runs `fanorona match`.
pub fn run(args: &MatchArgs) -> Result<ExitCode> {
    let mut out = crate::output::stdout();
    let first: PlayerSpec = args.first.parse()?;
    let second: PlayerSpec = args.second.parse()?;
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let rules = args.rules.rules()?;
    // The output is checked, and its temporary file made, before any game is played.
    let journal = match &args.out {
        Some(path) => {
            if let Some(openings) = &args.openings {
                crate::output::refuse_same_file(&[openings], path)?;
            }
            Some(std::sync::Mutex::new(crate::output::OutputFile::journal(
                path,
            )?))
        }
        None => None,
    };
    let write_error = std::sync::Mutex::new(None::<anyhow::Error>);
    let openings = match &args.openings {
        Some(path) => read_openings(path, rules)?,
        None => {
            let size: BoardSize = args.board.parse().context("in --board")?;
            vec![Position::start_with(size, rules)]
        }
    };
    let limits = Limits {
        movetime: args.movetime.map(Duration::from_millis),
        depth: args.depth,
        nodes: args.nodes,
        ..Limits::default()
    };
    let config = MatchConfig {
        games: args.games,
        openings,
        limits: (limits != Limits::default()).then_some(limits),
        threads: args.threads.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
        }),
        max_turns: args.max_turns,
        seed: args.seed,
        random_plies: args.random_plies,
    };
    let bar = progress::bar(args.games as u64, "match");
    let result = play_match(&first, &second, &config, |_, g| {
        bar.set_message(format!("game {}: {}", g.index + 1, g.outcome.result_str()));
        bar.inc(1);
        // Each game is kept as it ends (see `OutputFile::journal`).
        if let Some(journal) = &journal {
            let written = record(g, g.index + 1)
                .to_fgn()
                .map_err(anyhow::Error::from)
                .and_then(|text| {
                    journal
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .append(text.as_bytes())
                });
            if let Err(e) = written {
                write_error
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .get_or_insert(e);
            }
        }
    });
    bar.finish_and_clear();
    // Finished games are in the output whether or not the match ended well.
    let committed = journal.map(|j| j.into_inner().unwrap_or_else(|p| p.into_inner()).commit());
    let result = result?;
    if let Some(e) = write_error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    if let Some(committed) = committed {
        committed?;
    }
    let elo = result.elo();
    let n = result.games.len() as f64;
    let score = (result.wins as f64 + result.draws as f64 / 2.0) / n;
    if args.json {
        let finite = |x: f64| if x.is_finite() { json!(x) } else { json!(null) };
        writeln!(
            out,
            "{}",
            json!({
                "first": first.to_string(),
                "second": second.to_string(),
                "games": result.games.len(),
                "wins": result.wins,
                "draws": result.draws,
                "losses": result.losses,
                "score": score,
                "elo": finite(elo.diff),
                "elo_margin": finite(elo.margin),
            })
        )?;
    } else {
        writeln!(
            out,
            "{first} vs {second}: +{} ={} -{} of {} games, score {:.1}%, Elo {} +- {}",
            result.wins,
            result.draws,
            result.losses,
            result.games.len(),
            score * 100.0,
            show(elo.diff),
            if elo.margin.is_finite() {
                format!("{:.0}", elo.margin)
            } else {
                "inf".to_owned()
            }
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

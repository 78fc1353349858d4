//! `fanorona solve`: the exact value of a position or a board's start, and endgame tables.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use fanorona_ai::solve::certificate::Certificate;
use fanorona_ai::solve::dfpn::Dfpn;
use fanorona_ai::solve::tablebase::{ClassStats, TableError, Tablebase};
use fanorona_ai::solve::{Budget, Progress, Value, human_bytes, layered, pns, retro, tablegen};
use fanorona_core::{BoardSize, Color, GameKind, Position};
use serde_json::{Value as Json, json};

use crate::options::{PositionArgs, limits, ranged};
use crate::progress;

/// Solve a position exactly: win, draw or loss for the side to move with best play.
///
/// Infinite play is a draw and the no-capture limit is off unless given. Small boards are
/// solved by retrograde analysis of every reachable position, larger ones by proof-number
/// search; `--method both` runs both and checks that they agree.
///
/// Examples:
///   fanorona solve --board 3x3
///   fanorona solve --board 5x5 --method pn --json
///   fanorona solve --board 3x5 --method both
///   fanorona solve --fen "1B1/3/W1W w" --method retro --line 10
///   fanorona solve --board 9x3 --prove black             # one search: can Black force a win?
///   fanorona solve --tables tables --max-stones 4         # generate 5x9 endgame tables
///   fanorona solve --probe tables --fen "9/9/4B4/9/3W1W3 w"
///   fanorona solve --board 3x5 --certificate 3x5.cert   # check: fanorona verify-proof
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct SolveArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// The method: retrograde analysis (retro, or layered by material for less memory),
    /// proof-number search (pn), both (retrograde analysis and proof-number search,
    /// cross-checked), or auto (retro up to 15 points, pn beyond; the default).
    #[arg(long, value_enum)]
    pub method: Option<Method>,
    /// Memory budget for the solver's tables, such as 512M or 8G (binary units; default 8G).
    /// A df-pn checkpoint whose table would not fit is refused before it is read.
    #[arg(long, value_name = "SIZE", value_parser = parse_bytes)]
    pub max_memory: Option<u64>,
    /// Time budget in seconds.
    #[arg(long, value_name = "SECONDS", value_parser = crate::options::seconds)]
    pub max_time: Option<f64>,
    /// Also print a line of best play this many turns long (with `--method retro`).
    #[arg(long, value_name = "TURNS", default_value_t = 0,
          value_parser = ranged::<usize>(0..=limits::TURNS))]
    pub line: usize,
    /// Generate endgame tables of the board (default 5x9) into this directory: for each
    /// material class a distance layer (`.fntb`) and a two-bit win/draw/loss layer
    /// (`.fnwdl`), written as soon as the class is solved. Classes whose files are already
    /// there are loaded instead, so an interrupted run resumes where it stopped. Without
    /// DIR: the folder where the 3D client's endgame trainer looks for them,
    /// `<data dir>/fanorona/tables` (`~/.local/share/fanorona/tables` on Linux).
    #[arg(long, value_name = "DIR", num_args = 0..=1,
          conflicts_with_all = ["fen", "probe", "method", "line"])]
    pub tables: Option<Option<PathBuf>>,
    /// Most stones in total for `--tables` and `--check-tables` (default 4).
    #[arg(long, value_name = "N", value_parser = ranged::<u32>(2..=8))]
    pub max_stones: Option<u32>,
    /// Threads for `--tables` and `--check-tables` (default: the processors of this machine).
    /// The files and the verdict are the same with any number.
    #[arg(long, value_name = "N", value_parser = ranged::<usize>(1..=limits::THREADS))]
    pub threads: Option<usize>,
    /// Check the endgame tables of the board in this directory, up to `--max-stones`: every
    /// position's entry must be what its children's entries make it, and the two layers must
    /// agree. Exit code 1 at the first disagreement.
    #[arg(long, value_name = "DIR",
          conflicts_with_all = ["fen", "probe", "method", "line", "tables", "prove", "certificate"])]
    pub check_tables: Option<PathBuf>,
    /// Write beside each two-bit win/draw/loss layer (`.fnwdl`) in this directory its compact
    /// form (`.fnwdz`, compressed, for distribution), and print the sizes. The engine's
    /// two-bit reader reads a compact file in place of a missing two-bit layer.
    #[arg(long, value_name = "DIR",
          conflicts_with_all = ["fen", "probe", "method", "line", "tables", "check_tables",
                                "prove", "certificate", "expand_tables"])]
    pub compress_tables: Option<PathBuf>,
    /// Write the two-bit win/draw/loss layer (`.fnwdl`) of each compact file (`.fnwdz`) in
    /// this directory: byte for byte the layer that was compressed.
    #[arg(long, value_name = "DIR",
          conflicts_with_all = ["fen", "probe", "method", "line", "tables", "check_tables",
                                "prove", "certificate"])]
    pub expand_tables: Option<PathBuf>,
    /// With `--check-tables`: check only these material classes (`SvO`: stones of the side
    /// to move, then of the other side; repeatable or comma-separated), every class up to
    /// `--max-stones` still being read for their children.
    #[arg(long = "class", value_name = "SvO", requires = "check_tables",
          value_delimiter = ',', value_parser = parse_class)]
    pub classes: Vec<(u8, u8)>,
    /// Run one proof-number search only: can this side (`white` or `black`) force a win?
    #[arg(long, value_name = "SIDE", conflicts_with_all = ["tables", "probe", "method", "line"])]
    pub prove: Option<String>,
    /// With `--prove`: search by depth-first proof-number search with a transposition table
    /// (df-pn) in the memory budget, instead of best-first proof-number search. With
    /// `--certificate`, a proof is written as the winner's ordered strategy, a disproof as
    /// the other side's closed strategy (`win-or-draw` or `draw-or-loss`).
    #[arg(long, requires = "prove")]
    pub dfpn: bool,
    /// With `--dfpn`: save the search's table to this file every `--checkpoint-every`
    /// seconds and when the time budget runs out, and resume from it when it exists.
    #[arg(long, value_name = "FILE", requires = "dfpn")]
    pub checkpoint: Option<PathBuf>,
    /// Seconds between checkpoints.
    #[arg(long, value_name = "SECONDS", default_value_t = 600.0, requires = "checkpoint",
          value_parser = crate::options::seconds)]
    pub checkpoint_every: f64,
    /// With `--dfpn`: every this many seconds, print a line to standard error with where the
    /// search stands (positions expanded, table entries, proofs and disproofs in the table,
    /// the root's proof and disproof numbers, resident memory), for logs of long searches.
    /// The search is run in slices of this length (each resumes from the table, and saves
    /// the checkpoint when there is one).
    #[arg(long, value_name = "SECONDS", requires = "dfpn", value_parser = crate::options::seconds)]
    pub log_every: Option<f64>,
    /// With `--dfpn`: settle every position the endgame tables of this directory cover (the
    /// board's tables, made by `--tables`) from the tables instead of searching below it. The
    /// distance layers are loaded (one byte a position, outside `--max-memory`); a
    /// certificate spells those endgames out from the tables, so it is checked without them.
    #[arg(long, value_name = "DIR", requires = "dfpn")]
    pub use_tables: Option<PathBuf>,
    /// Look the position up in the endgame tables of this directory instead of solving it.
    #[arg(long, value_name = "DIR",
          conflicts_with_all = ["method", "line", "max_memory", "max_time"])]
    pub probe: Option<PathBuf>,
    /// Write a certificate of the value to this file (atomically): the winner's strategy, or
    /// each side's drawing strategy, for `fanorona verify-proof` to check. Built by
    /// proof-number search under the solver's default rules (`--method` is not used). With
    /// `--prove SIDE`, one search: the certificate proves that SIDE wins, or that the other
    /// side does not lose (`win-or-draw` or `draw-or-loss` for the side to move).
    #[arg(long, value_name = "FILE",
          conflicts_with_all = ["tables", "probe", "method", "line"])]
    pub certificate: Option<PathBuf>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

/// How to solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Method {
    /// Retrograde analysis up to 15 points, proof-number search beyond.
    Auto,
    /// Retrograde analysis of every reachable position.
    Retro,
    /// Retrograde analysis of every reachable position, layered by material (less memory).
    Layered,
    /// Proof-number search.
    Pn,
    /// Retrograde analysis (layered beyond 15 points) and proof-number search, checking that
    /// they agree.
    Both,
}

/// A material class such as `4v2`.
fn parse_class(text: &str) -> Result<(u8, u8), String> {
    let bad = || {
        format!(
            "{text} is not a material class such as 4v2",
            text = fanorona_core::escape::quoted(&text)
        )
    };
    let (s, o) = text.trim().split_once('v').ok_or_else(bad)?;
    let s: u8 = s.parse().map_err(|_| bad())?;
    let o: u8 = o.parse().map_err(|_| bad())?;
    if s == 0 || o == 0 || u16::from(s) + u16::from(o) > 8 {
        return Err(format!(
            "{text}: classes have 1 to 7 stones a side, 8 in all",
            text = fanorona_core::escape::quoted(&text)
        ));
    }
    Ok((s, o))
}

/// The memory budget when `--max-memory` is not given: 8 GiB.
const DEFAULT_BYTES: u64 = 8 << 30;
/// Where `--tables` without a folder writes: `<data dir>/fanorona/tables`, the folder the 3D
/// client's endgame trainer reads first (`~/.local/share/fanorona/tables` on Linux,
/// `%APPDATA%\fanorona\tables` on Windows, `~/Library/Application Support/fanorona/tables`
/// on macOS).
pub fn default_tables_dir() -> Option<PathBuf> {
    dirs::data_dir().map(|dir| dir.join("fanorona").join("tables"))
}

/// The most stones of `--tables` and `--check-tables` when `--max-stones` is not given.
const DEFAULT_STONES: u32 = 4;

/// Largest memory budget: 1 PiB.
const MAX_BYTES: u64 = 1 << 50;

/// A size such as `512M` or `1.5GiB` (binary units), from 1 byte to 1 PiB.
pub(crate) fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let (num, mult) = match t.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
        Some((i, _)) => {
            let unit = t[i..].to_ascii_uppercase();
            let mult: u64 = match unit.trim_end_matches("IB").trim_end_matches('B') {
                "" => 1,
                "K" => 1 << 10,
                "M" => 1 << 20,
                "G" => 1 << 30,
                "T" => 1 << 40,
                _ => {
                    return Err(format!(
                        "unknown unit {} in {text} (use K, M, G or T)",
                        fanorona_core::escape::quoted(&&t[i..]),
                        text = fanorona_core::escape::quoted(&text)
                    ));
                }
            };
            (&t[..i], mult)
        }
        None => (t, 1),
    };
    let n: f64 = num.trim().parse().map_err(|_| {
        format!(
            "{text} is not a size such as 512M or 8G",
            text = fanorona_core::escape::quoted(&text)
        )
    })?;
    let bytes = n * mult as f64;
    if !(bytes >= 1.0 && bytes <= MAX_BYTES as f64) {
        return Err(format!(
            "{text} is not in 1 byte..=1P",
            text = fanorona_core::escape::quoted(&text)
        ));
    }
    Ok(bytes as u64)
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// A progress bar fed by the solver's callbacks (hidden when standard error is no terminal).
fn reporter(bar: &indicatif::ProgressBar) -> impl FnMut(Progress) + '_ {
    move |p: Progress| {
        bar.set_prefix(p.stage);
        if p.total > 0 {
            bar.set_length(p.total.max(p.done));
            bar.set_position(p.done);
        } else {
            bar.set_length(p.done);
            bar.set_position(p.done);
        }
    }
}

/// Fanoron-Telo: the whole game solved by retrograde analysis (`fanorona_ai::telo`).
fn solve_telo(args: &SolveArgs, pos: &Position) -> Result<ExitCode> {
    let start = Instant::now();
    let solution = fanorona_ai::telo::TeloSolution::solve(pos.rules())?;
    let Some((value, plies)) = solution.value(pos) else {
        bail!(
            "{} cannot be reached from the empty board of Fanoron-Telo",
            pos.to_fen()
        );
    };
    let [won, drawn, lost] = solution.counts();
    let word = match value {
        Value::Win => "win",
        Value::Draw => "draw",
        Value::Loss => "loss",
    };
    let mut stdout = crate::output::stdout();
    if args.json {
        let v = json!({
            "position": pos.to_fen(),
            "game": "telo",
            "value": word,
            "plies": plies,
            "side_to_move": format!("{:?}", pos.side_to_move()),
            "positions": won + drawn + lost,
            "won": won,
            "drawn": drawn,
            "lost": lost,
        });
        writeln!(stdout, "{v}")?;
    } else {
        writeln!(
            stdout,
            "Fanoron-Telo {}: {word} for {:?} to move{}",
            pos.to_fen(),
            pos.side_to_move(),
            if value == Value::Draw {
                String::new()
            } else {
                format!(" in {plies} {}", if plies == 1 { "ply" } else { "plies" })
            }
        )?;
        writeln!(
            stdout,
            "retrograde analysis: {} positions reachable from the empty board ({won} wins, \
             {drawn} draws, {lost} losses for the side to move); {:.3} s",
            won + drawn + lost,
            start.elapsed().as_secs_f64()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `fanorona solve`.
pub fn run(args: &SolveArgs) -> Result<ExitCode> {
    let mut budget = Budget::default().with_max_bytes(args.max_memory.unwrap_or(DEFAULT_BYTES));
    // In range: checked by the argument parser.
    budget.max_time = args.max_time.map(Duration::from_secs_f64);
    let mut position = args.position.clone();
    let mut rules = position.rules.rules()?;
    // The game, from the rules or the position string's game word.
    let named = position.position()?;
    refuse_unsupported(args, named.rules().game())?;
    match named.rules().game() {
        GameKind::Telo => return solve_telo(args, &named),
        GameKind::Vela if named.is_vela_phase() => bail!(
            "Vela is solved here only once the side giving the handicap ({}, under vela={}) is \
             down to five stones (then it is the capture game); this position is in its first \
             phase",
            match named.rules().vela().giver() {
                fanorona_core::Color::White => "White",
                _ => "Black",
            },
            named.rules().vela().name()
        ),
        // Out of its first phase a Vela position is one of the capture game for good (whose
        // account of Vela it was no longer matters).
        _ => {
            rules = rules
                .with_game(GameKind::Capture)
                .with_vela(fanorona_core::VelaRule::Montgomery)
        }
    }
    let limit_given = position.rules.no_capture_limit.is_some()
        || position
            .rules
            .rules
            .as_deref()
            .is_some_and(|r| r.contains("no-capture-limit"));
    if !limit_given {
        rules = rules.with_no_capture_limit(None);
    }
    position.rules = Default::default();
    let pos = position.position()?.with_rules(rules)?;
    if let Some(dir) = &args.tables {
        let dir = match dir {
            Some(dir) => dir.clone(),
            None => default_tables_dir().ok_or_else(|| {
                anyhow::anyhow!(
                    "--tables without a folder: this system has no data folder (no home \
                     directory); give one, --tables DIR"
                )
            })?,
        };
        return generate_tables(args, &dir, pos.size(), &budget);
    }
    if let Some(dir) = &args.check_tables {
        return check_tables(args, dir, pos.size());
    }
    if let Some(dir) = &args.compress_tables {
        return compress_tables(args, dir);
    }
    if let Some(dir) = &args.expand_tables {
        let files = fanorona_ai::solve::compact::expand_dir(dir).with_context(|| {
            format!("expanding the tables in {}", crate::output::shown_path(dir))
        })?;
        if args.json {
            writeln!(crate::output::stdout(), "{}", json!({"files": files.len()}))?;
        } else {
            writeln!(
                crate::output::stdout(),
                "{} two-bit layers written in {}",
                files.len(),
                crate::output::shown_path(dir)
            )?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(dir) = &args.probe {
        return probe(args, dir, &pos);
    }
    if let Some(side) = &args.prove {
        let attacker = match side.to_ascii_lowercase().as_str() {
            "white" | "w" => Color::White,
            "black" | "b" => Color::Black,
            _ => bail!(
                "--prove takes white or black, not {side}",
                side = fanorona_core::escape::quoted(&side)
            ),
        };
        if args.dfpn {
            return prove_dfpn(args, &pos, attacker, &budget);
        }
        if let Some(file) = &args.certificate {
            return write_certificate(args, &pos, file, Some(attacker.other()), &budget);
        }
        return prove(args, &pos, attacker, &budget);
    }
    if let Some(file) = &args.certificate {
        return write_certificate(args, &pos, file, None, &budget);
    }
    solve_position(args, &pos, &budget)
}

/// The options given (not left at their defaults) among those that select or tune a solving
/// method, with whether each is given.
fn method_options(args: &SolveArgs) -> [(&'static str, bool); 17] {
    [
        ("--method", args.method.is_some()),
        ("--max-memory", args.max_memory.is_some()),
        ("--max-time", args.max_time.is_some()),
        ("--line", args.line > 0),
        ("--tables", args.tables.is_some()),
        ("--max-stones", args.max_stones.is_some()),
        ("--threads", args.threads.is_some()),
        ("--check-tables", args.check_tables.is_some()),
        ("--compress-tables", args.compress_tables.is_some()),
        ("--expand-tables", args.expand_tables.is_some()),
        ("--class", !args.classes.is_empty()),
        ("--prove", args.prove.is_some()),
        ("--dfpn", args.dfpn),
        ("--checkpoint", args.checkpoint.is_some()),
        ("--log-every", args.log_every.is_some()),
        ("--probe", args.probe.is_some()),
        ("--certificate", args.certificate.is_some()),
    ]
}

/// An option the game (or the command's mode) does not use is an error naming it, never
/// silently ignored: Fanoron-Telo is solved whole by its own retrograde analysis, which takes
/// none of the methods' options; endgame tables are of the capture game; `--max-stones` is an
/// option of `--tables` and `--check-tables`.
fn refuse_unsupported(args: &SolveArgs, game: GameKind) -> Result<()> {
    let given = method_options(args);
    if game == GameKind::Telo
        && let Some((name, _)) = given.iter().find(|(_, on)| *on)
    {
        bail!(
            "{name} is not supported under game=telo: Fanoron-Telo is solved whole by \
             retrograde analysis of every reachable position, which takes no method, budget, \
             tables, proof, checkpoint or certificate options (only --json)"
        );
    }
    if game != GameKind::Capture {
        for (name, on) in [
            ("--tables", args.tables.is_some()),
            ("--check-tables", args.check_tables.is_some()),
            ("--compress-tables", args.compress_tables.is_some()),
            ("--expand-tables", args.expand_tables.is_some()),
        ] {
            if on {
                bail!(
                    "{name} is not supported under game={}: endgame tables are of the capture \
                     game only",
                    game.name()
                );
            }
        }
    }
    if args.max_stones.is_some() && args.tables.is_none() && args.check_tables.is_none() {
        bail!("--max-stones is an option of --tables and --check-tables only");
    }
    if args.threads.is_some() && args.tables.is_none() && args.check_tables.is_none() {
        bail!("--threads is an option of --tables and --check-tables only");
    }
    Ok(())
}

fn solve_position(args: &SolveArgs, pos: &Position, budget: &Budget) -> Result<ExitCode> {
    let mut stdout = crate::output::stdout();
    let method = match args.method.unwrap_or(Method::Auto) {
        Method::Auto if pos.size().len() <= 15 => Method::Retro,
        Method::Auto => Method::Pn,
        m => m,
    };
    let bar = progress::bar(0, "solve");
    let mut report = reporter(&bar);
    let mut out = json!({
        "board": pos.size().to_string(),
        "position": pos.to_fen(),
        "rules": pos.rules().to_full_string(),
        "side_to_move": side_name(pos.side_to_move()),
    });
    let mut value: Option<Value> = None;
    let mut text = Vec::new();
    let mut best_text: Option<String> = None;
    let mut distance: Option<u16> = None;
    let small = pos.size().len() <= 15;
    if method == Method::Retro || (method == Method::Both && small) {
        let s = retro::solve(pos, budget, &mut report).context("retrograde analysis")?;
        value = Some(s.value);
        distance = Some(s.distance);
        best_text = s.best.map(|t| t.to_string());
        let line: Vec<String> = s
            .best_line(args.line)
            .iter()
            .map(ToString::to_string)
            .collect();
        out["retro"] = json!({
            "value": s.value.as_str(),
            "distance": s.distance,
            "best": s.best.map(|t| t.to_string()),
            "states": s.states,
            "edges": s.edges,
            "wins": s.counts[0],
            "draws": s.counts[1],
            "losses": s.counts[2],
            "bytes": s.bytes,
            "seconds": s.time.as_secs_f64(),
            "line": line,
        });
        text.push(format!(
            "retrograde analysis: {} in {} turns; {} positions ({} wins, {} draws, {} losses for the side to move), {} edges; {} of tables; {:.3} s",
            s.value,
            s.distance,
            s.states,
            s.counts[0],
            s.counts[1],
            s.counts[2],
            s.edges,
            human_bytes(s.bytes),
            s.time.as_secs_f64()
        ));
        if !line.is_empty() {
            text.push(format!("best line: {}", line.join(" ")));
        }
    }
    if method == Method::Layered || (method == Method::Both && !small) {
        let s = layered::solve(pos, budget, &mut report).context("layered retrograde analysis")?;
        value = Some(s.value);
        distance = Some(s.distance);
        best_text = s.best.map(|t| t.to_string());
        out["layered"] = json!({
            "value": s.value.as_str(),
            "distance": s.distance,
            "best": s.best.map(|t| t.to_string()),
            "states": s.states,
            "classes": s.classes,
            "largest_class": s.largest_class,
            "edges": s.edges,
            "wins": s.counts[0],
            "draws": s.counts[1],
            "losses": s.counts[2],
            "bytes": s.bytes,
            "seconds": s.time.as_secs_f64(),
        });
        text.push(format!(
            "layered retrograde analysis: {} in {} turns; {} positions in {} material classes (largest {}; {} wins, {} draws, {} losses for the side to move), {} paika edges; {} of tables; {:.3} s",
            s.value,
            s.distance,
            s.states,
            s.classes,
            s.largest_class,
            s.counts[0],
            s.counts[1],
            s.counts[2],
            s.edges,
            human_bytes(s.bytes),
            s.time.as_secs_f64()
        ));
    }
    if matches!(method, Method::Pn | Method::Both) {
        let s = pns::solve(pos, budget, &mut report).context("proof-number search")?;
        if let Some(v) = value
            && v != s.value
        {
            bar.finish_and_clear();
            bail!(
                "the methods disagree: retrograde analysis says {v}, proof-number search says {}",
                s.value
            );
        }
        value = Some(s.value);
        if best_text.is_none() {
            best_text = s.best.map(|t| t.to_string());
        }
        let search_json = |x: &pns::Search| {
            json!({
                "attacker": side_name(x.attacker),
                "proved": x.proved,
                "proof_size": x.proof_size,
                "expanded": x.expanded,
                "nodes": x.nodes,
                "peak_nodes": x.peak_nodes,
                "solved_positions": x.solved_positions,
                "bytes": x.bytes,
                "seconds": x.time.as_secs_f64(),
            })
        };
        out["pn"] = json!({
            "value": s.value.as_str(),
            "best": s.best.map(|t| t.to_string()),
            "proof_size": s.proof_size,
            "expanded": s.expanded,
            "bytes": s.bytes,
            "seconds": s.time.as_secs_f64(),
            "win_search": search_json(&s.win_search),
            "loss_search": s.loss_search.as_ref().map(search_json),
        });
        text.push(format!(
            "proof-number search: {}; proof tree of {} nodes; {} positions expanded; {} of tables; {:.3} s",
            s.value,
            s.proof_size,
            s.expanded,
            human_bytes(s.bytes),
            s.time.as_secs_f64()
        ));
    }
    bar.finish_and_clear();
    let value = value.expect("a method ran");
    out["value"] = json!(value.as_str());
    out["best"] = json!(best_text);
    out["distance"] = json!(distance);
    // Whether the two methods agree: `null` when only one ran (nothing to compare).
    out["agree"] = if method == Method::Both {
        json!(true)
    } else {
        Json::Null
    };
    if args.json {
        writeln!(stdout, "{out}")?;
        return Ok(ExitCode::SUCCESS);
    }
    let who = side_name(pos.side_to_move());
    let winner = match value {
        Value::Win => format!("{who} (to move) wins"),
        Value::Loss => format!("{} wins", side_name(pos.side_to_move().other())),
        Value::Draw => "draw".to_owned(),
    };
    writeln!(
        stdout,
        "{} {}: {value} for {who} to move: {winner}",
        pos.size(),
        pos.to_fen()
    )?;
    if let Some(b) = &best_text {
        writeln!(stdout, "best first turn: {b}")?;
    }
    for line in text {
        writeln!(stdout, "{line}")?;
    }
    if method == Method::Both {
        writeln!(stdout, "cross-check: both methods agree")?;
    }
    Ok(ExitCode::SUCCESS)
}

fn write_certificate(
    args: &SolveArgs,
    pos: &Position,
    file: &Path,
    defender: Option<Color>,
    budget: &Budget,
) -> Result<ExitCode> {
    let mut stdout = crate::output::stdout();
    // Opened before the work, so that a file that cannot be written is known at once.
    // (Written `<OutputFile>::create` so that output.rs's check for stray `File::create` calls,
    // a plain text search, does not take it for one.)
    let mut out = <crate::output::OutputFile>::create(file)?;
    let bar = progress::bar(0, "certificate");
    let mut report = reporter(&bar);
    let start = Instant::now();
    let cert = match defender {
        None => Certificate::build(pos, budget, &mut report),
        Some(side) => Certificate::build_bound(pos, side, budget, &mut report),
    }
    .context("building the certificate")?;
    let built = start.elapsed();
    bar.set_prefix("write");
    let name = crate::output::shown_path(file);
    let bytes = cert
        .write_to(&mut out)
        .with_context(|| format!("cannot write {name}"))?;
    out.commit()?;
    bar.finish_and_clear();
    let strategies: Vec<Json> = cert
        .strategies()
        .iter()
        .map(|s| {
            json!({
                "side": side_name(s.side),
                "positions": s.entries().len(),
                "ordered": s.ordered,
            })
        })
        .collect();
    if args.json {
        writeln!(
            stdout,
            "{}",
            json!({
                "board": pos.size().to_string(),
                "position": cert.start().to_fen(),
                "value": cert.claim().as_str(),
                "certificate": file.display().to_string(),
                "positions": cert.positions(),
                "strategies": strategies,
                "bytes": bytes,
                "seconds": built.as_secs_f64(),
            })
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        stdout,
        "{} {}: {} for {} to move",
        pos.size(),
        cert.start().to_fen(),
        cert.claim(),
        side_name(pos.side_to_move())
    )?;
    for s in cert.strategies() {
        writeln!(
            stdout,
            "{}'s strategy: {} positions{}",
            side_name(s.side),
            s.entries().len(),
            if s.ordered {
                ", ordered (no cycle)"
            } else {
                ", closed"
            }
        )?;
    }
    writeln!(
        stdout,
        "certificate {name}: {} positions, {} in {:.3} s; check it with: fanorona verify-proof {name}",
        cert.positions(),
        human_bytes(bytes),
        built.as_secs_f64(),
    )?;
    Ok(ExitCode::SUCCESS)
}

fn prove_dfpn(
    args: &SolveArgs,
    pos: &Position,
    attacker: Color,
    budget: &Budget,
) -> Result<ExitCode> {
    let mut stdout = crate::output::stdout();
    let bar = progress::bar(0, "df-pn");
    let mut report = reporter(&bar);
    let mut search = Dfpn::new(pos, attacker).context("df-pn search")?;
    if let Some(dir) = &args.use_tables {
        let tables = fanorona_ai::solve::tablebase::Tablebase::load(dir).with_context(|| {
            format!(
                "reading the endgame tables in {}",
                crate::output::shown_path(dir)
            )
        })?;
        if search.set_tables(std::sync::Arc::new(tables)) == 0 {
            bail!(
                "{} holds no endgame tables of the {} board under these rules",
                crate::output::shown_path(dir),
                pos.size()
            );
        }
    }
    let mut resumed = false;
    if let Some(file) = &args.checkpoint
        && file.exists()
    {
        search.load(file, budget).with_context(|| {
            format!("reading the checkpoint {}", crate::output::shown_path(file))
        })?;
        resumed = true;
    }
    let every = Duration::from_secs_f64(args.checkpoint_every);
    let checkpoint = args.checkpoint.as_deref().map(|f| (f, every));
    let r = match args.log_every {
        None => search
            .run_with_checkpoints(budget, &mut report, checkpoint)
            .context("df-pn search")?,
        Some(log_every) => {
            run_dfpn_logged(&mut search, budget, &mut report, checkpoint, log_every)?
        }
    };
    if let Some(file) = &args.checkpoint {
        search.save(file).with_context(|| {
            format!("writing the checkpoint {}", crate::output::shown_path(file))
        })?;
    }
    bar.finish_and_clear();
    // The search's own count, before the certificate's reading adds its probes.
    let table_hits = search.table_hits();
    let proved = r.proved == Some(true);
    let mut cert_positions = None;
    if let Some(file) = &args.certificate {
        let cert = if proved {
            search.certificate().context("reading the proof")?
        } else {
            search
                .disproof_certificate()
                .context("reading the disproof")?
        };
        let Some(cert) = cert else {
            bail!("df-pn left the position undecided: no certificate");
        };
        let mut out = <crate::output::OutputFile>::create(file)?;
        cert.write_to(&mut out)
            .with_context(|| format!("writing {}", crate::output::shown_path(file)))?;
        out.commit()?;
        cert_positions = Some(cert.positions());
    }
    if args.json {
        writeln!(
            stdout,
            "{}",
            json!({
                "position": pos.to_fen(),
                "attacker": side_name(attacker).to_lowercase(),
                "proved": proved,
                "proof_length": r.proof_len,
                "expanded": r.expanded,
                "expanded_total": search.expanded(),
                "entries": r.entries,
                "bytes": r.bytes,
                "collections": r.collections,
                "seconds": r.time.as_secs_f64(),
                "resumed": resumed,
                "table_hits": table_hits,
                "certificate_positions": cert_positions,
            })
        )?;
    } else {
        writeln!(
            stdout,
            "{} {}: {} {} force a win{}",
            pos.size(),
            pos.to_fen(),
            side_name(attacker),
            if proved { "can" } else { "cannot" },
            r.proof_len
                .map(|l| format!(" (proof of {l} turns at most)"))
                .unwrap_or_default()
        )?;
        writeln!(
            stdout,
            "df-pn: {} positions expanded ({} over all runs{}), {} table entries, {} peak, cut back {} times, {:.3} s",
            r.expanded,
            search.expanded(),
            if resumed {
                ", resumed from the checkpoint"
            } else {
                ""
            },
            r.entries,
            human_bytes(r.bytes),
            r.collections,
            r.time.as_secs_f64()
        )?;
        if args.use_tables.is_some() {
            writeln!(
                stdout,
                "endgame tables: {table_hits} positions settled by them"
            )?;
        }
        if let Some(n) = cert_positions {
            writeln!(stdout, "certificate: {n} positions")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A df-pn search in slices of `log_every` seconds within the whole budget, with a status
/// line on standard error after each slice; the result adds up the slices.
fn run_dfpn_logged(
    search: &mut Dfpn,
    budget: &Budget,
    report: &mut dyn FnMut(fanorona_ai::solve::Progress),
    checkpoint: Option<(&std::path::Path, Duration)>,
    log_every: f64,
) -> Result<fanorona_ai::solve::dfpn::DfpnResult> {
    let t0 = std::time::Instant::now();
    let slice = Duration::from_secs_f64(log_every.max(1.0));
    let first = search.status();
    // Proof and disproof numbers: "inf" for the search's infinity (2^31 - 1).
    let num = |v: u32| -> String {
        if v >= u32::MAX / 2 {
            "inf".to_owned()
        } else {
            v.to_string()
        }
    };
    let log = |search: &Dfpn, t: Duration| {
        let st = search.status();
        errln!(
            "df-pn status: {:.0} s, {} expanded, {} entries ({} proved, {} disproved), root pn {} dn {}, table {}, cut back {} times, endgame-table hits {}, resident {}; first turns (pn/dn): {}",
            t.as_secs_f64(),
            st.expanded,
            st.entries,
            st.proofs,
            st.disproofs,
            num(st.root_pn),
            num(st.root_dn),
            human_bytes(st.bytes),
            st.collections,
            search.table_hits(),
            resident_bytes().map_or_else(|| "unknown".to_owned(), human_bytes),
            st.children
                .iter()
                .map(|(t, pn, dn)| format!("{t} {}/{}", num(*pn), num(*dn)))
                .collect::<Vec<_>>()
                .join(", "),
        );
    };
    log(search, Duration::ZERO);
    loop {
        let left = budget.max_time.map(|m| m.saturating_sub(t0.elapsed()));
        let mut part = *budget;
        part.max_time = Some(left.map_or(slice, |l| l.min(slice)));
        let result = search.run_with_checkpoints(&part, report, checkpoint);
        log(search, t0.elapsed());
        match result {
            Ok(mut r) => {
                let st = search.status();
                r.expanded = st.expanded - first.expanded;
                r.collections = st.collections - first.collections;
                r.bytes = st.peak_bytes;
                r.time = t0.elapsed();
                return Ok(r);
            }
            Err(fanorona_ai::solve::SolveError::TimeLimit { .. })
                if left.is_none_or(|l| l > slice) => {}
            // The whole budget ran out (not only the slice): say so.
            Err(fanorona_ai::solve::SolveError::TimeLimit { .. }) => {
                bail!(
                    "df-pn search: time budget of {:.1} s ran out ({} positions expanded in all; the table is in the checkpoint when one was given)",
                    budget.max_time.unwrap_or_default().as_secs_f64(),
                    search.expanded()
                );
            }
            Err(e) => return Err(e).context("df-pn search"),
        }
    }
}

/// The process's resident memory (Linux: `VmRSS` of `/proc/self/status`).
fn resident_bytes() -> Option<u64> {
    proc_status_bytes("VmRSS:")
}

/// The process's peak resident memory so far (Linux: `VmHWM` of `/proc/self/status`).
fn peak_resident_bytes() -> Option<u64> {
    proc_status_bytes("VmHWM:")
}

fn proc_status_bytes(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn prove(args: &SolveArgs, pos: &Position, attacker: Color, budget: &Budget) -> Result<ExitCode> {
    let mut stdout = crate::output::stdout();
    let bar = progress::bar(0, "prove");
    let mut report = reporter(&bar);
    let s = pns::prove(pos, attacker, budget, &mut report).context("proof-number search")?;
    bar.finish_and_clear();
    if args.json {
        writeln!(
            stdout,
            "{}",
            json!({
                "position": pos.to_fen(),
                "rules": pos.rules().to_full_string(),
                "attacker": side_name(attacker),
                "proved": s.proved,
                "proof_size": s.proof_size,
                "expanded": s.expanded,
                "peak_nodes": s.peak_nodes,
                "solved_positions": s.solved_positions,
                "collapses": s.collapses,
                "bytes": s.bytes,
                "seconds": s.time.as_secs_f64(),
            })
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        stdout,
        "{} {}: {} {} force a win",
        pos.size(),
        pos.to_fen(),
        side_name(attacker),
        if s.proved { "can" } else { "cannot" }
    )?;
    writeln!(
        stdout,
        "proof-number search: {} of {} nodes; {} positions expanded; {} of tables; {:.3} s",
        if s.proved { "proof" } else { "disproof" },
        s.proof_size,
        s.expanded,
        human_bytes(s.bytes),
        s.time.as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
}

fn generate_tables(
    args: &SolveArgs,
    dir: &Path,
    size: BoardSize,
    budget: &Budget,
) -> Result<ExitCode> {
    let mut stdout = crate::output::stdout();
    let rules = args.position.rules.rules()?.with_no_capture_limit(None);
    let bar = progress::bar(0, "tables");
    let mut report = reporter(&bar);
    if !args.json {
        bar.suspend(|| {
            writeln!(
                stdout,
                "class   positions       wins      draws     losses  longest  seconds     arrays  peak resident"
            )
        })?;
    }
    let mut lines: Result<()> = Ok(());
    let mut done = |c: &tablegen::ClassReport| {
        if args.json || lines.is_err() {
            return;
        }
        let s = &c.stats;
        lines = bar.suspend(|| {
            writeln!(
                crate::output::stdout(),
                "{:>2}v{:<2} {:>11} {:>10} {:>10} {:>10} {:>8} {:>8} {:>10} {:>14}",
                s.stm,
                s.opp,
                s.positions,
                s.wins,
                s.draws,
                s.losses,
                s.longest,
                if c.resumed {
                    "on disk".to_owned()
                } else {
                    format!("{:.2}", s.time.as_secs_f64())
                },
                if c.resumed {
                    "-".to_owned()
                } else {
                    human_bytes(c.peak_bytes)
                },
                peak_resident_bytes().map_or_else(|| "-".to_owned(), human_bytes)
            )
            .map_err(Into::into)
        });
    };
    // Files are written into a temporary folder in DIR (removed if the program is
    // interrupted), then renamed into DIR one by one as each class is solved.
    let staging = crate::output::TempDir::new_in(dir)?;
    let options = tablegen::Options::new(size, rules, args.max_stones.unwrap_or(DEFAULT_STONES))
        .staging(staging.path())
        .threads(threads(args));
    let result = tablegen::generate(dir, &options, budget, &mut report, &mut done)
        .with_context(|| format!("generating tables into {}", crate::output::shown_path(dir)))?;
    lines?;
    // Every file is in place already: this removes the empty temporary folder.
    let _ = staging.move_into_place()?;
    bar.finish_and_clear();
    if args.json {
        let classes: Vec<Json> = result
            .classes
            .iter()
            .map(|c| {
                let mut j = class_json(&c.stats);
                j["resumed"] = json!(c.resumed);
                j["bytes"] = json!(c.bytes);
                j["peak_bytes"] = json!(c.peak_bytes);
                j
            })
            .collect();
        writeln!(
            stdout,
            "{}",
            json!({
                "board": size.to_string(),
                "max_stones": args.max_stones.unwrap_or(DEFAULT_STONES),
                "rules": rules.to_full_string(),
                "positions": result.positions,
                "bytes": result.bytes,
                "peak_bytes": result.peak_bytes,
                "peak_resident_bytes": peak_resident_bytes(),
                "threads": result.threads,
                "seconds": result.time.as_secs_f64(),
                "classes": classes,
            })
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        stdout,
        "{} tables of {size} up to {} stones in {}: {} positions, {} in files, {} of generation arrays at the peak, {} thread{}, {:.2} s",
        result.classes.len(),
        args.max_stones.unwrap_or(DEFAULT_STONES),
        crate::output::shown_path(dir),
        result.positions,
        human_bytes(result.bytes),
        human_bytes(result.peak_bytes),
        result.threads,
        if result.threads == 1 { "" } else { "s" },
        result.time.as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
}

fn compress_tables(args: &SolveArgs, dir: &Path) -> Result<ExitCode> {
    let mut stdout = crate::output::stdout();
    let files = fanorona_ai::solve::compact::compress_dir(dir).with_context(|| {
        format!(
            "compressing the tables in {}",
            crate::output::shown_path(dir)
        )
    })?;
    let (wdl, compact) = files
        .iter()
        .fold((0u64, 0u64), |(a, b), f| (a + f.wdl_bytes, b + f.bytes));
    if args.json {
        let list: Vec<Json> = files
            .iter()
            .map(|f| {
                json!({
                    "file": f.path.file_name().map(|n| n.to_string_lossy().into_owned()),
                    "wdl_bytes": f.wdl_bytes,
                    "bytes": f.bytes,
                })
            })
            .collect();
        writeln!(
            stdout,
            "{}",
            json!({"wdl_bytes": wdl, "bytes": compact, "files": list})
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    for f in &files {
        writeln!(
            stdout,
            "{:<20} {:>12} {:>12} {:>6.1}%",
            f.path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
            f.wdl_bytes,
            f.bytes,
            100.0 * f.bytes as f64 / f.wdl_bytes.max(1) as f64
        )?;
    }
    writeln!(
        stdout,
        "{} compact files in {}: {} against {} of two-bit layers ({:.1}%)",
        files.len(),
        crate::output::shown_path(dir),
        human_bytes(compact),
        human_bytes(wdl),
        100.0 * compact as f64 / wdl.max(1) as f64
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `--threads`, or the processors of this machine.
fn threads(args: &SolveArgs) -> usize {
    args.threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
}

fn check_tables(args: &SolveArgs, dir: &Path, size: BoardSize) -> Result<ExitCode> {
    let mut stdout = crate::output::stdout();
    let bar = progress::bar(0, "check");
    let mut report = reporter(&bar);
    let result = tablegen::check_classes(
        dir,
        size,
        args.max_stones.unwrap_or(DEFAULT_STONES),
        &args.classes,
        threads(args),
        &mut report,
    );
    bar.finish_and_clear();
    let r = match result {
        Ok(r) => r,
        // A file that cannot be read (a class missing, a directory that cannot be listed) is
        // no verdict on the tables: an I/O error, exit code 2.
        Err(e @ TableError::Io { .. }) => {
            return Err(anyhow::Error::new(e).context("checking the tables"));
        }
        Err(e) => {
            if args.json {
                writeln!(
                    stdout,
                    "{}",
                    json!({"valid": false, "error": e.to_string()})
                )?;
            } else {
                writeln!(stdout, "invalid: {e}")?;
            }
            return Ok(ExitCode::FAILURE);
        }
    };
    if args.json {
        writeln!(
            stdout,
            "{}",
            json!({
                "valid": true,
                "board": size.to_string(),
                "max_stones": args.max_stones.unwrap_or(DEFAULT_STONES),
                "classes": r.classes,
                "positions": r.positions,
                "turns": r.turns,
                "seconds": r.time.as_secs_f64(),
            })
        )?;
    } else {
        writeln!(
            stdout,
            "valid: {} classes of {size} up to {} stones, {} positions, {} turns looked up, {:.2} s",
            r.classes,
            args.max_stones.unwrap_or(DEFAULT_STONES),
            r.positions,
            r.turns,
            r.time.as_secs_f64()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

fn class_json(s: &ClassStats) -> Json {
    json!({
        "class": format!("{}v{}", s.stm, s.opp),
        "positions": s.positions,
        "wins": s.wins,
        "draws": s.draws,
        "losses": s.losses,
        "longest": s.longest,
        "seconds": s.time.as_secs_f64(),
    })
}

fn probe(args: &SolveArgs, dir: &PathBuf, pos: &Position) -> Result<ExitCode> {
    let mut stdout = crate::output::stdout();
    let tables = Tablebase::load(dir)?;
    let Some(p) = tables.probe(pos) else {
        bail!(
            "the tables in {} do not cover {} (board, material or rules; they cover up to {} stones on {})",
            dir.display(),
            pos.to_fen(),
            tables.max_stones(pos.size()),
            pos.size()
        );
    };
    let best = tables.best_turn(pos).map(|(t, _)| t.to_string());
    if args.json {
        writeln!(
            stdout,
            "{}",
            json!({
                "position": pos.to_fen(),
                "value": p.wdl.as_str(),
                "distance": p.distance,
                "best": best,
            })
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        stdout,
        "{}",
        probe_line(
            &pos.to_fen(),
            p.wdl,
            side_name(pos.side_to_move()),
            p.distance
        )
    )?;
    if let Some(b) = best {
        writeln!(stdout, "best turn: {b}")?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The line `--probe` prints: the value and, for a win or a loss, its distance (a draw has
/// none: it lasts as long as the game does).
fn probe_line(fen: &str, value: Value, side: &str, distance: u16) -> String {
    match (value, distance) {
        (Value::Draw, _) => format!("{fen}: {value} for {side} to move"),
        (_, 1) => format!("{fen}: {value} for {side} to move in 1 turn"),
        _ => format!("{fen}: {value} for {side} to move in {distance} turns"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probe_lines_give_distances_of_decided_values_only() {
        assert_eq!(
            probe_line("1B1/3/W1W w", Value::Win, "White", 7),
            "1B1/3/W1W w: win for White to move in 7 turns"
        );
        assert_eq!(
            probe_line("B2/3/2W w", Value::Win, "White", 1),
            "B2/3/2W w: win for White to move in 1 turn"
        );
        assert_eq!(
            probe_line("x w", Value::Draw, "White", 0),
            "x w: draw for White to move"
        );
    }

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_bytes("512M").unwrap(), 512 << 20);
        assert_eq!(parse_bytes("8G").unwrap(), 8 << 30);
        assert_eq!(parse_bytes("1.5GiB").unwrap(), 3 << 29);
        assert_eq!(parse_bytes("1000").unwrap(), 1000);
        assert!(parse_bytes("lots").is_err());
        assert!(parse_bytes("5Q").is_err());
        assert!(parse_bytes("-1G").is_err());
    }
}

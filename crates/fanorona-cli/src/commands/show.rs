//! `fanorona show`: draw a position as text for the terminal or as an SVG diagram.

use std::fmt::Write as _;
use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, ValueEnum};
use fanorona_core::{Color, Game, Point, Position, Rules, Turn};

use super::records::{Format, GameSource, display_name, open_input};
use crate::options::{limits, ranged};

/// How to draw.
#[derive(Clone, Copy, PartialEq, Eq, Debug, ValueEnum)]
pub enum DrawFormat {
    /// A text diagram for the terminal.
    Text,
    /// An SVG image.
    Svg,
}

/// Draw a position: from a position string, a board's start, or a game of a record file at a
/// given turn.
///
/// The text diagram shows the lines of the board (with the diagonals through the strong points),
/// W and B stones, coordinates, and the last turn: its path (*), the stone that moved (w or b)
/// and the points it captured (x). The SVG diagram (--format svg, or --svg FILE) shows the same
/// for articles and documentation; its interface is stable, for scripts such as `cargo xtask docs`.
///
/// --turn picks the moment of a game: N is after the game's N-th turn counting both sides
/// (0 is the start), Nw or N. after White's turn N, Nb or N... after Black's turn N; the default
/// is the end of the game.
///
/// Examples:
///   fanorona show                                        # the standard start
///   fanorona show --board 5x5
///   fanorona show --fen "BBB/B1W/WWW w"
///   fanorona show --play "f2-e3A d5-d4A"                 # turns from the start, last one marked
///   fanorona show games.fgn --game 3 --turn 12b
///   fanorona show games.fgn --game 3 --turn 7 --svg game3-7.svg
///   fanorona show --fen "BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w" --format svg > dimy.svg
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct ShowArgs {
    /// A record file (FGN, JSON or Boardspace, by extension or --from); `-` reads standard input.
    #[arg(value_name = "FILE", conflicts_with_all = ["fen", "board"])]
    pub file: Option<String>,
    /// The game of FILE to show, from 1.
    #[arg(long, value_name = "N", default_value_t = 1, requires = "file",
          value_parser = ranged::<usize>(1..=limits::GAME_NUMBER))]
    pub game: usize,
    /// The moment of the game: N, Nw, Nb (see above).
    #[arg(long, value_name = "SPEC", requires = "file")]
    pub turn: Option<String>,
    /// Input format of FILE.
    #[arg(long, value_name = "FMT", requires = "file")]
    pub from: Option<Format>,
    /// Show this position string.
    #[arg(long, value_name = "POSITION", conflicts_with = "board")]
    pub fen: Option<String>,
    /// Show the start of this board size, rows x columns.
    #[arg(long, value_name = "RxC")]
    pub board: Option<String>,
    /// Rule options of the position as one list, such as `stuck=draws`, and the game:
    /// `game=capture` (the default), `game=vela` (with `vela=bell` for Bell's account) or
    /// `game=telo` (see docs/rules.md). The game
    /// sets the start of `--board` and the turns of `--play`; the other options matter only
    /// for the game-over line.
    #[arg(long, value_name = "LIST", conflicts_with = "file")]
    pub rules: Option<String>,
    /// Turns to play from the position (separated by spaces or commas); the last is marked.
    #[arg(long, value_name = "TURNS", conflicts_with = "file")]
    pub play: Option<String>,
    /// Output format on standard output.
    #[arg(long, value_enum, default_value_t = DrawFormat::Text, conflicts_with = "svg")]
    pub format: DrawFormat,
    /// Write an SVG diagram to this file (instead of printing); its folder must exist (it is
    /// not created).
    #[arg(long, value_name = "PATH")]
    pub svg: Option<String>,
    /// Leave out the coordinates.
    #[arg(long)]
    pub no_coordinates: bool,
}

/// What to draw: a position and, when known, the turn that led to it.
pub struct Diagram {
    /// The position shown.
    pub position: Position,
    /// The last turn and the position it was played in.
    pub last: Option<(Turn, Position)>,
    /// Whether to write coordinates.
    pub coordinates: bool,
    /// Whether the game is over, and how.
    pub status: String,
}

impl Diagram {
    fn mark(&self, p: Point) -> Option<char> {
        let (turn, _) = self.last.as_ref()?;
        if turn.captured().contains(p) {
            return Some('x');
        }
        if p != turn.to() && turn.path().any(|q| q == p) {
            return Some('*');
        }
        None
    }

    /// The text diagram.
    pub fn text(&self) -> String {
        let pos = &self.position;
        let size = pos.size();
        let (rows, cols) = (size.rows(), size.cols());
        let mut out = String::new();
        for y in (0..rows).rev() {
            if self.coordinates {
                let _ = write!(out, "{}  ", y + 1);
            }
            for x in 0..cols {
                let p = size.point(x, y).expect("on the board");
                let moved = self.last.as_ref().is_some_and(|(t, _)| t.to() == p);
                let c = match (pos.stone_at(p), self.mark(p)) {
                    (Some(Color::White), _) => {
                        if moved {
                            'w'
                        } else {
                            'W'
                        }
                    }
                    (Some(Color::Black), _) => {
                        if moved {
                            'b'
                        } else {
                            'B'
                        }
                    }
                    (None, Some(m)) => m,
                    (None, None) => '.',
                };
                out.push(c);
                if x + 1 < cols {
                    out.push_str("---");
                }
            }
            out.push('\n');
            if y > 0 {
                if self.coordinates {
                    out.push_str("   ");
                }
                for x in 0..cols {
                    out.push('|');
                    if x + 1 < cols {
                        // The cell between ranks y-1 and y has one diagonal, through its strong
                        // corner: '/' when its lower-left corner is strong.
                        let d = if (u32::from(x) + u32::from(y) - 1) % 2 == 0 {
                            '/'
                        } else {
                            '\\'
                        };
                        let _ = write!(out, " {d} ");
                    }
                }
                out.push('\n');
            }
        }
        if self.coordinates {
            out.push_str("   ");
            for x in 0..cols {
                out.push((b'a' + x) as char);
                if x + 1 < cols {
                    out.push_str("   ");
                }
            }
            out.push('\n');
        }
        out.push('\n');
        let _ = writeln!(out, "{}", pos.to_fen());
        out.push_str(&self.status);
        out.push('\n');
        if let Some((turn, _)) = &self.last {
            let captured: Vec<String> = turn
                .captured()
                .points(turn.size())
                .map(|p| p.to_string())
                .collect();
            let _ = write!(out, "last turn {turn}");
            if turn.is_placement() {
                out.push_str(" (placement)");
            } else if captured.is_empty() {
                out.push_str(" (paika)");
            } else {
                let _ = write!(out, ", captured {}", captured.join(" "));
            }
            out.push_str("  [* path, w/b the stone that moved, x captured]\n");
        }
        out
    }

    /// The SVG diagram.
    pub fn svg(&self) -> String {
        const SP: f64 = 60.0;
        const R: f64 = 21.0;
        let pos = &self.position;
        let size = pos.size();
        let geo = size.geometry();
        let (rows, cols) = (f64::from(size.rows()), f64::from(size.cols()));
        let margin = if self.coordinates { 56.0 } else { 36.0 };
        let (w, h) = (
            2.0 * margin + (cols - 1.0) * SP,
            2.0 * margin + (rows - 1.0) * SP,
        );
        let xy = |p: Point| {
            let x = f64::from(p.file());
            let y = f64::from(p.rank());
            (margin + x * SP, margin + (rows - 1.0 - y) * SP)
        };
        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"#
        );
        let _ = writeln!(s, "<title>Fanorona position {}</title>", xml(&pos.to_fen()));
        s.push_str(r##"<defs><marker id="arrow" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#c0392b"/></marker></defs>"##);
        s.push('\n');
        let _ = writeln!(s, r##"<rect width="{w}" height="{h}" fill="#f2dfb4"/>"##);
        s.push_str(r##"<g stroke="#6b4a2b" stroke-width="2" stroke-linecap="round">"##);
        s.push('\n');
        for (a, b) in geo.lines() {
            let ((x1, y1), (x2, y2)) = (xy(a), xy(b));
            let _ = writeln!(s, r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/>"#);
        }
        s.push_str("</g>\n");
        if self.coordinates {
            s.push_str(r##"<g font-size="18" fill="#3b2a1a" text-anchor="middle">"##);
            s.push('\n');
            for x in 0..size.cols() {
                let (px, _) = xy(size.point(x, 0).expect("on the board"));
                let _ = writeln!(
                    s,
                    r#"<text x="{px}" y="{}">{}</text>"#,
                    h - margin / 2.0 + 12.0,
                    (b'a' + x) as char
                );
            }
            for y in 0..size.rows() {
                let (_, py) = xy(size.point(0, y).expect("on the board"));
                let _ = writeln!(
                    s,
                    r#"<text x="{}" y="{}">{}</text>"#,
                    margin / 2.0 - 4.0,
                    py + 6.0,
                    y + 1
                );
            }
            s.push_str("</g>\n");
        }
        if let Some((turn, before)) = &self.last {
            // Captured stones: ghosts with a cross.
            let ghost = match before.side_to_move().other() {
                Color::White => "#fdfdfd",
                Color::Black => "#222222",
            };
            for p in turn.captured().points(turn.size()) {
                let (x, y) = xy(p);
                let _ = writeln!(
                    s,
                    r##"<circle cx="{x}" cy="{y}" r="{R}" fill="{ghost}" fill-opacity="0.35" stroke="#c0392b" stroke-width="2" stroke-dasharray="4 3"/>"##
                );
                let d = R * 0.6;
                let _ = writeln!(
                    s,
                    r##"<path d="M{} {} L{} {} M{} {} L{} {}" stroke="#c0392b" stroke-width="3"/>"##,
                    x - d,
                    y - d,
                    x + d,
                    y + d,
                    x - d,
                    y + d,
                    x + d,
                    y - d
                );
            }
            // The path.
            let points: Vec<String> = turn
                .path()
                .map(|p| {
                    let (x, y) = xy(p);
                    format!("{x},{y}")
                })
                .collect();
            let _ = writeln!(
                s,
                r##"<polyline points="{}" fill="none" stroke="#c0392b" stroke-width="5" stroke-opacity="0.85" stroke-linejoin="round" marker-end="url(#arrow)"/>"##,
                points.join(" ")
            );
            let (x, y) = xy(turn.from());
            let _ = writeln!(s, r##"<circle cx="{x}" cy="{y}" r="7" fill="#c0392b"/>"##);
        }
        for p in size.points() {
            let Some(c) = pos.stone_at(p) else { continue };
            let (x, y) = xy(p);
            let (fill, stroke) = match c {
                Color::White => ("#fdfdfd", "#333333"),
                Color::Black => ("#222222", "#000000"),
            };
            let _ = writeln!(
                s,
                r#"<circle cx="{x}" cy="{y}" r="{R}" fill="{fill}" stroke="{stroke}" stroke-width="2"/>"#
            );
        }
        if let Some((turn, _)) = &self.last {
            let (x, y) = xy(turn.to());
            let _ = writeln!(
                s,
                r##"<circle cx="{x}" cy="{y}" r="{}" fill="none" stroke="#c0392b" stroke-width="3"/>"##,
                R + 4.0
            );
        }
        s.push_str("</svg>\n");
        s
    }
}

/// Escapes text for XML.
fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The number of turns played at the moment `spec` names.
fn ply_of(game: &Game, spec: &str) -> Result<usize> {
    let spec = spec.trim();
    let len = game.turns().len();
    let (num, side) = if let Some(n) = spec.strip_suffix("...").or_else(|| spec.strip_suffix('b')) {
        (n, Some(Color::Black))
    } else if let Some(n) = spec.strip_suffix('.').or_else(|| spec.strip_suffix('w')) {
        (n, Some(Color::White))
    } else {
        (spec, None)
    };
    let n: usize = num.parse().map_err(|_| {
        anyhow!(
            "--turn {spec}: expected N, Nw or Nb (such as 12, 7w, 7b)",
            spec = fanorona_core::escape::quoted(&spec)
        )
    })?;
    match side {
        None if n <= len => Ok(n),
        None => bail!("--turn {n}: the game has only {len} turn(s)"),
        Some(color) => {
            let found = game.positions()[..len]
                .iter()
                .position(|p| usize::from(p.turn_number()) == n && p.side_to_move() == color);
            found
                .map(|i| i + 1)
                .ok_or_else(|| anyhow!("--turn {spec}: the game has no {} turn {n}", color.name()))
        }
    }
}

fn status_line(pos: &Position, outcome: Option<fanorona_core::Outcome>) -> String {
    match outcome {
        Some(o) => format!("game over: {o}"),
        None => {
            let side = match pos.side_to_move() {
                Color::White => "White",
                Color::Black => "Black",
            };
            format!("{side} to move, turn {}", pos.turn_number())
        }
    }
}

/// The game of a record file at a moment.
fn from_file(args: &ShowArgs, path: &str) -> Result<Diagram> {
    let format = args
        .from
        .or_else(|| Format::from_path(path))
        .unwrap_or(Format::Fgn);
    let name = display_name(path);
    let (input, _) = open_input(path)?;
    let mut source = GameSource::new(format, input)?;
    let mut index = 0;
    let record = loop {
        index += 1;
        match source.next() {
            None => bail!("{name} has {} game(s), not {}", index - 1, args.game),
            Some(Err(e)) if e.fatal || index == args.game => {
                bail!(
                    "{name}:{}:{}: game {}: {}",
                    e.at.line,
                    e.at.column,
                    e.game,
                    e.message
                )
            }
            Some(r) if index == args.game => break r.expect("errors handled above"),
            Some(_) => {}
        }
    };
    let (game, report) = record.replay();
    let game = game.ok_or_else(|| match report.problems.first() {
        Some(p) => anyhow!(
            "{name}:{}:{}: game {}: {p}",
            p.at.line,
            p.at.column,
            args.game
        ),
        None => anyhow!("{name}: game {} cannot be replayed", args.game),
    })?;
    let ply = match &args.turn {
        Some(spec) => ply_of(&game, spec)?,
        None => game.turns().len(),
    };
    if ply == game.turns().len()
        && let Some(p) = report.problems.iter().find(|p| {
            matches!(
                p.kind,
                fanorona_core::record::ProblemKind::Illegal
                    | fanorona_core::record::ProblemKind::Ambiguous
                    | fanorona_core::record::ProblemKind::Syntax
            )
        })
    {
        errln!(
            "warning: {name}:{}:{}: game {}: {p}; showing the last legal position",
            p.at.line,
            p.at.column,
            args.game
        );
    }
    let position = *game.position_at(ply).expect("ply within the game");
    let last = (ply > 0).then(|| {
        (
            game.turns()[ply - 1],
            *game.position_at(ply - 1).expect("ply"),
        )
    });
    let outcome = if ply == game.turns().len() {
        game.outcome()
    } else {
        None
    };
    Ok(Diagram {
        status: status_line(&position, outcome.or_else(|| position.outcome())),
        position,
        last,
        coordinates: !args.no_coordinates,
    })
}

/// A position string or board start, with turns played from it.
fn from_position(args: &ShowArgs) -> Result<Diagram> {
    let rules: Rules = match &args.rules {
        Some(r) => r.parse().context("in --rules")?,
        None => Rules::STANDARD,
    };
    let start = match &args.fen {
        Some(fen) => Position::from_fen_with(fen, rules)
            .with_context(|| format!("in --fen {}", fanorona_core::escape::quoted(fen)))?,
        None => crate::options::start_position(args.board.as_deref(), rules)?,
    };
    let mut game = Game::new(start);
    if let Some(turns) = &args.play {
        for text in turns.split([' ', ',']).filter(|t| !t.is_empty()) {
            game.play_text(text)
                .with_context(|| format!("in --play, turn {} ({text})", game.turns().len() + 1))?;
        }
    }
    let n = game.turns().len();
    let last = (n > 0).then(|| (game.turns()[n - 1], *game.position_at(n - 1).expect("ply")));
    Ok(Diagram {
        position: *game.position(),
        status: status_line(game.position(), game.outcome()),
        last,
        coordinates: !args.no_coordinates,
    })
}

/// Runs `fanorona show`.
pub fn run(args: &ShowArgs) -> Result<ExitCode> {
    let mut out = crate::output::stdout();
    if let (Some(file), Some(svg)) = (&args.file, &args.svg) {
        crate::output::refuse_same_file(&[file], svg)?;
    }
    let diagram = match &args.file {
        Some(path) => from_file(args, path)?,
        None => from_position(args)?,
    };
    if let Some(path) = &args.svg {
        crate::output::write_file(path, diagram.svg().as_bytes())?;
        errln!("wrote {}", crate::output::shown(path));
        return Ok(ExitCode::SUCCESS);
    }
    match args.format {
        DrawFormat::Text => write!(out, "{}", diagram.text())?,
        DrawFormat::Svg => write!(out, "{}", diagram.svg())?,
    }
    Ok(ExitCode::SUCCESS)
}

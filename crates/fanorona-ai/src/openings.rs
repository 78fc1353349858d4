//! Opening suites: files of starting positions for matches, the suite built into the engine
//! for the 5x9 board, and their reproducible generation.
//!
//! # Format
//!
//! A suite is UTF-8 text, one position string (as `fanorona_core::Position::from_fen` reads
//! it) per line. `#` starts a comment that runs to the end of the line; empty lines are
//! ignored. A position may appear once (by its stones and side to move), and none may be a
//! finished game. The generated suites note after each position the turns that reach it from
//! the setup and the engine's score there.
//!
//! # Examples
//!
//! ```
//! use fanorona_ai::openings::{builtin, parse};
//! use fanorona_core::{BoardSize, Rules};
//!
//! let suite = builtin(BoardSize::STANDARD, Rules::STANDARD).expect("a 5x9 suite is built in");
//! assert!(suite.len() >= 200);
//!
//! let start = fanorona_core::Position::standard();
//! let after = start.play(&start.parse_turn("f2-e3A")?)?;
//! let text = format!("# two openings\n{start}\n{after} # after f2-e3A\n");
//! assert_eq!(parse(&text, Rules::STANDARD)?, vec![start, after]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::AtomicBool;

use fanorona_core::{BoardSize, Game, Position, PositionError, Rules, Turn};

use crate::baseline::Baseline;
use crate::{Limits, Rng};

/// The suite built in for the 5x9 board under the standard rules (`openings/5x9.txt` in this
/// crate, made by `fanorona openings`).
pub const SUITE_5X9: &str = include_str!("../openings/5x9.txt");

/// The longest line of a suite, in bytes.
pub const MAX_LINE: usize = 1024;

/// A line of a suite that cannot be used.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct OpeningsError {
    /// The line, from 1 (for a suite without a position, its last line: where it ends).
    pub line: usize,
    /// The column, in characters from 1 (a leading byte-order mark not counted): where the
    /// position string starts, or the character a position string cannot read.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

/// The column (from 1) of what a position-string error points at, in a position string that
/// starts at `start` (from 1) of its line: the bad character of a rank, else the start.
fn fen_column(fen: &str, start: usize, error: &fanorona_core::FenError) -> usize {
    if let fanorona_core::FenError::BadChar { rank, column, .. } = *error {
        let board = fen.split_ascii_whitespace().next().unwrap_or_default();
        let ranks: Vec<&str> = board.split('/').collect();
        if let Some(i) = ranks.len().checked_sub(usize::from(rank)) {
            let before: usize = ranks[..i].iter().map(|r| r.chars().count() + 1).sum();
            return start + before + column - 1;
        }
    }
    start
}

impl std::error::Error for OpeningsError {}

/// Reads a suite (see the [format](self#format)) under `rules`.
///
/// # Errors
///
/// [`OpeningsError`] at the first line that is too long, not a position, a finished game or
/// a position seen before, with the column; a suite without positions is an error at its
/// last line (line 1 when it is empty). A leading UTF-8 byte-order mark is skipped, as the
/// record readers skip it.
///
/// ```
/// use fanorona_ai::openings::parse;
/// use fanorona_core::Rules;
///
/// let e = parse("# a suite\n\n  BBB/BxW/WWW w\n", Rules::STANDARD).unwrap_err();
/// assert_eq!((e.line, e.column), (3, 8));
/// let e = parse("# nothing here\n# yet\n", Rules::STANDARD).unwrap_err();
/// assert_eq!(e.to_string(), "line 2, column 1: no position in the suite (only comments and empty lines)");
/// assert_eq!(parse("\u{feff}BBB/B1W/WWW w\n", Rules::STANDARD).unwrap().len(), 1);
/// ```
pub fn parse(text: &str, rules: Rules) -> Result<Vec<Position>, OpeningsError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    let mut last_line = 1;
    // Position hash -> line: a hash map, so that a suite of a million lines is read in
    // linear time (a list searched line by line took hours).
    let mut seen: HashMap<u64, usize> = HashMap::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        last_line = line;
        if raw.len() > MAX_LINE {
            return Err(OpeningsError {
                line,
                column: 1,
                message: format!("longer than {MAX_LINE} bytes"),
            });
        }
        let uncommented = raw.split('#').next().unwrap_or_default();
        let fen = uncommented.trim();
        // Where the position string starts, in characters from 1.
        let start = uncommented
            .chars()
            .take_while(|c| c.is_whitespace())
            .count()
            + 1;
        let error = |message: String| OpeningsError {
            line,
            column: start,
            message,
        };
        if fen.is_empty() {
            continue;
        }
        let pos = Position::from_fen_with(fen, rules).map_err(|e| OpeningsError {
            line,
            column: fen_column(fen, start, &e),
            message: e.to_string(),
        })?;
        if pos.outcome().is_some() {
            return Err(error("the game is already over there".to_owned()));
        }
        if let Some(first) = seen.get(&pos.zobrist()) {
            return Err(error(format!("the same position as line {first}")));
        }
        seen.insert(pos.zobrist(), line);
        out.push(pos);
    }
    if out.is_empty() {
        return Err(OpeningsError {
            line: last_line,
            column: 1,
            message: if text.is_empty() {
                "no position: the suite is empty".to_owned()
            } else {
                "no position in the suite (only comments and empty lines)".to_owned()
            },
        });
    }
    Ok(out)
}

/// The built-in suite for a board and rules, if there is one (5x9 under the standard rules:
/// its positions were reached and scored under them).
pub fn builtin(size: BoardSize, rules: Rules) -> Option<Vec<Position>> {
    (size == BoardSize::STANDARD && rules == Rules::STANDARD)
        .then(|| parse(SUITE_5X9, rules).ok())
        .flatten()
}

/// How to generate a suite.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct GenerateConfig {
    /// The board.
    pub size: BoardSize,
    /// The rules.
    pub rules: Rules,
    /// Random turns played from the setup.
    pub plies: usize,
    /// Positions wanted.
    pub count: usize,
    /// The largest absolute score kept, in centi-stones (side to move's view).
    pub max_eval: i32,
    /// Nodes of each scoring search (a fixed count: the same suite on any machine).
    pub nodes: u64,
    /// Seed of the random turns.
    pub seed: u64,
    /// Random sequences tried before giving up.
    pub max_tries: usize,
}

impl GenerateConfig {
    /// A suite of `count` positions reached by `plies` random turns from the setup of `size`
    /// under `rules`, with the defaults of `fanorona openings`: scores within 50 centi-stones
    /// by 20,000-node searches, seed 1, at most 100 tries a position.
    ///
    /// ```
    /// use fanorona_ai::openings::{GenerateConfig, generate};
    /// use fanorona_core::{BoardSize, Rules};
    ///
    /// let size = BoardSize::new(3, 3)?;
    /// let mut config = GenerateConfig::new(size, Rules::STANDARD, 1, 2);
    /// config.nodes = 200;
    /// let suite = generate(&config, |_, _| {})?;
    /// assert!(suite.openings.len() <= 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(size: BoardSize, rules: Rules, plies: usize, count: usize) -> GenerateConfig {
        GenerateConfig {
            size,
            rules,
            plies,
            count,
            max_eval: 50,
            nodes: 20_000,
            seed: 1,
            max_tries: count.saturating_mul(100),
        }
    }
}

/// A generated opening.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct Opening {
    /// The position.
    pub position: Position,
    /// The turns from the setup.
    pub turns: Vec<Turn>,
    /// The engine's score, side to move's view, in centi-stones.
    pub score: i32,
}

impl fmt::Display for Opening {
    /// The suite line: the position string, then `#` the turns and the score.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} #", self.position.to_fen())?;
        for t in &self.turns {
            write!(f, " {t}")?;
        }
        write!(f, "; cp {}", self.score)
    }
}

/// What [`generate`] found.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Generated {
    /// The openings kept, in the order found (at most `count`).
    pub openings: Vec<Opening>,
    /// Random sequences tried.
    pub tries: usize,
    /// Distinct positions scored.
    pub scored: usize,
}

/// Plays random turn sequences of `plies` turns from the setup, skips those that end the
/// game or reach a position seen before, scores each new position by a search of `nodes`
/// nodes of the frozen v0.1.0 engine ([`crate::baseline`]: its search and hand evaluation,
/// with a cleared table, so the result depends on nothing else, not even on how the engine
/// of the day searches or which network it embeds) and keeps those scoring at most
/// `max_eval` either way, until `count` are kept or `max_tries` sequences are tried.
/// Deterministic: the same configuration gives the same suite on any machine and in any
/// version (as long as the core's turn order, which the random sequences follow, stays).
/// `progress` is called after each scored position with the counts so far.
///
/// # Errors
///
/// [`PositionError::WrongBoard`] when the rules' game has no start on the board
/// (Fanoron-Telo on a board other than 3x3).
pub fn generate(
    config: &GenerateConfig,
    mut progress: impl FnMut(usize, usize),
) -> Result<Generated, PositionError> {
    let mut rng = Rng::new(config.seed);
    // The frozen v0.1.0 engine (its search and hand evaluation), whatever the engine of the
    // day: a suite is defined by its command alone, on every machine and in every version,
    // and the built-in one was made so.
    let mut searcher = Baseline::new(16);
    let limits = Limits::nodes(config.nodes.max(1));
    let stop = AtomicBool::new(false);
    let start = Position::start_with(config.size, config.rules)?;
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let (mut tries, mut scored) = (0, 0);
    while out.len() < config.count && tries < config.max_tries {
        tries += 1;
        let mut game = Game::new(start);
        for _ in 0..config.plies {
            let turns = game.position().legal_turns();
            if turns.is_empty() {
                break;
            }
            let t = turns[rng.below(turns.len() as u64) as usize];
            if game.play(&t).is_err() || game.outcome().is_some() {
                break;
            }
        }
        if game.turns().len() < config.plies || game.outcome().is_some() {
            continue;
        }
        let position = *game.position();
        if !seen.insert(position.zobrist()) {
            continue;
        }
        searcher.clear();
        let Ok(result) = searcher.search(&game, &limits, &stop) else {
            continue;
        };
        scored += 1;
        // Wins score near 30 000, far outside any --max-eval.
        let cp = result.value;
        if cp.abs() <= config.max_eval {
            out.push(Opening {
                position,
                turns: game.turns().to_vec(),
                score: cp,
            });
        }
        progress(out.len(), scored);
    }
    Ok(Generated {
        openings: out,
        tries,
        scored,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_suite_reads_and_is_distinct_and_near_equal() {
        let suite = builtin(BoardSize::STANDARD, Rules::STANDARD).unwrap();
        assert!(suite.len() >= 200, "{}", suite.len());
        let distinct: HashSet<u64> = suite.iter().map(Position::zobrist).collect();
        assert_eq!(distinct.len(), suite.len());
        for line in SUITE_5X9.lines().filter(|l| !l.starts_with('#')) {
            // The turns noted replay from the setup to the position.
            let (fen, rest) = line.split_once(" # ").unwrap();
            let (turns, score) = rest.split_once("; cp ").unwrap();
            let mut game = Game::default();
            for t in turns.split_whitespace() {
                game.play_text(t).unwrap();
            }
            assert_eq!(game.position().to_fen(), fen);
            assert!(score.parse::<i32>().unwrap().abs() <= 50);
        }
        assert!(builtin(BoardSize::DIMY, Rules::STANDARD).is_none());
        let other: Rules = "stuck=draws".parse().unwrap();
        assert!(builtin(BoardSize::STANDARD, other).is_none());
    }

    #[test]
    fn bad_suites_are_located_errors() {
        let start = Position::standard().to_fen();
        for (text, line, says) in [
            ("", 1, "no position"),
            ("# nothing\n\n", 2, "no position"),
            ("xyz\n", 1, ""),
            (
                &format!("{start}\n# again\n{start}\n")[..],
                3,
                "same position as line 1",
            ),
            ("9/9/9/9/W8 b\n", 1, "over"),
        ] {
            let e = parse(text, Rules::STANDARD).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.message.contains(says), "{text:?}: {e}");
        }
        // Columns: where the position starts, or the bad character of a rank.
        for (text, line, column) in [
            ("\n  9/9/9/9/W8 b\n", 2, 3),
            ("BBB/BxW/WWW w\n", 1, 6),
            ("# c\n\tBBB/B1W/WWx w # x\n", 2, 12),
            ("BBB/B1W/WWW q\n", 1, 1),
        ] {
            let e = parse(text, Rules::STANDARD).unwrap_err();
            assert_eq!((e.line, e.column), (line, column), "{text:?}: {e}");
        }
        // A leading byte-order mark is skipped, and not counted in columns.
        assert_eq!(
            parse(&format!("\u{feff}{start}\n"), Rules::STANDARD).unwrap(),
            vec![Position::standard()]
        );
        let e = parse("\u{feff}BxB/B1W/WWW w\n", Rules::STANDARD).unwrap_err();
        assert_eq!((e.line, e.column), (1, 2), "{e}");
        let long = "#".repeat(MAX_LINE + 1);
        assert_eq!(parse(&long, Rules::STANDARD).unwrap_err().line, 1);
    }

    #[test]
    fn a_game_without_a_start_on_the_board_is_an_error() {
        let config = GenerateConfig::new(BoardSize::STANDARD, Rules::TELO, 2, 5);
        assert_eq!(
            generate(&config, |_, _| {}).unwrap_err(),
            PositionError::WrongBoard(fanorona_core::GameKind::Telo)
        );
    }

    /// The built-in file, made at commit 5d80e54 by the engine of the day (whose search was
    /// v0.1.0's), is the independent record: its first lines must come out of the generator
    /// (the rest of the run is sequential in the same way; `cargo xtask docs --check-slow`
    /// runs the whole command and compares the header's counts of the full run).
    #[test]
    fn the_builtin_suite_is_what_its_command_makes() {
        let mut config = GenerateConfig::new(BoardSize::STANDARD, Rules::STANDARD, 4, 8);
        config.max_eval = 50;
        config.nodes = 50_000;
        config.seed = 1;
        let made = generate(&config, |_, _| {}).unwrap();
        let lines: Vec<String> = made.openings.iter().map(Opening::to_string).collect();
        let committed: Vec<&str> = SUITE_5X9
            .lines()
            .filter(|l| !l.starts_with('#'))
            .take(8)
            .collect();
        assert_eq!(lines, committed);
    }

    #[test]
    fn generation_is_reproducible_and_keeps_what_it_says() {
        let config = GenerateConfig {
            size: BoardSize::DIMY,
            rules: Rules::STANDARD,
            plies: 2,
            count: 5,
            max_eval: 100,
            nodes: 2000,
            seed: 7,
            max_tries: 500,
        };
        let a = generate(&config, |_, _| {}).unwrap();
        let b = generate(&config, |_, _| {}).unwrap();
        assert_eq!(a.openings, b.openings);
        assert!(!a.openings.is_empty());
        let mut seen = HashSet::new();
        for o in &a.openings {
            assert!(seen.insert(o.position.zobrist()));
            assert_eq!(o.turns.len(), 2);
            assert!(o.score.abs() <= 100);
            let mut game = Game::new(Position::start(BoardSize::DIMY));
            for t in &o.turns {
                game.play(t).unwrap();
            }
            assert_eq!(*game.position(), o.position);
            // A suite line reads back as the position.
            let text = o.to_string();
            assert_eq!(parse(&text, Rules::STANDARD).unwrap(), vec![o.position]);
        }
    }
}

//! A deliberately simple second move generator: plain arrays and coordinates, no bitboards, no
//! tables, and no code shared with the rest of the crate.
//!
//! It exists to check the fast generator ([`Position::legal_turns`](crate::Position::legal_turns))
//! and whatever is built on it: the crate's tests compare the two on perft counts and on the turn
//! lists of random positions, and `fanorona verify-proof` checks solver certificates with this
//! module alone, so that a bug in the fast generator cannot hide in a proof that relies on it.
//!
//! It knows only the default rules of the solver: the standard rules without a no-capture limit
//! (a capture chain may stop after any capture, no opening restriction, and a side without a
//! legal turn, which includes a side without stones, loses). It is slow: every turn copies the
//! board.
//!
//! Points are numbered rank by rank from `a1 = 0`: the point in file `x` (0 for `a`) and rank
//! `y` (0 for rank 1) of a board with `cols` files is `y * cols + x`.
//!
//! # Examples
//!
//! ```
//! use fanorona_core::reference::{Board, Cell};
//!
//! let board = Board::from_fen("WWWWWWWWW/WWWWWWWWW/BWBW1BWBW/BBBBBBBBB/BBBBBBBBB w")?;
//! let mut turns: Vec<String> = board.turns().into_iter().map(|t| t.text).collect();
//! turns.sort();
//! assert_eq!(turns.len(), 5);
//! assert_eq!(board.perft(2), 39);
//! assert_eq!(board.side(), Cell::White);
//! # Ok::<(), fanorona_core::reference::ReferenceError>(())
//! ```

use core::fmt;

/// The content of a point, or a side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Cell {
    /// No stone.
    Empty,
    /// A white stone (or White, as a side).
    White,
    /// A black stone (or Black, as a side).
    Black,
}

impl Cell {
    /// The other side (`Empty` stays `Empty`).
    pub const fn other(self) -> Cell {
        match self {
            Cell::White => Cell::Black,
            Cell::Black => Cell::White,
            Cell::Empty => Cell::Empty,
        }
    }
}

/// Why a board could not be built or read.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum ReferenceError {
    /// The rows or columns are not odd numbers from 3 to 9, or the board has more than 64
    /// points.
    Size {
        /// Rows given.
        rows: usize,
        /// Columns given.
        cols: usize,
    },
    /// The cells do not number `rows * cols`.
    CellCount {
        /// Cells expected.
        expected: usize,
        /// Cells given.
        found: usize,
    },
    /// The side to move is not White or Black.
    Side,
    /// A position string is malformed.
    Fen {
        /// Byte offset (0-based) of the problem in the string.
        column: usize,
        /// What is wrong.
        message: String,
    },
}

impl fmt::Display for ReferenceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReferenceError::Size { rows, cols } => write!(
                f,
                "a {rows}x{cols} board is not supported (odd sizes 3 to 9, at most 64 points)"
            ),
            ReferenceError::CellCount { expected, found } => {
                write!(f, "{found} cells given for a board of {expected} points")
            }
            ReferenceError::Side => f.write_str("the side to move must be White or Black"),
            ReferenceError::Fen { column, message } => {
                write!(f, "position string, column {}: {message}", column + 1)
            }
        }
    }
}

impl std::error::Error for ReferenceError {}

/// Which game the reference plays (see [`docs/rules.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/rules.md)).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[non_exhaustive]
pub enum Variant {
    /// The capture game under the solver's default rules.
    #[default]
    Standard,
    /// Vela: while White has more than five stones, White only moves without capturing and
    /// each Black capture is one step that takes one stone; then the capture game.
    Vela,
    /// Bell's Vela (`game=vela,vela=bell`): while Black (the previous winner) has more than
    /// five stones, White must take exactly one stone each turn with one step and has no turn
    /// without a capture; Black only moves without capturing, and only so as to leave White a
    /// capture when it can; then the capture game.
    VelaBell,
    /// Fanoron-Telo (3x3): three stones each, placed then moved one step; three in a line
    /// wins (no turn is left once a line stands).
    Telo,
}

/// A position: the cells of a board and the side to move.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    rows: i32,
    cols: i32,
    cells: Vec<Cell>,
    side: Cell,
    variant: Variant,
}

/// The eight directions as (file, rank) steps.
const DIRS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// A capture step: direction, letter (`A` or `W`) and the captured points.
type CaptureStep = (usize, char, Vec<(i32, i32)>);

/// A legal turn: its text in the standard notation and the position after it.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct ReferenceTurn {
    /// The turn as text, such as `d2-e3A` or `c3-b3` (see [`docs/notation.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/notation.md)).
    pub text: String,
    /// The position after the turn, with the other side to move.
    pub after: Board,
}

impl Board {
    /// A board of `rows` ranks and `cols` files with the given cells (rank by rank from `a1`,
    /// see the [module documentation](self)) and side to move.
    ///
    /// # Errors
    ///
    /// [`ReferenceError`] for an unsupported size, a wrong number of cells or an empty side.
    pub fn new(
        rows: usize,
        cols: usize,
        cells: Vec<Cell>,
        side: Cell,
    ) -> Result<Board, ReferenceError> {
        let size_ok = |n: usize| (3..=9).contains(&n) && n % 2 == 1;
        if !size_ok(rows) || !size_ok(cols) || rows * cols > 64 {
            return Err(ReferenceError::Size { rows, cols });
        }
        if cells.len() != rows * cols {
            return Err(ReferenceError::CellCount {
                expected: rows * cols,
                found: cells.len(),
            });
        }
        if side == Cell::Empty {
            return Err(ReferenceError::Side);
        }
        Ok(Board {
            rows: rows as i32,
            cols: cols as i32,
            cells,
            side,
            variant: Variant::Standard,
        })
    }

    /// Reads a position string: ranks from the top (the last rank) down, separated by `/`,
    /// `W` and `B` for stones and digits for runs of empty points, then a space and `w` or `b`
    /// for the side to move. The counters after the side are ignored; a last word `vela` or
    /// `telo` plays the board as that [`Variant`].
    ///
    /// # Errors
    ///
    /// [`ReferenceError::Fen`] with the column of the problem, or a size error.
    pub fn from_fen(fen: &str) -> Result<Board, ReferenceError> {
        let bad = |column: usize, message: &str| ReferenceError::Fen {
            column,
            message: message.to_owned(),
        };
        let text = fen.trim_end();
        let board_end = text.find(' ').ok_or_else(|| {
            bad(
                text.len(),
                "a space and the side to move (w or b) must follow the board",
            )
        })?;
        let mut grid: Vec<Vec<Cell>> = vec![Vec::new()];
        for (i, ch) in text[..board_end].char_indices() {
            let row = grid.last_mut().expect("at least one rank");
            match ch {
                'W' => row.push(Cell::White),
                'B' => row.push(Cell::Black),
                '1'..='9' => {
                    let n = ch as usize - '0' as usize;
                    row.extend(core::iter::repeat_n(Cell::Empty, n));
                }
                '/' => grid.push(Vec::new()),
                _ => {
                    // Shown in the workspace's one escaped form (`'\x1b'`), written out here
                    // so that this module keeps sharing no code with the rest of the crate.
                    let shown = match ch {
                        '\n' => "'\\n'".to_owned(),
                        '\r' => "'\\r'".to_owned(),
                        '\t' => "'\\t'".to_owned(),
                        c if c.is_ascii_control() => format!("'\\x{:02x}'", c as u32),
                        c if c.is_control()
                            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}') =>
                        {
                            format!("'\\u{{{:x}}}'", c as u32)
                        }
                        '\'' => "'\\''".to_owned(),
                        '\\' => "'\\\\'".to_owned(),
                        c => format!("'{c}'"),
                    };
                    return Err(bad(
                        i,
                        &format!("unexpected character {shown} in the board"),
                    ));
                }
            }
        }
        let rows = grid.len();
        let cols = grid[0].len();
        if let Some(r) = grid.iter().position(|r| r.len() != cols) {
            return Err(bad(
                0,
                &format!(
                    "rank {} has {} points but the first rank has {cols}",
                    rows - r,
                    grid[r].len()
                ),
            ));
        }
        let rest = text[board_end..].trim_start();
        let side_col = text.len() - rest.len();
        let side = match rest.split(' ').next() {
            Some("w") => Cell::White,
            Some("b") => Cell::Black,
            _ => return Err(bad(side_col, "the side to move must be w or b")),
        };
        let variant = match rest.split(' ').skip(1).last() {
            Some("vela") => Variant::Vela,
            Some("telo") => Variant::Telo,
            _ => Variant::Standard,
        };
        let mut cells = Vec::with_capacity(rows * cols);
        for row in grid.iter().rev() {
            cells.extend_from_slice(row);
        }
        Ok(Board::new(rows, cols, cells, side)?.with_variant(variant))
    }

    /// Ranks of the board.
    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    /// Files of the board.
    pub fn cols(&self) -> usize {
        self.cols as usize
    }

    /// The cells, rank by rank from `a1`.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The side to move.
    pub fn side(&self) -> Cell {
        self.side
    }

    fn on(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && x < self.cols && y < self.rows
    }

    fn at(&self, x: i32, y: i32) -> Cell {
        self.cells[(y * self.cols + x) as usize]
    }

    fn set(&mut self, x: i32, y: i32, v: Cell) {
        let i = (y * self.cols + x) as usize;
        self.cells[i] = v;
    }

    /// A step along a line from (x, y) in direction d exists: diagonals only from strong points.
    fn line(&self, x: i32, y: i32, d: usize) -> bool {
        let (dx, dy) = DIRS[d];
        let diagonal = dx != 0 && dy != 0;
        self.on(x + dx, y + dy) && (!diagonal || (x + y) % 2 == 0)
    }

    fn name(x: i32, y: i32) -> String {
        format!("{}{}", (b'a' + x as u8) as char, y + 1)
    }

    /// Enemy stones in an unbroken line from (x, y) going (dx, dy).
    fn enemy_line(&self, mut x: i32, mut y: i32, dx: i32, dy: i32) -> Vec<(i32, i32)> {
        let enemy = self.side.other();
        let mut out = Vec::new();
        while self.on(x, y) && self.at(x, y) == enemy {
            out.push((x, y));
            x += dx;
            y += dy;
        }
        out
    }

    /// Capture steps for the stone on (x, y): (direction, letter, captured stones).
    fn capture_steps(
        &self,
        x: i32,
        y: i32,
        visited: &[(i32, i32)],
        last: Option<usize>,
    ) -> Vec<CaptureStep> {
        let mut out = Vec::new();
        for (d, &(dx, dy)) in DIRS.iter().enumerate() {
            if Some(d) == last || !self.line(x, y, d) {
                continue;
            }
            let (tx, ty) = (x + dx, y + dy);
            if self.at(tx, ty) != Cell::Empty || visited.contains(&(tx, ty)) {
                continue;
            }
            let ahead = self.enemy_line(tx + dx, ty + dy, dx, dy);
            if !ahead.is_empty() {
                out.push((d, 'A', ahead));
            }
            let behind = self.enemy_line(x - dx, y - dy, -dx, -dy);
            if !behind.is_empty() {
                out.push((d, 'W', behind));
            }
        }
        out
    }

    fn chains(
        &self,
        x: i32,
        y: i32,
        text: String,
        visited: Vec<(i32, i32)>,
        last: usize,
        out: &mut Vec<ReferenceTurn>,
    ) {
        for (d, letter, captured) in self.capture_steps(x, y, &visited, Some(last)) {
            let (dx, dy) = DIRS[d];
            let (tx, ty) = (x + dx, y + dy);
            let mut b = self.clone();
            b.set(x, y, Cell::Empty);
            b.set(tx, ty, self.side);
            for &(cx, cy) in &captured {
                b.set(cx, cy, Cell::Empty);
            }
            let t = format!("{text}-{}{letter}", Board::name(tx, ty));
            let mut v = visited.clone();
            v.push((tx, ty));
            let mut after = b.clone();
            after.side = self.side.other();
            out.push(ReferenceTurn {
                text: t.clone(),
                after,
            });
            b.chains(tx, ty, t, v, d, out);
        }
    }

    /// The same board played as `variant`.
    pub fn with_variant(mut self, variant: Variant) -> Board {
        self.variant = variant;
        self
    }

    /// The game this board is played as.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    fn count(&self, c: Cell) -> usize {
        self.cells.iter().filter(|&&x| x == c).count()
    }

    /// The moves of one step to an adjacent empty point, as turns.
    fn plain_steps(&self) -> Vec<ReferenceTurn> {
        let mut out = Vec::new();
        for y in 0..self.rows {
            for x in 0..self.cols {
                if self.at(x, y) != self.side {
                    continue;
                }
                for (d, &(dx, dy)) in DIRS.iter().enumerate() {
                    if self.line(x, y, d) && self.at(x + dx, y + dy) == Cell::Empty {
                        let mut after = self.clone();
                        after.set(x, y, Cell::Empty);
                        after.set(x + dx, y + dy, self.side);
                        after.side = self.side.other();
                        out.push(ReferenceTurn {
                            text: format!("{}-{}", Board::name(x, y), Board::name(x + dx, y + dy)),
                            after,
                        });
                    }
                }
            }
        }
        out
    }

    /// Whether `c` holds three points in a row, file, or diagonal through the centre.
    fn telo_line(&self, c: Cell) -> bool {
        let lines = [
            [(0, 0), (1, 0), (2, 0)],
            [(0, 1), (1, 1), (2, 1)],
            [(0, 2), (1, 2), (2, 2)],
            [(0, 0), (0, 1), (0, 2)],
            [(1, 0), (1, 1), (1, 2)],
            [(2, 0), (2, 1), (2, 2)],
            [(0, 0), (1, 1), (2, 2)],
            [(2, 0), (1, 1), (0, 2)],
        ];
        lines
            .iter()
            .any(|l| l.iter().all(|&(x, y)| self.at(x, y) == c))
    }

    fn telo_turns(&self) -> Vec<ReferenceTurn> {
        if self.telo_line(Cell::White) || self.telo_line(Cell::Black) {
            return Vec::new();
        }
        if self.count(self.side) >= 3 {
            return self.plain_steps();
        }
        let mut out = Vec::new();
        for y in 0..self.rows {
            for x in 0..self.cols {
                if self.at(x, y) == Cell::Empty {
                    let mut after = self.clone();
                    after.set(x, y, self.side);
                    after.side = self.side.other();
                    out.push(ReferenceTurn {
                        text: Board::name(x, y),
                        after,
                    });
                }
            }
        }
        out
    }

    /// Whether the side to move has a capture step anywhere.
    fn any_capture(&self) -> bool {
        (0..self.rows).any(|y| {
            (0..self.cols).any(|x| {
                self.at(x, y) == self.side && !self.capture_steps(x, y, &[], None).is_empty()
            })
        })
    }

    /// Vela while White has more than five stones.
    fn vela_turns(&self) -> Vec<ReferenceTurn> {
        if self.side == Cell::White {
            // Only moves that offer Black a capture, when there are such moves.
            let steps = self.plain_steps();
            let offers: Vec<ReferenceTurn> = steps
                .iter()
                .filter(|t| t.after.any_capture())
                .cloned()
                .collect();
            return if offers.is_empty() { steps } else { offers };
        }
        let mut out = Vec::new();
        for y in 0..self.rows {
            for x in 0..self.cols {
                if self.at(x, y) != self.side {
                    continue;
                }
                for (d, letter, captured) in self.capture_steps(x, y, &[], None) {
                    let (dx, dy) = DIRS[d];
                    let mut after = self.clone();
                    after.set(x, y, Cell::Empty);
                    after.set(x + dx, y + dy, self.side);
                    // Only the first stone of the line.
                    after.set(captured[0].0, captured[0].1, Cell::Empty);
                    after.side = self.side.other();
                    out.push(ReferenceTurn {
                        text: format!(
                            "{}-{}{letter}",
                            Board::name(x, y),
                            Board::name(x + dx, y + dy)
                        ),
                        after,
                    });
                }
            }
        }
        if out.is_empty() {
            return self.plain_steps();
        }
        out
    }

    /// Bell's Vela while Black has more than five stones.
    fn vela_bell_turns(&self) -> Vec<ReferenceTurn> {
        if self.side == Cell::Black {
            // Black gives the stones: steps after which White can capture, when there are any.
            let steps = self.plain_steps();
            let mut gives = Vec::new();
            for t in &steps {
                if t.after.any_capture() {
                    gives.push(t.clone());
                }
            }
            return if gives.is_empty() { steps } else { gives };
        }
        // White takes one stone with one step, or has no turn at all.
        let mut out = Vec::new();
        for y in 0..self.rows {
            for x in 0..self.cols {
                if self.at(x, y) != Cell::White {
                    continue;
                }
                for (d, letter, captured) in self.capture_steps(x, y, &[], None) {
                    let (dx, dy) = DIRS[d];
                    let (tx, ty) = (x + dx, y + dy);
                    let (cx, cy) = captured[0];
                    let mut after = self.clone();
                    after.set(x, y, Cell::Empty);
                    after.set(tx, ty, Cell::White);
                    after.set(cx, cy, Cell::Empty);
                    after.side = Cell::Black;
                    let text = format!("{}-{}{letter}", Board::name(x, y), Board::name(tx, ty));
                    out.push(ReferenceTurn { text, after });
                }
            }
        }
        out
    }

    /// Every legal turn of its game (by default the solver's default rules, see the
    /// [module documentation](self)), in a fixed order. Empty when the side to move has lost
    /// (no stones, or stuck) or, in Fanoron-Telo, when a line of three stands
    /// (or, in Bell's Vela, White has no capture during the restriction).
    pub fn turns(&self) -> Vec<ReferenceTurn> {
        match self.variant {
            Variant::Telo => return self.telo_turns(),
            Variant::Vela if self.count(Cell::White) > 5 => return self.vela_turns(),
            Variant::VelaBell if self.count(Cell::Black) > 5 => return self.vela_bell_turns(),
            _ => {}
        }
        let mut out = Vec::new();
        for y in 0..self.rows {
            for x in 0..self.cols {
                if self.at(x, y) != self.side {
                    continue;
                }
                for (d, letter, captured) in self.capture_steps(x, y, &[], None) {
                    let (dx, dy) = DIRS[d];
                    let (tx, ty) = (x + dx, y + dy);
                    let mut b = self.clone();
                    b.set(x, y, Cell::Empty);
                    b.set(tx, ty, self.side);
                    for &(cx, cy) in &captured {
                        b.set(cx, cy, Cell::Empty);
                    }
                    let t = format!("{}-{}{letter}", Board::name(x, y), Board::name(tx, ty));
                    let mut after = b.clone();
                    after.side = self.side.other();
                    out.push(ReferenceTurn {
                        text: t.clone(),
                        after,
                    });
                    b.chains(tx, ty, t, vec![(x, y), (tx, ty)], d, &mut out);
                }
            }
        }
        if !out.is_empty() {
            return out;
        }
        for y in 0..self.rows {
            for x in 0..self.cols {
                if self.at(x, y) != self.side {
                    continue;
                }
                for (d, &(dx, dy)) in DIRS.iter().enumerate() {
                    if !self.line(x, y, d) {
                        continue;
                    }
                    if self.at(x + dx, y + dy) == Cell::Empty {
                        let mut after = self.clone();
                        after.set(x, y, Cell::Empty);
                        after.set(x + dx, y + dy, self.side);
                        after.side = self.side.other();
                        out.push(ReferenceTurn {
                            text: format!("{}-{}", Board::name(x, y), Board::name(x + dx, y + dy)),
                            after,
                        });
                    }
                }
            }
        }
        out
    }

    /// Counts turn sequences of length `depth`.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let turns = self.turns();
        if depth == 1 {
            return turns.len() as u64;
        }
        turns.iter().map(|t| t.after.perft(depth - 1)).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_rejects_position_strings() {
        let b = Board::from_fen("1B1/3/W1W w").unwrap();
        assert_eq!((b.rows(), b.cols()), (3, 3));
        assert_eq!(b.cells()[0], Cell::White);
        assert_eq!(b.cells()[7], Cell::Black);
        assert_eq!(b.side(), Cell::White);
        assert!(matches!(
            Board::from_fen("1B1/3/W1W"),
            Err(ReferenceError::Fen { .. })
        ));
        assert!(matches!(
            Board::from_fen("1B1/3/W1 w"),
            Err(ReferenceError::Fen { .. })
        ));
        assert!(matches!(
            Board::from_fen("1B1/3/W1X w"),
            Err(ReferenceError::Fen { column: 8, .. })
        ));
        assert!(matches!(
            Board::from_fen("1B/2/W1 w"),
            Err(ReferenceError::Size { rows: 3, cols: 2 })
        ));
        assert!(matches!(
            Board::from_fen("1B1/3/W1W x"),
            Err(ReferenceError::Fen { .. })
        ));
    }

    #[test]
    fn a_side_without_stones_has_no_turn() {
        let b = Board::from_fen("3/3/W2 b").unwrap();
        assert!(b.turns().is_empty());
        // Captures are compulsory: the paika is not offered when a capture exists.
        let b = Board::from_fen("3/3/W1B w").unwrap();
        let texts: Vec<String> = b.turns().into_iter().map(|t| t.text).collect();
        assert_eq!(texts, ["a1-b1A"]);
        assert_eq!(b.turns()[0].after, Board::from_fen("3/3/1W1 b").unwrap());
    }
}

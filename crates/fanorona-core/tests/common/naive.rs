//! A deliberately simple second move generator: plain arrays, coordinates, no bitboards and no
//! tables. It shares no code with the crate and serves as an independent check of perft counts
//! and of the turn lists on random positions.

/// 0 empty, 1 White, 2 Black.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    pub rows: i32,
    pub cols: i32,
    pub cells: Vec<u8>,
    pub side: u8,
}

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

pub struct NaiveTurn {
    pub text: String,
    pub after: Board,
}

impl Board {
    /// Reads a position string (board and side only).
    pub fn from_fen(fen: &str) -> Board {
        let mut parts = fen.split_whitespace();
        let ranks: Vec<&str> = parts.next().unwrap().split('/').collect();
        let rows = ranks.len() as i32;
        let mut grid: Vec<Vec<u8>> = Vec::new();
        for r in &ranks {
            let mut row = Vec::new();
            for ch in r.chars() {
                match ch {
                    'W' => row.push(1),
                    'B' => row.push(2),
                    d => {
                        for _ in 0..d.to_digit(10).unwrap() {
                            row.push(0)
                        }
                    }
                }
            }
            grid.push(row);
        }
        let cols = grid[0].len() as i32;
        let mut cells = vec![0; (rows * cols) as usize];
        for (i, row) in grid.iter().enumerate() {
            let y = rows - 1 - i as i32;
            for (x, &c) in row.iter().enumerate() {
                cells[(y * cols + x as i32) as usize] = c;
            }
        }
        let side = if parts.next().unwrap() == "w" { 1 } else { 2 };
        Board {
            rows,
            cols,
            cells,
            side,
        }
    }

    fn on(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && x < self.cols && y < self.rows
    }

    fn at(&self, x: i32, y: i32) -> u8 {
        self.cells[(y * self.cols + x) as usize]
    }

    fn set(&mut self, x: i32, y: i32, v: u8) {
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
        let enemy = 3 - self.side;
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
            if self.at(tx, ty) != 0 || visited.contains(&(tx, ty)) {
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
        out: &mut Vec<NaiveTurn>,
    ) {
        for (d, letter, captured) in self.capture_steps(x, y, &visited, Some(last)) {
            let (dx, dy) = DIRS[d];
            let (tx, ty) = (x + dx, y + dy);
            let mut b = self.clone();
            b.set(x, y, 0);
            b.set(tx, ty, self.side);
            for &(cx, cy) in &captured {
                b.set(cx, cy, 0);
            }
            let t = format!("{text}-{}{letter}", Board::name(tx, ty));
            let mut v = visited.clone();
            v.push((tx, ty));
            let mut after = b.clone();
            after.side = 3 - self.side;
            out.push(NaiveTurn {
                text: t.clone(),
                after,
            });
            b.chains(tx, ty, t, v, d, out);
        }
    }

    /// Every legal turn under the default rules.
    pub fn turns(&self) -> Vec<NaiveTurn> {
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
                    b.set(x, y, 0);
                    b.set(tx, ty, self.side);
                    for &(cx, cy) in &captured {
                        b.set(cx, cy, 0);
                    }
                    let t = format!("{}-{}{letter}", Board::name(x, y), Board::name(tx, ty));
                    let mut after = b.clone();
                    after.side = 3 - self.side;
                    out.push(NaiveTurn {
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
                    if self.at(x + dx, y + dy) == 0 {
                        let mut after = self.clone();
                        after.set(x, y, 0);
                        after.set(x + dx, y + dy, self.side);
                        after.side = 3 - self.side;
                        out.push(NaiveTurn {
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

//! Import of Boardspace.net Fanorona records (an SGF-like format) into [`GameRecord`]s, every
//! action replayed by the rules. The mapping is given in section 6 of [`docs/notation.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/notation.md).
//!
//! # Examples
//!
//! ```
//! use fanorona_core::record::GameResult;
//! use fanorona_core::record::boardspace::BoardspaceReader;
//!
//! let sgf = "(;GM[Fanorona]SU[fanorona]P0[id \"ann\"]P1[id \"bob\"]
//!   ;P0[0 Start P0];P0[1 Capture A F 2 E 3];P0[2 done]
//!   ;P1[3 Capture A D 5 D 4];P1[4 done];P1[5 Resign])";
//! let mut games = BoardspaceReader::new(sgf.as_bytes());
//! let record = games.next().expect("one game")?;
//! assert_eq!(record.tag("White"), Some("ann"));
//! assert_eq!(record.turns().collect::<Vec<_>>(), ["f2-e3A", "d5-d4A"]);
//! assert_eq!(record.result, Some(GameResult::WhiteWins));
//! assert!(games.next().is_none());
//! # Ok::<(), fanorona_core::record::boardspace::ImportError>(())
//! ```

use core::fmt;
use std::io::{self, Read};

use super::limits::{MAX_GAME_BYTES, MAX_PROPERTIES, MAX_PROPERTY_NAME, MAX_PROPERTY_VALUE};
use super::{Element, GameRecord, GameResult, Location, Reader, Tag, check_date};
use crate::{BoardSize, Color, Game, Point, Position, Step, StepKind, TurnBuilder};

/// What went wrong importing a game.
#[derive(Debug)]
#[non_exhaustive]
pub enum ImportErrorKind {
    /// The input could not be read.
    Io(io::Error),
    /// The text is not well-formed (unbalanced brackets, bad property).
    Syntax(String),
    /// The record is not a standard Fanorona game.
    NotFanorona(String),
    /// An action that cannot be replayed or is not understood.
    Action {
        /// The action as written.
        action: String,
        /// Why it cannot be imported.
        reason: String,
    },
}

/// An error importing one game, with its location. The other games of the file can still be
/// read (after an I/O error the reader stops).
#[derive(Debug)]
#[non_exhaustive]
pub struct ImportError {
    /// The game, counted from 1.
    pub game: usize,
    /// Where the problem is.
    pub at: Location,
    /// What is wrong.
    pub kind: ImportErrorKind,
}

impl ImportError {
    /// A message without the location.
    pub fn message(&self) -> String {
        match &self.kind {
            ImportErrorKind::Io(e) => format!("cannot read: {e}"),
            ImportErrorKind::Syntax(m) => format!("bad Boardspace record: {m}"),
            ImportErrorKind::NotFanorona(m) => format!("not a Fanorona game: {m}"),
            ImportErrorKind::Action { action, reason } => {
                format!(
                    "cannot import action {}: {reason}",
                    crate::escape::quoted(&excerpt(action))
                )
            }
        }
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}, line {}: {}",
            self.game,
            self.at,
            self.message()
        )
    }
}

impl std::error::Error for ImportError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ImportErrorKind::Io(e) => Some(e),
            _ => None,
        }
    }
}

/// One `NAME[value]` property.
#[derive(Debug)]
struct Prop {
    name: String,
    value: String,
    at: Location,
}

/// Reads the games of a Boardspace file one at a time, as [`GameRecord`]s.
pub struct BoardspaceReader<R> {
    src: Reader<R>,
    games: usize,
    failed: bool,
}

impl<R: Read> BoardspaceReader<R> {
    /// A reader over `inner`.
    pub fn new(inner: R) -> BoardspaceReader<R> {
        BoardspaceReader {
            src: Reader::new(inner),
            games: 0,
            failed: false,
        }
    }

    /// Bytes consumed so far.
    pub fn bytes_read(&self) -> u64 {
        self.src.bytes_read()
    }

    fn fail(&mut self, at: Location, kind: ImportErrorKind) -> ImportError {
        ImportError {
            game: self.games,
            at,
            kind,
        }
    }

    /// Reads the properties of the next game tree, or `None` at the end of the input.
    fn read_tree(&mut self) -> io::Result<Option<Result<Vec<Prop>, ImportError>>> {
        if self.src.bytes_read() == 0 {
            self.src.skip_bom()?;
        }
        self.src.skip_ws()?;
        let Some(first) = self.src.peek()? else {
            return Ok(None);
        };
        self.games += 1;
        let start = self.src.location();
        if first != b'(' {
            // Skip to the next '(' so that one bad game does not hide the next.
            while let Some(b) = self.src.peek()? {
                if b == b'(' {
                    break;
                }
                self.src.bump(b);
            }
            return Ok(Some(Err(self.fail(
                start,
                ImportErrorKind::Syntax(format!(
                    "expected '(' to open a game, found {}",
                    crate::escape::quoted(&char::from(first))
                )),
            ))));
        }
        self.src.bump(b'(');
        let mut props = Vec::new();
        let mut error = None;
        loop {
            self.src.skip_ws()?;
            let at = self.src.location();
            if error.is_none() && at.offset - start.offset > MAX_GAME_BYTES as u64 {
                error = Some(self.fail(
                    at,
                    ImportErrorKind::Syntax(format!(
                        "the game is too long (more than {MAX_GAME_BYTES} bytes)"
                    )),
                ));
            }
            let Some(b) = self.src.peek()? else {
                let e = match error {
                    Some(e) => e,
                    None => self.fail(
                        start,
                        ImportErrorKind::Syntax(
                            "the game has no closing ')' (truncated file?)".into(),
                        ),
                    ),
                };
                return Ok(Some(Err(e)));
            };
            match b {
                b')' => {
                    self.src.bump(b);
                    break;
                }
                b';' => self.src.bump(b),
                b'(' => {
                    self.src.bump(b);
                    if error.is_none() {
                        error = Some(self.fail(
                            at,
                            ImportErrorKind::Syntax(
                                "variations '(' inside a game are not supported".into(),
                            ),
                        ));
                    }
                }
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' => {
                    let mut name = String::new();
                    let mut long = false;
                    while let Some(c) = self.src.peek()? {
                        if !c.is_ascii_alphanumeric() {
                            break;
                        }
                        if name.len() < MAX_PROPERTY_NAME {
                            name.push(char::from(c));
                        } else {
                            long = true;
                        }
                        self.src.bump(c);
                    }
                    if long && error.is_none() {
                        error = Some(self.fail(
                            at,
                            ImportErrorKind::Syntax(format!(
                                "property name {}... is too long (more than {MAX_PROPERTY_NAME} bytes)",
                                &name[..40]
                            )),
                        ));
                    }
                    self.src.skip_ws()?;
                    let mut any = false;
                    while self.src.peek()? == Some(b'[') {
                        any = true;
                        let value_at = self.src.location();
                        match self.read_value()? {
                            Ok(_) if error.is_some() => {}
                            Ok(_) if props.len() == MAX_PROPERTIES => {
                                error = Some(self.fail(
                                    value_at,
                                    ImportErrorKind::Syntax(format!(
                                        "too many properties in one game (more than {MAX_PROPERTIES})"
                                    )),
                                ));
                            }
                            Ok(value) => props.push(Prop {
                                name: name.clone(),
                                value,
                                at,
                            }),
                            Err(m) => {
                                let e = self.fail(value_at, ImportErrorKind::Syntax(m));
                                if error.is_none() {
                                    error = Some(e);
                                }
                            }
                        }
                        self.src.skip_ws()?;
                    }
                    if !any && error.is_none() {
                        error = Some(self.fail(
                            at,
                            ImportErrorKind::Syntax(format!("property {name} has no '[value]'")),
                        ));
                    }
                }
                _ => {
                    self.src.bump(b);
                    if error.is_none() {
                        error = Some(self.fail(
                            at,
                            ImportErrorKind::Syntax(format!(
                                "unexpected byte {b:#04x} between properties"
                            )),
                        ));
                    }
                }
            }
        }
        Ok(Some(match error {
            Some(e) => Err(e),
            None => Ok(props),
        }))
    }

    /// Reads `[value]` with `\` escapes.
    fn read_value(&mut self) -> io::Result<Result<String, String>> {
        self.src.bump(b'[');
        let mut bytes = Vec::new();
        let mut long = false;
        loop {
            let Some(b) = self.src.peek()? else {
                return Ok(Err("unterminated property value: no closing ']'".into()));
            };
            self.src.bump(b);
            let b = match b {
                b']' => break,
                b'\\' => match self.src.peek()? {
                    Some(c) => {
                        self.src.bump(c);
                        c
                    }
                    None => continue,
                },
                _ => b,
            };
            if bytes.len() < MAX_PROPERTY_VALUE {
                bytes.push(b);
            } else {
                long = true;
            }
        }
        if long {
            return Ok(Err(format!(
                "a property value is too long (more than {MAX_PROPERTY_VALUE} bytes)"
            )));
        }
        Ok(String::from_utf8(bytes).map_err(|_| "a property value is not valid UTF-8".to_owned()))
    }
}

impl<R: Read> Iterator for BoardspaceReader<R> {
    type Item = Result<GameRecord, ImportError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        match self.read_tree() {
            Err(e) => {
                self.failed = true;
                let at = self.src.location();
                Some(Err(self.fail(at, ImportErrorKind::Io(e))))
            }
            Ok(None) => None,
            Ok(Some(Err(e))) => Some(Err(e)),
            Ok(Some(Ok(props))) => Some(convert(self.games, &props)),
        }
    }
}

/// At most the first 40 characters of a text quoted in a message, then `...`.
fn excerpt(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_owned(),
    }
}

/// Which player did something: 0 or 1.
fn player_of(name: &str) -> Option<usize> {
    match name {
        "P0" => Some(0),
        "P1" => Some(1),
        _ => None,
    }
}

/// The result token of a win for `c`.
fn win(c: Color) -> GameResult {
    match c {
        Color::White => GameResult::WhiteWins,
        Color::Black => GameResult::BlackWins,
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The header value of `P0[id "name"]`-style properties: `Some((key, rest))`.
fn header_key(value: &str) -> Option<(&'static str, &str)> {
    let v = value.trim_start();
    for key in ["id", "ranking", "country", "time"] {
        if let Some(rest) = v.strip_prefix(key)
            && (rest.is_empty() || rest.starts_with(char::is_whitespace))
        {
            return Some((key, rest.trim()));
        }
    }
    None
}

/// `"name"` with `\"` escapes, or the text as it is.
fn unquote(s: &str) -> String {
    let s = s.trim();
    match s.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        Some(inner) => inner.replace("\\\"", "\"").replace("\\\\", "\\"),
        None => s.to_owned(),
    }
}

/// `Thu Jul 17 17:24:45 PDT 2025` as (`2025.07.17`, `17:24:45 PDT`).
fn parse_dt(dt: &str) -> Option<(String, String)> {
    let parts: Vec<&str> = dt.split_whitespace().collect();
    if parts.len() < 5 {
        return None;
    }
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let month = MONTHS
        .iter()
        .position(|m| parts[1].to_ascii_lowercase().starts_with(m))?
        + 1;
    let day: u32 = parts[2].parse().ok().filter(|d| (1..=31).contains(d))?;
    let year = parts[parts.len() - 1];
    if year.len() != 4 || !year.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let time = parts[3..parts.len() - 1].join(" ");
    Some((format!("{year}.{month:02}.{day:02}"), time))
}

/// The first `YYYY-MM-DD` in a game name, as `YYYY.MM.DD`.
fn date_in_name(name: &str) -> Option<String> {
    let b = name.as_bytes();
    (0..b.len().saturating_sub(9)).find_map(|i| {
        let w = &b[i..i + 10];
        let digits = |r: core::ops::Range<usize>| w[r].iter().all(u8::is_ascii_digit);
        (digits(0..4) && w[4] == b'-' && digits(5..7) && w[7] == b'-' && digits(8..10)).then(|| {
            let s = &name[i..i + 10];
            s.replace('-', ".")
        })
    })
}

/// The state of the turn being put together from actions.
struct TurnState {
    builder: TurnBuilder,
    steps: Vec<Step>,
    picked: Option<Point>,
    /// A drop that could capture both ways, waiting for `Remove`: the two steps.
    pending: Option<[Step; 2]>,
}

impl TurnState {
    fn new(pos: &Position) -> TurnState {
        TurnState {
            builder: pos.begin_turn(),
            steps: Vec::new(),
            picked: None,
            pending: None,
        }
    }

    fn started(&self) -> bool {
        !self.steps.is_empty() || self.picked.is_some() || self.pending.is_some()
    }

    fn play(&mut self, step: Step) -> Result<(), String> {
        self.builder.play_step(step).map_err(|e| e.to_string())?;
        self.steps.push(step);
        Ok(())
    }

    /// The legal steps from `from` to `to` (of `kind` when given).
    fn candidates(&self, from: Point, to: Point, kind: Option<StepKind>) -> Vec<Step> {
        self.builder
            .legal_steps()
            .into_iter()
            .filter(|s| s.from == from && s.to == to && kind.is_none_or(|k| k == s.kind))
            .collect()
    }

    /// Takes back the last step.
    fn undo(&mut self) {
        let start = *self.builder.start();
        self.steps.pop();
        let steps = core::mem::take(&mut self.steps);
        self.builder = start.begin_turn();
        for s in steps {
            self.play(s).expect("a step that was legal before");
        }
    }
}

/// Converts one game's properties into a record, replaying it.
fn convert(game_no: usize, props: &[Prop]) -> Result<GameRecord, ImportError> {
    let size = BoardSize::STANDARD;
    let err = |at: Location, kind| ImportError {
        game: game_no,
        at,
        kind,
    };
    let game_at = props.first().map_or_else(Location::default, |p| p.at);
    // Header.
    let mut gm = None;
    let mut colors = [Color::White, Color::Black];
    let mut names: [Option<String>; 2] = [None, None];
    let mut extra: [Vec<(String, String)>; 2] = [Vec::new(), Vec::new()];
    let mut other: Vec<Tag> = Vec::new();
    let mut date = None;
    let mut time = None;
    let mut game_name = None;
    let mut termination = None;
    let mut dt_raw = None;
    let mut clocks: [Option<String>; 2] = [None, None];
    let mut actions: Vec<(usize, &Prop, String)> = Vec::new();
    for p in props {
        if let Some(player) = player_of(&p.name) {
            if let Some((key, rest)) = header_key(&p.value) {
                match key {
                    "id" => names[player] = Some(unquote(rest)),
                    "time" => clocks[player] = Some(rest.to_owned()),
                    "ranking" => extra[player].push(("Ranking".into(), rest.to_owned())),
                    _ => extra[player].push(("Country".into(), unquote(rest))),
                }
            } else {
                // An action: drop the optional leading index.
                let v = p.value.trim();
                let body = match v.split_once(char::is_whitespace) {
                    Some((first, rest)) if first.bytes().all(|c| c.is_ascii_digit()) => rest.trim(),
                    _ => v,
                };
                actions.push((player, p, body.to_owned()));
            }
            continue;
        }
        match p.name.as_str() {
            "GM" => gm = Some(p.value.clone()),
            "SU" => {
                if !p.value.trim().eq_ignore_ascii_case("fanorona") {
                    return Err(err(
                        p.at,
                        ImportErrorKind::NotFanorona(format!(
                            "set-up SU[{}] is not 'fanorona'",
                            excerpt(&p.value)
                        )),
                    ));
                }
            }
            "CM" => {
                let parts: Vec<&str> = p.value.split(',').map(str::trim).collect();
                let c = |s: &str| match s {
                    "0" => Some(Color::White),
                    "1" => Some(Color::Black),
                    _ => None,
                };
                match parts.as_slice() {
                    [a, b] if c(a).is_some() && c(b).is_some() && a != b => {
                        colors = [c(a).expect("checked"), c(b).expect("checked")];
                    }
                    _ => {
                        return Err(err(
                            p.at,
                            ImportErrorKind::Syntax(format!(
                                "colour map CM[{}] is not 0,1 or 1,0",
                                excerpt(&p.value)
                            )),
                        ));
                    }
                }
            }
            "DT" => {
                let v = p.value.trim();
                match parse_dt(v) {
                    Some((d, t)) => {
                        if let Err(e) = check_date(&d) {
                            return Err(err(
                                p.at,
                                ImportErrorKind::Syntax(format!(
                                    "impossible date DT[{}]: {}",
                                    excerpt(v),
                                    e.reason
                                )),
                            ));
                        }
                        date = Some(d);
                        time = Some(t);
                    }
                    None if v.is_empty() => {}
                    None => dt_raw = Some(v.to_owned()),
                }
            }
            "GN" => game_name = Some((p.value.clone(), p.at)),
            "RE" => termination = Some(p.value.clone()),
            "TM" => {}
            name => other.push(Tag {
                name: format!("Boardspace{name}"),
                value: p.value.clone(),
            }),
        }
    }
    match &gm {
        Some(g) if g.trim().eq_ignore_ascii_case("fanorona") => {}
        Some(g) => {
            return Err(err(
                game_at,
                ImportErrorKind::NotFanorona(format!("GM[{}]", excerpt(g))),
            ));
        }
        None => {
            return Err(err(
                game_at,
                ImportErrorKind::NotFanorona("no GM[Fanorona] property".into()),
            ));
        }
    }
    if date.is_none()
        && let Some((name, at)) = &game_name
        && let Some(d) = date_in_name(name)
    {
        if let Err(e) = check_date(&d) {
            return Err(err(
                *at,
                ImportErrorKind::Syntax(format!(
                    "impossible date {} in the game name GN[{}]: {}",
                    crate::escape::quoted(&d.replace('.', "-")),
                    excerpt(name),
                    e.reason
                )),
            ));
        }
        date = Some(d);
    }

    // Actions.
    let mut game = Game::new(Position::standard());
    let mut movetext = Vec::new();
    let mut turn = TurnState::new(game.position());
    let mut started = false;
    let mut result: Option<GameResult> = None;
    let mut fen = None;
    for &(player, prop, ref body) in &actions {
        let color = colors[player];
        let action_err = |reason: String| {
            err(
                prop.at,
                ImportErrorKind::Action {
                    action: prop.value.clone(),
                    reason,
                },
            )
        };
        let words: Vec<&str> = body.split_whitespace().collect();
        let Some(op) = words.first() else {
            return Err(action_err("empty action".into()));
        };
        let op = op.to_ascii_lowercase();
        let args = &words[1..];
        let point = |i: usize| -> Result<Point, String> {
            let file = args.get(i).and_then(|f| {
                let b = f.as_bytes();
                (b.len() == 1 && b[0].is_ascii_alphabetic())
                    .then(|| b[0].to_ascii_lowercase() - b'a')
            });
            let rank = args
                .get(i + 1)
                .and_then(|r| r.parse::<u8>().ok())
                .filter(|&r| r >= 1);
            match (file, rank) {
                (Some(f), Some(r)) => size
                    .point(f, r - 1)
                    .ok_or_else(|| format!("{} {} is not on the board", args[i], args[i + 1])),
                _ => Err(format!(
                    "expected a point (column letter and row number) at argument {}",
                    i + 1
                )),
            }
        };
        if op == "start" {
            if started || !game.turns().is_empty() {
                return Err(action_err("a second Start".into()));
            }
            let first = match args.first().map(|s| s.to_ascii_uppercase()) {
                Some(s) if s == "P0" => 0,
                Some(s) if s == "P1" => 1,
                _ => return Err(action_err("Start names P0 or P1".into())),
            };
            if colors[first] == Color::Black {
                let mut setup = Position::standard().to_setup();
                setup.side_to_move = Color::Black;
                let pos = Position::from_setup(setup, crate::Rules::STANDARD)
                    .expect("the standard setup is valid");
                fen = Some(pos.to_fen());
                game = Game::new(pos);
                turn = TurnState::new(game.position());
            }
            started = true;
            continue;
        }
        if result.is_some() {
            return Err(action_err("the game has already ended".into()));
        }
        let to_move = game.position().side_to_move();
        let is_turn_action = matches!(
            op.as_str(),
            "move" | "capture" | "pickb" | "dropb" | "remove" | "done"
        );
        if is_turn_action && color != to_move {
            if turn.started() && turn.builder.can_end() && turn.pending.is_none() {
                finish_turn(&mut game, &mut turn, &mut movetext).map_err(action_err)?;
            }
            if color != game.position().side_to_move() {
                return Err(action_err(format!(
                    "{} acts, but it is {}'s turn",
                    color_name(color),
                    color_name(game.position().side_to_move())
                )));
            }
        }
        if is_turn_action && let Some(o) = game.outcome() {
            return Err(action_err(format!("the game is over by the rules: {o}")));
        }
        match op.as_str() {
            "move" | "capture" => {
                let (kind, first) = if op == "move" {
                    (StepKind::Paika, 0)
                } else {
                    match args.first().map(|s| s.to_ascii_uppercase()).as_deref() {
                        Some("A") => (StepKind::Approach, 1),
                        Some("W") => (StepKind::Withdrawal, 1),
                        _ => return Err(action_err("Capture needs A or W".into())),
                    }
                };
                let from = point(first).map_err(action_err)?;
                let to = point(first + 2).map_err(action_err)?;
                let c = turn.candidates(from, to, Some(kind));
                let Some(step) = c.first() else {
                    return Err(action_err(format!(
                        "no legal {} step from {} to {} here",
                        match kind {
                            StepKind::Paika => "paika",
                            StepKind::Approach => "approach",
                            StepKind::Withdrawal => "withdrawal",
                        },
                        from,
                        to
                    )));
                };
                turn.play(*step).map_err(action_err)?;
            }
            "pickb" => {
                let p = point(0).map_err(action_err)?;
                turn.picked = Some(p);
            }
            "dropb" => {
                let to = point(0).map_err(action_err)?;
                let from = match (turn.builder.current_point(), turn.picked) {
                    (Some(at), _) => at,
                    (None, Some(p)) => p,
                    (None, None) => return Err(action_err("Dropb without a picked stone".into())),
                };
                if let Some(last) = turn.steps.last()
                    && last.from == to
                {
                    turn.undo();
                    turn.picked = Some(to);
                    continue;
                }
                if to == from {
                    // Put back where it was picked up: nothing happened.
                    turn.picked = None;
                    continue;
                }
                let c = turn.candidates(from, to, None);
                match c.as_slice() {
                    [] => {
                        return Err(action_err(format!(
                            "no legal step from {} to {} here",
                            from, to
                        )));
                    }
                    [one] => turn.play(*one).map_err(action_err)?,
                    [a, b, ..] => turn.pending = Some([*a, *b]),
                }
            }
            "remove" => {
                let p = point(0).map_err(action_err)?;
                let Some(pair) = turn.pending.take() else {
                    return Err(action_err(
                        "Remove without a step that captures both ways".into(),
                    ));
                };
                let chosen = pair
                    .iter()
                    .find(|s| turn.builder.captured_by(**s).contains(p))
                    .copied()
                    .ok_or_else(|| action_err(format!("{} is in neither capture line", p)))?;
                turn.play(chosen).map_err(action_err)?;
            }
            "done" => {
                if turn.steps.is_empty() && turn.pending.is_none() {
                    // A 'done' with no step (after an undone pick) changes nothing.
                    continue;
                }
                finish_turn(&mut game, &mut turn, &mut movetext).map_err(action_err)?;
            }
            "resign" => {
                movetext.push(Element::Comment(format!("{} resigns", color_name(color))));
                result = Some(win(color.other()));
            }
            "offerdraw" => movetext.push(Element::Comment(format!(
                "{} offers a draw",
                color_name(color)
            ))),
            "declinedraw" => {
                movetext.push(Element::Comment(format!(
                    "{} declines the draw",
                    color_name(color)
                )));
            }
            "acceptdraw" => {
                movetext.push(Element::Comment("draw agreed".into()));
                result = Some(GameResult::Draw);
            }
            "gameoverontime" => {
                movetext.push(Element::Comment(format!(
                    "{} lost on time",
                    color_name(color.other())
                )));
                result = Some(win(color));
            }
            "edit" => return Err(action_err("Edit actions cannot be replayed".into())),
            op if op.contains("undo") => {
                return Err(action_err("undo actions cannot be imported".into()));
            }
            _ => return Err(action_err("unknown action".into())),
        }
    }
    if turn.started() {
        if turn.builder.can_end() && turn.pending.is_none() {
            let at = props.last().map_or(game_at, |p| p.at);
            finish_turn(&mut game, &mut turn, &mut movetext).map_err(|reason| {
                err(
                    at,
                    ImportErrorKind::Action {
                        action: "(end of game)".into(),
                        reason,
                    },
                )
            })?;
        } else {
            let at = props.last().map_or(game_at, |p| p.at);
            return Err(err(
                at,
                ImportErrorKind::Action {
                    action: "(end of game)".into(),
                    reason: "the record ends in the middle of a turn".into(),
                },
            ));
        }
    }
    let result = result
        .or_else(|| game.outcome().map(|o| GameResult::from_outcome(&o)))
        .unwrap_or(GameResult::Unknown);

    // Tags.
    let mut tags = Vec::new();
    let mut tag = |name: &str, value: String| {
        tags.push(Tag {
            name: name.to_owned(),
            value,
        });
    };
    tag("Site", "boardspace.net".into());
    if let Some(d) = date {
        tag("Date", d);
    }
    if let Some(t) = time {
        tag("Time", t);
    }
    let by_color = |c: Color| if colors[0] == c { 0 } else { 1 };
    for c in [Color::White, Color::Black] {
        let p = by_color(c);
        if let Some(n) = &names[p] {
            tag(color_name(c), n.clone());
        }
    }
    tag("Result", result.as_str().to_owned());
    if let Some(f) = fen {
        tag("FEN", f);
    }
    for c in [Color::White, Color::Black] {
        let p = by_color(c);
        for (k, v) in &extra[p] {
            tag(&format!("{}{k}", color_name(c)), v.clone());
        }
        if let Some(t) = &clocks[p] {
            tag(&format!("{}Clock", color_name(c)), t.clone());
        }
    }
    if let Some((g, _)) = game_name {
        tag("BoardspaceName", g);
    }
    if let Some(d) = dt_raw {
        tag("BoardspaceDT", d);
    }
    if let Some(t) = termination {
        tag("Termination", t);
    }
    tags.extend(other);
    let record = GameRecord {
        tags,
        movetext,
        result: Some(result),
        source: Some(super::Source {
            game: game_no,
            start: game_at,
            end: props.last().map_or(game_at, |p| p.at),
            ..super::Source::default()
        }),
    };
    // What the readers would refuse is refused here (say, thousands of header properties).
    record
        .check_limits()
        .map_err(|e| err(game_at, ImportErrorKind::Syntax(e.to_string())))?;
    Ok(record)
}

/// Ends the turn in progress, plays it and writes it to the movetext.
fn finish_turn(
    game: &mut Game,
    turn: &mut TurnState,
    movetext: &mut Vec<Element>,
) -> Result<(), String> {
    if turn.pending.is_some() {
        return Err("the step could capture both ways and no Remove chose one".into());
    }
    let t = turn.builder.finish().map_err(|e| e.to_string())?;
    game.play(&t).map_err(|e| e.to_string())?;
    movetext.push(Element::Turn(t.to_string()));
    *turn = TurnState::new(game.position());
    Ok(())
}

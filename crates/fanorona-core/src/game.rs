//! A game: a starting position, the turns played, and the outcome by every rule.

use core::fmt;

use crate::{Color, EndReason, IllegalReason, Outcome, Position, Turn, TurnError};

/// A game in progress or finished: its start, its turns and the positions they led to.
///
/// `Game` applies the rules that need history: the repetition draw and the no-capture limit,
/// on top of what a [`Position`] decides alone. It also records resignations and agreed draws.
///
/// # Examples
///
/// ```
/// use fanorona_core::{Game, Position};
///
/// let mut game = Game::new(Position::standard());
/// game.play_text("f2-e3A")?;
/// game.play_text("d5-d4A")?;
/// assert_eq!(game.turns().len(), 2);
/// game.undo();
/// assert_eq!(game.turns().len(), 1);
/// assert!(game.outcome().is_none());
/// # Ok::<(), fanorona_core::PlayError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Game {
    positions: Vec<Position>,
    turns: Vec<Turn>,
    decided: Option<Outcome>,
}

/// Why a turn could not be played in a position or a game.
///
/// # Examples
///
/// ```
/// use fanorona_core::{Color, Game, IllegalReason, PlayError, TurnError};
///
/// let mut game = Game::default();
/// let stale = game.play_text("f2-e3A")?;
/// match game.play(&stale) {
///     Err(PlayError::Illegal { turn, reason }) => {
///         assert_eq!(turn, stale);
///         assert_eq!(reason, IllegalReason::NoStone(turn.from()));
///     }
///     other => panic!("{other:?}"),
/// }
/// match game.play_text("f2-e3") {
///     Err(PlayError::Text(TurnError::Illegal { reason, .. })) => {
///         assert_eq!(reason.to_string(), "there is no stone on f2")
///     }
///     other => panic!("{other:?}"),
/// }
/// game.resign(Color::Black)?;
/// assert!(matches!(game.play_text("d5-d4A"), Err(PlayError::GameOver(_))));
/// # Ok::<(), PlayError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum PlayError {
    /// The game is already over.
    GameOver(Outcome),
    /// The turn is not legal in the current position.
    Illegal {
        /// The turn.
        turn: Turn,
        /// Why it is not legal.
        reason: IllegalReason,
    },
    /// The turn text does not name a legal turn.
    Text(TurnError),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver(o) => write!(f, "the game is over: {o}"),
            PlayError::Illegal { turn, reason } => write!(f, "illegal turn {turn}: {reason}"),
            PlayError::Text(e) => e.fmt(f),
        }
    }
}

/// [`source`](std::error::Error::source) is the [`TurnError`] of [`PlayError::Text`] (whose
/// message `Display` already includes); none for the other variants.
impl std::error::Error for PlayError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PlayError::Text(e) => Some(e),
            _ => None,
        }
    }
}

impl PlayError {
    /// Why the turn is not legal, whether it was given as a turn ([`PlayError::Illegal`]) or
    /// as text ([`PlayError::Text`] of [`TurnError::Illegal`]); `None` for a game that is over
    /// and for text that is no turn or an ambiguous one.
    ///
    /// ```
    /// use fanorona_core::{Game, IllegalReason};
    ///
    /// let mut game = Game::default();
    /// let e = game.play_text("a1-a2").unwrap_err();
    /// assert!(matches!(e.reason(), Some(IllegalReason::Occupied(p)) if p.to_string() == "a2"));
    /// assert_eq!(game.play_text("zz").unwrap_err().reason(), None);
    /// ```
    pub fn reason(&self) -> Option<IllegalReason> {
        match self {
            PlayError::Illegal { reason, .. }
            | PlayError::Text(TurnError::Illegal { reason, .. }) => Some(*reason),
            _ => None,
        }
    }
}

impl From<TurnError> for PlayError {
    fn from(e: TurnError) -> PlayError {
        PlayError::Text(e)
    }
}

impl Default for Game {
    fn default() -> Game {
        Game::new(Position::standard())
    }
}

impl Game {
    /// A game starting from `start`.
    pub fn new(start: Position) -> Game {
        Game {
            positions: vec![start],
            turns: Vec::new(),
            decided: None,
        }
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game always has its start")
    }

    /// The turns played so far.
    pub fn turns(&self) -> &[Turn] {
        &self.turns
    }

    /// The position after `ply` turns (0 is the start), if the game is that long.
    pub fn position_at(&self, ply: usize) -> Option<&Position> {
        self.positions.get(ply)
    }

    /// Every position of the game, the start first.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// Plays a legal turn.
    ///
    /// # Errors
    ///
    /// [`PlayError::GameOver`] when the game has ended, [`PlayError::Illegal`] when the turn
    /// is not legal in the current position.
    pub fn play(&mut self, turn: &Turn) -> Result<(), PlayError> {
        if let Some(o) = self.outcome() {
            return Err(PlayError::GameOver(o));
        }
        let next = self.position().play(turn)?;
        self.positions.push(next);
        self.turns.push(*turn);
        Ok(())
    }

    /// Plays a turn known to be legal in the current position, such as one from
    /// [`Position::legal_turns`] or [`Position::parse_turn`], without checking it again.
    ///
    /// Unlike [`Game::play`] this does not check that the game is still going on either: a
    /// record reader can replay a game past its end and report that separately. The turn must
    /// be legal; otherwise the history holds a position the rules could not reach.
    ///
    /// # Panics
    ///
    /// In builds with debug assertions, when the turn is not legal in the current position
    /// (see [`Position::play_unchecked`]).
    pub fn play_unchecked(&mut self, turn: &Turn) {
        self.positions.push(self.position().play_unchecked(turn));
        self.turns.push(*turn);
    }

    /// Reads turn text in the current position and plays it.
    ///
    /// # Errors
    ///
    /// [`PlayError::GameOver`] when the game has ended, [`PlayError::Text`] when the text does
    /// not name a legal turn.
    pub fn play_text(&mut self, text: &str) -> Result<Turn, PlayError> {
        if let Some(o) = self.outcome() {
            return Err(PlayError::GameOver(o));
        }
        let turn = self.position().parse_turn(text)?;
        self.positions.push(self.position().play_unchecked(&turn));
        self.turns.push(turn);
        Ok(turn)
    }

    /// Takes back the last turn (or a resignation or agreed draw) and returns the turn.
    pub fn undo(&mut self) -> Option<Turn> {
        if self.decided.take().is_some() {
            return None;
        }
        let turn = self.turns.pop()?;
        self.positions.pop();
        Some(turn)
    }

    /// How the players ended the game, when they did: a resignation or an agreed draw (not
    /// an end by the rules, which [`Game::outcome`] gives too).
    pub fn decided(&self) -> Option<Outcome> {
        self.decided
    }

    /// `color` resigns: the other side wins.
    ///
    /// # Errors
    ///
    /// [`PlayError::GameOver`] with the outcome when the game has already ended (by the
    /// rules, a resignation or an agreed draw); the game is unchanged.
    ///
    /// ```
    /// use fanorona_core::{Color, Game, PlayError};
    ///
    /// let mut game = Game::default();
    /// game.resign(Color::White)?;
    /// assert_eq!(game.outcome().unwrap().winner, Some(Color::Black));
    /// assert!(matches!(game.resign(Color::Black), Err(PlayError::GameOver(o)) if o.winner == Some(Color::Black)));
    /// # Ok::<(), PlayError>(())
    /// ```
    pub fn resign(&mut self, color: Color) -> Result<(), PlayError> {
        if let Some(o) = self.outcome() {
            return Err(PlayError::GameOver(o));
        }
        self.decided = Some(Outcome::win(color.other(), EndReason::Resignation));
        Ok(())
    }

    /// The players agree to a draw.
    ///
    /// # Errors
    ///
    /// [`PlayError::GameOver`] with the outcome when the game has already ended; the game is
    /// unchanged.
    pub fn agree_draw(&mut self) -> Result<(), PlayError> {
        if let Some(o) = self.outcome() {
            return Err(PlayError::GameOver(o));
        }
        self.decided = Some(Outcome::draw(EndReason::Agreement));
        Ok(())
    }

    /// How many times the current position (stones and side to move) has occurred in this
    /// game, the current occurrence included.
    pub fn repetitions(&self) -> usize {
        let now = self.position();
        // Captures cannot be undone, so only positions since the last capture can repeat.
        let window = now.no_capture_count() as usize + 1;
        self.positions
            .iter()
            .rev()
            .take(window)
            .filter(|p| p.same_placement(now))
            .count()
    }

    /// The result, once the game is over: by resignation or agreement, no stones, no legal
    /// turn, repetition or the no-capture limit, in that order.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.decided.is_some() {
            return self.decided;
        }
        let pos = self.position();
        if let Some(o) = pos.outcome() {
            return Some(o);
        }
        let rules = pos.rules();
        if let Some(n) = rules.repetition()
            && self.repetitions() >= n as usize
        {
            return Some(Outcome::draw(EndReason::Repetition));
        }
        if let Some(limit) = rules.no_capture_limit
            && rules.game.captures()
            && pos.no_capture_count() >= limit
        {
            return Some(Outcome::draw(EndReason::NoCaptureLimit));
        }
        None
    }
}

//! Game records: the FGN text format (Fanorona Game Notation, PGN-like), its streaming reader
//! and canonical writer, a validating replay by the rules, and the import of Boardspace.net
//! records. The format is specified in [`docs/notation.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/notation.md).
//!
//! - [`Reader`] reads games one at a time from any [`std::io::Read`], reporting tokens to a
//!   [`Visitor`] or building owned [`GameRecord`]s; syntax errors carry their location and the
//!   reader goes on with the next game.
//! - [`GameRecord::to_fgn`] and [`FgnWriter`] write canonical FGN.
//! - [`Validator`] replays a game by the rules and lists every [`Problem`].
//! - [`boardspace`] imports Boardspace.net's SGF-like records.
//!
//! With the `serde` feature, [`GameRecord`] has the JSON shape documented in [`docs/notation.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/notation.md).
//!
//! # Examples
//!
//! ```
//! use fanorona_core::record::{GameResult, Reader, Validator};
//!
//! let text = "[Event \"Club game\"]\n[Result \"*\"]\n\n1. f2-e3A {centre} 1... d5-d4A *\n";
//! let record = Reader::new(text.as_bytes()).read_record()?.expect("one game");
//! assert_eq!(record.tag("Event"), Some("Club game"));
//! assert_eq!(record.result, Some(GameResult::Unknown));
//! // Canonical text, the same as the input here.
//! assert_eq!(record.to_fgn()?, text.to_owned() + "\n");
//! // Replay by the rules.
//! let report = record.validate(1);
//! assert!(report.is_valid());
//! assert_eq!(report.turns, 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;
use core::str::FromStr;

pub mod boardspace;
mod convert;
pub mod limits;
mod reader;
mod validate;
mod writer;

pub use convert::ReplayError;
pub use limits::{
    LimitError, MAX_COMMENT, MAX_GAME_BYTES, MAX_MOVETEXT, MAX_TAG_NAME, MAX_TAG_VALUE, MAX_TAGS,
    MAX_TURN, MAX_TURN_NUMBER,
};
pub use reader::{
    Control, InFile, Location, ReadError, ReadErrorKind, Reader, Records, Visitor,
    check_turn_syntax,
};
pub use validate::{
    DateError, GameReport, Problem, ProblemKind, StartError, Validator, check_date, start_position,
};
pub use writer::{FgnWriter, WriteError};

/// The result token of a game: `1-0`, `0-1`, `1/2-1/2` or `*`.
///
/// # Examples
///
/// ```
/// use fanorona_core::record::GameResult;
/// use fanorona_core::{Color, Game};
///
/// let result: GameResult = "0-1".parse()?;
/// assert_eq!(result, GameResult::BlackWins);
/// assert_eq!(result.to_string(), "0-1");
/// assert!("2-0".parse::<GameResult>().is_err());
/// // A game's outcome gives its result token.
/// let mut game = Game::default();
/// game.resign(Color::White)?;
/// assert_eq!(GameResult::from(game.outcome().unwrap()), GameResult::BlackWins);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum GameResult {
    /// `1-0`: White won.
    #[cfg_attr(feature = "serde", serde(rename = "1-0"))]
    WhiteWins,
    /// `0-1`: Black won.
    #[cfg_attr(feature = "serde", serde(rename = "0-1"))]
    BlackWins,
    /// `1/2-1/2`: a draw.
    #[cfg_attr(feature = "serde", serde(rename = "1/2-1/2"))]
    Draw,
    /// `*`: unknown, unfinished or abandoned.
    #[cfg_attr(feature = "serde", serde(rename = "*"))]
    Unknown,
}

impl GameResult {
    /// The token: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// The result of a finished game's outcome.
    pub const fn from_outcome(outcome: &crate::Outcome) -> GameResult {
        match outcome.winner {
            Some(crate::Color::White) => GameResult::WhiteWins,
            Some(crate::Color::Black) => GameResult::BlackWins,
            None => GameResult::Draw,
        }
    }
}

/// The result token of an outcome (by value, like the crate's other conversions).
///
/// ```
/// use fanorona_core::record::GameResult;
/// use fanorona_core::{Color, EndReason, Outcome};
///
/// let won = Outcome::win(Color::Black, EndReason::Resignation);
/// assert_eq!(GameResult::from(won), GameResult::BlackWins);
/// ```
impl From<crate::Outcome> for GameResult {
    fn from(outcome: crate::Outcome) -> GameResult {
        GameResult::from_outcome(&outcome)
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A text that is not a result token.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct ResultError(pub String);

impl fmt::Display for ResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is not a result (1-0, 0-1, 1/2-1/2 or *)",
            crate::escape::quoted(&self.0)
        )
    }
}

impl std::error::Error for ResultError {}

impl FromStr for GameResult {
    type Err = ResultError;

    fn from_str(s: &str) -> Result<GameResult, ResultError> {
        match s {
            "1-0" => Ok(GameResult::WhiteWins),
            "0-1" => Ok(GameResult::BlackWins),
            "1/2-1/2" => Ok(GameResult::Draw),
            "*" => Ok(GameResult::Unknown),
            _ => Err(ResultError(s.to_owned())),
        }
    }
}

/// A tag pair `[Name "value"]`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Tag {
    /// The tag's name, such as `Event`.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "bounded::tag_name"))]
    pub name: String,
    /// The value, unescaped.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "bounded::tag_value"))]
    pub value: String,
}

/// One element of the movetext.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[non_exhaustive]
pub enum Element {
    /// A turn as written, such as `f2-e3A`.
    Turn(#[cfg_attr(feature = "serde", serde(deserialize_with = "bounded::turn"))] String),
    /// A comment's text, without the braces, kept as written.
    Comment(#[cfg_attr(feature = "serde", serde(deserialize_with = "bounded::comment"))] String),
    /// A numeric annotation glyph (`$1`).
    Nag(u8),
}

/// Where the parts of a record were read from (not part of the record's value: ignored by
/// equality and by serde).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
#[non_exhaustive]
pub struct Source {
    /// The game's number in its input, from 1.
    pub game: usize,
    /// Where the game starts.
    pub start: Location,
    /// Where each tag starts, parallel to [`GameRecord::tags`].
    pub tags: Vec<Location>,
    /// Where each movetext element starts, parallel to [`GameRecord::movetext`].
    pub movetext: Vec<Location>,
    /// Each turn number as written: the index of the movetext element it stands before, the
    /// number, whether it had three dots, and where it was.
    pub turn_numbers: Vec<(usize, u32, bool, Location)>,
    /// Where the result token was.
    pub result: Option<Location>,
    /// Where the game ends.
    pub end: Location,
}

/// A game record: ordered tags, movetext and the result token.
///
/// Equality compares tags, movetext and result; [`GameRecord::source`] (locations) is ignored.
///
/// With the `serde` feature, deserializing applies the limits of [`limits`] (too many tags or
/// elements, too long a text are errors, and nothing beyond a limit is stored) and refuses
/// unknown fields: nothing is dropped.
///
/// It may gain fields (it is `#[non_exhaustive]`): make one with [`GameRecord::default`],
/// [`GameRecord::from_game`] or a [`RecordBuilder`], and set fields.
///
/// # Examples
///
/// ```
/// use fanorona_core::record::{GameRecord, GameResult};
/// use fanorona_core::Game;
///
/// // A game to a record, tags added, written as FGN, read back, replayed.
/// let mut game = Game::default();
/// game.play_text("f2-e3A")?;
/// let mut record = GameRecord::from_game(&game);
/// record.set_tag("White", "Rakoto");
/// record.set_tag("Event", "Club night");
/// let text = record.to_fgn()?;
/// assert!(text.starts_with("[Event \"Club night\"]\n[White \"Rakoto\"]\n[Result \"*\"]\n"));
/// let back = fanorona_core::record::Reader::new(text.as_bytes())
///     .read_record()?
///     .expect("one game");
/// assert_eq!(back, record);
/// assert_eq!(back.result, Some(GameResult::Unknown));
/// assert_eq!(back.to_game()?, game);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
#[non_exhaustive]
pub struct GameRecord {
    /// The tags in the order they were written.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "bounded::tags"))]
    pub tags: Vec<Tag>,
    /// Turns, comments and NAGs in order.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "bounded::movetext"))]
    pub movetext: Vec<Element>,
    /// The result token; `None` when the movetext ended without one.
    pub result: Option<GameResult>,
    /// Where the record was read from, when it was read by a [`Reader`].
    #[cfg_attr(feature = "serde", serde(skip))]
    pub source: Option<Source>,
}

/// The usual tags of a record, in the order they are written first.
const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The place of a tag in [`ROSTER`], if it is one of them.
fn roster_rank(name: &str) -> Option<usize> {
    ROSTER.iter().position(|r| *r == name)
}

impl PartialEq for GameRecord {
    fn eq(&self, other: &GameRecord) -> bool {
        self.tags == other.tags && self.movetext == other.movetext && self.result == other.result
    }
}

impl Eq for GameRecord {}

impl GameRecord {
    /// A record of these tags, movetext and result (no [`Source`]).
    ///
    /// ```
    /// use fanorona_core::record::{Element, GameRecord, GameResult, Tag};
    ///
    /// let tags = vec![Tag { name: "Event".into(), value: "Club night".into() }];
    /// let record = GameRecord::new(tags, vec![Element::Turn("f2-e3A".into())], None);
    /// assert_eq!(record.tag("Event"), Some("Club night"));
    /// assert_eq!(record.turns().collect::<Vec<_>>(), ["f2-e3A"]);
    /// assert_eq!(record.result, None::<GameResult>);
    /// ```
    pub fn new(tags: Vec<Tag>, movetext: Vec<Element>, result: Option<GameResult>) -> GameRecord {
        GameRecord {
            tags,
            movetext,
            result,
            source: None,
        }
    }

    /// The value of the first tag called `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.value.as_str())
    }

    /// Sets the first tag called `name`, or adds it: a tag of the usual roster (`Event`,
    /// `Site`, `Date`, `Round`, `White`, `Black`, `Result`, in this order) goes in its place
    /// in the roster, before the tags that follow it there and before every other tag; any
    /// other tag goes at the end.
    ///
    /// ```
    /// use fanorona_core::record::GameRecord;
    /// use fanorona_core::Game;
    ///
    /// let mut record = GameRecord::from_game(&Game::default());
    /// record.set_tag("Annotator", "me");
    /// record.set_tag("Black", "Rakoto");
    /// record.set_tag("Event", "Club night");
    /// record.set_tag("White", "Rabe");
    /// let names: Vec<&str> = record.tags.iter().map(|t| t.name.as_str()).collect();
    /// assert_eq!(names, ["Event", "White", "Black", "Result", "Annotator"]);
    /// ```
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        if let Some(t) = self.tags.iter_mut().find(|t| t.name == name) {
            t.value = value;
            return;
        }
        let tag = Tag {
            name: name.to_owned(),
            value,
        };
        match roster_rank(name) {
            Some(rank) => {
                let at = self
                    .tags
                    .iter()
                    .position(|t| roster_rank(&t.name).is_none_or(|r| r > rank))
                    .unwrap_or(self.tags.len());
                self.tags.insert(at, tag);
            }
            None => self.tags.push(tag),
        }
    }

    /// The turns of the movetext, as written.
    pub fn turns(&self) -> impl Iterator<Item = &str> + '_ {
        self.movetext.iter().filter_map(|e| match e {
            Element::Turn(t) => Some(t.as_str()),
            _ => None,
        })
    }

    /// Reports this record to a visitor as a [`Reader`] would, with the locations of
    /// [`GameRecord::source`] when known (default locations otherwise) and the turn numbers
    /// that were written. `game` numbers the game when the record has no source.
    pub fn visit<V: Visitor>(&self, game: usize, v: &mut V) -> V::Output {
        let empty = Source::default();
        let src = self.source.as_ref().unwrap_or(&empty);
        let at = |list: &[Location], i: usize| list.get(i).copied().unwrap_or(src.start);
        v.begin_game(if src.game > 0 { src.game } else { game }, src.start);
        for (i, t) in self.tags.iter().enumerate() {
            v.tag(&t.name, &t.value, at(&src.tags, i));
        }
        if v.end_tags() == Control::Continue {
            let mut numbers = src.turn_numbers.iter().peekable();
            for (i, e) in self.movetext.iter().enumerate() {
                while let Some(&&(idx, n, black, loc)) = numbers.peek() {
                    if idx != i {
                        break;
                    }
                    v.turn_number(n, black, loc);
                    numbers.next();
                }
                let loc = at(&src.movetext, i);
                match e {
                    Element::Turn(t) => v.turn(t, loc),
                    Element::Comment(c) => v.comment(c, loc),
                    Element::Nag(n) => v.nag(*n, loc),
                }
            }
            for &(_, n, black, loc) in numbers {
                v.turn_number(n, black, loc);
            }
            if let Some(r) = self.result {
                v.result(r, src.result.unwrap_or(src.start));
            }
        }
        v.end_game(src.end)
    }

    /// Replays the record by the rules and lists its problems (see [`Validator`]).
    pub fn validate(&self, game: usize) -> GameReport {
        self.visit(game, &mut Validator::new())
    }

    /// Replays the record and returns the game as far as it is legal, with the first problem
    /// that stopped the replay, if any.
    pub fn replay(&self) -> (Option<crate::Game>, GameReport) {
        let mut v = Validator::new();
        let report = self.visit(1, &mut v);
        (v.take_game(), report)
    }
}

/// Deserialization within the limits of [`limits`].
#[cfg(feature = "serde")]
mod bounded {
    use core::fmt;
    use core::marker::PhantomData;

    use serde::de::{self, Deserialize, Deserializer, SeqAccess};

    use super::limits::{
        MAX_COMMENT, MAX_MOVETEXT, MAX_TAG_NAME, MAX_TAG_VALUE, MAX_TAGS, MAX_TURN,
    };
    use super::{Element, Tag};

    fn string<'de, D: Deserializer<'de>>(
        d: D,
        what: &str,
        limit: usize,
    ) -> Result<String, D::Error> {
        let s = String::deserialize(d)?;
        if s.len() > limit {
            return Err(de::Error::custom(format_args!(
                "{what} too long (more than {limit} bytes)"
            )));
        }
        Ok(s)
    }

    pub(super) fn tag_name<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
        string(d, "tag name", MAX_TAG_NAME)
    }

    pub(super) fn tag_value<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
        string(d, "tag value", MAX_TAG_VALUE)
    }

    pub(super) fn turn<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
        string(d, "turn", MAX_TURN)
    }

    pub(super) fn comment<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
        string(d, "comment", MAX_COMMENT)
    }

    /// A sequence of at most `limit` items.
    struct Bounded<T> {
        what: &'static str,
        limit: usize,
        item: PhantomData<T>,
    }

    impl<'de, T: Deserialize<'de>> de::Visitor<'de> for Bounded<T> {
        type Value = Vec<T>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "a list of at most {} {}", self.limit, self.what)
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            let mut items = Vec::new();
            while let Some(item) = seq.next_element()? {
                if items.len() == self.limit {
                    return Err(de::Error::custom(format_args!(
                        "too many {} in one game (more than {})",
                        self.what, self.limit
                    )));
                }
                items.push(item);
            }
            Ok(items)
        }
    }

    pub(super) fn tags<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Tag>, D::Error> {
        d.deserialize_seq(Bounded {
            what: "tags",
            limit: MAX_TAGS,
            item: PhantomData,
        })
    }

    pub(super) fn movetext<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Element>, D::Error> {
        d.deserialize_seq(Bounded {
            what: "movetext tokens",
            limit: MAX_MOVETEXT,
            item: PhantomData,
        })
    }
}

/// Builds owned [`GameRecord`]s from a [`Reader`]'s tokens.
#[derive(Default, Debug)]
pub struct RecordBuilder {
    record: GameRecord,
    source: Source,
}

impl Visitor for RecordBuilder {
    type Output = GameRecord;

    fn begin_game(&mut self, game: usize, at: Location) {
        self.record = GameRecord::default();
        self.source = Source {
            game,
            start: at,
            ..Source::default()
        };
    }

    fn tag(&mut self, name: &str, value: &str, at: Location) {
        self.record.tags.push(Tag {
            name: name.to_owned(),
            value: value.to_owned(),
        });
        self.source.tags.push(at);
    }

    fn turn_number(&mut self, number: u32, black: bool, at: Location) {
        self.source
            .turn_numbers
            .push((self.record.movetext.len(), number, black, at));
    }

    fn turn(&mut self, text: &str, at: Location) {
        self.record.movetext.push(Element::Turn(text.to_owned()));
        self.source.movetext.push(at);
    }

    fn nag(&mut self, nag: u8, at: Location) {
        self.record.movetext.push(Element::Nag(nag));
        self.source.movetext.push(at);
    }

    fn comment(&mut self, text: &str, at: Location) {
        self.record.movetext.push(Element::Comment(text.to_owned()));
        self.source.movetext.push(at);
    }

    fn result(&mut self, result: GameResult, at: Location) {
        self.record.result = Some(result);
        self.source.result = Some(at);
    }

    fn end_game(&mut self, end: Location) -> GameRecord {
        let mut record = core::mem::take(&mut self.record);
        let mut source = core::mem::take(&mut self.source);
        source.end = end;
        record.source = Some(source);
        record
    }
}

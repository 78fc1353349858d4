//! Between a [`Game`] and its [`GameRecord`]: the tags that give the start (board, position,
//! rules), the turns and the result, and back by a validating replay.

use core::fmt;

use super::{Element, GameRecord, GameResult, Problem, ProblemKind, Tag};
use crate::{BoardSize, Color, Game, Position, Rules};

impl GameRecord {
    /// The record of a game: its `Result` tag, the tags that give its start when it is not
    /// the standard one (`Board` for another board, `Rules` for other rules, `FEN` for another
    /// position), its turns and its result token (`*` while the game goes on).
    ///
    /// A resignation or an agreed draw is written as the result of a game the rules have not
    /// ended, which is what [`GameRecord::to_game`] reads back. The tags of the usual roster
    /// added afterwards with [`GameRecord::set_tag`] (`Event`, `White`, ...) go before
    /// `Result`, in the roster's order.
    ///
    /// # Examples
    ///
    /// ```
    /// use fanorona_core::record::{GameRecord, GameResult};
    /// use fanorona_core::{BoardSize, Color, Game, Position};
    ///
    /// let mut game = Game::new(Position::start(BoardSize::DIMY));
    /// game.play_text("b2-c3A")?;
    /// game.resign(Color::Black)?;
    /// let record = GameRecord::from_game(&game);
    /// assert_eq!(record.tag("Board"), Some("5x5"));
    /// assert_eq!(record.result, Some(GameResult::WhiteWins));
    /// assert_eq!(record.turns().collect::<Vec<_>>(), ["b2-c3A"]);
    /// assert_eq!(record.to_game()?, game);
    /// let mut record = record;
    /// record.set_tag("White", "Rabe");
    /// let names: Vec<&str> = record.tags.iter().map(|t| t.name.as_str()).collect();
    /// assert_eq!(names, ["White", "Result", "Board"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_game(game: &Game) -> GameRecord {
        let start = game.start();
        let result = game
            .outcome()
            .map_or(GameResult::Unknown, |o| GameResult::from_outcome(&o));
        let mut tags = vec![("Result", result.as_str().to_owned())];
        if start.size() != BoardSize::STANDARD {
            tags.push(("Board", start.size().to_string()));
        }
        let rules = start.rules();
        if rules != Rules::default() {
            tags.push(("Rules", rules.to_string()));
        }
        if Position::start_with(start.size(), rules).ok().as_ref() != Some(start) {
            tags.push(("FEN", start.to_fen()));
        }
        GameRecord {
            tags: tags
                .into_iter()
                .map(|(name, value)| Tag {
                    name: name.to_owned(),
                    value,
                })
                .collect(),
            movetext: game
                .turns()
                .iter()
                .map(|t| Element::Turn(t.to_string()))
                .collect(),
            result: Some(result),
            source: None,
        }
    }

    /// Replays the record by the rules into a [`Game`]. A decisive result or a draw that the
    /// rules do not explain is read as a resignation (of the loser) or an agreed draw.
    ///
    /// # Errors
    ///
    /// [`ReplayError`] with the first problem that keeps the record from being a game: a
    /// start tag that gives no position, a turn that does not parse, is illegal or ambiguous,
    /// or a result that contradicts the final position. Problems that leave the game intact
    /// (a malformed `Date`, a wrong turn number) are not errors here; see
    /// [`GameRecord::validate`] for all of them.
    ///
    /// # Examples
    ///
    /// ```
    /// use fanorona_core::record::{ProblemKind, Reader};
    ///
    /// let record = Reader::new(&b"1. f2-e3A d5-d4A 2. c3-b4 *"[..]).read_record()?.unwrap();
    /// let err = record.to_game().unwrap_err();
    /// assert_eq!(err.problem().kind, ProblemKind::Illegal);
    /// assert_eq!(err.game().map(|g| g.turns().len()), Some(2));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_game(&self) -> Result<Game, ReplayError> {
        let (game, report) = self.replay();
        let fatal = report.problems.iter().find(|p| {
            matches!(
                p.kind,
                ProblemKind::Syntax
                    | ProblemKind::Illegal
                    | ProblemKind::Ambiguous
                    | ProblemKind::Result
            ) || (p.kind == ProblemKind::Tag && game.is_none())
        });
        let Some(mut game) = game else {
            let problem = fatal
                .or(report.problems.first())
                .cloned()
                .unwrap_or_else(|| Problem {
                    kind: ProblemKind::Tag,
                    at: report.start,
                    turn: None,
                    text: String::new(),
                    message: "the tags give no starting position".to_owned(),
                    legal: Vec::new(),
                });
            return Err(ReplayError {
                problem: Box::new(problem),
                game: None,
            });
        };
        if let Some(problem) = fatal {
            return Err(ReplayError {
                problem: Box::new(problem.clone()),
                game: Some(Box::new(game)),
            });
        }
        // A game over by the rules keeps that end (the report says when the result token
        // disagrees); only a game still going ends by the token, so these cannot fail.
        let _ = match report.result {
            GameResult::WhiteWins => game.resign(Color::Black),
            GameResult::BlackWins => game.resign(Color::White),
            GameResult::Draw => game.agree_draw(),
            GameResult::Unknown => Ok(()),
        };
        Ok(game)
    }
}

/// Why a record is not a game ([`GameRecord::to_game`]): the first problem, and the game as
/// far as it could be replayed.
#[derive(Clone, Debug)]
pub struct ReplayError {
    problem: Box<Problem>,
    game: Option<Box<Game>>,
}

impl ReplayError {
    /// The problem that stopped the conversion.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// The game up to the problem, when the record gives a start position.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_deref()
    }

    /// The problem, owned.
    pub fn into_problem(self) -> Problem {
        *self.problem
    }
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.problem.at, self.problem)
    }
}

impl std::error::Error for ReplayError {}

/// With serde, a game is written as its start, the text of its turns and, for a game ended by
/// resignation or agreement, how it ended:
/// `{"start": {"fen": "...", "rules": {...}}, "turns": ["f2-e3A"], "end": null}`.
/// Reading it back replays every turn by the rules.
#[cfg(feature = "serde")]
#[derive(serde::Serialize)]
#[serde(rename = "Game")]
struct GameRepr {
    start: Position,
    turns: Vec<String>,
    end: Option<crate::Outcome>,
}

#[cfg(feature = "serde")]
impl serde::Serialize for Game {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        GameRepr {
            start: *self.start(),
            turns: self.turns().iter().map(ToString::to_string).collect(),
            end: self.decided(),
        }
        .serialize(s)
    }
}

/// Reading a game replays each turn as it is read, so that a turn the rules refuse is
/// reported where it stands (serde_json adds its line and column), as `turn N: why`. Turns
/// given before the start are replayed once the start is read.
#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Game {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Game, D::Error> {
        d.deserialize_struct("Game", GAME_FIELDS, GameVisitor)
    }
}

#[cfg(feature = "serde")]
const GAME_FIELDS: &[&str] = &["start", "turns", "end"];

/// The fields of a game's serde form.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(field_identifier, rename_all = "lowercase")]
enum GameField {
    Start,
    Turns,
    End,
}

#[cfg(feature = "serde")]
struct GameVisitor;

#[cfg(feature = "serde")]
impl<'de> serde::de::Visitor<'de> for GameVisitor {
    type Value = Game;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a game: its start, its turns and how it ended")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Game, A::Error> {
        use crate::EndReason;
        use serde::de::Error;
        let mut game: Option<Game> = None;
        let mut early: Option<Vec<String>> = None;
        let mut turns = false;
        let mut end: Option<Option<crate::Outcome>> = None;
        while let Some(field) = map.next_key::<GameField>()? {
            match field {
                GameField::Start => {
                    if game.is_some() {
                        return Err(A::Error::duplicate_field("start"));
                    }
                    game = Some(Game::new(map.next_value()?));
                }
                GameField::Turns => {
                    if turns {
                        return Err(A::Error::duplicate_field("turns"));
                    }
                    turns = true;
                    match game.as_mut() {
                        Some(game) => map.next_value_seed(TurnsSeed(game))?,
                        None => early = Some(map.next_value()?),
                    }
                }
                GameField::End => {
                    if end.is_some() {
                        return Err(A::Error::duplicate_field("end"));
                    }
                    end = Some(map.next_value()?);
                }
            }
        }
        let mut game = game.ok_or_else(|| A::Error::missing_field("start"))?;
        if !turns {
            return Err(A::Error::missing_field("turns"));
        }
        for (i, text) in early.iter().flatten().enumerate() {
            play_turn_text(&mut game, i, text)?;
        }
        if let Some(end) = end.flatten() {
            if game.outcome().is_some() {
                return Err(A::Error::custom(
                    "the game ends by the rules, not by \"end\"",
                ));
            }
            let ended = match (end.reason, end.winner) {
                (EndReason::Resignation, Some(winner)) => game.resign(winner.other()),
                (EndReason::Agreement, None) => game.agree_draw(),
                _ => {
                    return Err(A::Error::custom(
                        "\"end\" is a resignation with a winner or an agreed draw",
                    ));
                }
            };
            ended.map_err(A::Error::custom)?;
        }
        Ok(game)
    }
}

/// Plays the text of turn `i` (from 0) of a game being read.
#[cfg(feature = "serde")]
fn play_turn_text<E: serde::de::Error>(game: &mut Game, i: usize, text: &str) -> Result<(), E> {
    game.play_text(text)
        .map(drop)
        .map_err(|e| E::custom(format_args!("turn {}: {e}", i + 1)))
}

/// The turns of a game, each played as it is read.
#[cfg(feature = "serde")]
struct TurnsSeed<'a>(&'a mut Game);

#[cfg(feature = "serde")]
impl<'de> serde::de::DeserializeSeed<'de> for TurnsSeed<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::de::Visitor<'de> for TurnsSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of turns")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0;
        while seq
            .next_element_seed(TurnSeed {
                game: &mut *self.0,
                i,
            })?
            .is_some()
        {
            i += 1;
        }
        Ok(())
    }
}

/// One turn of a game, played as it is read: its error comes from inside the string's
/// deserialization, where a format knows the place.
#[cfg(feature = "serde")]
struct TurnSeed<'a> {
    game: &'a mut Game,
    i: usize,
}

#[cfg(feature = "serde")]
impl<'de> serde::de::DeserializeSeed<'de> for TurnSeed<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::de::Visitor<'de> for TurnSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the text of a turn")
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<(), E> {
        play_turn_text(self.game, self.i, text)
    }
}

//! The limits shared by every reader and writer of game records (section 4.6 of
//! [`docs/notation.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/notation.md)).
//!
//! A reader reports a located error past a limit and stores nothing beyond it, so memory stays
//! bounded whatever the input; a writer refuses a record that breaks a limit, so whatever one
//! part writes, the other reads. The same constants serve both sides.

/// The longest tag name, in bytes.
pub const MAX_TAG_NAME: usize = 255;
/// The longest tag value (unescaped), in bytes.
pub const MAX_TAG_VALUE: usize = 65_536;
/// The longest comment, in bytes.
pub const MAX_COMMENT: usize = 1 << 20;
/// The longest turn text, in bytes.
pub const MAX_TURN: usize = 512;
/// The largest turn number (the turn number of a position is a 16-bit counter).
pub const MAX_TURN_NUMBER: u32 = u16::MAX as u32;
/// The most tags in one game.
pub const MAX_TAGS: usize = 1024;
/// The most movetext tokens in one game: turns, comments, NAGs and turn numbers (in FGN) or
/// movetext elements (in JSON). The result token is not counted.
pub const MAX_MOVETEXT: usize = 1 << 18;
/// The most bytes of one game's text: in FGN from its first tag or token to its last one, in
/// JSON the game object (in an array) or the line (in JSON Lines).
pub const MAX_GAME_BYTES: usize = 1 << 24;
/// The longest Boardspace property name, in bytes: an unknown header property `XX[...]`
/// becomes the tag `BoardspaceXX`, which must fit in [`MAX_TAG_NAME`].
pub const MAX_PROPERTY_NAME: usize = MAX_TAG_NAME - "Boardspace".len();
/// The longest Boardspace property value, in bytes.
pub const MAX_PROPERTY_VALUE: usize = 1 << 16;
/// The most properties in one Boardspace game.
pub const MAX_PROPERTIES: usize = 1 << 16;

use core::fmt;

use super::{Element, GameRecord};

/// A record that breaks one of the limits above.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum LimitError {
    /// A text longer than its limit.
    TooLong {
        /// What: `tag name`, `tag value`, `turn`, `comment` or `game`.
        what: &'static str,
        /// The index of the tag or of the movetext element (0 for `game`).
        index: usize,
        /// The limit in bytes.
        limit: usize,
    },
    /// More tags or movetext tokens than the limit.
    TooMany {
        /// What: `tags` or `movetext tokens`.
        what: &'static str,
        /// The limit.
        limit: usize,
    },
    /// The movetext element `index`, a turn, would be numbered past [`MAX_TURN_NUMBER`].
    TurnNumber {
        /// The index of the turn in the movetext.
        index: usize,
    },
}

impl fmt::Display for LimitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LimitError::TooLong {
                what: "game",
                limit,
                ..
            } => write!(f, "the game's text is too long (more than {limit} bytes)"),
            LimitError::TooLong { what, index, limit } => {
                let place = if what.starts_with("tag") {
                    "tag"
                } else {
                    "movetext element"
                };
                write!(
                    f,
                    "{what} too long ({place} {}: more than {limit} bytes)",
                    index + 1
                )
            }
            LimitError::TooMany { what, limit } => {
                write!(f, "too many {what} in one game (more than {limit})")
            }
            LimitError::TurnNumber { index } => write!(
                f,
                "movetext element {}: the turn would be numbered past {MAX_TURN_NUMBER}, the largest turn number",
                index + 1
            ),
        }
    }
}

impl std::error::Error for LimitError {}

impl GameRecord {
    /// Checks the record against the limits every reader applies: the number of tags and of
    /// movetext elements, and the length of each tag name and value, turn and comment. (The FGN
    /// writer also checks the turn numbers it writes and the length of the whole text.)
    ///
    /// # Errors
    ///
    /// The first limit broken.
    ///
    /// # Examples
    ///
    /// ```
    /// use fanorona_core::record::{Element, GameRecord, LimitError, MAX_TURN};
    ///
    /// let mut record = GameRecord::default();
    /// record.movetext.push(Element::Turn("a1-a2".repeat(MAX_TURN)));
    /// assert!(matches!(record.check_limits(), Err(LimitError::TooLong { what: "turn", .. })));
    /// ```
    pub fn check_limits(&self) -> Result<(), LimitError> {
        if self.tags.len() > MAX_TAGS {
            return Err(LimitError::TooMany {
                what: "tags",
                limit: MAX_TAGS,
            });
        }
        if self.movetext.len() > MAX_MOVETEXT {
            return Err(LimitError::TooMany {
                what: "movetext tokens",
                limit: MAX_MOVETEXT,
            });
        }
        let long = |what, index, len: usize, limit| {
            if len > limit {
                Err(LimitError::TooLong { what, index, limit })
            } else {
                Ok(())
            }
        };
        for (i, t) in self.tags.iter().enumerate() {
            long("tag name", i, t.name.len(), MAX_TAG_NAME)?;
            long("tag value", i, t.value.len(), MAX_TAG_VALUE)?;
        }
        for (i, e) in self.movetext.iter().enumerate() {
            match e {
                Element::Turn(t) => long("turn", i, t.len(), MAX_TURN)?,
                Element::Comment(c) => long("comment", i, c.len(), MAX_COMMENT)?,
                Element::Nag(_) => {}
            }
        }
        Ok(())
    }
}

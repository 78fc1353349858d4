//! Compact keys of solver states: the stones, the side to move and, when the rules make them
//! matter, the counters.

use core::fmt;

use fanorona_core::{Bitboard, BoardSize, Color, Position, Rules, Setup};

/// Why a position cannot be made into a solver key.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum KeyError {
    /// The counters the rules need do not fit beside the stones of this board: the solver
    /// supports the no-capture limit and the opening restriction on boards of up to 48 points.
    CountersDoNotFit {
        /// The board.
        size: BoardSize,
    },
}

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyError::CountersDoNotFit { size } => write!(
                f,
                "the solver cannot track the no-capture count or the first turn on the {size} board \
                 (more than 48 points); turn those rule options off"
            ),
        }
    }
}

impl std::error::Error for KeyError {}

/// A solver state: `a` holds White's stones (and the counters from bit 48 up), `b` Black's
/// stones with the side to move in bit 63.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub(crate) struct Key {
    pub a: u64,
    pub b: u64,
}

const EXTRA_SHIFT: u32 = 48;
const FIRST_TURN: u64 = 1 << 15;
const COUNT_MASK: u64 = FIRST_TURN - 1;

/// How positions become keys under one set of rules and one board.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Keyer {
    pub size: BoardSize,
    pub rules: Rules,
    counters: bool,
}

impl Keyer {
    pub fn new(size: BoardSize, rules: Rules) -> Result<Keyer, KeyError> {
        let counters = rules.no_capture_limit().is_some() || rules.opening_restriction();
        if counters && size.len() > EXTRA_SHIFT as usize {
            return Err(KeyError::CountersDoNotFit { size });
        }
        Ok(Keyer {
            size,
            rules,
            counters,
        })
    }

    #[inline]
    pub fn key(&self, pos: &Position) -> Key {
        let mut a = pos.stones(Color::White).bits();
        let mut b = pos.stones(Color::Black).bits();
        if pos.side_to_move() == Color::Black {
            b |= 1 << 63;
        }
        if self.counters {
            let mut extra = 0u64;
            if let Some(limit) = self
                .rules
                .no_capture_limit()
                .map(core::num::NonZeroU16::get)
            {
                extra |= u64::from(pos.no_capture_count().min(limit)) & COUNT_MASK;
            }
            if self.rules.opening_restriction() && pos.turn_number() == 1 {
                extra |= FIRST_TURN;
            }
            a |= extra << EXTRA_SHIFT;
        }
        Key { a, b }
    }

    /// The position of a key (counters rebuilt from the key where they matter).
    #[inline]
    pub fn position(&self, key: Key) -> Position {
        let (white, extra) = if self.counters {
            (key.a & ((1 << EXTRA_SHIFT) - 1), key.a >> EXTRA_SHIFT)
        } else {
            (key.a, 0)
        };
        let setup = {
            let mut setup = Setup::empty(self.size);
            setup.white = Bitboard::from_bits(white);
            setup.black = Bitboard::from_bits(key.b & !(1 << 63));
            setup.side_to_move = if key.b >> 63 == 1 {
                Color::Black
            } else {
                Color::White
            };
            setup.no_capture_count = (extra & COUNT_MASK) as u16;
            setup.turn_number = if extra & FIRST_TURN != 0 { 1 } else { 2 };
            setup
        };
        Position::from_setup(setup, self.rules).expect("keys come from valid positions")
    }
}

impl Keyer {
    /// The position of a key read from outside (a checkpoint), or `None` when no position of
    /// this board and these rules has that key: stones off the board or on one point twice,
    /// counter bits the rules do not use or out of range, or a position the core refuses.
    pub fn checked_position(&self, key: Key) -> Option<Position> {
        let n = self.size.len() as u32;
        let board = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
        let white = if self.counters {
            key.a & ((1 << EXTRA_SHIFT) - 1)
        } else {
            key.a
        };
        let black = key.b & !(1 << 63);
        if white & !board != 0 || black & !board != 0 || white & black != 0 {
            return None;
        }
        let extra = if self.counters {
            key.a >> EXTRA_SHIFT
        } else {
            0
        };
        if extra & !(COUNT_MASK | FIRST_TURN) != 0 {
            return None;
        }
        let count = extra & COUNT_MASK;
        match self.rules.no_capture_limit() {
            Some(limit) if count <= u64::from(limit.get()) => {}
            None if count == 0 => {}
            _ => return None,
        }
        if extra & FIRST_TURN != 0 && !self.rules.opening_restriction() {
            return None;
        }
        let mut setup = Setup::empty(self.size);
        setup.white = Bitboard::from_bits(white);
        setup.black = Bitboard::from_bits(black);
        setup.side_to_move = if key.b >> 63 == 1 {
            Color::Black
        } else {
            Color::White
        };
        setup.no_capture_count = count as u16;
        setup.turn_number = if extra & FIRST_TURN != 0 { 1 } else { 2 };
        let pos = Position::from_setup(setup, self.rules).ok()?;
        (self.key(&pos) == key).then_some(pos)
    }
}

/// A well-mixed 64-bit hash of a key.
#[inline]
pub(crate) fn mix(key: Key) -> u64 {
    let mut h = key.a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ key.b.rotate_left(31);
    h = (h ^ (h >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^ (h >> 32)
}

/// The hasher of the solver's tables of keys: a fixed function (no random seed), so that a
/// table's iteration order, and with it every search that iterates one (df-pn cutting its
/// table back, for instance), is the same from run to run.
#[derive(Clone, Copy, Default)]
pub(crate) struct KeyHasher(u64);

impl core::hash::Hasher for KeyHasher {
    #[inline]
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h = (h ^ (h >> 33)).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        h = (h ^ (h >> 33)).wrapping_mul(0xC4CE_B9FE_1A85_EC53);
        h ^ (h >> 33)
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    #[inline]
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0 ^ v)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
    }
}

/// A hash map from keys with the fixed [`KeyHasher`]: deterministic iteration order.
pub(crate) type KeyMap<V> =
    std::collections::HashMap<Key, V, core::hash::BuildHasherDefault<KeyHasher>>;
/// A hash set of keys with the fixed [`KeyHasher`].
pub(crate) type KeySet = std::collections::HashSet<Key, core::hash::BuildHasherDefault<KeyHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_with_counters() {
        let mut rules = Rules::STANDARD;
        rules = rules.with_opening_restriction(true);
        let keyer = Keyer::new(BoardSize::DIMY, rules).unwrap();
        let pos = Position::start_with(BoardSize::DIMY, rules).unwrap();
        let key = keyer.key(&pos);
        let back = keyer.position(key);
        assert_eq!(back.to_fen(), pos.to_fen());
        assert!(back.is_opening_restricted());
        let turn = pos.legal_turns()[0];
        let next = pos.play_unchecked(&turn);
        assert_eq!(
            keyer.key(&keyer.position(keyer.key(&next))),
            keyer.key(&next)
        );
        assert!(Keyer::new(BoardSize::new(7, 9).unwrap(), rules).is_err());
    }

    #[test]
    fn keys_from_outside_are_checked() {
        let limited = Rules::STANDARD.with_opening_restriction(true);
        for rules in [Rules::STANDARD.with_no_capture_limit(None), limited] {
            let keyer = Keyer::new(BoardSize::DIMY, rules).unwrap();
            let pos = Position::start_with(BoardSize::DIMY, rules).unwrap();
            let key = keyer.key(&pos);
            assert_eq!(
                keyer.checked_position(key).map(|p| keyer.key(&p)),
                Some(key)
            );
            let bad = [
                // A stone off the 5x5 board, two stones on one point, every bit set.
                Key {
                    a: key.a | 1 << 30,
                    b: key.b,
                },
                Key {
                    a: key.a | 1,
                    b: key.b | 1,
                },
                Key {
                    a: u64::MAX,
                    b: u64::MAX,
                },
            ];
            for k in bad {
                assert!(keyer.checked_position(k).is_none(), "{k:?}");
            }
        }
        // Counter bits under rules that keep none.
        let plain =
            Keyer::new(BoardSize::DIMY, Rules::STANDARD.with_no_capture_limit(None)).unwrap();
        let pos = Position::start_with(BoardSize::DIMY, Rules::STANDARD).unwrap();
        let key = plain.key(&pos);
        assert!(
            plain
                .checked_position(Key {
                    a: key.a | 1 << 48,
                    b: key.b
                })
                .is_none()
        );
        // A no-capture count above the limit.
        let counted = Keyer::new(BoardSize::DIMY, Rules::STANDARD).unwrap();
        let key = counted.key(&pos);
        assert!(
            counted
                .checked_position(Key {
                    a: key.a | 500 << 48,
                    b: key.b
                })
                .is_none()
        );
        assert!(
            counted
                .checked_position(Key {
                    a: key.a | 5 << 48,
                    b: key.b
                })
                .is_some()
        );
    }
}

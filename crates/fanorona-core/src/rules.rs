//! Rule options: the variations of Fanorona that players and programs use.

use core::fmt;
use core::num::{NonZeroU8, NonZeroU16};
use core::str::FromStr;

/// What happens to a player who has stones but no legal turn.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[non_exhaustive]
pub enum StuckRule {
    /// The stuck player loses (the default).
    #[default]
    Loses,
    /// The game is drawn.
    Draws,
}

/// Which game is played on the board: the capture game (Fanorona proper), Vela (the capture
/// game with the handicap phase played after a win) or the traditional alignment game of
/// Fanoron-Telo. [`docs/rules.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/rules.md) states the rules of each.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[non_exhaustive]
pub enum GameKind {
    /// The capture game: paika, approach, withdrawal, chains (the default, every board).
    #[default]
    Capture,
    /// Vela, the handicap game: while White (the previous winner, who opens) has more than
    /// five stones, White only makes paika moves and each Black capture is one step that takes
    /// one stone; then the capture game. That is Montgomery's account, the default; the rule
    /// option `vela=bell` ([`VelaRule::Bell`]) plays Bell's.
    Vela,
    /// Fanoron-Telo, the alignment game on the 3x3 board: three stones each, placed in turn,
    /// then moved one step along the lines; three in a line wins.
    Telo,
}

impl GameKind {
    /// The stable name used in the `game` rule option: `capture`, `vela` or `telo`.
    ///
    /// ```
    /// use fanorona_core::GameKind;
    ///
    /// assert_eq!(GameKind::Vela.name(), "vela");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Capture => "capture",
            GameKind::Vela => "vela",
            GameKind::Telo => "telo",
        }
    }

    /// Whether stones are captured in this game (the capture game and Vela); Fanoron-Telo
    /// captures nothing.
    pub const fn captures(self) -> bool {
        !matches!(self, GameKind::Telo)
    }
}

/// Which account of Vela is played under `game=vela` (the `vela` rule option): who opens and
/// what the side receiving the handicap must do. [`docs/rules.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/rules.md#vela)
/// states both.
///
/// ```
/// use fanorona_core::{Color, Rules, VelaRule};
///
/// let rules: Rules = "game=vela,vela=bell".parse()?;
/// assert_eq!(rules.vela(), VelaRule::Bell);
/// assert_eq!(VelaRule::Bell.giver(), Color::Black);
/// assert_eq!(VelaRule::Montgomery.giver(), Color::White);
/// # Ok::<(), fanorona_core::RulesError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[non_exhaustive]
pub enum VelaRule {
    /// Montgomery (1886): the previous winner opens (and so plays White), makes only paika
    /// moves that surrender a stone when it can; the other side takes one stone per turn and
    /// makes a paika when it has no capture (the default).
    #[default]
    Montgomery,
    /// Bell (1979): the side receiving the handicap opens (and so plays White) and must take
    /// exactly one stone every turn, losing when it has no capture; the previous winner
    /// (Black) makes only paika moves that leave it a capture.
    Bell,
}

impl VelaRule {
    /// The stable name used in the `vela` rule option: `montgomery` or `bell`.
    ///
    /// ```
    /// use fanorona_core::VelaRule;
    ///
    /// assert_eq!(VelaRule::Bell.name(), "bell");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            VelaRule::Montgomery => "montgomery",
            VelaRule::Bell => "bell",
        }
    }

    /// The side that gives the handicap (the previous winner), which never captures while it
    /// has more than five stones: White under Montgomery (the winner opens), Black under Bell
    /// (the other side opens).
    pub const fn giver(self) -> crate::Color {
        match self {
            VelaRule::Montgomery => crate::Color::White,
            VelaRule::Bell => crate::Color::Black,
        }
    }
}

/// The rule options of a game. [`Rules::default()`] is the standard game.
///
/// Every `Rules` value is valid: the options are read through [`Rules::set`], the text form
/// ([`FromStr`]), the checked builders (`with_...`) or serde, which all apply the same checks,
/// so [`Display`](fmt::Display) always writes text that parses back to the same rules.
///
/// Each option has a stable name, used in files (the `Rules` tag of game records) and in
/// command-line flags. The text form lists `name=value` pairs separated by commas; options not
/// named keep their default:
///
/// | name | values | default | meaning |
/// |---|---|---|---|
/// | `opening-restriction` | `on`, `off` | `off` | each player's first turn is a single capture step |
/// | `compulsory-continuation` | `on`, `off` | `off` | a stone that can continue capturing must |
/// | `stuck` | `loses`, `draws` | `loses` | a player with stones but no legal turn |
/// | `repetition` | `2`..`255`, `off` | `3` | draw on this occurrence of a position |
/// | `no-capture-limit` | `1`..`65535`, `off` | `100` | draw after this many turns in a row without a capture |
/// | `game` | `capture`, `vela`, `telo` | `capture` | the game: `vela` the handicap game, `telo` Fanoron-Telo's alignment game (3x3 only) |
/// | `vela` | `montgomery`, `bell` | `montgomery` | whose account of Vela `game=vela` follows ([`VelaRule`]) |
///
/// # Examples
///
/// ```
/// use fanorona_core::{Rules, StuckRule};
///
/// let rules: Rules = "stuck=draws,no-capture-limit=off".parse()?;
/// assert_eq!(rules.stuck(), StuckRule::Draws);
/// assert_eq!(rules.no_capture_limit(), None);
/// assert_eq!(rules.repetition(), Some(3));
/// assert_eq!(rules.to_string(), "stuck=draws,no-capture-limit=off");
/// assert_eq!(Rules::default().to_string(), "");
/// # Ok::<(), fanorona_core::RulesError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "RulesRepr", into = "RulesRepr"))]
pub struct Rules {
    /// On each player's first turn of the game, only one capture step is allowed.
    pub(crate) opening_restriction: bool,
    /// A stone that can continue a capture chain must continue.
    pub(crate) compulsory_continuation: bool,
    /// Whether a player with no legal turn loses or draws.
    pub(crate) stuck: StuckRule,
    /// Draw when a position (with the same side to move) occurs this many times; `None` turns
    /// the rule off.
    pub(crate) repetition: Option<NonZeroU8>,
    /// Draw after this many consecutive turns (of either side) without a capture; `None` turns
    /// the rule off.
    pub(crate) no_capture_limit: Option<u16>,
    /// The game: the capture game, Vela or Fanoron-Telo's alignment game.
    pub(crate) game: GameKind,
    /// Whose account of Vela is played under `game=vela`.
    pub(crate) vela: VelaRule,
}

impl Rules {
    /// The standard game.
    pub const STANDARD: Rules = Rules {
        opening_restriction: false,
        compulsory_continuation: false,
        stuck: StuckRule::Loses,
        repetition: NonZeroU8::new(3),
        no_capture_limit: Some(100),
        game: GameKind::Capture,
        vela: VelaRule::Montgomery,
    };

    /// Vela, the handicap game, under the standard options otherwise (`game=vela`).
    pub const VELA: Rules = Rules {
        game: GameKind::Vela,
        ..Rules::STANDARD
    };

    /// Fanoron-Telo, the traditional alignment game on the 3x3 board: the standard options
    /// with `game=telo` (the no-capture limit never applies: nothing is ever captured).
    pub const TELO: Rules = Rules {
        game: GameKind::Telo,
        ..Rules::STANDARD
    };

    /// Whether the Vela restriction is in force when the side giving the handicap (the
    /// previous winner: White under Montgomery, Black under Bell, see [`VelaRule::giver`]) has
    /// `giver_stones` stones: the game is Vela and that side has more than five stones.
    ///
    /// ```
    /// use fanorona_core::Rules;
    ///
    /// assert!(Rules::VELA.vela_phase(22) && Rules::VELA.vela_phase(6));
    /// assert!(!Rules::VELA.vela_phase(5) && !Rules::STANDARD.vela_phase(22));
    /// ```
    #[inline]
    pub const fn vela_phase(&self, giver_stones: u32) -> bool {
        matches!(self.game, GameKind::Vela) && giver_stones > 5
    }

    /// The stable names of all options, in the order they are written.
    pub const NAMES: [&'static str; 7] = [
        "opening-restriction",
        "compulsory-continuation",
        "stuck",
        "repetition",
        "no-capture-limit",
        "game",
        "vela",
    ];

    /// Whether each player's first turn is a single capture step.
    #[inline]
    pub const fn opening_restriction(&self) -> bool {
        self.opening_restriction
    }

    /// Whether a stone that can continue a capture chain must continue.
    #[inline]
    pub const fn compulsory_continuation(&self) -> bool {
        self.compulsory_continuation
    }

    /// Whether a player with no legal turn loses or draws.
    #[inline]
    pub const fn stuck(&self) -> StuckRule {
        self.stuck
    }

    /// The occurrence of a position (same stones, same side to move) that draws, 2 or more;
    /// `None` when the rule is off.
    #[inline]
    pub const fn repetition(&self) -> Option<u8> {
        // Stored as `NonZeroU8` (a count is at least 2) to keep `Rules`, and so `Position`, small.
        match self.repetition {
            Some(n) => Some(n.get()),
            None => None,
        }
    }

    /// The number of consecutive turns without a capture that draws, 1 or more (by its type,
    /// the same as [`Rules::with_no_capture_limit`] takes); `None` when the rule is off.
    ///
    /// ```
    /// use core::num::NonZeroU16;
    /// use fanorona_core::Rules;
    ///
    /// assert_eq!(Rules::STANDARD.no_capture_limit(), NonZeroU16::new(100));
    /// let limit = Rules::STANDARD.no_capture_limit().map_or(0, NonZeroU16::get);
    /// assert_eq!(limit, 100);
    /// ```
    #[inline]
    pub const fn no_capture_limit(&self) -> Option<NonZeroU16> {
        match self.no_capture_limit {
            Some(n) => NonZeroU16::new(n),
            None => None,
        }
    }

    /// The game played: the capture game, Vela or Fanoron-Telo.
    #[inline]
    pub const fn game(&self) -> GameKind {
        self.game
    }

    /// These rules with the opening restriction on or off.
    #[must_use]
    pub const fn with_opening_restriction(mut self, on: bool) -> Rules {
        self.opening_restriction = on;
        self
    }

    /// These rules with compulsory continuation on or off.
    #[must_use]
    pub const fn with_compulsory_continuation(mut self, on: bool) -> Rules {
        self.compulsory_continuation = on;
        self
    }

    /// These rules with another rule for a player with no legal turn.
    #[must_use]
    pub const fn with_stuck(mut self, stuck: StuckRule) -> Rules {
        self.stuck = stuck;
        self
    }

    /// These rules for another game.
    #[must_use]
    pub const fn with_game(mut self, game: GameKind) -> Rules {
        self.game = game;
        self
    }

    /// Whose account of Vela is played under `game=vela` (Montgomery by default); the option
    /// changes nothing in the other games.
    #[inline]
    pub const fn vela(&self) -> VelaRule {
        self.vela
    }

    /// These rules with another account of Vela (it applies under `game=vela`).
    ///
    /// ```
    /// use fanorona_core::{Rules, VelaRule};
    ///
    /// let bell = Rules::VELA.with_vela(VelaRule::Bell);
    /// assert_eq!(bell.to_string(), "game=vela,vela=bell");
    /// assert_eq!(bell.to_string().parse(), Ok(bell));
    /// ```
    #[must_use]
    pub const fn with_vela(mut self, vela: VelaRule) -> Rules {
        self.vela = vela;
        self
    }

    /// These rules with the no-capture limit set (a count of at least 1, by its type) or off.
    ///
    /// ```
    /// use core::num::NonZeroU16;
    /// use fanorona_core::Rules;
    ///
    /// let rules = Rules::STANDARD.with_no_capture_limit(NonZeroU16::new(50));
    /// assert_eq!(rules.no_capture_limit(), NonZeroU16::new(50));
    /// assert_eq!(rules.to_string(), "no-capture-limit=50");
    /// ```
    #[must_use]
    pub const fn with_no_capture_limit(mut self, limit: Option<NonZeroU16>) -> Rules {
        self.no_capture_limit = match limit {
            Some(n) => Some(n.get()),
            None => None,
        };
        self
    }

    /// These rules with the repetition draw on the `n`th occurrence of a position, or off.
    ///
    /// # Errors
    ///
    /// [`RulesError`] when `n` is 0 or 1 (a position always occurs once).
    ///
    /// ```
    /// use fanorona_core::Rules;
    ///
    /// assert_eq!(Rules::STANDARD.with_repetition(Some(2))?.repetition(), Some(2));
    /// assert!(Rules::STANDARD.with_repetition(Some(1)).is_err());
    /// assert_eq!(Rules::STANDARD.with_repetition(None)?.to_string(), "repetition=off");
    /// # Ok::<(), fanorona_core::RulesError>(())
    /// ```
    pub fn with_repetition(mut self, n: Option<u8>) -> Result<Rules, RulesError> {
        match n {
            Some(k) if k < 2 => Err(RulesError {
                option: "repetition".to_owned(),
                value: k.to_string(),
                repeated: false,
            }),
            _ => {
                self.repetition = n.and_then(NonZeroU8::new);
                Ok(self)
            }
        }
    }

    /// The canonical form: every option, default or not, for files that must be explicit
    /// (`game` only when it is not the capture game).
    pub fn to_full_string(&self) -> String {
        self.pairs(true).join(",")
    }

    fn pairs(&self, all: bool) -> Vec<String> {
        let d = Rules::STANDARD;
        let on = |b: bool| if b { "on" } else { "off" };
        let num = |n: Option<u32>| n.map_or_else(|| "off".to_owned(), |n| n.to_string());
        let mut out = Vec::new();
        if all || self.opening_restriction != d.opening_restriction {
            out.push(format!(
                "opening-restriction={}",
                on(self.opening_restriction)
            ));
        }
        if all || self.compulsory_continuation != d.compulsory_continuation {
            out.push(format!(
                "compulsory-continuation={}",
                on(self.compulsory_continuation)
            ));
        }
        if all || self.stuck != d.stuck {
            let v = match self.stuck {
                StuckRule::Loses => "loses",
                StuckRule::Draws => "draws",
            };
            out.push(format!("stuck={v}"));
        }
        if all || self.repetition != d.repetition {
            out.push(format!(
                "repetition={}",
                num(self.repetition.map(|n| u32::from(n.get())))
            ));
        }
        if all || self.no_capture_limit != d.no_capture_limit {
            out.push(format!(
                "no-capture-limit={}",
                num(self.no_capture_limit.map(u32::from))
            ));
        }
        // `game` is written only for another game than the capture game, even in the full
        // form: files written before the option existed keep their canonical text.
        if self.game != d.game {
            out.push(format!("game={}", self.game.name()));
        }
        // Likewise `vela`, written only for another account than Montgomery's.
        if self.vela != d.vela {
            out.push(format!("vela={}", self.vela.name()));
        }
        out
    }

    /// Sets one option from its stable name and a value, as in `stuck` and `draws`.
    ///
    /// # Errors
    ///
    /// [`RulesError`] for an unknown name or a value the option does not take.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), RulesError> {
        let err = || RulesError {
            option: name.to_owned(),
            value: value.to_owned(),
            repeated: false,
        };
        let flag = |v: &str| match v {
            "on" | "yes" | "true" => Ok(true),
            "off" | "no" | "false" => Ok(false),
            _ => Err(err()),
        };
        match name {
            "opening-restriction" => self.opening_restriction = flag(value)?,
            "compulsory-continuation" => self.compulsory_continuation = flag(value)?,
            "stuck" => {
                self.stuck = match value {
                    "loses" | "lose" | "loss" => StuckRule::Loses,
                    "draws" | "draw" => StuckRule::Draws,
                    _ => return Err(err()),
                }
            }
            "repetition" => {
                self.repetition = match value {
                    "off" => None,
                    v => match v.parse::<u8>() {
                        Ok(n) if n >= 2 => NonZeroU8::new(n),
                        _ => return Err(err()),
                    },
                }
            }
            "no-capture-limit" => {
                self.no_capture_limit = match value {
                    "off" => None,
                    v => match v.parse::<u16>() {
                        Ok(n) if n >= 1 => Some(n),
                        _ => return Err(err()),
                    },
                }
            }
            "game" => {
                self.game = match value {
                    "capture" => GameKind::Capture,
                    "vela" => GameKind::Vela,
                    "telo" => GameKind::Telo,
                    _ => return Err(err()),
                }
            }
            "vela" => {
                self.vela = match value {
                    "montgomery" => VelaRule::Montgomery,
                    "bell" => VelaRule::Bell,
                    _ => return Err(err()),
                }
            }
            _ => return Err(err()),
        }
        Ok(())
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::STANDARD
    }
}

impl fmt::Display for Rules {
    /// The options that differ from the standard game, as `name=value` pairs joined by commas
    /// (empty for the standard game).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.pairs(false).join(","))
    }
}

impl FromStr for Rules {
    type Err = RulesError;

    /// Reads `name=value` pairs separated by commas (or spaces), starting from the standard
    /// game. A bare name means `on`; the word `standard` or an empty text is the standard game.
    fn from_str(s: &str) -> Result<Rules, RulesError> {
        let mut rules = Rules::STANDARD;
        // The options already given: one given twice is an error, not "the last one wins".
        let mut seen = [false; Rules::NAMES.len()];
        for item in s.split([',', ' ']).map(str::trim).filter(|i| !i.is_empty()) {
            if item == "standard" {
                continue;
            }
            let (name, value) = item.split_once('=').unwrap_or((item, "on"));
            let (name, value) = (name.trim(), value.trim());
            rules.set(name, value)?;
            if let Some(i) = Rules::NAMES.iter().position(|n| *n == name) {
                if seen[i] {
                    return Err(RulesError {
                        option: name.to_owned(),
                        value: value.to_owned(),
                        repeated: true,
                    });
                }
                seen[i] = true;
            }
        }
        Ok(rules)
    }
}

/// A rule option that does not exist, a value it does not take, or (in the text form) an
/// option given twice.
///
/// ```
/// use fanorona_core::Rules;
///
/// let e = "stuck=draws,stuck=loses".parse::<Rules>().unwrap_err();
/// assert!(e.repeated);
/// assert_eq!(e.to_string(), "rule option stuck is given twice");
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct RulesError {
    /// The option's name as written.
    pub option: String,
    /// The value as written.
    pub value: String,
    /// The option was given a second time (its value may be valid): the text form names each
    /// option at most once.
    pub repeated: bool,
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.repeated {
            return write!(f, "rule option {} is given twice", self.option);
        }
        match self.option.as_str() {
            "game" => write!(
                f,
                "rule option game takes capture, vela or telo, not {}",
                crate::escape::quoted(&self.value)
            ),
            "vela" => write!(
                f,
                "rule option vela takes montgomery or bell, not {}",
                crate::escape::quoted(&self.value)
            ),
            "opening-restriction" | "compulsory-continuation" => write!(
                f,
                "rule option {} takes on or off, not {}",
                self.option,
                crate::escape::quoted(&self.value)
            ),
            "stuck" => write!(
                f,
                "rule option stuck takes loses or draws, not {}",
                crate::escape::quoted(&self.value)
            ),
            "repetition" => write!(
                f,
                "rule option repetition takes a count from 2 to 255 or off, not {}",
                crate::escape::quoted(&self.value)
            ),
            "no-capture-limit" => write!(
                f,
                "rule option no-capture-limit takes a count from 1 to 65535 or off, not {}",
                crate::escape::quoted(&self.value)
            ),
            _ => write!(
                f,
                "unknown rule option {} (known: {})",
                crate::escape::quoted(&self.option),
                Rules::NAMES.join(", ")
            ),
        }
    }
}

impl std::error::Error for RulesError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_option_given_twice_is_an_error() {
        for text in [
            "stuck=draws,stuck=loses",
            "stuck=draws,stuck=draws",
            "repetition=3 repetition=off",
            "opening-restriction,opening-restriction=off",
        ] {
            let e = text.parse::<Rules>().expect_err(text);
            assert!(e.repeated, "{text}");
            assert!(e.to_string().ends_with("is given twice"), "{e}");
        }
        // "standard" is not an option and may be repeated; distinct options are fine.
        assert_eq!("standard,standard".parse::<Rules>(), Ok(Rules::STANDARD));
        let r: Rules = "stuck=draws,repetition=off".parse().expect("valid");
        assert_eq!((r.stuck, r.repetition), (StuckRule::Draws, None));
        // A bad value is reported as such, not as a repetition.
        let e = "stuck=draws,stuck=maybe".parse::<Rules>().expect_err("bad");
        assert!(!e.repeated);
    }
}

/// The serde form of [`Rules`]: every option by its stable name, all optional (a missing
/// option keeps its standard value), read through the same checks as the text form.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(
    rename = "Rules",
    expecting = "rules: an object of rule options by name",
    default,
    rename_all = "kebab-case",
    deny_unknown_fields
)]
struct RulesRepr {
    opening_restriction: bool,
    compulsory_continuation: bool,
    stuck: StuckRule,
    repetition: Option<u8>,
    no_capture_limit: Option<u16>,
    game: GameKind,
    vela: VelaRule,
}

#[cfg(feature = "serde")]
impl Default for RulesRepr {
    fn default() -> RulesRepr {
        RulesRepr::from(Rules::STANDARD)
    }
}

#[cfg(feature = "serde")]
impl From<Rules> for RulesRepr {
    fn from(r: Rules) -> RulesRepr {
        RulesRepr {
            opening_restriction: r.opening_restriction,
            compulsory_continuation: r.compulsory_continuation,
            stuck: r.stuck,
            repetition: r.repetition(),
            no_capture_limit: r.no_capture_limit,
            game: r.game,
            vela: r.vela,
        }
    }
}

#[cfg(feature = "serde")]
impl TryFrom<RulesRepr> for Rules {
    type Error = RulesError;

    fn try_from(r: RulesRepr) -> Result<Rules, RulesError> {
        let limit = match r.no_capture_limit {
            None => None,
            Some(n) => Some(NonZeroU16::new(n).ok_or_else(|| RulesError {
                option: "no-capture-limit".to_owned(),
                value: "0".to_owned(),
                repeated: false,
            })?),
        };
        Rules::STANDARD
            .with_opening_restriction(r.opening_restriction)
            .with_compulsory_continuation(r.compulsory_continuation)
            .with_stuck(r.stuck)
            .with_game(r.game)
            .with_vela(r.vela)
            .with_no_capture_limit(limit)
            .with_repetition(r.repetition)
    }
}

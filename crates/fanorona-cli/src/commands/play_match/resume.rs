//! `fanorona match --resume`: the match's settings as tags of every game written, and the
//! games of an earlier run read back from the games file, checked against this run's
//! settings (docs/engine.md, "Resuming a match").

use std::path::Path;
use std::time::Duration;

use anyhow::{Result, bail};
use fanorona_ai::Limits;
use fanorona_ai::matches::{
    FaultKind, MatchConfig, MatchGame, Shard, Termination, TimeControl, TurnTime,
};
use fanorona_ai::players::PlayerSpec;
use fanorona_core::record::{GameRecord, GameResult, Reader};
use fanorona_core::{Color, Game, Position, Rules};

use super::comment_text;
use crate::output::shown_path;

/// The largest games file read back, in bytes (a million games of a few hundred bytes).
const MAX_BYTES: u64 = 1 << 30;

/// The tag with the longest time each side took for a turn: `WHITE_MS,BLACK_MS`.
pub const LONGEST_TURN: &str = "LongestTurnMs";

/// The tag with the time of every turn in milliseconds, in order: `WALL` or
/// `WALL/SEARCH` (the search time the engine reported), separated by spaces.
pub const TURN_TIMES: &str = "TurnTimesMs";

/// The most turn times a `TurnTimesMs` tag is read for (a game has fewer turns).
const MAX_TURN_TIMES: usize = 1 << 20;

/// The settings of a match that its games must share to be counted together, as the tags
/// written in every game (names, and values as written).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Settings {
    tags: [(&'static str, String); 7],
    time_control: Option<TimeControl>,
    shard: Option<Shard>,
}

/// What each settings tag is, in an error message.
const MEANING: [&str; 7] = [
    "first player",
    "second player",
    "limits (--movetime, --depth, --nodes, --tc)",
    "openings (--openings, --no-openings, --board, rule options)",
    "random turns (--random-plies)",
    "turn limit (--max-turns)",
    "seed (--seed)",
];

impl Settings {
    /// The settings of the match between `first` and `second` under `config`.
    pub fn new(first: &PlayerSpec, second: &PlayerSpec, config: &MatchConfig) -> Settings {
        Settings {
            tags: [
                ("MatchFirst", comment_text(&first.to_string())),
                ("MatchSecond", comment_text(&second.to_string())),
                (
                    "MatchLimits",
                    limits_text(config.limits, config.time_control),
                ),
                ("MatchOpenings", openings_text(&config.openings)),
                ("MatchRandomPlies", config.random_plies.to_string()),
                ("MatchMaxTurns", config.max_turns.to_string()),
                ("MatchSeed", config.seed.to_string()),
            ],
            time_control: config.time_control,
            shard: config.shard,
        }
    }

    /// The part of the match played, if only a part is.
    pub fn shard(&self) -> Option<Shard> {
        self.shard
    }

    /// The match's game clock, if it has one.
    pub fn time_control(&self) -> Option<TimeControl> {
        self.time_control
    }

    /// The tags, in the order written.
    pub fn tags(&self) -> &[(&'static str, String)] {
        &self.tags
    }
}

/// `movetime=MS depth=N nodes=N tc=SECONDS+INC` for the limits set, or `none`.
fn limits_text(limits: Option<Limits>, time_control: Option<TimeControl>) -> String {
    let l = limits.unwrap_or_default();
    let mut parts = Vec::new();
    if let Some(t) = l.movetime {
        parts.push(format!("movetime={}", t.as_millis()));
    }
    if let Some(d) = l.depth {
        parts.push(format!("depth={d}"));
    }
    if let Some(n) = l.nodes {
        parts.push(format!("nodes={n}"));
    }
    if let Some(tc) = time_control {
        parts.push(format!("tc={tc}"));
    }
    if parts.is_empty() {
        "none".to_owned()
    } else {
        parts.join(" ")
    }
}

/// `N positions, fingerprint HEX`: the number of openings and a 64-bit FNV-1a hash of their
/// position strings, boards and full rule options, one line each.
fn openings_text(openings: &[Position]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for p in openings {
        let line = format!(
            "{} {} {}\n",
            p.to_fen(),
            p.size(),
            p.rules().to_full_string()
        );
        for b in line.bytes() {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{} positions, fingerprint {hash:016x}", openings.len())
}

/// The `LongestTurnMs` value.
pub fn longest_turn_text(longest: [Duration; 2]) -> String {
    let ms = |d: Duration| format!("{:.3}", d.as_secs_f64() * 1000.0);
    format!("{},{}", ms(longest[0]), ms(longest[1]))
}

/// The `TurnTimesMs` value (tenths of a millisecond).
pub fn turn_times_text(times: &[TurnTime]) -> String {
    let ms = |d: Duration| format!("{:.1}", d.as_secs_f64() * 1000.0);
    times
        .iter()
        .map(|t| match t.search {
            Some(s) => format!("{}/{}", ms(t.wall), ms(s)),
            None => ms(t.wall),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The turn times of a `TurnTimesMs` value; `None` when it is not one.
pub fn turn_times(text: &str) -> Option<Vec<TurnTime>> {
    text.split_whitespace()
        .take(MAX_TURN_TIMES + 1)
        .map(|word| match word.split_once('/') {
            Some((w, s)) => Some(TurnTime::new(millis(w)?, Some(millis(s)?))),
            None => Some(TurnTime::new(millis(word)?, None)),
        })
        .collect::<Option<Vec<_>>>()
        .filter(|v| v.len() <= MAX_TURN_TIMES)
}

/// The games of an earlier run of the match, read back.
pub struct Resumed {
    /// The file as it was: written again, whole, before the new games.
    pub bytes: Vec<u8>,
    /// Its games.
    pub games: Vec<MatchGame>,
}

/// Reads the games file `path` of an earlier run of this match. `None` when there is no
/// such file (nothing to resume: the match starts from its first game).
///
/// # Errors
///
/// A located error (`FILE:LINE:COL: game N (round R): ...`) for a game that cannot be read,
/// is not a finished game of `fanorona match`, or was played with other settings.
pub fn read(path: &Path, settings: &Settings, rules: Rules) -> Result<Option<Resumed>> {
    use std::io::Read;
    let name = shown_path(path);
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => bail!("cannot read {name}: {}", crate::output::io_text(&e)),
    };
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        bail!("{name}: --resume reads the games of a regular file");
    }
    let mut bytes = Vec::new();
    file.take(MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| anyhow::anyhow!("cannot read {name}: {}", crate::output::io_text(&e)))?;
    if bytes.len() as u64 > MAX_BYTES {
        bail!(
            "{name}: larger than {} MiB, not a games file to resume",
            MAX_BYTES >> 20
        );
    }
    let games = match games_in(&bytes, &name, settings, rules) {
        Ok(games) => games,
        Err(e) => {
            // A match killed while it appended a game (SIGKILL, a power cut) can leave part
            // of that game at the end: when every game before the last one is whole, and the
            // last one is the start of a game of `fanorona match` cut before its result, it
            // is dropped and played again.
            let cut = last_game_start(&bytes);
            match games_in(&bytes[..cut], &name, settings, rules) {
                Ok(games) if is_torn(&bytes[cut..]) => {
                    let line = bytes[..cut].iter().filter(|&&b| b == b'\n').count() + 1;
                    errln!(
                        "warning: {name}:{line}: the last game is incomplete (the match \
                         was stopped while writing it): it is dropped and played again"
                    );
                    bytes.truncate(cut);
                    games
                }
                _ => return Err(e),
            }
        }
    };
    Ok(Some(Resumed { bytes, games }))
}

/// Whether `tail`, the last game of a games file that cannot be read, is a game of `fanorona
/// match` cut short while it was written: it starts as every such game starts and does not
/// end with a result.
fn is_torn(tail: &[u8]) -> bool {
    const START: &[u8] = b"[Event \"fanorona match\"]";
    let text = tail.trim_ascii();
    let starts = text.starts_with(START) || (!text.is_empty() && START.starts_with(text));
    let ends_with_result = [&b"1-0"[..], b"0-1", b"1/2-1/2", b"*"]
        .iter()
        .any(|r| text.ends_with(r));
    starts && !ends_with_result
}

/// Where the last game of a games file starts: after the last empty line followed by a tag
/// (`\n\n[`), or 0 for a file of one game.
fn last_game_start(bytes: &[u8]) -> usize {
    bytes
        .windows(3)
        .rposition(|w| w == b"\n\n[")
        .map_or(0, |i| i + 2)
}

/// The games of the games file `name` holding `bytes` (see [`read`]).
fn games_in(bytes: &[u8], name: &str, settings: &Settings, rules: Rules) -> Result<Vec<MatchGame>> {
    let mut reader = Reader::new(bytes);
    let mut games = Vec::new();
    loop {
        let record = match reader.read_record() {
            Ok(Some(r)) => r,
            Ok(None) => break,
            Err(e) => bail!("{}: cannot be resumed", e.in_file(name)),
        };
        let src = record.source.clone().unwrap_or_default();
        let at = format!(
            "{name}:{}: game {}{}",
            src.start,
            src.game,
            record
                .tag("Round")
                .map_or(String::new(), |r| format!(" (round {})", comment_text(r)))
        );
        let game =
            match_game(&record, settings, rules).map_err(|e| anyhow::anyhow!("{at}: {e}"))?;
        games.push(game);
    }
    Ok(games)
}

/// The match game a record of `fanorona match` holds, when it was played with `settings`.
fn match_game(record: &GameRecord, settings: &Settings, rules: Rules) -> Result<MatchGame> {
    if record.tag("Event") != Some("fanorona match") {
        bail!("not a game of `fanorona match` (no [Event \"fanorona match\"]): cannot be resumed");
    }
    let replayed = record.to_game().map_err(|e| anyhow::anyhow!("{e}"))?;
    // The turns alone (a game that did not end by the rules has a resignation or an
    // agreement added by `to_game`).
    let mut game = Game::new(*replayed.start());
    for t in replayed.turns() {
        game.play(t)?;
    }
    if game.start().rules() != rules {
        bail!(
            "played under the rules {}, this match plays {}",
            game.start().rules().to_full_string(),
            rules.to_full_string()
        );
    }
    for ((tag, ours), meaning) in settings.tags().iter().zip(MEANING) {
        let Some(theirs) = record.tag(tag) else {
            bail!(
                "no [{tag}] tag (the match's settings, written since this version): cannot be \
                 resumed"
            );
        };
        if theirs != ours {
            bail!(
                "played with another {meaning}: {tag} is {}, this match's is {}; resume or \
                 merge with the same settings, or write to another --out",
                shown(theirs),
                shown(ours)
            );
        }
    }
    let index = match record.tag("Round").map(str::parse::<usize>) {
        Some(Ok(r)) if r >= 1 => r - 1,
        _ => bail!("no [Round] with the game's number, from 1"),
    };
    let winner = match record.result {
        Some(GameResult::WhiteWins) => Some(Color::White),
        Some(GameResult::BlackWins) => Some(Color::Black),
        Some(GameResult::Draw) => None,
        _ => bail!("no result: not a finished game"),
    };
    let tag = record.tag("Termination").unwrap_or_default();
    let termination = match tag {
        "normal" => match game.outcome() {
            Some(o) if o.winner == winner => Termination::Rules(o.reason),
            _ => bail!("[Termination \"normal\"], but the game's turns do not end it so"),
        },
        "adjudication" => {
            if winner.is_some() {
                bail!("[Termination \"adjudication\"] with a winner");
            }
            let turns = settings.tags[5].1.parse().unwrap_or_default();
            Termination::Adjudicated { turns }
        }
        _ => {
            let Some(winner) = winner else {
                bail!("[Termination {}] with no winner", shown(tag));
            };
            let (kind, detail) = forfeit(record, tag)?;
            Termination::Forfeit {
                loser: !winner,
                kind,
                detail,
            }
        }
    };
    let longest = record
        .tag(LONGEST_TURN)
        .and_then(|v| v.split_once(','))
        .and_then(|(w, b)| Some([millis(w)?, millis(b)?]))
        .ok_or_else(|| {
            anyhow::anyhow!(
                "no [{LONGEST_TURN} \"WHITE,BLACK\"] tag with the longest turns in milliseconds"
            )
        })?;
    // Games written before the tag was have no turn times (they count for the longest turns
    // only).
    let times = match record.tag(TURN_TIMES) {
        None => Vec::new(),
        Some(text) => match turn_times(text) {
            Some(times) if times.len() <= game.turns().len() + 1 => times,
            _ => bail!(
                "[{TURN_TIMES}] is not the game's turn times (milliseconds, WALL or \
                 WALL/SEARCH, one per turn)"
            ),
        },
    };
    let mut read = MatchGame::new(index, game, winner, termination);
    read.white = record.tag("White").unwrap_or_default().to_owned();
    read.black = record.tag("Black").unwrap_or_default().to_owned();
    read.longest_turn = longest;
    read.turn_times = times;
    Ok(read)
}

/// The kind and detail of a forfeit, from the game's last comment (`... forfeits by KIND:
/// DETAIL`), else from its `Termination` tag alone.
fn forfeit(record: &GameRecord, tag: &str) -> Result<(FaultKind, String)> {
    const KINDS: [FaultKind; 6] = [
        FaultKind::Start,
        FaultKind::Crash,
        FaultKind::Timeout,
        FaultKind::IllegalTurn,
        FaultKind::Protocol,
        FaultKind::Unsupported,
    ];
    let comment = record.movetext.iter().rev().find_map(|e| match e {
        fanorona_core::record::Element::Comment(c) => Some(c.as_str()),
        _ => None,
    });
    let said = comment
        .and_then(|c| c.split_once(" forfeits by "))
        .and_then(|(_, rest)| {
            KINDS.iter().find_map(|k| {
                let detail = rest.strip_prefix(k.name())?.strip_prefix(": ")?;
                Some((*k, detail.to_owned()))
            })
        });
    match said {
        Some((kind, detail)) if fault_tag(kind) == tag => Ok((kind, detail)),
        _ => match KINDS.iter().find(|k| fault_tag(**k) == tag) {
            Some(kind) => Ok((*kind, comment.unwrap_or_default().to_owned())),
            None => bail!("an unknown [Termination {}]", shown(tag)),
        },
    }
}

/// The `Termination` tag of a forfeit of this kind.
fn fault_tag(kind: FaultKind) -> &'static str {
    Termination::Forfeit {
        loser: Color::White,
        kind,
        detail: String::new(),
    }
    .tag()
}

fn millis(text: &str) -> Option<Duration> {
    let ms: f64 = text.trim().parse().ok()?;
    // Negative, not finite or beyond a Duration: not a time.
    Duration::try_from_secs_f64(ms / 1000.0).ok()
}

/// A tag value in a message: quoted, at most 200 characters.
fn shown(text: &str) -> String {
    let clipped: String = text.chars().take(200).collect();
    format!(
        "{clipped}",
        clipped = fanorona_core::escape::quoted(&clipped)
    )
}

#[cfg(test)]
mod tests {
    use fanorona_ai::matches::{MatchGame, play_match};
    use proptest::prelude::*;

    use super::*;

    /// A games file of a short match between random players, its settings and its games.
    fn match_file() -> (Vec<u8>, Settings, Vec<MatchGame>) {
        let (first, second): (PlayerSpec, PlayerSpec) =
            ("random".parse().unwrap(), "greedy".parse().unwrap());
        let mut config = MatchConfig::default();
        config.games = 4;
        config.max_turns = 12;
        config.random_plies = 1;
        let settings = Settings::new(&first, &second, &config);
        let played = play_match(&first, &second, &config, |_, _| Ok(())).unwrap();
        let mut text = String::new();
        for g in &played.games {
            text.push_str(&super::super::record(g, &settings).to_fgn().unwrap());
        }
        (text.into_bytes(), settings, played.games)
    }

    #[test]
    fn a_games_file_reads_back_as_its_games() {
        let (bytes, settings, games) = match_file();
        let back = games_in(&bytes, "m.fgn", &settings, Rules::STANDARD).unwrap();
        assert_eq!(back.len(), games.len());
        for (b, g) in back.iter().zip(&games) {
            assert_eq!(b.index, g.index);
            assert_eq!(b.first_is_white, g.first_is_white);
            assert_eq!((&b.white, &b.black), (&g.white, &g.black));
            assert_eq!(b.game.start().to_fen(), g.game.start().to_fen());
            assert_eq!(b.game.turns(), g.game.turns());
            assert_eq!((b.winner, &b.termination), (g.winner, &g.termination));
            // Microseconds are kept.
            for side in 0..2 {
                let diff = b.longest_turn[side].abs_diff(g.longest_turn[side]);
                assert!(diff < Duration::from_micros(1), "{diff:?}");
            }
            // Turn times to a tenth of a millisecond.
            assert_eq!(b.turn_times.len(), g.turn_times.len());
            for (x, y) in b.turn_times.iter().zip(&g.turn_times) {
                assert!(x.wall.abs_diff(y.wall) <= Duration::from_micros(50));
                assert_eq!(x.search.is_some(), y.search.is_some());
            }
        }
    }

    #[test]
    fn turn_times_read_back() {
        let ms = Duration::from_millis;
        let times = vec![
            TurnTime::new(ms(201), Some(ms(200))),
            TurnTime::new(Duration::from_micros(350), None),
        ];
        let text = turn_times_text(&times);
        assert_eq!(text, "201.0/200.0 0.3");
        let back = turn_times(&text).unwrap();
        assert_eq!(back[0], times[0]);
        assert_eq!(back[1].wall, Duration::from_micros(300));
        for bad in ["x", "1/", "-1", "1/2/3", "inf"] {
            assert!(turn_times(bad).is_none(), "{bad}");
        }
    }

    /// A forfeit reads back with its kind and detail.
    #[test]
    fn forfeits_read_back_with_kind_and_detail() {
        let (_, settings, games) = match_file();
        let mut g = games[1].clone();
        g.winner = Some(Color::White);
        g.termination = Termination::Forfeit {
            loser: Color::Black,
            kind: FaultKind::Start,
            detail: "engine \"x\": No such file or directory".to_owned(),
        };
        let text = super::super::record(&g, &settings).to_fgn().unwrap();
        let back = games_in(text.as_bytes(), "m.fgn", &settings, Rules::STANDARD).unwrap();
        assert_eq!(back[0].termination, g.termination);
        assert_eq!(back[0].winner, g.winner);
    }

    proptest! {
        /// Whatever a damaged games file holds, reading it is a game list or a located
        /// error, never a panic.
        #[test]
        fn damaged_files_are_errors_not_panics(
            edits in prop::collection::vec((any::<usize>(), any::<u8>(), any::<bool>()), 1..8),
        ) {
            let (mut bytes, settings, _) = match_file();
            for (at, byte, insert) in edits {
                let i = at % (bytes.len() + 1);
                if insert || i == bytes.len() {
                    bytes.insert(i, byte);
                } else {
                    bytes[i] = byte;
                }
            }
            if let Err(e) = games_in(&bytes, "m.fgn", &settings, Rules::STANDARD) {
                prop_assert!(e.to_string().starts_with("m.fgn:"), "{e}");
            }
        }
    }
}

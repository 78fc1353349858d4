//! The arguments of `go`.

use std::time::Duration;

use fanorona_core::Color;

use crate::{Clock, Limits};

use super::input::shown;

/// The most lines `MultiPV` (or `go multipv`) can ask for.
pub const MAX_MULTIPV: usize = 256;

/// What a `go` command asks for. Bad arguments are collected in [`Go::errors`] and left out;
/// the rest still counts, so that every `go` is answered with a `bestmove`.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub(crate) struct Go {
    /// The limits read; `None` when none limits the search (the level's limits then apply).
    pub limits: Option<Limits>,
    /// The turns after `searchmoves`, as written.
    pub searchmoves: Vec<String>,
    /// `multipv N`, for this search only.
    pub multipv: Option<usize>,
    /// One message per bad argument.
    pub errors: Vec<String>,
}

const KEYWORDS: [&str; 14] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "multipv",
    "ponderhit",
];

/// Reads the arguments of `go` for a position with `side` to move.
///
/// The rules: `infinite` searches until `stop` whatever else is given. The clock counts only
/// when the side to move's own time (`wtime` for White, `btime` for Black) is given; the other
/// side's time alone is an error and is left out. Negative times count as 0. When nothing
/// limits the search, `limits` is `None` and the level decides.
pub(crate) fn parse_go(words: &[&str], side: Color) -> Go {
    let mut go = Go::default();
    let mut limits = Limits::default();
    let (mut wtime, mut btime, mut winc, mut binc, mut togo) = (None, None, None, None, None);
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        i += 1;
        match key {
            "infinite" => limits.infinite = true,
            "ponder" => {}
            "searchmoves" => {
                while i < words.len() && !KEYWORDS.contains(&words[i]) {
                    go.searchmoves.push(words[i].to_owned());
                    i += 1;
                }
                if go.searchmoves.is_empty() {
                    go.errors.push("go searchmoves: no turn follows".to_owned());
                }
            }
            "depth" | "nodes" | "mate" | "movestogo" | "multipv" | "wtime" | "btime" | "winc"
            | "binc" | "movetime" => {
                let Some(&text) = words.get(i) else {
                    go.errors.push(format!("go {key}: a number must follow"));
                    continue;
                };
                i += 1;
                let time = matches!(key, "wtime" | "btime" | "winc" | "binc" | "movetime");
                let Some(n) = number(text, time) else {
                    let what = if time {
                        "milliseconds"
                    } else {
                        "a whole number"
                    };
                    go.errors.push(format!(
                        "go {key}: {} is not {what} (0 to {})",
                        shown(text),
                        u64::MAX
                    ));
                    continue;
                };
                let small = u32::try_from(n).unwrap_or(u32::MAX);
                let ms = Duration::from_millis(n);
                match key {
                    "depth" => limits.depth = Some(small),
                    "nodes" => limits.nodes = Some(n),
                    "mate" => limits.mate = Some(small),
                    "movestogo" => togo = Some(small),
                    "movetime" => limits.movetime = Some(ms),
                    "wtime" => wtime = Some(ms),
                    "btime" => btime = Some(ms),
                    "winc" => winc = Some(ms),
                    "binc" => binc = Some(ms),
                    _ => {
                        if (1..=MAX_MULTIPV as u64).contains(&n) {
                            go.multipv = Some(n as usize);
                        } else {
                            go.errors
                                .push(format!("go multipv: {n} is out of range 1..={MAX_MULTIPV}"));
                        }
                    }
                }
            }
            _ => go
                .errors
                .push(format!("go: unknown argument {}", shown(key))),
        }
    }
    let (own, other, inc, name, other_name, side) = match side {
        Color::White => (wtime, btime, winc, "wtime", "btime", "White"),
        Color::Black => (btime, wtime, binc, "btime", "wtime", "Black"),
    };
    match own {
        Some(remaining) => {
            limits.clock = Some(Clock {
                remaining,
                increment: inc.unwrap_or(Duration::ZERO),
                moves_to_go: togo,
            });
        }
        None if other.is_some() => go.errors.push(format!(
            "go: {other_name} without {name}: {side} is to move; the clock is left out"
        )),
        None => {}
    }
    go.limits = if limits.infinite || limits.is_limited() {
        Some(limits)
    } else {
        None
    };
    go
}

/// A number of `go`: a whole number from 0 to `u64::MAX`; a time (`time`) may also be
/// negative (a GUI's clock past zero), which counts as 0.
fn number(text: &str, time: bool) -> Option<u64> {
    if let Ok(n) = text.parse::<u64>() {
        return Some(n);
    }
    if time
        && text.starts_with('-')
        && text[1..].bytes().all(|b| b.is_ascii_digit())
        && text.len() > 1
    {
        return Some(0);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(text: &str, side: Color) -> Go {
        parse_go(&text.split_whitespace().collect::<Vec<_>>(), side)
    }

    #[test]
    fn the_clock_of_the_side_to_move_counts() {
        let g = go("wtime 5000 btime 7000 binc 100 movestogo 12", Color::Black);
        let c = g.limits.unwrap().clock.unwrap();
        assert_eq!(c.remaining, Duration::from_millis(7000));
        assert_eq!(c.increment, Duration::from_millis(100));
        assert_eq!(c.moves_to_go, Some(12));
        assert!(g.errors.is_empty());
    }

    #[test]
    fn only_the_other_sides_clock_is_an_error_and_leaves_no_limit() {
        let g = go("btime 1000", Color::White);
        assert_eq!(g.limits, None);
        assert_eq!(g.errors.len(), 1);
        assert!(
            g.errors[0].contains("btime without wtime"),
            "{:?}",
            g.errors
        );
        // Increments or moves to go alone limit nothing either.
        assert_eq!(go("winc 100 movestogo 3", Color::White).limits, None);
        assert_eq!(go("", Color::White), Go::default());
        assert_eq!(go("ponder", Color::White).limits, None);
    }

    #[test]
    fn bad_arguments_are_errors_and_the_rest_counts() {
        let g = go("depth x nodes 100 sideways 3 movetime", Color::White);
        let l = g.limits.unwrap();
        assert_eq!(l.nodes, Some(100));
        assert_eq!(l.depth, None);
        assert_eq!(g.errors.len(), 4, "{:?}", g.errors);
        assert!(g.errors[0].starts_with("go depth: \"x\" is not a whole number"));
        assert_eq!(g.errors[1], "go: unknown argument \"sideways\"");
        assert_eq!(g.errors[2], "go: unknown argument \"3\"");
        assert_eq!(g.errors[3], "go movetime: a number must follow");
    }

    #[test]
    fn extremes_are_read_without_overflow() {
        let g = go(
            "wtime -5 winc 18446744073709551615 depth 99999999999 mate 4294967296",
            Color::White,
        );
        assert!(g.errors.is_empty(), "{:?}", g.errors);
        let l = g.limits.unwrap();
        assert_eq!(l.clock.unwrap().remaining, Duration::ZERO);
        assert_eq!(l.depth, Some(u32::MAX));
        assert_eq!(l.mate, Some(u32::MAX));
        assert_eq!(go("depth -3", Color::White).errors.len(), 1);
        assert_eq!(
            go("nodes 18446744073709551616", Color::White).errors.len(),
            1
        );
        assert_eq!(go("movetime -", Color::White).errors.len(), 1);
    }

    #[test]
    fn searchmoves_multipv_mate_and_infinite() {
        let g = go("searchmoves f2-e3A d3e3W infinite multipv 3", Color::White);
        assert_eq!(g.searchmoves, ["f2-e3A", "d3e3W"]);
        assert_eq!(g.multipv, Some(3));
        assert!(g.limits.unwrap().infinite);
        let g = go("mate 2", Color::White);
        assert_eq!(g.limits.unwrap().mate, Some(2));
        let g = go("searchmoves multipv 0", Color::White);
        assert_eq!(g.errors.len(), 2, "{:?}", g.errors);
        assert_eq!(g.multipv, None);
    }
}

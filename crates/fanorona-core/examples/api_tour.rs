//! The seven small programs of issue 11, each a function, against the 1.0 API: a random game
//! written as a record, a position string to its legal turns, turn text and its errors,
//! streaming a multi-game file, a client's turn built step by step, perft on 5x5, and serde
//! (with `--features serde`).
//!
//! ```text
//! cargo run -p fanorona-core --example api_tour --features serde
//! ```

use fanorona_core::record::{GameRecord, Reader};
use fanorona_core::{BoardSize, Game, IllegalReason, Position, TurnError, perft};

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// 1. A random game, written as an FGN record.
fn random_game_record(mut seed: u64) -> Result<String> {
    let mut game = Game::new(Position::start(BoardSize::DIMY));
    while game.outcome().is_none() {
        let turns = game.position().legal_turns();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        game.play(&turns[(seed % turns.len() as u64) as usize])?;
    }
    Ok(GameRecord::from_game(&game).to_fgn()?)
}

/// 2. A position string to its legal turns.
fn legal_turns(fen: &str) -> Result<Vec<String>> {
    let pos: Position = fen.parse()?;
    Ok(pos.legal_turns().iter().map(ToString::to_string).collect())
}

/// 3. Turn text and its errors, matched as data.
fn explain(pos: &Position, text: &str) -> String {
    match pos.parse_turn(text) {
        Ok(turn) => format!("{turn}: legal"),
        Err(TurnError::Illegal {
            reason: IllegalReason::NoStone(p),
            ..
        }) => {
            format!("{text}: nothing to move on {p}")
        }
        Err(e) => format!("{text}: {e}"),
    }
}

/// 4. Streaming a multi-game file: one game at a time, a bad game does not hide the others.
fn count_games(text: &str) -> (usize, usize) {
    let (mut good, mut bad) = (0, 0);
    for record in Reader::new(text.as_bytes()).records() {
        match record
            .map_err(|e| e.to_string())
            .and_then(|r| r.to_game().map_err(|e| e.to_string()))
        {
            Ok(_) => good += 1,
            Err(_) => bad += 1,
        }
    }
    (good, bad)
}

/// 5. A client's turn: pick up a stone, choose where it goes, take a step back, finish.
fn client_turn() -> Result<String> {
    let pos = Position::standard();
    let size = pos.size();
    let [d3, e3] = ["d3", "e3"].map(|n| size.parse_point(n).expect("on the board"));
    let mut builder = pos.begin_turn();
    let choices = builder.steps_between(d3, e3); // approach or withdrawal: the player picks
    builder.play_step(choices[0])?;
    builder.undo_step();
    builder.play_step(choices[choices.len() - 1])?;
    Ok(builder.finish()?.to_string())
}

fn main() -> Result<()> {
    println!("{}", random_game_record(7)?);
    println!("{:?}", legal_turns("BBB/B1W/WWW w")?);
    let pos = Position::standard();
    for text in ["f2-e3A", "e3-e4", "d3-e3", "c3-x4"] {
        println!("{}", explain(&pos, text));
    }
    println!(
        "{:?}",
        count_games("1. f2-e3A *\n\n1. e3-e4 *\n\n1. d3-e3W *\n")
    );
    println!("{}", client_turn()?);
    // 6. Perft on 5x5.
    println!("{}", perft(&Position::start(BoardSize::DIMY), 4));
    // 7. Serde: a game to JSON and back, replayed by the rules.
    #[cfg(feature = "serde")]
    {
        let mut game = Game::default();
        game.play_text("f2-e3A")?;
        let json = serde_json::to_string(&game)?;
        let back: Game = serde_json::from_str(&json)?;
        assert_eq!(back, game);
        println!("{json}");
    }
    Ok(())
}

/// `cargo test` runs these (`test = true` for this example in `Cargo.toml`), so the seven
/// programs stay working; expected values from independent sources, as noted.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seven_programs_work() {
        // 1. The record reads back as a finished game of the 5x5 board.
        let fgn = random_game_record(7).unwrap();
        let record = Reader::new(fgn.as_bytes()).read_record().unwrap().unwrap();
        let game = record.to_game().unwrap();
        assert!(game.outcome().is_some());
        assert_eq!(game.position().size(), BoardSize::DIMY);
        // 2. The turns of a position string, as the independent reference generator finds them.
        let fen = "BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w";
        let mut ours = legal_turns(fen).unwrap();
        let reference = fanorona_core::reference::Board::from_fen(fen).unwrap();
        let mut theirs: Vec<String> = reference.turns().into_iter().map(|t| t.text).collect();
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs);
        // 3. Errors as data: e3 is the empty centre of the standard start.
        let pos = Position::standard();
        assert_eq!(explain(&pos, "f2-e3A"), "f2-e3A: legal");
        assert_eq!(explain(&pos, "e3-e4"), "e3-e4: nothing to move on e3");
        assert!(explain(&pos, "c3-x4").starts_with("c3-x4: "));
        // 4. Three games, the second illegal (e3 is empty): two good, one bad.
        assert_eq!(
            count_games("1. f2-e3A *\n\n1. e3-e4 *\n\n1. d3-e3W *\n"),
            (2, 1)
        );
        // 5. d3 to e3 approaches f3 or withdraws from c3: a legal turn either way.
        let turn = client_turn().unwrap();
        assert!(["d3-e3A", "d3-e3W"].contains(&turn.as_str()), "{turn}");
        assert!(pos.parse_turn(&turn).is_ok());
        // 6. Perft 4 of the 5x5 start: 3,469 (tests/perft.txt, checked by the reference).
        assert_eq!(perft(&Position::start(BoardSize::DIMY), 4), 3469);
        // 7. Serde: a game reads back as the same game (replayed by the rules).
        #[cfg(feature = "serde")]
        {
            let json = serde_json::to_string(&game).unwrap();
            assert_eq!(serde_json::from_str::<Game>(&json).unwrap(), game);
        }
    }
}

//! Plays a random game with `fanorona-core` and prints each turn, the position string after
//! it, and the result.
//!
//! ```text
//! cargo run -p fanorona-core --example random_game -- [SEED] [BOARD]
//! cargo run -p fanorona-core --example random_game -- 7 5x5
//! ```

use fanorona_core::{BoardSize, Game, Position};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let mut seed: u64 = args.next().map(|s| s.parse()).transpose()?.unwrap_or(1);
    let size: BoardSize = args
        .next()
        .map(|s| s.parse())
        .transpose()?
        .unwrap_or(BoardSize::STANDARD);

    let mut game = Game::new(Position::start(size));
    println!("start: {}", game.position());
    while game.outcome().is_none() {
        let turns = game.position().legal_turns();
        // xorshift64: a tiny reproducible random choice.
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let turn = turns[(seed % turns.len() as u64) as usize];
        let number = game.position().turn_number();
        let side = game.position().side_to_move();
        game.play(&turn)?;
        println!("{number:>3}. {side:<5} {turn:<16} {}", game.position());
    }
    let outcome = game.outcome().expect("the loop ends when the game is over");
    println!("{} {outcome}", outcome.result_str());
    Ok(())
}

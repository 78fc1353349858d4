//! Turns made from clicks, as a board client makes them with `fanorona-core`: a click on a
//! stone picks it up, a click on a point moves it there, a click on an empty point places a
//! stone in Fanoron-Telo; the turn builder says what each click may do under the game's rules.
//! It plays the capture game, Vela and Fanoron-Telo through the public API only, as a
//! dependent crate would; `cargo test -p fanorona-core --example clicks` runs its checks.
//!
//! ```text
//! cargo run -p fanorona-core --example clicks
//! ```

use fanorona_core::{
    BoardSize, Color, Game, GameKind, Point, Position, Rules, StepKind, Turn, TurnBuilder,
};

/// What a click did.
#[derive(Debug, PartialEq, Eq)]
enum Clicked {
    /// A stone was picked up (or the click was ignored).
    Nothing,
    /// A step was made and the turn goes on (a capture chain that may continue).
    Step,
    /// The turn is finished and played.
    Played(Turn),
}

/// A tiny board client: the game, the turn being built and the stone picked up.
struct Client {
    game: Game,
    builder: TurnBuilder,
    picked: Option<Point>,
}

impl Client {
    fn new(start: Position) -> Client {
        Client {
            builder: start.begin_turn(),
            game: Game::new(start),
            picked: None,
        }
    }

    fn point(&self, name: &str) -> Point {
        self.game
            .position()
            .size()
            .read_point(name)
            .expect("a point of the board")
    }

    /// A click on `name`. Where both an approach and a withdrawal lead there, `prefer`
    /// chooses (a real client asks the player).
    fn click(&mut self, name: &str, prefer: StepKind) -> Result<Clicked, String> {
        let at = self.point(name);
        // Fanoron-Telo's placement phase: the click places a stone.
        if self.builder.legal_placements().contains(at) {
            self.builder.place(at).map_err(|e| e.to_string())?;
            return self.finish();
        }
        let from = self.builder.current_point().or(self.picked);
        if let Some(from) = from {
            let steps = self.builder.steps_between(from, at);
            if let Some(step) = steps.iter().find(|s| s.kind == prefer).or(steps.first()) {
                self.builder.play_step(*step).map_err(|e| e.to_string())?;
                if self.builder.is_complete() {
                    return self.finish();
                }
                return Ok(Clicked::Step);
            }
        }
        if self.builder.turn_so_far().is_none() && !self.builder.steps_from(at).is_empty() {
            self.picked = Some(at);
            return Ok(Clicked::Nothing);
        }
        Err(format!("{name}: nothing to do there"))
    }

    /// Ends the turn (a chain that may stop), plays it, and starts the next.
    fn finish(&mut self) -> Result<Clicked, String> {
        let turn = self.builder.finish().map_err(|e| e.to_string())?;
        self.game.play(&turn).map_err(|e| e.to_string())?;
        self.builder = self.game.position().begin_turn();
        self.picked = None;
        Ok(Clicked::Played(turn))
    }

    /// Clicks `from` then `to`: one step.
    fn step(&mut self, from: &str, to: &str, prefer: StepKind) -> Result<Clicked, String> {
        self.click(from, prefer)?;
        self.click(to, prefer)
    }
}

/// The capture game: a chain of two captures from the hand-checked position of docs/rules.md.
fn capture_game() -> Result<Vec<String>, String> {
    let mut client = Client::new(Position::standard());
    let played = client.step("d3", "e3", StepKind::Withdrawal)?;
    assert!(matches!(played, Clicked::Step | Clicked::Played(_)));
    if played == Clicked::Step {
        client.finish()?;
    }
    Ok(client
        .game
        .turns()
        .iter()
        .map(ToString::to_string)
        .collect())
}

/// Vela: White may only give stones away, Black takes one at a time.
fn vela() -> Result<Vec<String>, String> {
    let start =
        Position::start_with(BoardSize::STANDARD, Rules::VELA).map_err(|e| e.to_string())?;
    let mut client = Client::new(start);
    assert_eq!(client.game.position().rules().game(), GameKind::Vela);
    // e2-e3 would give Black nothing: not a legal Vela turn; and no capture for White.
    assert!(client.step("e2", "e3", StepKind::Approach).is_err());
    client.picked = None;
    assert!(
        client
            .builder
            .legal_steps()
            .iter()
            .all(|s| s.kind == StepKind::Paika)
    );
    assert!(
        matches!(client.step("d3", "e3", StepKind::Approach)?, Clicked::Played(t) if t.is_paika())
    );
    // Black d4-d3 approaches d2: one stone, not the line d2, d1.
    let Clicked::Played(turn) = client.step("d4", "d3", StepKind::Approach)? else {
        return Err("d4-d3A is a whole Vela turn".to_owned());
    };
    let names: Vec<String> = turn.captured_points().map(|p| p.to_string()).collect();
    assert_eq!(names, ["d2"]);
    assert_eq!(client.game.position().stones(Color::White).count(), 21);
    Ok(client
        .game
        .turns()
        .iter()
        .map(ToString::to_string)
        .collect())
}

/// Fanoron-Telo: three placements each, then moves; White makes a line.
fn telo() -> Result<Vec<String>, String> {
    let start = Position::start_with(BoardSize::TELO, Rules::TELO).map_err(|e| e.to_string())?;
    let mut client = Client::new(start);
    // No stone to pick up yet: every point is a placement.
    assert!(client.builder.legal_steps().is_empty());
    assert_eq!(client.builder.legal_placements().count(), 9);
    for name in ["b2", "a1", "c1", "a3", "b3", "c2"] {
        let played = client.click(name, StepKind::Paika)?;
        assert!(
            matches!(played, Clicked::Played(t) if t.is_placement()),
            "{name}"
        );
    }
    // White b2, c1, b3; Black a1, a3, c2. Placing is over: White moves c1-b1, and b1, b2, b3
    // (the middle file) is three in a line.
    assert!(client.builder.legal_placements().is_empty());
    let played = client.step("c1", "b1", StepKind::Paika)?;
    assert!(matches!(played, Clicked::Played(t) if t.is_paika()));
    let outcome = client.game.outcome().ok_or("b1, b2, b3 is a line")?;
    assert_eq!(outcome.winner, Some(Color::White));
    Ok(client
        .game
        .turns()
        .iter()
        .map(ToString::to_string)
        .collect())
}

fn main() -> Result<(), String> {
    println!("capture game: {}", capture_game()?.join(" "));
    println!("vela: {}", vela()?.join(" "));
    println!("telo: {}", telo()?.join(" "));
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn capture_game_from_clicks() {
        assert_eq!(super::capture_game().unwrap(), ["d3-e3W"]);
    }

    #[test]
    fn vela_from_clicks() {
        assert_eq!(super::vela().unwrap(), ["d3-e3", "d4-d3A"]);
    }

    #[test]
    fn telo_from_clicks() {
        assert_eq!(
            super::telo().unwrap(),
            ["b2", "a1", "c1", "a3", "b3", "c2", "c1-b1"]
        );
    }
}

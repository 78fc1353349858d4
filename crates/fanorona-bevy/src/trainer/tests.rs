//! Headless tests of the endgame trainer, with the 4-stone tables committed under `tables/`
//! at the repository's root. Expected turns are worked out by hand from the rules.

use std::path::PathBuf;
use std::time::Duration;

use bevy::prelude::*;
use fanorona_ai::solve::Value;
use fanorona_ai::solve::tablebase::Tablebase;
use fanorona_core::{Color as Side, Position};

use super::exercise::{self, Goal, Judgement, MATERIALS, Material};
use super::tables::{self, Tables, TablesState};
use super::{Trainer, TrainerCommand};
use crate::game::engine::MinThink;
use crate::game::flow::Command;
use crate::settings::Settings;
use crate::test_support::*;

fn tables_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tables")
}

fn committed_tables() -> Tablebase {
    Tablebase::load(tables_dir()).expect("the committed 4-stone tables")
}

fn position(fen: &str) -> Position {
    Position::from_fen_with(fen, exercise::trainer_rules()).expect("valid")
}

fn trainer_app(start: &str) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin))
        .insert_resource(Settings::default())
        .insert_resource(MinThink(Duration::ZERO))
        .insert_resource(Tables::in_dirs(vec![tables_dir()], None))
        .init_state::<crate::Screen>()
        .insert_state(crate::Screen::Playing)
        .add_plugins((crate::game::flow::plugin, super::plugin));
    app.world_mut()
        .resource_mut::<Tables>()
        .set_ready(committed_tables(), tables_dir());
    super::begin(app.world_mut(), position(start));
    app.update();
    app
}

fn trainer(app: &App) -> &Trainer {
    app.world().resource::<Trainer>()
}

/// A message in English.
fn en(msg: &crate::i18n::Msg) -> String {
    crate::i18n::Tr::english().msg(msg)
}

// White a1 against Black c1 and b3 (White to move): a1-b1A takes c1, and the same stone goes
// on with b1-b2A, taking b3, Black's last stone: a win in one turn. Ending the turn after
// a1-b1A leaves White's stone on b1 next to the empty b2, and Black's b3-b2A takes it: a loss.
const CHAIN_WIN: &str = "9/9/1B7/9/W1B6 w";

#[test]
fn stopping_the_chain_throws_the_win_away_and_the_defence_punishes_it() {
    let mut app = trainer_app(CHAIN_WIN);
    assert_eq!(trainer(&app).fastest, 1);
    click(&mut app, "a1");
    click(&mut app, "b1");
    assert_eq!(game(&app).partial_steps().len(), 1);
    send(&mut app, Command::EndTurn);
    assert_eq!(turns(&app)[0], "a1-b1A");
    let feedback = en(&trainer(&app).feedback);
    assert!(feedback.contains("throws the win away"), "{feedback}");
    assert!(feedback.contains("a1-b1A-b2A kept it"), "{feedback}");
    assert!(trainer(&app).thrown);
    // The tables' defence: the only capture, which takes White's last stone.
    update_until(&mut app, "the defence's reply", |app| turns(app).len() == 2);
    assert_eq!(turns(&app), ["a1-b1A", "b3-b2A"]);
    app.update();
    assert_eq!(trainer(&app).done, Some(false));
    assert_eq!(
        game(&app).outcome().and_then(|o| o.winner),
        Some(Side::Black)
    );
    // Again: the same position from its start.
    app.world_mut().write_message(TrainerCommand::Again);
    app.update();
    app.update();
    assert!(turns(&app).is_empty());
    assert_eq!(trainer(&app).done, None);
    assert!(!trainer(&app).thrown);
}

#[test]
fn the_whole_chain_wins_by_the_fastest_way() {
    let mut app = trainer_app(CHAIN_WIN);
    send(&mut app, Command::PlayText("a1-b1A-b2A".into()));
    app.update();
    let t = trainer(&app);
    assert_eq!(t.done, Some(true));
    assert_eq!((t.turns, t.best_turns), (1, 1));
    assert!(
        en(&t.feedback).contains("keeps the win, by the fastest way"),
        "{}",
        en(&t.feedback)
    );
    assert_eq!(
        en(&t.verdict),
        "You won in 1 turn; the fastest win takes 1."
    );
}

#[test]
fn judging_by_the_tables() {
    let tables = committed_tables();
    let start = position(CHAIN_WIN);
    let stop_early = start.parse_turn("a1-b1A").expect("legal");
    let whole = start.parse_turn("a1-b1A-b2A").expect("legal");
    assert_eq!(
        exercise::judge(&tables, &start, &stop_early),
        Some(Judgement::ThrewAway {
            before: Value::Win,
            after: Value::Loss,
            kept_by: whole,
        })
    );
    assert_eq!(
        exercise::judge(&tables, &start, &whole),
        Some(Judgement::Kept {
            value: Value::Win,
            fastest: true,
            left: 0
        })
    );
    // The defence in White b1 against Black b3 (Black to move) captures b1.
    let after = start.play_unchecked(&stop_early);
    assert_eq!(
        exercise::defence(&tables, &after).map(|t| t.to_string()),
        Some("b3-b2A".into())
    );
    assert_eq!(exercise::player_turns(1), 1);
    assert_eq!(exercise::player_turns(7), 4);
}

#[test]
fn exercises_come_from_the_tables_with_their_material_and_goal() {
    let tables = committed_tables();
    for material in MATERIALS.iter().filter(|m| m.stones() <= 4) {
        let start = exercise::choose(&tables, *material, 11).expect("a position");
        assert_eq!(start.side_to_move(), Side::White);
        let count = |s: Side| start.stones(s).bits().count_ones();
        assert_eq!(
            (count(Side::White), count(Side::Black)),
            (u32::from(material.player), u32::from(material.opponent))
        );
        let probe = tables.probe(&start).expect("covered");
        match material.goal {
            Goal::Win => {
                assert_eq!(probe.wdl, Value::Win);
                assert!(probe.distance >= exercise::MIN_WIN_DISTANCE);
            }
            Goal::Draw => assert_eq!(probe.wdl, Value::Draw),
        }
        // The same seed, the same position.
        assert_eq!(exercise::choose(&tables, *material, 11), Some(start));
    }
    // Five stones need the 5-stone tables.
    let five = Material {
        player: 3,
        opponent: 2,
        goal: Goal::Win,
    };
    assert_eq!(exercise::choose(&tables, five, 1), None);
}

#[test]
fn the_defence_replies_from_the_tables_in_a_chosen_exercise() {
    let tables = committed_tables();
    let mut app = trainer_app(CHAIN_WIN);
    // A 3 v 1 exercise from the menu of exercises.
    app.world_mut().write_message(TrainerCommand::Material(1));
    app.update();
    app.update();
    let start = trainer(&app).start.expect("an exercise");
    assert_eq!(start.stones(Side::White).bits().count_ones(), 3);
    // Play the tables' best turn: the defence answers, and the win is kept.
    let (best, _) = tables.best_turn(&start).expect("covered");
    send(&mut app, Command::PlayText(best.to_string()));
    if game(&app).outcome().is_none() {
        update_until(&mut app, "the defence's reply", |app| turns(app).len() == 2);
        let after = game(&app).game().position_at(1).copied().expect("ply 1");
        let (reply, _) = tables.best_turn(&after).expect("covered");
        assert_eq!(turns(&app)[1], reply.to_string());
        // Perfect defence: the slowest loss, so the win is one of the player's turns shorter.
        let now = tables.probe(game(&app).game().position()).expect("covered");
        let before = tables.probe(&start).expect("covered");
        assert_eq!(now.wdl, Value::Win);
        assert_eq!(now.distance + 2, before.distance);
    }
    assert!(
        en(&trainer(&app).feedback).contains("keeps the win"),
        "{}",
        en(&trainer(&app).feedback)
    );
}

#[test]
fn building_costs_are_stated_from_the_files_they_make() {
    // The committed tables are the 4-stone build: the stated size is theirs.
    let on_disk: u64 = std::fs::read_dir(tables_dir())
        .expect("tables/")
        .filter_map(Result::ok)
        .filter(|e| {
            e.path()
                .extension()
                .is_some_and(|x| x == "fntb" || x == "fnwdl")
        })
        .map(|e| e.metadata().expect("metadata").len())
        .sum();
    let (bytes, seconds) = tables::build_cost(4);
    assert_eq!(bytes, on_disk);
    assert!(seconds <= 5, "{seconds}");
    // docs/solver.md: 38,825,820 positions up to 5 stones, 46.3 MiB.
    assert_eq!(tables::positions_up_to(5), 38_825_820);
    assert_eq!(en(&tables::mib(tables::build_cost(5).0)), "46.3 MiB");
    assert!(en(&tables::build_offer(5)).contains("46.3 MiB"));
}

#[test]
fn tables_are_built_in_the_background_and_kept() {
    let dir = temp_dir("trainer-build");
    let mut tables = Tables::in_dirs(vec![dir.clone()], Some(dir.clone()));
    tables.find();
    assert!(matches!(tables.state(), TablesState::Missing));
    // The 2-stone tables: a moment's work.
    tables.build(2);
    assert!(tables.build_progress().is_some());
    let mut app = App::new();
    app.add_plugins(MinimalPlugins).insert_resource(tables);
    app.add_systems(Update, super::tables::poll_tables);
    update_until(&mut app, "the build", |app| {
        app.world().resource::<Tables>().ready().is_some()
    });
    let (tb, max) = app.world().resource::<Tables>().ready().expect("ready");
    assert_eq!(max, 2);
    // White a1 against Black c1: a1-b1A takes c1, a win in one turn.
    let pos = position("9/9/9/9/W1B6 w");
    assert_eq!(
        tb.probe(&pos).map(|p| (p.wdl, p.distance)),
        Some((Value::Win, 1))
    );
    // Kept for next time: found again in the folder.
    let mut again = Tables::in_dirs(vec![dir.clone()], None);
    again.find();
    assert!(
        matches!(again.state(), TablesState::Loading(_)),
        "{:?}",
        again.state()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

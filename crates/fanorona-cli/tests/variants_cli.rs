//! Vela and Fanoron-Telo through the command line: perft, validate, convert and show.

#[allow(dead_code, reason = "each test binary uses part of the helpers")]
mod common;

use std::path::PathBuf;

use common::{fanorona, stderr, stdout};

const TELO: &str = "[Variant \"Fanoron-Telo\"]\n[Result \"1-0\"]\n\n1. b2 b1 2. a1 a2 3. c3 1-0\n";
const VELA: &str = "[Variant \"Vela\"]\n[Result \"*\"]\n\n1. f2-e3 f3-f2A *\n";

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fanorona-variants-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn last_line(out: &std::process::Output) -> String {
    stdout(out).lines().last().unwrap_or("").to_owned()
}

#[test]
fn perft_counts_both_games() {
    // Telo, hand-counted: placements 9, 72, 504, 3024, 15120; of White's 15120 third
    // placements 8 lines x 3! orders x 6 x 5 black placements = 1440 make a line and end the
    // game, each of the others allows 4 black placements.
    for (depth, n) in [("1", "9"), ("5", "15120"), ("6", "54720")] {
        let out = fanorona(&["perft", depth, "--rules", "game=telo"]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(last_line(&out), n);
    }
    let out = fanorona(&["perft", "2", "--fen", "3/3/3 w telo"]);
    assert_eq!(last_line(&out), "72");
    // Vela, hand-counted in docs/rules.md: 3 openings, then 1 + 3 + 1 single captures.
    let out = fanorona(&["perft", "2", "--rules", "game=vela"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(last_line(&out), "5");
    // Telo is played on 3x3 only; the game word and --game must agree.
    let out = fanorona(&["perft", "1", "--rules", "game=telo", "--board", "5x9"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("3x3"), "{}", stderr(&out));
    let out = fanorona(&[
        "perft",
        "1",
        "--rules",
        "game=vela",
        "--fen",
        "3/3/3 w telo",
    ]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("game"), "{}", stderr(&out));
}

#[test]
fn records_validate_convert_and_show() {
    let d = dir("records");
    for (name, text) in [("telo", TELO), ("vela", VELA)] {
        let fgn = d.join(format!("{name}.fgn"));
        std::fs::write(&fgn, text).unwrap();
        let fgn = fgn.to_str().unwrap();
        let out = fanorona(&["validate", fgn]);
        assert!(
            out.status.success(),
            "{name}: {}{}",
            stdout(&out),
            stderr(&out)
        );
        // FGN -> JSON -> FGN -> JSON: the same record each time.
        let json = d.join(format!("{name}.json"));
        let back = d.join(format!("{name}-back.fgn"));
        let json2 = d.join(format!("{name}-2.json"));
        for (from, to) in [
            (fgn, &json),
            (json.to_str().unwrap(), &back),
            (back.to_str().unwrap(), &json2),
        ] {
            let out = fanorona(&["convert", from, to.to_str().unwrap()]);
            assert!(out.status.success(), "{name}: {}", stderr(&out));
        }
        assert_eq!(
            std::fs::read_to_string(&json).unwrap(),
            std::fs::read_to_string(&json2).unwrap()
        );
        let out = fanorona(&["validate", back.to_str().unwrap()]);
        assert!(out.status.success(), "{name}: {}", stdout(&out));
        let out = fanorona(&["validate", json.to_str().unwrap()]);
        assert!(out.status.success(), "{name}: {}", stdout(&out));
    }
    let show = |file: &str| {
        let out = fanorona(&["show", d.join(file).to_str().unwrap()]);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let telo = show("telo.fgn");
    assert!(telo.contains("2W/BW1/WB1 b 5 3 telo"), "{telo}");
    assert!(telo.contains("White wins (three in a line)"), "{telo}");
    assert!(telo.contains("last turn c3 (placement)"), "{telo}");
    let vela = show("vela.fgn");
    assert!(
        vela.contains("BBBBBBBBB/BBBBBBBBB/BWBWW1WBW/WWWWWBWWW/WWWWW1WWW w 0 2 vela"),
        "{vela}"
    );
    assert!(vela.contains("last turn f3-f2A, captured f1"), "{vela}");
}

#[test]
fn a_record_never_replays_under_another_games_rules() {
    let d = dir("mixed");
    let cases = [
        // The turns of Fanoron-Telo are no turns of the 3x3 capture game.
        (
            "capture.fgn",
            TELO.replace("Fanoron-Telo", "Fanorona-3x3"),
            "a point alone is a Fanoron-Telo placement",
        ),
        // A Rules tag naming another game than the variant's.
        (
            "rules.fgn",
            VELA.replace("[Result", "[Rules \"game=capture\"]\n[Result"),
            "Rules",
        ),
        // A position string of another game.
        (
            "fen.fgn",
            "[Variant \"Fanoron-Tsivy\"]\n[FEN \"9/4B4/9/4W4/WWWWW4 b vela\"]\n\n*\n".to_owned(),
            "FEN",
        ),
        // A Telo placement twice on one point, located.
        (
            "twice.fgn",
            TELO.replace("1. b2 b1", "1. b2 b2"),
            "twice.fgn:4:",
        ),
    ];
    for (name, text, message) in cases {
        let path = d.join(name);
        std::fs::write(&path, text).unwrap();
        let out = fanorona(&["validate", path.to_str().unwrap()]);
        assert!(!out.status.success(), "{name}");
        let all = format!("{}{}", stdout(&out), stderr(&out));
        assert!(all.contains(message), "{name}: {all}");
    }
}

#[test]
fn solve_answers_for_telo_and_refuses_vela_in_its_first_phase() {
    // Hand-checked: White a3 b3, Black a2 b2, White to place c3 and win.
    let out = fanorona(&["solve", "--fen", "WW1/BB1/3 w telo"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("Fanoron-Telo WW1/BB1/3 w telo: win for White to move in 1 ply\n"),
        "{}",
        stdout(&out)
    );
    // The start: a win for White (checked as a certificate in fanorona-ai's telo_solve test,
    // and by the engine's search in its variants test).
    let out = fanorona(&["solve", "--rules", "game=telo", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        (v["value"].as_str(), v["plies"].as_u64()),
        (Some("win"), Some(9))
    );
    let out = fanorona(&["solve", "--rules", "game=vela"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("first phase"), "{}", stderr(&out));
}

#[test]
fn bell_vela_through_the_command_line() {
    // Hand-counted in crates/fanorona-core/tests/variants.rs: on 5x5, 5 single captures into
    // c3, then 3 + 3 + 3 + 7 + 7 giving paikas; on 5x9, the five captures into e3.
    let out = fanorona(&[
        "perft",
        "2",
        "--board",
        "5x5",
        "--rules",
        "game=vela,vela=bell",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(last_line(&out), "23");
    let out = fanorona(&[
        "perft",
        "2",
        "--board",
        "5x5",
        "--rules",
        "game=vela",
        "--vela",
        "bell",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(last_line(&out), "23");
    let out = fanorona(&["perft", "1", "--rules", "game=vela,vela=bell"]);
    assert_eq!(last_line(&out), "5");
    // The option is checked, and given once.
    let out = fanorona(&["perft", "1", "--rules", "game=vela,vela=belle"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("rule option vela takes montgomery or bell"),
        "{}",
        stderr(&out)
    );
    let out = fanorona(&["perft", "1", "--rules", "vela=bell", "--vela", "bell"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("give it once"), "{}", stderr(&out));
    // A record names it in its Rules tag: validated and shown under it.
    let d = dir("bell");
    let fgn = d.join("bell.fgn");
    std::fs::write(
        &fgn,
        "[Variant \"Vela\"]\n[Rules \"vela=bell\"]\n[Result \"*\"]\n\n1. e2-e3A *\n",
    )
    .unwrap();
    let out = fanorona(&["validate", fgn.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stdout(&out));
    let out = fanorona(&["show", fgn.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("last turn e2-e3A, captured e4"),
        "{}",
        stdout(&out)
    );
    // Under Montgomery's Vela (no Rules tag) White may not open with a capture.
    std::fs::write(&fgn, "[Variant \"Vela\"]\n[Result \"*\"]\n\n1. e2-e3A *\n").unwrap();
    let out = fanorona(&["validate", fgn.to_str().unwrap()]);
    assert!(!out.status.success());
    // show --rules: White without a capture has lost.
    let out = fanorona(&[
        "show",
        "--fen",
        "3BB/4B/4B/4B/W3B b vela",
        "--rules",
        "game=vela,vela=bell",
        "--play",
        "e1-d1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("Black wins (no capture in Vela)"),
        "{}",
        stdout(&out)
    );
    // Solve refuses the first phase, naming the giver.
    let out = fanorona(&["solve", "--rules", "game=vela,vela=bell"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("Black, under vela=bell"),
        "{}",
        stderr(&out)
    );
}

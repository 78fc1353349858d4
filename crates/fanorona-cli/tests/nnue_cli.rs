//! `fanorona nnue label` and `fanorona nnue train` end to end on a tiny game file.

#[allow(dead_code, reason = "each test binary uses part of the helpers")]
mod common;

use common::{Dir, fanorona, stderr, stdout};

/// One finished game of the standard board and rules (White a1 and c1 against Black's i5,
/// four quiet positions), one unfinished game, one game of the 5x5 board.
const GAMES: &str = "[Event \"tiny\"]\n[FEN \"8B/9/9/9/W1W6 w\"]\n[Result \"1-0\"]\n\n\
1. c1-d1 i5-h5 2. d1-e1 1-0\n\n\
[Event \"unfinished\"]\n\n1. f2-e3A *\n\n\
[Event \"small board\"]\n[Variant \"Fanoron-Dimy\"]\n[Result \"1/2-1/2\"]\n\n1. b2-c3A 1/2-1/2\n";

/// Two more finished games from the same start as the first of [`GAMES`], Black's stone going
/// elsewhere (four quiet positions each).
const OTHER_GAMES: &str = "[Event \"tiny 2\"]\n[FEN \"8B/9/9/9/W1W6 w\"]\n[Result \"1-0\"]\n\n\
1. c1-d1 i5-i4 2. d1-e1 1-0\n\n\
[Event \"tiny 3\"]\n[FEN \"8B/9/9/9/W1W6 w\"]\n[Result \"1-0\"]\n\n\
1. c1-d1 i5-h4 2. d1-e1 1-0\n";

fn json(out: &std::process::Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", stderr(out));
    serde_json::from_str(&stdout(out)).unwrap()
}

#[test]
fn label_writes_one_record_per_quiet_position() {
    let dir = Dir::new();
    let games = dir.path("games.fgn");
    std::fs::write(&games, GAMES).unwrap();
    let data = dir.path("t.data");
    let out = fanorona(&[
        "nnue", "label", &games, "--out", &data, "--depth", "1", "--json",
    ]);
    let v = json(&out);
    assert_eq!(v["games"], 1);
    assert_eq!(v["positions"], 4);
    assert_eq!(v["skipped_unfinished"], 1);
    assert_eq!(v["skipped_other_rules"], 1);
    let bytes = std::fs::read(&data).unwrap();
    assert_eq!(bytes.len(), 16 + 4 * 24);
    assert_eq!(&bytes[..16], b"FANDATA\0\x01\0\0\0\x18\0\0\0");
    // The positions by hand: a1 c1 / i5 White to move, a1 d1 / i5 Black, a1 d1 / h5 White,
    // a1 e1 / h5 Black; White won; no capture: 0, 1, 2, 3 turns.
    let want = [
        (0b101u64, 1u64 << 44, 0u8, 2u8),
        (0b1001, 1 << 44, 1, 0),
        (0b1001, 1 << 43, 0, 2),
        (0b10001, 1 << 43, 1, 0),
    ];
    for (i, (white, black, side, result)) in want.into_iter().enumerate() {
        let r = &bytes[16 + 24 * i..16 + 24 * (i + 1)];
        assert_eq!(
            u64::from_le_bytes(r[0..8].try_into().unwrap()),
            white,
            "record {i}"
        );
        assert_eq!(
            u64::from_le_bytes(r[8..16].try_into().unwrap()),
            black,
            "record {i}"
        );
        assert_eq!((r[16], r[17]), (side, result), "record {i}");
        assert_eq!(u16::from_le_bytes([r[18], r[19]]), i as u16, "record {i}");
        // White is a stone up: the side to move's score has the sign of its material.
        let score = i16::from_le_bytes([r[20], r[21]]);
        assert!(
            if side == 0 { score > 50 } else { score < -50 },
            "record {i}: {score}"
        );
        assert_eq!(&r[22..24], &[0, 0]);
    }
}

#[test]
fn a_game_that_repeats_an_earlier_one_is_skipped_and_counted() {
    let dir = Dir::new();
    let games = dir.path("games.fgn");
    // The tiny game three times (twice in games.fgn, the third copy in again.fgn), the other
    // two once.
    std::fs::write(&games, [GAMES, GAMES, OTHER_GAMES].join("\n")).unwrap();
    let again = dir.path("again.fgn");
    std::fs::write(&again, GAMES).unwrap();
    let data = dir.path("t.data");
    let out = fanorona(&[
        "nnue", "label", &games, &again, "--out", &data, "--depth", "1", "--json",
    ]);
    let v = json(&out);
    assert_eq!(v["games"], 3);
    assert_eq!(v["positions"], 12);
    assert_eq!(v["skipped_repeats"], 2);
    assert_eq!(v["skipped_unfinished"], 3);
    assert_eq!(std::fs::read(&data).unwrap().len(), 16 + 12 * 24);
    // A different result of the same turns is another game (the result is part of what is
    // learnt): the drawn copy in again.fgn is labelled, the second copy in games.fgn is not.
    let drawn = GAMES.replacen("1-0", "1/2-1/2", 2);
    std::fs::write(&again, drawn).unwrap();
    let v = json(&fanorona(&[
        "nnue", "label", &games, &again, "--out", &data, "--depth", "1", "--json",
    ]));
    assert_eq!(
        (v["games"].as_u64(), v["skipped_repeats"].as_u64()),
        (Some(4), Some(1))
    );
}

#[test]
fn threads_and_the_validation_split_keep_the_order() {
    let dir = Dir::new();
    let games = dir.path("games.fgn");
    // Three finished games: 1, 2, 3; with --valid-every 2 the second goes to the validation
    // file.
    std::fs::write(&games, [GAMES, OTHER_GAMES].join("\n")).unwrap();
    let (t1, v1, t2, v2) = (
        dir.path("t1.data"),
        dir.path("v1.data"),
        dir.path("t2.data"),
        dir.path("v2.data"),
    );
    let common = ["--depth", "2", "--valid-every", "2", "--json"];
    let a = [
        &["nnue", "label", &games, "--out", &t1, "--valid-out", &v1][..],
        &common,
    ]
    .concat();
    let b = [
        &[
            "nnue",
            "label",
            &games,
            "--out",
            &t2,
            "--valid-out",
            &v2,
            "--threads",
            "2",
        ][..],
        &common,
    ]
    .concat();
    let v = json(&fanorona(&a));
    assert_eq!(
        (v["games"].as_u64(), v["valid_games"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(
        (v["positions"].as_u64(), v["valid_positions"].as_u64()),
        (Some(8), Some(4))
    );
    json(&fanorona(&b));
    assert_eq!(std::fs::read(&t1).unwrap(), std::fs::read(&t2).unwrap());
    assert_eq!(std::fs::read(&v1).unwrap(), std::fs::read(&v2).unwrap());
    assert_eq!(std::fs::read(&t1).unwrap().len(), 16 + 8 * 24);
}

#[test]
fn bad_games_are_located_errors_and_write_nothing() {
    let dir = Dir::new();
    let data = dir.path("t.data");
    let illegal = dir.path("illegal.fgn");
    std::fs::write(
        &illegal,
        "[Event \"x\"]\n[Result \"1-0\"]\n\n1. f2-e3A d5-d4A 2. c3-b4 1-0\n",
    )
    .unwrap();
    let out = fanorona(&["nnue", "label", &illegal, "--out", &data]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("illegal.fgn:4:21: game 1: turn 2 (White): illegal turn \"c3-b4\""),
        "{}",
        stderr(&out)
    );
    assert!(!std::path::Path::new(&data).exists());
    let syntax = dir.path("syntax.fgn");
    std::fs::write(&syntax, "[Event \"x\n").unwrap();
    let out = fanorona(&["nnue", "label", &syntax, "--out", &data]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("syntax.fgn:1:8: game 1:"),
        "{}",
        stderr(&out)
    );
    assert!(!std::path::Path::new(&data).exists());
}

#[test]
fn train_writes_the_same_network_twice_and_rejects_bad_data() {
    let dir = Dir::new();
    let games = dir.path("games.fgn");
    std::fs::write(&games, GAMES).unwrap();
    let data = dir.path("t.data");
    json(&fanorona(&[
        "nnue", "label", &games, "--out", &data, "--depth", "1", "--json",
    ]));
    let (n1, n2) = (dir.path("a.nnue"), dir.path("b.nnue"));
    // --valid takes every file up to the next option.
    let args = |net: &str| {
        [
            "nnue", "train", &data, "--valid", &data, &data, "--out", net, "--hidden", "4",
            "--epochs", "3", "--json",
        ]
        .map(str::to_owned)
    };
    let v = json(&fanorona(&args(&n1).each_ref().map(String::as_str)));
    assert_eq!(v["training_positions"], 4);
    assert_eq!(v["validation_positions"], 8);
    assert_eq!(v["per_epoch"].as_array().unwrap().len(), 3);
    assert!(v["valid_loss"].as_f64().unwrap() >= 0.0);
    json(&fanorona(&args(&n2).each_ref().map(String::as_str)));
    let net = std::fs::read(&n1).unwrap();
    assert_eq!(net, std::fs::read(&n2).unwrap());
    // 36 header bytes, 2 * (90 + 1 + 2) * 4 weights, b2 and the checksum.
    assert_eq!(net.len(), 36 + 2 * 93 * 4 + 4 + 8);
    assert_eq!(&net[..8], b"FANNUE\x00\x01");
    // A damaged data file: the second record's side to move is 7.
    let mut bytes = std::fs::read(&data).unwrap();
    bytes[16 + 24 + 16] = 7;
    let bad = dir.path("bad.data");
    std::fs::write(&bad, &bytes).unwrap();
    let out = fanorona(&["nnue", "train", &bad, "--out", &dir.path("c.nnue")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("bad.data: record 1 (byte 40): bad record: side to move not 0 or 1"),
        "{}",
        stderr(&out)
    );
    assert!(!std::path::Path::new(&dir.path("c.nnue")).exists());
}

/// `nnue train --buckets B`: B sets of output weights in a network file of version 3 (B = 1
/// is the file of before); B out of 1..=16 is refused.
#[test]
fn train_buckets_write_a_version_3_network() {
    let dir = Dir::new();
    let games = dir.path("games.fgn");
    std::fs::write(&games, GAMES).unwrap();
    let data = dir.path("t.data");
    json(&fanorona(&[
        "nnue", "label", &games, "--out", &data, "--depth", "1", "--json",
    ]));
    let (one, three) = (dir.path("one.nnue"), dir.path("three.nnue"));
    let train = |net: &str, buckets: &str| {
        fanorona(&[
            "nnue",
            "train",
            &data,
            "--out",
            net,
            "--hidden",
            "4",
            "--epochs",
            "2",
            "--buckets",
            buckets,
            "--json",
        ])
    };
    let v = json(&train(&three, "3"));
    assert_eq!(v["buckets"], 3);
    let net = std::fs::read(&three).unwrap();
    // 44 header bytes (the buckets after S), W1 and b1 (2 * (90 + 1) * 4), three sets of w2
    // (2 * 3 * 8) and of b2 (3 * 4), the checksum.
    assert_eq!(net.len(), 44 + 2 * 91 * 4 + 2 * 3 * 8 + 3 * 4 + 8);
    assert_eq!(&net[..8], b"FANNUE\x00\x03");
    assert_eq!(&net[40..44], &3u32.to_le_bytes());
    // One bucket, the default, is the version 1 file of the same options without --buckets.
    assert_eq!(json(&train(&one, "1"))["buckets"], 1);
    let plain = dir.path("plain.nnue");
    json(&fanorona(&[
        "nnue", "train", &data, "--out", &plain, "--hidden", "4", "--epochs", "2", "--json",
    ]));
    let net = std::fs::read(&one).unwrap();
    assert_eq!(&net[..8], b"FANNUE\x00\x01");
    assert_eq!(net, std::fs::read(&plain).unwrap());
    for bad in ["0", "17"] {
        let out = train(&dir.path("bad.nnue"), bad);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(stderr(&out).contains("--buckets"), "{}", stderr(&out));
    }
}

/// `nnue label --shard K/N`: the shards' data files together hold the records of the whole
/// run, and --valid-out takes the games it takes in the whole run.
#[test]
fn label_shards_together_hold_the_whole_run() {
    let dir = Dir::new();
    let games = dir.path("games.fgn");
    // Three finished games (1, 2, 3); --valid-every 2 holds out game 2.
    std::fs::write(&games, [GAMES, OTHER_GAMES].join("\n")).unwrap();
    let label = |out: &str, valid: &str, shard: Option<&str>| {
        let mut args = vec![
            "nnue",
            "label",
            &games,
            "--out",
            out,
            "--valid-out",
            valid,
            "--depth",
            "2",
            "--valid-every",
            "2",
            "--json",
        ];
        if let Some(s) = shard {
            args.extend(["--shard", s]);
        }
        json(&fanorona(&args))
    };
    let records = |files: &[&str]| {
        let mut all: Vec<Vec<u8>> = Vec::new();
        for f in files {
            let bytes = std::fs::read(f).unwrap();
            // A 16-byte header, then 24-byte records.
            all.extend(bytes[16..].chunks(24).map(<[u8]>::to_vec));
        }
        all.sort();
        all
    };
    let (t, v) = (dir.path("t.data"), dir.path("v.data"));
    label(&t, &v, None);
    let (t1, v1, t2, v2) = (
        dir.path("t1.data"),
        dir.path("v1.data"),
        dir.path("t2.data"),
        dir.path("v2.data"),
    );
    // Shard 1/2 has games 1 and 3, shard 2/2 game 2 (held out).
    let a = label(&t1, &v1, Some("1/2"));
    assert_eq!(
        (a["games"].as_u64(), a["valid_games"].as_u64()),
        (Some(2), Some(0)),
        "{a}"
    );
    assert_eq!(a["skipped_other_shards"], 1, "{a}");
    let b = label(&t2, &v2, Some("2/2"));
    assert_eq!(
        (b["games"].as_u64(), b["valid_games"].as_u64()),
        (Some(0), Some(1)),
        "{b}"
    );
    assert_eq!(records(&[&t1, &t2]), records(&[&t]));
    assert_eq!(records(&[&v1, &v2]), records(&[&v]));
    assert_eq!(records(&[&t]).len(), 8);
}

/// `nnue label --board 5x5` and `--rules game=vela`: the records of one board and game, in a
/// data file whose header names them; `nnue train` makes that variant's network, and refuses
/// data files of two variants together.
#[test]
fn other_boards_and_vela_get_their_own_data_and_networks() {
    let dir = Dir::new();
    // Fanoron-Dimy: White a1 c1 against Black e5 (bit 24), four quiet positions.
    let dimy = dir.path("dimy.fgn");
    std::fs::write(
        &dimy,
        "[Event \"dimy\"]\n[FEN \"4B/5/5/5/W1W2 w\"]\n[Result \"1-0\"]\n\n\
         1. c1-d1 e5-d5 2. d1-e1 1-0\n",
    )
    .unwrap();
    let data = dir.path("dimy.data");
    // By default the standard game: the 5x5 game is skipped.
    let v = json(&fanorona(&[
        "nnue", "label", &dimy, "--out", &data, "--depth", "1", "--json",
    ]));
    assert_eq!(
        (v["games"].as_u64(), v["skipped_other_rules"].as_u64()),
        (Some(0), Some(1))
    );
    let v = json(&fanorona(&[
        "nnue", "label", &dimy, "--board", "5x5", "--out", &data, "--depth", "1", "--json",
    ]));
    assert_eq!(v["variant"], "5x5");
    assert_eq!(v["positions"], 4);
    let bytes = std::fs::read(&data).unwrap();
    // Version 2, records of 24 bytes, 5 ranks, 5 files, game 0 (capture).
    let mut header = b"FANDATA\0".to_vec();
    for x in [2u32, 24, 5, 5, 0] {
        header.extend_from_slice(&x.to_le_bytes());
    }
    assert_eq!(&bytes[..28], header.as_slice());
    assert_eq!(bytes.len(), 28 + 4 * 24);
    // By hand: a1 c1 / e5 White, a1 d1 / e5 Black, a1 d1 / d5 White, a1 e1 / d5 Black.
    let want = [
        (0b101u64, 1u64 << 24, 0u8),
        (0b1001, 1 << 24, 1),
        (0b1001, 1 << 23, 0),
        (0b10001, 1 << 23, 1),
    ];
    for (i, (white, black, side)) in want.into_iter().enumerate() {
        let r = &bytes[28 + 24 * i..28 + 24 * (i + 1)];
        assert_eq!(u64::from_le_bytes(r[0..8].try_into().unwrap()), white);
        assert_eq!(u64::from_le_bytes(r[8..16].try_into().unwrap()), black);
        assert_eq!(r[16], side, "record {i}");
    }
    let net = dir.path("dimy.nnue");
    let v = json(&fanorona(&[
        "nnue", "train", &data, "--out", &net, "--hidden", "4", "--epochs", "2", "--json",
    ]));
    assert_eq!(v["variant"], "5x5");
    let bytes = std::fs::read(&net).unwrap();
    // Version 1 (a capture-game network), 5x5, 50 inputs, 4 hidden units.
    assert_eq!(&bytes[..8], b"FANNUE\x00\x01");
    assert_eq!(
        &bytes[8..24],
        &[5, 0, 0, 0, 5, 0, 0, 0, 50, 0, 0, 0, 4, 0, 0, 0]
    );
    assert_eq!(bytes.len(), 36 + 2 * 53 * 4 + 4 + 8);
    // The engine takes it for 5x5 games and keeps its own network for 5x9.
    let out = fanorona(&[
        "analyse",
        "--board",
        "5x5",
        "--eval-file",
        &net,
        "--depth",
        "2",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));

    // Vela: White, the giver, only moves; Black takes one stone. Two quiet positions (the
    // start, and White to move after Black's capture).
    let vela = dir.path("vela.fgn");
    std::fs::write(
        &vela,
        "[Variant \"Vela\"]\n[Result \"1/2-1/2\"]\n\n1. f2-e3 f3-f2A 1/2-1/2\n",
    )
    .unwrap();
    let vdata = dir.path("vela.data");
    let v = json(&fanorona(&[
        "nnue",
        "label",
        &vela,
        "--rules",
        "game=vela",
        "--out",
        &vdata,
        "--depth",
        "1",
        "--json",
    ]));
    assert_eq!(v["variant"], "5x9 vela");
    assert_eq!(v["positions"], 2);
    let bytes = std::fs::read(&vdata).unwrap();
    assert_eq!(&bytes[16..28], &[5, 0, 0, 0, 9, 0, 0, 0, 1, 0, 0, 0]);
    let vnet = dir.path("vela.nnue");
    json(&fanorona(&[
        "nnue", "train", &vdata, "--out", &vnet, "--hidden", "4", "--epochs", "2", "--json",
    ]));
    let bytes = std::fs::read(&vnet).unwrap();
    assert_eq!(&bytes[..8], b"FANNUE\x00\x02");
    assert_eq!(&bytes[8..20], &[5, 0, 0, 0, 9, 0, 0, 0, 1, 0, 0, 0]);
    // Two variants in one training run are refused, naming both files.
    let out = fanorona(&[
        "nnue",
        "train",
        &data,
        "--valid",
        &vdata,
        "--out",
        &dir.path("mixed.nnue"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("vela.data holds positions of 5x9 vela"),
        "{err}"
    );
    assert!(err.contains("dimy.data of 5x5"), "{err}");
    // Rules that no network is made for.
    let out = fanorona(&[
        "nnue",
        "label",
        &dimy,
        "--rules",
        "stuck=draws",
        "--out",
        &dir.path("x.data"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no networks are made for"),
        "{}",
        stderr(&out)
    );
}

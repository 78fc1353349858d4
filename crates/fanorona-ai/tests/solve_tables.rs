//! Endgame tables: generation against retrograde analysis, the file format, and the committed
//! tables of the standard board.

mod common;

use std::path::PathBuf;

use fanorona_ai::solve::tablebase::{HEADER_LEN, Probe, TableError, Tablebase};
use fanorona_ai::solve::{self, Budget, Value, retro, tablegen};
use fanorona_core::{BoardSize, Position};

fn pos(fen: &str) -> Position {
    Position::from_fen_with(fen, solve::solver_rules()).expect("valid position string")
}

use common::tables as generate;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fanorona-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Every position reachable from `start` that the tables cover has the value and distance
/// retrograde analysis finds.
fn agree_with_retro(tables: &Tablebase, start: &Position) -> usize {
    let s = retro::solve(start, &Budget::default(), &mut |_| {}).expect("small");
    let mut checked = 0;
    for (p, v, d) in s.positions() {
        if let Some(probe) = tables.probe(&p) {
            assert_eq!((probe.wdl, probe.distance), (v, d), "{p}");
            checked += 1;
        }
    }
    checked
}

#[test]
fn tables_agree_with_retrograde_analysis() {
    let tables = generate(BoardSize::TELO, 4);
    assert_eq!(tables.max_stones(BoardSize::TELO), 4);
    for fen in ["1B1/3/W1W w", "BB1/3/W1W b", "B2/1W1/B1W w", "3/BWB/1W1 b"] {
        assert!(agree_with_retro(&tables, &pos(fen)) > 50, "{fen}");
    }
    let tables = generate(BoardSize::DIMY, 3);
    for fen in ["5/1B3/5/W3W/5 w", "5/1B1B1/5/2W2/5 b"] {
        assert!(agree_with_retro(&tables, &pos(fen)) > 1000, "{fen}");
    }
}

#[test]
fn hand_checked_probes_on_the_standard_board() {
    let tables = generate(BoardSize::STANDARD, 3);
    // c1-d2 approaches e3 along the diagonal: a win in 1.
    let p = pos("9/9/4B4/9/2W6 w");
    assert_eq!(
        tables.probe(&p),
        Some(Probe {
            wdl: Value::Win,
            distance: 1
        })
    );
    let (turn, after) = tables.best_turn(&p).unwrap();
    assert_eq!(turn.to_string(), "c1-d2A");
    assert_eq!(
        after,
        Probe {
            wdl: Value::Loss,
            distance: 0
        }
    );
    // The same stones with Black to move: the colour swap of a position with White to move.
    let q = pos("9/9/4B4/9/2W6 b");
    let swapped = pos("9/9/4W4/9/2B6 w");
    assert_eq!(tables.probe(&q), tables.probe(&swapped));
    // A side to move without stones has lost; a position the tables do not cover is None.
    assert_eq!(
        tables.probe(&pos("9/9/4B4/9/9 w")),
        Some(Probe {
            wdl: Value::Loss,
            distance: 0
        })
    );
    assert_eq!(tables.probe(&pos("9/9/3BB4/9/2WW5 w")), None); // 4 stones
    assert_eq!(tables.probe(&Position::start(BoardSize::DIMY)), None); // another board
    // Rules that change the game are not covered; the no-capture limit is (see the docs).
    let mut rules = solve::solver_rules();
    rules = rules.with_compulsory_continuation(true);
    assert_eq!(tables.probe(&p.with_rules_unchecked(rules)), None);
    assert!(
        tables
            .probe(&p.with_rules_unchecked(fanorona_core::Rules::STANDARD))
            .is_some()
    );
    let probe = Probe {
        wdl: Value::Win,
        distance: 7,
    };
    assert!(probe.holds_under_limit(90, 100));
    assert!(!probe.holds_under_limit(95, 100));
}

#[test]
fn files_round_trip_and_damage_is_reported() {
    let tables = generate(BoardSize::TELO, 3);
    let dir = temp_dir("tables");
    let files = tables.save(&dir).unwrap();
    // 1v1, 2v1 and 1v2 on 9 points: 72, 252 and 252 entries after a 32-byte header.
    let mut sizes: Vec<u64> = files.iter().map(|f| f.1).collect();
    sizes.sort_unstable();
    assert_eq!(sizes, [32 + 72, 32 + 252, 32 + 252]);
    let loaded = Tablebase::load(&dir).unwrap();
    assert_eq!(loaded.positions(), 72 + 252 + 252);
    assert_eq!(loaded.max_stones(BoardSize::TELO), 3);
    for fen in ["1B1/3/W1W w", "1B1/3/W1W b", "3/1B1/W2 w"] {
        assert_eq!(loaded.probe(&pos(fen)), tables.probe(&pos(fen)), "{fen}");
    }
    // A flipped entry byte breaks the checksum.
    let path = dir.join("3x3-2v1.fntb");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[HEADER_LEN + 5] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    let err = Tablebase::load(&dir).unwrap_err();
    assert!(matches!(err, TableError::Checksum { .. }), "{err}");
    // A truncated file and a wrong magic are format errors that name the file.
    std::fs::write(&path, &bytes[..20]).unwrap();
    let err = Tablebase::load(&dir).unwrap_err();
    assert!(err.to_string().contains("3x3-2v1.fntb"), "{err}");
    assert!(
        err.to_string().contains("shorter than the 32-byte header"),
        "{err}"
    );
    bytes[0] = b'X';
    std::fs::write(&path, &bytes).unwrap();
    let err = Tablebase::load(&dir).unwrap_err();
    assert!(err.to_string().contains("wrong magic"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
    let err = Tablebase::load(&dir).unwrap_err();
    assert!(matches!(err, TableError::Io { .. }), "{err}");
    std::fs::create_dir_all(&dir).unwrap();
    let err = Tablebase::load(&dir).unwrap_err();
    assert!(matches!(err, TableError::NoTables { .. }), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(matches!(
        Tablebase::generate(
            BoardSize::TELO,
            solve::solver_rules(),
            9,
            &Budget::default(),
            &mut |_| {}
        ),
        Err(TableError::BadStoneCount { max_stones: 9 })
    ));
}

/// Runs `f` on another thread and waits at most 20 seconds for it: a loader that hung would
/// fail the test instead of stalling it.
fn within<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(std::time::Duration::from_secs(20))
        .expect("the loader returned instead of hanging")
}

/// Tables of 3x3 up to 3 stones written by the on-disk generator (both layers) into a fresh
/// directory.
fn generated_dir(name: &str) -> PathBuf {
    let dir = temp_dir(name);
    tablegen::generate(
        &dir,
        &tablegen::Options::new(BoardSize::TELO, solve::solver_rules(), 3),
        &Budget::default(),
        &mut |_| {},
        &mut |_| {},
    )
    .expect("small tables generate");
    dir
}

/// Every way of reading tables (the engine's two loaders, the generator resuming, the
/// consistency check) refuses a FIFO, a directory, a truncated file and a file of the wrong
/// size with a typed error naming the file, without hanging on the FIFO (nothing writes to
/// it) and without reading or allocating what a lying header claims.
#[test]
fn hostile_table_files_are_refused_without_hanging() {
    type Reader = fn(&std::path::Path) -> Result<(), TableError>;
    type Spoil = fn(&std::path::Path);
    let readers: [(&str, Reader); 4] = [
        ("load", |d| Tablebase::load(d).map(drop)),
        ("load_wdl", |d| Tablebase::load_wdl(d).map(drop)),
        ("generate", |d| {
            tablegen::generate(
                d,
                &tablegen::Options::new(BoardSize::TELO, solve::solver_rules(), 3),
                &Budget::default(),
                &mut |_| {},
                &mut |_| {},
            )
            .map(drop)
        }),
        ("check", |d| {
            tablegen::check(d, BoardSize::TELO, 3, &mut |_| {}).map(drop)
        }),
    ];
    let damage: [(&str, Spoil); 5] = [
        ("a FIFO", |path| {
            std::fs::remove_file(path).unwrap();
            let made = std::process::Command::new("mkfifo").arg(path).status();
            assert!(made.is_ok_and(|s| s.success()), "mkfifo {}", path.display());
        }),
        ("a directory", |path| {
            std::fs::remove_file(path).unwrap();
            std::fs::create_dir(path).unwrap();
        }),
        ("bytes of entries after the header, expected", |path| {
            // Truncated inside the entries.
            let bytes = std::fs::read(path).unwrap();
            std::fs::write(path, &bytes[..HEADER_LEN + 10]).unwrap();
        }),
        ("bytes of entries after the header, expected", |path| {
            // One byte too many.
            let mut bytes = std::fs::read(path).unwrap();
            bytes.push(0);
            std::fs::write(path, &bytes).unwrap();
        }),
        ("bytes of entries after the header, expected", |path| {
            // A header claiming the 4v4 class of the 9x7 board (2.7e11 entries): refused by
            // the file's length before anything is allocated or read.
            let mut bytes = std::fs::read(path).unwrap();
            bytes[10..14].copy_from_slice(&[9, 7, 4, 4]);
            let count: u64 = 595_665 * 455_126; // C(63, 4) * C(59, 4)
            bytes[16..24].copy_from_slice(&count.to_le_bytes());
            std::fs::write(path, &bytes).unwrap();
        }),
    ];
    let mut cases = 0;
    for ext in ["fntb", "fnwdl"] {
        for (what, spoil) in damage {
            for (name, read) in readers {
                if name == "load" && ext == "fnwdl" || name == "load_wdl" && ext == "fntb" {
                    continue; // not read by that loader
                }
                if what == "a FIFO" && !cfg!(unix) {
                    continue; // no FIFOs to make
                }
                let dir = generated_dir(&format!("hostile-{cases}"));
                let file = dir.join(format!("3x3-2v1.{ext}"));
                spoil(&file);
                let d = dir.clone();
                let err = within(move || read(&d)).expect_err("a damaged file is refused");
                let text = err.to_string();
                assert!(
                    matches!(err, TableError::Format { .. }),
                    "{name} {ext} {what}: {text}"
                );
                assert!(text.contains("3x3-2v1"), "{name} {ext} {what}: {text}");
                assert!(text.contains(what), "{name} {ext} {what}: {text}");
                std::fs::remove_dir_all(&dir).unwrap();
                cases += 1;
            }
        }
    }
    assert_eq!(cases, if cfg!(unix) { 2 * 5 * 3 } else { 2 * 4 * 3 });
}

/// The tables committed under `tables/` (5x9, up to 4 stones) load and agree with tables
/// generated afresh.
#[test]
fn committed_standard_tables() {
    let Some(dir) = common::repository_dir("tables") else {
        return;
    };
    let tables = Tablebase::load(&dir).expect("the committed tables load");
    assert_eq!(tables.max_stones(BoardSize::STANDARD), 4);
    assert_eq!(tables.positions(), 2_173_050);
    let fresh = generate(BoardSize::STANDARD, 3);
    for fen in [
        "9/9/4B4/9/2W6 w",
        "9/9/4B4/9/2W6 b",
        "B8/9/9/9/7WW w",
        "B8/9/9/9/7WW b",
        "4B4/9/9/9/W7W b",
    ] {
        let p = pos(fen);
        assert_eq!(tables.probe(&p), fresh.probe(&p), "{fen}");
    }
    // Two against two: play the tables' best turns and see the promised result on time.
    let mut p = pos("1B7/9/9/5B3/WW7 w");
    let first = tables.probe(&p).unwrap();
    let mover = p.side_to_move();
    for _ in 0..first.distance {
        let (turn, _) = tables.best_turn(&p).unwrap();
        p = p.play_unchecked(&turn);
    }
    match first.wdl {
        Value::Draw => assert!(p.outcome().is_none()),
        Value::Win => assert_eq!(p.outcome().unwrap().winner, Some(mover)),
        Value::Loss => assert_eq!(p.outcome().unwrap().winner, Some(mover.other())),
    }
}

/// The on-disk generator (un-moves, no stored edges) writes exactly the entries of the
/// in-memory one (stored child and parent lists), which is checked against retrograde analysis
/// above; under both stuck rules; and its files pass the forward consistency check.
#[test]
fn disk_generation_matches_the_in_memory_generator_and_checks() {
    use fanorona_ai::solve::tablegen;
    use fanorona_core::StuckRule;
    let draws = solve::solver_rules().with_stuck(StuckRule::Draws);
    for (size, stones, rules) in [
        (BoardSize::TELO, 5, solve::solver_rules()),
        (BoardSize::TELO, 4, draws),
        (BoardSize::new(3, 5).unwrap(), 4, solve::solver_rules()),
        (BoardSize::DIMY, 4, solve::solver_rules()),
    ] {
        let dir = temp_dir(&format!("tablegen-{size}-{stones}"));
        let report = tablegen::generate(
            &dir,
            &tablegen::Options::new(size, rules, stones),
            &Budget::default(),
            &mut |_| {},
            &mut |_| {},
        )
        .expect("small tables generate");
        assert!(report.classes.iter().all(|c| !c.resumed));
        let (mem, _) =
            Tablebase::generate(size, rules, stones, &Budget::default(), &mut |_| {}).unwrap();
        let disk = Tablebase::load(&dir).unwrap();
        assert_eq!(disk.positions(), mem.positions());
        assert_eq!(report.positions, mem.positions());
        let mem_dir = temp_dir(&format!("tablegen-mem-{size}-{stones}"));
        for (path, _) in mem.save(&mem_dir).unwrap() {
            let name = path.file_name().unwrap();
            assert_eq!(
                std::fs::read(&path).unwrap(),
                std::fs::read(dir.join(name)).unwrap(),
                "{size} {name:?}"
            );
        }
        let checked = tablegen::check(&dir, size, stones, &mut |_| {}).expect("consistent");
        assert_eq!(checked.positions, report.positions);
        // The two-bit layer answers like the distance layer.
        let wdl = Tablebase::load_wdl(&dir).unwrap();
        assert!(wdl.bytes() * 3 < disk.bytes());
        let again = tablegen::generate(
            &dir,
            &tablegen::Options::new(size, rules, stones),
            &Budget::default(),
            &mut |_| {},
            &mut |_| {},
        )
        .unwrap();
        assert!(again.classes.iter().all(|c| c.resumed));
        std::fs::remove_dir_all(&dir).unwrap();
        std::fs::remove_dir_all(&mem_dir).unwrap();
    }
}

/// A wrong entry (a win turned into a draw, with the checksum and the two-bit layer made to
/// match) is found by the consistency check, which names the position.
#[test]
fn the_consistency_check_finds_a_wrong_entry() {
    use fanorona_ai::solve::tablegen;
    let size = BoardSize::TELO;
    let dir = temp_dir("tablegen-tamper");
    tablegen::generate(
        &dir,
        &tablegen::Options::new(size, solve::solver_rules(), 3),
        &Budget::default(),
        &mut |_| {},
        &mut |_| {},
    )
    .unwrap();
    // One class alone: 2v1 on 3x3 is C(9, 2) * C(7, 1) = 252 positions.
    let one = tablegen::check_classes(&dir, size, 3, &[(2, 1)], 2, &mut |_| {}).unwrap();
    assert_eq!((one.classes, one.positions), (1, 252));
    let tables = Tablebase::load(&dir).unwrap();
    let wdl = Tablebase::load_wdl(&dir).unwrap();
    // White a1 and c1 against Black b3, White to move: a win in 7 (the doc example).
    let p = pos("1B1/3/W1W w");
    assert_eq!(wdl.probe_wdl(&p), Some(Value::Win));
    assert_eq!(tables.probe(&p).unwrap().distance, 7);
    let path = dir.join("3x3-2v1.fntb");
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes[HEADER_LEN..].iter().position(|&b| b == 8).unwrap() + HEADER_LEN;
    bytes[at] = 0;
    let sum = fnv(&bytes[HEADER_LEN..]);
    bytes[24..32].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    // The two-bit layer still says win: the layers disagree.
    let err = tablegen::check(&dir, size, 3, &mut |_| {}).unwrap_err();
    assert!(err.to_string().contains("disagrees"), "{err}");
    // Make the two-bit layer agree: now the children give it away.
    let wpath = dir.join("3x3-2v1.fnwdl");
    let mut w = std::fs::read(&wpath).unwrap();
    let i = at - HEADER_LEN;
    w[HEADER_LEN + i / 4] &= !(3 << (2 * (i % 4)));
    let sum = fnv(&w[HEADER_LEN..]);
    w[24..32].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(&wpath, &w).unwrap();
    let err = tablegen::check(&dir, size, 3, &mut |_| {}).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("is draw, its children make it win in 7"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

fn fnv(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Sets entry `i` of a class to a draw in both layers, checksums recomputed (the format of
/// docs/solver.md: one byte an entry; two bits, `0` a draw, entry `i` in bits `2 (i % 4)` of
/// byte `i / 4`).
fn make_draw(dir: &std::path::Path, class: &str, i: usize) {
    let path = dir.join(format!("{class}.fntb"));
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[HEADER_LEN + i] = 0;
    let sum = fnv(&bytes[HEADER_LEN..]);
    bytes[24..32].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let wpath = dir.join(format!("{class}.fnwdl"));
    let mut w = std::fs::read(&wpath).unwrap();
    w[HEADER_LEN + i / 4] &= !(3 << (2 * (i % 4)));
    let sum = fnv(&w[HEADER_LEN..]);
    w[24..32].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(&wpath, &w).unwrap();
}

/// The 5x9 tables up to 4 stones, generated on 1, 2 and 3 threads, are byte for byte the
/// committed ones (`tables/`, made by the single-threaded generator before threads came);
/// the consistency check on several threads names the same, first, wrong entry as on one.
#[test]
fn tables_are_the_same_on_any_number_of_threads() {
    let size = BoardSize::STANDARD;
    // The committed tables where the repository is here; in the published package, the
    // one-thread run's files (the first made below).
    let committed = common::repository_dir("tables");
    let mut dirs: Vec<PathBuf> = Vec::new();
    for threads in [1, 2, 3] {
        let dir = temp_dir(&format!("tablegen-threads-{threads}"));
        let options = tablegen::Options::new(size, solve::solver_rules(), 4).threads(threads);
        let report =
            tablegen::generate(&dir, &options, &Budget::default(), &mut |_| {}, &mut |_| {})
                .unwrap();
        assert_eq!(report.positions, 2_173_050);
        // 3v1 is 595,980 positions, ten chunks: the threads share it.
        assert!(report.threads <= threads);
        for class in ["1v1", "2v1", "1v2", "3v1", "1v3", "2v2"] {
            for ext in ["fntb", "fnwdl"] {
                let name = format!("5x9-{class}.{ext}");
                let reference = committed.as_ref().or(dirs.first()).unwrap_or(&dir);
                assert_eq!(
                    std::fs::read(dir.join(&name)).unwrap(),
                    std::fs::read(reference.join(&name)).unwrap(),
                    "{name} on {threads} threads"
                );
            }
        }
        dirs.push(dir);
    }
    // Two wrong entries of 3v1, in its third and ninth chunk of 65,536 positions (3v1 is all
    // wins but 362 positions; these two are wins): the first is named, on any threads.
    let dir = &dirs[0];
    let entries = std::fs::read(dir.join("5x9-3v1.fntb")).unwrap();
    // An entry `1 + d` with `d` odd is a win.
    let win_at = |from: usize| {
        (from..)
            .find(|&i| entries[HEADER_LEN + i] != 0 && entries[HEADER_LEN + i].is_multiple_of(2))
            .unwrap()
    };
    let (first, second) = (win_at(2 * 65_536 + 17), win_at(8 * 65_536 + 5));
    make_draw(dir, "5x9-3v1", second);
    make_draw(dir, "5x9-3v1", first);
    for threads in [1, 2, 3] {
        let err = tablegen::check_classes(dir, size, 4, &[(3, 1)], threads, &mut |_| {})
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(&format!("entry {first} (")) && err.contains("is draw, its children"),
            "{threads} threads: {err}"
        );
    }
    for dir in dirs {
        std::fs::remove_dir_all(dir).unwrap();
    }
}

/// The compact files of the committed 5x9 tables (up to 4 stones) expand to the two-bit
/// layers byte for byte, are read in their place, are smaller, and a damaged one is refused.
#[test]
fn compact_tables_round_trip() {
    use fanorona_ai::solve::compact;
    // The committed tables, or in the published package the same tables made afresh.
    let fresh = temp_dir("compact-source");
    let committed = common::repository_dir("tables").unwrap_or_else(|| {
        let options = tablegen::Options::new(BoardSize::STANDARD, solve::solver_rules(), 4);
        tablegen::generate(
            &fresh,
            &options,
            &Budget::default(),
            &mut |_| {},
            &mut |_| {},
        )
        .unwrap();
        fresh.clone()
    });
    let dir = temp_dir("compact");
    std::fs::create_dir_all(&dir).unwrap();
    let classes = ["1v1", "2v1", "1v2", "3v1", "1v3", "2v2"];
    for class in classes {
        let name = format!("5x9-{class}.fnwdl");
        std::fs::copy(committed.join(&name), dir.join(&name)).unwrap();
    }
    let files = compact::compress_dir(&dir).unwrap();
    assert_eq!(files.len(), 6);
    let (two_bit, small) = files
        .iter()
        .fold((0, 0), |(a, b), f| (a + f.wdl_bytes, b + f.bytes));
    assert_eq!(two_bit, 543_456); // 6 headers of 32 bytes and ceil(count / 4) bytes each
    assert!(small * 3 < two_bit, "{small} of {two_bit}");
    let before = Tablebase::load_wdl(&dir).unwrap();
    for class in classes {
        std::fs::remove_file(dir.join(format!("5x9-{class}.fnwdl"))).unwrap();
    }
    // Read from the compact files alone.
    let after = Tablebase::load_wdl(&dir).unwrap();
    assert_eq!(after.positions(), 2_173_050);
    assert_eq!(after.bytes(), before.bytes());
    let p = pos("9/9/4B4/9/2W6 w");
    assert_eq!(after.probe_wdl(&p), Some(Value::Win));
    // Expanded: the committed files, byte for byte.
    assert_eq!(compact::expand_dir(&dir).unwrap().len(), 6);
    for class in classes {
        let name = format!("5x9-{class}.fnwdl");
        assert_eq!(
            std::fs::read(dir.join(&name)).unwrap(),
            std::fs::read(committed.join(&name)).unwrap(),
            "{name}"
        );
        std::fs::remove_file(dir.join(&name)).unwrap();
    }
    // A flipped byte of the stream: refused (checksum), naming the file.
    let path = dir.join("5x9-2v2.fnwdz");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[compact::HEADER_LEN + 100] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let err = Tablebase::load_wdl(&dir).unwrap_err();
    assert!(matches!(err, TableError::Checksum { .. }), "{err}");
    assert!(err.to_string().contains("5x9-2v2.fnwdz"), "{err}");
    // Cut short: refused before decoding.
    std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
    let err = Tablebase::load_wdl(&dir).unwrap_err().to_string();
    assert!(err.contains("offset 40"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
    let _ = std::fs::remove_dir_all(&fresh);
}

/// Resuming is by pair: a pair with one class's files missing (a run stopped between the two
/// renames) is solved again whole, the pairs before it are loaded, and the files are the same
/// as an uninterrupted run's; a run stopped by its time budget leaves only whole pairs.
#[test]
fn an_interrupted_pair_is_solved_again_whole() {
    let size = BoardSize::TELO;
    let rules = solve::solver_rules();
    let dir = temp_dir("tablegen-interrupted");
    let options = tablegen::Options::new(size, rules, 4).threads(2);
    tablegen::generate(&dir, &options, &Budget::default(), &mut |_| {}, &mut |_| {}).unwrap();
    let read = |name: &str| std::fs::read(dir.join(name)).unwrap();
    let before: Vec<(String, Vec<u8>)> = ["1v1", "2v1", "1v2", "3v1", "1v3", "2v2"]
        .iter()
        .flat_map(|c| ["fntb", "fnwdl"].map(|e| format!("3x3-{c}.{e}")))
        .map(|n| (n.clone(), read(&n)))
        .collect();
    // 1v3's two-bit layer lost: the pair 3v1 + 1v3 is solved again, both classes.
    std::fs::remove_file(dir.join("3x3-1v3.fnwdl")).unwrap();
    let r =
        tablegen::generate(&dir, &options, &Budget::default(), &mut |_| {}, &mut |_| {}).unwrap();
    let resumed: Vec<(u8, u8, bool)> = r
        .classes
        .iter()
        .map(|c| (c.stats.stm, c.stats.opp, c.resumed))
        .collect();
    assert_eq!(
        resumed,
        vec![
            (1, 1, true),
            (2, 1, true),
            (1, 2, true),
            (3, 1, false),
            (1, 3, false),
            (2, 2, true)
        ]
    );
    for (name, bytes) in &before {
        assert_eq!(&read(name), bytes, "{name}");
    }
    // Out of time at once: an error, and no class of the unfinished pair written.
    std::fs::remove_file(dir.join("3x3-2v2.fntb")).unwrap();
    let quick = Budget::default().with_max_time(std::time::Duration::ZERO);
    let err = tablegen::generate(&dir, &options, &quick, &mut |_| {}, &mut |_| {}).unwrap_err();
    assert!(matches!(err, TableError::Solve(_)), "{err}");
    assert!(!dir.join("3x3-2v2.fntb").exists());
    tablegen::generate(&dir, &options, &Budget::default(), &mut |_| {}, &mut |_| {}).unwrap();
    for (name, bytes) in &before {
        assert_eq!(&read(name), bytes, "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

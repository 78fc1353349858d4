//! `fanorona solve` as a user runs it.

#[allow(dead_code, reason = "each test binary uses part of the helpers")]
mod common;

use common::{Dir, fanorona, ok, stderr, stdout};

#[test]
fn solves_three_by_three_with_both_methods() {
    let out = fanorona(&["solve", "--board", "3x3", "--method", "both"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    assert!(
        text.starts_with("3x3 BBB/B1W/WWW w: win for White to move: White (to move) wins\n"),
        "{text}"
    );
    assert!(text.contains("best first turn: c2-b2A\n"), "{text}");
    assert!(
        text.contains("retrograde analysis: win in 11 turns; 1012 positions"),
        "{text}"
    );
    assert!(text.contains("proof-number search: win;"), "{text}");
    assert!(text.contains("cross-check: both methods agree"), "{text}");
    let out = fanorona(&[
        "solve", "--board", "3x3", "--method", "retro", "--line", "3",
    ]);
    assert!(stdout(&out).contains("best line: c2-b2A a3-a2A c1-c2A\n"));
}

#[test]
fn json_for_scripts() {
    let out = fanorona(&[
        "solve",
        "--fen",
        "3/1B1/W2 w",
        "--method",
        "layered",
        "--json",
    ]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("one JSON object");
    assert_eq!(v["value"], "loss");
    assert_eq!(v["distance"], 2);
    assert_eq!(v["side_to_move"], "White");
    assert_eq!(v["layered"]["value"], "loss");
    assert!(
        v["rules"]
            .as_str()
            .unwrap()
            .ends_with("no-capture-limit=off"),
        "the solver's default rules turn the no-capture limit off"
    );
}

#[test]
fn tables_generate_and_probe() {
    let dir = std::env::temp_dir().join(format!("fanorona-cli-tables-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let out = fanorona(&[
        "solve",
        "--board",
        "3x3",
        "--tables",
        d,
        "--max-stones",
        "3",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["positions"], 72 + 252 + 252);
    // Each class: a distance layer and a two-bit win/draw/loss layer.
    assert_eq!(v["classes"].as_array().unwrap().len(), 3);
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        6,
        "two files a class, the temporary folder gone"
    );
    let out = fanorona(&[
        "solve",
        "--board",
        "3x3",
        "--check-tables",
        d,
        "--max-stones",
        "3",
    ]);
    assert!(out.status.success(), "{}", stdout(&out));
    assert!(
        stdout(&out).starts_with("valid: 3 classes"),
        "{}",
        stdout(&out)
    );
    // Run again: every class is found on disk.
    let out = fanorona(&[
        "solve",
        "--board",
        "3x3",
        "--tables",
        d,
        "--max-stones",
        "3",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(
        v["classes"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["resumed"] == true)
    );
    // On two threads, into another directory: the same files.
    let two = dir.with_extension("two");
    let t = two.to_str().unwrap();
    let out = fanorona(&[
        "solve",
        "--board",
        "3x3",
        "--tables",
        t,
        "--max-stones",
        "3",
        "--threads",
        "2",
    ]);
    assert!(out.status.success(), "{}", stdout(&out));
    for class in ["1v1", "2v1", "1v2"] {
        for ext in ["fntb", "fnwdl"] {
            let name = format!("3x3-{class}.{ext}");
            assert_eq!(
                std::fs::read(dir.join(&name)).unwrap(),
                std::fs::read(two.join(&name)).unwrap(),
                "{name}"
            );
        }
    }
    // The compact form: written beside, read back in place of the two-bit layers.
    let out = fanorona(&["solve", "--compress-tables", t, "--json"]);
    assert!(out.status.success(), "{}", stdout(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["files"].as_array().unwrap().len(), 3);
    // 32-byte headers and ceil(n / 4) bytes: 72, 252 and 252 positions.
    assert_eq!(v["wdl_bytes"], 3 * 32 + 18 + 63 + 63);
    for class in ["1v1", "2v1", "1v2"] {
        std::fs::remove_file(two.join(format!("3x3-{class}.fnwdl"))).unwrap();
    }
    let out = fanorona(&["solve", "--expand-tables", t]);
    assert!(out.status.success(), "{}", stdout(&out));
    assert!(stdout(&out).starts_with("3 two-bit layers written"));
    for class in ["1v1", "2v1", "1v2"] {
        let name = format!("3x3-{class}.fnwdl");
        assert_eq!(
            std::fs::read(dir.join(&name)).unwrap(),
            std::fs::read(two.join(&name)).unwrap(),
            "{name}"
        );
    }
    std::fs::remove_dir_all(&two).unwrap();
    // --threads belongs to the tables.
    let out = fanorona(&["solve", "--board", "3x3", "--threads", "2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--threads is an option of --tables"));
    let out = fanorona(&["solve", "--probe", d, "--fen", "1B1/3/W1W w"]);
    assert!(out.status.success());
    assert_eq!(
        stdout(&out),
        "1B1/3/W1W w: win for White to move in 7 turns\nbest turn: a1-a2\n"
    );
    let out = fanorona(&["solve", "--probe", d, "--fen", "BBB/3/WWW w"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("do not cover"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn budgets_and_bad_input_are_errors() {
    let out = fanorona(&[
        "solve",
        "--board",
        "5x5",
        "--method",
        "retro",
        "--max-memory",
        "1M",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("memory budget of 1.00 MiB reached"), "{err}");
    let out = fanorona(&["solve", "--board", "3x3", "--max-memory", "lots"]);
    assert_eq!(out.status.code(), Some(2));
    let out = fanorona(&["solve", "--board", "4x4"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn one_search_with_prove() {
    let out = fanorona(&["solve", "--board", "3x3", "--prove", "black"]);
    assert!(out.status.success());
    assert!(
        stdout(&out).starts_with("3x3 BBB/B1W/WWW w: Black cannot force a win\n"),
        "{}",
        stdout(&out)
    );
    let out = fanorona(&["solve", "--board", "3x3", "--prove", "white", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["proved"], true);
    let out = fanorona(&["solve", "--board", "3x3", "--prove", "red"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn certificates_are_written_and_verified() {
    let dir = std::env::temp_dir().join(format!("fanorona-cert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("3x5.cert");
    let path = file.to_str().unwrap();
    let out = fanorona(&["solve", "--board", "3x5", "--certificate", path]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout(&out).contains("win for White to move"),
        "{}",
        stdout(&out)
    );
    let out = fanorona(&["verify-proof", path]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout(&out).contains("valid: 3x5 BBBBB/BW1BW/WWWWW w is a win"),
        "{}",
        stdout(&out)
    );
    let out = fanorona(&["verify-proof", path, "--json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["valid"], true);
    assert_eq!(json["value"], "win");
    // Damaged: the checksum no longer matches; located, exit code 1.
    let text = std::fs::read_to_string(&file).unwrap();
    let bad = dir.join("bad.cert");
    std::fs::write(&bad, text.replacen("value win", "value wix", 1)).unwrap();
    let out = fanorona(&["verify-proof", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.cert:5: invalid certificate"), "{err}");
    // A missing file is an error too: status 2, as in every command (not a verdict on a
    // certificate), without the OS error number.
    let out = fanorona(&["verify-proof", dir.join("none.cert").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("none.cert: No such file"), "{err}");
    assert!(!err.contains("os error"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn dfpn_proves_writes_a_certificate_and_resumes_from_its_checkpoint() {
    let dir = std::env::temp_dir().join(format!("fanorona-cli-dfpn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cert = dir.join("3x7.cert");
    let ckpt = dir.join("3x7.dfpn");
    let args = [
        "solve",
        "--board",
        "3x7",
        "--prove",
        "white",
        "--dfpn",
        "--checkpoint",
        ckpt.to_str().unwrap(),
        "--certificate",
        cert.to_str().unwrap(),
        "--json",
    ];
    let out = fanorona(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["proved"], true);
    assert_eq!(v["resumed"], false);
    let out = fanorona(&["verify-proof", cert.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stdout(&out));
    // Again: the checkpoint answers without expanding anything.
    let out = fanorona(&args);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        (v["resumed"].clone(), v["expanded"].clone()),
        (true.into(), 0.into())
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--tables` without a folder writes where the 3D client's endgame trainer reads: the user's
/// data folder (`$XDG_DATA_HOME/fanorona/tables` on Linux), and a second run finds them there.
#[cfg(target_os = "linux")]
#[test]
fn tables_without_a_folder_go_to_the_data_folder() {
    let home = common::Dir::new();
    let data = home.path("data");
    let run = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_fanorona"))
            .args(["solve", "--tables", "--max-stones", "3"])
            .env("HOME", home.path(""))
            .env("XDG_DATA_HOME", &data)
            .output()
            .expect("the fanorona binary runs")
    };
    let first = run();
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let tables = std::path::Path::new(&data).join("fanorona").join("tables");
    for class in ["1v1", "2v1", "1v2"] {
        for ext in ["fntb", "fnwdl"] {
            let file = tables.join(format!("5x9-{class}.{ext}"));
            assert!(file.is_file(), "{} is missing", file.display());
        }
    }
    // The second run loads the finished classes instead of solving them again.
    let before = std::fs::metadata(tables.join("5x9-2v1.fntb"))
        .unwrap()
        .modified()
        .unwrap();
    let second = run();
    assert!(
        second.status.success(),
        "{}",
        String::from_utf8_lossy(&second.stderr)
    );
    let after = std::fs::metadata(tables.join("5x9-2v1.fntb"))
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(before, after);
}

/// `--use-tables`: df-pn stops at the positions the board's endgame tables cover, says how
/// many it settled, and still writes a certificate `verify-proof` accepts (the endgames spelled
/// out from the tables); tables of another board are an error naming the folder.
#[test]
fn dfpn_with_endgame_tables() {
    let dir = common::Dir::new();
    let tables = dir.path("t3x7");
    let out = fanorona(&[
        "solve",
        "--tables",
        &tables,
        "--board",
        "3x7",
        "--max-stones",
        "4",
    ]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let cert = dir.path("3x7.cert");
    let out = fanorona(&[
        "solve",
        "--board",
        "3x7",
        "--prove",
        "white",
        "--dfpn",
        "--use-tables",
        &tables,
        "--certificate",
        &cert,
        "--json",
    ]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["proved"], true);
    assert!(v["table_hits"].as_u64().unwrap() > 0, "{v}");
    let out = fanorona(&["verify-proof", &cert]);
    assert!(out.status.success(), "{}", stdout(&out));
    assert!(stdout(&out).contains("is a win for the side to move"));
    // The 3x7 tables do not cover 3x5.
    let out = fanorona(&[
        "solve",
        "--board",
        "3x5",
        "--prove",
        "white",
        "--dfpn",
        "--use-tables",
        &tables,
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    let err = common::stderr(&out);
    assert!(
        err.contains("holds no endgame tables of the 3x5 board"),
        "{err}"
    );
}

#[test]
fn two_bounds_join_into_a_draw() {
    // A drawn 3x3 position (retrograde analysis says so, independently of the bound searches).
    let fen = "3/BB1/W1W w";
    let out = fanorona(&["solve", "--fen", fen, "--method", "retro"]);
    assert!(ok(&out).contains("draw for White to move"));
    let dir = Dir::new();
    let p = |name: &str| dir.path(name);
    for (side, name, claim) in [
        ("black", "wd.cert", "win-or-draw"),
        ("white", "dl.cert", "draw-or-loss"),
    ] {
        ok(&fanorona(&[
            "solve",
            "--fen",
            fen,
            "--prove",
            side,
            "--certificate",
            &p(name),
        ]));
        let says = ok(&fanorona(&["verify-proof", &p(name)]));
        assert!(says.contains(&format!("is a {claim}")), "{says}");
    }
    let join = |a: &str, b: &str, out: &str| {
        fanorona(&["verify-proof", &p(a), "--join", &p(b), "--out", &p(out)])
    };
    let says = ok(&join("dl.cert", "wd.cert", "draw.cert"));
    assert!(
        says.contains("written and valid: 3x3 3/BB1/W1W w is a draw"),
        "{says}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&ok(&fanorona(&["verify-proof", &p("draw.cert"), "--json"]))).unwrap();
    assert_eq!(json["value"], "draw");
    assert_eq!(json["strategies"].as_array().unwrap().len(), 2);
    // Two halves of the same kind make no draw: exit 1, nothing written.
    let out = join("wd.cert", "wd.cert", "x.cert");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("win-or-draw and the other draw-or-loss"),
        "{}",
        stderr(&out)
    );
    assert!(!dir.0.join("x.cert").exists());
    // A missing file: exit 2. `--join` without `--out` is a usage error.
    let out = join("none.cert", "wd.cert", "x.cert");
    assert_eq!(out.status.code(), Some(2));
    // Said as the plain check says it: not a verdict on a certificate.
    assert!(
        stderr(&out).contains("error: cannot open"),
        "{}",
        stderr(&out)
    );
    assert!(
        !stderr(&out).contains("invalid certificate"),
        "{}",
        stderr(&out)
    );
    let out = fanorona(&["verify-proof", &p("wd.cert"), "--join", &p("dl.cert")]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn compressed_certificates_are_checked_as_they_are() {
    let dir = Dir::new();
    let plain = dir.path("3x5.cert");
    ok(&fanorona(&[
        "solve",
        "--board",
        "3x5",
        "--certificate",
        &plain,
    ]));
    let text = std::fs::read(&plain).unwrap();
    let packed = ruzstd::encoding::compress_to_vec(
        text.as_slice(),
        ruzstd::encoding::CompressionLevel::Fastest,
    );
    let zst = dir.path("3x5.cert.zst");
    std::fs::write(&zst, &packed).unwrap();
    let says = ok(&fanorona(&["verify-proof", &zst]));
    assert!(
        says.contains("valid: 3x5 BBBBB/BW1BW/WWWWW w is a win"),
        "{says}"
    );
    // The same verdict as the plain file, byte counts of the text included.
    let json: serde_json::Value =
        serde_json::from_str(&ok(&fanorona(&["verify-proof", &zst, "--json"]))).unwrap();
    assert_eq!(json["bytes"], text.len() as u64);
    // Cut short: not a valid stream, exit 2. Larger than --max-memory: refused, exit 2.
    std::fs::write(&zst, &packed[..packed.len() / 2]).unwrap();
    let out = fanorona(&["verify-proof", &zst]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("3x5.cert.zst"), "{}", stderr(&out));
    std::fs::write(&zst, &packed).unwrap();
    let out = fanorona(&["verify-proof", &zst, "--max-memory", "100"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("more than --max-memory"),
        "{}",
        stderr(&out)
    );
}

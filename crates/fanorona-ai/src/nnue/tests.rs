use super::*;
use crate::rng::Rng;
use fanorona_core::{BoardSize, Color, GameKind};

fn dimy() -> Variant {
    Variant::new(BoardSize::DIMY, GameKind::Capture).unwrap()
}

fn vela() -> Variant {
    Variant::new(BoardSize::STANDARD, GameKind::Vela).unwrap()
}

/// The material network, built here the documented way: hidden unit 0 counts the
/// perspective's stones, unit 1 the opponent's (weight 1 each); the output weighs the side to
/// move's unit 0 by +64 and its unit 1 by -64, and S = 25500, so that
/// `64 * d * 25500 / (255 * 64) = 100 * d` centi-stones for a lead of `d` stones.
fn material_network() -> Network {
    material_network_of(Variant::STANDARD)
}

/// The material network of [`material_network`] for any variant's board (search tests use it
/// on 5x5).
pub(crate) fn material_network_of(variant: Variant) -> Network {
    let points = variant.points();
    let mut w1 = Vec::with_capacity(variant.inputs() * 2);
    for f in 0..variant.inputs() {
        w1.push(i16::from(f < points));
        w1.push(i16::from(f >= points));
    }
    Network::from_parts(
        variant,
        2,
        255,
        64,
        25_500,
        w1,
        vec![0, 0],
        vec![64, -64, 0, 0],
        0,
    )
    .unwrap()
}

/// A network with random weights of `hidden` units, small enough to pass the range check.
fn random_network(hidden: usize, seed: u64) -> Network {
    random_network_of(Variant::STANDARD, hidden, seed)
}

/// A random network of `variant` (as [`random_network`]).
fn random_network_of(variant: Variant, hidden: usize, seed: u64) -> Network {
    let mut rng = Rng::new(seed);
    let mut small = |span: u64| (rng.below(2 * span + 1) as i64 - span as i64) as i16;
    let w1 = (0..variant.inputs() * hidden).map(|_| small(300)).collect();
    let b1 = (0..hidden).map(|_| small(2000)).collect();
    let w2 = (0..2 * hidden).map(|_| small(120)).collect();
    Network::from_parts(variant, hidden, 255, 64, 400, w1, b1, w2, -1234).unwrap()
}

/// Positions of random games from the start (with the start).
fn random_positions(games: usize, seed: u64) -> Vec<Position> {
    random_positions_of(Variant::STANDARD, games, seed)
}

/// Positions of random games of `variant` from its start (with the start).
fn random_positions_of(variant: Variant, games: usize, seed: u64) -> Vec<Position> {
    let start = Position::start_with(variant.size(), variant.rules()).unwrap();
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = start;
        while p.outcome().is_none() {
            out.push(p);
            let turns = p.legal_turns();
            p = p.play_unchecked(&turns[rng.below(turns.len() as u64) as usize]);
        }
    }
    out
}

/// The formula of [`docs/nnue.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/nnue.md), written out point by point from the position's stones
/// and the flat weights, in 64-bit integers.
fn reference(net: &Network, pos: &Position) -> i32 {
    let (w1, b1, w2, b2, qa, qb, s) = net.parts();
    let h = net.hidden();
    let size = pos.size();
    let n = size.len();
    let accumulator = |persp: Color| -> Vec<i64> {
        let mut acc: Vec<i64> = b1.iter().map(|&b| i64::from(b)).collect();
        for c in Color::ALL {
            for p in pos.stones(c).points(size) {
                let i = if persp == Color::White {
                    p.index()
                } else {
                    n - 1 - p.index()
                };
                let f = if c == persp { i } else { n + i };
                for (j, a) in acc.iter_mut().enumerate() {
                    *a += i64::from(w1[f * h + j]);
                }
            }
        }
        acc
    };
    let stm = pos.side_to_move();
    let us = accumulator(stm);
    let them = accumulator(stm.other());
    // The output bucket: min(B - 1, stones * B / points).
    let buckets = b2.len();
    let stones = Color::ALL
        .iter()
        .map(|&c| pos.stones(c).points(size).count())
        .sum::<usize>();
    let k = (stones * buckets / n).min(buckets - 1);
    let w2 = &w2[k * 2 * h..(k + 1) * 2 * h];
    let mut out = i64::from(b2[k]);
    for j in 0..h {
        out += i64::from(w2[j]) * us[j].clamp(0, i64::from(qa));
        out += i64::from(w2[h + j]) * them[j].clamp(0, i64::from(qa));
    }
    let cp = (out * i64::from(s) / (i64::from(qa) * i64::from(qb))).clamp(-20_000, 20_000);
    let (num, den) = crate::eval::no_capture_scale(pos);
    (cp * i64::from(num) / i64::from(den)) as i32
}

/// `pos` with the colours swapped and the board turned by 180 degrees (the same counters).
fn twin(pos: &Position) -> Position {
    let fen = pos.to_fen();
    let mut fields = fen.split(' ');
    let placement: String = fields
        .next()
        .unwrap()
        .chars()
        .rev()
        .map(|c| match c {
            'W' => 'B',
            'B' => 'W',
            c => c,
        })
        .collect();
    let side = if fields.next() == Some("w") { "b" } else { "w" };
    let rest: Vec<&str> = fields.collect();
    let text = [placement.as_str(), side]
        .into_iter()
        .chain(rest)
        .collect::<Vec<_>>()
        .join(" ");
    Position::from_fen(&text).unwrap()
}

#[test]
fn the_material_fixture_is_the_material_construction() {
    // The file was written by an independent script (docs/engine.md); its bytes must be those
    // of the construction above.
    assert_eq!(MATERIAL, material_network().to_bytes().as_slice());
    let net = Network::from_bytes(MATERIAL).unwrap();
    assert_eq!(net.checksum(), 0xe03d_0fe0_a058_e18e);
    // It is material: 100 a stone, times the no-capture factor.
    let start = Position::standard();
    assert_eq!(net.evaluate(&start), Some(0));
    let after = start.play(&start.parse_turn("f2-e3A").unwrap()).unwrap();
    // White took two stones: Black to move is two down, with the counter reset.
    assert_eq!(net.evaluate(&after), Some(-200));
    let stale = Position::from_fen("8B/9/9/9/W1W6 w 100 40").unwrap();
    // One stone up at the no-capture limit: half of 100.
    assert_eq!(net.evaluate(&stale), Some(50));
}

#[test]
fn the_embedded_networks_are_one_per_variant_the_standard_first() {
    let nets = Network::embedded_all();
    assert_eq!(nets.len(), EMBEDDED_NETS.len());
    assert_eq!(nets[0].variant(), Variant::STANDARD);
    assert!(std::sync::Arc::ptr_eq(&Network::embedded(), &nets[0]));
    for (i, net) in nets.iter().enumerate() {
        assert_eq!(net.to_bytes().as_slice(), EMBEDDED_NETS[i]);
        assert!(nets[..i].iter().all(|m| m.variant() != net.variant()));
        let found = Network::embedded_for(net.variant()).unwrap();
        assert!(std::sync::Arc::ptr_eq(&found, net));
    }
    // A board no network is made for.
    let seven = Variant::new(BoardSize::new(5, 7).unwrap(), GameKind::Capture).unwrap();
    assert!(Network::embedded_for(seven).is_none());
}

#[test]
fn the_embedded_vela_network_is_the_trained_vela1() {
    let net = Network::embedded_for(vela()).unwrap();
    // vela1-h128-l05 of docs/nnue.md (its checksum is the file's last 8 bytes).
    assert_eq!(net.checksum(), 0xb2bb_437b_9524_2aaa);
    assert_eq!(net.hidden(), 128);
    assert_eq!(net.to_bytes().as_slice(), EMBEDDED_VELA);
    // After Vela's opening phase, a quiet ending a stone up (White a1 c1 against Black i5)
    // is good for White and bad for Black, whoever moves.
    let up = Position::from_fen_with("8B/9/9/9/W1W6 w", vela().rules()).unwrap();
    assert!(net.covers(&up));
    assert!(net.evaluate(&up).unwrap() > 100);
    assert!(net.evaluate(&up.null_move()).unwrap() < -100);
    for p in random_positions_of(vela(), 3, 21) {
        assert_eq!(net.evaluate(&p), Some(reference(&net, &p)));
    }
}

#[test]
fn the_embedded_network_is_the_trained_n2() {
    let net = Network::embedded();
    // n2-h128-l05 of docs/nnue.md (its checksum is the file's last 8 bytes).
    assert_eq!(net.checksum(), 0x7dd4_c9bd_52fc_3a2d);
    assert_eq!(net.hidden(), 128);
    assert_eq!(net.to_bytes().as_slice(), EMBEDDED);
    // Trained on game results and searches of quiet positions: in a quiet ending a stone up
    // (White a1 c1 against Black i5) is good for White and bad for Black, whoever moves.
    let up = Position::from_fen("8B/9/9/9/W1W6 w").unwrap();
    assert!(net.evaluate(&up).unwrap() > 100);
    assert!(net.evaluate(&up.null_move()).unwrap() < -100);
    for p in random_positions(3, 21) {
        assert_eq!(net.evaluate(&p), Some(reference(&net, &p)));
    }
}

#[test]
fn the_evaluation_is_the_formula() {
    let positions = random_positions(30, 5);
    assert!(positions.len() > 1000);
    for (k, net) in [
        random_network(16, 1),
        random_network(35, 2),
        material_network(),
    ]
    .iter()
    .enumerate()
    {
        for p in &positions {
            assert_eq!(net.evaluate(p), Some(reference(net, p)), "net {k}, {p}");
        }
    }
}

#[test]
fn networks_of_fanoron_dimy_and_vela_evaluate_by_the_formula_in_their_game_only() {
    for (variant, other) in [(dimy(), Variant::STANDARD), (vela(), Variant::STANDARD)] {
        let net = random_network_of(variant, 24, 12);
        assert_eq!(net.variant(), variant);
        assert_eq!(Network::from_bytes(&net.to_bytes()).unwrap(), net);
        let positions = random_positions_of(variant, 20, 3);
        assert!(positions.len() > 200);
        let mut distinct = std::collections::BTreeSet::new();
        for p in &positions {
            let e = net.evaluate(p);
            assert_eq!(e, Some(reference(&net, p)), "{variant}: {p}");
            distinct.insert(e);
        }
        assert!(distinct.len() > 20);
        // Positions of another game (even on the same board) are not the network's.
        for p in random_positions_of(other, 2, 4) {
            assert!(!net.covers(&p));
            assert_eq!(net.evaluate(&p), None);
        }
    }
    // Vela's network is not the capture game's on 5x9, nor the reverse.
    let standard = random_network(8, 1);
    let start = Position::start_with(BoardSize::STANDARD, vela().rules()).unwrap();
    assert_eq!(standard.evaluate(&start), None);
    assert!(standard.covers(&Position::standard()));
}

#[test]
fn accumulators_are_exact_on_fanoron_dimy() {
    let net = random_network_of(dimy(), 20, 5);
    let mut stack = Accumulators::new(&net);
    let mut rng = Rng::new(3);
    let mut checked = 0;
    for _ in 0..20 {
        let mut p = Position::start(BoardSize::DIMY);
        let mut ply = 0;
        while p.outcome().is_none() && ply < 60 {
            assert_eq!(stack.evaluate(&p, ply), net.evaluate(&p).unwrap(), "{p}");
            checked += 1;
            let turns = p.legal_turns();
            p = p.play_unchecked(&turns[rng.below(turns.len() as u64) as usize]);
            ply += 1;
        }
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn a_position_and_its_colour_swapped_twin_score_the_same() {
    let net = random_network(24, 3);
    let mut distinct = std::collections::BTreeSet::new();
    for p in random_positions(10, 9) {
        let t = twin(&p);
        let e = net.evaluate(&p).unwrap();
        assert_eq!(Some(e), net.evaluate(&t), "{p} / {t}");
        distinct.insert(e);
    }
    // The network is not trivially constant.
    assert!(distinct.len() > 50);
}

#[test]
fn incremental_accumulators_equal_a_full_refresh() {
    // A walk like the search's: at each ply a few children are evaluated (siblings), then
    // one is entered; now and then the walk jumps back to a shallower ply.
    let net = random_network(40, 4);
    let mut stack = Accumulators::new(&net);
    let mut rng = Rng::new(11);
    let mut checked = 0;
    for _ in 0..20 {
        let mut path = vec![Position::standard()];
        while let Some(&p) = path.last() {
            let ply = path.len() - 1;
            if p.outcome().is_some() || ply > 60 {
                break;
            }
            assert_eq!(stack.evaluate(&p, ply), net.evaluate(&p).unwrap(), "{p}");
            checked += 1;
            let turns = p.legal_turns();
            for _ in 0..3 {
                let t = turns[rng.below(turns.len() as u64) as usize];
                let c = p.play_unchecked(&t);
                assert_eq!(stack.evaluate(&c, ply + 1), net.evaluate(&c).unwrap());
                checked += 1;
            }
            if ply > 4 && rng.below(8) == 0 {
                let back = rng.below(4) as usize;
                path.truncate(path.len() - back);
            } else {
                let t = turns[rng.below(turns.len() as u64) as usize];
                path.push(p.play_unchecked(&t));
            }
        }
    }
    assert!(checked > 2000, "{checked}");
}

#[test]
fn damaged_files_are_refused_with_the_right_error() {
    let good = random_network(8, 6).to_bytes();
    assert!(Network::from_bytes(&good).is_ok());
    // Re-seals the bytes with a correct checksum (to reach the checks after it).
    let seal = |mut b: Vec<u8>| {
        let n = b.len() - 8;
        let sum = super::network::fnv1a64(&b[..n]);
        b[n..].copy_from_slice(&sum.to_le_bytes());
        b
    };
    let with = |at: usize, bytes: &[u8]| {
        let mut b = good.clone();
        b[at..at + bytes.len()].copy_from_slice(bytes);
        b
    };
    // Every cut, from nothing to one byte short.
    for n in 0..good.len() {
        let e = Network::from_bytes(&good[..n]).unwrap_err();
        assert!(matches!(e, NetworkError::Length { .. }), "{n}: {e}");
    }
    let mut longer = good.clone();
    longer.push(0);
    assert!(matches!(
        Network::from_bytes(&longer),
        Err(NetworkError::Length { found, expected }) if found == expected + 1
    ));
    // Any flipped bit of the contents or of the checksum.
    for at in [40, 100, good.len() - 20, good.len() - 9, good.len() - 1] {
        let mut b = good.clone();
        b[at] ^= 0x10;
        assert!(
            matches!(Network::from_bytes(&b), Err(NetworkError::Checksum { .. })),
            "{at}"
        );
    }
    assert!(matches!(
        Network::from_bytes(&with(0, b"FANNUF")),
        Err(NetworkError::Magic)
    ));
    assert!(matches!(
        Network::from_bytes(&with(6, &[0, 4])),
        Err(NetworkError::Version { found: 4 })
    ));
    assert!(matches!(
        Network::from_bytes(&with(8, &4u32.to_le_bytes())),
        Err(NetworkError::Board { rows: 4, cols: 9 })
    ));
    // A board that exists (5x5), with the inputs of another.
    assert!(matches!(
        Network::from_bytes(&with(12, &5u32.to_le_bytes())),
        Err(NetworkError::Inputs {
            found: 90,
            expected: 50
        })
    ));
    assert!(matches!(
        Network::from_bytes(&with(16, &50u32.to_le_bytes())),
        Err(NetworkError::Inputs { found: 50, .. })
    ));
    for h in [0, 1025, u32::MAX] {
        assert!(matches!(
            Network::from_bytes(&with(20, &h.to_le_bytes())),
            Err(NetworkError::Hidden { found }) if found == h
        ));
    }
    // A hidden size in range that the length does not match.
    assert!(matches!(
        Network::from_bytes(&with(20, &9u32.to_le_bytes())),
        Err(NetworkError::Length { .. })
    ));
    for (at, v) in [(24, 0i32), (24, 40_000), (28, 0), (32, -5)] {
        assert!(matches!(
            Network::from_bytes(&with(at, &v.to_le_bytes())),
            Err(NetworkError::Quantization { .. })
        ));
    }
    // Weights that could overflow an accumulator (one big weight of unit 3), or the output.
    let big = seal(with(36 + 2 * 3, &30_000i16.to_le_bytes()));
    assert!(matches!(
        Network::from_bytes(&big),
        Err(NetworkError::Range {
            layer: "accumulator",
            unit: 3
        })
    ));
    let b2_at = good.len() - 8 - 4;
    let huge = seal(with(b2_at, &i32::MAX.to_le_bytes()));
    assert!(matches!(
        Network::from_bytes(&huge),
        Err(NetworkError::Range {
            layer: "output",
            ..
        })
    ));
    // Sealed again, the good bytes are still good.
    assert!(Network::from_bytes(&seal(good.clone())).is_ok());
}

#[test]
fn loading_checks_the_file_before_reading_it() {
    let dir = std::env::temp_dir().join(format!("fanorona-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("net.nnue");
    let net = random_network(8, 7);
    std::fs::write(&path, net.to_bytes()).unwrap();
    assert_eq!(Network::load(&path).unwrap(), net);
    assert!(matches!(
        Network::load(&dir),
        Err(NetworkError::NotRegular { .. })
    ));
    assert!(matches!(
        Network::load(dir.join("missing.nnue")),
        Err(NetworkError::Io { .. })
    ));
    // A file larger than any network is refused by its size.
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(super::network::MAX_FILE_LEN as u64 + 1)
        .unwrap();
    drop(file);
    assert!(matches!(
        Network::load(&path),
        Err(NetworkError::Length { .. })
    ));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn version_2_files_name_the_game_and_are_checked_like_version_1() {
    let net = random_network_of(vela(), 8, 9);
    let good = net.to_bytes();
    // Hand-written header: version 2, 5 ranks, 9 files, game 1 (Vela), 90 inputs, 8 hidden.
    assert_eq!(&good[..8], b"FANNUE\x00\x02");
    let mut want = Vec::new();
    for x in [5u32, 9, 1, 90, 8] {
        want.extend_from_slice(&x.to_le_bytes());
    }
    assert_eq!(&good[8..28], want.as_slice());
    assert_eq!(good.len(), 40 + 186 * 8 + 12);
    let with = |at: usize, bytes: &[u8]| {
        let mut b = good.clone();
        b[at..at + bytes.len()].copy_from_slice(bytes);
        b
    };
    // Game 2 (Fanoron-Telo) and an unknown game; Vela on 5x5.
    for code in [2u32, 7] {
        assert!(matches!(
            Network::from_bytes(&with(16, &code.to_le_bytes())),
            Err(NetworkError::Game { code: c }) if c == code
        ));
    }
    assert!(matches!(
        Network::from_bytes(&with(12, &5u32.to_le_bytes())),
        Err(NetworkError::Board { rows: 5, cols: 5 })
    ));
    // A capture-game network written as version 2 reads as the same network.
    let standard = random_network(8, 9);
    let v1 = standard.to_bytes();
    let mut v2 = b"FANNUE\x00\x02".to_vec();
    v2.extend_from_slice(&v1[8..16]);
    v2.extend_from_slice(&0u32.to_le_bytes());
    v2.extend_from_slice(&v1[16..v1.len() - 8]);
    let sum = super::network::fnv1a64(&v2);
    v2.extend_from_slice(&sum.to_le_bytes());
    let read = Network::from_bytes(&v2).unwrap();
    assert_eq!(read.variant(), Variant::STANDARD);
    assert_eq!(read.to_bytes(), v1);
    // Cut anywhere: a length error.
    for n in [0, 8, 30, 39, good.len() - 1] {
        assert!(matches!(
            Network::from_bytes(&good[..n]),
            Err(NetworkError::Length { .. })
        ));
    }
}

/// A random network of `variant` with `buckets` output buckets (as [`random_network`]).
fn random_bucket_network_of(variant: Variant, hidden: usize, buckets: usize, seed: u64) -> Network {
    let mut rng = Rng::new(seed);
    let mut small = |span: u64| (rng.below(2 * span + 1) as i64 - span as i64) as i16;
    let w1 = (0..variant.inputs() * hidden).map(|_| small(300)).collect();
    let b1 = (0..hidden).map(|_| small(2000)).collect();
    let w2 = (0..buckets * 2 * hidden).map(|_| small(120)).collect();
    let b2 = (0..buckets).map(|k| 1000 * k as i32 - 1234).collect();
    Network::from_bucket_parts(variant, hidden, 255, 64, 400, w1, b1, w2, b2).unwrap()
}

/// The material network's hidden layer (unit 0 counts the perspective's stones, unit 1 the
/// opponent's) with two output buckets on 5x9: bucket 0 (at most 22 stones) weighs the
/// units by +64 and -64 with no bias, 100 centi-stones a stone of lead; bucket 1 (23 stones
/// or more) by +32 and -32 with a bias of 128, `128 * 25500 / 16320 = 200` centi-stones plus
/// 50 a stone.
fn two_bucket_material_network() -> Network {
    let points = Variant::STANDARD.points();
    let mut w1 = Vec::new();
    for f in 0..Variant::STANDARD.inputs() {
        w1.push(i16::from(f < points));
        w1.push(i16::from(f >= points));
    }
    let w2 = vec![64, -64, 0, 0, 32, -32, 0, 0];
    Network::from_bucket_parts(
        Variant::STANDARD,
        2,
        255,
        64,
        25_500,
        w1,
        vec![0, 0],
        w2,
        vec![0, 128],
    )
    .unwrap()
}

#[test]
fn a_hand_set_two_bucket_network_uses_the_set_of_the_stone_count() {
    let net = two_bucket_material_network();
    assert_eq!(net.buckets(), 2);
    assert_eq!(net.hidden(), 2);
    let eval = |fen: &str| net.evaluate(&Position::from_fen(fen).unwrap()).unwrap();
    // The start, 44 stones: bucket min(1, 44 * 2 / 45) = 1, level material: 200.
    let start = Position::standard();
    assert_eq!(net.evaluate(&start), Some(200));
    // White takes two: 42 stones, still bucket 1; Black to move is two down: 200 - 100.
    let after = start.play(&start.parse_turn("f2-e3A").unwrap()).unwrap();
    assert_eq!(net.evaluate(&after), Some(100));
    // Three stones: bucket 0, one stone up: 100 for White, -100 for Black.
    assert_eq!(eval("8B/9/9/9/W1W6 w"), 100);
    assert_eq!(eval("8B/9/9/9/W1W6 b"), -100);
    // The boundary: 23 stones (18 against 5) are bucket 1, 200 + 50 * 13 = 850; 22 stones
    // (18 against 4) bucket 0, 100 * 14 = 1400.
    assert_eq!(eval("BBBBB4/9/9/WWWWWWWWW/WWWWWWWWW w"), 850);
    assert_eq!(eval("BBBB5/9/9/WWWWWWWWW/WWWWWWWWW w"), 1400);
    // Black to move, the same stones: 200 - 650 = -450 and -1400.
    assert_eq!(eval("BBBBB4/9/9/WWWWWWWWW/WWWWWWWWW b"), -450);
    assert_eq!(eval("BBBB5/9/9/WWWWWWWWW/WWWWWWWWW b"), -1400);
    // The search's accumulators pick the same bucket.
    let mut stack = Accumulators::new(&net);
    assert_eq!(stack.evaluate(&start, 0), 200);
    assert_eq!(stack.evaluate(&after, 1), 100);
}

#[test]
fn version_3_files_hold_the_buckets_and_are_checked() {
    let net = two_bucket_material_network();
    let good = net.to_bytes();
    // Hand-written: version 3, 5 ranks, 9 files, game 0, 90 inputs, 2 hidden, QA 255, QB 64,
    // S 25500, 2 buckets; then W1 (90 * 2), b1 (2), w2 (2 * 4) as i16, b2 (2) as i32, the
    // checksum: 44 + 2 * (180 + 2 + 8) + 8 + 8 = 440 bytes.
    assert_eq!(&good[..8], b"FANNUE\x00\x03");
    assert_eq!(&good[..8], &MAGIC_V3);
    let mut want = Vec::new();
    for x in [5u32, 9, 0, 90, 2, 255, 64, 25_500, 2] {
        want.extend_from_slice(&x.to_le_bytes());
    }
    assert_eq!(&good[8..44], want.as_slice());
    assert_eq!(good.len(), 440);
    let w2_at = 44 + 2 * 182;
    let w2: Vec<i16> = good[w2_at..w2_at + 16]
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect();
    assert_eq!(w2, [64, -64, 0, 0, 32, -32, 0, 0]);
    assert_eq!(&good[w2_at + 16..w2_at + 24], &[0, 0, 0, 0, 128, 0, 0, 0]);
    let read = Network::from_bytes(&good).unwrap();
    assert_eq!(read, net);
    assert_eq!(read.to_bytes(), good);
    let seal = |mut b: Vec<u8>| {
        let n = b.len() - 8;
        let sum = super::network::fnv1a64(&b[..n]);
        b[n..].copy_from_slice(&sum.to_le_bytes());
        b
    };
    let with = |at: usize, bytes: &[u8]| {
        let mut b = good.clone();
        b[at..at + bytes.len()].copy_from_slice(bytes);
        b
    };
    // Damage: any flipped bit, any cut, a byte more.
    for at in [44, 100, w2_at + 3, good.len() - 10, good.len() - 1] {
        let mut b = good.clone();
        b[at] ^= 0x04;
        assert!(
            matches!(Network::from_bytes(&b), Err(NetworkError::Checksum { .. })),
            "{at}"
        );
    }
    for n in 0..good.len() {
        assert!(matches!(
            Network::from_bytes(&good[..n]),
            Err(NetworkError::Length { .. })
        ));
    }
    let mut longer = good.clone();
    longer.push(0);
    assert!(matches!(
        Network::from_bytes(&longer),
        Err(NetworkError::Length { .. })
    ));
    // Bucket counts out of 1..=16; one in range that the length does not match.
    for b in [0u32, 17, u32::MAX] {
        assert!(matches!(
            Network::from_bytes(&with(40, &b.to_le_bytes())),
            Err(NetworkError::Buckets { found }) if found == b
        ));
    }
    assert!(matches!(
        Network::from_bytes(&with(40, &3u32.to_le_bytes())),
        Err(NetworkError::Length {
            expected: 452,
            found: 440
        })
    ));
    // Bucket 1's bias so large that its output could overflow (bucket 0's is fine).
    let huge = seal(with(w2_at + 20, &i32::MAX.to_le_bytes()));
    assert!(matches!(
        Network::from_bytes(&huge),
        Err(NetworkError::Range {
            layer: "output",
            unit: 1
        })
    ));
    // A version 3 file of one bucket reads as the same network as version 1, which the
    // writer writes for it.
    let one = material_network();
    let v1 = one.to_bytes();
    assert_eq!(&v1[..8], b"FANNUE\x00\x01");
    let mut v3 = b"FANNUE\x00\x03".to_vec();
    v3.extend_from_slice(&v1[8..16]);
    v3.extend_from_slice(&0u32.to_le_bytes());
    v3.extend_from_slice(&v1[16..36]);
    v3.extend_from_slice(&1u32.to_le_bytes());
    v3.extend_from_slice(&v1[36..v1.len() - 8]);
    let sum = super::network::fnv1a64(&v3);
    v3.extend_from_slice(&sum.to_le_bytes());
    let read = Network::from_bytes(&v3).unwrap();
    assert_eq!(read.buckets(), 1);
    assert_eq!(read.to_bytes(), v1);
    for p in random_positions(2, 8) {
        assert_eq!(read.evaluate(&p), one.evaluate(&p));
    }
}

#[test]
fn bucketed_networks_evaluate_by_the_formula_incrementally_too() {
    for (variant, buckets) in [(Variant::STANDARD, 4), (dimy(), 3), (vela(), 16)] {
        let net = random_bucket_network_of(variant, 20, buckets, 7);
        assert_eq!(net.buckets(), buckets);
        let bytes = net.to_bytes();
        assert_eq!(&bytes[..8], b"FANNUE\x00\x03");
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
        // The file's length: 44 + 2 (N H + H + 2 B H) + 4 B + 8.
        let (n, h) = (variant.inputs(), 20);
        assert_eq!(
            bytes.len(),
            44 + 2 * (n * h + h + 2 * buckets * h) + 4 * buckets + 8
        );
        let mut stack = Accumulators::new(&net);
        let mut rng = Rng::new(3);
        let mut used = std::collections::BTreeSet::new();
        let start = Position::start_with(variant.size(), variant.rules()).unwrap();
        for _ in 0..10 {
            let mut p = start;
            let mut ply = 0;
            while p.outcome().is_none() && ply < 120 {
                let e = net.evaluate(&p).unwrap();
                assert_eq!(e, reference(&net, &p), "{variant}: {p}");
                assert_eq!(stack.evaluate(&p, ply), e, "{variant}: {p}");
                let stones =
                    (p.stones(Color::White).count() + p.stones(Color::Black).count()) as usize;
                used.insert((stones * buckets / variant.points()).min(buckets - 1));
                let turns = p.legal_turns();
                p = p.play_unchecked(&turns[rng.below(turns.len() as u64) as usize]);
                ply += 1;
            }
        }
        // Random games go from the full board to a few stones: most buckets are used.
        assert!(used.len() * 2 > buckets, "{variant}: {used:?}");
    }
}

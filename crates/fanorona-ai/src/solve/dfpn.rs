//! Depth-first proof-number search (df-pn) with a transposition table: proves or disproves
//! that one side (the *attacker*) can force a win, in bounded memory, resumably.
//!
//! Unlike [`pns`](super::pns), which keeps its tree, df-pn keeps only a table of positions
//! with their proof and disproof numbers, so transpositions share one entry whether solved or
//! not, and the memory is the table's, cut back to its most expensive entries when it fills. It
//! searches depth-first below a node until the node's numbers pass thresholds derived from its
//! parent's (Nagai's multiple iterative deepening), with the `1 + epsilon` trick (Pawlewicz and
//! Lew) to switch between siblings less often.
//!
//! **Repetitions (the graph-history interaction).** A position already on the current path is
//! disproved at once: going round a cycle never helps the attacker, who, if it can win at all,
//! can win without repeating a position. Such a disproof holds for this path only. Each
//! disproved result carries the depth of the shallowest ancestor whose repetition it relies
//! on; it enters the table only when it relies on none above the node itself (it then holds on
//! every path), otherwise it lives only in the parent's list of children for as long as the
//! parent's search lasts. Proofs never rely on a repetition and always enter the table. Every
//! table entry is therefore path-independent, and the search is exact.
//!
//! **Proofs as certificates.** Each proof records its length (the most turns to the win with
//! the attacker hurrying): an attacker's position is proved by a child one shorter, a
//! defender's by children all shorter. Written by increasing length, the proved positions form
//! an ordered strategy (see [`certificate`](super::certificate)) for `fanorona verify-proof`.
//!
//! **Checkpoints.** The table can be saved to a file and loaded again to resume a search
//! ([`Dfpn::save`], [`Dfpn::load`]): format in [`docs/solver.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/solver.md).
//!
//! # Examples
//!
//! ```
//! use fanorona_ai::solve::{self, Budget, dfpn::Dfpn};
//! use fanorona_core::{BoardSize, Color};
//!
//! let start = solve::start(BoardSize::TELO);
//! let mut search = Dfpn::new(&start, Color::White)?;
//! let result = search.run(&Budget::default(), &mut |_| {})?;
//! assert_eq!(result.proved, Some(true)); // White wins 3x3
//! let cert = search.certificate()?.expect("a proof");
//! let mut text = Vec::new();
//! cert.write_to(&mut text)?;
//! let report = solve::verify::verify(std::io::Cursor::new(&text), &Default::default())?;
//! assert_eq!(report.value, "win");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::cell::Cell;
use std::io::{BufRead, Read, Write};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use fanorona_core::{Color, Position, Turn};

use super::certificate::{Certificate, fnv1a};
use super::key::{Key, KeyMap, KeySet, Keyer};
use super::tablebase::Tablebase;
use super::ttable::{Entry, SLOT_BYTES, Table};
use super::{Budget, Progress, SolveError, Value};

const INF: u32 = u32::MAX / 2;
const CLEAN: u16 = u16::MAX;
/// The `epsilon` of the `1 + epsilon` trick, as a fraction `num / den`.
const EPS_NUM: u64 = 1;
const EPS_DEN: u64 = 4;

/// A child during its parent's search.
#[derive(Clone, Copy)]
struct Child {
    key: Key,
    pn: u32,
    dn: u32,
    /// For a disproof: the depth of the shallowest repeated ancestor it relies on.
    dep: u16,
    len: u16,
}

/// The outcome of [`Dfpn::run`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct DfpnResult {
    /// The attacker wins (`Some(true)`), cannot (`Some(false)`); `None` if the numbers reached
    /// their ceiling (2^31) undecided, which the weak sums make practically impossible.
    pub proved: Option<bool>,
    /// For a proof, its length in turns.
    pub proof_len: Option<u16>,
    /// Positions expanded in this run.
    pub expanded: u64,
    /// Entries in the table at the end.
    pub entries: u64,
    /// Peak bytes of the table.
    pub bytes: u64,
    /// Times the table was cut back to fit the memory budget.
    pub collections: u64,
    /// Time of this run.
    pub time: Duration,
}

/// Where a search stands ([`Dfpn::status`]): its table and the root's numbers, for progress
/// logs and for measuring a search that has not (yet) decided.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DfpnStatus {
    /// Positions expanded over every run (loaded checkpoints included).
    pub expanded: u64,
    /// Entries in the table.
    pub entries: u64,
    /// Entries proved (the attacker wins there).
    pub proofs: u64,
    /// Entries disproved (path-independently).
    pub disproofs: u64,
    /// The root's proof number: how many leaves at least remain to prove the attacker's win
    /// (0: proved). From the root's entry when it is solved, else from its children's.
    pub root_pn: u32,
    /// The root's disproof number (a weak sum, see [`docs/solver.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/solver.md); 0: disproved).
    pub root_dn: u32,
    /// The table's bytes: its slots, 28 bytes each (what the memory budget counts).
    pub bytes: u64,
    /// The root's turns with the proof and disproof numbers of the positions they lead to
    /// (from the table, else from their mobility), in the order of the move generator.
    pub children: Vec<(Turn, u32, u32)>,
    /// The most bytes the table has taken (this search object's runs).
    pub peak_bytes: u64,
    /// Times the table was cut back to fit the memory budget (this search object's runs).
    pub collections: u64,
}

/// A df-pn search of one position for one attacker, with its table.
pub struct Dfpn {
    keyer: Keyer,
    root: Position,
    attacker: Color,
    table: Table,
    expanded: u64,
    collections: u64,
    peak: u64,
    /// Expanded before the last save, for checkpoints.
    last_save: Instant,
    /// Endgame tables that settle the positions they cover ([`Dfpn::set_tables`]).
    tables: Option<Arc<Tablebase>>,
    /// Positions the endgame tables settled (each time one was met).
    table_hits: Cell<u64>,
    /// While a disproof certificate is built: the positions of its closed set so far, taken
    /// as disproved by the searches that choose its turns (empty otherwise; see
    /// [`Dfpn::disproof_certificate`]).
    context: KeySet,
    /// The disproofs entered in the table while `context` was in force (they may rely on
    /// it): taken out of the table again once the certificate is built.
    context_stored: KeySet,
}

/// What the endgame tables say of a position, for the attacker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TablesSay {
    /// The attacker wins, in this many turns at most with the attacker hurrying.
    Proved(u16),
    /// The attacker cannot force a win (a draw, or the defender wins).
    Disproved,
}

impl core::fmt::Debug for Dfpn {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Dfpn")
            .field("root", &self.root.to_fen())
            .field("attacker", &self.attacker)
            .field("entries", &self.table.len())
            .finish()
    }
}

/// Where a run stands, for a progress callback and checkpoints.
struct Run<'a> {
    budget: &'a Budget,
    clock: super::Clock,
    progress: &'a mut dyn FnMut(Progress),
    checkpoint: Option<(&'a Path, Duration)>,
    path: Vec<Key>,
}

impl Dfpn {
    /// A new search of `pos` (under its rules) for `attacker`, with an empty table.
    ///
    /// # Errors
    ///
    /// [`SolveError::Key`] when the rules need counters the board cannot hold.
    pub fn new(pos: &Position, attacker: Color) -> Result<Dfpn, SolveError> {
        let keyer = Keyer::new(pos.size(), pos.rules())?;
        let root = keyer.position(keyer.key(pos));
        Ok(Dfpn {
            keyer,
            root,
            attacker,
            table: Table::new(usize::MAX),
            expanded: 0,
            collections: 0,
            peak: 0,
            last_save: Instant::now(),
            tables: None,
            table_hits: Cell::new(0),
            context: KeySet::default(),
            context_stored: KeySet::default(),
        })
    }

    /// Lets the search settle every position these endgame tables cover (the board and the
    /// rules of the search, at most the tables' stones) from the tables instead of searching
    /// below it: a win for the attacker is a proof as long as the tables' distance, anything
    /// else a disproof that holds on every path. Certificates ([`Dfpn::certificate`],
    /// [`Dfpn::disproof_certificate`]) spell such positions out from the tables (the fastest
    /// win, every reply; or a turn that keeps the attacker from winning), so they stay
    /// checkable without the tables. The tables' memory is their own, outside the budget of
    /// the search's table.
    ///
    /// Returns the most stones the tables cover on this search's board under its rules (0:
    /// they cover nothing here, and the search goes on as without them).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use fanorona_ai::solve::{self, Budget, dfpn::Dfpn, tablebase::Tablebase};
    /// use fanorona_core::{BoardSize, Color};
    ///
    /// let (tables, _) = Tablebase::generate(BoardSize::TELO, solve::solver_rules(), 4, &Budget::default(), &mut |_| {})?;
    /// let mut search = Dfpn::new(&solve::start(BoardSize::TELO), Color::White)?;
    /// assert_eq!(search.set_tables(Arc::new(tables)), 4);
    /// let result = search.run(&Budget::default(), &mut |_| {})?;
    /// assert_eq!(result.proved, Some(true)); // White wins 3x3
    /// assert!(search.table_hits() > 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_tables(&mut self, tables: Arc<Tablebase>) -> u32 {
        let size = self.root.size();
        let rules = self.root.rules();
        let covers = tables.rules(size).is_some_and(|r| {
            super::tablebase::rules_flags(r) == super::tablebase::rules_flags(rules)
        });
        let stones = if covers { tables.max_stones(size) } else { 0 };
        self.tables = Some(tables);
        stones
    }

    /// How many times the endgame tables settled a position for this search object (0
    /// without tables): in its runs, and then also in building a certificate, which spells
    /// the tables' positions out; read it before the certificate for the search's own count.
    pub fn table_hits(&self) -> u64 {
        self.table_hits.get()
    }

    /// What the endgame tables say of `pos`, if they cover it.
    fn tables_say(&self, pos: &Position) -> Option<TablesSay> {
        let probe = self.tables.as_ref()?.probe(pos)?;
        self.table_hits.set(self.table_hits.get() + 1);
        let attacker_to_move = pos.side_to_move() == self.attacker;
        let won = if attacker_to_move {
            probe.wdl == Value::Win
        } else {
            probe.wdl == Value::Loss
        };
        Some(if won {
            TablesSay::Proved(probe.distance)
        } else {
            TablesSay::Disproved
        })
    }

    /// A settled position's numbers, from the search's table or the endgame tables.
    fn settled(&self, pos: &Position, key: Key) -> Option<(u32, u32, u16)> {
        if let Some(e) = self.table.get(&key)
            && (e.pn == 0 || e.dn == 0)
        {
            return Some((e.pn, e.dn, e.len));
        }
        match self.tables_say(pos)? {
            TablesSay::Proved(len) => Some((0, INF, len)),
            TablesSay::Disproved => Some((INF, 0, 0)),
        }
    }

    /// What a position adds to a strategy whose positions are `known`: nothing when it is
    /// known already, else itself and each reply leading to a position not known (replies
    /// that end the game add nothing).
    fn new_replies(&self, pos: &Position, key: Key, known: impl Fn(&Key) -> bool) -> u64 {
        if known(&key) {
            return 0;
        }
        let mut new = 1;
        pos.for_each_turn(|t| {
            let next = pos.play_unchecked(&t);
            new += u64::from(next.outcome().is_none() && !known(&self.keyer.key(&next)));
        });
        new
    }

    /// At a position the endgame tables cover and rate not won for the attacker (the
    /// defender to move), the defender's turn that keeps a closed strategy small: one that
    /// ends the game; else the one adding the fewest new positions to the strategy (none for
    /// a position it holds already), and among those a win of the defender before a draw, the
    /// fastest win first. With the position it leads to and its key.
    ///
    /// (Measured on the disproof of White's win on 5x5 with its 6-stone tables: 23,739
    /// positions, against 37,549 choosing the fastest win first and 55,801 choosing by the
    /// new positions alone; on 5x7 with its 7-stone tables 3,568,674 against 6,465,081.)
    fn tables_defence(&self, pos: &Position, seen: &KeySet) -> Option<(Turn, Position, Key)> {
        let tables = self.tables.as_ref()?;
        tables.probe(pos)?;
        // (new positions, false for a win of the defender, the attacker's distance to its
        // loss): the smallest is taken.
        type Rank = (u64, bool, u16);
        let mut best: Option<(Rank, Turn, Position, Key)> = None;
        for turn in pos.legal_turns() {
            let child = pos.play_unchecked(&turn);
            let key = self.keyer.key(&child);
            if let Some(o) = child.outcome() {
                if o.winner != Some(self.attacker) {
                    return Some((turn, child, key));
                }
                continue;
            }
            let probe = tables.probe(&child)?;
            if probe.wdl == Value::Win {
                continue;
            }
            // No reply here ends the game: the tables rate the child not won for the attacker.
            let cost = self.new_replies(&child, key, |k| seen.contains(k));
            let rank = if probe.wdl == Value::Loss {
                (cost, false, probe.distance)
            } else {
                (cost, true, 0)
            };
            if best.as_ref().is_none_or(|b| rank < b.0) {
                best = Some((rank, turn, child, key));
            }
        }
        best.map(|(_, turn, child, key)| (turn, child, key))
    }

    /// Searches until the root is proved or disproved, or a budget runs out.
    ///
    /// # Errors
    ///
    /// [`SolveError::TimeLimit`] when the time runs out (the table keeps what was found: save
    /// it and run again later); [`SolveError::MemoryLimit`] when even a table cut back to its
    /// most expensive entries does not fit.
    pub fn run(
        &mut self,
        budget: &Budget,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<DfpnResult, SolveError> {
        self.run_with_checkpoints(budget, progress, None)
    }

    /// [`Dfpn::run`], saving the table to `file` every `every` (and when a budget runs out).
    ///
    /// # Errors
    ///
    /// As [`Dfpn::run`], and [`SolveError::Internal`] naming a checkpoint that cannot be
    /// written.
    pub fn run_with_checkpoints(
        &mut self,
        budget: &Budget,
        progress: &mut dyn FnMut(Progress),
        checkpoint: Option<(&Path, Duration)>,
    ) -> Result<DfpnResult, SolveError> {
        let t0 = Instant::now();
        let expanded0 = self.expanded;
        let collections0 = self.collections;
        self.table.set_max_slots(max_slots(budget));
        let mut run = Run {
            budget,
            clock: budget.clock(),
            progress,
            checkpoint,
            path: Vec::new(),
        };
        let root = self.root;
        let key = self.keyer.key(&root);
        let mut result = self.mid(&mut run, &root, key, INF, INF);
        if let (
            Err(SolveError::TimeLimit { .. } | SolveError::MemoryLimit { .. }),
            Some((file, _)),
        ) = (&result, checkpoint)
        {
            self.save(file)
                .map_err(|_| SolveError::Internal("the checkpoint could not be written"))?;
        }
        self.peak = self.peak.max(self.table.bytes());
        let r = result.as_mut().map_err(|e| e.clone())?;
        Ok(DfpnResult {
            proved: if r.pn == 0 {
                Some(true)
            } else if r.dn == 0 {
                Some(false)
            } else {
                None
            },
            proof_len: (r.pn == 0).then_some(r.len),
            expanded: self.expanded - expanded0,
            entries: self.table.len() as u64,
            bytes: self.peak,
            collections: self.collections - collections0,
            time: t0.elapsed(),
        })
    }

    fn is_or(&self, pos: &Position) -> bool {
        pos.side_to_move() == self.attacker
    }

    /// A leaf's numbers: from the table, the end of the game, or its mobility.
    fn leaf(&self, pos: &Position, key: Key) -> Child {
        if let Some(e) = self.table.get(&key) {
            return Child {
                key,
                pn: e.pn,
                dn: e.dn,
                dep: CLEAN,
                len: e.len,
            };
        }
        if let Some(o) = pos.outcome() {
            let won = o.winner == Some(self.attacker);
            return Child {
                key,
                pn: if won { 0 } else { INF },
                dn: if won { INF } else { 0 },
                dep: CLEAN,
                len: 0,
            };
        }
        match self.tables_say(pos) {
            Some(TablesSay::Proved(len)) => {
                return Child {
                    key,
                    pn: 0,
                    dn: INF,
                    dep: CLEAN,
                    len,
                };
            }
            Some(TablesSay::Disproved) => {
                return Child {
                    key,
                    pn: INF,
                    dn: 0,
                    dep: CLEAN,
                    len: 0,
                };
            }
            None => {}
        }
        let k = pos.count_turns().min(1000) as u32;
        let (pn, dn) = if self.is_or(pos) { (1, k) } else { (k, 1) };
        Child {
            key,
            pn,
            dn,
            dep: CLEAN,
            len: 0,
        }
    }

    /// Multiple iterative deepening at `pos`: searches until its numbers reach the thresholds
    /// or it is solved; returns its numbers (and, solved, its dependence and length).
    fn mid(
        &mut self,
        run: &mut Run<'_>,
        pos: &Position,
        key: Key,
        th_pn: u32,
        th_dn: u32,
    ) -> Result<Child, SolveError> {
        let me = self.leaf(pos, key);
        if me.pn == 0 || me.dn == 0 || me.pn >= th_pn || me.dn >= th_dn {
            return Ok(me);
        }
        self.expanded += 1;
        if self.expanded.is_multiple_of(1 << 10) {
            self.housekeeping(run)?;
        }
        let depth = run.path.len() as u16;
        let or = self.is_or(pos);
        let mut kids: Vec<(Child, Position)> = Vec::new();
        pos.for_each_turn(|t| {
            let child = pos.play_unchecked(&t);
            let k = self.keyer.key(&child);
            if kids.iter().any(|c| c.0.key == k) {
                return;
            }
            let c = match run.path.iter().position(|&p| p == k) {
                Some(d) => Child {
                    key: k,
                    pn: INF,
                    dn: 0,
                    dep: d as u16,
                    len: 0,
                },
                // A position of the closed set being built: kept from the attacker's win by
                // the set itself, which only grows while it is built (so a disproof relying
                // on it stays one until then: see `context_stored`).
                None if !self.context.is_empty() && self.context.contains(&k) => Child {
                    key: k,
                    pn: INF,
                    dn: 0,
                    dep: CLEAN,
                    len: 0,
                },
                None => self.leaf(&child, k),
            };
            kids.push((c, child));
        });
        run.path.push(key);
        let work0 = self.expanded;
        let out = loop {
            let (pn, dn) = numbers(or, &kids);
            if pn == 0 || dn == 0 || pn >= th_pn || dn >= th_dn {
                break summary(or, &kids, key, pn, dn, depth);
            }
            // The best child and the second best.
            let (best, second) = if or {
                best_two(&kids, |c| c.pn)
            } else {
                best_two(&kids, |c| c.dn)
            };
            let c = kids[best].0;
            let (cth_pn, cth_dn) = if or {
                let others = dn.saturating_sub(c.dn);
                (
                    th_pn.min(eps(second)).max(1),
                    th_dn.saturating_sub(others).clamp(1, INF),
                )
            } else {
                let others = pn.saturating_sub(c.pn);
                (
                    th_pn.saturating_sub(others).clamp(1, INF),
                    th_dn.min(eps(second)).max(1),
                )
            };
            let child_pos = kids[best].1;
            match self.mid(run, &child_pos, c.key, cth_pn, cth_dn) {
                Ok(r) => kids[best].0 = r,
                Err(e) => {
                    run.path.pop();
                    return Err(e);
                }
            }
        };
        run.path.pop();
        let work = self.expanded - work0;
        // Path-dependent disproofs stay out of the table.
        if !(out.dn == 0 && out.dep < depth) {
            let before = self.table.get(&key);
            if out.dn == 0 && !self.context.is_empty() && before.is_none_or(|e| e.dn != 0) {
                self.context_stored.insert(key);
            }
            let mut e = before.unwrap_or(Entry {
                pn: out.pn,
                dn: out.dn,
                work: 0,
                len: out.len,
            });
            // A solved entry is never replaced by an unsolved one.
            if !((e.pn == 0 || e.dn == 0) && out.pn != 0 && out.dn != 0) {
                e.pn = out.pn;
                e.dn = out.dn;
                e.len = out.len;
            }
            e.work = e.work.saturating_add(work);
            if self.table.full() {
                self.housekeeping(run)?;
            }
            self.table
                .insert(key, e)
                .map_err(|()| SolveError::Internal("the df-pn table is full"))?;
        }
        Ok(Child {
            dep: if out.dn == 0 && out.dep >= depth {
                CLEAN
            } else {
                out.dep
            },
            ..out
        })
    }

    /// Budget checks, table collection, progress and checkpoints.
    fn housekeeping(&mut self, run: &mut Run<'_>) -> Result<(), SolveError> {
        run.clock.check("df-pn search")?;
        self.peak = self.peak.max(self.table.bytes());
        if self.table.full() {
            // 80% of the slots the budget allows are taken: cut back to half of them.
            self.collect((self.table.bytes() / SLOT_BYTES) / 2);
            if self.table.full() {
                return Err(SolveError::MemoryLimit {
                    limit: run.budget.max_bytes.unwrap_or(u64::MAX),
                    reached: self.table.bytes(),
                    what: "df-pn search (proofs fill the table)",
                });
            }
        }
        (run.progress)(Progress {
            stage: "df-pn",
            done: self.expanded,
            total: 0,
        });
        if let Some((file, every)) = run.checkpoint
            && self.last_save.elapsed() >= every
        {
            self.save(file)
                .map_err(|_| SolveError::Internal("the checkpoint could not be written"))?;
            self.last_save = Instant::now();
        }
        Ok(())
    }

    /// Cuts the table back to about `keep` entries, dropping those that took the least work;
    /// proofs are never dropped (a certificate is read from them: a proof dropped and found
    /// again could rest on a proof that rested on it, and the strategy would go round). Of
    /// entries of equal work, the first in the table's iteration order are kept, which the
    /// fixed hasher makes the same from run to run.
    fn collect(&mut self, keep: u64) {
        self.collections += 1;
        // How many unproved entries have each amount of work (as the table packs it).
        let mut histogram = vec![0u64; 1 << 16];
        let mut proofs = 0u64;
        for e in self.table.values() {
            if e.pn == 0 {
                proofs += 1;
            } else {
                histogram[usize::from(super::ttable::pack_work(e.work))] += 1;
            }
        }
        let keep = keep.saturating_sub(proofs);
        let open = self.table.len() as u64 - proofs;
        if open <= keep {
            return;
        }
        if keep == 0 {
            self.table.retain(|_, e| e.pn == 0);
            return;
        }
        // The threshold: the largest work such that the entries with at least that much are
        // at least `keep`; all above it are kept, and only as many ties as fit (most entries
        // share the smallest amounts of work, so keeping every tie would free nothing).
        let mut above = 0u64;
        let mut threshold = 0usize;
        for code in (0..histogram.len()).rev() {
            if above + histogram[code] >= keep {
                threshold = code;
                break;
            }
            above += histogram[code];
        }
        drop(histogram);
        let mut ties = keep - above;
        self.table.retain(|_, e| {
            let code = usize::from(super::ttable::pack_work(e.work));
            if e.pn == 0 || code > threshold {
                return true;
            }
            if code == threshold && ties > 0 {
                ties -= 1;
                return true;
            }
            false
        });
    }

    /// When the root is proved: the attacker's ordered strategy, as a certificate (a win for
    /// the side to move, or a loss when the attacker is the other side). `Ok(None)` when the
    /// root is not proved. Positions of the proof missing from the table (dropped to save
    /// memory) are searched again.
    ///
    /// # Errors
    ///
    /// As [`Dfpn::run`], or [`SolveError::Unsupported`] under other rules than the solver's.
    pub fn certificate(&mut self) -> Result<Option<Certificate>, SolveError> {
        let root = self.root;
        let key = self.keyer.key(&root);
        if self.settled(&root, key).is_none_or(|(pn, _, _)| pn != 0) {
            return Ok(None);
        }
        let budget = Budget::default();
        let mut sink = |_: Progress| {};
        let mut run = Run {
            budget: &budget,
            clock: budget.clock(),
            progress: &mut sink,
            checkpoint: None,
            path: Vec::new(),
        };
        let entries = self
            .ordered_proof(&mut run, root, key)?
            .ok_or(SolveError::Internal(
                "the proof in the table cannot be ordered",
            ))?;
        Certificate::from_strategy(&self.root, self.attacker, entries).map(Some)
    }

    /// The attacker's ordered strategy from the proof in the table, or `None` when the graph
    /// cannot be ordered (a bug). The graph: each attacker position with its turn to the child
    /// proved shortest by the table's lengths (searched again if the table lost it), each
    /// defender position with all its children, positions where the game is over left out. Ordered by settling it
    /// backwards from the attacker's immediate wins (an attacker position settles with its
    /// first settled child, a defender position when all its children have): each position's
    /// replies lead to positions settled earlier, whatever the lengths say.
    fn ordered_proof(
        &mut self,
        run: &mut Run<'_>,
        root: Position,
        root_key: Key,
    ) -> Result<Option<Vec<(Position, Turn)>>, SolveError> {
        struct Node {
            pos: Position,
            /// A turn that wins at once (attacker positions).
            wins_now: Option<Turn>,
            /// Children, with the turn to each (the turn matters at attacker positions).
            kids: Vec<(usize, Turn)>,
        }
        let mut nodes: Vec<Node> = Vec::new();
        let mut index: KeyMap<usize> = KeyMap::default();
        let mut todo: Vec<usize> = Vec::new();
        fn node_of(
            nodes: &mut Vec<Node>,
            index: &mut KeyMap<usize>,
            todo: &mut Vec<usize>,
            pos: Position,
            k: Key,
        ) -> usize {
            *index.entry(k).or_insert_with(|| {
                nodes.push(Node {
                    pos,
                    wins_now: None,
                    kids: Vec::new(),
                });
                todo.push(nodes.len() - 1);
                nodes.len() - 1
            })
        }
        node_of(&mut nodes, &mut index, &mut todo, root, root_key);
        while let Some(i) = todo.pop() {
            let pos = nodes[i].pos;
            let key = self.keyer.key(&pos);
            self.proved_len(run, &pos, key)?;
            let turns: Vec<Turn> = pos.legal_turns().iter().copied().collect();
            if self.is_or(&pos) {
                let mut chosen: Vec<(u16, Turn, Position, Key)> = Vec::new();
                for &t in &turns {
                    let child = pos.play_unchecked(&t);
                    if child
                        .outcome()
                        .is_some_and(|o| o.winner == Some(self.attacker))
                    {
                        nodes[i].wins_now = Some(t);
                        chosen.clear();
                        break;
                    }
                    let k = self.keyer.key(&child);
                    if let Some((0, _, len)) = self.settled(&child, k) {
                        let better = match chosen.first() {
                            None => true,
                            Some(b) if len != b.0 => len < b.0,
                            // Of the shortest, with endgame tables (whose strategies are
                            // spelled out position by position): the one adding the fewest
                            // new positions to the certificate.
                            Some(b) => {
                                self.tables.is_some()
                                    && self.new_replies(&child, k, |k| index.contains_key(k))
                                        < self.new_replies(&b.2, b.3, |k| index.contains_key(k))
                            }
                        };
                        if better {
                            chosen = vec![(len, t, child, k)];
                        }
                    }
                }
                if nodes[i].wins_now.is_none() && chosen.is_empty() {
                    // The proving child was dropped from the table: search the children
                    // again until one is proved.
                    for &t in &turns {
                        let child = pos.play_unchecked(&t);
                        let k = self.keyer.key(&child);
                        if child.outcome().is_none() && !self.disproved(run, &child, k)? {
                            let l = self.proved_len(run, &child, k)?;
                            chosen.push((l, t, child, k));
                            break;
                        }
                    }
                    if chosen.is_empty() {
                        return Err(SolveError::Internal(
                            "a proved position has no proved child",
                        ));
                    }
                }
                for (_, t, child, k) in chosen {
                    let c = node_of(&mut nodes, &mut index, &mut todo, child, k);
                    nodes[i].kids.push((c, t));
                }
            } else {
                for &t in &turns {
                    let child = pos.play_unchecked(&t);
                    if child.outcome().is_none() {
                        let k = self.keyer.key(&child);
                        let c = node_of(&mut nodes, &mut index, &mut todo, child, k);
                        if !nodes[i].kids.iter().any(|&(x, _)| x == c) {
                            nodes[i].kids.push((c, t));
                        }
                    }
                }
            }
        }
        // Settle backwards.
        let n = nodes.len();
        let mut parents: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, node) in nodes.iter().enumerate() {
            for &(c, _) in &node.kids {
                parents[c].push(i);
            }
        }
        let mut open: Vec<usize> = nodes.iter().map(|node| node.kids.len()).collect();
        let mut turn: Vec<Option<Turn>> = nodes.iter().map(|node| node.wins_now).collect();
        let mut settled = vec![false; n];
        let mut order: Vec<usize> = Vec::new();
        for i in 0..n {
            if turn[i].is_some() {
                settled[i] = true;
                order.push(i);
            }
        }
        let mut next = 0;
        while next < order.len() {
            let c = order[next];
            next += 1;
            for &p in &parents[c] {
                if settled[p] {
                    continue;
                }
                if self.is_or(&nodes[p].pos) {
                    turn[p] = nodes[p]
                        .kids
                        .iter()
                        .find(|&&(x, _)| x == c)
                        .map(|&(_, t)| t);
                    settled[p] = true;
                    order.push(p);
                } else {
                    open[p] -= 1;
                    if open[p] == 0 {
                        settled[p] = true;
                        order.push(p);
                    }
                }
            }
        }
        if !settled[0] {
            return Ok(None);
        }
        // The strategy: the attacker positions reached from the root by the settling turns
        // (at defender positions, every child), in the order they settled.
        let mut rank = vec![usize::MAX; n];
        for (r, &i) in order.iter().enumerate() {
            rank[i] = r;
        }
        let mut reached = vec![false; n];
        let mut stack = vec![0usize];
        reached[0] = true;
        while let Some(i) = stack.pop() {
            let kids: Vec<usize> = if self.is_or(&nodes[i].pos) {
                let t = turn[i];
                nodes[i]
                    .kids
                    .iter()
                    .filter(|&&(_, k)| Some(k) == t)
                    .map(|&(c, _)| c)
                    .take(1)
                    .collect()
            } else {
                nodes[i].kids.iter().map(|&(c, _)| c).collect()
            };
            for c in kids {
                if !reached[c] {
                    reached[c] = true;
                    stack.push(c);
                }
            }
        }
        let mut out: Vec<(usize, Position, Turn)> = (0..n)
            .filter(|&i| reached[i] && self.is_or(&nodes[i].pos))
            .map(|i| (rank[i], nodes[i].pos, turn[i].expect("settled")))
            .collect();
        out.sort_by_key(|e| e.0);
        Ok(Some(out.into_iter().map(|(_, p, t)| (p, t)).collect()))
    }

    /// When the root is disproved: the defender's closed strategy, as a bound certificate
    /// (`win-or-draw` when the defender is to move at the root, else `draw-or-loss`).
    /// `Ok(None)` when the root is not disproved. At each of the defender's positions the
    /// strategy takes a turn to a child disproved in the table; a child whose disproof relied
    /// on the path (kept out of the table) or was dropped is searched again, with every
    /// position already in the set taken as disproved: a reply that returns into the set keeps
    /// the attacker from winning there as a repetition did on the search's path (the set is
    /// closed, so the attacker can never leave it). Cycles stay in the set: a closed strategy
    /// may repeat positions. The disproofs those searches enter in the table (which may rely
    /// on the set) are taken out again at the end, so the table stays one a later run may
    /// use.
    ///
    /// # Errors
    ///
    /// As [`Dfpn::run`]; [`SolveError::Internal`] if a position of the set turns out won for
    /// the attacker (a bug).
    pub fn disproof_certificate(&mut self) -> Result<Option<Certificate>, SolveError> {
        let root = self.root;
        let key = self.keyer.key(&root);
        if self.settled(&root, key).is_none_or(|(_, dn, _)| dn != 0) {
            return Ok(None);
        }
        self.context = KeySet::default();
        let out = self.closed_set(root, key);
        self.context = KeySet::default();
        let stored = std::mem::take(&mut self.context_stored);
        if !stored.is_empty() {
            self.table.retain(|k, _| !stored.contains(k));
        }
        Certificate::from_closed(&self.root, self.attacker.other(), out?).map(Some)
    }

    /// The walk of [`Dfpn::disproof_certificate`]: every position put on its stack is in
    /// `self.context`.
    fn closed_set(
        &mut self,
        root: Position,
        key: Key,
    ) -> Result<Vec<(Position, Turn)>, SolveError> {
        let budget = Budget::default();
        let mut sink = |_: Progress| {};
        let mut run = Run {
            budget: &budget,
            clock: budget.clock(),
            progress: &mut sink,
            checkpoint: None,
            path: Vec::new(),
        };
        let defender = self.attacker.other();
        let mut out: Vec<(Position, Turn)> = Vec::new();
        let mut seen = KeySet::default();
        // Positions a search has shown disproved (given the set as it was then: the set only
        // grows, so they stay disproved).
        let mut shown = KeySet::default();
        self.context.insert(key);
        let mut stack: Vec<(Position, Key)> = vec![(root, key)];
        while let Some((pos, key)) = stack.pop() {
            if !seen.insert(key) {
                continue;
            }
            if let Some(o) = pos.outcome() {
                if o.winner == Some(self.attacker) {
                    return Err(SolveError::Internal(
                        "a disproof reaches the attacker's win",
                    ));
                }
                continue;
            }
            if !shown.contains(&key) && !self.disproved(&mut run, &pos, key)? {
                return Err(SolveError::Internal("a position of the disproof is proved"));
            }
            let turns: Vec<Turn> = pos.legal_turns().iter().copied().collect();
            if pos.side_to_move() == defender {
                // The endgame tables' best turn where they cover the position; else a turn
                // that wins at once, a child in the set or disproved in the table, else the
                // first child that a search of its own disproves.
                let mut chosen = self.tables_defence(&pos, &self.context);
                for &t in turns.iter().filter(|_| chosen.is_none()) {
                    let child = pos.play_unchecked(&t);
                    let k = self.keyer.key(&child);
                    let ends_well = child
                        .outcome()
                        .is_some_and(|o| o.winner != Some(self.attacker));
                    if ends_well
                        || self.context.contains(&k)
                        || self.table.get(&k).is_some_and(|e| e.dn == 0)
                    {
                        chosen = Some((t, child, k));
                        break;
                    }
                }
                if chosen.is_none() {
                    // The children the table finds closest to disproved first (their disproof
                    // numbers), so that a search runs to the end on a child that is likely
                    // disproved rather than on one the attacker wins.
                    let mut open: Vec<(u32, Turn, Position, Key)> = turns
                        .iter()
                        .map(|&t| (t, pos.play_unchecked(&t)))
                        .filter(|(_, child)| child.outcome().is_none())
                        .map(|(t, child)| {
                            let k = self.keyer.key(&child);
                            (self.leaf(&child, k).dn, t, child, k)
                        })
                        .collect();
                    open.sort_by_key(|c| c.0);
                    for (_, t, child, k) in open {
                        if self.disproved(&mut run, &child, k)? {
                            shown.insert(k);
                            chosen = Some((t, child, k));
                            break;
                        }
                    }
                }
                let (t, child, k) = chosen.ok_or(SolveError::Internal(
                    "a disproved position has no disproved child",
                ))?;
                out.push((pos, t));
                self.context.insert(k);
                stack.push((child, k));
            } else {
                for t in turns {
                    let child = pos.play_unchecked(&t);
                    let k = self.keyer.key(&child);
                    self.context.insert(k);
                    stack.push((child, k));
                }
            }
        }
        Ok(out)
    }

    /// Whether a position is disproved, searching it on its own (an empty path, so that the
    /// result is path-independent and enters the table) when the table does not say.
    fn disproved(
        &mut self,
        run: &mut Run<'_>,
        pos: &Position,
        key: Key,
    ) -> Result<bool, SolveError> {
        if let Some(e) = self.table.get(&key)
            && (e.pn == 0 || e.dn == 0)
        {
            return Ok(e.dn == 0);
        }
        let saved = std::mem::take(&mut run.path);
        let r = self.mid(run, pos, key, INF, INF);
        run.path = saved;
        Ok(r?.dn == 0)
    }

    /// The proof length of a position that must be proved, searching it again when the table
    /// lost it.
    fn proved_len(
        &mut self,
        run: &mut Run<'_>,
        pos: &Position,
        key: Key,
    ) -> Result<u16, SolveError> {
        if let Some(e) = self.table.get(&key).filter(|e| e.pn == 0) {
            return Ok(e.len);
        }
        let r = self.mid(run, pos, key, INF, INF)?;
        if r.pn != 0 {
            return Err(SolveError::Internal(
                "a position of the proof is not proved",
            ));
        }
        Ok(r.len)
    }

    /// Writes the table to `file` atomically (a temporary file beside it, then renamed), in
    /// the checkpoint format of [`docs/solver.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/solver.md) (version 2: the board, rules, start and attacker
    /// it belongs to, and a checksum).
    ///
    /// # Errors
    ///
    /// The file system's.
    pub fn save(&self, file: &Path) -> std::io::Result<()> {
        let tmp = file.with_extension(format!("tmp{}", std::process::id()));
        let result = (|| {
            let mut w = HashingWriter {
                inner: std::io::BufWriter::new(std::fs::File::create(&tmp)?),
                hash: FNV_OFFSET,
            };
            w.write_all(self.checkpoint_header(self.table.len() as u64).as_bytes())?;
            for (k, e) in self.table.iter() {
                let work = u32::try_from(e.work).unwrap_or(u32::MAX);
                let mut rec = [0u8; RECORD_BYTES as usize];
                rec[0..8].copy_from_slice(&k.a.to_le_bytes());
                rec[8..16].copy_from_slice(&k.b.to_le_bytes());
                rec[16..20].copy_from_slice(&e.pn.to_le_bytes());
                rec[20..24].copy_from_slice(&e.dn.to_le_bytes());
                rec[24..28].copy_from_slice(&work.to_le_bytes());
                rec[28..30].copy_from_slice(&e.len.to_le_bytes());
                w.write_all(&rec)?;
            }
            let hash = w.hash;
            let mut inner = w.inner;
            writeln!(inner, "end {hash:016x}")?;
            let f = inner.into_inner().map_err(|e| e.into_error())?;
            f.sync_all()?;
            std::fs::rename(&tmp, file)
        })();
        if result.is_err() {
            std::fs::remove_file(&tmp).ok();
        }
        result
    }

    /// The text lines that open a checkpoint of this search with `entries` records.
    fn checkpoint_header(&self, entries: u64) -> String {
        format!(
            "{}\nboard {}\nrules {}\nstart {}\nattacker {}\nentries {entries}\nexpanded {}\n",
            CHECKPOINT_MAGIC,
            self.root.size(),
            self.keyer.rules.to_full_string(),
            self.root.to_fen(),
            side_word(self.attacker),
            self.expanded
        )
    }

    /// Loads a table saved by [`Dfpn::save`] for the same board, rules, start and attacker, to
    /// resume, within `budget`'s memory. Nothing of the file is trusted before it is checked:
    /// the header must name this search, the file's size must be exactly what its entry count
    /// implies, the table that count makes must fit [`Budget::max_bytes`] (28-byte slots, 5/4
    /// of a slot an entry, within the budget less a 32nd) before anything is reserved, every
    /// record must
    /// be a position of this board with proof and disproof numbers in range, no position may
    /// appear twice, and the checksum must match. The search's table is replaced only when
    /// all of that holds.
    ///
    /// # Errors
    ///
    /// [`CheckpointError`]: the file cannot be read, is not a checkpoint of this version or is
    /// damaged (located by line or record and byte), belongs to another search (located by
    /// line), or needs more memory than the budget.
    ///
    /// # Examples
    ///
    /// ```
    /// use fanorona_ai::solve::{self, Budget, dfpn::{CheckpointError, Dfpn}};
    /// use fanorona_core::{BoardSize, Color};
    ///
    /// let start = solve::start(BoardSize::TELO);
    /// let mut search = Dfpn::new(&start, Color::Black)?;
    /// search.run(&Budget::default(), &mut |_| {})?;
    /// let file = std::env::temp_dir().join(format!("dfpn-doc-{}.ckpt", std::process::id()));
    /// search.save(&file)?;
    /// let mut again = Dfpn::new(&start, Color::Black)?;
    /// again.load(&file, &Budget::default())?;
    /// assert_eq!(again.entries(), search.entries());
    /// // The other attacker's search refuses it at the `attacker` line.
    /// let mut other = Dfpn::new(&start, Color::White)?;
    /// let e = other.load(&file, &Budget::default()).unwrap_err();
    /// assert!(matches!(e, CheckpointError::Foreign { line: 5, .. }));
    /// // So does a budget too small for its table (28-byte slots, at most 80% full).
    /// let e = again.load(&file, &Budget::default().with_max_bytes(64)).unwrap_err();
    /// assert!(matches!(e, CheckpointError::MemoryLimit { .. }));
    /// std::fs::remove_file(&file)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn load(&mut self, file: &Path, budget: &Budget) -> Result<(), CheckpointError> {
        let meta = std::fs::metadata(file).map_err(CheckpointError::Io)?;
        if !meta.is_file() {
            return Err(CheckpointError::Format {
                at: "the file".to_owned(),
                reason: "not a regular file".to_owned(),
            });
        }
        let f = super::tablebase::open_nonblocking(file).map_err(CheckpointError::Io)?;
        let file_len = f.metadata().map_err(CheckpointError::Io)?.len();
        let mut r = std::io::BufReader::with_capacity(1 << 16, f);
        let mut hash = FNV_OFFSET;
        let mut offset = 0u64;
        let mut line_no = 0u32;
        let mut read_line = |r: &mut std::io::BufReader<std::fs::File>,
                             what: &str|
         -> Result<(u32, String), CheckpointError> {
            line_no += 1;
            let mut buf = Vec::new();
            let n = r
                .by_ref()
                .take(MAX_HEADER_LINE as u64 + 1)
                .read_until(b'\n', &mut buf)
                .map_err(CheckpointError::Io)?;
            let bad = |reason: String| CheckpointError::Format {
                at: format!("line {line_no}"),
                reason,
            };
            if buf.last() != Some(&b'\n') {
                return Err(bad(if n > MAX_HEADER_LINE {
                    format!("longer than {MAX_HEADER_LINE} bytes where {what} should be")
                } else {
                    format!("the file ends where {what} should be")
                }));
            }
            hash = fnv1a(hash, &buf);
            offset += n as u64;
            buf.pop();
            String::from_utf8(buf)
                .map(|t| (line_no, t))
                .map_err(|_| bad(format!("not UTF-8 text where {what} should be")))
        };
        let (_, magic) = read_line(&mut r, "the first line")?;
        if magic != CHECKPOINT_MAGIC {
            return Err(CheckpointError::Format {
                at: "line 1".to_owned(),
                reason: if magic == "fanorona-dfpn 1" {
                    "a checkpoint of format 1, which has no checksum and does not name its rules: \
                     it cannot be trusted and is not read (start the search again without it)"
                        .to_owned()
                } else {
                    format!(
                        "not a df-pn checkpoint of version 2 ({CHECKPOINT_MAGIC} expected)",
                        CHECKPOINT_MAGIC = fanorona_core::escape::quoted(&CHECKPOINT_MAGIC)
                    )
                },
            });
        }
        let own: Vec<String> = self
            .checkpoint_header(0)
            .lines()
            .map(str::to_owned)
            .collect();
        // board, rules, start, attacker: each must be this search's.
        for (i, name) in ["board", "rules", "start", "attacker"].iter().enumerate() {
            let (line, text) = read_line(&mut r, name)?;
            let mine = &own[i + 1];
            if !text.starts_with(&format!("{name} ")) {
                return Err(CheckpointError::Format {
                    at: format!("line {line}"),
                    reason: format!("expected \"{name} ...\""),
                });
            }
            if &text != mine {
                return Err(CheckpointError::Foreign {
                    line,
                    reason: format!(
                        "the checkpoint's {name} is {}, this search's is {}",
                        fanorona_core::escape::quoted(&&text[name.len() + 1..]),
                        fanorona_core::escape::quoted(&&mine[name.len() + 1..])
                    ),
                });
            }
        }
        let mut number = |r: &mut std::io::BufReader<std::fs::File>,
                          name: &str|
         -> Result<(u32, u64), CheckpointError> {
            let (line, text) = read_line(r, name)?;
            text.strip_prefix(name)
                .and_then(|t| t.strip_prefix(' '))
                .and_then(|t| t.parse::<u64>().ok())
                .map(|n| (line, n))
                .ok_or_else(|| CheckpointError::Format {
                    at: format!("line {line}"),
                    reason: format!("expected \"{name} NUMBER\""),
                })
        };
        let (count_line, count) = number(&mut r, "entries")?;
        let (_, expanded) = number(&mut r, "expanded")?;
        let header_len = offset;
        let expected_len = count
            .checked_mul(RECORD_BYTES)
            .and_then(|b| b.checked_add(header_len + END_LINE_BYTES));
        if expected_len != Some(file_len) {
            return Err(CheckpointError::Format {
                at: format!("line {count_line}"),
                reason: format!(
                    "{count} entries make a file of {} bytes, but it has {file_len} (truncated or \
                     damaged)",
                    expected_len.map_or_else(|| "more than 2^64".to_owned(), |n| n.to_string())
                ),
            });
        }
        let needed = load_bytes(count);
        if Table::slots_needed(count) > max_slots(budget) as u64 {
            return Err(CheckpointError::MemoryLimit {
                entries: count,
                bytes: needed,
                limit: budget.max_bytes.unwrap_or(u64::MAX),
            });
        }
        let mut table = Table::new(max_slots(budget));
        table
            .reserve(count)
            .map_err(|()| CheckpointError::MemoryLimit {
                entries: count,
                bytes: needed,
                limit: budget.max_bytes.unwrap_or(u64::MAX),
            })?;
        let mut rec = [0u8; RECORD_BYTES as usize];
        for i in 0..count {
            let at = || format!("record {} (byte {})", i + 1, header_len + i * RECORD_BYTES);
            r.read_exact(&mut rec).map_err(|e| {
                if e.kind() == std::io::ErrorKind::UnexpectedEof {
                    CheckpointError::Format {
                        at: at(),
                        reason: "the file ends here (it shrank while read)".to_owned(),
                    }
                } else {
                    CheckpointError::Io(e)
                }
            })?;
            hash = fnv1a(hash, &rec);
            let u64_at = |i: usize| u64::from_le_bytes(rec[i..i + 8].try_into().expect("8"));
            let u32_at = |i: usize| u32::from_le_bytes(rec[i..i + 4].try_into().expect("4"));
            let key = Key {
                a: u64_at(0),
                b: u64_at(8),
            };
            let entry = Entry {
                pn: u32_at(16),
                dn: u32_at(20),
                work: u64::from(u32_at(24)),
                len: u16::from_le_bytes([rec[28], rec[29]]),
            };
            let bad = |reason: String| CheckpointError::Format { at: at(), reason };
            if key == Key::default() || self.keyer.checked_position(key).is_none() {
                return Err(bad(format!(
                    "{:x}:{:x} is not a position of this board and rules",
                    key.a, key.b
                )));
            }
            if entry.pn > INF || entry.dn > INF || (entry.pn == 0 && entry.dn == 0) {
                return Err(bad(format!(
                    "proof and disproof numbers {} and {} are out of range",
                    entry.pn, entry.dn
                )));
            }
            match table.insert(key, entry) {
                Ok(false) => {}
                Ok(true) => {
                    return Err(bad("a position that appears earlier in the file".to_owned()));
                }
                Err(()) => return Err(bad("more entries than the header says".to_owned())),
            }
        }
        let end_at = header_len + count * RECORD_BYTES;
        let mut end = [0u8; END_LINE_BYTES as usize];
        r.read_exact(&mut end).map_err(CheckpointError::Io)?;
        let said = std::str::from_utf8(&end)
            .ok()
            .and_then(|t| t.strip_prefix("end "))
            .and_then(|t| t.strip_suffix('\n'))
            .filter(|t| t.len() == 16)
            .and_then(|t| u64::from_str_radix(t, 16).ok());
        let Some(said) = said else {
            return Err(CheckpointError::Format {
                at: format!("byte {end_at}"),
                reason: "expected the end line \"end CHECKSUM\"".to_owned(),
            });
        };
        if said != hash {
            return Err(CheckpointError::Format {
                at: format!("byte {end_at} (the end line)"),
                reason: format!(
                    "checksum mismatch: the contents hash to {hash:016x}, the end line says \
                     {said:016x} (the file was altered or damaged)"
                ),
            });
        }
        self.table = table;
        self.expanded = expanded;
        Ok(())
    }

    /// Where the search stands: table counts and the root's proof and disproof numbers, read
    /// from the table (a pass over it: about a second for 100 million entries).
    pub fn status(&self) -> DfpnStatus {
        let (mut proofs, mut disproofs) = (0u64, 0u64);
        for e in self.table.values() {
            proofs += u64::from(e.pn == 0);
            disproofs += u64::from(e.dn == 0);
        }
        let root = self.root;
        let key = self.keyer.key(&root);
        let mut kids: Vec<(Child, Position)> = Vec::new();
        let mut children = Vec::new();
        root.for_each_turn(|t| {
            let child = root.play_unchecked(&t);
            let k = self.keyer.key(&child);
            let c = self.leaf(&child, k);
            children.push((t, c.pn, c.dn));
            if !kids.iter().any(|x| x.0.key == k) {
                kids.push((c, child));
            }
        });
        let (root_pn, root_dn) = match self.table.get(&key) {
            Some(e) if e.pn == 0 || e.dn == 0 => (e.pn, e.dn),
            _ => numbers(self.is_or(&root), &kids),
        };
        DfpnStatus {
            expanded: self.expanded,
            entries: self.table.len() as u64,
            proofs,
            disproofs,
            root_pn,
            root_dn,
            children,
            bytes: self.table.bytes(),
            peak_bytes: self.peak.max(self.table.bytes()),
            collections: self.collections,
        }
    }

    /// Entries in the table.
    pub fn entries(&self) -> u64 {
        self.table.len() as u64
    }

    /// Positions expanded over every run of this search (loaded checkpoints included).
    pub fn expanded(&self) -> u64 {
        self.expanded
    }
}

/// Bytes a table of `n` loaded entries takes: its slots, 28 bytes each, enough for it to be
/// at most 80% full.
fn load_bytes(n: u64) -> u64 {
    Table::slots_needed(n).saturating_mul(SLOT_BYTES)
}

/// The most slots the table may have under `budget`: its memory less a 32nd (the bit a slot
/// of a rehash, and the search's own), at 28 bytes a slot.
fn max_slots(budget: &Budget) -> usize {
    budget
        .max_bytes
        .map_or(usize::MAX, |m| Table::slots_for(m - m / 32))
}

/// The first line of a checkpoint (version 2; version 1 had no checksum nor rules).
const CHECKPOINT_MAGIC: &str = "fanorona-dfpn 2";
/// Bytes of one record of a checkpoint.
const RECORD_BYTES: u64 = 30;
/// Bytes of the `end` line: `end `, 16 hexadecimal digits, a new line.
const END_LINE_BYTES: u64 = 21;
/// The longest header line read.
const MAX_HEADER_LINE: usize = 4096;
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
fn side_word(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// A writer that hashes what it writes (FNV-1a 64, the checkpoint's checksum).
struct HashingWriter<W: Write> {
    inner: W,
    hash: u64,
}

impl<W: Write> Write for HashingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hash = fnv1a(self.hash, &buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Why [`Dfpn::load`] refused a checkpoint (see its example).
#[derive(Debug)]
#[non_exhaustive]
pub enum CheckpointError {
    /// The file could not be read.
    Io(std::io::Error),
    /// Not a checkpoint of this version, or damaged.
    Format {
        /// Where: `line N` of the header, `record N (byte B)`, or `byte B` of the end line.
        at: String,
        /// What is wrong.
        reason: String,
    },
    /// A checkpoint of another search: another board, rules, start or attacker.
    Foreign {
        /// The header line that differs.
        line: u32,
        /// What differs.
        reason: String,
    },
    /// The table the checkpoint holds does not fit the memory budget.
    MemoryLimit {
        /// Entries in the checkpoint.
        entries: u64,
        /// Bytes they would take (28-byte slots, 5/4 of a slot an entry).
        bytes: u64,
        /// The budget.
        limit: u64,
    },
}

impl core::fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            CheckpointError::Io(e) => write!(f, "{e}"),
            CheckpointError::Format { at, reason } => write!(f, "{at}: {reason}"),
            CheckpointError::Foreign { line, reason } => {
                write!(f, "line {line}: not a checkpoint of this search: {reason}")
            }
            CheckpointError::MemoryLimit {
                entries,
                bytes,
                limit,
            } => write!(
                f,
                "{entries} entries need {} in memory, more than the budget of {} (--max-memory); \
                 refused before reading them",
                super::human_bytes(*bytes),
                super::human_bytes(*limit)
            ),
        }
    }
}

impl std::error::Error for CheckpointError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CheckpointError::Io(e) => Some(e),
            _ => None,
        }
    }
}

/// `n * (1 + epsilon)`, at least `n + 1`.
fn eps(n: u32) -> u32 {
    if n >= INF - 1 {
        return INF;
    }
    let n = u64::from(n);
    (n + (n * EPS_NUM).div_ceil(EPS_DEN))
        .max(n + 1)
        .min(u64::from(INF - 1)) as u32
}

fn numbers(or: bool, kids: &[(Child, Position)]) -> (u32, u32) {
    if kids.is_empty() {
        // No turn: the side to move is stuck; outcome() settled it as a leaf already.
        return if or { (INF, 0) } else { (0, INF) };
    }
    // The weak proof-number sum (Ueda et al.): the largest child's number plus one for each
    // other open child, instead of the plain sum, which counts transpositions many times over
    // and overflows on the large boards. `INF` only when a child is `INF`.
    let sum = |f: fn(&Child) -> u32| -> u32 {
        let mut max = 0u32;
        let mut open = 0u64;
        for k in kids {
            let v = f(&k.0);
            if v >= INF {
                return INF;
            }
            if v > 0 {
                open += 1;
                max = max.max(v);
            }
        }
        (u64::from(max) + open.saturating_sub(1)).min(u64::from(INF - 1)) as u32
    };
    if or {
        (
            kids.iter().map(|k| k.0.pn).min().unwrap_or(INF),
            sum(|c| c.dn),
        )
    } else {
        (
            sum(|c| c.pn),
            kids.iter().map(|k| k.0.dn).min().unwrap_or(INF),
        )
    }
}

/// The index of the smallest value and the second smallest value.
fn best_two(kids: &[(Child, Position)], f: fn(&Child) -> u32) -> (usize, u32) {
    let mut best = 0;
    let mut b1 = u32::MAX;
    let mut b2 = INF;
    for (i, k) in kids.iter().enumerate() {
        let v = f(&k.0);
        if v < b1 {
            b2 = b1;
            b1 = v;
            best = i;
        } else if v < b2 {
            b2 = v;
        }
    }
    (best, b2.min(INF))
}

/// A node's result from its children: numbers, and for a disproof its dependence, for a proof
/// its length.
fn summary(or: bool, kids: &[(Child, Position)], key: Key, pn: u32, dn: u32, depth: u16) -> Child {
    let mut c = Child {
        key,
        pn,
        dn,
        dep: CLEAN,
        len: 0,
    };
    if pn == 0 {
        c.len = if or {
            kids.iter()
                .filter(|k| k.0.pn == 0)
                .map(|k| k.0.len)
                .min()
                .unwrap_or(0)
        } else {
            kids.iter().map(|k| k.0.len).max().unwrap_or(0)
        }
        .saturating_add(1);
    } else if dn == 0 {
        c.dep = if or {
            // Every child disproved: relies on whatever any of them relies on.
            kids.iter().map(|k| k.0.dep).min().unwrap_or(CLEAN)
        } else {
            // One disproved child suffices: the one relying on the least.
            kids.iter()
                .filter(|k| k.0.dn == 0)
                .map(|k| k.0.dep)
                .max()
                .unwrap_or(CLEAN)
        };
        if c.dep >= depth {
            c.dep = CLEAN;
        }
    }
    c
}

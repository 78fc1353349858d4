//! Proof-number search: proves or disproves that one side (the *attacker*) can force a win.
//!
//! The search grows a tree of the game best-first: from the root it follows, at the
//! attacker's turns, the child with the smallest *proof number* (the fewest leaves still to
//! prove) and, at the defender's turns, the child with the smallest *disproof number*, expands
//! the leaf it reaches, and updates the numbers back to the root, until the root is proved
//! (the attacker wins) or disproved. New leaves start from their mobility: an attacker node
//! with `k` turns has proof number 1 and disproof number `k`, a defender node the reverse.
//!
//! **Cycles.** A leaf whose position already stands on its path from the root is disproved:
//! going round a cycle never helps the attacker, who, if it can win at all, can win without
//! repeating a position (along a winning strategy the number of turns left to the win strictly
//! falls). That disproof depends on the path, so each disproved node records the shallowest
//! ancestor its disproof relies on; a disproof relying only on the node itself or on nodes
//! below it holds whatever the path, and only such disproofs, together with every proof (a
//! proof never relies on a cycle), enter the *table of solved positions* that lets a position
//! met again elsewhere in the tree be settled at once. This avoids the graph-history
//! interaction problem without giving up transpositions of solved positions.
//!
//! **Memory.** Each tree node takes 48 bytes and each solved position about 48; solved
//! subtrees are freed at once (their blocks reused), so the tree holds the unsolved frontier.
//! When the live tree passes 60% of the memory budget, the unsolved subtrees below the depth
//! that holds half of its nodes are dropped, their roots becoming leaves that keep their
//! numbers (solved positions stay in the table, so nothing proved is lost).
//!
//! **Win, draw or loss.** [`solve`] runs two searches: the side to move as attacker (proved:
//! win), then the opponent as attacker (proved: loss); both disproved: draw.
//!
//! # Examples
//!
//! ```
//! use fanorona_ai::solve::{self, Budget, Value, pns};
//! use fanorona_core::BoardSize;
//!
//! let result = pns::solve(&solve::start(BoardSize::TELO), &Budget::default(), &mut |_| {})?;
//! assert_eq!(result.value, Value::Win);
//! let best = result.best.expect("a winning first turn");
//! println!("3x3: {} with {best}; proof of {} nodes", result.value, result.proof_size);
//! # Ok::<(), fanorona_ai::solve::SolveError>(())
//! ```

use std::time::Duration;

use fanorona_core::{Color, Position, Turn};

use super::key::{Key, KeyMap, Keyer};
use super::{Budget, Clock, Progress, SolveError, Value};

const INF: u32 = u32::MAX;
pub(crate) const NIL: u32 = u32::MAX;
pub(crate) const CLEAN: u16 = u16::MAX;

#[derive(Clone, Copy)]
pub(crate) struct Node {
    pub key: Key,
    /// Proof and disproof numbers (attacker's view); 0 means proved / disproved.
    pub pn: u32,
    pub dn: u32,
    parent: u32,
    /// First child of the node's block, NIL while the node is a leaf.
    pub first: u32,
    pub len: u32,
    depth: u16,
    /// For a disproved node: the depth of the shallowest ancestor whose repetition its
    /// disproof relies on, [`CLEAN`] when none above the node.
    pub dep: u16,
    /// Nodes of the proof (or disproof) tree once solved, transpositions counted each time.
    pub size: u64,
}

const NODE_BYTES: u64 = core::mem::size_of::<Node>() as u64;
const SOLVED_BYTES: u64 = 48;

/// The outcome of one proof-number search.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Search {
    /// The side trying to force a win.
    pub attacker: Color,
    /// Whether the attacker can force a win from the root.
    pub proved: bool,
    /// Nodes in the proof (or disproof) tree, each transposition counted where it occurs.
    pub proof_size: u64,
    /// Leaves expanded.
    pub expanded: u64,
    /// Tree nodes created.
    pub nodes: u64,
    /// Most tree nodes alive at once.
    pub peak_nodes: u64,
    /// Positions in the table of solved positions at the end.
    pub solved_positions: u64,
    /// Peak bytes of the tree and the table of solved positions.
    pub bytes: u64,
    /// Time taken.
    pub time: Duration,
    /// Times the tree was cut back to stay within the memory budget.
    pub collapses: u64,
    /// The root's children with, for each, whether it was proved (`Some(true)`), disproved
    /// (`Some(false)`) or left open, and its proof size.
    children: Vec<(Key, Option<bool>, u64)>,
}

/// The value of a position found by proof-number search.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct PnSolution {
    /// The value for the side to move.
    pub value: Value,
    /// A best first turn: a winning turn, a drawing turn, or the loss's hardest turn to
    /// refute (the largest proof); `None` when the game is over at the root.
    pub best: Option<Turn>,
    /// Nodes in the proof tree that settles the value (the win's proof, the loss's proof, or
    /// for a draw both disproofs together).
    pub proof_size: u64,
    /// Leaves expanded by both searches.
    pub expanded: u64,
    /// Peak bytes of either search.
    pub bytes: u64,
    /// Time taken by both searches.
    pub time: Duration,
    /// The search with the side to move as attacker.
    pub win_search: Search,
    /// The search with the opponent as attacker (not run when the first proved a win).
    pub loss_search: Option<Search>,
}

/// Solves `pos` with two proof-number searches: win, draw or loss for the side to move,
/// under the rules of `pos`.
///
/// # Errors
///
/// [`SolveError::MemoryLimit`] or [`SolveError::TimeLimit`] when a budget of `budget` runs
/// out; [`SolveError::Key`] when the rules need counters the board cannot hold.
pub fn solve(
    pos: &Position,
    budget: &Budget,
    progress: &mut dyn FnMut(Progress),
) -> Result<PnSolution, SolveError> {
    let clock = budget.clock();
    let us = pos.side_to_move();
    let keyer = Keyer::new(pos.size(), pos.rules())?;
    let win = search(pos, us, budget, &clock, progress)?;
    let children = child_turns(&keyer, pos);
    if win.proved {
        let best = win
            .children
            .iter()
            .filter(|c| c.1 == Some(true))
            .min_by_key(|c| c.2)
            .and_then(|c| turn_of(&children, c.0));
        return Ok(PnSolution {
            value: Value::Win,
            best,
            proof_size: win.proof_size,
            expanded: win.expanded,
            bytes: win.bytes,
            time: clock.elapsed(),
            win_search: win,
            loss_search: None,
        });
    }
    let loss = search(pos, us.other(), budget, &clock, progress)?;
    let (value, best, proof_size) = if loss.proved {
        let best = loss
            .children
            .iter()
            .max_by_key(|c| c.2)
            .and_then(|c| turn_of(&children, c.0));
        (Value::Loss, best, loss.proof_size)
    } else {
        let best = loss
            .children
            .iter()
            .filter(|c| c.1 == Some(false))
            .min_by_key(|c| c.2)
            .and_then(|c| turn_of(&children, c.0));
        (
            Value::Draw,
            best,
            win.proof_size.saturating_add(loss.proof_size),
        )
    };
    Ok(PnSolution {
        value,
        best,
        proof_size,
        expanded: win.expanded + loss.expanded,
        bytes: win.bytes.max(loss.bytes),
        time: clock.elapsed(),
        win_search: win,
        loss_search: Some(loss),
    })
}

fn child_turns(keyer: &Keyer, pos: &Position) -> Vec<(Key, Turn)> {
    let mut out = Vec::new();
    pos.for_each_turn(|t| out.push((keyer.key(&pos.play_unchecked(&t)), t)));
    out
}

fn turn_of(children: &[(Key, Turn)], key: Key) -> Option<Turn> {
    children.iter().find(|c| c.0 == key).map(|c| c.1)
}

/// Proves or disproves that `attacker` can force a win from `pos`.
///
/// # Errors
///
/// As [`solve`].
pub fn prove(
    pos: &Position,
    attacker: Color,
    budget: &Budget,
    progress: &mut dyn FnMut(Progress),
) -> Result<Search, SolveError> {
    search(pos, attacker, budget, &budget.clock(), progress)
}

fn search(
    pos: &Position,
    attacker: Color,
    budget: &Budget,
    clock: &Clock,
    progress: &mut dyn FnMut(Progress),
) -> Result<Search, SolveError> {
    run(pos, attacker, budget, clock, progress, false).map(|(s, _)| s)
}

/// An entry of the table of solved positions.
#[derive(Clone, Copy)]
pub(crate) struct Solved {
    /// Proved (the attacker wins) or disproved.
    pub proved: bool,
    /// Size of the proof or disproof tree.
    pub size: u64,
    /// When the position was first solved: a proved position's proving children were all
    /// solved before it, so proofs ordered by `seq` refer only backwards (certificates).
    pub seq: u32,
    /// The tree node where it was solved (meaningful when the tree keeps solved subtrees).
    pub node: u32,
}

pub(crate) struct Tree {
    pub keyer: Keyer,
    pub attacker: Color,
    board: u64,
    pub nodes: Vec<Node>,
    free: Vec<Vec<u32>>,
    live: u64,
    pub solved: KeyMap<Solved>,
    created: u64,
    /// Keep solved subtrees (and never cut the tree back), for extracting disproofs.
    keep: bool,
}

impl Tree {
    pub fn is_or(&self, key: Key) -> bool {
        let black = key.b >> 63 == 1;
        black == (self.attacker == Color::Black)
    }

    fn stones(&self, key: Key) -> u32 {
        (key.a & self.board).count_ones() + (key.b & self.board).count_ones()
    }

    /// Initial numbers of a new node (already known to be no repetition).
    fn init(&self, pos: &Position, key: Key) -> (u32, u32, u64) {
        if let Some(&Solved { proved, size, .. }) = self.solved.get(&key) {
            return if proved {
                (0, INF, size)
            } else {
                (INF, 0, size)
            };
        }
        if let Some(outcome) = pos.outcome() {
            return if outcome.winner == Some(self.attacker) {
                (0, INF, 1)
            } else {
                (INF, 0, 1)
            };
        }
        let rules = pos.rules();
        if rules
            .no_capture_limit()
            .map(core::num::NonZeroU16::get)
            .is_some_and(|limit| pos.no_capture_count() >= limit)
        {
            return (INF, 0, 1);
        }
        let k = pos.count_turns().min(u64::from(INF - 1)) as u32;
        if self.is_or(key) {
            (1, k, 0)
        } else {
            (k, 1, 0)
        }
    }

    fn alloc(&mut self, len: usize) -> u32 {
        if let Some(start) = self.free.get_mut(len).and_then(Vec::pop) {
            return start;
        }
        let start = self.nodes.len() as u32;
        let blank = Node {
            key: Key::default(),
            pn: 0,
            dn: 0,
            parent: NIL,
            first: NIL,
            len: 0,
            depth: 0,
            dep: CLEAN,
            size: 0,
        };
        self.nodes.resize(self.nodes.len() + len, blank);
        start
    }

    /// Frees the blocks below `node`.
    fn free_below(&mut self, node: u32) {
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            let Node { first, len, .. } = self.nodes[n as usize];
            if first == NIL {
                continue;
            }
            for c in first..first + len {
                stack.push(c);
            }
            let len = len as usize;
            if self.free.len() <= len {
                self.free.resize_with(len + 1, Vec::new);
            }
            self.free[len].push(first);
            self.live -= len as u64;
            self.nodes[n as usize].first = NIL;
            self.nodes[n as usize].len = 0;
        }
    }

    /// Expands the leaf `n`: creates its children (each distinct position once).
    fn expand(&mut self, n: u32) {
        let node = self.nodes[n as usize];
        let pos = self.keyer.position(node.key);
        let mut kids: Vec<(Key, Position)> = Vec::new();
        pos.for_each_turn(|t| {
            let child = pos.play_unchecked(&t);
            let key = self.keyer.key(&child);
            if !kids.iter().any(|k| k.0 == key) {
                kids.push((key, child));
            }
        });
        let count = kids.len() as u32;
        let first = self.alloc(kids.len());
        self.live += kids.len() as u64;
        self.created += kids.len() as u64;
        for (i, (key, child)) in kids.into_iter().enumerate() {
            let depth = node.depth + 1;
            let (pn, dn, size, dep) = match self.repetition(n, key) {
                Some(d) => (INF, 0, 1, d),
                None => {
                    let (pn, dn, size) = self.init(&child, key);
                    (pn, dn, size, CLEAN)
                }
            };
            self.nodes[first as usize + i] = Node {
                key,
                pn,
                dn,
                parent: n,
                first: NIL,
                len: 0,
                depth,
                dep,
                size,
            };
        }
        let node = &mut self.nodes[n as usize];
        node.first = first;
        node.len = count;
    }

    /// The depth of the ancestor of a child of `parent` holding `key`, if any.
    fn repetition(&self, parent: u32, key: Key) -> Option<u16> {
        let stones = self.stones(key);
        let mut a = parent;
        while a != NIL {
            let node = &self.nodes[a as usize];
            if self.stones(node.key) != stones {
                return None;
            }
            if node.key == key {
                return Some(node.depth);
            }
            a = node.parent;
        }
        None
    }
}

/// One search, returning the tree too. With `keep`, solved subtrees are kept and the tree is
/// never cut back, so that a disproof can be read from it afterwards.
pub(crate) fn run(
    pos: &Position,
    attacker: Color,
    budget: &Budget,
    clock: &Clock,
    progress: &mut dyn FnMut(Progress),
    keep: bool,
) -> Result<(Search, Tree), SolveError> {
    let start = clock.elapsed();
    let keyer = Keyer::new(pos.size(), pos.rules())?;
    let mut tree = Tree {
        keyer,
        attacker,
        board: pos.geometry().all().bits(),
        nodes: Vec::new(),
        free: Vec::new(),
        live: 1,
        solved: KeyMap::default(),
        created: 1,
        keep,
    };
    let key = keyer.key(pos);
    let root_pos = keyer.position(key);
    let (pn, dn, size) = tree.init(&root_pos, key);
    tree.nodes.push(Node {
        key,
        pn,
        dn,
        parent: NIL,
        first: NIL,
        len: 0,
        depth: 0,
        dep: CLEAN,
        size,
    });
    let mut expanded = 0u64;
    let mut peak_nodes = 1u64;
    let mut peak_bytes = 0u64;
    let mut collapses = 0u64;
    while tree.nodes[0].pn != 0 && tree.nodes[0].dn != 0 {
        // Select the most-proving leaf.
        let mut n = 0u32;
        while tree.nodes[n as usize].first != NIL {
            let node = tree.nodes[n as usize];
            let or = tree.is_or(node.key);
            let block = &tree.nodes[node.first as usize..(node.first + node.len) as usize];
            let best = if or {
                (0..block.len()).min_by_key(|&i| block[i].pn)
            } else {
                (0..block.len()).min_by_key(|&i| block[i].dn)
            };
            n = node.first + best.expect("an inner node has children") as u32;
        }
        tree.expand(n);
        expanded += 1;
        // Update the numbers back towards the root.
        let mut m = n;
        loop {
            let node = tree.nodes[m as usize];
            let (pn, dn) = numbers(&tree, &node);
            let changed = (pn, dn) != (node.pn, node.dn);
            tree.nodes[m as usize].pn = pn;
            tree.nodes[m as usize].dn = dn;
            if pn == 0 || dn == 0 {
                settle(&mut tree, m);
            }
            if m == 0 || (!changed && m != n) {
                break;
            }
            m = node.parent;
        }
        if expanded.is_multiple_of(1 << 12) {
            clock.check("proof-number search")?;
            let bytes =
                tree.nodes.len() as u64 * NODE_BYTES + tree.solved.len() as u64 * SOLVED_BYTES;
            peak_bytes = peak_bytes.max(bytes);
            budget.check_bytes(bytes, "proof-number search")?;
            if let Some(max) = budget.max_bytes.filter(|_| !keep) {
                let live = tree.live * NODE_BYTES + tree.solved.len() as u64 * SOLVED_BYTES;
                if live > max / 10 * 6 && collapse(&mut tree) > 0 {
                    collapses += 1;
                }
            }
            progress(Progress {
                stage: if attacker == pos.side_to_move() {
                    "prove win"
                } else {
                    "prove loss"
                },
                done: expanded,
                total: 0,
            });
        }
        peak_nodes = peak_nodes.max(tree.live);
    }
    let root = tree.nodes[0];
    let children = if root.first == NIL {
        Vec::new()
    } else {
        (root.first..root.first + root.len)
            .map(|c| {
                let c = tree.nodes[c as usize];
                let state = if c.pn == 0 {
                    Some(true)
                } else if c.dn == 0 {
                    Some(false)
                } else {
                    None
                };
                (c.key, state, c.size)
            })
            .collect()
    };
    peak_bytes = peak_bytes
        .max(tree.nodes.len() as u64 * NODE_BYTES + tree.solved.len() as u64 * SOLVED_BYTES);
    let search = Search {
        attacker,
        proved: root.pn == 0,
        proof_size: root.size,
        expanded,
        nodes: tree.created,
        peak_nodes,
        solved_positions: tree.solved.len() as u64,
        bytes: peak_bytes,
        time: clock.elapsed() - start,
        collapses,
        children,
    };
    Ok((search, tree))
}

/// Makes room when the tree nears the memory budget: the unsolved subtrees below the depth
/// that holds half of the live nodes are dropped, their roots becoming leaves again with the
/// numbers they had (they are expanded afresh if the search comes back). Solved positions stay
/// in the table, so no result is lost. Returns the number of nodes freed.
fn collapse(tree: &mut Tree) -> u64 {
    let mut per_depth: Vec<u64> = Vec::new();
    let mut stack = vec![0u32];
    while let Some(n) = stack.pop() {
        let node = tree.nodes[n as usize];
        let d = node.depth as usize;
        if per_depth.len() <= d {
            per_depth.resize(d + 1, 0);
        }
        per_depth[d] += 1;
        if node.first != NIL {
            stack.extend(node.first..node.first + node.len);
        }
    }
    let total: u64 = per_depth.iter().sum();
    let mut seen = 0;
    let mut cut = per_depth.len();
    for (d, &k) in per_depth.iter().enumerate() {
        seen += k;
        if d >= 1 && seen * 2 >= total {
            cut = d;
            break;
        }
    }
    let before = tree.live;
    let mut stack = vec![0u32];
    while let Some(n) = stack.pop() {
        let node = tree.nodes[n as usize];
        if node.first == NIL {
            continue;
        }
        if node.depth as usize >= cut {
            tree.free_below(n);
        } else {
            stack.extend(node.first..node.first + node.len);
        }
    }
    before - tree.live
}

/// The numbers of a node from its children (a leaf keeps its own).
fn numbers(tree: &Tree, node: &Node) -> (u32, u32) {
    if node.first == NIL {
        return (node.pn, node.dn);
    }
    let block = &tree.nodes[node.first as usize..(node.first + node.len) as usize];
    let sum = |f: fn(&Node) -> u32| -> u32 {
        let mut s = 0u32;
        for c in block {
            let v = f(c);
            if v == INF {
                return INF;
            }
            s = s.saturating_add(v).min(INF - 1);
        }
        s
    };
    if block.is_empty() {
        // No child: the position is terminal, and init settled it already.
        return (node.pn, node.dn);
    }
    if tree.is_or(node.key) {
        let pn = block.iter().map(|c| c.pn).min().unwrap_or(INF);
        (pn, sum(|c| c.dn))
    } else {
        let dn = block.iter().map(|c| c.dn).min().unwrap_or(INF);
        (sum(|c| c.pn), dn)
    }
}

/// Records a node just proved or disproved: its proof size and dependence on the path; enters
/// it in the table of solved positions when the result holds whatever the path; frees the
/// subtree below it (except below the root, whose children name the best turn).
fn settle(tree: &mut Tree, m: u32) {
    let node = tree.nodes[m as usize];
    if node.first == NIL {
        return;
    }
    let block: Vec<Node> =
        tree.nodes[node.first as usize..(node.first + node.len) as usize].to_vec();
    let or = tree.is_or(node.key);
    let (size, dep) = if node.pn == 0 {
        let size = if or {
            block
                .iter()
                .filter(|c| c.pn == 0)
                .map(|c| c.size)
                .min()
                .unwrap_or(0)
        } else {
            block.iter().fold(0u64, |s, c| s.saturating_add(c.size))
        };
        (size.saturating_add(1), CLEAN)
    } else if or {
        let size = block.iter().fold(0u64, |s, c| s.saturating_add(c.size));
        let dep = block.iter().map(|c| c.dep).min().unwrap_or(CLEAN);
        (size.saturating_add(1), dep)
    } else {
        // The cleanest disproved child, then the smallest.
        let c = block
            .iter()
            .filter(|c| c.dn == 0)
            .max_by_key(|c| (c.dep, u64::MAX - c.size))
            .expect("a disproved defender node has a disproved child");
        (c.size.saturating_add(1), c.dep)
    };
    let dep = if dep >= node.depth { CLEAN } else { dep };
    let n = &mut tree.nodes[m as usize];
    n.size = size;
    n.dep = dep;
    if dep == CLEAN {
        let seq = tree.solved.len() as u32;
        tree.solved.entry(node.key).or_insert(Solved {
            proved: node.pn == 0,
            size,
            seq,
            node: m,
        });
    }
    if m != 0 && !tree.keep {
        tree.free_below(m);
    }
}

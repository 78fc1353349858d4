//! Retrograde labelling of a game graph given by predecessor lists.
//!
//! Nodes are positions; an edge `p -> c` is a turn from `p` to the distinct position `c`.
//! Children may also lie outside the graph ("external", with values known beforehand); the
//! caller folds those into each node's starting state. Labels are settled level by level in
//! increasing distance with a bucket queue, so that a win gets the shortest distance to the
//! end (1 + the smallest distance of a losing child) and a loss the longest (1 + the largest
//! distance of its children, all winning). Nodes never settled are draws: from them each side
//! can avoid losing forever, which is how cycles are handled.

use super::{Clock, Progress, SolveError};

/// Node values in [`Labels::value`].
pub(crate) const UNKNOWN: u8 = 0;
pub(crate) const WIN: u8 = 1;
pub(crate) const LOSS: u8 = 2;

/// Predecessor lists in compressed sparse row form.
pub(crate) struct Csr {
    pub offsets: Vec<u64>,
    pub targets: Vec<u32>,
}

impl Csr {
    #[inline]
    pub fn row(&self, node: usize) -> &[u32] {
        &self.targets[self.offsets[node] as usize..self.offsets[node + 1] as usize]
    }

    pub fn bytes(&self) -> u64 {
        (self.offsets.len() * 8 + self.targets.len() * 4) as u64
    }
}

/// The state of each node before labelling.
pub(crate) struct Start {
    /// Children inside the graph (distinct).
    pub count: Vec<u32>,
    /// The loss distance if every remaining child turns out a win: 0 for a node without any
    /// child, otherwise 1 + the largest distance of its winning external children (at least 1).
    pub loss_dist: Vec<u16>,
    /// Nodes that can never be losses (an external child that is a draw or a loss, a stuck
    /// position under the stuck-draws rule, a position at the no-capture limit).
    pub blocked: Vec<bool>,
    /// Nodes known to win through an external losing child: (distance, node).
    pub wins: Vec<(u16, u32)>,
}

/// The result: for each node UNKNOWN (a draw), WIN or LOSS, and the distance to the end.
pub(crate) struct Labels {
    pub value: Vec<u8>,
    pub dist: Vec<u16>,
}

/// Labels every node. `preds` lists, for each node, the nodes having it as a child (once per
/// distinct edge).
pub(crate) fn label(
    preds: &Csr,
    start: Start,
    clock: &Clock,
    progress: &mut dyn FnMut(Progress),
) -> Result<Labels, SolveError> {
    let n = start.count.len();
    let Start {
        mut count,
        mut loss_dist,
        mut blocked,
        wins,
    } = start;
    let mut value = vec![UNKNOWN; n];
    let mut dist = vec![0u16; n];
    let mut buckets: Vec<Vec<(u32, u8)>> = Vec::new();
    let push = |buckets: &mut Vec<Vec<(u32, u8)>>, level: u16, node: u32, v: u8| {
        let level = level as usize;
        if buckets.len() <= level {
            buckets.resize_with(level + 1, Vec::new);
        }
        buckets[level].push((node, v));
    };
    for (d, node) in wins {
        // A node with a losing child is never a loss, whatever its other children.
        blocked[node as usize] = true;
        push(&mut buckets, d, node, WIN);
    }
    for node in 0..n {
        if count[node] == 0 && !blocked[node] {
            push(&mut buckets, loss_dist[node], node as u32, LOSS);
        }
    }
    let mut settled = 0u64;
    let mut level = 0usize;
    while level < buckets.len() {
        let bucket = core::mem::take(&mut buckets[level]);
        let d = level as u16;
        if d == u16::MAX {
            return Err(SolveError::Internal(
                "distance to the end beyond 65535 plies",
            ));
        }
        for (node, v) in bucket {
            let node = node as usize;
            if value[node] != UNKNOWN {
                continue;
            }
            value[node] = v;
            dist[node] = d;
            settled += 1;
            if settled.is_multiple_of(1 << 16) {
                clock.check("labelling")?;
                progress(Progress {
                    stage: "label",
                    done: settled,
                    total: n as u64,
                });
            }
            for &p in preds.row(node) {
                let p = p as usize;
                if value[p] != UNKNOWN {
                    continue;
                }
                if v == LOSS {
                    push(&mut buckets, d + 1, p as u32, WIN);
                } else {
                    count[p] -= 1;
                    loss_dist[p] = loss_dist[p].max(d + 1);
                    if count[p] == 0 && !blocked[p] {
                        push(&mut buckets, loss_dist[p], p as u32, LOSS);
                    }
                }
            }
        }
        level += 1;
    }
    Ok(Labels { value, dist })
}

/// Builds predecessor lists from a successor list given as `(offsets, targets)`.
pub(crate) fn reverse(n: usize, succ_offsets: &[u64], succ: &[u32]) -> Csr {
    let mut offsets = vec![0u64; n + 1];
    for &t in succ {
        offsets[t as usize + 1] += 1;
    }
    for i in 0..n {
        offsets[i + 1] += offsets[i];
    }
    let mut fill = offsets.clone();
    let mut targets = vec![0u32; succ.len()];
    for p in 0..n {
        for &c in &succ[succ_offsets[p] as usize..succ_offsets[p + 1] as usize] {
            let slot = &mut fill[c as usize];
            targets[*slot as usize] = p as u32;
            *slot += 1;
        }
    }
    Csr { offsets, targets }
}

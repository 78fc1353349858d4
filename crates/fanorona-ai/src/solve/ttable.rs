//! The transposition table of [`dfpn`](super::dfpn): 28 bytes a slot, open addressing with
//! linear probing, grown in place up to the memory budget.
//!
//! A slot is the position's key as four 32-bit words (White's stones with the counters,
//! Black's stones with the side to move; all zero: an empty slot, which no stored position
//! has, every stored position having a stone), the proof and disproof numbers (4 bytes each),
//! the work below the position (2 bytes, a 16-bit float: exact below 2,048, then 11
//! significant bits) and the proof's length (2 bytes). Its home slot is the key's 64-bit hash
//! scaled to the number of slots, so any number of slots works: the table grows (doubling)
//! in place (the allocation extended, then every entry moved to its new place with a bit a
//! slot to tell the moved from the unmoved), never needing two copies of itself, and stops
//! growing at the budget; then the search cuts it back ([`Table::retain`], rehashed in place
//! the same way). Iteration is in slot order, so the same inserts give the same order.

use super::key::Key;

/// Bytes of one slot.
pub(crate) const SLOT_BYTES: u64 = 28;
/// The fewest slots a table grows to at once.
const MIN_SLOTS: usize = 1024;

/// What the table holds of a position (the work unpacked from its 16 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub pn: u32,
    pub dn: u32,
    /// Expansions spent below the position: what it would cost to find again.
    pub work: u64,
    /// For a proof: its length in turns.
    pub len: u16,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Slot {
    key: [u32; 4],
    pn: u32,
    dn: u32,
    work: u16,
    len: u16,
}

const _: () = assert!(core::mem::size_of::<Slot>() as u64 == SLOT_BYTES);

impl Slot {
    fn is_empty(&self) -> bool {
        self.key == [0; 4]
    }

    fn key(&self) -> Key {
        Key {
            a: u64::from(self.key[0]) | u64::from(self.key[1]) << 32,
            b: u64::from(self.key[2]) | u64::from(self.key[3]) << 32,
        }
    }

    fn entry(&self) -> Entry {
        Entry {
            pn: self.pn,
            dn: self.dn,
            work: unpack_work(self.work),
            len: self.len,
        }
    }
}

fn words(key: Key) -> [u32; 4] {
    [
        key.a as u32,
        (key.a >> 32) as u32,
        key.b as u32,
        (key.b >> 32) as u32,
    ]
}

/// The work as a 16-bit float, rounded down: `w` itself below 2,048; else `2048 (e + 1) + m`
/// where `w >> e` is `2048 + m` (`m` below 2,048); at most 65,535 (about 2^41).
pub(crate) fn pack_work(w: u64) -> u16 {
    if w < 2048 {
        return w as u16;
    }
    let e = u64::from(64 - w.leading_zeros()) - 12;
    let code = 2048 * (e + 1) + ((w >> e) - 2048);
    code.min(u64::from(u16::MAX)) as u16
}

/// The smallest work that packs to `code`.
pub(crate) fn unpack_work(code: u16) -> u64 {
    let code = u64::from(code);
    if code < 2048 {
        return code;
    }
    let e = code / 2048 - 1;
    (2048 + code % 2048) << e
}

/// The 64-bit hash of a key (murmur3's finaliser over both words).
fn hash(key: Key) -> u64 {
    fn mix(mut z: u64) -> u64 {
        z ^= z >> 33;
        z = z.wrapping_mul(0xff51_afd7_ed55_8ccd);
        z ^= z >> 33;
        z = z.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        z ^ (z >> 33)
    }
    mix(key.a ^ mix(key.b))
}

/// The table. It holds at most 80% of its slots; it grows (up to `max_slots`) when an insert
/// would pass that.
pub(crate) struct Table {
    slots: Vec<Slot>,
    len: usize,
    max_slots: usize,
}

impl Table {
    /// An empty table (no slots yet) that grows up to `max_slots`.
    pub fn new(max_slots: usize) -> Table {
        Table {
            slots: Vec::new(),
            len: 0,
            max_slots: max_slots.max(16),
        }
    }

    /// The slots a table of `bytes` may have.
    pub fn slots_for(bytes: u64) -> usize {
        usize::try_from(bytes / SLOT_BYTES).unwrap_or(usize::MAX)
    }

    /// The slots needed to hold `n` entries (80% full).
    pub fn slots_needed(n: u64) -> u64 {
        n.saturating_mul(5).div_ceil(4).saturating_add(1)
    }

    pub fn set_max_slots(&mut self, max_slots: usize) {
        self.max_slots = max_slots.max(16).max(self.slots.len());
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// Bytes of the slots.
    pub fn bytes(&self) -> u64 {
        self.slots.len() as u64 * SLOT_BYTES
    }

    /// Whether the table is 80% full and cannot grow: time to cut it back.
    pub fn full(&self) -> bool {
        self.over(self.len) && self.slots.len() >= self.max_slots
    }

    fn over(&self, len: usize) -> bool {
        len as u64 * 5 > self.slots.len() as u64 * 4
    }

    fn home(&self, key: Key) -> usize {
        ((u128::from(hash(key)) * self.slots.len() as u128) >> 64) as usize
    }

    /// The slot of `key`, or the empty slot where it would go.
    fn find(&self, key: Key) -> Result<usize, usize> {
        let n = self.slots.len();
        let w = words(key);
        let mut i = self.home(key);
        loop {
            let s = &self.slots[i];
            if s.key == w {
                return Ok(i);
            }
            if s.is_empty() {
                return Err(i);
            }
            i += 1;
            if i == n {
                i = 0;
            }
        }
    }

    pub fn get(&self, key: &Key) -> Option<Entry> {
        if self.slots.is_empty() {
            return None;
        }
        self.find(*key).ok().map(|i| self.slots[i].entry())
    }

    /// Stores `entry` for `key`; returns whether the key was there already. `Err` and nothing
    /// stored when the table is full and cannot grow (the search cuts it back first,
    /// [`Table::full`], so that this does not happen), or for the all-zero key.
    pub fn insert(&mut self, key: Key, entry: Entry) -> Result<bool, ()> {
        if words(key) == [0; 4] {
            // The empty slot's mark: no position without stones is ever stored.
            return Err(());
        }
        if let Some(i) = (!self.slots.is_empty())
            .then(|| self.find(key).ok())
            .flatten()
        {
            self.write(i, key, entry);
            return Ok(true);
        }
        if self.over(self.len + 1) {
            self.grow();
        }
        if self.len + 1 >= self.slots.len() {
            return Err(());
        }
        let i = self.find(key).expect_err("not there");
        self.write(i, key, entry);
        self.len += 1;
        Ok(false)
    }

    fn write(&mut self, i: usize, key: Key, e: Entry) {
        self.slots[i] = Slot {
            key: words(key),
            pn: e.pn,
            dn: e.dn,
            work: pack_work(e.work),
            len: e.len,
        };
    }

    /// Doubles the slots (at least [`MIN_SLOTS`], at most `max_slots`), in place; when the
    /// memory cannot be had, the table stays as it is and stops growing.
    fn grow(&mut self) {
        let old = self.slots.len();
        let new = old.saturating_mul(2).max(MIN_SLOTS).min(self.max_slots);
        if new <= old {
            return;
        }
        if self.slots.try_reserve_exact(new - old).is_err() {
            self.max_slots = old;
            return;
        }
        self.slots.resize(new, Slot::default());
        self.rehash(old);
    }

    /// Moves every entry of the first `old` slots to its place for the present number of
    /// slots, in place: an entry taken from its slot is put at the first slot from its home
    /// that is empty or holds an entry not yet moved (which is then taken in turn), so every
    /// probe path passes only moved entries, which stay.
    fn rehash(&mut self, old: usize) {
        let n = self.slots.len();
        let mut unmoved = vec![0u64; old.div_ceil(64)];
        for (i, s) in self.slots[..old].iter().enumerate() {
            if !s.is_empty() {
                unmoved[i / 64] |= 1 << (i % 64);
            }
        }
        let is_unmoved = |bits: &[u64], j: usize| j < old && bits[j / 64] >> (j % 64) & 1 == 1;
        for i in 0..old {
            if !is_unmoved(&unmoved, i) {
                continue;
            }
            unmoved[i / 64] &= !(1 << (i % 64));
            let mut hand = core::mem::take(&mut self.slots[i]);
            'place: loop {
                let mut j = self.home(hand.key());
                loop {
                    if self.slots[j].is_empty() {
                        self.slots[j] = hand;
                        break 'place;
                    }
                    if is_unmoved(&unmoved, j) {
                        unmoved[j / 64] &= !(1 << (j % 64));
                        core::mem::swap(&mut hand, &mut self.slots[j]);
                        continue 'place;
                    }
                    j += 1;
                    if j == n {
                        j = 0;
                    }
                }
            }
        }
    }

    /// Keeps the entries for which `keep` is true, in place.
    pub fn retain(&mut self, mut keep: impl FnMut(&Key, &Entry) -> bool) {
        let mut len = 0;
        for s in &mut self.slots {
            if !s.is_empty() {
                if keep(&s.key(), &s.entry()) {
                    len += 1;
                } else {
                    *s = Slot::default();
                }
            }
        }
        self.len = len;
        // The entries left may sit beyond an emptied slot on their probe path.
        self.rehash(self.slots.len());
    }

    /// The entries, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = (Key, Entry)> + '_ {
        self.slots
            .iter()
            .filter(|s| !s.is_empty())
            .map(|s| (s.key(), s.entry()))
    }

    /// The entries' values, in slot order.
    pub fn values(&self) -> impl Iterator<Item = Entry> + '_ {
        self.iter().map(|(_, e)| e)
    }

    /// Reserves room for `n` entries at once (loading a checkpoint): `Err` when the memory
    /// cannot be had.
    pub fn reserve(&mut self, n: u64) -> Result<(), ()> {
        let want = usize::try_from(Self::slots_needed(n)).map_err(|_| ())?;
        if want <= self.slots.len() {
            return Ok(());
        }
        let old = self.slots.len();
        self.slots.try_reserve_exact(want - old).map_err(|_| ())?;
        self.slots.resize(want, Slot::default());
        self.max_slots = self.max_slots.max(want);
        self.rehash(old);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(i: u64) -> Key {
        // Distinct keys with a stone each, some with the side-to-move bit.
        Key {
            a: i + 1,
            b: (i % 7) << 40 | (i & 1) << 63,
        }
    }

    fn entry(i: u64) -> Entry {
        Entry {
            pn: i as u32 % 1000,
            dn: 1 + i as u32 % 17,
            work: i % 3000,
            len: (i % 50) as u16,
        }
    }

    #[test]
    fn work_packs_monotonically_and_exactly_when_small() {
        for w in 0..2048 {
            assert_eq!(unpack_work(pack_work(w)), w);
        }
        let mut ws: Vec<u64> = (0..100_000).collect();
        ws.extend((0..44).flat_map(|e| [(1u64 << e) - 1, 1 << e, (1 << e) + 1, 3 << e]));
        ws.sort_unstable();
        for pair in ws.windows(2) {
            assert!(pack_work(pair[0]) <= pack_work(pair[1]), "{pair:?}");
        }
        for &w in &ws {
            let back = unpack_work(pack_work(w));
            assert!(back <= w, "{w}");
            if w < 1 << 41 {
                // 11 significant bits: within 1/2048 below.
                assert!(w - back <= w >> 11, "{w}");
            }
        }
        assert_eq!(pack_work(u64::MAX), u16::MAX);
    }

    #[test]
    fn grows_in_place_retains_and_finds_everything() {
        let mut t = Table::new(1 << 20);
        for i in 0..50_000 {
            assert_eq!(t.insert(key(i), entry(i)), Ok(false));
        }
        assert_eq!(t.insert(key(7), entry(8)), Ok(true));
        assert_eq!(t.len(), 50_000);
        assert!(t.bytes() <= 131_072 * SLOT_BYTES);
        for i in 0..50_000 {
            let want = if i == 7 { entry(8) } else { entry(i) };
            let mut got = t.get(&key(i)).unwrap();
            got.work = want.work; // packed: exact below 2,048 only
            assert_eq!(got, want, "{i}");
            assert!(t.get(&key(i)).unwrap().work <= want.work);
        }
        assert!(t.get(&key(60_000)).is_none());
        t.retain(|k, _| k.a % 3 == 0);
        assert_eq!(t.len(), (1..=50_000).filter(|a| a % 3 == 0).count());
        for i in 0..50_000 {
            assert_eq!(t.get(&key(i)).is_some(), (i + 1) % 3 == 0, "{i}");
        }
        assert_eq!(t.iter().count(), t.len());
    }

    #[test]
    fn a_full_table_at_its_budget_says_so() {
        let mut t = Table::new(2048);
        let mut i = 0;
        while !t.full() {
            t.insert(key(i), entry(i)).unwrap();
            i += 1;
        }
        assert_eq!(t.bytes(), 2048 * SLOT_BYTES);
        assert_eq!(t.len(), 2048 * 4 / 5 + 1);
        // Past 80% it still stores (the search cuts back first), up to one slot left empty.
        while t.insert(key(i), entry(i)).is_ok() {
            i += 1;
        }
        assert_eq!(t.len(), 2047);
        for j in 0..i {
            assert!(t.get(&key(j)).is_some());
        }
    }
}

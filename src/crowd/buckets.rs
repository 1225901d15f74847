//! A bucket queue for Dijkstra's algorithm over moves that each cost at least one unit (the
//! planner's distance fields: moves of 1 and √2 cells).
//!
//! An entry of value v is filed in bucket ⌊v⌋. A value taken from bucket b is below b + 1,
//! so what it reaches over a move of w ≥ 1 is at least b + 1 (f32 rounding is monotone and
//! b + 1 is exact), in bucket b + 1 or later, and below b + 1 + w_max: with w_max = √2 the
//! live entries span at most three buckets, which a ring of four holds. Taking the buckets in
//! order is then taking the values in the order Dijkstra's algorithm needs, up to order
//! within a bucket, which cannot matter: two values in one bucket differ by less than a move,
//! so neither can be reached from the other. Each push and pop is O(1) instead of a binary
//! heap's O(log n).
//!
//! Entries beyond the ring (the starting values of a repaired field, which may lie anywhere)
//! wait in a binary heap and enter the ring as it reaches them. An entry below the bucket
//! being taken (never pushed by the planner) is taken with that bucket: a label-correcting
//! search that pushes every lowered value still ends at the same least fixed point, only
//! later.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Buckets in the ring: more than the three a move of at most √2 spans.
const RING: u64 = 4;

/// The queue: entries `(value, item)` with values ≥ 0 (NaN and values past `u64` file as 0
/// and `u64::MAX`; the planner pushes neither).
#[derive(Clone, Debug, Default)]
pub(crate) struct Buckets {
    /// Bucket b lives in `ring[b % RING]` while `base ≤ b < base + RING`.
    ring: [Slot; RING as usize],
    /// The bucket being taken.
    base: u64,
    /// Entries in the ring.
    in_ring: usize,
    /// Entries at or beyond bucket `base + RING`, by value (the bits of a value ≥ 0 order as
    /// the value).
    far: BinaryHeap<Reverse<(u32, u32)>>,
    /// The buffer [`Self::sweep_bucket`] takes a bucket into (kept for its memory).
    spare: Slot,
}

/// One bucket: its entries are `items[..len]`; the items past `len` are room already
/// allocated, which [`Filing`] writes into without a branch per entry (an entry written there
/// and not counted is no entry).
#[derive(Clone, Debug, Default)]
pub(crate) struct Slot {
    items: Vec<(f32, u32)>,
    len: usize,
}

impl Slot {
    /// Makes room for `more` entries past `len` (doubling, so filing costs O(1) amortised).
    #[inline]
    fn reserve(&mut self, more: usize) {
        if self.len + more > self.items.len() {
            self.grow(more);
        }
    }

    /// [`Self::reserve`]'s rare path.
    #[cold]
    fn grow(&mut self, more: usize) {
        let size = (self.len + more).max(2 * self.items.len()).max(64);
        self.items.resize(size, (0.0, 0));
    }

    /// Appends an entry.
    #[inline]
    fn push(&mut self, e: (f32, u32)) {
        self.reserve(1);
        self.items[self.len] = e;
        self.len += 1;
    }

    /// Takes the last entry.
    #[inline]
    fn pop(&mut self) -> Option<(f32, u32)> {
        self.len = self.len.checked_sub(1)?;
        Some(self.items[self.len])
    }

    /// Writes `e` at `len` (room the caller made with [`Self::reserve`]) and counts it when
    /// `keep`: an entry filed without a branch on whether it is one.
    #[inline(always)]
    pub(crate) fn file(&mut self, e: (f32, u32), keep: bool) {
        self.items[self.len] = e;
        self.len += usize::from(keep);
    }
}

/// Where the cells of the bucket being swept ([`Buckets::sweep_bucket`]), b, file what they
/// reach over a move of 1 to √2: the next bucket (b + 1) and the one after it (b + 2). A value
/// v taken from bucket b lies below b + 1, so v + 1 and v + √2 lie below b + 1 + √2 < b + 3
/// (f32 rounding is monotone; b + 3 is exact), and at or above b + 1: in one of the two.
pub(crate) struct Filing {
    /// Buckets b + 1 and b + 2.
    slots: [Slot; 2],
    /// b + 2 as an `f32` (exact below 2²⁴): a value at or above it files in bucket b + 2.
    split: f32,
}

impl Filing {
    /// Makes room for eight more entries in both buckets (a cell's eight moves), so that
    /// [`Slot::file`] needs no test.
    #[inline(always)]
    pub(crate) fn reserve8(&mut self) {
        self.slots[0].reserve(8);
        self.slots[1].reserve(8);
    }

    /// The bucket of `value`, a value from the bucket swept plus 1 to √2 (an index, not a
    /// branch).
    #[inline(always)]
    pub(crate) fn slot(&mut self, value: f32) -> &mut Slot {
        debug_assert!(
            value < self.split + 1.0,
            "{value} beyond bucket {}",
            self.split
        );
        &mut self.slots[usize::from(value >= self.split)]
    }
}

/// The bucket of `value`: ⌊value⌋ (`as` saturates; NaN gives 0).
fn bucket(value: f32) -> u64 {
    value as u64
}

impl Buckets {
    /// Empties the queue (keeping its memory).
    pub(crate) fn clear(&mut self) {
        for b in &mut self.ring {
            b.len = 0;
        }
        self.base = 0;
        self.in_ring = 0;
        self.far.clear();
    }

    /// Whether no entry is queued.
    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.in_ring == 0 && self.far.is_empty()
    }

    /// Queues `item` at `value`.
    #[inline]
    pub(crate) fn push(&mut self, value: f32, item: u32) {
        let b = bucket(value);
        if b >= self.base.saturating_add(RING) {
            self.far.push(Reverse((value.to_bits(), item)));
        } else {
            let b = b.max(self.base);
            self.ring[(b % RING) as usize].push((value, item));
            self.in_ring += 1;
        }
    }

    /// Takes an entry of the lowest bucket (`None` when the queue is empty).
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<(f32, u32)> {
        loop {
            if let Some(e) = self.ring[(self.base % RING) as usize].pop() {
                self.in_ring -= 1;
                return Some(e);
            }
            self.advance()?;
        }
    }

    /// Calls `f(value, item, filing)` for every entry, a bucket at a time, lowest first, until
    /// the queue is empty: [`Self::sweep_bucket`] until it says the queue is empty.
    #[cfg(test)]
    pub(crate) fn sweep(&mut self, mut f: impl FnMut(f32, u32, &mut Filing)) {
        while self.sweep_bucket(&mut f) {}
    }

    /// Takes the bucket being taken ([`Self::floor`]) whole, calling `f(value, item, filing)`
    /// for each of its entries in any order, and moves on to the next bucket that may hold
    /// entries; `false` when the queue is then empty. `f` files what it reaches in the next
    /// two buckets through `filing` (see [`Filing`]). Taking a whole bucket at once spares the
    /// search the queue's bookkeeping per entry, and filing into two buckets held aside spares
    /// it the choice of a bucket per entry.
    ///
    /// With moves of at least one unit, once the bucket b is taken every value below b + 1
    /// that the search will ever hold is held already: a search that stops between buckets
    /// has its values below [`Self::floor`] final.
    pub(crate) fn sweep_bucket(&mut self, mut f: impl FnMut(f32, u32, &mut Filing)) -> bool {
        let slot = (self.base % RING) as usize;
        if self.ring[slot].len > 0 {
            // The bucket's entries into `batch`; its slot gets the empty buffer.
            let mut batch = std::mem::take(&mut self.spare);
            batch.len = 0;
            std::mem::swap(&mut batch, &mut self.ring[slot]);
            self.in_ring -= batch.len;
            let next = ((self.base + 1) % RING) as usize;
            let after = ((self.base + 2) % RING) as usize;
            let mut filing = Filing {
                slots: [
                    std::mem::take(&mut self.ring[next]),
                    std::mem::take(&mut self.ring[after]),
                ],
                split: (self.base + 2) as f32,
            };
            let filed = |filing: &Filing| filing.slots[0].len + filing.slots[1].len;
            let before = filed(&filing);
            for &(value, item) in &batch.items[..batch.len] {
                f(value, item, &mut filing);
            }
            self.in_ring += filed(&filing) - before;
            let [next_slot, after_slot] = filing.slots;
            self.ring[next] = next_slot;
            self.ring[after] = after_slot;
            batch.len = 0;
            self.spare = batch;
        }
        self.advance().is_some()
    }

    /// The bucket [`Self::sweep_bucket`] takes next, as a value: every value below it that a
    /// search stopped between buckets holds is final.
    pub(crate) fn floor(&self) -> f32 {
        self.base as f32
    }

    /// Empties the queue (keeping its memory) to take bucket `floor` first (entries pushed
    /// below it are taken with it).
    pub(crate) fn clear_at(&mut self, floor: f32) {
        self.clear();
        self.base = bucket(floor);
    }

    /// Moves on from an empty bucket to the next one that may hold entries, bringing in the
    /// waiting entries the ring then reaches (`None` when the queue is empty).
    fn advance(&mut self) -> Option<()> {
        if self.in_ring > 0 {
            self.base += 1;
        } else {
            let &Reverse((bits, _)) = self.far.peek()?;
            self.base = bucket(f32::from_bits(bits));
        }
        while let Some(&Reverse((bits, item))) = self.far.peek() {
            let value = f32::from_bits(bits);
            let b = bucket(value);
            if b >= self.base.saturating_add(RING) {
                break;
            }
            self.far.pop();
            self.ring[(b.max(self.base) % RING) as usize].push((value, item));
            self.in_ring += 1;
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Drains the queue, checking that buckets come out in order.
    fn drain(q: &mut Buckets) -> Vec<(f32, u32)> {
        let mut out = Vec::new();
        while let Some(e) = q.pop() {
            if let Some(&(last, _)) = out.last() {
                assert!(bucket(e.0) >= bucket(last), "{e:?} after {last}");
            }
            out.push(e);
        }
        assert!(q.is_empty());
        out
    }

    #[test]
    fn takes_buckets_in_order_across_the_ring_and_the_far_heap() {
        let mut q = Buckets::default();
        let values = [7.5, 0.25, 1e6, 3.0, 0.0, 2.9, 12.0, 3.99, 1e6 + 0.5, 5.0];
        for (i, &v) in values.iter().enumerate() {
            q.push(v, i as u32);
        }
        let out = drain(&mut q);
        assert_eq!(out.len(), values.len());
        let mut items: Vec<u32> = out.iter().map(|e| e.1).collect();
        items.sort_unstable();
        assert_eq!(items, (0..values.len() as u32).collect::<Vec<_>>());
    }

    #[test]
    fn pushes_while_taking_stay_in_order() {
        // A Dijkstra-like run: every value taken pushes v + 1 and v + √2 (up to a bound).
        let mut q = Buckets::default();
        q.push(0.3, 0);
        q.push(40.0, 1);
        let mut last = 0;
        let mut taken = 0;
        while let Some((v, _)) = q.pop() {
            assert!(bucket(v) >= last);
            last = bucket(v);
            taken += 1;
            if v < 30.0 {
                q.push(v + 1.0, 2);
                q.push(v + core::f32::consts::SQRT_2, 3);
            }
        }
        assert!(taken > 60);
        assert_eq!(last, 40);
    }

    #[test]
    fn sweep_takes_what_pop_takes_bucket_by_bucket() {
        // The same Dijkstra-like run through `sweep` (filing through its `Filing`) and through
        // `pop`: the same multiset of entries per bucket, the buckets in order, entries
        // waiting in the far heap included.
        let run = |by_drain: bool| {
            let mut q = Buckets::default();
            for (i, v) in [0.3f32, 40.0, 0.0, 17.5, 2.2].into_iter().enumerate() {
                q.push(v, i as u32);
            }
            let mut taken: Vec<(u64, u32, u32)> = Vec::new();
            let mut taken_at = |v: f32, item: u32| {
                taken.push((bucket(v), v.to_bits(), item));
                v < 30.0 && item < 1000
            };
            let (one, two) = (|v: f32| v + 1.0, |v: f32| v + core::f32::consts::SQRT_2);
            if by_drain {
                q.sweep(|v, item, filing| {
                    let on = taken_at(v, item);
                    filing.reserve8();
                    // (An entry not kept is written and not counted.)
                    filing.slot(one(v)).file((one(v), item * 2 + 5), on);
                    filing.slot(two(v)).file((two(v), item * 2 + 6), on);
                });
            } else {
                while let Some((v, item)) = q.pop() {
                    if taken_at(v, item) {
                        q.push(one(v), item * 2 + 5);
                        q.push(two(v), item * 2 + 6);
                    }
                }
            }
            assert!(q.is_empty());
            assert!(
                taken.windows(2).all(|w| w[0].0 <= w[1].0),
                "buckets in order"
            );
            taken.sort_unstable();
            taken
        };
        let drained = run(true);
        assert!(drained.len() > 100, "{}", drained.len());
        assert_eq!(drained, run(false));
    }

    #[test]
    fn a_value_below_the_bucket_being_taken_is_still_taken() {
        let mut q = Buckets::default();
        q.push(10.0, 0);
        assert_eq!(q.pop(), Some((10.0, 0)));
        q.push(2.0, 1);
        q.push(11.0, 2);
        let out = drain(&mut q);
        assert_eq!(out, vec![(2.0, 1), (11.0, 2)]);
        q.push(f32::NAN, 3);
        assert_eq!(q.pop().map(|e| e.1), Some(3));
        assert_eq!(q.pop(), None);
    }
}

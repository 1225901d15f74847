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
    ring: [Vec<(f32, u32)>; RING as usize],
    /// The bucket being taken.
    base: u64,
    /// Entries in the ring.
    in_ring: usize,
    /// Entries at or beyond bucket `base + RING`, by value (the bits of a value ≥ 0 order as
    /// the value).
    far: BinaryHeap<Reverse<(u32, u32)>>,
    /// The buffer [`Self::drain`] takes a bucket into (kept for its memory).
    spare: Vec<(f32, u32)>,
}

/// The bucket of `value`: ⌊value⌋ (`as` saturates; NaN gives 0).
fn bucket(value: f32) -> u64 {
    value as u64
}

impl Buckets {
    /// Empties the queue (keeping its memory).
    pub(crate) fn clear(&mut self) {
        for b in &mut self.ring {
            b.clear();
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

    /// Queues `item` at `value`, which lies in one of the next three buckets after the one
    /// being taken (what a move of 1 to √2 from an entry of that bucket reaches: see the
    /// module's note), so in the ring: [`Self::push`] without its test for the far heap.
    #[inline]
    pub(crate) fn push_next(&mut self, value: f32, item: u32) {
        debug_assert!(
            bucket(value) > self.base && bucket(value) < self.base + RING,
            "{value} from {}",
            self.base
        );
        // The bucket's slot through an i32 conversion, cheaper than `bucket`'s u64 one and the
        // same slot for every value below 2³¹ (a field's values stay below its cell count × √2).
        let slot = (value as i32 as u32 % RING as u32) as usize;
        self.ring[slot].push((value, item));
        self.in_ring += 1;
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

    /// Calls `f(queue, value, item)` for every entry, a bucket at a time, lowest first, until
    /// the queue is empty; `f` may push entries of later buckets (a bucket is taken whole
    /// before `f` sees its entries, so what `f` pushes into it, or below it, comes with the
    /// next one). In a bucket the entries come in any order. Taking a whole bucket at once
    /// spares the search the queue's bookkeeping per entry.
    pub(crate) fn drain(&mut self, mut f: impl FnMut(&mut Self, f32, u32)) {
        let mut batch = std::mem::take(&mut self.spare);
        loop {
            let slot = (self.base % RING) as usize;
            if self.ring[slot].is_empty() {
                if self.advance().is_none() {
                    break;
                }
                continue;
            }
            // The bucket's entries into `batch`; its slot gets the empty buffer.
            batch.clear();
            std::mem::swap(&mut batch, &mut self.ring[slot]);
            self.in_ring -= batch.len();
            for &(value, item) in &batch {
                f(self, value, item);
            }
        }
        batch.clear();
        self.spare = batch;
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
    fn drain_takes_what_pop_takes_bucket_by_bucket() {
        // The same Dijkstra-like run through `drain` (pushing with `push_next`) and through
        // `pop`: the same multiset of entries per bucket, the buckets in order, entries
        // waiting in the far heap included.
        let run = |by_drain: bool| {
            let mut q = Buckets::default();
            for (i, v) in [0.3f32, 40.0, 0.0, 17.5, 2.2].into_iter().enumerate() {
                q.push(v, i as u32);
            }
            let mut taken: Vec<(u64, u32, u32)> = Vec::new();
            let mut visit = |q: &mut Buckets, v: f32, item: u32| {
                taken.push((bucket(v), v.to_bits(), item));
                if v < 30.0 && item < 1000 {
                    q.push_next(v + 1.0, item * 2 + 5);
                    q.push_next(v + core::f32::consts::SQRT_2, item * 2 + 6);
                }
            };
            if by_drain {
                q.drain(&mut visit);
            } else {
                while let Some((v, item)) = q.pop() {
                    visit(&mut q, v, item);
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

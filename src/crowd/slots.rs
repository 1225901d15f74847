//! Slot storage with generations: agents and obstacles live in slots of a `Vec`, named by ids
//! that pack the slot (the low [`SLOT_BITS`] bits) with the count of its reuses, so an id of a
//! removed item stays invalid.

use super::CrowdError;

/// Bits of an id that name the storage slot; the rest count reuses of the slot, so an id of a
/// removed agent stays invalid until the slot has been reused 1023 times.
pub(crate) const SLOT_BITS: u32 = 22;
pub(crate) const SLOT_MASK: u32 = (1 << SLOT_BITS) - 1;
const GENERATIONS: u32 = 1 << (32 - SLOT_BITS);

/// Most agents (and most obstacles) a crowd can hold.
pub const MAX_CAPACITY: usize = 1 << SLOT_BITS;

/// Slot storage with generations: O(1) add/remove, stable ids.
#[derive(Clone, Debug)]
pub(crate) struct Slots<T> {
    pub(super) items: Vec<Option<T>>,
    pub(super) generations: Vec<u32>,
    pub(super) free: Vec<u32>,
    pub(super) live: usize,
    pub(super) capacity: usize,
}

impl<T> Slots<T> {
    pub(super) fn new(capacity: usize) -> Self {
        Self {
            items: Vec::with_capacity(capacity),
            generations: Vec::with_capacity(capacity),
            free: Vec::new(),
            live: 0,
            capacity,
        }
    }

    /// Stores `value`; a full store doubles its capacity first (up to [`MAX_CAPACITY`]).
    pub(super) fn insert(&mut self, value: T) -> Result<u32, CrowdError> {
        if self.live >= self.capacity {
            if self.capacity >= MAX_CAPACITY {
                return Err(CrowdError::CapacityExceeded);
            }
            self.capacity = (2 * self.capacity).clamp(16, MAX_CAPACITY);
            self.items.reserve(self.capacity - self.items.len());
            self.generations
                .reserve(self.capacity - self.generations.len());
        }
        let slot = if let Some(s) = self.free.pop() {
            self.items[s as usize] = Some(value);
            s
        } else {
            self.items.push(Some(value));
            self.generations.push(1);
            (self.items.len() - 1) as u32
        };
        self.live += 1;
        Ok(self.generations[slot as usize] << SLOT_BITS | slot)
    }

    pub(super) fn slot(&self, id: u32) -> Result<usize, CrowdError> {
        let slot = (id & SLOT_MASK) as usize;
        match self.items.get(slot) {
            Some(Some(_)) if self.generations[slot] == id >> SLOT_BITS => Ok(slot),
            _ => Err(CrowdError::UnknownId),
        }
    }

    pub(super) fn get(&self, id: u32) -> Result<&T, CrowdError> {
        let s = self.slot(id)?;
        Ok(self.items[s].as_ref().expect("live slot"))
    }

    pub(super) fn get_mut(&mut self, id: u32) -> Result<&mut T, CrowdError> {
        let s = self.slot(id)?;
        Ok(self.items[s].as_mut().expect("live slot"))
    }

    pub(super) fn remove(&mut self, id: u32) -> Result<T, CrowdError> {
        let s = self.slot(id)?;
        let v = self.items[s].take().expect("live slot");
        let g = self.generations[s] + 1;
        self.generations[s] = if g >= GENERATIONS { 1 } else { g };
        self.free.push(s as u32);
        self.live -= 1;
        Ok(v)
    }

    pub(super) fn id_of(&self, slot: usize) -> u32 {
        self.generations[slot] << SLOT_BITS | slot as u32
    }
}

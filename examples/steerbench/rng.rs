//! The benchmark's random numbers: PCG32 (O'Neill 2014, XSH-RR output on a 64-bit LCG), written
//! out here so that a seed gives the same scenes and the same random positions on every
//! machine and with every build (no platform or crate version in between).

/// A PCG32 generator.
#[derive(Clone, Debug)]
pub struct Pcg32 {
    state: u64,
    inc: u64,
}

const MULTIPLIER: u64 = 6_364_136_223_846_793_005;

impl Pcg32 {
    /// A generator for `seed` on stream `stream` (different streams never share sequences).
    pub fn new(seed: u64, stream: u64) -> Self {
        let mut g = Self {
            state: 0,
            inc: (stream << 1) | 1,
        };
        g.next_u32();
        g.state = g.state.wrapping_add(seed);
        g.next_u32();
        g
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        let old = self.state;
        self.state = old.wrapping_mul(MULTIPLIER).wrapping_add(self.inc);
        let xorshifted = (((old >> 18) ^ old) >> 27) as u32;
        let rot = (old >> 59) as u32;
        xorshifted.rotate_right(rot)
    }

    /// Uniform in [0, 1) with 24 bits (exact in f32).
    pub fn unit(&mut self) -> f32 {
        (self.next_u32() >> 8) as f32 * (1.0 / 16_777_216.0)
    }

    /// Uniform in [lo, hi) (lo when the range is empty).
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        if hi <= lo {
            lo
        } else {
            lo + (hi - lo) * self.unit()
        }
    }

    /// Uniform integer in lo..=hi.
    pub fn int(&mut self, lo: u32, hi: u32) -> u32 {
        if hi <= lo {
            return lo;
        }
        let span = u64::from(hi - lo) + 1;
        lo + ((u64::from(self.next_u32()) * span) >> 32) as u32
    }

    /// A uniform angle, radians in [0, 2π).
    pub fn angle(&mut self) -> f32 {
        self.unit() * core::f32::consts::TAU
    }
}

#[cfg(test)]
mod tests {
    use super::Pcg32;

    #[test]
    fn same_seed_same_numbers_in_range() {
        let (mut a, mut b) = (Pcg32::new(7, 1), Pcg32::new(7, 1));
        for _ in 0..1000 {
            assert_eq!(a.next_u32(), b.next_u32());
            let (x, y) = (a.range(-2.0, 3.0), b.range(-2.0, 3.0));
            assert_eq!(x.to_bits(), y.to_bits());
            assert!((-2.0..3.0).contains(&x));
            let k = a.int(3, 5);
            assert!((3..=5).contains(&k));
            b.int(3, 5);
        }
        assert_ne!(Pcg32::new(7, 1).next_u32(), Pcg32::new(8, 1).next_u32());
    }

    #[test]
    fn first_numbers_are_fixed() {
        // The generator's output is part of the benchmark: a seed's scenes must not change.
        let mut g = Pcg32::new(42, 54);
        let first: Vec<u32> = (0..3).map(|_| g.next_u32()).collect();
        assert_eq!(first, [0xa15c_02b7, 0x7b47_f409, 0xba1d_3330]);
    }
}

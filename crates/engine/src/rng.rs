//! A tiny seeded random generator.
//!
//! Games draw their first player from a seed, and a seed must mean the same game on every platform and in
//! every future build. A generator from a crate may change its algorithm between versions; SplitMix64 is
//! eight lines and fixed forever, which is what a recorded game needs.

/// SplitMix64 (Steele, Lea and Flood), the generator used to seed xorshift-family generators.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose whole future output is fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`0` when `n` is 0), without the bias of a plain modulo.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let zone = u64::MAX - (u64::MAX % n);
        loop {
            let v = self.next_u64();
            if v < zone {
                return v % n;
            }
        }
    }

    /// Puts `items` in an order drawn from this generator (Fisher-Yates): the same seed, the same order.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_sequence() {
        // First outputs of the published SplitMix64 reference for seed 1234567.
        let mut r = SplitMix64::new(1234567);
        assert_eq!(r.next_u64(), 6457827717110365317);
        assert_eq!(r.next_u64(), 3203168211198807973);
        assert_eq!(r.next_u64(), 9817491932198370423);
    }

    #[test]
    fn below_stays_in_range() {
        let mut r = SplitMix64::new(7);
        assert_eq!(r.below(0), 0);
        for n in 1..50 {
            assert!(r.below(n) < n);
        }
    }

    #[test]
    fn shuffle_is_a_permutation_fixed_by_the_seed() {
        let shuffled = |seed| {
            let mut v: Vec<u32> = (0..20).collect();
            SplitMix64::new(seed).shuffle(&mut v);
            v
        };
        let a = shuffled(3);
        assert_eq!(a, shuffled(3));
        assert_ne!(a, shuffled(4));
        assert_ne!(a, (0..20).collect::<Vec<_>>());
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..20).collect::<Vec<_>>());
        let mut empty: [u32; 0] = [];
        SplitMix64::new(3).shuffle(&mut empty);
    }
}

//! Zobrist keys: one random 64-bit number per (colour, cell), so a board's hash is the XOR of its stones'
//! keys and a stone placed or removed updates it with one XOR.
//!
//! The keys are computed at compile time from a fixed SplitMix64 seed: the same on every platform and in
//! every build, so a hash written down (a test, a record) keeps its meaning.

use super::point::CELLS;

/// `KEYS[colour index][cell]`.
pub(crate) static KEYS: [[u64; CELLS]; 2] = keys();

const fn keys() -> [[u64; CELLS]; 2] {
    let mut out = [[0u64; CELLS]; 2];
    let mut state: u64 = 0x476F_5A6F_6272_6973; // "GoZobris"
    let mut colour = 0;
    while colour < 2 {
        let mut cell = 0;
        while cell < CELLS {
            // SplitMix64, as in crate::rng (a const fn cannot call it).
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            out[colour][cell] = z ^ (z >> 31);
            cell += 1;
        }
        colour += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut all: Vec<u64> = KEYS.iter().flatten().copied().collect();
        assert!(all.iter().all(|&k| k != 0));
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 2 * CELLS);
    }
}

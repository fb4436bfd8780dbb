//! One small stable sort for the engine's short lists.
//!
//! The lists sorted here are short: a team's moves (a few hundred at most), its pieces, a tick's movers.
//! Insertion sort is quick enough for them and a fraction of the code of the standard library's sorts,
//! which are compiled again for every element type: in the browser app they came to about 30 KB of wasm,
//! a sixth of the page's size budget.

/// Sorts `v` by `key`, keeping the order of equal keys (like `slice::sort_by_key`).
pub(crate) fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && key(&v[j - 1]) > key(&v[j]) {
            v.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Sorts `v` in ascending order.
pub(crate) fn sort<T: Ord>(v: &mut [T]) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && v[j - 1] > v[j] {
            v.swap(j - 1, j);
            j -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SplitMix64;

    #[test]
    fn sorts_like_the_standard_library_and_stably() {
        let mut rng = SplitMix64::new(5);
        for len in [0usize, 1, 2, 3, 10, 100, 300] {
            let v: Vec<(u8, u32)> = (0..len as u32)
                .map(|i| ((rng.next_u64() % 7) as u8, i))
                .collect();
            let (mut a, mut b) = (v.clone(), v.clone());
            sort_by_key(&mut a, |p| p.0);
            b.sort_by_key(|p| p.0);
            assert_eq!(a, b, "stable by key, length {len}");
            let (mut a, mut b) = (v.clone(), v);
            sort(&mut a);
            b.sort_unstable();
            assert_eq!(a, b, "ascending, length {len}");
        }
    }
}

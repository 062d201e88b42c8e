//! Counters that keep first-seen order, as Python's dicts (and so
//! cdx-summary's `--report` and `Counter.most_common` tie order) do.

use std::hash::Hash;

use rustc_hash::FxHashMap;

/// Counts per key, in first-seen order; the last key hit is checked before
/// hashing, because index input is usually sorted and runs of a key are long.
#[derive(Debug, Clone)]
pub struct Tally<K> {
    index: FxHashMap<K, usize>,
    pub entries: Vec<(K, u64)>,
    last: usize,
}

impl<K> Default for Tally<K> {
    fn default() -> Self {
        Tally { index: FxHashMap::default(), entries: Vec::new(), last: usize::MAX }
    }
}

impl<K: Hash + Eq + Clone> Tally<K> {
    /// Adds `n` to `key` (given as a borrowed form), returning its slot.
    pub fn add<Q>(&mut self, key: &Q, n: u64) -> usize
    where
        K: std::borrow::Borrow<Q>,
        Q: Hash + Eq + ?Sized + ToOwned<Owned = K>,
    {
        if let Some((k, c)) = self.entries.get_mut(self.last) {
            if (*k).borrow() == key {
                *c += n;
                return self.last;
            }
        }
        let slot = match self.index.get(key) {
            Some(&i) => i,
            None => {
                let i = self.entries.len();
                self.entries.push((key.to_owned(), 0));
                self.index.insert(key.to_owned(), i);
                i
            }
        };
        self.entries[slot].1 += n;
        self.last = slot;
        slot
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// `Counter.most_common(n)`: by count, ties in first-seen order (a stable sort).
    pub fn most_common(&self, n: Option<usize>) -> Vec<(&K, u64)> {
        let mut v: Vec<(&K, u64)> = self.entries.iter().map(|(k, c)| (k, *c)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1));
        if let Some(n) = n {
            v.truncate(n);
        }
        v
    }
}

/// Two-level counts (`defaultdict(lambda: defaultdict(int))`), both levels in
/// first-seen order.
#[derive(Debug, Clone)]
pub struct Tally2<K1, K2> {
    outer: Tally<K1>,
    pub inner: Vec<Tally<K2>>,
}

impl<K1, K2> Default for Tally2<K1, K2> {
    fn default() -> Self {
        Tally2 { outer: Tally::default(), inner: Vec::new() }
    }
}

impl<K1: Hash + Eq + Clone, K2: Hash + Eq + Clone> Tally2<K1, K2> {
    pub fn add<Q1, Q2>(&mut self, k1: &Q1, k2: &Q2)
    where
        K1: std::borrow::Borrow<Q1>,
        Q1: Hash + Eq + ?Sized + ToOwned<Owned = K1>,
        K2: std::borrow::Borrow<Q2>,
        Q2: Hash + Eq + ?Sized + ToOwned<Owned = K2>,
    {
        let slot = self.outer.add(k1, 1);
        if slot == self.inner.len() {
            self.inner.push(Tally::default());
        }
        self.inner[slot].add(k2, 1);
    }

    /// `(outer key, [(inner key, count)])` in first-seen order.
    pub fn iter(&self) -> impl Iterator<Item = (&K1, &[(K2, u64)])> {
        self.outer.entries.iter().zip(&self.inner).map(|((k, _), t)| (k, t.entries.as_slice()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn most_common_keeps_first_seen_order_for_ties() {
        let mut t: Tally<String> = Tally::default();
        for k in ["b", "a", "c", "a", "c", "b", "d"] {
            t.add(k, 1);
        }
        let top: Vec<_> = t.most_common(Some(3)).into_iter().map(|(k, c)| (k.as_str(), c)).collect();
        assert_eq!(top, [("b", 2), ("a", 2), ("c", 2)]);
    }

    #[test]
    fn two_levels_in_first_seen_order() {
        let mut t: Tally2<String, String> = Tally2::default();
        t.add("x", "2");
        t.add("y", "1");
        t.add("x", "1");
        t.add("x", "2");
        let v: Vec<_> = t.iter().map(|(k, e)| (k.clone(), e.to_vec())).collect();
        assert_eq!(v[0], ("x".into(), vec![("2".into(), 2), ("1".into(), 1)]));
        assert_eq!(v[1], ("y".into(), vec![("1".into(), 1)]));
    }
}

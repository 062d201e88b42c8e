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
    /// Slots of pairs seen before, by an integer code the caller gives for
    /// the pair: one integer lookup instead of two string lookups per line.
    coded: FxHashMap<u64, (u32, u32)>,
}

impl<K1, K2> Default for Tally2<K1, K2> {
    fn default() -> Self {
        Tally2 { outer: Tally::default(), inner: Vec::new(), coded: FxHashMap::default() }
    }
}

/// An exact integer code of a pair of short strings (`None` when they do
/// not fit): their bytes side by side, then both lengths.
pub fn pair_code(a: &str, b: &str) -> Option<u64> {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() + b.len() > 6 {
        return None;
    }
    let mut code = [0u8; 8];
    code[..a.len()].copy_from_slice(a);
    code[a.len()..a.len() + b.len()].copy_from_slice(b);
    code[6] = a.len() as u8;
    code[7] = b.len() as u8;
    Some(u64::from_le_bytes(code))
}

/// An exact integer code of a string of up to three bytes.
pub fn short_code(s: &str) -> Option<u32> {
    let s = s.as_bytes();
    if s.len() > 3 {
        return None;
    }
    let mut code = [0u8; 4];
    code[..s.len()].copy_from_slice(s);
    code[3] = s.len() as u8;
    Some(u32::from_le_bytes(code))
}

impl<K1: Hash + Eq + Clone, K2: Hash + Eq + Clone> Tally2<K1, K2> {
    pub fn add<Q1, Q2>(&mut self, k1: &Q1, k2: &Q2)
    where
        K1: std::borrow::Borrow<Q1>,
        Q1: Hash + Eq + ?Sized + ToOwned<Owned = K1>,
        K2: std::borrow::Borrow<Q2>,
        Q2: Hash + Eq + ?Sized + ToOwned<Owned = K2>,
    {
        self.add_slots(k1, k2);
    }

    fn add_slots<Q1, Q2>(&mut self, k1: &Q1, k2: &Q2) -> (u32, u32)
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
        (slot as u32, self.inner[slot].add(k2, 1) as u32)
    }

    /// [`add`](Self::add), where `code` identifies the pair `(k1, k2)`
    /// exactly (the caller keeps one coding per tally).
    #[inline]
    pub fn add_coded<Q1, Q2>(&mut self, code: Option<u64>, k1: &Q1, k2: &Q2)
    where
        K1: std::borrow::Borrow<Q1>,
        Q1: Hash + Eq + ?Sized + ToOwned<Owned = K1>,
        K2: std::borrow::Borrow<Q2>,
        Q2: Hash + Eq + ?Sized + ToOwned<Owned = K2>,
    {
        let Some(code) = code else { return self.add(k1, k2) };
        if let Some(&(o, i)) = self.coded.get(&code) {
            self.outer.entries[o as usize].1 += 1;
            self.inner[o as usize].entries[i as usize].1 += 1;
            return;
        }
        let slots = self.add_slots(k1, k2);
        self.coded.insert(code, slots);
    }

    /// [`add`](Self::add), where `code2` identifies `k2` exactly: the outer
    /// key is looked up by its value, the inner one by its code.
    #[inline]
    pub fn add_inner_coded<Q1, Q2>(&mut self, k1: &Q1, k2: &Q2, code2: Option<u32>)
    where
        K1: std::borrow::Borrow<Q1>,
        Q1: Hash + Eq + ?Sized + ToOwned<Owned = K1>,
        K2: std::borrow::Borrow<Q2>,
        Q2: Hash + Eq + ?Sized + ToOwned<Owned = K2>,
    {
        let Some(code2) = code2 else { return self.add(k1, k2) };
        let slot = self.outer.add(k1, 1);
        if slot == self.inner.len() {
            self.inner.push(Tally::default());
        }
        let code = (slot as u64) << 32 | code2 as u64;
        if let Some(&(_, i)) = self.coded.get(&code) {
            self.inner[slot].entries[i as usize].1 += 1;
            return;
        }
        let i = self.inner[slot].add(k2, 1) as u32;
        self.coded.insert(code, (slot as u32, i));
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

    #[test]
    fn coded_adds_count_as_plain_ones() {
        let pairs = [("2020", "01"), ("2020", "1"), ("202", "01"), ("2019", "01"), ("2020", "01"), ("20200", "1"), ("x", "0\0")];
        let (mut plain, mut coded, mut inner): (Tally2<String, String>, Tally2<String, String>, Tally2<String, String>) =
            Default::default();
        for (a, b) in pairs.iter().chain(pairs.iter().rev()) {
            plain.add(*a, *b);
            coded.add_coded(pair_code(a, b), *a, *b);
            inner.add_inner_coded(*a, *b, short_code(b));
        }
        let dump = |t: &Tally2<String, String>| t.iter().map(|(k, e)| (k.clone(), e.to_vec())).collect::<Vec<_>>();
        assert_eq!(dump(&coded), dump(&plain));
        assert_eq!(dump(&inner), dump(&plain));
        assert_eq!(coded.outer.entries, plain.outer.entries);
        assert_eq!(pair_code("2020", "01").unwrap() == pair_code("202", "001").unwrap(), false);
        assert_eq!(pair_code("abcd", "efg"), None);
        assert_ne!(short_code("0"), short_code("0\0"));
        assert_eq!(short_code("2000"), None);
    }
}

//! Reusable per-segment tables for exact n-gram counting without allocation.
//!
//! N-grams are packed into integers (each item a small non-zero code, so packing is injective
//! and keys of different lengths never collide), looked up in an open-addressing table that
//! hands out dense ids. Clearing costs what was inserted, so one table serves every segment of
//! a corpus once its buffers have grown: sentence metrics spend their time counting instead of
//! allocating and rehashing a `HashMap` per n-gram order per sentence.

/// A packed n-gram; `0` marks an empty slot and is never a key.
pub(crate) trait PackedKey: Copy + Eq + Default {
    /// A 64-bit hash whose high bits are well mixed (the table indexes by them).
    fn hash64(self) -> u64;
    /// The key extended by one item of `bits` bits.
    fn push_item(self, bits: u32, item: u32) -> Self;
}

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

impl PackedKey for u64 {
    #[inline]
    fn hash64(self) -> u64 {
        (self ^ (self >> 29)).wrapping_mul(GOLDEN)
    }
    #[inline]
    fn push_item(self, bits: u32, item: u32) -> Self {
        (self << bits) | u64::from(item)
    }
}

impl PackedKey for u128 {
    #[inline]
    fn hash64(self) -> u64 {
        let (lo, hi) = (self as u64, (self >> 64) as u64);
        (lo ^ (lo >> 29) ^ hi.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(31))
            .wrapping_mul(GOLDEN)
    }
    #[inline]
    fn push_item(self, bits: u32, item: u32) -> Self {
        (self << bits) | u128::from(item)
    }
}

/// Gives back the memory of a table grown by one very long segment (all slots are empty here).
fn shrink_after_outlier<T>(slots: &mut Vec<T>, cap: usize) {
    if slots.len() > 1 << 16 && slots.len() > 8 * cap {
        slots.truncate(cap);
        slots.shrink_to_fit();
    }
}

/// Open-addressing map from packed keys to dense ids `0, 1, 2, ...` in first-insertion order.
#[derive(Debug, Default)]
pub(crate) struct KeyTable<K> {
    slots: Vec<(K, u32)>,
    used: Vec<u32>,
    shift: u32,
    mask: usize,
}

impl<K: PackedKey> KeyTable<K> {
    /// Empties the table and sizes it for up to `n` distinct keys.
    pub fn reset(&mut self, n: usize) {
        for &s in &self.used {
            self.slots[s as usize].0 = K::default();
        }
        self.used.clear();
        let cap = (n + n / 2 + 16).next_power_of_two();
        shrink_after_outlier(&mut self.slots, cap);
        if self.slots.len() < cap {
            self.slots.resize(cap, (K::default(), 0));
        }
        self.mask = cap - 1;
        self.shift = 64 - cap.trailing_zeros();
    }

    /// Number of distinct keys since the last reset.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.used.len()
    }

    /// The dense id of `key`, if it was inserted since the last reset.
    #[inline]
    pub fn get(&self, key: K) -> Option<usize> {
        debug_assert!(key != K::default());
        let mut s = (key.hash64() >> self.shift) as usize;
        loop {
            let (k, id) = self.slots[s];
            if k == key {
                return Some(id as usize);
            }
            if k == K::default() {
                return None;
            }
            s = (s + 1) & self.mask;
        }
    }

    /// The dense id of `key`, and whether it was new. Callers reset with a bound on the number
    /// of distinct keys, so the table never fills.
    #[inline]
    pub fn id(&mut self, key: K) -> (usize, bool) {
        debug_assert!(key != K::default());
        let mut s = (key.hash64() >> self.shift) as usize;
        loop {
            let (k, id) = self.slots[s];
            if k == key {
                return (id as usize, false);
            }
            if k == K::default() {
                let id = self.used.len();
                self.slots[s] = (key, id as u32);
                self.used.push(s as u32);
                return (id, true);
            }
            s = (s + 1) & self.mask;
        }
    }
}

/// Interns byte strings given as spans of one text: equal strings get equal dense ids.
#[derive(Debug, Default)]
pub(crate) struct Interner {
    slots: Vec<u32>,
    /// Per id: hash, start, end, slot.
    entries: Vec<(u64, u32, u32, u32)>,
    shift: u32,
    mask: usize,
}

#[inline]
fn hash_bytes(b: &[u8]) -> u64 {
    let mut h = b.len() as u64;
    let mut chunks = b.chunks_exact(8);
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(GOLDEN);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut w = [0u8; 8];
        w[..rest.len()].copy_from_slice(rest);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(GOLDEN);
    }
    (h ^ (h >> 32)).wrapping_mul(GOLDEN)
}

/// [`hash_bytes`] of `text[start..end]`; a token of up to 8 bytes with 8 bytes of `text` from
/// its start (BLEU pads its text for this) is read as one word and masked, instead of copied.
#[inline]
fn hash_span(text: &[u8], start: usize, end: usize) -> u64 {
    let len = end - start;
    if len <= 8 {
        if let Some(w) = text.get(start..start + 8) {
            let mut word = [0u8; 8];
            word.copy_from_slice(w);
            let w = u64::from_le_bytes(word);
            let w = if len == 8 {
                w
            } else {
                w & ((1u64 << (8 * len)) - 1)
            };
            let h = ((len as u64).rotate_left(5) ^ w).wrapping_mul(GOLDEN);
            return (h ^ (h >> 32)).wrapping_mul(GOLDEN);
        }
    }
    hash_bytes(&text[start..end])
}

impl Interner {
    /// Forgets every string and sizes the table for up to `n` distinct ones.
    pub fn reset(&mut self, n: usize) {
        for e in &self.entries {
            self.slots[e.3 as usize] = 0;
        }
        self.entries.clear();
        let cap = (2 * n + 16).next_power_of_two();
        shrink_after_outlier(&mut self.slots, cap);
        if self.slots.len() < cap {
            self.slots.resize(cap, 0);
        }
        self.mask = cap - 1;
        self.shift = 64 - cap.trailing_zeros();
    }

    /// Number of distinct strings since the last reset.
    #[inline]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether entry `v - 1` is `tok`, whose hash is `h`. For a given length up to 8 bytes
    /// [`hash_bytes`] is injective (one word, mixed by invertible steps), so equal hashes and
    /// lengths are equal strings there and only longer ones are compared byte by byte.
    #[inline]
    fn same(&self, text: &[u8], v: u32, h: u64, tok: &[u8]) -> bool {
        let (eh, es, ee, _) = self.entries[v as usize - 1];
        eh == h
            && (ee - es) as usize == tok.len()
            && (tok.len() <= 8 || &text[es as usize..ee as usize] == tok)
    }

    /// The dense id of `text[start..end]`, if it was interned since the last reset.
    #[inline]
    pub fn get(&self, text: &[u8], start: u32, end: u32) -> Option<u32> {
        let tok = &text[start as usize..end as usize];
        let h = hash_span(text, start as usize, end as usize);
        let mut s = (h >> self.shift) as usize;
        loop {
            let v = self.slots[s];
            if v == 0 {
                return None;
            }
            if self.same(text, v, h, tok) {
                return Some(v - 1);
            }
            s = (s + 1) & self.mask;
        }
    }

    /// The dense id of `text[start..end]`.
    #[inline]
    pub fn intern(&mut self, text: &[u8], start: u32, end: u32) -> u32 {
        let tok = &text[start as usize..end as usize];
        let h = hash_span(text, start as usize, end as usize);
        let mut s = (h >> self.shift) as usize;
        loop {
            let v = self.slots[s];
            if v == 0 {
                let id = self.entries.len() as u32;
                self.entries.push((h, start, end, s as u32));
                self.slots[s] = id + 1;
                return id;
            }
            if self.same(text, v, h, tok) {
                return v - 1;
            }
            s = (s + 1) & self.mask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_table_ids_and_reset() {
        let mut t = KeyTable::<u64>::default();
        t.reset(4);
        assert_eq!(t.id(7), (0, true));
        assert_eq!(t.id(9), (1, true));
        assert_eq!(t.id(7), (0, false));
        assert_eq!(t.len(), 2);
        assert_eq!(t.get(9), Some(1));
        assert_eq!(t.get(8), None);
        t.reset(1000);
        assert_eq!(t.len(), 0);
        assert_eq!(t.id(9), (0, true));
        for k in 1..=1000u64 {
            t.id(k << 40);
        }
        assert_eq!(t.len(), 1001);
        assert_eq!(t.id(500 << 40), (500, false));
    }

    /// The one-word read of a short token gives the hash of its bytes, with or without the
    /// padding after it.
    #[test]
    fn span_hash_equals_byte_hash() {
        let text = b"a bc defghijk lmnopqrstu vwxyz0123456789       ";
        for start in 0..text.len() {
            for end in start..text.len().min(start + 20) {
                let want = hash_bytes(&text[start..end]);
                assert_eq!(hash_span(text, start, end), want);
                assert_eq!(hash_span(&text[..end], start, end), want);
            }
        }
    }

    #[test]
    fn interner_equal_strings_equal_ids() {
        let text = b"the cat the dog cat";
        let mut i = Interner::default();
        i.reset(5);
        let ids: Vec<u32> = [(0, 3), (4, 7), (8, 11), (12, 15), (16, 19)]
            .iter()
            .map(|&(s, e)| i.intern(text, s, e))
            .collect();
        assert_eq!(ids, vec![0, 1, 0, 2, 1]);
        assert_eq!(i.len(), 3);
        assert_eq!(i.get(text, 16, 19), Some(1));
        assert_eq!(i.get(text, 8, 10), None);
        i.reset(1);
        assert_eq!(i.get(text, 4, 7), None);
        assert_eq!(i.intern(text, 4, 7), 0);
    }
}

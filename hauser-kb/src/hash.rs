//! Hashing: XXH64 for the index checksum and a small stable hash for the index's hash tables.
//!
//! Both are defined on bytes and little-endian words only, so an index file hashes the same on
//! every platform. XXH64 follows the public xxHash specification (checked against the `xxhash`
//! Python package in `tests/fixtures/xxh64_golden.json`); it runs at several GB/s, which keeps
//! the full-file check on open well under the open-time budget.

const P1: u64 = 0x9E37_79B1_85EB_CA87;
const P2: u64 = 0xC2B2_AE3D_27D4_EB4F;
const P3: u64 = 0x1656_67B1_9E37_79F9;
const P4: u64 = 0x85EB_CA77_C2B2_AE63;
const P5: u64 = 0x27D4_EB2F_1656_67C5;

fn read_u64(b: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[..8]);
    u64::from_le_bytes(w)
}

fn read_u32(b: &[u8]) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&b[..4]);
    u32::from_le_bytes(w)
}

fn round(acc: u64, lane: u64) -> u64 {
    acc.wrapping_add(lane.wrapping_mul(P2))
        .rotate_left(31)
        .wrapping_mul(P1)
}

fn merge(acc: u64, val: u64) -> u64 {
    (acc ^ round(0, val)).wrapping_mul(P1).wrapping_add(P4)
}

/// Streaming XXH64 (seed 0).
#[derive(Debug, Clone)]
pub struct Xxh64 {
    acc: [u64; 4],
    buf: [u8; 32],
    buf_len: usize,
    total: u64,
}

impl Default for Xxh64 {
    fn default() -> Self {
        Self::new()
    }
}

impl Xxh64 {
    /// A hasher with seed 0.
    pub fn new() -> Self {
        Self {
            acc: [P1.wrapping_add(P2), P2, 0, 0u64.wrapping_sub(P1)],
            buf: [0; 32],
            buf_len: 0,
            total: 0,
        }
    }

    fn stripe(acc: &mut [u64; 4], s: &[u8]) {
        acc[0] = round(acc[0], read_u64(&s[0..]));
        acc[1] = round(acc[1], read_u64(&s[8..]));
        acc[2] = round(acc[2], read_u64(&s[16..]));
        acc[3] = round(acc[3], read_u64(&s[24..]));
    }

    /// Feeds bytes.
    pub fn update(&mut self, mut data: &[u8]) {
        self.total += data.len() as u64;
        if self.buf_len > 0 {
            let take = (32 - self.buf_len).min(data.len());
            self.buf[self.buf_len..self.buf_len + take].copy_from_slice(&data[..take]);
            self.buf_len += take;
            data = &data[take..];
            if self.buf_len < 32 {
                return;
            }
            let buf = self.buf;
            Self::stripe(&mut self.acc, &buf);
            self.buf_len = 0;
        }
        let mut chunks = data.chunks_exact(32);
        for c in &mut chunks {
            Self::stripe(&mut self.acc, c);
        }
        let rest = chunks.remainder();
        self.buf[..rest.len()].copy_from_slice(rest);
        self.buf_len = rest.len();
    }

    /// The digest of everything fed so far.
    pub fn digest(&self) -> u64 {
        let mut h = if self.total >= 32 {
            let [a, b, c, d] = self.acc;
            let mut h = a
                .rotate_left(1)
                .wrapping_add(b.rotate_left(7))
                .wrapping_add(c.rotate_left(12))
                .wrapping_add(d.rotate_left(18));
            for v in self.acc {
                h = merge(h, v);
            }
            h
        } else {
            P5
        };
        h = h.wrapping_add(self.total);
        let mut tail = &self.buf[..self.buf_len];
        while tail.len() >= 8 {
            h ^= round(0, read_u64(tail));
            h = h.rotate_left(27).wrapping_mul(P1).wrapping_add(P4);
            tail = &tail[8..];
        }
        if tail.len() >= 4 {
            h ^= u64::from(read_u32(tail)).wrapping_mul(P1);
            h = h.rotate_left(23).wrapping_mul(P2).wrapping_add(P3);
            tail = &tail[4..];
        }
        for &b in tail {
            h ^= u64::from(b).wrapping_mul(P5);
            h = h.rotate_left(11).wrapping_mul(P1);
        }
        h ^= h >> 33;
        h = h.wrapping_mul(P2);
        h ^= h >> 29;
        h = h.wrapping_mul(P3);
        h ^= h >> 32;
        h
    }
}

/// XXH64 (seed 0) of a byte slice.
///
/// ```
/// assert_eq!(hauser_kb::hash::xxh64(b""), 0xEF46_DB37_51D8_E999);
/// ```
pub fn xxh64(data: &[u8]) -> u64 {
    let mut h = Xxh64::new();
    h.update(data);
    h.digest()
}

/// Final avalanche of MurmurHash3, used to spread table keys.
pub(crate) fn mix64(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^= x >> 33;
    x
}

/// Hash of a normalised key for the string table (stable, fast on short strings).
pub(crate) fn key_hash(bytes: &[u8]) -> u64 {
    let mut h = P5 ^ bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        h = (h ^ read_u64(c)).wrapping_mul(P1).rotate_left(29);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut w = [0u8; 8];
        w[..rest.len()].copy_from_slice(rest);
        h = (h ^ u64::from_le_bytes(w)).wrapping_mul(P1).rotate_left(29);
    }
    mix64(h)
}

/// Hash of an id pair for the pair tables.
pub(crate) fn pair_hash(a: u32, b: u32) -> u64 {
    mix64((u64::from(a) << 32 | u64::from(b)) ^ P3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streaming_equals_one_shot_at_every_split() {
        let data: Vec<u8> = (0..200u32).map(|i| (i * 31 % 251) as u8).collect();
        let whole = xxh64(&data);
        for split in 0..data.len() {
            let mut h = Xxh64::new();
            h.update(&data[..split]);
            h.update(&data[split..]);
            assert_eq!(h.digest(), whole, "split {split}");
        }
    }

    #[test]
    fn key_hash_depends_on_every_byte_and_length() {
        assert_ne!(key_hash(b"wind"), key_hash(b"wine"));
        assert_ne!(key_hash(b"a"), key_hash(b"a\0"));
        assert_ne!(pair_hash(1, 2), pair_hash(2, 1));
    }
}

//! The index file format (version 1).
//!
//! A 128-byte header followed by a payload of ten sections, each starting at a multiple of 8
//! bytes from the payload start and padded with zeros. All integers are little-endian; ids are
//! `u32`; an id of a string is its rank in byte-wise sorted order.
//!
//! | header bytes | field |
//! | --- | --- |
//! | 0..8 | magic `HAUSERKB` |
//! | 8..12 | format version (1) |
//! | 12..16 | flags: bit 0 = the source had plausibilities |
//! | 16..20 | normaliser code ([`crate::clean::Normalizer::code`]) |
//! | 24..32 | payload length in bytes |
//! | 32..40 | XXH64 of the payload |
//! | 40..88 | strings, string-blob bytes, triplets, (topic, vehicle) pairs, (topic, property) pairs, input rows |
//! | 120..128 | XXH64 of header bytes 0..120 |
//!
//! | section | content |
//! | --- | --- |
//! | string offsets | `n_strings + 1` u64 offsets into the blob |
//! | string blob | the normalised strings, UTF-8, concatenated |
//! | string slots | open-addressing table (linear probing) of `id + 1`, 0 = empty |
//! | vehicle counts | f64 per string id: N(v), 0 for strings that are never a vehicle |
//! | pairs | per (topic, vehicle): topic, vehicle, first triplet, triplet count (u32), relevance sum n·P (f64), count sum n (f64); sorted by (topic, vehicle) |
//! | pair slots | hash table over pairs |
//! | triplets | property, vehicle (u32), n (f64), n·P (f64); grouped by pair, each group ordered by n·P, then n, descending, then property id |
//! | tp records | per (topic, property): topic, property, first entry in `by_tp`, entry count (u32) |
//! | tp slots | hash table over tp records |
//! | by_tp | triplet indices grouped by (topic, property), each group ordered by n·P, n descending, then vehicle id |
//!
//! Hash tables have `max(2, next_power_of_two(2 n))` slots, so they are at most half full.

use std::path::Path;

use crate::error::{KbError, Result};
use crate::hash::xxh64;

/// File magic.
pub const MAGIC: &[u8; 8] = b"HAUSERKB";
/// The format version this crate writes and reads.
pub const FORMAT_VERSION: u32 = 1;
/// Header length in bytes.
pub const HEADER_LEN: usize = 128;
/// Flag bit: the source had plausibilities (otherwise P = 1).
pub const FLAG_PLAUSIBILITY: u32 = 1;

pub(crate) const PAIR_REC: usize = 32;
pub(crate) const TRIP_REC: usize = 24;
pub(crate) const TP_REC: usize = 16;

/// The decoded header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Header {
    /// Format version.
    pub version: u32,
    /// Flag bits.
    pub flags: u32,
    /// Normaliser code.
    pub normalizer: u32,
    /// Payload length in bytes.
    pub payload_len: u64,
    /// XXH64 of the payload.
    pub checksum: u64,
    /// Distinct strings.
    pub n_strings: u64,
    /// Bytes in the string blob.
    pub blob_len: u64,
    /// Distinct (topic, property, vehicle) triplets.
    pub n_triplets: u64,
    /// Distinct (topic, vehicle) pairs.
    pub n_pairs: u64,
    /// Distinct (topic, property) pairs.
    pub n_tp: u64,
    /// Input rows that went into the KB.
    pub n_rows: u64,
}

impl Header {
    pub(crate) fn encode(&self) -> [u8; HEADER_LEN] {
        let mut b = [0u8; HEADER_LEN];
        b[0..8].copy_from_slice(MAGIC);
        b[8..12].copy_from_slice(&self.version.to_le_bytes());
        b[12..16].copy_from_slice(&self.flags.to_le_bytes());
        b[16..20].copy_from_slice(&self.normalizer.to_le_bytes());
        let words = [
            self.payload_len,
            self.checksum,
            self.n_strings,
            self.blob_len,
            self.n_triplets,
            self.n_pairs,
            self.n_tp,
            self.n_rows,
        ];
        for (i, w) in words.iter().enumerate() {
            b[24 + 8 * i..32 + 8 * i].copy_from_slice(&w.to_le_bytes());
        }
        let sum = xxh64(&b[..120]);
        b[120..128].copy_from_slice(&sum.to_le_bytes());
        b
    }

    pub(crate) fn decode(bytes: &[u8], path: &Path) -> Result<Self> {
        if bytes.len() < HEADER_LEN {
            return Err(KbError::corrupt(
                path,
                format!(
                    "file is {} bytes, shorter than the {HEADER_LEN}-byte header",
                    bytes.len()
                ),
            ));
        }
        if &bytes[0..8] != MAGIC {
            return Err(KbError::corrupt(path, "not a hauser-kb index (bad magic)"));
        }
        let u32_at =
            |o: usize| u32::from_le_bytes([bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]]);
        let u64_at = |o: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&bytes[o..o + 8]);
            u64::from_le_bytes(w)
        };
        let version = u32_at(8);
        if version != FORMAT_VERSION {
            return Err(KbError::corrupt(
                path,
                format!("format version {version}, this build reads version {FORMAT_VERSION}"),
            ));
        }
        if u64_at(120) != xxh64(&bytes[..120]) {
            return Err(KbError::corrupt(path, "header checksum mismatch"));
        }
        Ok(Self {
            version,
            flags: u32_at(12),
            normalizer: u32_at(16),
            payload_len: u64_at(24),
            checksum: u64_at(32),
            n_strings: u64_at(40),
            blob_len: u64_at(48),
            n_triplets: u64_at(56),
            n_pairs: u64_at(64),
            n_tp: u64_at(72),
            n_rows: u64_at(80),
        })
    }
}

/// Slots of a hash table for `n` keys.
pub(crate) fn table_cap(n: u64) -> Option<u64> {
    n.checked_mul(2)?
        .checked_next_power_of_two()
        .map(|c| c.max(2))
}

/// Byte offsets of the sections within the payload.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Layout {
    pub str_off: usize,
    pub blob: usize,
    pub str_slots: usize,
    pub str_cap: usize,
    pub vcount: usize,
    pub pairs: usize,
    pub pair_slots: usize,
    pub pair_cap: usize,
    pub trips: usize,
    pub tps: usize,
    pub tp_slots: usize,
    pub tp_cap: usize,
    pub by_tp: usize,
    pub total: usize,
}

fn pad8(x: u64) -> Option<u64> {
    x.checked_add(7).map(|v| v & !7)
}

impl Layout {
    /// Computes the layout; `None` when the counts overflow (a corrupt header).
    pub(crate) fn new(h: &Header) -> Option<Self> {
        let mut pos = 0u64;
        let mut take = |bytes: u64| -> Option<usize> {
            let start = pos;
            pos = pad8(pos.checked_add(bytes)?)?;
            usize::try_from(start).ok()
        };
        let str_cap = table_cap(h.n_strings)?;
        let pair_cap = table_cap(h.n_pairs)?;
        let tp_cap = table_cap(h.n_tp)?;
        let str_off = take(h.n_strings.checked_add(1)?.checked_mul(8)?)?;
        let blob = take(h.blob_len)?;
        let str_slots = take(str_cap.checked_mul(4)?)?;
        let vcount = take(h.n_strings.checked_mul(8)?)?;
        let pairs = take(h.n_pairs.checked_mul(PAIR_REC as u64)?)?;
        let pair_slots = take(pair_cap.checked_mul(4)?)?;
        let trips = take(h.n_triplets.checked_mul(TRIP_REC as u64)?)?;
        let tps = take(h.n_tp.checked_mul(TP_REC as u64)?)?;
        let tp_slots = take(tp_cap.checked_mul(4)?)?;
        let by_tp = take(h.n_triplets.checked_mul(4)?)?;
        Some(Self {
            str_off,
            blob,
            str_slots,
            str_cap: usize::try_from(str_cap).ok()?,
            vcount,
            pairs,
            pair_slots,
            pair_cap: usize::try_from(pair_cap).ok()?,
            trips,
            tps,
            tp_slots,
            tp_cap: usize::try_from(tp_cap).ok()?,
            by_tp,
            total: usize::try_from(pos).ok()?,
        })
    }
}

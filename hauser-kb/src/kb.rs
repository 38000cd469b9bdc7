//! An opened knowledge base: validation on open and the queries.

use std::fs::File;
use std::path::{Path, PathBuf};

use memmap2::{Mmap, MmapOptions};
use serde::Serialize;

use crate::clean::{Normalizer, Role};
use crate::error::{KbError, Result};
use crate::format::{Header, Layout, FLAG_PLAUSIBILITY, HEADER_LEN, PAIR_REC, TP_REC, TRIP_REC};
use crate::hash::{key_hash, pair_hash, xxh64};

#[derive(Debug)]
enum Storage {
    Mapped(Mmap),
    Owned(Vec<u8>),
}

impl Storage {
    fn bytes(&self) -> &[u8] {
        match self {
            Storage::Mapped(m) => m,
            Storage::Owned(v) => v,
        }
    }
}

/// A read-only simile knowledge base, memory-mapped from an index file or held in memory.
///
/// Every check that could fail on a damaged file (magic, version, header checksum, section
/// sizes, payload checksum) runs when it is opened. Queries never panic: an out-of-range value
/// inside a file that nevertheless passed those checks reads as "absent".
#[derive(Debug)]
pub struct Kb {
    storage: Storage,
    header: Header,
    layout: Layout,
    normalizer: Normalizer,
    path: PathBuf,
}

/// The answer for one (topic, vehicle) pair.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PairInfo {
    /// Sum over properties of n(t, p, v) * P(t, p, v).
    pub relevance: f64,
    /// Sum over properties of n(t, p, v): the pair's count.
    pub count: f64,
    /// Number of distinct properties linking the pair.
    pub properties: u32,
}

/// One ranked property (for a topic-vehicle pair) or vehicle (for a topic-property pair).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hit {
    /// The property or vehicle (normalised).
    pub name: String,
    /// n of the triplet.
    pub count: f64,
    /// n * P of the triplet (equal to `count` when the KB has no plausibilities).
    pub weight: f64,
}

/// Size and provenance of a knowledge base.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KbStats {
    /// Index file, or `<memory>`.
    pub path: String,
    /// Index format version.
    pub format_version: u32,
    /// Bytes of the index.
    pub bytes: u64,
    /// Payload checksum, `xxh64:<16 hex digits>`.
    pub checksum: String,
    /// Key normaliser used at build and query time.
    pub normalizer: &'static str,
    /// Whether the source had plausibilities.
    pub plausibility: bool,
    /// Input rows that went into the KB.
    pub rows: u64,
    /// Distinct strings (topics, properties and vehicles together).
    pub strings: u64,
    /// Distinct (topic, property, vehicle) triplets.
    pub triplets: u64,
    /// Distinct (topic, vehicle) pairs.
    pub topic_vehicle_pairs: u64,
    /// Distinct (topic, property) pairs.
    pub topic_property_pairs: u64,
    /// Distinct vehicles.
    pub vehicles: u64,
    /// Sum of all triplet counts.
    pub total_count: f64,
}

fn rd_u32(b: &[u8], off: usize) -> u32 {
    match off.checked_add(4).and_then(|end| b.get(off..end)) {
        Some(s) => u32::from_le_bytes([s[0], s[1], s[2], s[3]]),
        None => 0,
    }
}

fn rd_u64(b: &[u8], off: usize) -> u64 {
    match off.checked_add(8).and_then(|end| b.get(off..end)) {
        Some(s) => {
            let mut w = [0u8; 8];
            w.copy_from_slice(s);
            u64::from_le_bytes(w)
        }
        None => 0,
    }
}

fn rd_f64(b: &[u8], off: usize) -> f64 {
    f64::from_bits(rd_u64(b, off))
}

/// `base + index * size`, saturating so that a bad index reads as out of range.
fn at(base: usize, index: usize, size: usize) -> usize {
    index
        .checked_mul(size)
        .and_then(|o| o.checked_add(base))
        .unwrap_or(usize::MAX)
}

impl Kb {
    /// Opens and validates an index file, memory-mapping it.
    ///
    /// # Errors
    /// [`KbError::Io`] when the file cannot be read, [`KbError::Corrupt`] when any check fails.
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let file = File::open(path).map_err(|e| KbError::io(path, e))?;
        let len = file.metadata().map_err(|e| KbError::io(path, e))?.len();
        if len < HEADER_LEN as u64 {
            return Err(KbError::corrupt(
                path,
                format!("file is {len} bytes, shorter than the {HEADER_LEN}-byte header"),
            ));
        }
        // SAFETY: the map is read-only and private to this process. If another process
        // truncated or rewrote the file while it is mapped, reads could fault or change; index
        // files are written once (to a new file) and never modified in place, which is the
        // contract documented on `hauser kb build`. Every read goes through bounds-checked
        // slices of the mapped length.
        #[allow(unsafe_code)]
        let map = unsafe { MmapOptions::new().populate().map(&file) }
            .map_err(|e| KbError::io(path, e))?;
        Self::validate(Storage::Mapped(map), path.to_path_buf())
    }

    /// Validates index bytes held in memory (as written by [`crate::KbBuilder::write_to`]).
    ///
    /// # Errors
    /// [`KbError::Corrupt`] when any check fails.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Self> {
        Self::validate(Storage::Owned(bytes), PathBuf::from("<memory>"))
    }

    fn validate(storage: Storage, path: PathBuf) -> Result<Self> {
        let bytes = storage.bytes();
        let header = Header::decode(bytes, &path)?;
        let normalizer = Normalizer::from_code(header.normalizer).ok_or_else(|| {
            KbError::corrupt(
                &path,
                format!("unknown normaliser code {}", header.normalizer),
            )
        })?;
        if header.flags & !FLAG_PLAUSIBILITY != 0 {
            return Err(KbError::corrupt(
                &path,
                format!("unknown flags {:#x}", header.flags),
            ));
        }
        let payload = &bytes[HEADER_LEN..];
        if header.payload_len != payload.len() as u64 {
            return Err(KbError::corrupt(
                &path,
                format!(
                    "payload is {} bytes, header says {} (truncated or extended file)",
                    payload.len(),
                    header.payload_len
                ),
            ));
        }
        let too_big = u64::from(u32::MAX);
        if header.n_strings >= too_big
            || header.n_triplets >= too_big
            || header.n_pairs >= too_big
            || header.n_tp >= too_big
        {
            return Err(KbError::corrupt(&path, "counts exceed the format's limits"));
        }
        let layout = Layout::new(&header)
            .filter(|l| l.total == payload.len())
            .ok_or_else(|| {
                KbError::corrupt(&path, "section sizes do not add up to the payload length")
            })?;
        let sum = xxh64(payload);
        if sum != header.checksum {
            return Err(KbError::corrupt(
                &path,
                format!(
                    "payload checksum mismatch (xxh64 {sum:016x}, header says {:016x})",
                    header.checksum
                ),
            ));
        }
        let first = rd_u64(payload, layout.str_off);
        let last = rd_u64(payload, at(layout.str_off, header.n_strings as usize, 8));
        if first != 0 || last != header.blob_len {
            return Err(KbError::corrupt(
                &path,
                "string offsets do not span the blob",
            ));
        }
        Ok(Self {
            storage,
            header,
            layout,
            normalizer,
            path,
        })
    }

    fn payload(&self) -> &[u8] {
        self.storage.bytes().get(HEADER_LEN..).unwrap_or(&[])
    }

    /// The validated header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The key normaliser queries use (the one the KB was built with).
    pub fn normalizer(&self) -> Normalizer {
        self.normalizer
    }

    /// Whether the source had plausibilities (otherwise P = 1 everywhere).
    pub fn has_plausibility(&self) -> bool {
        self.header.flags & FLAG_PLAUSIBILITY != 0
    }

    /// The payload checksum as written in signatures: `xxh64:<16 hex digits>`.
    pub fn checksum(&self) -> String {
        format!("xxh64:{:016x}", self.header.checksum)
    }

    /// Normalises a topic or vehicle as the KB's keys were normalised.
    pub fn key(&self, s: &str) -> String {
        self.normalizer.clean(s, Role::Entity)
    }

    fn string_bytes(&self, id: u32) -> &[u8] {
        let b = self.payload();
        let l = &self.layout;
        let lo = rd_u64(b, at(l.str_off, id as usize, 8));
        let hi = rd_u64(b, at(l.str_off, id as usize + 1, 8));
        if lo > hi || hi > self.header.blob_len {
            return &[];
        }
        b.get(l.blob + lo as usize..l.blob + hi as usize)
            .unwrap_or(&[])
    }

    /// A string by id (lossy on invalid UTF-8, which a valid index never holds).
    pub fn string(&self, id: u32) -> String {
        String::from_utf8_lossy(self.string_bytes(id)).into_owned()
    }

    /// The id of an already-normalised key.
    pub fn string_id(&self, key: &str) -> Option<u32> {
        let b = self.payload();
        let l = &self.layout;
        let mask = l.str_cap - 1;
        let mut slot = key_hash(key.as_bytes()) as usize & mask;
        for _ in 0..l.str_cap {
            let v = rd_u32(b, at(l.str_slots, slot, 4));
            if v == 0 {
                return None;
            }
            if self.string_bytes(v - 1) == key.as_bytes() {
                return Some(v - 1);
            }
            slot = (slot + 1) & mask;
        }
        None
    }

    fn find(
        &self,
        slots: usize,
        cap: usize,
        recs: usize,
        rec: usize,
        a: u32,
        b_: u32,
    ) -> Option<usize> {
        let b = self.payload();
        let mask = cap - 1;
        let mut slot = pair_hash(a, b_) as usize & mask;
        for _ in 0..cap {
            let v = rd_u32(b, at(slots, slot, 4));
            if v == 0 {
                return None;
            }
            let off = at(recs, (v - 1) as usize, rec);
            if rd_u32(b, off) == a && rd_u32(b, off.saturating_add(4)) == b_ {
                return Some(off);
            }
            slot = (slot + 1) & mask;
        }
        None
    }

    /// The pair record for topic and vehicle ids.
    pub fn pair_by_id(&self, topic: u32, vehicle: u32) -> Option<PairInfo> {
        let l = &self.layout;
        let off = self.find(l.pair_slots, l.pair_cap, l.pairs, PAIR_REC, topic, vehicle)?;
        let b = self.payload();
        Some(PairInfo {
            relevance: rd_f64(b, off + 16),
            count: rd_f64(b, off + 24),
            properties: rd_u32(b, off + 12),
        })
    }

    /// Relevance of already-normalised keys: sum of n * P over the pair's triplets, 0 if absent.
    pub fn relevance_normalized(&self, topic: &str, vehicle: &str) -> f64 {
        self.pair_normalized(topic, vehicle)
            .map_or(0.0, |p| p.relevance)
    }

    /// The pair for already-normalised keys.
    pub fn pair_normalized(&self, topic: &str, vehicle: &str) -> Option<PairInfo> {
        let t = self.string_id(topic)?;
        let v = self.string_id(vehicle)?;
        self.pair_by_id(t, v)
    }

    /// Relevance of a raw topic and vehicle (normalised first), 0 when the pair is absent.
    ///
    /// ```
    /// use hauser_kb::{KbBuilder, Normalizer, ingest::TripletSink};
    /// let mut b = KbBuilder::new(Normalizer::Reference);
    /// b.add("he", "brave", "a lion", 3.0, Some(0.5))?;
    /// b.add("He", "strong", "the lion", 2.0, Some(1.0))?;
    /// let kb = b.build_in_memory()?;
    /// assert_eq!(kb.relevance("he", "like a lion"), 3.5);
    /// assert_eq!(kb.relevance("he", "a tiger"), 0.0);
    /// assert_eq!(kb.vehicle_count("lion"), 5.0);
    /// # Ok::<(), hauser_kb::KbError>(())
    /// ```
    pub fn relevance(&self, topic: &str, vehicle: &str) -> f64 {
        self.relevance_normalized(&self.key(topic), &self.key(vehicle))
    }

    /// The pair for a raw topic and vehicle.
    pub fn pair(&self, topic: &str, vehicle: &str) -> Option<PairInfo> {
        self.pair_normalized(&self.key(topic), &self.key(vehicle))
    }

    /// N(v) for an already-normalised vehicle: the sum of n over its triplets, 0 if absent.
    pub fn vehicle_count_normalized(&self, vehicle: &str) -> f64 {
        self.string_id(vehicle)
            .map_or(0.0, |v| self.vehicle_count_by_id(v))
    }

    /// N(v) by string id.
    pub fn vehicle_count_by_id(&self, vehicle: u32) -> f64 {
        rd_f64(self.payload(), at(self.layout.vcount, vehicle as usize, 8))
    }

    /// N(v) for a raw vehicle (normalised first).
    pub fn vehicle_count(&self, vehicle: &str) -> f64 {
        self.vehicle_count_normalized(&self.key(vehicle))
    }

    fn triplet(&self, index: usize) -> (u32, u32, f64, f64) {
        let b = self.payload();
        let off = at(self.layout.trips, index, TRIP_REC);
        (
            rd_u32(b, off),
            rd_u32(b, off.saturating_add(4)),
            rd_f64(b, off.saturating_add(8)),
            rd_f64(b, off.saturating_add(16)),
        )
    }

    fn bounded(&self, start: u32, len: u32, k: usize) -> std::ops::Range<usize> {
        let n = self.header.n_triplets as usize;
        let start = (start as usize).min(n);
        let end = start.saturating_add(len as usize).min(n);
        start..end.min(start.saturating_add(k))
    }

    /// The k properties with the largest n * P for a raw topic and vehicle (simile interpretation).
    pub fn top_properties(&self, topic: &str, vehicle: &str, k: usize) -> Vec<Hit> {
        let (Some(t), Some(v)) = (
            self.string_id(&self.key(topic)),
            self.string_id(&self.key(vehicle)),
        ) else {
            return Vec::new();
        };
        let l = &self.layout;
        let Some(off) = self.find(l.pair_slots, l.pair_cap, l.pairs, PAIR_REC, t, v) else {
            return Vec::new();
        };
        let b = self.payload();
        self.bounded(rd_u32(b, off + 8), rd_u32(b, off + 12), k)
            .map(|i| {
                let (p, _, count, weight) = self.triplet(i);
                Hit {
                    name: self.string(p),
                    count,
                    weight,
                }
            })
            .collect()
    }

    /// The k vehicles with the largest n * P for a raw topic and property (simile generation).
    pub fn top_vehicles(&self, topic: &str, property: &str, k: usize) -> Vec<Hit> {
        let (Some(t), Some(p)) = (
            self.string_id(&self.key(topic)),
            self.string_id(&self.normalizer.clean(property, Role::Property)),
        ) else {
            return Vec::new();
        };
        let l = &self.layout;
        let Some(off) = self.find(l.tp_slots, l.tp_cap, l.tps, TP_REC, t, p) else {
            return Vec::new();
        };
        let b = self.payload();
        self.bounded(rd_u32(b, off + 8), rd_u32(b, off + 12), k)
            .map(|i| {
                let ti = rd_u32(b, at(l.by_tp, i, 4)) as usize;
                let (_, v, count, weight) = self.triplet(ti);
                Hit {
                    name: self.string(v),
                    count,
                    weight,
                }
            })
            .collect()
    }

    /// The topic and vehicle of the `index`-th (topic, vehicle) pair in key order, if any.
    pub fn pair_keys(&self, index: usize) -> Option<(String, String)> {
        if index >= self.header.n_pairs as usize {
            return None;
        }
        let b = self.payload();
        let off = at(self.layout.pairs, index, PAIR_REC);
        Some((
            self.string(rd_u32(b, off)),
            self.string(rd_u32(b, off.saturating_add(4))),
        ))
    }

    /// Every triplet as (topic, property, vehicle, n, n * P), grouped by (topic, vehicle).
    pub fn triplets(&self) -> impl Iterator<Item = (String, String, String, f64, f64)> + '_ {
        let b = self.payload();
        (0..self.header.n_pairs as usize).flat_map(move |pi| {
            let off = at(self.layout.pairs, pi, PAIR_REC);
            let (t, v) = (rd_u32(b, off), rd_u32(b, off.saturating_add(4)));
            let range = self.bounded(
                rd_u32(b, off.saturating_add(8)),
                rd_u32(b, off.saturating_add(12)),
                usize::MAX,
            );
            range.map(move |i| {
                let (p, _, count, weight) = self.triplet(i);
                (
                    self.string(t),
                    self.string(p),
                    self.string(v),
                    count,
                    weight,
                )
            })
        })
    }

    /// Sizes and provenance.
    pub fn stats(&self) -> KbStats {
        let n = self.header.n_strings as usize;
        let (mut vehicles, mut total) = (0u64, 0.0f64);
        for id in 0..n {
            let c = self.vehicle_count_by_id(id as u32);
            if c > 0.0 {
                vehicles += 1;
                total += c;
            }
        }
        KbStats {
            path: self.path.display().to_string(),
            format_version: self.header.version,
            bytes: self.storage.bytes().len() as u64,
            checksum: self.checksum(),
            normalizer: self.normalizer.name(),
            plausibility: self.has_plausibility(),
            rows: self.header.n_rows,
            strings: self.header.n_strings,
            triplets: self.header.n_triplets,
            topic_vehicle_pairs: self.header.n_pairs,
            topic_property_pairs: self.header.n_tp,
            vehicles,
            total_count: total,
        }
    }
}

//! Building an index: interning normalised keys, merging duplicate triplets, writing the file.

use std::collections::HashMap;
use std::fs::File;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::{self, BufWriter, Cursor, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::clean::{Normalizer, Role};
use crate::error::{KbError, Result};
use crate::format::{table_cap, Header, FLAG_PLAUSIBILITY, FORMAT_VERSION, HEADER_LEN};
use crate::hash::{key_hash, pair_hash, Xxh64};
use crate::ingest::TripletSink;
use crate::kb::Kb;

/// A fast, non-cryptographic hasher for the build-time intern table.
#[derive(Debug, Default, Clone, Copy)]
struct BuildHasher64(u64);

impl Hasher for BuildHasher64 {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0 = key_hash(bytes) ^ self.0.rotate_left(17);
    }
}

type Intern = HashMap<Box<str>, u32, BuildHasherDefault<BuildHasher64>>;

#[derive(Debug, Clone, Copy)]
struct Row {
    t: u32,
    v: u32,
    p: u32,
    count: f64,
    weight: f64,
}

/// Accumulates triplets and writes an index (to a file or to memory).
///
/// Memory grows with the number of distinct strings and input rows (about 32 bytes a row);
/// each row is normalised and interned as it arrives, so ingestion itself streams.
#[derive(Debug)]
pub struct KbBuilder {
    normalizer: Normalizer,
    ids: Intern,
    names: Vec<Box<str>>,
    rows: Vec<Row>,
    has_plausibility: bool,
}

impl KbBuilder {
    /// An empty builder normalising keys with `normalizer`.
    pub fn new(normalizer: Normalizer) -> Self {
        Self {
            normalizer,
            ids: Intern::default(),
            names: Vec::new(),
            rows: Vec::new(),
            has_plausibility: false,
        }
    }

    /// Rows accepted so far.
    pub fn rows(&self) -> u64 {
        self.rows.len() as u64
    }

    fn intern(&mut self, key: String) -> Result<u32> {
        if let Some(&id) = self.ids.get(key.as_str()) {
            return Ok(id);
        }
        let id = u32::try_from(self.names.len())
            .ok()
            .filter(|&id| id < u32::MAX)
            .ok_or_else(|| KbError::TooLarge("more than 2^32 - 1 distinct strings".into()))?;
        let key: Box<str> = key.into_boxed_str();
        self.names.push(key.clone());
        self.ids.insert(key, id);
        Ok(id)
    }

    /// Builds the index in memory (for small KBs and tests).
    ///
    /// # Errors
    /// [`KbError::TooLarge`] beyond the format's limits.
    pub fn build_in_memory(self) -> Result<Kb> {
        let mut cur = Cursor::new(Vec::new());
        let mem = PathBuf::from("<memory>");
        self.write_to(&mut cur, &mem)?;
        Kb::from_bytes(cur.into_inner())
    }

    /// Writes the index to `path` (created or truncated) and returns its header.
    ///
    /// # Errors
    /// I/O errors naming the file, or [`KbError::TooLarge`].
    pub fn write_file(self, path: &Path) -> Result<Header> {
        let file = File::create(path).map_err(|e| KbError::io(path, e))?;
        let mut w = BufWriter::with_capacity(1 << 20, file);
        let header = self.write_to(&mut w, path)?;
        let file = w
            .into_inner()
            .map_err(|e| KbError::io(path, e.into_error()))?;
        file.sync_all().map_err(|e| KbError::io(path, e))?;
        Ok(header)
    }

    /// Writes the index to any seekable writer; `path` only names it in errors.
    ///
    /// # Errors
    /// I/O errors, or [`KbError::TooLarge`].
    pub fn write_to<W: Write + Seek>(self, w: &mut W, path: &Path) -> Result<Header> {
        let built = self.finish()?;
        built.write(w).map_err(|e| KbError::io(path, e))
    }

    fn finish(self) -> Result<Built> {
        let KbBuilder {
            normalizer,
            ids,
            names,
            mut rows,
            has_plausibility,
        } = self;
        drop(ids);
        let n_rows = rows.len() as u64;
        let too_large = |what: &str| KbError::TooLarge(format!("more than 2^32 - 1 {what}"));

        // Ids become ranks in sorted order, so the file does not depend on the input order.
        let mut order: Vec<u32> = (0..names.len() as u32).collect();
        order.par_sort_unstable_by(|&a, &b| names[a as usize].cmp(&names[b as usize]));
        let mut remap = vec![0u32; names.len()];
        for (new, &old) in order.iter().enumerate() {
            remap[old as usize] = new as u32;
        }
        let mut names = names;
        let mut sorted_names: Vec<Box<str>> = Vec::with_capacity(names.len());
        for &old in &order {
            sorted_names.push(std::mem::take(&mut names[old as usize]));
        }
        drop(names);
        drop(order);

        rows.par_iter_mut().for_each(|r| {
            r.t = remap[r.t as usize];
            r.v = remap[r.v as usize];
            r.p = remap[r.p as usize];
        });
        drop(remap);
        rows.par_sort_unstable_by_key(|r| (r.t, r.v, r.p));

        // Merge duplicate triplets (weights are summed in input order within a triplet).
        let mut trips: Vec<Row> = Vec::with_capacity(rows.len());
        for r in rows {
            match trips.last_mut() {
                Some(last) if (last.t, last.v, last.p) == (r.t, r.v, r.p) => {
                    last.count += r.count;
                    last.weight += r.weight;
                }
                _ => trips.push(r),
            }
        }
        if trips.len() >= u32::MAX as usize {
            return Err(too_large("triplets"));
        }
        trips
            .par_chunk_by_mut(|a, b| a.t == b.t && a.v == b.v)
            .for_each(|run| run.sort_by(by_weight_then(|r: &Row| r.p)));

        let mut pairs: Vec<Pair> = Vec::new();
        let mut vcount = vec![0.0f64; sorted_names.len()];
        for (i, r) in trips.iter().enumerate() {
            vcount[r.v as usize] += r.count;
            match pairs.last_mut() {
                Some(p) if p.t == r.t && p.v == r.v => {
                    p.len += 1;
                    p.weight += r.weight;
                    p.count += r.count;
                }
                _ => pairs.push(Pair {
                    t: r.t,
                    v: r.v,
                    start: i as u32,
                    len: 1,
                    weight: r.weight,
                    count: r.count,
                }),
            }
        }

        let mut by_tp: Vec<u32> = (0..trips.len() as u32).collect();
        by_tp.par_sort_unstable_by(|&a, &b| {
            let (ra, rb) = (&trips[a as usize], &trips[b as usize]);
            (ra.t, ra.p)
                .cmp(&(rb.t, rb.p))
                .then_with(|| by_weight_then(|r: &Row| r.v)(ra, rb))
        });
        let mut tps: Vec<[u32; 4]> = Vec::new();
        for (i, &ti) in by_tp.iter().enumerate() {
            let r = &trips[ti as usize];
            match tps.last_mut() {
                Some(tp) if tp[0] == r.t && tp[1] == r.p => tp[3] += 1,
                _ => tps.push([r.t, r.p, i as u32, 1]),
            }
        }
        if pairs.len() >= u32::MAX as usize || tps.len() >= u32::MAX as usize {
            return Err(too_large("pairs"));
        }
        let str_slots = hash_table(sorted_names.len(), |i| key_hash(sorted_names[i].as_bytes()));
        let pair_slots = hash_table(pairs.len(), |i| pair_hash(pairs[i].t, pairs[i].v));
        let tp_slots = hash_table(tps.len(), |i| pair_hash(tps[i][0], tps[i][1]));
        Ok(Built {
            n_rows,
            normalizer,
            has_plausibility,
            names: sorted_names,
            vcount,
            pairs,
            pair_slots,
            str_slots,
            trips,
            tps,
            tp_slots,
            by_tp,
        })
    }
}

impl TripletSink for KbBuilder {
    fn normalizer(&self) -> Normalizer {
        self.normalizer
    }

    fn set_has_plausibility(&mut self) {
        self.has_plausibility = true;
    }

    fn add(
        &mut self,
        topic: &str,
        property: &str,
        vehicle: &str,
        count: f64,
        plausibility: Option<f64>,
    ) -> Result<bool> {
        let n = self.normalizer;
        let t = n.clean(topic, Role::Entity);
        let v = n.clean(vehicle, Role::Entity);
        if t.is_empty() || v.is_empty() {
            return Ok(false);
        }
        let p = n.clean(property, Role::Property);
        let t = self.intern(t)?;
        let v = self.intern(v)?;
        let p = self.intern(p)?;
        self.rows.push(Row {
            t,
            v,
            p,
            count,
            weight: count * plausibility.unwrap_or(1.0),
        });
        Ok(true)
    }
}

/// Orders by weight, then count, both descending, then by a tie-break id ascending.
fn by_weight_then(tie: impl Fn(&Row) -> u32) -> impl Fn(&Row, &Row) -> std::cmp::Ordering {
    move |a, b| {
        b.weight
            .total_cmp(&a.weight)
            .then_with(|| b.count.total_cmp(&a.count))
            .then_with(|| tie(a).cmp(&tie(b)))
    }
}

/// Linear-probing table of `index + 1` (0 = empty) with `table_cap(n)` slots.
fn hash_table(n: usize, hash: impl Fn(usize) -> u64) -> Vec<u32> {
    let cap = table_cap(n as u64).unwrap_or(2) as usize;
    let mask = cap - 1;
    let mut slots = vec![0u32; cap];
    for i in 0..n {
        let mut s = hash(i) as usize & mask;
        while slots[s] != 0 {
            s = (s + 1) & mask;
        }
        slots[s] = i as u32 + 1;
    }
    slots
}

#[derive(Debug, Clone, Copy)]
struct Pair {
    t: u32,
    v: u32,
    start: u32,
    len: u32,
    weight: f64,
    count: f64,
}

struct Built {
    n_rows: u64,
    normalizer: Normalizer,
    has_plausibility: bool,
    names: Vec<Box<str>>,
    vcount: Vec<f64>,
    pairs: Vec<Pair>,
    pair_slots: Vec<u32>,
    str_slots: Vec<u32>,
    trips: Vec<Row>,
    tps: Vec<[u32; 4]>,
    tp_slots: Vec<u32>,
    by_tp: Vec<u32>,
}

/// Writes the payload while hashing it and padding sections to 8 bytes.
struct PayloadWriter<'a, W: Write> {
    inner: &'a mut W,
    hasher: Xxh64,
    len: u64,
}

impl<W: Write> PayloadWriter<'_, W> {
    fn put(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.hasher.update(bytes);
        self.len += bytes.len() as u64;
        self.inner.write_all(bytes)
    }
    fn pad(&mut self) -> io::Result<()> {
        let rem = (8 - self.len % 8) % 8;
        self.put(&[0u8; 8][..rem as usize])
    }
    fn u32s(&mut self, xs: impl IntoIterator<Item = u32>) -> io::Result<()> {
        for x in xs {
            self.put(&x.to_le_bytes())?;
        }
        self.pad()
    }
}

impl Built {
    fn write<W: Write + Seek>(self, w: &mut W) -> io::Result<Header> {
        let start = w.stream_position()?;
        w.write_all(&[0u8; HEADER_LEN])?;
        let blob_len: u64 = self.names.iter().map(|s| s.len() as u64).sum();
        let mut pw = PayloadWriter {
            inner: w,
            hasher: Xxh64::new(),
            len: 0,
        };
        let mut off = 0u64;
        pw.put(&off.to_le_bytes())?;
        for s in &self.names {
            off += s.len() as u64;
            pw.put(&off.to_le_bytes())?;
        }
        pw.pad()?;
        for s in &self.names {
            pw.put(s.as_bytes())?;
        }
        pw.pad()?;
        pw.u32s(self.str_slots.iter().copied())?;
        for c in &self.vcount {
            pw.put(&c.to_le_bytes())?;
        }
        pw.pad()?;
        for p in &self.pairs {
            let mut rec = [0u8; 32];
            rec[0..4].copy_from_slice(&p.t.to_le_bytes());
            rec[4..8].copy_from_slice(&p.v.to_le_bytes());
            rec[8..12].copy_from_slice(&p.start.to_le_bytes());
            rec[12..16].copy_from_slice(&p.len.to_le_bytes());
            rec[16..24].copy_from_slice(&p.weight.to_le_bytes());
            rec[24..32].copy_from_slice(&p.count.to_le_bytes());
            pw.put(&rec)?;
        }
        pw.pad()?;
        pw.u32s(self.pair_slots.iter().copied())?;
        for r in &self.trips {
            let mut rec = [0u8; 24];
            rec[0..4].copy_from_slice(&r.p.to_le_bytes());
            rec[4..8].copy_from_slice(&r.v.to_le_bytes());
            rec[8..16].copy_from_slice(&r.count.to_le_bytes());
            rec[16..24].copy_from_slice(&r.weight.to_le_bytes());
            pw.put(&rec)?;
        }
        pw.pad()?;
        pw.u32s(self.tps.iter().flatten().copied())?;
        pw.u32s(self.tp_slots.iter().copied())?;
        pw.u32s(self.by_tp.iter().copied())?;
        let header = Header {
            version: FORMAT_VERSION,
            flags: if self.has_plausibility {
                FLAG_PLAUSIBILITY
            } else {
                0
            },
            normalizer: self.normalizer.code(),
            payload_len: pw.len,
            checksum: pw.hasher.digest(),
            n_strings: self.names.len() as u64,
            blob_len,
            n_triplets: self.trips.len() as u64,
            n_pairs: self.pairs.len() as u64,
            n_tp: self.tps.len() as u64,
            n_rows: self.n_rows,
        };
        let end = w.stream_position()?;
        w.seek(SeekFrom::Start(start))?;
        w.write_all(&header.encode())?;
        w.seek(SeekFrom::Start(end))?;
        w.flush()?;
        Ok(header)
    }
}

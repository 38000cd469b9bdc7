//! Resampled column sums in integer arithmetic, for statistics tables where that is exactly
//! what NumPy's `float32` sums give.
//!
//! sacreBLEU sums each resample's rows in `float32` (`stats_np[idx].sum(0)`: row by row, or
//! pairwise for a single column). When every statistic is a non-negative integer and no column
//! can reach more than 2^24 in any resample (its largest value times the number of segments),
//! every partial sum, in any order, is an integer that `float32` holds exactly: each of NumPy's
//! additions is then exact and its result is the integer sum, whatever the summation order.
//! BLEU and chrF counts of any realistic corpus qualify. Such tables are packed as `u16`, the
//! rows of all the tables resampled with the same indices side by side (one gather serves the
//! baseline and every system), and summed into `u32` lanes; other tables keep the `float32`
//! emulation.

use super::Table;

/// Lanes per block: a row is padded to whole blocks so that the sums run on fixed-size arrays.
const LANES: usize = 16;

/// Largest integer up to which every `float32` partial sum is exact.
const EXACT_F32: f64 = 16_777_216.0;

/// The rows of several tables of the same segments, side by side, as `u16`.
#[derive(Debug)]
pub(super) struct Packed {
    /// Padded row width (a multiple of [`LANES`]).
    width: usize,
    data: Vec<u16>,
    /// Per table: its first column in a packed row, and its width.
    columns: Vec<(usize, usize)>,
}

impl Packed {
    /// Packs `tables` (equal numbers of segments), or `None` where the integer sums would not
    /// equal NumPy's `float32` sums (a fractional, negative or too large statistic).
    pub(super) fn new(tables: &[&Table]) -> Option<Self> {
        let n_seg = tables.first()?.n_seg;
        let mut columns = Vec::with_capacity(tables.len());
        let mut used = 0;
        for t in tables {
            if t.n_seg != n_seg {
                return None;
            }
            for j in 0..t.width {
                let mut max = 0.0f64;
                for i in 0..n_seg {
                    let v = t.data[i * t.width + j];
                    if v.is_nan() || v < 0.0 || v > f64::from(u16::MAX) || v.fract() != 0.0 {
                        return None;
                    }
                    max = max.max(v);
                }
                if max * n_seg as f64 > EXACT_F32 {
                    return None;
                }
            }
            columns.push((used, t.width));
            used += t.width;
        }
        let width = used.div_ceil(LANES) * LANES;
        let mut data = vec![0u16; width * n_seg];
        for (t, &(start, w)) in tables.iter().zip(&columns) {
            for i in 0..n_seg {
                let src = &t.data[i * w..(i + 1) * w];
                let dst = &mut data[i * width + start..i * width + start + w];
                // Checked above: integers in `0..=u16::MAX`.
                dst.iter_mut().zip(src).for_each(|(d, &v)| *d = v as u16);
            }
        }
        Some(Self {
            width,
            data,
            columns,
        })
    }

    /// Number of tables packed.
    pub(super) fn tables(&self) -> usize {
        self.columns.len()
    }

    /// The sums of the rows `idx` of every table into `acc` (the padded width), exact.
    pub(super) fn sums(&self, idx: &[u32], acc: &mut Vec<u32>) {
        acc.clear();
        acc.resize(self.width, 0);
        match self.width {
            16 => self.sums_fixed::<16>(idx, acc),
            32 => self.sums_fixed::<32>(idx, acc),
            48 => self.sums_fixed::<48>(idx, acc),
            64 => self.sums_fixed::<64>(idx, acc),
            _ => {
                for &i in idx {
                    let start = i as usize * self.width;
                    let row = &self.data[start..start + self.width];
                    acc.iter_mut()
                        .zip(row)
                        .for_each(|(a, &v)| *a += u32::from(v));
                }
            }
        }
    }

    /// [`Self::sums`] for a row width known at compile time: the accumulators stay in
    /// registers and each row is a few vector additions.
    fn sums_fixed<const W: usize>(&self, idx: &[u32], out: &mut [u32]) {
        let mut acc = [0u32; W];
        for &i in idx {
            let row = &self.data[i as usize * W..][..W];
            acc.iter_mut()
                .zip(row)
                .for_each(|(a, &v)| *a += u32::from(v));
        }
        out[..W].copy_from_slice(&acc);
    }

    /// Table `t`'s sums (from [`Self::sums`]'s `acc`) as the `float32` values NumPy holds.
    pub(super) fn table_sums(&self, t: usize, acc: &[u32], out: &mut Vec<f32>) {
        let (start, w) = self.columns[t];
        out.clear();
        // Below 2^24: exact in `f32`.
        out.extend(acc[start..start + w].iter().map(|&v| v as f32));
    }
}

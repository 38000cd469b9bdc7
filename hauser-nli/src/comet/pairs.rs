//! The estimator's feature rows built and scored a block at a time, and the scores of every
//! (hypothesis, pseudo-reference) pair of a group of candidates, for minimum-Bayes-risk
//! reranking.
//!
//! A group of `n` candidates has `n (n - 1)` pairs. Building all their feature rows at once
//! took `n (n - 1) * 6 * hidden` floats: 3 GB for 2,000 candidates of a 32-wide encoder, about
//! 25 GB for 1,000 of a 1024-wide one. Here each distinct sentence is embedded once and the rows
//! are built [`ESTIMATE_ROWS`] at a time, so memory is the embeddings plus one block; the
//! estimator scores each row on its own (a row's score does not depend on the other rows of its
//! block, tested), so the scores are those of one call over every row.

use super::{CometModel, CometSegment};
use crate::error::Result;

/// Feature rows per estimator call.
pub(super) const ESTIMATE_ROWS: usize = 1024;

/// The embeddings one feature row is made of: hypothesis, reference (for the regression
/// class) and source.
pub(super) type RowParts<'e> = (&'e [f32], Option<&'e [f32]>, &'e [f32]);

/// Appends COMET's feature row for hypothesis `m`, reference `r` and source `s`:
/// `[m, r, m*r, |m-r|, m*s, |m-s|]` with a reference, `[m, s, m*s, |m-s|]` without.
fn push_row(out: &mut Vec<f32>, (m, r, s): RowParts<'_>) {
    out.extend_from_slice(m);
    match r {
        Some(r) => {
            out.extend_from_slice(r);
            out.extend(m.iter().zip(r).map(|(a, b)| a * b));
            out.extend(m.iter().zip(r).map(|(a, b)| (a - b).abs()));
        }
        None => out.extend_from_slice(s),
    }
    out.extend(m.iter().zip(s).map(|(a, b)| a * b));
    out.extend(m.iter().zip(s).map(|(a, b)| (a - b).abs()));
}

/// The row ranges the estimator is called on: blocks of [`ESTIMATE_ROWS`], the remainder
/// joined to the last full block when it is under half a block. A row's score depends on its
/// own features only as long as its call is not tiny (a call of one row takes gemm's
/// matrix-vector path, whose sums are ordered differently), so no call of a large input is
/// left with a handful of rows: any input of fewer than `ESTIMATE_ROWS` rows is one call, as
/// before blocks, and every call of a larger one has at least half a block.
fn blocks(rows: usize) -> impl Iterator<Item = std::ops::Range<usize>> {
    let full = (rows / ESTIMATE_ROWS).max(1);
    let full = if rows % ESTIMATE_ROWS >= ESTIMATE_ROWS / 2 && rows > ESTIMATE_ROWS {
        full + 1
    } else {
        full
    };
    (0..full).map(move |b| {
        let start = b * ESTIMATE_ROWS;
        let end = if b + 1 == full {
            rows
        } else {
            start + ESTIMATE_ROWS
        };
        start..end
    })
}

impl CometModel {
    /// The estimator's scores of `rows` feature rows, row `i` made of `row(i)`, built and
    /// scored a block at a time (see [`blocks`]); `visit(start, scores)` receives each
    /// block's scores, the first being row `start`'s.
    pub(super) fn estimate_rows<'e>(
        &self,
        rows: usize,
        row: impl Fn(usize) -> RowParts<'e>,
        visit: &mut dyn FnMut(usize, Vec<f32>) -> Result<()>,
    ) -> Result<()> {
        let mut features = Vec::new();
        for range in blocks(rows) {
            features.clear();
            for i in range.clone() {
                push_row(&mut features, row(i));
            }
            let scores = self.estimate(std::mem::take(&mut features), range.len())?;
            visit(range.start, scores)?;
        }
        Ok(())
    }

    /// The scores of every pair of `cands` (hypothesis `cands[j]`, reference `cands[k]`,
    /// `k != j`, with source `src`), handed to `visit(j, scores)` hypothesis by hypothesis,
    /// `scores` in the order of `k`: the scores [`Self::score`] gives those pairs in one call.
    /// The estimator classes embed each distinct sentence once for the whole group and score
    /// the pairs a block of rows at a time; the unified classes, which encode a pair as one
    /// sequence, take one hypothesis's pairs per call. Memory is bounded by the group's
    /// sentences and one block, never by all `n (n - 1)` pairs. `src`: `None` scores the
    /// estimator classes with an empty source (COMET-w) and the unified ones without a
    /// source, as [`Self::predict`] takes it.
    ///
    /// # Errors
    /// As [`Self::score`] and [`Self::predict`], and whatever `visit` returns.
    pub fn score_pairs(
        &self,
        src: Option<&str>,
        cands: &[&str],
        visit: &mut dyn FnMut(usize, &[f32]) -> Result<()>,
    ) -> Result<()> {
        let n = cands.len();
        if n < 2 {
            return Ok(());
        }
        let others = |j: usize| (0..n).filter(move |&k| k != j);
        if self.hparams.class.is_unified() {
            for j in 0..n {
                let segments: Vec<CometSegment<'_>> = others(j)
                    .map(|k| CometSegment {
                        src,
                        mt: cands[j],
                        reference: Some(cands[k]),
                    })
                    .collect();
                let scores: Vec<f32> = self
                    .predict(&segments)?
                    .into_iter()
                    .map(|p| p.score)
                    .collect();
                visit(j, &scores)?;
            }
            return Ok(());
        }
        let src = src.unwrap_or("");
        let with_ref = !self.is_referenceless();
        let mut texts: Vec<&str> = vec![src];
        let mut index = std::collections::HashMap::from([(src, 0)]);
        for c in cands {
            if !index.contains_key(c) {
                index.insert(*c, texts.len());
                texts.push(c);
            }
        }
        let emb = self.sentence_embeddings(&texts)?;
        let at = |c: &str| emb[index[c]].as_slice();
        // Pair `p` is hypothesis `p / (n - 1)` against its `p % (n - 1)`-th other candidate.
        let pair = |p: usize| {
            let (j, i) = (p / (n - 1), p % (n - 1));
            (j, if i < j { i } else { i + 1 })
        };
        let mut pending: Vec<f32> = Vec::with_capacity(n - 1);
        let mut j = 0;
        self.estimate_rows(
            n * (n - 1),
            |p| {
                let (j, k) = pair(p);
                (at(cands[j]), with_ref.then(|| at(cands[k])), at(src))
            },
            &mut |_, scores| {
                for s in scores {
                    pending.push(s);
                    if pending.len() == n - 1 {
                        visit(j, &pending)?;
                        pending.clear();
                        j += 1;
                    }
                }
                Ok(())
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_cover_every_row_once_and_leave_no_small_call() {
        for rows in [0, 1, 2, 511, 1023, 1024, 1025, 1535, 1536, 1537, 2048, 5000] {
            let b: Vec<_> = blocks(rows).collect();
            assert_eq!(b.first().map_or(0, |r| r.start), 0);
            assert_eq!(b.last().map_or(0, |r| r.end), rows);
            assert!(b.windows(2).all(|w| w[0].end == w[1].start), "{rows}");
            if rows >= ESTIMATE_ROWS {
                assert!(
                    b.iter().all(|r| r.len() >= ESTIMATE_ROWS / 2),
                    "{rows}: {b:?}"
                );
            } else {
                assert_eq!(b.len(), 1);
            }
        }
    }

    /// Blocks of rows give the scores of one call over every row (what `score` did before
    /// blocks), bit for bit, on the tiny regression fixture with rows of random features.
    #[test]
    fn blocked_scores_are_those_of_one_call() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/comet/regression");
        let m = CometModel::load(&dir, &crate::LoadOptions::default()).expect("fixture");
        let h = m.encoder.config.hidden_size;
        // Deterministic pseudo-random embeddings (a linear congruential sequence).
        let mut x = 12345u64;
        let mut next = || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 40) as f32 / (1u64 << 24) as f32 - 0.5
        };
        let emb: Vec<Vec<f32>> = (0..64).map(|_| (0..h).map(|_| next()).collect()).collect();
        for rows in [3, 1500, 2600] {
            let row = |i: usize| -> RowParts<'_> {
                (
                    &emb[i % 64],
                    Some(&emb[(i * 7 + 3) % 64]),
                    &emb[(i / 5) % 64],
                )
            };
            let mut blocked = Vec::new();
            m.estimate_rows(rows, row, &mut |_, s| {
                blocked.extend(s);
                Ok(())
            })
            .expect("blocks");
            let mut all = Vec::new();
            for i in 0..rows {
                push_row(&mut all, row(i));
            }
            let one = m.estimate(all, rows).expect("one call");
            assert_eq!(
                blocked.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                one.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                "{rows} rows"
            );
        }
    }
}

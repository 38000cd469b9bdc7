//! Dynamic batching: group inputs by length, pad to the batch maximum, restore input order.

/// How inputs are grouped into batches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Batching {
    /// Inputs per forward pass (candle's padded path); the packed CPU kernels take
    /// `batch_size * 64` tokens per pass instead (see [`Batching::packed_plan`]).
    pub batch_size: usize,
    /// Sort by length before batching (padding only to similar lengths); `false` batches in
    /// input order (naive padding), kept for benchmarks. Candle's padded path only: the packed
    /// kernels do not pad, so order does not change their work.
    pub bucketed: bool,
}

impl Default for Batching {
    fn default() -> Self {
        Self {
            batch_size: 32,
            bucketed: true,
        }
    }
}

impl Batching {
    /// Batches of input indices. Sorting is stable (longest first, ties in input order), so
    /// the plan, and with it every number, is deterministic.
    pub fn plan(&self, lengths: &[usize]) -> Vec<Vec<usize>> {
        let mut order: Vec<usize> = (0..lengths.len()).collect();
        if self.bucketed {
            order.sort_by_key(|&i| std::cmp::Reverse(lengths[i]));
        }
        order
            .chunks(self.batch_size.max(1))
            .map(<[usize]>::to_vec)
            .collect()
    }
}

/// Tokens per packed batch for each unit of `batch_size` (32 inputs -> 2,048 tokens).
pub(crate) const PACKED_TOKENS_PER_INPUT: usize = 64;

impl Batching {
    /// Batches for the packed CPU kernels, which do not pad: consecutive inputs in input order
    /// until the batch holds `batch_size * 64` tokens, so every matrix product has about the
    /// same, large number of rows (sorting by length would only make short-input batches
    /// small). A batch always holds at least one input.
    pub fn packed_plan(&self, lengths: &[usize]) -> Vec<Vec<usize>> {
        let budget = self
            .batch_size
            .max(1)
            .saturating_mul(PACKED_TOKENS_PER_INPUT);
        let mut plan = Vec::new();
        let mut batch = Vec::new();
        let mut tokens = 0;
        for (i, &n) in lengths.iter().enumerate() {
            if !batch.is_empty() && tokens + n > budget {
                plan.push(std::mem::take(&mut batch));
                tokens = 0;
            }
            batch.push(i);
            tokens += n;
        }
        if !batch.is_empty() {
            plan.push(batch);
        }
        plan
    }
}

impl Batching {
    /// Runs `run` on every batch of [`Self::packed_plan`] in parallel on rayon's threads, each
    /// batch single-threaded, so results do not depend on the thread count; returns the
    /// per-input results in input order. `run`'s errors are named with `model`.
    pub(crate) fn par_packed<T: Send>(
        &self,
        lengths: &[usize],
        model: &str,
        run: impl Fn(&[usize]) -> std::result::Result<Vec<T>, crate::cpu_kernels::PackedError>
            + Sync
            + Send,
    ) -> crate::error::Result<Vec<T>> {
        use rayon::prelude::*;
        let results: Vec<_> = self
            .packed_plan(lengths)
            .into_par_iter()
            .map(|idx| run(&idx).map(|rows| (idx, rows)))
            .collect();
        // The first failing batch in input order, so the error does not depend on scheduling.
        let batches = results
            .into_iter()
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|e| e.into_nli(model))?;
        Ok(scatter(lengths.len(), batches))
    }
}

/// Puts per-batch results back in input order.
pub(crate) fn scatter<T>(n: usize, batches: Vec<(Vec<usize>, Vec<T>)>) -> Vec<T> {
    let mut slots: Vec<Option<T>> = (0..n).map(|_| None).collect();
    for (idx, vals) in batches {
        for (i, v) in idx.into_iter().zip(vals) {
            slots[i] = Some(v);
        }
    }
    slots.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucketed_plan_sorts_longest_first_and_scatter_restores_order() {
        let b = Batching {
            batch_size: 2,
            bucketed: true,
        };
        let plan = b.plan(&[3, 9, 1, 9, 5]);
        assert_eq!(plan, vec![vec![1, 3], vec![4, 0], vec![2]]);
        let results: Vec<_> = plan
            .iter()
            .map(|idx| (idx.clone(), idx.iter().map(|i| i * 10).collect()))
            .collect();
        assert_eq!(scatter(5, results), vec![0, 10, 20, 30, 40]);
        let naive = Batching {
            batch_size: 2,
            bucketed: false,
        };
        assert_eq!(naive.plan(&[3, 9, 1]), vec![vec![0, 1], vec![2]]);
    }

    #[test]
    fn packed_plan_fills_token_budgets_in_input_order() {
        // batch_size 1 -> 64 tokens per batch.
        let b = Batching {
            batch_size: 1,
            bucketed: true,
        };
        let plan = b.packed_plan(&[30, 30, 5, 100, 64, 1, 63]);
        assert_eq!(
            plan,
            vec![vec![0, 1], vec![2], vec![3], vec![4], vec![5, 6]]
        );
        assert!(b.packed_plan(&[]).is_empty());
    }
}

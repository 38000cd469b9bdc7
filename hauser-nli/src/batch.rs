//! Dynamic batching: group inputs by length, pad to the batch maximum, restore input order.

/// How inputs are grouped into batches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Batching {
    /// Inputs per forward pass (candle's padded path); the packed CPU kernels take at most
    /// about `batch_size * 64` tokens per pass instead (see [`Batching::packed_plan_for`]).
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

/// Batches each thread should get when a run is short, so that rayon's work stealing evens
/// out what is left when one thread finishes first.
const BATCHES_PER_THREAD: usize = 4;

/// Tokens below which a batch is not split further for balance: smaller products lose more to
/// the kernel's edges than an idle thread costs.
const MIN_BALANCED_TOKENS: usize = 512;

impl Batching {
    /// Batches for the packed CPU kernels on rayon's current thread count (see
    /// [`Self::packed_plan_for`]).
    pub fn packed_plan(&self, lengths: &[usize]) -> Vec<Vec<usize>> {
        self.packed_plan_for(lengths, rayon::current_num_threads())
    }

    /// Batches for the packed CPU kernels, which do not pad: consecutive inputs in input order,
    /// cut into batches of about the same number of tokens, at most about `batch_size * 64`
    /// each, so that every matrix product has about the same, large number of rows (sorting by
    /// length would only make short-input batches small). The number of batches is a multiple
    /// of `threads` and, when the input holds enough tokens (512 a batch), at least four per
    /// thread: a short run of four 2,048-token batches on two threads otherwise left one thread
    /// idle for most of its last batch. A batch always holds at least one input.
    ///
    /// The plan depends on the thread count, the results do not: every kernel computes a
    /// token's values in the same order whatever else its batch holds (tested on every packed
    /// architecture against plans of other sizes and thread counts).
    pub fn packed_plan_for(&self, lengths: &[usize], threads: usize) -> Vec<Vec<usize>> {
        if lengths.is_empty() {
            return Vec::new();
        }
        let budget = self
            .batch_size
            .max(1)
            .saturating_mul(PACKED_TOKENS_PER_INPUT);
        let threads = threads.max(1);
        let total: usize = lengths.iter().sum();
        let by_budget = total.div_ceil(budget).max(1);
        let for_balance = threads
            .saturating_mul(BATCHES_PER_THREAD)
            .min(total / MIN_BALANCED_TOKENS)
            .max(1);
        let wanted = by_budget
            .max(for_balance)
            .div_ceil(threads)
            .saturating_mul(threads)
            .min(lengths.len());
        // Input i goes to the batch its middle token falls in when the run's tokens are cut
        // into `wanted` equal shares; the cut is monotone, so batches stay in input order.
        let mut plan: Vec<Vec<usize>> = Vec::new();
        let mut before = 0u128;
        let mut current = None;
        for (i, &n) in lengths.iter().enumerate() {
            let middle = 2 * before + n as u128;
            let slot = if total == 0 {
                0
            } else {
                (middle * wanted as u128 / (2 * total as u128)) as usize
            };
            if current != Some(slot) {
                plan.push(Vec::new());
                current = Some(slot);
            }
            if let Some(batch) = plan.last_mut() {
                batch.push(i);
            }
            before += n as u128;
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

impl Batching {
    /// Runs `run` on every batch of [`Self::plan`] (candle's padded path) in turn and returns
    /// the per-input results in input order. A batch the device has no memory for
    /// ([`NliError::is_out_of_memory`]) is split in two halves, each run in turn (and split
    /// again while it does not fit), so that a batch size too large for the card slows a run
    /// down instead of ending it; one input that does not fit alone is the error. Splitting
    /// only changes how much a batch is padded, which does not change a sequence's result
    /// beyond floating-point rounding.
    pub(crate) fn run_padded<T>(
        &self,
        lengths: &[usize],
        mut run: impl FnMut(&[usize]) -> crate::error::Result<Vec<T>>,
    ) -> crate::error::Result<Vec<T>> {
        let mut out = Vec::new();
        for idx in self.plan(lengths) {
            let mut pending = vec![idx];
            while let Some(idx) = pending.pop() {
                match run(&idx) {
                    Ok(rows) => out.push((idx, rows)),
                    Err(e) if idx.len() > 1 && e.is_out_of_memory() => {
                        let (left, right) = idx.split_at(idx.len() / 2);
                        pending.push(right.to_vec());
                        pending.push(left.to_vec());
                    }
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(scatter(lengths.len(), out))
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
    use crate::error::NliError;

    fn oom() -> NliError {
        // What candle's CUDA backend reports when an allocation fails (cudarc's DriverError).
        NliError::Inference {
            model: "m".into(),
            message: "DriverError(CUDA_ERROR_OUT_OF_MEMORY, \"out of memory\")".into(),
        }
    }

    #[test]
    fn a_batch_that_does_not_fit_is_split_and_retried_in_input_order() {
        let b = Batching {
            batch_size: 8,
            bucketed: true,
        };
        let lengths = [3, 9, 1, 9, 5, 2, 7, 4, 6, 8, 1];
        let mut sizes = Vec::new();
        // Batches of more than 3 inputs "do not fit": every input still gets its own result.
        let got = b
            .run_padded(&lengths, |idx| {
                sizes.push(idx.len());
                if idx.len() > 3 {
                    return Err(oom());
                }
                Ok(idx.iter().map(|&i| lengths[i] * 10 + i).collect())
            })
            .unwrap();
        let want: Vec<usize> = (0..lengths.len()).map(|i| lengths[i] * 10 + i).collect();
        assert_eq!(got, want);
        // 8 -> 4 + 4 -> 2 + 2 + 2 + 2, then the last batch of 3 fits.
        assert_eq!(sizes, vec![8, 4, 2, 2, 4, 2, 2, 3]);
    }

    #[test]
    fn one_input_that_does_not_fit_and_other_errors_are_returned() {
        let b = Batching {
            batch_size: 4,
            bucketed: false,
        };
        let err = b
            .run_padded(&[1, 2, 3], |_| Err::<Vec<u8>, _>(oom()))
            .unwrap_err();
        assert!(err.is_out_of_memory(), "{err}");
        let mut calls = 0;
        let err = b
            .run_padded(&[1, 2, 3], |_| {
                calls += 1;
                Err::<Vec<u8>, _>(NliError::Inference {
                    model: "m".into(),
                    message: "shape mismatch".into(),
                })
            })
            .unwrap_err();
        assert!(!err.is_out_of_memory());
        assert_eq!(calls, 1, "only a lack of memory is retried");
    }

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
    fn packed_plan_cuts_equal_token_shares_in_input_order() {
        // batch_size 1 -> about 64 tokens per batch: 293 tokens cut into 5 equal shares, each
        // input in the share of its middle token (the 100-token one leaves a share empty).
        let b = Batching {
            batch_size: 1,
            bucketed: true,
        };
        let lengths = [30, 30, 5, 100, 64, 1, 63];
        assert_eq!(
            b.packed_plan_for(&lengths, 1),
            vec![vec![0, 1], vec![2, 3], vec![4, 5], vec![6]]
        );
        for threads in [1, 2, 3, 8] {
            let plan = b.packed_plan_for(&lengths, threads);
            let flat: Vec<usize> = plan.concat();
            assert_eq!(flat, (0..lengths.len()).collect::<Vec<_>>(), "{threads}");
            assert!(plan.iter().all(|p| !p.is_empty()));
        }
        // A short run is cut into four batches per thread once it has 512 tokens a batch.
        let short = vec![50; 100];
        let b32 = Batching {
            batch_size: 32,
            bucketed: true,
        };
        assert_eq!(b32.packed_plan_for(&short, 1).len(), 4);
        let two = b32.packed_plan_for(&short, 2);
        assert_eq!(two.len(), 8);
        assert!(two.iter().all(|p| p.len() == 12 || p.len() == 13));
        // A long run keeps the budget (2,048 tokens here), rounded to a multiple of threads.
        let long = vec![50; 1000];
        assert_eq!(b32.packed_plan_for(&long, 2).len(), 26);
        assert!(b.packed_plan_for(&[], 2).is_empty());
        assert_eq!(b.packed_plan_for(&[0, 0], 2), vec![vec![0, 1]]);
    }
}

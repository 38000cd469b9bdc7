//! Hidden states of one layer for many inputs, as plain rows: the packed CPU kernels when the
//! model has them, else candle's padded forward pass.

use candle_core::Tensor;

use crate::cpu_kernels::all_finite;
use crate::error::{infer_err, NliError, Result};
use crate::model::TransformerModel;
use crate::models::bert::packed::SeqRef;
use crate::tokenize::Encoded;

/// What [`TransformerModel::fold_layers`] calls per input and layer: `(layer, rows, acc)`.
pub(crate) type LayerFold<'a> = dyn Fn(usize, &[f32], &mut [f32]) + Sync + 'a;

impl TransformerModel {
    /// Hidden states of layer `layer` (an index into [`Self::exposed_layers`]) for every
    /// input, in input order: `ids.len() * hidden` row-major values each. Batches follow the
    /// batching plan; packed batches run in parallel on rayon's threads.
    ///
    /// Non-finite values in the real (unpadded) tokens of a layer up to `layer` are
    /// [`NliError::NonFinite`] naming the first such layer.
    ///
    /// With `first_only` the caller reads only each input's first row (`hidden` values): the
    /// packed kernels may then compute little else of layer `layer` and return that row
    /// alone (see `PackedEncoder::forward_visit`); candle's path returns every row.
    pub(crate) fn layer_rows(
        &self,
        encs: &[Encoded],
        layer: usize,
        first_only: bool,
    ) -> Result<Vec<Vec<f32>>> {
        let name = self.source.name();
        let lengths: Vec<usize> = encs.iter().map(|x| x.ids.len()).collect();
        if let Some(packed) = self.engines.packed() {
            return self.batching.par_packed(&lengths, &name, |idx| {
                let seqs: Vec<SeqRef<'_>> = idx
                    .iter()
                    .map(|&i| SeqRef {
                        ids: &encs[i].ids,
                        type_ids: &encs[i].type_ids,
                    })
                    .collect();
                let lead = first_only.then(|| vec![1; idx.len()]);
                packed.forward(&seqs, layer, lead.as_deref())
            });
        }
        let e = infer_err(&name);
        self.batching.run_padded(&lengths, |idx| {
            let batch: Vec<&Encoded> = idx.iter().map(|&i| &encs[i]).collect();
            let states = self.forward(&batch)?;
            let all: Vec<Vec<Vec<f32>>> = states[layer]
                .to_dtype(candle_core::DType::F32)
                .and_then(|t| t.to_vec3())
                .map_err(&e)?;
            let rows: Vec<Vec<f32>> = all
                .into_iter()
                .zip(idx)
                .map(|(s, &i)| s.into_iter().take(lengths[i]).flatten().collect())
                .collect();
            if !rows.iter().all(|r| all_finite(r)) {
                let lens: Vec<usize> = idx.iter().map(|&i| lengths[i]).collect();
                return Err(self.non_finite(&states, layer, &lens));
            }
            Ok(rows)
        })
    }

    /// For every input, in input order: `fold(layer, rows, acc)` called on its hidden states
    /// of each layer `0..=upto` in turn (`rows` is `ids.len() * hidden` values, `acc` is
    /// `acc_len(i)` values for input `i` that start at zero and are returned). Only one layer
    /// of a batch is held at a time on the packed path, which is what a scalar mix over all
    /// layers (COMET) needs. With `lead`, `fold` reads only the first `lead[i]` rows of layer
    /// `upto` for input `i`, which may then be all it gets (see `PackedEncoder::forward_visit`;
    /// candle's path gives every row).
    ///
    /// # Errors
    /// As [`Self::layer_rows`].
    pub(crate) fn fold_layers(
        &self,
        encs: &[Encoded],
        upto: usize,
        lead: Option<&[usize]>,
        acc_len: &(dyn Fn(usize) -> usize + Sync),
        fold: &LayerFold<'_>,
    ) -> Result<Vec<Vec<f32>>> {
        let name = self.source.name();
        let lengths: Vec<usize> = encs.iter().map(|x| x.ids.len()).collect();
        let zeros = |idx: &[usize]| -> Vec<Vec<f32>> {
            idx.iter().map(|&i| vec![0f32; acc_len(i)]).collect()
        };
        if let Some(packed) = self.engines.packed() {
            return self.batching.par_packed(&lengths, &name, |idx| {
                let seqs: Vec<SeqRef<'_>> = idx
                    .iter()
                    .map(|&i| SeqRef {
                        ids: &encs[i].ids,
                        type_ids: &encs[i].type_ids,
                    })
                    .collect();
                let mut acc = zeros(idx);
                let lead: Option<Vec<usize>> =
                    lead.map(|lead| idx.iter().map(|&i| lead[i]).collect());
                packed.forward_visit(&seqs, upto, lead.as_deref(), &mut |l, i, rows| {
                    fold(l, rows, &mut acc[i])
                })?;
                Ok(acc)
            });
        }
        let e = infer_err(&name);
        self.batching.run_padded(&lengths, |idx| {
            let batch: Vec<&Encoded> = idx.iter().map(|&i| &encs[i]).collect();
            let states = self.forward(&batch)?;
            let lens: Vec<usize> = idx.iter().map(|&i| lengths[i]).collect();
            let mut acc = zeros(idx);
            for (l, state) in states.iter().enumerate().take(upto + 1) {
                let all: Vec<Vec<Vec<f32>>> = state
                    .to_dtype(candle_core::DType::F32)
                    .and_then(|t| t.to_vec3())
                    .map_err(&e)?;
                for ((seq, &n), a) in all.into_iter().zip(&lens).zip(acc.iter_mut()) {
                    let rows: Vec<f32> = seq.into_iter().take(n).flatten().collect();
                    if !all_finite(&rows) {
                        return Err(self.non_finite(&states, upto, &lens));
                    }
                    fold(l, &rows, a);
                }
            }
            Ok(acc)
        })
    }

    /// The error for a padded batch whose output is not finite: the first of `states[..=upto]`
    /// whose real rows (`lengths` per sequence) are not finite, `None` (after the layers) when
    /// all are. Only runs once something is wrong, so converting every state costs nothing in
    /// a normal run.
    pub(crate) fn non_finite(&self, states: &[Tensor], upto: usize, lengths: &[usize]) -> NliError {
        let name = self.source.name();
        let layer = states.iter().take(upto + 1).position(|t| {
            let Ok(all) = t
                .to_dtype(candle_core::DType::F32)
                .and_then(|t| t.to_vec3::<f32>())
            else {
                return true;
            };
            all.iter()
                .zip(lengths)
                .any(|(seq, &n)| seq.iter().take(n).any(|row| !all_finite(row)))
        });
        NliError::NonFinite { model: name, layer }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Batching, LoadOptions, ModelSource};

    /// The leading rows of the last layer computed alone equal those of the whole layer, bit
    /// for bit, on every packed layout (BERT, RoBERTa, XLM-R, DistilBERT, BLEURT's BERT and
    /// RemBERT layouts, the pre-LayerNorm XLM-R XL one with its last norm), for the first row
    /// and for other counts. Batch plans of several sizes and thread counts give the same rows
    /// as well.
    #[test]
    fn first_rows_alone_equal_the_whole_layer() {
        let texts = [
            "The night was as dark as a cave.",
            "ok",
            "",
            "He ran faster than the wind across the open field, and nobody could catch him.",
            "Unicode: naïve café – ünïcödé!",
        ];
        let inputs: Vec<(&str, Option<&str>)> = texts
            .iter()
            .cycle()
            .take(23)
            .enumerate()
            .map(|(i, t)| (*t, (i % 3 == 0).then_some("a second sentence")))
            .collect();
        let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        for arch in [
            "bert",
            "roberta",
            "xlm-roberta",
            "distilbert",
            "bleurt",
            "bleurt-20",
            "comet-unified/encoder-xl",
        ] {
            let mut rows_of = Vec::new();
            for (batch_size, threads) in [(1, 1), (2, 2), (32, 3)] {
                let opts = LoadOptions {
                    batching: Batching {
                        batch_size,
                        bucketed: true,
                    },
                    ..LoadOptions::default()
                };
                let source = ModelSource::Dir(base.join(arch));
                let (model, _, _) = TransformerModel::load(&source, &opts, "test").expect(arch);
                assert!(model.engines.packed().is_some(), "{arch}: not packed");
                let h = model.config.hidden_size;
                let (encs, _) = model.encode_all(&inputs).expect(arch);
                let last = model.exposed_layers() - 1;
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .expect("pool");
                let (full, first) = pool.install(|| {
                    (
                        model.layer_rows(&encs, last, false).expect(arch),
                        model.layer_rows(&encs, last, true).expect(arch),
                    )
                });
                for (i, (f, o)) in full.iter().zip(&first).enumerate() {
                    assert_eq!(
                        &f[..h.min(f.len())],
                        &o[..h.min(o.len())],
                        "{arch} input {i}"
                    );
                }
                // Leading rows of other counts (XCOMET's word tags read the hypothesis'
                // tokens): each input gets the first `lead[i]` rows of the whole layer.
                let lead: Vec<usize> = (0..encs.len()).map(|i| [1, 2, 3, 7, 40][i % 5]).collect();
                let shown = |i: usize| lead[i].min(encs[i].ids.len()) * h;
                let copy = |l: usize, rows: &[f32], acc: &mut [f32]| {
                    if l == last {
                        acc.copy_from_slice(&rows[..acc.len()]);
                    }
                };
                let leading = pool.install(|| {
                    model
                        .fold_layers(&encs, last, Some(&lead), &shown, &copy)
                        .expect(arch)
                });
                for (i, (f, o)) in full.iter().zip(&leading).enumerate() {
                    assert_eq!(&f[..o.len()], &o[..], "{arch} input {i}, {} rows", lead[i]);
                }
                rows_of.push(first);
            }
            assert!(
                rows_of.windows(2).all(|w| w[0] == w[1]),
                "{arch}: plans differ"
            );
        }
    }
}

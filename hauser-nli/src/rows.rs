//! Hidden states of one layer for many inputs, as plain rows: the packed CPU kernels when the
//! model has them, else candle's padded forward pass.

use rayon::prelude::*;

use crate::batch::scatter;
use crate::error::{infer_err, NliError, Result};
use crate::fast::{PackedEncoder, SeqRef};
use crate::model::TransformerModel;
use crate::tokenize::Encoded;

impl TransformerModel {
    /// Whether f32 CPU inference goes through the packed kernels (BERT-layout encoders, i.e. the
    /// BERT family and DistilBERT, on the CPU; see the crate documentation, "Speed").
    pub fn uses_packed_cpu(&self) -> bool {
        self.packed_encoder().is_some()
    }

    /// Which code runs the encoder, for signatures: `packed-cpu` or `candle`.
    pub fn kernels(&self) -> &'static str {
        if self.uses_packed_cpu() {
            "packed-cpu"
        } else {
            "candle"
        }
    }

    pub(crate) fn packed_encoder(&self) -> Option<&PackedEncoder> {
        self.packed.as_deref().filter(|_| self.use_packed)
    }

    /// Switches the packed CPU kernels on (the default where available) or off (candle's
    /// padded forward pass, e.g. to compare the two); returns [`Self::uses_packed_cpu`].
    /// candle's copy of the weights is built when first needed and dropped when the packed
    /// kernels are switched back on (see [`Self::holds_candle_weights`]).
    pub fn set_packed_cpu(&mut self, on: bool) -> bool {
        self.use_packed = on;
        if on {
            self.release_candle_weights();
        }
        self.uses_packed_cpu()
    }

    /// Hidden states of layer `layer` (an index into [`Self::exposed_layers`]) for every
    /// input, in input order: `ids.len() * hidden` row-major values each. Batches follow the
    /// batching plan; packed batches run in parallel on rayon's threads.
    pub(crate) fn layer_rows(&self, encs: &[Encoded], layer: usize) -> Result<Vec<Vec<f32>>> {
        let name = self.source.name();
        let lengths: Vec<usize> = encs.iter().map(|x| x.ids.len()).collect();
        let batches: Vec<(Vec<usize>, Vec<Vec<f32>>)> = match self.packed_encoder() {
            Some(packed) => {
                self.batching
                    .packed_plan(&lengths)
                    .into_par_iter()
                    .map(|idx| {
                        let seqs: Vec<SeqRef<'_>> = idx
                            .iter()
                            .map(|&i| SeqRef {
                                ids: &encs[i].ids,
                                type_ids: &encs[i].type_ids,
                            })
                            .collect();
                        let rows = packed.forward(&seqs, layer).map_err(|message| {
                            NliError::Inference {
                                model: name.clone(),
                                message,
                            }
                        })?;
                        Ok((idx, rows))
                    })
                    .collect::<Result<Vec<_>>>()?
            }
            None => {
                let e = infer_err(&name);
                let mut out = Vec::new();
                for idx in self.batching.plan(&lengths) {
                    let batch: Vec<&Encoded> = idx.iter().map(|&i| &encs[i]).collect();
                    let (states, _) = self.forward(&batch)?;
                    let all: Vec<Vec<Vec<f32>>> = states[layer]
                        .to_dtype(candle_core::DType::F32)
                        .and_then(|t| t.to_vec3())
                        .map_err(&e)?;
                    let rows = all
                        .into_iter()
                        .zip(&idx)
                        .map(|(s, &i)| s.into_iter().take(lengths[i]).flatten().collect())
                        .collect();
                    out.push((idx, rows));
                }
                out
            }
        };
        Ok(scatter(encs.len(), batches))
    }
}

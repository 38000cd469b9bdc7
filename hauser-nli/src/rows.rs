//! Hidden states of one layer for many inputs, as plain rows: the packed CPU kernels when the
//! model has them, else candle's padded forward pass.

use crate::batch::scatter;
use crate::error::{infer_err, Result};
use crate::model::TransformerModel;
use crate::packed::SeqRef;
use crate::tokenize::Encoded;

impl TransformerModel {
    /// Whether f32 CPU inference goes through the packed kernels (BERT-layout encoders, i.e. the
    /// BERT family and DistilBERT, on the CPU; see the crate documentation, "Speed").
    pub fn uses_packed_cpu(&self) -> bool {
        self.engines.packed().is_some()
    }

    /// Which code runs the encoder, for signatures: `packed-cpu` or `candle`.
    pub fn kernels(&self) -> &'static str {
        self.engines.kernels()
    }

    /// Switches the packed CPU kernels on (the default where available) or off (candle's
    /// padded forward pass, e.g. to compare the two); returns [`Self::uses_packed_cpu`].
    /// candle's copy of the weights is built when first needed and dropped when the packed
    /// kernels are switched back on (see [`Self::holds_candle_weights`]).
    pub fn set_packed_cpu(&mut self, on: bool) -> bool {
        self.engines.set_packed(on)
    }

    /// Hidden states of layer `layer` (an index into [`Self::exposed_layers`]) for every
    /// input, in input order: `ids.len() * hidden` row-major values each. Batches follow the
    /// batching plan; packed batches run in parallel on rayon's threads.
    pub(crate) fn layer_rows(&self, encs: &[Encoded], layer: usize) -> Result<Vec<Vec<f32>>> {
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
                packed.forward(&seqs, layer)
            });
        }
        let e = infer_err(&name);
        let mut out = Vec::new();
        for idx in self.batching.plan(&lengths) {
            let batch: Vec<&Encoded> = idx.iter().map(|&i| &encs[i]).collect();
            let states = self.forward(&batch)?;
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
        Ok(scatter(encs.len(), out))
    }
}

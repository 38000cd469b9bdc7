//! Opening a checkpoint's weights file. Both the loaders (`model`, `lm`) and the lazy candle
//! engine (`engines`) open weights, so this sits below all of them.

use std::path::PathBuf;

use candle_core::{DType, Device};
use candle_nn::VarBuilder;

use crate::error::{NliError, Result};
use crate::source::ModelSource;

/// Where a model's weights are read from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) enum WeightsAt {
    /// The model's own `model.safetensors` or `pytorch_model.bin`.
    #[default]
    Model,
    /// A training checkpoint that holds the encoder among other modules (COMET's PyTorch
    /// Lightning `model.ckpt`): the state dict under `key`, the encoder's tensors under
    /// `prefix`.
    Checkpoint {
        /// The checkpoint file (a `torch.save` zip).
        path: PathBuf,
        /// The dictionary entry holding the tensors (`state_dict`).
        key: &'static str,
        /// The encoder's tensor-name prefix (`encoder.model`).
        prefix: &'static str,
    },
}

/// Opens the weights of `source` as a var builder: `model.safetensors` (memory-mapped),
/// else `pytorch_model.bin`; or the encoder inside a checkpoint (`at`).
pub(crate) fn open_weights(
    source: &ModelSource,
    at: &WeightsAt,
    dtype: DType,
    device: &Device,
) -> Result<(VarBuilder<'static>, PathBuf)> {
    if let WeightsAt::Checkpoint { path, key, prefix } = at {
        let vb = VarBuilder::from_pth_with_state(path, dtype, key, device).map_err(|e| {
            NliError::Weights {
                model: source.name(),
                path: path.clone(),
                message: e.to_string(),
            }
        })?;
        return Ok((vb.pp(*prefix), path.clone()));
    }
    let (path, kind) = source.first_of(&["model.safetensors", "pytorch_model.bin"])?;
    let werr = |e: candle_core::Error| NliError::Weights {
        model: source.name(),
        path: path.clone(),
        message: e.to_string(),
    };
    let vb = if kind == 0 {
        // SAFETY: the file is mapped read-only; like every mmap-based loader (transformers,
        // safetensors) this assumes no other process truncates the file while it is in use.
        #[allow(unsafe_code)]
        unsafe { VarBuilder::from_mmaped_safetensors(std::slice::from_ref(&path), dtype, device) }
            .map_err(werr)?
    } else {
        VarBuilder::from_pth(&path, dtype, device).map_err(werr)?
    };
    Ok((vb, path))
}

/// The var builder narrowed to a base-model prefix, if there is one.
pub(crate) fn narrowed(vb: &VarBuilder<'static>, prefix: Option<&str>) -> VarBuilder<'static> {
    match prefix {
        Some(p) => vb.pp(p),
        None => vb.clone(),
    }
}

//! Opening a checkpoint's weights file. Both the loaders (`model`, `lm`) and the lazy candle
//! engine (`engines`) open weights, so this sits below all of them.

use std::path::PathBuf;

use candle_core::{DType, Device};
use candle_nn::VarBuilder;

use crate::error::{NliError, Result};
use crate::source::ModelSource;

/// Opens the weights of `source` as a var builder: `model.safetensors` (memory-mapped),
/// else `pytorch_model.bin`.
pub(crate) fn open_weights(
    source: &ModelSource,
    dtype: DType,
    device: &Device,
) -> Result<(VarBuilder<'static>, PathBuf)> {
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

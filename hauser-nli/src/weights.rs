//! Opening a checkpoint's weights file. Both the loaders (`model`, `lm`) and the lazy candle
//! engine (`engines`) open weights, so this sits below all of them.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use candle_core::{DType, Device, Shape, Tensor};
use candle_nn::var_builder::SimpleBackend;
use candle_nn::{Init, VarBuilder};

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
        /// The encoder's tensor-name prefix (`encoder.model`; empty for the whole file).
        prefix: &'static str,
    },
}

/// The tensor names of a checkpoint and those a load has read, to refuse a checkpoint with
/// tensors the model does not use (a config that says fewer layers than the weights hold, no
/// segment embeddings where the checkpoint has them...): such a model would run, off-spec.
#[derive(Debug, Clone)]
pub(crate) struct Ledger {
    all: Arc<BTreeSet<String>>,
    used: Arc<Mutex<BTreeSet<String>>>,
}

/// A tensor name pattern the reference ignores too, with the reason (see [`Ledger::check`]).
pub(crate) type KnownUnused = (&'static str, &'static str);

/// Tensors transformers itself ignores when loading any of these models: buffers saved by
/// older versions (its `_keys_to_ignore_on_load_unexpected`), recomputed at run time.
pub(crate) const BUFFERS: &[KnownUnused] = &[
    (
        "*position_ids",
        "a buffer of 0..max_positions, recomputed at run time",
    ),
    (
        "*embeddings.token_type_ids",
        "a buffer of zeros, recomputed at run time",
    ),
];

/// `*` matches any run of characters (dots included); everything else literally.
fn matches(pattern: &str, name: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = name.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() {
            return rest.len() >= part.len() && rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

impl Ledger {
    fn new(all: impl IntoIterator<Item = String>) -> Self {
        Self {
            all: Arc::new(all.into_iter().collect()),
            used: Arc::default(),
        }
    }

    fn mark(&self, name: &str) {
        if let Ok(mut used) = self.used.lock() {
            used.insert(name.to_string());
        }
    }

    /// The tensors under `scope` (a name prefix ending in `.`, or `""` for all) that were not
    /// read and match no `known` pattern (patterns are relative to the whole name).
    pub(crate) fn unused(&self, scope: &str, known: &[KnownUnused]) -> Vec<String> {
        let used = self.used.lock().map(|u| u.clone()).unwrap_or_default();
        self.all
            .iter()
            .filter(|n| n.starts_with(scope) && !used.contains(*n))
            .filter(|n| !known.iter().any(|(p, _)| matches(p, n)))
            .cloned()
            .collect()
    }

    /// Fails naming the tensors under `scope` that the load did not read and no `known`
    /// pattern excuses: every tensor of a checkpoint is used, or the load fails.
    pub(crate) fn check(
        &self,
        model: &str,
        path: &std::path::Path,
        what: &str,
        scope: &str,
        known: &[KnownUnused],
    ) -> Result<()> {
        let unused = self.unused(scope, known);
        if unused.is_empty() {
            return Ok(());
        }
        let shown: Vec<&str> = unused.iter().take(8).map(String::as_str).collect();
        Err(NliError::Weights {
            model: model.to_string(),
            path: path.to_path_buf(),
            message: format!(
                "{} tensor(s) of the checkpoint are not used by the {what} as config.json describes it: {}{} (a config that does not match the weights, e.g. fewer layers, no segment embeddings, or a head of another kind)",
                unused.len(),
                shown.join(", "),
                if unused.len() > shown.len() { ", ..." } else { "" }
            ),
        })
    }
}

impl Ledger {
    /// Counts the tensors `other` read (a second var builder over the same file) as read.
    pub(crate) fn absorb(&self, other: &Ledger) {
        let theirs = other.used.lock().map(|u| u.clone()).unwrap_or_default();
        if let Ok(mut used) = self.used.lock() {
            used.extend(theirs);
        }
    }
}

/// A backend that records the names read through it in a [`Ledger`].
struct Tracked<B> {
    inner: B,
    ledger: Ledger,
}

impl<B: SimpleBackend> SimpleBackend for Tracked<B> {
    fn get(
        &self,
        s: Shape,
        name: &str,
        h: Init,
        dtype: DType,
        dev: &Device,
    ) -> candle_core::Result<Tensor> {
        self.ledger.mark(name);
        self.inner.get(s, name, h, dtype, dev)
    }

    fn get_unchecked(&self, name: &str, dtype: DType, dev: &Device) -> candle_core::Result<Tensor> {
        self.ledger.mark(name);
        self.inner.get_unchecked(name, dtype, dev)
    }

    fn contains_tensor(&self, name: &str) -> bool {
        self.inner.contains_tensor(name)
    }
}

/// Opens the weights of `source` as a var builder: `model.safetensors` (memory-mapped),
/// else `pytorch_model.bin`; or the encoder inside a checkpoint (`at`).
pub(crate) fn open_weights(
    source: &ModelSource,
    at: &WeightsAt,
    dtype: DType,
    device: &Device,
) -> Result<(VarBuilder<'static>, PathBuf)> {
    open_tracked(source, at, dtype, device).map(|(vb, path, _)| (vb, path))
}

/// [`open_weights`] with the [`Ledger`] of the tensors read through the var builder. For a
/// checkpoint (`at`), the ledger holds every tensor of the state dict, full names.
pub(crate) fn open_tracked(
    source: &ModelSource,
    at: &WeightsAt,
    dtype: DType,
    device: &Device,
) -> Result<(VarBuilder<'static>, PathBuf, Ledger)> {
    let (path, kind, key, prefix) = match at {
        WeightsAt::Checkpoint { path, key, prefix } => (
            path.clone(),
            1,
            Some(*key),
            (!prefix.is_empty()).then_some(*prefix),
        ),
        WeightsAt::Model => {
            let (path, kind) = source.first_of(&["model.safetensors", "pytorch_model.bin"])?;
            (path, kind, None, None)
        }
    };
    let werr = |e: candle_core::Error| NliError::Weights {
        model: source.name(),
        path: path.clone(),
        message: e.to_string(),
    };
    let (backend, ledger): (Box<dyn SimpleBackend>, Ledger) = if kind == 0 {
        // SAFETY: the file is mapped read-only; like every mmap-based loader (transformers,
        // safetensors) this assumes no other process truncates the file while it is in use.
        #[allow(unsafe_code)]
        let st =
            unsafe { candle_core::safetensors::MmapedSafetensors::new(&path) }.map_err(werr)?;
        let ledger = Ledger::new(st.tensors().into_iter().map(|(n, _)| n));
        let inner = Tracked {
            inner: st,
            ledger: ledger.clone(),
        };
        (Box::new(inner), ledger)
    } else {
        let pth = candle_core::pickle::PthTensors::new(&path, key).map_err(werr)?;
        let ledger = Ledger::new(pth.tensor_infos().keys().cloned());
        let inner = Tracked {
            inner: pth,
            ledger: ledger.clone(),
        };
        (Box::new(inner), ledger)
    };
    let vb = VarBuilder::from_backend(backend, dtype, device.clone());
    let vb = match prefix {
        Some(p) => vb.pp(p),
        None => vb,
    };
    Ok((vb, path, ledger))
}

/// The var builder narrowed to a base-model prefix, if there is one.
pub(crate) fn narrowed(vb: &VarBuilder<'static>, prefix: Option<&str>) -> VarBuilder<'static> {
    match prefix {
        Some(p) => vb.pp(p),
        None => vb.clone(),
    }
}

//! What the models with packed CPU kernels share: the switch between the packed copy and
//! candle's path, and candle's copy of the weights built only when its path runs, so that a
//! CPU model holds its weights once. [`PackedCpu`] is that switch as the public API shows it,
//! the same on every such model.

use std::path::PathBuf;
use std::sync::OnceLock;

use candle_core::{DType, Device};
use candle_nn::VarBuilder;

use crate::error::{NliError, Result};
use crate::source::ModelSource;
use crate::weights::{narrowed, open_weights, WeightsAt};

/// Where candle's modules are read from when they are needed after loading.
#[derive(Debug, Clone)]
pub(crate) struct WeightsHandle {
    pub source: ModelSource,
    /// The weights file: the model's own, or a checkpoint holding it.
    pub at: WeightsAt,
    pub dtype: DType,
    pub device: Device,
    /// The base-model prefix of the checkpoint's tensor names (`bert`, `transformer`...).
    pub prefix: Option<&'static str>,
}

/// A model's packed copy `P` (f32 on the CPU, where the architecture has one) and candle's
/// modules `C`, the latter built at load only when there is no packed copy.
pub(crate) struct Engines<P, C> {
    packed: Option<Box<P>>,
    use_packed: bool,
    candle: OnceLock<C>,
    weights: WeightsHandle,
}

impl<P, C> Engines<P, C> {
    /// Builds the engines from `base` (the weights narrowed to the prefix): `pack` makes the
    /// packed copy, tried only for f32 on the CPU (`None` where the architecture or its
    /// settings have no packed kernels); `candle` builds candle's modules, now only when there
    /// is no packed copy.
    pub(crate) fn new(
        weights: WeightsHandle,
        base: &VarBuilder<'static>,
        pack: impl FnOnce(&VarBuilder<'static>) -> candle_core::Result<Option<P>>,
        candle: impl FnOnce(&VarBuilder<'static>) -> candle_core::Result<C>,
    ) -> candle_core::Result<Self> {
        let packed = if weights.device.is_cpu() && weights.dtype == DType::F32 {
            pack(base)?
        } else {
            None
        };
        let cell = OnceLock::new();
        if packed.is_none() {
            let _ = cell.set(candle(base)?);
        }
        Ok(Self {
            packed: packed.map(Box::new),
            use_packed: true,
            candle: cell,
            weights,
        })
    }

    /// The dtype the weights are loaded in.
    pub(crate) fn dtype(&self) -> DType {
        self.weights.dtype
    }

    /// The packed copy, when it is in use.
    pub(crate) fn packed(&self) -> Option<&P> {
        self.packed.as_deref().filter(|_| self.use_packed)
    }

    /// Which code runs the model, for signatures: `packed-cpu` or `candle`.
    pub(crate) fn kernels(&self) -> &'static str {
        if self.packed().is_some() {
            "packed-cpu"
        } else {
            "candle"
        }
    }

    /// Switches the packed kernels on or off; switching them on drops candle's copy where the
    /// packed one exists. Returns whether the packed kernels are in use.
    pub(crate) fn set_packed(&mut self, on: bool) -> bool {
        self.use_packed = on;
        if on && self.packed.is_some() {
            self.candle.take();
        }
        self.packed().is_some()
    }

    /// Whether candle's copy of the weights is in memory.
    pub(crate) fn holds_candle(&self) -> bool {
        self.candle.get().is_some()
    }

    /// candle's modules, built from the weights file (opened again) on first use.
    pub(crate) fn candle(
        &self,
        build: impl FnOnce(&VarBuilder<'static>) -> candle_core::Result<C>,
    ) -> Result<&C> {
        if let Some(c) = self.candle.get() {
            return Ok(c);
        }
        let w = &self.weights;
        let (vb, path): (VarBuilder<'static>, PathBuf) =
            open_weights(&w.source, &w.at, w.dtype, &w.device)?;
        let base = narrowed(&vb, w.prefix);
        let built = build(&base).map_err(|e| NliError::Weights {
            model: w.source.name(),
            path,
            message: e.to_string(),
        })?;
        // Two threads may race to build; the loser's copy is dropped.
        Ok(self.candle.get_or_init(|| built))
    }
}

/// The switch between the packed CPU kernels and candle's padded path that every model with
/// packed kernels has ([`TransformerModel`](crate::TransformerModel), which the classifiers,
/// embedders, masked LMs and COMET run on, [`CausalLm`](crate::CausalLm) and
/// [`MetricxModel`](crate::MetricxModel); see the crate documentation, "Speed"). Implemented
/// by this crate's models only.
pub trait PackedCpu: sealed::HasEngines {
    /// Whether f32 CPU inference goes through the packed kernels (the default on the CPU
    /// where the architecture has them: BERT-layout encoders, GPT-2, T5).
    fn uses_packed_cpu(&self) -> bool {
        self.engines().packed_in_use()
    }

    /// Which code runs the model, for signatures: `packed-cpu` or `candle`.
    fn kernels(&self) -> &'static str {
        self.engines().kernels()
    }

    /// Switches the packed CPU kernels on (the default where available) or off (candle's
    /// padded forward pass, e.g. to compare the two); returns [`Self::uses_packed_cpu`].
    /// candle's copy of the weights is built when first needed and dropped when the packed
    /// kernels are switched back on (see [`Self::holds_candle_weights`]).
    fn set_packed_cpu(&mut self, on: bool) -> bool {
        self.engines_mut().set_packed(on)
    }

    /// Whether candle's copy of the weights is in memory. Where the packed CPU kernels run it
    /// is not, until [`Self::set_packed_cpu`]`(false)` asks for candle's path.
    fn holds_candle_weights(&self) -> bool {
        self.engines().holds_candle()
    }
}

impl<T: sealed::HasEngines> PackedCpu for T {}

/// Keeps [`PackedCpu`] to this crate's models: its supertrait cannot be named outside.
pub(crate) mod sealed {
    /// A model's [`Engines`](super::Engines) whatever its packed and candle types.
    pub trait Switch {
        /// Whether the packed copy is in use.
        fn packed_in_use(&self) -> bool;
        /// `packed-cpu` or `candle`.
        fn kernels(&self) -> &'static str;
        /// Switches the packed copy on or off; whether it is in use.
        fn set_packed(&mut self, on: bool) -> bool;
        /// Whether candle's copy is in memory.
        fn holds_candle(&self) -> bool;
    }

    /// A model with packed CPU kernels: its engines.
    pub trait HasEngines {
        /// The model's engines.
        fn engines(&self) -> &dyn Switch;
        /// The model's engines, to switch.
        fn engines_mut(&mut self) -> &mut dyn Switch;
    }
}

impl<P, C> sealed::Switch for Engines<P, C> {
    fn packed_in_use(&self) -> bool {
        self.packed().is_some()
    }

    fn kernels(&self) -> &'static str {
        Engines::kernels(self)
    }

    fn set_packed(&mut self, on: bool) -> bool {
        Engines::set_packed(self, on)
    }

    fn holds_candle(&self) -> bool {
        Engines::holds_candle(self)
    }
}

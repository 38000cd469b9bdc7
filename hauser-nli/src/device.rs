//! Device and precision choice.

use candle_core::{DType, Device};

use crate::error::{NliError, Result};

/// Where inference runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum DeviceSpec {
    /// The CPU (default; the only device CI tests).
    #[default]
    Cpu,
    /// A CUDA GPU by ordinal (needs the `cuda` feature).
    Cuda(usize),
    /// A Metal GPU by ordinal (needs the `metal` feature).
    Metal(usize),
}

/// Floating-point precision of weights and activations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Precision {
    /// 32-bit floats (default; the precision parity is tested in).
    #[default]
    F32,
    /// Half precision, GPU only.
    F16,
    /// bfloat16, GPU only.
    Bf16,
}

impl DeviceSpec {
    /// Parses `cpu`, `cuda`, `cuda:N`, `metal`, `metal:N`.
    pub fn parse(s: &str) -> Option<Self> {
        let (kind, n) = match s.split_once(':') {
            Some((k, n)) => (k, n.parse().ok()?),
            None => (s, 0),
        };
        match kind {
            "cpu" => Some(DeviceSpec::Cpu),
            "cuda" => Some(DeviceSpec::Cuda(n)),
            "metal" => Some(DeviceSpec::Metal(n)),
            _ => None,
        }
    }

    /// Opens the device; `model` names the model in errors.
    ///
    /// # Errors
    /// A GPU device in a build without its feature, or a GPU that cannot be opened.
    pub fn open(self, model: &str, precision: Precision) -> Result<(Device, DType)> {
        let dev = match self {
            DeviceSpec::Cpu => Device::Cpu,
            DeviceSpec::Cuda(n) => Device::new_cuda(n).map_err(|e| NliError::Invalid {
                model: model.into(),
                message: format!("cannot open cuda:{n}: {e}"),
            })?,
            DeviceSpec::Metal(n) => Device::new_metal(n).map_err(|e| NliError::Invalid {
                model: model.into(),
                message: format!("cannot open metal:{n}: {e}"),
            })?,
        };
        let dtype = match precision {
            Precision::F32 => DType::F32,
            Precision::F16 | Precision::Bf16 if dev.is_cpu() => {
                return Err(NliError::Invalid {
                    model: model.into(),
                    message: "f16/bf16 are only supported on a GPU device".into(),
                })
            }
            Precision::F16 => DType::F16,
            Precision::Bf16 => DType::BF16,
        };
        Ok((dev, dtype))
    }
}

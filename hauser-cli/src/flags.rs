//! One parser for each option that several subcommands share, so that the same value is
//! accepted or refused with the same message everywhere: batch sizes, layers, seeds, and the
//! model device and precision, and the floating-point options (NaN, infinities and values
//! outside an option's meaningful range are refused when the command line is parsed, exit 2
//! naming the flag, rather than giving empty or meaningless results).

use clap::Args;

use hauser_nli::{DeviceSpec, LoadOptions, Precision};

use crate::error::CliError;

/// Parses a batch or chunk size: a whole number of at least 1.
///
/// # Errors
/// The message clap prints (exit 2).
pub fn batch_size(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(0) => Err("must be at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("expected a whole number of at least 1, got {s:?}")),
    }
}

/// Parses a count or an order where 0 has a meaning of its own (or is left to the command to
/// refuse): a whole number of at least 0. Numeric flags allow negative numbers on the command
/// line (`allow_negative_numbers`), so that `-1` reaches this parser and is refused as out of
/// range, naming the flag, rather than taken for an unknown flag.
///
/// # Errors
/// The message clap prints (exit 2).
pub fn count(s: &str) -> Result<usize, String> {
    whole(s)
}

/// [`count`] for a 64-bit count (rows to write).
///
/// # Errors
/// The message clap prints (exit 2).
pub fn count_u64(s: &str) -> Result<u64, String> {
    whole(s)
}

fn whole<T: std::str::FromStr>(s: &str) -> Result<T, String> {
    s.trim()
        .parse()
        .map_err(|_| format!("expected a whole number of at least 0, got {s:?}"))
}

/// Batches of `--batch-size` inputs computed between two writes of a streamed per-line output
/// (`classify`, `narratives score|choose`): enough for the CPU kernels to run batches in
/// parallel, few enough that records come out as the run goes. A constant, not the thread
/// count, so that the numbers do not depend on the machine.
pub const STREAM_BATCHES: usize = 16;

/// Parses a hidden-state layer: 0 is the embedding output, 1.. the transformer layers, and a
/// negative number counts from the end (-1 = the last layer), as Python indexing does.
///
/// # Errors
/// The message clap prints (exit 2).
pub fn layer(s: &str) -> Result<isize, String> {
    s.trim()
        .parse::<isize>()
        .map_err(|_| format!("expected a layer number (negative counts from the end), got {s:?}"))
}

/// Parses a random seed: any unsigned 64-bit integer.
///
/// # Errors
/// The message clap prints (exit 2).
pub fn seed(s: &str) -> Result<u64, String> {
    s.trim()
        .parse::<u64>()
        .map_err(|_| format!("expected a whole number from 0 to {}, got {s:?}", u64::MAX))
}

/// Parses a finite number: NaN and infinities are refused.
///
/// # Errors
/// The message clap prints (exit 2).
pub fn finite(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        Ok(_) => Err(format!("expected a finite number, got {s:?}")),
        Err(_) => Err(format!("expected a number, got {s:?}")),
    }
}

/// Parses a confidence level: a number strictly between 0 and 1 (`0.95`).
///
/// # Errors
/// The message clap prints (exit 2).
pub fn confidence(s: &str) -> Result<f64, String> {
    match finite(s)? {
        x if x > 0.0 && x < 1.0 => Ok(x),
        _ => Err(format!(
            "expected a level strictly between 0 and 1 (0.95), got {s:?}"
        )),
    }
}

/// The smallest sampling temperature: logits divided by less overflow f32 (a GPT-2 logit of
/// a few hundred over 1e-40 is infinite, and every draw then fails: empty generations).
/// Below it, sampling is greedy decoding in all but name: use `--greedy`.
pub const MIN_TEMPERATURE: f32 = 1e-6;

/// Parses a sampling temperature: a finite number of at least [`MIN_TEMPERATURE`].
///
/// # Errors
/// The message clap prints (exit 2).
pub fn temperature(s: &str) -> Result<f32, String> {
    let x = finite(s)?;
    if x >= f64::from(MIN_TEMPERATURE) && x <= f64::from(f32::MAX) {
        // In range for f32 by the check above.
        #[allow(clippy::cast_possible_truncation)]
        Ok(x as f32)
    } else {
        Err(format!(
            "expected a temperature of at least {MIN_TEMPERATURE:e} (for greedy decoding use --greedy), got {s:?}"
        ))
    }
}

/// Parses a finite number of at least 0 (weights, smoothing values, similarity thresholds).
///
/// # Errors
/// The message clap prints (exit 2).
pub fn non_negative(s: &str) -> Result<f64, String> {
    match finite(s)? {
        x if x >= 0.0 => Ok(x),
        _ => Err(format!("expected a number of at least 0, got {s:?}")),
    }
}

/// Resolves a layer given on the command line against a model exposing `n` hidden states
/// (embedding output included): negative layers count from the end.
///
/// # Errors
/// [`CliError::Usage`] when the layer is outside the model.
pub fn resolve_layer(layer: isize, n: usize) -> Result<usize, CliError> {
    let n_signed = isize::try_from(n).unwrap_or(isize::MAX);
    let i = if layer < 0 { n_signed + layer } else { layer };
    if (0..n_signed).contains(&i) {
        Ok(i.unsigned_abs())
    } else {
        Err(CliError::Usage(format!(
            "layer {layer} out of range: this model exposes {n} hidden states"
        )))
    }
}

fn device(s: &str) -> Result<DeviceSpec, String> {
    DeviceSpec::parse(s.trim())
        .ok_or_else(|| format!("expected cpu, cuda, cuda:N, metal or metal:N, got {s:?}"))
}

fn precision(s: &str) -> Result<Precision, String> {
    match s.trim() {
        "f32" => Ok(Precision::F32),
        "f16" => Ok(Precision::F16),
        "bf16" => Ok(Precision::Bf16),
        other => Err(format!("expected f32, f16 or bf16, got {other:?}")),
    }
}

/// Where and how the models of a subcommand run; shared by every command that loads one.
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct DeviceArgs {
    /// Device of the models: cpu, cuda or cuda:N, metal or metal:N (GPUs need a build with the `cuda`
    /// or `metal` feature).
    #[arg(long, value_name = "DEVICE", default_value = "cpu", value_parser = device)]
    pub device: DeviceSpec,
    /// Precision of the models: f32, or f16 / bf16 on a GPU.
    #[arg(long, value_name = "PRECISION", default_value = "f32", value_parser = precision)]
    pub precision: Precision,
}

impl DeviceArgs {
    /// Loading options with these settings and `batch_size` inputs per forward pass.
    pub fn load_options(&self, batch_size: usize) -> LoadOptions {
        LoadOptions {
            device: self.device,
            precision: self.precision,
            batching: hauser_nli::Batching {
                batch_size: batch_size.max(1),
                bucketed: true,
            },
            ..LoadOptions::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_parsers() {
        assert_eq!(batch_size("3"), Ok(3));
        assert!(batch_size("0").unwrap_err().contains("at least 1"));
        assert!(batch_size("-1").is_err());
        assert_eq!(layer("-1"), Ok(-1));
        assert!(layer("x").is_err());
        assert_eq!(seed("18446744073709551615"), Ok(u64::MAX));
        assert!(seed("-1").is_err());
        assert_eq!(resolve_layer(-1, 7).unwrap(), 6);
        assert_eq!(resolve_layer(0, 7).unwrap(), 0);
        assert!(resolve_layer(7, 7).is_err());
        assert!(resolve_layer(-8, 7).is_err());
    }

    #[test]
    fn float_parsers_refuse_nan_infinities_and_meaningless_ranges() {
        assert_eq!(confidence("0.95"), Ok(0.95));
        for bad in ["0", "1", "1.5", "-0.1", "nan", "NaN", "inf", "x"] {
            assert!(confidence(bad).is_err(), "{bad}");
        }
        assert_eq!(temperature("0.7"), Ok(0.7));
        assert_eq!(temperature("1e-6"), Ok(1e-6));
        for bad in ["1e-40", "0", "-1", "nan", "inf", "1e39", ""] {
            assert!(temperature(bad).is_err(), "{bad}");
        }
        assert!(temperature("1e-40").unwrap_err().contains("--greedy"));
        assert_eq!(non_negative("0"), Ok(0.0));
        assert_eq!(non_negative("2.5"), Ok(2.5));
        for bad in ["-1", "nan", "-inf", "inf", "1e400"] {
            assert!(non_negative(bad).is_err(), "{bad}");
        }
    }
}

//! The `config.json` of a T5-family checkpoint (`model_type` t5, mt5, umt5), read strictly:
//! a size the model needs and the file lacks is an error naming the key, never a silent
//! default, because transformers' defaults differ between the config classes (T5Config ties
//! the embeddings, MT5Config does not) and a wrong guess would run, off-spec.

use std::path::Path;

use crate::config::MAX_CONFIG_SIZE;
use crate::error::{NliError, Result};

/// The feed-forward block of each layer (`feed_forward_proj`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeedForward {
    /// `relu` (T5 v1.0): `wo(relu(wi x))`.
    Relu,
    /// `gated-gelu` (T5 v1.1, mT5, MetricX): `wo(gelu_new(wi_0 x) * wi_1 x)`, with
    /// transformers' tanh approximation of GELU (`gelu_new`), as it maps `gated-gelu`.
    GatedGelu,
}

impl FeedForward {
    /// The config value.
    pub fn name(self) -> &'static str {
        match self {
            FeedForward::Relu => "relu",
            FeedForward::GatedGelu => "gated-gelu",
        }
    }
}

/// What the encoder-decoder needs of `config.json`; names follow transformers' T5Config.
#[derive(Debug, Clone, PartialEq)]
pub struct T5Config {
    /// `t5`, `mt5` or `umt5`.
    pub model_type: String,
    /// Width of the residual stream (`d_model`).
    pub d_model: usize,
    /// Width of each attention head (`d_kv`; heads x d_kv need not equal d_model).
    pub d_kv: usize,
    /// Feed-forward width (`d_ff`).
    pub d_ff: usize,
    /// Encoder layers (`num_layers`).
    pub num_layers: usize,
    /// Decoder layers (`num_decoder_layers`; `num_layers` when absent, as transformers).
    pub num_decoder_layers: usize,
    /// Attention heads (`num_heads`).
    pub num_heads: usize,
    /// Embedding rows (`vocab_size`).
    pub vocab_size: usize,
    /// Relative-position buckets (`relative_attention_num_buckets`).
    pub num_buckets: usize,
    /// Distance beyond which positions share the last bucket
    /// (`relative_attention_max_distance`; 128 when absent: configs written before
    /// transformers 4.11 lack it and transformers then uses 128).
    pub max_distance: usize,
    /// RMS norm epsilon (`layer_norm_epsilon`).
    pub eps: f64,
    /// `feed_forward_proj`.
    pub feed_forward: FeedForward,
    /// `tie_word_embeddings`: the decoder output is scaled by `d_model ** -0.5` before the
    /// head (and the head is the shared embedding when the checkpoint has no `lm_head`).
    /// Absent: true for `t5` (T5Config's default), false for `mt5` and `umt5`.
    pub tie_word_embeddings: bool,
}

impl T5Config {
    /// Reads `config.json` at `path` (`model` names the checkpoint in errors).
    ///
    /// # Errors
    /// [`NliError::Io`] or [`NliError::Config`]: unreadable JSON, a `model_type` outside the
    /// T5 family, a missing or zero size, an unknown `feed_forward_proj` (named).
    pub fn load(model: &str, path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).map_err(|source| NliError::Io {
            model: model.into(),
            path: path.into(),
            source,
        })?;
        let raw: serde_json::Value = serde_json::from_str(&text).map_err(|e| NliError::Config {
            model: model.into(),
            path: path.into(),
            message: e.to_string(),
        })?;
        Self::from_json(&raw).map_err(|message| NliError::Config {
            model: model.into(),
            path: path.into(),
            message,
        })
    }

    /// [`Self::load`] on parsed JSON; the error names the key.
    pub(crate) fn from_json(raw: &serde_json::Value) -> std::result::Result<Self, String> {
        let model_type = raw
            .get("model_type")
            .and_then(|v| v.as_str())
            .ok_or("no model_type")?
            .to_string();
        if !crate::tokenize::T5_MODEL_TYPES.contains(&model_type.as_str()) {
            return Err(format!(
                "model_type {model_type:?} is not a T5-family model (t5, mt5, umt5)"
            ));
        }
        let size = |key: &str| -> std::result::Result<Option<usize>, String> {
            match raw.get(key) {
                None | Some(serde_json::Value::Null) => Ok(None),
                Some(v) => match v.as_u64().and_then(|n| usize::try_from(n).ok()) {
                    Some(0) => Err(format!("{key} is 0")),
                    Some(n) if n <= MAX_CONFIG_SIZE => Ok(Some(n)),
                    _ => Err(format!("{key} = {v} is not a size this crate can run")),
                },
            }
        };
        let required =
            |key: &str| size(key)?.ok_or_else(|| format!("{key} is missing (a T5 config has it)"));
        let num_layers = required("num_layers")?;
        let feed_forward = match raw.get("feed_forward_proj").and_then(|v| v.as_str()) {
            Some("relu") => FeedForward::Relu,
            Some("gated-gelu") => FeedForward::GatedGelu,
            Some(other) => {
                return Err(format!(
                    "feed_forward_proj {other:?} is not supported (supported: relu, gated-gelu)"
                ))
            }
            None => return Err("feed_forward_proj is missing (relu or gated-gelu)".into()),
        };
        let eps = raw
            .get("layer_norm_epsilon")
            .and_then(serde_json::Value::as_f64)
            .ok_or("layer_norm_epsilon is missing")?;
        if !(eps.is_finite() && eps >= 0.0) {
            return Err(format!(
                "layer_norm_epsilon = {eps} is not a non-negative number"
            ));
        }
        let tie_word_embeddings = match raw.get("tie_word_embeddings") {
            None | Some(serde_json::Value::Null) => model_type == "t5",
            Some(v) => v
                .as_bool()
                .ok_or_else(|| format!("tie_word_embeddings = {v} is not a boolean"))?,
        };
        let cfg = Self {
            d_model: required("d_model")?,
            d_kv: required("d_kv")?,
            d_ff: required("d_ff")?,
            num_layers,
            num_decoder_layers: size("num_decoder_layers")?.unwrap_or(num_layers),
            num_heads: required("num_heads")?,
            vocab_size: required("vocab_size")?,
            num_buckets: required("relative_attention_num_buckets")?,
            max_distance: size("relative_attention_max_distance")?.unwrap_or(128),
            eps,
            feed_forward,
            tie_word_embeddings,
            model_type,
        };
        // Widths multiply into buffer sizes; refuse what would overflow rather than fail late.
        cfg.num_heads
            .checked_mul(cfg.d_kv)
            .filter(|&n| n <= MAX_CONFIG_SIZE)
            .ok_or("num_heads x d_kv is larger than any model this crate can run")?;
        Ok(cfg)
    }
}

/// transformers' `_relative_position_bucket`: the bucket of `relative` = key position -
/// query position. Bidirectional (the encoder): half the buckets for keys after the query;
/// unidirectional (the decoder): keys after the query share bucket 0. Within each half, the
/// first `n/2` distances get a bucket each, the rest logarithmically up to `max_distance`,
/// beyond which they share the last. The logarithm is taken in f32 and truncated toward zero,
/// as torch computes it.
pub(crate) fn relative_position_bucket(
    relative: i64,
    bidirectional: bool,
    num_buckets: usize,
    max_distance: usize,
) -> usize {
    let mut buckets = num_buckets;
    let mut bucket = 0;
    let distance = if bidirectional {
        buckets /= 2;
        if relative > 0 {
            bucket += buckets;
        }
        relative.unsigned_abs()
    } else {
        (-relative.min(0)).unsigned_abs()
    };
    let max_exact = (buckets / 2) as u64;
    if distance < max_exact {
        return bucket + distance as usize;
    }
    // transformers: max_exact + log(d / max_exact) / log(max_distance / max_exact)
    // * (buckets - max_exact), the quotient in f32, the scale a Python float.
    let ratio = (distance as f32 / max_exact as f32).ln();
    let span = ((max_distance as f64) / (max_exact as f64)).ln() as f32;
    let scaled = ratio / span * (buckets as f32 - max_exact as f32);
    // With one bucket per direction (`max_exact` 0) the quotient is not finite and the cast
    // saturates (or gives 0); the sum must not overflow (it panicked in debug builds).
    let large = (max_exact as usize).saturating_add(scaled as usize);
    bucket + large.min(buckets.saturating_sub(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_follow_transformers() {
        // Values of transformers' _relative_position_bucket(32 buckets, max_distance 128).
        let bi = |r| relative_position_bucket(r, true, 32, 128);
        assert_eq!(
            [-200, -128, -64, -20, -8, -7, -1, 0, 1, 7, 8, 20, 64, 128, 200].map(bi),
            [15, 15, 14, 10, 8, 7, 1, 0, 17, 23, 24, 26, 30, 31, 31]
        );
        let uni = |r| relative_position_bucket(r, false, 32, 128);
        assert_eq!(
            [-200, -64, -20, -16, -15, -1, 0, 5].map(uni),
            [31, 26, 17, 16, 15, 1, 0, 0]
        );
    }

    #[test]
    fn unknown_feed_forward_is_named() {
        let raw = serde_json::json!({
            "model_type": "mt5", "d_model": 8, "d_kv": 2, "d_ff": 8, "num_layers": 1,
            "num_heads": 4, "vocab_size": 10, "relative_attention_num_buckets": 8,
            "layer_norm_epsilon": 1e-6, "feed_forward_proj": "gated-silu"
        });
        let e = T5Config::from_json(&raw).unwrap_err();
        assert!(e.contains("gated-silu"), "{e}");
        let mut missing = raw.clone();
        missing["feed_forward_proj"] = "relu".into();
        missing.as_object_mut().unwrap().remove("d_kv");
        assert!(T5Config::from_json(&missing).unwrap_err().contains("d_kv"));
    }
}

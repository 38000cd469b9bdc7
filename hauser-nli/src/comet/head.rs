//! What COMET adds on top of the encoder: the layer-wise attention (scalar mix), sentence
//! pooling and the feed-forward estimator.

use candle_core::{Module, Tensor};
use candle_nn::{Linear, VarBuilder};

use super::hparams::{LayerTransform, Pooling};

/// `gamma * sum_k w_k * norm(x_k)` over the hidden states, `w = transform(scalar_parameters)`.
#[derive(Debug, Clone)]
pub(crate) struct ScalarMix {
    /// Normalised weights, one per hidden state (embedding output first).
    pub weights: Vec<f32>,
    pub gamma: f32,
    pub layer_norm: bool,
}

impl ScalarMix {
    pub(crate) fn new(
        raw: &[f32],
        gamma: f32,
        transform: LayerTransform,
        layer_norm: bool,
    ) -> Self {
        let weights = match transform {
            LayerTransform::Softmax => softmax(raw),
            LayerTransform::Sparsemax => sparsemax(raw),
        };
        Self {
            weights,
            gamma,
            layer_norm,
        }
    }

    /// Adds layer `layer`'s share to `acc` (one sentence's `len * hidden` values).
    pub(crate) fn add(&self, layer: usize, rows: &[f32], acc: &mut [f32]) {
        let w = self.weights.get(layer).copied().unwrap_or(0.0);
        // A weight sparsemax set to zero contributes exactly nothing in COMET too.
        if w == 0.0 {
            return;
        }
        let scale = self.gamma * w;
        if !self.layer_norm {
            acc.iter_mut().zip(rows).for_each(|(a, x)| *a += scale * x);
            return;
        }
        // COMET's `_layer_norm`: one mean and variance per sentence over all its real tokens
        // and dimensions (population variance), then (x - mean) / sqrt(var + 1e-12).
        let n = rows.len().max(1) as f64;
        let mean = rows.iter().map(|&x| x as f64).sum::<f64>() / n;
        let var = rows.iter().map(|&x| (x as f64 - mean).powi(2)).sum::<f64>() / n;
        let inv = 1.0 / (var + 1e-12).sqrt();
        acc.iter_mut()
            .zip(rows)
            .for_each(|(a, &x)| *a += scale * ((x as f64 - mean) * inv) as f32);
    }
}

fn softmax(z: &[f32]) -> Vec<f32> {
    let m = z.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let e: Vec<f64> = z.iter().map(|&x| ((x - m) as f64).exp()).collect();
    let s: f64 = e.iter().sum();
    e.iter().map(|x| (x / s) as f32).collect()
}

/// Sparsemax (Martins & Astudillo 2016), the sort-based form entmax computes: the Euclidean
/// projection of `z` onto the probability simplex.
pub(crate) fn sparsemax(z: &[f32]) -> Vec<f32> {
    let mut sorted: Vec<f64> = z.iter().map(|&x| x as f64).collect();
    sorted.sort_by(|a, b| b.total_cmp(a));
    let (mut cum, mut tau) = (0.0, 0.0);
    for (k, &v) in sorted.iter().enumerate() {
        cum += v;
        let t = (cum - 1.0) / (k + 1) as f64;
        // The support is every k with v_k > tau_k; it is a prefix of the sorted values.
        if v > t {
            tau = t;
        }
    }
    z.iter()
        .map(|&x| (x as f64 - tau).max(0.0) as f32)
        .collect()
}

/// Pools one sentence's `len * hidden` states into one vector.
pub(crate) fn pool(pooling: Pooling, rows: &[f32], hidden: usize) -> Vec<f32> {
    let n = rows.len() / hidden.max(1);
    match pooling {
        Pooling::Cls | Pooling::Default => rows
            .get(..hidden)
            .map_or(vec![0.0; hidden], <[f32]>::to_vec),
        Pooling::Avg => {
            let mut v = vec![0f32; hidden];
            for r in rows.chunks_exact(hidden) {
                v.iter_mut().zip(r).for_each(|(a, x)| *a += x);
            }
            v.iter_mut().for_each(|a| *a /= n.max(1) as f32);
            v
        }
        Pooling::Max => {
            let mut v = vec![f32::NEG_INFINITY; hidden];
            for r in rows.chunks_exact(hidden) {
                v.iter_mut().zip(r).for_each(|(a, &x)| *a = a.max(x));
            }
            v
        }
    }
}

/// The activations COMET's FeedForward can build: torch.nn classes whose name is the
/// title-cased setting (`Tanh`, `Sigmoid`...; `ReLU` is not one, as `"relu".title()` is not).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Activation {
    Tanh,
    Sigmoid,
    Softplus,
    Softsign,
    Hardtanh,
    Tanhshrink,
    Mish,
}

impl Activation {
    /// The activation COMET builds for `name` (`getattr(nn, name.title())`).
    pub(crate) fn parse(name: &str) -> Option<Self> {
        Some(match title(name).as_str() {
            "Tanh" => Self::Tanh,
            "Sigmoid" => Self::Sigmoid,
            "Softplus" => Self::Softplus,
            "Softsign" => Self::Softsign,
            "Hardtanh" => Self::Hardtanh,
            "Tanhshrink" => Self::Tanhshrink,
            "Mish" => Self::Mish,
            _ => return None,
        })
    }

    fn apply(self, x: &Tensor) -> candle_core::Result<Tensor> {
        // torch's Softplus: beta 1, linear above threshold 20.
        let softplus = |x: &Tensor| -> candle_core::Result<Tensor> {
            let soft = (x.exp()? + 1.0)?.log()?;
            x.gt(20.0)?.where_cond(x, &soft)
        };
        match self {
            Self::Tanh => x.tanh(),
            Self::Sigmoid => candle_nn::ops::sigmoid(x),
            Self::Softplus => softplus(x),
            Self::Softsign => x.broadcast_div(&(x.abs()? + 1.0)?),
            Self::Hardtanh => x.clamp(-1f32, 1f32),
            Self::Tanhshrink => x - x.tanh()?,
            Self::Mish => x * softplus(x)?.tanh()?,
        }
    }
}

/// Python's `str.title()` for ASCII names: a capital at the start of each run of letters.
fn title(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut prev_letter = false;
    for c in s.chars() {
        if c.is_alphabetic() {
            if prev_letter {
                out.extend(c.to_lowercase());
            } else {
                out.extend(c.to_uppercase());
            }
            prev_letter = true;
        } else {
            out.push(c);
            prev_letter = false;
        }
    }
    out
}

/// COMET's FeedForward: `Linear, act, Dropout` per hidden size, a last `Linear` to one
/// output, and the optional final activation. The linear layers are `estimator.ff.{3i}`.
#[derive(Debug, Clone)]
pub(crate) struct Estimator {
    layers: Vec<Linear>,
    act: Activation,
    final_act: Option<Activation>,
}

impl Estimator {
    pub(crate) fn load(
        vb: &VarBuilder<'static>,
        in_dim: usize,
        hidden: &[usize],
        act: Activation,
        final_act: Option<Activation>,
    ) -> candle_core::Result<Self> {
        let mut dims = vec![in_dim];
        dims.extend_from_slice(hidden);
        dims.push(1);
        let layers = dims
            .windows(2)
            .enumerate()
            .map(|(i, d)| candle_nn::linear(d[0], d[1], vb.pp(format!("ff.{}", 3 * i))))
            .collect::<candle_core::Result<Vec<_>>>()?;
        Ok(Self {
            layers,
            act,
            final_act,
        })
    }

    /// Scores a `[n, in_dim]` feature matrix.
    pub(crate) fn forward(&self, features: &Tensor) -> candle_core::Result<Vec<f32>> {
        let mut x = features.clone();
        let last = self.layers.len() - 1;
        for (i, l) in self.layers.iter().enumerate() {
            x = l.forward(&x)?;
            if i < last {
                x = self.act.apply(&x)?;
            }
        }
        if let Some(f) = self.final_act {
            x = f.apply(&x)?;
        }
        x.flatten_all()?.to_vec1()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sparsemax_projects_onto_the_simplex() {
        // entmax 1.3: sparsemax([1.8366, 0.3016, 0.6657, -1.0887]) = [1, 0, 0, 0];
        // sparsemax([0.7346, 0.1206, 0.2663, -0.4355]) = [0.6941, 0.0801, 0.2258, 0].
        assert_eq!(
            sparsemax(&[1.8366, 0.3016, 0.6657, -1.0887]),
            vec![1.0, 0.0, 0.0, 0.0]
        );
        let p = sparsemax(&[0.7346, 0.1206, 0.2663, -0.4355]);
        for (a, b) in p.iter().zip([0.6941, 0.0801, 0.2258, 0.0]) {
            assert!((a - b).abs() < 1e-4, "{p:?}");
        }
        assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn activation_names_follow_python_title() {
        assert_eq!(Activation::parse("tanh"), Some(Activation::Tanh));
        assert_eq!(Activation::parse("SIGMOID"), Some(Activation::Sigmoid));
        assert_eq!(Activation::parse("ReLU"), None);
        assert_eq!(title("soft_plus2x"), "Soft_Plus2X");
    }
}

//! Decoding from a causal LM: greedy or top-k sampling with a temperature, transformers'
//! `no_repeat_ngram_size`, and an ensemble form whose next-token logits are the sum of the
//! logits of several prompts (the figurative-narratives paper's knowledge-enhanced decoder).
//!
//! The logits pass through the steps in transformers' order: n-gram ban (`-inf`), then the
//! temperature, then top-k (every logit at or above the k-th largest is kept, ties
//! included, as `TopKLogitsWarper` keeps them), then softmax and one draw. Greedy decoding takes
//! the first maximum (`argmax`) after the n-gram ban.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::error::{NliError, Result};
use crate::lm::CausalLm;

/// How the next token is chosen from the logits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Decoding {
    /// The most likely token (the first one on ties).
    Greedy,
    /// A draw from the softmax of `logits / temperature` restricted to the `k` largest.
    TopK {
        /// Tokens kept (at least 1).
        k: usize,
        /// Divides the logits before the softmax (> 0).
        temperature: f32,
        /// Seed of the sampler: the same seed gives the same tokens, whatever the batch.
        seed: u64,
    },
}

/// Settings of [`CausalLm::generate`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GenerateConfig {
    /// Most tokens added to each prompt.
    pub max_new_tokens: usize,
    /// Token choice.
    pub decoding: Decoding,
    /// Bans any token that would repeat an n-gram of this size already in the sequence
    /// (prompt included, as transformers does); 0 turns the ban off.
    pub no_repeat_ngram_size: usize,
    /// Stops a sequence when it produces the model's end-of-text token (transformers'
    /// `generate`); `false` always runs `max_new_tokens` steps.
    pub stop_at_eos: bool,
}

impl GenerateConfig {
    /// The figurative-narratives paper's settings: top-k 5, temperature 0.7, at most 20 new
    /// tokens, `no_repeat_ngram_size` 3, stopping at end of text.
    pub fn narratives(seed: u64) -> Self {
        Self {
            max_new_tokens: 20,
            decoding: Decoding::TopK {
                k: 5,
                temperature: 0.7,
                seed,
            },
            no_repeat_ngram_size: 3,
            stop_at_eos: true,
        }
    }

    /// Checks the settings.
    ///
    /// # Errors
    /// A top-k of 0 or a temperature that is not a positive finite number.
    pub fn validate(&self) -> std::result::Result<(), String> {
        if let Decoding::TopK { k, temperature, .. } = self.decoding {
            if k == 0 {
                return Err("top-k must be at least 1".into());
            }
            if !(temperature.is_finite() && temperature > 0.0) {
                return Err(format!("temperature must be > 0, got {temperature}"));
            }
        }
        Ok(())
    }
}

/// One generated continuation.
#[derive(Debug, Clone, PartialEq)]
pub struct Generation {
    /// The new tokens (the end-of-text token included when it stopped the sequence).
    pub ids: Vec<u32>,
    /// Prompt tokens dropped from the left so that prompt and new tokens fit the context.
    pub truncated: usize,
}

/// The tokens an n-gram ban forbids after `seq`: for every earlier occurrence of the last
/// `n - 1` tokens, the token that followed it (transformers' `NoRepeatNGramLogitsProcessor`).
pub fn banned_tokens(seq: &[u32], n: usize) -> Vec<u32> {
    if n == 0 || seq.len() + 1 < n {
        return Vec::new();
    }
    let prefix = &seq[seq.len() + 1 - n..];
    seq.windows(n)
        .filter(|w| &w[..n - 1] == prefix)
        .map(|w| w[n - 1])
        .collect()
}

/// The next-token distribution a top-k sampler draws from, in vocabulary order (zeros
/// outside the kept tokens); `-inf` logits (banned tokens) get probability 0.
pub fn top_k_probabilities(logits: &[f32], k: usize, temperature: f32) -> Vec<f64> {
    // transformers divides the f32 logits and compares in f32.
    let scaled: Vec<f32> = logits.iter().map(|&l| l / temperature).collect();
    let threshold = kth_largest(&scaled, k.max(1));
    let kept: Vec<f64> = scaled
        .iter()
        .map(|&l| {
            if l >= threshold && l > f32::NEG_INFINITY {
                l as f64
            } else {
                f64::NEG_INFINITY
            }
        })
        .collect();
    let max = kept.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if max == f64::NEG_INFINITY {
        return vec![0.0; logits.len()];
    }
    let exps: Vec<f64> = kept.iter().map(|&l| (l - max).exp()).collect();
    let sum: f64 = exps.iter().sum();
    exps.into_iter().map(|e| e / sum).collect()
}

fn kth_largest(xs: &[f32], k: usize) -> f32 {
    let mut v: Vec<f32> = xs.iter().copied().filter(|x| !x.is_nan()).collect();
    if v.is_empty() {
        return f32::INFINITY;
    }
    let k = k.min(v.len());
    v.select_nth_unstable_by(k - 1, |a, b| b.total_cmp(a));
    v[k - 1]
}

/// The first maximal index (`torch.argmax`), `None` when every logit is `-inf` or NaN.
fn argmax(logits: &[f32]) -> Option<usize> {
    let mut best: Option<(usize, f32)> = None;
    for (i, &l) in logits.iter().enumerate() {
        if l > f32::NEG_INFINITY && best.is_none_or(|(_, b)| l > b) {
            best = Some((i, l));
        }
    }
    best.map(|(i, _)| i)
}

/// Inverse-CDF draw from a distribution summing to 1.
fn draw(probs: &[f64], rng: &mut ChaCha8Rng) -> Option<usize> {
    let u: f64 = rng.random::<f64>();
    let mut acc = 0.0;
    let mut last = None;
    for (i, &p) in probs.iter().enumerate() {
        if p > 0.0 {
            acc += p;
            last = Some(i);
            if u < acc {
                return Some(i);
            }
        }
    }
    // Rounding left the sum just under u: the last token with mass.
    last
}

/// A sampler's random stream for sequence `index`: seeded by the seed and the index alone, so a
/// sequence's tokens do not depend on the batch it runs in or on the threads.
fn stream(seed: u64, index: usize) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index as u64);
    rng
}

struct Group {
    prompts: Vec<Vec<u32>>,
    new: Vec<u32>,
    truncated: usize,
    done: bool,
    rng: Option<ChaCha8Rng>,
}

impl CausalLm {
    /// Continues each prompt (token ids, e.g. from [`crate::TextEncoder::encode_plain`]).
    /// Prompts are decoded together, one batched forward pass per step.
    ///
    /// # Errors
    /// Bad settings, an empty prompt, inference failures.
    pub fn generate(&self, prompts: &[Vec<u32>], cfg: &GenerateConfig) -> Result<Vec<Generation>> {
        let groups: Vec<Vec<Vec<u32>>> = prompts.iter().map(|p| vec![p.clone()]).collect();
        self.generate_ensemble(&groups, cfg)
    }

    /// Decodes one continuation per group of prompts from the SUM of the prompts' next-token
    /// logits: every prompt of a group receives the token chosen, so all of them carry the
    /// same continuation. The n-gram ban looks at the group's first prompt plus the new tokens.
    /// A group of one prompt is plain decoding.
    ///
    /// # Errors
    /// Bad settings, an empty group or prompt, inference failures.
    pub fn generate_ensemble(
        &self,
        groups: &[Vec<Vec<u32>>],
        cfg: &GenerateConfig,
    ) -> Result<Vec<Generation>> {
        let name = self.source().name();
        let invalid = |message: String| NliError::Invalid {
            model: name.clone(),
            message,
        };
        cfg.validate().map_err(&invalid)?;
        let room = self.context_len().saturating_sub(cfg.max_new_tokens);
        if room == 0 {
            return Err(invalid(format!(
                "{} new tokens leave no room for a prompt in a context of {}",
                cfg.max_new_tokens,
                self.context_len()
            )));
        }
        let mut state = Vec::with_capacity(groups.len());
        for (gi, g) in groups.iter().enumerate() {
            if g.is_empty() || g.iter().any(Vec::is_empty) {
                return Err(invalid(format!("group {gi}: empty prompt list or prompt")));
            }
            let mut truncated = 0;
            let prompts = g
                .iter()
                .map(|p| {
                    let cut = p.len().saturating_sub(room);
                    truncated = truncated.max(cut);
                    p[cut..].to_vec()
                })
                .collect();
            let rng = match cfg.decoding {
                Decoding::TopK { seed, .. } => Some(stream(seed, gi)),
                Decoding::Greedy => None,
            };
            state.push(Group {
                prompts,
                new: Vec::new(),
                truncated,
                done: cfg.max_new_tokens == 0,
                rng,
            });
        }
        let eos = if cfg.stop_at_eos {
            self.eos_token_id()
        } else {
            None
        };
        for _ in 0..cfg.max_new_tokens {
            let active: Vec<usize> = (0..state.len()).filter(|&i| !state[i].done).collect();
            if active.is_empty() {
                break;
            }
            let mut seqs = Vec::new();
            for &i in &active {
                let g = &state[i];
                seqs.extend(g.prompts.iter().map(|p| [p.as_slice(), &g.new].concat()));
            }
            let logits = self.next_token_logits(&seqs)?;
            let mut rows = logits.into_iter();
            for &i in &active {
                let g = &mut state[i];
                let mut sum: Vec<f32> = rows.next().unwrap_or_default();
                for _ in 1..g.prompts.len() {
                    let l = rows.next().unwrap_or_default();
                    sum.iter_mut().zip(&l).for_each(|(a, b)| *a += b);
                }
                let history = [g.prompts[0].as_slice(), &g.new].concat();
                for t in banned_tokens(&history, cfg.no_repeat_ngram_size) {
                    if let Some(x) = sum.get_mut(t as usize) {
                        *x = f32::NEG_INFINITY;
                    }
                }
                let next = match (cfg.decoding, g.rng.as_mut()) {
                    (Decoding::TopK { k, temperature, .. }, Some(rng)) => {
                        draw(&top_k_probabilities(&sum, k, temperature), rng)
                    }
                    _ => argmax(&sum),
                };
                let Some(next) = next else {
                    // Every token banned: nothing can follow.
                    g.done = true;
                    continue;
                };
                g.new.push(next as u32);
                if g.new.len() >= cfg.max_new_tokens || Some(next as u32) == eos {
                    g.done = true;
                }
            }
        }
        Ok(state
            .into_iter()
            .map(|g| Generation {
                ids: g.new,
                truncated: g.truncated,
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ngram_ban_finds_every_earlier_continuation() {
        // "a b c a b" with n = 3: "a b" was followed by c.
        assert_eq!(banned_tokens(&[1, 2, 3, 1, 2], 3), vec![3]);
        assert_eq!(banned_tokens(&[1, 2, 3, 1, 2, 4, 1, 2], 3), vec![3, 4]);
        assert!(banned_tokens(&[1, 2], 3).is_empty());
        assert!(banned_tokens(&[1, 2, 1], 0).is_empty());
        // n = 1 bans every token seen.
        assert_eq!(banned_tokens(&[5, 6], 1), vec![5, 6]);
    }

    #[test]
    fn top_k_keeps_ties_and_scales_by_temperature() {
        let p = top_k_probabilities(&[1.0, 3.0, 2.0, 2.0, f32::NEG_INFINITY], 2, 0.5);
        // k = 2 keeps 3.0 and both 2.0s (tied with the 2nd largest).
        assert_eq!(p[0], 0.0);
        assert_eq!(p[4], 0.0);
        let z = (6.0f64).exp() + 2.0 * (4.0f64).exp();
        assert!((p[1] - (6.0f64).exp() / z).abs() < 1e-12);
        assert!((p[2] - p[3]).abs() < 1e-15);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn draws_follow_the_distribution_and_repeat_for_a_seed() {
        let probs = top_k_probabilities(&[0.0, 1.0, 2.0, -5.0], 3, 0.7);
        let mut rng = stream(7, 0);
        let n = 200_000;
        let mut counts = [0usize; 4];
        for _ in 0..n {
            counts[draw(&probs, &mut rng).unwrap()] += 1;
        }
        assert_eq!(counts[3], 0);
        for i in 0..3 {
            let f = counts[i] as f64 / n as f64;
            // 5 standard deviations of a binomial proportion.
            let sd = (probs[i] * (1.0 - probs[i]) / n as f64).sqrt();
            assert!((f - probs[i]).abs() < 5.0 * sd, "{i}: {f} vs {}", probs[i]);
        }
        let a: Vec<_> = (0..50).map(|_| draw(&probs, &mut stream(3, 1))).collect();
        let b: Vec<_> = (0..50).map(|_| draw(&probs, &mut stream(3, 1))).collect();
        assert_eq!(a, b);
    }

    #[test]
    fn argmax_takes_the_first_maximum_and_skips_banned() {
        assert_eq!(argmax(&[1.0, 3.0, 3.0]), Some(1));
        assert_eq!(argmax(&[f32::NEG_INFINITY; 2]), None);
    }
}

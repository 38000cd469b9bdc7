//! Zero-shot choice with a causal LM, as surface-form-competition scores its story-ending
//! tasks (the authors point there): premise and `" " + option` tokenised separately, the
//! premise cut from the left when the pair exceeds the context, and four scores per option:
//!
//! - `lm`: `log P(option | premise)`, summed over the option's tokens;
//! - `tok_mean`: that sum divided by the option's token count (the paper's "length-normalised"
//!   log-likelihood, the default here);
//! - `dcpmi`: `log P(option | premise) - log P(option | domain premise)` with the domain premise
//!   `" The story continues:"` (surface-form-competition's StoryCloze / ROCStories loader);
//! - `pmi`: `log P(option | premise) - log P(option | ":")`, surface-form-competition's
//!   unconditional PMI (`utils.py`: the premise is token 25, GPT-2's `:`; its GPT-3 path sends
//!   the text `":"`, which is what is encoded here, so other tokenizers get their own `:`).
//!
//! The premise follows that loader: the narrative kept as it ends in `.` or `!`, otherwise a
//! `.` appended (unless [`ZeroShotConfig::premise_period`] is off); upstream's `<b>`/`</b>`
//! markup is removed first unless asked to keep it. The choice is the highest score, ties going
//! to `option1` (`list.index(max)` upstream).

use serde::Serialize;

use hauser_nli::CausalLm;

use super::data::{Choice, NarrativeItem};
use crate::error::{TaskError, TaskResult};

/// surface-form-competition's domain premise for story continuations.
pub const STORY_DOMAIN_PREMISE: &str = " The story continues:";

/// surface-form-competition's premise of the unconditional probability in `pmi` (token 25 of
/// GPT-2's vocabulary).
pub const UNCONDITIONAL_PREMISE: &str = ":";

/// Which score decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ZeroShotScore {
    /// Summed log-probability.
    Lm,
    /// Mean log-probability per option token (the paper's length normalisation).
    #[default]
    TokMean,
    /// Domain-conditional PMI.
    Dcpmi,
    /// Unconditional PMI (the option's probability after `:`).
    Pmi,
}

impl ZeroShotScore {
    /// Parses `lm`, `tok_mean` (or `tok-mean`), `dcpmi`, `pmi`.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "lm" => Some(Self::Lm),
            "tok_mean" | "tok-mean" => Some(Self::TokMean),
            "dcpmi" => Some(Self::Dcpmi),
            "pmi" => Some(Self::Pmi),
            _ => None,
        }
    }

    /// The name used in outputs.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Lm => "lm",
            Self::TokMean => "tok_mean",
            Self::Dcpmi => "dcpmi",
            Self::Pmi => "pmi",
        }
    }
}

/// Settings of the zero-shot scorer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZeroShotConfig {
    /// The domain premise of `dcpmi`.
    pub domain_premise: String,
    /// Keep upstream's `<b>...</b>` markup in the premise (default: removed).
    pub keep_markup: bool,
    /// Append `.` to a premise that does not end in `.` or `!`, as surface-form-competition's
    /// StoryCloze loader does (default: on).
    pub premise_period: bool,
    /// Most tokens of premise plus option: the premise is cut from the left to
    /// `max_length - option tokens` (surface-form-competition's `max_len`, 1024 for GPT-2).
    /// `None`: the model's context (`n_positions`).
    pub max_length: Option<usize>,
}

impl Default for ZeroShotConfig {
    fn default() -> Self {
        Self {
            domain_premise: STORY_DOMAIN_PREMISE.to_string(),
            keep_markup: false,
            premise_period: true,
            max_length: None,
        }
    }
}

/// The scores of one option.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct OptionScores {
    /// `log P(option | premise)`.
    pub lm: f64,
    /// `lm` / `tokens`.
    pub tok_mean: f64,
    /// `lm - log P(option | domain premise)`.
    pub dcpmi: f64,
    /// `lm - log P(option | ":")`.
    pub pmi: f64,
    /// Tokens of `" " + option`.
    pub tokens: usize,
}

impl OptionScores {
    /// The value of `score`.
    pub fn get(&self, score: ZeroShotScore) -> f64 {
        match score {
            ZeroShotScore::Lm => self.lm,
            ZeroShotScore::TokMean => self.tok_mean,
            ZeroShotScore::Dcpmi => self.dcpmi,
            ZeroShotScore::Pmi => self.pmi,
        }
    }
}

/// The scores of one item's two options.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ZeroShotResult {
    /// `option1`, `option2`.
    pub options: [OptionScores; 2],
    /// Premise tokens cut from the left to fit the context (the larger of the two options').
    pub truncated: usize,
}

impl ZeroShotResult {
    /// The option with the higher `score`; `option1` on ties.
    pub fn choice(&self, score: ZeroShotScore) -> Choice {
        if self.options[1].get(score) > self.options[0].get(score) {
            Choice::Option2
        } else {
            Choice::Option1
        }
    }
}

/// Removes upstream's `<b>` / `</b>` markup.
pub fn strip_markup(text: &str) -> String {
    text.replace("<b>", "").replace("</b>", "")
}

/// The premise surface-form-competition builds from a story: kept as it is when it ends in
/// `.` or `!`, otherwise with `.` appended.
pub fn premise(narrative: &str, keep_markup: bool) -> String {
    premise_with(narrative, keep_markup, true)
}

/// [`premise`], the `.` appended only when `add_period`.
pub fn premise_with(narrative: &str, keep_markup: bool, add_period: bool) -> String {
    let mut p = if keep_markup {
        narrative.to_string()
    } else {
        strip_markup(narrative)
    };
    if add_period && !(p.ends_with('.') || p.ends_with('!')) {
        p.push('.');
    }
    p
}

/// The most tokens of premise plus option: `cfg.max_length`, or the model's context.
///
/// # Errors
/// A `max_length` of 0 or beyond the model's context.
pub fn context_limit(lm: &CausalLm, cfg: &ZeroShotConfig) -> TaskResult<usize> {
    let n = lm.context_len();
    match cfg.max_length {
        None => Ok(n),
        Some(m) if m == 0 || m > n => Err(TaskError::Input(format!(
            "a maximum length of {m} tokens: give 1 to the model's context, {n}"
        ))),
        Some(m) => Ok(m),
    }
}

/// `(log P(hyp | ctx) summed over hyp, hyp tokens, ctx tokens cut)` for each (context ids, hyp
/// ids), one batched pass; contexts cut from the left to `limit - hyp tokens`.
fn conditional(
    lm: &CausalLm,
    pairs: &[(Vec<u32>, Vec<u32>)],
    limit: usize,
) -> TaskResult<Vec<(f64, usize)>> {
    let mut seqs = Vec::with_capacity(pairs.len());
    let mut starts = Vec::with_capacity(pairs.len());
    for (ctx, hyp) in pairs {
        if hyp.is_empty() || hyp.len() >= limit {
            return Err(TaskError::Input(format!(
                "an option of {} tokens does not fit a context of {limit} with its premise",
                hyp.len()
            )));
        }
        let keep = ctx.len().min(limit - hyp.len());
        if keep == 0 {
            return Err(TaskError::Input("empty premise".into()));
        }
        let ctx = &ctx[ctx.len() - keep..];
        // Only the continuation's tokens go through the LM head.
        starts.push(ctx.len());
        seqs.push([ctx, hyp.as_slice()].concat());
    }
    let lps = lm.logprobs_of_ids_from(&seqs, &starts)?;
    Ok(lps
        .iter()
        .map(|lp| (lp.iter().map(|&x| x as f64).sum(), lp.len()))
        .collect())
}

/// Scores both options of every item with `lm`; all inputs of all items go through the model
/// in one batched call.
///
/// # Errors
/// Tokenizer or inference failures; an option too long for the context.
pub fn score_zero_shot(
    lm: &CausalLm,
    items: &[NarrativeItem],
    cfg: &ZeroShotConfig,
) -> TaskResult<Vec<ZeroShotResult>> {
    let limit = context_limit(lm, cfg)?;
    let enc = lm.text_encoder();
    let domain = enc.encode_plain(&cfg.domain_premise)?;
    let unconditional = enc.encode_plain(UNCONDITIONAL_PREMISE)?;
    let mut pairs = Vec::with_capacity(items.len() * 6);
    let mut cut = Vec::with_capacity(items.len());
    for item in items {
        let text = premise_with(&item.narrative, cfg.keep_markup, cfg.premise_period);
        let ctx = enc.encode_plain(&text)?;
        let mut c = 0;
        for opt in &item.options {
            let hyp = enc.encode_plain(&format!(" {opt}"))?;
            c = c.max(ctx.len().saturating_sub(limit.saturating_sub(hyp.len())));
            pairs.push((ctx.clone(), hyp.clone()));
            pairs.push((domain.clone(), hyp.clone()));
            pairs.push((unconditional.clone(), hyp));
        }
        cut.push(c);
    }
    let scored = conditional(lm, &pairs, limit)?;
    Ok(scored
        .chunks_exact(6)
        .zip(cut)
        .map(|(s, truncated)| {
            let one = |s: &[(f64, usize)]| OptionScores {
                lm: s[0].0,
                tok_mean: s[0].0 / s[0].1 as f64,
                dcpmi: s[0].0 - s[1].0,
                pmi: s[0].0 - s[2].0,
                tokens: s[0].1,
            };
            ZeroShotResult {
                options: [one(&s[..3]), one(&s[3..])],
                truncated,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn premise_follows_the_storycloze_loader() {
        assert_eq!(premise("He ran <b>fast</b>.", false), "He ran fast.");
        assert_eq!(premise("Wow!", false), "Wow!");
        assert_eq!(premise("\"He said so.\"", true), "\"He said so.\".");
        assert_eq!(premise("<b>x</b>", true), "<b>x</b>.");
        assert_eq!(
            premise_with("He said \"so\"", false, false),
            "He said \"so\""
        );
        assert_eq!(premise_with("He ran.", false, false), "He ran.");
    }

    #[test]
    fn pmi_is_parsed_and_decides() {
        assert_eq!(ZeroShotScore::parse("pmi"), Some(ZeroShotScore::Pmi));
        assert_eq!(ZeroShotScore::Pmi.as_str(), "pmi");
        let s = OptionScores {
            lm: -1.0,
            tok_mean: -0.5,
            dcpmi: 0.0,
            pmi: 0.0,
            tokens: 2,
        };
        let better = OptionScores { pmi: 0.5, ..s };
        let r = ZeroShotResult {
            options: [s, better],
            truncated: 0,
        };
        assert_eq!(r.choice(ZeroShotScore::Pmi), Choice::Option2);
        assert_eq!(r.choice(ZeroShotScore::Lm), Choice::Option1);
    }

    #[test]
    fn ties_go_to_option1() {
        let s = OptionScores {
            lm: -1.0,
            tok_mean: -0.5,
            dcpmi: 0.0,
            pmi: 0.0,
            tokens: 2,
        };
        let r = ZeroShotResult {
            options: [s, s],
            truncated: 0,
        };
        assert_eq!(r.choice(ZeroShotScore::Lm), Choice::Option1);
        let mut better = s;
        better.dcpmi = 0.1;
        let r = ZeroShotResult {
            options: [s, better],
            truncated: 0,
        };
        assert_eq!(r.choice(ZeroShotScore::Dcpmi), Choice::Option2);
        assert_eq!(r.choice(ZeroShotScore::TokMean), Choice::Option1);
    }
}

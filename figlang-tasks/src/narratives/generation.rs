//! Writing the continuation: the prompts and post-processing of the authors' decoders
//! (`generate_texts.py`, `generate_texts_inferences.py`), one prediction per distinct
//! narrative in first-appearance order, written in the released prediction format.
//!
//! - Plain GPT-2: prompt `narrative + " ====== "` (the raw narrative, `<b>` markup kept as the
//!   released script keeps it), decoded with [`GenerateConfig::narratives`]; the output is the
//!   decoded new text (special tokens kept), stripped, cut before its FIRST `.`.
//! - Knowledge-enhanced: one prompt per inference, `inference + " @@@ " + narrative + " ====== "`
//!   (markup removed), next-token logits summed over the prompts, 20 steps without an
//!   end-of-text stop; the output is decoded without special tokens, stripped, the first
//!   non-empty `.`-segment (stripped), cut before `?`, `" i "` -> `" I "`, Python's
//!   `capitalize()`, and `======` removed. The released script's last trimming heuristic
//!   (NLTK `words` and `wordfreq` lookups) is not reproduced.
//!
//! Each record also carries what the cut threw away: the decoded generation before the
//! post-processing (`raw_predictions`) and its token ids (`token_ids`).

use hauser_nli::{CausalLm, GenerateConfig};
use serde::Serialize;

use super::data::{LabelStatus, NarrativeItem, Split};
use super::zero_shot::strip_markup;
use crate::error::TaskResult;

/// The plain decoder's separator between narrative and continuation.
pub const SEPARATOR: &str = " ====== ";

/// One line of a generative prediction file (the released format: `input`, `gold`,
/// `predictions`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PredictionRecord {
    /// The narrative as in the data.
    pub input: String,
    /// The correct continuations of the rows sharing the narrative (empty for unlabelled data).
    pub gold: Vec<String>,
    /// The generated continuations.
    pub predictions: Vec<String>,
    /// Each continuation as decoded, before the cut (special tokens kept for the plain decoder,
    /// skipped for the knowledge decoder, as each decodes them).
    pub raw_predictions: Vec<String>,
    /// Each continuation's new token ids (the end-of-text token included when it stopped).
    pub token_ids: Vec<Vec<u32>>,
}

/// Distinct narratives in first-appearance order, with the correct options of their rows
/// (none for unlabelled data) and the first row's inferences.
pub fn distinct_narratives(split: &Split) -> Vec<(&NarrativeItem, Vec<String>)> {
    let mut out: Vec<(&NarrativeItem, Vec<String>)> = Vec::new();
    let mut index = std::collections::HashMap::new();
    for item in &split.items {
        let at = *index.entry(item.narrative.as_str()).or_insert_with(|| {
            out.push((item, Vec::new()));
            out.len() - 1
        });
        if split.labels == LabelStatus::Labelled {
            out[at]
                .1
                .push(item.options[item.answer.index()].trim().to_string());
        }
    }
    out
}

/// The number of distinct narratives (lines of a generation file for `split`).
pub fn distinct_count(split: &Split) -> usize {
    distinct_narratives(split).len()
}

/// The plain prompt.
pub fn prompt(narrative: &str) -> String {
    format!("{narrative}{SEPARATOR}")
}

/// The knowledge-enhanced prompts, one per inference.
pub fn knowledge_prompts(item: &NarrativeItem) -> Vec<String> {
    let narrative = strip_markup(&item.narrative);
    item.inferences
        .iter()
        .map(|inf| format!("{inf} @@@ {narrative}{SEPARATOR}"))
        .collect()
}

/// The plain decoder's post-processing.
pub fn postprocess_plain(decoded: &str) -> String {
    decoded.trim().split('.').next().unwrap_or("").to_string()
}

/// Python's `str.capitalize()`: first character upper-cased, the rest lower-cased.
fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f
            .to_uppercase()
            .chain(c.flat_map(char::to_lowercase))
            .collect(),
        None => String::new(),
    }
}

/// The knowledge decoder's post-processing (without the word-list heuristic).
pub fn postprocess_knowledge(decoded: &str) -> String {
    let t = decoded.trim();
    let seg = t
        .split('.')
        .map(str::trim)
        .find(|s| !s.is_empty())
        .unwrap_or("");
    let seg = seg.split('?').next().unwrap_or("");
    capitalize(&seg.replace(" i ", " I ")).replace("======", "")
}

/// Generates one continuation per distinct narrative. With `knowledge`, items need
/// inferences and use the summed-logits decoder (always `cfg.max_new_tokens` steps).
///
/// # Errors
/// A knowledge run on an item without inferences; tokenizer or inference failures.
pub fn generate(
    lm: &CausalLm,
    split: &Split,
    cfg: &GenerateConfig,
    knowledge: bool,
) -> TaskResult<Vec<PredictionRecord>> {
    let enc = lm.text_encoder();
    let narratives = distinct_narratives(split);
    // (raw decoded text, its ids) per narrative, and how each decoder cuts it.
    let (generated, skip_special, post): (_, bool, fn(&str) -> String) = if knowledge {
        let mut groups = Vec::with_capacity(narratives.len());
        for (item, _) in &narratives {
            let prompts = knowledge_prompts(item);
            if prompts.is_empty() {
                return Err(crate::TaskError::Input(format!(
                    "knowledge-enhanced decoding needs inferences; none for {:?}",
                    item.narrative
                )));
            }
            groups.push(
                prompts
                    .iter()
                    .map(|p| enc.encode_plain(p))
                    .collect::<Result<Vec<_>, _>>()?,
            );
        }
        let cfg = GenerateConfig {
            stop_at_eos: false,
            ..*cfg
        };
        (
            lm.generate_ensemble(&groups, &cfg)?,
            true,
            postprocess_knowledge,
        )
    } else {
        let prompts = narratives
            .iter()
            .map(|(item, _)| enc.encode_plain(&prompt(&item.narrative)))
            .collect::<Result<Vec<_>, _>>()?;
        (lm.generate(&prompts, cfg)?, false, postprocess_plain)
    };
    narratives
        .into_iter()
        .zip(generated)
        .map(|((item, gold), g)| {
            let raw = enc.decode(&g.ids, skip_special)?;
            Ok(PredictionRecord {
                input: item.narrative.clone(),
                gold,
                predictions: vec![post(&raw)],
                raw_predictions: vec![raw],
                token_ids: vec![g.ids],
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn post_processing_follows_the_released_scripts() {
        assert_eq!(postprocess_plain("  He left. Then more."), "He left");
        assert_eq!(
            postprocess_plain("no period<|endoftext|>"),
            "no period<|endoftext|>"
        );
        assert_eq!(
            postprocess_knowledge(" . so i think i WON? yes. "),
            "So i think i won"
        );
        assert_eq!(postprocess_knowledge("a ====== b"), "A  b");
        assert_eq!(postprocess_knowledge(""), "");
    }
}

//! Supervised and knowledge-enhanced choice with a multiple-choice head (RoBERTa or BERT).
//!
//! Without inferences an option is scored from the pair (narrative, option). With inferences
//! (the `*_inferences_*` files) the authors' code (`utils_multiple_choice_inferences.py`)
//! builds one pair per inference, `(narrative + " </s> " + inference, option)`, with `personx`
//! replaced by `they` and upstream's `<b>` markup removed, and scores the option by the SUM of
//! the head's logits over its inferences (dropout never applied). The paper writes the other
//! order, `inference </s> narrative </s> continuation`: [`PairOrder::Paper`].

use hauser_nli::MultipleChoice;
use serde::Serialize;

use super::data::{Choice, NarrativeItem};
use super::zero_shot::strip_markup;
use crate::error::TaskResult;

/// How an inference joins the narrative in the first text of a pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PairOrder {
    /// `narrative </s> inference` (the released code; the default).
    #[default]
    Code,
    /// `inference </s> narrative` (the paper's text).
    Paper,
}

/// The first texts of an item's pairs (one per inference, or the narrative alone).
pub fn first_texts(item: &NarrativeItem, order: PairOrder) -> Vec<String> {
    let narrative = strip_markup(&item.narrative);
    if item.inferences.is_empty() {
        return vec![narrative];
    }
    item.inferences
        .iter()
        .map(|inf| {
            let inf = inf.replace("personx", "they");
            let inf = inf.trim();
            match order {
                PairOrder::Code => format!("{narrative} </s> {inf}"),
                PairOrder::Paper => format!("{inf} </s> {narrative}"),
            }
        })
        .collect()
}

/// Both options' scores (summed logits) of one item.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ChoiceScores {
    /// `option1`, `option2`.
    pub scores: [f64; 2],
    /// Pairs per option.
    pub pairs: usize,
}

impl ChoiceScores {
    /// The higher-scoring option, `option1` on ties (`argmax`).
    pub fn choice(&self) -> Choice {
        if self.scores[1] > self.scores[0] {
            Choice::Option2
        } else {
            Choice::Option1
        }
    }
}

/// Scores every item; the pairs of all items are batched together.
///
/// # Errors
/// Tokenizer or inference failures.
pub fn score_choices(
    mc: &MultipleChoice,
    items: &[NarrativeItem],
    order: PairOrder,
) -> TaskResult<Vec<ChoiceScores>> {
    let firsts: Vec<Vec<String>> = items.iter().map(|i| first_texts(i, order)).collect();
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    for (item, f) in items.iter().zip(&firsts) {
        for opt in &item.options {
            pairs.extend(f.iter().map(|t| (t.as_str(), opt.as_str())));
        }
    }
    let logits = mc.logits(&pairs)?;
    let mut at = 0;
    Ok(firsts
        .iter()
        .map(|f| {
            let n = f.len();
            let sum = |s: &[f32]| s.iter().map(|&x| x as f64).sum::<f64>();
            let scores = [sum(&logits[at..at + n]), sum(&logits[at + n..at + 2 * n])];
            at += 2 * n;
            ChoiceScores { scores, pairs: n }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_follow_the_released_code_or_the_paper() {
        let item = NarrativeItem {
            narrative: "He could <b>go places</b>.".into(),
            options: ["a".into(), "b".into()],
            answer: Choice::Option1,
            expression: None,
            meaning: None,
            inferences: vec![" personx wanted to win ".into(), "PersonX slept".into()],
        };
        assert_eq!(
            first_texts(&item, PairOrder::Code),
            [
                "He could go places. </s> they wanted to win",
                "He could go places. </s> PersonX slept"
            ]
        );
        assert_eq!(
            first_texts(&item, PairOrder::Paper)[0],
            "they wanted to win </s> He could go places."
        );
        let plain = NarrativeItem {
            inferences: vec![],
            ..item
        };
        assert_eq!(
            first_texts(&plain, PairOrder::Code),
            ["He could go places."]
        );
    }
}

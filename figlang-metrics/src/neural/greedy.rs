//! BERTScore's arithmetic, independent of the model: IDF weights, greedy cosine matching,
//! baseline rescaling. Mirrors `bert_score` 0.3.13 (`get_idf_dict`, `greedy_cos_idf`,
//! `score`), including its treatment of padding and of empty sentences.

use std::collections::{HashMap, HashSet};

/// Precision, recall and F1 of one candidate.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Prf {
    /// Greedy-matching precision.
    pub precision: f64,
    /// Greedy-matching recall.
    pub recall: f64,
    /// Harmonic mean of precision and recall (0 when undefined).
    pub f1: f64,
}

impl Prf {
    /// Element-wise maximum, as `bert_score` aggregates several references with `torch.max`:
    /// a NaN (the recall of an empty reference, say) wins, where `f64::max` would drop it.
    pub fn max(self, other: Prf) -> Prf {
        let max = |a: f64, b: f64| {
            if a.is_nan() || b.is_nan() {
                f64::NAN
            } else {
                a.max(b)
            }
        };
        Prf {
            precision: max(self.precision, other.precision),
            recall: max(self.recall, other.recall),
            f1: max(self.f1, other.f1),
        }
    }
}

/// Inverse document frequencies of token ids over a set of reference sentences:
/// `idf(w) = ln((M + 1) / (df(w) + 1))` with `M` references; unseen ids get `ln(M + 1)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Idf {
    doc_freq: HashMap<u32, usize>,
    num_docs: usize,
}

impl Idf {
    /// Counts, for each id, the number of references containing it (special tokens included,
    /// as `bert_score` does: they occur in every reference and so get weight 0).
    pub fn from_references<'a>(refs: impl IntoIterator<Item = &'a [u32]>) -> Self {
        let mut doc_freq = HashMap::new();
        let mut num_docs = 0;
        for ids in refs {
            num_docs += 1;
            for id in ids.iter().copied().collect::<HashSet<u32>>() {
                *doc_freq.entry(id).or_insert(0) += 1;
            }
        }
        Self { doc_freq, num_docs }
    }

    /// The weight of `id`.
    pub fn weight(&self, id: u32) -> f64 {
        let df = self.doc_freq.get(&id).copied().unwrap_or(0);
        ((self.num_docs as f64 + 1.0) / (df as f64 + 1.0)).ln()
    }
}

/// Token weights of one sentence: IDF when given, else 1 for every token but the special
/// `cls` and `sep` ids, which get 0 (as `bert_score` sets them without IDF).
pub fn token_weights(ids: &[u32], idf: Option<&Idf>, cls: u32, sep: u32) -> Vec<f64> {
    ids.iter()
        .map(|&id| match idf {
            Some(idf) => idf.weight(id),
            None if id == cls || id == sep => 0.0,
            None => 1.0,
        })
        .collect()
}

/// One sentence ready for matching: L2-normalised token vectors and their weights.
#[derive(Debug, Clone, PartialEq)]
pub struct Side {
    /// Unit-length token embeddings (special tokens included).
    pub vectors: Vec<Vec<f32>>,
    /// Weight of each token.
    pub weights: Vec<f64>,
}

impl Side {
    /// Normalises raw hidden states (a zero vector stays zero, where torch would give NaN).
    pub fn new(states: Vec<Vec<f32>>, weights: Vec<f64>) -> Self {
        let vectors = states
            .into_iter()
            .map(|v| {
                let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
                if norm > 0.0 {
                    v.into_iter().map(|x| x / norm).collect()
                } else {
                    v
                }
            })
            .collect();
        Self { vectors, weights }
    }

    fn len(&self) -> usize {
        self.vectors.len()
    }
}

/// Greedy matching of a candidate against one reference.
///
/// `ref_padded` / `hyp_padded` say whether, in `bert_score`'s batch, the reference (candidate)
/// was shorter than the longest reference (candidate) of the batch: its padding positions then
/// enter the maxima with similarity 0 (`sim * mask`). This only matters when every similarity
/// of a token is negative, which real models almost never produce, but tiny random models do.
pub fn greedy_match(hyp: &Side, reference: &Side, hyp_padded: bool, ref_padded: bool) -> Prf {
    let sims: Vec<Vec<f32>> = hyp
        .vectors
        .iter()
        .map(|h| reference.vectors.iter().map(|r| dot(h, r)).collect())
        .collect();
    let floor = |padded: bool| if padded { 0.0f32 } else { f32::NEG_INFINITY };
    let word_precision: Vec<f32> = sims
        .iter()
        .map(|row| row.iter().copied().fold(floor(ref_padded), f32::max))
        .collect();
    let word_recall: Vec<f32> = (0..reference.len())
        .map(|j| {
            sims.iter()
                .map(|row| row[j])
                .fold(floor(hyp_padded), f32::max)
        })
        .collect();
    let precision = weighted_mean(&word_precision, &hyp.weights);
    let recall = weighted_mean(&word_recall, &reference.weights);
    let mut f1 = 2.0 * precision * recall / (precision + recall);
    if f1.is_nan() {
        f1 = 0.0;
    }
    // bert_score computes F before zeroing P and R of empty sentences ([CLS] [SEP] only).
    let empty = |side: &Side| side.len() == 2;
    let (precision, recall) = if empty(hyp) || empty(reference) {
        (0.0, 0.0)
    } else {
        (precision, recall)
    };
    Prf {
        precision,
        recall,
        f1,
    }
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// `sum(w_i x_i) / sum(w_i)`; NaN when the weights sum to 0, as in the reference, and so
/// for a side without tokens too (bert_score pads its zero weights: 0/0 again), where an
/// empty sum would give -0.
fn weighted_mean(values: &[f32], weights: &[f64]) -> f64 {
    let total: f64 = weights.iter().sum();
    if total == 0.0 {
        return f64::NAN;
    }
    values
        .iter()
        .zip(weights)
        .map(|(&x, &w)| x as f64 * (w / total))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(vectors: Vec<Vec<f32>>, weights: Vec<f64>) -> Side {
        Side::new(vectors, weights)
    }

    #[test]
    fn identical_sentences_score_one() {
        let v = vec![
            vec![1.0, 0.0],
            vec![0.3, 0.7],
            vec![0.0, 1.0],
            vec![1.0, 1.0],
        ];
        let w = vec![0.0, 1.0, 1.0, 0.0];
        let s = greedy_match(&side(v.clone(), w.clone()), &side(v, w), false, false);
        assert!((s.precision - 1.0).abs() < 1e-6 && (s.recall - 1.0).abs() < 1e-6);
        assert!((s.f1 - 1.0).abs() < 1e-6);
    }

    #[test]
    fn padding_floor_applies_only_when_padded() {
        // One content token whose similarity to every reference token is -1.
        let hyp = side(
            vec![vec![1.0, 0.0], vec![1.0, 0.0], vec![1.0, 0.0]],
            vec![0.0, 1.0, 0.0],
        );
        let reference = side(vec![vec![-1.0, 0.0]; 3], vec![0.0, 1.0, 0.0]);
        assert!((greedy_match(&hyp, &reference, false, false).precision + 1.0).abs() < 1e-6);
        assert_eq!(greedy_match(&hyp, &reference, false, true).precision, 0.0);
    }

    #[test]
    fn empty_sentences_score_zero() {
        let two = side(vec![vec![1.0, 0.0], vec![0.0, 1.0]], vec![0.0, 0.0]);
        let three = side(vec![vec![1.0, 0.0]; 3], vec![0.0, 1.0, 0.0]);
        let s = greedy_match(&two, &three, false, false);
        assert_eq!((s.precision, s.recall, s.f1), (0.0, 0.0, 0.0));
    }

    #[test]
    fn idf_counts_documents_not_occurrences() {
        let refs: Vec<Vec<u32>> = vec![vec![1, 5, 5, 2], vec![1, 6, 2]];
        let idf = Idf::from_references(refs.iter().map(Vec::as_slice));
        assert!((idf.weight(5) - (3.0f64 / 2.0).ln()).abs() < 1e-15);
        assert_eq!(idf.weight(1), 0.0);
        assert!((idf.weight(99) - 3.0f64.ln()).abs() < 1e-15);
        assert_eq!(token_weights(&[1, 7, 2], None, 1, 2), vec![0.0, 1.0, 0.0]);
    }
}

//! BERTScore (Zhang et al., 2020), compatible with the `bert_score` package 0.3.13:
//! greedy matching of contextual token embeddings of one layer, optional IDF weights from the
//! references, special tokens weighted 0, maximum over several references, optional baseline
//! rescaling.

use hauser_core::Signature;
use hauser_nli::Embedder;
use hauser_nli::PackedCpu;

use crate::neural::baseline::Baseline;
use crate::neural::error::{NeuralError, NeuralResult};
use crate::neural::greedy::{greedy_match, token_weights, Idf, Prf, Side};

/// `bert_score`'s default layer for common models (its `model2layers` table), plus
/// all-MiniLM-L6-v2 (see the entry).
pub const DEFAULT_LAYERS: &[(&str, usize)] = &[
    ("bert-base-uncased", 9),
    ("bert-large-uncased", 18),
    ("bert-base-multilingual-cased", 9),
    ("roberta-base", 10),
    ("roberta-large", 17),
    ("roberta-large-mnli", 19),
    ("distilroberta-base", 5),
    ("distilbert-base-uncased", 5),
    ("xlm-roberta-base", 9),
    ("xlm-roberta-large", 17),
    ("albert-base-v2", 9),
    ("microsoft/deberta-base", 9),
    ("microsoft/deberta-base-mnli", 9),
    ("microsoft/deberta-large", 16),
    ("microsoft/deberta-large-mnli", 18),
    ("microsoft/deberta-xlarge-mnli", 40),
    // Not in the package's table (it has no MiniLM entry): our default, the last layer, which
    // is the layer sentence-transformers pools and the one measured in docs/REPRODUCTION.md.
    ("sentence-transformers/all-MiniLM-L6-v2", 6),
];

/// The default layer of `model_id`, if `bert_score` has one.
pub fn default_layer(model_id: &str) -> Option<usize> {
    DEFAULT_LAYERS
        .iter()
        .find(|(m, _)| *m == model_id)
        .map(|&(_, l)| l)
}

/// Options of [`BertScore`].
#[derive(Debug, Clone, PartialEq)]
pub struct BertScoreOptions {
    /// Hidden-state layer (0 = embedding output); `None` = the package's default for the model.
    pub layer: Option<usize>,
    /// Weight tokens by IDF computed from the references.
    pub idf: bool,
    /// Rescale with this baseline (and record its file in the signature).
    pub baseline: Option<(String, Baseline)>,
    /// `bert_score`'s batch size (64 by default): pairs are matched in batches of this size and
    /// padding inside a batch takes part in the maxima with similarity 0 (see
    /// [`greedy_match`]); keep it equal to the reference run's for exact parity.
    pub batch_size: usize,
    /// Whether texts get a leading space before tokenization; `None` = the package's behaviour
    /// for the model (see [`default_prefix_space`]). Recorded in the signature when it differs
    /// from that default.
    pub prefix_space: Option<bool>,
    /// How an empty text is encoded. `false` (the default): `[CLS] [SEP]`, as bert_score does
    /// with every model-specific tokenizer class (`BertTokenizer`, `RobertaTokenizer`...: the
    /// classes hub models name); P and R of its pairs are then 0. `true`: as bert_score 0.3.13
    /// on transformers 4.x does with the model's own class, `build_inputs_with_special_tokens([])`,
    /// which transformers' generic `PreTrainedTokenizerFast` leaves empty: the text has no
    /// token, so a candidate's precision or a reference's recall is 0/0 (NaN) and the IDF
    /// counts the reference as a document without tokens. The `bert-score` drop-in command
    /// sets it; it only changes anything for a model whose `tokenizer_class` is the generic one.
    pub empty_by_tokenizer_class: bool,
}

/// Whether `bert_score` 0.3.13 encodes texts of a `model_type` with `add_prefix_space=True`: it
/// does so for tokenizers deriving from transformers' `GPT2Tokenizer` or `RobertaTokenizer`,
/// i.e. RoBERTa's byte-level BPE and DeBERTa v1's, whose `DebertaTokenizer` derived from
/// `GPT2Tokenizer` until transformers 4.24 (PR #19551, October 2022), the releases the
/// figurative-narratives paper ran on. Later releases (for DeBERTa v1) and transformers 5 (which
/// ignores the flag, for both) tokenize without the space: pass `Some(false)` to reproduce them.
pub fn default_prefix_space(model_type: &str) -> bool {
    matches!(model_type, "roberta" | "deberta")
}

impl Default for BertScoreOptions {
    fn default() -> Self {
        Self {
            layer: None,
            idf: false,
            baseline: None,
            batch_size: 64,
            prefix_space: None,
            empty_by_tokenizer_class: false,
        }
    }
}

/// A BERTScore metric bound to one encoder.
#[derive(Debug)]
pub struct BertScore {
    embedder: Embedder,
    model_id: String,
    layer: usize,
    cls: u32,
    sep: u32,
    prefix_space: bool,
    /// Empty texts have no token ([`BertScoreOptions::empty_by_tokenizer_class`] with a model
    /// of the generic tokenizer class, `hauser_nli::tokenizer_class`): no states, a recall (as
    /// a reference) or precision (as a candidate) of 0/0, and a document without tokens for IDF.
    bare_empty: bool,
    options: BertScoreOptions,
}

impl BertScore {
    /// Binds the metric to an encoder; `model_id` names it in signatures and selects the
    /// default layer.
    ///
    /// # Errors
    /// [`NeuralError::NoDefaultLayer`] when no layer is given and none is known; tokenizer
    /// failures.
    pub fn new(
        embedder: Embedder,
        model_id: &str,
        options: BertScoreOptions,
    ) -> NeuralResult<Self> {
        let layer = match options.layer.or_else(|| default_layer(model_id)) {
            Some(l) => l,
            None => return Err(NeuralError::NoDefaultLayer(model_id.to_string())),
        };
        // The ids of an empty sentence are exactly the special tokens around it.
        let empty = embedder.model().text_encoder().encode("", None)?;
        let (cls, sep) = match empty.ids[..] {
            [cls, sep] => (cls, sep),
            _ => {
                return Err(NeuralError::Input(format!(
                "model {model_id}: expected two special tokens around an empty sentence, got {:?}",
                empty.ids
            )))
            }
        };
        let prefix_space = options
            .prefix_space
            .unwrap_or_else(|| default_prefix_space(embedder.model().model_type()));
        let bare_empty = options.empty_by_tokenizer_class
            && hauser_nli::tokenizer_class(embedder.model().source())?.as_deref()
                == Some("PreTrainedTokenizerFast");
        Ok(Self {
            embedder,
            model_id: model_id.to_string(),
            layer,
            cls,
            sep,
            prefix_space,
            bare_empty,
            options,
        })
    }

    /// The layer in use.
    pub fn layer(&self) -> usize {
        self.layer
    }

    /// The reproducibility signature, e.g.
    /// `bertscore|model:roberta-large|rev:main|layer:17|idf:no|rescaled:no|batch:64|kernels:packed-cpu|version:0.1.0`.
    /// A leading-space choice other than the package's default adds `prefix:yes|no`.
    pub fn signature(&self) -> Signature {
        let model = self.embedder.model();
        let source = model.source();
        let sig = Signature::new("bertscore", crate::VERSION)
            .with("model", &self.model_id)
            .with("rev", source.revision())
            .with("layer", self.layer)
            .with("idf", if self.options.idf { "yes" } else { "no" })
            .with(
                "rescaled",
                self.options
                    .baseline
                    .as_ref()
                    .map_or("no", |(p, _)| p.as_str()),
            )
            .with("batch", self.options.batch_size)
            .with("kernels", model.kernels());
        if self.prefix_space == default_prefix_space(model.model_type()) {
            sig
        } else {
            sig.with("prefix", if self.prefix_space { "yes" } else { "no" })
        }
    }

    fn prepare(&self, text: &str) -> String {
        let t = text.trim();
        if self.prefix_space && !t.is_empty() {
            format!(" {t}")
        } else {
            t.to_string()
        }
    }

    /// Scores every candidate against its references (maximum over references, element-wise
    /// for P, R and F1, as the package does).
    ///
    /// # Errors
    /// A candidate without references, a length mismatch, or model failures.
    pub fn score(&self, candidates: &[&str], references: &[Vec<&str>]) -> NeuralResult<Vec<Prf>> {
        if candidates.len() != references.len() {
            return Err(NeuralError::Input(format!(
                "{} candidates but {} reference lists",
                candidates.len(),
                references.len()
            )));
        }
        if let Some(i) = references.iter().position(Vec::is_empty) {
            return Err(NeuralError::Input(format!(
                "candidate {i} has no reference"
            )));
        }
        // Flattened pairs, in the package's order.
        let pairs: Vec<(usize, &str, &str)> = candidates
            .iter()
            .zip(references)
            .enumerate()
            .flat_map(|(i, (c, refs))| refs.iter().map(move |r| (i, *c, *r)))
            .collect();

        let (unique, slots) = self.distinct(pairs.iter().flat_map(|(_, c, r)| [*c, *r]));
        // (hypothesis, reference) slots of each pair.
        let slot_pairs: Vec<(usize, usize)> = slots.chunks(2).map(|s| (s[0], s[1])).collect();
        let sides = self.sides(&unique, slot_pairs.iter().map(|&(_, r)| r))?;

        let mut best: Vec<Option<Prf>> = vec![None; candidates.len()];
        let size = self.options.batch_size.max(1);
        for (batch, of) in slot_pairs.chunks(size).zip(pairs.chunks(size)) {
            for (s, &(i, _, _)) in self.match_batch(&sides, batch).into_iter().zip(of) {
                best[i] = Some(best[i].map_or(s, |b| b.max(s)));
            }
        }
        Ok(best
            .into_iter()
            .map(|s| {
                self.rescale(s.unwrap_or(Prf {
                    precision: 0.0,
                    recall: 0.0,
                    f1: 0.0,
                }))
            })
            .collect())
    }

    /// Scores every ordered pair of two different candidates, hypothesis `j` against reference
    /// `k` (minimum-Bayes-risk's pseudo-references), and hands `each(j, scores)` the `n - 1`
    /// scores of hypothesis `j` (`k` ascending, `k != j`), `j` in order. The scores are those
    /// [`BertScore::score`] gives the same pairs listed one reference each, `j`-major (the same
    /// batches of `batch_size` pairs, whose longest sentences decide the padding, and the same
    /// IDF over the references of every pair), bit for bit; but each sentence's states are held
    /// once and the pairs are made as they are scored, so memory grows with the candidates, not
    /// with their pairs.
    ///
    /// # Errors
    /// Model failures.
    pub fn score_pairs(
        &self,
        candidates: &[&str],
        each: &mut dyn FnMut(usize, &[Prf]),
    ) -> NeuralResult<()> {
        let n = candidates.len();
        if n < 2 {
            return Ok(());
        }
        let (unique, slots) = self.distinct(candidates.iter().copied());
        let pairs =
            || (0..n).flat_map(move |j| (0..n).filter(move |&k| k != j).map(move |k| (j, k)));
        let sides = self.sides(&unique, pairs().map(|(_, k)| slots[k]))?;
        let mut row = Vec::with_capacity(n - 1);
        let mut batch = Vec::with_capacity(self.options.batch_size.max(1));
        let mut all = pairs().map(|(j, k)| (slots[j], slots[k])).peekable();
        let mut j = 0;
        while all.peek().is_some() {
            batch.clear();
            batch.extend(all.by_ref().take(self.options.batch_size.max(1)));
            for s in self.match_batch(&sides, &batch) {
                row.push(self.rescale(s));
                if row.len() == n - 1 {
                    each(j, &row);
                    row.clear();
                    j += 1;
                }
            }
        }
        Ok(())
    }

    /// The distinct prepared texts of `texts` in order of first appearance, and the index of
    /// each text among them.
    fn distinct<'t>(&self, texts: impl IntoIterator<Item = &'t str>) -> (Vec<String>, Vec<usize>) {
        let mut unique: Vec<String> = Vec::new();
        let mut index = std::collections::HashMap::new();
        let slots = texts
            .into_iter()
            .map(|t| {
                let prepared = self.prepare(t);
                *index.entry(prepared.clone()).or_insert_with(|| {
                    unique.push(prepared);
                    unique.len() - 1
                })
            })
            .collect();
        (unique, slots)
    }

    /// The greedy-matching scores (not rescaled) of one batch of (hypothesis, reference) pairs,
    /// given as indices into `sides`: a sentence shorter than the batch's longest on its side is
    /// padded, as bert_score pads a batch.
    fn match_batch(&self, sides: &[Side], batch: &[(usize, usize)]) -> Vec<Prf> {
        let len = |k: usize| sides[k].weights.len();
        let max_hyp = batch.iter().map(|&(h, _)| len(h)).max().unwrap_or(0);
        let max_ref = batch.iter().map(|&(_, r)| len(r)).max().unwrap_or(0);
        batch
            .iter()
            .map(|&(h, r)| greedy_match(&sides[h], &sides[r], len(h) < max_hyp, len(r) < max_ref))
            .collect()
    }

    /// The states and token weights of each of `unique` (prepared texts), with IDF (when on)
    /// counted over the references `ref_slots` (indices into `unique`, one per pair).
    fn sides(
        &self,
        unique: &[String],
        ref_slots: impl Iterator<Item = usize>,
    ) -> NeuralResult<Vec<Side>> {
        let inputs: Vec<(&str, Option<&str>)> = unique.iter().map(|s| (s.as_str(), None)).collect();
        let mut states = self
            .embedder
            .token_states(&inputs, Some(self.layer as isize))?;
        if self.bare_empty {
            for (k, text) in unique.iter().enumerate() {
                if text.is_empty() {
                    states.ids[k].clear();
                    states.states[k].clear();
                }
            }
        }
        let idf = self
            .options
            .idf
            .then(|| Idf::from_references(ref_slots.map(|k| states.ids[k].as_slice())));
        Ok((0..unique.len())
            .map(|k| {
                let weights = token_weights(&states.ids[k], idf.as_ref(), self.cls, self.sep);
                Side::new(states.states[k].clone(), weights)
            })
            .collect())
    }

    /// A score rescaled with the baseline, when one is set.
    fn rescale(&self, s: Prf) -> Prf {
        match &self.options.baseline {
            Some((_, b)) => b.rescale(s),
            None => s,
        }
    }
}

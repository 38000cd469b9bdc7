//! unbabel-comet's unified models (`UnifiedMetric`, i.e. CometKiwi, and `XCOMETMetric`), as its
//! 2.2.7 `predict` runs them: the hypothesis and the source and/or reference tokenised alone,
//! joined into one sequence (`<s> mt </s></s> src </s></s> ref </s>` for XLM-R) and cut to the
//! encoder's positions; the first token of the layer mix feeds the estimator; a word-level head
//! tags the hypothesis' tokens, and the runs of error tags become error spans.

use serde::Serialize;

use super::head::ScalarMix;
use super::hparams::{CometClass, Segment};
use super::CometModel;
use crate::error::{NliError, Result};
use crate::tokenize::Encoded;

/// One segment for [`CometModel::predict`]: a hypothesis with its source and reference when
/// there are any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CometSegment<'a> {
    /// Source sentence.
    pub src: Option<&'a str>,
    /// Hypothesis (system output).
    pub mt: &'a str,
    /// Reference.
    pub reference: Option<&'a str>,
}

/// An error span of the hypothesis, as unbabel-comet's `metadata.error_spans` gives it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ErrorSpan {
    /// The span's tokens decoded (special tokens included, as COMET decodes them).
    pub text: String,
    /// Mean probability of the winning tag over the span's tokens.
    pub confidence: f32,
    /// `minor`, `major`, `critical` (the checkpoint's error labels).
    pub severity: String,
    /// First character of the span in the hypothesis.
    pub start: usize,
    /// One past its last character.
    pub end: usize,
}

/// What [`CometModel::predict`] returns for one segment.
#[derive(Debug, Clone, PartialEq)]
pub struct CometPrediction {
    /// The segment's score.
    pub score: f32,
    /// Error spans, for models with a word-level head.
    pub error_spans: Option<Vec<ErrorSpan>>,
    /// XCOMET: the MQM score of the spans, `(25 - min(25, minor + 5 major + 10 critical)) / 25`.
    pub mqm_score: Option<f32>,
    /// The scores of the segment's passes as unbabel-comet's `predict` reports them in its
    /// metadata: for the UnifiedMetric and XCOMET models that run `[mt, src]`, `[mt, ref]` and
    /// `[mt, src, ref]`, those three (`src_scores`, `ref_scores`, `unified_scores`); for XCOMET
    /// on one input, its regression score capped at 1 (`src_scores`); empty otherwise.
    pub pass_scores: Vec<f32>,
}

/// unbabel-comet's weights of the `[mt, src]`, `[mt, ref]` and `[mt, src, ref]` tag
/// probabilities when all three run.
const SPAN_WEIGHTS: [f32; 3] = [0.1667, 0.3333, 0.5];
/// XCOMET's weights of the three regression scores and of the MQM score.
const XCOMET_WEIGHTS: [f32; 4] = [0.12, 0.33, 0.33, 0.22];

/// The word-level head (`hidden2tag`).
#[derive(Debug, Clone)]
pub(crate) struct WordHead {
    /// `classes x hidden`, row-major.
    pub weight: Vec<f32>,
    pub bias: Vec<f32>,
    /// `O`, then `I-<label>` for each error label.
    pub tags: Vec<String>,
    /// The hidden state it reads.
    pub layer: usize,
}

/// What the encoder gives one joined sequence: the sentence score and, with a word-level
/// head, the tag probabilities of its first tokens.
struct Pass {
    score: f32,
    probs: Vec<Vec<f32>>,
}

/// The inputs of one segment: which joined sequences it runs (indices into the pass list).
struct Plan {
    passes: Vec<usize>,
    mt_ids: Vec<u32>,
    offsets: Vec<(usize, usize)>,
}

impl CometModel {
    /// Scores every segment (in input order): any class; for the unified classes the source
    /// and reference a segment has and the model takes decide its inputs, as in unbabel-comet
    /// (both: the three joined inputs), and models with a word-level head give error spans.
    ///
    /// # Errors
    /// [`NliError::Invalid`] when the model needs a reference a segment lacks; tokenizer or
    /// inference failures.
    pub fn predict(&self, inputs: &[CometSegment<'_>]) -> Result<Vec<CometPrediction>> {
        if !self.hparams.class.is_unified() {
            let old: Vec<super::CometInput<'_>> = inputs
                .iter()
                .map(|x| super::CometInput {
                    src: x.src.unwrap_or(""),
                    mt: x.mt,
                    reference: x.reference,
                })
                .collect();
            return Ok(self
                .score(&old)?
                .into_iter()
                .map(|score| CometPrediction {
                    score,
                    error_spans: None,
                    mqm_score: None,
                    pass_scores: Vec::new(),
                })
                .collect());
        }
        let name = self.dir.display().to_string();
        let takes = |s: Segment| self.hparams.input_segments.contains(&s);
        if self.hparams.input_segments == [Segment::Ref] {
            if let Some(i) = inputs.iter().position(|x| x.reference.is_none()) {
                return Err(NliError::Invalid {
                    model: name,
                    message: format!(
                        "input {i} has no reference; this model (input_segments [mt, ref]) needs one"
                    ),
                });
            }
        }
        let text = self.encoder.text_encoder();
        let pad = self.encoder.config.pad_token_id;
        // COMET drops padding ids before joining, whatever put them there.
        let strip =
            |e: Encoded| -> Vec<u32> { e.ids.into_iter().filter(|&t| Some(t) != pad).collect() };
        let specials = text.pair_specials()?;
        let mut seqs: Vec<Encoded> = Vec::new();
        // The hypothesis' tokens of each joined sequence (its first `mt_ids.len()`).
        let mut mt_len: Vec<usize> = Vec::new();
        let mut plans = Vec::with_capacity(inputs.len());
        for x in inputs {
            let (mt, offsets) = text.encode_with_offsets(x.mt)?;
            let mt_ids = strip(mt);
            let src = match x.src.filter(|_| takes(Segment::Src)) {
                Some(s) => Some(strip(text.encode(s, None)?)),
                None => None,
            };
            let rf = match x.reference.filter(|_| takes(Segment::Ref)) {
                Some(r) => Some(strip(text.encode(r, None)?)),
                None => None,
            };
            let groups: Vec<Vec<&[u32]>> = match (&src, &rf) {
                (Some(s), Some(r)) => vec![vec![s], vec![r], vec![s, r]],
                (Some(s), None) => vec![vec![s]],
                (None, Some(r)) => vec![vec![r]],
                (None, None) => vec![vec![]],
            };
            let mut passes = Vec::with_capacity(groups.len());
            for others in groups {
                passes.push(seqs.len());
                seqs.push(self.join(&mt_ids, &others, &specials));
                mt_len.push(mt_ids.len());
            }
            plans.push(Plan {
                passes,
                mt_ids,
                offsets,
            });
        }
        let passes = self.run_joined(&seqs, &mt_len)?;
        plans
            .into_iter()
            .map(|p| self.combine(&p, &passes))
            .collect()
    }

    /// COMET's `concat_sequences`: each further text's inner tokens joined to the sequence
    /// so far with the tokenizer's pair specials, cut to the encoder's positions. Segment ids:
    /// 0 over the hypothesis, 1 after it.
    fn join(&self, mt: &[u32], others: &[&[u32]], specials: &(u32, Vec<u32>, u32)) -> Encoded {
        let inner = |s: &[u32]| -> Vec<u32> {
            if s.len() >= 2 {
                s[1..s.len() - 1].to_vec()
            } else {
                Vec::new()
            }
        };
        let (first, between, last) = specials;
        let mut ids = mt.to_vec();
        for o in others {
            let mut next = vec![*first];
            next.extend(inner(&ids));
            next.extend(between);
            next.extend(inner(o));
            next.push(*last);
            ids = next;
        }
        ids.truncate(self.max_positions);
        let mut type_ids = vec![0; ids.len()];
        type_ids.iter_mut().skip(mt.len()).for_each(|t| *t = 1);
        Encoded {
            ids,
            type_ids,
            truncated: false,
        }
    }

    /// Runs the joined sequences: the first token of the mix (or of `sent_layer`) through the
    /// estimator, and the word head's softmax on the hypothesis' tokens of the word layer
    /// (`mt_len[i]` tokens of sequence `i`; [`Self::combine`] reads no other).
    fn run_joined(&self, seqs: &[Encoded], mt_len: &[usize]) -> Result<Vec<Pass>> {
        let h = self.encoder.config.hidden_size;
        let word = self.word.as_ref();
        let upto = word.map_or(self.layer, |w| w.layer.max(self.layer));
        let (mix, layer): (Option<&ScalarMix>, usize) = (self.mix.as_ref(), self.layer);
        let fold = move |l: usize, rows: &[f32], acc: &mut [f32]| {
            let (cls, words) = acc.split_at_mut(h);
            match mix {
                // The mix normalises over all of the sequence's tokens; only its first row is read.
                Some(m) => m.add(l, rows, cls),
                None if l == layer => cls.copy_from_slice(&rows[..h]),
                None => {}
            }
            if word.is_some_and(|w| w.layer == l) {
                words.copy_from_slice(&rows[..words.len()]);
            }
        };
        // The rows read of layer `upto`: the first (the sentence score) and, with a word head
        // there, the hypothesis' tokens; the encoder may compute only those there. A mix that
        // normalises over whole sentences (`layer_norm`) reads every row of every layer.
        let words_at_top = word.is_some_and(|w| w.layer == upto);
        let words_below = word.is_some() && !words_at_top;
        let leading = !words_below && mix.is_none_or(|m| !m.layer_norm);
        let mut out = Vec::with_capacity(seqs.len());
        for (chunk, mt_len) in seqs.chunks(super::CHUNK).zip(mt_len.chunks(super::CHUNK)) {
            let acc_len = |i: usize| match word {
                Some(_) => h + chunk[i].ids.len().min(mt_len[i]) * h,
                None => h,
            };
            let lead: Option<Vec<usize>> = leading.then(|| {
                mt_len
                    .iter()
                    .map(|&n| if words_at_top { n.max(1) } else { 1 })
                    .collect()
            });
            let lead = lead.as_deref();
            let states = self
                .encoder
                .fold_layers(chunk, upto, lead, &acc_len, &fold)?;
            let cls: Vec<f32> = states.iter().flat_map(|s| s[..h].to_vec()).collect();
            let scores = self.estimate(cls, chunk.len())?;
            for (s, score) in states.iter().zip(scores) {
                let probs = match word {
                    Some(w) => s[h..].chunks(h).map(|row| w.probabilities(row)).collect(),
                    None => Vec::new(),
                };
                out.push(Pass { score, probs });
            }
        }
        Ok(out)
    }

    /// The segment's score, spans and MQM score from its passes.
    fn combine(&self, plan: &Plan, passes: &[Pass]) -> Result<CometPrediction> {
        let runs: Vec<&Pass> = plan.passes.iter().map(|&i| &passes[i]).collect();
        let spans = match &self.word {
            Some(w) => {
                let n = plan.offsets.len().min(plan.mt_ids.len());
                let probs: Vec<Vec<f32>> = (0..n)
                    .map(|t| {
                        if runs.len() == 3 {
                            let mut p = vec![0f32; w.tags.len()];
                            for (run, wt) in runs.iter().zip(SPAN_WEIGHTS) {
                                p.iter_mut()
                                    .zip(&run.probs[t])
                                    .for_each(|(a, b)| *a += b * wt);
                            }
                            p
                        } else {
                            runs[0].probs[t].clone()
                        }
                    })
                    .collect();
                Some(self.decode_spans(w, &plan.mt_ids[..n], &probs, &plan.offsets[..n])?)
            }
            None => None,
        };
        let scores: Vec<f32> = runs.iter().map(|r| r.score).collect();
        let pass_scores = if scores.len() == 3 {
            scores.clone()
        } else {
            Vec::new()
        };
        if self.hparams.class == CometClass::Xcomet {
            let mqm = mqm_score(spans.as_deref().unwrap_or_default());
            let clamp = |s: f32| if s > 1.0 { 1.0 } else { s };
            let regression = if scores.len() == 3 {
                scores
                    .iter()
                    .zip(&XCOMET_WEIGHTS[..3])
                    .map(|(s, w)| clamp(*s) * w)
                    .sum::<f32>()
            } else {
                // The three weights' sum, as Python adds them (0.78), for the one input.
                let w = (0.12f64 + 0.33 + 0.33) as f32;
                clamp(scores[0]) * w
            };
            return Ok(CometPrediction {
                score: regression + mqm * XCOMET_WEIGHTS[3],
                error_spans: spans,
                mqm_score: Some(mqm),
                pass_scores: if scores.len() == 3 {
                    pass_scores
                } else {
                    vec![clamp(scores[0])]
                },
            });
        }
        let score = scores.iter().sum::<f32>() / scores.len() as f32;
        Ok(CometPrediction {
            score,
            error_spans: spans,
            mqm_score: None,
            pass_scores,
        })
    }

    /// COMET's `decode`: each token's most probable tag; a run of error tags opened by an
    /// `I-` tag (its severity is the first token's) and closed by an `O` is a span. A run still
    /// open at the hypothesis' end is dropped, as COMET drops it.
    fn decode_spans(
        &self,
        w: &WordHead,
        ids: &[u32],
        probs: &[Vec<f32>],
        offsets: &[(usize, usize)],
    ) -> Result<Vec<ErrorSpan>> {
        struct Open {
            tokens: Vec<u32>,
            severity: String,
            start: usize,
            end: usize,
            confidence: Vec<f32>,
        }
        let mut done: Vec<Open> = Vec::new();
        let mut open: Option<Open> = None;
        for ((&id, p), &(start, end)) in ids.iter().zip(probs).zip(offsets) {
            let (best, prob) =
                p.iter()
                    .enumerate()
                    .fold((0, f32::NEG_INFINITY), |(bi, bp), (i, &x)| {
                        if x > bp {
                            (i, x)
                        } else {
                            (bi, bp)
                        }
                    });
            let tag = &w.tags[best];
            match (tag.strip_prefix("I-"), open.as_mut()) {
                (Some(sev), None) => {
                    open = Some(Open {
                        tokens: vec![id],
                        severity: sev.to_string(),
                        start,
                        end,
                        confidence: vec![prob],
                    })
                }
                (Some(_), Some(o)) => {
                    o.tokens.push(id);
                    o.confidence.push(prob);
                    o.end = end;
                }
                (None, Some(_)) => done.extend(open.take()),
                (None, None) => {}
            }
        }
        let text = self.encoder.text_encoder();
        done.into_iter()
            .map(|o| {
                let mut t = text.decode(&o.tokens, false)?;
                if self.clean_up_spaces {
                    t = clean_up_tokenization(&t);
                }
                Ok(ErrorSpan {
                    text: t,
                    confidence: o.confidence.iter().sum::<f32>() / o.confidence.len() as f32,
                    severity: o.severity,
                    start: o.start,
                    end: o.end,
                })
            })
            .collect()
    }
}

impl WordHead {
    /// Softmax of the tag logits of one token's states.
    fn probabilities(&self, row: &[f32]) -> Vec<f32> {
        let logits: Vec<f32> = self
            .weight
            .chunks(row.len())
            .zip(&self.bias)
            .map(|(w, b)| w.iter().zip(row).map(|(a, x)| a * x).sum::<f32>() + b)
            .collect();
        let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let exp: Vec<f32> = logits.iter().map(|l| (l - max).exp()).collect();
        let total: f32 = exp.iter().sum();
        exp.into_iter().map(|e| e / total).collect()
    }
}

/// XCOMET's `_compute_mqm_from_spans`: minor 1, major 5, critical 10, capped at 25, as
/// `(25 - penalty) / 25`.
fn mqm_score(spans: &[ErrorSpan]) -> f32 {
    let penalty: u32 = spans
        .iter()
        .map(|s| match s.severity.as_str() {
            "minor" => 1,
            "major" => 5,
            "critical" => 10,
            _ => 0,
        })
        .sum::<u32>()
        .min(25);
    (25 - penalty) as f32 / 25.0
}

/// transformers' `clean_up_tokenization` (a decode option some tokenizers' configs turn on).
pub(crate) fn clean_up_tokenization(s: &str) -> String {
    s.replace(" .", ".")
        .replace(" ?", "?")
        .replace(" !", "!")
        .replace(" ,", ",")
        .replace(" ' ", "'")
        .replace(" n't", "n't")
        .replace(" 'm", "'m")
        .replace(" 's", "'s")
        .replace(" 've", "'ve")
        .replace(" 're", "'re")
}

//! SentencePiece unigram models (`spm.model`, e.g. BLEURT-20's and DeBERTa v3's, which ship no
//! `tokenizer.json`) as a `tokenizers` pipeline that encodes as the `sentencepiece` library
//! does: the model's precompiled character map (its normalisation rule, e.g. nmt_nfkc), extra
//! whitespace removed, a `▁` dummy prefix, spaces escaped to `▁`, then the Viterbi segmentation
//! over the pieces' scores with the unknown piece for characters no piece covers.
//!
//! The file is a protocol buffer (sentencepiece_model.proto); only the fields that change how
//! text is encoded are read, and a model whose encoding this pipeline cannot reproduce (BPE,
//! whitespace as suffix, a normalisation without its character map) is refused.
//!
//! T5 and mT5 checkpoints (`spiece.model`) are read differently ([`load_t5`]): their reference
//! is transformers' fast tokenizer converted from the file, which splits at spaces before the
//! unigram model and treats whitespace its own way, not the `sentencepiece` library. XLM-R's
//! `sentencepiece.bpe.model` ([`load_xlmr`]) has the same reference and conversion, with
//! fairseq's vocabulary order.

use prost::Message;
use tokenizers::models::unigram::Unigram;
use tokenizers::normalizers::{Precompiled, Replace, Sequence};
use tokenizers::pre_tokenizers::metaspace::{Metaspace, PrependScheme};
use tokenizers::{NormalizerWrapper, Tokenizer};

/// `ModelProto`, the fields that shape the encoding.
#[derive(Clone, PartialEq, Message)]
struct ModelProto {
    #[prost(message, repeated, tag = "1")]
    pieces: Vec<Piece>,
    #[prost(message, optional, tag = "2")]
    trainer_spec: Option<TrainerSpec>,
    #[prost(message, optional, tag = "3")]
    normalizer_spec: Option<NormalizerSpec>,
}

/// `ModelProto.SentencePiece`.
#[derive(Clone, PartialEq, Message)]
struct Piece {
    #[prost(string, optional, tag = "1")]
    piece: Option<String>,
    #[prost(float, optional, tag = "2")]
    score: Option<f32>,
    #[prost(int32, optional, tag = "3", default = "1")]
    kind: Option<i32>,
}

/// `SentencePiece.Type` values.
const NORMAL: i32 = 1;
const UNKNOWN: i32 = 2;
const CONTROL: i32 = 3;
const USER_DEFINED: i32 = 4;
const UNUSED: i32 = 5;
const BYTE: i32 = 6;

/// `TrainerSpec`, the fields that outlive training.
#[derive(Clone, PartialEq, Message)]
struct TrainerSpec {
    /// UNIGRAM = 1, BPE = 2, WORD = 3, CHAR = 4.
    #[prost(int32, optional, tag = "3", default = "1")]
    model_type: Option<i32>,
    #[prost(bool, optional, tag = "24", default = "false")]
    treat_whitespace_as_suffix: Option<bool>,
    #[prost(bool, optional, tag = "35", default = "false")]
    byte_fallback: Option<bool>,
    #[prost(int32, optional, tag = "40", default = "0")]
    unk_id: Option<i32>,
}

/// `NormalizerSpec`.
#[derive(Clone, PartialEq, Message)]
struct NormalizerSpec {
    #[prost(string, optional, tag = "1")]
    name: Option<String>,
    #[prost(bytes = "vec", optional, tag = "2")]
    precompiled_charsmap: Option<Vec<u8>>,
    #[prost(bool, optional, tag = "3", default = "true")]
    add_dummy_prefix: Option<bool>,
    #[prost(bool, optional, tag = "4", default = "true")]
    remove_extra_whitespaces: Option<bool>,
    #[prost(bool, optional, tag = "5", default = "true")]
    escape_whitespaces: Option<bool>,
    #[prost(string, optional, tag = "6")]
    normalization_rule_tsv: Option<String>,
}

/// A SentencePiece model read for encoding: the pipeline, and the pieces SentencePiece never
/// produces from text (control and unused pieces), for the caller's special tokens.
pub(crate) struct SpmModel {
    /// Normaliser, pre-tokenizer and model; no post-processor, no added tokens.
    pub(crate) tokenizer: Tokenizer,
    /// The unknown piece (e.g. `[UNK]`).
    pub(crate) unk: String,
}

/// Decodes a model file, refusing one that was cut short. SentencePiece's trainer writes the
/// pieces (field 1), then `trainer_spec` (2) and `normalizer_spec` (3): a file cut at a
/// record boundary among the pieces or before the normaliser still decodes, as protocol
/// buffers have no end marker, and `sentencepiece` would load it with fewer pieces and no
/// normalisation, silently tokenising differently. Every trained model has a
/// `normalizer_spec` (even the identity one is written with its name), so its absence is
/// taken as the cut it is.
fn decode(bytes: &[u8]) -> Result<ModelProto, String> {
    let m = ModelProto::decode(bytes).map_err(|e| format!("not a SentencePiece model: {e}"))?;
    if m.pieces.is_empty() {
        return Err("a SentencePiece model with no pieces".into());
    }
    if m.normalizer_spec.is_none() {
        return Err(format!(
            "the file ends after {} pieces{} without the normalizer_spec SentencePiece writes into every model: it looks cut short (a partial download or copy?)",
            m.pieces.len(),
            if m.trainer_spec.is_some() { " and the trainer_spec" } else { "" }
        ));
    }
    Ok(m)
}

/// Reads a SentencePiece model file's bytes (the message says what is wrong; the caller names
/// the file).
pub(crate) fn load(bytes: &[u8]) -> Result<SpmModel, String> {
    let m = decode(bytes)?;
    let trainer = m.trainer_spec.unwrap_or_default();
    match trainer.model_type() {
        1 => {}
        2 => return Err("a BPE SentencePiece model: only unigram models are supported".into()),
        t => {
            return Err(format!(
                "SentencePiece model type {t}: only unigram (1) is supported"
            ))
        }
    }
    if trainer.treat_whitespace_as_suffix() {
        return Err("treat_whitespace_as_suffix is not supported".into());
    }
    let norm = m.normalizer_spec.unwrap_or_default();
    if !norm.normalization_rule_tsv().is_empty() {
        return Err("a custom normalization_rule_tsv is not supported".into());
    }
    if !norm.escape_whitespaces() {
        return Err("escape_whitespaces = false is not supported".into());
    }
    let charsmap = norm.precompiled_charsmap();
    if charsmap.is_empty() && !matches!(norm.name(), "" | "identity") {
        return Err(format!(
            "normalisation {:?} without its precompiled character map",
            norm.name()
        ));
    }
    let max_normal = m
        .pieces
        .iter()
        .filter(|p| p.kind() == NORMAL)
        .map(|p| f64::from(p.score()))
        .fold(f64::NEG_INFINITY, f64::max);
    let max_normal = if max_normal.is_finite() {
        max_normal
    } else {
        0.0
    };
    let mut unk = None;
    let mut vocab = Vec::with_capacity(m.pieces.len());
    for (i, p) in m.pieces.iter().enumerate() {
        let text = p.piece().to_string();
        if text.is_empty() {
            return Err(format!("piece {i} is empty"));
        }
        let score = match p.kind() {
            NORMAL | CONTROL | UNUSED | BYTE => f64::from(p.score()),
            UNKNOWN => {
                if unk.replace(i).is_some() {
                    return Err("more than one unknown piece".into());
                }
                f64::from(p.score())
            }
            // SentencePiece scores a user-defined piece `length x best score - 0.1`, so that
            // it wins over any split of its text; so does the lattice here.
            USER_DEFINED => text.chars().count() as f64 * max_normal - 0.1,
            t => return Err(format!("piece {i} ({text:?}) has unknown type {t}")),
        };
        if !score.is_finite() {
            return Err(format!("piece {i} ({text:?}) has score {score}"));
        }
        vocab.push((text, score));
    }
    let unk_id = unk.ok_or("no unknown piece")?;
    let unk = vocab[unk_id].0.clone();
    let model = Unigram::from(vocab, Some(unk_id), trainer.byte_fallback())
        .map_err(|e| format!("unigram model: {e}"))?;
    let mut steps: Vec<NormalizerWrapper> = Vec::new();
    if !charsmap.is_empty() {
        let p = Precompiled::from(charsmap).map_err(|e| format!("precompiled_charsmap: {e}"))?;
        steps.push(p.into());
    }
    if norm.remove_extra_whitespaces() {
        // SentencePiece drops leading and trailing spaces and keeps one of a run, after the
        // character map (which turns other whitespace into spaces or removes it).
        for (pattern, by) in [("^ +| +$", ""), (" {2,}", " ")] {
            let re = tokenizers::normalizers::replace::ReplacePattern::Regex(pattern.into());
            steps.push(Replace::new(re, by).map_err(|e| e.to_string())?.into());
        }
    }
    let mut tokenizer = Tokenizer::new(model);
    tokenizer
        .with_normalizer(Some(Sequence::new(steps)))
        .map_err(|e| e.to_string())?;
    let prepend = if norm.add_dummy_prefix() {
        PrependScheme::Always
    } else {
        PrependScheme::Never
    };
    // One segment per text (no split at spaces): SentencePiece runs one lattice over it.
    tokenizer.with_pre_tokenizer(Some(Metaspace::new('▁', prepend, false)));
    tokenizer.with_decoder(Some(Metaspace::new('▁', prepend, false)));
    Ok(SpmModel { tokenizer, unk })
}

/// The pieces of a SentencePiece model read as transformers' slow-to-fast converter reads them
/// for T5 (`T5Converter`), with what T5's tokenizer puts around them: see [`load_t5`].
pub(crate) struct T5Spm {
    /// Model, normaliser, pre-tokenizer, decoder and `$A </s>` template; the special tokens are
    /// added by the caller (they depend on `tokenizer_config.json`).
    pub(crate) tokenizer: Tokenizer,
    /// The control pieces (`<pad>`, `</s>`), which the converter makes special added tokens.
    pub(crate) control: Vec<String>,
    /// The user-defined pieces, which it makes (non-special) added tokens.
    pub(crate) user_defined: Vec<String>,
}

/// Reads a T5 / mT5 `spiece.model` as transformers builds the fast tokenizer from it when a
/// checkpoint ships no `tokenizer.json` (google/mt5-xl, MetricX's tokenizer, ships none):
/// every piece with its own score (user-defined pieces keep theirs: the converter matches them
/// as added tokens instead), `extra_ids` sentinels `<extra_id_{n-1}>` ... `<extra_id_0>`
/// appended with score 0 (so `<extra_id_0>` is the last id), the unknown id of the trainer
/// spec; the character map, then right-strip and runs of two or more spaces replaced by one
/// `▁`; a `▁` Metaspace pre-tokenizer that splits at spaces, prepending `▁` (`prepend`:
/// `always` for `legacy` tokenizers, `first` otherwise, `never` without a prefix space); the
/// `$A </s>` / `$A </s> $B </s>` template.
pub(crate) fn load_t5(
    bytes: &[u8],
    extra_ids: usize,
    prepend: PrependScheme,
) -> Result<T5Spm, String> {
    let m = decode(bytes)?;
    let trainer = m.trainer_spec.unwrap_or_default();
    if trainer.model_type() != 1 {
        return Err(format!(
            "SentencePiece model type {}: only unigram (1) is supported for T5 tokenizers",
            trainer.model_type()
        ));
    }
    let norm = m.normalizer_spec.unwrap_or_default();
    let mut vocab = Vec::with_capacity(m.pieces.len() + extra_ids);
    let (mut control, mut user_defined) = (Vec::new(), Vec::new());
    for (i, p) in m.pieces.iter().enumerate() {
        let text = p.piece().to_string();
        if text.is_empty() {
            return Err(format!("piece {i} is empty"));
        }
        let score = f64::from(p.score());
        if !score.is_finite() {
            return Err(format!("piece {i} ({text:?}) has score {score}"));
        }
        match p.kind() {
            CONTROL => control.push(text.clone()),
            USER_DEFINED => user_defined.push(text.clone()),
            NORMAL | UNKNOWN | UNUSED | BYTE => {}
            t => return Err(format!("piece {i} ({text:?}) has unknown type {t}")),
        }
        vocab.push((text, score));
    }
    vocab.extend(
        (0..extra_ids)
            .rev()
            .map(|i| (format!("<extra_id_{i}>"), 0.0)),
    );
    let unk = usize::try_from(trainer.unk_id())
        .ok()
        .filter(|&u| u < m.pieces.len())
        .ok_or_else(|| format!("unk_id {} is not a piece", trainer.unk_id()))?;
    let model =
        Unigram::from(vocab, Some(unk), false).map_err(|e| format!("unigram model: {e}"))?;
    let mut tokenizer = converted(model, norm.precompiled_charsmap(), prepend)?;
    let eos = tokenizer
        .token_to_id("</s>")
        .ok_or("the model has no </s> piece (T5's end-of-sequence token)")?;
    let mut template = tokenizers::processors::template::TemplateProcessing::builder();
    template.try_single("$A </s>").map_err(|e| e.to_string())?;
    template
        .try_pair("$A </s> $B </s>")
        .map_err(|e| e.to_string())?;
    template.special_tokens(vec![("</s>", eos)]);
    let template = template.build().map_err(|e| e.to_string())?;
    tokenizer.with_post_processor(Some(template));
    Ok(T5Spm {
        tokenizer,
        control,
        user_defined,
    })
}

/// A unigram model with what transformers' `SpmConverter` puts around every converted
/// SentencePiece model: the character map (when the model has one), then right-strip and runs
/// of two or more spaces replaced by one `▁` (the converter's own whitespace handling, which
/// ignores the proto's `remove_extra_whitespaces` and `add_dummy_prefix`); a `▁` Metaspace
/// pre-tokenizer and decoder that split at spaces, prepending `▁` as `prepend` says.
fn converted(model: Unigram, charsmap: &[u8], prepend: PrependScheme) -> Result<Tokenizer, String> {
    let mut steps: Vec<NormalizerWrapper> = Vec::new();
    if !charsmap.is_empty() {
        let p = Precompiled::from(charsmap).map_err(|e| format!("precompiled_charsmap: {e}"))?;
        steps.push(p.into());
    }
    steps.push(tokenizers::normalizers::Strip::new(false, true).into());
    let runs = tokenizers::normalizers::replace::ReplacePattern::Regex(" {2,}".into());
    steps.push(Replace::new(runs, "▁").map_err(|e| e.to_string())?.into());
    let mut tokenizer = Tokenizer::new(model);
    tokenizer
        .with_normalizer(Some(Sequence::new(steps)))
        .map_err(|e| e.to_string())?;
    tokenizer.with_pre_tokenizer(Some(Metaspace::new('▁', prepend, true)));
    tokenizer.with_decoder(Some(Metaspace::new('▁', prepend, true)));
    Ok(tokenizer)
}

/// An XLM-R `sentencepiece.bpe.model` read as transformers' `XLMRobertaConverter` converts it:
/// see [`load_xlmr`].
pub(crate) struct XlmrSpm {
    /// Model, normaliser, pre-tokenizer, decoder and template; the tokenizer's own special
    /// tokens are added by the caller (they depend on `tokenizer_config.json`).
    pub(crate) tokenizer: Tokenizer,
    /// The control and user-defined pieces in the model's order, each with whether it is
    /// special (control): the converter adds them as tokens matched whole before the model.
    pub(crate) added: Vec<(String, bool)>,
}

/// fairseq's vocabulary head, which XLM-R's ids follow instead of the SentencePiece model's:
/// the converter puts these four first (score 0) and drops the model's first three pieces
/// (`<unk>`, `<s>`, `</s>` in XLM-R's), so piece `i >= 3` gets id `i + 1`.
const FAIRSEQ_HEAD: [&str; 4] = ["<s>", "<pad>", "</s>", "<unk>"];

/// Reads an XLM-R `sentencepiece.bpe.model` (xlm-roberta-large, microsoft/infoxlm-large,
/// facebook/xlm-roberta-xl / -xxl; some ship no `tokenizer.json`) as transformers'
/// `XLMRobertaTokenizerFast` converts it: `<s>` 0, `<pad>` 1, `</s>` 2, `<unk>` 3 (the unknown
/// id), the model's pieces from index 3 on with their scores, `<mask>` last; no byte fallback
/// (the converter drops it, with a warning, where a model has it); the converter's
/// normalisation and Metaspace (see [`converted`], prefix `▁` always: XLM-R's slow tokenizer
/// has no `legacy` flag); `<s> $A </s>` and `<s> $A </s> </s> $B </s>`, all segment 0.
///
/// A non-unigram model is refused: the converter would build a BPE model from it, which this
/// reader does not.
pub(crate) fn load_xlmr(bytes: &[u8]) -> Result<XlmrSpm, String> {
    let m = decode(bytes)?;
    let trainer = m.trainer_spec.unwrap_or_default();
    match trainer.model_type() {
        1 => {}
        2 => {
            return Err(
                "a BPE SentencePiece model: XLM-R's is unigram, and only unigram is supported"
                    .into(),
            )
        }
        t => {
            return Err(format!(
                "SentencePiece model type {t}: only unigram (1) is supported"
            ))
        }
    }
    let norm = m.normalizer_spec.unwrap_or_default();
    let mut vocab: Vec<(String, f64)> = FAIRSEQ_HEAD.iter().map(|t| (t.to_string(), 0.0)).collect();
    let mut added = Vec::new();
    for (i, p) in m.pieces.iter().enumerate() {
        let text = p.piece().to_string();
        if text.is_empty() {
            return Err(format!("piece {i} is empty"));
        }
        let score = f64::from(p.score());
        if !score.is_finite() {
            return Err(format!("piece {i} ({text:?}) has score {score}"));
        }
        match p.kind() {
            CONTROL => added.push((text.clone(), true)),
            USER_DEFINED => added.push((text.clone(), false)),
            NORMAL | UNKNOWN | UNUSED | BYTE => {}
            t => return Err(format!("piece {i} ({text:?}) has unknown type {t}")),
        }
        if i >= 3 {
            vocab.push((text, score));
        }
    }
    vocab.push(("<mask>".into(), 0.0));
    let model = Unigram::from(vocab, Some(3), false).map_err(|e| format!("unigram model: {e}"))?;
    let mut tokenizer = converted(model, norm.precompiled_charsmap(), PrependScheme::Always)?;
    // The converter looks the template's tokens up in the vocabulary it built: 0 and 2.
    let mut template = tokenizers::processors::template::TemplateProcessing::builder();
    template
        .try_single("<s> $A </s>")
        .map_err(|e| e.to_string())?;
    template
        .try_pair("<s> $A </s> </s> $B </s>")
        .map_err(|e| e.to_string())?;
    template.special_tokens(vec![("<s>", 0), ("</s>", 2)]);
    let template = template.build().map_err(|e| e.to_string())?;
    tokenizer.with_post_processor(Some(template));
    Ok(XlmrSpm { tokenizer, added })
}

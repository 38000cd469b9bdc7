//! The per-architecture facts the loader needs before any weight is read; each architecture
//! module declares its own [`Spec`].

use candle_nn::VarBuilder;

/// Special tokens a byte-level BPE tokenizer built from `vocab.json` + `merges.txt` gets
/// (a `tokenizer.json` carries its own post-processor, a `vocab.txt` always gets BERT's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BpeSpecials {
    /// None (GPT-2: plain text in, plain ids out).
    None,
    /// BERT's `[CLS] A [SEP] B [SEP]` with segment ids (DeBERTa v1).
    Bert,
    /// RoBERTa's `<s> A </s></s> B </s>`.
    Roberta,
}

/// What identifies an architecture's checkpoints and how its tokenizer defaults (what the crate
/// builds on the architecture is in its entry of `models::ARCHITECTURES`).
#[derive(Debug)]
pub(crate) struct Spec {
    /// The `model_type` values of `config.json` it covers.
    pub model_types: &'static [&'static str],
    /// Base-model prefixes a task checkpoint may keep the model under, tried in order.
    pub prefixes: &'static [&'static str],
    /// A tensor every checkpoint has, relative to the base model: finding it under a prefix
    /// tells that the prefix is in use.
    pub probe: &'static str,
    /// Special tokens of a `vocab.json` + `merges.txt` tokenizer.
    pub bpe_specials: BpeSpecials,
}

impl Spec {
    /// The base-model prefix `vb`'s checkpoint uses, `None` for a bare base model.
    pub(crate) fn base_prefix(&self, vb: &VarBuilder<'_>) -> Option<&'static str> {
        self.prefixes
            .iter()
            .copied()
            .find(|p| vb.contains_tensor(&format!("{p}.{}", self.probe)))
    }
}

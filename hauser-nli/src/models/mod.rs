//! What the crate knows of each architecture, one module (or folder) each, as
//! candle-transformers keeps them: which `model_type`s and checkpoint prefixes it covers and
//! its tokenizer defaults ([`Spec`]), its config settings, weight names, candle modules and
//! forward pass, and its packed CPU model where it has one (`bert/packed.rs`,
//! `gpt2/packed.rs`, `t5/packed.rs`; the kernels they share are `crate::cpu_kernels`).
//! [`ARCHITECTURES`] is the one table of them: the architecture list ([`Kind::ALL`]), the
//! `model_type` names ([`ENCODER_ARCHITECTURES`]) and what the crate builds on each are read
//! from it. [`Kind`] finds an architecture from `model_type`; [`Arch`] is a loaded encoder's
//! parsed settings and dispatches to its module. Nothing outside this module matches on
//! `model_type`.

pub(crate) mod albert;
pub(crate) mod bert;
pub(crate) mod deberta_v1;
pub(crate) mod deberta_v2;
pub(crate) mod distilbert;
pub(crate) mod gpt2;
pub(crate) mod t5;
pub(crate) mod xlmr_xl;

use candle_core::Tensor;
use candle_nn::VarBuilder;
use candle_transformers::models::debertav2;

use crate::checkpoint_spec::Spec;
use crate::classifier_head::ClassifierHead;
use crate::config::{ModelConfig, MAX_CONFIG_SIZE};
use crate::mlm_head::{MlmHead, MlmNames};
use albert::AlbertSettings;
use bert::packed::PackedEncoder;
use bert::{BertEncoder, Layout};
use deberta_v1::{DebertaV1Config, DebertaV1Encoder};
use deberta_v2::DebertaEncoder;

/// How the crate runs an architecture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// An encoder (`TransformerModel`: classifiers, embeddings, masked LM, COMET...).
    Encoder,
    /// A causal LM (`CausalLm`).
    Causal,
}

/// One architecture as the crate knows it: the list of architectures, their `model_type`
/// names and what the crate builds on each are all read from [`ARCHITECTURES`].
#[derive(Debug)]
pub(crate) struct Entry {
    pub kind: Kind,
    /// Its checkpoints' `model_type`s, prefixes and tokenizer defaults, declared in its module.
    pub spec: &'static Spec,
    pub role: Role,
    /// Whether f32 CPU inference has packed kernels (some settings may still fall back).
    pub packed: bool,
    /// Where `*ForMultipleChoice` keeps the pooler (dense + tanh on the first token) its head
    /// runs before `classifier`; `None` where transformers gives no such head here.
    /// (RoBERTa's multiple-choice head uses the pooler, unlike its sequence-classification
    /// head.)
    pub choice_pooler: Option<&'static str>,
    /// Where `*ForMaskedLM` keeps its head; `None` for architectures without one here.
    pub masked_lm: Option<&'static MlmNames>,
}

/// Every architecture, in [`Kind`]'s order, which is the order names are listed in.
pub(crate) const ARCHITECTURES: [Entry; 8] = [
    Entry {
        kind: Kind::Bert,
        spec: &bert::BERT,
        role: Role::Encoder,
        packed: true,
        choice_pooler: Some("bert.pooler.dense"),
        masked_lm: Some(&bert::MLM_BERT),
    },
    Entry {
        kind: Kind::Roberta,
        spec: &bert::ROBERTA,
        role: Role::Encoder,
        packed: true,
        choice_pooler: Some("roberta.pooler.dense"),
        masked_lm: Some(&bert::MLM_ROBERTA),
    },
    Entry {
        kind: Kind::RobertaXl,
        spec: &xlmr_xl::SPEC,
        role: Role::Encoder,
        // Its pre-LayerNorm layers run on the packed kernels' `Placement::Pre`.
        packed: true,
        choice_pooler: None,
        masked_lm: None,
    },
    Entry {
        kind: Kind::DistilBert,
        spec: &distilbert::SPEC,
        role: Role::Encoder,
        packed: true,
        choice_pooler: None,
        masked_lm: None,
    },
    Entry {
        kind: Kind::Albert,
        spec: &albert::SPEC,
        role: Role::Encoder,
        packed: true,
        choice_pooler: None,
        masked_lm: Some(&albert::MLM),
    },
    Entry {
        kind: Kind::DebertaV1,
        spec: &deberta_v1::SPEC,
        role: Role::Encoder,
        packed: false,
        choice_pooler: None,
        masked_lm: None,
    },
    Entry {
        kind: Kind::DebertaV2,
        spec: &deberta_v2::SPEC,
        role: Role::Encoder,
        packed: false,
        choice_pooler: None,
        masked_lm: None,
    },
    Entry {
        kind: Kind::Gpt2,
        spec: &gpt2::SPEC,
        role: Role::Causal,
        packed: true,
        choice_pooler: None,
        masked_lm: None,
    },
];

// Entry `i` is the `Kind` numbered `i`, so that `Kind::entry` is an index: checked when the
// crate compiles.
const _: () = {
    let mut i = 0;
    while i < ARCHITECTURES.len() {
        assert!(
            ARCHITECTURES[i].kind as usize == i,
            "ARCHITECTURES is out of Kind's order"
        );
        i += 1;
    }
};

/// Encoder architectures, by `model_type`: every encoder's `Spec::model_types` in
/// the order of the architecture table (`models::ARCHITECTURES`), joined with ", ".
pub const ENCODER_ARCHITECTURES: &str = as_str(&ENCODER_NAMES);

/// Causal LM architectures, by `model_type`, as [`ENCODER_ARCHITECTURES`].
pub(crate) const CAUSAL_ARCHITECTURES: &str = as_str(&CAUSAL_NAMES);

const ENCODER_NAMES: [u8; names_len(Role::Encoder)] = names(Role::Encoder);
const CAUSAL_NAMES: [u8; names_len(Role::Causal)] = names(Role::Causal);

/// Writes the `model_type`s of every architecture of `role`, joined with ", ", into `out`
/// when given, and returns their length in bytes: a `const fn` cannot allocate, so the list is
/// measured with `out` `None`, then copied into an array of that length.
const fn join_names(role: Role, mut out: Option<&mut [u8]>) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < ARCHITECTURES.len() {
        if ARCHITECTURES[i].role as u8 == role as u8 {
            let types = ARCHITECTURES[i].spec.model_types;
            let mut j = 0;
            while j < types.len() {
                if n > 0 {
                    n = put(&mut out, n, b", ");
                }
                n = put(&mut out, n, types[j].as_bytes());
                j += 1;
            }
        }
        i += 1;
    }
    n
}

/// Copies `bytes` to `out[at..]` when `out` is given; returns the end.
const fn put(out: &mut Option<&mut [u8]>, at: usize, bytes: &[u8]) -> usize {
    let mut k = 0;
    while k < bytes.len() {
        if let Some(o) = out {
            o[at + k] = bytes[k];
        }
        k += 1;
    }
    at + bytes.len()
}

const fn names_len(role: Role) -> usize {
    join_names(role, None)
}

const fn names<const N: usize>(role: Role) -> [u8; N] {
    let mut out = [0u8; N];
    join_names(role, Some(&mut out));
    out
}

const fn as_str(bytes: &'static [u8]) -> &'static str {
    match std::str::from_utf8(bytes) {
        Ok(s) => s,
        Err(_) => panic!("model_type names are UTF-8"),
    }
}

/// The supported architectures, numbered as their entries in [`ARCHITECTURES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Bert,
    Roberta,
    RobertaXl,
    DistilBert,
    Albert,
    DebertaV1,
    DebertaV2,
    Gpt2,
}

impl Kind {
    /// Every architecture, in [`ARCHITECTURES`]' order.
    pub(crate) const ALL: [Kind; ARCHITECTURES.len()] = {
        let mut all = [Kind::Bert; ARCHITECTURES.len()];
        let mut i = 0;
        while i < all.len() {
            all[i] = ARCHITECTURES[i].kind;
            i += 1;
        }
        all
    };

    /// The architecture's entry in [`ARCHITECTURES`].
    pub(crate) fn entry(self) -> &'static Entry {
        &ARCHITECTURES[self as usize]
    }

    /// The architecture's spec, declared in its module.
    pub(crate) fn spec(self) -> &'static Spec {
        self.entry().spec
    }

    /// The architecture of a `model_type`, `None` when unsupported.
    pub(crate) fn of(model_type: &str) -> Option<Kind> {
        Kind::ALL
            .into_iter()
            .find(|k| k.spec().model_types.contains(&model_type))
    }
}

/// A loaded encoder's architecture with its settings from `config.json`, parsed once at load.
pub(crate) enum Arch {
    /// BERT, or the RoBERTa family (positions start after the padding index).
    Bert {
        roberta: bool,
        /// BLEURT's embedding width, projected to the hidden size by
        /// `encoder.embedding_projection` when the checkpoint has one (see
        /// [`Arch::adopt_weights`]).
        projection: Option<usize>,
    },
    /// XLM-RoBERTa XL / XXL (pre-LayerNorm layers).
    RobertaXl,
    DistilBert,
    Albert(AlbertSettings),
    DebertaV1(Box<DebertaV1Config>),
    DebertaV2(Box<debertav2::Config>),
}

/// candle's modules of an encoder and its padded forward pass, whatever the architecture
/// (DistilBERT, ALBERT and XLM-RoBERTa XL run as BERT-layout encoders).
pub(crate) trait CandleEncoder: Send + Sync {
    /// The embedding output followed by every layer's output (`[b, s, h]` each) of a padded
    /// batch: `ids`, `type_ids` (read only where the model has segment embeddings),
    /// `positions` (read by the BERT layout only: DeBERTa numbers positions itself) and `mask`
    /// (`[b, s]`, 1 for real tokens).
    fn hidden_states(
        &self,
        ids: &Tensor,
        type_ids: &Tensor,
        positions: &Tensor,
        mask: &Tensor,
    ) -> candle_core::Result<Vec<Tensor>>;
}

/// candle's modules of a loaded encoder (each architecture module implements
/// [`CandleEncoder`] for its own).
pub(crate) type Backbone = Box<dyn CandleEncoder>;

impl Arch {
    /// The encoder of `model_type` with its settings read from `raw` (the whole
    /// `config.json`); `None` when `model_type` is no supported encoder.
    pub(crate) fn parse(
        model_type: &str,
        raw: &serde_json::Value,
    ) -> Option<std::result::Result<Self, serde_json::Error>> {
        Some(match Kind::of(model_type)? {
            Kind::Bert => {
                let hidden = raw.get("hidden_size").and_then(|h| h.as_u64());
                match raw.get("embedding_size").and_then(|e| e.as_u64()) {
                    // bleurt-pytorch builds `encoder.embedding_projection` whenever
                    // `embedding_size` is set (also to the hidden size) and applies it after
                    // the embeddings, so it must then be in the weights.
                    Some(e) if model_type == "bleurt" => {
                        if e as usize > MAX_CONFIG_SIZE {
                            Err(serde::de::Error::custom(format!(
                                "embedding_size = {e} is larger than any model this crate can run"
                            )))
                        } else {
                            Ok(Arch::Bert {
                                roberta: false,
                                projection: Some(e as usize),
                            })
                        }
                    }
                    Some(e) if Some(e) != hidden => Err(serde::de::Error::custom(format!(
                        "embedding_size {e} differs from hidden_size: factorised embeddings are supported for model_type bleurt only"
                    ))),
                    _ => Ok(Arch::Bert {
                        roberta: false,
                        projection: None,
                    }),
                }
            }
            Kind::Roberta => Ok(Arch::Bert {
                roberta: true,
                projection: None,
            }),
            Kind::RobertaXl => Ok(Arch::RobertaXl),
            Kind::DistilBert => Ok(Arch::DistilBert),
            Kind::Albert => serde_json::from_value::<AlbertSettings>(raw.clone()).and_then(|s| {
                if s.embedding_size > MAX_CONFIG_SIZE {
                    return Err(serde::de::Error::custom(format!(
                        "embedding_size = {} is larger than any model this crate can run",
                        s.embedding_size
                    )));
                }
                Ok(Arch::Albert(s))
            }),
            Kind::DebertaV1 => {
                serde_json::from_value(raw.clone()).map(|c| Arch::DebertaV1(Box::new(c)))
            }
            Kind::DebertaV2 => {
                serde_json::from_value(raw.clone()).map(|c| Arch::DebertaV2(Box::new(c)))
            }
            Kind::Gpt2 => return None,
        })
    }

    /// Settles what `config.json` leaves to the weights (`base`, narrowed to the base-model
    /// prefix): bleurt-pytorch builds `encoder.embedding_projection` whenever the checkpoint
    /// has one, also when its embedding size equals the hidden size, and applies it to the
    /// embeddings' output; so is it here.
    pub(crate) fn adopt_weights(&mut self, base: &VarBuilder<'static>, config: &ModelConfig) {
        if let Arch::Bert {
            roberta: false,
            projection,
        } = self
        {
            if projection.is_none()
                && config.model_type == "bleurt"
                && base.contains_tensor(&format!("{}.weight", bert::BLEURT_PROJECTION))
            {
                *projection = Some(config.hidden_size);
            }
        }
    }

    /// Which architecture this is.
    pub(crate) fn kind(&self) -> Kind {
        match self {
            Arch::Bert { roberta: false, .. } => Kind::Bert,
            Arch::Bert { roberta: true, .. } => Kind::Roberta,
            Arch::RobertaXl => Kind::RobertaXl,
            Arch::DistilBert => Kind::DistilBert,
            Arch::Albert(_) => Kind::Albert,
            Arch::DebertaV1(_) => Kind::DebertaV1,
            Arch::DebertaV2(_) => Kind::DebertaV2,
        }
    }

    /// The BERT layout (names, norms, segments, positions) of the BERT-layout encoders.
    fn bert_layout(&self, config: &ModelConfig) -> Option<Layout> {
        match self {
            Arch::Bert {
                roberta,
                projection,
            } => Some(bert::layout(config, *roberta, *projection)),
            Arch::RobertaXl => Some(xlmr_xl::layout(config)),
            Arch::DistilBert => Some(distilbert::layout()),
            Arch::Albert(s) => Some(albert::layout(config, s)),
            Arch::DebertaV1(_) | Arch::DebertaV2(_) => None,
        }
    }

    /// candle's modules from `base` (weights narrowed to the base-model prefix).
    pub(crate) fn backbone(
        &self,
        base: &VarBuilder<'static>,
        config: &ModelConfig,
    ) -> candle_core::Result<Backbone> {
        let base = base.clone();
        if let Some(lay) = self.bert_layout(config) {
            return Ok(Box::new(BertEncoder::load(base, config, &lay)?));
        }
        Ok(match self {
            Arch::DebertaV1(c) => Box::new(DebertaV1Encoder::load(base, config, c)?),
            Arch::DebertaV2(c) => Box::new(DebertaEncoder::load(base, c)?),
            Arch::Bert { .. } | Arch::RobertaXl | Arch::DistilBert | Arch::Albert(_) => {
                unreachable!("the BERT-layout encoders have a layout")
            }
        })
    }

    /// The packed CPU copy from `base`, `None` where the architecture (or this checkpoint's
    /// settings) has no packed kernels.
    pub(crate) fn pack(
        &self,
        base: &VarBuilder<'static>,
        config: &ModelConfig,
    ) -> candle_core::Result<Option<PackedEncoder>> {
        match self.bert_layout(config) {
            Some(lay) if self.kind().entry().packed => bert::pack_encoder(base, config, &lay),
            _ => Ok(None),
        }
    }

    /// The sequence-classification head with `labels` classes, from the root var builder
    /// (task heads sit outside the base-model prefix).
    pub(crate) fn head(
        &self,
        vb: &VarBuilder<'static>,
        config: &ModelConfig,
        labels: usize,
    ) -> candle_core::Result<Box<dyn ClassifierHead>> {
        Ok(match self {
            Arch::Bert { roberta, .. } => Box::new(bert::head(vb, config, labels, *roberta)?),
            // XLMRobertaXLForSequenceClassification's head is RoBERTa's.
            Arch::RobertaXl => Box::new(bert::head(vb, config, labels, true)?),
            Arch::DistilBert => Box::new(distilbert::head(vb, config, labels)?),
            Arch::Albert(_) => Box::new(albert::head(vb, config, labels)?),
            Arch::DebertaV1(c) => Box::new(deberta_v1::head(vb, config, c, labels)?),
            Arch::DebertaV2(c) => Box::new(deberta_v2::head(vb, c, labels)?),
        })
    }

    /// The multiple-choice head (one logit per input: `BertForMultipleChoice`'s and
    /// `RobertaForMultipleChoice`'s pooler, then `classifier` with one output), where the
    /// architecture's entry names a pooler; `None` for the others.
    pub(crate) fn choice_head(
        &self,
        vb: &VarBuilder<'static>,
        config: &ModelConfig,
    ) -> Option<candle_core::Result<Box<dyn ClassifierHead>>> {
        let pooler = self.kind().entry().choice_pooler?;
        Some(
            bert::tanh_head(vb, config, 1, pooler, "classifier")
                .map(|h| Box::new(h) as Box<dyn ClassifierHead>),
        )
    }

    /// The masked-LM head (`*ForMaskedLM`) where the architecture's entry names one (the
    /// BERT, RoBERTa and ALBERT families), from the root var builder; `None` for the others.
    pub(crate) fn mlm_head(
        &self,
        vb: &VarBuilder<'static>,
        config: &ModelConfig,
    ) -> Option<candle_core::Result<MlmHead>> {
        let names = self.kind().entry().masked_lm?;
        // ALBERT's head maps the hidden size down to its narrower embeddings.
        let width = match self {
            Arch::Albert(s) => s.embedding_size,
            _ => config.hidden_size,
        };
        let words = format!(
            "{}embeddings.word_embeddings.weight",
            self.kind()
                .spec()
                .base_prefix(vb)
                .map_or(String::new(), |p| format!("{p}."))
        );
        Some(MlmHead::load(vb, config, names, width, &words))
    }

    /// Positions taken before the first token (RoBERTa: padding index + 1).
    pub(crate) fn position_offset(&self, config: &ModelConfig) -> usize {
        self.bert_layout(config).map_or(0, |l| l.position_offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoder_list_names_every_encoder_model_type_once() {
        let encoders = [
            Kind::Bert,
            Kind::Roberta,
            Kind::RobertaXl,
            Kind::DistilBert,
            Kind::Albert,
            Kind::DebertaV1,
            Kind::DebertaV2,
        ];
        let listed: Vec<&str> = encoders
            .iter()
            .flat_map(|k| k.spec().model_types.iter().copied())
            .collect();
        assert_eq!(listed.join(", "), ENCODER_ARCHITECTURES);
        assert_eq!(gpt2::SPEC.model_types.join(", "), CAUSAL_ARCHITECTURES);
        for k in Kind::ALL {
            for t in k.spec().model_types {
                assert_eq!(Kind::of(t), Some(k), "{t}");
            }
        }
        assert_eq!(Kind::of("t5"), None);
        assert!(Arch::parse("gpt2", &serde_json::Value::Null).is_none());
    }

    #[test]
    fn the_derived_lists_are_the_published_ones() {
        assert_eq!(
            ENCODER_ARCHITECTURES,
            "bert, bleurt, roberta, xlm-roberta, camembert, xlm-roberta-xl, distilbert, albert, deberta, deberta-v2"
        );
        assert_eq!(CAUSAL_ARCHITECTURES, "gpt2");
        assert_eq!(Kind::ALL.len(), ARCHITECTURES.len());
    }
}

//! What the crate knows of each architecture, one module each: which `model_type`s and
//! checkpoint prefixes it covers and its tokenizer defaults ([`Spec`]), its config
//! settings, weight names, candle modules and whether and how it is packed for the CPU kernels.
//! [`Kind`] finds an architecture from `model_type`; [`Arch`] is a loaded encoder's parsed
//! settings and dispatches to its module. Nothing outside this module matches on `model_type`.

pub(crate) mod albert;
pub(crate) mod bert;
pub(crate) mod deberta_v1;
pub(crate) mod deberta_v2;
pub(crate) mod distilbert;
pub(crate) mod gpt2;
pub(crate) mod t5;
pub(crate) mod xlmr_xl;

use candle_nn::VarBuilder;
use candle_transformers::models::debertav2;

use crate::checkpoint_spec::Spec;
use crate::classifier_head::ClassifierHead;
use crate::config::{ModelConfig, MAX_CONFIG_SIZE};
use crate::mlm_head as mlm;
use albert::AlbertSettings;
use bert::packed::PackedEncoder;
use bert::{BertEncoder, Layout};
use deberta_v1::{DebertaV1Config, DebertaV1Encoder};
use deberta_v2::DebertaEncoder;

/// Encoder architectures, by `model_type`: every encoder module's `Spec::model_types` (a unit
/// test keeps the two in step).
pub const ENCODER_ARCHITECTURES: &str =
    "bert, bleurt, roberta, xlm-roberta, camembert, xlm-roberta-xl, distilbert, albert, deberta, deberta-v2";

/// Causal LM architectures, by `model_type` (`gpt2`'s `Spec::model_types`).
pub(crate) const CAUSAL_ARCHITECTURES: &str = "gpt2";

/// The supported architectures.
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
    /// Every architecture.
    pub(crate) const ALL: [Kind; 8] = [
        Kind::Bert,
        Kind::Roberta,
        Kind::RobertaXl,
        Kind::DistilBert,
        Kind::Albert,
        Kind::DebertaV1,
        Kind::DebertaV2,
        Kind::Gpt2,
    ];

    /// The architecture's spec, declared in its module.
    pub(crate) fn spec(self) -> &'static Spec {
        match self {
            Kind::Bert => &bert::BERT,
            Kind::Roberta => &bert::ROBERTA,
            Kind::RobertaXl => &xlmr_xl::SPEC,
            Kind::DistilBert => &distilbert::SPEC,
            Kind::Albert => &albert::SPEC,
            Kind::DebertaV1 => &deberta_v1::SPEC,
            Kind::DebertaV2 => &deberta_v2::SPEC,
            Kind::Gpt2 => &gpt2::SPEC,
        }
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

/// candle's modules of an encoder. DistilBERT runs as a BERT-layout encoder.
pub(crate) enum Backbone {
    Bert(BertEncoder),
    DebertaV1(Box<DebertaV1Encoder>),
    DebertaV2(Box<DebertaEncoder>),
}

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
        Ok(match self {
            Arch::Bert {
                roberta,
                projection,
            } => Backbone::Bert(BertEncoder::load(
                base,
                config,
                &bert::layout(config, *roberta, *projection),
            )?),
            Arch::RobertaXl => {
                Backbone::Bert(BertEncoder::load(base, config, &xlmr_xl::layout(config))?)
            }
            Arch::DistilBert => {
                Backbone::Bert(BertEncoder::load(base, config, &distilbert::layout())?)
            }
            Arch::Albert(s) => {
                Backbone::Bert(BertEncoder::load(base, config, &albert::layout(config, s))?)
            }
            Arch::DebertaV1(c) => {
                Backbone::DebertaV1(Box::new(DebertaV1Encoder::load(base, config, c)?))
            }
            Arch::DebertaV2(c) => Backbone::DebertaV2(Box::new(DebertaEncoder::load(base, c)?)),
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
            Some(lay) if self.kind().spec().packed => bert::pack_encoder(base, config, &lay),
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

    /// The multiple-choice head (one logit per input), for the BERT and RoBERTa families;
    /// `None` for the other architectures, which transformers gives no such head here.
    pub(crate) fn choice_head(
        &self,
        vb: &VarBuilder<'static>,
        config: &ModelConfig,
    ) -> Option<candle_core::Result<Box<dyn ClassifierHead>>> {
        match self {
            Arch::Bert { roberta, .. } => Some(
                bert::choice_head(vb, config, *roberta)
                    .map(|h| Box::new(h) as Box<dyn ClassifierHead>),
            ),
            _ => None,
        }
    }

    /// The masked-LM head (`*ForMaskedLM`) of the BERT, RoBERTa and ALBERT families, from the
    /// root var builder; `None` for the other architectures.
    pub(crate) fn mlm_head(
        &self,
        vb: &VarBuilder<'static>,
        config: &ModelConfig,
    ) -> Option<candle_core::Result<mlm::MlmHead>> {
        let (names, width) = match self {
            Arch::Bert { roberta: false, .. } => (&mlm::BERT, config.hidden_size),
            Arch::Bert { roberta: true, .. } => (&mlm::ROBERTA, config.hidden_size),
            Arch::Albert(s) => (&mlm::ALBERT, s.embedding_size),
            _ => return None,
        };
        let words = format!(
            "{}embeddings.word_embeddings.weight",
            self.kind()
                .spec()
                .base_prefix(vb)
                .map_or(String::new(), |p| format!("{p}."))
        );
        Some(mlm::MlmHead::load(vb, config, names, width, &words))
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
}

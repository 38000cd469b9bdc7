//! Tokenizer loading (tokenizer.json, or sentencepiece.bpe.model for XLM-R, vocab.txt,
//! spm.model, or vocab.json + merges.txt) and truncation.

use tokenizers::models::bpe::BPE;
use tokenizers::models::wordpiece::WordPiece;
use tokenizers::normalizers::BertNormalizer;
use tokenizers::pre_tokenizers::bert::BertPreTokenizer;
use tokenizers::pre_tokenizers::byte_level::ByteLevel;
use tokenizers::processors::bert::BertProcessing;
use tokenizers::processors::roberta::RobertaProcessing;
use tokenizers::{Tokenizer, TruncationDirection, TruncationParams, TruncationStrategy};

use crate::checkpoint_spec::BpeSpecials;
use crate::error::{NliError, Result};
use crate::models::Kind;
use crate::source::ModelSource;

/// One tokenized input: ids, segment ids, and whether it was truncated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Encoded {
    /// Token ids, special tokens included.
    pub ids: Vec<u32>,
    /// Segment (token type) ids.
    pub type_ids: Vec<u32>,
    /// True when the input was cut to the maximum length.
    pub truncated: bool,
}

/// A tokenizer with the model's maximum length.
#[derive(Debug, Clone)]
pub struct TextEncoder {
    tokenizer: Tokenizer,
    model: String,
    max_len: usize,
    /// Which file the tokenizer came from, for signatures.
    pub origin: String,
    /// How a pair too long for the model is cut: `tokenizers`' longest-first (the fast
    /// tokenizers') or transformers' Python one (the slow tokenizers').
    python_pairs: bool,
    /// The file read (`vocab.json` for a BPE pair), named when the vocabulary does not fit the
    /// model's embeddings.
    path: std::path::PathBuf,
}

impl TextEncoder {
    /// Loads the tokenizer of `source`: `tokenizer.json`, else for XLM-R models (`model_type`
    /// in [`XLMR_MODEL_TYPES`], or `tokenizer_class` `XLMRobertaTokenizer[Fast]` in
    /// `tokenizer_config.json` or `config.json`) `sentencepiece.bpe.model` (converted as transformers'
    /// `XLMRobertaTokenizerFast` converts it, special tokens named by `tokenizer_config.json`
    /// where it names them), else `vocab.txt` (WordPiece, BERT special tokens), else
    /// `spm.model` (a SentencePiece unigram model read as the `sentencepiece` library encodes,
    /// with BERT's template and transformers' DeBERTa v2 / BLEURT-20 special tokens, cased
    /// unless `do_lower_case`), else `vocab.json` + `merges.txt` (byte-level BPE; RoBERTa
    /// special tokens when `model_type` is a RoBERTa, BERT's for DeBERTa v1, none for GPT-2).
    /// A `sentencepiece.bpe.model` is refused, naming it, when a model of another type has no
    /// other tokenizer file.
    ///
    /// # Errors
    /// Missing or unreadable tokenizer files, named with the model.
    ///
    /// T5-family models (`model_type` in [`T5_MODEL_TYPES`]) get T5's conventions instead:
    /// `tokenizer.json`, else `spiece.model` read as transformers converts it (see
    /// [`Self::load_t5`]).
    pub fn load(source: &ModelSource, model_type: &str, max_len: usize) -> Result<Self> {
        if T5_MODEL_TYPES.contains(&model_type) {
            return Self::load_t5(source, max_len);
        }
        let specials = Kind::of(model_type).map_or(BpeSpecials::None, |k| k.spec().bpe_specials);
        Self::load_with(source, model_type, specials, max_len)
    }

    /// [`Self::load`] with the special tokens a `vocab.json` + `merges.txt` tokenizer gets
    /// (the architecture's default).
    pub(crate) fn load_with(
        source: &ModelSource,
        model_type: &str,
        specials: BpeSpecials,
        max_len: usize,
    ) -> Result<Self> {
        let model = source.name();
        let err = |message: String| NliError::Tokenizer {
            model: model.clone(),
            message,
        };
        let (tokenizer, origin, path) = if let Some(p) = source.optional("tokenizer.json")? {
            let t = Tokenizer::from_file(&p).map_err(|e| err(format!("{}: {e}", p.display())))?;
            (t, "tokenizer.json", p)
        } else if let Some(p) = xlmr_spm(source, model_type)? {
            // Before vocab.txt and the rest: XLMRobertaTokenizerFast reads no other file.
            (xlmr_tokenizer(source, &p).map_err(err)?, XLMR_SPM, p)
        } else if let Some(vocab) = source.optional("vocab.txt")? {
            let lower = lowercase_flag(source)?.unwrap_or(true);
            let wp = WordPiece::from_file(&vocab.to_string_lossy())
                .unk_token("[UNK]".into())
                .build()
                .map_err(|e| err(format!("{}: {e}", vocab.display())))?;
            let mut t = Tokenizer::new(wp);
            t.with_normalizer(Some(BertNormalizer::new(true, true, None, lower)))
                .map_err(|e| err(e.to_string()))?;
            t.with_pre_tokenizer(Some(BertPreTokenizer));
            bert_template(&mut t, "vocab.txt").map_err(err)?;
            (t, "vocab.txt", vocab)
        } else if let Some(p) = source.optional("spm.model")? {
            (spm_tokenizer(source, &p).map_err(err)?, "spm.model", p)
        } else {
            // Here only when the model is not XLM-R's (else the file would have been read).
            if let Some(p) = source.optional(XLMR_SPM)? {
                return Err(err(format!(
                    "{}: read only for model_type {} or tokenizer_class XLMRobertaTokenizer (this model's type is {model_type:?}), whose vocabulary order it follows",
                    p.display(),
                    XLMR_MODEL_TYPES.join(" or ")
                )));
            }
            let (vocab, _) = source.first_of(&["tokenizer.json", "vocab.txt", "vocab.json"])?;
            let merges = source.required("merges.txt")?;
            let bpe = BPE::from_file(&vocab.to_string_lossy(), &merges.to_string_lossy())
                .build()
                .map_err(|e| err(format!("{}: {e}", vocab.display())))?;
            let mut t = Tokenizer::new(bpe);
            t.with_pre_tokenizer(Some(ByteLevel::new(false, true, true)));
            t.with_decoder(Some(ByteLevel::default()));
            match specials {
                BpeSpecials::Roberta => {
                    let (sep, cls) = sep_cls(&t, "vocab.json", "</s>", "<s>").map_err(err)?;
                    t.with_post_processor(Some(
                        RobertaProcessing::new(("</s>".into(), sep), ("<s>".into(), cls))
                            .trim_offsets(true)
                            .add_prefix_space(false),
                    ));
                }
                BpeSpecials::Bert => bert_template(&mut t, "vocab.json").map_err(err)?,
                BpeSpecials::None => {}
            }
            (t, "vocab.json+merges.txt", vocab)
        };
        let mut tokenizer = tokenizer;
        tokenizer.with_padding(None);
        tokenizer
            .with_truncation(None)
            .map_err(|e| err(e.to_string()))?;
        Ok(Self {
            tokenizer,
            model,
            max_len,
            origin: origin.to_string(),
            python_pairs: false,
            path,
        })
    }

    /// A T5 / mT5 / umT5 tokenizer, as transformers' `T5TokenizerFast` loads it: the
    /// checkpoint's `tokenizer.json`, else its `spiece.model` converted as transformers
    /// converts it (google/mt5-xl ships no `tokenizer.json`): no `[CLS]`/`[SEP]` template but
    /// `</s>` appended (`$A </s>`); `<pad>`, `</s>`, `<unk>` (or the names
    /// `tokenizer_config.json` gives) and the sentinels special; `extra_ids` (100 unless the
    /// config says otherwise) sentinels `<extra_id_N>` appended to the vocabulary in reverse
    /// order, so `<extra_id_0>` is the last id, unless `additional_special_tokens` names them.
    ///
    /// # Errors
    /// Missing or unreadable tokenizer files, an unsupported `spiece.model`, or sentinels
    /// whose count contradicts `extra_ids`, named with the model.
    pub fn load_t5(source: &ModelSource, max_len: usize) -> Result<Self> {
        let model = source.name();
        let err = |message: String| NliError::Tokenizer {
            model: model.clone(),
            message,
        };
        let (path, which) = source.first_of(&["tokenizer.json", "spiece.model"])?;
        let (mut tokenizer, origin) = if which == 0 {
            let t =
                Tokenizer::from_file(&path).map_err(|e| err(format!("{}: {e}", path.display())))?;
            (t, "tokenizer.json")
        } else {
            (t5_tokenizer(source, &path).map_err(err)?, "spiece.model")
        };
        tokenizer.with_padding(None);
        tokenizer
            .with_truncation(None)
            .map_err(|e| err(e.to_string()))?;
        Ok(Self {
            tokenizer,
            model,
            max_len,
            origin: origin.to_string(),
            python_pairs: false,
            path,
        })
    }

    /// Cuts pairs as the reference tokenizer of `model_type` does: bleurt-pytorch reads a
    /// BLEURT `spm.model` with a slow (Python) tokenizer, whose longest-first truncation
    /// leaves the odd token to the first text where `tokenizers` leaves it to the second.
    pub(crate) fn adopt_reference_truncation(&mut self, model_type: &str) {
        self.python_pairs = model_type == "bleurt" && self.origin == "spm.model";
    }

    /// The tokenizer file read (`vocab.json` for a `vocab.json` + `merges.txt` pair).
    pub fn path(&self) -> &std::path::Path {
        &self.path
    }

    /// The maximum number of tokens per input, special tokens included.
    pub fn max_len(&self) -> usize {
        self.max_len
    }

    /// Sets the maximum length (e.g. sentence-transformers' `max_seq_length`, or the `max_length`
    /// COMET passes its tokenizer).
    pub fn set_max_len(&mut self, max_len: usize) {
        self.max_len = max_len.max(1);
    }

    /// The underlying tokenizer.
    pub fn tokenizer(&self) -> &Tokenizer {
        &self.tokenizer
    }

    /// Tokenizes a sentence or a pair, truncating longest-first to the maximum length.
    ///
    /// # Errors
    /// [`NliError::Tokenizer`] when the tokenizer fails on the input.
    pub fn encode(&self, first: &str, second: Option<&str>) -> Result<Encoded> {
        let err = |e| self.error(e);
        let enc = match second {
            Some(s) => self.tokenizer.encode((first, s), true),
            None => self.tokenizer.encode(first, true),
        }
        .map_err(err)?;
        if enc.get_ids().len() <= self.max_len {
            return Ok(Encoded {
                ids: enc.get_ids().to_vec(),
                type_ids: enc.get_type_ids().to_vec(),
                truncated: false,
            });
        }
        // Truncation is applied only when needed, so that the common case pays nothing.
        if let (Some(s), true) = (second, self.python_pairs) {
            return self.encode_python_pair(first, s);
        }
        let t = self.truncating()?;
        let enc = match second {
            Some(s) => t.encode((first, s), true),
            None => t.encode(first, true),
        }
        .map_err(err)?;
        Ok(Encoded {
            ids: enc.get_ids().to_vec(),
            type_ids: enc.get_type_ids().to_vec(),
            truncated: true,
        })
    }

    /// A tokenizer failure, named with the model.
    fn error(&self, e: tokenizers::Error) -> NliError {
        NliError::Tokenizer {
            model: self.model.clone(),
            message: e.to_string(),
        }
    }

    /// A copy of the tokenizer that cuts longest-first to the maximum length (built only for
    /// an input that needs it, so that the common case pays nothing).
    fn truncating(&self) -> Result<Tokenizer> {
        let mut t = self.tokenizer.clone();
        t.with_truncation(Some(TruncationParams {
            max_length: self.max_len,
            strategy: TruncationStrategy::LongestFirst,
            stride: 0,
            direction: TruncationDirection::Right,
        }))
        .map_err(|e| self.error(e))?;
        Ok(t)
    }

    /// A pair too long for the model, cut as transformers' `truncate_sequences` does for
    /// `longest_first`: first from the longer text down to the shorter one's length, then
    /// half each, the odd token from the second text.
    fn encode_python_pair(&self, first: &str, second: &str) -> Result<Encoded> {
        let err = |e| self.error(e);
        let mut a = self.tokenizer.encode(first, false).map_err(err)?;
        let mut b = self.tokenizer.encode(second, false).map_err(err)?;
        let special = self
            .tokenizer
            .get_post_processor()
            .map_or(0, |p| tokenizers::PostProcessor::added_tokens(p, true));
        let (la, lb) = (a.len(), b.len());
        let remove = (la + lb + special).saturating_sub(self.max_len);
        let first_remove = la.abs_diff(lb).min(remove);
        let rest = remove - first_remove;
        let (cut_a, cut_b) = if la > lb {
            (first_remove + rest / 2, rest - rest / 2)
        } else {
            (rest / 2, first_remove + rest - rest / 2)
        };
        a.truncate(la.saturating_sub(cut_a), 0, TruncationDirection::Right);
        b.truncate(lb.saturating_sub(cut_b), 0, TruncationDirection::Right);
        let enc = self.tokenizer.post_process(a, Some(b), true).map_err(err)?;
        Ok(Encoded {
            ids: enc.get_ids().to_vec(),
            type_ids: enc.get_type_ids().to_vec(),
            truncated: true,
        })
    }

    /// A single text's ids, cut to the maximum length, with each token's character offsets
    /// in the text (special tokens `(0, 0)`), as a fast tokenizer's `offset_mapping` gives
    /// them.
    ///
    /// # Errors
    /// [`NliError::Tokenizer`] when the tokenizer fails on the input.
    pub(crate) fn encode_with_offsets(&self, text: &str) -> Result<(Encoded, Vec<(usize, usize)>)> {
        let err = |e| self.error(e);
        let mut enc = self
            .tokenizer
            .encode_char_offsets(text, true)
            .map_err(err)?;
        let truncated = enc.len() > self.max_len;
        if truncated {
            enc = self
                .truncating()?
                .encode_char_offsets(text, true)
                .map_err(err)?;
        }
        Ok((
            Encoded {
                ids: enc.get_ids().to_vec(),
                type_ids: enc.get_type_ids().to_vec(),
                truncated,
            },
            enc.get_offsets().to_vec(),
        ))
    }

    /// The special tokens the tokenizer puts around a pair: `(first, between, last)`, e.g.
    /// `<s>`, `</s></s>`, `</s>` for XLM-R and `[CLS]`, `[SEP]`, `[SEP]` for BERT.
    ///
    /// # Errors
    /// [`NliError::Tokenizer`] when the tokenizer adds no special tokens to a pair.
    pub(crate) fn pair_specials(&self) -> Result<(u32, Vec<u32>, u32)> {
        let enc = self
            .tokenizer
            .encode(("", ""), true)
            .map_err(|e| self.error(e))?;
        match enc.get_ids() {
            [first, between @ .., last] => Ok((*first, between.to_vec(), *last)),
            _ => Err(NliError::Tokenizer {
                model: self.model.clone(),
                message: "the tokenizer adds no special tokens to a pair".into(),
            }),
        }
    }

    /// Token ids back to text (`skip_special`: drop special tokens such as `<|endoftext|>`).
    ///
    /// # Errors
    /// [`NliError::Tokenizer`] when an id is outside the vocabulary.
    pub fn decode(&self, ids: &[u32], skip_special: bool) -> Result<String> {
        self.tokenizer
            .decode(ids, skip_special)
            .map_err(|e| self.error(e))
    }

    /// The id of a token of the vocabulary (added tokens included).
    pub fn token_to_id(&self, token: &str) -> Option<u32> {
        self.tokenizer.token_to_id(token)
    }

    /// Makes `token` a special token that input text can name, never split (a `vocab.json` +
    /// `merges.txt` tokenizer does not know RoBERTa's `<mask>` as one). A no-op where the
    /// tokenizer already has it.
    pub(crate) fn ensure_special(&mut self, token: &str) -> Result<()> {
        let known = self
            .tokenizer
            .get_added_tokens_decoder()
            .values()
            .any(|t| t.content == token);
        if !known {
            self.tokenizer
                .add_special_tokens([tokenizers::AddedToken::from(token.to_string(), true)])
                .map_err(|e| self.error(e))?;
        }
        Ok(())
    }

    /// Tokenizes without special tokens or truncation (for the causal LM).
    ///
    /// # Errors
    /// [`NliError::Tokenizer`] when the tokenizer fails on the input.
    pub fn encode_plain(&self, text: &str) -> Result<Vec<u32>> {
        self.tokenizer
            .encode(text, false)
            .map(|e| e.get_ids().to_vec())
            .map_err(|e| self.error(e))
    }
}

/// The `model_type`s whose tokenizers follow T5's conventions ([`TextEncoder::load_t5`]).
pub const T5_MODEL_TYPES: [&str; 3] = ["t5", "mt5", "umt5"];

/// The `model_type`s whose `sentencepiece.bpe.model` is read as XLM-R's ([`TextEncoder::load`]):
/// XLM-RoBERTa and XLM-RoBERTa XL / XXL. Not `roberta` (RoBERTa's tokenizer reads
/// `vocab.json` + `merges.txt`) nor `camembert` (whose converter numbers the pieces otherwise).
pub const XLMR_MODEL_TYPES: [&str; 2] = ["xlm-roberta", "xlm-roberta-xl"];

/// XLM-R's SentencePiece file (a unigram model, whatever its name says).
const XLMR_SPM: &str = "sentencepiece.bpe.model";

/// `sentencepiece.bpe.model` when `source` has one and is an XLM-R model: its `model_type`
/// (checked first: no file to read) or its `tokenizer_class` says so.
fn xlmr_spm(source: &ModelSource, model_type: &str) -> Result<Option<std::path::PathBuf>> {
    if XLMR_MODEL_TYPES.contains(&model_type) || xlmr_tokenizer_class(source)? {
        source.optional(XLMR_SPM)
    } else {
        Ok(None)
    }
}

/// Whether the tokenizer class of `source` ([`tokenizer_class`]) is XLM-R's: a checkpoint of
/// another `model_type` (a `roberta` config, say) may ship XLM-R's tokenizer that way.
fn xlmr_tokenizer_class(source: &ModelSource) -> Result<bool> {
    Ok(matches!(
        tokenizer_class(source)?.as_deref(),
        Some("XLMRobertaTokenizer" | "XLMRobertaTokenizerFast")
    ))
}

/// The `tokenizer_class` a model names in `tokenizer_config.json`, else in `config.json`, as
/// transformers' `AutoTokenizer` reads it before falling back to the `model_type`; `None`
/// when neither names one (or a file is unreadable, as transformers treats it).
///
/// Some behaviour depends on the class rather than on `tokenizer.json`: transformers' generic
/// `PreTrainedTokenizerFast` adds no special tokens in `build_inputs_with_special_tokens`, so
/// bert_score encodes an empty sentence as no tokens at all with such a model, and as
/// `[CLS] [SEP]` with a model-specific class (`BertTokenizer`, `RobertaTokenizer`...).
///
/// # Errors
/// A hub download failure.
pub fn tokenizer_class(source: &ModelSource) -> Result<Option<String>> {
    for file in ["tokenizer_config.json", "config.json"] {
        let Some(p) = source.optional(file)? else {
            continue;
        };
        let v: serde_json::Value = std::fs::read_to_string(&p)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default();
        if let Some(class) = v.get("tokenizer_class").and_then(|c| c.as_str()) {
            return Ok(Some(class.to_string()));
        }
    }
    Ok(None)
}

/// `tokenizer_config.json` as JSON (empty when absent or unreadable, as transformers treats
/// a missing file).
fn tokenizer_config(source: &ModelSource) -> Result<serde_json::Value> {
    let Some(p) = source.optional("tokenizer_config.json")? else {
        return Ok(serde_json::Value::Null);
    };
    Ok(std::fs::read_to_string(&p)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default())
}

/// A token's text in transformers' config forms: a string or `{"content": ...}`.
fn token_text(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::String(s) => Some(s.clone()),
        o => o
            .get("content")
            .and_then(|c| c.as_str())
            .map(str::to_string),
    }
}

/// `spiece.model` with T5TokenizerFast's conventions (see [`TextEncoder::load_t5`]).
fn t5_tokenizer(
    source: &ModelSource,
    path: &std::path::Path,
) -> std::result::Result<Tokenizer, String> {
    use tokenizers::pre_tokenizers::metaspace::PrependScheme;
    let named = |e: String| format!("{}: {e}", path.display());
    let cfg = tokenizer_config(source).map_err(|e| e.to_string())?;
    let extra_ids = match cfg.get("extra_ids") {
        None | Some(serde_json::Value::Null) => 100,
        Some(v) => v
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .filter(|&n| n <= 100_000)
            .ok_or_else(|| format!("tokenizer_config.json: extra_ids = {v} is not a count"))?,
    };
    // transformers' T5 converter: `legacy` (true unless set false) prepends `▁` to every
    // text, `legacy: false` only to the first; `add_prefix_space: false` never.
    let flag = |key: &str| cfg.get(key).and_then(serde_json::Value::as_bool);
    let prepend = match (flag("add_prefix_space"), flag("legacy")) {
        (Some(false), _) => PrependScheme::Never,
        (_, Some(false)) => PrependScheme::First,
        _ => PrependScheme::Always,
    };
    let bytes = std::fs::read(path).map_err(|e| named(e.to_string()))?;
    let spm = crate::spm::load_t5(&bytes, extra_ids, prepend).map_err(named)?;
    let mut t = spm.tokenizer;
    // T5TokenizerFast's sentinels: the `additional_special_tokens` given (with the extra ids
    // added when they name none), else the extra ids.
    let sentinels: Vec<String> = (0..extra_ids).map(|i| format!("<extra_id_{i}>")).collect();
    let additional = match cfg.get("additional_special_tokens") {
        Some(serde_json::Value::Array(list)) => {
            let mut named: Vec<String> = list.iter().filter_map(token_text).collect();
            let extra = named.iter().filter(|x| x.contains("<extra_id_")).count();
            if extra == 0 {
                named.extend(sentinels);
            } else if extra_ids > 0 && extra != extra_ids {
                return Err(format!(
                    "tokenizer_config.json: additional_special_tokens names {extra} <extra_id_N> tokens where extra_ids is {extra_ids}"
                ));
            }
            named
        }
        _ => sentinels,
    };
    let mut specials: Vec<tokenizers::AddedToken> = spm
        .control
        .iter()
        .map(|c| tokenizers::AddedToken::from(c.clone(), true).normalized(false))
        .collect();
    for (key, default) in [
        ("eos_token", "</s>"),
        ("unk_token", "<unk>"),
        ("pad_token", "<pad>"),
    ] {
        let token = cfg
            .get(key)
            .and_then(token_text)
            .unwrap_or_else(|| default.to_string());
        specials.push(tokenizers::AddedToken::from(token, true).normalized(false));
    }
    specials.extend(
        additional
            .into_iter()
            .map(|x| tokenizers::AddedToken::from(x, true).normalized(false)),
    );
    // The converter adds user-defined pieces as (non-special) added tokens, matched whole
    // before the unigram model sees the text.
    let user: Vec<tokenizers::AddedToken> = spm
        .user_defined
        .into_iter()
        .map(|u| tokenizers::AddedToken::from(u, false).normalized(false))
        .collect();
    t.add_tokens(user).map_err(|e| e.to_string())?;
    t.add_special_tokens(specials).map_err(|e| e.to_string())?;
    Ok(t)
}

/// `sentencepiece.bpe.model` with XLMRobertaTokenizerFast's conventions: the converted model
/// ([`crate::spm::load_xlmr`]) with the model's control and user-defined pieces as added
/// tokens (special and not); then, as transformers' fast-tokenizer constructor adds them, the
/// `added_tokens_decoder` entries of `tokenizer_config.json` (by id) not already there with the
/// same settings, and the special tokens (`bos`, `eos`, `unk`, `sep`, `pad`, `cls`, `mask`
/// tokens and `additional_special_tokens`, as `tokenizer_config.json` or
/// `special_tokens_map.json` give them, else XLM-R's) whose text is not yet an added token.
fn xlmr_tokenizer(
    source: &ModelSource,
    path: &std::path::Path,
) -> std::result::Result<Tokenizer, String> {
    use tokenizers::AddedToken;
    let named = |e: String| format!("{}: {e}", path.display());
    let bytes = std::fs::read(path).map_err(|e| named(e.to_string()))?;
    let spm = crate::spm::load_xlmr(&bytes).map_err(named)?;
    let mut t = spm.tokenizer;
    let converted: Vec<AddedToken> = spm
        .added
        .into_iter()
        .map(|(piece, special)| AddedToken::from(piece, special).normalized(false))
        .collect();
    t.add_tokens(converted).map_err(|e| e.to_string())?;
    let cfg = tokenizer_config(source).map_err(|e| e.to_string())?;
    let mut entries: Vec<(u64, AddedToken)> = Vec::new();
    if let Some(serde_json::Value::Object(map)) = cfg.get("added_tokens_decoder") {
        for (id, v) in map {
            let id = id
                .parse()
                .map_err(|_| format!("tokenizer_config.json: added_tokens_decoder id {id:?}"))?;
            let token = added_token(v, false, false).ok_or_else(|| {
                format!("tokenizer_config.json: added_tokens_decoder entry {id} has no content")
            })?;
            entries.push((id, token));
        }
    }
    entries.sort_by_key(|(id, _)| *id);
    let existing: Vec<AddedToken> = t.get_added_tokens_decoder().into_values().collect();
    let mut to_add: Vec<AddedToken> = entries
        .into_iter()
        .map(|(_, tok)| tok)
        .filter(|tok| !existing.contains(tok))
        .collect();
    let mut known: Vec<String> = existing.into_iter().map(|x| x.content).collect();
    known.extend(to_add.iter().map(|x| x.content.clone()));
    let mut specials = Vec::new();
    for (key, default) in [
        ("bos_token", "<s>"),
        ("eos_token", "</s>"),
        ("unk_token", "<unk>"),
        ("sep_token", "</s>"),
        ("pad_token", "<pad>"),
        ("cls_token", "<s>"),
        ("mask_token", "<mask>"),
    ] {
        let v = special_value(source, key)
            .map_err(|e| e.to_string())?
            .unwrap_or_else(|| default.into());
        // XLMRobertaTokenizerFast makes a mask given as text take the space before it ("Mask
        // token behave like a normal word").
        specials.extend(added_token(&v, true, key == "mask_token"));
    }
    if let Some(serde_json::Value::Array(list)) =
        special_value(source, "additional_special_tokens").map_err(|e| e.to_string())?
    {
        specials.extend(list.iter().filter_map(|v| added_token(v, true, false)));
    }
    for token in specials {
        if !known.contains(&token.content) {
            known.push(token.content.clone());
            to_add.push(token);
        }
    }
    t.add_tokens(to_add).map_err(|e| e.to_string())?;
    Ok(t)
}

/// A token as transformers gives it in a config: text (special as `special` says, not
/// normalised, stripping on the left when `lstrip`), or an `AddedToken` object whose absent
/// settings take the `tokenizers` defaults (`normalized` unless special). `None` without text.
fn added_token(
    v: &serde_json::Value,
    special: bool,
    lstrip: bool,
) -> Option<tokenizers::AddedToken> {
    if let Some(text) = v.as_str() {
        return Some(
            tokenizers::AddedToken::from(text, special)
                .normalized(false)
                .lstrip(lstrip),
        );
    }
    let content = v.get("content")?.as_str()?;
    let flag = |k: &str| v.get(k).and_then(serde_json::Value::as_bool);
    let special = flag("special").unwrap_or(special);
    Some(
        tokenizers::AddedToken::from(content, special)
            .single_word(flag("single_word").unwrap_or(false))
            .lstrip(flag("lstrip").unwrap_or(false))
            .rstrip(flag("rstrip").unwrap_or(false))
            .normalized(flag("normalized").unwrap_or(!special)),
    )
}

/// A special token's text from `tokenizer_config.json`, else `special_tokens_map.json`
/// (`key` is e.g. `mask_token`; the value is a string or transformers' `{"content": ...}`).
pub(crate) fn special_token(source: &ModelSource, key: &str) -> Result<Option<String>> {
    Ok(special_value(source, key)?.as_ref().and_then(token_text))
}

/// `key`'s value in `tokenizer_config.json`, else in `special_tokens_map.json` (a null or a
/// value without text counts as absent, as before for [`special_token`]).
fn special_value(source: &ModelSource, key: &str) -> Result<Option<serde_json::Value>> {
    for file in ["tokenizer_config.json", "special_tokens_map.json"] {
        let Some(p) = source.optional(file)? else {
            continue;
        };
        let mut v: serde_json::Value = std::fs::read_to_string(&p)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default();
        let found = v.get_mut(key).map(serde_json::Value::take);
        let usable = found.as_ref().is_some_and(|x| {
            token_text(x).is_some() || (key == "additional_special_tokens" && x.is_array())
        });
        if usable {
            return Ok(found);
        }
    }
    Ok(None)
}

/// The ids of a vocabulary's separator and classifier tokens, or which one `file` lacks.
fn sep_cls(
    t: &Tokenizer,
    file: &str,
    sep: &str,
    cls: &str,
) -> std::result::Result<(u32, u32), String> {
    let id = |tok: &str| {
        t.token_to_id(tok)
            .ok_or_else(|| format!("{file} has no {tok}"))
    };
    Ok((id(sep)?, id(cls)?))
}

/// BERT's template over `t`'s vocabulary: `[CLS] A [SEP]`, `[CLS] A [SEP] B [SEP]` with
/// segment 1 for B.
fn bert_template(t: &mut Tokenizer, file: &str) -> std::result::Result<(), String> {
    let (sep, cls) = sep_cls(t, file, "[SEP]", "[CLS]")?;
    t.with_post_processor(Some(BertProcessing::new(
        ("[SEP]".into(), sep),
        ("[CLS]".into(), cls),
    )));
    Ok(())
}

/// A SentencePiece model with what transformers' slow `DebertaV2Tokenizer` (bleurt-pytorch's
/// `BleurtSPTokenizer`) puts around it: the special tokens (`[CLS]`, `[SEP]`, `[UNK]`, `[PAD]`,
/// `[MASK]` unless `tokenizer_config.json` names others) split out of the text before the
/// model sees it, wherever the model has them as pieces; an optional lowercasing
/// (`do_lower_case`, off by default); BERT's pair template.
fn spm_tokenizer(
    source: &ModelSource,
    path: &std::path::Path,
) -> std::result::Result<Tokenizer, String> {
    let named = |e: String| format!("{}: {e}", path.display());
    let bytes = std::fs::read(path).map_err(|e| named(e.to_string()))?;
    let spm = crate::spm::load(&bytes).map_err(named)?;
    let mut t = spm.tokenizer;
    if lowercase_flag(source).map_err(|e| e.to_string())? == Some(true) {
        let mut steps = vec![tokenizers::normalizers::Lowercase.into()];
        steps.extend(t.get_normalizer().cloned());
        t.with_normalizer(Some(tokenizers::normalizers::Sequence::new(steps)))
            .map_err(|e| e.to_string())?;
    }
    let mut specials = Vec::new();
    for (key, default) in [
        ("cls_token", "[CLS]"),
        ("sep_token", "[SEP]"),
        ("unk_token", spm.unk.as_str()),
        ("pad_token", "[PAD]"),
        ("mask_token", "[MASK]"),
    ] {
        let token = special_token(source, key)
            .map_err(|e| e.to_string())?
            .unwrap_or_else(|| default.to_string());
        if t.token_to_id(&token).is_some() {
            specials.push(tokenizers::AddedToken::from(token, true));
        }
    }
    t.add_special_tokens(specials).map_err(|e| e.to_string())?;
    bert_template(&mut t, "spm.model")?;
    Ok(t)
}

/// `do_lower_case` from `tokenizer_config.json`, when present.
fn lowercase_flag(source: &ModelSource) -> Result<Option<bool>> {
    let Some(p) = source.optional("tokenizer_config.json")? else {
        return Ok(None);
    };
    let v: serde_json::Value = std::fs::read_to_string(&p)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    Ok(v.get("do_lower_case").and_then(|b| b.as_bool()))
}

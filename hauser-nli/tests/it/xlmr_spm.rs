//! XLM-R's `sentencepiece.bpe.model` without a `tokenizer.json` (microsoft/infoxlm-large,
//! facebook/xlm-roberta-xl) against transformers' XLMRobertaTokenizerFast converting it
//! (tools/gen/gen_xlmr_spm_fixtures.py): ids of texts and pairs, whole and truncated, and with a
//! tokenizer_config.json naming special tokens, exactly; a COMET model whose encoder has only
//! that file predicts exactly as with the `tokenizer.json` transformers converted; what this
//! reader cannot convert as transformers does is refused naming the file.

use std::path::Path;

use hauser_nli::{CometModel, CometSegment, Embedder, ModelSource, NliError, TextEncoder};

use crate::common::{fixture, ids, opts};

const SPM: &str = "sentencepiece.bpe.model";

fn reference() -> serde_json::Value {
    let p = fixture("xlmr-spm").join("reference.json");
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn text(v: &serde_json::Value) -> &str {
    v.as_str().unwrap()
}

#[test]
fn sentencepiece_bpe_model_ids_match_transformers() {
    let r = reference();
    let source = ModelSource::Dir(fixture("xlmr-spm"));
    let mut enc = TextEncoder::load(&source, "xlm-roberta", 10_000).unwrap();
    assert_eq!(enc.origin, SPM);
    assert_eq!(
        enc.tokenizer().get_vocab_size(true) as u64,
        r["meta"]["vocab_size"].as_u64().unwrap()
    );
    let texts = r["texts"].as_array().unwrap();
    let pairs = r["pairs"].as_array().unwrap();
    let mut exact = 0;
    for t in texts {
        let s = text(&t["text"]);
        assert_eq!(enc.encode(s, None).unwrap().ids, ids(&t["ids"]), "{s:?}");
        exact += 1;
    }
    for p in pairs {
        let (a, b) = (text(&p["first"]), text(&p["second"]));
        assert_eq!(
            enc.encode(a, Some(b)).unwrap().ids,
            ids(&p["ids"]),
            "{a:?} / {b:?}"
        );
        exact += 1;
    }
    enc.set_max_len(r["meta"]["max_length"].as_u64().unwrap() as usize);
    let mut cut = 0;
    for t in texts {
        let s = text(&t["text"]);
        let got = enc.encode(s, None).unwrap();
        assert_eq!(got.ids, ids(&t["truncated"]), "{s:?} truncated");
        cut += usize::from(got.truncated);
    }
    for p in pairs {
        let (a, b) = (text(&p["first"]), text(&p["second"]));
        let got = enc.encode(a, Some(b)).unwrap();
        assert_eq!(got.ids, ids(&p["truncated"]), "{a:?} / {b:?} truncated");
        cut += usize::from(got.truncated);
    }
    assert_eq!(exact, texts.len() + pairs.len());
    // The fixture's long inputs exercise truncation, singles and pairs alike.
    assert!(cut >= 4, "{cut} inputs truncated");
}

#[test]
fn the_xl_model_type_reads_it_too() {
    let r = reference();
    let tmp = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("xlmr-spm").join(SPM), tmp.path().join(SPM)).unwrap();
    let source = ModelSource::Dir(tmp.path().to_path_buf());
    let enc = TextEncoder::load(&source, "xlm-roberta-xl", 10_000).unwrap();
    let t = &r["texts"][0];
    assert_eq!(
        enc.encode(text(&t["text"]), None).unwrap().ids,
        ids(&t["ids"])
    );
}

#[test]
fn special_tokens_come_from_tokenizer_config_json() {
    // Tokens as text and as AddedToken dicts (settings kept only for a token not already
    // added), fairseq's `<s>NOTUSED` / `</s>NOTUSED` as additional special tokens (new ids after
    // `<mask>`), and an `added_tokens_decoder` with a token of its own.
    let r = reference();
    let configs = r["configured"].as_object().unwrap();
    assert_eq!(configs.len(), 3);
    for (name, c) in configs {
        let dir = spm_dir(None);
        std::fs::write(
            dir.path().join("tokenizer_config.json"),
            c["tokenizer_config"].to_string(),
        )
        .unwrap();
        let source = ModelSource::Dir(dir.path().to_path_buf());
        let enc = TextEncoder::load(&source, "xlm-roberta", 10_000).unwrap();
        assert_eq!(
            enc.tokenizer().get_vocab_size(true) as u64,
            c["vocab_size"].as_u64().unwrap(),
            "{name}"
        );
        for t in c["texts"].as_array().unwrap() {
            let s = text(&t["text"]);
            assert_eq!(
                enc.encode(s, None).unwrap().ids,
                ids(&t["ids"]),
                "{name}: {s:?}"
            );
        }
    }
}

#[test]
fn model_max_length_applies_to_an_encoder_read_with_it() {
    // The xlm-roberta fixture's weights and config (300 ids: the 162 fit), its tokenizer.json
    // replaced by the spm model, and a tokenizer_config.json capping the length at 20.
    let r = reference();
    let dir = spm_dir(None);
    for f in ["config.json", "model.safetensors"] {
        std::fs::copy(fixture("xlm-roberta").join(f), dir.path().join(f)).unwrap();
    }
    std::fs::write(
        dir.path().join("tokenizer_config.json"),
        r#"{"model_max_length": 20}"#,
    )
    .unwrap();
    let e = Embedder::load(&ModelSource::Dir(dir.path().to_path_buf()), &opts(2)).unwrap();
    let enc = e.model().text_encoder();
    assert_eq!(enc.origin, SPM);
    assert_eq!(enc.max_len(), 20);
    let long = r["texts"].as_array().unwrap().last().unwrap();
    let got = enc.encode(text(&long["text"]), None).unwrap();
    let want = ids(&long["ids"]);
    assert!(got.truncated && want.len() > 20);
    assert_eq!(got.ids[..19], want[..19]);
    assert_eq!(got.ids[19], 2, "</s> closes the cut text");
}

#[test]
fn a_tokenizer_class_naming_xlm_r_selects_it_under_another_model_type() {
    // As transformers' AutoTokenizer, which follows `tokenizer_class` (tokenizer_config.json
    // first, then config.json) before the model_type.
    let r = reference();
    let t = &r["texts"][1];
    for file in ["tokenizer_config.json", "config.json"] {
        for class in ["XLMRobertaTokenizer", "XLMRobertaTokenizerFast"] {
            let dir = spm_dir(None);
            let cfg = serde_json::json!({ "tokenizer_class": class });
            std::fs::write(dir.path().join(file), cfg.to_string()).unwrap();
            let source = ModelSource::Dir(dir.path().to_path_buf());
            let enc = TextEncoder::load(&source, "roberta", 10_000).unwrap();
            assert_eq!(enc.origin, SPM, "{file}: {class}");
            let got = enc.encode(text(&t["text"]), None).unwrap().ids;
            assert_eq!(got, ids(&t["ids"]), "{file}: {class}");
        }
    }
}

/// A directory holding the fixture's model file with `bytes` in its place (when given).
fn spm_dir(bytes: Option<Vec<u8>>) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let b = bytes.unwrap_or_else(|| std::fs::read(fixture("xlmr-spm").join(SPM)).unwrap());
    std::fs::write(tmp.path().join(SPM), b).unwrap();
    tmp
}

fn load_error(dir: &Path, model_type: &str) -> String {
    let source = ModelSource::Dir(dir.to_path_buf());
    match TextEncoder::load(&source, model_type, 100) {
        Err(e @ NliError::Tokenizer { .. }) => e.to_string(),
        Err(e) => panic!("{model_type}: not a tokenizer error: {e}"),
        Ok(_) => panic!("{model_type}: loaded"),
    }
}

#[test]
fn a_bpe_or_damaged_model_and_other_model_types_are_refused_naming_the_file() {
    let good = std::fs::read(fixture("xlmr-spm").join(SPM)).unwrap();
    // A second trainer_spec (field 2) with model_type (field 3) = 2: protobuf merges it into
    // the first, so the file declares a BPE model.
    let mut bpe = good.clone();
    bpe.extend([0x12, 0x02, 0x18, 0x02]);
    let dir = spm_dir(Some(bpe));
    let e = load_error(dir.path(), "xlm-roberta");
    assert!(e.contains(SPM) && e.contains("BPE"), "{e}");
    for damaged in [
        good[..good.len() / 2].to_vec(),
        b"not a model".to_vec(),
        vec![],
    ] {
        let dir = spm_dir(Some(damaged));
        let e = load_error(dir.path(), "xlm-roberta");
        assert!(e.contains(SPM), "{e}");
    }
    // CamemBERT also ships a sentencepiece.bpe.model, with another vocabulary order.
    let dir = spm_dir(None);
    let e = load_error(dir.path(), "camembert");
    assert!(e.contains(SPM) && e.contains("camembert"), "{e}");
    let cfg = serde_json::json!({ "tokenizer_class": "CamembertTokenizer" });
    std::fs::write(dir.path().join("tokenizer_config.json"), cfg.to_string()).unwrap();
    let e = load_error(dir.path(), "roberta");
    assert!(e.contains(SPM) && e.contains("roberta"), "{e}");
}

/// A copy of COMET fixture `model` whose encoder directory holds the fixture encoder's
/// config.json and tokenizer_config.json and, as its tokenizer, `tokenizer` (a path).
fn comet_with(model: &str, encoder: &str, tokenizer: &Path) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let family = fixture("comet-unified");
    let enc = tmp.path().join(encoder);
    std::fs::create_dir_all(&enc).unwrap();
    for f in ["config.json", "tokenizer_config.json"] {
        std::fs::copy(family.join(encoder).join(f), enc.join(f)).unwrap();
    }
    std::fs::copy(tokenizer, enc.join(tokenizer.file_name().unwrap())).unwrap();
    let dir = tmp.path().join(model);
    std::fs::create_dir_all(dir.join("checkpoints")).unwrap();
    for f in ["checkpoints/model.ckpt", "hparams.yaml"] {
        std::fs::copy(family.join(model).join(f), dir.join(f)).unwrap();
    }
    tmp
}

#[test]
fn comet_scores_the_same_from_sentencepiece_bpe_model_as_from_tokenizer_json() {
    // The COMET fixtures' encoders have 300 embedding rows; the SentencePiece fixture's 162 ids
    // fit, so their checkpoints run on either tokenizer. The scores are not unbabel-comet's
    // (its fixtures use a BPE tokenizer): the check is that the spm-only encoder directory
    // gives exactly what the tokenizer.json transformers converted from it gives.
    let r: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(fixture("comet-unified").join("reference.json")).unwrap(),
    )
    .unwrap();
    let strings = |k: &str| -> Vec<String> {
        r[k].as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect()
    };
    let (src, mt, rf) = (strings("src"), strings("mt"), strings("ref"));
    let inputs: Vec<CometSegment<'_>> = (0..mt.len())
        .map(|i| CometSegment {
            src: Some(&src[i]),
            mt: &mt[i],
            reference: Some(&rf[i]),
        })
        .collect();
    let spm = fixture("xlmr-spm").join(SPM);
    let json = fixture("xlmr-spm").join("converted/tokenizer.json");
    // XLM-R (`xlm-roberta`) and XLM-R XL (`xlm-roberta-xl`) encoders, both with word-level heads.
    for (model, encoder) in [("unified", "encoder"), ("xcomet-xl", "encoder-xl")] {
        let mut got = Vec::new();
        for tokenizer in [&spm, &json] {
            let tmp = comet_with(model, encoder, tokenizer);
            let m = CometModel::load(&tmp.path().join(model), &opts(3)).unwrap();
            assert_eq!(
                m.encoder().text_encoder().origin,
                tokenizer.file_name().unwrap().to_str().unwrap(),
                "{model}"
            );
            got.push(m.predict(&inputs).unwrap());
        }
        assert_eq!(got[0], got[1], "{model}");
        assert!(got[0].iter().any(|p| p.error_spans.is_some()), "{model}");
    }
}

#[test]
fn damaged_model_bytes_load_or_fail_without_panicking() {
    // Truncations and single-byte changes across the file (the character map is most of it):
    // each loads and encodes, or fails naming the file, never panics.
    let good = std::fs::read(fixture("xlmr-spm").join(SPM)).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let source = ModelSource::Dir(dir.path().to_path_buf());
    let (mut loaded, mut refused) = (0, 0);
    let step = good.len() / 97;
    for i in (0..good.len()).step_by(step) {
        for bytes in [good[..i].to_vec(), {
            let mut b = good.clone();
            b[i] ^= 0xA5;
            b
        }] {
            std::fs::write(dir.path().join(SPM), &bytes).unwrap();
            let r = std::panic::catch_unwind(|| {
                TextEncoder::load(&source, "xlm-roberta", 64).map(|enc| {
                    for s in ["Ｆｕｌｌ ﬁ café 東京 🍕", "", "a  b"] {
                        let _ = enc.encode(s, Some(s));
                    }
                })
            });
            match r {
                Ok(Ok(())) => loaded += 1,
                Ok(Err(e)) => {
                    assert!(e.to_string().contains(SPM), "{e}");
                    refused += 1;
                }
                Err(_) => panic!("panicked on bytes changed at {i} of {}", good.len()),
            }
        }
    }
    assert!(
        loaded > 0 && refused > 0,
        "{loaded} loaded, {refused} refused"
    );
}

//! BLEURT-20 forms (factorised embeddings, the distilled shape) with their SentencePiece
//! tokenizer (`spm.model`, bleurt-pytorch's BleurtSPTokenizer) against bleurt-pytorch and the
//! `sentencepiece` library on tiny random models (tools/gen/gen_bleurt20_fixtures.py): ids exact,
//! scores within 1e-4.

use hauser_nli::PackedCpu;
use hauser_nli::{ModelSource, SequenceClassifier};

use crate::common::{fixture, opts, reference, TOL};

const FORMS: [&str; 2] = ["bleurt-20", "bleurt-20-d"];

fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

fn ids(v: &serde_json::Value) -> Vec<u32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as u32)
        .collect()
}

fn load(form: &str, bs: usize) -> SequenceClassifier {
    SequenceClassifier::load(&ModelSource::Dir(fixture(form)), &opts(bs)).unwrap()
}

#[test]
fn sentencepiece_ids_match_the_sentencepiece_library() {
    for form in FORMS {
        let r = reference(form);
        let clf = load(form, 4);
        let text = clf.model().text_encoder();
        assert_eq!(text.origin, "spm.model");
        for t in r["texts"].as_array().unwrap() {
            let s = t["text"].as_str().unwrap();
            assert_eq!(
                text.encode_plain(s).unwrap(),
                ids(&t["ids"]),
                "{form}: {s:?}"
            );
        }
    }
}

#[test]
fn bleurt20_pairs_are_encoded_and_truncated_as_bleurt_pytorch_does() {
    for form in FORMS {
        let r = reference(form);
        let (refs, cands) = (strings(&r["references"]), strings(&r["candidates"]));
        let clf = load(form, 4);
        let text = clf.model().text_encoder();
        let mut truncated = 0;
        for ((rf, c), want) in refs.iter().zip(&cands).zip(r["ids"].as_array().unwrap()) {
            let enc = text.encode(rf, Some(c)).unwrap();
            assert_eq!(enc.ids, ids(want), "{form}: {rf:?} / {c:?}");
            truncated += usize::from(enc.truncated);
        }
        assert!(truncated >= 1, "{form}: the fixture exercises truncation");
    }
}

#[test]
fn bleurt20_scores_match_bleurt_pytorch() {
    for form in FORMS {
        let r = reference(form);
        let (refs, cands) = (strings(&r["references"]), strings(&r["candidates"]));
        let want: Vec<f64> = r["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        let pairs: Vec<(&str, Option<&str>)> = refs
            .iter()
            .zip(&cands)
            .map(|(r, c)| (r.as_str(), Some(c.as_str())))
            .collect();
        for (bs, packed) in [(1, true), (3, true), (8, false)] {
            let mut clf = load(form, bs);
            clf.model_mut().set_packed_cpu(packed);
            let got: Vec<f32> = clf
                .predict(&pairs)
                .unwrap()
                .logits
                .into_iter()
                .map(|l| l[0])
                .collect();
            for (g, w) in got.iter().zip(&want) {
                assert!(
                    (f64::from(*g) - w).abs() < TOL,
                    "{form} bs {bs} packed {packed}: {got:?} vs {want:?}"
                );
            }
        }
    }
}

/// A copy of `form`'s files with `spm.model` replaced by `bytes`.
fn with_spm(form: &str, bytes: &[u8]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for f in ["model.safetensors", "config.json", "tokenizer_config.json"] {
        std::fs::copy(fixture(form).join(f), dir.path().join(f)).unwrap();
    }
    std::fs::write(dir.path().join("spm.model"), bytes).unwrap();
    dir
}

#[test]
fn a_damaged_sentencepiece_model_is_refused_naming_the_file() {
    let good = std::fs::read(fixture("bleurt-20-d").join("spm.model")).unwrap();
    for (what, bytes) in [
        ("cut", good[..good.len() / 2].to_vec()),
        ("empty", Vec::new()),
        ("text", b"not a model\n".to_vec()),
    ] {
        let dir = with_spm("bleurt-20-d", &bytes);
        let err = SequenceClassifier::load(&ModelSource::Dir(dir.path().to_path_buf()), &opts(2))
            .err()
            .unwrap_or_else(|| panic!("{what}: a damaged spm.model was accepted"))
            .to_string();
        assert!(err.contains("spm.model"), "{what}: {err}");
    }
}

#[test]
fn a_bpe_sentencepiece_model_is_refused() {
    // TrainerSpec (field 2) with model_type (field 3) = 2 (BPE), after the file's pieces.
    let mut bytes = std::fs::read(fixture("bleurt-20-d").join("spm.model")).unwrap();
    bytes.extend([0x12, 0x02, 0x18, 0x02]);
    let dir = with_spm("bleurt-20-d", &bytes);
    let Err(err) = SequenceClassifier::load(&ModelSource::Dir(dir.path().to_path_buf()), &opts(2))
    else {
        panic!("a BPE model was accepted");
    };
    let err = err.to_string();
    assert!(err.contains("BPE") && err.contains("spm.model"), "{err}");
}

//! BLEURT (BERT-based, bleurt-pytorch's BleurtForSequenceClassification layout) against
//! bleurt-pytorch on a tiny random model (tools/gen/gen_bleurt_fixture.py).

use hauser_nli::PackedCpu;
use hauser_nli::{LoadOptions, ModelSource, SequenceClassifier};

use crate::common::{fixture, opts, reference, TOL};

fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

fn scores(o: &LoadOptions, packed: bool) -> Vec<f32> {
    let r = reference("bleurt");
    let (refs, cands) = (strings(&r["references"]), strings(&r["candidates"]));
    let mut clf = SequenceClassifier::load(&ModelSource::Dir(fixture("bleurt")), o).unwrap();
    clf.model_mut().set_packed_cpu(packed);
    assert_eq!(clf.labels().len(), 1, "a regression head");
    // The original BLEURT's input: [CLS] reference [SEP] candidate [SEP].
    let pairs: Vec<(&str, Option<&str>)> = refs
        .iter()
        .zip(&cands)
        .map(|(r, c)| (r.as_str(), Some(c.as_str())))
        .collect();
    clf.predict(&pairs)
        .unwrap()
        .logits
        .into_iter()
        .map(|l| l[0])
        .collect()
}

#[test]
fn bleurt_scores_match_bleurt_pytorch() {
    let r = reference("bleurt");
    let want: Vec<f64> = r["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    for (bs, packed) in [(1, true), (4, true), (4, false)] {
        let got = scores(&opts(bs), packed);
        for (g, w) in got.iter().zip(&want) {
            assert!(
                (*g as f64 - w).abs() < TOL,
                "bs {bs} packed {packed}: {got:?} vs {want:?}"
            );
        }
    }
}

#[test]
fn bleurt_tokenisation_and_truncation_match() {
    let r = reference("bleurt");
    let (refs, cands) = (strings(&r["references"]), strings(&r["candidates"]));
    let clf = SequenceClassifier::load(&ModelSource::Dir(fixture("bleurt")), &opts(4)).unwrap();
    let text = clf.model().text_encoder();
    let mut truncated = 0;
    for ((rf, c), want) in refs.iter().zip(&cands).zip(r["ids"].as_array().unwrap()) {
        let enc = text.encode(rf, Some(c)).unwrap();
        let want: Vec<u32> = want
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap() as u32)
            .collect();
        assert_eq!(enc.ids, want, "{rf:?} / {c:?}");
        truncated += usize::from(enc.truncated);
    }
    assert!(
        truncated >= 2,
        "the fixture exercises longest-first truncation"
    );
}

#[test]
fn an_embedding_size_the_weights_do_not_have_is_refused_naming_the_tensor() {
    let dir = tempfile::tempdir().unwrap();
    for f in ["model.safetensors", "vocab.txt", "tokenizer_config.json"] {
        std::fs::copy(fixture("bleurt").join(f), dir.path().join(f)).unwrap();
    }
    let cfg = std::fs::read_to_string(fixture("bleurt").join("config.json")).unwrap();
    let cfg = cfg.replace("\"embedding_size\": null", "\"embedding_size\": 16");
    std::fs::write(dir.path().join("config.json"), cfg).unwrap();
    let err = SequenceClassifier::load(&ModelSource::Dir(dir.path().to_path_buf()), &opts(4))
        .unwrap_err();
    // bleurt-pytorch would build 16-wide embeddings and a projection: neither is in the weights.
    assert!(
        err.to_string()
            .contains("bleurt.embeddings.word_embeddings.weight, expected: [200, 16]"),
        "{err}"
    );
}

//! Model loading: tokenizer fallbacks, pytorch_model.bin, label maps, and clear errors.
#![allow(clippy::unwrap_used)]

use crate::common::*;
use hauser_nli::{CausalLm, Embedder, ModelSource, NliError, SequenceClassifier};

fn copy_without(arch: &str, skip: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(fixture(arch)).unwrap() {
        let p = entry.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        if !skip.contains(&name.as_str()) {
            std::fs::copy(&p, dir.path().join(name)).unwrap();
        }
    }
    dir
}

#[test]
fn vocab_txt_fallback_tokenizes_like_tokenizer_json() {
    let dir = copy_without("bert", &["tokenizer.json"]);
    let c = SequenceClassifier::load(&ModelSource::Dir(dir.path().into()), &opts(2)).unwrap();
    assert_eq!(c.model().text_encoder().origin, "vocab.txt");
    let r = reference("bert");
    for s in r["pairs"].as_array().unwrap() {
        let (a, b) = (s["first"].as_str().unwrap(), s["second"].as_str().unwrap());
        let enc = c.model().text_encoder().encode(a, Some(b)).unwrap();
        assert_eq!(enc.ids, ids(&s["ids"]));
        let p = c.predict(&[(a, Some(b))]).unwrap();
        assert_close("bert via vocab.txt", &p.logits[0], &floats(&s["logits"]));
    }
}

#[test]
fn vocab_json_merges_fallback_tokenizes_like_tokenizer_json() {
    let dir = copy_without("roberta", &["tokenizer.json"]);
    let c = SequenceClassifier::load(&ModelSource::Dir(dir.path().into()), &opts(2)).unwrap();
    assert_eq!(c.model().text_encoder().origin, "vocab.json+merges.txt");
    let r = reference("roberta");
    for s in r["singles"].as_array().unwrap() {
        let text = s["text"].as_str().unwrap();
        assert_eq!(
            c.model().text_encoder().encode(text, None).unwrap().ids,
            ids(&s["ids"])
        );
    }
    for s in r["pairs"].as_array().unwrap() {
        let (a, b) = (s["first"].as_str().unwrap(), s["second"].as_str().unwrap());
        let p = c.predict(&[(a, Some(b))]).unwrap();
        assert_close(
            "roberta via vocab.json",
            &p.logits[0],
            &floats(&s["logits"]),
        );
    }
}

#[test]
fn deberta_v1_vocab_json_fallback_uses_bert_special_tokens_and_segments() {
    let dir = copy_without("deberta", &["tokenizer.json"]);
    let c = SequenceClassifier::load(&ModelSource::Dir(dir.path().into()), &opts(2)).unwrap();
    assert_eq!(c.model().text_encoder().origin, "vocab.json+merges.txt");
    let r = reference("deberta");
    for s in r["pairs"].as_array().unwrap() {
        let (a, b) = (s["first"].as_str().unwrap(), s["second"].as_str().unwrap());
        let enc = c.model().text_encoder().encode(a, Some(b)).unwrap();
        assert_eq!(enc.ids, ids(&s["ids"]));
        assert_eq!(enc.type_ids, ids(&s["type_ids"]));
        let p = c.predict(&[(a, Some(b))]).unwrap();
        assert_close(
            "deberta via vocab.json",
            &p.logits[0],
            &floats(&s["logits"]),
        );
    }
}

#[test]
fn deberta_v1_reads_pos_att_type_written_as_a_string() {
    // Older checkpoints (microsoft/deberta-large-mnli) write "c2p|p2c"; the fixture, saved by
    // a recent transformers, has a list. Same model, same logits.
    let dir = copy_without("deberta", &["config.json"]);
    let mut cfg: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(fixture("deberta").join("config.json")).unwrap(),
    )
    .unwrap();
    cfg["pos_att_type"] = serde_json::json!("c2p|p2c");
    std::fs::write(dir.path().join("config.json"), cfg.to_string()).unwrap();
    let c = SequenceClassifier::load(&ModelSource::Dir(dir.path().into()), &opts(2)).unwrap();
    let s = &reference("deberta")["singles"][0];
    let p = c.predict(&[(s["text"].as_str().unwrap(), None)]).unwrap();
    assert_close(
        "deberta, string pos_att_type",
        &p.logits[0],
        &floats(&s["logits"]),
    );
    // Dropping p2c leaves the p2c projections of the checkpoint unused, which the strict
    // loader refuses: the test would notice a parser that ignored the string.
    cfg["pos_att_type"] = serde_json::json!("c2p");
    std::fs::write(dir.path().join("config.json"), cfg.to_string()).unwrap();
    let err = SequenceClassifier::load(&ModelSource::Dir(dir.path().into()), &opts(2))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("deberta.encoder.layer.0.attention.self.pos_q_proj.weight"),
        "{err}"
    );
}

#[test]
fn pytorch_bin_weights_load() {
    assert!(fixture("distilbert").join("pytorch_model.bin").is_file());
    assert!(!fixture("distilbert").join("model.safetensors").exists());
    let c = SequenceClassifier::load(&source("distilbert"), &opts(2)).unwrap();
    assert_eq!(c.labels(), ["LABEL_0", "LABEL_1"]);
}

#[test]
fn labels_resolve_by_name_case_insensitively_with_override() {
    let c = SequenceClassifier::load(&source("bert"), &opts(2)).unwrap();
    assert_eq!(c.label_index("contradiction").unwrap(), 2);
    assert_eq!(c.label_index("Entailment").unwrap(), 0);
    let err = c.label_index("positive").unwrap_err();
    assert!(matches!(err, NliError::Label { .. }));
    assert!(err.to_string().contains("Contradiction"), "{err}");

    let d = SequenceClassifier::load(&source("distilbert"), &opts(2)).unwrap();
    assert!(d.label_index("positive").is_err());
    let d = d
        .with_labels(vec!["negative".into(), "positive".into()])
        .unwrap();
    assert_eq!(d.label_index("POSITIVE").unwrap(), 1);
    let d = SequenceClassifier::load(&source("distilbert"), &opts(2)).unwrap();
    assert!(d.with_labels(vec!["only-one".into()]).is_err());
}

fn err_text<T: std::fmt::Debug>(r: Result<T, NliError>) -> String {
    r.unwrap_err().to_string()
}

#[test]
fn missing_files_are_errors_naming_the_model() {
    let dir = copy_without("bert", &["model.safetensors"]);
    let msg = err_text(SequenceClassifier::load(
        &ModelSource::Dir(dir.path().into()),
        &opts(2),
    ));
    assert!(
        msg.contains("model.safetensors or pytorch_model.bin"),
        "{msg}"
    );
    assert!(msg.contains(&dir.path().display().to_string()), "{msg}");

    let dir = copy_without("bert", &["tokenizer.json", "vocab.txt"]);
    let msg = err_text(SequenceClassifier::load(
        &ModelSource::Dir(dir.path().into()),
        &opts(2),
    ));
    assert!(
        msg.contains("vocab.json") || msg.contains("merges.txt"),
        "{msg}"
    );

    let msg = err_text(Embedder::load(
        &ModelSource::Dir("/nonexistent/model".into()),
        &opts(2),
    ));
    assert!(msg.contains("/nonexistent/model"), "{msg}");
}

#[test]
fn wrong_shapes_and_architectures_are_clear_errors() {
    // A config whose hidden size disagrees with the weights.
    let dir = copy_without("bert", &[]);
    let cfg_path = dir.path().join("config.json");
    let cfg = std::fs::read_to_string(&cfg_path)
        .unwrap()
        .replace("\"hidden_size\": 32", "\"hidden_size\": 48");
    std::fs::write(&cfg_path, cfg).unwrap();
    let msg = err_text(SequenceClassifier::load(
        &ModelSource::Dir(dir.path().into()),
        &opts(2),
    ));
    assert!(
        msg.contains("shape") && msg.contains("model.safetensors"),
        "{msg}"
    );

    let msg = err_text(SequenceClassifier::load(&source("gpt2"), &opts(2)));
    assert!(msg.contains("unsupported architecture \"gpt2\""), "{msg}");
    let msg = err_text(CausalLm::load(&source("bert"), &opts(2)));
    assert!(msg.contains("unsupported architecture \"bert\""), "{msg}");

    let dir = copy_without("bert", &[]);
    std::fs::write(dir.path().join("config.json"), "{ not json").unwrap();
    let msg = err_text(SequenceClassifier::load(
        &ModelSource::Dir(dir.path().into()),
        &opts(2),
    ));
    assert!(
        msg.contains("invalid config") && msg.contains("line 1"),
        "{msg}"
    );
}

/// Offline hub access: a model laid out as hf-hub's cache loads without network, and a model
/// missing from that cache is a clear error naming the cache and `HF_HUB_OFFLINE`.
/// `HF_HOME` and `HF_HUB_OFFLINE` are process-wide and read at each lookup, so the checks run in
/// a child process of this test binary (this same test, with the variables set) and no other
/// test of the binary ever sees them.
#[test]
fn offline_hub_uses_the_cache_and_names_a_missing_model() {
    if std::env::var_os("HAUSER_HUB_TEST_CHILD").is_none() {
        // models--org--name/snapshots/<rev>/ and refs/main, as hf-hub writes them.
        let home = tempfile::tempdir().unwrap();
        let repo = home
            .path()
            .join("hub")
            .join("models--hauser-test--tiny-bert");
        let snap = repo.join("snapshots").join("0123abc");
        std::fs::create_dir_all(&snap).unwrap();
        std::fs::create_dir_all(repo.join("refs")).unwrap();
        std::fs::write(repo.join("refs").join("main"), "0123abc").unwrap();
        for entry in std::fs::read_dir(fixture("bert")).unwrap() {
            let p = entry.unwrap().path();
            std::fs::copy(&p, snap.join(p.file_name().unwrap())).unwrap();
        }
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "loading::offline_hub_uses_the_cache_and_names_a_missing_model",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("HAUSER_HUB_TEST_CHILD", "1")
            .env("HF_HOME", home.path())
            .env("HF_HUB_OFFLINE", "1")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "child failed:\n{text}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        // The child really ran this test (a filter typo would run nothing and succeed).
        assert!(text.contains("1 passed"), "{text}");
        return;
    }

    let src = ModelSource::parse("hauser-test/does-not-exist@v1");
    let msg = err_text(SequenceClassifier::load(&src, &opts(2)));
    assert!(
        msg.contains("hauser-test/does-not-exist") && msg.contains("config.json"),
        "{msg}"
    );
    assert!(msg.contains("HF_HUB_OFFLINE"), "{msg}");

    let src = ModelSource::parse("hauser-test/tiny-bert");
    let c = SequenceClassifier::load(&src, &opts(2)).unwrap();
    assert_eq!(c.label_index("contradiction").unwrap(), 2);
    let r = reference("bert");
    let s = &r["singles"][0];
    let p = c.predict(&[(s["text"].as_str().unwrap(), None)]).unwrap();
    assert_close("bert from hub cache", &p.logits[0], &floats(&s["logits"]));
}

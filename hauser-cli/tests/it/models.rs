//! Model loading from the command line: local paths never go to the hub, non-finite
//! activations are errors naming the layer, perplexity inputs longer than the context are cut
//! and reported, not a failed run.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::*;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../hauser-nli/tests/fixtures")
        .join(name)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p
}

#[test]
fn local_model_paths_that_are_not_directories_are_never_looked_up_on_the_hub() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = write(dir.path(), "in.txt", "a line\n");
    let input = input.to_str().expect("UTF-8");
    let weights = write(dir.path(), "model.safetensors", "not a model");
    let missing_abs = dir.path().join("no-such-model");
    let cases: Vec<(String, &str)> = vec![
        ("./no/such/model".into(), "does not exist"),
        ("../no-such-model".into(), "does not exist"),
        (missing_abs.display().to_string(), "does not exist"),
        (weights.display().to_string(), "is a regular file"),
    ];
    for (spec, problem) in &cases {
        // HF_HUB_OFFLINE unset on purpose: a hub lookup would show up as a hub error.
        let out = hauser()
            .args(["embed", "--model", spec, "--input", input])
            .env_remove("HF_HUB_OFFLINE")
            .env("HF_ENDPOINT", "http://127.0.0.1:9")
            .output()
            .expect("runs");
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{spec}: {err}");
        assert!(
            err.contains(problem) && err.contains(spec.as_str()),
            "{spec}: {err}"
        );
        assert!(!err.contains("hub"), "{spec}: {err}");
    }
    // The same rule for every command that loads a model.
    let out = run(&[
        "metric",
        "perplexity",
        "--model",
        "./no/such/lm",
        "--hyp",
        input,
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("./no/such/lm does not exist"),
        "{}",
        stderr(&out)
    );
    let groups = write(
        dir.path(),
        "groups.jsonl",
        "{\"literal\": \"He ran.\", \"candidates\": [\"He ran like the wind.\"]}\n",
    );
    let out = run(&[
        "score",
        "--input",
        groups.to_str().expect("UTF-8"),
        "--nli",
        "./no/such/nli",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("./no/such/nli does not exist"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn nan_activations_are_an_error_naming_the_layer_not_null_vectors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = write(dir.path(), "in.txt", "the cat sat\nrain fell like tears\n");
    let input = input.to_str().expect("UTF-8");
    // A negative epsilon larger than the variance of the embeddings: LayerNorm takes the
    // square root of a negative number in the embedding layer.
    let model = edited_fixture(dir.path(), "bert", |c| c["layer_norm_eps"] = (-10.0).into());
    let out = run(&[
        "embed",
        "--model",
        model.to_str().expect("UTF-8"),
        "--input",
        input,
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("non-finite activations"), "{err}");
    assert!(err.contains("layer 0 (the embeddings)"), "{err}");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("null"));

    // GPT-2 normalises inside each block (pre-LN): the first block is the first to fail.
    let lm = edited_fixture(dir.path(), "gpt2", |c| {
        c["layer_norm_epsilon"] = (-10.0).into()
    });
    let out = run(&[
        "metric",
        "perplexity",
        "--model",
        lm.to_str().expect("UTF-8"),
        "--hyp",
        input,
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("non-finite activations"), "{err}");
    assert!(err.contains("in the output of layer 1;"), "{err}");
}

#[test]
fn perplexity_of_a_line_longer_than_the_context_is_cut_and_reported() {
    let dir = tempfile::tempdir().expect("tempdir");
    let long = "the boy ran like the wind ".repeat(40);
    let hyp = write(
        dir.path(),
        "hyp.txt",
        &format!("rain fell like tears\n{}\nshe sang softly\n", long.trim()),
    );
    let model = fixture("gpt2");
    let args = [
        "metric",
        "perplexity",
        "--model",
        model.to_str().expect("UTF-8"),
        "--hyp",
        hyp.to_str().expect("UTF-8"),
    ];
    let mut sentence = args.to_vec();
    sentence.push("--sentence");
    let out = run(&sentence);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains(
            "1 line(s) longer than the model's context of 64 tokens were cut to it (line 2)"
        ),
        "{err}"
    );
    let scores: Vec<f64> = String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .map(|l| l.parse().expect("number"))
        .collect();
    assert_eq!(scores.len(), 3);
    assert!(
        scores.iter().all(|s| s.is_finite() && *s > 0.0),
        "{scores:?}"
    );

    // The cut line scores as its first 64 tokens do.
    let lm = hauser_nli::CausalLm::load(
        &hauser_nli::ModelSource::Dir(model.clone()),
        &hauser_nli::LoadOptions::default(),
    )
    .expect("model");
    let mut ids = lm.text_encoder().encode_plain(long.trim()).expect("ids");
    assert!(ids.len() > 64);
    ids.truncate(64);
    let lp = lm.logprobs_of_ids(&[ids]).expect("logprobs");
    let want = (-lp[0].iter().map(|&x| f64::from(x)).sum::<f64>() / lp[0].len() as f64).exp();
    assert!(
        (scores[1] - want).abs() / want < 1e-9,
        "{} vs {want}",
        scores[1]
    );

    let out = run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let v = &json_lines(&out)[0];
    assert_eq!(v["truncated"], 1);
    assert_eq!(v["scored"], 3);
}

//! Corrupt resources and off-spec models are refused with exit 2, naming the file and line
//! (or byte offset), the tensor or the config key; never read as empty.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::*;

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn write(dir: &Path, name: &str, text: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p
}

#[test]
fn empty_or_non_finite_vectors_are_refused_naming_the_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let h = write(dir.path(), "hyp.txt", b"the cat\n");
    let h = h.to_str().expect("UTF-8");
    for (name, body, want) in [
        ("empty.txt", &b""[..], "empty.txt: line 1: no word vectors"),
        (
            "nan.txt",
            &b"the 1 2 3\ncat 1 nan 3\n"[..],
            "nan.txt: line 2: component 2 of \"cat\" is NaN",
        ),
        (
            "inf.txt",
            &b"2 3\nthe 1 2 3\ncat 1 2 inf\n"[..],
            "inf.txt: line 3: component 3 of \"cat\" is inf",
        ),
    ] {
        let v = write(dir.path(), name, body);
        let out = run(&[
            "metric",
            "wmd",
            "--vectors",
            v.to_str().expect("UTF-8"),
            "--hyp",
            h,
            "--ref",
            h,
        ]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(want), "{name}: {err}");
        assert!(out.stdout.is_empty(), "{name}");
    }
}

#[test]
fn a_damaged_bertscore_baseline_is_refused_naming_the_line_before_the_model_loads() {
    let dir = tempfile::tempdir().expect("tempdir");
    let h = write(dir.path(), "hyp.txt", b"the cat sat\n");
    let h = h.to_str().expect("UTF-8");
    // The row that made every rescaled score null (a baseline of 1 divides by zero).
    let b = write(
        dir.path(),
        "base.tsv",
        b"LAYER,P,R,F\n0,0.3,0.31,0.305\n1,0.31,0.32,0.315\n2,1,1,1\n",
    );
    let out = run(&[
        "metric",
        "bertscore",
        "--model",
        tiny("bert").to_str().expect("UTF-8"),
        "--layer",
        "1",
        "--baseline",
        b.to_str().expect("UTF-8"),
        "--hyp",
        h,
        "--ref",
        h,
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("base.tsv:4: BERTScore baseline: P \"1\" is not a mean cosine similarity"),
        "{err}"
    );
    // Checked before the model is loaded: a missing model is not reached.
    let short = write(dir.path(), "short.tsv", b"LAYER,P,R,F\n0,0.3,0.31\n");
    let out = run(&[
        "metric",
        "bertscore",
        "--model",
        "./no/such/model",
        "--layer",
        "1",
        "--baseline",
        short.to_str().expect("UTF-8"),
        "--hyp",
        h,
        "--ref",
        h,
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("short.tsv:2: BERTScore baseline: 3 columns"),
        "{err}"
    );
}

/// An edit of a model's config.json.
type ConfigEdit = dyn Fn(&mut serde_json::Value);

#[test]
fn off_spec_models_are_refused_naming_the_tensor_or_key() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = write(dir.path(), "in.txt", b"the cat sat\n");
    let input = input.to_str().expect("UTF-8");
    let cases: [(&str, &ConfigEdit, &str); 3] = [
        // Fewer layers than the weights: the last layer's tensors are unused.
        (
            "bert",
            &|c| c["num_hidden_layers"] = 1.into(),
            "bert.encoder.layer.1.",
        ),
        // No segment embeddings where the checkpoint has them.
        (
            "bert",
            &|c| c["type_vocab_size"] = 0.into(),
            "bert.embeddings.token_type_embeddings.weight",
        ),
        // An activation this tool does not run no longer falls back to GELU.
        (
            "roberta",
            &|c| c["hidden_act"] = "gelu_10".into(),
            "hidden_act = \"gelu_10\"",
        ),
    ];
    for (i, (name, edit, want)) in cases.into_iter().enumerate() {
        let at = dir.path().join(i.to_string());
        std::fs::create_dir(&at).expect("mkdir");
        let model = edited_fixture(&at, name, edit);
        let out = run(&[
            "embed",
            "--model",
            model.to_str().expect("UTF-8"),
            "--input",
            input,
        ]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{want}: {err}");
        assert!(err.contains(want), "{want}: {err}");
    }
}

/// The real database with one file replaced by `edit` of it (links for the others).
fn wordnet_with(dir: &Path, name: &str, edit: impl Fn(Vec<u8>) -> Vec<u8>) -> PathBuf {
    let real = wordnet_dir();
    let to = dir.join("wordnet");
    std::fs::create_dir(&to).expect("mkdir");
    for entry in std::fs::read_dir(&real).expect("wordnet") {
        let p = entry.expect("entry").path();
        if !p.is_file() {
            continue;
        }
        let file = p.file_name().expect("name").to_owned();
        if file == name {
            std::fs::write(to.join(&file), edit(std::fs::read(&p).expect("read"))).expect("w");
        } else {
            std::os::unix::fs::symlink(&p, to.join(&file)).expect("link");
        }
    }
    to
}

#[test]
#[ignore = "needs WordNet: apt-get install wordnet-base"]
fn wordnet_truncated_is_refused_not_read_as_words_without_senses() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Cut at a line boundary: the index still lists the verbs whose synsets are gone.
    let wn = wordnet_with(dir.path(), "data.verb", |b| {
        let mut end = b.len() / 2;
        while b[end - 1] != b'\n' {
            end -= 1;
        }
        b[..end].to_vec()
    });
    let input =
        "{\"headline\": \"Markets tumble\", \"focus\": 1, \"candidates\": [\"fall\", \"sink\"]}\n";
    let out = run_stdin(
        &[
            "newsmet",
            "diversity",
            "-i",
            "-",
            "--wordnet",
            wn.to_str().expect("UTF-8"),
        ],
        input,
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("is not a synset of data.verb"), "{err}");
    assert!(out.stdout.is_empty());
}

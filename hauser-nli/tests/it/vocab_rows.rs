//! The tokenizer against the input embedding matrix (issue 37, item 9b): a tokenizer that can
//! emit an id past the last row is refused at load for every model kind, a T5 vocabulary far
//! smaller than the (128-padded) rows is refused, and a SentencePiece file cut at a protocol
//! buffer record boundary (which still decodes) is refused naming the cut. Each case loaded
//! and scored before the check.

use std::path::Path;

use hauser_nli::{
    CausalLm, Embedder, LoadOptions, MetricxInput, MetricxModel, MetricxVersion, ModelSource,
    NliError, SequenceClassifier,
};

use crate::common::{fixture, opts};

/// A copy of fixture `name` (plain files only).
fn copy(name: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(fixture(name)).unwrap() {
        let p = entry.unwrap().path();
        if p.is_file() {
            std::fs::copy(&p, dir.path().join(p.file_name().unwrap())).unwrap();
        }
    }
    dir
}

/// The top-level records of a protocol buffer message as `(field, start, end)`; SentencePiece's
/// `ModelProto` holds only length-delimited fields (pieces 1, trainer_spec 2,
/// normalizer_spec 3...).
fn records(bytes: &[u8]) -> Vec<(u64, usize, usize)> {
    let varint = |i: &mut usize| {
        let (mut v, mut shift) = (0u64, 0);
        loop {
            let b = bytes[*i];
            *i += 1;
            v |= u64::from(b & 0x7f) << shift;
            shift += 7;
            if b < 0x80 {
                return v;
            }
        }
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        let key = varint(&mut i);
        assert_eq!(key & 7, 2, "only length-delimited fields expected");
        let len = varint(&mut i) as usize;
        i += len;
        out.push((key >> 3, start, i));
    }
    assert_eq!(i, bytes.len());
    out
}

/// Rewrites `file` in `dir` keeping the records `keep` selects (by index and field).
fn keep_records(dir: &Path, file: &str, keep: impl Fn(usize, u64) -> bool) {
    let p = dir.join(file);
    let bytes = std::fs::read(&p).unwrap();
    let mut out = Vec::new();
    let mut piece = 0;
    for (field, start, end) in records(&bytes) {
        let index = if field == 1 { piece } else { usize::MAX };
        if keep(index, field) {
            out.extend_from_slice(&bytes[start..end]);
        }
        if field == 1 {
            piece += 1;
        }
    }
    std::fs::write(&p, out).unwrap();
}

fn metricx(dir: &Path) -> Result<MetricxModel, NliError> {
    let src = ModelSource::Dir(dir.to_path_buf());
    MetricxModel::load(&src, &src, &LoadOptions::default(), 64)
}

/// Loads and scores one triple: what a cut file did before the checks.
fn metricx_scores(dir: &Path) -> Result<f32, NliError> {
    let m = metricx(dir)?;
    let input = MetricxInput {
        source: Some("Der Hund bellt."),
        hypothesis: "The dog barks.",
        reference: Some("The dog is barking."),
    };
    Ok(m.predict(MetricxVersion::V24, &[input])?[0].score)
}

#[test]
fn the_fixtures_records_are_pieces_then_specs() {
    let bytes = std::fs::read(fixture("metricx").join("spiece.model")).unwrap();
    let fields: Vec<u64> = records(&bytes).iter().map(|r| r.0).collect();
    assert_eq!(fields.iter().filter(|&&f| f == 1).count(), 140);
    assert_eq!(&fields[140..], &[2, 3]);
}

#[test]
fn a_spiece_model_cut_among_its_pieces_is_refused() {
    let dir = copy("metricx");
    // The first 100 of 140 pieces: the file still decodes (a protocol buffer has no end
    // marker), without the trainer and normalizer specs.
    keep_records(dir.path(), "spiece.model", |i, f| f == 1 && i < 100);
    let err = metricx_scores(dir.path()).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, NliError::Tokenizer { .. }), "{msg}");
    assert!(
        msg.contains("spiece.model") && msg.contains("after 100 pieces") && msg.contains("cut"),
        "{msg}"
    );
}

#[test]
fn a_spiece_model_cut_before_its_normalizer_spec_is_refused() {
    let dir = copy("metricx");
    keep_records(dir.path(), "spiece.model", |_, f| f != 3);
    let msg = metricx_scores(dir.path()).unwrap_err().to_string();
    assert!(
        msg.contains("after 140 pieces and the trainer_spec") && msg.contains("normalizer_spec"),
        "{msg}"
    );
}

#[test]
fn an_spm_model_cut_among_its_pieces_is_refused_for_encoders_too() {
    let dir = copy("bleurt-20");
    keep_records(dir.path(), "spm.model", |i, f| f == 1 && i < 150);
    let src = ModelSource::Dir(dir.path().to_path_buf());
    let msg = SequenceClassifier::load(&src, &opts(2))
        .unwrap_err()
        .to_string();
    assert!(
        msg.contains("spm.model") && msg.contains("after 150 pieces"),
        "{msg}"
    );
}

#[test]
fn a_t5_vocabulary_far_smaller_than_the_embedding_rows_is_refused() {
    // A whole SentencePiece file (specs kept) with 20 of its 140 pieces and 11 sentinels
    // (`<extra_id_10>` is the score's): 31 ids for 240 rows, where T5's padding leaves at
    // most 127 rows without a token.
    let dir = copy("metricx");
    keep_records(dir.path(), "spiece.model", |i, f| f != 1 || i < 20);
    let cfg = dir.path().join("tokenizer_config.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cfg).unwrap()).unwrap();
    v["extra_ids"] = 11.into();
    std::fs::write(&cfg, v.to_string()).unwrap();
    let err = metricx_scores(dir.path()).unwrap_err();
    let msg = err.to_string();
    let NliError::Vocabulary { ids, rows, .. } = err else {
        panic!("{msg}")
    };
    assert_eq!((ids, rows), (31, 240), "{msg}");
    assert!(
        msg.contains("spiece.model")
            && msg.contains("model.safetensors")
            && msg.contains("209 rows"),
        "{msg}"
    );
}

/// Adds a special token with id `id` to `dir`'s tokenizer.json.
fn add_token(dir: &Path, id: usize) {
    let p = dir.join("tokenizer.json");
    let mut t: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
    t["added_tokens"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({
            "id": id, "content": "<beyond>", "single_word": false, "lstrip": false,
            "rstrip": false, "normalized": false, "special": true
        }));
    std::fs::write(&p, t.to_string()).unwrap();
}

fn assert_beyond(err: NliError, rows: usize) {
    let msg = err.to_string();
    let NliError::Vocabulary { ids, rows: r, .. } = err else {
        panic!("{msg}")
    };
    assert_eq!((ids, r), (rows + 1, rows), "{msg}");
    assert!(
        msg.contains("tokenizer.json")
            && msg.contains("model.safetensors")
            && msg.contains("1 ids have no embedding row"),
        "{msg}"
    );
}

#[test]
fn an_added_token_beyond_the_rows_is_refused_for_metricx() {
    let dir = copy("metricx-relu");
    add_token(dir.path(), 240);
    assert_beyond(metricx_scores(dir.path()).unwrap_err(), 240);
}

#[test]
fn an_added_token_beyond_the_rows_is_refused_for_encoders() {
    for (name, rows) in [
        ("bert", 200),
        ("roberta", 300),
        ("xlm-roberta", 300),
        ("deberta-v2", 200),
    ] {
        let dir = copy(name);
        add_token(dir.path(), rows);
        let src = ModelSource::Dir(dir.path().to_path_buf());
        assert_beyond(Embedder::load(&src, &opts(2)).unwrap_err(), rows);
    }
}

#[test]
fn an_added_token_beyond_the_rows_is_refused_for_gpt2() {
    let dir = copy("gpt2");
    add_token(dir.path(), 300);
    let src = ModelSource::Dir(dir.path().to_path_buf());
    assert_beyond(CausalLm::load(&src, &opts(2)).unwrap_err(), 300);
}

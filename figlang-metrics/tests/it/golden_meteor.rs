//! Golden tests: WordNet lemma lookup and METEOR against NLTK 3.10.4 (`meteor_score` with
//! WordNet 3.0 from Debian's `wordnet-base`). Tolerance 1e-9. Skips with a notice when the
//! WordNet database is absent (install it with `tools/test-assets.sh`).

use crate::common;
use figlang_metrics::text::meteor::Meteor;
use figlang_metrics::text::wordnet::{WordNet, DEFAULT_WORDNET_DIR};
use figlang_metrics::text::MetricError;

fn wordnet_dir() -> Option<String> {
    let dir = std::env::var("WORDNET_DIR").unwrap_or_else(|_| DEFAULT_WORDNET_DIR.to_string());
    if std::path::Path::new(&dir).join("data.noun").exists() {
        Some(dir)
    } else {
        eprintln!("NOTICE: no WordNet database at {dir}; METEOR golden tests skipped");
        None
    }
}

#[test]
fn wordnet_synset_lemmas_match_nltk() {
    let Some(dir) = wordnet_dir() else { return };
    let wn = WordNet::open(&dir).expect("wordnet");
    let fx = common::fixture("meteor_nltk.json");
    let words = common::strings(&fx["synset_lemmas"]["words"]);
    let names = fx["synset_lemmas"]["lemma_names"]
        .as_array()
        .expect("names");
    let mut bad = Vec::new();
    for (w, want) in words.iter().zip(names) {
        let want = common::strings(want);
        let got = wn.synset_lemma_names(w);
        if got != want {
            bad.push(format!("{w}: nltk {want:?}\n  ours {got:?}"));
        }
    }
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn meteor_matches_nltk() {
    let Some(dir) = wordnet_dir() else { return };
    let m = Meteor::new(&dir).expect("meteor");
    let fx = common::fixture("meteor_nltk.json");
    let mut mm = common::Mismatches::default();
    for c in fx["cases"].as_array().expect("cases") {
        let hyp = c["hyp"].as_str().expect("hyp");
        let refs = common::strings(&c["refs"]);
        let got = m.sentence(hyp, &refs).expect("meteor");
        mm.check(
            || format!("{hyp:?} / {refs:?}"),
            got.score,
            c["score"].as_f64().expect("score"),
            1e-9,
        );
    }
    mm.assert_none();
}

#[test]
fn missing_wordnet_is_a_typed_error() {
    let err = Meteor::new("/nonexistent/wordnet").expect_err("must fail");
    assert!(matches!(err, MetricError::WordNetMissing { .. }), "{err}");
    assert!(err.to_string().contains("wordnet-base"), "{err}");
}

#[test]
fn meteor_nltk345_matches_nltk_3_4_5() {
    let Some(dir) = wordnet_dir() else { return };
    let mut m = Meteor::new(&dir).expect("meteor");
    m.version = figlang_metrics::text::meteor::MeteorVersion::V345;
    let fx = common::fixture("meteor_nltk345.json");
    let mut mm = common::Mismatches::default();
    for c in fx["cases"].as_array().expect("cases") {
        let hyp = c["hyp"].as_str().expect("hyp");
        let refs = common::strings(&c["refs"]);
        let got = m.sentence(hyp, &refs).expect("meteor");
        mm.check(
            || format!("{hyp:?} / {refs:?}"),
            got.score,
            c["score"].as_f64().expect("score"),
            1e-9,
        );
    }
    mm.assert_none();
}

//! Golden tests: WordNet lemma lookup and METEOR against NLTK 3.10.4 (`meteor_score` with
//! WordNet 3.0 from Debian's `wordnet-base`). Tolerance 1e-9. The tests reading the database are
//! `#[ignore]`d and named `wordnet_*` (install it with `tools/test-assets.sh`; `tools/test.sh`
//! runs them when it is there) and fail when run without it.

use crate::common;
use figlang_metrics::text::meteor::Meteor;
use figlang_metrics::text::wordnet::WordNet;
use figlang_metrics::text::MetricError;

#[test]
#[ignore = "needs WordNet: apt-get install wordnet-base"]
fn wordnet_synset_lemmas_match_nltk() {
    let dir = common::wordnet_dir();
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
#[ignore = "needs WordNet: apt-get install wordnet-base"]
fn wordnet_meteor_matches_nltk() {
    let dir = common::wordnet_dir();
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
fn missing_database_is_a_typed_error() {
    let err = Meteor::new("/nonexistent/wordnet").expect_err("must fail");
    assert!(matches!(err, MetricError::WordNetMissing { .. }), "{err}");
    assert!(err.to_string().contains("wordnet-base"), "{err}");
}

#[test]
#[ignore = "needs WordNet: apt-get install wordnet-base"]
fn wordnet_meteor_nltk345_matches_nltk_3_4_5() {
    let dir = common::wordnet_dir();
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

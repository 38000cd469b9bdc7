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

#[test]
#[ignore = "needs WordNet: apt-get install wordnet-base"]
fn wordnet_meteor_takes_nltk_s_parameters_from_the_options() {
    use figlang_metrics::text::{metric_by_name, TextMetricOptions};
    let score = |alpha, beta, gamma, hyp: &str, reference: &str| {
        let o = TextMetricOptions {
            wordnet: common::wordnet_dir().into(),
            meteor_alpha: alpha,
            meteor_beta: beta,
            meteor_gamma: gamma,
            ..TextMetricOptions::default()
        };
        let m = metric_by_name("meteor", &o).expect("meteor");
        let refs = vec![vec![reference.to_string()]];
        let s = m.sentence_scores(&[hyp.to_string()], &refs).expect("score")[0];
        (s, m.signature(1, 1).to_string())
    };
    // NLTK: 5 matches (4 exact, mat/mats by stem) of 6 hypothesis and 5 reference words, in 2
    // chunks.
    let (hyp, reference) = ("the cat sat on a mat", "the cat sat on mats");
    let (default, sig) = score(None, None, None, hyp, reference);
    assert!(
        sig.contains("alpha:0.9") && sig.contains("beta:3") && sig.contains("gamma:0.5"),
        "{sig}"
    );
    let (p, r, frag) = (5.0 / 6.0, 5.0 / 5.0, 2.0_f64 / 5.0);
    let nltk =
        |a: f64, b: f64, g: f64| (1.0 - g * frag.powf(b)) * (p * r / (a * p + (1.0 - a) * r));
    assert!((default - nltk(0.9, 3.0, 0.5)).abs() < 1e-12, "{default}");
    let (other, sig) = score(Some(0.5), Some(2.0), Some(0.3), hyp, reference);
    assert!(
        sig.contains("alpha:0.5") && sig.contains("beta:2") && sig.contains("gamma:0.3"),
        "{sig}"
    );
    assert!((other - nltk(0.5, 2.0, 0.3)).abs() < 1e-12, "{other}");
    // alpha 2 with recall twice the precision: NLTK's ZeroDivisionError, a score of 0.
    let (zero, _) = score(Some(2.0), None, None, "cat dog bird fish", "cat dog");
    assert_eq!(zero, 0.0);
    // (2/5) ** -2000 overflows: NLTK's OverflowError is an error here.
    let o = TextMetricOptions {
        wordnet: common::wordnet_dir().into(),
        meteor_beta: Some(-2000.0),
        ..TextMetricOptions::default()
    };
    let m = metric_by_name("meteor", &o).expect("meteor");
    let err = m
        .sentence_scores(&[hyp.to_string()], &[vec![reference.to_string()]])
        .expect_err("overflow");
    assert!(
        err.to_string().starts_with(&format!(
            "meteor: {}",
            figlang_metrics::text::meteor::OVERFLOW
        )),
        "{err}"
    );
}

//! The neural metrics as `hauser_core::Scorer`s: batched over many groups, split back per
//! group, identical to calling the metric directly; style strength's direction flip.
#![cfg(feature = "neural")]

use std::path::{Path, PathBuf};

use figlang_metrics::neural::{BertScore, BertScoreOptions, BosMode, Perplexity, StyleStrength};
use hauser_core::{CandidateGroup, Criterion, Evaluator, Scorer};
use hauser_nli::{CausalLm, Embedder, LoadOptions, ModelSource, SequenceClassifier};

fn tiny(name: &str) -> ModelSource {
    let dir: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../hauser-nli/tests/fixtures")
        .join(name);
    ModelSource::Dir(dir)
}

fn groups() -> Vec<CandidateGroup> {
    vec![
        CandidateGroup::new(
            "He ran home.",
            [
                "He ran home like the wind.",
                "He ran home like a hare.",
                "He ran home like a man late for dinner.",
            ],
        ),
        CandidateGroup::new(
            "The sea was calm.",
            [
                "The sea was calm as glass.",
                "The sea was calm as a sleeping cat.",
            ],
        ),
    ]
}

#[test]
fn bertscore_scorer_batches_groups_and_matches_direct_scores() {
    let embedder = Embedder::load(&tiny("bert"), &LoadOptions::default()).expect("tiny bert");
    let metric = BertScore::new(
        embedder,
        "tiny-bert",
        BertScoreOptions {
            layer: Some(2),
            ..Default::default()
        },
    )
    .expect("metric");
    let gs = groups();
    let raw = metric.score_groups(&gs);
    for (g, scores) in gs.iter().zip(&raw) {
        let scores = scores.as_ref().expect("group scores");
        assert_eq!(scores.len(), g.len());
        for (c, &s) in g.candidates.iter().zip(scores) {
            let direct = metric
                .score(&[c.text.as_str()], &[vec![g.literal.as_str()]])
                .expect("direct")[0]
                .f1;
            assert!((direct - s).abs() < 1e-6, "{} vs {}", direct, s);
        }
    }
    assert_eq!(metric.criterion(), Criterion::Other("bertscore_f1".into()));
    let report = Evaluator::new().with_scorer(metric).evaluate(&gs, 0);
    let first = report[0].as_ref().expect("group scores");
    assert!(first
        .candidates
        .iter()
        .all(|c| (0.0..=1.0).contains(&c.scores[0].normalized)));
}

#[test]
fn fluency_scorer_is_negative_mean_nll() {
    let lm = CausalLm::load(&tiny("gpt2"), &LoadOptions::default()).expect("tiny gpt2");
    let metric = Perplexity::new(lm, "tiny-gpt2", BosMode::Prepend).expect("metric");
    let gs = groups();
    let raw = metric.score_groups(&gs);
    let texts: Vec<&str> = gs
        .iter()
        .flat_map(|g| g.candidates.iter().map(|c| c.text.as_str()))
        .collect();
    let ppl = metric.perplexity(&texts).expect("ppl");
    let flat: Vec<f64> = raw.into_iter().flat_map(|r| r.expect("scores")).collect();
    for (f, p) in flat.iter().zip(ppl) {
        assert!((f + p.ln()).abs() < 1e-9);
    }
}

#[test]
fn style_strength_flips_for_the_opposite_direction() {
    let clf =
        SequenceClassifier::load(&tiny("roberta"), &LoadOptions::default()).expect("tiny roberta");
    let metric = StyleStrength::new(clf, "tiny-roberta", "positive")
        .expect("label found case-insensitively");
    let texts = ["what a lovely day", "this is terrible"];
    let p = metric.probabilities(&texts).expect("probabilities");
    let d = metric
        .directional(&texts, &[true, false])
        .expect("directional");
    assert_eq!(d[0], p[0]);
    assert!((d[1] - (1.0 - p[1])).abs() < 1e-12);
    assert!(metric.directional(&texts, &[true]).is_err());
    let clf =
        SequenceClassifier::load(&tiny("roberta"), &LoadOptions::default()).expect("tiny roberta");
    let err = StyleStrength::new(clf, "tiny-roberta", "formal").expect_err("unknown label");
    assert!(err.to_string().contains("POSITIVE"), "{err}");
}

#[test]
fn bertscore_signature_records_a_non_default_prefix_space() {
    let sig = |name: &str, prefix: Option<bool>| {
        let embedder = Embedder::load(&tiny(name), &LoadOptions::default()).expect(name);
        let options = BertScoreOptions {
            layer: Some(1),
            prefix_space: prefix,
            ..Default::default()
        };
        BertScore::new(embedder, name, options)
            .expect("metric")
            .signature()
            .to_string()
    };
    // DeBERTa v1 and RoBERTa default to the leading space, BERT's WordPiece to none.
    for (name, default) in [("deberta", true), ("roberta", true), ("bert", false)] {
        assert!(!sig(name, None).contains("prefix:"), "{name}");
        assert!(!sig(name, Some(default)).contains("prefix:"), "{name}");
        let other = if default { "prefix:no" } else { "prefix:yes" };
        assert!(sig(name, Some(!default)).contains(other), "{name}");
    }
}

#[test]
fn perplexity_cuts_texts_longer_than_the_context_and_says_which() {
    let lm = CausalLm::load(&tiny("gpt2"), &LoadOptions::default()).expect("tiny gpt2");
    let long = "the boy ran like the wind ".repeat(40);
    for bos in [BosMode::None, BosMode::Prepend] {
        let lm = CausalLm::load(&tiny("gpt2"), &LoadOptions::default()).expect("tiny gpt2");
        let metric = Perplexity::new(lm, "tiny-gpt2", bos).expect("metric");
        let texts = ["rain fell like tears", long.as_str(), "she sang"];
        let s = metric.score(&texts).expect("no whole-run failure");
        assert_eq!(s.truncated, vec![1]);
        assert_eq!(s.context, 64);
        assert!(
            s.perplexity.iter().all(|p| p.is_finite()),
            "{:?}",
            s.perplexity
        );
        assert_eq!(s.perplexity, metric.perplexity(&texts).expect("ppl"));
    }
    // The cut text scores as its first 64 tokens (BosMode::None) do.
    let mut ids = lm.text_encoder().encode_plain(&long).expect("ids");
    ids.truncate(64);
    let lp = lm.logprobs_of_ids(&[ids]).expect("within the context");
    let want = (-lp[0].iter().map(|&x| f64::from(x)).sum::<f64>() / lp[0].len() as f64).exp();
    let metric = Perplexity::new(lm, "tiny-gpt2", BosMode::None).expect("metric");
    let got = metric.perplexity(&[long.as_str()]).expect("ppl")[0];
    assert!((got - want).abs() / want < 1e-6, "{got} vs {want}");
}

#[test]
fn bertscore_pairs_are_the_scores_of_one_call_over_every_pair() {
    // Minimum Bayes risk's pairs (every hypothesis against every other candidate), made as they
    // are scored, against one `score` call over the listed pairs: equal bit for bit, with and
    // without IDF, for batch sizes that split the pairs across hypotheses or not; a repeated
    // candidate and an empty one included.
    let cands = [
        "He ran like the wind.",
        "The sea was calm as glass.",
        "",
        "He ran like the wind.",
        "She is as brave as a lion in the night.",
    ];
    let n = cands.len();
    for (idf, batch) in [(false, 64), (true, 64), (true, 3), (false, 1), (true, 7)] {
        let embedder = Embedder::load(&tiny("bert"), &LoadOptions::default()).expect("tiny bert");
        let options = BertScoreOptions {
            layer: Some(2),
            idf,
            batch_size: batch,
            ..Default::default()
        };
        let metric = BertScore::new(embedder, "tiny-bert", options).expect("metric");
        let (mut hyps, mut refs) = (Vec::new(), Vec::new());
        for j in 0..n {
            for k in (0..n).filter(|&k| k != j) {
                hyps.push(cands[j]);
                refs.push(vec![cands[k]]);
            }
        }
        let want = metric.score(&hyps, &refs).expect("one call");
        let mut got = Vec::new();
        let mut order = Vec::new();
        metric
            .score_pairs(&cands, &mut |j, prf| {
                order.push(j);
                got.extend_from_slice(prf);
            })
            .expect("pairs");
        assert_eq!(order, (0..n).collect::<Vec<_>>());
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(&want) {
            for (a, b) in [
                (g.precision, w.precision),
                (g.recall, w.recall),
                (g.f1, w.f1),
            ] {
                assert!(
                    a.to_bits() == b.to_bits(),
                    "idf {idf}, batch {batch}: {g:?} {w:?}"
                );
            }
        }
    }
}

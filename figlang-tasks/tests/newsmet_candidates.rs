//! NewsMet candidate generation on WordNet 3.0 (`#[ignore]`d, named `wordnet_*`: tools/test.sh
//! runs them when the database is installed): the pipeline against transformers + NLTK
//! (tools/gen/gen_candidates_fixture.py), the filters, and the focus-verb rule against the released
//! families (`*_shared_data`: also needs ../shared/data, or `HAUSER_SHARED_DATA`).
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

use figlang_metrics::text::wordnet::{WordNet, DEFAULT_WORDNET_DIR};
use figlang_tasks::newsmet::{
    families, filter_fillers, find_focus_verb, generate, given_focus, mask_headline, parse_csv,
    CandidateConfig, CandidateInput, Dropped, Masking,
};
use hauser_nli::{Batching, LoadOptions, MaskedLm, ModelSource, SequenceClassifier};

fn wordnet() -> WordNet {
    let dir = std::env::var("WORDNET_DIR").unwrap_or_else(|_| DEFAULT_WORDNET_DIR.to_string());
    WordNet::open(&dir).unwrap_or_else(|e| panic!("needs WordNet at {dir}: {e}"))
}

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
#[ignore = "needs WordNet: apt-get install wordnet-base"]
fn wordnet_candidate_generation_matches_transformers_and_nltk() {
    let wn = wordnet();
    let fx: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(manifest().join("tests/fixtures/newsmet/candidates.json"))
            .unwrap(),
    )
    .unwrap();
    let mlm_dir = manifest().join("../hauser-nli/tests/fixtures/masked-lm/bert");
    let det_dir = manifest().join("tests/fixtures/newsmet/detector");
    for bs in [1, 16] {
        let opts = LoadOptions {
            batching: Batching {
                batch_size: bs,
                bucketed: true,
            },
            ..LoadOptions::default()
        };
        let mlm = MaskedLm::load(&ModelSource::Dir(mlm_dir.clone()), &opts).unwrap();
        let det = SequenceClassifier::load(&ModelSource::Dir(det_dir.clone()), &opts).unwrap();
        for masking in [Masking::Token, Masking::Substring] {
            let name = if masking == Masking::Token {
                "token"
            } else {
                "substring"
            };
            let cases: Vec<&serde_json::Value> = fx["cases"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|c| c["masking"] == name)
                .collect();
            let inputs: Vec<CandidateInput<'_>> = cases
                .iter()
                .map(|c| {
                    let headline = c["headline"].as_str().unwrap();
                    CandidateInput {
                        headline,
                        focus: given_focus(headline, &c["focus"]).unwrap(),
                    }
                })
                .collect();
            let cfg = CandidateConfig {
                top_k: fx["top_k"].as_u64().unwrap() as usize,
                keep: fx["keep"].as_u64().unwrap() as usize,
                masking,
                metaphorical_class: 1,
            };
            let got = generate(&inputs, &mlm, Some(&det), &wn, &cfg).unwrap();
            for (g, want) in got.iter().zip(&cases) {
                let g = g.as_ref().unwrap();
                let what = format!("{} ({name}, bs {bs})", want["headline"]);
                assert_eq!(g.masked, want["masked"].as_str().unwrap(), "{what}");
                assert_eq!(g.masks as u64, want["masks"].as_u64().unwrap(), "{what}");
                let d = &want["dropped"];
                let n = |k: &str| d[k].as_u64().unwrap() as usize;
                assert_eq!(
                    g.dropped,
                    Dropped {
                        non_alphabetic: n("non_alphabetic"),
                        not_verb: n("not_verb"),
                        duplicate_lemma: n("duplicate_lemma"),
                    },
                    "{what}"
                );
                let kept = want["kept"].as_array().unwrap();
                assert_eq!(g.kept.len(), kept.len(), "{what}");
                for (c, w) in g.kept.iter().zip(kept) {
                    assert_eq!(c.candidate, w["candidate"].as_str().unwrap(), "{what}");
                    assert_eq!(c.rank as u64, w["rank"].as_u64().unwrap(), "{what}");
                    assert!((c.prob as f64 - w["prob"].as_f64().unwrap()).abs() < 1e-4);
                    let pm = w["p_metaphorical"].as_f64().unwrap();
                    assert!(
                        (c.p_metaphorical.unwrap() as f64 - pm).abs() < 1e-4,
                        "{what}"
                    );
                }
                let strings = |v: &serde_json::Value| -> Vec<String> {
                    v.as_array()
                        .unwrap()
                        .iter()
                        .map(|s| s.as_str().unwrap().to_string())
                        .collect()
                };
                assert_eq!(g.metaphorical, strings(&want["metaphorical"]), "{what}");
                assert_eq!(g.literal, strings(&want["literal"]), "{what}");
            }
        }
    }
}

#[test]
#[ignore = "needs WordNet: apt-get install wordnet-base"]
fn wordnet_filters_drop_non_alphabetic_non_verbs_and_repeated_lemmas() {
    let wn = wordnet();
    let fillers = [
        "soars", "##ing", "soared", "table", "were", "is", "2020", "plunges", "Soar", "", "be",
    ];
    let (kept, dropped) = filter_fillers(&wn, &fillers);
    let kept: Vec<&str> = kept.iter().map(|&i| fillers[i]).collect();
    // "soared" and "Soar" repeat soar's lemma; "is" and "be" repeat "were"'s (be).
    assert_eq!(kept, ["soars", "table", "were", "plunges"]);
    assert_eq!(
        dropped,
        Dropped {
            non_alphabetic: 3,
            not_verb: 0,
            duplicate_lemma: 4,
        }
    );
    let (kept, dropped) = filter_fillers(&wn, &["the", "of", "quickly"]);
    assert!(kept.is_empty());
    assert_eq!(dropped.not_verb, 3);
}

#[test]
#[ignore = "needs WordNet: apt-get install wordnet-base"]
fn wordnet_focus_rule() {
    let wn = wordnet();
    let cases = [
        (
            "Pitbull Sends Private Jet to Ferry Puerto Rico Cancer Patients to US",
            "Sends",
        ),
        (
            "Growbots vs. Zenprospect: Which Lead Generation Tool Can Grow Your Business",
            "Grow",
        ),
        ("Stocks soared as the Fed kept rates", "soared"),
        (
            "Texas Senate Says No to Boys in Girls\u{2019} Bathrooms",
            "Says",
        ),
    ];
    for (headline, want) in cases {
        let f = find_focus_verb(&wn, headline).unwrap();
        assert_eq!(f.word, want, "{headline}");
    }
    assert_eq!(find_focus_verb(&wn, "The of and 2020"), None);
}

/// How often the rule picks the token the released families replace. The count is the one
/// docs/TASKS.md reports (the Python exploration of the same rule with NLTK gave it too).
#[test]
#[ignore = "needs WordNet and ../shared/data"]
fn wordnet_focus_rule_agrees_with_released_families_shared_data() {
    // tools/test.sh skips `shared_data` tests by name when the data is absent, so here it
    // must be there.
    let dir = std::env::var_os("HAUSER_SHARED_DATA")
        .map_or_else(|| manifest().join("../../shared/data"), PathBuf::from)
        .join("newsmet");
    assert!(
        dir.exists(),
        "needs ../shared/data: {} not found",
        dir.display()
    );
    let wn = wordnet();
    let (mut agree, mut total) = (0, 0);
    for split in ["train", "val", "test"] {
        let path = dir.join(format!("{split}_goldplus.csv"));
        let rows = parse_csv(&std::fs::read_to_string(&path).unwrap(), &path).unwrap();
        for f in families(&rows).unwrap() {
            total += 1;
            let text = &rows[f.parent].text;
            if find_focus_verb(&wn, text).is_some_and(|v| v.token == f.token) {
                agree += 1;
            }
        }
    }
    eprintln!("focus rule: {agree} of {total} families");
    assert_eq!((agree, total), (508, 711));
}

/// Every released family's headline can be masked at its focus verb, whether the focus comes
/// from the rule or is given as the family's token index: a token whose letters are split by an
/// apostrophe ("Trump's") used to be looked up as "Trumps", which its text does not contain,
/// and 6 headlines gave error records.
#[test]
#[ignore = "needs WordNet and ../shared/data"]
fn wordnet_focus_of_every_released_headline_can_be_masked_shared_data() {
    let dir = std::env::var_os("HAUSER_SHARED_DATA")
        .map_or_else(|| manifest().join("../../shared/data"), PathBuf::from)
        .join("newsmet");
    assert!(
        dir.exists(),
        "needs ../shared/data: {} not found",
        dir.display()
    );
    let wn = wordnet();
    let mut failed = Vec::new();
    for split in ["train", "val", "test"] {
        let path = dir.join(format!("{split}_goldplus.csv"));
        let rows = parse_csv(&std::fs::read_to_string(&path).unwrap(), &path).unwrap();
        for f in families(&rows).unwrap() {
            let text = &rows[f.parent].text;
            let by_rule = find_focus_verb(&wn, text);
            let by_index = given_focus(text, &serde_json::json!(f.token)).unwrap();
            for focus in by_rule.into_iter().chain([by_index]) {
                if mask_headline(text, &focus, Masking::Token, "[MASK]").is_none() {
                    failed.push(format!("{text} ({focus:?})"));
                }
            }
        }
    }
    assert!(
        failed.is_empty(),
        "{} not masked: {failed:#?}",
        failed.len()
    );
}

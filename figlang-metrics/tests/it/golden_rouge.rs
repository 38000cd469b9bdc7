//! Golden tests: ROUGE against rouge-score 0.1.2 (`score_multi`, no stemmer) and the `rouge`
//! package 1.0.1 (pltrdy). Tolerance 1e-9 on precision, recall and F.

use crate::common;
use figlang_metrics::text::rouge::{PltrdyRouge, PltrdyVersion, RougeScore, RougeType};
use serde_json::Value;

const TYPES: [(&str, RougeType); 4] = [
    ("rouge1", RougeType::Rouge1),
    ("rouge2", RougeType::Rouge2),
    ("rougeL", RougeType::RougeL),
    ("rougeLsum", RougeType::RougeLsum),
];

fn prf(v: &Value) -> [f64; 3] {
    let a = v.as_array().expect("prf");
    [0, 1, 2].map(|i| a[i].as_f64().expect("f64"))
}

#[test]
fn rouge_score_matches_google_rouge_score() {
    let fx = common::fixture("rouge_score.json");
    let mut mm = common::Mismatches::default();
    let cases = fx["cases"].as_array().expect("cases");
    assert!(cases.len() >= 200);
    let scorer = RougeScore::default();
    for c in cases {
        let hyp = c["hyp"].as_str().expect("hyp");
        let refs = common::strings(&c["refs"]);
        for (name, kind) in TYPES {
            let want = prf(&c["plain"][name]);
            let got = scorer.best(kind, hyp, &refs).expect("rouge");
            for (g, w) in [got.precision, got.recall, got.fmeasure]
                .into_iter()
                .zip(want)
            {
                mm.check(|| format!("{name} {hyp:?}"), g, w, 1e-9);
            }
            let s = scorer.sentence(kind, hyp, &refs).expect("rouge");
            assert_eq!(s.score, got.fmeasure);
            assert!(s.signature.to_string().contains("rouge-score-0.1.2"));
        }
    }
    mm.assert_none();
}

#[test]
fn rouge_score_with_porter_stemmer_matches() {
    let fx = common::fixture("rouge_score.json");
    let mut mm = common::Mismatches::default();
    let scorer = RougeScore {
        use_stemmer: true,
        ..RougeScore::default()
    };
    for c in fx["cases"].as_array().expect("cases") {
        let hyp = c["hyp"].as_str().expect("hyp");
        let refs = common::strings(&c["refs"]);
        for (name, kind) in TYPES {
            let want = prf(&c["stem"][name]);
            let got = scorer.best(kind, hyp, &refs).expect("rouge");
            for (g, w) in [got.precision, got.recall, got.fmeasure]
                .into_iter()
                .zip(want)
            {
                mm.check(|| format!("stem {name} {hyp:?}"), g, w, 1e-9);
            }
        }
    }
    mm.assert_none();
}

#[test]
fn pltrdy_rouge_matches_the_rouge_package() {
    check_pltrdy("rouge_pltrdy.json", PltrdyRouge::default());
}

#[test]
fn pltrdy_rouge_032_matches_the_rouge_package_0_3_2() {
    let cfg = PltrdyRouge {
        version: PltrdyVersion::V0_3_2,
        pretokenize: None,
    };
    check_pltrdy("rouge_pltrdy032.json", cfg);
}

fn check_pltrdy(file: &str, cfg: PltrdyRouge) {
    let fx = common::fixture(file);
    let mut mm = common::Mismatches::default();
    let mut errors = 0;
    for c in fx["cases"].as_array().expect("cases") {
        let hyp = c["hyp"].as_str().expect("hyp");
        let rf = c["ref"].as_str().expect("ref");
        for (name, kind) in [
            ("rouge-1", RougeType::Rouge1),
            ("rouge-2", RougeType::Rouge2),
            ("rouge-l", RougeType::RougeL),
        ] {
            let got = cfg.score_pair(kind, hyp, rf);
            match (&c["scores"], got) {
                (Value::String(_), Err(_)) => errors += 1,
                (Value::Object(o), Ok(g)) => {
                    let w = prf(&o[name]);
                    for (gv, wv) in [g.precision, g.recall, g.fmeasure].into_iter().zip(w) {
                        mm.check(|| format!("{name} {hyp:?} / {rf:?}"), gv, wv, 1e-9);
                    }
                }
                (w, g) => mm.0.push(format!("{name} {hyp:?}: want {w}, got {g:?}")),
            }
        }
    }
    assert!(errors > 0, "the fixture's empty hypotheses must be errors");
    mm.assert_none();
}

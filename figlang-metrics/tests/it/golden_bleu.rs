//! Golden tests: NLTK sentence BLEU (all smoothing methods, several weights, auto-reweigh) and
//! sacreBLEU BLEU (sentence and corpus, tokenizers, smoothing, case). Tolerance 1e-9.

use crate::common;
use figlang_metrics::text::bleu_nltk::{NltkBleu, Smoothing};
use figlang_metrics::text::bleu_sacre::{SacreBleu, SacreSmoothing};
use figlang_metrics::text::tokenize::{word_tokenize, SacreTokenizer};
use serde_json::Value;

const TOL: f64 = 1e-9;

#[test]
fn nltk_sentence_bleu_matches() {
    let fx = common::fixture("sentence_bleu_nltk.json");
    let weights: Vec<Vec<f64>> = serde_json::from_value(fx["weights"].clone()).expect("weights");
    let keys = common::strings(&fx["keys"]);
    let mut mm = common::Mismatches::default();
    let mut n = 0;
    for case in fx["cases"].as_array().expect("cases") {
        let hyp = word_tokenize(case["hyp"].as_str().expect("hyp"));
        let refs: Vec<Vec<String>> = common::strings(&case["refs"])
            .iter()
            .map(|r| word_tokenize(r))
            .collect();
        for (key, want) in keys.iter().zip(case["scores"].as_array().expect("scores")) {
            let parts: Vec<&str> = key.split('_').collect();
            let w: usize = parts[0][1..].parse().expect("w");
            let m: usize = parts[1][1..].parse().expect("m");
            let cfg = NltkBleu {
                weights: weights[w].clone(),
                smoothing: Smoothing::ALL[m],
                auto_reweigh: parts.len() == 3,
                ..NltkBleu::default()
            };
            let got = cfg.sentence_tokens(&refs, &hyp);
            match (got, want) {
                (Ok(g), Value::Number(x)) => mm.check(
                    || format!("{key} {:?}", case["hyp"]),
                    g,
                    x.as_f64().expect("f64"),
                    TOL,
                ),
                (Err(_), Value::String(s)) if s.starts_with("error") => {}
                (g, w) => {
                    mm.0.push(format!("{key} {:?}: got {g:?}, want {w}", case["hyp"]))
                }
            }
            n += 1;
        }
    }
    assert!(n > 5000, "{n}");
    mm.assert_none();
}

fn sacre_cfg(cfg: &Value) -> SacreBleu {
    let tok: SacreTokenizer = cfg["tokenize"]
        .as_str()
        .unwrap_or("13a")
        .parse()
        .expect("tok");
    let mut smoothing: SacreSmoothing = cfg["smooth_method"]
        .as_str()
        .unwrap_or("exp")
        .parse()
        .expect("smooth");
    if let Some(v) = cfg["smooth_value"].as_f64() {
        smoothing = match smoothing {
            SacreSmoothing::Floor(_) => SacreSmoothing::Floor(v),
            SacreSmoothing::AddK(_) => SacreSmoothing::AddK(v),
            s => s,
        };
    }
    SacreBleu {
        tokenizer: tok,
        lowercase: cfg["lowercase"].as_bool().unwrap_or(false),
        smoothing,
        effective_order: cfg["effective_order"].as_bool().unwrap_or(false),
        max_ngram_order: 4,
    }
}

fn items(fx: &Value) -> (Vec<String>, Vec<Vec<String>>) {
    let items = fx["items"].as_array().expect("items");
    let hyps = items
        .iter()
        .map(|i| i["hyp"].as_str().expect("hyp").to_string())
        .collect();
    let refs = items.iter().map(|i| common::strings(&i["refs"])).collect();
    (hyps, refs)
}

#[test]
fn sacrebleu_corpus_and_sentence_bleu_match() {
    let fx = common::fixture("sacrebleu_bleu.json");
    let (hyps, refs) = items(&fx);
    assert!(hyps.len() >= 200);
    let mut mm = common::Mismatches::default();
    for c in fx["corpus"].as_array().expect("corpus") {
        let cfg = sacre_cfg(&c["config"]);
        let got = cfg.corpus(&hyps, &refs).expect("corpus bleu");
        mm.check(
            || format!("corpus {}", c["config"]),
            got.score,
            c["score"].as_f64().expect("score"),
            TOL,
        );
        let sig = c["signature"].as_str().expect("signature");
        let ours = got.signature.to_string();
        for field in ["case", "eff", "tok", "smooth"] {
            let theirs = sig
                .split('|')
                .find(|p| p.starts_with(&format!("{field}:")))
                .expect("field");
            assert!(
                ours.contains(theirs),
                "signature {ours} lacks sacreBLEU's {theirs}"
            );
        }
    }
    for s in fx["sentence"].as_array().expect("sentence") {
        let cfg = sacre_cfg(&s["config"]);
        for (i, want) in s["scores"].as_array().expect("scores").iter().enumerate() {
            let got = cfg.sentence(&hyps[i], &refs[i]).expect("sentence bleu");
            mm.check(
                || format!("sentence {} {:?}", s["config"], hyps[i]),
                got.score,
                want.as_f64().expect("f64"),
                TOL,
            );
        }
    }
    mm.assert_none();
}

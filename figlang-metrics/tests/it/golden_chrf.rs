//! Golden test: chrF / chrF++ against sacreBLEU 2.4.3 `CHRF` (sentence and corpus, several
//! settings). Tolerance 1e-9.

use crate::common;
use figlang_metrics::text::chrf::Chrf;

#[test]
fn chrf_matches_sacrebleu() {
    let fx = common::fixture("sacrebleu_chrf.json");
    let items = fx["items"].as_array().expect("items");
    let hyps: Vec<String> = items
        .iter()
        .map(|i| i["hyp"].as_str().expect("hyp").to_string())
        .collect();
    let refs: Vec<Vec<String>> = items.iter().map(|i| common::strings(&i["refs"])).collect();
    let mut mm = common::Mismatches::default();
    for c in fx["configs"].as_array().expect("configs") {
        let cfgv = &c["config"];
        let cfg = Chrf {
            char_order: cfgv["char_order"].as_u64().unwrap_or(6) as usize,
            word_order: cfgv["word_order"].as_u64().unwrap_or(0) as usize,
            beta: cfgv["beta"].as_f64().unwrap_or(2.0),
            lowercase: cfgv["lowercase"].as_bool().unwrap_or(false),
            whitespace: cfgv["whitespace"].as_bool().unwrap_or(false),
            eps_smoothing: cfgv["eps_smoothing"].as_bool().unwrap_or(false),
        };
        let corpus = cfg.corpus(&hyps, &refs).expect("corpus");
        mm.check(
            || format!("corpus {cfgv}"),
            corpus.score,
            c["corpus"].as_f64().expect("corpus"),
            1e-9,
        );
        for (i, want) in c["sentence"]
            .as_array()
            .expect("sentence")
            .iter()
            .enumerate()
        {
            let got = cfg.sentence(&hyps[i], &refs[i]).expect("sentence");
            mm.check(
                || format!("{cfgv} {:?}", hyps[i]),
                got.score,
                want.as_f64().expect("f64"),
                1e-9,
            );
            let unit = cfg.sentence_unit(&hyps[i], &refs[i]).expect("sentence");
            mm.check(
                || format!("unit {cfgv}"),
                unit.score * 100.0,
                got.score,
                1e-12,
            );
        }
    }
    mm.assert_none();
}

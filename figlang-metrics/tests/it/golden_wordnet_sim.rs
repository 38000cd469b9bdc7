//! Golden tests: WordNet synsets, names, definitions, simplified Lesk and Leacock-Chodorow
//! similarity against NLTK 3.10.4 on WordNet 3.0 (tools/gen/gen_wordnet_sim_fixture.py): names and
//! definitions equal, LCH within 1e-12. `#[ignore]`d and named `wordnet_*` (tools/test.sh runs
//! them when the database is installed).

use crate::common;
use figlang_metrics::text::wordnet::WordNet;
use figlang_metrics::text::wordnet_sim::{LeskTies, SynsetId};

fn open() -> WordNet {
    WordNet::open(common::wordnet_dir()).expect("wordnet")
}

#[test]
#[ignore = "needs WordNet: apt-get install wordnet-base"]
fn wordnet_synsets_names_and_definitions_match_nltk() {
    let wn = open();
    let fx = common::fixture("wordnet_sim.json");
    let mut n = 0;
    for (word, want) in fx["synsets"].as_object().unwrap() {
        let got = wn.synsets(word, None);
        let want = want.as_array().unwrap();
        assert_eq!(got.len(), want.len(), "{word}");
        for (g, w) in got.iter().zip(want) {
            assert_eq!(g.offset as u64, w["offset"].as_u64().unwrap(), "{word}");
            assert_eq!(g.pos.to_string(), w["pos"].as_str().unwrap(), "{word}");
            assert_eq!(wn.synset_name(*g).as_deref(), w["name"].as_str(), "{word}");
            assert_eq!(
                wn.definition(*g).as_deref(),
                w["definition"].as_str(),
                "{word}"
            );
            n += 1;
        }
    }
    assert!(n > 1000, "{n} synsets checked");
}

#[test]
#[ignore = "needs WordNet: apt-get install wordnet-base"]
fn wordnet_lesk_matches_nltk() {
    let wn = open();
    let fx = common::fixture("wordnet_sim.json");
    let cases = fx["lesk"].as_array().unwrap();
    assert!(cases.len() >= 500);
    let mut bad = Vec::new();
    for c in cases {
        let ctx = common::strings(&c["context"]);
        let ctx: Vec<&str> = ctx.iter().map(String::as_str).collect();
        let word = c["word"].as_str().unwrap();
        let got = wn
            .lesk(&ctx, word, Some('v'))
            .and_then(|s| wn.synset_name(s));
        if got.as_deref() != c["sense"].as_str() {
            bad.push(format!(
                "{word} in {ctx:?}: nltk {} ours {got:?}",
                c["sense"]
            ));
        }
        let old = wn
            .lesk_with(&ctx, word, Some('v'), LeskTies::LargestName)
            .and_then(|s| wn.synset_name(s));
        if old.as_deref() != c["sense_nltk345"].as_str() {
            bad.push(format!(
                "{word} in {ctx:?}: nltk 3.4.5 {} ours {old:?}",
                c["sense_nltk345"]
            ));
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
fn wordnet_lch_matches_nltk() {
    let wn = open();
    let fx = common::fixture("wordnet_sim.json");
    assert_eq!(
        wn.max_depth('v') + 1,
        fx["meta"]["verb_max_depth"].as_u64().unwrap() as usize
    );
    let pairs = fx["lch"].as_array().unwrap();
    assert!(pairs.len() >= 500);
    for p in pairs {
        let pos = p["pos"].as_str().unwrap().chars().next().unwrap();
        let id = |k: &str| SynsetId {
            pos,
            offset: p[k].as_u64().unwrap() as usize,
        };
        let got = wn.lch_similarity(id("a_offset"), id("b_offset"));
        let want = p["lch"].as_f64();
        match (got, want) {
            (Some(g), Some(w)) => {
                assert!((g - w).abs() < 1e-12, "{} {}: {g} vs {w}", p["a"], p["b"])
            }
            (g, w) => assert_eq!(g, w, "{} {}", p["a"], p["b"]),
        }
    }
}

//! Golden test: Punkt sentence splitting and `word_tokenize` against NLTK 3.10.4
//! (`fixtures/word_tokenize_nltk.json`, exact equality).

use crate::common;
use figlang_metrics::text::punkt::PunktModel;
use figlang_metrics::text::tokenize::word_tokenize;

#[test]
fn sent_tokenize_and_word_tokenize_match_nltk() {
    let fx = common::fixture("word_tokenize_nltk.json");
    let cases = fx["cases"].as_array().expect("cases");
    assert!(cases.len() >= 200);
    let mut failures = Vec::new();
    for c in cases {
        let text = c["text"].as_str().expect("text");
        let sents = PunktModel::english().sentences(text);
        let want_sents = common::strings(&c["sentences"]);
        if sents != want_sents {
            failures.push(format!(
                "{text:?}\n  nltk sentences: {want_sents:?}\n  ours: {sents:?}"
            ));
        }
        let toks = word_tokenize(text);
        let want = common::strings(&c["tokens"]);
        if toks != want {
            failures.push(format!(
                "{text:?}\n  nltk tokens: {want:?}\n  ours: {toks:?}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn nltk345_word_tokenizer_matches_nltk_3_4_5() {
    let fx = common::fixture("treebank_nltk345.json");
    let cases = fx["cases"].as_array().expect("cases");
    assert!(cases.len() >= 200);
    let mut failures = Vec::new();
    for c in cases {
        let text = c["text"].as_str().expect("text");
        let got = figlang_metrics::text::treebank_legacy::word_tokenize_nltk345(text);
        let want = common::strings(&c["tokens"]);
        if got != want {
            failures.push(format!("{text:?}\n  nltk 3.4.5: {want:?}\n  ours: {got:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

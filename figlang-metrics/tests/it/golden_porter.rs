//! Golden test: Porter stemmer against NLTK's `PorterStemmer()` (NLTK_EXTENSIONS mode) on
//! 2,939 words (corpus words and a WordNet lemma sample), exact.

use crate::common;
use figlang_metrics::text::porter::stem;

#[test]
fn porter_matches_nltk() {
    let fx = common::fixture("porter_nltk.json");
    let words = common::strings(&fx["words"]);
    let stems = common::strings(&fx["stems"]);
    assert!(words.len() > 2000);
    let bad: Vec<String> = words
        .iter()
        .zip(&stems)
        .filter(|(w, s)| stem(w) != **s)
        .map(|(w, s)| format!("{w}: nltk {s}, ours {}", stem(w)))
        .collect();
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

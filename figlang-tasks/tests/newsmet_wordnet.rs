//! NewsMet's diversity on WordNet 3.0 (`#[ignore]`d, named `wordnet_*`: tools/test.sh runs it
//! when the database is installed): the paper's Table 4 example whose headline and candidates it
//! prints in full, and the rules for candidates without a verb sense.
#![allow(clippy::unwrap_used)]

use figlang_metrics::text::wordnet::{WordNet, DEFAULT_WORDNET_DIR};
use figlang_metrics::text::wordnet_sim::LeskTies;
use figlang_tasks::newsmet::{diversity, LCH_THRESHOLD};

fn wordnet() -> WordNet {
    let dir = std::env::var("WORDNET_DIR").unwrap_or_else(|_| DEFAULT_WORDNET_DIR.to_string());
    WordNet::open(&dir).unwrap_or_else(|e| panic!("needs WordNet at {dir}: {e}"))
}

/// Table 4's headlines whose six candidates are in the release (the gold_plus children, in
/// file order), with the paper's cluster counts.
const TABLE_4: [(&str, usize, [&str; 6], usize); 3] = [
    (
        "Far Cry 5': Coop Mission has a massive problem with mission progress",
        4,
        ["finds", "faces", "confronts", "creates", "tackles", "causes"],
        4,
    ),
    (
        "Sens. Cory Booker, Al Franken and Elizabeth Warren propose that the U.S. \u{2018}prevent genocide\u{2019}",
        8,
        ["ask", "demanded", "insist", "require", "recommend", "suggest"],
        3,
    ),
    (
        "Could One of These Four Screenplays Win the Oscar?",
        5,
        ["steal", "grab", "snatch", "snare", "scoop", "take"],
        4,
    ),
];

#[test]
#[ignore = "needs WordNet: apt-get install wordnet-base"]
fn wordnet_table_4_cluster_counts() {
    let wn = wordnet();
    let mut got = Vec::new();
    let mut clusters = Vec::new();
    for (headline, focus, cands, _) in TABLE_4 {
        let h: Vec<&str> = headline.split_whitespace().collect();
        let r = diversity(&wn, &h, focus, &cands, LCH_THRESHOLD, LeskTies::LargestName).unwrap();
        got.push(r.diversity);
        let mut named: Vec<Vec<&str>> = r
            .clusters
            .iter()
            .map(|c| {
                let mut v: Vec<&str> = c.iter().map(|&i| cands[i]).collect();
                v.sort_unstable();
                v
            })
            .collect();
        named.sort();
        clusters.push(named);
        // NLTK 3.5+'s tie rule gives other senses, and other counts.
        let first = diversity(&wn, &h, focus, &cands, LCH_THRESHOLD, LeskTies::First).unwrap();
        assert_ne!(first.senses, r.senses, "{headline}");
    }
    assert_eq!(got, TABLE_4.map(|t| t.3));
    // The paper's clusters (its singletons are the candidates in none).
    assert_eq!(
        clusters,
        [
            vec![vec!["causes", "creates"], vec!["confronts", "faces"]],
            vec![
                vec!["ask", "demanded"],
                vec!["insist", "recommend", "require"]
            ],
            vec![vec!["snatch", "steal", "take"]],
        ]
    );
}

#[test]
#[ignore = "needs WordNet: apt-get install wordnet-base"]
fn wordnet_candidates_without_a_verb_sense_are_singletons() {
    let wn = wordnet();
    let h: Vec<&str> = "Markets tumble as rates rise".split_whitespace().collect();
    let r = diversity(
        &wn,
        &h,
        1,
        &["fall", "drop", "xqzv", "the"],
        LCH_THRESHOLD,
        LeskTies::LargestName,
    )
    .unwrap();
    assert_eq!(r.senses[2], None);
    assert_eq!(r.senses[3], None);
    assert!(r.singletons.contains(&2) && r.singletons.contains(&3));
    assert_eq!(r.diversity, r.clusters.len() + r.singletons.len());
    assert!(diversity(&wn, &h, 9, &["fall"], LCH_THRESHOLD, LeskTies::First).is_err());
}

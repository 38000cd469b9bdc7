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

/// Algorithm 1 as first written, without memoising: Lesk per candidate, LCH per pair, clusters
/// searched; the reference of the memoised [`diversity`].
fn naive(
    wn: &WordNet,
    tokens: &[&str],
    focus: usize,
    cands: &[&str],
    ties: LeskTies,
) -> Vec<Vec<usize>> {
    let senses: Vec<_> = cands
        .iter()
        .map(|c| {
            let mut h = tokens.to_vec();
            h[focus] = c;
            wn.lesk_with(&h, c, Some('v'), ties)
        })
        .collect();
    let mut clusters: Vec<Vec<usize>> = Vec::new();
    let find = |cl: &[Vec<usize>], x: usize| cl.iter().position(|c| c.contains(&x));
    for i in 0..cands.len() {
        for j in i + 1..cands.len() {
            let (Some(a), Some(b)) = (senses[i], senses[j]) else {
                continue;
            };
            if !wn.lch_similarity(a, b).is_some_and(|s| s > LCH_THRESHOLD) {
                continue;
            }
            if let Some(k) = find(&clusters, i) {
                if !clusters[k].contains(&j) {
                    clusters[k].push(j);
                }
            } else if let Some(k) = find(&clusters, j) {
                clusters[k].push(i);
            } else {
                clusters.push(vec![i, j]);
            }
        }
    }
    clusters
}

/// The memoised clustering (one Lesk per distinct candidate, one hypernym walk per sense,
/// indexed cluster membership) gives what the unmemoised algorithm gives, on a long list with
/// repeated candidates and candidates without a verb sense.
#[test]
#[ignore = "needs WordNet: apt-get install wordnet-base"]
fn wordnet_memoised_diversity_equals_the_plain_algorithm() {
    let wn = wordnet();
    let dir = std::env::var("WORDNET_DIR").unwrap_or_else(|_| DEFAULT_WORDNET_DIR.to_string());
    let index = std::fs::read_to_string(std::path::Path::new(&dir).join("index.verb")).unwrap();
    let verbs: Vec<&str> = index
        .lines()
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split(' ').next())
        .filter(|w| w.chars().all(|c| c.is_ascii_alphabetic()))
        .step_by(40)
        .take(150)
        .collect();
    let mut cands = verbs.clone();
    cands.extend(["xqzv", "the"]);
    cands.extend(verbs.iter().take(30));
    let h: Vec<&str> = "Could One of These Four Screenplays Win the Oscar?"
        .split_whitespace()
        .collect();
    for ties in [LeskTies::LargestName, LeskTies::First] {
        let r = diversity(&wn, &h, 5, &cands, LCH_THRESHOLD, ties).unwrap();
        let want = naive(&wn, &h, 5, &cands, ties);
        assert_eq!(r.clusters, want, "{ties:?}");
        assert!(r.clusters.len() > 1, "{ties:?}: some candidates cluster");
        assert_eq!(r.senses.len(), cands.len());
    }
}

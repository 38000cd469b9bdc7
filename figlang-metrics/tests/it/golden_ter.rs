//! Golden test: TER against sacreBLEU 2.4.3 `TER` (sentence and corpus scores with their
//! statistics and signatures, the Tercom tokenizer, under all 16 option combinations, and the
//! cases of sacreBLEU's own `test/test_ter.py`). Tolerance 1e-9. Fixture written by
//! `tools/gen/gen_ter_fixture.py`.
//!
//! Also: hand-computed scores (so that a broken fixture cannot hide a bug), a literal
//! transcription of sacreBLEU's algorithm as an oracle for the optimised edit distance and
//! shift search, and a no-panic property test.

use crate::common;
use figlang_metrics::text::ter::{Ter, TerStats};
use figlang_metrics::text::MetricScore;
use hauser_core::Signature;
use proptest::prelude::*;
use serde_json::Value;

fn config(v: &Value) -> Ter {
    let flag = |k: &str| v[k].as_bool().expect("flag");
    Ter {
        case_sensitive: flag("case_sensitive"),
        normalized: flag("normalized"),
        no_punct: flag("no_punct"),
        asian_support: flag("asian_support"),
    }
}

/// Our signature in sacreBLEU's format: its fields without `compat`, then the sacreBLEU
/// version `compat` names.
fn as_sacrebleu(sig: &Signature) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut version = String::new();
    for (k, v) in &sig.fields {
        match k.as_str() {
            "compat" => version = v.trim_start_matches("sacrebleu-").to_string(),
            _ => out.push(format!("{k}:{v}")),
        }
    }
    out.push(format!("version:{version}"));
    out.join("|")
}

/// A double stored as its IEEE-754 bits (exact, whatever the JSON reader's float parsing).
fn from_bits(v: &Value) -> f64 {
    f64::from_bits(v.as_u64().expect("bits"))
}

#[test]
fn ter_matches_sacrebleu() {
    let fx = common::fixture("sacrebleu_ter.json");
    let tol = fx["tolerance"].as_f64().expect("tolerance");
    let items = fx["items"].as_array().expect("items");
    assert!(items.len() >= 80, "{} items", items.len());
    let hyps: Vec<String> = items
        .iter()
        .map(|i| i["hyp"].as_str().expect("hyp").to_string())
        .collect();
    let refs: Vec<Vec<String>> = items.iter().map(|i| common::strings(&i["refs"])).collect();
    let max_refs = refs.iter().map(Vec::len).max().unwrap_or(0);
    let mut mm = common::Mismatches::default();
    let (mut max_diff, mut not_bit_identical, mut checked) = (0.0f64, 0usize, 0usize);
    let mut check =
        |mm: &mut common::Mismatches, label: String, got: f64, decimal: &Value, bits: &Value| {
            let want = from_bits(bits);
            // The readable decimal and the bits are the same number.
            let dec = decimal.as_f64().expect("f64");
            assert!((dec - want).abs() <= 1e-12 * want.abs().max(1.0), "{label}");
            checked += 1;
            max_diff = max_diff.max((got - want).abs());
            not_bit_identical += usize::from(got.to_bits() != want.to_bits());
            mm.check(|| label, got, want, tol);
        };
    let configs = fx["configs"].as_array().expect("configs");
    assert_eq!(configs.len(), 16);
    for (k, c) in configs.iter().enumerate() {
        let cfg = config(&c["config"]);
        let mut total = TerStats::default();
        for (i, want) in c["sentences"]
            .as_array()
            .expect("sentences")
            .iter()
            .enumerate()
        {
            let name = items[i]["name"].as_str().unwrap_or("");
            let st = cfg.segment_stats(&hyps[i], &refs[i]);
            let score = cfg.score_from_stats(&st);
            check(
                &mut mm,
                format!("{cfg:?} {name} score"),
                score,
                &want[0],
                &want[3],
            );
            check(
                &mut mm,
                format!("{cfg:?} {name} ref_length"),
                st.ref_length,
                &want[2],
                &want[4],
            );
            mm.check(
                || format!("{cfg:?} {name} num_edits"),
                st.num_edits,
                want[1].as_f64().expect("num_edits"),
                0.0,
            );
            let nrefs = refs[i].len();
            let sig = c["sentence_signatures"][nrefs.to_string()]
                .as_str()
                .expect("signature");
            // The sentence API itself (debug builds are slow: two settings suffice).
            if k == 0 || k == 15 {
                let got = cfg.sentence(&hyps[i], &refs[i]).expect("sentence");
                assert_eq!(got.score.to_bits(), score.to_bits(), "{name}");
                assert_eq!(as_sacrebleu(&got.signature), sig, "{name}");
            } else {
                assert_eq!(as_sacrebleu(&cfg.signature(nrefs)), sig, "{name}");
            }
            total.num_edits += st.num_edits;
            total.ref_length += st.ref_length;
        }
        let corpus = cfg.corpus(&hyps, &refs).expect("corpus");
        let want = &c["corpus"];
        check(
            &mut mm,
            format!("{cfg:?} corpus"),
            corpus.score,
            &want[0],
            &want[3],
        );
        check(
            &mut mm,
            format!("{cfg:?} corpus ref_length"),
            total.ref_length,
            &want[2],
            &want[4],
        );
        mm.check(
            || format!("{cfg:?} corpus num_edits"),
            total.num_edits,
            want[1].as_f64().expect("num_edits"),
            0.0,
        );
        // The parallel corpus sums in input order: bit-identical to the sequential sum.
        assert_eq!(
            corpus.score.to_bits(),
            cfg.score_from_stats(&total).to_bits()
        );
        // sacreBLEU says "var" for a varying number of references; we give the largest.
        let sacre = c["signature"].as_str().expect("signature");
        let sacre = sacre.replace("nrefs:var", &format!("nrefs:{max_refs}"));
        assert_eq!(as_sacrebleu(&corpus.signature), sacre);
    }
    eprintln!(
        "TER golden: {checked} values, max |difference| {max_diff:e}, {not_bit_identical} not bit-identical"
    );
    mm.assert_none();
    assert_eq!(
        not_bit_identical, 0,
        "sacreBLEU's values are reproduced to the last bit"
    );
}

#[test]
fn ter_tokenizer_matches_sacrebleu() {
    let fx = common::fixture("sacrebleu_ter.json");
    let texts = common::strings(&fx["tokenize"]["texts"]);
    for c in fx["tokenize"]["configs"].as_array().expect("configs") {
        let cfg = config(&c["config"]);
        for (t, want) in texts.iter().zip(common::strings(&c["out"])) {
            assert_eq!(cfg.tokenize(t), want, "{cfg:?} {t:?}");
        }
    }
}

#[test]
fn ter_sacrebleu_own_tests() {
    let fx = common::fixture("sacrebleu_ter.json");
    for case in fx["sacrebleu_tests"].as_array().expect("tests") {
        let hyps = common::strings(&case["hyps"]);
        let refs: Vec<Vec<String>> = common::strings(&case["refs"])
            .into_iter()
            .map(|r| vec![r])
            .collect();
        let expected = case["expected"].as_f64().expect("expected");
        for (mask, want) in case["scores"]
            .as_array()
            .expect("scores")
            .iter()
            .enumerate()
        {
            let cfg = Ter {
                case_sensitive: mask & 1 != 0,
                normalized: mask & 2 != 0,
                no_punct: mask & 4 != 0,
                asian_support: mask & 8 != 0,
            };
            let got = cfg.corpus(&hyps, &refs).expect("corpus").score;
            let want = want.as_f64().expect("score");
            assert!(
                (got - want).abs() <= 1e-9,
                "{cfg:?} {hyps:?}: {got} vs {want}"
            );
            if mask == 0 {
                // test_ter.py's own check.
                assert!((got - 100.0 * expected).abs() < 1e-3, "{hyps:?}: {got}");
            }
        }
    }
}

/// Values worked out by hand, independent of the fixture.
#[test]
fn ter_hand_computed() {
    let ter = Ter::default();
    // One shift of "a b c": 1 edit over 8 words.
    assert_eq!(
        ter.sentence("d e f g h a b c", &["a b c d e f g h"])
            .expect("ter"),
        MetricScore::new(12.5, ter.signature(1))
    );
    assert_eq!(
        ter.signature(1).to_string(),
        format!(
            "ter|compat:sacrebleu-2.4.3|nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:{}",
            figlang_metrics::VERSION
        )
    );
    // "sat" -> "is", "down" deleted: 2 edits; mean reference length (4 + 5) / 2.
    let s = ter
        .sentence(
            "The cat sat down here",
            &["the cat is here", "the cat was here ."],
        )
        .expect("ter");
    assert_eq!(s.score, 100.0 * (2.0 / 4.5));
    assert_eq!(s.signature.get("nrefs"), Some("2"));
    // Empty sides.
    let score = |h: &str, r: &[&str]| ter.sentence(h, r).expect("ter").score;
    assert_eq!(score("", &[""]), 0.0);
    assert_eq!(score("", &["a b c"]), 100.0);
    assert_eq!(score("a b c", &[""]), 100.0);
    assert_eq!(score(" \t", &["  "]), 0.0);
    // One empty reference halves the mean length: 1 edit over 0.5 words.
    assert_eq!(
        ter.segment_stats("a", &["b", ""]),
        TerStats {
            num_edits: 1.0,
            ref_length: 0.5
        }
    );
    assert_eq!(score("a", &["b", ""]), 200.0);
    // Case.
    assert_eq!(score("The Cat", &["the cat"]), 0.0);
    let cased = Ter {
        case_sensitive: true,
        ..Ter::default()
    };
    assert_eq!(
        cased.sentence("The cat", &["the cat"]).expect("ter").score,
        50.0
    );
    assert_eq!(cased.signature(1).get("case"), Some("mixed"));
    // Corpus: (1 + 1) edits over 6 + (3 + 4) / 2 words.
    let c = ter
        .corpus(
            &["the cat sat on the mat", "a b"],
            &[vec!["the cat sat on a mat"], vec!["a b c", "a b c d"]],
        )
        .expect("corpus");
    assert_eq!(c, MetricScore::new(100.0 * (2.0 / 9.5), ter.signature(2)));
    // Errors, never panics.
    assert!(ter.sentence::<&str>("a", &[]).is_err());
    assert!(ter.corpus(&["a", "b"], &[vec!["a"]]).is_err());
    assert!(ter.corpus(&["a"], &[Vec::<&str>::new()]).is_err());
    assert_eq!(ter.segment_stats::<&str>("a", &[]), TerStats::default());
}

/// sacreBLEU's `translation_edit_rate`, transcribed literally: a dense matrix of (cost, op)
/// per hypothesis, recomputed from scratch for every candidate shift.
mod literal {
    const INF: u64 = 10_000_000_000_000_000;

    fn edit_distance(h: &[&str], r: &[&str]) -> (u64, Vec<u8>) {
        let (nh, nr) = (h.len(), r.len());
        let mut dist = vec![vec![(INF, b'x'); nr + 1]; nh + 1];
        for (j, cell) in dist[0].iter_mut().enumerate() {
            *cell = (j as u64, b'i');
        }
        let ratio = if nh > 0 { nr as f64 / nh as f64 } else { 1.0 };
        let beam = if 25.0 < ratio / 2.0 {
            (ratio / 2.0 + 25.0).ceil() as i64
        } else {
            25
        };
        for i in 1..=nh {
            let diag = (i as f64 * ratio).floor() as i64;
            let min_j = (diag - beam).max(0) as usize;
            let mut max_j = ((nr + 1) as i64).min(diag + beam) as usize;
            if i == nh {
                max_j = nr + 1;
            }
            for j in min_j..max_j {
                if j == 0 {
                    dist[i][j] = (dist[i - 1][j].0 + 1, b'd');
                    continue;
                }
                let (c, o) = if h[i - 1] == r[j - 1] {
                    (0, b' ')
                } else {
                    (1, b's')
                };
                for (cost, op) in [
                    (dist[i - 1][j - 1].0 + c, o),
                    (dist[i - 1][j].0 + 1, b'd'),
                    (dist[i][j - 1].0 + 1, b'i'),
                ] {
                    if dist[i][j].0 > cost {
                        dist[i][j] = (cost, op);
                    }
                }
            }
        }
        let (mut i, mut j, mut trace) = (nh, nr, Vec::new());
        while i > 0 || j > 0 {
            let op = dist[i][j].1;
            trace.insert(0, op);
            match op {
                b' ' | b's' => (i, j) = (i - 1, j - 1),
                b'i' => j -= 1,
                b'd' => i -= 1,
                _ => panic!("undefined cell"),
            }
        }
        (dist[nh][nr].0, trace)
    }

    fn perform_shift<'a>(w: &[&'a str], s: usize, l: usize, t: usize) -> Vec<&'a str> {
        let n = w.len();
        let sl = |a: usize, b: usize| w[a.min(n)..b.min(n).max(a.min(n))].to_vec();
        if t < s {
            [sl(0, t), sl(s, s + l), sl(t, s), sl(s + l, n)].concat()
        } else if t > s + l {
            [sl(0, s), sl(s + l, t), sl(s, s + l), sl(t, n)].concat()
        } else {
            [sl(0, s), sl(s + l, l + t), sl(s, s + l), sl(l + t, n)].concat()
        }
    }

    type Candidate<'a> = (i64, usize, i64, i64, Vec<&'a str>);

    fn shift<'a>(h: &[&'a str], r: &[&str], checked: &mut usize) -> (i64, Vec<&'a str>) {
        let (pre, inv) = edit_distance(h, r);
        // Reference positions come in order: align[k] is the k-th one pushed.
        let mut ph = -1i64;
        let (mut align, mut herr, mut rerr) = (Vec::new(), Vec::new(), Vec::new());
        for op in inv {
            // Flipped trace: the reference rewritten into the hypothesis.
            match op {
                b' ' | b's' => {
                    ph += 1;
                    align.push(ph);
                    herr.push(u8::from(op == b's'));
                    rerr.push(u8::from(op == b's'));
                }
                b'd' => {
                    ph += 1;
                    herr.push(1);
                }
                _ => {
                    align.push(ph);
                    rerr.push(1);
                }
            }
        }
        let mut best: Option<Candidate<'a>> = None;
        let (nh, nr) = (h.len(), r.len());
        'outer: for sh in 0..nh {
            for sr in 0..nr {
                if sr.abs_diff(sh) > 50 {
                    continue;
                }
                let mut len = 0;
                while h[sh + len] == r[sr + len] && len < 10 {
                    len += 1;
                    let block_ok = herr[sh..sh + len].iter().any(|&e| e > 0)
                        && rerr[sr..sr + len].iter().any(|&e| e > 0)
                        && !(sh as i64 <= align[sr] && align[sr] < (sh + len) as i64);
                    if block_ok {
                        let mut prev = -1;
                        for off in -1..len as i64 {
                            let p = sr as i64 + off;
                            let idx = if p == -1 { 0 } else { align[p as usize] + 1 };
                            if idx == prev {
                                continue;
                            }
                            prev = idx;
                            let words = perform_shift(h, sh, len, idx as usize);
                            let d = edit_distance(&words, r).0;
                            let cand = (pre as i64 - d as i64, len, -(sh as i64), -idx, words);
                            *checked += 1;
                            if best.as_ref().is_none_or(|b| cand > *b) {
                                best = Some(cand);
                            }
                        }
                        if *checked >= 1000 {
                            break 'outer;
                        }
                    }
                    if nh == sh + len || nr == sr + len {
                        break;
                    }
                }
            }
        }
        best.map_or((0, h.to_vec()), |b| (b.0, b.4))
    }

    /// (edits, reference length).
    pub fn ter(h: &[&str], r: &[&str]) -> (u64, usize) {
        if r.is_empty() {
            return (h.len() as u64, 0);
        }
        let (mut words, mut shifts, mut checked) = (h.to_vec(), 0, 0);
        loop {
            let (delta, next) = shift(&words, r, &mut checked);
            if checked >= 1000 || delta <= 0 {
                break;
            }
            shifts += 1;
            words = next;
        }
        (shifts + edit_distance(&words, r).0, r.len())
    }
}

/// Word sequences over a small vocabulary: many matching blocks, repeated words, shifts.
fn words(max: usize) -> impl Strategy<Value = Vec<&'static str>> {
    prop::collection::vec(
        prop::sample::select(&["a", "b", "c", "d", "e", "the", "cat"][..]),
        0..max,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]
    /// The optimised search (reused matrix prefixes, early exits, beamed storage) finds the
    /// edits of the literal transcription.
    #[test]
    fn ter_equals_literal_algorithm(
        hyp in words(60),
        refs in prop::collection::vec(words(60), 1..3),
    ) {
        let ter = Ter::default();
        let hyp_s = hyp.join(" ");
        let refs_s: Vec<String> = refs.iter().map(|r| r.join(" ")).collect();
        let st = ter.segment_stats(&hyp_s, &refs_s);
        let each: Vec<(u64, usize)> = refs.iter().map(|r| literal::ter(&hyp, r)).collect();
        let best = each.iter().map(|e| e.0).min().unwrap_or(0);
        let len: usize = each.iter().map(|e| e.1).sum();
        prop_assert_eq!(st.num_edits, best as f64);
        prop_assert_eq!(st.ref_length, len as f64 / refs.len() as f64);
    }

    /// Lengths far apart (the widened beam) and long sequences (the shift distance).
    #[test]
    fn ter_equals_literal_algorithm_lopsided(
        hyp in words(8),
        reference in words(160),
        swap in any::<bool>(),
    ) {
        let (h, r) = if swap { (&reference, &hyp) } else { (&hyp, &reference) };
        let st = Ter::default().segment_stats(&h.join(" "), &[r.join(" ")]);
        prop_assert_eq!(st.num_edits, literal::ter(h, r).0 as f64);
    }
}

const PIECES: &[&str] = &[
    "&amp;", "&lt;", "'s", "3.5", "1-2", "\n-", ",", ".", "\"", "(", "漢字", "。", "ｈ", "，",
    "ひら", "カタ", "İ", "Σ", "\u{a0}", "\u{3000}", "\u{85}", "the", "cat", "the cat",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]
    /// Arbitrary text never panics, under every option combination, and scores stay finite.
    #[test]
    fn ter_never_panics(
        hyp in hauser_testkit::text(PIECES, " "),
        refs in prop::collection::vec(hauser_testkit::text(PIECES, " "), 0..3),
        mask in 0u8..16,
    ) {
        let cfg = Ter {
            case_sensitive: mask & 1 != 0,
            normalized: mask & 2 != 0,
            no_punct: mask & 4 != 0,
            asian_support: mask & 8 != 0,
        };
        match cfg.sentence(&hyp, &refs) {
            Ok(s) => prop_assert!(s.score.is_finite() && s.score >= 0.0),
            Err(_) => prop_assert!(refs.is_empty()),
        }
    }
}

//! The zero-shot scorer's `pmi`, `max_length` and premise-period options on the tiny GPT-2 of
//! hauser-nli, against a computation by hand from the model's per-token log-probabilities
//! (one unbatched sequence at a time, every position scored, the option's tail summed), the
//! steps of surface-form-competition's `utils.py` (no transformers run: the scores `lm`,
//! `tok_mean` and `dcpmi` have their transformers fixture in hauser-cli's tests).
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

use figlang_tasks::narratives::zero_shot::{premise_with, UNCONDITIONAL_PREMISE};
use figlang_tasks::narratives::{read_split, score_zero_shot, ZeroShotConfig};
use hauser_nli::{CausalLm, LoadOptions, ModelSource};

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn gpt2() -> CausalLm {
    let dir = manifest().join("../hauser-nli/tests/fixtures/gpt2");
    CausalLm::load(&ModelSource::Dir(dir), &LoadOptions::default()).unwrap()
}

/// `log P(hyp | ctx)`: `ctx` cut from the left to `limit - len(hyp)` tokens, as `utils.py`
/// l.343, the sequence scored alone and the hypothesis' log-probabilities summed.
fn by_hand(lm: &CausalLm, ctx: &str, hyp: &str, limit: usize) -> (f64, usize) {
    let enc = lm.text_encoder();
    let ctx = enc.encode_plain(ctx).unwrap();
    let hyp = enc.encode_plain(hyp).unwrap();
    let keep = ctx.len().min(limit - hyp.len());
    let ctx = &ctx[ctx.len() - keep..];
    let seq = [ctx, hyp.as_slice()].concat();
    // logprobs_of_ids gives log p(ids[t] | ids[..t]) for t >= 1, position t at index t - 1.
    let lp = &lm.logprobs_of_ids(&[seq]).unwrap()[0];
    let sum = lp[ctx.len() - 1..].iter().map(|&x| f64::from(x)).sum();
    (sum, ctx.len())
}

/// SFC conditions on token id 25, which is `:` in GPT-2's vocabulary; the text `:` is encoded
/// instead, one token in any GPT-2-style vocabulary (26 in this tiny one, where 25 is `9`).
#[test]
fn unconditional_premise_is_the_colon_token() {
    let lm = gpt2();
    let ids = lm
        .text_encoder()
        .encode_plain(UNCONDITIONAL_PREMISE)
        .unwrap();
    assert_eq!(ids.len(), 1);
    assert_eq!(lm.text_encoder().decode(&ids, false).unwrap(), ":");
}

#[test]
fn pmi_max_length_and_premise_period_equal_the_hand_computation() {
    let lm = gpt2();
    let split = read_split(&manifest().join("tests/fixtures/narratives/data.jsonl")).unwrap();
    // Every fixture narrative ends in `.`: every other one is made to end in a quote instead.
    let mut items = split.items.clone();
    for item in items.iter_mut().skip(1).step_by(2) {
        item.narrative = format!("{}\"", item.narrative.trim_end_matches('.'));
    }
    let full = lm.context_len();
    for (max_length, period) in [(None, true), (Some(56), true), (Some(full), false)] {
        let cfg = ZeroShotConfig {
            premise_period: period,
            max_length,
            ..ZeroShotConfig::default()
        };
        let limit = max_length.unwrap_or(full);
        let got = score_zero_shot(&lm, &items, &cfg).unwrap();
        let mut cut_somewhere = false;
        for (item, r) in items.iter().zip(&got) {
            let premise = premise_with(&item.narrative, false, period);
            let mut truncated = 0;
            for (k, opt) in item.options.iter().enumerate() {
                let hyp = format!(" {opt}");
                let (lm_sum, kept) = by_hand(&lm, &premise, &hyp, limit);
                let (domain, _) = by_hand(&lm, &cfg.domain_premise, &hyp, limit);
                let (uncond, _) = by_hand(&lm, ":", &hyp, limit);
                let s = r.options[k];
                let what = format!("{max_length:?} {period} {opt:?}");
                assert!(
                    (s.lm - lm_sum).abs() < 1e-4,
                    "{what}: lm {} vs {lm_sum}",
                    s.lm
                );
                assert!((s.dcpmi - (lm_sum - domain)).abs() < 1e-4, "{what}: dcpmi");
                assert!((s.pmi - (lm_sum - uncond)).abs() < 1e-4, "{what}: pmi");
                let n_premise = lm.text_encoder().encode_plain(&premise).unwrap().len();
                truncated = truncated.max(n_premise - kept);
            }
            assert_eq!(r.truncated, truncated, "{max_length:?} {period}");
            cut_somewhere |= truncated > 0;
        }
        if max_length == Some(56) {
            assert!(cut_somewhere, "--max-length 56 cuts some premise");
        }
    }
    // A premise that does not end in `.` or `!` gets one unless the switch is off.
    assert!(items.iter().any(
        |i| premise_with(&i.narrative, false, true) != premise_with(&i.narrative, false, false)
    ));
    // Beyond the model's context, or 0: refused.
    for bad in [0, full + 1] {
        let cfg = ZeroShotConfig {
            max_length: Some(bad),
            ..ZeroShotConfig::default()
        };
        assert!(score_zero_shot(&lm, &items, &cfg).is_err(), "{bad}");
    }
}

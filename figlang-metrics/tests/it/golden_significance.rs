//! Golden test: `text::significance` against sacreBLEU 2.4.3's `--confidence`, `--paired-bs` and
//! `--paired-ar` (seeds 12345 and 7, default and small sample counts, BLEU with four smoothings,
//! chrF, chrF++, eps-smoothed chrF) on the per-segment statistics sacreBLEU computed, and
//! rouge-score 0.1.2's `BootstrapAggregator` after `np.random.seed(...)`. Fixture written by
//! `tools/gen/gen_significance_fixture.py`. Tolerance 1e-9; on Linux/glibc (the libm CPython uses
//! too) every value must be bit-equal. p-values are always compared exactly.

use crate::common;
use figlang_metrics::text::bleu_sacre::{SacreBleu, SacreSmoothing};
use figlang_metrics::text::chrf::Chrf;
use figlang_metrics::text::rouge::Prf;
use figlang_metrics::text::significance::{
    bootstrap_ci, paired_ar, paired_bootstrap, rouge_bootstrap, rouge_bootstrap_types,
    PairedResult, Resampling, StatsScorer,
};
use serde_json::Value;

const EXACT: bool = cfg!(all(target_os = "linux", target_env = "gnu"));

/// A float written by the generator as its Python `repr` (exactly parseable).
fn num(v: &Value) -> Option<f64> {
    v.as_str().map(|s| s.parse().expect("float repr"))
}

#[derive(Default)]
struct Checks(Vec<String>, usize);

impl Checks {
    fn float(&mut self, label: impl Fn() -> String, got: Option<f64>, want: Option<f64>) {
        self.1 += 1;
        let ok = match (got, want) {
            (Some(g), Some(w)) if EXACT => g.to_bits() == w.to_bits(),
            (Some(g), Some(w)) => (g - w).abs() <= 1e-9,
            (None, None) => true,
            _ => false,
        };
        if !ok {
            self.0
                .push(format!("{}: got {got:?}, want {want:?}", label()));
        }
    }

    fn exact(&mut self, label: impl Fn() -> String, got: Option<f64>, want: Option<f64>) {
        self.1 += 1;
        if got.map(f64::to_bits) != want.map(f64::to_bits) {
            self.0
                .push(format!("{}: got {got:?}, want {want:?}", label()));
        }
    }

    fn done(self, what: &str) {
        assert!(
            self.0.is_empty(),
            "{what}: {} of {} values differ:\n{}",
            self.0.len(),
            self.1,
            self.0[..self.0.len().min(40)].join("\n")
        );
        assert!(self.1 > 0, "{what}: nothing checked");
    }
}

fn scorer(cfg: &Value) -> Box<dyn StatsScorer> {
    match cfg["kind"].as_str().expect("kind") {
        "bleu" => Box::new(SacreBleu {
            smoothing: match cfg["smooth"].as_str().expect("smooth") {
                "exp" => SacreSmoothing::Exp,
                "floor" => SacreSmoothing::Floor(0.1),
                "add-k" => SacreSmoothing::AddK(1.0),
                "none" => SacreSmoothing::None,
                other => panic!("smoothing {other}"),
            },
            ..SacreBleu::default()
        }),
        "chrf" => Box::new(Chrf {
            word_order: cfg["word_order"].as_u64().expect("word_order") as usize,
            eps_smoothing: cfg["eps_smoothing"].as_bool().unwrap_or(false),
            ..Chrf::default()
        }),
        other => panic!("metric {other}"),
    }
}

type Stats = Vec<Vec<Vec<f64>>>;

struct Fixture {
    fx: Value,
}

impl Fixture {
    fn load() -> Self {
        Self {
            fx: common::fixture("sacrebleu_significance.json"),
        }
    }

    /// `(scorer, per-system statistics)` of a configuration.
    fn config(&self, name: &str) -> (Box<dyn StatsScorer>, Stats) {
        let cfg = &self.fx["configs"][name];
        let key = cfg["stats"].as_str().expect("stats key");
        let stats = self.fx["stats"][key]
            .as_array()
            .expect("stats")
            .iter()
            .map(|sys| {
                sys.as_array()
                    .expect("system")
                    .iter()
                    .map(|seg| {
                        seg.as_array()
                            .expect("segment")
                            .iter()
                            .map(|v| v.as_f64().expect("stat"))
                            .collect()
                    })
                    .collect()
            })
            .collect();
        (scorer(cfg), stats)
    }

    fn cases(&self, key: &str) -> &Vec<Value> {
        self.fx[key].as_array().expect("cases")
    }
}

fn resampling(case: &Value) -> Resampling {
    Resampling {
        n_samples: case["n"].as_u64().expect("n") as usize,
        seed: Some(case["seed"].as_u64().expect("seed")),
    }
}

fn label(case: &Value) -> String {
    format!("{} seed {} n {}", case["config"], case["seed"], case["n"])
}

fn check_paired(checks: &mut Checks, case: &Value, got: &[PairedResult]) {
    let want = case["results"].as_array().expect("results");
    assert_eq!(got.len(), want.len(), "{}", label(case));
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        let at = |field: &str| {
            let field = field.to_string();
            let l = label(case);
            move || format!("{l} system {k} {field}")
        };
        checks.float(at("score"), Some(g.score), num(&w["score"]));
        checks.float(at("mean"), g.mean, num(&w["mean"]));
        checks.float(at("ci"), g.ci, num(&w["ci"]));
        checks.exact(at("p_value"), g.p_value, num(&w["p_value"]));
    }
}

#[test]
fn confidence_matches_sacrebleu() {
    let fx = Fixture::load();
    let mut checks = Checks::default();
    for case in fx.cases("confidence") {
        let (scorer, stats) = fx.config(case["config"].as_str().expect("config"));
        let sys = case["system"].as_u64().expect("system") as usize;
        let got = bootstrap_ci(&stats[sys], scorer.as_ref(), &resampling(case)).expect("ci");
        let l = format!("{} system {sys}", label(case));
        checks.float(
            || format!("{l} score"),
            Some(got.score),
            num(&case["score"]),
        );
        checks.float(|| format!("{l} mean"), Some(got.mean), num(&case["mean"]));
        checks.float(|| format!("{l} ci"), Some(got.ci), num(&case["ci"]));
    }
    checks.done("confidence");
}

#[test]
fn paired_bootstrap_matches_sacrebleu() {
    let fx = Fixture::load();
    let mut checks = Checks::default();
    for case in fx.cases("paired_bs") {
        let (scorer, stats) = fx.config(case["config"].as_str().expect("config"));
        let systems: Vec<&[Vec<f64>]> = stats[1..].iter().map(Vec::as_slice).collect();
        let got = paired_bootstrap(&stats[0], &systems, scorer.as_ref(), &resampling(case))
            .expect("paired bs");
        check_paired(&mut checks, case, &got);
    }
    checks.done("paired bootstrap");
}

#[test]
fn paired_ar_matches_sacrebleu() {
    let fx = Fixture::load();
    let mut checks = Checks::default();
    for case in fx.cases("paired_ar") {
        let (scorer, stats) = fx.config(case["config"].as_str().expect("config"));
        let systems: Vec<&[Vec<f64>]> = stats[1..].iter().map(Vec::as_slice).collect();
        let conf = case["confidence_n"].as_u64().map(|c| c as usize);
        let got = paired_ar(
            &stats[0],
            &systems,
            scorer.as_ref(),
            &resampling(case),
            conf,
        )
        .expect("paired ar");
        check_paired(&mut checks, case, &got);
    }
    checks.done("paired AR");
}

#[test]
fn fixture_statistics_match_the_rust_metrics() {
    let fx = Fixture::load();
    let refs: Vec<Vec<String>> = common::strings(&fx.fx["refs"])
        .into_iter()
        .map(|r| vec![r])
        .collect();
    let bleu = SacreBleu::default();
    let chrf = Chrf::default();
    let chrf_pp = Chrf::plus_plus();
    let (_, want_bleu) = fx.config("bleu");
    let (_, want_chrf) = fx.config("chrf");
    let (_, want_chrf_pp) = fx.config("chrf_pp");
    for (k, sys) in fx.fx["systems"]
        .as_array()
        .expect("systems")
        .iter()
        .enumerate()
    {
        for (i, h) in common::strings(&sys["hyps"]).iter().enumerate() {
            let r = &refs[i];
            let at = || format!("system {k} segment {i}");
            assert_eq!(
                bleu.segment_stats(h, r).row(),
                want_bleu[k][i],
                "bleu {}",
                at()
            );
            assert_eq!(
                to_f64(&chrf.segment_stats(h, r)),
                want_chrf[k][i],
                "chrf {}",
                at()
            );
            assert_eq!(
                to_f64(&chrf_pp.segment_stats(h, r)),
                want_chrf_pp[k][i],
                "chrf++ {}",
                at()
            );
        }
    }
}

fn to_f64(v: &[usize]) -> Vec<f64> {
    v.iter().map(|&x| x as f64).collect()
}

fn prf(v: &Value) -> Prf {
    let a: Vec<f64> = v
        .as_array()
        .expect("prf")
        .iter()
        .map(|x| num(x).expect("float"))
        .collect();
    Prf {
        precision: a[0],
        recall: a[1],
        fmeasure: a[2],
    }
}

#[test]
fn rouge_bootstrap_matches_rouge_score() {
    let fx = Fixture::load();
    let rouge = &fx.fx["rouge"];
    let mut checks = Checks::default();
    for case in rouge["cases"].as_array().expect("cases") {
        let types = common::strings(&case["types"]);
        let scores: Vec<Vec<Prf>> = types
            .iter()
            .map(|t| {
                rouge["scores"][t]
                    .as_array()
                    .expect("scores")
                    .iter()
                    .map(prf)
                    .collect()
            })
            .collect();
        let slices: Vec<&[Prf]> = scores.iter().map(Vec::as_slice).collect();
        let n = case["n"].as_u64().expect("n") as usize;
        let conf = case["confidence"].as_f64().expect("confidence");
        let seed = case["seed"].as_u64().map(|s| s as u32);
        let got = if slices.len() == 1 {
            vec![rouge_bootstrap(slices[0], n, conf, seed).expect("rouge")]
        } else {
            rouge_bootstrap_types(&slices, n, conf, seed).expect("rouge")
        };
        for ((t, g), w) in types
            .iter()
            .zip(&got)
            .zip(case["results"].as_array().expect("results"))
        {
            for (bound, gp) in [("low", g.low), ("mid", g.mid), ("high", g.high)] {
                let wp = prf(&w[bound]);
                for (field, gv, wv) in [
                    ("P", gp.precision, wp.precision),
                    ("R", gp.recall, wp.recall),
                    ("F", gp.fmeasure, wp.fmeasure),
                ] {
                    checks.float(
                        || format!("seed {seed:?} n {n} conf {conf} {t} {bound} {field}"),
                        Some(gv),
                        Some(wv),
                    );
                }
            }
        }
    }
    checks.done("rouge bootstrap");
}

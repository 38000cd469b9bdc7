//! The metrics of `hauser sacrebleu` (BLEU, chrF, TER of figlang-metrics, bit-exact with
//! sacreBLEU 2.4.3) with sacreBLEU's signatures, score lines and resampling tests.

use figlang_metrics::text::bleu_sacre::{SacreBleu, SacreSmoothing};
use figlang_metrics::text::chrf::Chrf;
use figlang_metrics::text::registry::{metric_by_name, ChrfOptions, TextMetricOptions};
use figlang_metrics::text::significance::{
    bootstrap_ci, paired_ar, paired_bootstrap, PairedResult, Resampling,
};
use figlang_metrics::text::ter::Ter;
use figlang_metrics::text::TextMetric;

use super::args::SacreArgs;
use super::format::{dict_set, dumps, fixed, Json};

/// The version written into signatures: the sacreBLEU release whose numbers these are, so that
/// a signature printed here reads as the one sacreBLEU prints for the same setting.
pub const SIGNATURE_VERSION: &str = "2.4.3";

/// A failure with sacreBLEU's exit status.
#[derive(Debug, Clone, PartialEq)]
pub struct Exit {
    /// The exit status.
    pub code: u8,
    /// What goes to standard error.
    pub message: String,
}

impl Exit {
    /// An error sacreBLEU reports itself (exit status 1).
    pub fn one(message: impl Into<String>) -> Self {
        Self {
            code: 1,
            message: message.into(),
        }
    }

    /// Something this drop-in cannot do (exit status 2).
    pub fn unsupported(message: impl Into<String>) -> Self {
        Self {
            code: 2,
            message: message.into(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Bleu,
    Chrf,
    Ter,
}

/// One metric as sacreBLEU's command line configures it.
pub struct Metric {
    kind: Kind,
    bleu: SacreBleu,
    chrf: Chrf,
    ter: Ter,
    /// The registry's metric with the same settings: its resampling statistics.
    boxed: Box<dyn TextMetric>,
    /// sacreBLEU's score name (`BLEU`, `chrF2`, `chrF2++`, `TER`).
    pub name: String,
    /// The metric-specific signature fields (name, value, short name).
    fields: Vec<(&'static str, String, &'static str)>,
}

/// A score as sacreBLEU's `Score` holds it.
#[derive(Debug, Clone)]
pub struct Score {
    /// Metric name.
    pub name: String,
    /// The value.
    pub score: f64,
    /// Bootstrap mean and 95% half-width (`--confidence`).
    pub ci: Option<(f64, f64)>,
    /// BLEU's `verbose_score`.
    pub verbose: Option<String>,
}

/// A signature: sacreBLEU's ordered fields.
#[derive(Debug, Clone)]
pub struct Signature {
    fields: Vec<(&'static str, String, &'static str)>,
}

impl Signature {
    /// sacreBLEU's `Signature.format(short)`.
    pub fn format(&self, short: bool) -> String {
        let parts: Vec<String> = self
            .fields
            .iter()
            .map(|(k, v, s)| format!("{}:{v}", if short { s } else { k }))
            .collect();
        parts.join("|")
    }
}

fn yes_no(b: bool) -> String {
    if b { "yes" } else { "no" }.to_string()
}

fn chrf_order(v: i64, what: &str) -> Result<usize, Exit> {
    usize::try_from(v).map_err(|_| Exit::one(format!("chrF: a negative {what} ({v})")))
}

impl std::fmt::Debug for Metric {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metric").field("name", &self.name).finish()
    }
}

impl Metric {
    /// The metric `name` (`bleu`, `chrf`, `ter`) with `args`' settings; `trg_lang` is the
    /// target language of `-l`, which picks BLEU's default tokenizer as in sacreBLEU.
    ///
    /// # Errors
    /// Tokenizers that need MeCab or a SentencePiece model (exit 2); impossible chrF orders.
    pub fn new(name: &str, args: &SacreArgs, trg_lang: Option<&str>) -> Result<Self, Exit> {
        let mut opts = TextMetricOptions::default();
        let mut fields = Vec::new();
        let kind = match name {
            "bleu" => Kind::Bleu,
            "chrf" => Kind::Chrf,
            _ => Kind::Ter,
        };
        let mut bleu = SacreBleu::default();
        let mut chrf = Chrf::default();
        let mut ter = Ter::default();
        let display;
        match kind {
            Kind::Bleu => {
                let tok = args.tokenize.clone().unwrap_or_else(|| {
                    match trg_lang {
                        Some("zh") => "zh",
                        Some("ja") => "ja-mecab",
                        Some("ko") => "ko-mecab",
                        _ => "13a",
                    }
                    .to_string()
                });
                bleu.tokenizer = tok.parse().map_err(|_| {
                    Exit::unsupported(format!(
                        "the {tok} tokenizer needs MeCab or a downloaded SentencePiece model, \
                         which hauser sacrebleu does not have (13a, intl, char, zh and none are built in)"
                    ))
                })?;
                bleu.lowercase = args.lowercase;
                bleu.effective_order = args.sentence_level;
                bleu.smoothing = match args.smooth_method.as_str() {
                    "none" => SacreSmoothing::None,
                    "floor" => SacreSmoothing::Floor(args.smooth_value.unwrap_or(0.1)),
                    "add-k" => SacreSmoothing::AddK(args.smooth_value.unwrap_or(1.0)),
                    _ => SacreSmoothing::Exp,
                };
                let smooth = match bleu.smoothing {
                    SacreSmoothing::Floor(v) => format!("floor[{}]", fixed(v, 2)),
                    SacreSmoothing::AddK(v) => format!("add-k[{}]", fixed(v, 2)),
                    _ => args.smooth_method.clone(),
                };
                opts.sacre_tokenizer = bleu.tokenizer;
                opts.bleu_smoothing = Some(bleu.smoothing);
                opts.smooth_value = args.smooth_value;
                opts.lowercase = args.lowercase;
                opts.effective_order = args.sentence_level;
                let case = if args.lowercase { "lc" } else { "mixed" };
                fields.push(("case", case.to_string(), "c"));
                fields.push(("eff", yes_no(args.sentence_level), "e"));
                fields.push(("tok", tok, "tok"));
                fields.push(("smooth", smooth, "s"));
                display = "BLEU".to_string();
            }
            Kind::Chrf => {
                chrf.char_order = chrf_order(args.chrf_char_order, "character order")?;
                chrf.word_order = chrf_order(args.chrf_word_order, "word order")?;
                if chrf.char_order + chrf.word_order == 0 {
                    return Err(Exit::one("chrF: the character and word orders are both 0"));
                }
                // chrF weighs recall by beta squared: sacreBLEU takes any integer, and a negative
                // beta scores as its absolute value (which the library's options ask for).
                chrf.beta = args.chrf_beta.unsigned_abs() as f64;
                chrf.lowercase = args.chrf_lowercase;
                chrf.whitespace = args.chrf_whitespace;
                chrf.eps_smoothing = args.chrf_eps_smoothing;
                opts.chrf = ChrfOptions {
                    char_order: Some(chrf.char_order),
                    word_order: Some(chrf.word_order),
                    beta: Some(chrf.beta),
                    whitespace: chrf.whitespace,
                    lowercase: chrf.lowercase,
                    eps_smoothing: chrf.eps_smoothing,
                };
                let case = if chrf.lowercase { "lc" } else { "mixed" };
                fields.push(("case", case.to_string(), "c"));
                fields.push(("eff", yes_no(!chrf.eps_smoothing), "e"));
                fields.push(("nc", args.chrf_char_order.to_string(), "nc"));
                fields.push(("nw", args.chrf_word_order.to_string(), "nw"));
                fields.push(("space", yes_no(chrf.whitespace), "s"));
                // Named below, once the library has accepted the orders: a word order of
                // 10^14 would otherwise ask for 10^14 bytes of `+` (an abort).
                display = String::new();
            }
            Kind::Ter => {
                ter.case_sensitive = args.ter_case_sensitive;
                ter.asian_support = args.ter_asian_support;
                ter.no_punct = args.ter_no_punct;
                ter.normalized = args.ter_normalized;
                opts.ter = ter;
                let case = if ter.case_sensitive { "mixed" } else { "lc" };
                fields.push(("case", case.to_string(), "c"));
                fields.push(("tok", "tercom".to_string(), "t"));
                fields.push(("norm", yes_no(ter.normalized), "nr"));
                fields.push(("punct", yes_no(!ter.no_punct), "pn"));
                fields.push(("asian", yes_no(ter.asian_support), "as"));
                display = "TER".to_string();
            }
        }
        let boxed = metric_by_name(name, &opts).map_err(|e| Exit::unsupported(e.to_string()))?;
        let display = match kind {
            Kind::Chrf => format!("chrF{}{}", args.chrf_beta, "+".repeat(chrf.word_order)),
            _ => display,
        };
        Ok(Self {
            kind,
            bleu,
            chrf,
            ter,
            boxed,
            name: display,
            fields,
        })
    }

    /// The signature with `nrefs` and the resampling fields (`bs`, `ar`, `seed`, in
    /// sacreBLEU's order).
    pub fn signature(&self, nrefs: usize, resampling: &[(&'static str, String)]) -> Signature {
        let mut fields = vec![("nrefs", nrefs.to_string(), "#")];
        for key in ["bs", "ar", "seed"] {
            if let Some((_, v)) = resampling.iter().find(|(k, _)| *k == key) {
                fields.push((key, v.clone(), if key == "seed" { "rs" } else { key }));
            }
        }
        fields.extend(self.fields.iter().cloned());
        fields.push(("version", SIGNATURE_VERSION.to_string(), "v"));
        Signature { fields }
    }

    /// The score of hypotheses against per-hypothesis reference sets (one sentence, or a
    /// corpus).
    pub fn score(&self, hyps: &[String], refs: &[Vec<String>]) -> Score {
        let (score, verbose) = match self.kind {
            Kind::Bleu => {
                let d = self.bleu.details(&self.bleu.corpus_stats(hyps, refs));
                // sacreBLEU's `verbose_score`, with Python's spelling of NaN and infinities
                // (an infinite add-k value makes the precisions NaN).
                let p: Vec<String> = d.precisions.iter().map(|p| fixed(*p, 1)).collect();
                let verbose = format!(
                    "{} (BP = {} ratio = {} hyp_len = {} ref_len = {})",
                    p.join("/"),
                    fixed(d.bp, 3),
                    fixed(d.ratio, 3),
                    d.sys_len,
                    d.ref_len
                );
                (d.score, Some(verbose))
            }
            Kind::Chrf => (
                self.chrf
                    .score_from_stats(&self.chrf.corpus_stats(hyps, refs)),
                None,
            ),
            Kind::Ter => (
                self.ter
                    .score_from_stats(&self.ter.corpus_stats(hyps, refs)),
                None,
            ),
        };
        Score {
            name: self.name.clone(),
            score,
            ci: None,
            verbose,
        }
    }

    fn rows(&self, hyps: &[String], streams: &[Vec<String>]) -> Result<Vec<Vec<f64>>, Exit> {
        let res = self
            .boxed
            .resampled()
            .ok_or_else(|| Exit::one(format!("{} has no resampling statistics", self.name)))?;
        res.stats_rows(hyps, streams)
            .map_err(|e| Exit::one(e.to_string()))
    }

    /// Refuses a resampling whose index table would not fit in memory (sacreBLEU: a
    /// `MemoryError`, exit 1), before it is allocated: n samples of every segment, drawn as
    /// 64-bit integers and kept as 32-bit ones.
    fn check_resampling(n_samples: usize, n_seg: usize) -> Result<(), Exit> {
        let count = (n_samples as u64).checked_mul(n_seg as u64);
        let bytes = count.and_then(|c| hauser_core::limits::bytes_for(c, 12));
        hauser_core::limits::check_memory("the resampling indices", bytes)
            .map_err(|e| Exit::one(format!("MemoryError: {e}")))
    }

    /// sacreBLEU's `--confidence`: the bootstrap mean and 95% half-width.
    ///
    /// # Errors
    /// Metric failures.
    pub fn confidence(
        &self,
        hyps: &[String],
        streams: &[Vec<String>],
        r: &Resampling,
    ) -> Result<(f64, f64), Exit> {
        Self::check_resampling(r.n_samples, hyps.len())?;
        let rows = self.rows(hyps, streams)?;
        let res = self
            .boxed
            .resampled()
            .ok_or_else(|| Exit::one("no statistics"))?;
        let ci = bootstrap_ci(&rows, res.scorer(), r).map_err(|e| Exit::one(e.to_string()))?;
        Ok((ci.mean, ci.ci))
    }

    /// sacreBLEU's paired test of `systems` against `baseline` (`bootstrap`: `--paired-bs`).
    ///
    /// # Errors
    /// Metric failures.
    pub fn paired(
        &self,
        baseline: &[String],
        systems: &[Vec<String>],
        streams: &[Vec<String>],
        bootstrap: bool,
        r: &Resampling,
    ) -> Result<Vec<PairedResult>, Exit> {
        // Bootstrap draws its indices twice where the systems' seed differs from the
        // baseline's; approximate randomization draws a coin per segment and trial.
        Self::check_resampling(r.n_samples.saturating_mul(2), baseline.len())?;
        let base = self.rows(baseline, streams)?;
        let others = systems
            .iter()
            .map(|s| self.rows(s, streams))
            .collect::<Result<Vec<_>, _>>()?;
        let views: Vec<&[Vec<f64>]> = others.iter().map(Vec::as_slice).collect();
        let res = self
            .boxed
            .resampled()
            .ok_or_else(|| Exit::one("no statistics"))?;
        let out = if bootstrap {
            paired_bootstrap(&base, &views, res.scorer(), r)
        } else {
            paired_ar(&base, &views, res.scorer(), r, None)
        };
        out.map_err(|e| Exit::one(e.to_string()))
    }
}

/// `f"{x:.{width}f}"` read back by `float()` (what sacreBLEU's JSON holds).
fn rounded(x: f64, width: usize) -> Json {
    Json::Float(fixed(x, width).parse().unwrap_or(x))
}

impl Score {
    /// sacreBLEU's `Score.format(width, score_only, signature, is_json)`.
    pub fn format(&self, width: usize, score_only: bool, signature: &str, json: bool) -> String {
        let mut sc = fixed(self.score, width);
        let mut d: Vec<(String, Json)> = vec![
            ("name".into(), Json::Str(self.name.clone())),
            ("score".into(), rounded(self.score, width)),
            ("signature".into(), Json::Str(signature.to_string())),
        ];
        if let Some((mean, ci)) = self.ci.filter(|(m, _)| *m > 0.0) {
            let (m, c) = (fixed(mean, width), fixed(ci, width));
            let text = format!("μ = {m} ± {c}");
            sc.push_str(&format!(" ({text})"));
            d.push(("confidence_mean".into(), rounded(mean, width)));
            d.push(("confidence_var".into(), rounded(ci, width)));
            d.push(("confidence".into(), Json::Str(text)));
        }
        let head = if signature.is_empty() {
            self.name.clone()
        } else {
            format!("{}|{signature}", self.name)
        };
        let mut full = format!("{head} = {sc}");
        if let Some(v) = &self.verbose {
            full.push(' ');
            full.push_str(v);
            d.push(("verbose_score".into(), Json::Str(v.clone())));
        }
        if score_only {
            return sc;
        }
        if json {
            for param in signature.split('|') {
                if let Some((k, v)) = param.split_once(':') {
                    dict_set(&mut d, k, Json::Str(v.to_string()));
                }
            }
            return dumps(&Json::Object(d), 1, false);
        }
        full
    }
}

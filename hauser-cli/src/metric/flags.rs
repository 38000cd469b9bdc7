//! The text-metric options of `hauser metric` under the names their users know: sacreBLEU's
//! flags (`--smooth-method`, `-tok`, `--chrf-char-order`...), rouge-score's (`--use-stemmer`,
//! `--split-summaries`) and NLTK's (`--weights`, `--auto-reweigh`), turned into the library's
//! [`TextMetricOptions`].

use std::ffi::OsString;

use clap::Args;

use figlang_metrics::text::{ChrfOptions, TextMetricOptions, WordSettings};

use crate::error::CliError;

/// sacreBLEU's single-dash abbreviations (argparse accepts `-tok 13a`; clap's short flags are
/// one character), as the long flags they stand for.
const SACRE_SHORT: [(&str, &str); 7] = [
    ("-tok", "--tokenize"),
    ("-lc", "--lowercase"),
    ("-s", "--smooth-method"),
    ("-sv", "--smooth-value"),
    ("-cc", "--chrf-char-order"),
    ("-cw", "--chrf-word-order"),
    ("-f", "--format"),
];

/// `args` with sacreBLEU's single-dash abbreviations spelled out, for `hauser metric` and
/// `hauser rerank` (which share the text-metric flags; other commands keep their own short
/// flags).
pub fn expand_sacre_abbreviations(args: Vec<OsString>) -> Vec<OsString> {
    if !matches!(
        args.get(1).and_then(|a| a.to_str()),
        Some("metric" | "rerank")
    ) {
        return args;
    }
    args.into_iter()
        .map(|a| {
            match SACRE_SHORT
                .iter()
                .find(|(short, _)| a.to_str() == Some(short))
            {
                Some((_, long)) => OsString::from(long),
                None => a,
            }
        })
        .collect()
}

/// METEOR's WordNet directory when `--wordnet` is not given (Debian's wordnet-base).
pub const DEFAULT_WORDNET: &str = "/usr/share/wordnet";

/// The text metrics' options of `hauser metric`.
#[derive(Debug, Clone, Args)]
pub struct TextFlags {
    /// bleu: sacreBLEU tokenizer (13a, intl, char, zh, none; default 13a); also -tok.
    /// wmd: nltk (NLTK word_tokenize, the default, as the formality paper) or none
    /// (pre-tokenised text, split on white space).
    #[arg(long)]
    pub tokenize: Option<String>,
    /// bleu: exp, floor, add-k, none (sacreBLEU; default exp); sentbleu, selfbleu: method0
    /// (NLTK's default) .. method7 (default method1, the formality paper's); also -s.
    #[arg(long = "smooth-method", alias = "smooth")]
    pub smooth: Option<String>,
    /// bleu: the value of floor (default 0.1) or add-k (default 1) smoothing; also -sv.
    #[arg(long, allow_negative_numbers = true, value_parser = crate::flags::non_negative)]
    pub smooth_value: Option<f64>,
    /// bleu: the highest n-gram order (default 4).
    #[arg(long, allow_negative_numbers = true, value_parser = crate::flags::count)]
    pub max_ngram_order: Option<usize>,
    /// bleu: effective order in the corpus score too (sentence scores always use it, as
    /// sacreBLEU's sentence_score).
    #[arg(long)]
    pub effective_order: bool,
    /// bleu: lowercase first; also -lc. BLEU only, as sacreBLEU's command line: chrF takes
    /// --chrf-lowercase, and the other metrics refuse -lc.
    #[arg(long)]
    pub lowercase: bool,
    /// Accepted for sacreBLEU compatibility: scoring tokenized text is never refused here.
    #[arg(long)]
    pub force: bool,
    /// chrf: character n-gram order (default 6); also -cc.
    #[arg(long, allow_negative_numbers = true, value_parser = crate::flags::count)]
    pub chrf_char_order: Option<usize>,
    /// chrf: word n-gram order (default 0; chrf++: 2); also -cw.
    #[arg(long, allow_negative_numbers = true, value_parser = crate::flags::count)]
    pub chrf_word_order: Option<usize>,
    /// chrf: recall weight beta (default 2; a finite number of at least 0).
    #[arg(long, allow_negative_numbers = true, value_parser = crate::flags::non_negative)]
    pub chrf_beta: Option<f64>,
    /// chrf: keep whitespace in character n-grams.
    #[arg(long)]
    pub chrf_whitespace: bool,
    /// chrf: lowercase first.
    #[arg(long)]
    pub chrf_lowercase: bool,
    /// chrf: chrF++.py's eps smoothing instead of sacreBLEU's effective order.
    #[arg(long)]
    pub chrf_eps_smoothing: bool,
    /// ter: keep case (sacreBLEU lowercases for TER by default).
    #[arg(long)]
    pub ter_case_sensitive: bool,
    /// ter: Asian-language support (with --ter-normalized or --ter-no-punct).
    #[arg(long)]
    pub ter_asian_support: bool,
    /// ter: remove punctuation.
    #[arg(long)]
    pub ter_no_punct: bool,
    /// ter: Tercom's normalisation (punctuation split off, entities unescaped).
    #[arg(long)]
    pub ter_normalized: bool,
    /// sentbleu, selfbleu: NLTK's n-gram weights, comma-separated, any length (default
    /// 0.25,0.25,0.25,0.25); finite numbers, negative ones included, as NLTK takes them.
    // One comma list per occurrence (`num_args` 1), so that a list starting with a minus sign
    // (`-0.5,1`) is taken as the value and the next flag is never taken for a weight.
    #[arg(long, value_delimiter = ',', num_args = 1, allow_hyphen_values = true, value_parser = crate::flags::finite)]
    pub weights: Option<Vec<f64>>,
    /// sentbleu: NLTK's auto_reweigh (uniform weights over a hypothesis shorter than 4).
    #[arg(long)]
    pub auto_reweigh: bool,
    /// sentbleu: the corpus score is NLTK's corpus_bleu (pooled counts), not the mean of
    /// sentence scores.
    #[arg(long)]
    pub corpus: bool,
    /// ROUGE (rouge-score): Porter stemming.
    #[arg(long)]
    pub use_stemmer: bool,
    /// rougeLsum (rouge-score): split summaries into sentences with Punkt instead of at
    /// newlines.
    #[arg(long)]
    pub split_summaries: bool,
    /// sentbleu, meteor, selfbleu, distinct, pltrdy ROUGE: NLTK release to reproduce
    /// (current = 3.10.4, or 3.4.5 as in the formality paper: its word_tokenize, and for
    /// meteor its whole algorithm).
    #[arg(long, default_value = "current")]
    pub nltk_tokenizer: String,
    /// ROUGE implementation: rouge-score (Google), pltrdy (rouge 1.0.1) or pltrdy-0.3.2.
    #[arg(long, default_value = "rouge-score")]
    pub rouge_impl: String,
    /// pltrdy ROUGE: tokenize with NLTK word_tokenize first (as the formality paper did).
    #[arg(long)]
    pub rouge_pretokenize: bool,
    /// meteor: WordNet 3.0 database directory (Debian's wordnet-base installs it here).
    #[arg(long, value_name = "DIR", default_value = DEFAULT_WORDNET)]
    pub wordnet: std::path::PathBuf,
    /// meteor: NLTK's alpha, the precision/recall balance of the F-mean (default 0.9).
    #[arg(long, allow_hyphen_values = true, value_parser = crate::flags::finite)]
    pub meteor_alpha: Option<f64>,
    /// meteor: NLTK's beta, the exponent of the fragmentation penalty (default 3).
    #[arg(long, allow_hyphen_values = true, value_parser = crate::flags::finite)]
    pub meteor_beta: Option<f64>,
    /// meteor: NLTK's gamma, the weight of the fragmentation penalty (default 0.5).
    #[arg(long, allow_hyphen_values = true, value_parser = crate::flags::finite)]
    pub meteor_gamma: Option<f64>,
}

impl TextFlags {
    /// The first text-metric flag given (with a value other than its default) that metric
    /// `name` does not read, with the metrics that do: such a flag would change nothing, so
    /// `hauser metric` refuses it rather than ignore it. `--lowercase` is checked by the caller,
    /// with its own hints.
    pub fn unread(&self, name: &str) -> Option<(&'static str, &'static str)> {
        let rouge = matches!(name, "rouge1" | "rouge2" | "rougeL" | "rougeLsum");
        let google = rouge && self.rouge_impl == "rouge-score";
        let pltrdy = rouge && !google;
        let chrf = matches!(name, "chrf" | "chrf++");
        let nltk_bleu = matches!(name, "sentbleu" | "selfbleu");
        let bleu = name == "bleu";
        let nltk = nltk_bleu
            || matches!(
                name,
                "meteor" | "distinct1" | "distinct2" | "distinct3" | "wmd"
            )
            || (pltrdy && self.rouge_pretokenize);
        let flags: [(&'static str, bool, bool, &'static str); 28] = [
            ("--tokenize", self.tokenize.is_some(), bleu || name == "wmd", "bleu, wmd"),
            ("--smooth-method", self.smooth.is_some(), bleu || nltk_bleu, "bleu, sentbleu, selfbleu"),
            ("--smooth-value", self.smooth_value.is_some(), bleu, "bleu"),
            ("--max-ngram-order", self.max_ngram_order.is_some(), bleu, "bleu"),
            ("--effective-order", self.effective_order, bleu, "bleu"),
            ("--force", self.force, bleu, "bleu"),
            ("--chrf-char-order", self.chrf_char_order.is_some(), chrf, "chrf, chrf++"),
            ("--chrf-word-order", self.chrf_word_order.is_some(), chrf, "chrf, chrf++"),
            ("--chrf-beta", self.chrf_beta.is_some(), chrf, "chrf, chrf++"),
            ("--chrf-whitespace", self.chrf_whitespace, chrf, "chrf, chrf++"),
            ("--chrf-lowercase", self.chrf_lowercase, chrf, "chrf, chrf++"),
            ("--chrf-eps-smoothing", self.chrf_eps_smoothing, chrf, "chrf, chrf++"),
            ("--ter-case-sensitive", self.ter_case_sensitive, name == "ter", "ter"),
            ("--ter-asian-support", self.ter_asian_support, name == "ter", "ter"),
            ("--ter-no-punct", self.ter_no_punct, name == "ter", "ter"),
            ("--ter-normalized", self.ter_normalized, name == "ter", "ter"),
            ("--weights", self.weights.is_some(), nltk_bleu, "sentbleu, selfbleu"),
            ("--auto-reweigh", self.auto_reweigh, nltk_bleu, "sentbleu, selfbleu"),
            ("--corpus", self.corpus, name == "sentbleu", "sentbleu"),
            ("--use-stemmer", self.use_stemmer, google, "rouge1/2/L/Lsum with --rouge-impl rouge-score"),
            ("--split-summaries", self.split_summaries, google && name == "rougeLsum", "rougeLsum with --rouge-impl rouge-score"),
            ("--nltk-tokenizer", self.nltk_tokenizer != "current", nltk, "sentbleu, selfbleu, meteor, distinct1/2/3, wmd, and ROUGE with --rouge-impl pltrdy* --rouge-pretokenize"),
            ("--rouge-impl", self.rouge_impl != "rouge-score", rouge, "rouge1/2/L/Lsum"),
            ("--rouge-pretokenize", self.rouge_pretokenize, pltrdy, "rouge1/2/L/Lsum with --rouge-impl pltrdy or pltrdy-0.3.2"),
            ("--wordnet", self.wordnet.as_os_str() != DEFAULT_WORDNET, name == "meteor", "meteor"),
            ("--meteor-alpha", self.meteor_alpha.is_some(), name == "meteor", "meteor"),
            ("--meteor-beta", self.meteor_beta.is_some(), name == "meteor", "meteor"),
            ("--meteor-gamma", self.meteor_gamma.is_some(), name == "meteor", "meteor"),
        ];
        flags
            .into_iter()
            .find(|(_, given, read, _)| *given && !*read)
            .map(|(flag, _, _, readers)| (flag, readers))
    }

    /// The library's options for metric `name`, the words it reads parsed into their types.
    ///
    /// # Errors
    /// An unknown NLTK release, tokenizer, smoothing or ROUGE implementation.
    pub fn options(&self, name: &str) -> Result<TextMetricOptions, CliError> {
        let usage = |e: figlang_metrics::text::MetricError| CliError::Usage(e.to_string());
        let words = WordSettings {
            tokenize: self.tokenize.as_deref(),
            smooth_method: self.smooth.as_deref(),
            rouge_impl: Some(&self.rouge_impl),
        };
        TextMetricOptions {
            smooth_value: self.smooth_value,
            max_ngram_order: self.max_ngram_order,
            effective_order: self.effective_order,
            lowercase: self.lowercase,
            chrf: ChrfOptions {
                char_order: self.chrf_char_order,
                word_order: self.chrf_word_order,
                beta: self.chrf_beta,
                whitespace: self.chrf_whitespace,
                lowercase: self.chrf_lowercase,
                eps_smoothing: self.chrf_eps_smoothing,
            },
            ter: figlang_metrics::text::ter::Ter {
                case_sensitive: self.ter_case_sensitive,
                normalized: self.ter_normalized,
                no_punct: self.ter_no_punct,
                asian_support: self.ter_asian_support,
            },
            weights: self.weights.clone(),
            auto_reweigh: self.auto_reweigh,
            nltk_corpus: self.corpus,
            use_stemmer: self.use_stemmer,
            split_summaries: self.split_summaries,
            nltk: self.nltk_tokenizer.parse().map_err(usage)?,
            rouge_pretokenize: self.rouge_pretokenize,
            wordnet: self.wordnet.clone(),
            meteor_alpha: self.meteor_alpha,
            meteor_beta: self.meteor_beta,
            meteor_gamma: self.meteor_gamma,
            ..TextMetricOptions::default()
        }
        .with_words(name, words)
        .map_err(usage)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    #[test]
    fn sacre_abbreviations_expand_for_metric_only() {
        assert_eq!(
            expand_sacre_abbreviations(os(&[
                "hauser", "metric", "bleu", "-tok", "intl", "-lc", "-sv", "0.2"
            ])),
            os(&[
                "hauser",
                "metric",
                "bleu",
                "--tokenize",
                "intl",
                "--lowercase",
                "--smooth-value",
                "0.2"
            ])
        );
        assert_eq!(
            expand_sacre_abbreviations(os(&["hauser", "kb", "-s"])),
            os(&["hauser", "kb", "-s"])
        );
    }
}

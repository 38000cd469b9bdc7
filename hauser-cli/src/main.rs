//! `hauser`: evaluate and rerank figurative language from the command line.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use hauser_cli::command::{Outcome, Run};
use hauser_cli::{
    classify,
    drop_in::{bert_score, comet, sacrebleu},
    embed, extract, formality,
    io::files,
    kb, meta_eval, metric, narratives, newsmet, rerank, score,
};

#[derive(Debug, Parser)]
#[command(
    name = "hauser",
    version,
    about = "Evaluation of figurative language generation"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Score simile candidates on the HAUSER criteria and rerank them (JSONL out).
    Score(score::ScoreArgs),
    /// Mean-pooled sentence embeddings of each input line (one JSON array per line).
    Embed(embed::EmbedArgs),
    /// Build, inspect and query simile knowledge bases.
    Kb(kb::KbArgs),
    /// Extract simile components (topic, vehicle, event) of each input line (JSONL out).
    Extract(extract::ExtractArgs),
    /// Correlate a metric with human scores at system and segment level (TSV in, JSON out).
    MetaEval(meta_eval::MetaEvalArgs),
    /// Pearson, Spearman and Kendall correlation of two TSV columns, with p-values (JSON out).
    Corr(meta_eval::CorrArgs),
    /// Text metrics of line-aligned files (BLEU, chrF, ROUGE, diversity, neural metrics).
    Metric(Box<metric::MetricArgs>),
    /// The formality-transfer meta-evaluation (Lai et al. 2022): its tables from the released files.
    Formality(formality::FormalityArgs),
    /// The figurative narratives benchmark: zero-shot and multiple-choice scoring, accuracy,
    /// generation and its evaluation.
    Narratives(narratives::NarrativesArgs),
    /// NewsMet: metaphor detection evaluation and the headline families of the release.
    Newsmet(newsmet::NewsmetArgs),
    /// A sequence classifier's predicted class for each row of a CSV or text file.
    Classify(classify::ClassifyArgs),
    /// Rank the candidates of each source by a reference-free metric, or by minimum Bayes risk
    /// with any reference-based metric as the utility (JSONL out, one record per candidate).
    Rerank(Box<rerank::RerankArgs>),
    /// unbabel-comet's `comet-score` (same arguments and printed lines) on local checkpoints.
    #[command(name = "comet-score")]
    CometScore(Box<comet::CometScoreArgs>),
    /// unbabel-comet's `comet-compare` (same arguments, statistics and table) on local
    /// checkpoints.
    #[command(name = "comet-compare")]
    CometCompare(Box<comet::CometCompareArgs>),
    /// bert_score's `bert-score` command (same arguments and printed lines) on local models.
    #[command(name = "bert-score")]
    BertScore(Box<bert_score::BertScoreCliArgs>),
    /// sacreBLEU 2.4.3's command line, output byte for byte (BLEU, chrF, TER; significance
    /// tests); `hauser sacrebleu --help` lists its options.
    Sacrebleu(sacrebleu::cli::SacrebleuArgs),
}

fn main() -> ExitCode {
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // Ctrl-C, SIGTERM and SIGHUP remove the temporary outputs before the process ends.
    hauser_cli::io::interrupt::install_handlers();
    if let Some(words) = sacrebleu::cli::own_words(&argv) {
        // sacreBLEU's words reach its own parser untouched, with its exit statuses (1, 2, 17)
        // and error lines, not hauser's.
        let args = sacrebleu::cli::SacrebleuArgs {
            args: words.to_vec(),
        };
        return args.run().exit();
    }
    let cli = Cli::parse_from(hauser_cli::metric::flags::expand_sacre_abbreviations(argv));
    if let Err(e) = files::check_settings() {
        return Outcome::failed(e).exit();
    }
    let command: &dyn Run = match &cli.command {
        Command::Score(args) => args,
        Command::Embed(args) => args,
        Command::Kb(args) => args,
        Command::Extract(args) => args,
        Command::MetaEval(args) => args,
        Command::Corr(args) => args,
        Command::Metric(args) => &**args,
        Command::Formality(args) => args,
        Command::Narratives(args) => args,
        Command::Newsmet(args) => args,
        Command::Classify(args) => args,
        Command::Rerank(args) => &**args,
        Command::CometScore(args) => &**args,
        Command::CometCompare(args) => &**args,
        Command::BertScore(args) => &**args,
        // `own_words` above took every `hauser sacrebleu` line; the subcommand stays in clap's
        // table for `hauser --help`.
        Command::Sacrebleu(args) => args,
    };
    command.run().exit()
}

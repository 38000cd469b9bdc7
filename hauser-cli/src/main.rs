//! `hauser`: evaluate and rerank figurative language from the command line.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

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
        return sacrebleu::cli::main(&sacrebleu::cli::SacrebleuArgs {
            args: words.to_vec(),
        });
    }
    let cli = Cli::parse_from(hauser_cli::metric::flags::expand_sacre_abbreviations(argv));
    let mut stderr = std::io::stderr();
    if let Err(e) = files::check_settings() {
        eprintln!("hauser: error: {e}");
        return ExitCode::from(e.exit_code());
    }
    let result = match &cli.command {
        Command::Score(args) => score::run(args, &mut stderr).map(|s| s.failed == 0),
        Command::Embed(args) => embed::run(args, &mut stderr).map(|s| s.failed == 0),
        Command::Extract(args) => extract::run(args, &mut stderr).map(|s| s.failed == 0),
        Command::MetaEval(args) => {
            meta_eval::run_meta_eval(args, &mut std::io::stdout().lock()).map(|_| true)
        }
        Command::Corr(args) => {
            meta_eval::run_corr(args, &mut std::io::stdout().lock()).map(|_| true)
        }
        Command::Metric(args) => metric::run(args, &mut std::io::stdout().lock()).map(|_| true),
        Command::Narratives(args) => {
            narratives::run(args, &mut std::io::stdout().lock(), &mut stderr)
        }
        Command::Classify(args) => classify::run(args),
        Command::Rerank(args) => rerank::run(args, &mut stderr),
        Command::Newsmet(args) => newsmet::run(args, &mut std::io::stdout().lock()),
        Command::Formality(args) => {
            formality::run(args, &mut std::io::stdout().lock()).map(|_| true)
        }
        Command::CometScore(args) => {
            comet::run_score(args, &mut std::io::stdout().lock()).map(|_| true)
        }
        Command::CometCompare(args) => {
            comet::run_compare(args, &mut std::io::stdout().lock()).map(|_| true)
        }
        Command::BertScore(args) => {
            // bert_score fails with a Python exception (an AssertionError for a missing file,
            // a length mismatch, `--idf` on one pair...): exit status 1, as there. Argument
            // errors stay clap's 2, as argparse's.
            return match bert_score::run(args, &mut std::io::stdout().lock()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => report(&e, 1),
            };
        }
        Command::Kb(args) => {
            kb::run(args, &mut std::io::stdout().lock(), &mut stderr).map(|_| true)
        }
        // `own_words` above took every `hauser sacrebleu` line; the subcommand stays in clap's
        // table for `hauser --help`.
        Command::Sacrebleu(args) => return sacrebleu::cli::main(args),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => report(&e, e.exit_code()),
    }
}

/// Prints a command's error and gives its exit status: `code`, or 130 after Ctrl-C.
fn report(e: &hauser_cli::error::CliError, code: u8) -> ExitCode {
    if e.is_interrupted() {
        eprintln!("hauser: interrupted");
        ExitCode::from(e.exit_code())
    } else {
        eprintln!("hauser: error: {e}");
        ExitCode::from(code)
    }
}

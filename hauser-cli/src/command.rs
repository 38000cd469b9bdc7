//! One shape for every subcommand: [`Run::run`] runs it on the process's standard streams and
//! gives an [`Outcome`] that carries its exit status, so that `main` is one match from the
//! parsed command line to the exit status, and each command's own rule for its exit status
//! (bert-score's 1 for every failure, sacreBLEU's own statuses) is written next to the others.

use std::io::{stderr, stdout};
use std::process::ExitCode;

use crate::drop_in::{bert_score, comet, sacrebleu};
use crate::error::CliError;
use crate::{classify, embed, extract, formality, kb, meta_eval, metric, narratives, newsmet};
use crate::{rerank, score};

/// A subcommand's arguments, ready to run.
pub trait Run {
    /// Runs the subcommand: its output on standard output (or the files it names), progress and
    /// per-record problems on standard error.
    fn run(&self) -> Outcome;
}

/// How a subcommand ended.
#[derive(Debug)]
pub enum Outcome {
    /// It ran to the end: exit status 0, or 1 when some records failed (each reported in the
    /// output as an error record, or on standard error).
    Done {
        /// Whether every record succeeded.
        all_succeeded: bool,
    },
    /// It stopped on an error: `hauser: error: MESSAGE` with exit status `code`, or
    /// `hauser: interrupted` with the error's own status (130) after Ctrl-C or a signal.
    Failed {
        /// What stopped it.
        error: CliError,
        /// The exit status (the error's own, but 1 for every error of bert-score).
        code: u8,
    },
    /// It reported its end itself, with this exit status (sacreBLEU's drop-in: its messages
    /// and statuses, 1, 2 or 17, are sacreBLEU's).
    Exited(ExitCode),
}

impl Outcome {
    /// A command that ends with its records' success, or with an error and the error's own exit
    /// status.
    pub fn of(result: Result<bool, CliError>) -> Self {
        match result {
            Ok(all_succeeded) => Outcome::Done { all_succeeded },
            Err(error) => Outcome::failed(error),
        }
    }

    /// An error with its own exit status.
    pub fn failed(error: CliError) -> Self {
        let code = error.exit_code();
        Outcome::Failed { error, code }
    }

    /// Prints what the outcome has to say on standard error and gives the exit status.
    pub fn exit(self) -> ExitCode {
        match self {
            Outcome::Done {
                all_succeeded: true,
            } => ExitCode::SUCCESS,
            Outcome::Done {
                all_succeeded: false,
            } => ExitCode::from(1),
            Outcome::Failed { error, .. } if error.is_interrupted() => {
                eprintln!("hauser: interrupted");
                ExitCode::from(error.exit_code())
            }
            Outcome::Failed { error, code } => {
                eprintln!("hauser: error: {error}");
                ExitCode::from(code)
            }
            Outcome::Exited(code) => code,
        }
    }
}

impl Run for score::ScoreArgs {
    fn run(&self) -> Outcome {
        Outcome::of(score::run(self, &mut stderr()).map(|s| s.failed == 0))
    }
}

impl Run for embed::EmbedArgs {
    fn run(&self) -> Outcome {
        Outcome::of(embed::run(self, &mut stderr()).map(|s| s.failed == 0))
    }
}

impl Run for extract::ExtractArgs {
    fn run(&self) -> Outcome {
        Outcome::of(extract::run(self, &mut stderr()).map(|s| s.failed == 0))
    }
}

impl Run for kb::KbArgs {
    fn run(&self) -> Outcome {
        Outcome::of(kb::run(self, &mut stdout().lock(), &mut stderr()).map(|()| true))
    }
}

impl Run for meta_eval::MetaEvalArgs {
    fn run(&self) -> Outcome {
        Outcome::of(meta_eval::run_meta_eval(self, &mut stdout().lock()).map(|_| true))
    }
}

impl Run for meta_eval::CorrArgs {
    fn run(&self) -> Outcome {
        Outcome::of(meta_eval::run_corr(self, &mut stdout().lock()).map(|_| true))
    }
}

impl Run for metric::MetricArgs {
    fn run(&self) -> Outcome {
        Outcome::of(metric::run(self, &mut stdout().lock()).map(|()| true))
    }
}

impl Run for formality::FormalityArgs {
    fn run(&self) -> Outcome {
        Outcome::of(formality::run(self, &mut stdout().lock()).map(|()| true))
    }
}

impl Run for narratives::NarrativesArgs {
    fn run(&self) -> Outcome {
        Outcome::of(narratives::run(self, &mut stdout().lock(), &mut stderr()))
    }
}

impl Run for newsmet::NewsmetArgs {
    fn run(&self) -> Outcome {
        Outcome::of(newsmet::run(self, &mut stdout().lock()))
    }
}

impl Run for classify::ClassifyArgs {
    fn run(&self) -> Outcome {
        Outcome::of(classify::run(self))
    }
}

impl Run for rerank::RerankArgs {
    fn run(&self) -> Outcome {
        Outcome::of(rerank::run(self, &mut stderr()))
    }
}

impl Run for comet::CometScoreArgs {
    fn run(&self) -> Outcome {
        Outcome::of(comet::run_score(self, &mut stdout().lock()).map(|()| true))
    }
}

impl Run for comet::CometCompareArgs {
    fn run(&self) -> Outcome {
        Outcome::of(comet::run_compare(self, &mut stdout().lock()).map(|()| true))
    }
}

impl Run for bert_score::BertScoreCliArgs {
    /// bert_score fails with a Python exception (an AssertionError for a missing file, a length
    /// mismatch, `--idf` on one pair...): exit status 1, as there. Argument errors stay clap's 2,
    /// as argparse's.
    fn run(&self) -> Outcome {
        match bert_score::run(self, &mut stdout().lock()) {
            Ok(()) => Outcome::Done {
                all_succeeded: true,
            },
            Err(error) => Outcome::Failed { error, code: 1 },
        }
    }
}

impl Run for sacrebleu::cli::SacrebleuArgs {
    /// sacreBLEU's words reach its own parser, with its exit statuses (1, 2, 17) and error
    /// lines, not hauser's.
    fn run(&self) -> Outcome {
        Outcome::Exited(sacrebleu::cli::main(self))
    }
}

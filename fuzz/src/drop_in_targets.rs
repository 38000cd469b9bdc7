//! The fuzz targets of the drop-in command lines (issue 37): `hauser sacrebleu`,
//! `hauser comet-score|comet-compare` and `hauser bert-score`. Included by `targets.rs`, which
//! lists them in `TARGETS`.
//!
//! The input is an argument list, one word per line (`\n`; a final newline ends the last word
//! instead of starting an empty one; the words are the bytes as the system passes them, not
//! necessarily UTF-8). Each target parses it as `hauser`'s `main` does: the words after
//! `hauser SUBCOMMAND` go through `flags::expand_sacre_abbreviations`, then through a
//! clap command that has the drop-ins' subcommands built from the same `Args` types as
//! `main.rs`'s `Cli` (`Args::augment_args`). A parse must never panic, and an accepted
//! argument list must pass through the checks the command makes before it reads a file,
//! without reading one.

use std::cell::RefCell;
use std::ffi::OsString;

use clap::{ArgMatches, Args, Command, FromArgMatches};

use hauser_cli::drop_in::bert_score::{self, BertScoreCliArgs};
use hauser_cli::drop_in::comet::{self, CometCommon, CometCompareArgs, CometScoreArgs};
use hauser_cli::drop_in::sacrebleu::args::{Parsed, SacreArgs, FORMATS, HELP, VERSION_LINE};
use hauser_cli::drop_in::sacrebleu::cli::SacrebleuArgs;
use hauser_cli::drop_in::sacrebleu::input::Encoding;
use hauser_cli::drop_in::sacrebleu::score::{Exit, Metric};
use hauser_cli::drop_in::sacrebleu::{self, testsets};
use hauser_cli::error::CliError;
use hauser_cli::metric::flags::expand_sacre_abbreviations;

use super::scratch;

/// The fuzzer's bytes as argument words (see the module's documentation).
fn argv_words(data: &[u8]) -> Vec<OsString> {
    let data = data.strip_suffix(b"\n").unwrap_or(data);
    if data.is_empty() {
        return Vec::new();
    }
    data.split(|&b| b == b'\n').map(os_word).collect()
}

#[cfg(unix)]
fn os_word(bytes: &[u8]) -> OsString {
    std::os::unix::ffi::OsStringExt::from_vec(bytes.to_vec())
}

#[cfg(not(unix))]
fn os_word(bytes: &[u8]) -> OsString {
    String::from_utf8_lossy(bytes).into_owned().into()
}

/// `hauser` with the drop-in subcommands, as `main.rs`'s `Cli` declares them.
fn drop_in_command() -> Command {
    Command::new("hauser")
        .version(env!("CARGO_PKG_VERSION"))
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommand(CometScoreArgs::augment_args(Command::new("comet-score")))
        .subcommand(CometCompareArgs::augment_args(Command::new(
            "comet-compare",
        )))
        .subcommand(BertScoreCliArgs::augment_args(Command::new("bert-score")))
        .subcommand(SacrebleuArgs::augment_args(Command::new("sacrebleu")))
}

thread_local! {
    /// Built once per thread; clap parses with it again and again.
    static CLI: RefCell<Command> = RefCell::new(drop_in_command());
}

/// `main`'s parse of `argv` (program name first): the subcommand and its matches, or `None`
/// when clap refuses the words (or prints help or the version), after checking its message.
fn parse_drop_in(argv: Vec<OsString>) -> Option<(String, ArgMatches)> {
    let argv = expand_sacre_abbreviations(argv);
    let result = CLI.with(|c| c.borrow_mut().try_get_matches_from_mut(argv));
    match result {
        Ok(m) => {
            let (name, sub) = m.subcommand().expect("a subcommand is required");
            Some((name.to_string(), sub.clone()))
        }
        Err(e) => {
            let text = e.render().to_string();
            assert!(!text.trim().is_empty(), "clap's message is empty: {e:?}");
            assert_eq!(e.exit_code(), if e.use_stderr() { 2 } else { 0 });
            None
        }
    }
}

/// `hauser sacrebleu`: the words go to sacreBLEU's own parser (`sacrebleu::args::parse`, which
/// expands sacreBLEU's abbreviations by argparse's rules) exactly as `sacrebleu::cli::main`
/// passes them. Checked: `main` hands every word after `sacrebleu` over unchanged, without
/// clap; `hauser metric`'s expansion of the same words
/// (`-tok` for `--tokenize`...) means the same to sacreBLEU's parser (its long names); help and
/// version print sacreBLEU's texts; an accepted line passes `run`'s checks before any file is
/// read (test set and language pair, encoding), and every metric it asks for is built with its
/// options, signed, and scores a two-line corpus (when the chrF orders are at most 16 and the
/// width at most 2,000) with a score that is not negative and a printable line.
pub fn sacrebleu_args(data: &[u8]) {
    let words = argv_words(data);
    check_metric_expansion(&words);
    let mut argv: Vec<OsString> = vec!["hauser".into(), "sacrebleu".into()];
    argv.extend(words.iter().cloned());
    // main.rs: the words after `sacrebleu` go to sacreBLEU's parser untouched (clap would drop
    // a leading `--`, which sacreBLEU's argparse reads as the end of its options, and answer a
    // first `--NAME` that is not UTF-8 itself).
    let own = sacrebleu::cli::own_words(&argv).expect("a sacrebleu command line");
    assert_eq!(
        own,
        &words[..],
        "main hands sacreBLEU's words over unchanged"
    );
    // sacrebleu::cli::main's conversion.
    let words: Vec<String> = own
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    match sacrebleu::args::parse(&words) {
        Parsed::Print(text) => assert!(
            text == HELP || text == format!("{VERSION_LINE}\n"),
            "{text:?}"
        ),
        Parsed::Error(message) => assert!(!message.is_empty()),
        Parsed::Run(a) => sacre_checks(&a, &words),
    }
}

/// `hauser metric` and `rerank` spell sacreBLEU's single-dash abbreviations out as long
/// flags: word for word, and (before a `--`) to the long names sacreBLEU's parser reads the
/// same way.
fn check_metric_expansion(words: &[OsString]) {
    let mut argv: Vec<OsString> = vec!["hauser".into(), "metric".into()];
    argv.extend(words.iter().cloned());
    let expanded = expand_sacre_abbreviations(argv.clone());
    assert_eq!(expanded.len(), argv.len(), "one word for one word");
    assert_eq!(expanded[..2], argv[..2]);
    let mut changed = false;
    for (before, after) in argv.iter().zip(&expanded).skip(2) {
        if before != after {
            changed = true;
            let short = before.to_str().expect("only UTF-8 words are expanded");
            let long = after.to_str().expect("a long flag");
            assert!(
                short.starts_with('-') && !short.starts_with("--") && long.starts_with("--"),
                "{short} expanded to {long}"
            );
        }
    }
    if !changed || words.iter().any(|w| w == "--") {
        return;
    }
    let lossy = |v: &[OsString]| -> Vec<String> {
        v.iter().map(|w| w.to_string_lossy().into_owned()).collect()
    };
    assert_eq!(
        sacrebleu::args::parse(&lossy(&expanded[2..])),
        sacrebleu::args::parse(&lossy(words)),
        "sacreBLEU reads the expanded flags as the abbreviations"
    );
}

/// A sacreBLEU refusal: exit status 1 (its own) or 2 (argparse's, or what the drop-in cannot
/// do), with a message.
fn check_exit(e: &Exit) {
    assert!(matches!(e.code, 1 | 2), "exit status {}", e.code);
    assert!(!e.message.is_empty());
}

/// The hypotheses and references of the two-line corpus the metrics score.
const SACRE_HYPS: [&str; 2] = ["The cat sat on the mat.", "Ein kleines Haus, 3.5 m hoch"];
const SACRE_REFS: [&str; 2] = ["The cat is on the mat.", "Ein Haus ist 3,5 m hoch"];

fn sacre_checks(a: &SacreArgs, words: &[String]) {
    assert!(!a.metrics.is_empty(), "at least one metric");
    for m in &a.metrics {
        assert!(["bleu", "chrf", "ter"].contains(&m.as_str()), "metric {m}");
    }
    assert!(FORMATS.contains(&a.format.as_str()), "format {}", a.format);
    for r in &a.refs {
        assert!(words.contains(r), "reference {r:?} is not a word");
    }
    // sacrebleu::cli::run's checks before a file is read, with the functions it calls.
    if let Some(t) = &a.test_set {
        for name in t.split(',') {
            let _ = testsets::lookup(name);
        }
        match testsets::check(t, a.langpair.as_deref(), !a.refs.is_empty()) {
            Ok(sets) => {
                assert!(!sets.is_empty());
                let lp = a.langpair.as_deref().expect("a test set needs -l");
                assert!(sets.iter().all(|s| s.refs(lp).is_some()));
            }
            Err(e) => check_exit(&e),
        }
    }
    if let Err(e) = Encoding::named(&a.encoding) {
        check_exit(&e);
    }
    let trg_lang = a.langpair.as_deref().and_then(|lp| lp.split('-').nth(1));
    let width = usize::try_from(a.width).ok().filter(|&w| w <= 2000);
    let small_orders =
        (0..=16).contains(&a.chrf_char_order) && (0..=16).contains(&a.chrf_word_order);
    let hyps: Vec<String> = SACRE_HYPS.iter().map(|s| s.to_string()).collect();
    let refs: Vec<Vec<String>> = SACRE_REFS.iter().map(|s| vec![s.to_string()]).collect();
    for name in &a.metrics {
        let metric = match Metric::new(name, a, trg_lang) {
            Ok(m) => m,
            Err(e) => {
                check_exit(&e);
                continue;
            }
        };
        let json = a.format == "json";
        let sig = metric.signature(1, &[]).format(a.short && !json);
        assert!(
            sig.ends_with("version:2.4.3") || sig.ends_with("v:2.4.3"),
            "{sig}"
        );
        let (Some(width), true) = (width, small_orders) else {
            continue;
        };
        let score = metric.score(&hyps, &refs);
        assert!(
            score.score.is_nan() || score.score >= 0.0,
            "{name}: {}",
            score.score
        );
        assert!(!score.format(width, a.score_only, &sig, json).is_empty());
    }
}

/// A path in the target's scratch directory where nothing is: `--model` for the comet
/// commands, so that their runs stop at the model, before any file is read.
fn missing_model(given: &str) -> String {
    let dir = scratch("no-comet-model-here");
    let path = if given.ends_with(".ckpt") {
        dir.join("checkpoints").join("model.ckpt")
    } else {
        dir
    };
    path.to_str().expect("a UTF-8 scratch path").to_string()
}

/// The refusal comet's commands make first, in their order (`None`: none, the run goes on to
/// the model).
fn comet_refusal(c: &CometCommon) -> Option<&'static str> {
    if c.sacrebleu_dataset.is_some() {
        Some("-d/--sacrebleu_dataset")
    } else if c.sources.is_none() {
        Some("You must specify a source (-s)")
    } else if c.model_storage_path.is_some() {
        Some("--model_storage_path")
    } else if c.print_cache_info {
        Some("--print_cache_info")
    } else if c.gpus > 1 {
        Some("--gpus")
    } else {
        None
    }
}

/// The run's error: exit status 2, and the first refusal or the missing model.
fn check_comet_error(result: Result<(), CliError>, out: &[u8], first: Option<&str>, model: &str) {
    let e = result.expect_err("no model: the run cannot succeed");
    assert!(out.is_empty(), "nothing printed before the model");
    assert_eq!(e.exit_code(), 2, "{e}");
    let message = e.to_string();
    match first {
        Some(start) => assert!(message.contains(start), "{message}"),
        None => assert!(
            message.contains(model) && message.contains("not a local COMET checkpoint"),
            "{message}"
        ),
    }
}

/// `hauser comet-score` and `comet-compare` (the first word names the subcommand; other
/// words return at once). An accepted line runs the command with `--model` moved to a path
/// where nothing is: the run makes comet's refusals in comet's order (`--enable-context`,
/// fewer than two systems to compare, `-d`, no `-s`, `--model_storage_path`,
/// `--print_cache_info`, `--gpus` above 1) and otherwise stops at the missing model, with exit
/// status 2, having printed and read nothing. comet-compare's statistics then run with the
/// line's `--num_splits`, `--sample_ratio` and `--t_test_alternative` on three systems of five
/// segments (when the splits are at most 1,000 and the draws few): results or an error.
pub fn comet_args(data: &[u8]) {
    let words = argv_words(data);
    let score = match words.first().and_then(|w| w.to_str()) {
        Some("comet-score") => true,
        Some("comet-compare") => false,
        _ => return,
    };
    let mut argv: Vec<OsString> = vec!["hauser".into()];
    argv.extend(words);
    let Some((_, m)) = parse_drop_in(argv) else {
        return;
    };
    let mut out = Vec::new();
    if score {
        let mut a = CometScoreArgs::from_arg_matches(&m).expect("comet-score's matches");
        assert!(!a.translations.is_empty() && a.batch_size >= 1);
        a.common.model = missing_model(&a.common.model);
        let first = if a.enable_context {
            Some("--enable-context")
        } else {
            comet_refusal(&a.common)
        };
        let result = comet::run_score(&a, &mut out);
        check_comet_error(result, &out, first, &a.common.model);
    } else {
        let mut a = CometCompareArgs::from_arg_matches(&m).expect("comet-compare's matches");
        assert!(!a.translations.is_empty() && a.batch_size >= 1);
        a.common.model = missing_model(&a.common.model);
        let first = if a.translations.len() < 2 {
            Some("You must provide at least 2 translation files")
        } else {
            comet_refusal(&a.common)
        };
        let result = comet::run_compare(&a, &mut out);
        check_comet_error(result, &out, first, &a.common.model);
        comet_compare_statistics(&a);
    }
}

/// comet-compare's statistics with the line's options on made-up scores.
fn comet_compare_statistics(a: &CometCompareArgs) {
    use figlang_metrics::neural::{comet_compare, CometCompare};
    use figlang_metrics::stats::Alternative;
    let alternative =
        Alternative::parse(&a.t_test_alternative).expect("clap allows the three alternatives");
    let n = 5;
    let draws = a.sample_ratio * n as f64;
    if a.num_splits > 1000 || draws.is_nan() || draws > 1000.0 {
        return;
    }
    let systems: Vec<Vec<f64>> = (0..3)
        .map(|s| {
            (0..n)
                .map(|i| 0.3 + 0.1 * ((i * (s + 2)) % 5) as f64)
                .collect()
        })
        .collect();
    let cfg = CometCompare {
        num_splits: a.num_splits,
        sample_ratio: a.sample_ratio,
        alternative,
        ..CometCompare::default()
    };
    match comet_compare(&systems, &cfg) {
        Ok(pairs) => {
            assert_eq!(pairs.len(), 3, "every pair of three systems");
            for p in &pairs {
                let shares = p.ties + p.x_wins + p.y_wins;
                assert!(
                    (shares - 1.0).abs() < 1e-9,
                    "ties and wins add up: {shares}"
                );
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

/// `hauser bert-score`: an accepted line names its references and candidate, and passes the
/// refusals bert_score makes before a file is read (`bert_score::model_type`: neither
/// `-m` nor `--lang`; `--rescale_with_baseline` without `--lang`) exactly when it should; the
/// model is `-m`'s, else the one of `--lang`, and its default layer is looked up.
pub fn bert_score_args(data: &[u8]) {
    let mut argv: Vec<OsString> = vec!["hauser".into(), "bert-score".into()];
    argv.extend(argv_words(data));
    let Some((name, m)) = parse_drop_in(argv) else {
        return;
    };
    assert_eq!(name, "bert-score");
    let a = BertScoreCliArgs::from_arg_matches(&m).expect("bert-score's matches");
    assert!(!a.refs.is_empty() && a.batch_size >= 1);
    let refused =
        (a.model.is_none() && a.lang.is_none()) || (a.rescale_with_baseline && a.lang.is_none());
    match bert_score::model_type(&a) {
        Ok(model) => {
            assert!(!refused, "accepted without -m/--lang: {a:?}");
            if let Some(m) = &a.model {
                assert_eq!(&model, m);
            }
            let _ = figlang_metrics::neural::default_layer(&model);
        }
        Err(e) => {
            assert!(refused, "refused: {e}");
            assert_eq!(e.exit_code(), 2, "{e}");
        }
    }
    let _ = a.device.load_options(a.batch_size);
}

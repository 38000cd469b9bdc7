//! `hauser sacrebleu`: a drop-in for sacreBLEU 2.4.3's command line. It takes sacreBLEU's
//! argument list ([`super::args`]), checks it in sacreBLEU's order with its exit
//! statuses (1 for its own refusals, 2 for argparse's, 17 for a malformed input stream) and
//! prints what sacreBLEU prints on standard output, byte for byte
//! (the `format` module), with the metrics of figlang-metrics
//! ([`super::score`]).
//!
//! Differences, all documented in docs/DROP-IN.md: test sets (`-t`, `--echo`, `--download`) are
//! read from sacreBLEU's cache ([`super::testsets`]) and refused with exit status 2
//! when it lacks them (there is no network), `--list` and `--citation` likewise; the MeCab and
//! SentencePiece tokenizers too; `--paired-bs -f
//! json` prints valid JSON where sacreBLEU crashes on NumPy's float32; a UTF-8 byte-order mark
//! is dropped, as by every hauser command; `*.gz` inputs are decompressed, as by sacreBLEU.

use std::ffi::OsString;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use clap::Args;

use figlang_metrics::text::significance::{sacrebleu_seed, Resampling};

use super::args::{self, Parsed, SacreArgs, FORMATS};
use super::format::{align_single, dumps, fixed, paint, paint_confidence, Json, Table};
use super::input::{download, echo, read_refs, read_systems, testset_refs, Encoding};
use super::score::{Exit, Metric, Score};
use super::testsets::{self as testsets, unavailable as no_test_sets};
use crate::io::files;

/// `hauser sacrebleu`'s arguments: sacreBLEU's own, read by [`args::parse`].
#[derive(Debug, Clone, Args)]
#[command(disable_help_flag = true, disable_version_flag = true)]
pub struct SacrebleuArgs {
    /// sacreBLEU 2.4.3's arguments (`hauser sacrebleu --help` lists them).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    pub args: Vec<OsString>,
}

/// The words of a `hauser sacrebleu ...` command line (`argv` as the system gives it, program
/// name first): everything after `sacrebleu`, untouched, or `None` for another command.
/// `main` hands them to sacreBLEU's parser directly rather than through clap, which would drop
/// a leading `--` (sacreBLEU's argparse reads what follows it as references) and answer a
/// first `--NAME` that is not UTF-8 with its own message.
pub fn own_words(argv: &[OsString]) -> Option<&[OsString]> {
    match argv {
        [_, command, words @ ..] if command == "sacrebleu" => Some(words),
        _ => None,
    }
}

/// Runs `hauser sacrebleu`: its exit status.
pub fn main(args: &SacrebleuArgs) -> ExitCode {
    if let Err(e) = files::check_settings() {
        eprintln!("hauser: error: {e}");
        return ExitCode::from(e.exit_code());
    }
    let words: Vec<String> = args
        .args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let mut stdout = std::io::stdout().lock();
    let mut out = Vec::new();
    let result = run(&words, &mut out);
    // Whatever was printed before a failure stays printed, as in sacreBLEU (-sl prints line by
    // line). A write that fails (a full disk, an I/O error) is an error as in every hauser
    // command: sacreBLEU's own interpreter exits non-zero there too, and a full disk must never
    // look like success. A closed pipe (`| head -1`) is the reader's choice, not worth a
    // message.
    let written = stdout.write_all(&out).and_then(|()| stdout.flush());
    if let Err(e) = written {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!(
                "hauser: error: {}",
                crate::error::CliError::io("<stdout>", e)
            );
            if result.is_ok() {
                return ExitCode::from(2);
            }
        }
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if e.code == 2 && e.message.starts_with("usage: ") {
                eprintln!("{}", e.message);
            } else {
                for line in e.message.lines() {
                    eprintln!("sacreBLEU: {line}");
                }
            }
            ExitCode::from(e.code)
        }
    }
}

fn argparse_error(msg: &str) -> Exit {
    Exit::unsupported(format!("{}\nsacrebleu: error: {msg}", args::usage()))
}

/// Runs sacreBLEU's `main()` on `words`, writing its standard output to `out`.
///
/// # Errors
/// sacreBLEU's refusals with its exit statuses.
pub fn run(words: &[String], out: &mut Vec<u8>) -> Result<(), Exit> {
    let mut a = match args::parse(words) {
        Parsed::Run(a) => *a,
        Parsed::Print(text) => {
            out.extend_from_slice(text.as_bytes());
            return Ok(());
        }
        Parsed::Error(msg) => return Err(argparse_error(&msg)),
    };
    if let Ok(f) = std::env::var("SACREBLEU_FORMAT") {
        let f = f.to_lowercase();
        if FORMATS.contains(&f.as_str()) {
            a.format = f;
        }
    }
    // sacreBLEU colours through colorama, which writes colours to terminals only, and whose
    // exit handler then resets the terminal's style, whatever the outcome.
    let color = !a.no_color
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        && std::io::IsTerminal::is_terminal(&std::io::stdout());
    let result = run_parsed(a, color, out);
    if color {
        out.extend_from_slice(b"\x1b[0m");
    }
    result
}

/// sacreBLEU's `main()` after its arguments were read.
fn run_parsed(mut a: SacreArgs, color: bool, out: &mut Vec<u8>) -> Result<(), Exit> {
    let paired = a.paired_bs || a.paired_ar;
    if let Some(name) = &a.download {
        return download(name, a.langpair.as_deref());
    }
    if a.list {
        return Err(no_test_sets("--list"));
    }
    if a.sentence_level && a.metrics.len() > 1 {
        return Err(Exit::one(
            "Only one metric can be used in sentence-level mode.",
        ));
    }
    if a.citation {
        let Some(t) = &a.test_set else {
            return Err(Exit::one("I need a test set (-t)."));
        };
        if let Some(unknown) = t.split(',').find(|n| testsets::lookup(n).is_none()) {
            return Err(Exit::one(format!("KeyError: {unknown:?}")));
        }
        // The BibTeX entries are sacreBLEU's registry text, which is not carried here.
        return Err(no_test_sets("--citation"));
    }
    if a.num_refs != 1 && (a.test_set.is_some() || a.refs.len() > 1) {
        return Err(Exit::one(
            "The --num-refs argument allows you to provide any number of tab-delimited references in a single file.\n\
             You can only use it with externally provided references, however (i.e., not with `-t`),\n\
             and you cannot then provide multiple reference files.",
        ));
    }
    let sets = match &a.test_set {
        Some(t) => testsets::check(t, a.langpair.as_deref(), !a.refs.is_empty())?,
        None if a.refs.is_empty() => {
            return Err(Exit::one(
                "If manual references given, make sure to provide them before the -i/--input argument to avoid confusion.\n\
                 Otherwise, I need a predefined test set (-t).",
            ))
        }
        None => Vec::new(),
    };
    if let Some(fields) = &a.echo {
        let Some(lp) = a.langpair.as_deref().filter(|_| !sets.is_empty()) else {
            return Err(Exit::one(
                "--echo requires a test set (--t) and a language pair (-l)",
            ));
        };
        if a.origlang.is_some() || a.subset.is_some() {
            return Err(no_test_sets("--origlang/--subset"));
        }
        return echo(&sets, lp, fields, out);
    }
    if !sets.is_empty() && (a.origlang.is_some() || a.subset.is_some() || a.detail) {
        // The document annotations live in the raw XML/SGML files, which are not read here.
        return Err(no_test_sets("--origlang/--subset/--detail with -t"));
    }
    let trg_lang = match &a.langpair {
        Some(lp) => match lp.split('-').nth(1) {
            Some(t) => Some(t.to_string()),
            None => return Err(Exit::one(format!("IndexError: -l {lp:?} has no '-'"))),
        },
        None => None,
    };
    let encoding = Encoding::named(&a.encoding)?;
    let stdin_hyps = a.input.is_none();
    // Every file the run reads, checked as every hauser command checks them (one rule,
    // crate::io::run_files): at most one standard input, and standard output neither written
    // nor appended to any of them (`>> hyp.txt` would feed the scores back into the input).
    let lp = a.langpair.as_deref().unwrap_or_default();
    let cached: Vec<std::path::PathBuf> = sets
        .iter()
        .flat_map(|s| {
            s.refs(lp)
                .unwrap_or_default()
                .iter()
                .filter_map(|f| s.cached(lp, f).ok())
        })
        .collect();
    let hyps: Vec<&Path> = match &a.input {
        Some(inputs) => inputs.iter().map(Path::new).collect(),
        None => vec![Path::new("-")],
    };
    let hyp_flag = if stdin_hyps {
        "the hypotheses (no -i)"
    } else {
        "-i"
    };
    files::RunFiles::new()
        .inputs("a reference", a.refs.iter().map(Path::new))
        .inputs(hyp_flag, hyps)
        .inputs("-t", &cached)
        .check()
        .map_err(|e| Exit::unsupported(e.to_string()))?;

    let streams = if sets.is_empty() {
        read_refs(&a, encoding)?
    } else {
        testset_refs(&sets, a.langpair.as_deref().unwrap_or_default(), encoding)?
    };
    let (systems, names) = read_systems(&a, encoding, paired, stdin_hyps)?;
    check_modes(&a, paired, systems.len())?;
    if a.origlang.is_some() || a.subset.is_some() {
        return Err(Exit::one(
            "ValueError: Filtering for --origlang or --subset needs a test (-t) and a language pair (-l).",
        ));
    }
    for system in &systems {
        if system.is_empty() {
            return Err(Exit::one("Test set None contains no sentence"));
        }
        if streams.iter().any(|s| s.len() != system.len()) {
            return Err(Exit::one(
                "System and reference streams have different lengths.",
            ));
        }
    }
    let mut metrics: Vec<(String, Metric)> = Vec::new();
    for name in &a.metrics {
        if !metrics.iter().any(|(n, _)| n == name) {
            metrics.push((name.clone(), Metric::new(name, &a, trg_lang.as_deref())?));
        }
    }
    let per_hyp: Vec<Vec<String>> = (0..streams.first().map_or(0, Vec::len))
        .map(|i| streams.iter().map(|s| s[i].clone()).collect())
        .collect();
    let width = usize::try_from(a.width)
        .map_err(|_| Exit::one("ValueError: Format specifier missing precision"))?;
    if width > i32::MAX as usize {
        // Python's float formatting refuses a precision above INT_MAX (here: an abort).
        return Err(Exit::one("ValueError: precision too big"));
    }
    if a.sentence_level {
        let Some((_, metric)) = metrics.first() else {
            return Ok(());
        };
        let Some(system) = systems.first() else {
            return Err(Exit::one("IndexError: no system to score"));
        };
        for (hyp, refs) in system.iter().zip(&per_hyp) {
            let score = metric.score(std::slice::from_ref(hyp), std::slice::from_ref(refs));
            let sig = metric.signature(refs.len(), &[]).format(a.short);
            let line = score.format(width, a.score_only, &sig, false);
            out.extend_from_slice(line.as_bytes());
            out.push(b'\n');
        }
        return Ok(());
    }
    if a.detail && a.format == "json" {
        // sacreBLEU: the translationese details would interfere with JSON.
        a.format = "text".into();
    }
    let sorted_keys = |m: &[(String, Metric)]| -> Vec<usize> {
        let mut idx: Vec<usize> = (0..m.len()).collect();
        idx.sort_by_key(|&i| m[i].0.to_uppercase());
        idx
    };
    let ctx = Ctx {
        a: &a,
        color,
        width,
        streams: &streams,
        per_hyp: &per_hyp,
    };
    if systems.len() == 1 {
        let order = sorted_keys(&metrics);
        ctx.single(&metrics, &order, &systems[0], out)
    } else {
        // Paired tests keep the metrics in the order given; the plain table sorts them.
        let order: Vec<usize> = if paired {
            let mut idx: Vec<usize> = (0..metrics.len()).collect();
            idx.sort_by_key(|&i| a.metrics.iter().position(|m| *m == metrics[i].0));
            idx
        } else {
            sorted_keys(&metrics)
        };
        ctx.multi(&metrics, &order, &systems, &names, paired, out)
    }
}

/// The refusals that depend on how many systems were read.
fn check_modes(a: &SacreArgs, paired: bool, n_sys: usize) -> Result<(), Exit> {
    if a.sentence_level {
        if n_sys > 1 {
            return Err(Exit::one(
                "Only one system can be evaluated in sentence-level mode.",
            ));
        }
        if a.confidence || paired {
            return Err(Exit::one(
                "Statistical tests are unavailable in sentence-level mode.",
            ));
        }
    }
    if paired && n_sys == 1 {
        return Err(Exit::one(
            "Paired tests require multiple input systems given to --input (-i).",
        ));
    }
    if n_sys > 1 && a.confidence {
        return Err(Exit::one(
            "Use paired tests (--paired) for multiple systems.",
        ));
    }
    if paired && n_sys == 0 {
        return Err(Exit::one("IndexError: paired tests need a baseline system"));
    }
    if paired && a.paired_jobs < 0 {
        return Err(Exit::one(
            "ValueError: Number of processes must be at least 1",
        ));
    }
    Ok(())
}

/// What the corpus-level outputs share.
struct Ctx<'a> {
    a: &'a SacreArgs,
    /// Colours on (a terminal).
    color: bool,
    width: usize,
    streams: &'a [Vec<String>],
    per_hyp: &'a [Vec<String>],
}

/// The seed sacreBLEU's resampling reads from `SACREBLEU_SEED`, and the raw text it writes
/// into `--confidence` signatures (lowercased, unparsed).
fn seed() -> Result<(Resampling, String), Exit> {
    let raw = std::env::var("SACREBLEU_SEED").ok();
    let seed = sacrebleu_seed(raw.as_deref()).map_err(|e| Exit::one(format!("ValueError: {e}")))?;
    let text = raw.map_or("12345".to_string(), |r| r.to_lowercase());
    Ok((Resampling { n_samples: 1, seed }, text))
}

impl Ctx<'_> {
    fn single(
        &self,
        metrics: &[(String, Metric)],
        order: &[usize],
        system: &[String],
        out: &mut Vec<u8>,
    ) -> Result<(), Exit> {
        let a = self.a;
        let json = a.format == "json";
        let mut results = Vec::new();
        for &i in order {
            let metric = &metrics[i].1;
            let mut score: Score = metric.score(system, self.per_hyp);
            let mut resampling = Vec::new();
            if a.confidence && a.confidence_n > 1 {
                let (mut r, text) = seed()?;
                r.n_samples = a.confidence_n as usize;
                score.ci = Some(metric.confidence(system, self.streams, &r)?);
                resampling.push(("bs", a.confidence_n.to_string()));
                resampling.push(("seed", text));
            }
            let sig = metric
                .signature(self.streams.len(), &resampling)
                .format(a.short && !json);
            results.push(score.format(self.width, a.score_only, &sig, json));
        }
        let text = if json {
            if results.len() > 1 {
                format!("[\n{}\n]\n", results.join(",\n"))
            } else {
                format!("{}\n", results.join(""))
            }
        } else {
            if results.first().is_some_and(|r| r.contains('μ')) {
                for r in &mut results {
                    *r = paint_confidence(r, self.color);
                }
            }
            align_single(&results)
        };
        out.extend_from_slice(text.as_bytes());
        if a.detail {
            out.extend_from_slice(
                b"No subset information found. Consider using --origlang argument.\n",
            );
        }
        Ok(())
    }

    fn multi(
        &self,
        metrics: &[(String, Metric)],
        order: &[usize],
        systems: &[Vec<String>],
        names: &[String],
        paired: bool,
        out: &mut Vec<u8>,
    ) -> Result<(), Exit> {
        let a = self.a;
        let w = self.width;
        // Columns: (header, cells as text, cells as JSON), and the signatures.
        let mut columns: Vec<(String, Vec<String>, Vec<Json>)> = Vec::new();
        let mut sigs: Vec<(String, String)> = Vec::new();
        if !paired {
            for &i in order {
                let metric = &metrics[i].1;
                let cells: Vec<String> = systems
                    .iter()
                    .map(|s| fixed(metric.score(s, self.per_hyp).score, w))
                    .collect();
                let json = cells.iter().map(|c| Json::Str(c.clone())).collect();
                sigs.push((
                    metric.name.clone(),
                    metric.signature(self.streams.len(), &[]).format(a.short),
                ));
                columns.push((metric.name.clone(), cells, json));
            }
        } else {
            let bootstrap = a.paired_bs;
            let asked = if bootstrap {
                a.paired_bs_n
            } else {
                a.paired_ar_n
            };
            let n = if asked > 0 {
                asked as usize
            } else if bootstrap {
                1000
            } else {
                10000
            };
            let (mut r, _) = seed()?;
            r.n_samples = n;
            let seed_text = r.seed.map_or("none".to_string(), |s| s.to_string());
            let key = if bootstrap { "bs" } else { "ar" };
            let multiline = a.format == "text";
            let mut any_bootstrap = false;
            for &i in order {
                let metric = &metrics[i].1;
                let results =
                    metric.paired(&systems[0], &systems[1..], self.streams, bootstrap, &r)?;
                let mut cells = Vec::new();
                let mut json = Vec::new();
                for res in &results {
                    let mut s = fixed(res.score, w);
                    if let (Some(m), Some(c)) = (res.mean, res.ci) {
                        any_bootstrap = true;
                        s.push_str(&format!(" ({} ± {})", fixed(m, w), fixed(c, w)));
                    }
                    if let Some(p) = res.p_value {
                        s.push(if multiline { '\n' } else { ' ' });
                        let text = format!("(p = {})", fixed(p, 4));
                        // sacreBLEU stars every p-value that is not above 0.05 (NaN included)
                        // and paints the others red.
                        if p > 0.05 {
                            s.push_str(&paint(&text, "red", self.color));
                        } else {
                            s.push_str(&text);
                            s.push('*');
                        }
                    }
                    cells.push(s);
                    let opt = |v: Option<f64>| v.map_or(Json::Null, Json::Float);
                    json.push(Json::Object(vec![
                        ("score".into(), Json::Float(res.score)),
                        ("p_value".into(), opt(res.p_value)),
                        ("mean".into(), opt(res.mean)),
                        ("ci".into(), opt(res.ci)),
                    ]));
                }
                let mut header = metric.name.clone();
                if any_bootstrap {
                    header.push_str(" (μ ± 95% CI)");
                }
                let sig = metric.signature(
                    self.streams.len(),
                    &[(key, n.to_string()), ("seed", seed_text.clone())],
                );
                sigs.push((metric.name.clone(), sig.format(a.short)));
                columns.push((header, cells, json));
            }
        }
        if a.format == "json" {
            let rows = (0..systems.len())
                .map(|s| {
                    let mut obj = vec![("system".to_string(), Json::Str(names[s].clone()))];
                    for (i, (_, _, json)) in columns.iter().enumerate() {
                        // JSON keys are the metric names, without the CI suffix.
                        let name = sigs[i].0.clone();
                        super::format::dict_set(&mut obj, &name, json[s].clone());
                    }
                    Json::Object(obj)
                })
                .collect();
            out.extend_from_slice(dumps(&Json::Array(rows), 4, true).as_bytes());
            out.push(b'\n');
            return Ok(());
        }
        if systems.is_empty() {
            // sacreBLEU colours the first cell of each column before drawing the table.
            return Err(Exit::one(
                "IndexError: no system to tabulate (-i without files)",
            ));
        }
        let c = self.color;
        let mut headers = vec![paint("System", "cyan", c)];
        headers.extend(columns.iter().map(|col| paint(&col.0, "cyan", c)));
        let mut rows: Vec<Vec<String>> = (0..systems.len())
            .map(|s| {
                let mut row = vec![names[s].clone()];
                row.extend(columns.iter().map(|col| col.1[s].clone()));
                row
            })
            .collect();
        // The baseline's row is yellow (sacreBLEU: every column from the first whose first
        // cell starts with `Baseline:`).
        let from = (0..headers.len()).find(|&k| rows[0][k].starts_with("Baseline:"));
        if let Some(from) = from {
            for cell in rows[0].iter_mut().skip(from) {
                *cell = paint(cell, "yellow", c);
            }
        }
        let table = Table { headers, rows };
        let text = if a.format == "latex" {
            table.latex_booktabs()
        } else {
            table.fancy_grid()
        };
        out.extend_from_slice(text.as_bytes());
        out.push(b'\n');
        if paired {
            out.extend_from_slice(paired_explanation(a, names, c).as_bytes());
        }
        let mut tail = String::from("-----------------\nMetric signatures\n-----------------\n");
        for (name, sig) in &sigs {
            tail.push_str(&format!(" - {name:<10} {sig}\n"));
        }
        out.extend_from_slice(tail.as_bytes());
        Ok(())
    }
}

/// The text sacreBLEU prints under a paired test's table.
fn paired_explanation(a: &SacreArgs, names: &[String], color: bool) -> String {
    let (test, n, unit) = if a.paired_bs {
        ("bootstrap resampling", a.paired_bs_n, "resampling trials")
    } else {
        ("approximate randomization", a.paired_ar_n, "trials")
    };
    let baseline = names
        .first()
        .filter(|n| n.starts_with("Baseline:"))
        .cloned()
        .unwrap_or_default();
    let msg = format!("Paired {test} test with {n} {unit}");
    let rule = "-".repeat(msg.chars().count());
    let mut s = format!("{rule}\n{msg}\n{rule}\n");
    let bline = paint("baseline", "yellow", color);
    let null = paint("Null hypothesis", "green", color);
    let null_lc = null.to_lowercase();
    s.push_str(&format!(
        " - Each system is pairwise compared to {}.\n",
        paint(&baseline, "yellow", color)
    ));
    if a.paired_bs {
        s.push_str("   Actual system score / bootstrap estimated true mean / 95% CI are provided for each metric.\n");
    } else {
        s.push_str("   Actual system score is provided for each metric.\n");
    }
    s.push_str(&format!(
        "\n - {null}: the system and the {bline} translations are essentially\n   \
         generated by the same underlying process. For a given system and the {bline},\n   \
         the p-value is roughly the probability of the absolute score difference (delta)\n   \
         or higher occurring due to chance, under the assumption that the {null_lc} is correct.\n\n \
         - Assuming a significance threshold of 0.05, the {null_lc} can be rejected\n   \
         for p-values < 0.05 (marked with \"*\"). This means that the delta is unlikely to be attributed\n   \
         to chance, hence the system is significantly \"different\" than the {bline}.\n   \
         Otherwise, the p-values are {}.\n\n \
         - NOTE: Significance does not tell whether a system is \"better\" than the {bline} but rather\n   \
         emphasizes the \"difference\" of the systems in terms of the replicability of the delta.\n\n",
        paint("highlighted in red", "red", color)
    ));
    s
}

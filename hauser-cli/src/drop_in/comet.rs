//! `hauser comet-score` and `hauser comet-compare`: unbabel-comet 2.2.7's commands of the same
//! names, with their arguments, their printed lines and their `--to_json` files, on local
//! checkpoints (a `.ckpt` file as comet takes it, or the model directory holding
//! `hparams.yaml` and `checkpoints/model.ckpt`). See docs/DROP-IN-COMET-BERTSCORE.md.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use figlang_metrics::neural::Comet;
use figlang_metrics::neural::{comet_compare, CometCompare};
use figlang_metrics::stats::Alternative;
use hauser_nli::{CometModel, CometPrediction, LoadOptions};

use crate::drop_in::py_text::{dumps, Json};
use crate::drop_in::{fixed, python_lines, str_list};
use crate::error::CliError;
use crate::flags;
use crate::io::out_file::OutputFile;
use crate::io::run_files::RunFiles;

/// The arguments both commands share (comet's names and defaults).
#[derive(Debug, Clone, Args)]
pub struct CometCommon {
    /// Source file, one segment a line.
    #[arg(short = 's', long = "sources", value_name = "SOURCES")]
    pub sources: Option<PathBuf>,
    /// Reference file (optional for quality-estimation models).
    #[arg(short = 'r', long = "references", value_name = "REFERENCES")]
    pub references: Option<PathBuf>,
    /// A sacreBLEU test set (refused: hauser downloads nothing; give -s and -r).
    #[arg(
        short = 'd',
        long = "sacrebleu_dataset",
        value_name = "SACREBLEU_DATASET"
    )]
    pub sacrebleu_dataset: Option<String>,
    /// 0 scores on the CPU; 1 (comet's default) on --device (the CPU unless given); more than
    /// one is refused.
    #[arg(long = "gpus", default_value_t = 1, value_name = "GPUS", allow_negative_numbers = true, value_parser = flags::count)]
    pub gpus: usize,
    /// No progress output (hauser prints none; accepted).
    #[arg(long)]
    pub quiet: bool,
    /// Prints only the final system scores.
    #[arg(long = "only_system")]
    pub only_system: bool,
    /// Also writes the results to this JSON file (comet's layout).
    #[arg(long = "to_json", value_name = "TO_JSON", default_value = "")]
    pub to_json: String,
    /// COMET model: a checkpoint file (`.../checkpoints/model.ckpt`) or its model directory
    /// (hparams.yaml, checkpoints/model.ckpt). Hub names are refused (no downloads).
    #[arg(long, value_name = "MODEL", default_value = "Unbabel/wmt22-comet-da")]
    pub model: String,
    /// Where comet stores downloaded models (refused: give --model a local checkpoint).
    #[arg(long = "model_storage_path", value_name = "MODEL_STORAGE_PATH")]
    pub model_storage_path: Option<PathBuf>,
    /// Data-loading workers (accepted; no effect).
    #[arg(long = "num_workers", value_name = "NUM_WORKERS", allow_negative_numbers = true, value_parser = flags::count)]
    pub num_workers: Option<usize>,
    /// Disables comet's sentence-embedding cache (accepted; no effect on the scores).
    #[arg(long = "disable_cache")]
    pub disable_cache: bool,
    /// Disables sorting by length before batching (accepted; the system score is then summed
    /// in file order, as comet sums it).
    #[arg(long = "disable_length_batching")]
    pub disable_length_batching: bool,
    /// comet's cache statistics (refused: hauser has no such cache).
    #[arg(long = "print_cache_info")]
    pub print_cache_info: bool,
    /// Device and precision of the model (hauser's options).
    #[command(flatten)]
    pub device: flags::DeviceArgs,
}

/// `hauser comet-score`.
#[derive(Debug, Clone, Args)]
pub struct CometScoreArgs {
    /// Translation files, one system each.
    #[arg(short = 't', long = "translations", value_name = "TRANSLATIONS", num_args = 1.., required = true)]
    pub translations: Vec<PathBuf>,
    /// Segments per forward pass.
    #[arg(long = "batch_size", default_value_t = 16, allow_negative_numbers = true, value_parser = flags::batch_size, value_name = "BATCH_SIZE")]
    pub batch_size: usize,
    /// comet's context extension (refused: not supported).
    #[arg(long = "enable-context")]
    pub enable_context: bool,
    /// The arguments both commands share.
    #[command(flatten)]
    pub common: CometCommon,
}

/// `hauser comet-compare`.
#[derive(Debug, Clone, Args)]
pub struct CometCompareArgs {
    /// Translation files, at least two systems.
    #[arg(short = 't', long = "translations", value_name = "TRANSLATIONS", num_args = 1.., required = true)]
    pub translations: Vec<PathBuf>,
    /// Segments per forward pass.
    #[arg(long = "batch_size", default_value_t = 8, allow_negative_numbers = true, value_parser = flags::batch_size, value_name = "BATCH_SIZE")]
    pub batch_size: usize,
    /// Bootstrap partitions (at least 1: comet divides by their number).
    #[arg(long = "num_splits", default_value_t = 300, value_name = "NUM_SPLITS", allow_negative_numbers = true, value_parser = flags::batch_size)]
    pub num_splits: usize,
    /// Share of the test set in each partition: any finite number, as comet, which draws
    /// `max(int(n * sample_ratio), 1)` segments (0 or less: one).
    #[arg(
        long = "sample_ratio",
        default_value_t = 0.4,
        value_name = "SAMPLE_RATIO",
        allow_negative_numbers = true,
        value_parser = flags::finite
    )]
    pub sample_ratio: f64,
    /// The paired t-test's alternative hypothesis: two-sided, less or greater.
    #[arg(long = "t_test_alternative", default_value = "two-sided", value_parser = ["two-sided", "less", "greater"], value_name = "T_TEST_ALTERNATIVE")]
    pub t_test_alternative: String,
    /// The arguments both commands share.
    #[command(flatten)]
    pub common: CometCommon,
}

/// The model directory a `--model` names: a `.ckpt` file's directory above `checkpoints/`
/// (where comet's `load_from_checkpoint` reads `hparams.yaml`), or a directory as it is.
fn model_dir(common: &CometCommon) -> Result<PathBuf, CliError> {
    let m = Path::new(&common.model);
    if common.model.ends_with(".ckpt") && m.is_file() {
        let dir = m
            .parent()
            .and_then(Path::parent)
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let dir = if dir.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            dir
        };
        return Ok(dir);
    }
    if m.is_dir() {
        return Ok(m.to_path_buf());
    }
    Err(CliError::Usage(format!(
        "--model {}: not a local COMET checkpoint (a .ckpt file, or the directory holding \
         hparams.yaml and checkpoints/model.ckpt); hauser downloads no models",
        common.model
    )))
}

/// The arguments comet accepts that hauser cannot honour, refused before any work.
fn refuse_unsupported(common: &CometCommon) -> Result<(), CliError> {
    let refuse = |m: &str| Err(CliError::Usage(m.to_string()));
    if common.sacrebleu_dataset.is_some() {
        return refuse("-d/--sacrebleu_dataset needs sacreBLEU's downloads; hauser reads local files only: give -s and -r");
    }
    if common.sources.is_none() {
        return refuse("You must specify a source (-s) or a sacrebleu dataset (-d)");
    }
    if common.model_storage_path.is_some() {
        return refuse(
            "--model_storage_path: hauser downloads no models; give --model a local checkpoint",
        );
    }
    if common.print_cache_info {
        return refuse("--print_cache_info: hauser has no sentence-embedding cache to report on");
    }
    if common.gpus > 1 {
        return refuse("--gpus: hauser scores on one device (0 or 1)");
    }
    Ok(())
}

/// A loaded model and the texts read, checked against each other.
struct Loaded {
    metric: Comet,
    takes_refs: bool,
    sources: Vec<String>,
    references: Option<Vec<String>>,
    translations: Vec<Vec<String>>,
}

fn load(
    common: &CometCommon,
    translations: &[PathBuf],
    batch_size: usize,
    to_json: Option<&Path>,
) -> Result<(Loaded, crate::io::run_files::Checked), CliError> {
    refuse_unsupported(common)?;
    let dir = model_dir(common)?;
    let sources_path = common.sources.as_deref().unwrap_or(Path::new("-"));
    let checked = RunFiles::new()
        .input("-s", sources_path)
        .inputs("-t", translations)
        .inputs("-r", common.references.as_deref())
        .dir("--model", Some(&dir))
        .output("--to_json", to_json)
        .check()?;
    let sources = python_lines(sources_path)?;
    let references = common.references.as_deref().map(python_lines).transpose()?;
    let systems = translations
        .iter()
        .map(|p| python_lines(p))
        .collect::<Result<Vec<_>, _>>()?;
    let n = sources.len();
    if n == 0 {
        return Err(CliError::Usage(format!(
            "-s {}: no segments",
            sources_path.display()
        )));
    }
    let named = std::iter::once((common.references.as_deref(), references.as_ref()))
        .filter_map(|(p, r)| Some((p?, r?)))
        .chain(
            translations
                .iter()
                .map(PathBuf::as_path)
                .zip(systems.iter()),
        );
    for (path, lines) in named {
        if lines.len() != n {
            return Err(CliError::Usage(format!(
                "{}: {} lines, the sources {n}",
                path.display(),
                lines.len()
            )));
        }
    }
    let mut opts: LoadOptions = common.device.load_options(batch_size);
    if common.gpus == 0 {
        opts.device = flags::DeviceArgs::default().device;
    }
    let model = CometModel::load(&dir, &opts)?;
    if model.takes_references() && !model.is_referenceless() && references.is_none() {
        return Err(CliError::Usage(format!(
            "{} requires -r/--references or -d/--sacrebleu_dataset.",
            common.model
        )));
    }
    let takes_refs = model.takes_references();
    let id = dir.file_name().map_or_else(
        || common.model.clone(),
        |n| n.to_string_lossy().into_owned(),
    );
    Ok((
        Loaded {
            metric: Comet::new(model, &id),
            takes_refs,
            sources,
            references,
            translations: systems,
        },
        checked,
    ))
}

impl Loaded {
    /// Each system's predictions, scored on its own as comet scores them.
    fn predict(&mut self) -> Result<Vec<Vec<CometPrediction>>, CliError> {
        let src: Vec<&str> = self.sources.iter().map(String::as_str).collect();
        let refs: Vec<&str> = match (&self.references, self.takes_refs) {
            (Some(r), true) => r.iter().map(String::as_str).collect(),
            _ => Vec::new(),
        };
        let mut out = Vec::new();
        for sys in &self.translations {
            let hyps: Vec<&str> = sys.iter().map(String::as_str).collect();
            out.push(self.metric.predict(Some(&src), &hyps, &refs)?);
        }
        Ok(out)
    }

    /// comet's sample order: by source length in characters (a stable sort, as NumPy's
    /// `argsort` is on the short inputs it sees), or file order without length batching.
    fn order(&self, length_batching: bool) -> Vec<usize> {
        let mut ids: Vec<usize> = (0..self.sources.len()).collect();
        if length_batching {
            ids.sort_by_key(|&i| self.sources[i].chars().count());
        }
        ids
    }
}

/// comet's system score: the segment scores (float32, read as Python floats) summed in the
/// order the model saw them, divided by their count.
fn system_score(scores: &[f32], order: &[usize]) -> f64 {
    let sum = order.iter().fold(0.0f64, |s, &i| s + f64::from(scores[i]));
    sum / scores.len() as f64
}

/// NumPy's `float32` mean as a Python float (comet-compare's `float(np.mean(...))`).
fn f32_value(x: f64) -> f64 {
    f64::from(x as f32)
}

fn io(e: std::io::Error) -> CliError {
    CliError::io("<stdout>", e)
}

fn to_json_path(s: &str) -> Option<&Path> {
    (!s.is_empty()).then(|| Path::new(s))
}

fn write_json(
    out_file: Option<&Path>,
    checked: &crate::io::run_files::Checked,
    value: &Json,
) -> Result<(), CliError> {
    let Some(path) = out_file else { return Ok(()) };
    let mut f = OutputFile::create(Some(path), checked)?;
    f.write_all(dumps(value, 4, false).as_bytes())
        .map_err(|e| CliError::io(path, e))?;
    f.commit()
}

/// Runs `hauser comet-score`.
///
/// # Errors
/// Refused arguments, unreadable or misaligned inputs, an unloadable model, an unwritable
/// output.
pub fn run_score(args: &CometScoreArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let common = &args.common;
    if args.enable_context {
        return Err(CliError::Usage(
            "--enable-context: comet's contextual extension is not supported".into(),
        ));
    }
    let to_json = to_json_path(&common.to_json);
    let (mut loaded, checked) = load(common, &args.translations, args.batch_size, to_json)?;
    let predictions = loaded.predict()?;
    let order = loaded.order(!common.disable_length_batching);
    let scores: Vec<Vec<f32>> = predictions
        .iter()
        .map(|p| p.iter().map(|x| x.score).collect())
        .collect();
    let names: Vec<String> = args
        .translations
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let n = loaded.sources.len();
    if !common.only_system {
        for i in 0..n {
            for (name, s) in names.iter().zip(&scores) {
                writeln!(
                    out,
                    "{name}\tSegment {i}\tscore: {}",
                    fixed(f64::from(s[i]), 4)
                )
                .map_err(io)?;
            }
        }
    }
    for (name, s) in names.iter().zip(&scores) {
        writeln!(out, "{name}\tscore: {}", fixed(system_score(s, &order), 4)).map_err(io)?;
    }
    if let Some(path) = to_json {
        // One key per file name (a name given twice is one key, its last system's scores).
        let mut systems: Vec<(String, Json)> = Vec::new();
        for (j, name) in names.iter().enumerate() {
            let rows = (0..n)
                .map(|i| {
                    let mut row = vec![
                        ("src".into(), Json::Str(loaded.sources[i].clone())),
                        ("mt".into(), Json::Str(loaded.translations[j][i].clone())),
                    ];
                    if let Some(r) = &loaded.references {
                        row.push(("ref".into(), Json::Str(r[i].clone())));
                    }
                    let p = &predictions[j][i];
                    row.push(("COMET".into(), Json::Float(f64::from(p.score))));
                    if let Some(spans) = p.error_spans.as_ref().filter(|s| !s.is_empty()) {
                        let spans = spans
                            .iter()
                            .map(|s| {
                                Json::Object(vec![
                                    ("text".into(), Json::Str(s.text.clone())),
                                    ("confidence".into(), Json::Float(f64::from(s.confidence))),
                                    ("severity".into(), Json::Str(s.severity.clone())),
                                    ("start".into(), Json::Int(s.start as i64)),
                                    ("end".into(), Json::Int(s.end as i64)),
                                ])
                            })
                            .collect();
                        row.push(("errors".into(), Json::Array(spans)));
                    }
                    Json::Object(row)
                })
                .collect();
            match systems.iter_mut().find(|(k, _)| k == name) {
                Some(slot) => slot.1 = Json::Array(rows),
                None => systems.push((name.clone(), Json::Array(rows))),
            }
        }
        write_json(Some(path), &checked, &Json::Object(systems))?;
        writeln!(out, "Predictions saved in: {}.", common.to_json).map_err(io)?;
    }
    out.flush().map_err(io)
}

/// Runs `hauser comet-compare`.
///
/// # Errors
/// As [`run_score`], fewer than two systems, and statistics out of range.
pub fn run_compare(args: &CometCompareArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let common = &args.common;
    if args.translations.len() < 2 {
        return Err(CliError::Usage(
            "You must provide at least 2 translation files".into(),
        ));
    }
    let to_json = to_json_path(&common.to_json);
    let (mut loaded, checked) = load(common, &args.translations, args.batch_size, to_json)?;
    let alternative = Alternative::parse(&args.t_test_alternative).unwrap_or_default();
    let cfg = CometCompare {
        num_splits: args.num_splits,
        sample_ratio: args.sample_ratio,
        alternative,
        ..CometCompare::default()
    };
    let predictions = loaded.predict()?;
    let scores: Vec<Vec<f64>> = predictions
        .iter()
        .map(|p| p.iter().map(|x| f64::from(x.score)).collect())
        .collect();
    let pairs = comet_compare(&scores, &cfg).map_err(|e| CliError::Usage(e.to_string()))?;
    let names: Vec<String> = args
        .translations
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let w = |out: &mut dyn Write, s: String| writeln!(out, "{s}").map_err(io);
    for p in &pairs {
        w(out, "==========================".into())?;
        w(out, format!("x_name: {}", names[p.x]))?;
        w(out, format!("y_name: {}", names[p.y]))?;
        w(out, "\nBootstrap Resampling Results:".into())?;
        for (k, v) in [
            ("x-mean", f32_value(p.x_mean)),
            ("y-mean", f32_value(p.y_mean)),
            ("ties (%)", p.ties),
            ("x_wins (%)", p.x_wins),
            ("y_wins (%)", p.y_wins),
        ] {
            w(out, format!("{k}:\t{}", fixed(v, 4)))?;
        }
        w(out, "\nPaired T-Test Results:".into())?;
        w(out, format!("statistic:\t{}", fixed(p.t_test.statistic, 4)))?;
        w(out, format!("p_value:\t{}", fixed(p.t_test.p_value, 4)))?;
        let best = if p.x_mean > p.y_mean { p.x } else { p.y };
        let worse = if p.x_mean < p.y_mean { p.x } else { p.y };
        if p.t_test.p_value <= 0.05 {
            w(out, "Null hypothesis rejected according to t-test.".into())?;
            w(out, "Scores differ significantly across samples.".into())?;
            w(
                out,
                format!("{} outperforms {}.", names[best], names[worse]),
            )?;
        } else {
            w(
                out,
                "Null hypothesis can't be rejected.\nBoth systems have equal averages.".into(),
            )?;
        }
    }
    w(out, String::new())?;
    summary(&pairs, &names, out)?;
    if let Some(path) = to_json {
        let results = pairs
            .iter()
            .map(|p| {
                Json::Object(vec![
                    ("x_name".into(), Json::Str(names[p.x].clone())),
                    ("y_name".into(), Json::Str(names[p.y].clone())),
                    (
                        "bootstrap_resampling".into(),
                        Json::Object(vec![
                            ("x-mean".into(), Json::Float(f32_value(p.x_mean))),
                            ("y-mean".into(), Json::Float(f32_value(p.y_mean))),
                            ("ties (%)".into(), Json::Float(p.ties)),
                            ("x_wins (%)".into(), Json::Float(p.x_wins)),
                            ("y_wins (%)".into(), Json::Float(p.y_wins)),
                        ]),
                    ),
                    (
                        "paired_t-test".into(),
                        Json::Object(vec![
                            ("statistic".into(), Json::Float(p.t_test.statistic)),
                            ("p_value".into(), Json::Float(p.t_test.p_value)),
                        ]),
                    ),
                ])
            })
            .collect();
        let translations = names
            .iter()
            .zip(&loaded.translations)
            .zip(&scores)
            .map(|((name, mt), s)| {
                Json::Object(vec![
                    ("name".into(), Json::Str(name.clone())),
                    ("mt".into(), str_list(mt)),
                    (
                        "scores".into(),
                        Json::Array(s.iter().map(|&x| Json::Float(x)).collect()),
                    ),
                ])
            })
            .collect();
        let mut info = vec![
            ("model".into(), Json::Str(common.model.clone())),
            ("statistical_results".into(), Json::Array(results)),
            ("source".into(), str_list(&loaded.sources)),
            ("translations".into(), Json::Array(translations)),
        ];
        if let Some(r) = &loaded.references {
            info.push(("reference".into(), str_list(r)));
        }
        write_json(Some(path), &checked, &Json::Object(info))?;
        writeln!(out, "Predictions saved in: {}.", common.to_json).map_err(io)?;
    }
    out.flush().map_err(io)
}

/// comet-compare's summary: a grid of who beats whom by the t-test at p < 0.05, printed as
/// tabulate's `simple` table (booleans and blanks left-aligned, rows right-trimmed).
fn summary(
    pairs: &[figlang_metrics::neural::PairComparison],
    names: &[String],
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let n = names.len();
    let mut grid: Vec<Vec<Option<bool>>> = vec![vec![None; n]; n];
    for p in pairs {
        grid[p.x][p.y] = Some(false);
        grid[p.y][p.x] = Some(false);
        if p.t_test.p_value < 0.05 {
            if p.x_mean > p.y_mean {
                grid[p.x][p.y] = Some(true);
            } else {
                grid[p.y][p.x] = Some(true);
            }
        }
    }
    let headers: Vec<String> = std::iter::once("system_x \\ system_y".to_string())
        .chain(names.iter().cloned())
        .collect();
    let rows: Vec<Vec<String>> = names
        .iter()
        .zip(&grid)
        .map(|(name, row)| {
            std::iter::once(name.clone())
                .chain(row.iter().map(|c| match c {
                    Some(true) => "True".into(),
                    Some(false) => "False".into(),
                    None => String::new(),
                }))
                .collect()
        })
        .collect();
    let widths: Vec<usize> = (0..headers.len())
        .map(|c| {
            rows.iter()
                .map(|r| r[c].chars().count())
                .chain(std::iter::once(headers[c].chars().count() + 2))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &[String]| {
        cells
            .iter()
            .zip(&widths)
            .map(|(c, &w)| format!("{c:<w$}"))
            .collect::<Vec<_>>()
            .join("  ")
            .trim_end()
            .to_string()
    };
    let w = |out: &mut dyn Write, s: &str| writeln!(out, "{s}").map_err(io);
    w(out, "Summary")?;
    w(out, "If system_x is better than system_y then:")?;
    w(
        out,
        "Null hypothesis rejected according to t-test with p_value=0.05.",
    )?;
    w(out, "Scores differ significantly across samples.")?;
    w(out, &line(&headers))?;
    let dashes: Vec<String> = widths.iter().map(|&k| "-".repeat(k)).collect();
    w(out, &line(&dashes))?;
    for r in &rows {
        w(out, &line(r))?;
    }
    Ok(())
}

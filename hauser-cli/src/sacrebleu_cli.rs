//! `hauser sacrebleu`: a drop-in for sacreBLEU 2.4.3's command line. It takes sacreBLEU's
//! argument list ([`crate::sacrebleu_args`]), checks it in sacreBLEU's order with its exit
//! statuses (1 for its own refusals, 2 for argparse's, 17 for a malformed input stream) and
//! prints what sacreBLEU prints on standard output, byte for byte
//! ([`crate::sacrebleu_format`]), with the metrics of figlang-metrics
//! ([`crate::sacrebleu_score`]).
//!
//! Differences, all documented in docs/DROP-IN.md: test sets (`-t`, `--echo`, `--download`) are
//! read from sacreBLEU's cache ([`crate::sacrebleu_testsets`]) and refused with exit status 2
//! when it lacks them (there is no network), `--list` and `--citation` likewise; the MeCab and
//! SentencePiece tokenizers too; `--paired-bs -f
//! json` prints valid JSON where sacreBLEU crashes on NumPy's float32; a UTF-8 byte-order mark
//! is dropped, as by every hauser command.

use std::ffi::OsString;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use clap::Args;

use figlang_metrics::text::significance::{sacrebleu_seed, Resampling};

use crate::files;
use crate::sacrebleu_args::{self, Parsed, SacreArgs, FORMATS};
use crate::sacrebleu_format::{align_single, dumps, fixed, Json, Table};
use crate::sacrebleu_score::{Exit, Metric, Score};
use crate::sacrebleu_testsets::{self as testsets, TestSet};

/// `hauser sacrebleu`'s arguments: sacreBLEU's own, read by [`sacrebleu_args::parse`].
#[derive(Debug, Clone, Args)]
#[command(disable_help_flag = true, disable_version_flag = true)]
pub struct SacrebleuArgs {
    /// sacreBLEU 2.4.3's arguments (`hauser sacrebleu --help` lists them).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    pub args: Vec<OsString>,
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
    // line); a closed pipe is not an error worth a message.
    let _ = stdout.write_all(&out).and_then(|()| stdout.flush());
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
    Exit::unsupported(format!(
        "{}\nsacrebleu: error: {msg}",
        sacrebleu_args::usage()
    ))
}

fn no_test_sets(what: &str) -> Exit {
    Exit::unsupported(format!(
        "{what}: not available in hauser sacrebleu, which reads sacreBLEU's test sets from its \
         cache but has neither the network nor sacreBLEU's registry texts and raw files; give \
         the references as files instead"
    ))
}

/// Runs sacreBLEU's `main()` on `words`, writing its standard output to `out`.
///
/// # Errors
/// sacreBLEU's refusals with its exit statuses.
pub fn run(words: &[String], out: &mut Vec<u8>) -> Result<(), Exit> {
    let mut a = match sacrebleu_args::parse(words) {
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
    let mut stdin_users: Vec<(&str, &Path)> = a
        .refs
        .iter()
        .map(|r| ("a reference", Path::new(r.as_str())))
        .collect();
    if let Some(inputs) = &a.input {
        stdin_users.extend(inputs.iter().map(|i| ("-i", Path::new(i.as_str()))));
    } else {
        stdin_users.push(("the hypotheses (no -i)", Path::new("-")));
    }
    files::check_single_stdin(&stdin_users).map_err(|e| Exit::unsupported(e.to_string()))?;

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

/// `--download NAME`: nothing to do when sacreBLEU's cache has the set (the pair of `-l`, or
/// every pair); refused otherwise, as nothing can be downloaded.
fn download(name: &str, langpair: Option<&str>) -> Result<(), Exit> {
    let Some(set) = testsets::lookup(name) else {
        return Err(Exit::one(format!("Exception: No such test set {name}")));
    };
    let pairs: Vec<&str> = match langpair {
        Some(lp) => vec![lp],
        None => set.pairs.iter().map(|p| p.langpair).collect(),
    };
    for lp in pairs {
        if set.pair(lp).is_none() {
            return Err(Exit::one(format!(
                "Exception: No such language pair {name}/{lp}"
            )));
        }
        set.ready(lp)?;
    }
    Ok(())
}

/// `--echo FIELD...`: the fields of the test sets from the cache, tab-separated, line by line.
fn echo(sets: &[TestSet], lp: &str, fields: &[String], out: &mut Vec<u8>) -> Result<(), Exit> {
    for set in sets {
        set.ready(lp)?;
        let known: Vec<&str> = set.pair(lp).map(|p| p.fields.clone()).unwrap_or_default();
        let mut wanted: Vec<&str> = fields.iter().map(String::as_str).collect();
        if wanted.contains(&"all") {
            if wanted.len() != 1 {
                return Err(Exit::one("Cannot use --echo all with other fields"));
            }
            if known.is_empty() {
                // The WMT XML sets name their fields in the raw files, which are not read here.
                return Err(no_test_sets("--echo all (a WMT XML test set)"));
            }
            wanted.clone_from(&known);
        }
        let mut columns = Vec::new();
        for field in wanted {
            let mut f = field;
            // sacreBLEU's backwards compatibility: `ref` is the first reference field when the
            // set has no plain `ref` field.
            if f == "ref" && !known.contains(&"ref") && !set.path(lp, "ref").is_file() {
                let refs = if known.is_empty() {
                    set.refs(lp).unwrap_or_default().to_vec()
                } else {
                    known
                        .iter()
                        .copied()
                        .filter(|k| k.starts_with("ref"))
                        .collect()
                };
                f = refs.into_iter().min().unwrap_or("ref");
            }
            let path = set.path(lp, f);
            let exists = if known.is_empty() {
                path.is_file()
            } else {
                known.contains(&f)
            };
            if !exists {
                return Err(Exit::one(format!(
                    "No such field {field} in test set {} for language pair {lp}.",
                    set.name
                )));
            }
            columns.push(read_lines(&path.to_string_lossy(), Encoding::Utf8, false)?);
        }
        let n = columns.iter().map(Vec::len).min().unwrap_or(0);
        for i in 0..n {
            let row: Vec<&str> = columns.iter().map(|c| py_rstrip(&c[i])).collect();
            out.extend_from_slice(row.join("\t").as_bytes());
            out.push(b'\n');
        }
    }
    Ok(())
}

/// The reference streams of the test sets (concatenated, in order) from the cache.
fn testset_refs(sets: &[TestSet], lp: &str, encoding: Encoding) -> Result<Vec<Vec<String>>, Exit> {
    let width = sets
        .first()
        .and_then(|s| s.refs(lp))
        .map_or(1, |r| r.len().max(1));
    let mut streams: Vec<Vec<String>> = vec![Vec::new(); width];
    for set in sets {
        set.ready(lp)?;
        for (k, field) in set.refs(lp).unwrap_or_default().iter().enumerate() {
            let path = set.cached(lp, field)?;
            let lines = read_lines(&path.to_string_lossy(), encoding, false)?;
            let Some(stream) = streams.get_mut(k) else {
                return Err(Exit::one(format!(
                    "IndexError: {} has more references than the first test set",
                    set.name
                )));
            };
            stream.extend(lines.iter().map(|l| py_rstrip(l).to_string()));
        }
    }
    Ok(streams)
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

/// The text encodings of `-e` that this drop-in decodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Encoding {
    Utf8,
    Latin1,
    Ascii,
}

impl Encoding {
    /// Python's codec names for them (case, `-`, `_` and spaces as Python normalises them).
    fn named(name: &str) -> Result<Self, Exit> {
        let n: String = name
            .to_lowercase()
            .chars()
            .map(|c| if c == '-' || c == ' ' { '_' } else { c })
            .collect();
        match n.as_str() {
            "utf_8" | "utf8" | "u8" | "utf" | "cp65001" | "utf_8_sig" => Ok(Self::Utf8),
            "latin_1" | "latin1" | "iso_8859_1" | "iso8859_1" | "l1" | "latin" | "8859"
            | "cp819" => Ok(Self::Latin1),
            "ascii" | "us_ascii" | "646" => Ok(Self::Ascii),
            _ => Err(Exit::unsupported(format!(
                "encoding {name:?} is not supported by hauser sacrebleu (utf-8, latin-1 and ascii are)"
            ))),
        }
    }

    fn decode(self, path: &str, bytes: Vec<u8>) -> Result<String, Exit> {
        let bad = || {
            Exit::one(format!(
                "UnicodeDecodeError: {path} is not valid {}",
                match self {
                    Self::Utf8 => "utf-8",
                    Self::Latin1 => "latin-1",
                    Self::Ascii => "ascii",
                }
            ))
        };
        match self {
            Self::Utf8 => String::from_utf8(bytes).map_err(|_| bad()),
            Self::Latin1 => Ok(bytes.iter().map(|&b| char::from(b)).collect()),
            Self::Ascii if bytes.is_ascii() => Ok(bytes.iter().map(|&b| char::from(b)).collect()),
            Self::Ascii => Err(bad()),
        }
    }
}

fn py_rstrip(s: &str) -> &str {
    s.trim_end_matches(hauser_core::tokenize::is_python_space)
}

/// The lines of a file as Python iterates a file opened with `newline="\n"` (standard input:
/// universal newlines, as sacreBLEU's `TextIOWrapper` reads it).
fn read_lines(path: &str, encoding: Encoding, universal: bool) -> Result<Vec<String>, Exit> {
    let p = Path::new(path);
    let bytes = files::read_all(p).map_err(|e| match e {
        crate::CliError::Io { .. } => Exit::one(format!("FileNotFoundError: {e}")),
        other => Exit::one(other.to_string()),
    })?;
    let bytes = if path.ends_with(".gz") && !files::is_stdin(p) {
        return Err(Exit::unsupported(format!(
            "{path}: gzip-compressed input is not supported by hauser sacrebleu; decompress it first"
        )));
    } else {
        bytes
    };
    let text = encoding.decode(path, bytes)?;
    let text = if universal {
        text.replace("\r\n", "\n").replace('\r', "\n")
    } else {
        text
    };
    let mut lines: Vec<String> = text.split('\n').map(String::from).collect();
    // A final newline ends the last line rather than starting an empty one.
    if lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    Ok(lines)
}

/// sacreBLEU's reference streams: one per file, or `-nr` tab-separated ones from one file.
fn read_refs(a: &SacreArgs, encoding: Encoding) -> Result<Vec<Vec<String>>, Exit> {
    let n = usize::try_from(a.num_refs).unwrap_or(0);
    let mut streams: Vec<Vec<String>> = vec![Vec::new(); a.refs.len().max(n)];
    for (k, path) in a.refs.iter().enumerate() {
        let universal = files::is_stdin(Path::new(path));
        for (lineno, line) in read_lines(path, encoding, universal)?.iter().enumerate() {
            let line = py_rstrip(line);
            if a.num_refs == 1 {
                streams[k].push(line.to_string());
                continue;
            }
            // str.split('\t', maxsplit=n-1); a negative maxsplit splits everywhere.
            let fields: Vec<&str> = if a.num_refs >= 1 {
                line.splitn(n, '\t').collect()
            } else {
                line.split('\t').collect()
            };
            if fields.len() as i64 != a.num_refs {
                return Err(Exit {
                    code: 17,
                    message: format!(
                        "FATAL: line {}: expected {} fields, but found {}.",
                        lineno + 1,
                        a.num_refs,
                        fields.len()
                    ),
                });
            }
            for (r, f) in fields.iter().enumerate() {
                streams[r].push((*f).to_string());
            }
        }
    }
    Ok(streams)
}

/// The systems (hypothesis streams) and their names.
fn read_systems(
    a: &SacreArgs,
    encoding: Encoding,
    paired: bool,
    stdin_hyps: bool,
) -> Result<(Vec<Vec<String>>, Vec<String>), Exit> {
    let mut systems: Vec<Vec<String>> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    if stdin_hyps {
        let lines = read_lines("-", encoding, true)?;
        let mut it = lines.iter();
        // An empty standard input is one system of one empty line, as in sacreBLEU.
        let first = it.next().map_or("", String::as_str);
        systems = py_rstrip(first)
            .split('\t')
            .map(|s| vec![s.to_string()])
            .collect();
        for line in it {
            let fields: Vec<&str> = py_rstrip(line).split('\t').collect();
            if fields.len() != systems.len() {
                return Err(Exit {
                    code: 17,
                    message: "FATAL: the number of tab-delimited fields in the input stream differ across lines.".into(),
                });
            }
            for (s, f) in systems.iter_mut().zip(fields) {
                s.push(py_rstrip(f).to_string());
            }
        }
        names = (1..=systems.len()).map(|i| format!("System {i}")).collect();
        if paired {
            names = std::iter::once("Baseline".to_string())
                .chain((1..systems.len()).map(|i| format!("System {i}")))
                .collect();
        }
        return Ok((systems, names));
    }
    for path in a.input.iter().flatten() {
        if names.contains(path) {
            if paired && names.first() == Some(path) {
                continue;
            }
            return Err(Exit::one(format!(
                "{path:?} already used to name a system.\nMake sure to have a different basename for each system."
            )));
        }
        let universal = files::is_stdin(Path::new(path));
        let lines = read_lines(path, encoding, universal)?;
        systems.push(lines.iter().map(|l| py_rstrip(l).to_string()).collect());
        names.push(path.clone());
    }
    if paired {
        if let Some(first) = names.first_mut() {
            *first = format!("Baseline: {first}");
        }
    }
    Ok((systems, names))
}

/// What the corpus-level outputs share.
struct Ctx<'a> {
    a: &'a SacreArgs,
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
                        s.push_str(&format!("(p = {})", fixed(p, 4)));
                        // sacreBLEU stars every p-value that is not above 0.05 (NaN included).
                        if p.partial_cmp(&0.05) != Some(std::cmp::Ordering::Greater) {
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
                        crate::sacrebleu_format::dict_set(&mut obj, &name, json[s].clone());
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
        let mut headers = vec!["System".to_string()];
        headers.extend(columns.iter().map(|c| c.0.clone()));
        let rows = (0..systems.len())
            .map(|s| {
                let mut row = vec![names[s].clone()];
                row.extend(columns.iter().map(|c| c.1[s].clone()));
                row
            })
            .collect();
        let table = Table { headers, rows };
        let text = if a.format == "latex" {
            table.latex_booktabs()
        } else {
            table.fancy_grid()
        };
        out.extend_from_slice(text.as_bytes());
        out.push(b'\n');
        if paired {
            out.extend_from_slice(paired_explanation(a, names).as_bytes());
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
fn paired_explanation(a: &SacreArgs, names: &[String]) -> String {
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
    s.push_str(&format!(
        " - Each system is pairwise compared to {baseline}.\n"
    ));
    if a.paired_bs {
        s.push_str("   Actual system score / bootstrap estimated true mean / 95% CI are provided for each metric.\n");
    } else {
        s.push_str("   Actual system score is provided for each metric.\n");
    }
    s.push_str(
        "\n - Null hypothesis: the system and the baseline translations are essentially\n   \
         generated by the same underlying process. For a given system and the baseline,\n   \
         the p-value is roughly the probability of the absolute score difference (delta)\n   \
         or higher occurring due to chance, under the assumption that the null hypothesis is correct.\n\n \
         - Assuming a significance threshold of 0.05, the null hypothesis can be rejected\n   \
         for p-values < 0.05 (marked with \"*\"). This means that the delta is unlikely to be attributed\n   \
         to chance, hence the system is significantly \"different\" than the baseline.\n   \
         Otherwise, the p-values are highlighted in red.\n\n \
         - NOTE: Significance does not tell whether a system is \"better\" than the baseline but rather\n   \
         emphasizes the \"difference\" of the systems in terms of the replicability of the delta.\n\n",
    );
    s
}

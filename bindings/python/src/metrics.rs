//! `TextMetric`: any metric of figlang-metrics' registry, configured by the options of
//! `hauser metric` (its flags, with underscores), scoring columns of texts.
//!
//! Sentence scores of metrics that score each hypothesis on its own are computed in chunks, in
//! parallel (rayon) and with a Ctrl-C check between chunks; every chunk is scored by the same
//! library call the CLI makes, so the numbers do not depend on the chunking.

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyDict, PyList, PyTuple};
use rayon::prelude::*;

use figlang_metrics::text::rouge::RougeScore;
use figlang_metrics::text::significance::{
    confidence_record, paired_records, PairedTest, Resampling, DEFAULT_AR_TRIALS,
    DEFAULT_BOOTSTRAP_SAMPLES, DEFAULT_SEED, MAX_SAMPLES,
};
use figlang_metrics::text::ter::Ter;
use figlang_metrics::text::{
    metric_by_name, ChrfOptions, Details, MetricError, TextMetric as Metric, TextMetricOptions,
    WordSettings, NAMES,
};

use crate::convert::object_to_dict;
use crate::errors::{self, value_error};
use crate::interrupt::{self, Cancel};
use crate::texts::{self, column, columns, type_name};

/// Hypotheses per chunk of a parallel sentence-level computation.
const CHUNK: usize = 2048;

/// A text metric of figlang-metrics' registry with its options.
#[pyclass(frozen, module = "hauser._hauser", name = "TextMetric")]
#[derive(Debug)]
pub(crate) struct PyTextMetric {
    metric: Arc<dyn Metric>,
}

/// Why a chunked computation stopped.
enum Stop {
    Metric(MetricError),
    Cancelled,
}

impl Stop {
    fn into_py(self) -> PyErr {
        match self {
            Stop::Metric(e) => errors::metric(e),
            Stop::Cancelled => pyo3::exceptions::PyKeyboardInterrupt::new_err("cancelled"),
        }
    }
}

fn opt<'py, T: FromPyObjectOwned<'py>>(
    options: Option<&Bound<'py, PyDict>>,
    key: &str,
) -> PyResult<Option<T>> {
    let Some(d) = options else { return Ok(None) };
    match d.get_item(key)? {
        None => Ok(None),
        Some(v) if v.is_none() => Ok(None),
        Some(v) => v.extract::<T>().map(Some).map_err(|_| {
            PyTypeError::new_err(format!(
                "option {key}: unexpected {} value {}",
                type_name(&v),
                v.repr().map_or_else(|_| "?".into(), |r| r.to_string())
            ))
        }),
    }
}

/// The option names, those of `hauser metric`'s flags with underscores.
const OPTIONS: [&str; 28] = [
    "tokenize",
    "smooth_method",
    "smooth_value",
    "max_ngram_order",
    "effective_order",
    "lowercase",
    "chrf_char_order",
    "chrf_word_order",
    "chrf_beta",
    "chrf_whitespace",
    "chrf_lowercase",
    "chrf_eps_smoothing",
    "ter_case_sensitive",
    "ter_normalized",
    "ter_no_punct",
    "ter_asian_support",
    "weights",
    "auto_reweigh",
    "corpus",
    "use_stemmer",
    "split_summaries",
    "nltk_tokenizer",
    "rouge_impl",
    "rouge_pretokenize",
    "wordnet",
    "meteor_alpha",
    "meteor_beta",
    "meteor_gamma",
];

/// [`TextMetricOptions`] for metric `name` from keyword options named as `hauser metric`'s
/// flags (the words it reads parsed into their types); a name that is not one of them is a
/// `TypeError`, as an unexpected keyword argument is.
fn options(name: &str, o: Option<&Bound<'_, PyDict>>) -> PyResult<TextMetricOptions> {
    if let Some(d) = o {
        for key in d.keys() {
            let key: String = key.extract()?;
            if !OPTIONS.contains(&key.as_str()) {
                return Err(PyTypeError::new_err(format!(
                    "unexpected option {key:?}; options: {}",
                    OPTIONS.join(", ")
                )));
            }
        }
    }
    let d = TextMetricOptions::default();
    let flag = |k: &str| -> PyResult<bool> { Ok(opt::<bool>(o, k)?.unwrap_or(false)) };
    let nltk = match opt::<String>(o, "nltk_tokenizer")? {
        Some(v) => v.parse().map_err(errors::metric)?,
        None => d.nltk,
    };
    let (tokenize, smooth_method, rouge_impl) = (
        opt::<String>(o, "tokenize")?,
        opt::<String>(o, "smooth_method")?,
        opt::<String>(o, "rouge_impl")?,
    );
    let words = WordSettings {
        tokenize: tokenize.as_deref(),
        smooth_method: smooth_method.as_deref(),
        rouge_impl: rouge_impl.as_deref(),
    };
    TextMetricOptions {
        smooth_value: opt(o, "smooth_value")?,
        max_ngram_order: opt(o, "max_ngram_order")?,
        effective_order: flag("effective_order")?,
        lowercase: flag("lowercase")?,
        chrf: ChrfOptions {
            char_order: opt(o, "chrf_char_order")?,
            word_order: opt(o, "chrf_word_order")?,
            beta: opt(o, "chrf_beta")?,
            whitespace: flag("chrf_whitespace")?,
            lowercase: flag("chrf_lowercase")?,
            eps_smoothing: flag("chrf_eps_smoothing")?,
        },
        ter: Ter {
            case_sensitive: flag("ter_case_sensitive")?,
            normalized: flag("ter_normalized")?,
            no_punct: flag("ter_no_punct")?,
            asian_support: flag("ter_asian_support")?,
        },
        weights: opt(o, "weights")?,
        auto_reweigh: flag("auto_reweigh")?,
        nltk_corpus: flag("corpus")?,
        use_stemmer: flag("use_stemmer")?,
        split_summaries: flag("split_summaries")?,
        nltk,
        rouge_pretokenize: flag("rouge_pretokenize")?,
        wordnet: opt::<PathBuf>(o, "wordnet")?.unwrap_or(d.wordnet),
        meteor_alpha: opt(o, "meteor_alpha")?,
        meteor_beta: opt(o, "meteor_beta")?,
        meteor_gamma: opt(o, "meteor_gamma")?,
        ..d
    }
    .with_words(name, words)
    .map_err(errors::metric)
}

/// The per-hypothesis results of `f` over (hypotheses, references), computed chunk by chunk in
/// parallel when the metric allows it.
fn per_sentence<T: Send>(
    metric: &dyn Metric,
    hyps: Vec<String>,
    refs: Vec<Vec<String>>,
    cancel: &Cancel,
    f: impl Fn(&dyn Metric, &[String], &[Vec<String>]) -> Result<Vec<T>, MetricError> + Sync,
) -> Result<Vec<T>, Stop> {
    let n = hyps.len();
    let aligned = refs.iter().all(|r| r.len() == n);
    // Misaligned or missing references: one call gives the library's own message.
    if n <= CHUNK
        || !aligned
        || (refs.is_empty() && metric.needs_references())
        || !metric.sentences_independent()
    {
        return f(metric, &hyps, &refs).map_err(Stop::Metric);
    }
    // Moved, not copied, into chunks.
    let mut hyp_iter = hyps.into_iter();
    let mut ref_iters: Vec<_> = refs.into_iter().map(Vec::into_iter).collect();
    let mut chunks = Vec::with_capacity(n.div_ceil(CHUNK));
    let mut left = n;
    while left > 0 {
        let k = left.min(CHUNK);
        let h: Vec<String> = hyp_iter.by_ref().take(k).collect();
        let r: Vec<Vec<String>> = ref_iters
            .iter_mut()
            .map(|it| it.by_ref().take(k).collect())
            .collect();
        chunks.push((h, r));
        left -= k;
    }
    let parts: Vec<Vec<T>> = chunks
        .par_iter()
        .map(|(h, r)| {
            if cancel.cancelled() {
                Err(Stop::Cancelled)
            } else {
                f(metric, h, r).map_err(Stop::Metric)
            }
        })
        .collect::<Result<_, _>>()?;
    Ok(parts.into_iter().flatten().collect())
}

/// The texts of one call, read from Python before the interpreter is released.
struct Inputs {
    hyps: Vec<String>,
    refs: Vec<Vec<String>>,
}

impl Inputs {
    fn read(hyps: &Bound<'_, PyAny>, refs: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        Ok(Self {
            hyps: column(hyps, "hypotheses")?,
            refs: match refs {
                Some(r) if !r.is_none() => columns(r, "references")?,
                _ => Vec::new(),
            },
        })
    }

    /// Whether the call is long enough to run with Ctrl-C checks.
    fn long(&self) -> bool {
        self.hyps.len() * (1 + self.refs.len()) >= interrupt::LONG
    }
}

/// A per-segment library call: one float per hypothesis of a chunk.
type PerSegment = fn(&dyn Metric, &[String], &[Vec<String>]) -> Result<Vec<f64>, MetricError>;

impl PyTextMetric {
    /// One float per hypothesis from `f` (a per-segment library call), read from Python
    /// columns, computed in parallel chunks with the interpreter released, as float64 bytes.
    fn per_hypothesis<'py>(
        &self,
        py: Python<'py>,
        hypotheses: &Bound<'py, PyAny>,
        references: Option<&Bound<'py, PyAny>>,
        f: PerSegment,
    ) -> PyResult<Bound<'py, PyByteArray>> {
        let input = Inputs::read(hypotheses, references)?;
        let metric = Arc::clone(&self.metric);
        let long = input.long();
        let scores = interrupt::run(py, long, move |cancel| {
            per_sentence(&*metric, input.hyps, input.refs, cancel, f)
        })?
        .map_err(Stop::into_py)?;
        Ok(texts::float_buffer(py, &scores))
    }
}

#[pymethods]
impl PyTextMetric {
    /// The metric `name` (one of `NAMES`), configured by `options` named as `hauser metric`'s
    /// flags with underscores (`tokenize`, `smooth_method`, `chrf_word_order`,
    /// `ter_normalized`, `weights`, `use_stemmer`, `nltk_tokenizer`, `wordnet`...).
    #[new]
    #[pyo3(signature = (name, **options))]
    fn new(name: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        // `lowercase` is BLEU's option, as sacreBLEU's `-lc` (the CLI refuses `chrf -lc` too):
        // silently leaving chrF cased would be an ignored option.
        if name != "bleu" && opt::<bool>(options, "lowercase")?.unwrap_or(false) {
            return Err(PyValueError::new_err(format!(
                "lowercase is BLEU's option (sacreBLEU's -lc); {name} does not read it{}",
                if name.starts_with("chrf") {
                    ": use chrf_lowercase"
                } else {
                    ""
                }
            )));
        }
        let opts = self::options(name, options)?;
        let metric = metric_by_name(name, &opts).map_err(errors::metric)?;
        Ok(Self {
            metric: Arc::from(metric),
        })
    }

    /// The registry name (`bleu`, `chrf++`, `rougeL`...).
    #[getter]
    fn name(&self) -> String {
        self.metric.name().to_string()
    }

    /// The scale of the corpus score: `0-1` or `0-100`; sentence scores are 0-1.
    #[getter]
    fn scale(&self) -> &'static str {
        self.metric.scale().as_str()
    }

    /// False for the diversity metrics, which read the hypotheses only.
    #[getter]
    fn needs_references(&self) -> bool {
        self.metric.needs_references()
    }

    /// The signature of a corpus score of `n_hyps` hypotheses against `n_refs` reference
    /// streams.
    fn signature(&self, n_hyps: usize, n_refs: usize) -> String {
        self.metric.signature(n_hyps, n_refs).to_string()
    }

    /// The signature of the sentence scores of `n_hyps` hypotheses against `n_refs`
    /// reference streams (the CLI's `--sentence --format jsonl` one): BLEU's says `eff:yes`,
    /// and the 0-100 metrics' `scale:0-1`.
    fn sentence_signature(&self, n_hyps: usize, n_refs: usize) -> String {
        self.metric.sentence_signature(n_hyps, n_refs).to_string()
    }

    /// One 0-1 score per hypothesis (the CLI's `--sentence` output), as float64 bytes.
    #[pyo3(signature = (hypotheses, references=None))]
    fn sentence_scores<'py>(
        &self,
        py: Python<'py>,
        hypotheses: &Bound<'py, PyAny>,
        references: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyByteArray>> {
        self.per_hypothesis(py, hypotheses, references, |m, h, r| {
            m.sentence_scores(h, r)
        })
    }

    /// The 0-1 score of one hypothesis against its references (a list of `str`): the fast
    /// path of a per-call loop.
    #[pyo3(signature = (hypothesis, references=None))]
    fn score_one(
        &self,
        py: Python<'_>,
        hypothesis: String,
        references: Option<Vec<String>>,
    ) -> PyResult<f64> {
        let refs: Vec<Vec<String>> = references
            .unwrap_or_default()
            .into_iter()
            .map(|r| vec![r])
            .collect();
        let hyps = vec![hypothesis];
        let scores = py
            .detach(|| self.metric.sentence_scores(&hyps, &refs))
            .map_err(errors::metric)?;
        scores
            .first()
            .copied()
            .ok_or_else(|| value_error("no score for the hypothesis"))
    }

    /// The corpus score (on `scale`) and its signature.
    #[pyo3(signature = (hypotheses, references=None))]
    fn corpus_score(
        &self,
        py: Python<'_>,
        hypotheses: &Bound<'_, PyAny>,
        references: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(f64, String)> {
        let input = Inputs::read(hypotheses, references)?;
        let metric = Arc::clone(&self.metric);
        let long = input.long();
        let s = interrupt::run(py, long, move |_| {
            metric.corpus_score(&input.hyps, &input.refs)
        })?
        .map_err(errors::metric)?;
        Ok((s.score, s.signature.to_string()))
    }

    /// sacreBLEU's `sentence_score` of each hypothesis: the corpus score of that hypothesis
    /// alone against its references, on the corpus scale (0-100 for BLEU, chrF and TER), as a
    /// float64 buffer. `sentence_scores` is the CLI's `--sentence` (0-1, BLEU with effective
    /// order); this is what sacreBLEU's `sentence_*` functions return.
    #[pyo3(signature = (hypotheses, references=None))]
    fn segment_corpus_scores<'py>(
        &self,
        py: Python<'py>,
        hypotheses: &Bound<'py, PyAny>,
        references: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyByteArray>> {
        self.per_hypothesis(py, hypotheses, references, |m, h, r| {
            m.segment_corpus_scores(h, r)
        })
    }

    /// One dict per hypothesis: `score`, the statistics under the reference tool's names and
    /// the metric's `signature` (the CLI's `--sentence --format jsonl` objects).
    #[pyo3(signature = (hypotheses, references=None))]
    fn sentence_details<'py>(
        &self,
        py: Python<'py>,
        hypotheses: &Bound<'py, PyAny>,
        references: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let input = Inputs::read(hypotheses, references)?;
        let metric = Arc::clone(&self.metric);
        let long = input.long();
        let signature = self
            .metric
            .sentence_signature(input.hyps.len(), input.refs.len())
            .to_string();
        let details: Vec<Details> = interrupt::run(py, long, move |cancel| {
            per_sentence(&*metric, input.hyps, input.refs, cancel, |m, h, r| {
                m.sentence_details(h, r)
            })
        })?
        .map_err(Stop::into_py)?;
        let list = PyList::empty(py);
        for d in &details {
            let dict = object_to_dict(py, d)?;
            dict.set_item("signature", &signature)?;
            list.append(dict)?;
        }
        Ok(list)
    }

    /// The corpus score, its signature and its statistics (the CLI's `--format json`).
    #[pyo3(signature = (hypotheses, references=None))]
    fn corpus_details<'py>(
        &self,
        py: Python<'py>,
        hypotheses: &Bound<'py, PyAny>,
        references: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let input = Inputs::read(hypotheses, references)?;
        let metric = Arc::clone(&self.metric);
        let long = input.long();
        let (s, d) = interrupt::run(py, long, move |_| {
            metric.corpus_details(&input.hyps, &input.refs)
        })?
        .map_err(errors::metric)?;
        let dict = object_to_dict(py, &d)?;
        PyTuple::new(
            py,
            [
                s.score.into_pyobject(py)?.into_any(),
                s.signature.to_string().into_pyobject(py)?.into_any(),
                dict.into_any(),
            ],
        )
    }

    /// sacreBLEU's `--confidence` (rouge-score's bootstrap aggregate for ROUGE): the CLI's
    /// record as a dict. `seed=None` is an unseeded run (`SACREBLEU_SEED=None`).
    #[pyo3(signature = (hypotheses, references=None, n=DEFAULT_BOOTSTRAP_SAMPLES, seed=Some(DEFAULT_SEED)))]
    fn confidence<'py>(
        &self,
        py: Python<'py>,
        hypotheses: &Bound<'py, PyAny>,
        references: Option<&Bound<'py, PyAny>>,
        n: usize,
        seed: Option<u64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let r = resampling(n, seed)?;
        let input = Inputs::read(hypotheses, references)?;
        let metric = Arc::clone(&self.metric);
        let record = interrupt::run(py, true, move |_| {
            confidence_record(metric.name(), &*metric, &input.hyps, &input.refs, &r)
        })?
        .map_err(errors::metric)?;
        object_to_dict(py, &record)
    }

    /// sacreBLEU's `--paired-bs` (`test="bs"`) or `--paired-ar` (`test="ar"`) of every system
    /// against the baseline: the CLI's records as dicts, the baseline's first.
    #[pyo3(signature = (baseline, systems, references, test="bs", n=None, seed=Some(DEFAULT_SEED)))]
    #[allow(clippy::too_many_arguments)]
    fn paired<'py>(
        &self,
        py: Python<'py>,
        baseline: &Bound<'py, PyAny>,
        systems: &Bound<'py, PyAny>,
        references: &Bound<'py, PyAny>,
        test: &str,
        n: Option<usize>,
        seed: Option<u64>,
    ) -> PyResult<Bound<'py, PyList>> {
        let (test, default_n) = match test {
            "bs" => (PairedTest::Bootstrap, DEFAULT_BOOTSTRAP_SAMPLES),
            "ar" => (PairedTest::ApproximateRandomization, DEFAULT_AR_TRIALS),
            other => return Err(value_error(bad_test(other))),
        };
        let r = resampling(n.unwrap_or(default_n), seed)?;
        let input = Inputs::read(baseline, Some(references))?;
        let systems = columns(systems, "systems")?;
        let metric = Arc::clone(&self.metric);
        let records = interrupt::run(py, true, move |_| {
            paired_records(
                metric.name(),
                &*metric,
                &input.hyps,
                &systems,
                &input.refs,
                test,
                &r,
            )
        })?
        .map_err(errors::metric)?;
        let list = PyList::empty(py);
        for record in &records {
            list.append(object_to_dict(py, record)?)?;
        }
        Ok(list)
    }

    fn __repr__(&self) -> String {
        format!(
            "TextMetric({:?}, signature={:?})",
            self.metric.name(),
            self.metric.signature(0, 1).to_string()
        )
    }
}

fn bad_test(name: &str) -> String {
    format!("test: {name:?}; \"bs\" (paired bootstrap) or \"ar\" (approximate randomization)")
}

/// Resamples and seed of a significance call, checked before anything is allocated.
fn resampling(n: usize, seed: Option<u64>) -> PyResult<Resampling> {
    if !(1..=MAX_SAMPLES).contains(&n) {
        return Err(value_error(format!(
            "n: {n} resamples; from 1 to {MAX_SAMPLES}"
        )));
    }
    Ok(Resampling { n_samples: n, seed })
}

/// The metric names of the registry, in the order `hauser metric` lists them.
#[pyfunction]
pub(crate) fn metric_names() -> Vec<&'static str> {
    NAMES.to_vec()
}

/// rouge-score's `DefaultTokenizer(use_stemmer).tokenize(text)`, as the ROUGE metrics read it.
#[pyfunction]
#[pyo3(signature = (text, use_stemmer=false))]
pub(crate) fn rouge_tokens(text: &str, use_stemmer: bool) -> Vec<String> {
    RougeScore {
        use_stemmer,
        split_summaries: false,
    }
    .tokens(text)
}

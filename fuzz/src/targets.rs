//! The bodies of the fuzz targets, one function per target taking the fuzzer's bytes.
//!
//! Two builds include this file: the coverage-guided fuzzer (this crate, outside the workspace,
//! one libFuzzer binary per function) and `hauser-cli`'s tests (`fuzz::replay`), which run every
//! committed seed and crash reproducer through the same functions on each `cargo test`. A
//! target fails by panicking: either the code under test panicked on a user's bytes, or one of
//! the invariants asserted here (records in = records out, index answers = naive answers, scores
//! in range, every output line is JSON) does not hold.
//!
//! Targets whose first byte selects options say so; the rest of the input is the file's bytes.

use std::collections::{HashMap, HashSet};
use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::Value;

use figlang_metrics::text::registry::{metric_by_name, TextMetric, TextMetricOptions, NAMES};
use figlang_metrics::text::rouge::RougeImpl;
use figlang_metrics::text::tokenize::{NltkTokenizer, SacreTokenizer};
use figlang_metrics::text::{porter, punkt::PunktModel, rouge, tokenize, treebank_legacy};
use hauser_core::ComponentExtractor;
use hauser_extract::{Comparator, RuleExtractor};
use hauser_kb::format::{FORMAT_VERSION, HEADER_LEN, MAGIC};
use hauser_kb::ingest::{ingest_reader, IngestOptions, InputFormat, MAX_LINE_BYTES};
use hauser_kb::naive::ScanKb;
use hauser_kb::{Kb, KbBuilder, Normalizer};

// The task harnesses' files (issue 29), in a file of their own.
#[path = "task_targets.rs"]
mod task_targets;
pub use task_targets::{
    comet_hparams, narratives_data, newsmet_csv, newsmet_jsonl, prediction_files, wordnet,
};

// The drop-in command lines (issue 37), in a file of their own.
#[path = "drop_in_targets.rs"]
mod drop_in_targets;
pub use drop_in_targets::{bert_score_args, comet_args, sacrebleu_args};

/// A target's body: the fuzzer's bytes in, a panic on failure.
pub type Target = fn(&[u8]);

/// Every target, by the name of its fuzz binary and seed folder.
pub const TARGETS: [(&str, Target); 19] = [
    ("score_input", score_input),
    ("extract", extract),
    ("rule_extractor", rule_extractor),
    ("kb_ingest", kb_ingest),
    ("kb_index", kb_index),
    ("meta_eval", meta_eval),
    ("tokenizers", tokenizers),
    ("text_metrics", text_metrics),
    ("components_literal", components_literal),
    ("word_vectors", word_vectors),
    ("narratives_data", narratives_data),
    ("prediction_files", prediction_files),
    ("newsmet_csv", newsmet_csv),
    ("newsmet_jsonl", newsmet_jsonl),
    ("comet_hparams", comet_hparams),
    ("wordnet", wordnet),
    ("sacrebleu_args", sacrebleu_args),
    ("comet_args", comet_args),
    ("bert_score_args", bert_score_args),
];

/// The option byte and the rest (an empty input reads as option 0 and no bytes).
fn split_first(data: &[u8]) -> (u8, &[u8]) {
    match data.split_first() {
        Some((&flags, rest)) => (flags, rest),
        None => (0, data),
    }
}

/// A scratch directory, removed when its thread ends.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

thread_local! {
    /// A private scratch directory per thread: the command-level targets go through files, and
    /// the tests run targets on several threads at once.
    static SCRATCH: Scratch = {
        let thread = format!("{:?}", std::thread::current().id());
        let dir = std::env::temp_dir().join(format!(
            "hauser-fuzz-{}-{}",
            std::process::id(),
            thread.trim_start_matches("ThreadId(").trim_end_matches(')')
        ));
        std::fs::create_dir_all(&dir).expect("a scratch directory in the temporary directory");
        Scratch(dir)
    };
}

fn scratch(name: &str) -> PathBuf {
    SCRATCH.with(|d| d.0.join(name))
}

/// Sums of non-negative numbers added in different orders agree to a few ulps.
fn close(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// `hauser score` input: JSONL or the HAUSER JSON array (`hauser_cli::io::input::from_bytes`).
/// Every record carries its index in order and a line inside the file; the announced total is
/// the number of records.
pub fn score_input(data: &[u8]) {
    let Ok(input) = hauser_cli::io::input::from_bytes(Path::new("fuzz.jsonl"), data.to_vec())
    else {
        return;
    };
    let lines = 1 + data.iter().filter(|&&b| b == b'\n').count();
    let (total, mut seen, mut last_line) = (input.total, 0usize, 0usize);
    for (i, rec) in input.records.enumerate() {
        assert_eq!(rec.index, i, "records are numbered in order");
        assert!(
            rec.line >= last_line.max(1) && rec.line <= lines,
            "record {i} on line {} (previous {last_line}, {lines} lines)",
            rec.line
        );
        last_line = rec.line;
        match &rec.group {
            Ok(g) => assert_eq!(g.len(), g.candidates.len()),
            Err(message) => assert!(!message.is_empty(), "an error record says why"),
        }
        seen += 1;
    }
    if let Some(total) = total {
        assert_eq!(total, seen, "announced total = records produced");
    }
}

/// `hauser extract`'s per-line loop (`hauser_cli::extract::extract_lines`, behind the file
/// layer that the CLI tests cover): first byte bit 0 = `--like-only`. The run succeeds, every
/// output line is a JSON object, the summary counts them, and there is one record per input
/// line.
pub fn extract(data: &[u8]) {
    let (flags, body) = split_first(data);
    let path = Path::new("fuzz.jsonl");
    let reader = hauser_cli::io::files::buffered(path, Cursor::new(body.to_vec()))
        .expect("reads from memory");
    let mut out = Vec::new();
    let summary =
        hauser_cli::extract::extract_lines(reader, path, rules(flags & 1 == 1), &mut out, path)
            .unwrap_or_else(|e| panic!("extract fails on a readable input: {e}"));
    let text = std::str::from_utf8(&out).expect("the output is UTF-8");
    let mut records = 0;
    for line in text.lines() {
        let v: Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("output line {line:?} is not JSON: {e}"));
        assert!(v.is_object(), "output line {line:?} is an object");
        records += 1;
    }
    assert_eq!(records, summary.extracted + summary.failed);
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    // A final line without a line ending counts; an empty file has no lines.
    let input_lines = body.iter().filter(|&&b| b == b'\n').count()
        + usize::from(!body.is_empty() && !body.ends_with(b"\n"));
    assert_eq!(records, input_lines, "one record per input line");
}

/// The rule-based extractors (all comparators, "like" only), shared by the targets.
fn rules(like_only: bool) -> &'static RuleExtractor {
    static ALL: OnceLock<RuleExtractor> = OnceLock::new();
    static LIKE: OnceLock<RuleExtractor> = OnceLock::new();
    if like_only {
        LIKE.get_or_init(|| RuleExtractor::new().with_comparators(&[Comparator::Like]))
    } else {
        ALL.get_or_init(RuleExtractor::new)
    }
}

/// The rule-based extractor on a simile and an optional literal (split at the first newline;
/// first byte bit 0 = "like" only, bit 1 = pass the literal). Components are exact slices of
/// the sentence and the vehicle span points at the vehicle.
pub fn rule_extractor(data: &[u8]) {
    let (flags, body) = split_first(data);
    let text = String::from_utf8_lossy(body);
    let (simile, literal) = match text.split_once('\n') {
        Some((s, l)) if flags & 2 != 0 => (s, Some(l)),
        _ => (text.as_ref(), None),
    };
    let x = rules(flags & 1 == 1);
    for c in x.comparisons(simile, literal) {
        let span = simile.get(c.vehicle_span.clone());
        assert!(
            span.is_some(),
            "vehicle span {:?} in {simile:?}",
            c.vehicle_span
        );
        for part in c.components.as_triple().into_iter().flatten() {
            assert!(
                simile.contains(part),
                "{part:?} is not a slice of {simile:?}"
            );
        }
    }
    let _ = x.extract(simile, literal);
}

/// Knowledge-base ingestion (`hauser_kb::ingest::ingest_reader`). First byte: bits 0-1 the
/// format (MAPS-KB CSV, triplets, simile TSV, similes), bit 2 the normaliser, bit 3 fail on the
/// first bad row (default: skip and count), bit 4 a 24-byte line limit. The same input goes into the index builder and the
/// naive scan reference: both see the same report, and the index, written and re-opened,
/// answers every pair and vehicle as the scan does.
pub fn kb_ingest(data: &[u8]) {
    let (flags, body) = split_first(data);
    let format = match flags & 3 {
        0 => InputFormat::MapsKb,
        1 => InputFormat::Triplets,
        2 => InputFormat::SimileTsv,
        _ => InputFormat::Similes,
    };
    let normalizer = if flags & 4 == 0 {
        Normalizer::Reference
    } else {
        Normalizer::StripPunctuation
    };
    let opts = IngestOptions {
        skip_bad_rows: flags & 8 == 0,
        // A short line limit, so that the long-line paths are reached with small inputs.
        max_line_bytes: if flags & 16 != 0 { 24 } else { MAX_LINE_BYTES },
    };
    let x: &dyn ComponentExtractor = rules(false);
    let path = Path::new("fuzz.in");
    let mut builder = KbBuilder::new(normalizer);
    let report = match ingest_reader(Cursor::new(body), path, format, &mut builder, opts, Some(x)) {
        Ok(r) => r,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    if format != InputFormat::Similes && opts.skip_bad_rows {
        assert_eq!(
            report.rows_read,
            report.triplets_added + report.bad_rows + report.empty_keys,
            "every row read is added, bad or empty: {report:?}"
        );
    }
    let mut scan = ScanKb::new(normalizer);
    let again = ingest_reader(Cursor::new(body), path, format, &mut scan, opts, Some(x))
        .expect("the scan reference ingests what the builder ingested");
    assert_eq!(
        report, again,
        "builder and scan reference read the same rows"
    );
    // Written to memory and re-opened: the checks below hold for what a user's index file holds.
    let mut bytes = Cursor::new(Vec::new());
    builder
        .write_to(&mut bytes, path)
        .expect("writes to memory");
    let kb = Kb::from_bytes(bytes.into_inner()).expect("a written index re-opens");
    assert_eq!(kb.stats().rows, scan.rows.len() as u64);

    let mut pairs: HashMap<(&str, &str), (f64, f64)> = HashMap::new();
    let mut vehicles: HashMap<&str, f64> = HashMap::new();
    let mut triplets: HashSet<(&str, &str, &str)> = HashSet::new();
    for r in &scan.rows {
        let e = pairs.entry((&r.topic, &r.vehicle)).or_default();
        e.0 += r.count * r.plausibility;
        e.1 += r.count;
        *vehicles.entry(&r.vehicle).or_default() += r.count;
        triplets.insert((&r.topic, &r.property, &r.vehicle));
    }
    let stats = kb.stats();
    assert_eq!(stats.topic_vehicle_pairs, pairs.len() as u64);
    assert_eq!(stats.triplets, triplets.len() as u64);
    for (&(t, v), &(relevance, count)) in &pairs {
        let p = kb
            .pair_normalized(t, v)
            .unwrap_or_else(|| panic!("pair ({t:?}, {v:?}) missing from the index"));
        assert!(
            close(p.relevance, relevance),
            "relevance {p:?} vs {relevance}"
        );
        assert!(close(p.count, count), "count {p:?} vs {count}");
        let _ = kb.top_properties(t, v, 3);
    }
    for (&v, &n) in &vehicles {
        assert!(close(kb.vehicle_count_normalized(v), n), "N({v:?})");
    }
    let listed = kb.triplets().count();
    assert_eq!(listed as u64, stats.triplets);
}

/// Opening index bytes (`Kb::from_bytes`) and querying what opened. First byte bit 0: repair the
/// magic, version, payload length and both checksums first, so that mutations reach the
/// section checks and the queries instead of stopping at a checksum.
pub fn kb_index(data: &[u8]) {
    let (flags, body) = split_first(data);
    let mut bytes = body.to_vec();
    if flags & 1 == 1 && bytes.len() >= HEADER_LEN {
        let payload_len = (bytes.len() - HEADER_LEN) as u64;
        bytes[0..8].copy_from_slice(MAGIC);
        bytes[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        bytes[24..32].copy_from_slice(&payload_len.to_le_bytes());
        let sum = hauser_kb::hash::xxh64(&bytes[HEADER_LEN..]);
        bytes[32..40].copy_from_slice(&sum.to_le_bytes());
        let head = hauser_kb::hash::xxh64(&bytes[..120]);
        bytes[120..128].copy_from_slice(&head.to_le_bytes());
    }
    let kb = match Kb::from_bytes(bytes) {
        Ok(kb) => kb,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    let stats = kb.stats();
    for i in 0..stats.topic_vehicle_pairs.min(64) as usize {
        if let Some((t, v)) = kb.pair_keys(i) {
            let _ = (kb.relevance(&t, &v), kb.pair(&t, &v), kb.vehicle_count(&v));
            for hit in kb.top_properties(&t, &v, 4) {
                let _ = kb.top_vehicles(&t, &hit.name, 4);
            }
        }
    }
    for id in 0..stats.strings.min(64) as u32 {
        let s = kb.string(id);
        let _ = (kb.string_id(&s), kb.vehicle_count_by_id(id));
    }
    let _ = kb.triplets().take(256).count();
}

/// `hauser meta-eval` and `hauser corr` on a TSV file. First byte bit 0: corr instead of
/// meta-eval, bit 1: 20 bootstrap resamples. Either an error or one JSON line equal to the
/// returned value.
pub fn meta_eval(data: &[u8]) {
    use hauser_cli::meta_eval::{run_corr, run_meta_eval, CorrArgs, MetaEvalArgs};
    let (flags, body) = split_first(data);
    let input = scratch("meta.tsv");
    std::fs::write(&input, body).expect("write the scratch input");
    let mut out = Vec::new();
    let result = if flags & 1 == 0 {
        let args = MetaEvalArgs {
            input,
            system_col: "system".into(),
            segment_col: "segment".into(),
            human_col: "human".into(),
            metric_col: vec!["metric".into()],
            wmt: false,
            format: None,
            resamples: None,
            alpha: None,
            bootstrap: Some(if flags & 2 != 0 { 20 } else { 0 }),
            seed: u64::from(flags >> 2),
            plot: None,
        };
        run_meta_eval(&args, &mut out)
    } else {
        let args = CorrArgs {
            input,
            x: "human".into(),
            y: "metric".into(),
        };
        run_corr(&args, &mut out)
    };
    match result {
        Ok(value) => {
            let written: Value =
                serde_json::from_slice(&out).expect("the output is one JSON value");
            assert_eq!(written, value);
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

/// The tokenizers behind the text metrics, one per execution (first byte, mod 8): Punkt
/// sentences, NLTK `word_tokenize` (current and 3.4.5), the 3.4.5 treebank tokenizer, sacreBLEU
/// 13a / intl / none, the rouge-score tokenizer with the Porter stemmer. No token is empty.
pub fn tokenizers(data: &[u8]) {
    let (which, body) = split_first(data);
    let text = String::from_utf8_lossy(body);
    match which % 8 {
        0 => {
            for s in PunktModel::english().sentences(&text) {
                let _ = s.len();
            }
        }
        n @ (1 | 2) => {
            let t = if n == 1 {
                NltkTokenizer::Current
            } else {
                NltkTokenizer::V345
            };
            for tok in t.tokenize(&text) {
                assert!(!tok.is_empty(), "{t}: empty token in {text:?}");
            }
        }
        3 => {
            for tok in treebank_legacy::word_tokenize_nltk345(&text) {
                assert!(!tok.is_empty(), "nltk 3.4.5 treebank: empty token");
            }
        }
        n @ 4..=6 => {
            let t = [
                SacreTokenizer::T13a,
                SacreTokenizer::Intl,
                SacreTokenizer::None,
            ][usize::from(n - 4)];
            let _ = t.tokenize(&text);
        }
        _ => {
            for tok in rouge::rouge_score_tokens(&text) {
                assert!(!tok.is_empty(), "rouge-score: empty token in {text:?}");
            }
            for word in tokenize::py_split(&text).take(64) {
                let _ = porter::stem(word);
            }
        }
    }
}

/// Meteor needs WordNet: loaded once per process when the database is installed.
fn meteor(nltk: NltkTokenizer) -> Option<&'static dyn TextMetric> {
    static CURRENT: OnceLock<Option<Box<dyn TextMetric>>> = OnceLock::new();
    static V345: OnceLock<Option<Box<dyn TextMetric>>> = OnceLock::new();
    let cell = if nltk == NltkTokenizer::V345 {
        &V345
    } else {
        &CURRENT
    };
    cell.get_or_init(|| {
        let options = TextMetricOptions {
            nltk,
            ..TextMetricOptions::default()
        };
        metric_by_name("meteor", &options).ok()
    })
    .as_deref()
}

/// One registered text metric per execution (second byte, modulo the number of [`NAMES`], in
/// their order)
/// on hypothesis lines and reference lines (split at the first NUL; a second NUL starts a
/// second reference list). First byte: sacreBLEU tokenizer (mod 3),
/// bit 2 lowercase, bit 3 NLTK 3.4.5, bits 4-5 the ROUGE implementation, bit 6 pltrdy
/// pre-tokenisation, bit 7 keep the reference lists unaligned (an error, never a panic).
/// Sentence scores are in [0, 1] (NLTK 3.4.5 METEOR: [0, 2]; the error rates: finite, at least 0), one per
/// hypothesis; reference lists that are not line-aligned
/// are refused; corpus scores are finite.
pub fn text_metrics(data: &[u8]) {
    let (flags, body) = split_first(data);
    let (which, body) = split_first(body);
    let name = NAMES[usize::from(which) % NAMES.len()];
    let text = String::from_utf8_lossy(body);
    let mut parts = text.split('\0');
    let hyps: Vec<String> = parts
        .next()
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect();
    let mut refs: Vec<Vec<String>> = parts
        .take(2)
        .map(|p| p.lines().map(str::to_string).collect())
        .collect();
    let aligned = flags & 0x80 == 0;
    if aligned {
        for r in &mut refs {
            r.resize(hyps.len(), String::new());
        }
    }
    let nltk = if flags & 8 != 0 {
        NltkTokenizer::V345
    } else {
        NltkTokenizer::Current
    };
    let options = TextMetricOptions {
        sacre_tokenizer: [
            SacreTokenizer::T13a,
            SacreTokenizer::Intl,
            SacreTokenizer::None,
        ][usize::from(flags % 3)],
        lowercase: flags & 4 != 0,
        nltk,
        rouge_impl: [
            RougeImpl::RougeScore,
            RougeImpl::Pltrdy,
            RougeImpl::Pltrdy032,
            RougeImpl::RougeScore,
        ][usize::from((flags >> 4) & 3)],
        rouge_pretokenize: flags & 0x40 != 0,
        ..TextMetricOptions::default()
    };
    let owned;
    let metric: &dyn TextMetric = if name == "meteor" {
        match meteor(nltk) {
            Some(m) => m,
            None => return,
        }
    } else {
        owned = metric_by_name(name, &options)
            .unwrap_or_else(|e| panic!("{name} builds with valid options: {e}"));
        owned.as_ref()
    };
    let misaligned = refs.iter().any(|r| r.len() != hyps.len());
    match metric.sentence_scores(&hyps, &refs) {
        Ok(scores) => {
            assert!(
                !(misaligned && metric.needs_references()),
                "{name} scores reference lists that are not line-aligned"
            );
            assert_eq!(scores.len(), hyps.len(), "{name}: one score per hypothesis");
            // NLTK 3.4.5's METEOR, reproduced bug for bug, counts some stem matches twice
            // and can exceed 1 (precision and recall at most 2 each). TER counts edits per
            // reference word: a hypothesis longer than its reference exceeds 1, and an empty
            // reference makes any hypothesis 1 (sacreBLEU), so it is bounded by the edits.
            let top = if name == "meteor" && nltk == NltkTokenizer::V345 {
                2.0
            } else if metric.lower_is_better() {
                // The error rates (TER, WER, CER) count edits per reference unit.
                f64::INFINITY
            } else {
                1.0
            };
            for s in scores {
                assert!(
                    s.is_finite() && (-1e-9..=top + 1e-9).contains(&s),
                    "{name}: sentence score {s} outside [0, {top}]"
                );
            }
        }
        // Documented refusals (Self-BLEU of one generation, pltrdy ROUGE of an empty
        // reference, ...) are errors with a message, never panics.
        Err(e) => assert!(!e.to_string().is_empty()),
    }
    if let Ok(corpus) = metric.corpus_score(&hyps, &refs) {
        assert!(
            corpus.score.is_finite(),
            "{name}: corpus score {}",
            corpus.score
        );
    }
}

/// The Python list-of-tuples literal of the HAUSER release's components column.
pub fn components_literal(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(list) = hauser_core::parse_components_literal(text) {
        for c in list {
            let _ = c.as_triple();
        }
    }
}

/// Word-vector files (`figlang_metrics::wmd::WordVectors::from_reader`) and WMD on what they
/// hold. First byte: bits 0-1 the format (detected, word2vec binary, word2vec text, GloVe), bit 2
/// a vocabulary limit of 3, bit 3 `norm=False`, bit 4 through a file (`WordVectors::load`, the
/// format detected when bits 0-1 are 0). A file either fails with a message naming it, or gives
/// vectors of its dimension; with a limit, the words and vectors are the first ones the file
/// gives without it; every word's distance to itself is 0 (or NaN for a zero vector under
/// `norm`), distances are symmetric and never negative, and NewsMet's finite cosine similarities
/// lie in [-1, 1].
pub fn word_vectors(data: &[u8]) {
    use figlang_metrics::wmd::{detect_format, wmdistance, VectorFormat, WordVectors};
    let (flags, body) = split_first(data);
    let format = match flags & 3 {
        0 => detect_format(&mut Cursor::new(body)).expect("reads from memory"),
        1 => VectorFormat::Word2VecBinary,
        2 => VectorFormat::Word2VecText,
        _ => VectorFormat::GloveText,
    };
    let limit = (flags & 4 != 0).then_some(3);
    let norm = flags & 8 == 0;
    let size = Some(body.len() as u64);
    let read = |limit: Option<usize>| {
        if flags & 16 != 0 {
            let file = scratch("vectors.bin");
            std::fs::write(&file, body).expect("write the scratch input");
            let chosen = (flags & 3 != 0).then_some(format);
            (WordVectors::load(&file, chosen, limit), file)
        } else {
            let path = PathBuf::from("v");
            let r = WordVectors::from_reader(Cursor::new(body), &path, format, limit, size);
            (r, path)
        }
    };
    let v = match read(limit) {
        (Ok(v), _) => v,
        (Err(e), path) => {
            let m = e.to_string();
            assert!(m.starts_with(&path.display().to_string()), "{m}");
            return;
        }
    };
    if let Some(limit) = limit {
        assert!(v.len() <= limit, "{} words past the limit", v.len());
        // gensim's `limit` reads the first rows: the same words as the whole file's first ones.
        if let (Ok(all), _) = read(None) {
            let (some, every) = (v.words(), all.words());
            assert_eq!(
                some[..],
                every[..some.len()],
                "the limit keeps the first words"
            );
            for w in some {
                assert_eq!(
                    v.get(w)
                        .map(|x| x.iter().map(|f| f.to_bits()).collect::<Vec<_>>()),
                    all.get(w).map(|x| x.iter().map(|f| f.to_bits()).collect()),
                    "{w:?} has the same vector"
                );
            }
        }
    }
    let words = v.words();
    assert_eq!(words.len(), v.len());
    for w in words.iter().take(8) {
        assert_eq!(v.get(w).map(<[f32]>::len), Some(v.dim()));
    }
    let first: Vec<&str> = words.iter().take(4).copied().collect();
    let last: Vec<&str> = words
        .iter()
        .rev()
        .take(3)
        .copied()
        .chain(["not-a-word"])
        .collect();
    let d = wmdistance(&v, &first, &last, norm);
    let back = wmdistance(&v, &last, &first, norm);
    assert!(d.is_nan() || d >= 0.0, "negative distance {d}");
    assert!(
        (d.is_nan() && back.is_nan()) || d == back || (d - back).abs() <= 1e-9 * d.abs().max(1.0),
        "not symmetric: {d} vs {back}"
    );
    if let Some(w) = first.first() {
        let same = wmdistance(&v, &[w], &[w], norm);
        assert!(same == 0.0, "{w:?} to itself: {same}");
    }
    for a in &first {
        for b in &last {
            // A zero vector, or one whose squares underflow in f32, has no direction: NaN or
            // inf (the commands write null); squares near the subnormal range lose precision
            // in f32 (NumPy's too), so only vectors of normal size are held to [-1, 1].
            let normal = |w: &str| {
                let n2: f64 = v.get(w).map_or(0.0, |x| {
                    x.iter().map(|&f| f64::from(f) * f64::from(f)).sum()
                });
                (1e-30..1e30).contains(&n2)
            };
            if let Some(s) = figlang_tasks::newsmet::similarity(&v, a, b) {
                assert!(
                    !s.is_finite() || !normal(a) || !normal(b) || s.abs() <= 1.0 + 1e-5,
                    "cos({a:?}, {b:?}) = {s}"
                );
            }
        }
    }
}

//! Knowledge-base benchmarks on a synthetic MAPS-KB-sized KB (4.3M rows by default).
//!
//! Measures, in one run: opening (mmap + full checksum), indexed lookups (relevance on
//! normalised keys, relevance with `clean`, N(v), top-5 properties), the reference method (a
//! full scan of all rows per lookup, as the original pandas filter does), and KB scoring of the
//! 12,495 candidates of simile_candidates_raw.json (components from the rule-based extractor)
//! and of the 150 annotated similes (given components).
//!
//! Files: `target/kb-bench/synth-<N>.csv` and `.idx`, created when absent
//! (`tools/bench/kb_bench.sh` creates them with the CLI and also measures build time and peak
//! RSS). Size: env
//! `HAUSER_KB_BENCH_TRIPLETS` (default 4300000).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};
use hauser_core::{
    parse_components_literal, Candidate, CandidateGroup, ComponentExtractor, Scorer,
};
use hauser_kb::ingest::{ingest_path, IngestOptions, InputFormat};
use hauser_kb::naive::ScanKb;
use hauser_kb::{CreativityScorer, Kb, KbBuilder, Normalizer, RelevanceScorer};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn shared_data() -> PathBuf {
    std::env::var_os("HAUSER_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("../shared/data"))
}

fn synth_files() -> (PathBuf, PathBuf) {
    let n: u64 = std::env::var("HAUSER_KB_BENCH_TRIPLETS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4_300_000);
    let dir = workspace().join("target/kb-bench");
    std::fs::create_dir_all(&dir).expect("create target/kb-bench");
    let csv = dir.join(format!("synth-{n}.csv"));
    let idx = dir.join(format!("synth-{n}.idx"));
    if !csv.exists() {
        let f = std::fs::File::create(&csv).expect("create csv");
        hauser_kb::synth::write_synthetic(f, n, 1).expect("write synthetic KB");
    }
    if !idx.exists() {
        let mut b = KbBuilder::new(Normalizer::Reference);
        ingest_path(
            &csv,
            InputFormat::MapsKb,
            &mut b,
            IngestOptions::default(),
            None,
        )
        .expect("ingest");
        b.write_file(&idx).expect("write index");
    }
    (csv, idx)
}

/// Present pairs spread over the key space, each followed by an absent one (same topic,
/// unknown vehicle).
fn sample_pairs(kb: &Kb, n: usize) -> Vec<(String, String)> {
    let total = kb.header().n_pairs as usize;
    let mut out = Vec::with_capacity(2 * n);
    for i in 0..n {
        let (t, v) = kb
            .pair_keys((i * 7919 * 104_729) % total.max(1))
            .expect("pair");
        out.push((t.clone(), format!("{v} zz")));
        out.push((t, v));
    }
    out
}

fn annotated_groups() -> Option<Vec<CandidateGroup>> {
    let path = shared_data().join("hauser/human_annotated.csv");
    let mut r = csv::Reader::from_path(path).ok()?;
    let mut groups: Vec<CandidateGroup> = Vec::new();
    for row in r.records() {
        let row = row.ok()?;
        let comps = parse_components_literal(&row[1]).ok()?;
        let cand = Candidate::with_components(&row[0], comps);
        match groups.iter_mut().find(|g| g.literal == row[2]) {
            Some(g) => g.candidates.push(cand),
            None => {
                let mut g = CandidateGroup::new(&row[2], Vec::<String>::new());
                g.candidates.push(cand);
                groups.push(g);
            }
        }
    }
    Some(groups)
}

fn raw_candidate_groups() -> Option<Vec<CandidateGroup>> {
    let path = shared_data().join("hauser/simile_candidates_raw.json");
    let text = std::fs::read_to_string(path).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    let ex = hauser_extract::RuleExtractor::new();
    let mut groups = Vec::new();
    for item in v.as_array()? {
        let literal = item["origin_sentence"].as_str()?;
        let mut g = CandidateGroup::new(literal, Vec::<String>::new());
        for c in item["cands"].as_array()? {
            let text = c.as_str()?;
            let comps = ex.extract(text, Some(literal)).unwrap_or_default();
            g.candidates.push(Candidate::with_components(text, comps));
        }
        groups.push(g);
    }
    Some(groups)
}

fn bench_kb(c: &mut Criterion) {
    let (csv, idx) = synth_files();
    let kb = Arc::new(Kb::open(&idx).expect("open index"));
    // 64k queries spread over the whole file, so that lookups are not served from a warm cache.
    let pairs = sample_pairs(&kb, 32_768);
    let mut g = c.benchmark_group("kb");
    g.sample_size(20);
    g.bench_function("open_mmap_checksum", |b| {
        b.iter(|| Kb::open(&idx).expect("open"))
    });
    g.sample_size(100);
    let mut i = 0usize;
    g.bench_function("lookup_relevance_normalized", |b| {
        b.iter(|| {
            i = (i + 1) % pairs.len();
            kb.relevance_normalized(&pairs[i].0, &pairs[i].1)
        })
    });
    g.bench_function("lookup_relevance_with_clean", |b| {
        b.iter(|| {
            i = (i + 1) % pairs.len();
            kb.relevance(&pairs[i].0, &pairs[i].1)
        })
    });
    g.bench_function("lookup_vehicle_count_normalized", |b| {
        b.iter(|| {
            i = (i + 1) % pairs.len();
            kb.vehicle_count_normalized(&pairs[i].1)
        })
    });
    g.bench_function("top5_properties", |b| {
        b.iter(|| {
            i = (i + 1) % pairs.len();
            kb.top_properties(&pairs[i].0, &pairs[i].1, 5)
        })
    });

    if let Some(groups) = raw_candidate_groups() {
        let n: usize = groups.iter().map(|g| g.len()).sum();
        let rel = RelevanceScorer::new(kb.clone());
        let cre = CreativityScorer::new(kb.clone());
        g.sample_size(20);
        g.bench_function(
            format!("score_{n}_raw_candidates_relevance_creativity"),
            |b| b.iter(|| (rel.score_groups(&groups), cre.score_groups(&groups))),
        );
    }
    if let Some(groups) = annotated_groups() {
        let rel = RelevanceScorer::new(kb.clone());
        let cre = CreativityScorer::new(kb.clone());
        g.bench_function("score_150_annotated_relevance_creativity", |b| {
            b.iter(|| (rel.score_groups(&groups), cre.score_groups(&groups)))
        });
    }

    // The reference method: every lookup scans all rows.
    let mut scan = ScanKb::new(Normalizer::Reference);
    ingest_path(
        &csv,
        InputFormat::MapsKb,
        &mut scan,
        IngestOptions::default(),
        None,
    )
    .expect("ingest for scan");
    g.sample_size(10);
    g.bench_function("naive_scan_relevance", |b| {
        b.iter(|| {
            i = (i + 1) % pairs.len();
            scan.relevance(&pairs[i].0, &pairs[i].1)
        })
    });
    g.bench_function("naive_scan_vehicle_count", |b| {
        b.iter(|| {
            i = (i + 1) % pairs.len();
            scan.vehicle_count(&pairs[i].1)
        })
    });
    g.finish();
}

criterion_group!(benches, bench_kb);
criterion_main!(benches);

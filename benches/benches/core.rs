//! Core pipeline throughput: normalisation, quality and reranking of many groups.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hauser_core::{normalize_with, Evaluator, InformativenessScorer, TieRule};

fn bench_core(c: &mut Criterion) {
    let groups = hauser_benches::synthetic_groups(2_500, 5);
    let evaluator = Evaluator::new().with_scorer(InformativenessScorer);
    let mut g = c.benchmark_group("core");
    g.throughput(Throughput::Elements(12_500));
    g.bench_function("evaluate_informativeness_2500x5", |b| {
        b.iter(|| evaluator.evaluate(&groups, 0))
    });
    let raw: Vec<f64> = (0..5).map(|i| i as f64 * 0.3).collect();
    g.throughput(Throughput::Elements(1));
    g.bench_function("normalize_group_of_5", |b| {
        b.iter(|| normalize_with(TieRule::Half, &raw))
    });
    g.finish();
}

criterion_group!(benches, bench_core);
criterion_main!(benches);

//! Index lookups agree with a naive scan of the rows on random knowledge bases.

use std::collections::BTreeMap;

use hauser_kb::clean::Role;
use hauser_kb::ingest::TripletSink;
use hauser_kb::naive::ScanKb;
use hauser_kb::{Kb, KbBuilder, Normalizer};
use proptest::prelude::*;

// Raw spellings that collide after normalisation, so that the test exercises `clean` too.
const ENTITIES: [&str; 10] = [
    "he",
    "He",
    "the wind",
    "like the wind",
    "a dog",
    "dog",
    "an old man",
    "Old Man",
    "sun's eye",
    "the  sun's   eye",
];
const PROPERTIES: [&str; 5] = ["brave", "quick", "Cold", "the cold", "bright"];

type Row = (usize, usize, usize, u32, Option<u8>);

fn rows_strategy() -> impl Strategy<Value = (Vec<Row>, bool)> {
    (
        proptest::collection::vec(
            (
                0..ENTITIES.len(),
                0..PROPERTIES.len(),
                0..ENTITIES.len(),
                0u32..20,
                proptest::option::of(0u8..=4),
            ),
            0..80,
        ),
        any::<bool>(),
    )
}

/// Plausibilities are multiples of 1/4 so that sums are exact in any order.
fn plaus(p: Option<u8>, with: bool) -> Option<f64> {
    with.then(|| f64::from(p.unwrap_or(4)) / 4.0)
}

fn build(rows: &[Row], with_p: bool, normalizer: Normalizer) -> (Kb, ScanKb) {
    let mut b = KbBuilder::new(normalizer);
    let mut scan = ScanKb::new(normalizer);
    if with_p {
        b.set_has_plausibility();
    }
    for &(t, p, v, n, pl) in rows {
        let pl = plaus(pl, with_p);
        b.add(ENTITIES[t], PROPERTIES[p], ENTITIES[v], f64::from(n), pl)
            .expect("add");
        scan.add(ENTITIES[t], PROPERTIES[p], ENTITIES[v], f64::from(n), pl)
            .expect("add");
    }
    (b.build_in_memory().expect("build"), scan)
}

/// Naive top-k: aggregate matching rows by `key`, order by weight, count desc, then name.
fn naive_top(
    scan: &ScanKb,
    filter: impl Fn(&hauser_kb::naive::ScanRow) -> bool,
    key: impl Fn(&hauser_kb::naive::ScanRow) -> String,
    k: usize,
) -> Vec<(String, f64, f64)> {
    let mut agg: BTreeMap<String, (f64, f64)> = BTreeMap::new();
    for r in scan.rows.iter().filter(|r| filter(r)) {
        let e = agg.entry(key(r)).or_insert((0.0, 0.0));
        e.0 += r.count;
        e.1 += r.count * r.plausibility;
    }
    let mut v: Vec<(String, f64, f64)> = agg.into_iter().map(|(k, (c, w))| (k, c, w)).collect();
    v.sort_by(|a, b| {
        b.2.total_cmp(&a.2)
            .then(b.1.total_cmp(&a.1))
            .then(a.0.as_bytes().cmp(b.0.as_bytes()))
    });
    v.truncate(k);
    v
}

fn check(kb: &Kb, scan: &ScanKb) -> Result<(), TestCaseError> {
    let n = kb.normalizer();
    let mut queries: Vec<&str> = ENTITIES.to_vec();
    queries.extend(["absent", "", "the"]);
    for t in &queries {
        for v in &queries {
            prop_assert_eq!(
                kb.relevance(t, v),
                scan.relevance(t, v),
                "relevance({:?}, {:?})",
                t,
                v
            );
            let count = kb.pair(t, v).map_or(0.0, |p| p.count);
            prop_assert_eq!(count, scan.pair_count(t, v));
            let (tk, vk) = (n.clean(t, Role::Entity), n.clean(v, Role::Entity));
            let want = naive_top(
                scan,
                |r| r.topic == tk && r.vehicle == vk,
                |r| r.property.clone(),
                3,
            );
            let got: Vec<(String, f64, f64)> = kb
                .top_properties(t, v, 3)
                .into_iter()
                .map(|h| (h.name, h.count, h.weight))
                .collect();
            prop_assert_eq!(got, want, "top_properties({:?}, {:?})", t, v);
        }
        prop_assert_eq!(kb.vehicle_count(t), scan.vehicle_count(t), "N({:?})", t);
        for p in PROPERTIES.iter().chain(&["absent"]) {
            let (tk, pk) = (n.clean(t, Role::Entity), n.clean(p, Role::Property));
            let want = naive_top(
                scan,
                |r| r.topic == tk && r.property == pk,
                |r| r.vehicle.clone(),
                4,
            );
            let got: Vec<(String, f64, f64)> = kb
                .top_vehicles(t, p, 4)
                .into_iter()
                .map(|h| (h.name, h.count, h.weight))
                .collect();
            prop_assert_eq!(got, want, "top_vehicles({:?}, {:?})", t, p);
        }
    }
    let distinct: std::collections::BTreeSet<(String, String, String)> = scan
        .rows
        .iter()
        .map(|r| (r.topic.clone(), r.property.clone(), r.vehicle.clone()))
        .collect();
    prop_assert_eq!(kb.header().n_triplets, distinct.len() as u64);
    prop_assert_eq!(kb.triplets().count(), distinct.len());
    prop_assert_eq!(kb.header().n_rows, scan.rows.len() as u64);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]
    #[test]
    fn lookups_agree_with_a_full_scan((rows, with_p) in rows_strategy(), strip in any::<bool>()) {
        let normalizer = if strip { Normalizer::StripPunctuation } else { Normalizer::Reference };
        let (kb, scan) = build(&rows, with_p, normalizer);
        check(&kb, &scan)?;
    }
}

#[test]
fn file_and_memory_indexes_answer_the_same() {
    let rows: Vec<Row> = (0..200)
        .map(|i| {
            (
                i % 10,
                i % 5,
                (i * 7) % 10,
                (i % 13) as u32,
                Some((i % 5) as u8),
            )
        })
        .collect();
    let (mem, scan) = build(&rows, true, Normalizer::Reference);
    let mut b = KbBuilder::new(Normalizer::Reference);
    b.set_has_plausibility();
    for &(t, p, v, n, pl) in &rows {
        b.add(
            ENTITIES[t],
            PROPERTIES[p],
            ENTITIES[v],
            f64::from(n),
            plaus(pl, true),
        )
        .expect("add");
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("kb.idx");
    let header = b.write_file(&path).expect("write");
    let file = Kb::open(&path).expect("open");
    assert_eq!(*file.header(), header);
    assert_eq!(file.checksum(), mem.checksum());
    assert!(file.has_plausibility());
    check(&file, &scan).expect("file index agrees with the scan");
    let s = file.stats();
    assert_eq!(s.strings, file.header().n_strings);
    assert!(s.vehicles > 0 && s.total_count > 0.0);
}

#[test]
fn row_order_does_not_change_the_file() {
    let rows: Vec<Row> = (0..50)
        .map(|i| (i % 10, i % 5, (i * 3) % 10, 1 + (i % 4) as u32, None))
        .collect();
    let mut rev = rows.clone();
    rev.reverse();
    let (a, _) = build(&rows, false, Normalizer::Reference);
    let (b, _) = build(&rev, false, Normalizer::Reference);
    assert_eq!(a.checksum(), b.checksum());
}

//! Word Mover's Distance against gensim 4.4.0 + POT 0.9.7 (`tools/gen/gen_wmd_fixture.py`), on the
//! fixture's random vectors read from each of the three file formats. Tolerance: 1e-9 relative
//! (the issue asks for 1e-6; the exact solver and gensim's own float32 normalisation leave far
//! less).

use std::io::Cursor;
use std::path::{Path, PathBuf};

use serde_json::Value;

use figlang_metrics::wmd::{
    detect_format, emd, wmdistance, VectorError, VectorFormat, WordVectors,
};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/wmd")
        .join(name)
}

fn golden() -> Value {
    serde_json::from_str(&std::fs::read_to_string(fixture("wmd_golden.json")).unwrap()).unwrap()
}

/// The strings of a JSON list. gensim's `index_to_key` ends with a `None` slot for each
/// duplicate word it skipped (it sizes the list from the header's count); those are not words.
fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .filter(|s| !s.is_null())
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

const FILES: [(&str, VectorFormat); 3] = [
    ("vectors.bin", VectorFormat::Word2VecBinary),
    ("vectors.txt", VectorFormat::Word2VecText),
    ("glove.txt", VectorFormat::GloveText),
];

#[test]
fn every_format_loads_gensims_vocabulary_and_vectors() {
    let g = golden();
    let vocab = strings(&g["vocab"]);
    let first: Vec<f32> = g["vectors_bin_first"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap() as f32)
        .collect();
    for (name, format) in FILES {
        let path = fixture(name);
        let detected = detect_format(&mut std::io::BufReader::new(
            std::fs::File::open(&path).unwrap(),
        ))
        .unwrap();
        assert_eq!(detected, format, "{name}");
        let v = WordVectors::load(&path, None, None).unwrap();
        assert_eq!(
            v.words(),
            &vocab[..],
            "{name}: words in file order, duplicate dropped"
        );
        assert_eq!(v.dim(), g["dim"].as_u64().unwrap() as usize);
        assert_eq!(v.get(&vocab[0]).unwrap(), &first[..], "{name}");
        let limited = WordVectors::load(&path, Some(format), Some(10)).unwrap();
        assert_eq!(
            limited.words(),
            &strings(&g["limit_10_vocab"])[..],
            "{name}: limit"
        );
    }
}

#[test]
fn wmdistance_matches_gensim_on_every_case() {
    let g = golden();
    let stores: Vec<WordVectors> = FILES
        .iter()
        .map(|(name, f)| WordVectors::load(&fixture(name), Some(*f), None).unwrap())
        .collect();
    let cases = g["cases"].as_array().unwrap();
    assert!(cases.len() >= 100);
    for case in cases {
        let d1 = strings(&case["doc1"]);
        let d2 = strings(&case["doc2"]);
        let d1: Vec<&str> = d1.iter().map(String::as_str).collect();
        let d2: Vec<&str> = d2.iter().map(String::as_str).collect();
        let norm = case["norm"].as_bool().unwrap();
        for v in &stores {
            let got = wmdistance(v, &d1, &d2, norm);
            match &case["distance"] {
                Value::String(s) if s == "inf" => {
                    assert_eq!(got, f64::INFINITY, "{d1:?} {d2:?} norm={norm}")
                }
                want => {
                    let want = want.as_f64().unwrap();
                    assert!(
                        (got - want).abs() <= 1e-9 * want.abs().max(1e-12),
                        "{d1:?} vs {d2:?} (norm={norm}): {got} != gensim {want}"
                    );
                }
            }
            // The distance is symmetric (costs are, and the plan reverses).
            let back = wmdistance(v, &d2, &d1, norm);
            assert!(
                got == back || (got - back).abs() <= 1e-12 * got.abs(),
                "{got} {back}"
            );
        }
    }
}

#[test]
fn malformed_files_are_errors_naming_where() {
    let read = |text: &[u8], format| {
        WordVectors::from_reader(
            Cursor::new(text.to_vec()),
            Path::new("v.txt"),
            format,
            None,
            None,
        )
    };
    let err = |r: Result<WordVectors, VectorError>| r.unwrap_err().to_string();
    let e = err(read(b"2 3\na 1 2 3\nb 1 2\n", VectorFormat::Word2VecText));
    assert!(
        e.contains("v.txt: line 3: 2 numbers where 3 were expected"),
        "{e}"
    );
    let e = err(read(b"3 2\na 1 2\nb 1 2\n", VectorFormat::Word2VecText));
    assert!(
        e.contains("unexpected end of input after 2 of 3 vectors"),
        "{e}"
    );
    let e = err(read(b"a 1 x\n", VectorFormat::GloveText));
    assert!(e.contains("line 1: \"x\" is not a number"), "{e}");
    let e = err(read(b"a b c\n", VectorFormat::Word2VecText));
    assert!(e.contains("line 1: the header must be two numbers"), "{e}");
    let e = err(read(b"1 2\nabc", VectorFormat::Word2VecBinary));
    assert!(
        e.contains("unexpected end of input after 0 of 1 vectors"),
        "{e}"
    );
    let mut bad = b"1 1\n\xff ".to_vec();
    bad.extend_from_slice(&1f32.to_le_bytes());
    let e = err(read(&bad, VectorFormat::Word2VecBinary));
    assert!(e.contains("byte 4: a word that is not UTF-8"), "{e}");
    // A header asking for more than any machine holds is refused before allocating.
    let e = err(read(
        b"18446744073709551615 18446744073709551615\n",
        VectorFormat::Word2VecText,
    ));
    assert!(e.contains("needs"), "{e}");
    // A binary header whose one vector is larger than the file (found by fuzzing: it aborted
    // allocating the vector's buffer) is refused; without a known size, by the memory limit.
    let huge = b"36 85745746002\n6 8\n8\xb9";
    let e = err(WordVectors::from_reader(
        Cursor::new(huge.to_vec()),
        Path::new("v.bin"),
        VectorFormat::Word2VecBinary,
        None,
        Some(huge.len() as u64),
    ));
    assert!(e.contains("more than the whole file"), "{e}");
    let e = err(read(b"1 85745746002000\nw ", VectorFormat::Word2VecBinary));
    assert!(e.contains("needs"), "{e}");
}

#[test]
fn a_huge_header_on_a_small_binary_file_reserves_only_what_the_file_can_hold() {
    let mut bytes = b"1000000000 300\nw ".to_vec();
    bytes.extend(std::iter::repeat_n(0u8, 1200));
    let size = bytes.len() as u64;
    let v = WordVectors::from_reader(
        Cursor::new(bytes),
        Path::new("v.bin"),
        VectorFormat::Word2VecBinary,
        Some(1),
        Some(size),
    )
    .unwrap();
    assert_eq!(v.len(), 1);
}

#[test]
fn emd_of_a_random_problem_does_not_depend_on_the_order_of_the_sides() {
    // 6 x 5 costs, integer masses summing to 60 on both sides.
    let supply = [10, 5, 20, 5, 15, 5];
    let demand = [12, 12, 12, 12, 12];
    let cost: Vec<f64> = (0..30)
        .map(|k| ((k * 37 % 11) as f64 + 0.5) / 3.0)
        .collect();
    let forward = emd(&supply, &demand, &cost).unwrap();
    let transposed: Vec<f64> = (0..30).map(|k| cost[(k % 6) * 5 + k / 6]).collect();
    let backward = emd(&demand, &supply, &transposed).unwrap();
    assert!((forward - backward).abs() < 1e-9, "{forward} {backward}");
    // Never below every unit taking its row's cheapest cell.
    let bound: f64 = supply
        .iter()
        .enumerate()
        .map(|(i, &s)| {
            s as f64
                * cost[i * 5..i * 5 + 5]
                    .iter()
                    .cloned()
                    .fold(f64::MAX, f64::min)
        })
        .sum();
    assert!(forward >= bound - 1e-9);
}

#[test]
fn float32_norms_are_numpys_bit_for_bit() {
    let g = golden();
    let cases = g["norms_f32"].as_array().unwrap();
    assert!(cases.len() >= 13);
    for c in cases {
        let v: Vec<f32> = c["vector"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap() as f32)
            .collect();
        let squares: Vec<f32> = v.iter().map(|x| x * x).collect();
        let norm = figlang_metrics::wmd::vectors::numpy_pairwise_sum(&squares).sqrt();
        let want = c["norm"].as_f64().unwrap() as f32;
        assert_eq!(
            norm.to_bits(),
            want.to_bits(),
            "{} elements: {norm} vs numpy {want}",
            v.len()
        );
        // The store divides by the same norm.
        let store = WordVectors::from_pairs(v.len(), [("w", &v[..])]);
        let unit = store.get_normalized("w").unwrap();
        assert_eq!(unit[0].to_bits(), (v[0] / want).to_bits());
    }
}

//! `hauser metric ter` on the formality-transfer outputs (../shared/data/formality, `#[ignore]`d:
//! tools/test.sh runs it when the data is there) equals sacreBLEU 2.4.3's TER
//! (tools/gen/gen_ter_formality_fixture.py), corpus and sentence level, default and normalized,
//! 1e-9.

use serde_json::Value;

use crate::common::{json_lines, run, shared_data};

#[test]
#[ignore = "needs ../shared/data"]
fn ter_of_the_formality_outputs_equals_sacrebleu() {
    let fx: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/ter_formality.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let systems = fx["systems"].as_object().unwrap();
    assert_eq!(systems.len(), 9);
    for (name, want) in systems {
        let text =
            std::fs::read_to_string(shared_data(&format!("formality/{name}.human.txt"))).unwrap();
        let (mut hyps, mut refs) = (String::new(), String::new());
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let cols: Vec<&str> = line.split('\t').collect();
            hyps.push_str(cols[2]);
            hyps.push('\n');
            refs.push_str(cols[3]);
            refs.push('\n');
        }
        let (h, r) = (dir.path().join("h.txt"), dir.path().join("r.txt"));
        std::fs::write(&h, hyps).unwrap();
        std::fs::write(&r, refs).unwrap();
        let (h, r) = (h.display().to_string(), r.display().to_string());
        for (label, extra) in [("default", None), ("normalized", Some("--ter-normalized"))] {
            let mut args = vec!["metric", "ter", "--hyp", &h, "--ref", &r];
            args.extend(extra);
            let out = run(&args);
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let corpus = json_lines(&out)[0]["score"].as_f64().unwrap();
            let w = want[label]["corpus"].as_f64().unwrap();
            assert!((corpus - w).abs() < 1e-9, "{name} {label}: {corpus} vs {w}");
            args.push("--sentence");
            let out = run(&args);
            let got: Vec<f64> = String::from_utf8(out.stdout)
                .unwrap()
                .lines()
                .map(|l| l.parse().unwrap())
                .collect();
            let w: Vec<f64> = want[label]["sentence"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect();
            assert_eq!(got.len(), w.len());
            for (i, (a, b)) in got.iter().zip(&w).enumerate() {
                assert!((a - b).abs() < 1e-9, "{name} {label} line {i}: {a} vs {b}");
            }
        }
    }
}

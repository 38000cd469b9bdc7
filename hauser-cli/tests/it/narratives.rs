//! `hauser narratives` end to end on the synthetic fixture of figlang-tasks
//! (figlang-tasks/tests/fixtures/narratives) and the tiny models of hauser-nli:
//! eval-gen against tools/gen/narratives_eval_ref.py (the authors' evaluator's steps), zero-shot
//! scores against tools/gen/gen_zero_shot_fixture.py (surface-form-competition's scoring), one
//! record per data line, labels never taken from upstream's test placeholder.

use std::path::PathBuf;

use serde_json::Value;

use crate::common::{json_lines, run};

fn fixture(rel: &str) -> String {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../figlang-tasks/tests/fixtures/narratives"
    ))
    .join(rel)
    .display()
    .to_string()
}

fn model(rel: &str) -> String {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../hauser-nli/tests/fixtures"
    ))
    .join(rel)
    .display()
    .to_string()
}

fn json_file(path: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn eval_gen_equals_the_authors_evaluator_on_the_fixture() {
    let want = json_file(&fixture("expected.json"));
    let (pred, data, bert) = (fixture("pred.jsonl"), fixture("data.jsonl"), model("bert"));
    let out = run(&[
        "narratives",
        "eval-gen",
        "--pred",
        &pred,
        "--data",
        &data,
        "--bertscore-model",
        &bert,
        "--bertscore-layer",
        "2",
        "--per-narrative",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got = &json_lines(&out)[0];
    assert_eq!(got["n"], want["n"]);
    let close = |a: &Value, b: &Value, tol: f64| {
        let (a, b) = (a.as_f64().unwrap(), b.as_f64().unwrap());
        assert!((a - b).abs() <= tol, "{a} vs {b}");
    };
    close(&got["rouge_l"], &want["rouge_l"], 1e-9);
    close(&got["bertscore_f1"], &want["bertscore_f1"], 1e-3);
    let per = got["per_narrative"].as_array().unwrap();
    for (g, w) in per.iter().zip(want["per_narrative"].as_array().unwrap()) {
        close(&g["rouge_l"], &w["rouge_l"], 1e-9);
        close(&g["bertscore_f1"], &w["bertscore_f1"], 1e-5);
        assert_eq!(g["n_hyps"], w["n_hyps"]);
        assert_eq!(g["n_refs"], w["n_refs"]);
    }
    // Without a model only ROUGE-L.
    let out = run(&["narratives", "eval-gen", "--pred", &pred, "--data", &data]);
    let got = &json_lines(&out)[0];
    assert!(got.get("bertscore_f1").is_none());
    close(&got["rouge_l"], &want["rouge_l"], 1e-9);
}

#[test]
fn eval_gen_reports_unknown_narratives_and_refuses_placeholder_labels() {
    let dir = tempfile::tempdir().unwrap();
    let pred = dir.path().join("p.jsonl");
    let good = std::fs::read_to_string(fixture("pred.jsonl")).unwrap();
    std::fs::write(
        &pred,
        format!("{good}{{\"input\": \"not in the data\", \"predictions\": [\"x\"]}}\nnot json\n"),
    )
    .unwrap();
    let out = run(&[
        "narratives",
        "eval-gen",
        "--pred",
        pred.to_str().unwrap(),
        "--data",
        &fixture("data.jsonl"),
    ]);
    assert!(!out.status.success());
    let got = &json_lines(&out)[0];
    assert_eq!(got["n"], 6);
    let errors = got["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 2);
    assert_eq!(errors[0]["line"], 7);
    assert_eq!(errors[1]["line"], 8);
    // Data whose every label is option1 has no gold.
    let data = dir.path().join("test.jsonl");
    let rows: String = std::fs::read_to_string(fixture("data.jsonl"))
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            v["correctanswer"] = "option1".into();
            format!("{v}\n")
        })
        .collect();
    std::fs::write(&data, rows).unwrap();
    let out = run(&[
        "narratives",
        "eval-gen",
        "--pred",
        &fixture("pred.jsonl"),
        "--data",
        data.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("placeholder"));
    let out = run(&[
        "narratives",
        "accuracy",
        "--pred",
        &fixture("pred.jsonl"),
        "--data",
        data.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn zero_shot_scores_equal_surface_form_competition_scoring() {
    let want = json_file(&fixture("zero_shot.json"));
    let data = fixture("data.jsonl");
    for score in ["lm", "tok_mean", "dcpmi"] {
        let out = run(&[
            "narratives",
            "score",
            "--data",
            &data,
            "--model",
            &model("gpt2"),
            "--score",
            score,
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let recs = json_lines(&out);
        let items = want["items"].as_array().unwrap();
        assert_eq!(recs.len(), items.len());
        for (r, w) in recs.iter().zip(items) {
            let mut best = (f64::NEG_INFINITY, "");
            for (k, name) in ["option1", "option2"].iter().enumerate() {
                let (g, e) = (&r["scores"][name], &w["options"][k]);
                // `pmi` joins when the fixture is regenerated with it.
                for key in ["lm", "tok_mean", "dcpmi", "pmi"] {
                    if key == "pmi" && e.get(key).is_none() {
                        assert!(g[key].is_f64(), "{name} pmi");
                        continue;
                    }
                    let (a, b) = (g[key].as_f64().unwrap(), e[key].as_f64().unwrap());
                    assert!((a - b).abs() < 1e-4, "{name} {key}: {a} vs {b}");
                }
                assert_eq!(g["tokens"], e["tokens"]);
                let v = e[score].as_f64().unwrap();
                if v > best.0 {
                    best = (v, name);
                }
            }
            assert_eq!(r["prediction"], best.1, "{score}");
        }
        // The fixture's data is labelled: the summary carries an accuracy.
        let log: Value =
            serde_json::from_str(String::from_utf8_lossy(&out.stderr).lines().last().unwrap())
                .unwrap();
        assert_eq!(log["accuracy"]["n"], 7);
    }
}

#[test]
fn every_data_line_gets_a_record_and_predictions_feed_accuracy() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("d.jsonl");
    let good = std::fs::read_to_string(fixture("data.jsonl")).unwrap();
    let mut lines: Vec<&str> = good.lines().collect();
    lines.insert(2, "{\"narrative\": \"x\"}");
    std::fs::write(&data, format!("\u{feff}{}\r\n", lines.join("\r\n"))).unwrap();
    let out_path = dir.path().join("pred.jsonl");
    let out = run(&[
        "narratives",
        "choose",
        "--data",
        data.to_str().unwrap(),
        "--model",
        &model("multiple-choice/roberta"),
        "-o",
        out_path.to_str().unwrap(),
    ]);
    assert!(!out.status.success(), "a bad record makes the run fail");
    let recs: Vec<Value> = std::fs::read_to_string(&out_path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(recs.len(), 8);
    assert_eq!(recs[2]["line"], 3);
    assert!(recs[2]["error"].as_str().unwrap().contains("d.jsonl:3"));
    // Accuracy of a prediction file written for the good lines.
    let preds: String = recs
        .iter()
        .filter(|r| r.get("prediction").is_some())
        .map(|r| format!("{{\"prediction\": {}}}\n", r["prediction"]))
        .collect();
    let p = dir.path().join("p.jsonl");
    std::fs::write(&p, &preds).unwrap();
    let out = run(&[
        "narratives",
        "accuracy",
        "--pred",
        p.to_str().unwrap(),
        "--data",
        &fixture("data.jsonl"),
        "--n-bootstrap",
        "200",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let acc = &json_lines(&out)[0];
    assert_eq!(acc["n"], 7);
    let est = acc["accuracy"]["estimate"].as_f64().unwrap();
    assert!(
        acc["accuracy"]["low"].as_f64().unwrap() <= est
            && est <= acc["accuracy"]["high"].as_f64().unwrap()
    );
    let out = run(&[
        "narratives",
        "compare",
        "--pred",
        p.to_str().unwrap(),
        p.to_str().unwrap(),
        "--data",
        &fixture("data.jsonl"),
    ]);
    let c = &json_lines(&out)[0];
    assert_eq!(c["exact"]["p_value"].as_f64().unwrap(), 1.0, "{c}");
}

#[test]
fn generation_writes_one_line_per_narrative_and_repeats_for_a_seed() {
    let dir = tempfile::tempdir().unwrap();
    let data = fixture("data.jsonl");
    let gpt2 = model("gpt2");
    let run_gen = |extra: &[&str], name: &str| -> Vec<Value> {
        let out_path = dir.path().join(name);
        let mut args = vec![
            "narratives",
            "generate",
            "--data",
            &data,
            "--model",
            &gpt2,
            "-o",
            out_path.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::read_to_string(&out_path)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let a = run_gen(&[], "a.jsonl");
    // 7 rows, 6 distinct narratives; gold gathered per narrative.
    assert_eq!(a.len(), 6);
    assert_eq!(a[0]["gold"].as_array().unwrap().len(), 2);
    assert_eq!(run_gen(&[], "b.jsonl"), a);
    assert_ne!(run_gen(&["--seed", "1"], "c.jsonl"), a);
    let g = run_gen(&["--greedy", "--max-new-tokens", "3"], "d.jsonl");
    assert_eq!(g.len(), 6);
    // A bad setting is a usage error.
    let out = run(&[
        "narratives",
        "generate",
        "--data",
        &data,
        "--model",
        &gpt2,
        "--top-k",
        "0",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn knowledge_enhanced_choice_and_decoding_use_every_inference() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("k.jsonl");
    let rows: String = std::fs::read_to_string(fixture("data.jsonl"))
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            v["inferences"] =
                serde_json::json!(["personx wanted rest", "They felt proud", "It was late"]);
            format!("{v}\n")
        })
        .collect();
    std::fs::write(&data, rows).unwrap();
    let d = data.to_str().unwrap();
    let (mc, gpt2) = (model("multiple-choice/roberta"), model("gpt2"));
    let code = run(&["narratives", "choose", "--data", d, "--model", &mc]);
    assert!(
        code.status.success(),
        "{}",
        String::from_utf8_lossy(&code.stderr)
    );
    let code = json_lines(&code);
    assert_eq!(code.len(), 7);
    assert!(code.iter().all(|r| r["scores"]["pairs"] == 3));
    let paper = json_lines(&run(&[
        "narratives",
        "choose",
        "--data",
        d,
        "--model",
        &mc,
        "--order",
        "paper",
    ]));
    assert_ne!(
        code[0]["scores"]["option1"], paper[0]["scores"]["option1"],
        "the order changes the inputs"
    );
    let out_path = dir.path().join("g.jsonl");
    let out = run(&[
        "narratives",
        "generate",
        "--knowledge",
        "--greedy",
        "--data",
        d,
        "--model",
        &gpt2,
        "-o",
        out_path.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(&out_path).unwrap().lines().count(),
        6
    );
    // Without inferences the knowledge decoder refuses.
    let out = run(&[
        "narratives",
        "generate",
        "--knowledge",
        "--data",
        &fixture("data.jsonl"),
        "--model",
        &gpt2,
    ]);
    assert_eq!(out.status.code(), Some(2));
}

/// Generation records carry the raw decoded text and its token ids next to the cut text, which
/// is the plain decoder's post-processing of the raw text.
#[test]
fn generation_records_keep_the_raw_text_and_token_ids() {
    use figlang_tasks::narratives::generation::postprocess_plain;
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("g.jsonl");
    let out = run(&[
        "narratives",
        "generate",
        "--data",
        &fixture("data.jsonl"),
        "--model",
        &model("gpt2"),
        "--max-new-tokens",
        "12",
        "-o",
        out_path.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let recs: Vec<Value> = std::fs::read_to_string(&out_path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(recs.len(), 6);
    for r in &recs {
        let raw = r["raw_predictions"].as_array().unwrap();
        let ids = r["token_ids"].as_array().unwrap();
        let cut = r["predictions"].as_array().unwrap();
        assert_eq!((raw.len(), ids.len(), cut.len()), (1, 1, 1));
        assert_eq!(
            cut[0].as_str().unwrap(),
            postprocess_plain(raw[0].as_str().unwrap())
        );
        let n = ids[0].as_array().unwrap().len();
        assert!((1..=12).contains(&n), "{n} tokens");
    }
    // The released format's reader takes the extra fields.
    let out = run(&[
        "narratives",
        "eval-gen",
        "--pred",
        out_path.to_str().unwrap(),
        "--data",
        &fixture("data.jsonl"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `--score pmi`, `--max-length` and `--no-premise-period` are honoured; a --max-length beyond
/// the model's context is a usage error naming the flag.
#[test]
fn score_pmi_max_length_and_premise_period_flags() {
    let (data, gpt2) = (fixture("data.jsonl"), model("gpt2"));
    let score = |extra: &[&str]| {
        let mut args = vec!["narratives", "score", "--data", &data, "--model", &gpt2];
        args.extend_from_slice(extra);
        run(&args)
    };
    let out = score(&["--score", "pmi"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let recs = json_lines(&out);
    for r in &recs {
        assert_eq!(r["scores"]["decided_by"], "pmi");
        let (a, b) = (
            r["scores"]["option1"]["pmi"].as_f64().unwrap(),
            r["scores"]["option2"]["pmi"].as_f64().unwrap(),
        );
        assert_eq!(r["prediction"], if b > a { "option2" } else { "option1" });
    }
    let cut = json_lines(&score(&["--max-length", "56"]));
    let truncated = |r: &Value| r["scores"]["truncated"].as_u64().unwrap();
    assert!(cut
        .iter()
        .zip(&recs)
        .all(|(c, r)| truncated(c) >= truncated(r)));
    assert!(cut
        .iter()
        .zip(&recs)
        .any(|(c, r)| truncated(c) > truncated(r)));
    assert!(cut
        .iter()
        .zip(&recs)
        .any(|(c, r)| c["scores"]["option1"]["lm"] != r["scores"]["option1"]["lm"]));
    for bad in ["0", "65"] {
        let out = score(&["--max-length", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--max-length"));
    }
    // Every fixture narrative ends in `.`: the switch changes nothing there.
    let kept = json_lines(&score(&["--no-premise-period"]));
    let default = json_lines(&score(&[]));
    assert_eq!(kept, default);
}

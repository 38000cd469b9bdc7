//! `hauser newsmet eval` on files written here: errors name the file and line, lengths must
//! match, and a perfect prediction scores 1.

use crate::common::{json_lines, run, stderr};

#[test]
fn eval_scores_and_refuses_bad_predictions() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("d.csv");
    std::fs::write(&data, "\u{feff}id,Text,label\r\n1,\"Markets tumble, again\",1\r\n2,Rain falls,0\r\n3,Prices soar,1\r\n").unwrap();
    let pred = dir.path().join("p.txt");
    std::fs::write(&pred, "1\n0\n1\n").unwrap();
    let (d, p) = (data.to_str().unwrap(), pred.to_str().unwrap());
    let out = run(&["newsmet", "eval", "--data", d, "--pred", p]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = &json_lines(&out)[0];
    assert_eq!(
        (
            v["accuracy"].as_f64(),
            v["macro_f1"].as_f64(),
            v["n"].as_u64()
        ),
        (Some(1.0), Some(1.0), Some(3))
    );
    assert_eq!(v["per_class"]["1"]["support"], 2);
    let short = dir.path().join("s.txt");
    std::fs::write(&short, "1\n0\n").unwrap();
    let out = run(&[
        "newsmet",
        "eval",
        "--data",
        d,
        "--pred",
        short.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("2 predictions for 3 data rows"));
    let bad = dir.path().join("b.txt");
    std::fs::write(&bad, "1\nyes\n0\n").unwrap();
    let out = run(&[
        "newsmet",
        "eval",
        "--data",
        d,
        "--pred",
        bad.to_str().unwrap(),
    ]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("b.txt:2:"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn classify_gives_transformers_classes_for_csv_rows_and_lines() {
    let nli = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../hauser-nli/tests/fixtures/roberta"
    );
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{nli}/reference.json")).unwrap())
            .unwrap();
    let singles = r["singles"].as_array().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("h.csv");
    let mut body = String::from("id,Text,label\r\n");
    let mut lines = String::new();
    for (i, s) in singles.iter().enumerate() {
        let t = s["text"].as_str().unwrap();
        body.push_str(&format!("{i},\"{}\",0\r\n", t.replace('"', "\"\"")));
        lines.push_str(&format!("{t}\n"));
    }
    std::fs::write(&csv, body).unwrap();
    let txt = dir.path().join("h.txt");
    std::fs::write(&txt, lines).unwrap();
    for input in [&csv, &txt] {
        let out = run(&[
            "classify",
            "--model",
            nli,
            "--input",
            input.to_str().unwrap(),
            "--json",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let recs = json_lines(&out);
        assert_eq!(recs.len(), singles.len());
        for (rec, s) in recs.iter().zip(singles) {
            let logits: Vec<f64> = s["logits"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect();
            let want = if logits[1] > logits[0] { 1 } else { 0 };
            assert_eq!(rec["index"], want);
            let z = (logits[0] - logits[1]).exp();
            let p1 = 1.0 / (1.0 + z);
            assert!((rec["probs"][1].as_f64().unwrap() - p1).abs() < 1e-4);
        }
    }
    let out = run(&[
        "classify",
        "--model",
        nli,
        "--input",
        csv.to_str().unwrap(),
        "--column",
        "Headline",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no column"));
}

#[test]
fn classify_answers_a_line_with_invalid_utf8_with_an_error_record() {
    // Issue 37: one bad byte made classify exit 2 with no record at all.
    let nli = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../hauser-nli/tests/fixtures/roberta"
    );
    let dir = tempfile::tempdir().unwrap();
    let txt = dir.path().join("h.txt");
    std::fs::write(&txt, b"A good headline\nbad \xff byte\r\nAnother one\n").unwrap();
    for json in [true, false] {
        let mut args = vec!["classify", "--model", nli, "--input", txt.to_str().unwrap()];
        if json {
            args.push("--json");
        }
        let out = run(&args);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        let text = String::from_utf8(out.stdout.clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        let bad: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
        assert_eq!(bad["line"], 2);
        assert!(
            bad["error"].as_str().unwrap().contains("invalid UTF-8"),
            "{bad}"
        );
        if json {
            let third: serde_json::Value = serde_json::from_str(lines[2]).unwrap();
            assert_eq!(third["line"], 3);
        } else {
            assert!(lines[0].parse::<usize>().is_ok() && lines[2].parse::<usize>().is_ok());
        }
    }
}

#[test]
#[ignore = "needs WordNet: apt-get install wordnet-base"]
fn wordnet_diversity_answers_every_line() {
    let wordnet = crate::common::wordnet_dir();
    let input = concat!(
        "{\"headline\": \"Could One of These Four Screenplays Win the Oscar?\", \"focus\": \"Win\", ",
        "\"candidates\": [\"steal\", \"grab\", \"snatch\", \"snare\", \"scoop\", \"take\"]}\n",
        "not json\n",
        "{\"headline\": \"Markets tumble\", \"focus\": 1, \"candidates\": [\"fall\", \"qqq\"]}\n"
    );
    let out = crate::common::run_stdin(
        &[
            "newsmet",
            "diversity",
            "-i",
            "-",
            "--wordnet",
            wordnet.to_str().unwrap(),
        ],
        input,
    );
    assert_eq!(out.status.code(), Some(1), "one bad line");
    let recs = json_lines(&out);
    assert_eq!(recs.len(), 3);
    assert_eq!(recs[0]["diversity"], 4);
    assert!(recs[1]["error"].as_str().unwrap().starts_with("-:2:"));
    assert_eq!(recs[2]["senses"][1], serde_json::Value::Null);
    // NLTK 3.9.2+'s tie rule changes the senses.
    let out = crate::common::run_stdin(
        &[
            "newsmet",
            "diversity",
            "-i",
            "-",
            "--wordnet",
            wordnet.to_str().unwrap(),
            "--nltk",
            "current",
        ],
        input,
    );
    assert_ne!(json_lines(&out)[0]["senses"], recs[0]["senses"]);
}

#[test]
fn metaphoricity_scores_candidates_and_reports_bad_lines() {
    let vectors = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../figlang-metrics/tests/fixtures/wmd/vectors.txt"
    );
    let input = "{\"subject\": \"Cat\", \"object\": \"mat\", \"candidates\": [\"sat\", \"qqq\"]}\n{\"candidates\": 3}\n";
    let out = crate::common::run_stdin(
        &["newsmet", "metaphoricity", "-i", "-", "--vectors", vectors],
        input,
    );
    assert_eq!(out.status.code(), Some(1));
    let recs = json_lines(&out);
    assert_eq!(recs.len(), 2);
    let c = &recs[0]["candidates"];
    let (s, o) = (
        c[0]["subject_sim"].as_f64().unwrap(),
        c[0]["object_sim"].as_f64().unwrap(),
    );
    assert_eq!(c[0]["score"].as_f64().unwrap(), s.min(o));
    assert!(c[1]["score"].is_null());
    assert!(recs[1]["error"].as_str().unwrap().starts_with("-:2:"));
}

/// `hauser newsmet candidates` from stdin: one record per input line (given focus, found
/// focus, errors with file and line), the library's candidates (checked against transformers
/// and NLTK in figlang-tasks' `wordnet_candidate_generation_matches_transformers_and_nltk`).
#[test]
#[ignore = "needs WordNet: apt-get install wordnet-base"]
fn wordnet_candidates_answer_every_line() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let mlm = format!("{root}/hauser-nli/tests/fixtures/masked-lm/bert");
    let det = format!("{root}/figlang-tasks/tests/fixtures/newsmet/detector");
    let wn = crate::common::wordnet_dir();
    let fx: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(format!(
            "{root}/figlang-tasks/tests/fixtures/newsmet/candidates.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let input = "\u{feff}{\"headline\": \"A storm of anger rose, inside him.\", \"focus\": 4}\r\n\
         \n\
         {\"headline\": \"A storm of anger rose, inside him.\", \"focus\": \"ROSE\"}\n\
         {\"headline\": \"Stocks soared as rates fell\"}\n\
         not json\n\
         {\"headline\": \"Of the and\"}\n\
         {\"headline\": \"Rain falls\", \"focus\": 7}\n";
    let out = crate::common::run_stdin(
        &[
            "newsmet",
            "candidates",
            "--input",
            "-",
            "--mlm",
            &mlm,
            "--detector",
            &det,
            "--top-k",
            "100",
            "--keep",
            "3",
            "--wordnet",
            wn.to_str().unwrap(),
        ],
        input,
    );
    // Some lines failed: exit 1, every line answered.
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json_lines(&out);
    let lines: Vec<u64> = v.iter().map(|r| r["line"].as_u64().unwrap()).collect();
    assert_eq!(lines, [1, 2, 3, 4, 5, 6, 7]);
    // The blank line answers with an error record (issue 29).
    assert_eq!(v[1]["error"], "-:2: blank line (no record)");
    let v: Vec<serde_json::Value> = v.into_iter().filter(|r| r["line"] != 2).collect();
    let want = fx["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["headline"] == "A storm of anger rose, inside him.")
        .unwrap();
    for r in &v[..2] {
        assert_eq!(r["focus"]["token"], 4);
        assert_eq!(r["masked"], want["masked"]);
        assert_eq!(r["metaphorical"], want["metaphorical"]);
        assert_eq!(r["literal"], want["literal"]);
        assert_eq!(r["focus_from"], "input");
        assert!(r["signature"]
            .as_str()
            .unwrap()
            .contains("|top_k:100|keep:3|masking:token|"));
    }
    assert_eq!(v[2]["focus"]["word"], "soared");
    assert_eq!(v[2]["focus_from"], "rule");
    assert!(v[3]["error"].as_str().unwrap().starts_with("-:5: "));
    assert!(v[4]["error"].as_str().unwrap().contains("give \"focus\""));
    assert!(v[5]["error"]
        .as_str()
        .unwrap()
        .contains("not a token index"));

    // Streamed in chunks of batch size x 16 lines: with --batch-size 1 three copies of the input
    // (21 lines) run in two chunks and answer as one run does, line for line.
    let once = input.trim_start_matches('\u{feff}');
    let thrice = once.repeat(3);
    let mut args = vec!["newsmet", "candidates", "--input", "-", "--mlm", &mlm];
    args.extend(["--detector", &det, "--top-k", "100", "--keep", "3"]);
    args.extend(["--wordnet", wn.to_str().unwrap(), "--batch-size", "1"]);
    let once = json_lines(&crate::common::run_stdin(&args, once));
    let streamed = json_lines(&crate::common::run_stdin(&args, &thrice));
    assert_eq!(streamed.len(), 21);
    for (i, r) in streamed.iter().enumerate() {
        assert_eq!(r["line"], i + 1);
        for key in ["masked", "metaphorical", "literal", "focus", "error"] {
            let want = &once[i % 7][key];
            if key == "error" && want.is_string() {
                let tail = |v: &serde_json::Value| {
                    v.as_str().unwrap().split_once(": ").unwrap().1.to_string()
                };
                assert_eq!(tail(&r[key]), tail(want), "line {}", i + 1);
            } else {
                assert_eq!(r[key], *want, "line {} {key}", i + 1);
            }
        }
    }
}

/// `--pred-more` takes several files after one flag (as docs/TASKS.md shows it) and repeated
/// flags alike; a second file after one flag used to be refused as an unexpected argument.
#[test]
fn eval_pred_more_takes_several_files_or_repeated_flags() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("d.csv");
    std::fs::write(&data, "Text,label\nA,1\nB,0\nC,1\nD,0\n").unwrap();
    let mut preds = Vec::new();
    for (i, p) in [
        "1\n0\n1\n0\n",
        "1\n1\n1\n0\n",
        "0\n0\n1\n0\n",
        "1\n0\n0\n0\n",
    ]
    .iter()
    .enumerate()
    {
        let path = dir.path().join(format!("p{i}.txt"));
        std::fs::write(&path, p).unwrap();
        preds.push(path.to_str().unwrap().to_string());
    }
    let d = data.to_str().unwrap();
    let base = [
        "newsmet", "eval", "--data", d, "--pred", &preds[0], "--pred2", &preds[1],
    ];
    let several = run(&[&base[..], &["--pred-more", &preds[2], &preds[3]]].concat());
    assert!(
        several.status.success(),
        "{}",
        String::from_utf8_lossy(&several.stderr)
    );
    let repeated = run(&[
        &base[..],
        &["--pred-more", &preds[2], "--pred-more", &preds[3]],
    ]
    .concat());
    assert!(repeated.status.success());
    let (a, b) = (&json_lines(&several)[0], &json_lines(&repeated)[0]);
    assert_eq!(a["raters"], 4);
    assert_eq!(a["fleiss_kappa"], b["fleiss_kappa"]);
}

//! `hauser newsmet eval` on files written here: errors name the file and line, lengths must
//! match, and a perfect prediction scores 1.

use crate::common::{json_lines, run};

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

//! End-to-end tests of `hauser extract`, and of `hauser score` filling components with the
//! extractor.

use crate::common::*;

#[test]
fn plain_and_jsonl_lines_give_components_in_order() {
    let input = concat!(
        "Soon her deck smoked like a furnace under wind.\n",
        "\n",
        "{\"simile\": \"He yelps and howls like a lonely grey wolf.\", \"literal\": \"He yelps and howls.\", \"id\": 7}\n",
        "They like apples.\n",
        "{\"text\": \"Her smile was brighter than the sun.\"}\n",
        "{\"simile\": 3}\n",
    );
    let out = run_stdin(&["extract", "--input", "-"], input);
    assert_eq!(out.status.code(), Some(1), "one bad line gives exit code 1");
    let recs = json_lines(&out);
    assert_eq!(
        recs.len(),
        6,
        "every line answers, a blank line with an empty record (issue 14: outputs line up)"
    );
    assert_eq!(
        recs[0]["components"],
        serde_json::json!([["her deck", "a furnace", "smoked"]])
    );
    assert_eq!(recs[1], serde_json::json!({"simile": "", "components": []}));
    assert_eq!(
        recs[2]["components"],
        serde_json::json!([["He", "a lonely grey wolf", "howls"]])
    );
    assert_eq!(recs[2]["id"], 7);
    assert_eq!(recs[3]["components"], serde_json::json!([]));
    assert_eq!(
        recs[4]["components"],
        serde_json::json!([["Her smile", "the sun", "was"]])
    );
    assert_eq!(recs[5]["line"], 6);
    assert!(recs[5]["error"]
        .as_str()
        .unwrap()
        .contains("invalid record"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("extract-rules|lexicon:"), "{stderr}");
}

#[test]
fn like_only_drops_other_comparators() {
    let out = run_stdin(
        &["extract", "--like-only", "--input", "-"],
        "Her smile was brighter than the sun.\n",
    );
    assert!(out.status.success());
    assert_eq!(json_lines(&out)[0]["components"], serde_json::json!([]));
}

#[test]
fn missing_input_file_is_a_clear_error() {
    let out = hauser()
        .args(["extract", "--input", "/nonexistent/similes.txt"])
        .output()
        .expect("hauser runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/similes.txt"));
}

#[test]
fn score_extracts_components_unless_disabled() {
    let group = r#"{"literal": "He yelps and howls.", "candidates": ["He yelps and howls like a wolf.", "He yelps and howls like a lonely grey wolf."]}"#;
    let out = run_stdin(&["score", "--input", "-"], group);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let recs = json_lines(&out);
    assert_eq!(
        recs[1]["components"],
        serde_json::json!([["He", "a lonely grey wolf", "howls"]])
    );
    assert_eq!(recs[1]["informativeness_raw"], 4.0);
    assert_eq!(recs[0]["informativeness"], 0.0);
    assert!(recs[0]["signature"]
        .as_str()
        .unwrap()
        .contains("extract-rules"));

    let out = run_stdin(&["score", "--no-extract", "--input", "-"], group);
    assert!(out.status.success());
    let recs = json_lines(&out);
    assert!(recs[0]["components"].is_null());
    assert!(recs[0].get("informativeness").is_none());
}

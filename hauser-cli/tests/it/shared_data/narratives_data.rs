//! The narratives data of ../shared/data (`#[ignore]`d: tools/test.sh runs it when the data is
//! there): dev files labelled, test files read as upstream's placeholder, gold rebuilt, and the
//! authors' released dev generations (`narratives_released`: ../shared/data/narratives-released,
//! else fetched by tools/test-assets.sh into .cache) scored by `hauser narratives eval-gen` as
//! their evaluator scores them.

use std::path::{Path, PathBuf};

use figlang_tasks::narratives::{distinct_count, read_split, LabelStatus};

use crate::common::{json_lines, run, shared_data};

#[test]
#[ignore = "needs ../shared/data"]
fn dev_files_are_labelled_and_test_files_are_placeholders() {
    for (task, dev, test) in [("idiom", 355, 1542), ("simile", 376, 1520)] {
        let d = read_split(&shared_data(&format!("narratives/{task}/dev.jsonl"))).unwrap();
        assert_eq!((d.items.len(), d.labels), (dev, LabelStatus::Labelled));
        let t = read_split(&shared_data(&format!("narratives/{task}/test.jsonl"))).unwrap();
        assert_eq!((t.items.len(), t.labels), (test, LabelStatus::Placeholder));
        assert!(t.gold().is_none());
        for kind in ["literal", "context"] {
            let k = read_split(&shared_data(&format!(
                "narratives/{task}_inferences_{kind}/dev.jsonl"
            )))
            .unwrap();
            assert!(
                k.items
                    .iter()
                    .all(|i| (9..=12).contains(&i.inferences.len())),
                "{task} {kind}"
            );
        }
    }
    // The released generation files hold one line per distinct dev narrative.
    let d = read_split(&shared_data("narratives/idiom/dev.jsonl")).unwrap();
    assert_eq!(distinct_count(&d), 299);
    let s = read_split(&shared_data("narratives/simile/dev.jsonl")).unwrap();
    assert_eq!(distinct_count(&s), 39);
}

/// The released generations: the reference data's copy when there is one (CI has it), else
/// the one tools/test-assets.sh fetched from GitHub.
fn released_generations(root: &Path) -> PathBuf {
    let shared = std::env::var_os("HAUSER_SHARED_DATA")
        .map_or_else(|| root.join("../shared/data"), PathBuf::from);
    let dir = shared.join("narratives-released");
    if dir.is_dir() {
        dir
    } else {
        root.join(".cache/narratives-released")
    }
}

#[test]
#[ignore = "needs ../shared/data, with narratives-released or .cache/narratives-released (tools/test-assets.sh)"]
fn narratives_released_dev_generations_score_as_the_authors_evaluator() {
    let root = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let want: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            root.join("figlang-tasks/tests/fixtures/narratives/released_dev.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let released = released_generations(&root);
    let files = want["files"].as_array().unwrap();
    assert_eq!(files.len(), 11);
    for f in files {
        let (task, file) = (f["task"].as_str().unwrap(), f["file"].as_str().unwrap());
        let pred = released.join(task).join(file);
        assert!(
            pred.is_file(),
            "needs {} (../shared/data/narratives-released, or bash tools/test-assets.sh)",
            pred.display()
        );
        let data = shared_data(&format!("narratives/{task}/dev.jsonl"));
        let out = run(&[
            "narratives",
            "eval-gen",
            "--pred",
            pred.to_str().unwrap(),
            "--data",
            data.to_str().unwrap(),
        ]);
        assert!(
            out.status.success(),
            "{file}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let got = &json_lines(&out)[0];
        assert_eq!(got["n"], f["n"], "{file}");
        let (a, b) = (
            got["rouge_l"].as_f64().unwrap(),
            f["rouge_l"].as_f64().unwrap(),
        );
        assert!((a - b).abs() < 1e-6, "{file}: {a} vs {b}");
    }
}

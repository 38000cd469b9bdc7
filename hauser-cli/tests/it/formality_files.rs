//! `hauser formality reproduce` reads its folder strictly (issue 29, item 6): every line has its
//! kind's column count, named with file and line when not; a file that does not belong to the
//! layout is refused or, when it is not a `.txt` file, named in a note; and the live BERTScore
//! takes a local model with `--bertscore-layer`, `--device` and `--precision` (item 13).

use std::path::Path;

use crate::common::run;

/// The 16 leading items of line `i` of system `s`: the human ratings vary with both.
fn leading(i: usize, s: usize) -> String {
    let content = ((i * 11 + s * 17) % 60) as f64 + 5.0 * s as f64;
    format!(
        "1\tin {i}\tout {i} of {s}\tref {i}\t{content}\t{}\t60\t{}\t{}\t70\t0\t0\t0\t0\t0\t0",
        40 + (i + s) % 30,
        content + 2.0,
        45 + i % 20
    )
}

/// Writes `NAME.human.txt` (10 columns, as released), `NAME.reg.pt16.txt` and
/// `NAME.content.ref.txt` (the 11 content columns) for system `s`.
fn write_system(dir: &Path, name: &str, s: usize) {
    let (mut human, mut reg, mut content) = (String::new(), String::new(), String::new());
    for i in 0..80 {
        let lead = leading(i, s);
        let ten: Vec<&str> = lead.split('\t').take(10).collect();
        human.push_str(&(ten.join("\t") + "\n"));
        reg.push_str(&format!("{lead}\t0.{}\n", (i * 7 + s * 3) % 90 + 10));
        let cols: Vec<String> = (0..11)
            .map(|k| format!("0.{}", (i * (k + 3) + s * 13) % 90 + 10))
            .collect();
        content.push_str(&format!("{lead}\t{}\n", cols.join("\t")));
    }
    std::fs::write(dir.join(format!("{name}.human.txt")), human).unwrap();
    std::fs::write(dir.join(format!("{name}.reg.pt16.txt")), reg).unwrap();
    std::fs::write(dir.join(format!("{name}.content.ref.txt")), content).unwrap();
}

fn data() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (s, name) in ["A", "B", "C", "REF"].iter().enumerate() {
        write_system(dir.path(), name, s);
    }
    dir
}

fn reproduce(dir: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "formality",
        "reproduce",
        "--data",
        dir.to_str().unwrap(),
        "--json",
    ];
    args.extend_from_slice(extra);
    run(&args)
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Replaces line `line` (1-based) of `file` by `edit` of it.
fn edit_line(dir: &Path, file: &str, line: usize, edit: impl Fn(&str) -> String) {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines[line - 1] = edit(&lines[line - 1]);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
}

#[test]
fn the_synthetic_folder_gives_every_content_row() {
    let dir = data();
    let out = reproduce(dir.path(), &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["content"].as_array().unwrap().len(), 11, "{v}");
}

#[test]
fn a_short_content_row_is_named_with_file_and_line() {
    // Before: the row read as 10 metric values, every content metric was dropped, exit 0 with
    // a note naming no file.
    let dir = data();
    edit_line(dir.path(), "B.content.ref.txt", 33, |l| {
        l.rsplit_once('\t').unwrap().0.to_string()
    });
    let out = reproduce(dir.path(), &[]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("B.content.ref.txt")
            && err.contains("33")
            && err.contains("26 tab-separated columns, expected 27"),
        "{err}"
    );
}

#[test]
fn an_extra_column_is_refused_not_read_shifted() {
    // Before: the last 11 columns were read, so every value moved one column over, exit 0.
    let dir = data();
    edit_line(dir.path(), "A.content.ref.txt", 5, |l| format!("{l}\t0.5"));
    let out = reproduce(dir.path(), &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("A.content.ref.txt")
            && err.contains('5')
            && err.contains("28 tab-separated columns"),
        "{err}"
    );
    // The same in a style file, and in a human file.
    let dir = data();
    edit_line(dir.path(), "C.reg.pt16.txt", 80, |l| format!("{l}\t1"));
    let err = stderr(&reproduce(dir.path(), &[]));
    assert!(
        err.contains("C.reg.pt16.txt") && err.contains("80") && err.contains("expected 17"),
        "{err}"
    );
    let dir = data();
    edit_line(dir.path(), "A.human.txt", 1, |l| format!("{l}\t1"));
    let err = stderr(&reproduce(dir.path(), &[]));
    assert!(
        err.contains("A.human.txt:1") && err.contains("expected 10 or 16"),
        "{err}"
    );
    // Both widths are allowed in a human file, but not mixed in one file.
    let dir = data();
    edit_line(dir.path(), "A.human.txt", 3, |l| {
        format!("{l}\t0\t0\t0\t0\t0\t0")
    });
    let err = stderr(&reproduce(dir.path(), &[]));
    assert!(
        err.contains("A.human.txt:3") && err.contains("as its first line"),
        "{err}"
    );
}

#[test]
fn a_stray_system_file_is_refused_naming_what_it_lacks() {
    // Before: FOO became a system without style or content scores, and both tables were empty.
    let dir = data();
    std::fs::copy(
        dir.path().join("A.human.txt"),
        dir.path().join("FOO.human.txt"),
    )
    .unwrap();
    let out = reproduce(dir.path(), &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("FOO.reg.pt16.txt is missing"), "{err}");
    // A score file without its human ratings: the same.
    let dir = data();
    std::fs::copy(
        dir.path().join("A.reg.pt16.txt"),
        dir.path().join("BAR.reg.pt16.txt"),
    )
    .unwrap();
    let err = stderr(&reproduce(dir.path(), &[]));
    assert!(err.contains("BAR.") && err.contains("is missing"), "{err}");
}

#[test]
fn unknown_files_are_refused_or_named() {
    let dir = data();
    std::fs::write(dir.path().join("notes.txt"), "hello\n").unwrap();
    let out = reproduce(dir.path(), &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("notes.txt is not a released file"),
        "{}",
        stderr(&out)
    );
    let dir = data();
    std::fs::write(dir.path().join("README.upstream.md"), "# formats\n").unwrap();
    std::fs::create_dir(dir.path().join("extra")).unwrap();
    let out = reproduce(dir.path(), &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let notes = v["notes"].to_string();
    assert!(notes.contains("README.upstream.md, extra"), "{notes}");
}

#[test]
fn live_bertscore_settings_need_a_model_and_a_local_model_needs_a_layer() {
    let dir = data();
    let model = Path::new(env!("CARGO_MANIFEST_DIR")).join("../hauser-nli/tests/fixtures/bert");
    let model = model.to_str().unwrap();
    // Settings nothing would use are refused, naming the flag.
    for (extra, flag) in [
        (vec!["--bertscore-baseline", "x.csv"], "--bertscore-model"),
        (vec!["--bertscore-layer", "2"], "--bertscore-model"),
        (vec!["--device", "cuda"], "--device"),
        (vec!["--precision", "f16"], "--precision"),
    ] {
        let out = reproduce(dir.path(), &extra);
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        assert!(stderr(&out).contains(flag), "{extra:?}: {}", stderr(&out));
    }
    // A directory has no default layer: the error names the flag that gives one.
    let out = reproduce(dir.path(), &["--bertscore-model", model]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--bertscore-layer"),
        "{}",
        stderr(&out)
    );
    // With a layer, the local model runs (on the CPU, in f32, given explicitly).
    let out = reproduce(
        dir.path(),
        &[
            "--bertscore-model",
            model,
            "--bertscore-layer",
            "-1",
            "--device",
            "cpu",
            "--precision",
            "f32",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let live = v["content_live"].as_array().unwrap();
    assert!(live.iter().any(|r| r["metric"] == "BERTScore"), "{v}");
}

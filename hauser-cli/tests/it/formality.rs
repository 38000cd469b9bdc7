//! `hauser formality reproduce` on small synthetic directories: the tables from any files in
//! the released layout, and clear errors on malformed ones.

use std::path::Path;

use crate::common::run;

/// Writes `NAME.human.txt` and `NAME.reg.pt16.txt` for `systems`; the style metric follows the
/// human style score of system `s` more or less closely.
fn write_system(dir: &Path, name: &str, s: usize) {
    let (mut human, mut reg) = (String::new(), String::new());
    for i in 0..80 {
        let style = ((i * 7 + s * 13) % 50) as f64 + 10.0 * s as f64;
        let ratings = format!(
            "{}\t{style}\t60\t{}\t{}\t70",
            50 + i % 9,
            55 + i % 5,
            style + 1.0
        );
        human.push_str(&format!("1\tin {i}\tout {i}\tref {i}\t{ratings}\n"));
        let metric = style / 100.0 + ((i % 3) as f64) * 0.01;
        reg.push_str(&format!(
            "1\tin {i}\tout {i}\tref {i}\t{ratings}\t0\t0\t0\t0\t0\t0\t{metric}\n"
        ));
    }
    std::fs::write(dir.join(format!("{name}.human.txt")), human).unwrap();
    std::fs::write(dir.join(format!("{name}.reg.pt16.txt")), reg).unwrap();
}

#[test]
fn tables_from_any_directory_in_the_released_layout() {
    let dir = tempfile::tempdir().unwrap();
    for (s, name) in ["A", "B", "C", "REF"].iter().enumerate() {
        write_system(dir.path(), name, s);
    }
    let out = run(&[
        "formality",
        "reproduce",
        "--data",
        dir.path().to_str().unwrap(),
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // REF is left out of the correlations.
    assert_eq!(v["systems"], serde_json::json!(["A", "B", "C"]));
    let reg = &v["style"][0];
    assert_eq!(reg["metric"], "reg.pt16");
    assert!(reg["system_pearson"].as_f64().unwrap() > 0.9, "{reg}");
    assert_eq!(reg["segments"], 80);
    // The files that are not there are named in notes, not guessed.
    let notes = v["notes"].to_string();
    for missing in ["cls.pt16", "content.ref", "ppl.txt"] {
        assert!(notes.contains(missing), "{notes}");
    }
}

#[test]
fn malformed_files_are_named_with_their_line() {
    let dir = tempfile::tempdir().unwrap();
    for (s, name) in ["A", "B", "C"].iter().enumerate() {
        write_system(dir.path(), name, s);
    }
    let path = dir.path().join("B.reg.pt16.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines[6] = lines[6].replace("\t60\t", "\tsixty\t");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let out = run(&[
        "formality",
        "reproduce",
        "--data",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("B.reg.pt16.txt") && err.contains('7') && err.contains("sixty"),
        "{err}"
    );

    // A short file: the line count is checked.
    let short: Vec<&str> = text.lines().take(10).collect();
    std::fs::write(&path, short.join("\n") + "\n").unwrap();
    let out = run(&[
        "formality",
        "reproduce",
        "--data",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("10 lines, expected 80"));

    // No released files at all, or too few systems.
    let empty = tempfile::tempdir().unwrap();
    let out = run(&[
        "formality",
        "reproduce",
        "--data",
        empty.path().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("NAME.human.txt"));
    let two = tempfile::tempdir().unwrap();
    write_system(two.path(), "A", 0);
    write_system(two.path(), "B", 1);
    let out = run(&[
        "formality",
        "reproduce",
        "--data",
        two.path().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("at least 3"));
}

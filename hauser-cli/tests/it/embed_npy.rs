//! `hauser embed --format npy`: the same embeddings as the JSON lines, as a NumPy float32
//! matrix, one row per input line (NaN rows for lines that are not UTF-8).
#![allow(clippy::unwrap_used)]

use std::path::Path;

use crate::common::*;

/// The shape and the rows of a float32 `.npy` file, its header checked as NumPy writes it.
fn read_npy(p: &Path) -> (usize, usize, Vec<Vec<f32>>) {
    let b = std::fs::read(p).unwrap();
    assert_eq!(&b[..8], b"\x93NUMPY\x01\x00");
    let len = usize::from(u16::from_le_bytes([b[8], b[9]]));
    assert_eq!((10 + len) % 64, 0, "data aligned to 64 bytes");
    let header = std::str::from_utf8(&b[10..10 + len]).unwrap();
    assert!(header.starts_with("{'descr': '<f4', 'fortran_order': False, 'shape': ("));
    assert!(header.ends_with('\n'));
    let shape = &header[header.find("'shape': (").unwrap() + 10..header.find(")").unwrap()];
    let dims: Vec<usize> = shape.split(", ").map(|d| d.parse().unwrap()).collect();
    let (rows, cols) = (dims[0], dims[1]);
    let data = &b[10 + len..];
    assert_eq!(data.len(), rows * cols * 4);
    let values: Vec<f32> = data
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let rows_v = values.chunks(cols.max(1)).map(<[f32]>::to_vec).collect();
    (rows, cols, rows_v)
}

#[test]
fn npy_rows_are_the_json_lines_embeddings() {
    let m = tiny("bert");
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    std::fs::write(
        &input,
        "He runs like the wind.\n\nShe is as quiet as a mouse.\n",
    )
    .unwrap();
    let npy = dir.path().join("e.npy");
    let base = ["embed", "--model", s(&m), "--input", s(&input)];
    let json = run(&base);
    assert!(json.status.success(), "{}", stderr(&json));
    let mut args = base.to_vec();
    args.extend(["--format", "npy", "-o", s(&npy)]);
    let out = run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    let want: Vec<Vec<f32>> = json_lines(&json)
        .iter()
        .map(|v| {
            v.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap() as f32)
                .collect()
        })
        .collect();
    let (rows, cols, got) = read_npy(&npy);
    assert_eq!((rows, cols), (3, want[0].len()));
    // Bit for bit: the JSON numbers are the shortest decimals of the same float32 values.
    assert_eq!(got, want);
}

#[test]
fn npy_gives_nan_rows_for_lines_that_are_not_utf8_and_reports_them() {
    let m = tiny("bert");
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    // The first line fails before any width is known, the third after.
    std::fs::write(&input, b"caf\xe9\nHe runs.\n\xff\xfe\nShe sings.\n").unwrap();
    let npy = dir.path().join("e.npy");
    let args = [
        "embed",
        "--model",
        s(&m),
        "--input",
        s(&input),
        "--format",
        "npy",
        "-o",
        s(&npy),
    ];
    let out = run(&args);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("\"line\":1") && err.contains("\"line\":3"),
        "{err}"
    );
    let (rows, cols, got) = read_npy(&npy);
    assert_eq!(rows, 4);
    assert!(cols > 0);
    for (i, row) in got.iter().enumerate() {
        let nan = row.iter().all(|x| x.is_nan());
        assert_eq!(nan, i == 0 || i == 2, "row {i}");
    }
}

#[test]
fn npy_of_no_line_has_the_models_width() {
    let m = tiny("bert");
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    std::fs::write(&input, "").unwrap();
    let npy = dir.path().join("e.npy");
    let out = run(&[
        "embed",
        "--model",
        s(&m),
        "--input",
        s(&input),
        "--format",
        "npy",
        "-o",
        s(&npy),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let (rows, cols, _) = read_npy(&npy);
    assert_eq!(rows, 0);
    assert!(cols > 0);
}

#[test]
fn npy_to_a_stream_is_refused_before_any_work() {
    let m = tiny("bert");
    let out = run_stdin(
        &["embed", "--model", s(&m), "--input", "-", "--format", "npy"],
        "x\n",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("--format npy") && err.contains("regular file"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

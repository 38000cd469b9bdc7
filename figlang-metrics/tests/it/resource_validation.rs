//! Resources that are truncated or damaged are refused with the file and the line (or byte
//! offset), instead of being read as empty: word vectors and BERTScore baselines (WordNet:
//! `wordnet_validation`).

use std::path::Path;

use figlang_metrics::wmd::{VectorFormat, WordVectors};

fn vectors(body: &[u8], format: VectorFormat) -> Result<WordVectors, String> {
    let size = Some(body.len() as u64);
    WordVectors::from_reader(body, Path::new("v.txt"), format, None, size)
        .map_err(|e| e.to_string())
}

#[test]
fn an_empty_vector_file_is_refused() {
    for f in [
        VectorFormat::GloveText,
        VectorFormat::Word2VecText,
        VectorFormat::Word2VecBinary,
    ] {
        let err = vectors(b"", f).unwrap_err();
        assert!(err.starts_with("v.txt: line 1: "), "{f:?}: {err}");
    }
    let err = vectors(b"0 3\n", VectorFormat::Word2VecText).unwrap_err();
    assert!(err.contains("no word vectors"), "{err}");
    let err = vectors(b"0 3\n", VectorFormat::Word2VecBinary).unwrap_err();
    assert!(err.contains("no word vectors"), "{err}");
    let err = WordVectors::from_reader(
        b"cat 1 2\n".as_slice(),
        Path::new("v.txt"),
        VectorFormat::GloveText,
        Some(0),
        None,
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("limit of 0"), "{err}");
}

#[test]
fn non_finite_components_are_refused_with_the_line_or_byte() {
    for bad in ["nan", "NaN", "inf", "-inf", "1e39"] {
        let body = format!("cat 1 2 3\ndog 1 {bad} 3\n");
        let err = vectors(body.as_bytes(), VectorFormat::GloveText).unwrap_err();
        assert!(
            err.contains("v.txt: line 2: component 2 of \"dog\""),
            "{bad}: {err}"
        );
        let body = format!("2 3\ncat 1 2 3\ndog 1 {bad} 3\n");
        let err = vectors(body.as_bytes(), VectorFormat::Word2VecText).unwrap_err();
        assert!(err.contains("line 3: component 2"), "{bad}: {err}");
    }
    let mut body = b"2 2\ncat ".to_vec();
    for x in [1.0f32, 2.0] {
        body.extend(x.to_le_bytes());
    }
    body.extend(b"dog ");
    for x in [1.0f32, f32::NAN] {
        body.extend(x.to_le_bytes());
    }
    let err = vectors(&body, VectorFormat::Word2VecBinary).unwrap_err();
    // "2 2\n" 4 + "cat " 4 + 8 + "dog " 4 + the first component 4.
    assert!(
        err.contains("v.txt: byte 24: component 2 of \"dog\" is NaN"),
        "{err}"
    );
}

#[test]
fn wrong_dimensions_and_truncated_binaries_are_refused() {
    let err = vectors(b"cat 1 2 3\ndog 1 2\n", VectorFormat::GloveText).unwrap_err();
    assert!(
        err.contains("line 2: 2 numbers where 3 were expected"),
        "{err}"
    );
    let mut body = b"2 2\ncat ".to_vec();
    for x in [1.0f32, 2.0] {
        body.extend(x.to_le_bytes());
    }
    body.extend(b"dog ");
    body.extend(1.0f32.to_le_bytes());
    let err = vectors(&body, VectorFormat::Word2VecBinary).unwrap_err();
    assert!(
        err.contains("unexpected end of input after 1 of 2"),
        "{err}"
    );
}

//! A damaged index file is a typed error on open, never a panic.

use std::io::Cursor;
use std::path::Path;

use hauser_kb::ingest::{ingest_reader, IngestOptions, InputFormat};
use hauser_kb::{Kb, KbBuilder, KbError, Normalizer};
use proptest::prelude::*;

fn sample_bytes() -> Vec<u8> {
    let mut tsv = String::new();
    for i in 0..60 {
        tsv.push_str(&format!(
            "topic{}\tprop{}\tvehicle{}\t{}\n",
            i % 7,
            i % 5,
            i % 11,
            i + 1
        ));
    }
    let mut b = KbBuilder::new(Normalizer::Reference);
    ingest_reader(
        Cursor::new(tsv),
        Path::new("t.tsv"),
        InputFormat::Triplets,
        &mut b,
        IngestOptions::default(),
        None,
    )
    .expect("ingest");
    let mut cur = Cursor::new(Vec::new());
    b.write_to(&mut cur, Path::new("<memory>")).expect("write");
    cur.into_inner()
}

fn expect_corrupt(bytes: Vec<u8>) -> String {
    match Kb::from_bytes(bytes) {
        Err(KbError::Corrupt { message, .. }) => message,
        Err(e) => panic!("expected Corrupt, got {e}"),
        Ok(_) => panic!("damaged bytes were accepted"),
    }
}

#[test]
fn intact_bytes_open() {
    let kb = Kb::from_bytes(sample_bytes()).expect("opens");
    assert!(kb.relevance("topic1", "vehicle1") > 0.0);
}

#[test]
fn every_truncation_is_rejected() {
    let bytes = sample_bytes();
    for len in 0..bytes.len() {
        let msg = expect_corrupt(bytes[..len].to_vec());
        assert!(!msg.is_empty());
    }
}

#[test]
fn appended_bytes_are_rejected() {
    let mut bytes = sample_bytes();
    bytes.extend_from_slice(&[0; 8]);
    assert!(expect_corrupt(bytes).contains("payload"));
}

#[test]
fn every_single_bit_flip_is_rejected() {
    let bytes = sample_bytes();
    for i in 0..bytes.len() {
        for bit in [0u8, 3, 7] {
            let mut b = bytes.clone();
            b[i] ^= 1 << bit;
            expect_corrupt(b);
        }
    }
}

#[test]
fn messages_say_what_failed() {
    let bytes = sample_bytes();
    let mut b = bytes.clone();
    b[0] = b'X';
    assert!(expect_corrupt(b).contains("magic"));
    let mut b = bytes.clone();
    b[8] = 9;
    assert!(expect_corrupt(b).contains("version"));
    let mut b = bytes.clone();
    let last = b.len() - 1;
    b[last] ^= 0xff;
    assert!(expect_corrupt(b).contains("checksum"));
}

#[test]
fn damaged_file_on_disk_is_a_typed_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("kb.idx");
    let bytes = sample_bytes();
    std::fs::write(&path, &bytes[..bytes.len() / 2]).expect("write");
    assert!(matches!(Kb::open(&path), Err(KbError::Corrupt { .. })));
    std::fs::write(&path, b"").expect("write");
    assert!(matches!(Kb::open(&path), Err(KbError::Corrupt { .. })));
    assert!(matches!(
        Kb::open(dir.path().join("missing.idx")),
        Err(KbError::Io { .. })
    ));
    std::fs::write(&path, &bytes).expect("write");
    let kb = Kb::open(&path).expect("intact file opens");
    assert_eq!(kb.stats().bytes, bytes.len() as u64);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn random_corruption_never_panics_and_is_detected(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
        cut in proptest::option::of(any::<prop::sample::Index>()),
    ) {
        let orig = sample_bytes();
        let mut b = orig.clone();
        for (i, x) in &edits {
            let i = i.index(b.len());
            b[i] = *x;
        }
        if let Some(c) = cut {
            b.truncate(c.index(b.len()));
        }
        match Kb::from_bytes(b.clone()) {
            Ok(kb) => {
                // Only possible when every edit left the byte unchanged.
                prop_assert_eq!(&b, &orig);
                prop_assert!(kb.relevance("topic1", "vehicle1") > 0.0);
            }
            Err(e) => prop_assert!(matches!(e, KbError::Corrupt { .. }), "{}", e),
        }
    }
}

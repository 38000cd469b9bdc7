//! Ingestion of every input format: columns, headers, malformed rows, skipping.

use std::io::Cursor;
use std::path::Path;

use hauser_core::{ComponentExtractor, Components, CoreError, Signature};
use hauser_kb::ingest::{ingest_path, ingest_reader, IngestOptions, IngestReport, InputFormat};
use hauser_kb::{Kb, KbBuilder, KbError, Normalizer};

fn ingest(text: &str, format: InputFormat, skip: bool) -> Result<(Kb, IngestReport), KbError> {
    let opts = IngestOptions {
        skip_bad_rows: skip,
        ..IngestOptions::default()
    };
    ingest_with(text, format, opts)
}

fn ingest_with(
    text: &str,
    format: InputFormat,
    opts: IngestOptions,
) -> Result<(Kb, IngestReport), KbError> {
    let mut b = KbBuilder::new(Normalizer::Reference);
    let report = ingest_reader(
        Cursor::new(text.to_string()),
        Path::new("input.txt"),
        format,
        &mut b,
        opts,
        None,
    )?;
    Ok((b.build_in_memory()?, report))
}

#[test]
fn maps_kb_is_header_driven_and_prefers_the_cleaned_columns() {
    let csv =
        "id,topic,new_topic,property,vehicle,new_vehicle,typicality,plausibility,count,extra\n\
               1,The Boy,boy,quick,the wind,wind,0.3,0.5,4,x\n\
               2,A boy,boy,cold,wind,wind,0.1,0.25,2,\"y, z\"\n\
               3,girl,girl,quick,\"a deer\",deer,0.9,1,1,w\n";
    let (kb, report) = ingest(csv, InputFormat::MapsKb, false).expect("ingest");
    assert_eq!(report.rows_read, 3);
    assert_eq!(report.triplets_added, 3);
    assert!(kb.has_plausibility());
    assert_eq!(kb.relevance("boy", "wind"), 4.0 * 0.5 + 2.0 * 0.25);
    assert_eq!(kb.pair("the boy", "the wind").map(|p| p.count), Some(6.0));
    assert_eq!(kb.vehicle_count("wind"), 6.0);
    assert_eq!(kb.top_vehicles("girl", "quick", 3)[0].name, "deer");
}

#[test]
fn maps_kb_accepts_plain_names_and_frequency_without_plausibility() {
    let csv = "topic,property,vehicle,frequency\nhe,brave,a lion,3\n";
    let (kb, _) = ingest(csv, InputFormat::MapsKb, false).expect("ingest");
    assert!(!kb.has_plausibility());
    assert_eq!(kb.relevance("he", "lion"), 3.0);
}

#[test]
fn maps_kb_missing_column_is_a_clear_error() {
    let err = ingest("topic,property,count\na,b,1\n", InputFormat::MapsKb, false).unwrap_err();
    assert!(matches!(err, KbError::BadInput { .. }), "{err}");
    assert!(err.to_string().contains("vehicle"), "{err}");
}

#[test]
fn maps_kb_bad_rows_name_file_and_line() {
    let csv = "topic,property,vehicle,count,plausibility\nhe,brave,lion,3,0.5\nshe,quick,wind,many,0.5\nit,cold,ice,1\n";
    let err = ingest(csv, InputFormat::MapsKb, false).unwrap_err();
    assert_eq!(
        err.to_string(),
        "input.txt:3: count must be a finite non-negative number, got \"many\""
    );
    let (kb, report) = ingest(csv, InputFormat::MapsKb, true).expect("skipping");
    assert_eq!(report.bad_rows, 2);
    assert_eq!(report.triplets_added, 1);
    assert!(
        report.first_bad_rows[1].starts_with("input.txt:4:"),
        "{:?}",
        report.first_bad_rows
    );
    assert_eq!(kb.relevance("he", "lion"), 1.5);
}

#[test]
fn triplet_tsv_with_optional_header_and_count() {
    let tsv = "topic\tproperty\tvehicle\tcount\nhe\tbrave\ta lion\t3\nhe\tstrong\tlion\n\n";
    let (kb, report) = ingest(tsv, InputFormat::Triplets, false).expect("ingest");
    assert_eq!(report.rows_read, 2);
    assert_eq!(kb.relevance("he", "lion"), 4.0);
    assert_eq!(kb.top_properties("he", "lion", 5).len(), 2);
    let err = ingest("he\tbrave\n", InputFormat::Triplets, false).unwrap_err();
    assert!(matches!(err, KbError::BadRow { line: 1, .. }), "{err}");
    let err = ingest("he\tbrave\tlion\t-1\n", InputFormat::Triplets, false).unwrap_err();
    assert!(err.to_string().contains("count"), "{err}");
}

#[test]
fn simile_tsv_counts_each_row_once() {
    let tsv = "He was as _ as a lion .\tHe\tbrave\tlion\n\
               she ran as _ as the wind\tshe\tquick\tthe wind\n\
               he stood as _ as a lion\the\tbrave\ta lion\n\
               only three\tfields\there\n";
    let err = ingest(tsv, InputFormat::SimileTsv, false).unwrap_err();
    assert_eq!(
        err.to_string(),
        "input.txt:4: 3 tab-separated fields, expected sentence, topic, property, vehicle"
    );
    let (kb, report) = ingest(tsv, InputFormat::SimileTsv, true).expect("ingest");
    assert_eq!((report.rows_read, report.bad_rows), (4, 1));
    assert_eq!(kb.relevance("he", "lion"), 2.0);
    assert_eq!(kb.vehicle_count("wind"), 1.0);
    assert_eq!(kb.header().n_triplets, 2);
}

#[test]
fn invalid_utf8_and_empty_keys() {
    let mut bytes = b"he\tbrave\tlion\n".to_vec();
    bytes.extend_from_slice(b"\xff\tx\ty\n");
    bytes.extend_from_slice(b"the\tx\tlion\n");
    let mut b = KbBuilder::new(Normalizer::Reference);
    let err = ingest_reader(
        Cursor::new(bytes.clone()),
        Path::new("f"),
        InputFormat::Triplets,
        &mut b,
        IngestOptions::default(),
        None,
    )
    .unwrap_err();
    assert_eq!(err.to_string(), "f:2: invalid UTF-8");
    let mut b = KbBuilder::new(Normalizer::Reference);
    let r = ingest_reader(
        Cursor::new(bytes),
        Path::new("f"),
        InputFormat::Triplets,
        &mut b,
        IngestOptions {
            skip_bad_rows: true,
            ..IngestOptions::default()
        },
        None,
    )
    .expect("skip");
    // "the" normalises to "the" (no following space): kept; an empty topic would be dropped.
    assert_eq!((r.bad_rows, r.triplets_added, r.empty_keys), (1, 2, 0));
    let (_, r) = ingest("  \tbrave\tlion\n", InputFormat::Triplets, false).expect("ingest");
    assert_eq!((r.triplets_added, r.empty_keys), (0, 1));
}

#[test]
fn missing_file_is_an_io_error_naming_it() {
    let mut b = KbBuilder::new(Normalizer::Reference);
    let err = ingest_path(
        Path::new("/nonexistent/kb.tsv"),
        InputFormat::Triplets,
        &mut b,
        IngestOptions::default(),
        None,
    )
    .unwrap_err();
    assert!(matches!(err, KbError::Io { .. }));
    assert!(err.to_string().contains("/nonexistent/kb.tsv"));
}

/// Treats "X ... like Y" as topic = first word, vehicle = the words after "like".
struct LikeSplitter;

impl ComponentExtractor for LikeSplitter {
    fn signature(&self) -> Signature {
        Signature::new("like-splitter", "test")
    }
    fn extract(
        &self,
        simile: &str,
        _literal: Option<&str>,
    ) -> hauser_core::Result<Vec<Components>> {
        if simile.contains("FAIL") {
            return Err(CoreError::Extractor {
                extractor: "like-splitter".into(),
                message: "boom".into(),
            });
        }
        Ok(simile
            .split_once(" like ")
            .map(|(left, right)| {
                let topic = left.split_whitespace().next().unwrap_or("");
                vec![Components::new(topic, right.trim_end_matches('.'), "")]
            })
            .unwrap_or_default())
    }
}

#[test]
fn plain_similes_go_through_an_extractor() {
    let text = "He ran like the wind.\nShe sang like a bird.\nNo simile here.\nHe ran like the wind.\nFAIL\n";
    let mut b = KbBuilder::new(Normalizer::Reference);
    let err = ingest_reader(
        Cursor::new(text),
        Path::new("s.txt"),
        InputFormat::Similes,
        &mut b,
        IngestOptions::default(),
        Some(&LikeSplitter),
    )
    .unwrap_err();
    assert!(matches!(err, KbError::Extraction { line: 5, .. }), "{err}");
    let mut b = KbBuilder::new(Normalizer::Reference);
    let r = ingest_reader(
        Cursor::new(text),
        Path::new("s.txt"),
        InputFormat::Similes,
        &mut b,
        IngestOptions {
            skip_bad_rows: true,
            ..IngestOptions::default()
        },
        Some(&LikeSplitter),
    )
    .expect("ingest");
    assert_eq!(
        (r.rows_read, r.triplets_added, r.no_components, r.bad_rows),
        (5, 3, 1, 1)
    );
    let kb = b.build_in_memory().expect("build");
    assert_eq!(kb.relevance("he", "wind"), 2.0);
    assert_eq!(kb.vehicle_count("bird"), 1.0);
    let mut b = KbBuilder::new(Normalizer::Reference);
    let err = ingest_reader(
        Cursor::new(text),
        Path::new("s.txt"),
        InputFormat::Similes,
        &mut b,
        IngestOptions::default(),
        None,
    )
    .unwrap_err();
    assert!(matches!(err, KbError::BadInput { .. }));
}

/// Ingests `text`, skipping bad rows, with a 32-byte line limit.
fn ingest_capped(text: &str, format: InputFormat) -> Result<IngestReport, KbError> {
    let opts = IngestOptions {
        skip_bad_rows: true,
        max_line_bytes: 32,
    };
    ingest_with(text, format, opts).map(|(_, report)| report)
}

#[test]
fn a_line_past_the_limit_is_a_bad_row_or_a_clear_error_never_a_buffered_gigabyte() {
    let long = "x".repeat(100);
    // Line-based formats: the long line is one bad row; the rows around it are read.
    let tsv = format!("boy\tquick\twind\t4\n{long}\tquick\twind\t1\ngirl\tquick\tdeer\t1\n");
    let report = ingest_capped(&tsv, InputFormat::Triplets).expect("ingest");
    assert_eq!(report.rows_read, 3);
    assert_eq!(report.triplets_added, 2);
    assert_eq!(report.bad_rows, 1);
    // Exactly at the limit is still a row (32 bytes, then the line break).
    let at = format!("{}\tq\tv\t1\n", "t".repeat(32 - 6));
    assert_eq!(at.len(), 33);
    let report = ingest_capped(&at, InputFormat::Triplets).expect("ingest");
    assert_eq!((report.rows_read, report.triplets_added), (1, 1));
    // MAPS-KB CSV: the run stops with an error that names the line.
    let csv = format!("topic,property,vehicle,count\nboy,quick,wind,4\n{long},q,v,1\n");
    let err = ingest_capped(&csv, InputFormat::MapsKb)
        .unwrap_err()
        .to_string();
    assert!(err.contains("line 3 is longer than 32 bytes"), "{err}");
}

//! Streaming ingestion of the supported input formats into a [`TripletSink`].
//!
//! | format | rows |
//! | --- | --- |
//! | [`InputFormat::MapsKb`] | CSV with a header: topic (`new_topic`, else `topic`), `property`, vehicle (`new_vehicle`, else `vehicle`), frequency (`count` or `frequency`), optional `plausibility` (P, default 1) and `typicality` (recognised, unused); other columns ignored |
//! | [`InputFormat::Triplets`] | TSV `topic<TAB>property<TAB>vehicle[<TAB>count]` (count default 1); an optional header line `topic property vehicle [count]` is skipped |
//! | [`InputFormat::SimileTsv`] | TSV `sentence<TAB>topic<TAB>property<TAB>vehicle`, each row counting once |
//! | [`InputFormat::Similes`] | one simile sentence per line; a [`ComponentExtractor`] finds its topic-vehicle pairs (the property is unknown and stored as the empty string) |
//!
//! Each row is read, normalised and handed to the sink before the next one is read. A malformed
//! row is an error naming the file and line, unless [`IngestOptions::skip_bad_rows`] is set: then
//! it is counted and the first few messages are kept. Rows whose topic or vehicle normalises to
//! the empty string can never match a query; they are counted as `empty_keys` and dropped.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use hauser_core::ComponentExtractor;
use serde::Serialize;

use crate::clean::Normalizer;
use crate::error::{KbError, Result};

/// Where ingested triplets go: the index builder, or the naive scan reference.
pub trait TripletSink {
    /// The normaliser applied to keys.
    fn normalizer(&self) -> Normalizer;
    /// Records that the source has plausibilities.
    fn set_has_plausibility(&mut self) {}
    /// Adds one row with raw (not yet normalised) keys; `Ok(false)` when the topic or the
    /// vehicle normalises to the empty string (the row is dropped).
    ///
    /// # Errors
    /// When a format limit is exceeded.
    fn add(
        &mut self,
        topic: &str,
        property: &str,
        vehicle: &str,
        count: f64,
        plausibility: Option<f64>,
    ) -> Result<bool>;
}

/// Input formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputFormat {
    /// MAPS-KB CSV (header-driven).
    MapsKb,
    /// Triplet TSV.
    Triplets,
    /// Simile-sentence TSV (the SPGC format).
    SimileTsv,
    /// Plain simile sentences, through a component extractor.
    Similes,
}

/// The default longest line ingestion reads: 64 MiB, far above any real row.
pub const MAX_LINE_BYTES: u64 = 64 << 20;

/// Ingestion options.
#[derive(Debug, Clone, Copy)]
pub struct IngestOptions {
    /// Count and report malformed rows instead of failing on the first.
    pub skip_bad_rows: bool,
    /// The longest line read, in bytes (default [`MAX_LINE_BYTES`]). A longer line of a
    /// line-based format (triplets, simile TSV, similes) is a bad row, skipped without being
    /// held in memory; in MAPS-KB CSV, whose records the `csv` crate buffers, it ends the run
    /// with an error naming the line. Either way a file without line breaks cannot exhaust
    /// memory.
    pub max_line_bytes: u64,
}

impl Default for IngestOptions {
    fn default() -> Self {
        Self {
            skip_bad_rows: false,
            max_line_bytes: MAX_LINE_BYTES,
        }
    }
}

/// A reader that fails (as an I/O error of kind `InvalidData`) as soon as a line grows past
/// `cap` bytes, so that a CSV parser never buffers an unbounded record.
struct LineCapped<R> {
    inner: R,
    cap: u64,
    run: u64,
    line: u64,
}

impl<R: Read> Read for LineCapped<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        for &b in &buf[..n] {
            if b == b'\n' {
                self.run = 0;
                self.line += 1;
            } else {
                self.run += 1;
                if self.run > self.cap {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        format!("line {} is longer than {} bytes", self.line + 1, self.cap),
                    ));
                }
            }
        }
        Ok(n)
    }
}

/// What an ingestion run read.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct IngestReport {
    /// Data rows read (header excluded, blank lines excluded).
    pub rows_read: u64,
    /// Triplets handed to the sink and kept.
    pub triplets_added: u64,
    /// Malformed rows skipped (only with `skip_bad_rows`).
    pub bad_rows: u64,
    /// Rows dropped because the topic or vehicle normalised to the empty string.
    pub empty_keys: u64,
    /// Similes in which the extractor found no topic-vehicle pair ([`InputFormat::Similes`]).
    pub no_components: u64,
    /// The first bad-row messages (at most 10).
    pub first_bad_rows: Vec<String>,
}

const KEEP_MESSAGES: usize = 10;

struct Ctx<'a> {
    path: &'a Path,
    opts: IngestOptions,
    report: IngestReport,
}

impl Ctx<'_> {
    /// Handles a bad row: an error, or a count when skipping.
    fn bad(&mut self, line: u64, message: impl Into<String>) -> Result<()> {
        let err = KbError::BadRow {
            path: self.path.to_path_buf(),
            line,
            message: message.into(),
        };
        if !self.opts.skip_bad_rows {
            return Err(err);
        }
        self.report.bad_rows += 1;
        if self.report.first_bad_rows.len() < KEEP_MESSAGES {
            self.report.first_bad_rows.push(err.to_string());
        }
        Ok(())
    }

    fn add<S: TripletSink + ?Sized>(
        &mut self,
        sink: &mut S,
        row: (&str, &str, &str),
        count: f64,
        plausibility: Option<f64>,
    ) -> Result<()> {
        if sink.add(row.0, row.1, row.2, count, plausibility)? {
            self.report.triplets_added += 1;
        } else {
            self.report.empty_keys += 1;
        }
        Ok(())
    }
}

/// Ingests a file.
///
/// # Errors
/// [`KbError::Io`] for unreadable files, [`KbError::BadInput`] for an unusable header or a
/// missing extractor, [`KbError::BadRow`] for the first malformed row (unless skipping).
pub fn ingest_path<S: TripletSink + ?Sized>(
    path: &Path,
    format: InputFormat,
    sink: &mut S,
    opts: IngestOptions,
    extractor: Option<&dyn ComponentExtractor>,
) -> Result<IngestReport> {
    let file = File::open(path).map_err(|e| KbError::io(path, e))?;
    ingest_reader(
        BufReader::with_capacity(1 << 20, file),
        path,
        format,
        sink,
        opts,
        extractor,
    )
}

/// Ingests from a reader; `path` names the source in messages.
///
/// # Errors
/// As [`ingest_path`].
pub fn ingest_reader<R: BufRead, S: TripletSink + ?Sized>(
    reader: R,
    path: &Path,
    format: InputFormat,
    sink: &mut S,
    opts: IngestOptions,
    extractor: Option<&dyn ComponentExtractor>,
) -> Result<IngestReport> {
    let mut ctx = Ctx {
        path,
        opts,
        report: IngestReport::default(),
    };
    match format {
        InputFormat::MapsKb => maps_kb(reader, &mut ctx, sink)?,
        InputFormat::Triplets | InputFormat::SimileTsv => tsv(reader, format, &mut ctx, sink)?,
        InputFormat::Similes => {
            let extractor = extractor.ok_or_else(|| KbError::BadInput {
                path: path.to_path_buf(),
                message: "the `similes` format needs a component extractor".into(),
            })?;
            similes(reader, extractor, &mut ctx, sink)?;
        }
    }
    Ok(ctx.report)
}

fn parse_number(field: &str, what: &str) -> std::result::Result<f64, String> {
    match field.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(format!(
            "{what} must be a finite non-negative number, got {field:?}"
        )),
    }
}

fn maps_kb<R: Read, S: TripletSink + ?Sized>(
    reader: R,
    ctx: &mut Ctx<'_>,
    sink: &mut S,
) -> Result<()> {
    let reader = LineCapped {
        inner: reader,
        cap: ctx.opts.max_line_bytes,
        run: 0,
        line: 0,
    };
    let mut csv = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .from_reader(reader);
    let path = ctx.path.to_path_buf();
    let headers = csv
        .byte_headers()
        .map_err(|e| KbError::BadInput {
            path: path.clone(),
            message: format!("cannot read the CSV header: {e}"),
        })?
        .clone();
    let col = |names: &[&str]| {
        names.iter().find_map(|n| {
            headers
                .iter()
                .position(|h| h.eq_ignore_ascii_case(n.as_bytes()))
        })
    };
    let missing = |what: &str| KbError::BadInput {
        path: path.clone(),
        message: format!("no {what} column in the header"),
    };
    let topic =
        col(&["new_topic", "topic"]).ok_or_else(|| missing("topic (`new_topic` or `topic`)"))?;
    let property = col(&["property"]).ok_or_else(|| missing("`property`"))?;
    let vehicle = col(&["new_vehicle", "vehicle"])
        .ok_or_else(|| missing("vehicle (`new_vehicle` or `vehicle`)"))?;
    let count = col(&["count", "frequency"])
        .ok_or_else(|| missing("frequency (`count` or `frequency`)"))?;
    let plaus = col(&["plausibility"]);
    if plaus.is_some() {
        sink.set_has_plausibility();
    }
    let needed = [
        Some(topic),
        Some(property),
        Some(vehicle),
        Some(count),
        plaus,
    ]
    .into_iter()
    .flatten()
    .max()
    .unwrap_or(0);
    let mut rec = csv::ByteRecord::new();
    loop {
        let line_hint = rec.position().map_or(0, |p| p.line() + 1);
        match csv.read_byte_record(&mut rec) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => {
                if let csv::ErrorKind::Io(_) = e.kind() {
                    return Err(KbError::io(&path, std::io::Error::other(e.to_string())));
                }
                let line = e.position().map_or(line_hint, |p| p.line());
                ctx.report.rows_read += 1;
                ctx.bad(line, e.to_string())?;
                continue;
            }
        }
        let line = rec.position().map_or(line_hint, |p| p.line());
        ctx.report.rows_read += 1;
        if rec.len() <= needed {
            ctx.bad(
                line,
                format!(
                    "{} fields, the header needs at least {}",
                    rec.len(),
                    needed + 1
                ),
            )?;
            continue;
        }
        let field = |i: usize| std::str::from_utf8(&rec[i]);
        let (Ok(t), Ok(p), Ok(v), Ok(c)) =
            (field(topic), field(property), field(vehicle), field(count))
        else {
            ctx.bad(line, "invalid UTF-8")?;
            continue;
        };
        let n = match parse_number(c, "count") {
            Ok(n) => n,
            Err(m) => {
                ctx.bad(line, m)?;
                continue;
            }
        };
        let pl = match plaus.map(|i| {
            field(i)
                .map_err(|_| "invalid UTF-8".to_string())
                .and_then(|s| parse_number(s, "plausibility"))
        }) {
            None => None,
            Some(Ok(x)) => Some(x),
            Some(Err(m)) => {
                ctx.bad(line, m)?;
                continue;
            }
        };
        ctx.add(sink, (t, p, v), n, pl)?;
    }
    Ok(())
}

/// Reads lines into a reused buffer; yields (1-based line, line without the line break).
/// Calls `f` with each non-blank line (its 1-based number, its text without the line ending);
/// a line that is not UTF-8 counts as a read row and goes to [`Ctx::bad`].
fn for_each_row<'a, R: BufRead>(
    mut reader: R,
    ctx: &mut Ctx<'a>,
    mut f: impl FnMut(&mut Ctx<'a>, u64, &str) -> Result<()>,
) -> Result<()> {
    let mut buf = Vec::with_capacity(256);
    let mut line = 0u64;
    let cap = ctx.opts.max_line_bytes;
    loop {
        buf.clear();
        // At most one byte past the cap (a line of exactly `cap` bytes keeps its '\n').
        let n = (&mut reader)
            .take(cap.saturating_add(1))
            .read_until(b'\n', &mut buf)
            .map_err(|e| KbError::io(ctx.path, e))?;
        if n == 0 {
            return Ok(());
        }
        line += 1;
        if buf.len() as u64 > cap && buf.last() != Some(&b'\n') {
            skip_line(&mut reader).map_err(|e| KbError::io(ctx.path, e))?;
            ctx.report.rows_read += 1;
            ctx.bad(line, format!("line longer than {cap} bytes (skipped)"))?;
            continue;
        }
        while matches!(buf.last(), Some(b'\n' | b'\r')) {
            buf.pop();
        }
        match std::str::from_utf8(&buf) {
            Err(_) => {
                ctx.report.rows_read += 1;
                ctx.bad(line, "invalid UTF-8")?;
            }
            Ok(text) if text.trim().is_empty() => {}
            Ok(text) => f(ctx, line, text)?,
        }
    }
}

/// Consumes the rest of the current line (through its '\n'), a buffer at a time.
fn skip_line<R: BufRead>(reader: &mut R) -> std::io::Result<()> {
    loop {
        let avail = reader.fill_buf()?;
        if avail.is_empty() {
            return Ok(());
        }
        match avail.iter().position(|&b| b == b'\n') {
            Some(i) => {
                reader.consume(i + 1);
                return Ok(());
            }
            None => {
                let n = avail.len();
                reader.consume(n);
            }
        }
    }
}

fn is_header(fields: &[&str], names: &[&str]) -> bool {
    fields.len() >= names.len()
        && fields
            .iter()
            .zip(names)
            .all(|(f, n)| f.trim().eq_ignore_ascii_case(n))
}

fn tsv<R: BufRead, S: TripletSink + ?Sized>(
    reader: R,
    format: InputFormat,
    ctx: &mut Ctx<'_>,
    sink: &mut S,
) -> Result<()> {
    for_each_row(reader, ctx, |ctx, line, text| {
        let fields: Vec<&str> = text.split('\t').collect();
        if format == InputFormat::Triplets {
            if line == 1 && is_header(&fields, &["topic", "property", "vehicle"]) {
                return Ok(());
            }
            ctx.report.rows_read += 1;
            let count = match fields.len() {
                3 => 1.0,
                4 => match parse_number(fields[3], "count") {
                    Ok(c) => c,
                    Err(m) => return ctx.bad(line, m),
                },
                n => {
                    return ctx.bad(
                        line,
                        format!(
                            "{n} tab-separated fields, expected topic, property, vehicle[, count]"
                        ),
                    )
                }
            };
            ctx.add(sink, (fields[0], fields[1], fields[2]), count, None)
        } else {
            if line == 1 && is_header(&fields, &["sentence", "topic", "property", "vehicle"]) {
                return Ok(());
            }
            ctx.report.rows_read += 1;
            if fields.len() != 4 {
                return ctx.bad(
                    line,
                    format!(
                        "{} tab-separated fields, expected sentence, topic, property, vehicle",
                        fields.len()
                    ),
                );
            }
            ctx.add(sink, (fields[1], fields[2], fields[3]), 1.0, None)
        }
    })
}

fn similes<R: BufRead, S: TripletSink + ?Sized>(
    reader: R,
    extractor: &dyn ComponentExtractor,
    ctx: &mut Ctx<'_>,
    sink: &mut S,
) -> Result<()> {
    for_each_row(reader, ctx, |ctx, line, text| {
        ctx.report.rows_read += 1;
        let comps = match extractor.extract(text, None) {
            Ok(c) => c,
            Err(source) if !ctx.opts.skip_bad_rows => {
                return Err(KbError::Extraction {
                    path: ctx.path.to_path_buf(),
                    line,
                    source,
                })
            }
            Err(e) => return ctx.bad(line, format!("component extraction failed: {e}")),
        };
        let mut found = false;
        for c in &comps {
            if let (Some(t), Some(v)) = (c.topic.as_deref(), c.vehicle.as_deref()) {
                found = true;
                ctx.add(sink, (t, "", v), 1.0, None)?;
            }
        }
        if !found {
            ctx.report.no_components += 1;
        }
        Ok(())
    })
}

//! Reproduction on the formality-transfer data (`../shared/data/formality/*.content.ref.txt`,
//! 720 output/reference pairs): chrF (sacreBLEU 1.x `sentence_chrf`, 0-1 scale) must match the
//! authors' chrF column on every row within 1e-4, and NLTK sentence BLEU (method1 on
//! `word_tokenize` tokens) the BLEU column on at least 99% of rows within 1e-4. The authors ran
//! NLTK <= 3.4.5, whose word tokenizer differs from today's on `..`; with that tokenizer one row
//! differs (a factor of ten, LUO:27, which NLTK 3.4.5 itself does not reproduce either); with
//! NLTK 3.10.4's tokenizer 20 rows differ, all containing `..` or `...`.
//! Needs the shared data folder: the tests are `#[ignore]`d (tools/test.sh runs them when the
//! data is there) and fail when run without it.

use std::path::PathBuf;

use figlang_metrics::text::bleu_nltk::NltkBleu;
use figlang_metrics::text::chrf::Chrf;
use figlang_metrics::text::rouge::{PltrdyRouge, PltrdyVersion, RougeType};
use figlang_metrics::text::tokenize::NltkTokenizer;

/// One row: system output, reference, and the authors' metric columns.
struct Row {
    file: String,
    line: usize,
    output: String,
    reference: String,
    chrf: f64,
    bleu: f64,
    rouge: [f64; 3],
    meteor: f64,
}

fn rows() -> Vec<Row> {
    let dir = crate::common::shared_data("formality");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("readable formality folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".content.ref.txt"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("readable data file");
        for (i, line) in text.lines().enumerate() {
            let cols: Vec<&str> = line.split('\t').collect();
            let n = cols.len();
            assert_eq!(n, 27, "{}:{}", f.display(), i + 1);
            let num = |k: usize| cols[n - k].trim().parse::<f64>().expect("numeric column");
            out.push(Row {
                file: f.file_name().expect("name").to_string_lossy().into_owned(),
                line: i + 1,
                output: cols[2].to_string(),
                reference: cols[3].to_string(),
                chrf: num(6),
                bleu: num(4),
                rouge: [num(3), num(2), num(1)],
                meteor: num(7),
            });
        }
    }
    out
}

#[test]
#[ignore = "needs ../shared/data"]
fn chrf_and_sentbleu_reproduce_the_formality_columns() {
    let rows = rows();
    assert_eq!(rows.len(), 720);
    let chrf = Chrf::default();
    let bleu = NltkBleu {
        tokenizer: NltkTokenizer::V345,
        ..NltkBleu::default()
    };
    let bleu_now = NltkBleu::default();
    let mut chrf_bad = Vec::new();
    let mut bleu_bad = Vec::new();
    let mut bleu_now_bad = 0;
    for r in &rows {
        let c = chrf
            .sentence_unit(&r.output, &[&r.reference])
            .expect("chrf")
            .score;
        if (c - r.chrf).abs() > 1e-4 {
            chrf_bad.push(format!(
                "{}:{} chrF ours {c} paper {}",
                r.file, r.line, r.chrf
            ));
        }
        let now = bleu_now
            .sentence(&r.output, &[&r.reference])
            .expect("bleu")
            .score;
        if (now - r.bleu).abs() > 1e-4 {
            bleu_now_bad += 1;
        }
        let b = bleu
            .sentence(&r.output, &[&r.reference])
            .expect("bleu")
            .score;
        if (b - r.bleu).abs() > 1e-4 {
            bleu_bad.push(format!(
                "{}:{} BLEU ours {b} paper {} ({:?} / {:?})",
                r.file, r.line, r.bleu, r.output, r.reference
            ));
        }
    }
    eprintln!(
        "rows off by > 1e-4: chrF {} / 720; BLEU (NLTK 3.4.5 tokenizer) {} / 720; BLEU (NLTK 3.10.4 tokenizer) {bleu_now_bad} / 720",
        chrf_bad.len(),
        bleu_bad.len()
    );
    for b in &bleu_bad {
        eprintln!("  {b}");
    }
    assert!(chrf_bad.is_empty(), "{}", chrf_bad.join("\n"));
    assert!(
        bleu_bad.len() * 100 <= rows.len(),
        "{}",
        bleu_bad.join("\n")
    );
    // Today's tokenizer differs only on the rows with dot runs; more would be a regression.
    assert!(bleu_now_bad <= 20, "{bleu_now_bad}");
}

/// ROUGE-1/2/L: the authors ran the `rouge` package 0.3.x on NLTK 3.4.5 `word_tokenize` output
/// joined by spaces. With that setting every row matches within 1e-4; the agreement of other
/// settings is printed for docs/METRICS.md.
#[test]
#[ignore = "needs ../shared/data"]
fn pltrdy_rouge_reproduces_the_formality_columns() {
    let rows = rows();
    let kinds = [RougeType::Rouge1, RougeType::Rouge2, RougeType::RougeL];
    let settings = [
        (
            "rouge 0.3.2 + NLTK 3.4.5 tokens",
            PltrdyRouge {
                version: PltrdyVersion::V0_3_2,
                pretokenize: Some(NltkTokenizer::V345),
            },
        ),
        (
            "rouge 0.3.2 + NLTK 3.10.4 tokens",
            PltrdyRouge {
                version: PltrdyVersion::V0_3_2,
                pretokenize: Some(NltkTokenizer::Current),
            },
        ),
        (
            "rouge 1.0.1 + NLTK 3.4.5 tokens",
            PltrdyRouge {
                version: PltrdyVersion::V1_0_1,
                pretokenize: Some(NltkTokenizer::V345),
            },
        ),
        ("rouge 1.0.1, raw text", PltrdyRouge::default()),
    ];
    let mut first = [0usize; 3];
    for (si, (name, cfg)) in settings.iter().enumerate() {
        let mut agree = [0usize; 3];
        for r in &rows {
            for (k, kind) in kinds.iter().enumerate() {
                let f = cfg
                    .sentence(*kind, &r.output, &[&r.reference])
                    .expect("rouge")
                    .score;
                if (f - r.rouge[k]).abs() <= 1e-4 {
                    agree[k] += 1;
                }
            }
        }
        eprintln!("{name}: rows within 1e-4 of ROUGE-1/2/L: {agree:?} / 720");
        if si == 0 {
            first = agree;
        }
    }
    assert_eq!(first, [720, 720, 720]);
}

/// METEOR: agreement of NLTK-compatible METEOR with the authors' column under the tokenizations
/// they may have used (printed for docs/METRICS.md). Needs WordNet too.
#[test]
#[ignore = "needs ../shared/data and WordNet: apt-get install wordnet-base"]
fn wordnet_meteor_agreement_with_the_formality_column() {
    let rows = rows();
    let dir = crate::common::wordnet_dir();
    let m = figlang_metrics::text::meteor::Meteor::new(&dir).expect("wordnet");
    let mut agree = [0usize; 3];
    let mut m345 = figlang_metrics::text::meteor::Meteor::new(&dir).expect("wordnet");
    m345.version = figlang_metrics::text::meteor::MeteorVersion::V345;
    let mut agree345 = 0;
    let mut bad345 = Vec::new();
    for r in &rows {
        let v = m345
            .sentence(&r.output, &[&r.reference])
            .expect("meteor")
            .score;
        if (v - r.meteor).abs() <= 1e-4 {
            agree345 += 1;
        } else {
            bad345.push(format!("{}:{} ours {v} paper {}", r.file, r.line, r.meteor));
        }
        let ws = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        let variants = [
            m.single_tokens(
                &NltkTokenizer::Current.tokenize(&r.reference),
                &NltkTokenizer::Current.tokenize(&r.output),
            ),
            m.single_tokens(
                &NltkTokenizer::V345.tokenize(&r.reference),
                &NltkTokenizer::V345.tokenize(&r.output),
            ),
            m.single_tokens(&ws(&r.reference), &ws(&r.output)),
        ];
        for (k, v) in variants.iter().enumerate() {
            if (v - r.meteor).abs() <= 1e-4 {
                agree[k] += 1;
            }
        }
    }
    eprintln!("METEOR rows within 1e-4 [NLTK 3.10.4 tokens, NLTK 3.4.5 tokens, whitespace split]: {agree:?} / 720");
    eprintln!("METEOR (NLTK 3.4.5 algorithm) rows within 1e-4: {agree345} / 720");
    // Measured: 676 rows with today's algorithm on whitespace tokens; fewer is a regression.
    assert!(agree[2] >= 676, "{agree:?}");
    assert!(bad345.is_empty(), "{}", bad345.join("\n"));
}

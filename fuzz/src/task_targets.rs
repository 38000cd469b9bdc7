//! The fuzz targets of the task harnesses' files (issue 29): narratives JSONL, prediction and
//! label files, NewsMet CSV, the JSONL inputs of `newsmet diversity|metaphoricity`, COMET's
//! `hparams.yaml` and the WordNet database. Included by `targets.rs`, which lists them in
//! `TARGETS`; the conventions are that file's (first byte = options where said).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use clap::{Args, Command, FromArgMatches};
use serde_json::Value;

use figlang_metrics::text::wordnet::WordNet;
use figlang_metrics::text::wordnet_sim::{LeskTies, SynsetId};
use figlang_tasks::{narratives, newsmet, TaskError};

use super::{scratch, split_first};

/// The text as a reader sees it once a BOM is dropped: (all line numbers, non-blank ones).
/// "Every data line gets a record": the readers answer at least every non-blank line, and no
/// line past the end.
fn line_numbers(text: &str) -> (usize, BTreeSet<usize>) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut all = 0;
    let mut non_blank = BTreeSet::new();
    for (i, l) in text.lines().enumerate() {
        all = i + 1;
        if !l.trim().is_empty() {
            non_blank.insert(i + 1);
        }
    }
    (all, non_blank)
}

/// Record lines strictly increase, stay inside the file and cover every non-blank line.
fn check_record_lines(lines: &[usize], text: &str, what: &str) {
    let (all, non_blank) = line_numbers(text);
    assert!(
        lines.windows(2).all(|w| w[0] < w[1]),
        "{what}: record lines not increasing: {lines:?}"
    );
    assert!(
        lines.iter().all(|&l| (1..=all).contains(&l)),
        "{what}: a record line outside 1..={all}: {lines:?}"
    );
    let have: BTreeSet<usize> = lines.iter().copied().collect();
    assert!(
        non_blank.is_subset(&have),
        "{what}: non-blank lines {non_blank:?} without a record ({lines:?})"
    );
}

/// A record error names the file and the line it belongs to.
fn check_record_error(e: &TaskError, path: &Path, line: usize) {
    match e {
        TaskError::Record {
            path: p, line: l, ..
        } => {
            assert_eq!(p, path, "the error names the file");
            assert_eq!(*l, line, "the error names the record's line");
        }
        other => panic!("a bad record gives a Record error with its line, got {other:?}"),
    }
    assert!(e
        .to_string()
        .starts_with(&format!("{}:{line}: ", path.display())));
}

/// The line a `TaskError::Record` names (panics on any other error).
fn record_line(e: &TaskError, path: &Path) -> usize {
    match e {
        TaskError::Record { path: p, line, .. } if p == path => *line,
        other => panic!(
            "expected a Record error naming {}, got {other:?}",
            path.display()
        ),
    }
}

/// The figurative narratives data (`figlang_tasks::narratives::parse_records`, `parse_split`;
/// first byte bit 0: through a file, `read_split`, which also reads the bytes as UTF-8). Every
/// non-blank line gets a record, in order, parsed or an error naming the file and its line; the
/// split holds one item per record, or fails with the first bad record's error, and reads as
/// unlabelled exactly when every answer is `option1`.
pub fn narratives_data(data: &[u8]) {
    let (flags, body) = split_first(data);
    let path = Path::new("n.jsonl");
    let text = String::from_utf8_lossy(body);
    let records = narratives::parse_records(&text, path);
    let lines: Vec<usize> = records.iter().map(|(l, _)| *l).collect();
    check_record_lines(&lines, &text, "narratives data");
    for (line, r) in &records {
        match r {
            Ok(item) => assert!(item.answer.index() < 2),
            Err(e) => check_record_error(e, path, *line),
        }
    }
    let split = narratives::parse_split(&text, path);
    // A whole split skips blank lines (the per-line scorers answer them with an error record).
    let is_blank = |r: &figlang_tasks::TaskResult<narratives::NarrativeItem>| matches!(r, Err(TaskError::Record { message, .. }) if message == narratives::BLANK_LINE);
    let counted: Vec<_> = records.iter().filter(|(_, r)| !is_blank(r)).collect();
    let first_error = counted.iter().find_map(|(_, r)| r.as_ref().err());
    match (&split, first_error) {
        (Ok(s), None) => {
            assert_eq!(s.items.len(), counted.len(), "one item per record");
            let placeholder = s
                .items
                .iter()
                .all(|i| i.answer == narratives::Choice::Option1);
            assert_eq!(
                s.labels == narratives::LabelStatus::Placeholder,
                placeholder
            );
            assert_eq!(s.gold().is_some(), !placeholder);
        }
        (Err(e), Some(first)) => assert_eq!(e.to_string(), first.to_string()),
        (Err(e), None) => assert!(counted.is_empty(), "split refused: {e}"),
        (Ok(_), Some(e)) => panic!("a split with a bad record ({e}) was accepted"),
    }
    if flags & 1 == 1 {
        let file = scratch("narratives.jsonl");
        std::fs::write(&file, body).expect("write the scratch input");
        let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
        match (narratives::read_split(&file), std::str::from_utf8(body)) {
            (Ok(s), Ok(valid)) => {
                let again = narratives::parse_split(valid, &file).expect("as read_split");
                assert_eq!(s, again);
            }
            (Err(e), Ok(valid)) => {
                let again = narratives::parse_split(valid, &file).expect_err("as read_split");
                assert_eq!(e.to_string(), again.to_string());
            }
            (Ok(_), Err(_)) => panic!("read_split accepted invalid UTF-8"),
            (Err(e), Err(u)) => {
                let line = 1 + body[..u.valid_up_to()]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count();
                check_record_error(&e, &file, line);
            }
        }
    }
}

/// Prediction and label files, one kind per execution (first byte mod 5): narratives choice
/// predictions (`parse_choice_predictions`), generative predictions (`parse_predictions`),
/// narratives labels (`parse_labels`, 1-based, then 0-based) and NewsMet labels
/// (`newsmet::parse_labels`). JSONL readers answer every non-blank line in order, errors naming
/// the file and the line; label readers give one label per line (up to the last non-empty
/// line) or the error of a line inside the file.
pub fn prediction_files(data: &[u8]) {
    let (which, body) = split_first(data);
    let path = Path::new("p.txt");
    let text = String::from_utf8_lossy(body);
    match which % 5 {
        0 => {
            let got = narratives::parse_choice_predictions(&text, path);
            let (_, non_blank) = line_numbers(&text);
            // Results carry no line: an error's line is checked against the lines there are.
            let mut last = 0;
            for r in &got {
                if let Err(e) = r {
                    let line = record_line(e, path);
                    assert!(line > last, "error lines increase");
                    last = line;
                }
            }
            check_count(got.len(), &text, &non_blank, "choice predictions");
        }
        1 => {
            let got = narratives::parse_predictions(&text, path);
            let lines: Vec<usize> = got
                .iter()
                .map(|r| match r {
                    Ok(p) => p.line,
                    Err(e) => record_line(e, path),
                })
                .collect();
            check_record_lines(&lines, &text, "generative predictions");
        }
        n => {
            let got = match n {
                2 | 3 => narratives::parse_labels(&text, path, n == 3).map(|v| v.len()),
                _ => newsmet::parse_labels(&text, path).map(|v| v.len()),
            };
            let body = text.strip_prefix('\u{feff}').unwrap_or(&text);
            let expected = body.trim_end_matches(['\n', '\r']).lines().count();
            match got {
                Ok(n) => assert_eq!(n, expected, "one label per line"),
                Err(e) => {
                    let line = record_line(&e, path);
                    assert!((1..=expected).contains(&line), "label error on line {line}");
                }
            }
        }
    }
}

/// A reader without lines in its results answers at least every non-blank line, and no more
/// lines than there are.
fn check_count(n: usize, text: &str, non_blank: &BTreeSet<usize>, what: &str) {
    let (all, _) = line_numbers(text);
    assert!(
        (non_blank.len()..=all).contains(&n),
        "{what}: {n} results for {} non-blank of {all} lines",
        non_blank.len()
    );
}

/// NewsMet CSV files (`newsmet::parse_csv`, `csv_column`, then `families` and `FamilyStats` on
/// what parsed). Rows come in file order on lines inside the file, labels 0 or 1; the `Text`
/// column read on its own gives the same rows; errors name the file and a line (1-based).
pub fn newsmet_csv(data: &[u8]) {
    let path = Path::new("x.csv");
    let text = String::from_utf8_lossy(data);
    let lines = 1 + text.matches('\n').count();
    let line_ok = |e: &TaskError| match e {
        TaskError::Record { path: p, line, .. } => {
            assert_eq!(p, path);
            assert!(
                (1..=lines).contains(line),
                "error on line {line} of {lines}"
            );
        }
        TaskError::Input(m) => assert!(m.starts_with("x.csv: "), "{m}"),
        other => panic!("unexpected error {other:?}"),
    };
    match newsmet::parse_csv(&text, path) {
        Ok(rows) => {
            // Lines are counted at `\n`, as the JSONL readers count them; csv also ends a
            // record at a lone `\r`, so two records may share a line.
            assert!(rows.windows(2).all(|w| w[0].line <= w[1].line));
            for r in &rows {
                assert!((1..=lines).contains(&r.line), "row on line {}", r.line);
                assert!(r.label <= 1);
            }
            let column = newsmet::csv_column(&text, path, "Text").expect("Text was found");
            assert_eq!(column.len(), rows.len());
            for ((line, t), r) in column.iter().zip(&rows) {
                assert_eq!((*line, t.as_str()), (r.line, r.text.as_str()));
            }
            if let Ok(fams) = newsmet::families(&rows) {
                for f in &fams {
                    assert!(f.parent < rows.len() && f.accepted <= f.children.len());
                }
                let mut stats = newsmet::FamilyStats::default();
                stats.add(&rows, &fams);
                let _ = stats.total();
            }
        }
        Err(e) => line_ok(&e),
    }
    match newsmet::csv_column(&text, path, "label") {
        Ok(col) => assert!(col.windows(2).all(|w| w[0].0 <= w[1].0)),
        Err(e) => line_ok(&e),
    }
}

/// Runs `hauser newsmet ARGS...` as the command line would parse them.
fn run_newsmet(args: &[&str]) -> (Result<bool, hauser_cli::CliError>, Vec<u8>) {
    use hauser_cli::newsmet::NewsmetArgs;
    let cmd = NewsmetArgs::augment_args(Command::new("newsmet").no_binary_name(true));
    let matches = cmd.try_get_matches_from(args).expect("valid arguments");
    let parsed = NewsmetArgs::from_arg_matches(&matches).expect("valid arguments");
    let mut out = Vec::new();
    (hauser_cli::newsmet::run(&parsed, &mut out), out)
}

/// Ten words with vectors, GloVe text, for `newsmet metaphoricity`.
const VECTORS: &str = "man 0.5 1 0\nball 1 1 0.25\nkick 1 0 0\nmarkets 0 0 1\ntumble 0.1 -1 0\n\
rise 0.3 0.3 0.3\nzero 0 0 0\nrates -1 2 0\nrun 2 1 -1\nfall 1 -1 1\n";

/// `hauser newsmet diversity` and `metaphoricity` on a JSONL input (first byte: bit 0
/// metaphoricity, bit 1 `--nltk current`, bit 2 `--vocab-limit 4`), end to end through the
/// command with a small WordNet and vector file. The run succeeds on a UTF-8 input; every
/// non-blank line gets one JSON object with its line, in order; error records name the input
/// file and their line; the exit status says whether any failed; a diversity puts every
/// candidate in a cluster or counts it as a singleton; similarities are cosines.
pub fn newsmet_jsonl(data: &[u8]) {
    let (flags, body) = split_first(data);
    let input = scratch("newsmet.jsonl");
    std::fs::write(&input, body).expect("write the scratch input");
    let input_s = input.to_str().expect("a UTF-8 scratch path").to_string();
    let vectors = scratch("vectors.txt");
    let wordnet = small_wordnet_dir();
    let (result, out) = if flags & 1 == 1 {
        if !vectors.exists() {
            std::fs::write(&vectors, VECTORS).expect("write the vectors");
        }
        let v = vectors.to_str().expect("UTF-8").to_string();
        let mut args = vec!["metaphoricity", "--input", &input_s, "--vectors", &v];
        if flags & 4 != 0 {
            args.extend(["--vocab-limit", "4"]);
        }
        run_newsmet(&args)
    } else {
        let wn = wordnet.to_str().expect("UTF-8").to_string();
        let nltk = if flags & 2 != 0 { "current" } else { "3.4.5" };
        run_newsmet(&[
            "diversity",
            "--input",
            &input_s,
            "--wordnet",
            &wn,
            "--nltk",
            nltk,
        ])
    };
    let text = match std::str::from_utf8(body) {
        Ok(t) => t,
        Err(_) => {
            let e = result.expect_err("invalid UTF-8 is refused");
            assert!(e.to_string().contains(&input_s), "{e}");
            return;
        }
    };
    let all_ok = result.unwrap_or_else(|e| panic!("the run fails on a UTF-8 input: {e}"));
    let out = std::str::from_utf8(&out).expect("UTF-8 output");
    let mut lines = Vec::new();
    let mut failed = 0;
    let candidates_of = |line: usize| -> Option<usize> {
        let l = text
            .strip_prefix('\u{feff}')
            .unwrap_or(text)
            .lines()
            .nth(line - 1)?;
        let v: Value = serde_json::from_str(l.trim_end_matches('\r')).ok()?;
        Some(v["candidates"].as_array()?.len())
    };
    for o in out.lines() {
        let v: Value = serde_json::from_str(o).unwrap_or_else(|e| panic!("{o:?}: {e}"));
        let line = v["line"].as_u64().expect("every record has its line") as usize;
        lines.push(line);
        if let Some(e) = v.get("error") {
            failed += 1;
            let e = e.as_str().expect("an error message");
            assert!(e.starts_with(&format!("{input_s}:{line}: ")), "{e}");
            continue;
        }
        let n = candidates_of(line).expect("a scored line has candidates");
        if flags & 1 == 1 {
            let scored = v["candidates"].as_array().expect("candidates");
            assert_eq!(scored.len(), n, "one score per candidate");
            for c in scored {
                for key in ["score", "subject_sim", "object_sim"] {
                    if let Some(s) = c[key].as_f64() {
                        assert!((-1.0001..=1.0001).contains(&s), "{key} {s}");
                    }
                }
            }
        } else {
            let senses = v["senses"].as_array().expect("senses");
            assert_eq!(senses.len(), n, "one sense per candidate");
            let clusters = v["clusters"].as_array().expect("clusters");
            let singletons = v["singletons"].as_array().expect("singletons");
            assert_eq!(
                v["diversity"].as_u64(),
                Some((clusters.len() + singletons.len()) as u64)
            );
            let mut seen = BTreeSet::new();
            for i in clusters.iter().flat_map(|c| c.as_array().expect("a list")) {
                seen.insert(i.as_u64().expect("an index"));
            }
            for i in singletons {
                assert!(
                    seen.insert(i.as_u64().expect("an index")),
                    "a singleton in a cluster"
                );
            }
            assert_eq!(seen, (0..n as u64).collect(), "every candidate counted");
        }
    }
    check_record_lines(&lines, text, "newsmet JSONL");
    assert_eq!(
        all_ok,
        failed == 0,
        "the exit status says whether a record failed"
    );
}

/// COMET's `hparams.yaml` (`hauser_nli::CometHparams::parse`, all four classes): settings
/// COMET defines or an error naming what is wrong; never a panic, the same text parses the
/// same way twice, and with a byte-order mark in front. The unified classes' settings are
/// their constructors': input segments for the unified classes only, a word layer exactly
/// when there are error labels, XCOMET's `[mt, src, ref]` and minor, major, critical.
pub fn comet_hparams(data: &[u8]) {
    use hauser_nli::{CometClass, CometHparams, Segment};
    let text = String::from_utf8_lossy(data);
    let parsed = CometHparams::parse(&text);
    if !text.starts_with('\u{feff}') {
        assert_eq!(CometHparams::parse(&format!("\u{feff}{text}")), parsed);
    }
    match parsed {
        Ok(h) => {
            assert!(!h.hidden_sizes.is_empty());
            assert_eq!(h.class.is_unified(), !h.input_segments.is_empty());
            assert_eq!(h.word_layer.is_some(), !h.error_labels.is_empty());
            if !h.class.is_unified() {
                assert!(h.word_layer.is_none());
            }
            if h.class == CometClass::Xcomet {
                assert_eq!(h.input_segments, [Segment::Src, Segment::Ref]);
                assert_eq!(h.error_labels, ["minor", "major", "critical"]);
            }
            assert_eq!(CometHparams::parse(&text), Ok(h));
        }
        Err(message) => assert!(!message.is_empty()),
    }
}

/// A synset of the small database: part of speech, words, pointers (symbol, index of the
/// target in `SYNSETS`), gloss.
type Synset = (
    char,
    &'static [&'static str],
    &'static [(&'static str, usize)],
    &'static str,
);

/// The synsets of the small database. Verbs form two hypernym trees, so that LCH similarity
/// has paths.
const SYNSETS: &[Synset] = &[
    ('n', &["entity"], &[], "that which exists"),
    (
        'n',
        &["market", "mart"],
        &[("@", 0)],
        "a place where goods are sold",
    ),
    ('n', &["rate"], &[("@", 0)], "amount per unit"),
    (
        'n',
        &["stock", "market"],
        &[("@", 1)],
        "shares; \"stock fell\"",
    ),
    ('v', &["move"], &[], "change position"),
    ('v', &["run"], &[("@", 4)], "move fast by using one's feet"),
    ('v', &["walk"], &[("@", 4)], "move on foot"),
    ('v', &["race", "run"], &[("@", 5)], "run at top speed"),
    (
        'v',
        &["fall", "tumble"],
        &[],
        "descend under the force of gravity",
    ),
    ('v', &["tumble"], &[("@", 8)], "fall down, as if collapsing"),
    ('v', &["drop", "fall"], &[("@", 8)], "go down in value"),
    ('v', &["rise"], &[], "move upward"),
    (
        'v',
        &["climb", "rise"],
        &[("@", 11)],
        "go upward with gradual steps",
    ),
    ('a', &["fast"], &[], "acting or moving quickly"),
    ('s', &["quick"], &[("&", 13)], "moving quickly"),
    ('r', &["quickly", "fast"], &[], "with speed"),
];

/// The files of the small database, written in `SYNSETS` order with real byte offsets.
fn small_wordnet_files() -> Vec<(&'static str, Vec<u8>)> {
    const FILES: [(&str, &[char]); 4] = [
        ("noun", &['n']),
        ("verb", &['v']),
        ("adj", &['a', 's']),
        ("adv", &['r']),
    ];
    let header = "  1 This is a small test database in the WordNet 3.0 format.  \n  2 \n";
    let mut offsets = vec![0usize; SYNSETS.len()];
    let mut out = Vec::new();
    // Offsets are fixed-width, so a first pass with zeros gives every line's length.
    for pass in 0..2 {
        out.clear();
        for (name, letters) in FILES {
            let mut data = String::from(header);
            let mut index: Vec<(String, Vec<usize>)> = Vec::new();
            for (i, (pos, words, pointers, gloss)) in SYNSETS.iter().enumerate() {
                if !letters.contains(pos) {
                    continue;
                }
                offsets[i] = data.len();
                let lex = match pos {
                    'n' => 3,
                    'v' => 29,
                    'r' => 2,
                    _ => 0,
                };
                let mut line = format!("{:08} {lex:02} {pos} {:02x}", offsets[i], words.len());
                for w in *words {
                    line += &format!(" {w} 0");
                }
                line += &format!(" {:03}", pointers.len());
                for (sym, target) in *pointers {
                    let tpos = SYNSETS[*target].0;
                    line += &format!(" {sym} {:08} {tpos} 0000", offsets[*target]);
                }
                if *pos == 'v' {
                    line += " 01 + 02 00";
                }
                data += &format!("{line} | {gloss}  \n");
                for w in *words {
                    match index.iter_mut().find(|(x, _)| x == w) {
                        Some((_, o)) => o.push(offsets[i]),
                        None => index.push((w.to_string(), vec![offsets[i]])),
                    }
                }
            }
            if pass == 1 {
                index.sort();
                let mut idx = String::from(header);
                let p = letters[0];
                for (w, o) in index {
                    let list: Vec<String> = o.iter().map(|x| format!("{x:08}")).collect();
                    idx += &format!("{w} {p} {n} 1 @ {n} 0 {}  \n", list.join(" "), n = o.len());
                }
                out.push((index_name(name), idx.into_bytes()));
                out.push((data_name(name), data.into_bytes()));
            }
        }
    }
    out.push(("noun.exc", b"marts mart\n".to_vec()));
    out.push(("verb.exc", b"ran run\nfell fall\nrose rise\n".to_vec()));
    out.push(("adj.exc", b"faster fast\n".to_vec()));
    out.push(("adv.exc", b"".to_vec()));
    out.push((
        "lexnames",
        // WordNet 3.0's first 30 lexicographer files: NLTK asserts that each line's number is
        // its position, and the synsets below use files 00, 02, 03 and 29.
        b"00\tadj.all\t3\n01\tadj.pert\t3\n02\tadv.all\t4\n03\tnoun.Tops\t1\n04\tnoun.act\t1\n05\tnoun.animal\t1\n06\tnoun.artifact\t1\n07\tnoun.attribute\t1\n08\tnoun.body\t1\n09\tnoun.cognition\t1\n10\tnoun.communication\t1\n11\tnoun.event\t1\n12\tnoun.feeling\t1\n13\tnoun.food\t1\n14\tnoun.group\t1\n15\tnoun.location\t1\n16\tnoun.motive\t1\n17\tnoun.object\t1\n18\tnoun.person\t1\n19\tnoun.phenomenon\t1\n20\tnoun.plant\t1\n21\tnoun.possession\t1\n22\tnoun.process\t1\n23\tnoun.quantity\t1\n24\tnoun.relation\t1\n25\tnoun.shape\t1\n26\tnoun.state\t1\n27\tnoun.substance\t1\n28\tnoun.time\t1\n29\tverb.body\t2\n".to_vec(),
    ));
    out
}

fn index_name(pos: &str) -> &'static str {
    match pos {
        "noun" => "index.noun",
        "verb" => "index.verb",
        "adj" => "index.adj",
        _ => "index.adv",
    }
}

fn data_name(pos: &str) -> &'static str {
    match pos {
        "noun" => "data.noun",
        "verb" => "data.verb",
        "adj" => "data.adj",
        _ => "data.adv",
    }
}

/// This thread's copy of the small database (written once).
fn small_wordnet_dir() -> PathBuf {
    let dir = scratch("wordnet-valid");
    if !dir.join("lexnames").exists() {
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        for (name, bytes) in small_wordnet_files() {
            std::fs::write(dir.join(name), bytes).expect("write the database");
        }
    }
    dir
}

/// Words of the small database plus forms that reach `morphy`'s rules and exceptions.
const WORDS: &[&str] = &[
    "entity", "market", "markets", "marts", "rate", "stock", "move", "run", "ran", "running",
    "walk", "walked", "race", "fall", "fell", "tumble", "tumbles", "drop", "rise", "rose", "climb",
    "fast", "faster", "quick", "quickly", "absent",
];

/// The queries of METEOR, Lesk and LCH on an open database; returns the synset count of each
/// of `WORDS` (as nouns, verbs, adjectives, adverbs), so that a damaged copy can be compared
/// with the valid one.
fn query(wn: &WordNet, extra: &[&str]) -> Vec<usize> {
    let mut counts = Vec::new();
    let context = ["markets", "tumble", "as", "rates", "rise", "fast"];
    let mut verbs: Vec<SynsetId> = Vec::new();
    for w in WORDS.iter().chain(extra) {
        let _ = (wn.synset_lemma_names(w), wn.synset_lemma_names_nltk345(w));
        let synsets = wn.synsets(w, None);
        counts.push(synsets.len());
        for &s in &synsets {
            if let Some(name) = wn.synset_name(s) {
                assert!(name.contains(&format!(".{}.", s.pos)), "{name} of {s:?}");
            }
            let _ = (wn.definition(s), wn.hypernyms(s));
            if s.pos == 'v' && verbs.len() < 8 && !verbs.contains(&s) {
                verbs.push(s);
            }
        }
        for pos in ['n', 'v', 'a', 'r', 'x'] {
            let _ = wn.morphy(w, pos);
        }
        for ties in [LeskTies::First, LeskTies::LargestName] {
            let _ = wn.lesk_with(&context, w, Some('v'), ties);
        }
    }
    for pos in ['n', 'v', 'a', 's', 'r'] {
        let _ = wn.max_depth(pos);
    }
    for a in &verbs {
        for b in &verbs {
            if let Some(s) = wn.lch_similarity(*a, *b) {
                assert!(s.is_finite(), "LCH {s} of {a:?} and {b:?}");
            }
        }
    }
    counts
}

/// The valid database's answers, computed once per thread.
fn reference_counts() -> Vec<usize> {
    thread_local! {
        static COUNTS: Vec<usize> = {
            let wn = WordNet::open(small_wordnet_dir()).expect("the small database opens");
            let run = wn.synsets("run", Some('v'));
            let race = wn.synsets("race", Some('v'));
            assert!(
                wn.lch_similarity(run[0], race[0]).is_some_and(|s| s > 0.0),
                "the small database has hypernym paths"
            );
            query(&wn, &[])
        };
    }
    COUNTS.with(Clone::clone)
}

/// The WordNet reader (`WordNet::open`, then the queries of METEOR, Lesk and LCH): a small
/// valid database in a scratch directory with one of its files (first byte, low nibble mod 13:
/// `index.*`, `data.*`, `*.exc`, `lexnames`) replaced by the fuzzer's bytes (bits 4-5: 0
/// replaced, 1 the valid file followed by the bytes, 2 the valid file cut to the length the
/// first two bytes give, 3 removed). Opening fails with an error naming the file, or every
/// query answers (no panic, no hang; LCH finite); a damaged exception list or `lexnames` loses
/// no synset of the valid database's words.
pub fn wordnet(data: &[u8]) {
    let (flags, body) = split_first(data);
    let files = small_wordnet_files();
    let (name, valid) = &files[usize::from(flags & 15) % files.len()];
    let dir = scratch("wordnet-fuzz");
    if !dir.join("lexnames").exists() {
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        for (n, bytes) in &files {
            std::fs::write(dir.join(n), bytes).expect("write the database");
        }
    }
    let file = dir.join(name);
    let bytes = match (flags >> 4) & 3 {
        0 => Some(body.to_vec()),
        1 => Some([valid.as_slice(), body].concat()),
        2 => {
            let n = body
                .iter()
                .take(2)
                .fold(0usize, |n, &b| n * 256 + usize::from(b));
            Some(valid[..n.min(valid.len())].to_vec())
        }
        _ => None,
    };
    match &bytes {
        Some(b) => std::fs::write(&file, b).expect("write the damaged file"),
        None => std::fs::remove_file(&file).expect("remove the file"),
    }
    let opened = WordNet::open(&dir);
    // Restored before any check can fail, for the next execution.
    std::fs::write(&file, valid).expect("restore the file");
    let wn = match opened {
        Ok(wn) => wn,
        Err(e) => {
            let m = e.to_string();
            assert!(m.contains(name), "the error names {name}: {m}");
            return;
        }
    };
    let text = String::from_utf8_lossy(body);
    let extra: Vec<&str> = text
        .split_whitespace()
        .filter(|w| w.len() <= 12)
        .take(4)
        .collect();
    let counts = query(&wn, &extra);
    if name.ends_with(".exc") || *name == "lexnames" {
        // An exception replaces morphy's rules for its form (NLTK does the same), so only the
        // lemmas of the index are sure to keep their synsets.
        let reference = reference_counts();
        for ((w, got), want) in WORDS.iter().zip(&counts).zip(&reference) {
            let lemma = SYNSETS.iter().any(|s| s.1.contains(w));
            assert!(
                !lemma || got >= want,
                "{w}: {got} synsets, {want} in the valid database"
            );
        }
    }
}

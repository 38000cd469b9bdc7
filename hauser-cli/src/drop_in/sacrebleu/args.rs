//! The argument list of `hauser sacrebleu`: sacreBLEU 2.4.3's options, read by the rules of
//! Python 3.11's `argparse` (which is what sacreBLEU uses), so that every command line the real
//! tool accepts means the same here and every one it refuses is refused with exit status 2:
//! long options may be abbreviated to any unambiguous prefix (`--conf` is ambiguous,
//! `--confidence-` is not), values follow the option or an `=`, single-character options take
//! their value attached (`-w3`) or combine (`-bq`), `--input` and the positional references take
//! any number of values, `--metrics` and `--echo` at least one, and a positional that comes
//! after the references were read is an unrecognized argument.
//!
//! clap cannot express these rules (abbreviations with argparse's ambiguity errors, the greedy
//! `nargs='*'` options), hence this small parser of our own.

use std::fmt::Write as _;

/// sacreBLEU's `--help`, as argparse lays it out on an 80-column terminal (the layout it uses
/// when standard output is not a terminal and `COLUMNS` is unset); written by
/// tools/gen/gen_sacrebleu_cli_fixtures.py from the real command.
pub const HELP: &str = include_str!("help.txt");

/// What `--version` prints: the sacreBLEU release whose command line this is.
pub const VERSION_LINE: &str = "sacrebleu 2.4.3";

/// How many values an option takes (argparse's `nargs`).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Nargs {
    Zero,
    One,
    Star,
    Plus,
}

/// How a value is converted and checked (argparse's `type` and `choices`).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Ty {
    Str,
    Int,
    Float,
    Choice(&'static [&'static str]),
}

#[derive(Debug, Clone, Copy)]
struct Spec {
    /// The option strings, in sacreBLEU's order (the first names the option in messages).
    names: &'static [&'static str],
    dest: &'static str,
    nargs: Nargs,
    ty: Ty,
}

const METRICS: &[&str] = &["bleu", "chrf", "ter"];
const SMOOTH: &[&str] = &["none", "floor", "add-k", "exp"];
const TOKENIZERS: &[&str] = &[
    "none",
    "zh",
    "13a",
    "intl",
    "char",
    "ja-mecab",
    "ko-mecab",
    "spm",
    "flores101",
    "flores200",
];
/// The output formats of `--format` (and of `SACREBLEU_FORMAT`).
pub const FORMATS: &[&str] = &["json", "text", "latex"];

macro_rules! spec {
    ($dest:literal, $nargs:ident, $ty:expr, $($name:literal),+) => {
        Spec { names: &[$($name),+], dest: $dest, nargs: Nargs::$nargs, ty: $ty }
    };
}

/// Every option, in the order of sacreBLEU's `add_argument` calls (argparse's lookup order).
const SPECS: &[Spec] = &[
    spec!("help", Zero, Ty::Str, "-h", "--help"),
    spec!("citation", Zero, Ty::Str, "--citation", "--cite"),
    spec!("list", Zero, Ty::Str, "--list"),
    spec!("test_set", One, Ty::Str, "--test-set", "-t"),
    spec!("langpair", One, Ty::Str, "--language-pair", "-l"),
    spec!("origlang", One, Ty::Str, "--origlang", "-ol"),
    spec!("subset", One, Ty::Str, "--subset"),
    spec!("download", One, Ty::Str, "--download"),
    spec!("echo", Plus, Ty::Str, "--echo"),
    spec!("input", Star, Ty::Str, "--input", "-i"),
    spec!("num_refs", One, Ty::Int, "--num-refs", "-nr"),
    spec!("encoding", One, Ty::Str, "--encoding", "-e"),
    spec!("metrics", Plus, Ty::Choice(METRICS), "--metrics", "-m"),
    spec!("sentence_level", Zero, Ty::Str, "--sentence-level", "-sl"),
    spec!(
        "smooth_method",
        One,
        Ty::Choice(SMOOTH),
        "--smooth-method",
        "-s"
    ),
    spec!("smooth_value", One, Ty::Float, "--smooth-value", "-sv"),
    spec!(
        "tokenize",
        One,
        Ty::Choice(TOKENIZERS),
        "--tokenize",
        "-tok"
    ),
    spec!("lowercase", Zero, Ty::Str, "--lowercase", "-lc"),
    spec!("force", Zero, Ty::Str, "--force"),
    spec!("chrf_char_order", One, Ty::Int, "--chrf-char-order", "-cc"),
    spec!("chrf_word_order", One, Ty::Int, "--chrf-word-order", "-cw"),
    spec!("chrf_beta", One, Ty::Int, "--chrf-beta"),
    spec!("chrf_whitespace", Zero, Ty::Str, "--chrf-whitespace"),
    spec!("chrf_lowercase", Zero, Ty::Str, "--chrf-lowercase"),
    spec!("chrf_eps_smoothing", Zero, Ty::Str, "--chrf-eps-smoothing"),
    spec!("ter_case_sensitive", Zero, Ty::Str, "--ter-case-sensitive"),
    spec!("ter_asian_support", Zero, Ty::Str, "--ter-asian-support"),
    spec!("ter_no_punct", Zero, Ty::Str, "--ter-no-punct"),
    spec!("ter_normalized", Zero, Ty::Str, "--ter-normalized"),
    spec!("confidence", Zero, Ty::Str, "--confidence", "-ci"),
    spec!("confidence_n", One, Ty::Int, "--confidence-n", "-cin"),
    spec!("paired_ar", Zero, Ty::Str, "--paired-ar", "-par"),
    spec!("paired_bs", Zero, Ty::Str, "--paired-bs", "-pbs"),
    spec!("paired_ar_n", One, Ty::Int, "--paired-ar-n", "-parn"),
    spec!("paired_bs_n", One, Ty::Int, "--paired-bs-n", "-pbsn"),
    spec!("paired_jobs", One, Ty::Int, "--paired-jobs", "-j"),
    spec!("quiet", Zero, Ty::Str, "--quiet", "-q"),
    spec!("short", Zero, Ty::Str, "--short", "-sh"),
    spec!("score_only", Zero, Ty::Str, "--score-only", "-b"),
    spec!("width", One, Ty::Int, "--width", "-w"),
    spec!("detail", Zero, Ty::Str, "--detail", "-d"),
    spec!("no_color", Zero, Ty::Str, "--no-color", "-nc"),
    spec!("format", One, Ty::Choice(FORMATS), "--format", "-f"),
    spec!("version", Zero, Ty::Str, "--version", "-V"),
];

/// sacreBLEU's parsed options, with its defaults.
// Each field is the sacreBLEU option of the same name (its `dest`), which HELP documents.
#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq)]
pub struct SacreArgs {
    pub citation: bool,
    pub list: bool,
    pub test_set: Option<String>,
    pub langpair: Option<String>,
    pub origlang: Option<String>,
    pub subset: Option<String>,
    pub download: Option<String>,
    pub echo: Option<Vec<String>>,
    /// `None`: no `-i` (hypotheses from standard input); `Some([])`: `-i` with no file.
    pub input: Option<Vec<String>>,
    pub refs: Vec<String>,
    pub num_refs: i64,
    pub encoding: String,
    pub metrics: Vec<String>,
    pub sentence_level: bool,
    pub smooth_method: String,
    pub smooth_value: Option<f64>,
    pub tokenize: Option<String>,
    pub lowercase: bool,
    pub force: bool,
    pub chrf_char_order: i64,
    pub chrf_word_order: i64,
    pub chrf_beta: i64,
    pub chrf_whitespace: bool,
    pub chrf_lowercase: bool,
    pub chrf_eps_smoothing: bool,
    pub ter_case_sensitive: bool,
    pub ter_asian_support: bool,
    pub ter_no_punct: bool,
    pub ter_normalized: bool,
    pub confidence: bool,
    pub confidence_n: i64,
    pub paired_ar: bool,
    pub paired_bs: bool,
    pub paired_ar_n: i64,
    pub paired_bs_n: i64,
    pub paired_jobs: i64,
    pub quiet: bool,
    pub short: bool,
    pub score_only: bool,
    pub width: i64,
    pub detail: bool,
    pub no_color: bool,
    pub format: String,
}

impl Default for SacreArgs {
    fn default() -> Self {
        Self {
            citation: false,
            list: false,
            test_set: None,
            langpair: None,
            origlang: None,
            subset: None,
            download: None,
            echo: None,
            input: None,
            refs: Vec::new(),
            num_refs: 1,
            encoding: "utf-8".into(),
            metrics: vec!["bleu".into()],
            sentence_level: false,
            smooth_method: "exp".into(),
            smooth_value: None,
            tokenize: None,
            lowercase: false,
            force: false,
            chrf_char_order: 6,
            chrf_word_order: 0,
            chrf_beta: 2,
            chrf_whitespace: false,
            chrf_lowercase: false,
            chrf_eps_smoothing: false,
            ter_case_sensitive: false,
            ter_asian_support: false,
            ter_no_punct: false,
            ter_normalized: false,
            confidence: false,
            confidence_n: 1000,
            paired_ar: false,
            paired_bs: false,
            paired_ar_n: 10000,
            paired_bs_n: 1000,
            paired_jobs: 1,
            quiet: false,
            short: false,
            score_only: false,
            width: 1,
            detail: false,
            no_color: false,
            format: "json".into(),
        }
    }
}

/// The outcome of reading the arguments.
#[derive(Debug, Clone, PartialEq)]
pub enum Parsed {
    /// Options to run with.
    Run(Box<SacreArgs>),
    /// `--help` or `--version`: print this on standard output and exit 0.
    Print(String),
    /// An argparse error: its message (exit status 2).
    Error(String),
}

/// Python's `str.isspace` for the characters `int()` and `float()` strip.
fn py_space(c: char) -> bool {
    hauser_core::tokenize::is_python_space(c)
}

/// Digits with single underscores between them (Python's numeric literal rule), underscores
/// removed; `None` when malformed.
fn digits_without_underscores(s: &str) -> Option<String> {
    if s.starts_with('_') || s.ends_with('_') || s.contains("__") {
        return None;
    }
    let ok = s.split('_').all(|part| {
        part.chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit() || c == '.' || c == 'e' || c == 'E')
    });
    ok.then(|| s.replace('_', ""))
}

/// Python's `int(s)` for a decimal string (signs, surrounding spaces, `_` between digits).
pub fn py_int(s: &str) -> Option<i64> {
    let t = s.trim_matches(py_space);
    let (neg, body) = match t.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    if body.is_empty() || !body.chars().all(|c| c.is_ascii_digit() || c == '_') {
        return None;
    }
    let digits = digits_without_underscores(body)?;
    let v: i64 = digits.parse().ok()?;
    Some(if neg { -v } else { v })
}

/// Python's `float(s)`: decimal and exponent forms, `inf`, `infinity`, `nan` in any case.
pub fn py_float(s: &str) -> Option<f64> {
    let t = s.trim_matches(py_space);
    let (sign, body) = match t.strip_prefix('-') {
        Some(b) => (-1.0, b),
        None => (1.0, t.strip_prefix('+').unwrap_or(t)),
    };
    let lower = body.to_ascii_lowercase();
    if lower == "inf" || lower == "infinity" {
        return Some(sign * f64::INFINITY);
    }
    if lower == "nan" {
        return Some(f64::NAN);
    }
    if body.is_empty()
        || !body
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '_' | '.' | 'e' | 'E' | '+' | '-'))
    {
        return None;
    }
    let plain = if body.contains('_') {
        digits_without_underscores(body)?
    } else {
        body.to_string()
    };
    plain.parse::<f64>().ok().map(|v| sign * v)
}

/// An option word: the option (`None`: unknown), the option string used, an attached value.
type OptionWord = (Option<usize>, String, Option<String>);

/// How one command-line word is read (argparse's `_parse_optional`).
enum Word {
    Positional,
    /// An option (`None`: unknown), the option string used, an attached value.
    Optional(Option<usize>, String, Option<String>),
}

fn lookup(name: &str) -> Option<usize> {
    SPECS.iter().position(|s| s.names.contains(&name))
}

fn option_names() -> impl Iterator<Item = (usize, &'static str)> {
    SPECS
        .iter()
        .enumerate()
        .flat_map(|(i, s)| s.names.iter().map(move |n| (i, *n)))
}

/// argparse's `_get_option_tuples`: the options an abbreviated word may mean.
fn option_tuples(word: &str) -> Vec<(usize, String, Option<String>)> {
    let mut out = Vec::new();
    let b = word.as_bytes();
    if b.len() >= 2 && b[1] == b'-' {
        let (prefix, explicit) = match word.split_once('=') {
            Some((p, v)) => (p, Some(v.to_string())),
            None => (word, None),
        };
        for (i, name) in option_names() {
            if name.starts_with(prefix) {
                out.push((i, name.to_string(), explicit.clone()));
            }
        }
    } else {
        let split = word.char_indices().nth(2).map_or(word.len(), |(i, _)| i);
        let (short, attached) = word.split_at(split);
        for (i, name) in option_names() {
            if name == short {
                out.push((i, name.to_string(), Some(attached.to_string())));
            } else if name.starts_with(word) {
                out.push((i, name.to_string(), None));
            }
        }
    }
    out
}

fn is_negative_number(word: &str) -> bool {
    let Some(rest) = word.strip_prefix('-') else {
        return false;
    };
    let digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    (!rest.is_empty() && digits(rest))
        || rest
            .split_once('.')
            .is_some_and(|(a, b)| digits(a) && !b.is_empty() && digits(b))
}

fn classify(word: &str) -> Result<Word, String> {
    if !word.starts_with('-') {
        return Ok(Word::Positional);
    }
    if let Some(i) = lookup(word) {
        return Ok(Word::Optional(Some(i), word.to_string(), None));
    }
    if word.chars().count() == 1 {
        return Ok(Word::Positional);
    }
    if let Some((name, value)) = word.split_once('=') {
        if let Some(i) = lookup(name) {
            return Ok(Word::Optional(
                Some(i),
                name.to_string(),
                Some(value.into()),
            ));
        }
    }
    let tuples = option_tuples(word);
    if tuples.len() > 1 {
        let names: Vec<&str> = tuples.iter().map(|t| t.1.as_str()).collect();
        return Err(format!(
            "ambiguous option: {} could match {}",
            word.split_once('=').map_or(word, |p| p.0),
            names.join(", ")
        ));
    }
    if let Some((i, name, value)) = tuples.into_iter().next() {
        return Ok(Word::Optional(Some(i), name, value));
    }
    if is_negative_number(word) || word.contains(' ') {
        return Ok(Word::Positional);
    }
    Ok(Word::Optional(None, word.to_string(), None))
}

/// The name argparse gives an option in its messages (`--width/-w`).
fn display(spec: &Spec) -> String {
    spec.names.join("/")
}

fn py_repr(s: &str) -> String {
    if s.contains('\'') && !s.contains('"') {
        format!("\"{s}\"")
    } else {
        format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
    }
}

/// One converted value.
#[derive(Debug, Clone)]
enum Value {
    Str(String),
    Int(i64),
    Float(f64),
}

fn convert(spec: &Spec, raw: &str) -> Result<Value, String> {
    let bad = |what: &str| {
        format!(
            "argument {}: invalid {what} value: {}",
            display(spec),
            py_repr(raw)
        )
    };
    match spec.ty {
        Ty::Str => Ok(Value::Str(raw.to_string())),
        Ty::Int => py_int(raw).map(Value::Int).ok_or_else(|| bad("int")),
        Ty::Float => py_float(raw).map(Value::Float).ok_or_else(|| bad("float")),
        Ty::Choice(choices) => {
            if choices.contains(&raw) {
                Ok(Value::Str(raw.to_string()))
            } else {
                let list: Vec<String> = choices.iter().map(|c| py_repr(c)).collect();
                Err(format!(
                    "argument {}: invalid choice: {} (choose from {})",
                    display(spec),
                    py_repr(raw),
                    list.join(", ")
                ))
            }
        }
    }
}

fn one_str(values: &[Value]) -> String {
    match values.first() {
        Some(Value::Str(s)) => s.clone(),
        _ => String::new(),
    }
}

fn one_int(values: &[Value]) -> i64 {
    match values.first() {
        Some(Value::Int(v)) => *v,
        _ => 0,
    }
}

fn strings(values: &[Value]) -> Vec<String> {
    values
        .iter()
        .filter_map(|v| match v {
            Value::Str(s) => Some(s.clone()),
            _ => None,
        })
        .collect()
}

/// Stores the values of `spec` in `a` (argparse's `store` and `store_true`).
fn store(a: &mut SacreArgs, spec: &Spec, v: &[Value]) {
    match spec.dest {
        "citation" => a.citation = true,
        "list" => a.list = true,
        "test_set" => a.test_set = Some(one_str(v)),
        "langpair" => a.langpair = Some(one_str(v)),
        "origlang" => a.origlang = Some(one_str(v)),
        "subset" => a.subset = Some(one_str(v)),
        "download" => a.download = Some(one_str(v)),
        "echo" => a.echo = Some(strings(v)),
        "input" => a.input = Some(strings(v)),
        "num_refs" => a.num_refs = one_int(v),
        "encoding" => a.encoding = one_str(v),
        "metrics" => a.metrics = strings(v),
        "sentence_level" => a.sentence_level = true,
        "smooth_method" => a.smooth_method = one_str(v),
        "smooth_value" => {
            a.smooth_value = match v.first() {
                Some(Value::Float(f)) => Some(*f),
                _ => None,
            }
        }
        "tokenize" => a.tokenize = Some(one_str(v)),
        "lowercase" => a.lowercase = true,
        "force" => a.force = true,
        "chrf_char_order" => a.chrf_char_order = one_int(v),
        "chrf_word_order" => a.chrf_word_order = one_int(v),
        "chrf_beta" => a.chrf_beta = one_int(v),
        "chrf_whitespace" => a.chrf_whitespace = true,
        "chrf_lowercase" => a.chrf_lowercase = true,
        "chrf_eps_smoothing" => a.chrf_eps_smoothing = true,
        "ter_case_sensitive" => a.ter_case_sensitive = true,
        "ter_asian_support" => a.ter_asian_support = true,
        "ter_no_punct" => a.ter_no_punct = true,
        "ter_normalized" => a.ter_normalized = true,
        "confidence" => a.confidence = true,
        "confidence_n" => a.confidence_n = one_int(v),
        "paired_ar" => a.paired_ar = true,
        "paired_bs" => a.paired_bs = true,
        "paired_ar_n" => a.paired_ar_n = one_int(v),
        "paired_bs_n" => a.paired_bs_n = one_int(v),
        "paired_jobs" => a.paired_jobs = one_int(v),
        "quiet" => a.quiet = true,
        "short" => a.short = true,
        "score_only" => a.score_only = true,
        "width" => a.width = one_int(v),
        "detail" => a.detail = true,
        "no_color" => a.no_color = true,
        "format" => a.format = one_str(v),
        _ => {}
    }
}

/// The usage block of the help (what argparse prints above an error).
pub fn usage() -> &'static str {
    HELP.split("\n\n").next().unwrap_or(HELP)
}

/// Reads sacreBLEU's arguments (without the program name).
pub fn parse(words: &[String]) -> Parsed {
    match parse_inner(words) {
        Ok(p) => p,
        Err(msg) => Parsed::Error(msg),
    }
}

fn parse_inner(words: &[String]) -> Result<Parsed, String> {
    // Classify every word first, as argparse does: 'O' options, 'A' values, '-' the `--`.
    let mut kinds: Vec<Option<OptionWord>> = Vec::new();
    let mut after_dashes = false;
    let mut pattern = Vec::new();
    for w in words {
        if after_dashes {
            kinds.push(None);
            pattern.push(b'A');
        } else if w == "--" {
            after_dashes = true;
            kinds.push(None);
            pattern.push(b'-');
        } else {
            match classify(w)? {
                Word::Positional => {
                    kinds.push(None);
                    pattern.push(b'A');
                }
                Word::Optional(i, name, value) => {
                    kinds.push(Some((i, name, value)));
                    pattern.push(b'O');
                }
            }
        }
    }
    let mut args = SacreArgs::default();
    let mut extras: Vec<String> = Vec::new();
    let mut refs_taken = false;
    let mut seen_paired: Option<usize> = None;
    let mut i = 0;
    let consume_positionals = |start: usize, args: &mut SacreArgs, refs_taken: &mut bool| {
        if *refs_taken {
            return start;
        }
        *refs_taken = true;
        let mut end = start;
        while end < pattern.len() && pattern[end] != b'O' {
            end += 1;
        }
        // argparse drops the first `--` from a positional's values.
        let mut vals: Vec<String> = words[start..end].to_vec();
        if let Some(p) = vals.iter().position(|v| v == "--") {
            vals.remove(p);
        }
        args.refs = vals;
        end
    };
    let last_option = kinds.iter().rposition(Option::is_some);
    while last_option.is_some_and(|l| i <= l) {
        if kinds[i].is_none() {
            let next = consume_positionals(i, &mut args, &mut refs_taken);
            if next > i {
                i = next;
                continue;
            }
            while kinds[i].is_none() {
                extras.push(words[i].clone());
                i += 1;
            }
        }
        let Some((spec_i, mut name, mut explicit)) = kinds[i].clone() else {
            continue;
        };
        let Some(mut spec_i) = spec_i else {
            extras.push(words[i].clone());
            i += 1;
            continue;
        };
        let mut actions: Vec<(usize, Vec<String>)> = Vec::new();
        let stop;
        loop {
            let spec = &SPECS[spec_i];
            if let Some(value) = explicit.take() {
                if spec.nargs == Nargs::Zero {
                    // A single-character flag with something attached: more flags (`-bq`).
                    if !name.starts_with("--") && !value.is_empty() {
                        actions.push((spec_i, Vec::new()));
                        let mut chars = value.chars();
                        let first = chars.next().unwrap_or('-');
                        let rest: String = chars.collect();
                        name = format!("-{first}");
                        match lookup(&name) {
                            Some(k) => {
                                spec_i = k;
                                explicit = (!rest.is_empty()).then_some(rest);
                                continue;
                            }
                            None => {
                                return Err(format!(
                                    "argument {}: ignored explicit argument {}",
                                    display(spec),
                                    py_repr(&value)
                                ))
                            }
                        }
                    }
                    return Err(format!(
                        "argument {}: ignored explicit argument {}",
                        display(spec),
                        py_repr(&value)
                    ));
                }
                actions.push((spec_i, vec![value]));
                stop = i + 1;
                break;
            }
            let start = i + 1;
            let run = pattern[start..].iter().take_while(|&&p| p == b'A').count();
            let count = match spec.nargs {
                Nargs::Zero => 0,
                Nargs::One if run >= 1 => 1,
                Nargs::One => {
                    return Err(format!("argument {}: expected one argument", display(spec)))
                }
                Nargs::Star => run,
                Nargs::Plus if run >= 1 => run,
                Nargs::Plus => {
                    return Err(format!(
                        "argument {}: expected at least one argument",
                        display(spec)
                    ))
                }
            };
            actions.push((spec_i, words[start..start + count].to_vec()));
            stop = start + count;
            break;
        }
        for (k, raw) in actions {
            let spec = &SPECS[k];
            match spec.dest {
                "help" => return Ok(Parsed::Print(HELP.to_string())),
                "version" => return Ok(Parsed::Print(format!("{VERSION_LINE}\n"))),
                "paired_ar" | "paired_bs" => {
                    if let Some(other) = seen_paired.filter(|&o| o != k) {
                        return Err(format!(
                            "argument {}: not allowed with argument {}",
                            display(spec),
                            display(&SPECS[other])
                        ));
                    }
                    seen_paired = Some(k);
                }
                _ => {}
            }
            let values = raw
                .iter()
                .map(|r| convert(spec, r))
                .collect::<Result<Vec<_>, _>>()?;
            store(&mut args, spec, &values);
        }
        i = stop;
    }
    let stop = consume_positionals(i, &mut args, &mut refs_taken);
    extras.extend(words[stop..].iter().cloned());
    if !extras.is_empty() {
        let mut msg = String::from("unrecognized arguments:");
        for e in &extras {
            let _ = write!(msg, " {e}");
        }
        return Err(msg);
    }
    Ok(Parsed::Run(Box::new(args)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(line: &str) -> Parsed {
        let words: Vec<String> = line.split_whitespace().map(String::from).collect();
        parse(&words)
    }

    fn ok(line: &str) -> SacreArgs {
        match run(line) {
            Parsed::Run(a) => *a,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn references_precede_inputs_and_inputs_are_greedy() {
        let a = ok("ref.txt -i a.txt b.txt -m bleu chrf -w3 -bq");
        assert_eq!(a.refs, ["ref.txt"]);
        assert_eq!(
            a.input.as_deref(),
            Some(&["a.txt".to_string(), "b.txt".into()][..])
        );
        assert_eq!(a.metrics, ["bleu", "chrf"]);
        assert_eq!(a.width, 3);
        assert!(a.score_only && a.quiet);
        let a = ok("-i a.txt ref.txt");
        assert!(a.refs.is_empty());
        assert_eq!(a.input.map(|v| v.len()), Some(2));
    }

    #[test]
    fn argparse_errors() {
        for line in [
            "r -i a --paired-bs --paired-ar",
            "r --conf",
            "r -m foo",
            "r -w x",
            "r -i a -b r2",
            "r -tok ja",
            "r --cit",
            "r -w",
        ] {
            assert!(matches!(run(line), Parsed::Error(_)), "{line}");
        }
        assert!(matches!(run("r --bogus --help"), Parsed::Print(_)));
        let a = ok("r --confidence- 5 --wid=2 -w -1");
        assert_eq!((a.confidence_n, a.width), (5, -1));
    }

    #[test]
    fn python_numbers() {
        assert_eq!(py_int(" +1_000 "), Some(1000));
        assert_eq!(py_int("1__0"), None);
        assert_eq!(py_float("1e-2"), Some(0.01));
        assert!(py_float("x").is_none());
    }
}

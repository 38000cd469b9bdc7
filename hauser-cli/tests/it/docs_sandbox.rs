//! The scratch directory in which `docs::every_command_line_in_the_documents_runs` runs the
//! documents' command lines: every file name they use is a small stand-in, and every model
//! name is a directory holding one of the tiny random-weight models of the tests, so that
//! `hauser` loads it locally (a spec that exists on disk is never a hub id). Reference data
//! (`../shared/data`) and WordNet are linked in when this machine has them; commands that need
//! them are skipped, with a notice, when it does not.

use std::path::{Path, PathBuf};

use tempfile::TempDir;

use crate::common::{copy_dir, shared_data_root};

/// The repository root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn nli_fixture(rel: &str) -> PathBuf {
    root().join("hauser-nli/tests/fixtures").join(rel)
}

/// A copy of a model fixture under `name`, with `edit` applied to its config.json.
fn model_as(dir: &Path, fixture: &str, name: &str, edit: impl Fn(&mut serde_json::Value)) {
    let to = dir.join(name);
    copy_dir(&nli_fixture(fixture), &to);
    let cfg = to.join("config.json");
    if cfg.is_file() {
        let mut v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&cfg).unwrap()).unwrap();
        edit(&mut v);
        std::fs::write(&cfg, v.to_string()).unwrap();
    }
}

/// A COMET checkpoint folder under `name` (fixture `family/fixture`), its encoder taken from
/// `family/encoder`.
fn comet_as(dir: &Path, family: &str, fixture: &str, name: &str) {
    let to = dir.join(name);
    copy_dir(&nli_fixture(&format!("{family}/{fixture}")), &to);
    let hparams = to.join("hparams.yaml");
    let encoder = nli_fixture(&format!("{family}/encoder"))
        .canonicalize()
        .unwrap();
    let text: String = std::fs::read_to_string(&hparams)
        .unwrap()
        .lines()
        .map(|l| {
            if l.starts_with("pretrained_model:") {
                format!("pretrained_model: {}\n", encoder.display())
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    std::fs::write(hparams, text).unwrap();
}

/// Gives the model in `dir` `layers` encoder layers, each a copy of layer 0's tensors, so that a
/// stand-in has the depth of the model it stands for (BERTScore's default layer for
/// `roberta-large` is 17). safetensors is an 8-byte header length, a JSON header of
/// `{name: {dtype, shape, data_offsets}}` and the data.
fn deepen(dir: &Path, layers: usize) {
    let path = dir.join("model.safetensors");
    let bytes = std::fs::read(&path).unwrap();
    let n = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    let header: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(&bytes[8..8 + n]).unwrap();
    let data = &bytes[8 + n..];
    let mut out_header = serde_json::Map::new();
    let mut out_data = Vec::new();
    let mut push = |name: String, info: &serde_json::Value| {
        let range = &info["data_offsets"];
        let (a, b) = (
            range[0].as_u64().unwrap() as usize,
            range[1].as_u64().unwrap() as usize,
        );
        let start = out_data.len();
        out_data.extend_from_slice(&data[a..b]);
        let mut info = info.clone();
        info["data_offsets"] = serde_json::json!([start, out_data.len()]);
        out_header.insert(name, info);
    };
    for (name, info) in &header {
        if name == "__metadata__" {
            continue;
        }
        if let Some((prefix, rest)) = name.split_once(".layer.0.") {
            for l in 0..layers {
                push(format!("{prefix}.layer.{l}.{rest}"), info);
            }
        } else if !name.contains(".layer.") {
            push(name.clone(), info);
        }
    }
    if let Some(meta) = header.get("__metadata__") {
        out_header.insert("__metadata__".into(), meta.clone());
    }
    let head = serde_json::Value::Object(out_header).to_string();
    let mut file = (head.len() as u64).to_le_bytes().to_vec();
    file.extend_from_slice(head.as_bytes());
    file.extend_from_slice(&out_data);
    std::fs::write(&path, file).unwrap();
    let cfg = dir.join("config.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cfg).unwrap()).unwrap();
    v["num_hidden_layers"] = serde_json::json!(layers);
    std::fs::write(&cfg, v.to_string()).unwrap();
}

fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Eighty short sentences (the formality data's size: `--flip 41-80` needs 80 lines).
fn sentences(variant: usize) -> String {
    const WORDS: [&str; 8] = [
        "the cat sat on the mat",
        "he ran like the wind",
        "she was as brave as a lion",
        "it was quiet as a mouse",
        "the dog was very happy",
        "her hands were cold as ice",
        "he was fast",
        "a big cat ran",
    ];
    (0..80)
        .map(|i| format!("{} {}.\n", WORDS[(i + variant) % WORDS.len()], i % 7))
        .collect()
}

/// The scratch directory and what this machine lacks for some commands.
pub struct Sandbox {
    dir: TempDir,
    shared: Option<PathBuf>,
    wordnet: bool,
}

impl Sandbox {
    /// Builds the stand-ins.
    pub fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let similes = std::fs::read_to_string(root().join("examples/data/similes.jsonl")).unwrap();
        write(d, "examples/data/similes.jsonl", &similes);
        write(d, "similes.jsonl", &similes);
        write(
            d,
            "simile_pairs.jsonl",
            "{\"simile\": \"He ran like the wind.\", \"literal\": \"He ran fast.\"}\nHer smile was like sunshine.\n",
        );
        write(
            d,
            "corpus.txt",
            "He ran like the wind.\nThe sky was grey.\nHer smile was like sunshine.\n",
        );
        write(
            d,
            "MAPS-KB.csv",
            "topic,property,vehicle,count\nhe,brave,a lion,3\nhe,innocent,a child,2\nhe,brave,a child,1\nshe,cold,ice,4\n",
        );
        let mut tsv = String::from("system\tsegment\thuman\tmetric\n");
        for s in 0..4 {
            for g in 0..5 {
                let h = (s * 5 + g * 3) % 7;
                tsv.push_str(&format!(
                    "sys{s}\t{g}\t{h}\t{}\n",
                    h as f64 * 0.1 + s as f64
                ));
            }
        }
        write(d, "scores.tsv", &tsv);
        // Several metrics of the same outputs, for the WMT report.
        let mut tsv = String::from("system\tsegment\thuman\tbleu\tchrf\tcomet\n");
        for s in 0..5 {
            for g in 0..8 {
                let h = ((s * 5 + g * 3) % 7 + s) as f64;
                let noise = ((s * 11 + g * 7) % 5) as f64;
                tsv.push_str(&format!(
                    "sys{s}\t{g}\t{h}\t{}\t{}\t{}\n",
                    h * 2.0 + noise * 3.0,
                    h * 3.0 + noise,
                    h * 0.1 + noise * 0.01
                ));
            }
        }
        write(d, "metrics.tsv", &tsv);
        for (name, v) in [
            ("hyp.txt", 0),
            ("ref.txt", 1),
            ("ref2.txt", 2),
            ("src.txt", 3),
            ("base.txt", 4),
            ("a.txt", 5),
            ("b.txt", 6),
        ] {
            write(d, name, &sentences(v));
        }
        write(
            d,
            "pairs.jsonl",
            "{\"hyp\": \"He ran like the wind.\", \"refs\": [\"He ran as fast as the wind.\", \"He was fast.\"]}\n{\"hyp\": \"The news spread fast.\", \"refs\": [\"Word got around.\", \"The news spread.\"]}\n",
        );
        // hauser rerank: sources and their candidates.
        write(
            d,
            "candidates.jsonl",
            "{\"src\": \"He ran like the wind.\", \"candidates\": [\"He ran very fast.\", \"He sprinted like the wind.\", \"The wind ran.\"]}\n{\"src\": \"The news spread fast.\", \"candidates\": [\"Word got around.\", \"The news spread quickly.\"]}\n",
        );
        // BERTScore baseline: bert_score's LAYER,P,R,F rows.
        write(
            d,
            "roberta-large.tsv",
            &(0..=24).fold(String::from("LAYER,P,R,F\n"), |mut t, l| {
                let b = 0.3 + l as f64 * 0.01;
                t.push_str(&format!("{l},{b},{},{}\n", b + 0.01, b + 0.005));
                t
            }),
        );
        // Hub names as local directories of tiny models.
        model_as(d, "roberta", "roberta-large", |_| {});
        deepen(&d.join("roberta-large"), 24);
        model_as(d, "roberta", "my-encoder", |_| {});
        deepen(&d.join("my-encoder"), 6);
        model_as(d, "deberta", "mujeensung/roberta-base_mnli_bc", |_| {});
        model_as(
            d,
            "roberta",
            "distilbert-base-uncased-finetuned-sst-2-english",
            |_| {},
        );
        model_as(d, "roberta", "s-nlp/roberta-base-formality-ranker", |c| {
            c["id2label"] = serde_json::json!({"0": "informal", "1": "formal"});
            c["label2id"] = serde_json::json!({"informal": 0, "formal": 1});
        });
        model_as(d, "bleurt", "lucadiliello/bleurt-large-512", |_| {});
        model_as(d, "gpt2", "gpt2", |_| {});
        model_as(d, "deberta", "microsoft/deberta-large-mnli", |_| {});
        deepen(&d.join("microsoft/deberta-large-mnli"), 24);
        model_as(d, "multiple-choice/roberta", "roberta-mc", |_| {});
        model_as(d, "masked-lm/albert", "albert/albert-xxlarge-v2", |_| {});
        copy_dir(
            &root().join("figlang-tasks/tests/fixtures/newsmet/detector"),
            &d.join("detector"),
        );
        comet_as(d, "comet", "regression", "Unbabel/wmt22-comet-da");
        comet_as(d, "comet", "qe", "Unbabel/wmt20-comet-qe-da");
        comet_as(d, "comet-unified", "kiwi", "Unbabel/wmt22-cometkiwi-da");
        // MetricX: the tiny mT5 regressors, each with its own tokenizer files (the released
        // checkpoints ship none, and google/mt5-xl's would come from the hub).
        model_as(d, "metricx", "google/metricx-24-hybrid-large-v2p6", |_| {});
        model_as(d, "metricx-relu", "google/metricx-23-qe-large-v2p0", |_| {});
        // The figurative narratives: the synthetic fixture, and the same narratives with
        // knowledge inferences.
        let data = std::fs::read_to_string(
            root().join("figlang-tasks/tests/fixtures/narratives/data.jsonl"),
        )
        .unwrap();
        write(d, "idiom/dev.jsonl", &data);
        let with_inferences: String = data
            .lines()
            .map(|l| {
                let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                v["inferences"] = serde_json::json!(["personx wanted rest", "They felt proud"]);
                format!("{v}\n")
            })
            .collect();
        write(d, "idiom_inferences_context/dev.jsonl", &with_inferences);
        // NewsMet: headlines for diversity and metaphoricity.
        write(
            d,
            "families.jsonl",
            "{\"headline\": \"Could One of These Four Screenplays Win the Oscar?\", \"focus\": \"Win\", \"candidates\": [\"steal\", \"grab\", \"snatch\", \"take\"]}\n",
        );
        write(
            d,
            "svo.jsonl",
            "{\"subject\": \"cat\", \"object\": \"mat\", \"candidates\": [\"sat\", \"ran\"]}\n",
        );
        std::fs::copy(
            root().join("figlang-metrics/tests/fixtures/wmd/glove.txt"),
            d.join("glove.txt"),
        )
        .unwrap();
        // Reference data, linked where the documents use it.
        let shared = shared_data_root().filter(|p| p.is_dir());
        if let Some(shared) = &shared {
            for (from, to) in [
                ("formality", "formality"),
                ("newsmet/test_set_1.csv", "test_set_1.csv"),
                ("newsmet/train_goldplus.csv", "train_goldplus.csv"),
                ("newsmet/val_goldplus.csv", "val_goldplus.csv"),
                ("newsmet/test_goldplus.csv", "test_goldplus.csv"),
            ] {
                std::os::unix::fs::symlink(shared.join(from), d.join(to)).unwrap();
            }
        }
        let wordnet = Path::new("/usr/share/wordnet/data.noun").is_file();
        Self {
            dir,
            shared,
            wordnet,
        }
    }

    /// The scratch directory (the commands' working directory).
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// Why a command cannot run on this machine (a missing asset), if it cannot.
    pub fn unavailable(&self, command: &str) -> Option<&'static str> {
        let shared = ["formality", "test_set_1.csv", "_goldplus.csv"];
        if self.shared.is_none() && shared.iter().any(|s| command.contains(s)) {
            return Some("../shared/data (set HAUSER_SHARED_DATA)");
        }
        let wordnet = ["newsmet diversity", "--wordnet", "formality reproduce"];
        if !self.wordnet && wordnet.iter().any(|s| command.contains(s)) {
            return Some("WordNet at /usr/share/wordnet (apt-get install wordnet-base)");
        }
        None
    }
}

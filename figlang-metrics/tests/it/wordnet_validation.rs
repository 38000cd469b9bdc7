//! A truncated or damaged WordNet database is refused with the file and the line instead of
//! being read as words without senses. `#[ignore]`d and named `wordnet_*`: tools/test.sh runs
//! them when the database is installed.

use std::path::{Path, PathBuf};

use figlang_metrics::text::wordnet::WordNet;
use figlang_metrics::text::MetricError;

use crate::common::wordnet_dir;

const FILES: [&str; 12] = [
    "data.noun",
    "data.verb",
    "data.adj",
    "data.adv",
    "index.noun",
    "index.verb",
    "index.adj",
    "index.adv",
    "noun.exc",
    "verb.exc",
    "adj.exc",
    "adv.exc",
];

/// A copy of the real database in a temporary directory: links to the real files, except
/// `name`, which is rewritten by `edit` (`None` leaves it out).
fn wordnet_with(name: &str, edit: Option<&dyn Fn(Vec<u8>) -> Vec<u8>>) -> tempfile::TempDir {
    let real = PathBuf::from(wordnet_dir());
    let dir = tempfile::tempdir().unwrap();
    for f in FILES {
        let to = dir.path().join(f);
        if f == name {
            if let Some(edit) = edit {
                std::fs::write(&to, edit(std::fs::read(real.join(f)).unwrap())).unwrap();
            }
        } else {
            std::os::unix::fs::symlink(real.join(f), &to).unwrap();
        }
    }
    dir
}

fn open_err(dir: &Path) -> String {
    match WordNet::open(dir) {
        Ok(_) => panic!("a damaged database was accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
#[ignore = "needs WordNet: apt-get install wordnet-base"]
fn the_real_wordnet_passes_the_checks() {
    let wn = WordNet::open(wordnet_dir()).unwrap();
    assert!(!wn.synset_lemma_names("dog").is_empty());
    // A copy made of links is the same database.
    let dir = wordnet_with("none", None);
    WordNet::open(dir.path()).unwrap();
}

#[test]
#[ignore = "needs WordNet: apt-get install wordnet-base"]
fn a_truncated_data_file_is_refused_naming_the_lost_synset() {
    // Cut at a line boundary: no line is broken, but index offsets point past the end.
    let cut = |b: Vec<u8>| {
        let mut end = b.len() / 2;
        while b[end - 1] != b'\n' {
            end -= 1;
        }
        b[..end].to_vec()
    };
    let dir = wordnet_with("data.verb", Some(&cut));
    let err = open_err(dir.path());
    // A pointer from another file to a verb synset that is gone is found first.
    assert!(err.contains("is not a synset of data.verb"), "{err}");
    // Cut inside a line.
    let dir = wordnet_with("data.adv", Some(&|b: Vec<u8>| b[..b.len() - 10].to_vec()));
    let err = open_err(dir.path());
    assert!(
        err.contains("data.adv:") && err.contains("ends inside a line"),
        "{err}"
    );
    // Empty.
    let dir = wordnet_with("data.adv", Some(&|_| Vec::new()));
    let err = open_err(dir.path());
    assert!(err.contains("data.adv:1: no synset"), "{err}");
}

#[test]
#[ignore = "needs WordNet: apt-get install wordnet-base"]
fn a_truncated_index_file_is_refused_naming_the_synset() {
    let cut = |b: Vec<u8>| {
        let mut end = b.len() * 9 / 10;
        while b[end - 1] != b'\n' {
            end -= 1;
        }
        b[..end].to_vec()
    };
    let dir = wordnet_with("index.noun", Some(&cut));
    let err = open_err(dir.path());
    assert!(
        err.contains("data.noun:") && err.contains("index.noun does not list under it"),
        "{err}"
    );
}

#[test]
#[ignore = "needs WordNet: apt-get install wordnet-base"]
fn a_missing_index_or_exception_file_is_refused() {
    for f in ["index.adj", "verb.exc", "data.noun"] {
        let dir = wordnet_with(f, None);
        let err = WordNet::open(dir.path()).unwrap_err();
        assert!(matches!(err, MetricError::WordNetMissing { .. }), "{err}");
        assert!(err.to_string().contains(f), "{err}");
    }
}

#[test]
#[ignore = "needs WordNet: apt-get install wordnet-base"]
fn malformed_lines_are_refused_with_file_and_line() {
    fn replace(b: Vec<u8>, from: &str, to: &str) -> Vec<u8> {
        let s = String::from_utf8(b).unwrap();
        assert!(s.contains(from), "{from}");
        s.replacen(from, to, 1).into_bytes()
    }
    // A synset's offset field that does not match where the line is.
    let dir = wordnet_with(
        "data.adv",
        Some(&|b| replace(b, "\n00001740 02 r", "\n00001741 02 r")),
    );
    let err = open_err(dir.path());
    assert!(
        err.contains("data.adv:") && err.contains("says it is synset"),
        "{err}"
    );
    // A pointer to an offset that is not a synset (same length, so no other offset moves).
    let dir = wordnet_with(
        "data.noun",
        Some(&|b| replace(b, "@ 00001740 n 0000", "@ 00001741 n 0000")),
    );
    let err = open_err(dir.path());
    assert!(
        err.contains("data.noun:") && err.contains("a pointer to 00001741"),
        "{err}"
    );
    // An index line whose offsets do not match its count.
    let dir = wordnet_with(
        "index.adv",
        Some(&|b| {
            let s = String::from_utf8(b).unwrap();
            let line = s.lines().find(|l| !l.starts_with(' ')).unwrap().to_string();
            s.replacen(&line, &format!("{line} 00001740"), 1)
                .into_bytes()
        }),
    );
    let err = open_err(dir.path());
    assert!(
        err.contains("index.adv:") && err.contains("synset offsets"),
        "{err}"
    );
    // An exception line without a base form.
    let dir = wordnet_with("noun.exc", Some(&|b| [b"oxen\n".as_slice(), &b].concat()));
    let err = open_err(dir.path());
    assert!(err.contains("noun.exc:1: expected"), "{err}");
}

#[test]
#[ignore = "needs WordNet: apt-get install wordnet-base"]
fn a_lexnames_file_is_optional_but_checked() {
    let dir = wordnet_with("none", None);
    let names: String = (0..45).map(|i| format!("{i:02}\tnoun.x{i}\t1\n")).collect();
    std::fs::write(dir.path().join("lexnames"), &names).unwrap();
    WordNet::open(dir.path()).unwrap();
    // Fewer lexicographer files than the data uses.
    let short: String = names.lines().take(3).map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.path().join("lexnames"), short).unwrap();
    let err = open_err(dir.path());
    assert!(err.contains("lexicographer file"), "{err}");
    std::fs::write(dir.path().join("lexnames"), "00 noun.Tops\n02 adj.all 3\n").unwrap();
    let err = open_err(dir.path());
    assert!(err.contains("lexnames:1: expected"), "{err}");
}

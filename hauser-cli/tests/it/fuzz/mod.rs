//! Replays the fuzz corpora committed under `fuzz/` through the fuzz targets' bodies, so that
//! every `cargo test` (and CI) checks each hand-written seed and each input that once made a
//! target fail, without building the instrumented fuzzer. `HAUSER_FUZZ_CORPUS=DIR` replays a
//! larger corpus too (one folder per target, as `tools/fuzz.sh` writes them).

// The bodies live in the fuzz crate (outside the workspace, so `cargo test` never builds
// libFuzzer); this test compiles the same files against the workspace's crates.
#[path = "../../../../fuzz/src/targets.rs"]
pub mod targets;

use std::path::{Path, PathBuf};

/// `fuzz/` of the repository; absent from a packaged crate, where the replay is skipped.
fn fuzz_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    dir.is_dir().then_some(dir)
}

/// Runs every file of `root/<target>/` through its target; returns how many ran.
fn replay(root: &Path) -> usize {
    let mut ran = 0;
    for (name, target) in targets::TARGETS {
        let Ok(entries) = std::fs::read_dir(root.join(name)) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries.filter_map(|e| Some(e.ok()?.path())).collect();
        files.sort();
        for file in files.iter().filter(|f| f.is_file()) {
            let data = std::fs::read(file).unwrap();
            let outcome = std::panic::catch_unwind(|| target(&data));
            assert!(outcome.is_ok(), "{name} fails on {}", file.display());
            ran += 1;
        }
    }
    ran
}

#[test]
fn committed_seeds_pass_every_target() {
    let Some(dir) = fuzz_dir() else {
        eprintln!("fuzz/ is not here (packaged crate): no seeds to replay");
        return;
    };
    let ran = replay(&dir.join("seeds"));
    assert!(ran >= targets::TARGETS.len(), "only {ran} seeds replayed");
}

#[test]
fn crash_reproducers_stay_fixed() {
    let Some(dir) = fuzz_dir() else {
        eprintln!("fuzz/ is not here (packaged crate): no reproducers to replay");
        return;
    };
    replay(&dir.join("regressions"));
}

#[test]
fn extra_corpus_from_the_environment() {
    let Some(dir) = std::env::var_os("HAUSER_FUZZ_CORPUS") else {
        return;
    };
    let ran = replay(Path::new(&dir));
    eprintln!("replayed {ran} inputs from {}", Path::new(&dir).display());
}

#[test]
fn every_target_survives_empty_and_tiny_inputs() {
    for (name, target) in targets::TARGETS {
        for data in [
            &b""[..],
            b"\0",
            b"\xff",
            b"\n",
            b"\x01\n\r\n",
            b"\xef\xbb\xbf",
        ] {
            let outcome = std::panic::catch_unwind(|| target(data));
            assert!(outcome.is_ok(), "{name} fails on {data:?}");
        }
    }
}

/// Two `hauser sacrebleu` options that aborted the process once files were read (found
/// while building the `sacrebleu_args` target, issue 37): a chrF word order of 10^14 asked
/// for 10^14 bytes of `+` for the name `chrF2++...`, and a width of 10^15 for as many zeros.
/// Now the library's limit on orders refuses the first (exit 2) and Python's "precision too
/// big" the second (exit 1), as sacreBLEU's interpreter does above INT_MAX.
#[test]
fn sacrebleu_huge_orders_and_widths_are_refused_not_aborted() {
    let dir = std::env::temp_dir().join(format!("hauser-fuzz-sacre-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (r, h) = (dir.join("ref.txt"), dir.join("hyp.txt"));
    std::fs::write(&r, "a b c\n").unwrap();
    std::fs::write(&h, "a b c\n").unwrap();
    let (r, h) = (r.display().to_string(), h.display().to_string());
    for (extra, code, message) in [
        (
            &["-m", "chrf", "-cw", "99999999999999"][..],
            2,
            "word order",
        ),
        (
            &["-w", "1000000000000000"][..],
            1,
            "ValueError: precision too big",
        ),
        (
            &["-w", "2147483648"][..],
            1,
            "ValueError: precision too big",
        ),
    ] {
        let mut words = vec![r.clone(), "-i".into(), h.clone()];
        words.extend(extra.iter().map(|s| s.to_string()));
        let mut out = Vec::new();
        let e = hauser_cli::drop_in::sacrebleu::cli::run(&words, &mut out).unwrap_err();
        assert_eq!(e.code, code, "{words:?}: {}", e.message);
        assert!(e.message.contains(message), "{words:?}: {}", e.message);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

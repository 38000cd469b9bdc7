//! Hidden states of every layer against transformers' `output_hidden_states=True`
//! (tools/gen/gen_tiny_models.py), 1e-4 absolute, for every encoder architecture: single inputs,
//! pairs, and padded mixed-length batches (only real tokens are compared: the reference stores
//! each padded row cut to its attention mask). Layer 0 is the embedding output.
#![allow(clippy::unwrap_used)]
// Layer numbers are the API's argument and index the reference at once.
#![allow(clippy::needless_range_loop)]

use std::collections::BTreeMap;

use crate::common::*;
use hauser_nli::{Embedder, NliError};

/// Largest difference seen per (architecture, layer), printed at the end of a test so the
/// observed margins can be read with `--nocapture`.
#[derive(Default)]
struct Margins(BTreeMap<(String, usize), f64>);

impl Margins {
    fn check(
        &mut self,
        arch: &str,
        layer: usize,
        what: &str,
        ours: &[Vec<f32>],
        theirs: &[Vec<f64>],
    ) {
        assert_eq!(
            ours.len(),
            theirs.len(),
            "{arch} layer {layer} {what}: tokens"
        );
        for (t, (o, th)) in ours.iter().zip(theirs).enumerate() {
            assert_close(&format!("{arch} layer {layer} {what} token {t}"), o, th);
            let d = max_diff(o, th);
            let m = self.0.entry((arch.to_string(), layer)).or_insert(0.0);
            *m = m.max(d);
        }
    }

    fn print(&self, what: &str) {
        for ((arch, layer), d) in &self.0 {
            eprintln!("MAXDIFF {what} {arch} layer {layer}: {d:.2e}");
        }
    }
}

/// `[layer][token][hidden]` of one reference entry.
fn layers(v: &serde_json::Value) -> Vec<Vec<Vec<f64>>> {
    v.as_array().unwrap().iter().map(matrix).collect()
}

fn input<'a>(
    first: &'a serde_json::Value,
    second: &'a serde_json::Value,
) -> (&'a str, Option<&'a str>) {
    (first.as_str().unwrap(), second.as_str())
}

#[test]
fn every_layer_of_single_inputs_and_pairs_matches() {
    let mut margins = Margins::default();
    for arch in ENCODERS {
        let r = reference(arch);
        let e = Embedder::load(&source(arch), &opts(4)).unwrap();
        let cfg: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(fixture(arch).join("config.json")).unwrap(),
        )
        .unwrap();
        let n_layers = cfg
            .get("num_hidden_layers")
            .or_else(|| cfg.get("n_layers"))
            .and_then(|n| n.as_u64())
            .unwrap() as usize;
        let singles = r["singles"].as_array().unwrap();
        let pairs = r["pairs"].as_array().unwrap();
        let n_ref = singles[0]["hidden_states"].as_array().unwrap().len();
        assert_eq!(n_ref, n_layers + 1, "{arch}: reference layers");
        assert_eq!(e.layers(), n_ref, "{arch}: exposed layers");
        let mut inputs: Vec<(&str, Option<&str>)> = singles
            .iter()
            .map(|s| input(&s["text"], &serde_json::Value::Null))
            .collect();
        inputs.extend(pairs.iter().map(|s| input(&s["first"], &s["second"])));
        let refs: Vec<Vec<Vec<Vec<f64>>>> = singles
            .iter()
            .chain(pairs)
            .map(|s| layers(&s["hidden_states"]))
            .collect();
        for layer in 0..n_ref {
            // One input per call: no padding at all, as in the reference.
            for (i, inp) in inputs.iter().enumerate() {
                let st = e.token_states(&[*inp], Some(layer as isize)).unwrap();
                let what = if inp.1.is_some() { "pair" } else { "single" };
                margins.check(
                    arch,
                    layer,
                    &format!("{what} {i}"),
                    &st.states[0],
                    &refs[i][layer],
                );
            }
            // Negative indices count from the end, as Python's hidden_states[-k].
            let neg = layer as isize - n_ref as isize;
            let a = e.token_states(&inputs, Some(layer as isize)).unwrap();
            let b = e.token_states(&inputs, Some(neg)).unwrap();
            assert_eq!(a, b, "{arch}: layer {layer} vs {neg}");
        }
        let last = e.token_states(&inputs, None).unwrap();
        let explicit = e.token_states(&inputs, Some(n_layers as isize)).unwrap();
        assert_eq!(last, explicit, "{arch}: default layer is the last");
    }
    margins.print("unpadded");
}

#[test]
fn every_layer_of_padded_mixed_batches_matches() {
    let mut margins = Margins::default();
    for arch in ENCODERS {
        let r = reference(arch);
        let b = &r["batch"];
        let inputs: Vec<(&str, Option<&str>)> = b["firsts"]
            .as_array()
            .unwrap()
            .iter()
            .zip(b["seconds"].as_array().unwrap())
            .map(|(f, s)| input(f, s))
            .collect();
        let refs: Vec<Vec<Vec<Vec<f64>>>> = b["hidden_states"]
            .as_array()
            .unwrap()
            .iter()
            .map(layers)
            .collect();
        assert_eq!(refs.len(), inputs.len());
        let n_ref = refs[0].len();
        for (batch_size, bucketed) in [(8, true), (2, true), (3, false)] {
            let mut o = opts(batch_size);
            o.batching.bucketed = bucketed;
            let e = Embedder::load(&source(arch), &o).unwrap();
            for layer in 0..n_ref {
                let st = e.token_states(&inputs, Some(layer as isize)).unwrap();
                for (i, ours) in st.states.iter().enumerate() {
                    let what = format!("batch[{i}] bs={batch_size}");
                    margins.check(arch, layer, &what, ours, &refs[i][layer]);
                }
                // Mean pooling of the same layer over real tokens only (single sentences: the
                // embedder pools sentences, not pairs).
                let texts: Vec<&str> = inputs
                    .iter()
                    .filter(|x| x.1.is_none())
                    .map(|x| x.0)
                    .collect();
                let pooled = e.embed(&texts, Some(layer as isize), false).unwrap();
                for (i, v) in pooled.vectors.iter().enumerate() {
                    let rows = &refs[i][layer];
                    let mean: Vec<f64> = (0..v.len())
                        .map(|j| rows.iter().map(|r| r[j]).sum::<f64>() / rows.len() as f64)
                        .collect();
                    assert_close(&format!("{arch} layer {layer} mean[{i}]"), v, &mean);
                }
            }
        }
    }
    margins.print("padded");
}

#[test]
fn out_of_range_layers_are_clear_errors_for_every_architecture() {
    for arch in ENCODERS {
        let e = Embedder::load(&source(arch), &opts(2)).unwrap();
        let n = e.layers() as isize;
        for bad in [n, n + 5, -n - 1] {
            let err = e.token_states(&[("a b", None)], Some(bad)).unwrap_err();
            assert!(
                matches!(&err, NliError::Invalid { message, .. }
                    if message == &format!("layer {bad} out of range: this model exposes {n} hidden states")),
                "{arch}: {err}"
            );
            assert!(
                err.to_string().contains(arch),
                "{arch}: model named in {err}"
            );
            assert!(e.embed(&["a b"], Some(bad), false).is_err());
        }
        assert!(
            e.token_states(&[("a b", None)], Some(-n)).is_ok(),
            "{arch}: -n is layer 0"
        );
    }
}

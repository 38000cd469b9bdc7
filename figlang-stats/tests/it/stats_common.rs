//! Shared helpers of the statistics golden tests: fixture loading and tolerance checks.
#![allow(dead_code)]

use serde_json::Value;

pub const STAT_ABS: f64 = 1e-12;
pub const P_REL: f64 = 1e-9;

pub fn load(name: &str) -> Value {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

pub fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|x| x.as_f64().unwrap_or(f64::NAN))
        .collect()
}

pub fn expected(v: &Value) -> f64 {
    v.as_f64().unwrap_or(f64::NAN)
}

pub fn assert_stat(what: &str, got: f64, want: f64) {
    if want.is_nan() {
        assert!(got.is_nan(), "{what}: expected NaN, got {got}");
    } else {
        assert!(
            (got - want).abs() <= STAT_ABS,
            "{what}: got {got}, want {want} (diff {:e})",
            (got - want).abs()
        );
    }
}

pub fn assert_p(what: &str, got: f64, want: f64) {
    if want.is_nan() {
        assert!(got.is_nan(), "{what}: expected NaN, got {got}");
    } else if want == 0.0 {
        assert_eq!(got, 0.0, "{what}");
    } else {
        let rel = ((got - want) / want).abs();
        assert!(
            rel <= P_REL,
            "{what}: got {got:e}, want {want:e} (rel {rel:e})"
        );
    }
}

//! Metaphoricity of a candidate verb (NewsMet): `min(cos(subject, c), cos(object, c))` with
//! word vectors (the paper: gensim's cosine on GloVe-300d), lower = more metaphorical. Subject,
//! object and candidate are single tokens, lower-cased before lookup as the paper's
//! `findSVOs` heads are. The paper leaves out-of-vocabulary words open; here: a side (subject
//! or object) without a vector drops out of the minimum, and the score is `None` when the
//! candidate has no vector or neither side has one. Each similarity is reported too.

use figlang_metrics::wmd::WordVectors;
use serde::Serialize;

/// gensim's `KeyedVectors.similarity(a, b)`: the dot product of the two unit vectors;
/// `None` when a word has no vector.
pub fn similarity(v: &WordVectors, a: &str, b: &str) -> Option<f64> {
    let x = v.get_normalized(a)?;
    let y = v.get_normalized(b)?;
    Some(
        x.iter()
            .zip(&y)
            .map(|(p, q)| f64::from(*p) * f64::from(*q))
            .sum(),
    )
}

/// The metaphoricity of one candidate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Metaphoricity {
    /// `min` of the available similarities; `None` as the module says.
    pub score: Option<f64>,
    /// cos(subject, candidate).
    pub subject_sim: Option<f64>,
    /// cos(object, candidate).
    pub object_sim: Option<f64>,
}

/// Scores `candidate` against the headline's subject and object (either may be absent).
pub fn metaphoricity(
    v: &WordVectors,
    subject: Option<&str>,
    object: Option<&str>,
    candidate: &str,
) -> Metaphoricity {
    let c = candidate.to_lowercase();
    let side = |w: Option<&str>| w.and_then(|w| similarity(v, &w.to_lowercase(), &c));
    let (s, o) = (side(subject), side(object));
    let score = match (s, o) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    Metaphoricity {
        score,
        subject_sim: s,
        object_sim: o,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oov_sides_drop_out_and_words_are_lower_cased() {
        let v = WordVectors::from_pairs(
            2,
            [
                ("kick", &[1.0f32, 0.0][..]),
                ("ball", &[1.0, 1.0][..]),
                ("man", &[0.0, 2.0][..]),
            ],
        );
        let m = metaphoricity(&v, Some("Man"), Some("ball"), "KICK");
        assert!((m.subject_sim.unwrap() - 0.0).abs() < 1e-12);
        assert!((m.object_sim.unwrap() - 0.5f64.sqrt()).abs() < 1e-7);
        assert_eq!(m.score, m.subject_sim);
        let m = metaphoricity(&v, Some("zzz"), Some("ball"), "kick");
        assert_eq!(m.score, m.object_sim);
        assert_eq!(metaphoricity(&v, Some("man"), None, "zzz").score, None);
        assert_eq!(metaphoricity(&v, None, None, "kick").score, None);
    }
}

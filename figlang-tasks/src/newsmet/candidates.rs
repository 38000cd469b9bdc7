//! NewsMet candidate generation (paper §3; the authors' `github_candidates.ipynb`): mask the
//! focus verb, take a masked LM's top-k fillers (albert-xxlarge-v2, k = 200), drop
//! non-alphabetic fillers, non-verbs and repeated lemmas, and let a metaphor detector split the
//! rest into metaphorical and literal candidates, keeping the first few of each.

use figlang_metrics::text::wordnet::WordNet;
use hauser_nli::{MaskedLm, SequenceClassifier};
use serde::Serialize;

use super::focus::{focus_word, FocusVerb};
use crate::error::{TaskError, TaskResult};

/// Fillers taken from the masked LM (the paper's 200).
pub const TOP_K: usize = 200;
/// Candidates kept per side (the paper's 6 metaphorical and 6 literal).
pub const KEEP: usize = 6;

/// What is replaced by the mask token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Masking {
    /// The focus verb's letters in its own token (punctuation around it stays).
    #[default]
    Token,
    /// The authors' cell 10: every case-insensitive occurrence of the verb's alphanumerics
    /// anywhere in the headline, inside other words too ("is" in "this"), each a mask.
    Substring,
}

/// The headline with the focus verb masked, and how many masks it holds; `None` when the
/// verb is not found where it should be.
pub fn mask_headline(
    headline: &str,
    focus: &FocusVerb,
    masking: Masking,
    mask: &str,
) -> Option<(String, usize)> {
    match masking {
        Masking::Token => {
            let mut out = Vec::new();
            for (i, t) in headline.split_whitespace().enumerate() {
                if i == focus.token {
                    let at = t
                        .find(focus.word.as_str())
                        .filter(|_| !focus.word.is_empty())?;
                    out.push(format!("{}{mask}{}", &t[..at], &t[at + focus.word.len()..]));
                } else {
                    out.push(t.to_string());
                }
            }
            (focus.token < out.len()).then(|| (out.join(" "), 1))
        }
        Masking::Substring => {
            // `re.sub('[^A-Za-z0-9]+', '', verb)`, then `re.compile(re.escape(verb), re.I).sub`.
            let verb: String = focus
                .word
                .chars()
                .filter(char::is_ascii_alphanumeric)
                .collect();
            if verb.is_empty() {
                return None;
            }
            let (text, n) = replace_ignore_ascii_case(headline, &verb, mask);
            (n > 0).then_some((text, n))
        }
    }
}

/// Every non-overlapping, left-to-right occurrence of `needle` (ASCII) in `hay`, compared
/// ASCII-case-insensitively, replaced by `with`; and how many there were.
fn replace_ignore_ascii_case(hay: &str, needle: &str, with: &str) -> (String, usize) {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    let mut out = String::with_capacity(hay.len());
    let (mut i, mut last, mut count) = (0, 0, 0);
    while i + n.len() <= h.len() {
        if h[i..i + n.len()].eq_ignore_ascii_case(n) {
            // An ASCII needle matches only at character boundaries.
            out.push_str(&hay[last..i]);
            out.push_str(with);
            i += n.len();
            last = i;
            count += 1;
        } else {
            i += 1;
        }
    }
    out.push_str(&hay[last..]);
    (out, count)
}

/// Why fillers were dropped, in the order the filters run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Dropped {
    /// Not all letters (Python's `str.isalpha()`): subword pieces with digits, punctuation,
    /// special tokens, and the joined fillers of several masks (they hold a space).
    pub non_alphabetic: usize,
    /// No verb synset in WordNet.
    pub not_verb: usize,
    /// The verb lemma (WordNet's morphy, lower-cased) of an earlier filler.
    pub duplicate_lemma: usize,
}

/// The paper's filters over fillers in rank order: alphabetic, verbs (a WordNet verb synset,
/// morphy included), first of each verb lemma. Returns the indices of the kept fillers.
pub fn filter_fillers(wn: &WordNet, fillers: &[&str]) -> (Vec<usize>, Dropped) {
    let mut dropped = Dropped::default();
    let mut lemmas = std::collections::HashSet::new();
    let mut kept = Vec::new();
    for (i, f) in fillers.iter().enumerate() {
        if f.is_empty() || !f.chars().all(char::is_alphabetic) {
            dropped.non_alphabetic += 1;
            continue;
        }
        let lower = f.to_lowercase();
        if wn.synsets(&lower, Some('v')).is_empty() {
            dropped.not_verb += 1;
            continue;
        }
        let lemma = wn.morphy(&lower, 'v').unwrap_or(lower);
        if !lemmas.insert(lemma) {
            dropped.duplicate_lemma += 1;
            continue;
        }
        kept.push(i);
    }
    (kept, dropped)
}

/// Settings of [`generate`].
#[derive(Debug, Clone, Copy)]
pub struct CandidateConfig {
    /// Fillers taken from the masked LM.
    pub top_k: usize,
    /// Candidates kept per side.
    pub keep: usize,
    /// What is masked.
    pub masking: Masking,
    /// The detector's class index meaning "metaphorical" (the authors' `['literal',
    /// 'metaphorical']`: 1).
    pub metaphorical_class: usize,
}

impl Default for CandidateConfig {
    fn default() -> Self {
        Self {
            top_k: TOP_K,
            keep: KEEP,
            masking: Masking::Token,
            metaphorical_class: 1,
        }
    }
}

/// One filler that passed the filters.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Candidate {
    /// The filler (several masks' fillers joined, as `tokenizer.decode` joins them).
    pub candidate: String,
    /// Its rank among the masked LM's fillers (0 = most probable).
    pub rank: usize,
    /// Its masked-LM probability (the product over the masks when there are several).
    pub prob: f32,
    /// The detector's probability of the metaphorical class, when a detector ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p_metaphorical: Option<f32>,
}

/// The candidates of one headline.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CandidateSet {
    /// The focus verb.
    pub focus: FocusVerb,
    /// The headline with the mask token(s).
    pub masked: String,
    /// Number of masks.
    pub masks: usize,
    /// The fillers that passed the filters, in rank order.
    pub kept: Vec<Candidate>,
    /// Why the others were dropped.
    pub dropped: Dropped,
    /// The first `keep` kept fillers the detector calls metaphorical (empty without one).
    pub metaphorical: Vec<String>,
    /// The first `keep` kept fillers the detector calls literal (empty without one).
    pub literal: Vec<String>,
}

/// A headline and its focus verb.
#[derive(Debug, Clone)]
pub struct CandidateInput<'a> {
    /// The headline.
    pub headline: &'a str,
    /// Its focus verb (given, or from [`super::find_focus_verb`]).
    pub focus: FocusVerb,
}

/// Candidates for every headline, one result each (an error names what failed for that
/// headline): masked-LM fillers of all headlines in one batched call, the filters, then the
/// detector (when given) on every kept filler of every headline in one batched call, its
/// argmax deciding the side.
///
/// # Errors
/// A model failure that is not tied to one headline.
pub fn generate(
    inputs: &[CandidateInput<'_>],
    mlm: &MaskedLm,
    detector: Option<&SequenceClassifier>,
    wn: &WordNet,
    cfg: &CandidateConfig,
) -> TaskResult<Vec<Result<CandidateSet, String>>> {
    let mut out: Vec<Result<CandidateSet, String>> = Vec::with_capacity(inputs.len());
    let mut masked = Vec::new();
    for inp in inputs {
        match mask_headline(inp.headline, &inp.focus, cfg.masking, mlm.mask_token()) {
            Some((text, masks)) => {
                masked.push(out.len());
                out.push(Ok(CandidateSet {
                    focus: inp.focus.clone(),
                    masked: text,
                    masks,
                    kept: Vec::new(),
                    dropped: Dropped::default(),
                    metaphorical: Vec::new(),
                    literal: Vec::new(),
                }));
            }
            None => out.push(Err(format!(
                "focus verb {:?} (token {}) not found in the headline",
                inp.focus.word, inp.focus.token
            ))),
        }
    }
    let texts: Vec<&str> = masked
        .iter()
        .filter_map(|&i| out[i].as_ref().ok().map(|s| s.masked.as_str()))
        .collect();
    let fillers = match mlm.top_k(&texts, cfg.top_k) {
        Ok(f) => f.into_iter().map(Ok).collect::<Vec<_>>(),
        // One headline's failure (a mask cut off by truncation) is that headline's error.
        Err(_) => texts
            .iter()
            .map(|t| {
                mlm.top_k(&[t], cfg.top_k)
                    .map(|mut f| f.remove(0))
                    .map_err(|e| e.to_string())
            })
            .collect(),
    };
    let text = mlm.model().text_encoder();
    for (&i, per_mask) in masked.iter().zip(fillers) {
        let per_mask = match per_mask {
            Ok(p) => p,
            Err(e) => {
                out[i] = Err(e);
                continue;
            }
        };
        let ranks = per_mask.iter().map(Vec::len).min().unwrap_or(0);
        let mut joined = Vec::with_capacity(ranks);
        for r in 0..ranks {
            let ids: Vec<u32> = per_mask.iter().map(|m| m[r].id).collect();
            let prob = per_mask.iter().map(|m| m[r].prob).product::<f32>();
            let candidate = if ids.len() == 1 {
                per_mask[0][r].token.clone()
            } else {
                text.decode(&ids, false)?
            };
            joined.push((candidate, prob));
        }
        let names: Vec<&str> = joined.iter().map(|(c, _)| c.as_str()).collect();
        let (kept, dropped) = filter_fillers(wn, &names);
        if let Ok(set) = &mut out[i] {
            set.dropped = dropped;
            set.kept = kept
                .into_iter()
                .map(|r| Candidate {
                    candidate: joined[r].0.clone(),
                    rank: r,
                    prob: joined[r].1,
                    p_metaphorical: None,
                })
                .collect();
        }
    }
    if let Some(det) = detector {
        split(&mut out, det, mlm.mask_token(), cfg)?;
    }
    Ok(out)
}

/// Runs the detector on every kept filler in its headline and fills the two sides.
fn split(
    out: &mut [Result<CandidateSet, String>],
    det: &SequenceClassifier,
    mask: &str,
    cfg: &CandidateConfig,
) -> TaskResult<()> {
    let classes = det.labels().len();
    if cfg.metaphorical_class >= classes {
        return Err(TaskError::Input(format!(
            "the metaphorical class {} is not one of the detector's {classes} classes",
            cfg.metaphorical_class
        )));
    }
    // The authors put the filler where the mask was (`tweet_text2.replace('<mask>', word)`).
    let texts: Vec<String> = out
        .iter()
        .flat_map(|s| s.iter())
        .flat_map(|s| s.kept.iter().map(|c| s.masked.replace(mask, &c.candidate)))
        .collect();
    let inputs: Vec<(&str, Option<&str>)> = texts.iter().map(|t| (t.as_str(), None)).collect();
    let pred = det.predict(&inputs)?;
    let mut probs = pred.probs.into_iter();
    for set in out.iter_mut().flatten() {
        for c in &mut set.kept {
            let p = probs.next().unwrap_or_default();
            let best = (0..p.len())
                .max_by(|&a, &b| p[a].total_cmp(&p[b]).then(b.cmp(&a)))
                .unwrap_or(0);
            c.p_metaphorical = p.get(cfg.metaphorical_class).copied();
            let side = if best == cfg.metaphorical_class {
                &mut set.metaphorical
            } else {
                &mut set.literal
            };
            if side.len() < cfg.keep {
                side.push(c.candidate.clone());
            }
        }
    }
    Ok(())
}

/// A focus verb named by the input: a whitespace-token index, or a word matched against the
/// tokens' words ([`focus_word`], case-insensitively, first match).
pub fn given_focus(headline: &str, focus: &serde_json::Value) -> Result<FocusVerb, String> {
    let tokens: Vec<&str> = headline.split_whitespace().collect();
    match focus {
        serde_json::Value::Number(n) => {
            let i = n
                .as_u64()
                .and_then(|i| usize::try_from(i).ok())
                .filter(|&i| i < tokens.len())
                .ok_or_else(|| {
                    format!(
                        "focus {n} is not a token index (the headline has {} tokens)",
                        tokens.len()
                    )
                })?;
            Ok(FocusVerb {
                token: i,
                word: focus_word(tokens[i]),
            })
        }
        serde_json::Value::String(w) => {
            let want = focus_word(w).to_lowercase();
            tokens
                .iter()
                .position(|t| focus_word(t).to_lowercase() == want && !want.is_empty())
                .map(|i| FocusVerb {
                    token: i,
                    word: focus_word(tokens[i]),
                })
                .ok_or_else(|| format!("focus {w:?} is not a word of the headline"))
        }
        other => Err(format!("focus {other}: give a token index or a word")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn focus(token: usize, word: &str) -> FocusVerb {
        FocusVerb {
            token,
            word: word.into(),
        }
    }

    #[test]
    fn token_masking_keeps_punctuation_and_other_occurrences() {
        let h = "Senate Says, \u{2018}Says\u{2019} is said";
        let (m, n) = mask_headline(h, &focus(1, "Says"), Masking::Token, "[MASK]").unwrap();
        assert_eq!(
            (m.as_str(), n),
            ("Senate [MASK], \u{2018}Says\u{2019} is said", 1)
        );
        assert_eq!(
            mask_headline(h, &focus(9, "Says"), Masking::Token, "[MASK]"),
            None
        );
        assert_eq!(
            mask_headline(h, &focus(0, "Says"), Masking::Token, "[MASK]"),
            None
        );
    }

    #[test]
    fn substring_masking_is_the_authors_case_insensitive_replace_all() {
        let (m, n) = mask_headline(
            "This city IS what it is",
            &focus(2, "IS"),
            Masking::Substring,
            "<mask>",
        )
        .unwrap();
        assert_eq!((m.as_str(), n), ("Th<mask> city <mask> what it <mask>", 3));
        // Non-ASCII text around the matches stays intact.
        let (m, _) = mask_headline(
            "\u{2018}Ran\u{2019} ran",
            &focus(1, "ran"),
            Masking::Substring,
            "M",
        )
        .unwrap();
        assert_eq!(m, "\u{2018}M\u{2019} M");
    }

    #[test]
    fn given_focus_takes_an_index_or_a_word() {
        let h = "Stocks Soar, as rates fall";
        assert_eq!(
            given_focus(h, &serde_json::json!(1)).unwrap(),
            focus(1, "Soar")
        );
        assert_eq!(
            given_focus(h, &serde_json::json!("soar")).unwrap(),
            focus(1, "Soar")
        );
        assert!(given_focus(h, &serde_json::json!(5)).is_err());
        assert!(given_focus(h, &serde_json::json!("rise")).is_err());
        assert!(given_focus(h, &serde_json::json!(null)).is_err());
    }

    #[test]
    fn a_focus_token_with_an_apostrophe_or_a_hyphen_is_masked_whole() {
        // Its letters alone ("Trumps") are not in the token: that was an error record.
        let h = "\u{2018}Trump's\u{2019} aides de-registered voters";
        let f = given_focus(h, &serde_json::json!(0)).unwrap();
        assert_eq!(f, focus(0, "Trump's"));
        let (m, n) = mask_headline(h, &f, Masking::Token, "[MASK]").unwrap();
        assert_eq!(
            (m.as_str(), n),
            ("\u{2018}[MASK]\u{2019} aides de-registered voters", 1)
        );
        let f = given_focus(h, &serde_json::json!(2)).unwrap();
        assert_eq!(f.word, "de-registered");
        let (m, _) = mask_headline(h, &f, Masking::Token, "[MASK]").unwrap();
        assert_eq!(m, "\u{2018}Trump's\u{2019} aides [MASK] voters");
        assert_eq!(
            given_focus(h, &serde_json::json!("trump's")).unwrap().token,
            0
        );
        assert_eq!(focus_word("2020"), "");
        assert_eq!(focus_word("\u{2018}Says,\u{2019}"), "Says");
    }
}

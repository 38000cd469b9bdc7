//! The focus verb of a headline when the input does not give it.
//!
//! The authors took spaCy's dependency root (`row['ROOT']` in `github_candidates.ipynb`, cell
//! 10). This crate has no parser, so [`find_focus_verb`] ranks the headline's words that
//! WordNet knows as verbs by cues a parser would also use (docs/TASKS.md gives the rule and its
//! agreement with the released families: 508 of 711, 71.4%).

use figlang_metrics::text::wordnet::WordNet;
use serde::Serialize;

/// Auxiliaries and function words, never the focus (`be`, `have`, `do`, modals; reporting
/// verbs such as `says` stay candidates: the released families often replace them).
const NOT_FOCUS: &[&str] = &[
    "is", "are", "was", "were", "be", "been", "being", "am", "has", "have", "had", "do", "does",
    "did", "will", "would", "shall", "should", "can", "could", "may", "might", "must", "a", "an",
    "the", "to", "of", "in", "on", "for", "at", "by", "with", "from", "as", "and", "or", "but",
    "if", "not", "no", "it", "its", "this", "that", "these", "those", "he", "she", "they", "we",
    "you", "i", "his", "her", "their", "our", "your", "my", "me", "him", "them", "us", "who",
    "what", "when", "where", "why", "how", "which", "than", "then", "so", "up", "out", "over",
    "into", "about", "after", "before", "new",
];

/// Words after which a base-form verb follows (modals and negated auxiliaries).
const BEFORE_VERB: &[&str] = &[
    "can",
    "could",
    "will",
    "would",
    "must",
    "should",
    "may",
    "might",
    "did",
    "does",
    "do",
    "cannot",
    "cant",
    "can't",
    "won't",
    "wont",
    "doesn't",
    "doesnt",
    "didn't",
    "didnt",
    "don't",
    "dont",
    "hasn't",
    "hasnt",
    "haven't",
    "wouldn't",
    "couldn't",
    "shouldn't",
];

/// Words before which a noun, not a verb, follows.
const BEFORE_NOUN: &[&str] = &[
    "the", "a", "an", "this", "that", "these", "those", "his", "her", "their", "its", "our", "my",
    "your", "some", "many", "few", "several", "all",
];

/// A candidate's cues in [`find_focus_verb`]'s order (larger is better).
type Rank = (bool, bool, bool, bool, bool, std::cmp::Reverse<usize>);

/// A headline's focus verb: the whitespace token it is in and the word.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FocusVerb {
    /// Index of the whitespace token.
    pub token: usize,
    /// The token's word ([`focus_word`]: `Says,` gives `Says`, `Trump's` stays `Trump's`).
    pub word: String,
}

/// A token's word, what the rule looks up and the masking replaces: the token from its first
/// letter to its last, punctuation inside kept (`Says,` gives `Says`, `‘Win’` gives `Win`,
/// `Trump's` gives `Trump's`, `de-registered` stays whole), so that it is always a substring of
/// the token. Empty when the token has no letter.
pub fn focus_word(token: &str) -> String {
    let Some(start) = token.find(char::is_alphabetic) else {
        return String::new();
    };
    let end = token
        .char_indices()
        .rfind(|(_, c)| c.is_alphabetic())
        .map_or(start, |(i, c)| i + c.len_utf8());
    token[start..end].to_string()
}

/// The focus verb by the crate's rule, `None` when no word of the headline is a verb
/// candidate. Candidates are the whitespace tokens whose word ([`focus_word`]) is not an auxiliary or
/// function word and have a verb synset in WordNet (NLTK's `synsets(word, 'v')`, morphy
/// included). The best candidate is the first by, in order:
/// 1. not right after a determiner or a number ("the Rolls", "4 States");
/// 2. right after a modal or a negated auxiliary ("can Grow", "Won't Support");
/// 3. an `-s` or `-ed` form of a verb (morphy's verb base differs; `-ss` excluded) that is not
///    the headline's first token;
/// 4. any inflected verb form;
/// 5. at least as many verb senses as noun senses;
/// 6. the earliest.
pub fn find_focus_verb(wn: &WordNet, headline: &str) -> Option<FocusVerb> {
    let tokens: Vec<&str> = headline.split_whitespace().collect();
    // Previous-word cues keep apostrophes (`Can't`), with typographic ones folded.
    let cue = |i: usize| -> String {
        tokens[i]
            .replace('\u{2019}', "'")
            .chars()
            .filter(|c| c.is_alphabetic() || *c == '\'')
            .collect::<String>()
            .to_lowercase()
    };
    let mut best: Option<(Rank, usize)> = None;
    for (i, t) in tokens.iter().enumerate() {
        let word = focus_word(t);
        let lower = word.to_lowercase();
        if lower.is_empty() || NOT_FOCUS.contains(&lower.as_str()) {
            continue;
        }
        let verb_senses = wn.synsets(&lower, Some('v')).len();
        if verb_senses == 0 {
            continue;
        }
        let prev = if i > 0 { cue(i - 1) } else { String::new() };
        let after_number = i > 0 && tokens[i - 1].starts_with(|c: char| c.is_ascii_digit());
        let after_noun_cue = BEFORE_NOUN.contains(&prev.as_str()) || after_number;
        let inflected = wn.morphy(&lower, 'v').is_some_and(|b| b != lower);
        let s_or_ed = inflected
            && ((lower.ends_with('s') && !lower.ends_with("ss")) || lower.ends_with("ed"));
        let key = (
            !after_noun_cue,
            BEFORE_VERB.contains(&prev.as_str()),
            s_or_ed && i > 0,
            inflected,
            verb_senses >= wn.synsets(&lower, Some('n')).len(),
            std::cmp::Reverse(i),
        );
        if best.as_ref().is_none_or(|(k, _)| key > *k) {
            best = Some((key, i));
        }
    }
    best.map(|(_, i)| FocusVerb {
        token: i,
        word: focus_word(tokens[i]),
    })
}

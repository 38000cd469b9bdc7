//! NLTK's Porter stemmer in its default `NLTK_EXTENSIONS` mode (`nltk.stem.PorterStemmer()`),
//! used by NLTK's METEOR and by rouge-score's `use_stemmer=True`.

type Cond<'a> = Option<&'a dyn Fn(&[char]) -> bool>;

const VOWELS: [char; 5] = ['a', 'e', 'i', 'o', 'u'];

fn is_vowel(c: char) -> bool {
    VOWELS.contains(&c)
}

/// NLTK's `_is_consonant`: `y` is a consonant after a vowel (counted over runs of `y`).
fn is_consonant(w: &[char], mut i: usize) -> bool {
    if is_vowel(w[i]) {
        return false;
    }
    if w[i] == 'y' {
        let mut negate = false;
        while i > 0 && w[i] == 'y' {
            negate = !negate;
            i -= 1;
        }
        return is_vowel(w[i]) == negate;
    }
    true
}

fn consonant_flags(w: &[char]) -> Vec<bool> {
    let mut flags: Vec<bool> = Vec::with_capacity(w.len());
    for (i, &c) in w.iter().enumerate() {
        let f = if is_vowel(c) {
            false
        } else if c == 'y' {
            i == 0 || !flags[i - 1]
        } else {
            true
        };
        flags.push(f);
    }
    flags
}

fn measure(stem: &[char]) -> usize {
    let f = consonant_flags(stem);
    f.windows(2).filter(|p| !p[0] && p[1]).count()
}

fn positive_measure(stem: &[char]) -> bool {
    measure(stem) > 0
}

fn contains_vowel(stem: &[char]) -> bool {
    !consonant_flags(stem).iter().all(|&c| c)
}

fn ends_double_consonant(w: &[char]) -> bool {
    let n = w.len();
    n >= 2 && w[n - 1] == w[n - 2] && is_consonant(w, n - 1)
}

fn ends_cvc(w: &[char]) -> bool {
    let n = w.len();
    (n >= 3
        && is_consonant(w, n - 3)
        && !is_consonant(w, n - 2)
        && is_consonant(w, n - 1)
        && !matches!(w[n - 1], 'w' | 'x' | 'y'))
        || (n == 2 && !is_consonant(w, 0) && is_consonant(w, 1))
}

fn ends_with(w: &[char], suffix: &str) -> bool {
    // Compared from the end without collecting the suffix: the stemmer calls this for every
    // rule of every step, and METEOR stems every word of every sentence pair.
    let mut tail = w.iter().rev();
    suffix.chars().rev().all(|c| tail.next() == Some(&c))
}

fn strip(w: &[char], suffix: &str) -> Vec<char> {
    w[..w.len() - suffix.chars().count()].to_vec()
}

fn join(stem: &[char], rep: &str) -> Vec<char> {
    let mut v = stem.to_vec();
    v.extend(rep.chars());
    v
}

/// NLTK's `_apply_rule_list`: the first rule whose suffix matches decides.
fn apply_rules(w: &[char], rules: &[(&str, &str, Cond<'_>)]) -> Vec<char> {
    for (suffix, rep, cond) in rules {
        if *suffix == "*d" && ends_double_consonant(w) {
            let stem = &w[..w.len() - 2];
            return if cond.is_none_or(|c| c(stem)) {
                join(stem, rep)
            } else {
                w.to_vec()
            };
        }
        if ends_with(w, suffix) {
            let stem = strip(w, suffix);
            return if cond.is_none_or(|c| c(&stem)) {
                join(&stem, rep)
            } else {
                w.to_vec()
            };
        }
    }
    w.to_vec()
}

fn step1a(w: &[char]) -> Vec<char> {
    if ends_with(w, "ies") && w.len() == 4 {
        return join(&strip(w, "ies"), "ie");
    }
    apply_rules(
        w,
        &[
            ("sses", "ss", None),
            ("ies", "i", None),
            ("ss", "ss", None),
            ("s", "", None),
        ],
    )
}

fn step1b(w: &[char]) -> Vec<char> {
    if ends_with(w, "ied") {
        let rep = if w.len() == 4 { "ie" } else { "i" };
        return join(&strip(w, "ied"), rep);
    }
    if ends_with(w, "eed") {
        let stem = strip(w, "eed");
        return if measure(&stem) > 0 {
            join(&stem, "ee")
        } else {
            w.to_vec()
        };
    }
    let mut inter = None;
    for suffix in ["ed", "ing"] {
        if ends_with(w, suffix) {
            let s = strip(w, suffix);
            if contains_vowel(&s) {
                inter = Some(s);
                break;
            }
        }
    }
    let Some(inter) = inter else {
        return w.to_vec();
    };
    let last = inter[inter.len() - 1];
    let last_s = last.to_string();
    let not_lsz = move |_: &[char]| !matches!(last, 'l' | 's' | 'z');
    let m1_cvc = |s: &[char]| measure(s) == 1 && ends_cvc(s);
    apply_rules(
        &inter,
        &[
            ("at", "ate", None),
            ("bl", "ble", None),
            ("iz", "ize", None),
            ("*d", &last_s, Some(&not_lsz)),
            ("", "e", Some(&m1_cvc)),
        ],
    )
}

fn step1c(w: &[char]) -> Vec<char> {
    let cond = |s: &[char]| s.len() > 1 && is_consonant(s, s.len() - 1);
    apply_rules(w, &[("y", "i", Some(&cond))])
}

fn step2(w: &[char]) -> Vec<char> {
    if ends_with(w, "alli") && positive_measure(&strip(w, "alli")) {
        return step2(&join(&strip(w, "alli"), "al"));
    }
    let pm: &dyn Fn(&[char]) -> bool = &positive_measure;
    let word = w.to_vec();
    let logi = move |_: &[char]| positive_measure(&word[..word.len().saturating_sub(3)]);
    apply_rules(
        w,
        &[
            ("ational", "ate", Some(pm)),
            ("tional", "tion", Some(pm)),
            ("enci", "ence", Some(pm)),
            ("anci", "ance", Some(pm)),
            ("izer", "ize", Some(pm)),
            ("bli", "ble", Some(pm)),
            ("alli", "al", Some(pm)),
            ("entli", "ent", Some(pm)),
            ("eli", "e", Some(pm)),
            ("ousli", "ous", Some(pm)),
            ("ization", "ize", Some(pm)),
            ("ation", "ate", Some(pm)),
            ("ator", "ate", Some(pm)),
            ("alism", "al", Some(pm)),
            ("iveness", "ive", Some(pm)),
            ("fulness", "ful", Some(pm)),
            ("ousness", "ous", Some(pm)),
            ("aliti", "al", Some(pm)),
            ("iviti", "ive", Some(pm)),
            ("biliti", "ble", Some(pm)),
            ("fulli", "ful", Some(pm)),
            ("logi", "log", Some(&logi)),
        ],
    )
}

fn step3(w: &[char]) -> Vec<char> {
    let pm: &dyn Fn(&[char]) -> bool = &positive_measure;
    apply_rules(
        w,
        &[
            ("icate", "ic", Some(pm)),
            ("ative", "", Some(pm)),
            ("alize", "al", Some(pm)),
            ("iciti", "ic", Some(pm)),
            ("ical", "ic", Some(pm)),
            ("ful", "", Some(pm)),
            ("ness", "", Some(pm)),
        ],
    )
}

fn step4(w: &[char]) -> Vec<char> {
    let gt1: &dyn Fn(&[char]) -> bool = &|s: &[char]| measure(s) > 1;
    let ion = |s: &[char]| measure(s) > 1 && matches!(s.last(), Some('s' | 't'));
    let mut rules: Vec<(&str, &str, Cond<'_>)> = [
        "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent",
    ]
    .iter()
    .map(|s| (*s, "", Some(gt1)))
    .collect();
    rules.push(("ion", "", Some(&ion)));
    for s in ["ou", "ism", "ate", "iti", "ous", "ive", "ize"] {
        rules.push((s, "", Some(gt1)));
    }
    apply_rules(w, &rules)
}

fn step5a(w: &[char]) -> Vec<char> {
    if ends_with(w, "e") {
        let stem = strip(w, "e");
        let m = measure(&stem);
        if m > 1 || (m == 1 && !ends_cvc(&stem)) {
            return stem;
        }
    }
    w.to_vec()
}

fn step5b(w: &[char]) -> Vec<char> {
    let word = w.to_vec();
    let cond = move |_: &[char]| measure(&word[..word.len() - 1]) > 1;
    apply_rules(w, &[("ll", "l", Some(&cond))])
}

/// Stems `word` like `nltk.stem.PorterStemmer().stem(word)` (lowercases first).
///
/// ```
/// use figlang_metrics::text::porter::stem;
/// assert_eq!(stem("running"), "run");
/// assert_eq!(stem("Generously"), "gener");
/// assert_eq!(stem("dying"), "die");
/// ```
pub fn stem(word: &str) -> String {
    let lower = word.to_lowercase();
    let irregular = match lower.as_str() {
        "sky" | "skies" => Some("sky"),
        "dying" => Some("die"),
        "lying" => Some("lie"),
        "tying" => Some("tie"),
        "news" => Some("news"),
        "innings" | "inning" => Some("inning"),
        "outings" | "outing" => Some("outing"),
        "cannings" | "canning" => Some("canning"),
        "howe" => Some("howe"),
        "proceed" => Some("proceed"),
        "exceed" => Some("exceed"),
        "succeed" => Some("succeed"),
        _ => None,
    };
    if let Some(s) = irregular {
        return s.to_string();
    }
    if word.chars().count() <= 2 {
        return lower;
    }
    let mut w: Vec<char> = lower.chars().collect();
    for step in [step1a, step1b, step1c, step2, step3, step4, step5a, step5b] {
        w = step(&w);
    }
    w.into_iter().collect()
}

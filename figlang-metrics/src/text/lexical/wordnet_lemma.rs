//! The lemma names of WordNet's data files as NLTK reads them. The reader (`wordnet`), its
//! whole-database check (`wordnet_check`) and the similarities (`wordnet_sim`) all need this,
//! so it sits below the three.

/// NLTK: `(.*?)(\([^()]*\))?$` keeps the name without a trailing `(a)`, `(p)`, `(ip)` marker.
pub(super) fn strip_syntactic_marker(name: &str) -> &str {
    if let Some(open) = name.rfind('(') {
        let tail = &name[open + 1..];
        if let Some(inner) = tail.strip_suffix(')') {
            if !inner.contains(['(', ')']) {
                return &name[..open];
            }
        }
    }
    name
}

//! The comparison patterns the extractor recognises.

/// The word or pattern that introduces a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Comparator {
    /// "X like Y" (the only comparator of the original HAUSER tool and of MAPS-KB).
    Like,
    /// "as ADJ as Y".
    AsAs,
    /// "as if Y", "as though Y": the vehicle is the noun phrase after them.
    AsIf,
    /// "ADJ-er than Y", "more ADJ than Y".
    Than,
}

impl Comparator {
    /// All comparators.
    pub const ALL: [Comparator; 4] = [
        Comparator::Like,
        Comparator::AsAs,
        Comparator::AsIf,
        Comparator::Than,
    ];

    /// Short name used in signatures.
    pub fn as_str(self) -> &'static str {
        match self {
            Comparator::Like => "like",
            Comparator::AsAs => "as-as",
            Comparator::AsIf => "as-if",
            Comparator::Than => "than",
        }
    }
}

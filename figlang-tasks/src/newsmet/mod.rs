//! NewsMet (Joseph et al., Findings of ACL 2023): metaphors in news headlines. Today: the data
//! (headlines, labels, the gold / gold_plus families), detection evaluation from prediction
//! files, candidate generation (masked-LM fillers of the focus verb, filtered, split by a
//! metaphor detector), the metaphoricity of candidates (word vectors) and their diversity
//! (Lesk senses clustered by LCH similarity). docs/TASKS.md gives the protocol.

pub mod candidates;
pub mod data;
pub mod detection;
pub mod diversity;
pub mod families;
pub mod focus;
pub mod metaphoricity;

pub use candidates::{
    filter_fillers, generate, given_focus, mask_headline, Candidate, CandidateConfig,
    CandidateInput, CandidateSet, Dropped, Masking,
};
pub use data::{csv_column, parse_csv, parse_labels, Headline, SampleType};
pub use detection::{compare, evaluate, fleiss, ClassScores, DetectionReport, PairReport};
pub use diversity::{
    diversity, diversity_with, DiversityConfig, DiversityReport, HeadlineTokens, LCH_THRESHOLD,
};
pub use families::{families, Family, FamilyStats};
pub use focus::{find_focus_verb, FocusVerb};
pub use metaphoricity::{metaphoricity, similarity, Metaphoricity};

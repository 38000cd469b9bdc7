//! NewsMet (Joseph et al., Findings of ACL 2023): metaphors in news headlines. Today: the data
//! (headlines, labels, the gold / gold_plus families), detection evaluation from prediction
//! files, and the diversity of candidates (Lesk senses clustered by LCH similarity). docs/TASKS.md gives the protocol.

pub mod data;
pub mod detection;
pub mod diversity;
pub mod families;
pub mod metaphoricity;

pub use data::{csv_column, parse_csv, parse_labels, Headline, SampleType};
pub use detection::{compare, evaluate, fleiss, ClassScores, DetectionReport, PairReport};
pub use diversity::{diversity, DiversityReport, LCH_THRESHOLD};
pub use families::{families, Family, FamilyStats};
pub use metaphoricity::{metaphoricity, similarity, Metaphoricity};

//! # figlang-stats
//!
//! Statistics for meta-evaluation: correlations with SciPy-exact p-values, system- and
//! segment-level meta-evaluation, resampling tests, inter-rater agreement, ranking and
//! classification measures; and the WMT metrics task's meta-evaluation as Google's
//! mt-metrics-eval computes it (Kendall variants with tie calibration, grouped correlations,
//! pairwise and soft pairwise accuracy, PERM-BOTH significance and clusters).
//!
//! Conventions: inputs are `f64` slices; mismatched lengths, too few items and non-finite values
//! are [`StatsError`]s; degenerate but valid input (a constant vector) gives NaN statistics, as
//! SciPy does, never a panic. Reference versions and tolerances of the golden tests are listed in
//! `figlang-stats/tests/fixtures/stats_*.json` (SciPy 1.17.1, statsmodels 0.15.0,
//! krippendorff 0.9.0).
//!
//! ```
//! use figlang_stats::{pearson, wmt_kendall_tau};
//! let human = [1.0, 2.0, 3.0, 4.0];
//! let metric = [0.2, 0.1, 0.5, 0.9];
//! assert!(pearson(&human, &metric).unwrap().statistic > 0.8);
//! assert!((wmt_kendall_tau(&human, &metric).unwrap().tau - 4.0 / 6.0).abs() < 1e-12);
//! ```
#![deny(missing_docs)]

/// Crate version, used in signatures.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

mod agreement;
mod classification;
mod correlation;
mod dist;
mod error;
mod grouping;
mod kendall;
mod kendall_variants;
mod krippendorff;
mod meta;
// NumPy's random streams, shared with figlang-metrics' significance tests (not a stable API).
#[doc(hidden)]
pub mod numpy_rng;
mod pairwise_permutation;
mod permutation;
mod rank;
mod ranking;
mod resample;
mod rng;
mod system_accuracy;
mod tie_calibration;
mod ttest;
mod wmt_all_pairs;
mod wmt_significance;

pub use agreement::{
    cohen_kappa, fleiss_kappa, leave_one_out, pairwise_pearson, zscore, zscore_by_group,
    KappaWeights, LeaveOneOut,
};
pub use classification::{
    classification_report, mcnemar, ClassificationReport, McNemar, McNemarMethod, Prf,
};
pub use correlation::{fisher_z_interval, pearson, spearman, ConfidenceInterval, Correlation};
pub use error::{StatsError, StatsResult};
pub use grouping::{
    average_correlation, AverageOptions, AveragedCorrelation, Grouping, PackedScores,
};
pub use kendall::{kendall_tau, wmt_kendall_tau, TauVariant, WmtTau};
pub use kendall_variants::{kendall_variant, tau_counts, KendallVariant, TauCounts};
pub use krippendorff::{krippendorff_alpha, Level};
pub use meta::{
    meta_evaluate, segment_taus, segment_wmt_tau, top_n_analysis, MetaEvalData, MetaEvalReport,
    TopN,
};
pub use pairwise_permutation::pairwise_permutation_sig_diff;
pub use permutation::{
    permutation_test, permutation_test_monitored, permutation_test_paired,
    permutation_test_paired_monitored, CorrelationKind, PermutationResult,
};
pub use rank::average_ranks;
pub use ranking::{hit_rate_at_k, ndcg_at_k, ranking_report, reciprocal_rank, RankingReport};
pub use resample::{
    bootstrap_items, bootstrap_mean, bootstrap_meta_eval, bootstrap_meta_eval_monitored,
    bootstrap_meta_eval_with_segments, williams_test, williams_test_from_r, BootstrapConfig,
    BootstrapInterval, MetaEvalBootstrap, WilliamsTest,
};
pub use system_accuracy::{pairwise_accuracy, soft_pairwise_accuracy, PairwiseAccuracy};
pub use tie_calibration::{kendall_with_ties_opt, PairSampling, TieCalibration};
pub use ttest::{ttest_rel, Alternative, TTest};
pub use wmt_all_pairs::{
    pairwise_permutation_matrices, pairwise_permutation_matrix, perm_both_matrix,
    perm_both_pearson_matrix, PairTest,
};
pub use wmt_significance::{
    permutation_sig_diff, significance_clusters, PermSigDiff, PermSigDiffConfig,
};

//! Errors of the statistics module.

use thiserror::Error;

/// Why a statistic could not be computed.
///
/// Degenerate but well-formed input (a constant vector) is *not* an error: the affected
/// statistics are `NaN`, as in SciPy. Errors are for input that cannot be used at all.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum StatsError {
    /// Two paired inputs differ in length.
    #[error("{what}: paired inputs differ in length ({left} vs {right})")]
    LengthMismatch {
        /// The statistic being computed.
        what: &'static str,
        /// Length of the first input.
        left: usize,
        /// Length of the second input.
        right: usize,
    },
    /// Not enough observations for the statistic.
    #[error("{what}: needs at least {needed} items, got {got}")]
    TooFewItems {
        /// The statistic being computed.
        what: &'static str,
        /// The minimum number of items.
        needed: usize,
        /// The number given.
        got: usize,
    },
    /// An input value is NaN or infinite where a number is required.
    #[error("{what}: value {value} at index {index} is not finite")]
    NonFinite {
        /// The statistic being computed.
        what: &'static str,
        /// 0-based position of the value.
        index: usize,
        /// The offending value.
        value: f64,
    },
    /// An argument is outside its domain (a confidence level of 2, k = 0...).
    #[error("{what}: {message}")]
    InvalidArgument {
        /// The statistic being computed.
        what: &'static str,
        /// What is wrong.
        message: String,
    },
    /// The computation would need more memory than the machine allows (checked before
    /// allocating, see [`hauser_core::limits`]).
    #[error(transparent)]
    Limit(#[from] hauser_core::limits::LimitError),
    /// The caller's [`hauser_core::limits::Monitor`] asked the computation to stop.
    #[error("{what}: cancelled")]
    Cancelled {
        /// The statistic being computed.
        what: &'static str,
    },
}

/// Result alias of the statistics module.
pub type StatsResult<T> = Result<T, StatsError>;

/// Checks that two paired inputs have the same length, at least `needed` items and finite values.
pub(crate) fn check_paired(
    what: &'static str,
    x: &[f64],
    y: &[f64],
    needed: usize,
) -> StatsResult<()> {
    if x.len() != y.len() {
        return Err(StatsError::LengthMismatch {
            what,
            left: x.len(),
            right: y.len(),
        });
    }
    check_finite(what, x, needed)?;
    check_finite(what, y, needed)
}

/// Checks that an input has at least `needed` items, all finite.
pub(crate) fn check_finite(what: &'static str, x: &[f64], needed: usize) -> StatsResult<()> {
    if x.len() < needed {
        return Err(StatsError::TooFewItems {
            what,
            needed,
            got: x.len(),
        });
    }
    match x.iter().position(|v| !v.is_finite()) {
        Some(index) => Err(StatsError::NonFinite {
            what,
            index,
            value: x[index],
        }),
        None => Ok(()),
    }
}

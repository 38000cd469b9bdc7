//! The sequence-classification head an architecture puts on its encoder; each architecture
//! module loads its own (weight names included).

use candle_core::{Result, Tensor};

/// A classification head: logits `[b, labels]` from the first token's final hidden state
/// `[b, hidden]`.
pub(crate) trait ClassifierHead: Send + Sync {
    /// Logits of a batch of first-token states.
    fn forward(&self, cls: &Tensor) -> Result<Tensor>;
}

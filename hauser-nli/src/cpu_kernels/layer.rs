//! One transformer layer's weights as the packed kernels read them: the BERT-layout encoder
//! (`models::bert::packed`), the pre-LayerNorm block (`block`) and GPT-2
//! (`models::gpt2::packed`) share it, so it sits with the shared kernels, below all three.

/// One transformer layer's weights, projections stored input-major (`[in, out]`).
#[derive(Debug, Clone)]
pub(crate) struct PackedLayer {
    /// Query, key and value projections side by side: `[hidden, 3 * hidden]`.
    pub qkv_w: Vec<f32>,
    pub qkv_b: Vec<f32>,
    pub out_w: Vec<f32>,
    pub out_b: Vec<f32>,
    pub ln1_g: Vec<f32>,
    pub ln1_b: Vec<f32>,
    pub inter_w: Vec<f32>,
    pub inter_b: Vec<f32>,
    pub ffn_w: Vec<f32>,
    pub ffn_b: Vec<f32>,
    pub ln2_g: Vec<f32>,
    pub ln2_b: Vec<f32>,
}

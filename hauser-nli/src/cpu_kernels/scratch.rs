//! Per-thread scratch space of the packed forward passes (encoder and causal LM).

/// Scratch space of forward passes, kept per thread so that batches reuse it instead of
/// faulting in fresh pages each time. Every part a pass reads is written first in that pass.
/// Each buffer holds at least what a pass over `tokens` tokens needs; passes slice them.
#[derive(Default)]
pub(crate) struct Buffers {
    /// `[tokens, 3 * hidden]`: query, key and value projections.
    pub qkv: Vec<f32>,
    /// `[tokens, hidden]`: attention output.
    pub ctx: Vec<f32>,
    /// `[tokens, hidden]`: the sub-layer input (post-LN: after attention; pre-LN: normalised).
    pub mid: Vec<f32>,
    /// `[tokens, intermediate]`: the feed-forward activations.
    pub inter: Vec<f32>,
    /// `[longest, longest]`: one sequence's attention scores.
    pub scores: Vec<f32>,
}

/// Scratch kept between calls, in f32 values (64 MiB).
const KEEP_FLOATS: usize = 16 << 20;

impl Buffers {
    fn floats(&self) -> usize {
        [&self.qkv, &self.ctx, &self.mid, &self.inter, &self.scores]
            .iter()
            .map(|v| v.capacity())
            .sum()
    }

    fn fit(&mut self, tokens: usize, hidden: usize, inter: usize, longest: usize) {
        let grow = |v: &mut Vec<f32>, n: usize| {
            if v.len() < n {
                v.resize(n, 0.0);
            }
        };
        grow(&mut self.qkv, tokens * 3 * hidden);
        grow(&mut self.ctx, tokens * hidden);
        grow(&mut self.mid, tokens * hidden);
        grow(&mut self.inter, tokens * inter);
        grow(&mut self.scores, longest * longest);
    }
}

/// One pass's views of the scratch: queries, keys and values (`[tokens, 3 * hidden]`) and the
/// attention output and sub-layer input (`[tokens, hidden]` each) cut to the pass's tokens; the
/// feed-forward and score buffers whole (their users cut them).
pub(crate) struct Parts<'a> {
    pub qkv: &'a mut [f32],
    pub ctx: &'a mut [f32],
    pub mid: &'a mut [f32],
    pub inter: &'a mut [f32],
    pub scores: &'a mut [f32],
}

impl Buffers {
    /// [`Parts`] for a pass over `tokens` tokens of width `hidden`.
    pub(crate) fn parts(&mut self, tokens: usize, hidden: usize) -> Parts<'_> {
        Parts {
            qkv: &mut self.qkv[..tokens * 3 * hidden],
            ctx: &mut self.ctx[..tokens * hidden],
            mid: &mut self.mid[..tokens * hidden],
            inter: &mut self.inter,
            scores: &mut self.scores,
        }
    }
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Buffers> = std::cell::RefCell::new(Buffers::default());
}

/// Runs `f` with this thread's scratch, grown for `tokens` tokens of width `hidden` and
/// feed-forward width `inter`, and sequences of at most `longest` tokens.
pub(crate) fn with_scratch<R>(
    tokens: usize,
    hidden: usize,
    inter: usize,
    longest: usize,
    f: impl FnOnce(&mut Buffers) -> R,
) -> R {
    SCRATCH.with_borrow_mut(|buf| {
        buf.fit(tokens, hidden, inter, longest);
        let out = f(buf);
        // Large models with long batches would otherwise pin hundreds of megabytes per thread
        // after the call.
        if buf.floats() > KEEP_FLOATS {
            *buf = Buffers::default();
        }
        out
    })
}

/// Copies `row` into every `width`-long row of `dst` (a bias before an accumulating product).
pub(crate) fn fill_rows(dst: &mut [f32], width: usize, row: &[f32]) {
    for r in dst.chunks_exact_mut(width) {
        r.copy_from_slice(row);
    }
}

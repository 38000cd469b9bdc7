//! A bounds-checked front for the `gemm` crate's strided f32 matrix product. Every size and
//! offset of the checks is computed with checked arithmetic: a product too large for `usize`
//! (or a stride too large for gemm's `isize`) is refused as an error, never wrapped into a
//! small number that would pass the check.

use std::sync::atomic::{AtomicU64, Ordering};

/// Floating-point operations of the products [`matmul`] has run in this process.
static FLOPS: AtomicU64 = AtomicU64::new(0);

/// The floating-point operations (`2 m n k` per product: one multiply and one add per term) of
/// every matrix product the packed CPU kernels have run in this process so far. Benchmarks read
/// it before and after a run to report the GEMM throughput a model reached; one relaxed atomic
/// addition per product (a layer runs a handful) costs nothing measurable.
pub fn gemm_flops() -> u64 {
    FLOPS.load(Ordering::Relaxed)
}

/// Why a product was refused; each is a broken internal invariant (the packed kernels size
/// every buffer from the same dimensions), reported instead of reaching `gemm` unchecked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum GemmError {
    /// `lhs.cols != rhs.rows`.
    #[error("matrix product: inner dimensions differ ({lhs_cols} vs {rhs_rows})")]
    InnerDims {
        /// Columns of the left operand.
        lhs_cols: usize,
        /// Rows of the right operand.
        rhs_rows: usize,
    },
    /// An operand or the destination addresses elements past its slice.
    #[error("matrix product: {0} out of bounds")]
    OutOfBounds(&'static str),
    /// A size or offset does not fit in `usize` (or a stride in `isize`).
    #[error("matrix product: {0} overflows")]
    Overflow(&'static str),
    /// Destination rows would overlap (`n > dst_stride` with more than one row).
    #[error("matrix product: destination rows overlap")]
    Overlap,
}

/// A strided read-only view of a matrix inside `data`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct View<'a> {
    pub data: &'a [f32],
    pub rows: usize,
    pub cols: usize,
    /// Distance between consecutive rows, in elements.
    pub row_stride: usize,
    /// Distance between consecutive columns, in elements.
    pub col_stride: usize,
}

impl<'a> View<'a> {
    /// A dense row-major `rows x cols` matrix at the start of `data`.
    pub(crate) fn dense(data: &'a [f32], rows: usize, cols: usize) -> Self {
        Self {
            data,
            rows,
            cols,
            row_stride: cols,
            col_stride: 1,
        }
    }

    /// Checks that every element the view addresses lies inside `data`, and that its strides
    /// fit in `isize` for gemm.
    fn check(&self, what: &'static str) -> Result<(), GemmError> {
        stride(self.row_stride, what)?;
        stride(self.col_stride, what)?;
        if self.rows == 0 || self.cols == 0 {
            return Ok(());
        }
        let last = (self.rows - 1)
            .checked_mul(self.row_stride)
            .zip((self.cols - 1).checked_mul(self.col_stride))
            .and_then(|(r, c)| r.checked_add(c))
            .ok_or(GemmError::Overflow(what))?;
        if last < self.data.len() {
            Ok(())
        } else {
            Err(GemmError::OutOfBounds(what))
        }
    }
}

/// A stride as gemm takes it.
fn stride(s: usize, what: &'static str) -> Result<isize, GemmError> {
    isize::try_from(s).map_err(|_| GemmError::Overflow(what))
}

/// `dst = (accumulate ? dst : 0) + scale * lhs * rhs`, where `dst` is row-major with row
/// stride `dst_stride` and `lhs.rows x rhs.cols` elements used. Single-threaded: callers
/// parallelise over independent batches, which keeps results independent of the thread count.
///
/// # Errors
/// Mismatched shapes, views or a destination that do not fit their slices, or sizes that
/// overflow (all broken internal invariants); nothing is written then.
pub(crate) fn matmul(
    dst: &mut [f32],
    dst_stride: usize,
    lhs: View<'_>,
    rhs: View<'_>,
    scale: f32,
    accumulate: bool,
) -> Result<(), GemmError> {
    let (m, k, n) = (lhs.rows, lhs.cols, rhs.cols);
    if k != rhs.rows {
        return Err(GemmError::InnerDims {
            lhs_cols: k,
            rhs_rows: rhs.rows,
        });
    }
    lhs.check("left operand")?;
    rhs.check("right operand")?;
    if m == 0 || n == 0 {
        return Ok(());
    }
    if n > dst_stride && m > 1 {
        return Err(GemmError::Overlap);
    }
    let dst_stride_i = stride(dst_stride, "destination")?;
    let dst_end = (m - 1)
        .checked_mul(dst_stride)
        .and_then(|r| r.checked_add(n))
        .ok_or(GemmError::Overflow("destination"))?;
    if dst_end > dst.len() {
        return Err(GemmError::OutOfBounds("destination"));
    }
    let lhs_rs = stride(lhs.row_stride, "left operand")?;
    let lhs_cs = stride(lhs.col_stride, "left operand")?;
    let rhs_rs = stride(rhs.row_stride, "right operand")?;
    let rhs_cs = stride(rhs.col_stride, "right operand")?;
    let flops = 2u64
        .saturating_mul(m as u64)
        .saturating_mul(n as u64)
        .saturating_mul(k as u64);
    FLOPS.fetch_add(flops, Ordering::Relaxed);
    if k == 0 {
        if !accumulate {
            // Rows start at r * dst_stride <= dst_end - n, checked above.
            for row in dst.chunks_mut(dst_stride.max(n)).take(m) {
                row[..n].fill(0.0);
            }
        }
        return Ok(());
    }
    // SAFETY: the checks above keep every address gemm forms (row * stride + col * stride
    // for rows < m, cols < n, inner < k, all without overflow) inside the three slices; `dst`
    // is borrowed mutably, so it cannot alias the operands.
    #[allow(unsafe_code)]
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            dst.as_mut_ptr(),
            1,
            dst_stride_i,
            accumulate,
            lhs.data.as_ptr(),
            lhs_cs,
            lhs_rs,
            rhs.data.as_ptr(),
            rhs_cs,
            rhs_rs,
            1.0,
            scale,
            false,
            false,
            false,
            gemm::Parallelism::None,
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(a: View<'_>, b: View<'_>) -> Vec<f64> {
        let mut out = vec![0f64; a.rows * b.cols];
        for i in 0..a.rows {
            for j in 0..b.cols {
                out[i * b.cols + j] = (0..a.cols)
                    .map(|p| {
                        a.data[i * a.row_stride + p * a.col_stride] as f64
                            * b.data[p * b.row_stride + j * b.col_stride] as f64
                    })
                    .sum();
            }
        }
        out
    }

    #[test]
    fn strided_products_match_a_naive_loop() {
        let data: Vec<f32> = (0..4000)
            .map(|i| ((i * 37) % 23) as f32 / 7.0 - 1.5)
            .collect();
        // lhs 5x7 inside rows of 11; rhs as the transpose of a 9x7 block (column stride 13).
        let lhs = View {
            data: &data[3..],
            rows: 5,
            cols: 7,
            row_stride: 11,
            col_stride: 1,
        };
        let rhs = View {
            data: &data[100..],
            rows: 7,
            cols: 9,
            row_stride: 1,
            col_stride: 13,
        };
        let want = naive(lhs, rhs);
        let mut dst = vec![1f32; 5 * 12];
        matmul(&mut dst, 12, lhs, rhs, 0.5, true).unwrap();
        for i in 0..5 {
            for j in 0..9 {
                let got = dst[i * 12 + j] as f64;
                assert!(
                    (got - (1.0 + 0.5 * want[i * 9 + j])).abs() < 1e-4,
                    "{i},{j}"
                );
            }
            assert!(dst[i * 12 + 9..i * 12 + 12].iter().all(|&x| x == 1.0));
        }
        matmul(&mut dst, 12, lhs, rhs, 1.0, false).unwrap();
        assert!((dst[0] as f64 - want[0]).abs() < 1e-4);
    }

    #[test]
    fn views_past_their_slice_are_refused() {
        let data = vec![0f32; 10];
        let v = View::dense(&data, 3, 4);
        let mut dst = vec![0f32; 16];
        let err = matmul(&mut dst, 4, v, View::dense(&data, 4, 2), 1.0, false);
        assert_eq!(err, Err(GemmError::OutOfBounds("left operand")));
        let ok = View::dense(&data, 2, 2);
        let err = matmul(&mut dst[..5], 4, ok, ok, 1.0, false);
        assert_eq!(err, Err(GemmError::OutOfBounds("destination")));
        let err = matmul(&mut dst, 4, ok, View::dense(&data, 3, 2), 1.0, false);
        assert!(matches!(err, Err(GemmError::InnerDims { .. })));
        assert_eq!(
            matmul(&mut dst, 1, ok, ok, 1.0, false),
            Err(GemmError::Overlap)
        );
    }

    #[test]
    fn sizes_that_overflow_are_errors_not_wrapped() {
        let data = vec![0f32; 10];
        let mut dst = vec![0f32; 16];
        // (rows - 1) * row_stride wraps to a small number in unchecked arithmetic:
        // 2 * (usize::MAX / 2 + 1) == 0 (mod 2^64).
        let wraps = View {
            data: &data,
            rows: 3,
            cols: 1,
            row_stride: usize::MAX / 2 + 1,
            col_stride: 1,
        };
        let ok = View::dense(&data, 1, 2);
        assert_eq!(
            matmul(&mut dst, 2, wraps, ok, 1.0, false),
            Err(GemmError::Overflow("left operand"))
        );
        // A destination stride past isize::MAX, or one whose last row start overflows.
        let square = View::dense(&data, 2, 2);
        assert_eq!(
            matmul(&mut dst, usize::MAX, square, square, 1.0, false),
            Err(GemmError::Overflow("destination"))
        );
        assert_eq!(
            matmul(&mut dst, isize::MAX as usize, square, square, 1.0, false),
            Err(GemmError::OutOfBounds("destination"))
        );
        assert!(dst.iter().all(|&x| x == 0.0), "nothing written on refusal");
    }
}

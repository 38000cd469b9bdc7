//! A bounds-checked front for the `gemm` crate's strided f32 matrix product.

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

    /// True when every element the view addresses lies inside `data`.
    fn in_bounds(&self) -> bool {
        self.rows == 0
            || self.cols == 0
            || (self.rows - 1) * self.row_stride + (self.cols - 1) * self.col_stride
                < self.data.len()
    }
}

/// `dst = (accumulate ? dst : 0) + scale * lhs * rhs`, where `dst` is row-major with row
/// stride `dst_stride` and `lhs.rows x rhs.cols` elements used. Single-threaded: callers
/// parallelise over independent batches, which keeps results independent of the thread count.
///
/// # Panics
/// On mismatched shapes or views that do not fit their slices (internal invariants).
pub(crate) fn matmul(
    dst: &mut [f32],
    dst_stride: usize,
    lhs: View<'_>,
    rhs: View<'_>,
    scale: f32,
    accumulate: bool,
) {
    let (m, k, n) = (lhs.rows, lhs.cols, rhs.cols);
    assert_eq!(k, rhs.rows, "inner dimensions differ");
    assert!(
        lhs.in_bounds() && rhs.in_bounds(),
        "operand view out of bounds"
    );
    if m == 0 || n == 0 {
        return;
    }
    assert!(n <= dst_stride || m == 1, "destination rows overlap");
    assert!(
        (m - 1) * dst_stride + n <= dst.len(),
        "destination out of bounds"
    );
    if k == 0 {
        if !accumulate {
            for r in 0..m {
                dst[r * dst_stride..r * dst_stride + n].fill(0.0);
            }
        }
        return;
    }
    // SAFETY: the asserts above keep every address gemm forms (row * stride + col * stride
    // for rows < m, cols < n, inner < k) inside the three slices; `dst` is borrowed mutably,
    // so it cannot alias the operands.
    #[allow(unsafe_code)]
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            dst.as_mut_ptr(),
            1,
            dst_stride as isize,
            accumulate,
            lhs.data.as_ptr(),
            lhs.col_stride as isize,
            lhs.row_stride as isize,
            rhs.data.as_ptr(),
            rhs.col_stride as isize,
            rhs.row_stride as isize,
            1.0,
            scale,
            false,
            false,
            false,
            gemm::Parallelism::None,
        );
    }
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
        matmul(&mut dst, 12, lhs, rhs, 0.5, true);
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
        matmul(&mut dst, 12, lhs, rhs, 1.0, false);
        assert!((dst[0] as f64 - want[0]).abs() < 1e-4);
    }

    #[test]
    #[should_panic(expected = "out of bounds")]
    fn views_past_their_slice_are_refused() {
        let data = vec![0f32; 10];
        let v = View::dense(&data, 3, 4);
        let mut dst = vec![0f32; 16];
        matmul(&mut dst, 4, v, View::dense(&data, 4, 2), 1.0, false);
    }
}

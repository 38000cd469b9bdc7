//! Token alignment of a simile with its literal sentence (longest common subsequence).

/// For each token of `simile`, whether it is absent from `literal` (inserted by the generator).
///
/// Tokens are compared case-insensitively; the literal in HAUSER's data is tokenised with spaces
/// around punctuation while the simile is not, which the shared tokenizer already evens out.
pub(crate) fn inserted(simile: &[&str], literal: &[&str]) -> Vec<bool> {
    let (n, m) = (simile.len(), literal.len());
    // lcs[i][j]: LCS length of simile[i..] and literal[j..], row-major in one vector.
    let w = m + 1;
    let mut lcs = vec![0u32; (n + 1) * w];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i * w + j] = if simile[i] == literal[j] {
                lcs[(i + 1) * w + j + 1] + 1
            } else {
                lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
            };
        }
    }
    let mut out = vec![true; n];
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        if simile[i] == literal[j] {
            out[i] = false;
            i += 1;
            j += 1;
        } else if lcs[(i + 1) * w + j] >= lcs[i * w + j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_the_inserted_comparison() {
        let s: Vec<&str> = "he wept like a child who cried".split(' ').collect();
        let l: Vec<&str> = "he wept who cried".split(' ').collect();
        assert_eq!(
            inserted(&s, &l),
            [false, false, true, true, true, false, false]
        );
        assert_eq!(inserted(&s, &[]), vec![true; 7]);
    }
}

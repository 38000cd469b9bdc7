//! NumPy's `.npy` format (version 1.0) for a float32 matrix written row by row: `hauser embed
//! --format npy`. The header holds the shape, known only at the end, so a fixed-size header is
//! written first and rewritten in place when the last row is in; that needs a seekable output
//! (the temporary file of a regular one, see [`OutputFile::temp_file`]).

use std::io::{Seek, SeekFrom, Write};

use crate::error::CliError;
use crate::io::out_file::OutputFile;

/// Bytes of the preamble and header: a multiple of 64, as NumPy aligns the data, and room for
/// any shape of two `u64` dimensions.
const HEADER_BYTES: usize = 128;

/// The magic string, version 1.0, the header's length, then the header dictionary NumPy writes
/// for a C-order little-endian float32 array of `shape`, padded with spaces to
/// [`HEADER_BYTES`] and ended by a line feed.
fn header(rows: u64, cols: u64) -> Vec<u8> {
    let dict = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': ({rows}, {cols}), }}");
    let mut out = Vec::with_capacity(HEADER_BYTES);
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    let len = u16::try_from(HEADER_BYTES - 10).unwrap_or(u16::MAX);
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    out.resize(HEADER_BYTES - 1, b' ');
    out.push(b'\n');
    out
}

/// A float32 matrix streamed into an output, its header completed by [`NpyWriter::finish`].
pub(crate) struct NpyWriter {
    rows: u64,
    cols: Option<usize>,
    /// Rows of NaN asked for before the width was known, written with the first row.
    pending_nan: u64,
    row_bytes: Vec<u8>,
}

impl NpyWriter {
    /// Checks that `out` can be rewritten in place and reserves the header.
    ///
    /// # Errors
    /// [`CliError::Usage`] for a stream or device (`flag` names the option that chose the
    /// format); an I/O error writing.
    pub(crate) fn begin(out: &mut OutputFile, flag: &str) -> Result<Self, CliError> {
        if out.temp_file()?.is_none() {
            return Err(CliError::Usage(format!(
                "{flag} npy writes the row count into the file's header at the end: --output must \
                 name a regular file, not {}",
                out.path().display()
            )));
        }
        let path = out.path().to_path_buf();
        out.write_all(&header(0, 0))
            .map_err(|e| CliError::io(&path, e))?;
        Ok(Self {
            rows: 0,
            cols: None,
            pending_nan: 0,
            row_bytes: Vec::new(),
        })
    }

    /// Appends one row; every row has the width of the first.
    ///
    /// # Errors
    /// [`CliError::Usage`] for a row of another width (an internal error); an I/O error.
    pub(crate) fn row(&mut self, out: &mut OutputFile, values: &[f32]) -> Result<(), CliError> {
        match self.cols {
            None => {
                self.cols = Some(values.len());
                self.flush_nan(out, values.len())?;
            }
            Some(c) if c != values.len() => {
                return Err(CliError::Usage(format!(
                    "internal: a row of {} values after rows of {c}",
                    values.len()
                )))
            }
            Some(_) => {}
        }
        self.row_bytes.clear();
        for v in values {
            self.row_bytes.extend_from_slice(&v.to_le_bytes());
        }
        let path = out.path().to_path_buf();
        out.write_all(&self.row_bytes)
            .map_err(|e| CliError::io(&path, e))?;
        self.rows += 1;
        Ok(())
    }

    /// Appends a row of NaN (where an input gave no values), as wide as the others: held back
    /// until the width is known.
    ///
    /// # Errors
    /// An I/O error.
    pub(crate) fn nan_row(&mut self, out: &mut OutputFile) -> Result<(), CliError> {
        match self.cols {
            Some(c) => self.row(out, &vec![f32::NAN; c]),
            None => {
                self.pending_nan += 1;
                Ok(())
            }
        }
    }

    /// Writes the NaN rows held back, `cols` wide.
    fn flush_nan(&mut self, out: &mut OutputFile, cols: usize) -> Result<(), CliError> {
        let nan = vec![f32::NAN; cols];
        for _ in 0..std::mem::take(&mut self.pending_nan) {
            self.cols = Some(cols);
            self.row(out, &nan)?;
        }
        Ok(())
    }

    /// Writes the NaN rows still held back and the final header; `cols` is the width when no
    /// row had values (the model's hidden size).
    ///
    /// # Errors
    /// An I/O error rewriting the header.
    pub(crate) fn finish(mut self, out: &mut OutputFile, cols: usize) -> Result<(), CliError> {
        let cols = self.cols.unwrap_or(cols);
        self.flush_nan(out, cols)?;
        let path = out.path().to_path_buf();
        let err = |e| CliError::io(&path, e);
        let file = out
            .temp_file()?
            .ok_or_else(|| CliError::Usage("internal: the npy output lost its file".to_string()))?;
        let end = file.stream_position().map_err(err)?;
        file.seek(SeekFrom::Start(0)).map_err(err)?;
        file.write_all(&header(self.rows, cols as u64))
            .map_err(err)?;
        file.seek(SeekFrom::Start(end)).map_err(err)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_is_numpys_and_aligned() {
        let h = header(156_320, 768);
        assert_eq!(h.len(), HEADER_BYTES);
        assert_eq!(&h[..8], b"\x93NUMPY\x01\x00");
        assert_eq!(u16::from_le_bytes([h[8], h[9]]) as usize, HEADER_BYTES - 10);
        let dict = std::str::from_utf8(&h[10..]).expect("ASCII");
        assert!(
            dict.starts_with("{'descr': '<f4', 'fortran_order': False, 'shape': (156320, 768), }")
        );
        assert!(dict.ends_with(" \n"));
        // The largest shape still fits.
        assert_eq!(header(u64::MAX, u64::MAX).len(), HEADER_BYTES);
        assert!(std::str::from_utf8(&header(u64::MAX, u64::MAX)[10..])
            .expect("ASCII")
            .contains("(18446744073709551615, 18446744073709551615)"));
    }
}

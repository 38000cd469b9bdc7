//! Columns of texts and numbers crossing from Python: lists or tuples of `str`, Arrow string
//! buffers ([`ArrowStrings`]), float64 buffers; and float results going back as one buffer.
//!
//! The Python layer (`hauser/_inputs.py`) turns NumPy, pandas and pyarrow inputs into one of
//! these shapes, so this side reads each text once, checks it, and owns it before the
//! interpreter is released.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyList, PyString, PyTuple};

use crate::errors::value_error;

/// The offsets and character data of an Arrow `string` or `large_string` array (or of a slice
/// of one), as `hauser` hands them to the engine without building a Python `str` per row.
#[pyclass(frozen, module = "hauser._hauser")]
#[derive(Debug)]
pub(crate) struct ArrowStrings {
    offsets: Py<PyBytes>,
    data: Py<PyBytes>,
    large: bool,
    len: usize,
}

#[pymethods]
impl ArrowStrings {
    /// `offsets`: the `len + 1` offsets of the rows (int32, or int64 when `large`), native
    /// byte order; `data`: the UTF-8 bytes from the first offset to the last.
    #[new]
    fn new(offsets: Bound<'_, PyBytes>, data: Bound<'_, PyBytes>, large: bool) -> PyResult<Self> {
        let width = if large { 8 } else { 4 };
        let n = offsets.as_bytes().len();
        if n < width || !n.is_multiple_of(width) {
            return Err(value_error(format!(
                "Arrow offsets: {n} bytes is not a whole number (at least one) of {width}-byte offsets"
            )));
        }
        Ok(Self {
            offsets: offsets.unbind(),
            data: data.unbind(),
            large,
            len: n / width - 1,
        })
    }

    fn __len__(&self) -> usize {
        self.len
    }
}

impl ArrowStrings {
    /// The rows as strings; errors for offsets out of order or range and invalid UTF-8.
    fn strings(&self, py: Python<'_>, what: &str) -> PyResult<Vec<String>> {
        let raw = self.offsets.bind(py).as_bytes();
        let data = self.data.bind(py).as_bytes();
        let offsets: Vec<i64> = if self.large {
            raw.chunks_exact(8)
                .map(|c| i64::from_ne_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
                .collect()
        } else {
            raw.chunks_exact(4)
                .map(|c| i64::from(i32::from_ne_bytes([c[0], c[1], c[2], c[3]])))
                .collect()
        };
        // Offsets index the whole buffer of the array; `data` starts at the first of them.
        let base = offsets.first().copied().unwrap_or(0);
        let mut out = Vec::with_capacity(self.len);
        for (i, w) in offsets.windows(2).enumerate() {
            let (a, b) = (w[0] - base, w[1] - base);
            let row = usize::try_from(a)
                .ok()
                .zip(usize::try_from(b).ok())
                .filter(|(a, b)| a <= b)
                .and_then(|(a, b)| data.get(a..b))
                .ok_or_else(|| {
                    value_error(format!(
                        "{what}[{i}]: Arrow offsets {a}..{b} outside the {} bytes of data",
                        data.len()
                    ))
                })?;
            let s = std::str::from_utf8(row).map_err(|e| {
                value_error(format!(
                    "{what}[{i}]: invalid UTF-8 at byte {}",
                    e.valid_up_to()
                ))
            })?;
            out.push(s.to_owned());
        }
        Ok(out)
    }
}

/// The texts of `obj` (a list or tuple of `str`, or [`ArrowStrings`]); `what` names the
/// argument in errors (`hypotheses`, `references[1]`).
///
/// # Errors
/// `TypeError` for another container or an element that is not `str`.
pub(crate) fn column(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<String>> {
    match plain_column(obj, what)? {
        Some(texts) => Ok(texts),
        // NumPy, pandas, pyarrow, iterables: the Python layer turns them into a list or Arrow
        // buffers (one place knows those libraries).
        None if !obj.is_instance_of::<PyString>() => {
            let normalised = obj
                .py()
                .import("hauser._inputs")?
                .call_method1("text_column", (obj, what))?;
            plain_column(&normalised, what)?
                .ok_or_else(|| PyTypeError::new_err(format!("{what}: expected a list of str")))
        }
        None => Err(PyTypeError::new_err(format!(
            "{what}: expected a list of str, got a single str"
        ))),
    }
}

/// [`column`] for the shapes read here directly; `None` for any other object.
fn plain_column(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Option<Vec<String>>> {
    if let Ok(arrow) = obj.cast::<ArrowStrings>() {
        return arrow.get().strings(obj.py(), what).map(Some);
    }
    let item = |i: usize, x: Bound<'_, PyAny>| -> PyResult<String> {
        match x.cast::<PyString>() {
            Ok(s) => Ok(s.to_cow()?.into_owned()),
            Err(_) => Err(PyTypeError::new_err(format!(
                "{what}[{i}] is {}, not str",
                type_name(&x)
            ))),
        }
    };
    if let Ok(list) = obj.cast::<PyList>() {
        return list
            .iter()
            .enumerate()
            .map(|(i, x)| item(i, x))
            .collect::<PyResult<_>>()
            .map(Some);
    }
    if let Ok(tuple) = obj.cast::<PyTuple>() {
        return tuple
            .iter()
            .enumerate()
            .map(|(i, x)| item(i, x))
            .collect::<PyResult<_>>()
            .map(Some);
    }
    Ok(None)
}

/// Reference columns: one column per reference stream.
pub(crate) fn columns(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<Vec<String>>> {
    let streams: Vec<Bound<'_, PyAny>> = if let Ok(list) = obj.cast::<PyList>() {
        list.iter().collect()
    } else if let Ok(tuple) = obj.cast::<PyTuple>() {
        tuple.iter().collect()
    } else {
        return Err(PyTypeError::new_err(format!(
            "{what}: expected a list of reference streams (one list of str per reference), got {}",
            type_name(obj)
        )));
    };
    streams
        .iter()
        .enumerate()
        .map(|(k, s)| column(s, &format!("{what}[{k}]")))
        .collect()
}

/// The Python type name of `obj`, for messages.
pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "an object".to_string(), |n| n.to_string())
}

/// A float64 column sent as native-endian bytes (`numpy.ndarray.tobytes()`).
///
/// # Errors
/// `ValueError` when the length is not a multiple of 8.
pub(crate) fn floats(bytes: &[u8], what: &str) -> PyResult<Vec<f64>> {
    if !bytes.len().is_multiple_of(8) {
        return Err(value_error(format!(
            "{what}: {} bytes is not a whole number of float64 values",
            bytes.len()
        )));
    }
    Ok(bytes
        .chunks_exact(8)
        .map(|c| f64::from_ne_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
        .collect())
}

/// Float results as one native-endian buffer, which the Python layer views as a NumPy array
/// (`numpy.frombuffer`) without a Python `float` per value.
pub(crate) fn float_buffer<'py>(py: Python<'py>, values: &[f64]) -> Bound<'py, PyByteArray> {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_ne_bytes()).collect();
    PyByteArray::new(py, &bytes)
}

/// Float results as a NumPy array (float64, writable), built from one buffer.
pub(crate) fn numpy_array<'py>(py: Python<'py>, values: &[f64]) -> PyResult<Bound<'py, PyAny>> {
    py.import("numpy")?
        .getattr("frombuffer")?
        .call1((float_buffer(py, values), "float64"))
}

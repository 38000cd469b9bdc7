"""Turning the inputs users have (lists, NumPy arrays, pandas Series, pyarrow arrays) into the
two shapes the engine reads: a list of ``str``, or :class:`hauser._hauser.ArrowStrings`
(the offsets and bytes of an Arrow string column, read without a Python ``str`` per row)."""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

import numpy as np

from ._hauser import ArrowStrings


def _module(obj: Any) -> str:
    return type(obj).__module__ or ""


def is_arrow(obj: Any) -> bool:
    """Whether ``obj`` is a pyarrow Array or ChunkedArray (without importing pyarrow)."""
    return _module(obj).startswith("pyarrow") and hasattr(obj, "type")


def is_column(obj: Any) -> bool:
    """Whether ``obj`` is a one-dimensional array-like of texts (not a plain list)."""
    if is_arrow(obj):
        return True
    if isinstance(obj, np.ndarray):
        return obj.ndim == 1
    return _module(obj).startswith("pandas") and getattr(obj, "ndim", 0) == 1


def _stringlike(pa: Any, t: Any) -> bool:
    if pa.types.is_dictionary(t):
        return _stringlike(pa, t.value_type)
    return bool(pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t))


def arrow_strings(arr: Any, what: str) -> ArrowStrings:
    """The offsets and data of a pyarrow string column (any string type; chunks combined)."""
    import pyarrow as pa  # type: ignore[import-not-found,import-untyped,unused-ignore]

    if isinstance(arr, pa.ChunkedArray):
        arr = arr.chunk(0) if arr.num_chunks == 1 else arr.combine_chunks()
    if pa.types.is_string(arr.type):
        large = False
    elif pa.types.is_large_string(arr.type):
        large = True
    elif _stringlike(pa, arr.type):
        # string_view or dictionary-encoded strings: one copy into the layout read below.
        arr = arr.cast(pa.large_string())
        large = True
    else:
        # Numbers are not cast to text: a column of the wrong type is a mistake to report.
        raise TypeError(f"{what}: an Arrow column of {arr.type}, not strings")
    if arr.null_count:
        raise ValueError(
            f"{what}: {arr.null_count} null value(s); every row needs a text (fill nulls, e.g. with '')"
        )
    width = 8 if large else 4
    buffers = arr.buffers()
    offsets = buffers[1].slice(arr.offset * width, (len(arr) + 1) * width)
    bounds = np.frombuffer(offsets, dtype=np.int64 if large else np.int32)
    first, last = int(bounds[0]), int(bounds[-1])
    data = buffers[2]
    chars = data.slice(first, last - first).to_pybytes() if data is not None else b""
    return ArrowStrings(offsets.to_pybytes(), chars, large)


def text_column(obj: Any, what: str = "texts") -> Any:
    """``obj`` as a list of ``str`` or :class:`ArrowStrings`.

    Accepts lists and tuples (returned as they are), pyarrow string arrays (read from their
    buffers), NumPy and pandas string or object columns, and any other iterable of ``str``.
    """
    if isinstance(obj, (list, tuple, ArrowStrings)):
        return obj
    if isinstance(obj, (str, bytes)):
        raise TypeError(f"{what}: expected a list of str, got a single {type(obj).__name__}")
    if is_arrow(obj):
        return arrow_strings(obj, what)
    if _module(obj).startswith("pandas"):
        values = getattr(obj, "array", None)
        # An Arrow-backed Series hands over its buffers; others their Python objects.
        if values is not None and hasattr(values, "__arrow_array__"):
            import pyarrow as pa

            return arrow_strings(pa.array(values), what)
        return obj.tolist()
    if isinstance(obj, np.ndarray):
        if obj.ndim != 1:
            raise ValueError(f"{what}: expected a 1-D array of texts, got shape {obj.shape}")
        return obj.tolist()
    try:
        return list(obj)
    except TypeError:
        raise TypeError(
            f"{what}: expected a list of str (or a NumPy, pandas or pyarrow column), "
            f"got {type(obj).__name__}"
        ) from None


def reference_streams(references: Any, n_hyps: int, refs_per_hyp: Optional[bool] = None) -> List[Any]:
    """References of a column of hypotheses as sacreBLEU's streams: one column (one reference
    per hypothesis: a list of ``str``, an array), a list of such columns (sacreBLEU's
    ``[[ref1 of each], [ref2 of each], ...]``), or a list of per-hypothesis reference lists
    (Hugging Face ``evaluate``'s ``[[refs of hypothesis 1], ...]``), turned into streams.

    A list of lists is read the one way its shape allows; when both fit (``n`` lists of ``n``
    references for ``n`` > 1 hypotheses) it is refused unless ``refs_per_hyp`` says which it
    is: reading it the wrong way gives wrong scores with no error.
    """
    if references is None:
        return []
    if isinstance(references, str):
        raise TypeError("references: expected one column of references (or a list of columns), got a str")
    if is_column(references):
        if refs_per_hyp:
            raise ValueError("refs_per_hyp=True needs a list of per-hypothesis reference lists, got one column")
        return [text_column(references, "references")]
    refs = references if isinstance(references, (list, tuple)) else list(references)
    if len(refs) == 0:
        return [[]] if n_hyps == 0 else []
    if isinstance(refs[0], str):
        if refs_per_hyp:
            raise ValueError("refs_per_hyp=True needs a list of per-hypothesis reference lists, got one column")
        return [refs]
    if refs_per_hyp is None:
        lengths = [_length(r) for r in refs]
        as_streams = all(n == n_hyps for n in lengths)
        as_lists = len(refs) == n_hyps
        if as_streams and as_lists and n_hyps > 1:
            raise ValueError(
                f"references: {n_hyps} lists of {n_hyps} references for {n_hyps} hypotheses read either "
                "as sacreBLEU's reference streams or as one list per hypothesis; say which with "
                "refs_per_hyp=False (streams) or refs_per_hyp=True (per hypothesis)"
            )
        refs_per_hyp = as_lists and not as_streams
    if not refs_per_hyp:
        return [text_column(r, f"references[{k}]") for k, r in enumerate(refs)]
    if len(refs) != n_hyps:
        raise ValueError(f"references: {len(refs)} per-hypothesis lists for {n_hyps} hypotheses")
    lists = [[r] if isinstance(r, str) else list(text_column(r, f"references[{i}]")) for i, r in enumerate(refs)]
    counts = {len(r) for r in lists}
    if len(counts) > 1:
        # Streams need the same count for every hypothesis (sacreBLEU's None padding is not read).
        raise ValueError(
            f"references: hypotheses have different numbers of references ({min(counts)} to {max(counts)}); "
            "give every hypothesis the same number"
        )
    return [list(stream) for stream in zip(*lists)] if lists else []


def _length(obj: Any) -> int:
    try:
        return len(obj)
    except TypeError:
        return -1


def floats(values: Any, what: str) -> bytes:
    """A 1-D float64 column as native-endian bytes."""
    arr = np.asarray(values, dtype=np.float64)
    if arr.ndim != 1:
        raise ValueError(f"{what}: expected a 1-D sequence of numbers, got shape {arr.shape}")
    return np.ascontiguousarray(arr).tobytes()


def column_of(table: Any, name: str) -> Sequence[Any]:
    """Column ``name`` of a pandas/polars DataFrame, a pyarrow Table or a mapping of columns."""
    try:
        col = table[name]
    except (KeyError, IndexError, TypeError, ValueError):
        col = None
    if col is None and hasattr(table, "column"):
        col = table.column(name)
    if col is None:
        columns = list(getattr(table, "columns", None) or getattr(table, "keys", lambda: [])())
        raise KeyError(f"no column {name!r} (columns: {', '.join(map(str, columns))})")
    if hasattr(col, "to_pylist"):
        return list(col.to_pylist())
    if hasattr(col, "tolist"):
        return list(col.tolist())
    return list(col)


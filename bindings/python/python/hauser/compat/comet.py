"""unbabel-comet 2.2.7's Python API over hauser's COMET (``hauser.COMET``), so that a script
runs with ``import hauser.compat.comet as comet`` (or ``from hauser.compat.comet import
download_model, load_from_checkpoint``) in place of ``import comet``:
``load_from_checkpoint(path).predict(samples, batch_size=8, gpus=1)`` returns comet's
``Prediction``: ``scores`` (a list of floats), ``system_score`` (their mean, as comet sums
them), and ``metadata`` where comet's has one, with its keys in its order (the passes'
``src_scores`` / ``ref_scores`` / ``unified_scores``, XCOMET's ``mqm_scores``, ``error_spans``).

Every argument of comet's ``predict`` is honoured or refused: ``batch_size`` is the engine's
batch; ``gpus=0`` runs on the CPU, ``gpus=1`` on a CUDA device when this build and machine have
one and on the CPU otherwise, as Lightning's ``accelerator="auto"`` does (``accelerator="cpu"``
keeps the CPU, ``"gpu"`` / ``"cuda"`` require CUDA); ``length_batching`` and ``num_workers``
change no number here (segments are scored without padding, in this process);
``progress_bar`` draws nothing (hauser's library calls print nothing); ``gpus`` above 1,
``devices`` and ``mc_dropout`` are refused with a ``ValueError``.
"""

import collections
import importlib
from pathlib import Path
from typing import Any, Dict, List, NoReturn, Optional, Sequence, Tuple, Union

from .. import _hauser

__all__ = ["download_model", "load_from_checkpoint", "CometModel", "Prediction"]


class Prediction(collections.OrderedDict[str, Any]):
    """comet's ``Prediction`` (its ``ModelOutput``): an ordered dict whose keys are also
    attributes (``out.scores``, ``out["system_score"]``, ``out.metadata.error_spans``), whose
    integer indices and slices index its values in order (``out[0]`` is ``out.scores``), which
    prints as ``Prediction([('scores', [...]), ...])`` and which refuses ``pop``, ``update``,
    ``setdefault`` and ``del`` as comet's does."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            return super().__getitem__(name)
        except KeyError:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'") from None

    def __getitem__(self, k: Any) -> Any:
        if isinstance(k, str):
            return super().__getitem__(k)
        return self.to_tuple()[k]

    def to_tuple(self) -> Tuple[Any, ...]:
        """The values, in order."""
        return tuple(self[k] for k in self.keys())

    def _refuse(self, what: str) -> NoReturn:
        raise Exception(f"You cannot use ``{what}`` on a {type(self).__name__} instance.")

    def __delitem__(self, *args: Any, **kwargs: Any) -> None:
        self._refuse("__delitem__")

    def setdefault(self, *args: Any, **kwargs: Any) -> Any:
        self._refuse("setdefault")

    def pop(self, *args: Any, **kwargs: Any) -> Any:
        self._refuse("pop")

    def update(self, *args: Any, **kwargs: Any) -> None:
        self._refuse("update")


def download_model(
    model: str,
    saving_directory: Union[str, Path, None] = None,
    local_files_only: bool = False,
) -> str:
    """comet's ``download_model``: the model's ``checkpoints/model.ckpt`` in the Hugging Face
    cache (``huggingface_hub.snapshot_download``; ``saving_directory`` is its cache folder).
    Offline, or without ``huggingface_hub``, comet's ``KeyError``, with the reason."""
    try:
        # Optional: only this function needs it.
        hub: Any = importlib.import_module("huggingface_hub")
    except ImportError as e:
        # comet's error for a model it cannot fetch is a KeyError; so is this one.
        raise KeyError(
            f"Model '{model}' not supported by COMET here: download_model needs huggingface_hub "
            "(pip install huggingface_hub), or give load_from_checkpoint a local checkpoint"
        ) from e
    try:
        path = hub.snapshot_download(repo_id=model, cache_dir=saving_directory, local_files_only=local_files_only)
    except Exception as e:  # the hub's own errors: offline, unknown model, gated
        raise KeyError(f"Model '{model}' not supported by COMET or not reachable: {e}") from e
    return str(Path(path) / "checkpoints" / "model.ckpt")


# The fields each comet model class reads, in the order it reads them.
_NEEDS = {
    "regression_metric": ("src", "mt", "ref"),
    "ranking_metric": ("src", "mt", "ref"),
    "referenceless_regression_metric": ("src", "mt"),
}


def _class_identifier(model_dir: Path) -> str:
    """``class_identifier`` of the model's hparams.yaml (hauser's engine reads the rest)."""
    try:
        text = (model_dir / "hparams.yaml").read_text(encoding="utf-8")
    except OSError:
        return ""
    for line in text.splitlines():
        if line.startswith("class_identifier:"):
            return line.split(":", 1)[1].strip().strip("'\"")
    return ""


def _model_dir(checkpoint_path: Union[str, Path]) -> Path:
    path = Path(checkpoint_path)
    if not path.is_file():
        raise Exception(f"Invalid checkpoint path: {path}")
    # comet reads hparams.yaml from the folder above checkpoints/; so does hauser.
    return path.parents[1]


def load_from_checkpoint(
    checkpoint_path: str,
    reload_hparams: bool = False,
    strict: bool = False,
    local_files_only: bool = False,
) -> "CometModel":
    """comet's ``load_from_checkpoint`` on ``MODEL/checkpoints/model.ckpt``. hauser reads every
    setting from ``hparams.yaml`` and every tensor of the checkpoint (a checkpoint it cannot use
    fully is an error), so ``reload_hparams`` and ``strict`` change nothing; the encoder comes
    from the checkpoint itself, so ``local_files_only`` neither."""
    del reload_hparams, strict, local_files_only
    return CometModel(_model_dir(checkpoint_path))


class CometModel:
    """A loaded checkpoint: ``predict`` as comet's."""

    def __init__(self, model_dir: Path) -> None:
        if not _hauser.NEURAL:
            raise RuntimeError("hauser.compat.comet needs a wheel built with the neural metrics")
        self.model_dir = model_dir
        self._engines: Dict[Any, Any] = {}
        self._class = _class_identifier(model_dir)
        # Loaded once now, so that a bad checkpoint fails here as in comet.
        self._engine(16, "cpu")

    def _engine(self, batch_size: int, device: str) -> Any:
        key = (batch_size, device)
        if key not in self._engines:
            self._engines[key] = _hauser.COMET(str(self.model_dir), batch_size=batch_size, device=device)
        return self._engines[key]

    def _device(self, gpus: int, accelerator: str) -> str:
        if gpus == 0 or accelerator == "cpu":
            return "cpu"
        if accelerator not in ("auto", "gpu", "cuda"):
            raise ValueError(f"accelerator {accelerator!r}: hauser runs on 'cpu' or 'cuda' ('gpu', 'auto')")
        try:
            self._engine(16, "cuda")
            return "cuda"
        except Exception:
            if accelerator == "auto":
                return "cpu"
            raise

    def _check_samples(self, samples: List[Dict[str, str]], length_batching: bool) -> None:
        """comet's errors for samples it cannot score: a ``TypeError`` for none, and a
        ``KeyError`` naming the first field it misses, in the order it reads them: with
        ``length_batching`` it sorts by ``src`` or, where a sample has none, by ``ref``; then
        the model reads ``src``, ``mt``, ``ref`` (regression and ranking models), ``src``,
        ``mt`` (reference-free ones) or ``mt`` (UnifiedMetric, XCOMET)."""
        if not samples:
            raise TypeError("'NoneType' object is not iterable")
        if length_batching and any("src" not in s for s in samples) and any("ref" not in s for s in samples):
            raise KeyError("ref")
        needs = _NEEDS.get(self._class, ("mt",))
        for key in needs:
            if any(key not in s for s in samples):
                raise KeyError(key)

    def predict(
        self,
        samples: Sequence[Dict[str, str]],
        batch_size: int = 16,
        gpus: int = 1,
        devices: Union[List[int], str, int, None] = None,
        mc_dropout: int = 0,
        progress_bar: bool = True,
        accelerator: str = "auto",
        num_workers: Optional[int] = None,
        length_batching: bool = True,
    ) -> Prediction:
        """Scores ``samples`` (dicts of ``src``, ``mt``, ``ref``) as comet's ``predict``."""
        del progress_bar, num_workers
        if gpus > 1:
            raise ValueError(f"gpus={gpus}: hauser scores on one device")
        if devices is not None:
            raise ValueError("devices: hauser picks the device from gpus and accelerator")
        if mc_dropout:
            raise ValueError("mc_dropout: Monte Carlo dropout is not available in hauser")
        samples = list(samples)
        self._check_samples(samples, length_batching)
        out = self._engine(batch_size, self._device(gpus, accelerator)).predict(samples)
        scores = [float(s) for s in out.scores]
        result = Prediction(scores=scores, system_score=sum(scores) / len(scores))
        if out.get("metadata"):
            result["metadata"] = Prediction(
                (k, v.tolist() if hasattr(v, "tolist") else v) for k, v in out.metadata.items()
            )
        return result


def __dir__() -> List[str]:
    return sorted(__all__)

"""Hugging Face evaluate's API (``evaluate.load(name).compute(...)``) over hauser's engine, so that
a script written for evaluate runs with ``import hauser.compat.evaluate as evaluate``.

Each module takes the keyword arguments of its metric script in huggingface/evaluate (commit
a7dd338) with the same defaults, and returns the same value: a dict with the same keys and types
for ``sacrebleu``, ``chrf`` and ``ter`` (sacreBLEU 2.4.3 through :mod:`hauser.compat.sacrebleu`),
``bleu`` (the script's tokenizer_13a and tensorflow/nmt's ``compute_bleu``), ``rouge``
(rouge-score 0.1.2's scorer and, with ``use_aggregator``, its bootstrap aggregator drawn from
the module's ``seed`` as evaluate draws it), ``meteor`` (NLTK 3.10.4's, any alpha, beta, gamma),
a float for ``wer`` and ``cer`` (jiwer 4.0.0's, as evaluate computes them: summed edits over
summed reference lengths, or ``concatenate_texts=True`` for jiwer's own corpus value), and
``comet`` / ``bleurt`` on the checkpoint ``config_name`` names (:mod:`hauser.compat.comet`,
:mod:`hauser.compat.bleurt`), ``bertscore`` through :mod:`hauser.compat.bert_score`.
``add`` / ``add_batch`` collect inputs that the next ``compute`` scores together with its own,
and ``compute`` then starts afresh, as in evaluate. An argument a module does not take is a
``TypeError``, as it is in evaluate; a module that is not here is a ``ValueError`` naming the
ones that are. The input mistakes evaluate's ``EvaluationModule`` catches raise its errors;
``combine`` merges several modules' results as evaluate's does; ``logging`` and the
progress-bar switches are there (nothing here logs or draws a bar).
"""

import functools
import types
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from .. import metrics as _metrics
from . import _evaluate_logging as logging
from . import _evaluate_overlap
from . import sacrebleu as _sacrebleu
from ._evaluate_logging import disable_progress_bar, enable_progress_bar, is_progress_bar_enabled

__all__ = [
    "load",
    "combine",
    "CombinedEvaluations",
    "EvaluationModule",
    "list_evaluation_modules",
    "logging",
    "utils",
    "disable_progress_bar",
    "enable_progress_bar",
    "is_progress_bar_enabled",
]

# evaluate.utils: its logging module and progress-bar switches (evaluate.utils.logging...).
utils = types.SimpleNamespace(
    logging=logging,
    disable_progress_bar=disable_progress_bar,
    enable_progress_bar=enable_progress_bar,
    is_progress_bar_enabled=is_progress_bar_enabled,
)

Result = Union[Dict[str, Any], float, int]


def _references(name: str, references: Sequence[Any]) -> List[List[str]]:
    """evaluate's sacreBLEU scripts: one string per prediction, or the same number of strings for
    every prediction, transposed into sacreBLEU's reference streams."""
    refs = [[r] if isinstance(r, str) else list(r) for r in references]
    per = len(refs[0])
    if any(len(r) != per for r in refs):
        raise ValueError(
            "ChrF, as implemented by sacrebleu, requires the same number of references for each prediction"
            if name == "chrf"
            else "Sacrebleu requires the same number of references for each prediction"
        )
    return [[r[i] for r in refs] for i in range(per)]


def _sacrebleu_compute(
    predictions: List[str],
    references: List[Any],
    smooth_method: str = "exp",
    smooth_value: Optional[float] = None,
    force: bool = False,
    lowercase: bool = False,
    tokenize: Optional[str] = None,
    use_effective_order: bool = False,
) -> Dict[str, Any]:
    output = _sacrebleu.corpus_bleu(
        predictions,
        _references("sacrebleu", references),
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        force=force,
        lowercase=lowercase,
        use_effective_order=use_effective_order,
        **(dict(tokenize=tokenize) if tokenize else {}),
    )
    return {
        "score": output.score,
        "counts": output.counts,
        "totals": output.totals,
        "precisions": output.precisions,
        "bp": output.bp,
        "sys_len": output.sys_len,
        "ref_len": output.ref_len,
    }


def _chrf_compute(
    predictions: List[str],
    references: List[Any],
    char_order: int = _sacrebleu.CHRF.CHAR_ORDER,
    word_order: int = _sacrebleu.CHRF.WORD_ORDER,
    beta: int = _sacrebleu.CHRF.BETA,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
) -> Dict[str, Any]:
    chrf = _sacrebleu.CHRF(char_order, word_order, beta, lowercase, whitespace, eps_smoothing)
    output = chrf.corpus_score(predictions, _references("chrf", references))
    return {
        "score": output.score,
        "char_order": output.char_order,
        "word_order": output.word_order,
        "beta": output.beta,
    }


def _ter_compute(
    predictions: List[str],
    references: List[Any],
    normalized: bool = False,
    ignore_punct: bool = False,
    support_zh_ja_chars: bool = False,
    case_sensitive: bool = False,
) -> Dict[str, Any]:
    ter = _sacrebleu.TER(
        normalized=normalized,
        no_punct=ignore_punct,
        asian_support=support_zh_ja_chars,
        case_sensitive=case_sensitive,
    )
    output = ter.corpus_score(predictions, _references("ter", references))
    return {"score": output.score, "num_edits": output.num_edits, "ref_length": output.ref_length}


def _meteor_compute(
    predictions: List[str],
    references: List[Any],
    alpha: float = 0.9,
    beta: float = 3,
    gamma: float = 0.5,
) -> Dict[str, Any]:
    """evaluate's meteor with NLTK >= 3.6.5: NLTK 3.10.4's ``meteor_score`` on ``word_tokenize``
    tokens (``hauser metric meteor``, WordNet 3.0 from ``/usr/share/wordnet``) with the given
    ``alpha``, ``beta`` and ``gamma``, the mean over predictions as a NumPy float."""
    import numpy as np

    multiple_refs = isinstance(references[0], (list, tuple))  # IndexError without inputs, as there
    refs = [list(r) if multiple_refs else [r] for r in references]
    if any(not r for r in refs):  # NLTK's max over no reference
        raise ValueError("max() arg is an empty sequence")
    metric = _metrics.Metric("meteor", meteor_alpha=alpha, meteor_beta=beta, meteor_gamma=gamma)
    try:
        scores = _evaluate_overlap.per_reference_count(
            list(zip(refs, predictions)), lambda hyps, rs: list(metric.sentence(hyps, rs, refs_per_hyp=True))
        )
    except ValueError as e:
        # NLTK's `frag_frac ** beta` overflowing (a very negative beta) is Python's OverflowError.
        if str(e).startswith("meteor: numerical result out of range"):
            raise OverflowError(34, "Numerical result out of range") from None
        raise
    return {"meteor": np.mean(np.asarray(scores, dtype=np.float64))}


def _error_rate(name: str) -> Callable[..., Union[float, int]]:
    """evaluate's wer / cer with jiwer 4: without ``concatenate_texts``, the edits of every pair
    over their reference lengths (a ``ZeroDivisionError`` when all references are empty, as
    there); with it, jiwer's value over the whole list."""

    def compute(
        predictions: List[str], references: List[str], concatenate_texts: bool = False
    ) -> Union[float, int]:
        metric = _metrics.Metric(name)
        hyps, refs = list(predictions), [list(references)]
        incorrect = total = 0
        for d in metric.sentence_details(hyps, refs, refs_per_hyp=False):
            incorrect += d["substitutions"] + d["deletions"] + d["insertions"]
            total += d["substitutions"] + d["deletions"] + d["hits"]
        # jiwer's value of the whole list is the same quotient of the same sums, except that
        # when every reference is empty it is the number of insertions (an int) where the
        # script's own sum divides by zero.
        if concatenate_texts and total == 0:
            return incorrect
        return incorrect / total

    return compute


def _comet(config_name: str) -> Callable[..., Result]:
    """evaluate's comet: the checkpoint ``config_name`` names (a hub id through
    ``download_model``, or here also a local ``model.ckpt`` or model folder; default
    Unbabel/wmt22-comet-da), loaded when the module is."""
    from pathlib import Path

    from . import comet

    name = "Unbabel/wmt22-comet-da" if config_name == "default" else config_name
    local = Path(name)
    if local.is_dir():
        local = local / "checkpoints" / "model.ckpt"
    scorer = comet.load_from_checkpoint(str(local) if local.is_file() else comet.download_model(name))

    def compute(
        sources: List[str],
        predictions: List[str],
        references: List[str],
        gpus: Optional[int] = None,
        progress_bar: bool = False,
    ) -> Dict[str, Any]:
        data = [{"src": s, "mt": m, "ref": r} for s, m, r in zip(sources, predictions, references)]
        # evaluate: a GPU when torch sees one; here, when hauser's build and machine have one.
        output = scorer.predict(data, gpus=1 if gpus is None else gpus, progress_bar=progress_bar)
        return {"mean_score": output.system_score, "scores": output.scores}

    return compute


def _bleurt(config_name: str) -> Callable[..., Result]:
    """evaluate's bleurt on a local bleurt-pytorch checkpoint folder (``config_name``); BLEURT's
    TensorFlow checkpoint names, which evaluate downloads, are refused."""
    from pathlib import Path

    from .bleurt import score

    if not Path(config_name).is_dir():
        raise KeyError(
            f"{config_name} model not found: give config_name a local BLEURT checkpoint folder "
            "(bleurt-pytorch form); BLEURT's TensorFlow checkpoints are not loaded"
        )
    scorer = score.BleurtScorer(config_name)

    def compute(predictions: List[str], references: List[str]) -> Dict[str, Any]:
        return {"scores": scorer.score(references=references, candidates=predictions)}

    return compute


def _bertscore(config_name: str) -> Callable[..., Result]:
    """evaluate's bertscore: bert_score 0.3.13's ``score`` (:mod:`hauser.compat.bert_score`)
    with the script's arguments, as lists and the setting's hash."""
    del config_name

    def compute(
        predictions: List[str],
        references: List[Any],
        lang: Optional[str] = None,
        model_type: Optional[str] = None,
        num_layers: Optional[int] = None,
        verbose: bool = False,
        idf: bool = False,
        device: Optional[str] = None,
        batch_size: int = 64,
        nthreads: int = 4,
        all_layers: bool = False,
        rescale_with_baseline: bool = False,
        baseline_path: Optional[str] = None,
        use_fast_tokenizer: bool = False,
    ) -> Dict[str, Any]:
        from . import bert_score

        if model_type is None and lang is None:
            raise ValueError(
                "Either 'lang' (e.g. 'en') or 'model_type' (e.g. 'microsoft/deberta-xlarge-mnli')"
                " must be specified"
            )
        refs = [[r] if isinstance(r, str) else list(r) for r in references]
        (p, r, f), hashcode = bert_score.score(
            predictions,
            refs,
            model_type=model_type,
            num_layers=num_layers,
            verbose=verbose,
            idf=idf,
            device=device,
            batch_size=batch_size,
            nthreads=nthreads,
            all_layers=all_layers,
            lang=lang,
            return_hash=True,
            rescale_with_baseline=rescale_with_baseline,
            baseline_path=baseline_path,
            use_fast_tokenizer=use_fast_tokenizer,
        )
        return {"precision": p.tolist(), "recall": r.tolist(), "f1": f.tolist(), "hashcode": hashcode}

    return compute


_TEXT = ["predictions", "references"]
# name -> (input features, the module's compute for a configuration name and the module's seed)
_MODULES: Dict[str, Tuple[List[str], Callable[[str, Any], Callable[..., Result]]]] = {
    "sacrebleu": (_TEXT, lambda _c, _s: _sacrebleu_compute),
    "bleu": (_TEXT, lambda _c, _s: _evaluate_overlap.bleu_compute),
    "chrf": (_TEXT, lambda _c, _s: _chrf_compute),
    "ter": (_TEXT, lambda _c, _s: _ter_compute),
    "rouge": (_TEXT, lambda _c, seed: functools.partial(_evaluate_overlap.rouge_compute, seed)),
    "wer": (_TEXT, lambda _c, _s: _error_rate("wer")),
    "cer": (_TEXT, lambda _c, _s: _error_rate("cer")),
    "comet": (["sources", *_TEXT], lambda c, _s: _comet(c)),
    "bleurt": (_TEXT, lambda c, _s: _bleurt(c)),
    "bertscore": (_TEXT, lambda c, _s: _bertscore(c)),
    "meteor": (_TEXT, lambda _c, _s: _meteor_compute),
}
_CONFIGURED = {"comet", "bleurt"}
# The modules whose features take one reference string per prediction (the others also take a
# list of them).
_STRING_REFERENCES = {"wer", "cer", "comet", "bleurt"}
# evaluate's module names (camelcase_to_snakecase of the scripts' classes) where they are not the
# names load takes.
_SNAKE_NAMES = {"chrf": "chr_f", "bertscore": "bert_score"}


def _rows(column: Any) -> Any:
    """A column as evaluate's scripts get it after ``datasets`` casting: NumPy arrays and pandas
    columns (and arrays of references within them) as lists."""
    if column is None or isinstance(column, str):
        return column
    if isinstance(column, (list, tuple)):
        rows = column
    elif hasattr(column, "tolist"):
        rows = column.tolist()
    else:
        return column
    if not isinstance(rows, list):  # a 0-d array's item
        return rows
    return [r.tolist() if hasattr(r, "tolist") and not isinstance(r, str) else r for r in rows]


def _summary(column: Any) -> str:
    """evaluate's summarize_if_long_list."""
    if not isinstance(column, list) or len(column) <= 6:
        return f"{column}"
    return f"[{', '.join(repr(x) for x in column[:3])}, ..., {', '.join(repr(x) for x in column[-3:])}]"


def list_evaluation_modules() -> List[str]:
    """The modules this package has (evaluate's names)."""
    return sorted(_MODULES)


class EvaluationModule:
    """One loaded module: ``compute``, ``add``, ``add_batch``, as evaluate's."""

    def __init__(self, name: str, config_name: str = "default", seed: Optional[int] = None) -> None:
        self._module = name
        # evaluate's name of the module: its script's class name in snake case (ChrF: chr_f).
        self.name = _SNAKE_NAMES.get(name, name)
        self.config_name = config_name
        # evaluate's seed: the given one, else one read from NumPy's global generator now; each
        # compute draws from it afresh (rouge's bootstrap aggregator is the only module that draws).
        if seed is None:
            import numpy as np

            state: Any = np.random.get_state()
            keys, pos = state[1], state[2]
            self.seed: Any = keys[pos] if pos < 624 else keys[0]
        else:
            self.seed = seed
        features, make = _MODULES[name]
        self._features = features
        self._compute = make(config_name, self.seed)
        self._inputs: Dict[str, List[Any]] = {f: [] for f in features}
        self._started = False  # evaluate's writer: whether add / add_batch ran since compute

    def add(self, *, prediction: Any = None, reference: Any = None, **kwargs: Any) -> None:
        """Adds one prediction and its reference(s) (and, for comet, ``sources=`` its source) for
        the next ``compute``."""
        self._bad_inputs(kwargs)
        one = {"predictions": prediction, "references": reference, **kwargs}
        self.add_batch(**{k: [v] for k, v in one.items()})

    def _bad_inputs(self, kwargs: Dict[str, Any]) -> None:
        bad = [k for k in kwargs if k not in self._features]
        if bad:
            raise ValueError(f"Bad inputs for evaluation module: {bad}. All required inputs are {self._features}")

    def _check_format(self, key: str, first: Any) -> bool:
        """evaluate's check of a batch's first example against the module's features: a string,
        or for the modules whose references may be several, a list (or tuple) of strings."""
        if isinstance(first, str):
            return True
        return (
            key == "references"
            and self._module not in _STRING_REFERENCES
            and isinstance(first, (list, tuple))
            and all(isinstance(r, str) for r in first)
        )

    def add_batch(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> None:
        """Adds predictions and their references (and sources, for comet) for the next
        ``compute``."""
        self._bad_inputs(kwargs)
        given = {"predictions": predictions, "references": references, **kwargs}
        # comet without sources: KeyError, as there; NumPy arrays and pandas columns as lists,
        # as datasets casts them.
        batch = {f: _rows(given[f]) for f in self._features}
        several = self._module not in _STRING_REFERENCES
        if several and any(v is None for v in batch.values()):
            # evaluate infers which of the module's two feature forms the batch has from its
            # first example.
            raise TypeError("'NoneType' object is not subscriptable")
        lengths = {f: len(v) for f, v in batch.items()}  # None: TypeError, as there
        first = self._features[0]
        bad_len = [f for f in batch if lengths[f] != lengths[first]]
        if bad_len:
            raise ValueError(
                f"Mismatch in the number of {first} ({lengths[first]}) and {bad_len[0]} ({lengths[bad_len[0]]})"
            )
        if any(lengths[f] and not self._check_format(f, v[0]) for f, v in batch.items()):
            if several:
                example = {f: v[0] if lengths[f] else None for f, v in batch.items()}
                raise ValueError(
                    "Predictions and/or references don't match the expected format.\nExpected format:\n"
                    f"Feature option 0: {self._format(True)}\nFeature option 1: {self._format(False)},\n"
                    f"Input predictions: {_summary(example['predictions'])},\n"
                    f"Input references: {_summary(example['references'])}"
                )
            inputs = ",\n".join(f"Input {k}: {_summary(batch[k])}" for k in self._features)
            raise ValueError(
                ("Predictions and/or references don't match the expected format.\n" if len(batch) == 2
                 else "Module inputs don't match the expected format.\n")
                + f"Expected format: {self._format(False)},\n{inputs}"
            )
        for f, v in batch.items():
            self._inputs[f] += list(v)
        self._started = True

    def _format(self, several: bool) -> str:
        """The module's features as ``datasets`` prints them, with one or several references."""
        ref = "List(Value('string'))" if several else "Value('string')"
        value = "Value('string')"
        return "{" + ", ".join(f"'{f}': {ref if f == 'references' else value}" for f in self._features) + "}"

    def compute(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> Result:
        """Scores what was added and the given inputs, with the module's options as keyword
        arguments; then forgets the inputs. As in evaluate, an input given as ``None`` (or
        left out, for ``predictions`` and ``references``) with another input given is a
        ``TypeError``, an input the module has that is not given at all a ``ValueError``, and
        ``compute()`` with nothing added a ``ValueError``."""
        given = {"predictions": predictions, "references": references, **kwargs}
        if predictions is None and references is None:
            given.update({f: None for f in self._features if f not in given})
        else:
            missing = [f for f in self._features if f not in given]
            if missing:
                raise ValueError(
                    f"Evaluation module inputs are missing: {missing}. All required inputs are {self._features}"
                )
        inputs = {f: given[f] for f in self._features}
        options = {k: v for k, v in kwargs.items() if k not in self._features}
        if any(v is not None for v in inputs.values()):
            self.add_batch(**inputs)
        if not self._started:
            raise ValueError(
                "Evaluation module cache file doesn't exist. Please make sure that you call `add` or "
                "`add_batch` at least once before calling `compute`."
            )
        data, self._inputs = self._inputs, {f: [] for f in self._features}
        self._started = False
        return self._compute(**data, **options)

    def __repr__(self) -> str:
        return f'EvaluationModule(name: "{self.name}", module_type: "metric")'


def load(
    path: str,
    config_name: Optional[str] = None,
    module_type: Optional[str] = None,
    process_id: int = 0,
    num_process: int = 1,
    cache_dir: Optional[str] = None,
    experiment_id: Optional[str] = None,
    keep_in_memory: bool = False,
    download_config: Any = None,
    download_mode: Any = None,
    revision: Optional[str] = None,
    *,
    seed: Optional[int] = None,
) -> EvaluationModule:
    """evaluate's ``load``, with its arguments in its order: ``path`` is the module's name
    (``"sacrebleu"``, or the hub id ``"evaluate-metric/sacrebleu"``). Everything is kept in
    memory and nothing is downloaded or cached, so ``keep_in_memory``, ``cache_dir``,
    ``experiment_id``, ``download_config`` and ``download_mode`` change nothing; ``revision``
    can only be ``None`` (the scripts are those of commit a7dd338); one process only
    (``process_id`` 0, ``num_process`` 1). ``config_name`` is comet's checkpoint and bleurt's;
    the other metrics have none (``None`` or ``"default"``). ``seed`` is the module's, as in
    evaluate (what rouge's bootstrap aggregator draws from)."""
    del cache_dir, experiment_id, download_config, download_mode
    if revision is not None:
        raise ValueError(
            f"revision={revision!r}: hauser.compat.evaluate has the metric scripts of huggingface/evaluate a7dd338"
        )
    name = path[len("evaluate-metric/"):] if path.startswith("evaluate-metric/") else path
    if name not in _MODULES:
        raise ValueError(f"hauser.compat.evaluate has no module {path!r}; it has {', '.join(list_evaluation_modules())}")
    if config_name not in (None, "default") and name not in _CONFIGURED:
        raise ValueError(f"{name} has no configuration {config_name!r}")
    if module_type not in (None, "metric"):
        raise ValueError(f"{name} is a metric, not a {module_type}")
    if process_id != 0 or num_process != 1:
        raise ValueError("hauser.compat.evaluate runs in one process (process_id=0, num_process=1)")
    del keep_in_memory
    return EvaluationModule(name, config_name or "default", seed)


class CombinedEvaluations:
    """evaluate's ``combine``: several modules fed the same inputs, their results merged into one
    dict; a key two modules return (or every key, with ``force_prefix``) is prefixed with its
    module's name (and a count where two modules have one name), as in evaluate."""

    def __init__(
        self, evaluation_modules: Union[List[Any], Dict[str, Any]], force_prefix: bool = False
    ) -> None:
        names: Optional[List[str]] = None
        if isinstance(evaluation_modules, dict):
            modules = list(evaluation_modules.values())
            names = list(evaluation_modules.keys())
        else:
            modules = list(evaluation_modules)
        self.evaluation_modules: List[EvaluationModule] = [
            load(m) if isinstance(m, str) else m for m in modules
        ]
        self.evaluation_module_names: List[str] = (
            names if names is not None else [m.name for m in self.evaluation_modules]
        )
        self.force_prefix = force_prefix

    def add(self, prediction: Any = None, reference: Any = None, **kwargs: Any) -> None:
        for module in self.evaluation_modules:
            one = {"predictions": prediction, "references": reference, **kwargs}
            module.add(**{f: one[f] for f in module._features})

    def add_batch(self, predictions: Any = None, references: Any = None, **kwargs: Any) -> None:
        for module in self.evaluation_modules:
            batch = {"predictions": predictions, "references": references, **kwargs}
            module.add_batch(**{f: batch[f] for f in module._features})

    def compute(self, predictions: Any = None, references: Any = None, **kwargs: Any) -> Dict[str, Any]:
        results = [
            m.compute(predictions=predictions, references=references, **kwargs) for m in self.evaluation_modules
        ]
        return self._merge_results(results)

    def _merge_results(self, results: List[Any]) -> Dict[str, Any]:
        import collections
        import itertools

        merged: Dict[str, Any] = {}
        keys = list(itertools.chain.from_iterable([r.keys() for r in results]))
        duplicate_keys = {k for k, n in collections.Counter(keys).items() if n > 1}
        duplicate_names = [k for k, n in collections.Counter(self.evaluation_module_names).items() if n > 1]
        counter = {name: 0 for name in duplicate_names}
        for name, result in zip(self.evaluation_module_names, results):
            for k, v in result.items():
                if k not in duplicate_keys and not self.force_prefix:
                    merged[f"{k}"] = v
                elif name in counter:
                    merged[f"{name}_{counter[name]}_{k}"] = v
                else:
                    merged[f"{name}_{k}"] = v
            if name in counter:
                counter[name] += 1
        return merged


def combine(evaluations: Union[List[Any], Dict[str, Any]], force_prefix: bool = False) -> CombinedEvaluations:
    """evaluate's ``combine``: the modules (names or loaded modules; a dict names them) as one."""
    return CombinedEvaluations(evaluations, force_prefix=force_prefix)


def __dir__() -> List[str]:
    return sorted(__all__)

"""sacreBLEU 2.4.3's ``sacrebleu.metrics``: the ``BLEU``, ``CHRF`` and ``TER`` classes, their
score objects and signatures, with the statistics computed by hauser's engine (the numbers of
``hauser metric``, equal to sacreBLEU's). The classes keep sacreBLEU's constructor arguments,
attributes, warnings (logger ``"sacrebleu"``) and errors; see :mod:`hauser.compat.sacrebleu`
for the few differences."""

from __future__ import annotations

import json
import logging
import os
import statistics
from typing import Any, Dict, List, Optional, Sequence, Tuple, Type

from ... import metrics as _metrics

#: The sacreBLEU release whose behaviour this module reproduces; signatures carry it.
SACREBLEU_VERSION = "2.4.3"

# sacreBLEU's own logger name, so that a script's logging setup for sacreBLEU applies.
sacrelogger = logging.getLogger("sacrebleu")

__all__ = [
    "BLEU",
    "CHRF",
    "TER",
    "BLEUScore",
    "CHRFScore",
    "TERScore",
    "Score",
    "Signature",
    "BLEUSignature",
    "CHRFSignature",
    "TERSignature",
    "Metric",
    "SACREBLEU_VERSION",
]


def __dir__() -> List[str]:
    return sorted(__all__)


class Score:
    """A metric's value with sacreBLEU's formatting: ``name``, ``score`` and, after
    ``corpus_score(..., n_bootstrap=N)``, the bootstrap mean and 95% half-width."""

    def __init__(self, name: str, score: float) -> None:
        self.name = name
        self.score = score
        self._mean = -1.0
        self._ci = -1.0
        self._verbose = ""

    def format(
        self, width: int = 2, score_only: bool = False, signature: str = "", is_json: bool = False
    ) -> str:
        """sacreBLEU's ``Score.format``: ``NAME[|SIGNATURE] = SCORE [(μ = MEAN ± CI)] [VERBOSE]``,
        the score alone, or the JSON object the command line prints."""
        sc = f"{self.score:.{width}f}"
        d: Dict[str, Any] = {"name": self.name, "score": float(sc), "signature": signature}
        if self._mean > 0:
            mean = f"{self._mean:.{width}f}"
            var = f"{self._ci:.{width}f}"
            confidence = f"μ = {mean} ± {var}"
            sc += f" ({confidence})"
            if is_json:
                d["confidence_mean"] = float(mean)
                d["confidence_var"] = float(var)
                d["confidence"] = confidence
        line = f"{self.name}|{signature}" if signature else self.name
        line = f"{line} = {sc}"
        if self._verbose:
            line += f" {self._verbose}"
            d["verbose_score"] = self._verbose
        if score_only:
            return sc
        if is_json:
            for field in signature.split("|"):
                key, value = field.split(":")
                d[key] = value
            return json.dumps(d, indent=1, ensure_ascii=False)
        return line

    def estimate_ci(self, scores: List["Score"]) -> None:
        """The mean of bootstrap ``scores`` and half the width of their 95% interval (the 1/40
        quantiles), as sacreBLEU stores them."""
        raw = sorted(x.score for x in scores)
        low = len(raw) // 40
        self._ci = 0.5 * (raw[len(raw) - low - 1] - raw[low])
        self._mean = statistics.mean(raw)

    def __repr__(self) -> str:
        return self.format()


class BLEUScore(Score):
    """A BLEU score with its n-gram ``counts`` and ``totals``, ``precisions``, brevity
    penalty ``bp``, ``sys_len``, ``ref_len`` and ``ratio``."""

    def __init__(
        self,
        score: float,
        counts: List[int],
        totals: List[int],
        precisions: List[float],
        bp: float,
        sys_len: int,
        ref_len: int,
    ) -> None:
        super().__init__("BLEU", score)
        self.bp = bp
        self.counts = counts
        self.totals = totals
        self.sys_len = sys_len
        self.ref_len = ref_len
        self.precisions = precisions
        self.prec_str = "/".join(f"{p:.1f}" for p in precisions)
        self.ratio = sys_len / ref_len if ref_len else 0
        self._verbose = (
            f"{self.prec_str} (BP = {bp:.3f} ratio = {self.ratio:.3f} "
            f"hyp_len = {sys_len:d} ref_len = {ref_len:d})"
        )


class CHRFScore(Score):
    """A chrF score (``chrF2``, ``chrF2++`` for word order 2) with its orders and beta."""

    def __init__(self, score: float, char_order: int, word_order: int, beta: int) -> None:
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        super().__init__(f"chrF{beta}" + "+" * word_order, score)


class TERScore(Score):
    """A TER score with the total edits and the summed average reference length."""

    def __init__(self, score: float, num_edits: float, ref_length: float) -> None:
        super().__init__("TER", score)
        self.num_edits = int(num_edits)
        self.ref_length = ref_length


class Signature:
    """sacreBLEU's reproducibility signature: ``nrefs`` and the resampling settings, then the
    metric's options, then ``version`` (``format(short=True)`` abbreviates the keys)."""

    def __init__(self, args: Dict[str, Any]) -> None:
        self._abbr = {
            "version": "v",
            "nrefs": "#",
            "test": "t",
            "lang": "l",
            "subset": "S",
            "origlang": "o",
            "bs": "bs",
            "ar": "ar",
            "seed": "rs",
        }
        if "num_refs" not in args:
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        num_refs = args["num_refs"]
        self.info: Dict[str, Any] = {
            "version": SACREBLEU_VERSION,
            "nrefs": "var" if num_refs == -1 else num_refs,
            "bs": args.get("n_bootstrap", None),
            "ar": None,
            "seed": args.get("seed", None),
            "test": args.get("test_set", None),
            "lang": args.get("langpair", None),
            "origlang": args.get("origlang", None),
            "subset": args.get("subset", None),
        }

    def format(self, short: bool = False) -> str:
        """``key:value`` pairs joined by ``|``, ``version`` last, unset keys left out."""
        keys = [k for k in self.info if k != "version"] + ["version"]
        pairs = []
        for key in keys:
            value = self.info[key]
            if value is None:
                continue
            if isinstance(value, bool):
                value = "yes" if value else "no"
            pairs.append(f"{self._abbr[key] if short else key}:{value}")
        return "|".join(pairs)

    def update(self, key: str, value: Any) -> None:
        """Sets ``key`` (e.g. ``"test"`` or ``"lang"``) to ``value``."""
        self.info[key] = value

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return self.format()


class BLEUSignature(Signature):
    """BLEU's signature: case, effective order, tokenizer, smoothing (with its value)."""

    def __init__(self, args: Dict[str, Any]) -> None:
        super().__init__(args)
        self._abbr.update({"case": "c", "eff": "e", "tok": "tok", "smooth": "s"})
        smooth = args["smooth_method"]
        default = BLEU.SMOOTH_DEFAULTS[smooth]
        if default is not None:
            value = args["smooth_value"]
            smooth += f"[{(default if value is None else value):.2f}]"
        self.info.update(
            {
                "case": "lc" if args["lowercase"] else "mixed",
                "eff": "yes" if args["effective_order"] else "no",
                "tok": args["tokenizer_signature"],
                "smooth": smooth,
            }
        )


class CHRFSignature(Signature):
    """chrF's signature: case, effective order, character and word orders, whitespace."""

    def __init__(self, args: Dict[str, Any]) -> None:
        super().__init__(args)
        self._abbr.update({"case": "c", "eff": "e", "nc": "nc", "nw": "nw", "space": "s"})
        self.info.update(
            {
                "case": "lc" if args["lowercase"] else "mixed",
                "eff": "yes" if not args["eps_smoothing"] else "no",
                "nc": args["char_order"],
                "nw": args["word_order"],
                "space": "yes" if args["whitespace"] else "no",
            }
        )


class TERSignature(Signature):
    """TER's signature: case, tokenizer, normalisation, punctuation, Asian support."""

    def __init__(self, args: Dict[str, Any]) -> None:
        super().__init__(args)
        self._abbr.update({"case": "c", "tok": "t", "norm": "nr", "punct": "pn", "asian": "as"})
        self.info.update(
            {
                "case": "mixed" if args["case_sensitive"] else "lc",
                "tok": args["tokenizer_signature"],
                "norm": args["normalized"],
                "punct": not args["no_punct"],
                "asian": args["asian_support"],
            }
        )


def _bootstrap_seed() -> Tuple[str, Optional[int]]:
    """``SACREBLEU_SEED`` as sacreBLEU reads it: default 12345, ``none`` for an unseeded run."""
    seed = os.environ.get("SACREBLEU_SEED", "12345")
    if seed.lower() == "none":
        return "none", None
    value = int(seed)
    if value < 0:
        # NumPy's default_rng refuses a negative seed; so does the engine, said plainly.
        raise ValueError(f"SACREBLEU_SEED={seed}: expected a non-negative integer or 'None'")
    return str(value), value


class Metric:
    """What the three metrics share: argument checks, reference caching, bootstrap, signature."""

    _SIGNATURE_TYPE: Type[Signature] = Signature
    _ENGINE_NAME = ""

    def __init__(self) -> None:
        self._ref_cache: Optional[List[List[str]]] = None
        self._force = True
        self.n_bootstrap: Optional[int] = None
        self.seed: Optional[str] = None

    def _options(self) -> Dict[str, Any]:
        raise NotImplementedError

    def _engine(self) -> Any:
        return _metrics._engine(self._ENGINE_NAME, self._options())

    def _make_score(self, value: float, details: Dict[str, Any]) -> Score:
        raise NotImplementedError

    def _check_sentence_score_args(self, hyp: Any, refs: Any) -> None:
        prefix = type(self).__name__
        err = None
        if not isinstance(hyp, str):
            err = "The argument `hyp` should be a string."
        elif isinstance(refs, str) or not isinstance(refs, Sequence):
            err = "The argument `refs` should be a sequence of strings."
        elif not isinstance(refs[0], str) and refs[0] is not None:
            err = "Each element of `refs` should be a string."
        if err:
            raise TypeError(f"{prefix}: {err}")

    def _check_corpus_score_args(self, hyps: Any, refs: Any) -> None:
        prefix = type(self).__name__
        err = None
        if not isinstance(hyps, Sequence):
            err = "`hyps` should be a sequence of strings."
        elif not isinstance(hyps[0], str):
            err = "Each element of `hyps` should be a string."
        elif any(line is None for line in hyps):
            err = "Undefined line in hypotheses stream!"
        if refs is not None:
            if not isinstance(refs, Sequence):
                err = "`refs` should be a sequence of sequence of strings."
            elif not isinstance(refs[0], Sequence):
                err = "Each element of `refs` should be a sequence of strings."
            elif not isinstance(refs[0][0], str) and refs[0][0] is not None:
                err = "`refs` should be a sequence of sequence of strings."
        if err:
            raise TypeError(f"{prefix}: {err}")

    def _streams(self, references: Any) -> List[List[str]]:
        """The reference streams, checked: every stream a list of ``str`` (``None`` entries,
        sacreBLEU's variable reference counts, are refused rather than guessed)."""
        streams = [list(s) for s in references]
        for k, stream in enumerate(streams):
            for i, line in enumerate(stream):
                if not isinstance(line, str):
                    raise TypeError(
                        f"{type(self).__name__}: reference stream {k}, line {i + 1} is "
                        f"{type(line).__name__}; variable numbers of references (None) are not supported"
                    )
        # sacreBLEU decides the reference count here; the signature reads it.
        self.num_refs = len(streams)
        return streams

    def _cache_references(self, references: Sequence[Sequence[str]]) -> List[List[str]]:
        return self._streams(references)

    def _warn_tokenized(self, hypotheses: Sequence[str]) -> None:
        if self._force:
            return
        if sum(1 for h in hypotheses if h.endswith(" .")) >= 100:
            sacrelogger.warning("That's 100 lines that end in a tokenized period ('.')")
            sacrelogger.warning(
                "It looks like you forgot to detokenize your test data, which may hurt your score."
            )
            sacrelogger.warning(
                "If you insist your data is detokenized, or don't care, you can suppress this message with the `force` parameter."
            )

    def _score(self, hypotheses: List[str], streams: List[List[str]]) -> Score:
        self._warn_tokenized(hypotheses)
        value, _signature, details = self._engine().corpus_details(hypotheses, streams)
        return self._make_score(value, details)

    def _references(self, references: Optional[Sequence[Sequence[str]]]) -> List[List[str]]:
        if references:
            return self._streams(references)
        if self._ref_cache:
            return self._ref_cache
        raise RuntimeError("No references provided and the cache is empty.")

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> Any:
        """The score of one hypothesis against its references (a list of ``str``)."""
        self._check_sentence_score_args(hypothesis, references)
        return self._score([hypothesis], self._streams([[r] for r in references]))

    def corpus_score(
        self,
        hypotheses: Sequence[str],
        references: Optional[Sequence[Sequence[str]]],
        n_bootstrap: int = 1,
    ) -> Any:
        """The corpus score of ``hypotheses`` against reference streams (``None``: the
        references given to the constructor); ``n_bootstrap`` > 1 adds sacreBLEU's bootstrap
        mean and 95% interval, seeded by ``SACREBLEU_SEED``."""
        self._check_corpus_score_args(hypotheses, references)
        hyps = list(hypotheses)
        streams = self._references(references)
        score = self._score(hyps, streams)
        if n_bootstrap > 1:
            seed_str, seed = _bootstrap_seed()
            record = self._engine().confidence(hyps, streams, n_bootstrap, seed)
            self.n_bootstrap = n_bootstrap
            self.seed = seed_str
            score._mean = record["confidence_mean"]
            score._ci = record["confidence_var"]
        return score

    def get_signature(self) -> Signature:
        """The signature of the last evaluation (its reference count and resampling)."""
        signature: Signature = self._SIGNATURE_TYPE(self.__dict__)
        return signature


class BLEU(Metric):
    """sacreBLEU's ``BLEU``: ``lowercase``, ``force`` (warn about tokenized input unless set),
    ``tokenize`` (default ``13a``, or the target language's), ``smooth_method`` (``exp``,
    ``floor``, ``add-k``, ``none``) and ``smooth_value``, ``max_ngram_order``,
    ``effective_order``, ``trg_lang`` and cached ``references``."""

    SMOOTH_DEFAULTS: Dict[str, Optional[float]] = {
        "none": None,
        "floor": 0.1,
        "add-k": 1,
        "exp": None,
    }
    TOKENIZERS = ("none", "zh", "13a", "intl", "char", "ja-mecab", "ko-mecab", "spm", "flores101", "flores200")
    TOKENIZER_DEFAULT = "13a"
    _TOKENIZER_MAP = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}
    _SIGNATURE_TYPE = BLEUSignature
    _ENGINE_NAME = "bleu"

    def __init__(
        self,
        lowercase: bool = False,
        force: bool = False,
        tokenize: Optional[str] = None,
        smooth_method: str = "exp",
        smooth_value: Optional[float] = None,
        max_ngram_order: int = 4,
        effective_order: bool = False,
        trg_lang: str = "",
        references: Optional[Sequence[Sequence[str]]] = None,
    ) -> None:
        super().__init__()
        self._force = force
        self.trg_lang = trg_lang
        self.lowercase = lowercase
        self.smooth_value = smooth_value
        self.smooth_method = smooth_method
        self.max_ngram_order = max_ngram_order
        self.effective_order = effective_order
        assert self.smooth_method in self.SMOOTH_DEFAULTS, "Unknown smooth_method {self.smooth_method!r}"
        if tokenize is None:
            tokenize = self._TOKENIZER_MAP.get(trg_lang, self.TOKENIZER_DEFAULT)
        else:
            for lang, best, advice in (
                ("zh", "zh", "'zh' or 'spm' tokenizer for Chinese"),
                ("ja", "ja-mecab", "'ja-mecab' or 'spm' tokenizer for Japanese"),
                ("ko", "ko-mecab", "'ko-mecab' or 'spm' tokenizer for Korean"),
            ):
                if trg_lang == lang and tokenize != best:
                    sacrelogger.warning(f"Consider using the {advice}.")
        self.tokenize = tokenize
        # The engine checks the options now (an unknown tokenizer fails here, as in sacreBLEU).
        self.tokenizer_signature = _field(self._engine().signature(0, 1), "tok")
        if references is not None:
            self._ref_cache = self._cache_references(references)

    def _options(self) -> Dict[str, Any]:
        return {
            "smooth_method": self.smooth_method,
            "smooth_value": self.smooth_value,
            "lowercase": self.lowercase,
            "tokenize": self.tokenize,
            "effective_order": self.effective_order,
            "max_ngram_order": self.max_ngram_order,
        }

    def _make_score(self, value: float, details: Dict[str, Any]) -> Score:
        counts, totals = self._sacre_counts(details["counts"], details["totals"])
        return BLEUScore(
            value,
            counts,
            totals,
            list(details["precisions"]),
            details["bp"],
            int(details["sys_len"]),
            int(details["ref_len"]),
        )

    def _sacre_counts(self, counts: Sequence[float], totals: Sequence[float]) -> "tuple[List[Any], List[Any]]":
        """The counts and totals as sacreBLEU's score holds them. Its ``compute_bleu`` adds
        add-k's value to the lists it returns, from order 2 up to the first order left without
        n-grams, unless nothing matched at all: those entries are ``int + k`` (a float when k is
        a float, as ``17.1`` or ``135.0``), the others ints. The engine's values are the sums
        already; only their Python types are sacreBLEU's here."""
        c: List[Any] = [int(x) for x in counts]
        t: List[Any] = [int(x) for x in totals]
        if self.smooth_method != "add-k" or not c or c[0] == 0:
            return c, t
        # c[0] > 0 implies t[0] > 0, so sacreBLEU's loop does not stop at order 1.
        k = self.SMOOTH_DEFAULTS["add-k"] if self.smooth_value is None else self.smooth_value
        for n in range(1, len(c)):
            c[n], t[n] = type(c[n] + k)(counts[n]), type(t[n] + k)(totals[n])
            if t[n] == 0:
                break
        return c, t

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> BLEUScore:
        """Sentence BLEU (sacreBLEU recommends ``effective_order=True`` and warns otherwise)."""
        if not self.effective_order:
            sacrelogger.warning("It is recommended to enable `effective_order` for sentence-level BLEU.")
        score = super().sentence_score(hypothesis, references)
        assert isinstance(score, BLEUScore)
        return score


class CHRF(Metric):
    """sacreBLEU's ``CHRF``: ``char_order`` (6), ``word_order`` (0; 2 is chrF++), ``beta`` (2),
    ``lowercase``, ``whitespace``, ``eps_smoothing`` and cached ``references``."""

    CHAR_ORDER = 6
    WORD_ORDER = 0
    BETA = 2
    _SIGNATURE_TYPE = CHRFSignature
    _ENGINE_NAME = "chrf"

    def __init__(
        self,
        char_order: int = CHAR_ORDER,
        word_order: int = WORD_ORDER,
        beta: int = BETA,
        lowercase: bool = False,
        whitespace: bool = False,
        eps_smoothing: bool = False,
        references: Optional[Sequence[Sequence[str]]] = None,
    ) -> None:
        super().__init__()
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        self.order = char_order + word_order
        self.lowercase = lowercase
        self.whitespace = whitespace
        self.eps_smoothing = eps_smoothing
        self._engine()
        if references is not None:
            self._ref_cache = self._cache_references(references)

    def _options(self) -> Dict[str, Any]:
        return {
            "chrf_char_order": self.char_order,
            "chrf_word_order": self.word_order,
            "chrf_beta": self.beta,
            "chrf_whitespace": self.whitespace,
            "chrf_eps_smoothing": self.eps_smoothing,
            "chrf_lowercase": self.lowercase,
        }

    def _make_score(self, value: float, details: Dict[str, Any]) -> Score:
        return CHRFScore(value, self.char_order, self.word_order, self.beta)


class TER(Metric):
    """sacreBLEU's ``TER``: ``normalized``, ``no_punct``, ``asian_support``,
    ``case_sensitive`` and cached ``references``."""

    _SIGNATURE_TYPE = TERSignature
    _ENGINE_NAME = "ter"

    def __init__(
        self,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
        references: Optional[Sequence[Sequence[str]]] = None,
    ) -> None:
        super().__init__()
        self.no_punct = no_punct
        self.normalized = normalized
        self.asian_support = asian_support
        self.case_sensitive = case_sensitive
        self.tokenizer_signature = _field(self._engine().signature(0, 1), "tok")
        if references is not None:
            self._ref_cache = self._cache_references(references)

    def _options(self) -> Dict[str, Any]:
        return {
            "ter_normalized": self.normalized,
            "ter_no_punct": self.no_punct,
            "ter_asian_support": self.asian_support,
            "ter_case_sensitive": self.case_sensitive,
        }

    def _make_score(self, value: float, details: Dict[str, Any]) -> Score:
        return TERScore(value, details["num_edits"], details["ref_length"])


def _field(signature: str, key: str) -> str:
    """One ``key:value`` field of an engine signature."""
    for part in signature.split("|"):
        k, _, v = part.partition(":")
        if k == key:
            return v
    raise ValueError(f"the engine's signature has no {key!r}: {signature}")

"""evaluate's ``evaluate.logging`` (``evaluate.utils.logging``): its verbosity and progress-bar
switches, so that a script that calls ``evaluate.logging.set_verbosity_error()`` or
``evaluate.disable_progress_bar()`` runs unchanged. hauser.compat.evaluate logs nothing and draws
no progress bar: the switches keep their state (``get_verbosity``, ``is_progress_bar_enabled``
read it back) and change nothing else."""

import logging
from logging import CRITICAL, DEBUG, ERROR, FATAL, INFO, NOTSET, WARN, WARNING
from typing import Optional

__all__ = [
    "CRITICAL", "DEBUG", "ERROR", "FATAL", "INFO", "NOTSET", "WARN", "WARNING",
    "get_logger", "get_verbosity", "set_verbosity", "set_verbosity_info", "set_verbosity_warning",
    "set_verbosity_debug", "set_verbosity_error", "disable_propagation", "enable_propagation",
    "is_progress_bar_enabled", "enable_progress_bar", "disable_progress_bar",
]

_ROOT = "hauser.compat.evaluate"
_progress_bar = True


def _root() -> logging.Logger:
    logger = logging.getLogger(_ROOT)
    if logger.level == NOTSET:
        logger.setLevel(WARNING)  # evaluate's default
    return logger


def get_logger(name: Optional[str] = None) -> logging.Logger:
    """A logger under this package's (evaluate's ``get_logger``)."""
    _root()
    return logging.getLogger(f"{_ROOT}.{name}" if name else _ROOT)


def get_verbosity() -> int:
    """The level set (WARNING unless changed), as evaluate's."""
    return _root().getEffectiveLevel()


def set_verbosity(verbosity: int) -> None:
    _root().setLevel(verbosity)


def set_verbosity_info() -> None:
    set_verbosity(INFO)


def set_verbosity_warning() -> None:
    set_verbosity(WARNING)


def set_verbosity_debug() -> None:
    set_verbosity(DEBUG)


def set_verbosity_error() -> None:
    set_verbosity(ERROR)


def disable_propagation() -> None:
    _root().propagate = False


def enable_propagation() -> None:
    _root().propagate = True


def is_progress_bar_enabled() -> bool:
    return _progress_bar


def enable_progress_bar() -> None:
    global _progress_bar
    _progress_bar = True


def disable_progress_bar() -> None:
    global _progress_bar
    _progress_bar = False

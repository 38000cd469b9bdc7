"""BLEURT's Python API (google-research/bleurt's ``bleurt.score``) over hauser's BLEURT: ``from
hauser.compat.bleurt import score`` in place of ``from bleurt import score``."""

from . import score

__all__ = ["score"]

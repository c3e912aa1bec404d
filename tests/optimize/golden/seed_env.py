"""Makes the upstream SkillOpt package importable for the golden recorders (import this module first).

The package is taken from ../shared/seed/skillopt (override with SKILLOPT_SEED_DIR). Its model backends import the
`openai` SDK at module load; that SDK is not installed here and no recorder calls a model through it, so an inert
stand-in module is registered under that name.
"""
from __future__ import annotations

import os
import sys
import types

SEED_DIR = os.path.abspath(os.environ.get(
    "SKILLOPT_SEED_DIR",
    os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "shared", "seed", "skillopt"),
))
sys.path.insert(0, SEED_DIR)


class _InertModule(types.ModuleType):
    """Stands in for an SDK that upstream imports but these functions never use."""

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        value = type(name, (Exception,), {})
        setattr(self, name, value)
        return value


sys.modules.setdefault("openai", _InertModule("openai"))

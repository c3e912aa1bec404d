"""Record golden vectors for the slow-update field helpers and the slow-update / meta-skill reply rules from upstream.

    python3 tests/optimize/golden/record_replies.py > tests/fixtures/golden/optimize-replies.json

Upstream's `chat_optimizer` is replaced, at the name each module looks it up by, with a function returning the
scripted reply (a fake model); nothing else is changed.
"""
from __future__ import annotations

import json
import os
import sys
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed_env import SEED_DIR  # noqa: E402  (makes upstream importable)


import contextlib, io  # noqa: E401,E402
from skillopt.optimizer import meta_skill as meta_mod  # noqa: E402
from skillopt.optimizer import slow_update as slow_mod  # noqa: E402

SKILLS = [
    "",
    "# Skill\n\nDo things.\n",
    "# Skill\n\nDo things.   \n\n\n",
    "# Skill\n<!-- SLOW_UPDATE_START -->\nold guidance\n<!-- SLOW_UPDATE_END -->\n\nTail.\n",
    "A\n<!-- SLOW_UPDATE_START -->\none\n<!-- SLOW_UPDATE_END -->\nB\n<!-- SLOW_UPDATE_START -->\ntwo\n<!-- SLOW_UPDATE_END -->\n",
    "A\n<!-- SLOW_UPDATE_START -->\nno end marker\n\n\n\nB",
    "A <!-- SLOW_UPDATE_END --> stray end\n\n\n\nB\n",
    "<!-- SLOW_UPDATE_END -->before<!-- SLOW_UPDATE_START -->after",
]
CONTENTS = ["", "  new guidance  \n", "line 1\nline 2"]

REPLIES = [
    'no json here',
    '{"slow_update_content": "  Keep it short.  ", "reasoning": " why "}',
    '```json\n{"meta_skill_content": "Prefer fixes.", "reasoning": 3}\n```',
    '{"slow_update_content": "", "meta_skill_content": ""}',
    '{"slow_update_content": ["a", 1.0, null], "meta_skill_content": {"k": true}}',
    '[1, 2, 3]',
    '{"slow_update_content": 0, "meta_skill_content": 2.50}',
    'prefix {"slow_update_content": "x\\u00e9", "meta_skill_content": "y"} suffix',
    '{"reasoning": "only reasoning"}',
]


def field_cases():
    out = []
    for skill in SKILLS:
        case = {"skill": skill, "inject": slow_mod.inject_empty_slow_update_field(skill), "extract": slow_mod.extract_slow_update_field(skill), "replace": {}}
        for content in CONTENTS:
            case["replace"][content] = slow_mod.replace_slow_update_field(skill, content)
        out.append(case)
    return out


def reply_cases():
    out = []
    for reply in REPLIES:
        slow_mod.chat_optimizer = lambda **_: (reply, {})
        meta_mod.chat_optimizer = lambda **_: (reply, {})
        with contextlib.redirect_stderr(io.StringIO()):
            slow = slow_mod.run_slow_update("skill", [], [], [], prev_skill="prev", prev_slow_update_content="", comparison_pairs=[])
            meta = meta_mod.run_meta_skill(prev_skill="prev", curr_skill="skill", comparison_pairs=[], prev_meta_skill_content="")
        out.append({"reply": reply, "slow": slow, "meta": meta})
    return out


json.dump({"slow_update_field": field_cases(), "replies": reply_cases()}, sys.stdout, indent=1, ensure_ascii=False)
print()

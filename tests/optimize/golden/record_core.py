"""Record golden vectors for lib/optimize's pure core from the upstream SkillOpt code (and CPython's random).

Run from the repository root with python3.11 (the Python the seed targets):

    python3 tests/optimize/golden/record_core.py > tests/fixtures/golden/optimize-core.json

The upstream package is imported from ../shared/seed/skillopt (override with SKILLOPT_SEED_DIR). Its
`skillopt.optimizer` package imports the model backends, which import the `openai` SDK at module load; that
SDK is not installed here, so an inert stand-in module is registered under that name before the import. No
model is ever called: where an upstream function calls the optimizer model, this script replaces that call
with a scripted reply (a fake model), exactly at the name the function looks it up by.

Floats are recorded as their Python repr strings, so the TypeScript test compares them byte for byte.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import random
import sys
import tempfile
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed_env import SEED_DIR  # noqa: E402  (makes upstream importable)



# ── random.Random ────────────────────────────────────────────────────────

RANDOM_SEEDS = [0, 1, 5, -5, 42, 43, 1042, 2042, 4043, 12345, 2**31 - 1, 2**32 - 1, 2**32, 2**53 + 7,
                2**64 + 12345, 12345678901234567890123456789, -(2**40)]


def record_random() -> dict:
    cases = []
    for seed in RANDOM_SEEDS:
        rng = random.Random(seed)
        case: dict = {"seed": str(seed)}
        case["uint32"] = [rng.getrandbits(32) for _ in range(8)]
        case["random"] = [repr(rng.random()) for _ in range(8)]
        case["getrandbits"] = [
            {"k": k, "value": str(rng.getrandbits(k))} for k in (0, 1, 5, 31, 32, 33, 53, 64, 100, 129)
        ]
        case["randbelow"] = [
            {"n": n, "value": rng._randbelow(n)}
            for n in (1, 2, 3, 7, 8, 9, 100, 1000, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 10**12, 2**53 - 1)
        ]
        shuffles = []
        for n in (0, 1, 2, 3, 5, 10, 40, 200, 400):
            x = list(range(n))
            rng.shuffle(x)
            shuffles.append(x)
        case["shuffle"] = shuffles
        samples = []
        for n, k in ((5, 0), (5, 5), (10, 3), (21, 5), (22, 5), (30, 6), (60, 6), (61, 6), (100, 10),
                     (200, 20), (400, 40), (2000, 1), (2000, 50)):
            samples.append({"n": n, "k": k, "value": rng.sample(range(n), k)})
        case["sample"] = samples
        case["choice"] = [rng.choice("abcdefg") for _ in range(6)]
        cases.append(case)
    # The idiom upstream uses: a fresh Random(seed) shuffling a copy (epoch seeds 42 + epoch * 1000, ...).
    fresh = []
    for seed in (42, 43, 1042, 2042, 3042, 4042, 42 + 1000 + 1, 0, 7):
        for n in (8, 40, 400):
            x = list(range(n))
            random.Random(seed).shuffle(x)
            fresh.append({"seed": seed, "n": n, "value": x})
    return {"cases": cases, "fresh_shuffles": fresh}


# ── splits (skillopt/datasets/base.py) ─────────────────────────────────

SPLIT_RATIOS = ["2:1:7", "1:1:1", "3:1:1", "1:2:3", "5:3:2", "1:1:8", "10:1:1", " 2 : 1 : 7 ", "2::1:7"]


def _error_text(fn) -> dict:
    try:
        return {"value": fn()}
    except Exception as exc:  # noqa: BLE001
        return {"error": f"{type(exc).__name__}: {exc}"}


def _upstream_ratio_split(ids: list[str], ratio: str, split_seed: int, seed: int, limit: int) -> dict:
    """The upstream loader end to end: raw JSON file -> _materialize_ratio_split -> _load_all_splits."""
    from skillopt.envs.searchqa.dataloader import SearchQADataLoader

    with tempfile.TemporaryDirectory() as tmp:
        data_path = os.path.join(tmp, "raw.json")
        with open(data_path, "w", encoding="utf-8") as f:
            json.dump([{"id": i, "question": f"question {i}"} for i in ids], f)
        loader = SearchQADataLoader(
            data_path=data_path, split_mode="ratio", split_ratio=ratio, split_seed=split_seed,
            split_output_dir=os.path.join(tmp, "out"), seed=seed, limit=limit,
        )
        with contextlib.redirect_stdout(io.StringIO()):
            loader.setup({})
        return {name: [item["id"] for item in loader.get_split_items(name)] for name in ("train", "val", "test")}


def _upstream_manifest_split(parts: dict[str, dict[str, object]], limit: int) -> dict:
    """split_dir mode: each part is a directory of files (name -> JSON); upstream reads sorted(*.json)[0]."""
    from skillopt.envs.searchqa.dataloader import SearchQADataLoader

    with tempfile.TemporaryDirectory() as tmp:
        for name, files in parts.items():
            os.makedirs(os.path.join(tmp, name))
            for file_name, content in files.items():
                with open(os.path.join(tmp, name, file_name), "w", encoding="utf-8") as f:
                    json.dump(content, f)
        loader = SearchQADataLoader(split_dir=tmp, split_mode="split_dir", limit=limit)
        with contextlib.redirect_stdout(io.StringIO()):
            loader.setup({})
        return {name: [item["id"] for item in loader.get_split_items(name)] for name in ("train", "val", "test")}


def record_splits() -> dict:
    from skillopt.datasets.base import _compute_split_counts, _parse_split_ratio

    counts = []
    for ratio in ["2:1:7", "1:1:1", "3:1:1", "1:2:3", "5:3:2", "1:1:8", "10:1:1", "7:7:1", "1:1:2"]:
        parsed = _parse_split_ratio(ratio)
        for total in list(range(0, 61)) + [99, 100, 101, 399, 400, 2000, 2001, 9999]:
            counts.append({"ratio": ratio, "total": total, "counts": list(_compute_split_counts(total, parsed))})
    parse = [
        {"text": text, **_error_text(lambda text=text: list(_parse_split_ratio(text)))}
        for text in SPLIT_RATIOS + ["2:1", "2:1:7:1", "a:b:c", "2:0:7", "2:-1:7", "1.5:1:1", "", ":::",
                                    "+2:1:7", "2_0:1:7", "02:1:7", "2:1:7:", "\t3\n:1:1"]
    ]
    ratio_splits = []
    for total in (1, 2, 3, 7, 10, 25, 50, 123):
        ids = [f"q{i:04d}" for i in range(total)]
        for ratio in ("2:1:7", "1:1:1", " 2 : 1 : 7 ", "3:1:1"):
            for split_seed, seed in ((42, 42), (7, 42), (0, 42), (0, 7), (2**40, 1)):
                for limit in (0, 3):
                    if limit and total < 10:
                        continue
                    ratio_splits.append({
                        "ids": total, "ratio": ratio, "split_seed": split_seed, "seed": seed, "limit": limit,
                        "split": _upstream_ratio_split(ids, ratio, split_seed, seed, limit),
                    })
    ids = [f"m{i:03d}" for i in range(30)]
    manifest = []
    for limit in (0, 2):
        parts = {
            "train": {"items.json": [{"id": i} for i in ids[20:5:-1]]},
            "val": {"items.json": [{"id": i} for i in ids[:5]], "z.json": [{"id": "ignored"}]},
            "test": {"b.json": [{"id": "ignored"}], "a.json": [{"id": i} for i in ids[25:]]},
        }
        manifest.append({"parts": parts, "limit": limit, "split": _upstream_manifest_split(parts, limit)})
    return {"counts": counts, "parse": parse, "ratio_splits": ratio_splits, "manifest": manifest}


# ── learning-rate schedule (skillopt/optimizer/scheduler.py) ────────────


def record_schedule() -> dict:
    from skillopt.optimizer.scheduler import build_scheduler

    cases = []
    for mode in ("constant", "linear", "cosine", "autonomous"):
        for max_lr in (1, 2, 3, 4, 5, 6, 7, 8, 12, 20):
            for min_lr in sorted({0, 1, 2, 3, max_lr // 2, max_lr}):
                if min_lr > max_lr:
                    continue
                for total in (0, 1, 2, 3, 4, 5, 7, 8, 10, 13, 16, 20, 40):
                    if mode in ("constant", "autonomous") and (max_lr not in (1, 4, 20) or min_lr not in (0, 2)):
                        continue  # neither reads min_lr; a few shapes suffice
                    scheduler = build_scheduler(mode=mode, max_lr=max_lr, min_lr=min_lr, total_steps=total)
                    cases.append({
                        "mode": mode, "max_lr": max_lr, "min_lr": min_lr, "total_steps": total,
                        "steps": [scheduler.step() for _ in range(total + 2)],
                        "get_lr_0": scheduler.get_lr(0),
                        "state": scheduler.state_dict(),
                    })
    round_cases = [x / 4 for x in range(-40, 41)] + [0.49999999999999994, 2.5000000000000004, 1e15 + 0.5, -0.5]
    rounding = [{"x": repr(x), "round": round(x)} for x in round_cases]
    unknown = _error_text(lambda: build_scheduler(mode="warmup"))
    return {"cases": cases, "round": rounding, "unknown_mode": unknown}


# ── JSON in model replies (skillopt/utils/json_utils.py, without json_repair) ──

JSON_REPLIES = [
    '{"a": 1}',
    '```json\n{"edits": [{"op": "append", "content": "Be brief."}]}\n```',
    'Here is my analysis.\n\n```json\n{"reasoning": "r", "edits": []}\n```\nHope this helps {really}.',
    'Sure! {"selected_indices": [2, 0, 1]} That is all.',
    '```json\n{"a": 1,}\n```',
    '{"a": 1, "b": [1, 2,],}',
    '```json\n{bad}\n```\nthen {"a": 1}',
    '```JSON\n{"upper": true}\n```',
    '```\n{"plain_fence": 1}\n```',
    '{"text": "x } y { z", "n": 2}',
    '{"a": 1}\n{"b": 2}',
    'Set it to {x}. {"a": 1}',
    'I would use "{" here, then {"a": "b"}',
    '{"v": NaN, "w": Infinity, "x": -Infinity}',
    '{"f": [1.0, 1, 1e5, 1E-7, -0.0, -0, 0.1, 1E400, 2.5e-324, 9007199254740991, 0.30000000000000004]}',
    '```json\n[1, 2, 3]\n```',
    '```json\n"just a string"\n```',
    '```json\n42\n```',
    '```json\ntrue\n```',
    '```json\nnull\n```',
    'Prose ```json {"unclosed": 1}',
    '{"a": 1, "b": 2, "a": 3}',
    '{"__proto__": {"x": 1}, "constructor": 2}',
    '{"s": "line\nbreak raw"}',
    '{"s": "esc \\u00e9 \\ud83d\\ude00 \\/ \\" \\\\ \\b\\f\\n\\r\\t"}',
    '{"s": "bad \\x escape"}',
    '{"s": "bad \\u12G4 escape"}',
    '```json\n\ufeff{"bom": 1}\n```',
    '```json\u00a0{"nbsp_before": 1}```',
    '```json\n{"nbsp_after": 1}\u00a0```',
    '```json\u3000\u2028{"wide": 1}\n```',
    '',
    'no json here',
    '{}',
    '```json\n{}\n```',
    '```json\n```{"after_empty_fence": 1}',
    '```json\n{"first": 1}\n```\n```json\n{"second": 2}\n```',
    '```json\n{"a": 1,}\n```\n{"outside": 2}',
    '// comment\n{"a": 1 // trailing\n}',
    "{'single': 'quotes'}",
    '{"edits": [{"op": "replace", "target": "Use {x}", "content": "Use {y} and }"}]}',
    '```json\r\n{"crlf": 1}\r\n```',
    '```json   \n\n  {"padded": 1}  \n\n```',
    '{"n": -}', '{"n": 1.}', '{"n": .5}', '{"n": 1e}', '{"n": +1}', '{"n": 01}',
    '{"unicode": "Gödel, Escher, Bach \u2014 日本語 🎉"}',
    '{"nested": {"deep": {"deeper": [{"x": [[]]}]}}}',
    '{"a": 1} trailing } brace',
    '{ "spaced" : 1 , "keys" : [ 1 , 2 ] }',
    '{"tab":\t1}',
    '{"vt":\x0b1}',
    '{"ctrl": "a\x01b"}',
    '{"del": "a\x7fb"}',
    '{"k": "v"}}',
    '{{"k": "v"}',
    '```json\n{"k": "```"}\n```',
    '{"' + "k" * 3 + '": [' + ", ".join(str(i) for i in range(50)) + ']}',
    '[' * 50 + ']' * 50,
    '{"x": ' + '[' * 100 + ']' * 100 + '}',
    '{"x": ' + '[' * 5000 + ']' * 5000 + '}',
    '{"true": true, "false": false, "null": null, "nulls": [null, nullx]}',
    '{"tr": tru}',
]


def record_json() -> list:
    from skillopt.utils.json_utils import extract_json
    import warnings

    cases = []
    for text in JSON_REPLIES:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                result = extract_json(text)
            cases.append({"text": text, "result": None if result is None else json.dumps(result, ensure_ascii=False)})
        except RecursionError:
            cases.append({"text": text, "crash": "RecursionError"})
    return cases


# ── edits (skillopt/optimizer/skill.py) ────────────────────────────────

_SLOW = "<!-- SLOW_UPDATE_START -->\n## Slow guidance\n- keep X\n<!-- SLOW_UPDATE_END -->\n"
_APPX = "<!-- APPENDIX_START -->\n## Appendix\n- note Y\n<!-- APPENDIX_END -->\n"
EDIT_SKILLS = {
    "basic": "# Skill\n\n## Rules\n- Be brief.\n- Cite sources.\n- Be brief.\n",
    "empty": "",
    "blank": "   \n\n",
    "slow": "# Skill\n- rule A\n- keep X\n\n" + _SLOW,
    "both": "# Skill\n- rule A\n\n" + _APPX + "\n" + _SLOW + "tail line\n",
    "reversed_markers": "# Skill\n<!-- SLOW_UPDATE_END -->\n- rule A\n<!-- SLOW_UPDATE_START -->\n- rule B\n",
    "unclosed": "# Skill\n- rule A\n<!-- APPENDIX_START -->\n- rule B\n",
    "unicode": "# Compétences 🎯\n- Répondre en français.\n- 日本語もOK\n",
    "no_newline": "one line only",
    "crlf": "line1\r\nline2\r\n",
}

_LONG = "🎉" * 150 + "é" * 100
EDIT_PATCHES = [
    {"edits": [{"op": "append", "content": "- New rule."}]},
    {"edits": [{"op": "append", "content": "  \n- Padded rule.\n\n  "}]},
    {"edits": [{"op": "append", "content": "x <!-- SLOW_UPDATE_START --> y <!-- APPENDIX_END -->"}]},
    {"edits": [{"op": "append", "target": "keep X", "content": "- appended with target"}]},
    {"edits": [{"op": "insert_after", "target": "Be brief", "content": "- After brief."}]},
    {"edits": [{"op": "insert_after", "target": "only", "content": "- After last line."}]},
    {"edits": [{"op": "insert_after", "target": "nowhere to be found", "content": "- Fallback."}]},
    {"edits": [{"op": "insert_after", "target": "", "content": "- Empty target."}]},
    {"edits": [{"op": "insert_after", "target": "rule A", "content": "- After A."}]},
    {"edits": [{"op": "insert_after", "target": "line1", "content": "- After line1."}]},
    {"edits": [{"op": "replace", "target": "- Be brief.", "content": "- Be concise."}]},
    {"edits": [{"op": "replace", "target": "- Be brief.", "content": "$& and $1 $$"}]},
    {"edits": [{"op": "replace", "target": "missing", "content": "x"}]},
    {"edits": [{"op": "replace", "target": "", "content": "x"}]},
    {"edits": [{"op": "replace", "target": "rule A", "content": "   "}]},
    {"edits": [{"op": "replace", "target": "Répondre", "content": "Answer"}]},
    {"edits": [{"op": "delete", "target": "- Cite sources.\n"}]},
    {"edits": [{"op": "delete", "target": "missing"}]},
    {"edits": [{"op": "delete"}]},
    {"edits": [{"op": "delete", "target": "- keep X"}]},
    {"edits": [{"op": "replace", "target": "<!-- SLOW_UPDATE_START -->", "content": "gone"}]},
    {"edits": [{"op": "replace", "target": "note Y", "content": "changed"}]},
    {"edits": [{"op": "replace", "target": "rule B", "content": "changed B"}]},
    {"edits": [{"op": "insert_after", "target": "tail line", "content": "- after tail"}]},
    {"edits": [{"op": "replace", "target": "\ntail line", "content": "\nTAIL"}]},
    {"edits": [{"op": "replace", "target": "_END -->\ntail", "content": "x"}]},
    {"edits": [{"op": "replace", "target": "\n<!-- APPENDIX_START", "content": "x"}]},
    {"edits": [{"op": "rewrite", "content": "x"}, {"content": "no op"}, {"op": None, "content": "x"},
               {"op": 1, "content": "x"}, {"op": "APPEND", "content": "x"}]},
    {"edits": [{"op": "append", "content": None}, {"op": "append", "content": 5},
               {"op": "append", "content": ["a"]}, {"op": "append"}, {"op": "append", "content": 1.5}]},
    {"edits": [{"op": "replace", "target": None, "content": "x"}, {"op": "replace", "target": 5, "content": "x"},
               {"op": "replace", "target": 1.5, "content": "x"}, {"op": "replace", "target": True, "content": "x"},
               {"op": "replace", "target": [], "content": "x"}, {"op": "insert_after", "target": [], "content": "x"},
               {"op": "replace", "target": ["a"], "content": "x"}, {"op": "replace", "target": {"a": 1}, "content": "x"},
               {"op": "replace", "target": {}, "content": "x"}, {"op": "append", "target": False, "content": "y"}]},
    {"edits": ["string edit", 5, None, ["op", "append"], 2.5, True, {"op": "append", "content": "after junk"}]},
    {"edits": "ab"},
    {"edits": {"op": "append"}},
    {"edits": []},
    {},
    {"reasoning": "no edits key"},
    {"edits": [{"op": "replace", "target": _LONG[:210], "content": _LONG}, {"op": "append", "content": _LONG}]},
    {"edits": [{"op": "append", "content": "- Step one."}, {"op": "replace", "target": "Step one", "content": "Step two"},
               {"op": "insert_after", "target": "Step two", "content": "- Step three."},
               {"op": "delete", "target": "- Step three.\n"}, {"op": "replace", "target": "Step two", "content": "Done"}]},
    {"edits": [{"op": "append", "content": "- A"}, {"op": "append", "content": "- B"},
               {"op": "insert_after", "target": "- A", "content": "- A2"}]},
    {"edits": [{"op": "replace", "target": "x", "content": "y", "support_count": 3, "extra": {"k": [1, 2.0]}}]},
]
EDIT_CRASH_PATCHES = [{"edits": None}, {"edits": 5}, {"edits": 1.5}, {"edits": True}, [], "patch", None, 3]


def record_edits() -> dict:
    from skillopt.optimizer.skill import apply_patch_with_report

    cases = []
    for skill_name, skill in EDIT_SKILLS.items():
        for patch_index, patch in enumerate(EDIT_PATCHES):
            new_skill, reports = apply_patch_with_report(skill, json.loads(json.dumps(patch)))
            cases.append({"skill": skill_name, "patch": patch_index,
                          "new_skill": new_skill, "reports": json.dumps(reports, ensure_ascii=False)})
    crashes = []
    for patch in EDIT_CRASH_PATCHES:
        try:
            apply_patch_with_report(EDIT_SKILLS["basic"], patch)
            crashes.append({"patch": json.dumps(patch), "crash": None})
        except Exception as exc:  # noqa: BLE001
            crashes.append({"patch": json.dumps(patch), "crash": f"{type(exc).__name__}: {exc}"})
    patches = [json.dumps(patch, ensure_ascii=False) for patch in EDIT_PATCHES]
    return {"skills": EDIT_SKILLS, "patches": patches, "cases": cases, "crashes": crashes}


# ── ranking and the edit budget (skillopt/optimizer/clip.py) ────────────

RANKING_REPLIES = [
    '{"selected_indices": [2, 0, 1]}',
    '```json\n{"selected_indices": [4, 4, 1, -1, "2", 2.0, true, false, 99, 3]}\n```',
    '{"selected_indices": [true, 1, false, 0, 3]}',
    '{"selected_indices": []}',
    '{"selected_indices": "0123"}',
    '{"selected_indices": {"1": 0, "2": 1}}',
    '{"selected_indices": 3}',
    '{"selected_indices": null}',
    '{"ranking": [1, 2]}',
    'not json at all',
    '```json\n["selected_indices"]\n```',
    '```json\n"has selected_indices inside"\n```',
    '```json\n5\n```',
    '```json\n{}\n```',
    '{"selected_indices": [1], "reasoning": "why", "scores": [0.5, 1.0]}',
    '{"selected_indices": [4, 3, 2, 1, 0, 4, 3]}',
    '{"selected_indices": [-5, 5, 1.5, "x", null, [1]]}',
    '{"selected_indices": [1, 2]} and {"selected_indices": [3]}',
    '{"selected_indices": [' + '[' * 5000 + ']' * 5000 + ']}',
    None,  # the optimizer call raised
]
RANKING_PATCHES = [
    {"reasoning": "merged", "edits": [{"op": "append", "content": f"- rule {i}", "support_count": i} for i in range(5)]},
    {"edits": [{"op": "append", "content": "a"}, "not a dict", 7, {"op": "delete", "target": "x"}, None]},
    {"reasoning": None, "edits": [{"op": "append", "content": "a"}] * 3},
    {"reasoning": 5, "edits": [{"op": "append", "content": "a"}] * 3},
    {"reasoning": ["r"], "edits": [{"op": "append", "content": "a"}] * 3},
    {"reasoning": "too few", "edits": [{"op": "append", "content": "a"}]},
    {"reasoning": "not a list", "edits": "abc"},
]


def record_ranking() -> dict:
    import skillopt.optimizer.clip as clip

    cases = []
    for patch_index, patch in enumerate(RANKING_PATCHES):
        for max_edits in (0, 1, 2, 3, 5):
            for reply_index, reply in enumerate(RANKING_REPLIES):
                calls = []

                def fake_chat_optimizer(*, system, user, reply=reply, calls=calls, **kwargs):
                    calls.append(1)
                    if reply is None:
                        raise RuntimeError("optimizer unavailable")
                    return reply, {}

                clip.chat_optimizer = fake_chat_optimizer
                given = json.loads(json.dumps(patch))
                case = {"patch": patch_index, "max_edits": max_edits, "reply": reply_index}
                try:
                    result = clip.rank_and_select("# Skill\n", given, max_edits=max_edits)
                    case.update(called=bool(calls), unchanged=result is given, result=json.dumps(result, ensure_ascii=False))
                except Exception as exc:  # noqa: BLE001
                    case.update(called=bool(calls), crash=f"{type(exc).__name__}: {exc}")
                cases.append(case)
    return {"patches": [json.dumps(p) for p in RANKING_PATCHES], "replies": RANKING_REPLIES, "cases": cases}


# ── the gate (skillopt/evaluation/gate.py) ───────────────────────────────

GATE_SKILLS = {
    "plain": "# Skill\nAnswer the question.\n",
    "leading": "# Skill\nYou MUST answer. ALWAYS cite. Never guess; verify, ensure, prefer ONLY strict facts.\n",
    "regions": "MUST x\n<!-- SLOW_UPDATE_START -->\nMUST MUST MUST\n<!-- SLOW_UPDATE_END -->\ny <!-- APPENDIX_START --> ALWAYS",
    "reversed": "<!-- SLOW_UPDATE_END --> must <!-- SLOW_UPDATE_START --> a b c",
    "empty": "",
    "blank": " \n\t ",
    "symbols": "### --- *** !!!",
    "unicode": "Kelvin \u212a İstanbul MUST ÉCOLE must",
}


def record_gate() -> dict:
    from skillopt.evaluation.gate import compute_semantic_density, evaluate_gate, select_gate_score

    density = [{"skill": name, "density": repr(compute_semantic_density(text))} for name, text in GATE_SKILLS.items()]
    density += [{"skill": name, "leading_words": ["x", "MUST", "a"],
                 "density": repr(compute_semantic_density(text, ["x", "MUST", "a"]))} for name, text in GATE_SKILLS.items()]
    settings = [("hard", 0.5, False), ("soft", 0.5, False), ("mixed", 0.25, False),
                ("mixed", 1.5, False), ("mixed", -0.2, False), ("mixed", 0.3, True)]
    decisions = []
    for metric, weight, use_density in settings:
        for cand_skill in ("plain", "leading"):
            for cand_hard in (0.0, 0.5, 0.742, 0.75, 1.0):
                for cand_soft in (0.0, 0.9):
                    for current, best in ((-1.0, -1.0), (0.5, 0.742), (0.742, 0.742), (0.75, 0.8), (0.742, 0.75),
                                          (0.8, 0.75)):
                        kwargs = dict(cand_soft=cand_soft, metric=metric, mixed_weight=weight,
                                      use_semantic_density=use_density, semantic_density_weight=0.05)
                        result = evaluate_gate(GATE_SKILLS[cand_skill], cand_hard, "CURRENT", current, "BEST", best, 3, 7,
                                               **kwargs)
                        score = select_gate_score(cand_hard, cand_soft, metric, weight,
                                                  skill_content=GATE_SKILLS[cand_skill], use_semantic_density=use_density,
                                                  semantic_density_weight=0.05)
                        decisions.append({
                            "metric": metric, "weight": repr(weight), "density": use_density, "skill": cand_skill,
                            "hard": repr(cand_hard), "soft": repr(cand_soft), "current": repr(current), "best": repr(best),
                            "score": repr(score), "action": result.action,
                            "current_skill": result.current_skill if result.current_skill in ("CURRENT", "BEST") else "CANDIDATE",
                            "current_score": repr(result.current_score),
                            "best_skill": result.best_skill if result.best_skill in ("CURRENT", "BEST") else "CANDIDATE",
                            "best_score": repr(result.best_score), "best_step": result.best_step,
                        })
    unknown = _error_text(lambda: select_gate_score(1.0, 1.0, "median"))
    from skillopt.utils.scoring import compute_score, skill_hash

    score_rng = random.Random(7)
    scores = []
    for n in (0, 1, 3, 7, 40, 200):
        results = [{"hard": score_rng.choice([0, 1, 0.0, 1.0]), "soft": score_rng.random()} for _ in range(n)]
        hard, soft = compute_score(results)
        scores.append({"results": results, "hard": repr(hard), "soft": repr(soft)})
    hashes = [{"skill": name, "hash": skill_hash(text)} for name, text in GATE_SKILLS.items()]
    return {"skills": GATE_SKILLS, "density": density, "decisions": decisions, "unknown_metric": unknown,
            "scores": scores, "hashes": hashes}


# ── the defaults (configs/searchqa/default.yaml over configs/_base_/default.yaml) ──


def record_defaults() -> dict:
    """The defaults the SearchQA config intends: its layers deep-merged with upstream's `_deep_merge`.

    Upstream's own loader (`_load_yaml`) loses the `env:` section at this commit: `_resolve_layer_format_duplicates`
    sees `env.name` present and pops the flat key it maps to, which is "env", i.e. the whole section. The issue
    asks for the intended defaults, so the layers are merged directly; what the loader returns is recorded too.
    """
    import yaml
    from skillopt.config import _deep_merge, _load_yaml

    configs = os.path.join(os.path.abspath(SEED_DIR), "configs")
    with open(os.path.join(configs, "_base_", "default.yaml"), encoding="utf-8") as f:
        base = yaml.safe_load(f)
    with open(os.path.join(configs, "searchqa", "default.yaml"), encoding="utf-8") as f:
        searchqa = yaml.safe_load(f)
    searchqa.pop("_base_")
    merged = _deep_merge(base, searchqa)
    loaded = _load_yaml(os.path.join(configs, "searchqa", "default.yaml"))
    return {"intended": merged, "loader_sections": sorted(loaded)}


# ── epoch batches and minibatches (datasets/base.py, gradient/reflect.py) ─


def record_batches() -> dict:
    import math

    from skillopt.envs.searchqa.dataloader import SearchQADataLoader
    from skillopt.gradient.reflect import _shuffle_for_minibatch, _split_minibatches

    epochs = []
    for n_train, batch_size, accumulation in ((400, 40, 1), (10, 4, 1), (10, 4, 2), (3, 2, 3), (7, 10, 1), (1, 1, 1)):
        loader = SearchQADataLoader(split_dir="unused")
        loader._splits = {"train": [{"id": f"t{i:03d}"} for i in range(n_train)]}
        steps = math.ceil(n_train / (batch_size * accumulation))
        for epoch in (1, 2, 4):
            for seed in (42, 0, 7):
                batches = loader.plan_train_epoch(epoch=epoch, steps_per_epoch=steps, accumulation=accumulation,
                                                  batch_size=batch_size, seed=seed)
                epochs.append({"n_train": n_train, "batch_size": batch_size, "accumulation": accumulation,
                               "steps_per_epoch": steps, "epoch": epoch, "seed": seed,
                               "batches": [{"seed": b.seed, "items": [item["id"] for item in b.payload]} for b in batches]})
    minibatches = []
    score_rng = random.Random(11)
    for n in (0, 1, 9, 40, 41):
        results = [{"id": f"r{i:02d}", "hard": score_rng.choice([0, 1, 1.0, 0.0, None, 1e-10, -1, 0.5])} for i in range(n)]
        for failure_only in (False, True):
            for size in (1, 3, 8):
                for seed in (None, 42, 1043):
                    # The next two lines are copied verbatim from run_minibatch_reflect (it also calls the model).
                    failures = [r for r in results if not r.get("hard") or float(r.get("hard", 0)) < 1e-9]
                    successes = [r for r in results if r.get("hard")] if not failure_only else []
                    failures = _shuffle_for_minibatch(failures, seed)
                    successes = _shuffle_for_minibatch(successes, None if seed is None else seed + 1)
                    minibatches.append({
                        "results": results, "failure_only": failure_only, "minibatch_size": size, "seed": seed,
                        "failure": [[r["id"] for r in b] for b in _split_minibatches(failures, size)],
                        "success": [[r["id"] for r in b] for b in _split_minibatches(successes, size)],
                    })
    return {"epochs": epochs, "minibatches": minibatches}


def main() -> None:
    out = {
        "python": sys.version.split()[0],
        "random": record_random(),
        "splits": record_splits(),
        "schedule": record_schedule(),
        "json": record_json(),
        "edits": record_edits(),
        "ranking": record_ranking(),
        "gate": record_gate(),
        "defaults": record_defaults(),
        "batches": record_batches(),
    }
    sys.stdout.write(_dump(out) + "\n")


def _dump(value, depth: int = 0) -> str:
    """JSON with one line per list element / dict entry down to depth 3, compact below (small, diffable)."""
    if depth >= 3 or not isinstance(value, (dict, list)) or not value:
        return json.dumps(value, ensure_ascii=False)
    pad = " " * (depth + 1)
    if isinstance(value, dict):
        body = ",\n".join(f"{pad}{json.dumps(k, ensure_ascii=False)}: {_dump(v, depth + 1)}" for k, v in value.items())
        return "{\n" + body + "\n" + " " * depth + "}"
    body = ",\n".join(pad + _dump(v, depth + 1) for v in value)
    return "[\n" + body + "\n" + " " * depth + "]"


if __name__ == "__main__":
    main()

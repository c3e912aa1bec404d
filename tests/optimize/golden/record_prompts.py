"""Record the exact requests upstream SkillOpt's optimiser stages send, for tests/optimize/prompts-golden.test.ts.

Run from the repository root:  python3 tests/optimize/golden/record_prompts.py
It writes tests/fixtures/golden/optimize-prompts.json. Do not edit that file by hand.

The upstream code is imported from ../shared/seed/skillopt (override with SKILLOPT_SEED_DIR). Its model package
imports the `openai` client library, which this machine does not have; only that module is stubbed (nothing in
the recorded paths uses it). Model calls are replaced by fakes that capture (system, user) and return canned
replies: `chat_target` for the SearchQA rollout (so the prediction files are written by upstream's own
process_one) and `chat_optimizer` in each optimiser module.

Python floats inside json values are written as {"$py_float": x} so the test can tell 1.0 from 1.
"""
from __future__ import annotations

import json
import math
import os
import sys
import tempfile
import types

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
OUT = os.path.join(ROOT, "tests", "fixtures", "golden", "optimize-prompts.json")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed_env import SEED_DIR as SKILLOPT_DIR  # noqa: E402  (makes upstream importable)

from skillopt.engine import trainer  # noqa: E402
from skillopt.envs.searchqa import rollout  # noqa: E402
from skillopt.envs.searchqa.adapter import SearchQAAdapter  # noqa: E402
from skillopt.gradient import aggregate, reflect  # noqa: E402
from skillopt.optimizer import clip, meta_skill, slow_update  # noqa: E402
from skillopt.optimizer.update_modes import short_item_summary  # noqa: E402


def tag(value):
    """json value -> the fixture's form: floats tagged."""
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        if math.isnan(value):
            return {"$py_float": "NaN"}
        if math.isinf(value):
            return {"$py_float": "Infinity" if value > 0 else "-Infinity"}
        return {"$py_float": value}
    if isinstance(value, list):
        return [tag(v) for v in value]
    if isinstance(value, dict):
        return {k: tag(v) for k, v in value.items()}
    raise TypeError(type(value))


# ── Fake models ──────────────────────────────────────────────────────────────

class FakeOptimizer:
    """Captures each optimizer call; replies come from a queue (an Exception instance is raised)."""

    def __init__(self):
        self.calls: list[dict] = []
        self.replies: list = []

    def __call__(self, system, user, max_completion_tokens=16384, retries=5, stage="optimizer", **kwargs):
        reply = self.replies.pop(0) if self.replies else '{"edits": []}'
        self.calls.append({
            "stage": stage,
            "maxCompletionTokens": max_completion_tokens,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
            "reply": None if isinstance(reply, Exception) else reply,
        })
        if isinstance(reply, Exception):
            raise reply
        return reply, {}

    def take(self):
        calls, self.calls = self.calls, []
        return calls


optimizer = FakeOptimizer()
for module in (reflect, aggregate, clip, slow_update, meta_skill):
    module.chat_optimizer = optimizer


class FakeTarget:
    """The SearchQA target: scripted responses per question and turn; captures the prompts it was given."""

    def __init__(self):
        self.script: dict[str, list] = {}
        self.prompts: dict[str, tuple[str, str]] = {}

    def __call__(self, system, user, **kwargs):
        for question, replies in self.script.items():
            if f"## Question\n{question}" in user:
                self.prompts.setdefault(question, (system, user))
                reply = replies.pop(0)
                if isinstance(reply, Exception):
                    raise reply
                return reply, {}
        # A refinement turn carries only the previous answer; find whose script is still running.
        for question, replies in self.script.items():
            if replies and question in self.prompts:
                return replies.pop(0), {}
        raise AssertionError(f"unscripted target call: {user[:80]!r}")


target = FakeTarget()
rollout.chat_target = target
rollout.is_target_exec_backend = lambda: False


# ── Inputs ───────────────────────────────────────────────────────────────────

SKILL = (
    "# SearchQA skill\n\n"
    "## Rules\n"
    "- Quote names exactly: Georgia O'Keeffe, \"The Thinker\", C:\\new\\table\n"
    "- Unicode stays: café, “smart quotes”, 🎉, tab\there\n"
    "- Windows line end here\r\nand a lone CR\rhere\n"
    "- {braces} and $& stay literal\n"
)
SLOW_SKILL = SKILL + "\n\n<!-- SLOW_UPDATE_START -->\nKeep answers short.\n<!-- SLOW_UPDATE_END -->\n"
META = "  - Prefer edits that generalise.\n- Avoid \"over-fitting\" to one question.\n\n"

ITEMS = [
    {"id": "q1", "question": "Who painted 'Sky Above Clouds IV'?",
     "context": "[DOC] Sky Above Clouds IV is by Georgia O'Keeffe.\n[DOC] Another passage.",
     "answers": ["Georgia O'Keeffe"], "replies": ["Let me think.\n<answer>O'Keeffe</answer>"]},
    {"id": "q2", "question": 'What did he say? "hi" or \\hello\\',
     "context": "[DOC] He said \"hi\".", "answers": ['He said "hi"', "hi"],
     "replies": ['<answer>He said "hi"</answer>']},
    {"id": "q3", "question": "Which server failed?", "context": "[DOC] none",
     "answers": ["none"], "replies": [RuntimeError("HTTP 500: upstream \"boom\"")]},
    {"id": "q 4/ü", "question": "Wie heißt die Straße?\r\nZweite Zeile",
     "context": "[DOC] Die Straße heißt Königsallee.\r\n[DOC] Zeile\rzwei",
     "answers": ["Königsallee"], "replies": ["Die Antwort ist\nKönigsallee 🎉\n"]},
    {"id": "q5", "question": "What is the long answer?",
     "context": "".join(f"[DOC] passage {i} " + ("lorem ipsum " * 40) for i in range(20)),
     "answers": ["forty two"], "replies": ["<answer>" + ("forty " * 300) + "two</answer>"]},
    {"id": "q6", "question": "Name the three colours.", "context": "[DOC] red green blue",
     "answers": ["red green blue"], "replies": ["<answer>red green</answer>"]},
    {"id": "q7", "question": "Capital of France?", "context": "[DOC] Paris is the capital.",
     "answers": ["Paris"], "replies": ["<answer>Paris</answer>"]},
]
TWO_TURN_ITEM = {"id": "q8", "question": "Two turns: who wrote Faust?", "context": "[DOC] Goethe wrote Faust.",
                 "answers": ["Goethe"], "replies": ["I think Schiller.", "<answer>Goethe</answer>"]}


def run_rollout(items, skill, out_root, max_turns=1):
    """Upstream's process_one for each item; returns rows, and the analyst-trajectory inputs of the test."""
    rows, trajectories = [], []
    for item in items:
        target.script[item["question"]] = list(item["replies"])
        row = rollout.process_one(
            {k: item[k] for k in ("id", "question", "context", "answers")}, out_root, skill, max_turns=max_turns,
        )
        pred_dir = os.path.join(out_root, "predictions", row["id"])
        conv_path = os.path.join(pred_dir, "conversation.json")
        conversation = None
        if os.path.exists(conv_path):
            with open(conv_path) as f:
                conversation = json.load(f)
        system, user = target.prompts.get(item["question"], ("", ""))
        rows.append(row)
        trajectories.append({
            "id": row["id"], "failReason": row["fail_reason"], "nTurns": row["n_turns"],
            "conversation": conversation, "targetSystemPrompt": system, "targetUserPrompt": user,
        })
        del target.prompts[item["question"]]
    return rows, trajectories


def analyst_cases(tmp, step_buffer_text):
    adapter = SearchQAAdapter()
    rows, trajectories = run_rollout(ITEMS, SKILL, os.path.join(tmp, "rollout"))
    two_rows, two_trajectories = run_rollout([TWO_TURN_ITEM], SKILL, os.path.join(tmp, "rollout2"), max_turns=2)
    by_id = {r["id"]: (r, t) for r, t in zip(rows, trajectories)}
    pred_dir = os.path.join(tmp, "rollout", "predictions")
    cases = []

    def case(name, kind, ids, skill, budget, buffer, meta, rows_pool=by_id, directory=pred_dir):
        picked = [rows_pool[i] for i in ids]
        fn = reflect.run_error_analyst_minibatch if kind == "failure" else reflect.run_success_analyst_minibatch
        system = adapter.get_error_minibatch_prompt() if kind == "failure" else adapter.get_success_minibatch_prompt()
        optimizer.replies = ['{"batch_size": 1, "patch": {"reasoning": "r", "edits": []}}']
        fn(skill, [r for r, _ in picked], directory, edit_budget=budget, system_prompt=system,
           step_buffer_context=buffer, meta_skill_context=meta)
        calls = optimizer.take()
        optimizer.replies = []
        cases.append({
            "name": name,
            "input": {"kind": kind, "skill": skill, "editBudget": budget, "stepBuffer": buffer, "metaSkill": meta,
                      "trajectories": [t for _, t in picked]},
            "request": calls[0] if calls else None,
        })

    case("failures with an error row and a long trajectory", "failure", ["q1", "q3", "q 4/ü", "q5", "q6"], SKILL, 4, "", "")
    case("failures with step buffer and meta skill", "failure", ["q6", "q1"], SKILL, 2, step_buffer_text, META)
    case("successes, empty skill", "success", ["q2", "q7"], "", 4, "", "")
    case("successes with whitespace-only step buffer and meta skill", "success", ["q7"], SKILL, 3, " \n\t", "  \n ")
    case("only rows without a conversation: no call", "failure", ["q3"], SKILL, 4, "", "")
    two_by_id = {r["id"]: (r, t) for r, t in zip(two_rows, two_trajectories)}
    case("two-turn trajectory", "success", ["q8"], SKILL, 4, "", META, two_by_id, os.path.join(tmp, "rollout2", "predictions"))
    return cases, rows


def step_buffer_case(tmp):
    failures = [
        {"id": "a1", "hard": 0, "fail_reason": "EM=0: predicted 'x' but expected ['y']"},
        {"id": "a2", "hard": 0, "fail_reason": "error: HTTP 500: \"boom\""},
        {"id": "a3", "hard": 0, "fail_reason": "task-timeout-180s"},
        {"id": "a4", "hard": 0, "fail_reason": "EM=0: predicted 'z' but expected ['w']"},
        {"id": "a5", "hard": 0, "fail_reason": " spaced prefix : rest"},
    ]
    rows = failures + [{"id": "ok", "hard": 1, "fail_reason": ""}]
    summaries_by_file = {
        "patches/minibatch_fail_000.json": [
            {"failure_type": "rule_missing", "count": 2, "description": "Misses \"quoted\" names — é"},
            {"failure_type": "answer_format", "description": ""},
        ],
        "patches/minibatch_fail_001.json": "not a list",
        "patches/minibatch_fail_002.json": [{"failure_type": "", "description": ""}, {"failure_type": 7}, "x", {"failure_type": "lost"}],
    }
    acc_summaries = {
        "batch_0/patches/minibatch_fail_000.json": [{"failure_type": "b0", "description": 1.0}],
        "batch_10/patches/minibatch_fail_000.json": [{"failure_type": "b10", "description": None}],
        "batch_2/patches/minibatch_fail_001.json": [{"failure_type": "b2", "description": ["l"]}],
    }
    cases = []
    for name, files, missing_key in (("one batch", summaries_by_file, False), ("accumulation", acc_summaries, True)):
        step_dir = os.path.join(tmp, "step_" + name.replace(" ", "_"))
        for rel, summary in files.items():
            path = os.path.join(step_dir, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                json.dump({"batch_size": 2, "failure_summary": summary, "patch": {"edits": []}}, f)
        if missing_key:
            path = os.path.join(step_dir, "batch_3", "patches", "minibatch_fail_000.json")
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                json.dump({"patch": {"edits": []}}, f)
        patterns = trainer._extract_failure_patterns(rows, step_dir)
        ordered = sorted(list(files) + (["batch_3/patches/minibatch_fail_000.json"] if missing_key else []))
        cases.append({
            "name": name,
            "failures": [{"id": r["id"], "failReason": r["fail_reason"]} for r in failures],
            "files": [{"path": p, "failureSummary": tag(files[p]) if p in files else None, "hasSummary": p in files}
                      for p in ordered],
            "patterns": [{"pattern": tag(p["pattern"]), "count": p["count"], "taskIds": p["task_ids"]} for p in patterns],
        })

    ranked = [
        {"op": "replace", "target": "Georgia O'Keeffe", "content": "line1\nline2 \\ back \"q\""},
        {"op": "append", "content": "x", "support_count": 3},
        {"op": None, "content": "c"},
        {"op": "delete", "target": "", "content": 5},
        "not an edit",
        {"op": "insert_after", "target": ["list", 1.0], "content": {"k": True}},
    ]
    entries_py = [
        {"step": 1, "action": "accept_new_best", "n_total": 40, "n_fail": 5,
         "failure_patterns": trainer._extract_failure_patterns(rows, os.path.join(tmp, "step_one_batch"))},
        {"step": 2, "action": "reject", "n_total": 40, "n_fail": 7, "failure_patterns": [],
         "score_before": 0.745, "score_after": 0.7450000000000001,
         "rejected_edits": [short_item_summary(e, "patch") for e in ranked if isinstance(e, dict)]},
        {"step": 3, "action": "reject", "n_total": 1, "n_fail": 1, "failure_patterns": [],
         "score_before": 1.0, "score_after": 1e-05, "rejected_edits": []},
        {"step": 4, "action": "accept", "n_total": 40, "n_fail": 0, "failure_patterns": []},
    ]
    entries_ts = [
        {"step": 1, "action": "accept_new_best", "nTotal": 40, "nFail": 5,
         "failurePatterns": cases[0]["patterns"]},
        {"step": 2, "action": "reject", "nTotal": 40, "nFail": 7, "failurePatterns": [],
         "rejected": {"scoreBefore": 0.745, "scoreAfter": 0.7450000000000001, "edits": tag(ranked)}},
        {"step": 3, "action": "reject", "nTotal": 1, "nFail": 1, "failurePatterns": [],
         "rejected": {"scoreBefore": 1.0, "scoreAfter": 1e-05, "edits": []}},
        {"step": 4, "action": "accept", "nTotal": 40, "nFail": 0, "failurePatterns": []},
    ]
    text = trainer._format_step_buffer(entries_py)
    return {"patterns": cases, "entries": entries_ts, "text": text, "emptyText": trainer._format_step_buffer([])}


def merge_cases():
    raw_failure = [
        {"batch_size": 3, "source_type": "failure", "failure_summary": [],
         "patch": {"reasoning": "first", "edits": [
             {"op": "append", "content": "Quote \"names\" exactly: O'Keeffe"},
             {"op": "replace", "target": "C:\\new", "content": "C:\\old", "confidence": 1.0}]}},
        {"batch_size": "4", "source_type": "failure", "patch": {"edits": [{"op": "delete", "target": "tab\there"}]}},
        {"batch_size": 0, "source_type": "failure", "patch": {"edits": [{"op": "append", "content": "é 🎉", "support_count": 9}]}},
        {"batch_size": None, "source_type": "failure", "patch": {"reasoning": "none", "edits": []}},
        {"batch_size": 2.9, "edits": [{"op": "append", "content": "top-level edits"}]},
        {"batch_size": True, "source_type": "failure", "patch": {"edits": [{"op": "append", "content": "bool size", "merge_level": 7}]}},
        {"batch_size": " 5 ", "source_type": "failure", "patch": {"edits": [{"op": "append", "content": "after"}]}},
    ]
    raw_success = [
        {"batch_size": 8, "source_type": "success", "patch": {"reasoning": "s1", "edits": [{"op": "append", "content": "keep it"}]}},
        {"batch_size": 1, "source_type": "success", "patch": {"edits": [{"op": "insert_after", "target": "## Rules", "content": "- new"}]}},
    ]
    cases = []
    scenarios = [
        ("batch size 2, fallbacks and a final merge", 2, META, [
            '{"reasoning": "m", "edits": [{"op": "append", "content": "merged \\"one\\"", "weight": 1.0}], "extra": null}',
            "not json at all",
            RuntimeError("optimizer down"),
            '{"edits": [{"op": "append", "content": "level 2"}, {"op": "append", "content": "x"}]}',
            '[1, 2]',
            '{"edits": "not a list"}',
            '{"reasoning": "final", "edits": [{"op": "append", "content": "final one"}], "n": 2.50}',
        ]),
        ("batch size 1 is clamped to 2, final falls back", 1, "", [
            '{"edits": [{"op": "append", "content": "a"}]}',
            '{"edits": [{"op": "append", "content": "b"}, "bad"]}',
            '{"edits": []}',
            '{"edits": [{"op": "append", "content": "c"}]}',
            '{"edits": [{"op": "append", "content": "d"}]}',
            "{}",
            '{"edits": [{"op": "append"}, 3]}',
        ]),
        ("batch size 8: one call per tree", 8, "", [
            '{"edits": [{"op": "append", "content": "all failures"}]}',
            '{"edits": [{"op": "append", "content": "all successes"}]}',
            '{"edits": [{"op": "append", "content": "combined"}]}',
        ]),
    ]
    for name, batch_size, meta, replies in scenarios:
        failure, success = trainer._normalise_patches(json.loads(json.dumps(raw_failure)), "patch")
        success_only = trainer._normalise_patches(json.loads(json.dumps(raw_success)), "patch")[1]
        normalised = {"failure": tag(json.loads(json.dumps(failure))), "success": tag(json.loads(json.dumps(success_only)))}
        optimizer.replies = list(replies)
        merged = aggregate.merge_patches(SKILL, failure, success_only, batch_size=batch_size, verbose=False,
                                         workers=1, meta_skill_context=meta)
        calls = optimizer.take()
        from skillopt.utils import extract_json
        for call in calls:
            parsed = None
            if call["reply"] is not None:
                try:
                    parsed = extract_json(call["reply"])
                except Exception:  # noqa: BLE001
                    parsed = None
            call["parsed"] = tag(parsed)
        cases.append({
            "name": name, "mergeBatchSize": batch_size, "metaSkill": meta, "skill": SKILL,
            "rawFailure": tag(raw_failure), "rawSuccess": tag(raw_success), "normalised": normalised,
            "calls": calls, "merged": tag(merged),
        })
    # No failure edits: the success tree's result is returned without a final call.
    optimizer.replies = []
    only_success = aggregate.merge_patches(SKILL, [], trainer._normalise_patches(json.loads(json.dumps(raw_success)), "patch")[1][:1],
                                           batch_size=8, verbose=False, workers=1)
    only = {"merged": tag(only_success), "calls": optimizer.take()}
    # A fallback over a non-object edit: upstream raises.
    optimizer.replies = ["no json"]
    try:
        aggregate._merge_batch(SKILL, [{"edits": ["not a dict"]}, {"edits": []}], "sys", "patch")
        crash = None
    except Exception as exc:  # noqa: BLE001
        crash = type(exc).__name__
    optimizer.take()
    only["nonObjectFallbackRaises"] = crash
    return cases, only


def ranking_cases():
    edits = [
        {"op": "append", "content": "Quote \"names\": O'Keeffe", "support_count": 3, "source_type": "failure"},
        {"op": "replace", "target": "C:\\new\\table", "content": "line\nbreak\ttab", "support_count": 1.0},
        {"op": "delete", "target": "café 🎉"},
        {"op": "insert_after", "target": "", "content": "", "support_count": None},
        "not a dict",
        {"content": ["list", {"k": False}], "target": 0},
        {"op": 5, "target": "\x07bell\x7f", "content": "\u2028sep\u00a0nbsp\u200bzw"},
    ]
    cases = []
    for name, max_edits, meta in (("over budget", 2, META), ("budget 6", 6, ""), ("within budget: no call", 7, "")):
        optimizer.replies = ['{"selected_indices": [0, 1]}']
        clip.rank_and_select(SKILL, {"reasoning": "r", "edits": edits}, max_edits=max_edits, meta_skill_context=meta)
        calls = optimizer.take()
        optimizer.replies = []
        cases.append({"name": name, "input": {"skill": SKILL, "edits": tag(edits), "maxEdits": max_edits, "metaSkill": meta},
                      "request": calls[0] if calls else None})
    return cases


def epoch_cases(tmp):
    items = ITEMS[:2] + ITEMS[3:] + [TWO_TURN_ITEM]
    sample = [{"id": it["id"], "question": it["question"]} for it in items] + [{"id": "missing", "question": "No rows?"}]
    prev_dir, curr_dir = os.path.join(tmp, "rollout_prev"), os.path.join(tmp, "rollout_curr")
    prev_items = [dict(it, replies=list(it["replies"])) for it in items]
    # The current skill answers q1 right (improved), q2 wrong (regressed), q7 errors.
    fixes = {"q1": ["<answer>Georgia O'Keeffe</answer>"], "q2": ["<answer>bye</answer>"], "q5": [RuntimeError("timeout")],
             "q8": ["<answer>Goethe</answer>"]}
    curr_items = [dict(it, replies=list(fixes.get(it["id"], it["replies"]))) for it in items]
    prev_rows, prev_traj = run_rollout(prev_items, "", prev_dir, max_turns=1)
    curr_rows, curr_traj = run_rollout(curr_items, SLOW_SKILL, curr_dir, max_turns=1)
    pairs = slow_update.build_comparison_pairs(prev_rows, curr_rows, sample, prev_dir, curr_dir)

    def rows_ts(rows, trajs):
        return [{"id": r["id"], "hard": r["hard"], "soft": r["soft"], "predictedAnswer": r["predicted_answer"],
                 "failReason": r["fail_reason"], "conversation": t["conversation"]} for r, t in zip(rows, trajs)]

    def pairs_ts(ps):
        return [{"id": p["id"], "task": p["task"], "category": p["category"],
                 "prev": {"hard": p["prev"]["hard"], "soft": p["prev"]["soft"], "predictedAnswer": p["prev"]["predicted_answer"], "failReason": p["prev"]["fail_reason"]},
                 "curr": {"hard": p["curr"]["hard"], "soft": p["curr"]["soft"], "predictedAnswer": p["curr"]["predicted_answer"], "failReason": p["curr"]["fail_reason"]},
                 "prevTrajectory": p.get("prev_trajectory") or "", "currTrajectory": p.get("curr_trajectory") or ""} for p in ps]

    guidance = slow_update.extract_slow_update_field(SLOW_SKILL)
    slow = []
    for name, prev_guidance in (("with guidance", guidance), ("first slow update", "  \n")):
        optimizer.replies = ['{"slow_update_content": "x"}']
        slow_update.run_slow_update(SLOW_SKILL, prev_rows, curr_rows, sample, prev_skill=SKILL,
                                    prev_slow_update_content=prev_guidance, comparison_pairs=pairs)
        slow.append({"name": name, "input": {"previousSkill": SKILL, "currentSkill": SLOW_SKILL,
                                             "previousGuidance": prev_guidance, "pairs": pairs_ts(pairs)},
                     "request": optimizer.take()[0]})
    # Pairs as upstream reloads them from comparison_pairs.json on resume: no trajectories.
    slim_path = os.path.join(tmp, "comparison_pairs.json")
    slow_update.save_comparison_pairs(pairs, slim_path)
    with open(slim_path) as f:
        slim = json.load(f)
    meta = []
    for name, ps, prev_meta in (("with pairs", pairs, META), ("reloaded pairs, first update", slim, ""), ("no pairs", [], " ")):
        optimizer.replies = ['{"meta_skill_content": "m"}']
        meta_skill.run_meta_skill(SKILL, SLOW_SKILL, ps, prev_meta_skill_content=prev_meta)
        meta.append({"name": name, "input": {"previousSkill": SKILL, "currentSkill": SLOW_SKILL,
                                             "previousMetaSkill": prev_meta, "pairs": pairs_ts(ps)},
                     "request": optimizer.take()[0]})
    optimizer.replies = []
    return {
        "comparison": {"items": sample, "prevRows": rows_ts(prev_rows, prev_traj), "currRows": rows_ts(curr_rows, curr_traj),
                       "pairs": pairs_ts(pairs), "text": slow_update.format_comparison_text(pairs),
                       "emptyText": slow_update.format_comparison_text([])},
        "slowUpdate": slow,
        "metaSkill": meta,
    }


def value_cases():
    values = ["Georgia O'Keeffe", 'say "hi"', "both ' and \"", "back\\slash\n\t\r", "\x00\x1f\x7f\x85\xa0\u00ad\u2028\ud7ff\U0001f389",
              1, -0, 10**15, 1.0, 0.1, 1e-05, 1e16, 123456789012345680.0, float("nan"), float("inf"), True, False, None,
              [], {}, [1, [2.5, "x"]], {"k": {"nested": [None]}, "b": [], "c": {}}, "", 0.0, 0]
    return [{"value": tag(v), "repr": repr(v), "str": str(v), "truthy": bool(v),
             "dumpsIndent": json.dumps(v, ensure_ascii=False, indent=2)} for v in values]


def main():
    with tempfile.TemporaryDirectory() as tmp:
        buffer = step_buffer_case(tmp)
        analyst, _ = analyst_cases(tmp, buffer["text"])
        merge, merge_only_success = merge_cases()
        epoch = epoch_cases(tmp)
    golden = {
        "about": "Requests recorded from upstream SkillOpt (commit in UPSTREAM_COMMIT) by tests/optimize/golden/record_prompts.py "
                 f"with python {sys.version.split()[0]}. Do not edit by hand.",
        "templates": {name: open(path, encoding="utf-8").read() for name, path in (
            ("analyst_error", os.path.join(SKILLOPT_DIR, "skillopt/envs/searchqa/prompts/analyst_error.md")),
            ("analyst_success", os.path.join(SKILLOPT_DIR, "skillopt/envs/searchqa/prompts/analyst_success.md")),
            *((n, os.path.join(SKILLOPT_DIR, f"skillopt/prompts/{n}.md"))
              for n in ("merge_failure", "merge_success", "merge_final", "ranking", "slow_update", "meta_skill")),
        )},
        "values": value_cases(),
        # What the analyst cases' rows were rolled out from, so the test can roll them out with Skillboard's own
        # rollout and check that its rows give upstream's trajectories (rows whose call raised are left out).
        "rollout": {"skill": SKILL, "items": [
            {"item": {k: it[k] for k in ("id", "question", "context", "answers")}, "replies": it["replies"],
             "maxTurns": 2 if it is TWO_TURN_ITEM else 1}
            for it in ITEMS + [TWO_TURN_ITEM] if not any(isinstance(r, Exception) for r in it["replies"])]},
        "analyst": analyst,
        "stepBuffer": buffer,
        "merge": merge,
        "mergeOnlySuccess": merge_only_success,
        "ranking": ranking_cases(),
        **epoch,
    }
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(golden, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"wrote {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()

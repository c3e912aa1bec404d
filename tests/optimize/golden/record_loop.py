"""Record upstream SkillOpt's whole training loop on a tiny deterministic world, for tests/optimize/loop-golden.test.ts.

Run from the repository root:  python3 tests/optimize/golden/record_loop.py
It writes tests/fixtures/golden/optimize-loop.json. Do not edit that file by hand.

What runs is upstream's own `ReflACTTrainer.train()` (skillopt/engine/trainer.py) with the real SearchQA adapter,
dataloader (split_dir mode), rollout (`run_batch` / `process_one`, which write the prediction files the analyst
reads), reflect, merge, ranking, gate, slow update and meta skill. Only the models are replaced:
- `chat_target` by `target_reply(system, user)`, a pure function of the two prompts (tests/optimize/loop-golden.test.ts
  has its TypeScript port): an item's question says how the skill decides its answer;
- `chat_optimizer` (in every module that imported it) by `optimizer_reply(system, user)`, a scripted optimizer that
  answers each role in its schema, derived from what the prompt shows, with some malformed replies.
With one worker upstream's finish order would be item order; to make that exact (a set of finished futures has no
order), the rollout's and the reflect stage's executors run each job on submit and hand futures back in
submission order.

The `openai` client library is not installed here and nothing recorded uses it: only that import is stubbed.
"""
from __future__ import annotations

import concurrent.futures
import json
import os
import re
import sys
import tempfile
import types

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
OUT = os.path.join(ROOT, "tests", "fixtures", "golden", "optimize-loop.json")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed_env import SEED_DIR as SKILLOPT_DIR  # noqa: E402  (makes upstream importable)

from skillopt.engine import trainer  # noqa: E402
from skillopt.envs.searchqa import rollout  # noqa: E402
from skillopt.envs.searchqa.adapter import SearchQAAdapter  # noqa: E402
from skillopt.gradient import aggregate, reflect  # noqa: E402
from skillopt.optimizer import clip, meta_skill, slow_update  # noqa: E402
from skillopt.prompts import load_prompt  # noqa: E402


# ── One worker, exactly ──────────────────────────────────────────────────────

class InlineExecutor:
    """Runs each job when it is submitted; its futures remember the submission order."""

    def __init__(self, *args, **kwargs):
        self.count = 0

    def submit(self, fn, *args, **kwargs):
        fut = concurrent.futures.Future()
        fut.order = self.count  # type: ignore[attr-defined]
        self.count += 1
        try:
            fut.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # noqa: BLE001
            fut.set_exception(exc)
        return fut

    def shutdown(self, wait=True, cancel_futures=False):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def wait_first_in_order(fs, timeout=None, return_when=None):
    """`wait(..., FIRST_COMPLETED)` as one worker finishes: the earliest submitted pending job."""
    first = min(fs, key=lambda f: f.order)
    return {first}, set(fs) - {first}


def in_submission_order(fs):
    return iter(sorted(fs, key=lambda f: f.order))


rollout.ThreadPoolExecutor = InlineExecutor
rollout.wait = wait_first_in_order
reflect.ThreadPoolExecutor = InlineExecutor
reflect.as_completed = in_submission_order
aggregate.ThreadPoolExecutor = InlineExecutor
aggregate.as_completed = in_submission_order


# ── The world ────────────────────────────────────────────────────────────────
#
# A question reads "[kind:topic] …" and its context "[DOC] The answer for topic is GOLD." The target answers from
# the context, so what it answers depends only on the skill (in the system prompt):
#   fix      right only when the skill has the line "Rule: <topic>"
#   fragile  right unless the skill says "Avoid <topic>"
#   always   always right; never: always wrong (half the gold's words)
#   error    the call fails while the skill has no slow-update field (so a one-item top-up rollout, which upstream
#            aborts when every row failed, never meets it); wrong after

def item(id_, kind, topic, gold):
    return {"id": id_, "question": f"[{kind}:{topic}] What is the answer for {topic}?",
            "context": f"[DOC] Background on {topic}.\n[DOC] The answer for {topic} is {gold}.",
            "answers": [gold]}


TRAIN = [
    item("tr01", "fix", "alpha", "Alpha City"),
    item("tr02", "always", "beta", "Beta Port"),
    item("tr03", "never", "gamma", "Gamma Bay"),
    item("tr04", "fix", "delta", "Delta Town"),
    item("tr05", "error", "epsilon", "Epsilon Hill"),
    item("tr06", "fragile", "zeta", "Zeta Lake"),
    item("tr07", "fix", "eta", "Eta Falls"),
    item("tr08", "always", "theta", "Theta Gate"),
    item("tr09", "never", "iota", "Iota Rock"),
    item("tr10", "fix", "kappa", "Kappa Vale"),
    item("tr11", "fragile", "lambda", "Lambda Cove"),
    item("tr12", "always", "mu", "Mu Ridge"),
]
VAL = [
    item("va01", "fix", "alpha", "Alpha City"),
    item("va02", "fragile", "zeta", "Zeta Lake"),
    item("va03", "fix", "delta", "Delta Town"),
    item("va04", "always", "beta", "Beta Port"),
    item("va05", "fix", "kappa", "Kappa Vale"),
    item("va06", "fix", "omega", "Omega Peak"),
]
TEST = [
    item("te01", "fix", "alpha", "Alpha City"),
    item("te02", "fix", "eta", "Eta Falls"),
    item("te03", "fragile", "lambda", "Lambda Cove"),
    item("te04", "always", "mu", "Mu Ridge"),
    item("te05", "never", "iota", "Iota Rock"),
    item("te06", "fix", "kappa", "Kappa Vale"),
]
INITIAL_SKILL = "# QA skill\n\n## Rules\n- Answer briefly.\n- Quote names exactly, e.g. Georgia O'Keeffe.\n"

SEED_SETTINGS = {
    "train": {"num_epochs": 3, "train_size": 0, "batch_size": 4, "accumulation": 1, "seed": 42},
    "gradient": {"minibatch_size": 2, "merge_batch_size": 2, "analyst_workers": 1, "failure_only": False},
    "optimizer": {"learning_rate": 2, "min_learning_rate": 1, "lr_scheduler": "cosine", "lr_control_mode": "fixed",
                  "skill_update_mode": "patch", "use_slow_update": True, "slow_update_samples": 4,
                  "slow_update_gate_with_selection": False, "longitudinal_pair_policy": "mixed",
                  "use_meta_skill": True},
    "evaluation": {"use_gate": True, "sel_env_num": 0, "test_env_num": 0, "eval_test": True},
    "env": {"max_turns": 1, "workers": 1},
}
# Accumulation (batch_N/ directories, the step buffer's patch order), a gated slow update (the paper preset), the
# "changed" pair policy (its one-item top-up rollouts), the first-N val and test limits and a linear schedule.
GATED_SETTINGS = {
    "train": {"num_epochs": 2, "train_size": 12, "batch_size": 3, "accumulation": 2, "seed": 7},
    "gradient": {"minibatch_size": 2, "merge_batch_size": 3, "analyst_workers": 1, "failure_only": False},
    "optimizer": {"learning_rate": 3, "min_learning_rate": 1, "lr_scheduler": "linear", "lr_control_mode": "fixed",
                  "skill_update_mode": "patch", "use_slow_update": True, "slow_update_samples": 3,
                  "slow_update_gate_with_selection": True, "longitudinal_pair_policy": "changed",
                  "use_meta_skill": True},
    "evaluation": {"use_gate": True, "sel_env_num": 5, "test_env_num": 4, "eval_test": True},
    "env": {"max_turns": 1, "workers": 1},
}
SCENARIOS = [("seed defaults, small", SEED_SETTINGS), ("accumulation, gated slow update, changed pairs", GATED_SETTINGS)]


def target_reply(system: str, user: str) -> str:
    question = user.split("## Question\n", 1)[1]
    kind, topic = re.match(r"\[(\w+):(\w+)\]", question).groups()
    gold = re.search(r"The answer for " + topic + r" is ([^.]+)\.", user).group(1)
    if kind == "error" and "SLOW_UPDATE" not in system:
        raise RuntimeError(f'HTTP 500: upstream "{topic}" down')
    right = {
        "error": False,
        "fix": f"Rule: {topic}" in system,
        "fragile": f"Avoid {topic}" not in system,
        "always": True,
        "never": False,
    }[kind]
    answer = gold if right else gold.split(" ")[0] + " Unknown"
    return f"Looking for {topic} in the context.\n<answer>{answer}</answer>"


# ── The scripted optimizer ───────────────────────────────────────────────────

ERROR_SYSTEM = load_prompt("analyst_error", env="searchqa")
SUCCESS_SYSTEM = load_prompt("analyst_success", env="searchqa")
MERGE_SYSTEMS = {load_prompt(n): n for n in ("merge_failure", "merge_success", "merge_final")}
RANKING_SYSTEM = load_prompt("ranking")
SLOW_SYSTEM = load_prompt("slow_update")
META_SYSTEM = load_prompt("meta_skill")


def current_skill_of(user: str) -> str:
    return user.split("## Current Skill\n", 1)[1]


def trajectories_of(user: str) -> list[tuple[str, str, str]]:
    """(id, kind, topic) of each trajectory block the analyst is shown."""
    return re.findall(r"### Trajectory \d+ \(id=([^)]+)\).*?## Question\n\[(\w+):(\w+)\]", user, re.S)


def analyst_reply(user: str, failure: bool) -> str:
    skill = re.split(r"\n\n## \w+ Budget\n", current_skill_of(user), maxsplit=1)[0]
    shown = trajectories_of(user)
    ids = [i for i, _, _ in shown]
    if "tr09" in ids and failure:
        return "I could not find a pattern worth a rule."  # malformed: no JSON
    edits, summary = [], []
    for _, kind, topic in shown:
        if kind == "fix" and f"Rule: {topic}" not in skill:
            edits.append({"op": "append", "content": f"- Rule: {topic} answers come from the last passage."})
            summary.append({"failure_type": "missing_rule", "count": 1, "description": f"No rule for {topic}"})
        elif kind == "never":
            # A harmful proposal: it breaks the fragile items.
            edits.append({"op": "insert_after", "target": "- Answer briefly.", "content": "- Avoid zeta and lambda questions."})
            summary.append({"failure_type": "hopeless", "count": 1, "description": f"{topic} is never answerable"})
        elif kind == "always" and not failure and "- Answer briefly.\n" in skill and "SLOW_UPDATE" not in skill:
            edits.append({"op": "replace", "target": "- Answer briefly.", "content": "- Answer briefly, copying the passage's words."})
    reply = {"patch": {"reasoning": "from " + ", ".join(ids), "edits": edits}}
    if failure:
        reply = {"failure_summary": summary, **reply}
        reply["batch_size"] = len(ids)
    text = json.dumps(reply, ensure_ascii=False)
    return f"Here is my analysis.\n```json\n{text}\n```" if len(ids) == 1 else text


def merge_reply(user: str, role: str) -> str:
    header = "## Two pre-merged patch groups" if role == "merge_final" else "## Patches to merge"
    body = user[user.index(header):]
    patches = json.loads(body[body.index("\n[") + 1:])
    edits = [e for p in patches for e in p.get("edits", [])]
    if role == "merge_failure" and any("Avoid" in str(e.get("content")) for e in edits):
        return '{"edits": [unparseable'  # malformed: the merge falls back to concatenation
    merged, seen = [], {}
    for e in edits:
        key = str(e.get("content"))
        if key in seen:
            seen[key]["support_count"] = seen[key].get("support_count", 1) + e.get("support_count", 1)
            continue
        out = {k: v for k, v in e.items() if k != "merge_level"}
        seen[key] = out
        merged.append(out)
    return json.dumps({"reasoning": f"{role}: {len(edits)} -> {len(merged)}", "edits": merged}, ensure_ascii=False)


def ranking_reply(user: str) -> str:
    lines = re.findall(r"^\[(\d+)\] (.*)$", user, re.M)
    rules = [int(i) for i, text in lines if "Rule:" in text]
    others = [int(i) for i, text in lines if "Rule:" not in text]
    # Quirks exercised: a string index and an out-of-range one are dropped; the booleans pass as 0/1.
    return json.dumps({"ranking": "rules first", "selected_indices": ["0", 99, *rules, True, *others]})


def optimizer_reply(system: str, user: str) -> str:
    if system == ERROR_SYSTEM:
        return analyst_reply(user, failure=True)
    if system == SUCCESS_SYSTEM:
        return analyst_reply(user, failure=False)
    if system in MERGE_SYSTEMS:
        return merge_reply(user, MERGE_SYSTEMS[system])
    if system == RANKING_SYSTEM:
        return ranking_reply(user)
    if system == SLOW_SYSTEM:
        n_regressed = user.count("REGRESSED")
        guidance = "- Check every rule against the passages before answering.\n"
        if "(No previous guidance" not in user:
            # The second slow update also fixes a val-only topic: the final skill beats the best (promotion).
            guidance += "- Rule: omega answers come from the last passage.\n"
        return json.dumps({"reasoning": f"{n_regressed} regressions seen", "slow_update_content": guidance})
    if system == META_SYSTEM:
        return ("```json\n" + json.dumps({"reasoning": "memory", "meta_skill_content":
                "  Prefer rules tied to one topic; avoid edits that forbid topics.  "}) + "\n```")
    raise AssertionError(f"unknown optimizer role: {system[:80]!r}")


# ── Recording ────────────────────────────────────────────────────────────────

calls: list[dict] = []
rollouts: list[dict] = []


script_errors: list[str] = []


def fake_optimizer(system, user, max_completion_tokens=16384, retries=5, stage="optimizer", **kwargs):
    try:
        reply = optimizer_reply(system, user)
    except Exception as exc:  # upstream would swallow it as a failed call: make it loud instead
        script_errors.append(repr(exc))
        raise
    calls.append({"stage": stage, "maxCompletionTokens": max_completion_tokens, "system": system, "user": user,
                  "reply": reply})
    return reply, {}


def fake_target(system, user, **kwargs):
    return target_reply(system, user), {}


for module in (reflect, aggregate, clip, slow_update, meta_skill, trainer):
    module.chat_optimizer = fake_optimizer
rollout.chat_target = fake_target
rollout.is_target_exec_backend = lambda: False


class RecordingAdapter(SearchQAAdapter):
    """Upstream's SearchQA adapter; each rollout's skill and items are recorded (in the order asked)."""

    # Upstream finds the env's prompts from the adapter's module name, which is __main__ here.
    _env_name = "searchqa"

    def rollout(self, env_manager, skill_content, out_dir, **kwargs):
        results = super().rollout(env_manager, skill_content, out_dir, **kwargs)
        rollouts.append({"dir": os.path.relpath(out_dir, self._cfg["out_root"]), "skill": skill_content,
                         "itemIds": [str(it["id"]) for it in env_manager],
                         "resultIds": [str(r["id"]) for r in results]})
        return results


def write_split(split_dir):
    for name, items in (("train", TRAIN), ("val", VAL), ("test", TEST)):
        os.makedirs(os.path.join(split_dir, name), exist_ok=True)
        with open(os.path.join(split_dir, name, "items.json"), "w", encoding="utf-8") as f:
            json.dump(items, f, ensure_ascii=False, indent=2)


def upstream_cfg(s, out_root, split_dir, skill_path):
    return {
        "out_root": out_root, "skill_init": skill_path, "split_mode": "split_dir", "split_dir": split_dir,
        "model_backend": "openai_chat", "optimizer_model": "fake-optimizer", "target_model": "fake-target",
        "reasoning_effort": "",
        **s["train"],
        **{k: v for k, v in s["gradient"].items()},
        "edit_budget": s["optimizer"]["learning_rate"], "min_edit_budget": s["optimizer"]["min_learning_rate"],
        **{k: v for k, v in s["optimizer"].items() if k not in ("learning_rate", "min_learning_rate")},
        **s["evaluation"],
    }


def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def run_scenario(name, settings, tmp):
    calls.clear()
    rollouts.clear()
    out_root = os.path.join(tmp, "out")
    split_dir = os.path.join(tmp, "split")
    skill_path = os.path.join(tmp, "initial.md")
    write_split(split_dir)
    with open(skill_path, "w", encoding="utf-8") as f:
        f.write(INITIAL_SKILL)
    g, o = settings["gradient"], settings["optimizer"]
    adapter = RecordingAdapter(
        split_dir=split_dir, split_mode="split_dir", workers=settings["env"]["workers"],
        analyst_workers=g["analyst_workers"], failure_only=g["failure_only"], minibatch_size=g["minibatch_size"],
        edit_budget=o["learning_rate"], seed=settings["train"]["seed"], max_turns=settings["env"]["max_turns"],
    )
    trainer.ReflACTTrainer(upstream_cfg(settings, out_root, split_dir, skill_path), adapter).train()

    history = read_json(os.path.join(out_root, "history.json"))
    summary = read_json(os.path.join(out_root, "summary.json"))
    for key in ("config", "total_wall_time_s", "token_summary"):
        summary.pop(key, None)
    skills_dir = os.path.join(out_root, "skills")
    skills = {}
    for file_name in sorted(os.listdir(skills_dir)):
        with open(os.path.join(skills_dir, file_name), encoding="utf-8") as f:
            skills[file_name] = f.read()
    with open(os.path.join(out_root, "best_skill.md"), encoding="utf-8") as f:
        best_skill = f.read()
    epoch_end = {}
    for sub in ("slow_update", "meta_skill"):
        for epoch_dir in sorted(os.listdir(os.path.join(out_root, sub))):
            result = os.path.join(out_root, sub, epoch_dir, "slow_result.json" if sub == "slow_update" else "meta_skill_result.json")
            epoch_end[f"{sub}/{epoch_dir}"] = read_json(result)
    assert not script_errors, script_errors
    print(f"{name}: {len(calls)} optimizer calls, {len(rollouts)} rollouts, actions {[h['action'] for h in history]}, "
          f"epoch end {[v.get('action') for v in epoch_end.values()]}", file=sys.stderr)
    return {
        "name": name,
        "settings": settings,
        "optimizerCalls": list(calls),
        "rollouts": list(rollouts),
        "history": history,
        "summary": summary,
        "epochEnd": epoch_end,
        "skills": skills,
        "bestSkill": best_skill,
    }


def main():
    scenarios = []
    for name, settings in SCENARIOS:
        with tempfile.TemporaryDirectory() as tmp:
            scenarios.append(run_scenario(name, settings, tmp))

    seed = scenarios[0]
    actions = [h["action"] for h in seed["history"]]
    for wanted in ("accept", "reject", "skip_no_patches"):
        assert any(wanted in a for a in actions), f"no {wanted} step in {actions}"
    assert "ranking" in [c["stage"] for c in seed["optimizerCalls"]], "no ranking call"
    assert any(c["reply"].startswith('{"edits": [unparseable') for c in seed["optimizerCalls"]), "no malformed merge reply"
    assert seed["epochEnd"]["slow_update/epoch_02"]["action"] == "force_accept", seed["epochEnd"]
    assert seed["epochEnd"]["meta_skill/epoch_02"]["action"] == "write_meta_skill", seed["epochEnd"]

    golden = {
        "about": "Upstream SkillOpt's ReflACTTrainer.train() (commit in UPSTREAM_COMMIT) on a scripted world, recorded by "
                 f"tests/optimize/golden/record_loop.py with python {sys.version.split()[0]}. Do not edit by hand.",
        "initialSkill": INITIAL_SKILL,
        "items": {"train": TRAIN, "val": VAL, "test": TEST},
        "scenarios": scenarios,
    }
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(golden, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"wrote {OUT}", file=sys.stderr)

if __name__ == "__main__":
    main()

"""Writes tests/fixtures/skillopt-output/: a tiny SkillOpt output directory laid out exactly as
skillopt/engine/trainer.py writes it (same file names, keys and json.dump style), for `optimize import`.
One epoch of two steps (an accepted step with a failure patch, then a step with no patches), the epoch-1 slow
update placeholder (which overwrites skills/skill_v0002.md) and the first-epoch meta skill skip; config.json carries
a redacted key as upstream's _redact_cfg leaves it. Run: python3 tests/support/make-skillopt-fixture.py
"""
import json
import os

ROOT = os.path.join(os.path.dirname(__file__), "..", "fixtures", "skillopt-output")
INIT = "# Topic answering\n\nRead the passages and answer with one title.\n\n## Topic rules\n"
RULE = "- [topic: t1] questions: the answer is the title of the second passage (Café Müller)."
CAND = INIT + RULE + "\n"
# inject_empty_slow_update_field (skillopt/optimizer/slow_update.py) appends the empty field.
PLACEHOLDER = CAND.rstrip() + "\n\n<!-- SLOW_UPDATE_START -->\n<!-- SLOW_UPDATE_END -->\n"


def dump(path, obj, ensure_ascii=False):
    path = os.path.join(ROOT, path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(obj, f, indent=2, ensure_ascii=ensure_ascii)


def text(path, content):
    path = os.path.join(ROOT, path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(content)


config = {"optimizer_model": "gpt-5.5", "target_model": "gpt-5.5", "num_epochs": 1, "train_size": 4, "batch_size": 2,
          "accumulation": 1, "seed": 42, "edit_budget": 4, "min_edit_budget": 2, "use_slow_update": True,
          "use_meta_skill": True, "env": "searchqa", "azure_api_key": "sk-1...wxyz",
          "steps_per_epoch": 2, "batches_per_epoch": 2, "samples_per_epoch": 4, "skill_update_mode": "patch", "lr_control_mode": "fixed"}
dump("config.json", config)
step1 = {"step": 1, "epoch": 1, "step_in_epoch": 0, "timing": {"rollout_s": 1.0, "reflect_s": 2.0, "aggregate_s": 0.5, "select_s": 0.3, "update_s": 0.0, "evaluate_s": 1.2},
         "tokens": {}, "rollout_hard": 0.5, "rollout_soft": 0.5, "rollout_n": 2,
         "accumulation_batches": [{"batch_idx": 0, "batch_seed": 43, "n_envs": 2, "hard": 0.5, "soft": 0.5, "n_failure_patches": 1, "n_success_patches": 0}],
         "n_patches": 1, "n_failure_patches": 1, "n_success_patches": 0, "n_edits_merged": 1, "n_edits_ranked": 1, "edit_budget": 4,
         "lr_control_mode": "fixed", "support_counts": [1], "candidate_hash": "0123456789abcdef", "candidate_skill_len": len(CAND),
         "edit_apply_summary": {"total": 1, "applied": 1, "skipped": 0, "errors": 0}, "selection_hard": 1.0, "selection_soft": 1.0,
         "gate_metric": "hard", "candidate_gate_score": 1.0, "action": "accept_new_best", "current_score": 1.0, "best_score": 1.0,
         "best_step": 1, "current_origin": "step_0001", "best_origin": "step_0001", "skill_len": len(CAND), "wall_time_s": 5.0}
step2 = {"step": 2, "epoch": 1, "step_in_epoch": 1, "timing": {"rollout_s": 1.0, "reflect_s": 0.0}, "tokens": {}, "rollout_hard": 1.0,
         "rollout_soft": 1.0, "rollout_n": 2,
         "accumulation_batches": [{"batch_idx": 0, "batch_seed": 44, "n_envs": 2, "hard": 1.0, "soft": 1.0, "n_failure_patches": 0, "n_success_patches": 0}],
         "n_patches": 0, "n_failure_patches": 0, "n_success_patches": 0, "action": "skip_no_patches", "current_score": 1.0,
         "best_score": 1.0, "best_step": 1, "skill_len": len(CAND), "wall_time_s": 1.0}
dump("history.json", [step1, step2])
dump("steps/step_0001/step_record.json", step1)
dump("steps/step_0002/step_record.json", step2)
text("steps/step_0001/candidate_skill.md", CAND)
dump("steps/step_0001/patches/minibatch_fail_000.json", {"batch_size": 1, "failure_summary": [{"failure_type": "rule_missing", "count": 1, "description": "No rule for t1."}],
     "patch": {"reasoning": "Add the t1 rule.", "edits": [{"op": "insert_after", "target": "## Topic rules", "content": RULE}]}, "source_type": "failure"})
text("skills/skill_v0000.md", INIT)
text("skills/skill_v0001.md", CAND)
text("skills/skill_v0002.md", PLACEHOLDER)  # step 2 wrote CAND; the slow update placeholder overwrote it
text("best_skill.md", CAND)
dump("slow_update/epoch_01/slow_result.json", {"action": "inject_placeholder", "epoch": 1}, ensure_ascii=True)
dump("meta_skill/epoch_01/meta_skill_result.json", {"action": "skip_first_epoch", "epoch": 1})
dump("runtime_state.json", {"last_completed_step": 2, "current_skill_path": "/runs/out/skills/skill_v0002.md", "current_score": 1.0,
     "current_origin": "slow_update_placeholder_epoch_01", "best_skill_path": "/runs/out/best_skill.md", "best_score": 1.0, "best_step": 1, "best_origin": "step_0001"})
summary = {"version": "skillopt-0.1.0", "config": config, "baseline_selection_hard": 0.5, "best_selection_hard": 1.0,
           "final_selection_hard": 1.0, "final_selection_soft": 1.0, "best_step": 1, "current_origin": "slow_update_placeholder_epoch_01",
           "best_origin": "step_0001", "total_steps": 2, "total_accepts": 1, "total_rejects": 0, "total_skips": 1,
           "epoch_stats": [{"epoch": 1, "steps": [1, 2], "accepts": 1, "rejects": 0, "skips": 1, "best_score_at_epoch_end": 1.0, "current_score_at_epoch_end": 1.0}],
           "baseline_test_hard": 0.5, "baseline_test_soft": 0.5, "test_hard": 1.0, "test_soft": 1.0, "final_test_hard": 1.0, "final_test_soft": 1.0,
           "test_delta_hard": 0.5, "final_test_delta_hard": 0.5, "total_wall_time_s": 12.5, "token_summary": {}}
dump("summary.json", summary)

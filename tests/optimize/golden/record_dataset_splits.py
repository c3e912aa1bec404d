"""Record how upstream SkillOpt splits the project's own fixture dataset, for `dataset split` (tests/cli/dataset-split.test.ts).

Run from the repository root with python3.11 (the Python the seed targets):

    python3 tests/optimize/golden/record_dataset_splits.py > tests/fixtures/golden/dataset-splits.json

Upstream's SearchQADataLoader reads tests/fixtures/datasets/searchqa-mini.jsonl itself (ratio mode: data_path), so
the recorded parts are what SkillOpt makes of the very file the CLI test imports: the items and their order.
The upstream package is imported from ../shared/seed/skillopt (override with SKILLOPT_SEED_DIR).
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import tempfile

SEED_DIR = os.environ.get(
    "SKILLOPT_SEED_DIR",
    os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "shared", "seed", "skillopt"),
)
sys.path.insert(0, os.path.abspath(SEED_DIR))

DATASET = "tests/fixtures/datasets/searchqa-mini.jsonl"
# (ratio, split_seed): the CLI default, another seed, another ratio, and split_seed 0 (upstream: the training seed, 42)
CASES = [("2:1:7", 42), ("2:1:7", 7), ("1:1:1", 42), ("3:1:1", 123), ("2:1:7", 0)]


def upstream_split(ratio: str, split_seed: int) -> dict:
    from skillopt.envs.searchqa.dataloader import SearchQADataLoader

    with tempfile.TemporaryDirectory() as tmp:
        loader = SearchQADataLoader(
            data_path=os.path.abspath(DATASET), split_mode="ratio", split_ratio=ratio, split_seed=split_seed,
            split_output_dir=os.path.join(tmp, "out"), seed=42,
        )
        with contextlib.redirect_stdout(io.StringIO()):
            loader.setup({})
        return {name: [item["id"] for item in loader.get_split_items(name)] for name in ("train", "val", "test")}


def main() -> None:
    out = {
        "python": sys.version.split()[0],
        "dataset": DATASET,
        "ratio_splits": [
            {"ratio": ratio, "split_seed": split_seed, "split": upstream_split(ratio, split_seed)} for ratio, split_seed in CASES
        ],
    }
    sys.stdout.write(json.dumps(out, ensure_ascii=False, indent=1) + "\n")


if __name__ == "__main__":
    main()

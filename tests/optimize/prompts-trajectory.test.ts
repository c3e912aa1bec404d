/**
 * The analyst sees Skillboard's own rollout rows the way upstream's analyst sees its prediction files: the items
 * of the golden analyst cases are rolled out here with Skillboard's processItem (the target model replaying the
 * recorded replies), and analystTrajectory must give back the trajectories upstream's process_one produced.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { ChatModel } from "@/lib/model/types";
import { analystTrajectory, type AnalystTrajectory } from "@/lib/optimize/prompts/trajectory";
import { buildSystemPrompt } from "@/lib/prompts";
import { processItem } from "@/lib/rollout/process-item";
import type { DatasetItem } from "@/lib/datasets/types";

interface Golden {
  rollout: { skill: string; items: { item: DatasetItem; replies: string[]; maxTurns: number }[] };
  analyst: { input: { trajectories: AnalystTrajectory[] } }[];
}

const golden = JSON.parse(
  readFileSync(new URL("../fixtures/golden/optimize-prompts.json", import.meta.url), "utf8"),
) as Golden;

const upstreamTrajectories = new Map(
  golden.analyst.flatMap((c) => c.input.trajectories).map((t) => [t.id, t] as const),
);

function replaying(replies: readonly string[]): ChatModel {
  const queue = [...replies];
  return {
    backend: "openai",
    model: "replay",
    complete: () => {
      const text = queue.shift();
      if (text === undefined) throw new Error("no recorded reply left");
      return Promise.resolve({ text, promptTokens: 0, completionTokens: 0, attempts: 1, retries: 0, rateLimited: 0 });
    },
  } as ChatModel;
}

describe("analyst trajectories from Skillboard rollout rows", () => {
  it("covers every answered row of the analyst cases", () => {
    const answered = [...upstreamTrajectories.values()].filter((t) => t.conversation !== null).map((t) => t.id);
    expect(golden.rollout.items.map((c) => c.item.id).sort()).toEqual([...new Set(answered)].sort());
  });

  it.each(golden.rollout.items)("row $item.id", async ({ item, replies, maxTurns }) => {
    const systemPrompt = buildSystemPrompt(golden.rollout.skill);
    const row = await processItem(
      { ...item, datasetItemId: 1 },
      {
        model: replaying(replies),
        systemPrompt,
        settings: {
          maxTurns,
          maxCompletionTokens: 16384,
          temperature: undefined,
          diagnosticMode: false,
          diagnosticInstruction: "",
          execTimeoutS: 120,
        },
        signal: new AbortController().signal,
      },
    );
    expect(analystTrajectory(row, systemPrompt)).toEqual(upstreamTrajectories.get(item.id));
  });
});

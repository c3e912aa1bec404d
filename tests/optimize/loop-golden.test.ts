/**
 * Seed parity of the whole training loop. tests/fixtures/golden/optimize-loop.json is written by
 * tests/optimize/golden/record_loop.py, which runs upstream SkillOpt's own `ReflACTTrainer.train()` (SearchQA adapter,
 * rollout, reflect, merge, ranking, gate, slow update, meta skill) on a scripted world with one worker. Here our
 * `train()` runs on the same world: the rollout is Skillboard's own `processItem` against a target model that is the
 * TypeScript port of the recorder's `target_reply`, and every optimizer call is answered with the reply upstream got
 * for the same (system, user). Prompts, rollouts, history, summary and skills must come out the same.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { DatasetItem } from "@/lib/datasets/types";
import { ModelCallError } from "@/lib/model";
import type { ChatModel, ChatRequest, ChatResponse } from "@/lib/model/types";
import type { LoopIO, OptimizerCallRequest, RolloutRequest, SplitName, StageRecord } from "@/lib/optimize/loop/io";
import { train, type TrainOutcome } from "@/lib/optimize/loop/train";
import { parseOptimizeSettings } from "@/lib/optimize/settings";
import { buildSystemPrompt } from "@/lib/prompts";
import { processItem } from "@/lib/rollout/process-item";
import type { ItemResult } from "@/lib/runs/types";

interface RecordedCall {
  stage: string;
  maxCompletionTokens: number;
  system: string;
  user: string;
  reply: string;
}

interface Scenario {
  name: string;
  settings: Record<string, unknown>;
  optimizerCalls: RecordedCall[];
  rollouts: { dir: string; skill: string; itemIds: string[]; resultIds: string[] }[];
  history: Record<string, unknown>[];
  summary: Record<string, unknown>;
  epochEnd: Record<string, Record<string, unknown>>;
  skills: Record<string, string>;
  bestSkill: string;
}

interface Golden {
  initialSkill: string;
  items: Record<SplitName, DatasetItem[]>;
  scenarios: Scenario[];
}

const golden = JSON.parse(readFileSync(new URL("../fixtures/golden/optimize-loop.json", import.meta.url), "utf8")) as Golden;

/** record_loop.py `target_reply`: the answer depends only on the prompts (the skill is in the system prompt). */
function targetReply(system: string, user: string): string {
  const question = user.slice(user.indexOf("## Question\n") + "## Question\n".length);
  const [, kind, topic] = /^\[(\w+):(\w+)\]/.exec(question)!;
  const gold = new RegExp(`The answer for ${topic} is ([^.]+)\\.`).exec(user)![1]!;
  if (kind === "error" && !system.includes("SLOW_UPDATE")) throw new ModelCallError(`HTTP 500: upstream "${topic}" down`, { stats: { attempts: 1, retries: 0, rateLimited: 0 } });
  const right = { error: false, fix: system.includes(`Rule: ${topic}`), fragile: !system.includes(`Avoid ${topic}`), always: true, never: false }[kind!];
  const answer = right ? gold : `${gold.split(" ")[0]} Unknown`;
  return `Looking for ${topic} in the context.\n<answer>${answer}</answer>`;
}

const target: ChatModel = {
  backend: "openai",
  model: "fake-target",
  complete(request: ChatRequest): Promise<ChatResponse> {
    const [system, user] = request.messages;
    return Promise.resolve({ text: targetReply(system!.content, user!.content), promptTokens: 0, completionTokens: 0, attempts: 1, retries: 0, rateLimited: 0 });
  },
};

interface Sent {
  stage: string;
  maxCompletionTokens: number;
  system: string;
  user: string;
}

/** The loop's world in memory: rollouts through processItem, optimizer replies from the fixture, stages kept. */
class GoldenIO implements LoopIO {
  constructor(private readonly scenario: Scenario) {}

  readonly rollouts: { key: string; skill: string; split: SplitName; itemIds: string[]; rows: ItemResult[] }[] = [];
  readonly sent: Sent[] = [];
  readonly stages: StageRecord[] = [];
  private readonly byId = new Map(Object.values(golden.items).flat().map((item, index) => [item.id, { ...item, datasetItemId: index + 1 }]));

  async rollout(request: RolloutRequest) {
    const itemIds = [...(request.itemIds ?? golden.items[request.split].map((item) => item.id))];
    const systemPrompt = buildSystemPrompt(request.skill);
    const settings = { maxTurns: 1, maxCompletionTokens: 16384, temperature: undefined, diagnosticMode: false, diagnosticInstruction: "", execTimeoutS: 120 };
    const rows: ItemResult[] = [];
    for (const id of itemIds) {
      rows.push(await processItem(this.byId.get(id)!, { model: target, systemPrompt, settings, signal: new AbortController().signal }));
    }
    this.rollouts.push({ key: request.key, skill: request.skill, split: request.split, itemIds, rows });
    return { runId: this.rollouts.length, systemPrompt, rows };
  }

  skillVersion(): Promise<number> {
    return Promise.resolve(1);
  }

  callOptimizer(call: OptimizerCallRequest): Promise<string | undefined> {
    const [system, user] = call.request.messages;
    this.sent.push({ stage: call.request.stage, maxCompletionTokens: call.request.maxCompletionTokens, system: system.content, user: user.content });
    // Upstream's reply to the same prompts; none (a prompt upstream never sent) is the failed-call path.
    const recorded = this.scenario.optimizerCalls.find((c) => c.system === system.content && c.user === user.content);
    return Promise.resolve(recorded?.reply);
  }

  saveStage(stage: StageRecord): Promise<void> {
    this.stages.push(stage);
    return Promise.resolve();
  }

  approval() {
    return Promise.resolve({ decision: "none" as const });
  }

  requestApproval(): Promise<void> {
    throw new Error("approval is automatic in seed mode");
  }

  checkpoint(): Promise<void> {
    return Promise.resolve();
  }

  log(): void {}
}

/** A record as JSON sees it, without what depends on the clock or the token counter. */
function comparable(record: Record<string, unknown>, drop: readonly string[] = []): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(record)) as Record<string, unknown>;
  for (const key of ["timing", "tokens", "wall_time_s", "time_s", ...drop]) delete copy[key];
  return copy;
}

async function runScenario(scenario: Scenario): Promise<{ io: GoldenIO; outcome: TrainOutcome }> {
  const io = new GoldenIO(scenario);
  const outcome = await train({
    io,
    settings: parseOptimizeSettings(scenario.settings),
    initialSkill: golden.initialSkill,
    split: { train: golden.items.train.map((i) => i.id), val: golden.items.val.map((i) => i.id), test: golden.items.test.map((i) => i.id) },
  });
  return { io, outcome };
}

const [seed, gated] = golden.scenarios as [Scenario, Scenario];

describe("the recorded upstream runs", () => {
  it("cover accept, reject, skip, ranking, malformed replies, the slow update, the meta skill and a promotion", () => {
    const actions = seed.history.map((h) => h.action);
    expect(actions).toEqual(expect.arrayContaining(["reject", "accept_new_best", "skip_no_patches"]));
    expect(seed.optimizerCalls.map((c) => c.stage)).toEqual(expect.arrayContaining(["analyst", "merge", "ranking", "slow_update", "meta_skill"]));
    expect(seed.optimizerCalls.some((c) => c.stage === "merge" && c.reply.startsWith('{"edits": [unparseable'))).toBe(true);
    expect(seed.optimizerCalls.some((c) => c.stage === "analyst" && !c.reply.includes("{"))).toBe(true);
    expect(seed.epochEnd["slow_update/epoch_02"]?.action).toBe("force_accept");
    expect(seed.epochEnd["meta_skill/epoch_02"]?.action).toBe("write_meta_skill");
    // Epoch 3's prompts carry epoch 2's meta skill; the final (slow-updated) skill is promoted over the best.
    expect(seed.optimizerCalls.some((c) => c.stage === "analyst" && c.user.includes("Prefer rules tied to one topic"))).toBe(true);
    expect(seed.summary.best_origin).toBe("slow_update_epoch_03");
  });

  it("cover accumulation, a gated slow update, the changed-pairs top-up and first-N val and test items", () => {
    expect(gated.rollouts.some((r) => r.dir.startsWith("steps/step_0001/batch_1/"))).toBe(true);
    expect(gated.epochEnd["slow_update/epoch_02"]?.action).toBe("reject");
    expect(gated.rollouts.filter((r) => r.dir.includes("/topup/")).length).toBeGreaterThan(0);
    expect(gated.rollouts.find((r) => r.dir === "selection_eval_baseline")?.itemIds).toHaveLength(5);
    expect(gated.rollouts.find((r) => r.dir === "test_eval_baseline")?.itemIds).toHaveLength(4);
  });
});

describe.each(golden.scenarios)("our train() against upstream's ReflACTTrainer.train(): $name", (scenario) => {
  let io: GoldenIO;
  let outcome: TrainOutcome;
  beforeAll(async () => {
    ({ io, outcome } = await runScenario(scenario));
  });

  it("sends upstream's optimizer prompts, byte for byte, in the same order", () => {
    const expected = scenario.optimizerCalls.map(({ stage, maxCompletionTokens, system, user }) => ({ stage, maxCompletionTokens, system, user }));
    for (let i = 0; i < Math.max(expected.length, io.sent.length); i++) {
      expect(io.sent[i], `optimizer call ${i + 1}`).toEqual(expected[i]);
    }
  });

  it("rolls out the same skills on the same items, in the same order", () => {
    expect(io.rollouts.map((r) => ({ skill: r.skill, itemIds: r.itemIds }))).toEqual(scenario.rollouts.map((r) => ({ skill: r.skill, itemIds: r.itemIds })));
    expect(scenario.rollouts.every((r) => r.resultIds.join() === r.itemIds.join())).toBe(true);
  });

  it("writes upstream's history.json (timings and tokens aside)", () => {
    expect(outcome.state.history.map((h) => comparable(h.record))).toEqual(scenario.history.map((h) => comparable(h)));
  });

  it("writes upstream's summary.json (config, wall time and tokens aside)", () => {
    expect(comparable(outcome.summary, ["config", "total_wall_time_s", "token_summary"])).toEqual(scenario.summary);
  });

  it("records the epoch-end results upstream writes (slow_result.json, meta_skill_result.json)", () => {
    const ours = Object.fromEntries(
      io.stages
        .filter((s) => s.kind === "slow_update" || s.kind === "meta_skill")
        .map((s) => [`${s.kind}/epoch_${String(s.epoch).padStart(2, "0")}`, comparable(s.record)]),
    );
    expect(ours).toEqual(Object.fromEntries(Object.entries(scenario.epochEnd).map(([k, v]) => [k, comparable(v)])));
  });

  it("saves upstream's skills/skill_vNNNN.md and best_skill.md", () => {
    const ours = Object.fromEntries([...outcome.state.savedSkills].map(([step, skill]) => [`skill_v${String(step).padStart(4, "0")}.md`, skill]));
    expect(ours).toEqual(scenario.skills);
    expect(outcome.state.bestSkill).toBe(scenario.bestSkill);
  });
});

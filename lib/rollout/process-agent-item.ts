import {
  AGENT_PROMPT, DEFAULT_OUTPUT_CAP_BYTES, buildTaskText, expandCommand, itemAgentGroupFile, itemWorkspaceDirectory, killLeftoverAgentGroup,
  prepareWorkspace, readFinalMessage, removeWorkspace, runAgentProcess, type AgentDefinition, type AgentProcessResult,
} from "../agent";
import { emFailReason, evaluate, evaluationRecord } from "../eval";
import { buildUserPrompt } from "../prompts";
import type { RunSettings } from "../runs/run-config";
import type { ConversationEntry, ItemExecRecord, ItemResult, RolloutItem } from "../runs/types";

/** What an agent run needs for every item; built once per execution (lib/rollout/agent-backend.ts). */
export interface AgentItemBackend {
  agent: AgentDefinition;
  /** Passed as {model}; none: the agent's own default. */
  model?: string;
  /** The rendered SKILL.md (stored as the run's system prompt). */
  skillMd: string;
  runId: number;
  /** Folder of the SQLite file; workspaces go under runs/<runId>/workspaces/. */
  dataDir: string;
  promptFile: string;
  env: Record<string, string>;
  keepWorkspaces: boolean;
}

/** Where the exec details of an item in flight are kept, so a task timeout can still store them. */
export interface ItemTrace {
  exec?: ItemExecRecord;
}

export interface ProcessAgentItemContext {
  backend: AgentItemBackend;
  settings: Pick<RunSettings, "maxTurns" | "execTimeoutS" | "diagnosticMode" | "diagnosticInstruction">;
  signal: AbortSignal;
  trace?: ItemTrace;
}

/**
 * The exec branch of the seed's process_one: each turn prepares the workspace afresh (SKILL.md and task.md,
 * later turns adding the previous attempt), runs the agent in it and takes its final message (or, failing
 * that, its raw output) as the response; the seed's stop rule, then the usual evaluation and row.
 * A non-zero exit or a failure to start is the item's "error: …" row (with the tail of stderr); the agent's
 * own timeout is a timeout row. Aborts (cancel, task timeout) kill the agent's group and are rethrown.
 * The workspace of a correct item is deleted unless the run keeps workspaces.
 */
export async function processAgentItem(item: RolloutItem, context: ProcessAgentItemContext): Promise<ItemResult> {
  const { backend, settings, signal } = context;
  const { agent } = backend;
  const trace = context.trace ?? {};
  const startedAt = new Date();
  const dir = itemWorkspaceDirectory(backend.dataDir, backend.runId, item.id);
  const groupFile = itemAgentGroupFile(backend.dataDir, backend.runId, item.id);
  // Resuming after a Skillboard that was killed outright: its agent for this item may still be at work in `dir`.
  killLeftoverAgentGroup(groupFile, dir);
  const capBytes = agent.outputCapBytes ?? DEFAULT_OUTPUT_CAP_BYTES;
  const timeoutS = Math.min(settings.execTimeoutS, agent.timeoutS);
  const conversation: ConversationEntry[] = [];
  let response = "";
  let taskText = "";
  let invocations = 0;

  const row = (fields: Pick<ItemResult, "failReason" | "status" | "phase">, exec: ItemExecRecord): ItemResult => {
    const finishedAt = new Date();
    return {
      itemId: item.id, datasetItemId: item.datasetItemId, question: item.question, goldAnswers: item.answers,
      em: 0, f1: 0, subEm: 0, hard: 0, soft: 0, predictedAnswer: "", response: "", agentOk: false, nTurns: 0,
      latencyMs: finishedAt.getTime() - startedAt.getTime(), promptTokens: 0, completionTokens: 0,
      attempts: invocations, retries: 0, rateLimited: 0, startedAt, finishedAt, userPrompt: taskText, conversation, exec,
      ...fields,
    };
  };

  let exec: ItemExecRecord | undefined;
  for (let turn = 0; turn < settings.maxTurns; turn++) {
    const first = turn === 0;
    const userPrompt = buildUserPrompt({
      question: item.question,
      context: item.context,
      diagnosticMode: first ? settings.diagnosticMode : false,
      diagnosticInstruction: first ? settings.diagnosticInstruction : "",
      diagnosticTraceContext: first ? (item.diagnosticTraceContext ?? "") : "",
    });
    taskText = buildTaskText(userPrompt, first ? "" : response);
    await prepareWorkspace({ dir, skillMd: backend.skillMd, taskText, skillCopies: agent.skillCopies });
    const command = expandCommand(agent, { workspace: dir, prompt: AGENT_PROMPT, promptFile: backend.promptFile, model: backend.model });
    invocations++;
    const toRecord = (result: AgentProcessResult) => execRecord(agent.name, command, result, dir, invocations);
    const result = await runAgentProcess({
      argv: command,
      cwd: dir,
      env: backend.env,
      stdin: agent.stdin === "prompt" ? AGENT_PROMPT : undefined,
      timeoutMs: timeoutS * 1000,
      signal,
      outputCapBytes: capBytes,
      onAborted: (snapshot) => void (trace.exec = toRecord(snapshot)),
      groupFile,
    });
    exec = toRecord(result);
    trace.exec = exec;
    if (result.outcome === "aborted") throw signal.reason instanceof Error ? signal.reason : new Error("aborted");
    if (result.outcome === "timeout") return row({ failReason: `exec-timeout-${formatSeconds(timeoutS)}s`, status: "timeout", phase: "timeout" }, exec);
    if (result.outcome === "spawn-error") return row({ failReason: `error: agent "${agent.name}" could not start: ${result.error}`, status: "error", phase: null }, exec);
    if (result.exitCode !== 0) {
      const how = result.exitCode === null ? `was killed by ${result.exitSignal}` : `exited with code ${result.exitCode}`;
      return row({ failReason: `error: agent "${agent.name}" ${how}: ${stderrTail(result.stderr.tail)}`, status: "error", phase: null }, exec);
    }
    const finalMessage = await readFinalMessage(agent.finalMessage, { stdout: result.stdout, workspace: dir, maxBytes: capBytes });
    // The seed: `final_message or raw`.
    response = finalMessage || result.stdout.text;
    conversation.push({ type: "message", turn: turn + 1, content: response });
    if (!first && response.toLowerCase().includes("<answer>")) break;
  }

  const scores = evaluate(response, item.answers);
  conversation.push({ role: "system", content: evaluationRecord(item.question, item.answers, scores) });
  const correct = scores.em >= 1;
  if (correct && !backend.keepWorkspaces && exec) {
    await removeWorkspace(dir);
    exec = { ...exec, workspaceKept: false };
  }
  const finishedAt = new Date();
  return {
    itemId: item.id, datasetItemId: item.datasetItemId, question: item.question, goldAnswers: item.answers,
    em: scores.em, f1: scores.f1, subEm: scores.subEm, hard: Math.trunc(scores.em), soft: scores.f1,
    predictedAnswer: scores.predictedAnswer,
    response,
    failReason: correct ? "" : emFailReason(scores.predictedAnswer, item.answers),
    agentOk: true,
    nTurns: conversation.length - 1,
    status: correct ? "correct" : "wrong",
    phase: null,
    latencyMs: finishedAt.getTime() - startedAt.getTime(),
    promptTokens: 0, completionTokens: 0, attempts: invocations, retries: 0, rateLimited: 0,
    startedAt, finishedAt, userPrompt: taskText, conversation,
    ...(exec ? { exec } : {}),
  };
}

function execRecord(agent: string, command: string[], result: AgentProcessResult, workspacePath: string, invocations: number): ItemExecRecord {
  return {
    agent, command, outcome: result.outcome, exitCode: result.exitCode, exitSignal: result.exitSignal, durationMs: result.durationMs,
    stdout: result.stdout.text, stderr: result.error ? `${result.error}\n${result.stderr.text}` : result.stderr.text,
    stdoutBytes: result.stdout.bytes, stderrBytes: result.stderr.bytes,
    stdoutTruncated: result.stdout.truncated, stderrTruncated: result.stderr.truncated,
    workspacePath, workspaceKept: true, invocations,
  };
}

/** The last lines of stderr for a fail reason: enough to see the error, short enough to group by. */
function stderrTail(stderr: string): string {
  const lines = stderr.split("\n").map((line) => line.trimEnd()).filter(Boolean);
  if (lines.length === 0) return "(nothing on stderr)";
  const tail = lines.slice(-5).join("\n");
  return tail.length > 1000 ? `…${tail.slice(-1000)}` : tail;
}

function formatSeconds(seconds: number): string {
  return Number.isInteger(seconds) ? String(seconds) : String(Number(seconds.toFixed(3)));
}

import {
  DEFAULT_OUTPUT_CAP_BYTES, buildTaskText, expandCommand, hopelessEvent, itemAgentGroupFile, itemAgentHomeDirectory, itemWorkspaceDirectory,
  killLeftoverAgentGroup, parseAgentEvents, prepareAgentHome, prepareWorkspace, readFinalMessage, removeAgentHome, removeWorkspace,
  runAgentProcess, type AgentDefinition, type AgentProcessResult, type AgentTrace,
} from "../agent";
import { emFailReason, evaluate, evaluationRecord } from "../eval";
import { FatalModelError } from "../model";
import { buildUserPrompt } from "../prompts";
import type { RunSettings } from "../runs/run-config";
import { trialItemKey, trialOf, type ConversationEntry, type ItemExecRecord, type ItemResult, type RolloutItem } from "../runs/types";

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
  /** The text the agent is asked (the seed's exec prompt, or its Claude Code wording). */
  prompt: string;
  env: Record<string, string>;
  /** The server's environment, for the provider's key variables (read when the agent's home is made). */
  serverEnv: Readonly<Record<string, string | undefined>>;
  keepWorkspaces: boolean;
}

/** Model server answers that retrying cannot fix: as on the chat path, they stop the run (lib/model/errors.ts). */
const FATAL_STATUSES = new Set([401, 403, 404]);

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
 * Each invocation gets a fresh config folder (CODEX_HOME / CLAUDE_CONFIG_DIR, agent-home.ts), removed with the item.
 * A non-zero exit, an error the agent reports in its events, or a failure to start is the item's "error: …" row
 * (the agent's own message, else the tail of stderr); a 401/403/404 from its model server throws FatalModelError,
 * which stops the run. The agent's own timeout is a timeout row. Aborts (cancel, task timeout) kill the agent's
 * group and are rethrown. The workspace of a correct item is deleted unless the run keeps workspaces.
 */
export async function processAgentItem(item: RolloutItem, context: ProcessAgentItemContext): Promise<ItemResult> {
  const home = itemAgentHomeDirectory(context.backend.dataDir, context.backend.runId, trialItemKey(item.id, trialOf(item)));
  try {
    return await runAgentTurns(item, context, home);
  } finally {
    // The agent's configuration folder never outlives the item (the workspace may be kept; this never is).
    await removeAgentHome(home);
  }
}

async function runAgentTurns(item: RolloutItem, context: ProcessAgentItemContext, home: string): Promise<ItemResult> {
  const { backend, settings, signal } = context;
  const { agent } = backend;
  const trace = context.trace ?? {};
  const startedAt = new Date();
  // Each trial of an item works in its own folder.
  const key = trialItemKey(item.id, trialOf(item));
  const dir = itemWorkspaceDirectory(backend.dataDir, backend.runId, key);
  const groupFile = itemAgentGroupFile(backend.dataDir, backend.runId, key);
  // Resuming after a Skillboard that was killed outright: its agent for this item may still be at work in `dir`.
  killLeftoverAgentGroup(groupFile, dir);
  const capBytes = agent.outputCapBytes ?? DEFAULT_OUTPUT_CAP_BYTES;
  const timeoutS = Math.min(settings.execTimeoutS, agent.timeoutS);
  const conversation: ConversationEntry[] = [];
  const usage = { promptTokens: 0, completionTokens: 0 };
  let response = "";
  let taskText = "";
  let invocations = 0;

  const row = (fields: Pick<ItemResult, "failReason" | "status" | "phase">, exec: ItemExecRecord): ItemResult => {
    const finishedAt = new Date();
    return {
      itemId: item.id, trial: trialOf(item), datasetItemId: item.datasetItemId, question: item.question, goldAnswers: item.answers,
      em: 0, f1: 0, subEm: 0, hard: 0, soft: 0, predictedAnswer: "", response: "", agentOk: false, nTurns: 0,
      latencyMs: finishedAt.getTime() - startedAt.getTime(), ...usage,
      attempts: invocations, retries: 0, rateLimited: 0, startedAt, finishedAt, userPrompt: taskText, conversation, exec,
      ...fields,
    };
  };
  const failed = (why: string, exec: ItemExecRecord) => row({ failReason: `error: agent "${agent.name}" ${why}`, status: "error", phase: null }, exec);

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
    const homeEnv = await prepareAgentHome(agent, home, backend.serverEnv);
    const command = expandCommand(agent, { workspace: dir, prompt: backend.prompt, promptFile: backend.promptFile, model: backend.model });
    invocations++;
    const toRecord = (result: AgentProcessResult) => execRecord(agent.name, command, result, dir, invocations);
    const result = await runAgentProcess({
      argv: command,
      cwd: dir,
      env: { ...backend.env, ...homeEnv },
      stdin: agent.stdin === "prompt" ? backend.prompt : undefined,
      timeoutMs: timeoutS * 1000,
      signal,
      outputCapBytes: capBytes,
      onAborted: (snapshot) => void (trace.exec = toRecord(snapshot)),
      groupFile,
      stopOnStdoutLine: (line) => hopelessEvent(line, agent.events),
    });
    exec = toRecord(result);
    trace.exec = exec;
    if (result.outcome === "aborted") throw signal.reason instanceof Error ? signal.reason : new Error("aborted");
    if (result.outcome === "timeout") return row({ failReason: `exec-timeout-${formatSeconds(timeoutS)}s`, status: "timeout", phase: "timeout" }, exec);
    if (result.outcome === "spawn-error") return failed(`could not start: ${result.error}`, exec);
    const events = parseAgentEvents(result.stdout.text, agent.events);
    addUsage(usage, events);
    if (result.outcome === "stopped") return failed(`could not reach its model server: ${result.stopReason}`, exec);
    if (events?.error && events.errorStatus !== undefined && FATAL_STATUSES.has(events.errorStatus)) {
      throw new FatalModelError(`agent "${agent.name}": ${events.error}`, { status: events.errorStatus, stats: { attempts: invocations, retries: 0, rateLimited: 0 } });
    }
    if (result.exitCode !== 0 || events?.error) {
      const how = result.exitCode === null ? `was killed by ${result.exitSignal}` : result.exitCode !== 0 ? `exited with code ${result.exitCode}` : "failed";
      // The agent's own message when its events give one (Codex and Claude Code print it on stdout), else stderr's tail.
      return failed(`${how}: ${events?.error ? oneParagraph(events.error) : stderrTail(result.stderr.tail)}`, exec);
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
    itemId: item.id, trial: trialOf(item), datasetItemId: item.datasetItemId, question: item.question, goldAnswers: item.answers,
    em: scores.em, f1: scores.f1, subEm: scores.subEm, hard: Math.trunc(scores.em), soft: scores.f1,
    predictedAnswer: scores.predictedAnswer,
    response,
    failReason: correct ? "" : emFailReason(scores.predictedAnswer, item.answers),
    agentOk: true,
    nTurns: conversation.length - 1,
    status: correct ? "correct" : "wrong",
    phase: null,
    latencyMs: finishedAt.getTime() - startedAt.getTime(),
    ...usage, attempts: invocations, retries: 0, rateLimited: 0,
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

function addUsage(usage: { promptTokens: number; completionTokens: number }, events: AgentTrace | null): void {
  usage.promptTokens += events?.usage?.inputTokens ?? 0;
  usage.completionTokens += events?.usage?.outputTokens ?? 0;
}

/** An agent's message on one line group, short enough for a fail reason. */
function oneParagraph(message: string): string {
  const text = message.trim();
  return text.length > 1000 ? `${text.slice(0, 1000)}…` : text;
}

function formatSeconds(seconds: number): string {
  return Number.isInteger(seconds) ? String(seconds) : String(Number(seconds.toFixed(3)));
}

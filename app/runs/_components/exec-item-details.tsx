import { hostname } from "node:os";
import { itemWorkspaceDirectory, listWorkspaceFiles, readWorkspaceFile, SKILL_FILE, TASK_FILE } from "@/lib/agent";
import { dataDirectory, getDb, getItemConversation, getItemExec, getRun } from "@/lib/db";
import type { ReactNode } from "react";
import { trialItemKey, type ItemExecRecord } from "@/lib/runs/types";
import { formatCount, formatLatency } from "@/app/_lib/format";
import { workspaceFilePath } from "../../_lib/workspace-file";
import { AgentTrace } from "./agent-trace";
import { visibleText } from "@/lib/text/visible-text";
import styles from "./agent.module.css";

/** Text files up to this size are shown inline; larger or binary ones are linked. */
const INLINE_MAX_BYTES = 64 * 1024;
const FILES_SHOWN = 200;

/**
 * How an item of an agent run went: the SKILL.md and task.md it was given, the agent's exit, duration and
 * output, and the files it left in its workspace (names and sizes; text files readable, never executed).
 * Renders nothing for an item without exec details (a chat run's item), so the item view can always mount it.
 */
export async function ExecItemDetails({ runId, itemId, trial = 1 }: { runId: number; itemId: string; trial?: number }) {
  const db = getDb();
  const exec = await getItemExec(db, runId, itemId, trial);
  if (!exec) return null;
  // The exec row exists, so the run does (rows go with their run).
  const [run, conversation] = await Promise.all([getRun(db, runId), getItemConversation(db, runId, itemId, trial)]);
  const workspace = itemWorkspaceDirectory(dataDirectory(), runId, trialItemKey(itemId, trial));
  // With workers on several machines, an item's workspace is on the machine that ran it.
  const elsewhere = exec.host != null && exec.host !== hostname() ? exec.host : null;
  const listing = exec.workspaceKept && !elsewhere ? await listWorkspaceFiles(workspace, FILES_SHOWN) : null;

  return (
    <section className={`card ${styles.section}`} aria-label="Agent execution">
      <h2>Agent execution</h2>
      <dl className={styles.facts}>
        <Fact label="Agent">{exec.agent}</Fact>
        <Fact label="Outcome">{outcomeLabel(exec)}</Fact>
        <Fact label="Duration">{formatLatency(exec.durationMs)}</Fact>
        <Fact label="Invocations">{String(exec.invocations)}</Fact>
        <Fact label="Workspace">{exec.workspaceKept ? exec.workspacePath : "deleted"}</Fact>
        {exec.host ? <Fact label="Ran on">{exec.workerName ? `${exec.host} (worker ${exec.workerName})` : exec.host}</Fact> : null}
      </dl>
      <details className={styles.block}>
        <summary>Command</summary>
        <pre>{exec.command.map(quoteArg).join(" ")}</pre>
      </details>
      <details className={styles.block}>
        <summary>SKILL.md <span className={styles.note}>{SKILL_FILE}</span></summary>
        <pre>{visibleText(run.systemPrompt)}</pre>
      </details>
      <details className={styles.block} open>
        <summary>task.md <span className={styles.note}>{TASK_FILE}{exec.invocations > 1 ? ", last turn" : ""}</span></summary>
        <pre>{visibleText(conversation?.userPrompt ?? "")}</pre>
      </details>
      <AgentTrace stdout={exec.stdout} />
      <Output label="stdout" text={exec.stdout} bytes={exec.stdoutBytes} truncated={exec.stdoutTruncated} open />
      <Output label="stderr" text={exec.stderr} bytes={exec.stderrBytes} truncated={exec.stderrTruncated} open={exec.exitCode !== 0} />
      <h3>Files in the workspace</h3>
      {!exec.workspaceKept ? (
        <p className="hint">The workspace was deleted (a correct item, or removed from the run page); start the run with “keep workspaces” to keep them all.</p>
      ) : elsewhere ? (
        <p className="hint">
          The workspace is on {elsewhere}, the machine that ran this item, at {exec.workspacePath}; its files can be read there.
        </p>
      ) : !listing ? (
        <p className="hint">The workspace is no longer on disk.</p>
      ) : (
        <WorkspaceFiles runId={runId} itemId={itemId} trial={trial} workspace={workspace} entries={listing.entries} truncated={listing.truncated} />
      )}
    </section>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function outcomeLabel(exec: ItemExecRecord): ReactNode {
  switch (exec.outcome) {
    case "exited":
      return exec.exitCode === 0 ? "exit code 0" : <span className={styles.bad}>{exec.exitCode === null ? `killed by ${exec.exitSignal}` : `exit code ${exec.exitCode}`}</span>;
    case "timeout":
      return <span className={styles.bad}>timed out (process group killed)</span>;
    case "aborted":
      return <span className={styles.bad}>stopped by the task timeout (process group killed)</span>;
    case "stopped":
      return <span className={styles.bad}>stopped: it could only keep retrying (process group killed)</span>;
    case "spawn-error":
      return <span className={styles.bad}>could not start</span>;
  }
}

function Output({ label, text, bytes, truncated, open }: { label: string; text: string; bytes: number; truncated: boolean; open?: boolean }) {
  return (
    <details className={styles.block} open={open}>
      <summary>
        {label} <span className={styles.note}>{formatCount(bytes)} bytes{truncated ? ", cut: its beginning and end are kept" : ""}</span>
      </summary>
      {/* An agent's output is full of "\r" (progress bars): shown visibly, so the page hydrates (see visible-text.ts). */}
      <pre>{text ? visibleText(text) : "(empty)"}</pre>
    </details>
  );
}

async function WorkspaceFiles({ runId, itemId, trial, workspace, entries, truncated }: {
  runId: number; itemId: string; trial: number; workspace: string; entries: { path: string; kind: string; size: number }[]; truncated: boolean;
}) {
  const rows = await Promise.all(
    entries.map(async (entry) => {
      const inline = entry.kind === "file" && entry.size <= INLINE_MAX_BYTES ? await readWorkspaceFile(workspace, entry.path, INLINE_MAX_BYTES) : null;
      return { ...entry, text: inline?.isText ? inline.content.toString("utf8") : null };
    }),
  );
  return (
    <table className={styles.files} aria-label="Workspace files">
      <thead>
        <tr>
          <th>File</th>
          <th className="num">Size</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.path}>
            <td>
              {row.kind !== "file" ? (
                <span className={styles.note}>{row.path}{row.kind === "directory" ? "/" : ` (${row.kind})`}</span>
              ) : row.text !== null ? (
                <details>
                  <summary>{row.path}</summary>
                  <pre>{visibleText(row.text)}</pre>
                </details>
              ) : (
                <a href={workspaceFilePath(runId, itemId, row.path, trial)}>{row.path}</a>
              )}
            </td>
            <td className="num">{row.kind === "file" ? formatCount(row.size) : ""}</td>
          </tr>
        ))}
        {truncated ? (
          <tr>
            <td colSpan={2} className={styles.note}>Only the first {FILES_SHOWN} entries are listed.</td>
          </tr>
        ) : null}
      </tbody>
    </table>
  );
}

/** A shell-like rendering of an argument list, for reading (nothing is ever run from it). */
function quoteArg(arg: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`;
}

import { workspacesDirectory } from "@/lib/agent/workspace";
import { countKeptWorkspaces, dataDirectory, getDb, getRun } from "@/lib/db";
import styles from "./agent.module.css";
import { RemoveWorkspacesButton } from "./remove-workspaces-button";

/**
 * For agent runs: where the item workspaces are, how many are kept (items that were not correct, or all with
 * "keep workspaces"), and a button to delete them once the run has stopped. Nothing for other runs.
 */
export async function AgentWorkspacesPanel({ runId }: { runId: number }) {
  const db = getDb();
  const run = await getRun(db, runId);
  if (run.config.model.backend !== "agent") return null;
  const kept = await countKeptWorkspaces(db, runId);
  const active = run.status === "running" || run.status === "queued";
  return (
    <section className={`card ${styles.panel}`} aria-label="Agent workspaces">
      <h2>Agent workspaces</h2>
      <p>
        Agent <code>{run.config.model.agent}</code>. {kept === 1 ? "1 item keeps its workspace" : `${kept} items keep their workspace`} in{" "}
        <code>{workspacesDirectory(dataDirectory(), runId)}</code>
        {run.config.model.keepWorkspaces ? " (all are kept)." : " (those of correct items are deleted)."}
      </p>
      {/* Always mounted, so its message stays after the page refreshes with nothing left to remove. */}
      <RemoveWorkspacesButton runId={runId} disabled={active || kept === 0} />
      {kept > 0 && active ? <p className="hint">They can be removed once the run has stopped.</p> : null}
    </section>
  );
}

/** `optimize list | status ID | cancel ID | approve ID [--skill FILE] | reject ID | export ID | import DIR`. */
import { parseArgs } from "node:util";
import {
  addSkillVersion, findPendingApproval, getOptimization, getSkillVersion, listOptimizations, listOptimizationSteps, requestOptimizationCancel,
  requeueOptimization, setOptimizationStepApproval, type Db,
} from "../../db";
import { CliInputError, logLine, writeOut } from "../io";
import { readTextFile } from "./prompt";
import { optimizeTransferCommand } from "./optimize-transfer";

const USAGE = "optimize: expected start, estimate, list, status ID, cancel ID, approve ID [--skill FILE], reject ID, export ID --format skillopt --out DIR, or import DIR";

function idOf(action: string, value: string | undefined): number {
  if (!value || !/^\d+$/.test(value)) throw new CliInputError(`optimize ${action}: expected an optimization id, got "${value ?? ""}"`);
  return Number(value);
}

export async function optimizeAdminCommand(db: () => Db, action: string | undefined, args: string[]): Promise<number> {
  switch (action) {
    case "list": {
      for (const row of await listOptimizations(db())) {
        const state = JSON.parse(row.stateJson) as Record<string, unknown>;
        await writeOut(`${JSON.stringify({ id: row.id, name: row.name, status: row.status, source: row.source, skill_version_id: row.initialVersionId, best_version_id: row.bestVersionId, best_val: state.best_score ?? null, created_at: row.createdAt.toISOString() })}\n`);
      }
      return 0;
    }
    case "status": {
      const id = idOf(action, args[0]);
      const row = await getOptimization(db(), id);
      const stages = await listOptimizationSteps(db(), id);
      await writeOut(`${JSON.stringify({
        id: row.id, name: row.name, status: row.status, source: row.source, stop_reason: row.stopReason, error: row.error,
        state: JSON.parse(row.stateJson), settings: JSON.parse(row.settingsJson), caps: JSON.parse(row.capsJson),
        spend: { target_calls: row.targetCalls, optimizer_calls: row.optimizerCalls, optimizer_tokens: row.optimizerTokens, active_s: row.activeMs / 1000 },
        initial_version_id: row.initialVersionId, current_version_id: row.currentVersionId, best_version_id: row.bestVersionId,
        stages: stages.map((stage) => ({ key: stage.key, kind: stage.kind, epoch: stage.epoch, action: stage.action, approval: stage.approval, candidate_version_id: stage.candidateVersionId, gate: stage.gateJson ? JSON.parse(stage.gateJson) : null })),
      })}\n`);
      return 0;
    }
    case "cancel": {
      const row = await requestOptimizationCancel(db(), idOf(action, args[0]));
      logLine(row.status === "cancelled" ? `optimization ${row.id} cancelled` : `optimization ${row.id}: cancel requested (${row.status})`);
      return 0;
    }
    case "approve":
    case "reject":
      return decide(db(), action, args);
    case "export":
    case "import":
      return optimizeTransferCommand(db, action, args);
    default:
      throw new CliInputError(USAGE);
  }
}

/**
 * A person's decision on the candidate waiting for approval. `approve --skill FILE` approves an edited candidate, which
 * is scored and gated again. The optimisation is queued again; `optimize start --resume ID` (or the dashboard) goes on.
 */
async function decide(db: Db, action: "approve" | "reject", args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { skill: { type: "string" } } });
  const id = idOf(action, positionals[0]);
  const row = await getOptimization(db, id);
  if (row.status !== "waiting_for_approval") throw new CliInputError(`optimize ${action}: optimization ${id} is ${row.status.replaceAll("_", " ")}, not waiting for approval`);
  const pending = await findPendingApproval(db, id);
  if (!pending) throw new CliInputError(`optimize ${action}: optimization ${id} has no candidate waiting`);
  if (action === "reject") {
    if (values.skill) throw new CliInputError("optimize reject: --skill is only for approve");
    await setOptimizationStepApproval(db, id, pending.key, "rejected");
  } else if (values.skill) {
    const initial = await getSkillVersion(db, row.initialVersionId);
    const parent = pending.candidateVersionId ?? row.currentVersionId ?? row.initialVersionId;
    const { version } = await addSkillVersion(db, { name: initial.skillName, content: readTextFile(values.skill), note: `edited candidate of optimization ${id} · ${pending.key}`, origin: { parentVersionId: parent, optimizationId: id, stepKey: `${pending.key}/edited` } });
    await setOptimizationStepApproval(db, id, pending.key, "edited", version.id);
  } else {
    await setOptimizationStepApproval(db, id, pending.key, "approved");
  }
  await requeueOptimization(db, id);
  logLine(`optimization ${id}: ${pending.key} ${action === "reject" ? "rejected" : values.skill ? "edited (it is gated again)" : "approved"}; continue with: optimize start --resume ${id}`);
  return 0;
}

/** `optimize list | status ID | cancel ID | approve ID [--skill FILE] | reject ID | export ID | import DIR`. */
import { parseArgs } from "node:util";
import { getOptimization, listOptimizations, listOptimizationSteps, requestOptimizationCancel, type Db } from "../../db";
import { ApprovalError, decideApproval } from "../../optimize/engine/approval";
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

/** A person's decision on the candidate waiting (lib/optimize/engine/approval.ts); `approve --skill FILE` approves an edited one. */
async function decide(db: Db, action: "approve" | "reject", args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { skill: { type: "string" } } });
  const id = idOf(action, positionals[0]);
  if (action === "reject" && values.skill) throw new CliInputError("optimize reject: --skill is only for approve");
  let outcome;
  try {
    outcome = await decideApproval(db, id, action, values.skill ? readTextFile(values.skill) : undefined);
  } catch (error) {
    if (error instanceof ApprovalError) throw new CliInputError(`optimize ${action}: ${error.message}`);
    throw error;
  }
  const said = { rejected: "rejected", edited: "edited (it is gated again)", approved: "approved" }[outcome.decision];
  logLine(`optimization ${id}: ${outcome.stepKey} ${said}; continue with: optimize start --resume ${id}`);
  return 0;
}

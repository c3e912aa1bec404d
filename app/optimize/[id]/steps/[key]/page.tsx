import type { Metadata } from "next";
import Link from "@/app/_components/link";
import { notFound } from "next/navigation";
import { SkillDiffView, type DiffLayout } from "@/app/_components/skill-diff-view";
import { formatLatency, formatPValue, formatScore, formatSigned, formatInterval, formatCount } from "@/app/_lib/format";
import { idOrNotFound, foundOrNotFound } from "@/app/_lib/not-found";
import { firstValue, type SearchParams } from "@/app/_lib/search-params";
import { compareHref } from "@/lib/compare";
import {
  getDb, getOptimization, getOptimizationStep, getSkillVersion, listOptimizationEdits, listOptimizationRunViews, listOptimizerCallBriefs,
  listItemQuestions, listRunItemOutcomes, listStageKeys, type OptimizationRunView, type OptimizerCallBrief,
} from "@/lib/db";
import { isAcceptedAction, stageGate, stageRecord } from "@/lib/optimize/overview";
import { CallText } from "./call-text";
import { DropEdits } from "./drop-edits";
import { EditCandidate } from "./edit-candidate";
import { MergeTree } from "./merge-tree";
import { StepNav } from "./step-nav";
import styles from "./step.module.css";

// Reads the database on every request.
export const dynamic = "force-dynamic";

interface Props {
  params: Promise<{ id: string; key: string }>;
  searchParams: Promise<SearchParams>;
}

const keyOf = (segment: string) => (segment.includes("%") ? decodeURIComponent(segment) : segment);
const stepHref = (id: number, key: string) => `/optimize/${id}/steps/${encodeURIComponent(key)}`;
function parseJson<T>(json: string, fallback: T): T {
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
}
const parseList = (json: string): string[] => parseJson<string[]>(json, []);

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id, key } = await params;
  return { title: `${keyOf(key)} · optimisation #${id}` };
}

export default async function StepPage({ params, searchParams }: Props) {
  const raw = await params;
  const id = idOrNotFound(raw.id);
  const key = keyOf(raw.key);
  const db = getDb();
  const optimization = await foundOrNotFound(getOptimization(db, id));
  const step = await getOptimizationStep(db, id, key);
  if (!step) notFound();
  const [keys, edits, calls, runs] = await Promise.all([listStageKeys(db, id), listOptimizationEdits(db, step.id), listOptimizerCallBriefs(db, id, key), listOptimizationRunViews(db, id)]);
  const index = keys.indexOf(key);
  const around = (k: string | undefined) => (k ? { key: k, href: stepHref(id, k) } : null);
  const record = stageRecord(step);
  const gate = stageGate(step);
  const layout: DiffLayout = firstValue((await searchParams).diff) === "split" ? "split" : "unified";
  const candidate = step.candidateVersionId ? await getSkillVersion(db, step.candidateVersionId) : null;
  const parent = candidate?.parentVersionId ? await getSkillVersion(db, candidate.parentVersionId) : null;
  const valRunOf = (versionId: number | undefined) => runs.find((run) => run.datasetId === optimization.valDatasetId && run.skillVersionId === versionId && run.status === "completed");
  const currentVal = valRunOf(parent?.id);
  const candidateVal = valRunOf(candidate?.id);
  const rollouts = runs.filter((run) => run.key.startsWith(`${key}/rollout/`));
  const batches = parseJson<string[][]>(step.batchItemIdsJson, []);
  const analyst = calls.filter((call) => call.stage.startsWith("analyst"));
  const others = calls.filter((call) => !call.stage.startsWith("analyst"));

  return (
    <>
      <p className={styles.breadcrumb}><Link href="/optimize">Optimisations</Link> / <Link href={`/optimize/${id}`}>{optimization.name ?? `#${id}`}</Link> /</p>
      <h1>{key} <span className="muted">· {step.kind.replaceAll("_", " ")} · epoch {step.epoch}</span></h1>
      <StepNav previous={around(keys[index - 1])} next={around(keys[index + 1])} />

      {gate || step.kind !== "step" ? <GatePanel gate={gate} action={step.action} approval={step.approval} record={record} currentVal={currentVal} candidateVal={candidateVal} /> : null}

      {batches.length > 0 ? (
        <section className={`card ${styles.card}`} aria-labelledby="batch-heading">
          <h2 id="batch-heading">Batch</h2>
          <p className="muted">Train score {formatScore(record.rollout_hard)} over {record.rollout_n ?? "–"} items with the current skill; failures are what the failure analyst read.</p>
          {await Promise.all(batches.map(async (ids, batch) => <BatchTable key={batch} batch={batch} ids={ids} run={rollouts.find((run) => run.key === `${key}/rollout/${batch}`)} trainDatasetId={optimization.trainDatasetId} />))}
        </section>
      ) : null}

      {edits.length > 0 || record.n_edits_merged !== undefined ? (
        <section className={`card ${styles.card}`} aria-labelledby="edits-heading">
          <h2 id="edits-heading">Edits</h2>
          <p className="muted">
            {record.n_patches ?? "–"} patches merged into {record.n_edits_merged ?? "–"} edits; {record.n_edits_ranked ?? edits.length} kept within the edit budget of {record.edit_budget ?? "–"}
            {typeof record.n_edits_merged === "number" && typeof record.n_edits_ranked === "number" && record.n_edits_merged > record.n_edits_ranked ? ` (${record.n_edits_merged - record.n_edits_ranked} cut by the budget: the ranking call below lists every merged edit, and its reply the indices kept)` : ""}.
          </p>
          <table aria-label="Ranked edits">
            <thead><tr><th className="num">#</th><th>Edit</th><th className="num">Support</th><th>Apply status</th><th>Proposed by</th></tr></thead>
            <tbody>
              {edits.map((edit) => {
                const proposed = parseJson<{ call: string; itemIds: string[] }[]>(edit.proposedByJson, []);
                return (
                  <tr key={edit.id} className={styles.edit}>
                    <td className="num">{edit.ordinal + 1}</td>
                    <td>
                      <strong>{edit.op}</strong>{edit.sourceType ? <span className="hint"> · {edit.sourceType}</span> : null}
                      {edit.target ? <><div className="hint">target</div><pre>{edit.target}</pre></> : null}
                      <div className="hint">content</div><pre>{edit.content}</pre>
                    </td>
                    <td className="num">{edit.supportCount ?? "–"}</td>
                    <td className={edit.applyStatus.startsWith("applied") ? styles.accepted : styles.skipped}>{edit.applyStatus.replaceAll("_", " ")}{edit.applyDetail ? <div className="hint">{edit.applyDetail}</div> : null}</td>
                    <td className={styles.ids}>
                      {proposed.length === 0 ? "–" : proposed.map((by) => (
                        <div key={by.call}><code>{by.call.slice(key.length + 1)}</code>: {by.itemIds.map((item, n) => <span key={item}>{n > 0 ? ", " : ""}<ItemLink runs={rollouts} batches={batches} itemId={item} /></span>)}</div>
                      ))}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </section>
      ) : null}

      {step.approval === "pending" && optimization.status === "waiting_for_approval" && candidate ? (
        <section className={`card ${styles.card}`} aria-labelledby="decide-heading">
          <h2 id="decide-heading">Waiting for your decision</h2>
          <p className="muted">Approve or reject the candidate on <Link href={`/optimize/${id}`}>the optimisation&apos;s page</Link>, or change it here (drop edits, or reword a rule) and approve your version.</p>
          {edits.length > 1 ? (
            <DropEdits optimizationId={id} edits={edits.map((edit) => ({ id: edit.id, ordinal: edit.ordinal, op: edit.op, summary: (edit.content || edit.target).split("\n")[0]!.slice(0, 200), applyStatus: edit.applyStatus }))} />
          ) : null}
          <EditCandidate optimizationId={id} content={candidate.content} />
        </section>
      ) : null}

      {candidate && parent ? (
        <SkillDiffView before={parent} after={candidate} layout={layout} layoutHref={(diff) => `${stepHref(id, key)}${diff === "split" ? "?diff=split" : ""}`} sameText="The candidate is the current skill" />
      ) : null}

      <MergeTree calls={calls} stepKey={key} />

      <CallSection id={id} title="Analyst calls" heading="analyst-heading" calls={analyst} stepKey={key} rollouts={rollouts} batches={batches} />
      <CallSection id={id} title="Merge, ranking and other calls" heading="merge-heading" calls={others} stepKey={key} rollouts={rollouts} batches={batches} />
    </>
  );
}

function GatePanel({ gate, action, approval, record, currentVal, candidateVal }: {
  gate: ReturnType<typeof stageGate>; action: string | null; approval: string | null; record: ReturnType<typeof stageRecord>;
  currentVal: OptimizationRunView | undefined; candidateVal: OptimizationRunView | undefined;
}) {
  const stats = gate?.statistics ?? null;
  const accepted = isAcceptedAction(action);
  // No statistics: the recorded reason (a skill that inherited its score has no val results to pair), else a dash.
  const note = gate?.statistics_note;
  const unmeasured = note ? "not measured" : "–";
  const rule = gate?.rule === "mcnemar" ? "McNemar's one-sided exact test on the changed val items (a deviation from the seed)" : gate?.rule === "none" ? "no gate: every candidate is accepted (a deviation from the seed)" : gate?.rule === "strict" ? "the seed's rule: the candidate's val score must be strictly higher than the current one's" : null;
  return (
    <section className={`card ${styles.card}`} aria-labelledby="gate-heading">
      <h2 id="gate-heading">Gate</h2>
      <dl className={styles.gate}>
        <div><dt>Val: current</dt><dd>{formatScore(gate?.score_before ?? record.current_score)}</dd></div>
        <div><dt>Val: candidate</dt><dd>{formatScore(gate?.candidate_score ?? record.selection_hard)}</dd></div>
        <div><dt>Fixed / broken on val</dt><dd data-testid="fixed-broken">{stats ? `+${stats.fixed} / −${stats.broken}` : note ?? "–"}</dd></div>
        <div><dt>McNemar p</dt><dd>{stats ? formatPValue(stats.p_value) : unmeasured}</dd></div>
        <div><dt>Difference (95% bootstrap)</dt><dd>{stats ? <>{formatSigned(stats.difference.mean)} {formatInterval(stats.difference)}</> : unmeasured}</dd></div>
        <div><dt>Decision</dt><dd data-testid="gate-decision" className={accepted ? styles.accepted : action === "reject" ? styles.rejected : undefined}>{(action ?? "–").replaceAll("_", " ")}</dd></div>
        <div><dt>Approval</dt><dd>{approval ?? "automatic"}</dd></div>
        <div><dt>Edit budget</dt><dd>{record.edit_budget ?? "–"}</dd></div>
      </dl>
      {gate?.current_val ? <p className="muted">The current skill inherited its val score {formatScore(gate.score_before)} from a slow update; it was rolled out on val for the statistics only and scored {formatScore(gate.current_val.hard)} there.</p> : null}
      {rule ? <p className="muted">Rule: {rule}{gate?.significant !== undefined ? `; significant: ${gate.significant ? "yes" : "no"}` : ""}.</p> : null}
      {currentVal && candidateVal && currentVal.runId !== candidateVal.runId ? (
        <p><Link href={compareHref({ runIds: [currentVal.runId, candidateVal.runId] })}>Compare the two val runs side by side</Link> (run #{currentVal.runId} → #{candidateVal.runId})</p>
      ) : candidateVal ? <p>Val run: <Link href={`/runs/${candidateVal.runId}`}>#{candidateVal.runId}</Link></p> : null}
    </section>
  );
}

async function BatchTable({ batch, ids, run, trainDatasetId }: { batch: number; ids: string[]; run: OptimizationRunView | undefined; trainDatasetId: number }) {
  const outcomes = run ? await listRunItemOutcomes(getDb(), run.runId) : [];
  const byId = new Map(outcomes.map((row) => [row.itemId, row]));
  // No rollout run (an imported optimisation): the questions from the train dataset, when it is stored here.
  const questions = run || trainDatasetId === 0 ? new Map<string, string>() : await listItemQuestions(getDb(), trainDatasetId, ids);
  return (
    <>
      <h3>
        Batch {batch}{run ? <> · <Link href={`/runs/${run.runId}`}>run #{run.runId}</Link> · {ids.filter((item) => (byId.get(item)?.hard ?? 1) < 1).length} failing of {ids.length}</> : <> · {ids.length} items <span className="hint">· outcomes not recorded: an imported optimisation&apos;s rollouts are not runs here</span></>}
      </h3>
      <table aria-label={`Batch ${batch} items`}>
        <thead><tr><th>Item</th><th>Outcome</th><th>Question</th><th>Answer</th></tr></thead>
        <tbody>
          {ids.map((item) => {
            const row = byId.get(item);
            return (
              <tr key={item}>
                <td>{run ? <Link href={`/runs/${run.runId}/items/${encodeURIComponent(item)}`}>{item}</Link> : item}</td>
                <td><span className={`badge ${row?.status ?? ""}`}>{row?.status ?? "–"}</span></td>
                <td>{row?.question ?? questions.get(item) ?? ""}</td>
                <td>{row?.predictedAnswer ?? ""}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}

function ItemLink({ runs, batches, itemId }: { runs: OptimizationRunView[]; batches: string[][]; itemId: string }) {
  const batch = batches.findIndex((ids) => ids.includes(itemId));
  const run = runs.find((candidate) => candidate.key.endsWith(`/rollout/${batch}`));
  return run ? <Link href={`/runs/${run.runId}/items/${encodeURIComponent(itemId)}`}>{itemId}</Link> : <>{itemId}</>;
}

function CallSection({ id, title, heading, calls, stepKey, rollouts, batches }: {
  id: number; title: string; heading: string; calls: OptimizerCallBrief[]; stepKey: string; rollouts: OptimizationRunView[]; batches: string[][];
}) {
  if (calls.length === 0) return null;
  return (
    <section className={`card ${styles.card}`} aria-labelledby={heading}>
      <h2 id={heading}>{title}</h2>
      <ul className={styles.calls}>
        {calls.map((call) => {
          const items = parseList(call.itemIdsJson);
          return (
            <li key={call.id} data-testid="optimizer-call">
              <strong>{call.key.slice(stepKey.length + 1)}</strong>
              <span className="hint"> · {call.stage}{call.mergeLevel !== null ? ` · level ${call.mergeLevel}` : ""} · {formatCount(call.promptTokens + call.completionTokens)} tokens · {formatLatency(call.latencyMs)} · {call.attempts} attempt{call.attempts === 1 ? "" : "s"}</span>
              {call.error ? <p className="error-box">{call.error}</p> : null}
              {items.length > 0 ? <div className={styles.ids}>Items seen: {items.map((item, n) => <span key={item}>{n > 0 ? ", " : ""}<ItemLink runs={rollouts} batches={batches} itemId={item} /></span>)}</div> : null}
              <CallText optimizationId={id} callId={call.id} />
            </li>
          );
        })}
      </ul>
    </section>
  );
}

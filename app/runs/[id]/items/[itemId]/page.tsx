import type { Metadata } from "next";
import Link from "@/app/_components/link";
import { notFound } from "next/navigation";
import { getDb, getItemConversation, getItemTrials, getStoredResult, getItemNeighbours, listItemInOtherRuns, getRunWithNames } from "@/lib/db";
import { defaultItemFilter, ITEM_FILTER_LABELS, parseItemQuery, withoutPage, type ItemQuery } from "@/lib/runs/item-query";
import { formatCount, modelLabel } from "@/app/_lib/format";
import { backToTableHref, itemHref } from "../../../_lib/item-links";
import { foundOrNotFound, idOrNotFound } from "../../../../_lib/not-found";
import { AnswerSummary, ItemFacts, OtherRuns, type TextLimit } from "./item-panels";
import { BLOCK_TEXT_CHARS, ShownText } from "../../../../_components/shown-text";
import { ExecItemDetails } from "../../../_components/exec-item-details";
import { ConversationView } from "./conversation-view";
import { ItemTrials } from "./item-trials";
import { ItemNav } from "@/app/_components/item-nav";
import styles from "./item.module.css";

// Reads the database on every request.
export const dynamic = "force-dynamic";

interface ItemPageProps {
  params: Promise<{ id: string; itemId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export async function generateMetadata({ params }: ItemPageProps): Promise<Metadata> {
  const { id, itemId } = await params;
  // Metadata may be handed the segment already decoded (a "%" in it then fails to decode): a title can live with that.
  let title = itemId;
  try {
    title = decodeURIComponent(itemId);
  } catch {}
  return { title: `Item ${title} · run #${id}` };
}

function clip(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max).join("")}…` : text;
}

/** `trial=N` of a run with K trials: 1 ≤ N ≤ K, else there is no such page. */
function trialOrNotFound(raw: string | string[] | undefined, trials: number): number {
  if (raw === undefined) return 1;
  const text = Array.isArray(raw) ? raw[0] : raw;
  if (!text || !/^\d{1,3}$/.test(text)) notFound();
  const trial = Number(text);
  if (trial < 1 || trial > trials) notFound();
  return trial;
}

/** Item ids come from datasets (any text); links encode them, and Next hands the segment over still encoded. */
function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    notFound();
  }
}

export default async function ItemPage({ params, searchParams }: ItemPageProps) {
  const { id, itemId: rawItemId } = await params;
  const itemId = decodeSegment(rawItemId);
  const run = await foundOrNotFound(getRunWithNames(getDb(), idOrNotFound(id)));
  const db = getDb();
  const search = await searchParams;
  // Runs with repeated trials: which trial this page shows (`trial=N`; the first by default).
  const trial = trialOrNotFound(search.trial, run.config.settings.trials);
  const result = await getStoredResult(db, run.id, itemId, trial);
  if (!result) notFound();
  const active = run.status === "queued" || run.status === "running";
  // The item view carries the explorer's view without its page: prev / next walk the whole view.
  const query: Omit<ItemQuery, "page"> = withoutPage(parseItemQuery(search, { filter: defaultItemFilter(active) }));
  // Each text is cut at BLOCK_TEXT_CHARS (the page costs the same whatever the item holds) unless `show=all` asks for all.
  const showAll = search.show === "all";
  const texts: TextLimit = showAll ? { max: undefined } : { max: BLOCK_TEXT_CHARS, showAllHref: `${itemHref(run.id, itemId, query, trial)}&show=all` };
  const [neighbours, conversation, others, trials] = await Promise.all([
    getItemNeighbours(db, run.id, itemId, query, trial),
    getItemConversation(db, run.id, itemId, trial),
    listItemInOtherRuns(db, { runId: run.id, datasetId: run.datasetId, itemId }),
    run.config.settings.trials > 1 ? getItemTrials(db, run.id, itemId) : Promise.resolve(null),
  ]);
  const view = query.reason !== undefined ? `failure group “${clip(query.reason, 80)}”` : ITEM_FILTER_LABELS[query.filter].toLowerCase();
  const place =
    neighbours.position !== null
      ? `${formatCount(neighbours.position)} of ${formatCount(neighbours.total)} · ${view}${query.q ? ` matching “${query.q}”` : ""}`
      : `not in the current view (${view})`;

  return (
    <>
      <p className={styles.breadcrumb}>
        <Link href="/runs">Runs</Link> / <Link href={`/runs/${run.id}`}>#{run.id}</Link> /{" "}
        <Link href={backToTableHref(run.id, query, itemId, neighbours.position, trial)}>Items</Link> / <ShownText text={itemId} max={undefined} />
        {trials ? ` / trial ${trial}` : ""}
      </p>
      <div className={styles.header}>
        <h1 className={styles.title}>
          Item <code><ShownText text={itemId} max={undefined} /></code>
          {trials ? ` · trial ${trial} of ${run.config.settings.trials}` : ""} <span className={`badge ${result.status}`}>{result.status}</span>
        </h1>
        <p className={styles.subtitle}>
          Run #{run.id}
          {run.name ? ` (${run.name})` : ""} · {run.skillName} v{run.skillVersion} on {run.datasetName} · {modelLabel(run)}
        </p>
      </div>
      <ItemNav
        prevHref={neighbours.prev === null ? null : itemHref(run.id, neighbours.prev.itemId, query, neighbours.prev.trial)}
        nextHref={neighbours.next === null ? null : itemHref(run.id, neighbours.next.itemId, query, neighbours.next.trial)}
        backHref={backToTableHref(run.id, query, itemId, neighbours.position, trial)}
        place={place}
      />
      {trials ? <ItemTrials runId={run.id} itemId={itemId} trials={trials} shown={trial} planned={run.config.settings.trials} query={query} /> : null}
      <AnswerSummary result={result} texts={texts} />
      <ItemFacts result={result} />
      <ConversationView
        systemPrompt={run.systemPrompt}
        userPrompt={conversation?.userPrompt ?? null}
        conversation={conversation?.conversation ?? []}
        question={result.question}
        golds={result.goldAnswers}
        showRefinements={run.backend !== "agent"}
        texts={texts}
      />
      {/* Agent runs: SKILL.md, task.md, the agent's output and the files it left (nothing for chat runs). */}
      <ExecItemDetails runId={run.id} itemId={itemId} trial={trial} />
      <OtherRuns itemId={itemId} others={others} query={query} />
    </>
  );
}

import type { Metadata } from "next";
import Link from "@/app/_components/link";
import { idOrNotFound, foundOrNotFound } from "@/app/_lib/not-found";
import { parseIdParam } from "@/app/_lib/ids";
import { loadOptimizationLive } from "@/app/_lib/optimization-payload";
import { getDb } from "@/lib/db";
import { LiveOptimizationView } from "./live-optimization-view";
import styles from "./optimization.module.css";

// Reads the database on every request.
export const dynamic = "force-dynamic";

interface Props {
  params: Promise<{ id: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const id = parseIdParam((await params).id);
  return id === undefined ? {} : { title: `Optimisation #${id}` };
}

export default async function OptimizationPage({ params }: Props) {
  const id = idOrNotFound((await params).id);
  const payload = await foundOrNotFound(loadOptimizationLive(getDb(), id));
  const o = payload.optimization;
  return (
    <>
      <p className={styles.breadcrumb}><Link href="/optimize">Optimisations</Link> /</p>
      <h1>{o.name ? `${o.name} (#${o.id})` : `Optimisation #${o.id}`}</h1>
      <p className="muted">
        <Link href={`/skills/${o.skillId}?version=${o.initialVersion}`}>{o.skillName} v{o.initialVersion}</Link> · train{" "}
        {o.train.id === 0 ? o.train.name : <Link href={`/datasets/${o.train.id}`}>{o.train.name}</Link>} ({o.train.itemCount}) · val {o.val.id === 0 ? o.val.name : <Link href={`/datasets/${o.val.id}`}>{o.val.name}</Link>} ({o.val.itemCount})
        {o.test ? <> · test {o.test.id === 0 ? o.test.name : <Link href={`/datasets/${o.test.id}`}>{o.test.name}</Link>} ({o.test.itemCount})</> : null}
        {" "}· target {payload.summary.models.target} · optimizer {payload.summary.models.optimizer} · gate {payload.summary.settings.skillboard?.gate ?? "strict"}
        {payload.summary.settings.skillboard?.gate === "mcnemar" ? ` (α ${payload.summary.settings.skillboard.alpha})` : ""} · approval {payload.summary.settings.skillboard?.approval ?? "auto"}
      </p>
      {payload.summary.models.note ? <p className="notice-box" data-testid="models-note">Its models were scripted: this optimisation was {payload.summary.models.note}.</p> : null}
      <LiveOptimizationView initial={payload} />
    </>
  );
}

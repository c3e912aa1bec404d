import Link from "@/app/_components/link";
import { DEMO_DATASET_NAME, DEMO_SKILL_NAME, type DemoRunInputs } from "@/lib/db/demo";
import { DemoRunForm } from "./demo-run-form";
import styles from "./home.module.css";

/** The three steps of a first evaluation, for a database with nothing in it yet. */
export function GettingStarted() {
  return (
    <section className="card" aria-labelledby="getting-started-heading">
      <h2 id="getting-started-heading" className={styles.firstHeading}>
        Getting started
      </h2>
      <ol className={styles.steps}>
        <li>
          <Link href="/skills">Upload a skill</Link>: a markdown document of instructions that becomes part of the model&apos;s
          system prompt. Every distinct text is kept as a new version.
        </li>
        <li>
          <Link href="/datasets">Upload a dataset</Link>: a JSON, JSONL or CSV file of questions with their accepted answers
          (and optionally a context to answer from).
        </li>
        <li>
          <Link href="/runs/new">Start a run</Link> of a skill version over the dataset and watch Exact Match and F1 come in.
          No API key? The offline baseline (a deterministic extractive reader, not a language model) works without one.
        </li>
      </ol>
    </section>
  );
}

/**
 * For a database that has skills and datasets but no run yet. On a fresh install that is the demo: it can be run in
 * one click (on the offline baseline, so no API key is needed).
 */
export function FirstRunHint({ demo }: { demo: DemoRunInputs | null }) {
  const hint = (
    <>
      <Link href="/runs/new">Start a run</Link> of a <Link href="/skills">skill</Link> over a <Link href="/datasets">dataset</Link>;
      without an API key the offline baseline runs it.
    </>
  );
  if (!demo) return <p className="notice-box">No runs yet. {hint}</p>;
  return (
    <section className={`notice-box ${styles.demo}`} aria-labelledby="demo-heading">
      <h2 id="demo-heading" className={styles.firstHeading}>
        No runs yet: try the demo
      </h2>
      <p>
        The {DEMO_DATASET_NAME} dataset with the latest <Link href="/skills">{DEMO_SKILL_NAME} skill</Link> (v{demo.skillVersion}) on the
        offline baseline, a deterministic extractive reader (not a language model): no API key needed, done in seconds.
      </p>
      <DemoRunForm />
      <p className="hint">Or: {hint}</p>
    </section>
  );
}

import Link from "next/link";
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

/** For a database that has skills and datasets (the demo ones, typically) but no run yet. */
export function FirstRunHint() {
  return (
    <p className="notice-box">
      No runs yet. <Link href="/runs/new">Start a run</Link> of a <Link href="/skills">skill</Link> over a{" "}
      <Link href="/datasets">dataset</Link>; without an API key the offline baseline runs it.
    </p>
  );
}

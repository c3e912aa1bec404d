import type { OptimizerCallBrief } from "@/lib/db";
import styles from "./step.module.css";

interface Node {
  key: string;
  call: OptimizerCallBrief | undefined;
  children: Node[];
}

function parseKeys(json: string): string[] {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? value.filter((key): key is string => typeof key === "string") : [];
  } catch {
    return [];
  }
}

/**
 * Which analyst patches merged into which: the step's calls as a tree from the ranking (or the last merge) down to the
 * analyst calls, from each call's recorded inputs. A patch carried alone to the next level appears under the merge
 * that took it in. Nothing when the step recorded no inputs (no merge, or an optimisation from before they were kept).
 */
export function MergeTree({ calls, stepKey }: { calls: OptimizerCallBrief[]; stepKey: string }) {
  const byKey = new Map(calls.map((call) => [call.key, call]));
  const inputs = new Map(calls.map((call) => [call.key, parseKeys(call.inputKeysJson)]));
  const used = new Set([...inputs.values()].flat());
  const withInputs = calls.filter((call) => (inputs.get(call.key) ?? []).length > 0);
  if (withInputs.length === 0) return null;
  const build = (key: string, seen: Set<string>): Node => ({
    key, call: byKey.get(key),
    children: seen.has(key) ? [] : (inputs.get(key) ?? []).filter((input) => input !== "").map((input) => build(input, new Set([...seen, key]))),
  });
  const roots = withInputs.filter((call) => !used.has(call.key)).map((call) => build(call.key, new Set()));
  const unmerged = calls.filter((call) => call.stage === "analyst" && !used.has(call.key));
  const short = (key: string) => (key.startsWith(`${stepKey}/`) ? key.slice(stepKey.length + 1) : key);
  const render = (node: Node) => {
    const items = node.call ? parseKeys(node.call.itemIdsJson).length : 0;
    return (
      <li key={node.key}>
        <code>{short(node.key)}</code>
        <span className="hint">
          {node.call ? ` · ${node.call.stage}${node.call.mergeLevel !== null && node.call.mergeLevel > 0 ? ` level ${node.call.mergeLevel}` : ""}` : " · not stored"}
          {items > 0 ? ` · ${items} item${items === 1 ? "" : "s"}` : ""}
          {node.call?.error ? " · failed: fallback" : ""}
          {node.children.length > 0 ? ` · merges ${node.children.length}` : ""}
        </span>
        {node.children.length > 0 ? <ul>{node.children.map(render)}</ul> : null}
      </li>
    );
  };
  return (
    <section className={`card ${styles.card}`} aria-labelledby="merge-tree-heading">
      <h2 id="merge-tree-heading">Merge tree</h2>
      <p className="muted">Each analyst call&apos;s patch, merged in batches level by level, then the failure and success trees combined and ranked.</p>
      <ul className={styles.tree} data-testid="merge-tree">{roots.map(render)}</ul>
      {unmerged.length > 0 ? <p className="hint">Not merged (no usable patch): {unmerged.map((call) => short(call.key)).join(", ")}</p> : null}
    </section>
  );
}

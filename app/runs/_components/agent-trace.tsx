import { detectEventFormat, parseAgentEvents, type TraceStep } from "@/lib/agent";
import { formatCount } from "@/app/_lib/format";
import styles from "./agent.module.css";

/**
 * What the agent did, from the event stream it printed (Codex's JSONL, Claude Code's stream-json): each tool
 * call with its output, in order, the messages and notices between them, the tokens it reported and its final
 * message. Everything is rendered as text; nothing the agent printed is ever interpreted as HTML.
 * Renders nothing when stdout holds no event stream (a generic agent).
 */
export function AgentTrace({ stdout }: { stdout: string }) {
  const format = detectEventFormat(stdout);
  const trace = parseAgentEvents(stdout, format);
  if (!trace) return null;
  const tools = trace.steps.filter((step) => step.kind === "tool").length;
  return (
    <section aria-label="Agent trace">
      <h3>Trace</h3>
      <p className={styles.note}>
        {tools} tool call{tools === 1 ? "" : "s"}
        {trace.usage ? `, ${formatCount(trace.usage.inputTokens)} input tokens (${formatCount(trace.usage.cachedInputTokens)} cached), ${formatCount(trace.usage.outputTokens)} output tokens` : ""}
        {format === "codex-jsonl" ? " · from codex exec --json" : " · from claude --output-format stream-json"}
      </p>
      {trace.error ? <p className={styles.bad} role="alert">The agent reported: {trace.error}</p> : null}
      <ol className={styles.trace}>
        {trace.steps.map((step, index) => (
          <li key={index}>
            <Step step={step} />
          </li>
        ))}
      </ol>
      {trace.finalMessage !== undefined ? (
        <details className={styles.block} open>
          <summary>Final message</summary>
          <pre>{trace.finalMessage}</pre>
        </details>
      ) : null}
    </section>
  );
}

function Step({ step }: { step: TraceStep }) {
  switch (step.kind) {
    case "tool":
      return (
        <details className={styles.block}>
          <summary>
            <span className={step.failed ? styles.bad : undefined}>{step.tool}</span> <code>{step.input}</code>
            {step.failed ? <span className={styles.bad}> (failed)</span> : null}
          </summary>
          <pre>{step.output || "(no output)"}</pre>
        </details>
      );
    case "message":
      return <div><span className={styles.note}>message</span><pre>{step.text}</pre></div>;
    case "reasoning":
      return <div><span className={styles.note}>reasoning</span><pre>{step.text}</pre></div>;
    case "notice":
      return <div className={styles.note}>notice: {step.text}</div>;
  }
}

import { getDb, listRuns } from "@/lib/db";

// Reads the database on every request.
export const dynamic = "force-dynamic";

export default async function HomePage() {
  const runs = await listRuns(getDb());
  return (
    <>
      <h1>Runs</h1>
      {runs.length === 0 ? (
        <p>
          No runs yet. Start one from the command line: <code>npm run -s cli -- run --dataset FILE --skill FILE</code>
        </p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>Run</th><th>Status</th><th>Model</th><th>Items</th><th>EM</th><th>F1</th><th>Errors</th><th>Timeouts</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((run) => (
              <tr key={run.id}>
                <td>{run.name ?? `#${run.id}`}</td>
                <td>{run.status}</td>
                <td>{run.backend === "baseline" ? "offline baseline (no LLM)" : run.model}</td>
                <td>{run.nDone} / {run.itemsTotal}</td>
                <td>{run.nDone ? (run.emSum / run.nDone).toFixed(3) : "–"}</td>
                <td>{run.nDone ? (run.f1Sum / run.nDone).toFixed(3) : "–"}</td>
                <td>{run.nErrors}</td>
                <td>{run.nTimeouts}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

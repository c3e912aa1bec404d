import { formatCount, formatDateTime } from "@/app/_lib/format";
import type { RunWorkerView } from "../../_lib/live-payload";

/** PostgreSQL's queue: which worker processes (on which machines) are on the run now, and what each is doing. */
export function WorkersPanel({ workers, concurrency }: { workers: RunWorkerView[]; concurrency: number }) {
  if (workers.length === 0) return null;
  const slots = workers.reduce((sum, w) => sum + w.slots, 0);
  return (
    <section className="card" aria-label="Workers">
      <h2>
        Workers on this run <span className="muted">({formatCount(workers.length)}, {formatCount(slots)} of {formatCount(concurrency)} concurrency)</span>
      </h2>
      <table data-testid="run-workers">
        <thead>
          <tr>
            <th>Worker</th>
            <th>Host</th>
            <th>Slots</th>
            <th>In flight</th>
            <th>Retrying</th>
            <th>Rate-limited</th>
            <th>Last heartbeat</th>
          </tr>
        </thead>
        <tbody>
          {workers.map((w) => (
            <tr key={`${w.host}/${w.name}/${w.heartbeatAt}`}>
              <td>{w.name}</td>
              <td>{w.host}</td>
              <td>{formatCount(w.slots)}</td>
              <td>{formatCount(w.inFlight)}</td>
              <td>{formatCount(w.retrying)}</td>
              <td>{formatCount(w.rateLimited)}</td>
              <td>{formatDateTime(w.heartbeatAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** An optimisation's status as a badge; "waiting for your decision" when a candidate waits for a person. */
export function OptimizationStatusBadge({ status, source }: { status: string; source?: string }) {
  const waiting = status === "waiting_for_approval";
  return (
    <>
      <span className={`badge ${waiting ? "cancelled" : status}`} data-testid="optimization-status" data-status={status}>
        {waiting ? "waiting for your decision" : status.replaceAll("_", " ")}
      </span>
      {source === "imported" ? <> <span className="badge imported" title="read from a SkillOpt output directory, not executed here">imported</span></> : null}
    </>
  );
}

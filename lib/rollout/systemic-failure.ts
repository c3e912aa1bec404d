/** The seed's _raise_on_systemic_failure message: every row failed before any agent response. */
export function systemicFailureMessage(total: number, top: { reason: string; count: number }): string {
  return `SearchQA rollout failed for all ${total} items before an agent response (${top.count}x): ${top.reason}`;
}

/**
 * The one access check of every server action: `export const cancelRunAction = guardedAction(async (formData) => …)`.
 * An action is a public POST endpoint whatever page it sits on, so it does not rely on proxy.ts alone: it applies the
 * same rules (lib/auth/access-policy: the token, cross-site posts, loopback names) to the request that called it, and
 * answers a refusal as a failed ActionResult the form shows, instead of running.
 */
import { headers } from "next/headers";
import { decideAccess } from "@/lib/auth/access-policy";
import { configuredToken } from "@/lib/auth/token";
import type { ActionFailure, ActionResult } from "./action-result";

export const SIGN_IN_AGAIN = "Sign in again: your session has expired.";

const guarded = new WeakSet<object>();

/** True for an action made by guardedAction (a test checks every exported server action is one). */
export function isGuardedAction(action: unknown): boolean {
  return typeof action === "function" && guarded.has(action);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any result shape of ActionResult
export function guardedAction<Args extends unknown[], Result extends ActionResult<any, any>>(
  action: (...args: Args) => Promise<Result>,
): (...args: Args) => Promise<Result | ActionFailure> {
  const checked = async (...args: Args): Promise<Result | ActionFailure> => refusalFor(await headers()) ?? action(...args);
  guarded.add(checked);
  return checked;
}

/** Outside a request (headers() throws) nothing runs: the check fails closed. */
function refusalFor(requestHeaders: Headers): ActionFailure | null {
  // An action is a POST with a Next-Action header; its path does not change what the policy decides for it.
  const decision = decideAccess({ method: "POST", pathname: "/", search: "", headers: requestHeaders }, configuredToken());
  if (decision.kind === "allow") return null;
  return { ok: false, error: decision.kind === "refuse" && decision.status === 403 ? decision.error : SIGN_IN_AGAIN };
}

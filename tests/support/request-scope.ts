/**
 * Calls a server action as Next does for a POST: inside Next's own request scope (the AsyncLocalStorage stores that
 * `headers()` from next/headers reads), so the action's access check sees these request headers. Outside such a
 * scope `headers()` throws, and an action refuses to run at all.
 *
 * Only the store fields `headers()` reads are filled in (Next 16.4: the route, the static/dynamic flags, and a
 * request-type unit in the action phase); anything else an action touches (revalidatePath after a success) is not
 * available here, so tests call actions on paths that end before it.
 */
// What Next's server loads before anything else: AsyncLocalStorage on globalThis, where its stores are created from.
// So this module must be imported before anything that loads next/headers (first in the test file).
import "next/dist/server/node-environment-baseline";
import { workAsyncStorage } from "next/dist/server/app-render/work-async-storage.external";
import { workUnitAsyncStorage } from "next/dist/server/app-render/work-unit-async-storage.external";

/** The headers a same-origin browser request to the dashboard on loopback carries. */
export const LOOPBACK_HEADERS = { host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000" };

export function inRequestScope<T>(headers: Record<string, string>, call: () => Promise<T>): Promise<T> {
  const workStore = { route: "/", page: "/page", forceStatic: false, dynamicShouldError: false, isStaticGeneration: false };
  const requestStore = { type: "request", phase: "action", headers: new Headers(headers), url: { pathname: "/", search: "" } };
  return workAsyncStorage.run(workStore as never, () => workUnitAsyncStorage.run(requestStore as never, call));
}

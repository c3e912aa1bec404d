import { decideAccess } from "./access-policy";
import { configuredToken } from "./token";

/**
 * The proxy's access rules applied inside a route handler: null when the request may proceed, else the
 * refusal to send. Every route handler applies it through guardedRoute (app/_lib/http.ts): for the routes
 * the proxy does not see (streaming uploads, which the proxy would buffer whole in memory) it is the only
 * check, and no other handler relies on the proxy alone.
 */
export function refuseUnlessAllowed(request: Request): Response | null {
  const url = new URL(request.url);
  const decision = decideAccess(
    { method: request.method, pathname: url.pathname, search: url.search, headers: request.headers },
    configuredToken(),
  );
  if (decision.kind === "allow") return null;
  const status = decision.kind === "refuse" ? decision.status : 401;
  const error = decision.kind === "refuse" ? decision.error : "authentication required";
  return Response.json({ error }, { status, headers: status === 401 ? { "WWW-Authenticate": 'Bearer realm="skillboard"' } : {} });
}

import type { Metadata } from "next";
import { safeNextPath } from "@/lib/auth/safe-next-path";
import { configuredToken } from "@/lib/auth/token";
import { firstValue, type SearchParams } from "../_lib/search-params";

// The root layout's title template adds " · Skillboard".
export const metadata: Metadata = { title: "Sign in" };

// Whether a token is configured is read at request time, not at build time.
export const dynamic = "force-dynamic";

const ERROR_MESSAGES: Record<string, string> = {
  "wrong-token": "Wrong token",
  "missing-token": "Enter the access token",
};

interface SignInPageProps {
  searchParams: Promise<SearchParams>;
}

/** A plain HTML form posting to /api/auth/signin: works without JavaScript, and the token never enters React state. */
export default async function SignInPage({ searchParams }: SignInPageProps) {
  const params = await searchParams;
  const next = safeNextPath(firstValue(params.next));
  const errorKey = firstValue(params.error);
  const error = errorKey === undefined ? undefined : ERROR_MESSAGES[errorKey];

  if (configuredToken() === undefined) {
    return (
      <section className="signin">
        <h1>Sign in</h1>
        <p>No access token is set (<code>SKILLBOARD_TOKEN</code>), so the dashboard is open to this machine only.</p>
        <p>
          <a href={next}>Continue to the dashboard</a>
        </p>
      </section>
    );
  }

  return (
    <section className="signin">
      <h1>Sign in</h1>
      <p className="signin-hint">
        Enter the access token this dashboard was started with (<code>SKILLBOARD_TOKEN</code>).
      </p>
      <form className="signin-form" method="post" action="/api/auth/signin">
        <input type="hidden" name="next" value={next} />
        <label htmlFor="signin-token">Access token</label>
        <input
          id="signin-token"
          name="token"
          type="password"
          autoComplete="current-password"
          required
          autoFocus
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "signin-error" : undefined}
        />
        {error ? (
          <p id="signin-error" className="signin-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit">Sign in</button>
      </form>
    </section>
  );
}

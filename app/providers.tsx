"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { config as configureZod } from "zod";

// The Content-Security-Policy forbids eval in the browser (proxy.ts); zod would probe for it with Function(""), which
// the browser reports as a violation even though zod catches the error. In the browser it runs without its compiler.
if (typeof window !== "undefined") configureZod({ jitless: true });

export function Providers({ children }: { children: ReactNode }) {
  // One client per browser session; created in state so a re-render never replaces its cache.
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1 } } }));
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

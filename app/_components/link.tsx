import NextLink from "next/link";
import type { ComponentProps } from "react";

/**
 * The app's links: Next's <Link> without automatic prefetching (a link may still ask for it with `prefetch`).
 *
 * Every page here reads the database on each request and has no loading.js, so Next does not prefetch them: for each
 * link that comes into view it still asks the server, and gets back only a marker saying "dynamic, not prefetched".
 * Each of those cost the server 7-33 ms, and router.refresh() (the run page's live item table) forgets them, so the
 * run page's nine links were asked for again after every reload, taking turns with the live poll on the server.
 */
export default function Link(props: ComponentProps<typeof NextLink>) {
  return <NextLink prefetch={false} {...props} />;
}

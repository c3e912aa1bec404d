"use client";

import { useContext, useState, type FormEvent } from "react";
import { MAX_SEARCH_CHARS, withSearch, type ItemQuery } from "@/lib/runs/item-query";
import { explorerHref } from "../../_lib/item-links";
import { NavigateContext } from "./explorer-nav";
import styles from "./explorer.module.css";

/** Free-text search over question, gold, prediction and response; Enter (or the button) applies it to the URL. */
export function SearchBox({ runId, query }: { runId: number; query: ItemQuery }) {
  const navigate = useContext(NavigateContext);
  const [text, setText] = useState(query.q ?? "");
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    navigate(explorerHref(runId, withSearch(query, text)));
  };
  return (
    <form role="search" className={styles.search} onSubmit={submit}>
      <input
        type="search"
        name="q"
        aria-label="Search items"
        placeholder="Search question, gold, prediction, response…"
        value={text}
        maxLength={MAX_SEARCH_CHARS}
        onChange={(event) => setText(event.target.value)}
      />
      <button type="submit">Search</button>
      {query.q ? (
        <button type="button" onClick={() => navigate(explorerHref(runId, withSearch(query, "")))}>
          Clear
        </button>
      ) : null}
    </form>
  );
}

/** A page's query string as Next hands it over (searchParams). */
export type SearchParams = Record<string, string | string[] | undefined>;

/** The first value of a query parameter, if any. */
export function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

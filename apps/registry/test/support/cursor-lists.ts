// The lists that page with cursors (issue 19, finding 10), as a one-item page asking for its end cursor.

export const LISTS = {
  "streams (INDEX)": "streams(first: 1, after: $after, consistency: INDEX)",
  "streams (LIVE)": "streams(first: 1, after: $after, consistency: LIVE)",
  "clusters (INDEX)": "clusters(first: 1, after: $after, consistency: INDEX)",
  "clusters (LIVE)": "clusters(first: 1, after: $after, consistency: LIVE)",
  "bindings (INDEX)": "bindings(first: 1, after: $after, consistency: INDEX)",
  "bindings (LIVE)": "bindings(first: 1, after: $after, consistency: LIVE)",
  changes: "changes(first: 1, after: $after)",
  grants: "grants(first: 1, after: $after)",
} as const;
export type List = keyof typeof LISTS;
/** One item of `list` after `$after`, and where the page ends. */
export const page = (list: List) =>
  `query ($after: String) { page: ${LISTS[list]} { pageInfo { endCursor } } }`;

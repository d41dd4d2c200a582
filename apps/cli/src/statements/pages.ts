import { execute, type Answer, type Operation, type Warning } from "../client/execute.ts";
import { consistencyArgument } from "../consistency.ts";
import type { StatementContext } from "./context.ts";
import { INDEX_LAG_FIELDS, isBehind, lagWarning, type IndexLag } from "./index-lag.ts";

interface Page<T> {
  nodes: T[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  /** Lists of the subtree (LIST_PAGE): how far behind each namespace the index that answered is. */
  lag?: IndexLag[];
}

export const PAGE_INFO = "pageInfo { hasNextPage endCursor }";
const PAGE_SIZE = 100;

/**
 * A list of the registry's subtree (streams, clusters, bindings): its variables beside `$filter`,
 * its arguments beside `filter`, and what each page selects beside `nodes`. The operation's
 * variables take `subtreeList(context)`.
 */
export const LIST_VARIABLES = "$first: Int, $after: String, $consistency: Consistency";
export const LIST_ARGUMENTS = "first: $first, after: $after, consistency: $consistency";
export const LIST_PAGE = `${PAGE_INFO} lag { ${INDEX_LAG_FIELDS} }`;

/** The `consistency` variable of a list of the subtree, from --consistency. */
export function subtreeList(context: StatementContext): { consistency: "INDEX" | "LIVE" } {
  return { consistency: consistencyArgument(context.consistency) };
}

export interface AllPages<T> {
  nodes: T[];
  /**
   * One per namespace that did not answer, however many pages named it; then one per namespace the
   * index that answered is behind (INDEX_LAG), as the last page that found it behind said.
   */
  warnings: Warning[];
  /** The first page's root fields, e.g. the registry's own namespace read beside the list. */
  data: Record<string, unknown>;
  /** Whether an index answered for namespaces below the registry (a lag was given for any). */
  indexed: boolean;
}

/** Reads every page of a connection; the operation takes `$first` and `$after` variables. */
export async function fetchAll<T>(context: StatementContext, operation: Operation): Promise<AllPages<T>> {
  const nodes: T[] = [];
  const warnings = new Map<string, Warning>();
  const behind = new Map<string, IndexLag>();
  let indexed = false;
  let data: Record<string, unknown> | undefined;
  let after: string | null = null;
  for (;;) {
    const answer: Answer<Page<T>> = await execute<Page<T>>(context, {
      ...operation,
      variables: { ...operation.variables, first: PAGE_SIZE, after },
    });
    data ??= answer.data;
    nodes.push(...answer.value.nodes);
    // A child that is down is left out of every page: say so once.
    for (const w of answer.warnings) warnings.set(`${w.code} ${w.namespace ?? w.message}`, w);
    // Every page of an index's answer carries the lag: one warning per namespace, not per page.
    for (const lag of answer.value.lag ?? []) {
      indexed = true;
      if (isBehind(lag)) behind.set(lag.namespace, lag);
    }
    if (!answer.value.pageInfo.hasNextPage || !answer.value.pageInfo.endCursor) {
      return {
        nodes,
        warnings: [...warnings.values(), ...[...behind.values()].map(lagWarning)],
        data,
        indexed,
      };
    }
    after = answer.value.pageInfo.endCursor;
  }
}

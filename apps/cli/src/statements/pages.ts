import { execute, type Answer, type Operation, type Warning } from "../client/execute.ts";
import type { StatementContext } from "./context.ts";

interface Page<T> {
  nodes: T[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

export const PAGE_INFO = "pageInfo { hasNextPage endCursor }";
const PAGE_SIZE = 100;

export interface AllPages<T> {
  nodes: T[];
  /** One per namespace that did not answer, however many pages named it. */
  warnings: Warning[];
  /** The first page's root fields, e.g. the registry's own namespace read beside the list. */
  data: Record<string, unknown>;
}

/** Reads every page of a connection; the operation takes `$first` and `$after` variables. */
export async function fetchAll<T>(context: StatementContext, operation: Operation): Promise<AllPages<T>> {
  const nodes: T[] = [];
  const warnings = new Map<string, Warning>();
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
    if (!answer.value.pageInfo.hasNextPage || !answer.value.pageInfo.endCursor) {
      return { nodes, warnings: [...warnings.values()], data };
    }
    after = answer.value.pageInfo.endCursor;
  }
}

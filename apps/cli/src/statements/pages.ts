import { execute, type Answer, type Operation, type Warning } from "../client/execute.ts";
import type { StatementContext } from "./context.ts";

interface Page<T> {
  nodes: T[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

export const PAGE_INFO = "pageInfo { hasNextPage endCursor }";
const PAGE_SIZE = 100;

/** Reads every page of a connection; the operation takes `$first` and `$after` variables. */
export async function fetchAll<T>(
  context: StatementContext,
  operation: Operation,
): Promise<{ nodes: T[]; warnings: Warning[] }> {
  const nodes: T[] = [];
  const warnings: Warning[] = [];
  let after: string | null = null;
  for (;;) {
    const answer: Answer<Page<T>> = await execute<Page<T>>(context, {
      ...operation,
      variables: { ...operation.variables, first: PAGE_SIZE, after },
    });
    nodes.push(...answer.value.nodes);
    warnings.push(...answer.warnings);
    if (!answer.value.pageInfo.hasNextPage || !answer.value.pageInfo.endCursor) return { nodes, warnings };
    after = answer.value.pageInfo.endCursor;
  }
}

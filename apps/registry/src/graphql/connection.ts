import type { Page } from "../services/page.ts";

export interface ConnectionModel<T> {
  edges: { node: T; cursor: string }[];
  nodes: T[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
  /** Counted only when asked for (GraphQL's default resolver calls it). */
  totalCount: () => Promise<number>;
  /** How far behind its children the discovery index that answered is; none for a live answer. */
  lag: () => Promise<IndexLagModel[]>;
}

/** The API's IndexLag. */
export interface IndexLagModel {
  namespace: string;
  entriesBehind: number;
  secondsBehind: number;
  syncedAt: Date | null;
  lastError: string | null;
}

/** The lag of a live answer. */
const noLag = async (): Promise<IndexLagModel[]> => [];

/** A Relay connection for a page. */
export function toConnection<T>(page: Page<T>): ConnectionModel<T> {
  return {
    edges: page.items,
    nodes: page.items.map((item) => item.node),
    pageInfo: {
      hasNextPage: page.hasNextPage,
      hasPreviousPage: page.hasPreviousPage,
      startCursor: page.items[0]?.cursor ?? null,
      endCursor: page.items.at(-1)?.cursor ?? null,
    },
    totalCount: page.totalCount,
    lag: noLag,
  };
}

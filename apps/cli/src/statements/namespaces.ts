import type { StatementOf } from "@stream-registry/ddl";
import { execute } from "../client/execute.ts";
import { UnsupportedStatementError } from "../errors.ts";
import type { Column } from "../output/table.ts";
import { outcome, type Outcome, type StatementContext } from "./context.ts";
import { describeLag, INDEX_LAG_FIELDS, type IndexLag } from "./index-lag.ts";
import { describePhase } from "./parent-registry.ts";

interface NamespaceTree {
  path: string;
  parent: { url: string; namespace: string | null; status: { phase: string; message: string | null } } | null;
  children: {
    path: string;
    name: string;
    url: string;
    registryId: string;
    version: string;
    health: { status: string; checkedAt: string | null; latencyMs: number | null; lastError: string | null };
    registeredAt: string;
  }[];
}

const COLUMNS: Column[] = [
  { key: "namespace", header: "namespace" },
  { key: "url", header: "url" },
  { key: "health", header: "health" },
  { key: "checked", header: "checked" },
];
const INDEX_LAG_COLUMN: Column = { key: "indexLag", header: "index lag" };

/**
 * SHOW NAMESPACES: this registry's namespace, then one row per child registry with what the last
 * probe found and how far behind it the registry's discovery index is. The parent link is a line
 * above the table: it is one fact about this registry, not a namespace this registry serves.
 */
export async function showNamespaces(
  _s: StatementOf<"showNamespaces">,
  context: StatementContext,
): Promise<Outcome> {
  const answer = await execute<NamespaceTree>(context, {
    statement: "SHOW NAMESPACES",
    root: "Query",
    field: "namespace",
    query: `query SrctlShowNamespaces { namespace { path
      parent { url namespace status { phase message } }
      children { path name url registryId version
        health { status checkedAt latencyMs lastError } registeredAt } } }`,
  });
  const { path, parent, children } = answer.value;
  const lags = children.length > 0 ? await fetchIndexLag(context) : undefined;
  const lagOf = (namespace: string) => lags?.find((lag) => lag.namespace === namespace);
  const self = { namespace: path, url: context.client.url, health: "(this registry)", checked: null };
  const rows = children.map((child) => ({
    namespace: child.path,
    url: child.url,
    // Why a child is DOWN is what the person looking at it needs next.
    health:
      child.health.status === "DOWN" && child.health.lastError
        ? `DOWN: ${child.health.lastError}`
        : child.health.status,
    checked: child.health.checkedAt,
    ...(lags ? { indexLag: textOf(lagOf(child.path)), lag: lagOf(child.path) ?? null } : {}),
    registryId: child.registryId,
    version: child.version,
    latencyMs: child.health.latencyMs,
    registeredAt: child.registeredAt,
  }));
  return outcome(
    {
      type: "table",
      caption: parent
        ? `parent: ${parentText(parent)}`
        : "parent: none (this registry is the root of its tree)",
      data: {
        parent: parent && {
          url: parent.url,
          namespace: parent.namespace,
          phase: parent.status.phase,
          message: parent.status.message,
        },
      },
      columns: lags ? [...COLUMNS, INDEX_LAG_COLUMN] : COLUMNS,
      rows: [self, ...rows],
    },
    answer.warnings,
  );
}

/**
 * Query.indexLag, for each child and the registries below it; undefined from a registry without
 * the discovery index (one older than srctl), whose table has no index lag column then.
 */
async function fetchIndexLag(context: StatementContext): Promise<IndexLag[] | undefined> {
  try {
    const answer = await execute<IndexLag[]>(context, {
      statement: "SHOW NAMESPACES",
      root: "Query",
      field: "indexLag",
      query: `query SrctlIndexLag { indexLag { ${INDEX_LAG_FIELDS} } }`,
    });
    return answer.value;
  } catch (error) {
    if (error instanceof UnsupportedStatementError) return undefined;
    throw error;
  }
}

/** "0.2 s", "12 entries / 3.2 s (last error: ...)"; "not indexed yet" for a child just registered. */
function textOf(lag: IndexLag | undefined): string {
  return lag ? describeLag(lag) : "not indexed yet";
}

function parentText(parent: NonNullable<NamespaceTree["parent"]>): string {
  const where = parent.namespace ? `${parent.namespace} at ${parent.url}` : parent.url;
  return `${where} (${describePhase(parent.status)})`;
}

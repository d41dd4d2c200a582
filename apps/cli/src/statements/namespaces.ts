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
    health: Health;
    registeredAt: string;
  }[];
  /** Every registry below, at every level (the children too), as the registry above each probes it. */
  descendants: { path: string; url: string; health: Health }[];
}

interface Health {
  status: string;
  checkedAt: string | null;
  latencyMs: number | null;
  lastError: string | null;
}

const COLUMNS: Column[] = [
  { key: "namespace", header: "namespace" },
  { key: "url", header: "url" },
  { key: "health", header: "health" },
  { key: "checked", header: "checked" },
];
const INDEX_LAG_COLUMN: Column = { key: "indexLag", header: "index lag" };

/**
 * SHOW NAMESPACES: this registry's namespace, then one row per registry below it, at every level
 * (its children as it probes them, the rest as each child reports them), with what the last probe
 * found and how far behind it the registry's discovery index is. The parent link is a line
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
        health { status checkedAt latencyMs lastError } registeredAt }
      descendants { path url health { status checkedAt latencyMs lastError } } } }`,
  });
  const { path, parent, children, descendants } = answer.value;
  const lags = children.length > 0 ? await fetchIndexLag(context) : undefined;
  const lagOf = (namespace: string) => lags?.find((lag) => lag.namespace === namespace);
  const self = { namespace: path, url: context.client.url, health: "(this registry)", checked: null };
  const rows = descendants.map((registry) => {
    const child = children.find((c) => c.path === registry.path);
    return {
      namespace: registry.path,
      url: registry.url,
      // Why a registry is DOWN is what the person looking at it needs next.
      health:
        registry.health.status === "DOWN" && registry.health.lastError
          ? `DOWN: ${registry.health.lastError}`
          : registry.health.status,
      checked: registry.health.checkedAt,
      ...(lags ? { indexLag: textOf(lagOf(registry.path)), lag: lagOf(registry.path) ?? null } : {}),
      latencyMs: registry.health.latencyMs,
      ...(child
        ? { registryId: child.registryId, version: child.version, registeredAt: child.registeredAt }
        : { reportedBy: parentPath(registry.path) }),
    };
  });
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

/** The namespace of the registry that probes `path` and reported it: the one directly above. */
function parentPath(path: string): string {
  return path.slice(0, path.lastIndexOf("/")) || "/";
}

function parentText(parent: NonNullable<NamespaceTree["parent"]>): string {
  const where = parent.namespace ? `${parent.namespace} at ${parent.url}` : parent.url;
  return `${where} (${describePhase(parent.status)})`;
}

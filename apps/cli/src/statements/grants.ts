import type { StatementOf } from "@stream-registry/ddl";
import { outcome, type Outcome, type StatementContext } from "./context.ts";
import { runMutation } from "./mutation.ts";
import { namespaceInput } from "./namespaced.ts";
import { fetchAll, PAGE_INFO } from "./pages.ts";

interface GrantData {
  principal: string;
  role: string;
  namespace: string;
  streamPrefix: string | null;
  createdBy: string;
  createdAt: string;
}

const GRANT = "principal role namespace streamPrefix createdBy createdAt";

/** GRANT: kept by the registry srctl talks to, or by the one that owns --namespace. */
export async function grant(s: StatementOf<"grant">, context: StatementContext): Promise<Outcome> {
  const answer = await runMutation<{ grant: GrantData; created: boolean }>(
    context,
    "GRANT",
    "grant",
    grantInput(s, context),
    `created grant { ${GRANT} }`,
  );
  const { grant, created } = answer.value;
  return outcome(
    {
      type: "mutation",
      message: `${describe(grant)}: ${created ? "granted" : "granted already, nothing changed"}`,
      object: { kind: "grant", ...grant, created },
    },
    answer.warnings,
  );
}

/** REVOKE: from the next request on, the grant counts no more. */
export async function revoke(s: StatementOf<"revoke">, context: StatementContext): Promise<Outcome> {
  const answer = await runMutation<{ grant: GrantData }>(
    context,
    "REVOKE",
    "revoke",
    grantInput(s, context),
    `grant { ${GRANT} }`,
  );
  const { grant } = answer.value;
  return outcome(
    { type: "mutation", message: `${describe(grant)}: revoked`, object: { kind: "grant", ...grant } },
    answer.warnings,
  );
}

/** SHOW GRANTS: those the caller may see (of the namespaces it administers, and its own). */
export async function showGrants(s: StatementOf<"showGrants">, context: StatementContext): Promise<Outcome> {
  const filter = {
    ...(s.namespace === undefined ? {} : { namespace: s.namespace }),
    ...(s.principal === undefined ? {} : { principal: s.principal }),
  };
  const { nodes, warnings } = await fetchAll<GrantData>(context, {
    statement: "SHOW GRANTS",
    root: "Query",
    field: "grants",
    query: `query SrctlShowGrants($namespace: String, $filter: GrantFilter, $first: Int, $after: String) {
      grants(namespace: $namespace, filter: $filter, first: $first, after: $after) {
        nodes { ${GRANT} } ${PAGE_INFO} } }`,
    variables: { ...namespaceInput(context), filter },
  });
  const rows = nodes.map((g) => ({
    namespace: g.namespace,
    streams: g.streamPrefix === null ? "*" : `${g.streamPrefix}*`,
    role: g.role.toLowerCase(),
    principal: g.principal,
    createdBy: g.createdBy,
    createdAt: g.createdAt,
  }));
  return outcome(
    {
      type: "table",
      columns: [
        { key: "namespace", header: "namespace" },
        { key: "streams", header: "streams" },
        { key: "role", header: "role" },
        { key: "principal", header: "principal" },
        { key: "createdBy", header: "granted by" },
        { key: "createdAt", header: "granted" },
      ],
      rows,
    },
    warnings,
  );
}

function grantInput(s: StatementOf<"grant"> | StatementOf<"revoke">, context: StatementContext) {
  return {
    ...namespaceInput(context),
    principal: s.principal,
    role: s.role,
    ...(s.namespace === undefined ? {} : { scope: s.namespace }),
    ...(s.streamPrefix === undefined ? {} : { streamPrefix: s.streamPrefix }),
  };
}

function describe(grant: GrantData): string {
  const streams = grant.streamPrefix === null ? "" : ` streams ${grant.streamPrefix}*`;
  return `${grant.role.toLowerCase()} on ${grant.namespace}${streams} to ${grant.principal}`;
}

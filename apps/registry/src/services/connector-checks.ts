import {
  ErrorCode,
  quote,
  RegistryError,
  userError,
  type Cluster,
  type ConnectorRole,
} from "@stream-registry/core";
import type { ConnectorManager, ConnectorRequest, ConnectorType } from "@stream-registry/provider-api";
import { findConnectorsOfStream, type Db } from "@stream-registry/store";
import type { ProviderRegistry } from "../providers/provider-registry.ts";
import { UserErrors } from "./user-errors.ts";

/** How messages name a role: "stream source", "stream sources". */
export const ROLE_NAMES: Record<ConnectorRole, { one: string; many: string }> = {
  source: { one: "stream source", many: "stream sources" },
  sink: { one: "stream sink", many: "stream sinks" },
};

/** The role's manager in a provider; undefined where the provider does not support the role. */
export function connectorManager(
  provider: { sources?: ConnectorManager; sinks?: ConnectorManager },
  role: ConnectorRole,
): ConnectorManager | undefined {
  return role === "source" ? provider.sources : provider.sinks;
}

/**
 * The cluster's manager of `role`: refused, naming the cluster field, where its provider has none
 * (a registry-only cluster keeps metadata only).
 */
export function requireManager(
  providers: ProviderRegistry,
  cluster: Cluster,
  role: ConnectorRole,
  field: string[],
): ConnectorManager {
  const provider = providers.require(cluster.provider, field);
  const manager = connectorManager(provider, role);
  if (!manager) {
    throw new RegistryError(
      ErrorCode.UNSUPPORTED,
      `cluster ${quote(cluster.name)} has no ${ROLE_NAMES[role].many}: its provider ${quote(provider.kind)} does not realize them`,
      field,
    );
  }
  return manager;
}

/**
 * `type` must be one the cluster offers: refused on `cluster` when it offers none (with the
 * provider's reason, e.g. no Connect worker), on `type` naming those it offers otherwise.
 */
export function checkType(
  offered: { types: ConnectorType[]; reason?: string },
  type: string,
  cluster: string,
  role: ConnectorRole,
  field: { cluster: string[]; type: string[] },
): void {
  const names = ROLE_NAMES[role];
  if (offered.types.length === 0) {
    const why = offered.reason ? `: ${offered.reason}` : "";
    throw new RegistryError(
      ErrorCode.UNSUPPORTED,
      `cluster ${quote(cluster)} offers no ${names.one} types${why}`,
      field.cluster,
    );
  }
  if (!offered.types.some((t) => t.name === type)) {
    throw new RegistryError(
      ErrorCode.INVALID_INPUT,
      `unknown ${names.one} type ${quote(type)} on cluster ${quote(cluster)}; its types: ${offered.types
        .map((t) => t.name)
        .join(", ")}`,
      field.type,
    );
  }
}

/**
 * What the provider's validation found (it creates nothing), as user errors naming each field as
 * the user gave it: an issue on ["type"] is on the type input, one on a config map's key under
 * the config input.
 */
export async function checkWithProvider(
  providers: ProviderRegistry,
  cluster: Cluster,
  manager: ConnectorManager,
  request: ConnectorRequest,
  field: { type: string[]; config: string[] },
): Promise<void> {
  const provider = providers.require(cluster.provider, field.config);
  const issues = await providers.callValidation(provider, field.config, (signal) =>
    manager.validate(request, { signal }),
  );
  if (issues.length === 0) return;
  throw new UserErrors(
    issues.map((issue) =>
      issue.field[0] === "type" && issue.field.length === 1
        ? userError(ErrorCode.INVALID_INPUT, field.type, issue.message)
        : userError(ErrorCode.PROVIDER_REJECTED, [...field.config, ...issue.field], issue.message),
    ),
  );
}

/**
 * Refuses (IN_USE, on `field`) to delete a binding, or a stream's bindings, that a live source or
 * sink of the stream needs: delete those first.
 */
export async function refuseIfConnected(
  db: Db,
  stream: string,
  clusterId: string | undefined,
  field: string[],
): Promise<void> {
  const users = await findConnectorsOfStream(db, stream, clusterId);
  if (users.length === 0) return;
  const named = users.map((u) => `${ROLE_NAMES[u.role].one} ${quote(stream)} on cluster ${quote(u.cluster)}`);
  throw new RegistryError(
    ErrorCode.IN_USE,
    `${named.join(", ")} ${users.length === 1 ? "reads or writes" : "read or write"} this binding; delete ${users.length === 1 ? "it" : "them"} first`,
    field,
  );
}

import {
  checkConfigMaps,
  checkName,
  givesSecrets,
  keepStoredSecrets,
  type ConfigMaps,
  type UserError,
} from "@stream-registry/core";
import type { StreamProvider } from "@stream-registry/provider-api";
import type { Cluster } from "@stream-registry/store";
import { registryOnlyProvider } from "../providers/registry-only.ts";
import type { ServiceDeps } from "./deps.ts";
import { collect, pushIf, throwIfAny } from "./user-errors.ts";

export interface DeclareClusterInput {
  name: string;
  provider?: string | null;
  config?: unknown;
}

export interface CheckedCluster {
  kind: string;
  provider: StreamProvider;
  /** The config to store: as given, with "********" where a query showed it replaced by the stored value. */
  config: ConfigMaps;
  /** The cluster the kept secrets were read from (null if new); it must be unchanged when writing. */
  before: Cluster | null;
  /** The input gave a secret in clear: a change even if equal to the stored one (no guessing oracle). */
  givesSecrets: boolean;
}

/** declareCluster's input checks, every problem reported at once; throws UserErrors. */
export async function checkClusterInput(
  deps: ServiceDeps,
  input: DeclareClusterInput,
): Promise<CheckedCluster> {
  const field = ["input", "config"];
  const errors: UserError[] = [];
  const nameError = checkName(input.name, ["input", "name"], "cluster name");
  pushIf(errors, nameError);
  const kind = input.provider ?? registryOnlyProvider.kind;
  const provider = collect(errors, () => deps.providers.require(kind, ["input", "provider"]));
  const given = (input.config ?? {}) as ConfigMaps;
  const shapeErrors = checkConfigMaps(given, field);
  errors.push(...shapeErrors);
  if (shapeErrors.length > 0) throwIfAny(errors);
  const before = nameError ? null : await deps.db.prisma.cluster.findUnique({ where: { name: input.name } });
  const stored = (before?.config ?? {}) as ConfigMaps;
  const { maps: config, errors: keepErrors } = keepStoredSecrets(
    given,
    stored,
    deps.providers.isSecret,
    field,
  );
  errors.push(...keepErrors);
  if (keepErrors.length === 0) {
    errors.push(...deps.providers.checkOwnedMaps(config, "cluster", field));
    if (provider) errors.push(...deps.providers.checkRequiredMaps(provider, config, "cluster", field));
  }
  throwIfAny(errors);
  return {
    kind,
    provider: provider!,
    config,
    before,
    givesSecrets: givesSecrets(given, deps.providers.isSecret),
  };
}

import {
  checkName,
  ErrorCode,
  givesSecrets,
  keepStoredSecrets,
  UnreadableSecrets,
  userError,
  type Cluster,
  type ConfigMaps,
  type SecretKeyRule,
  type UserError,
} from "@stream-registry/core";
import type { StreamProvider } from "@stream-registry/provider-api";
import { findCluster, openCluster } from "@stream-registry/store";
import type { ClusterPresets } from "../cluster-presets.ts";
import { registryOnlyProvider } from "../providers/registry-only.ts";
import { applyConfigMapsChange, readConfigMapsChange, type ConfigMapsChange } from "./config-replace.ts";
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
  /**
   * The config to store: the stored (or preset) maps with the given ones applied, "********" where
   * a query showed it replaced by the stored value (for a sealed secret, its placeholder as stored:
   * the store keeps its sealed value).
   */
  config: ConfigMaps;
  /** The same with every sealed secret decrypted: what the provider validates and connects with. */
  clear: ConfigMaps;
  /** The cluster the kept secrets were read from (null if new); it must be unchanged when writing. */
  before: Cluster | null;
  /** The input gave a secret in clear: a change even if equal to the stored one (no guessing oracle). */
  givesSecrets: boolean;
}

/**
 * declareCluster's input checks, every problem reported at once; throws UserErrors. DECLARE is
 * idempotent: a provider or config left out keeps what the cluster has. For a cluster not declared
 * yet, they come from its preset (REGISTRY_CLUSTERS_FILE) if any (the preset's config only when
 * the provider given, if any, is the preset's), else registry-only with no config. A config given
 * is applied map by map, as for streams: each map named replaces that map, null removes it.
 */
export async function checkClusterInput(
  deps: ServiceDeps,
  input: DeclareClusterInput,
  presets: ClusterPresets,
): Promise<CheckedCluster> {
  const field = ["input", "config"];
  const errors: UserError[] = [];
  const nameError = checkName(input.name, ["input", "name"], "cluster name");
  pushIf(errors, nameError);
  const given = readGivenConfig(input.config, field, errors, deps.providers.isSecret);
  if (!given) throwIfAny(errors);
  const before = nameError ? null : await findCluster(deps.db.prisma, input.name);
  const preset = before || nameError ? undefined : presets.clusters.get(input.name);
  const kind = input.provider ?? before?.provider ?? preset?.provider ?? registryOnlyProvider.kind;
  const provider = collect(errors, () => deps.providers.require(kind, ["input", "provider"]));
  // A preset's connection config is for its own provider; another provider starts from nothing.
  const presetApplies = preset !== undefined && kind === (preset.provider ?? registryOnlyProvider.kind);
  const stored = before?.config ?? (presetApplies ? preset.config : undefined) ?? {};
  const { maps, errors: keepErrors } = keepStoredSecrets(
    given?.maps ?? {},
    stored,
    deps.providers.isSecret,
    field,
  );
  errors.push(...keepErrors);
  const config = applyConfigMapsChange(stored, { maps, removed: given?.removed ?? [] });
  const clear = keepErrors.length === 0 ? await openKept(deps, before, config, field, errors) : config;
  if (keepErrors.length === 0 && clear) {
    errors.push(...deps.providers.checkOwnedMaps(clear, "cluster", field));
    if (provider) errors.push(...deps.providers.checkRequiredMaps(provider, clear, "cluster", field));
  }
  throwIfAny(errors);
  return {
    kind,
    provider: provider!,
    config,
    clear: clear!,
    before,
    givesSecrets: givesSecrets(given?.maps ?? {}, deps.providers.isSecret),
  };
}

/**
 * `config` with the sealed secrets it keeps from `before` decrypted. One that cannot be is an
 * error on its field, saying why: giving the value again replaces it (and needs no decrypting).
 */
async function openKept(
  deps: ServiceDeps,
  before: Cluster | null,
  config: ConfigMaps,
  field: string[],
  errors: UserError[],
): Promise<ConfigMaps | undefined> {
  if (!before) return config;
  try {
    return (await openCluster(deps.db.prisma, deps.keyring, { ...before, config })).config;
  } catch (error) {
    if (!(error instanceof UnreadableSecrets)) throw error;
    for (const { map, key, reason } of error.secrets) {
      const message =
        `config map ${JSON.stringify(map)} key ${JSON.stringify(key)} keeps the stored secret, which cannot ` +
        `be decrypted: ${reason}; give its value again to replace it`;
      errors.push(userError(ErrorCode.INVALID_INPUT, [...field, map, key], message));
    }
    return undefined;
  }
}

/** The config as given, checked for shape; an omitted config is an empty change (keeps all maps). */
function readGivenConfig(
  value: unknown,
  field: string[],
  errors: UserError[],
  isSecret: SecretKeyRule,
): ConfigMapsChange | undefined {
  if (value === undefined || value === null) return { maps: {}, removed: [] };
  const { change, errors: shapeErrors } = readConfigMapsChange(value, field, isSecret);
  errors.push(...shapeErrors);
  return shapeErrors.length > 0 ? undefined : change;
}

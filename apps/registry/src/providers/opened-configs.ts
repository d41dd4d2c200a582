import { holdsSealedPlaceholder, UnreadableSecrets, type ConfigMaps } from "@stream-registry/core";
import { openSets } from "@stream-registry/store";
import type { ConfigSet } from "../services/config-input.ts";
import type { ClusterSecrets } from "./cluster-target.ts";

/** A stream or a binding whose sets of config maps may hold sealed secrets. */
export interface SealedOwner {
  kind: "stream" | "binding";
  id: string;
  /** How errors name it: `stream "orders"`, `binding "/aws/c1/orders"`. */
  what: string;
}

/**
 * The sets with every sealed secret of `owner` opened: what a provider is given to realize or
 * validate, never what a query shows. Reads nothing when nothing is sealed. Throws core's
 * UnreadableSecrets naming each value that cannot be opened.
 */
export async function openedConfigSet(
  deps: ClusterSecrets,
  owner: SealedOwner,
  set: ConfigSet,
): Promise<ConfigSet> {
  return openSets(deps.db.prisma, deps.keyring, { kind: owner.kind, id: owner.id }, set, owner.what);
}

/**
 * As `openedConfigSet`, for a write's validation: undefined when a secret cannot be opened, so
 * that the write is accepted as with a cluster that is down, and realizing it reports why.
 */
export async function openedForValidation(
  deps: ClusterSecrets,
  owner: SealedOwner,
  set: ConfigSet,
): Promise<ConfigSet | undefined> {
  return openedConfigSet(deps, owner, set).catch((error: unknown) => {
    if (error instanceof UnreadableSecrets) return undefined;
    throw error;
  });
}

/** `shown` with each placeholder of a sealed value replaced by the value `opened` holds there. */
export function withOpened(shown: ConfigMaps, opened: ConfigMaps): ConfigMaps {
  return Object.fromEntries(
    Object.entries(shown).map(([name, map]) => [
      name,
      Object.fromEntries(
        Object.entries(map).map(([key, value]) => {
          const open =
            Object.hasOwn(opened, name) && Object.hasOwn(opened[name]!, key) ? opened[name]![key] : undefined;
          return [
            key,
            typeof value === "string" && holdsSealedPlaceholder(value) && open !== undefined ? open : value,
          ];
        }),
      ),
    ]),
  );
}

/** A stream as the owner of its sealed secrets. */
export function streamOwner(stream: { id: string; name: string }): SealedOwner {
  return { kind: "stream", id: stream.id, what: `stream ${JSON.stringify(stream.name)}` };
}

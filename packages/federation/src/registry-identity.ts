import { callRegistry, type RemoteCallOptions } from "./remote-registry.ts";

/** Who a registry says it is when asked without a credential: its id and its public keys. */
export interface RegistryIdentityAnswer {
  id: string;
  keys: Record<string, unknown>[];
}

/**
 * Asks the registry at `url` who it is (`registry { id keys }`, answered without a credential):
 * a parent checks that a registering child's URL answers as that child. Redirects are not
 * followed (http-post.ts); a RemoteRegistryError says what answered instead.
 */
export async function identifyRegistry(
  url: string,
  options: RemoteCallOptions,
): Promise<RegistryIdentityAnswer> {
  const data = await callRegistry<{ registry: RegistryIdentityAnswer }>(
    url,
    `query RegistryIdentity { registry { id keys } }`,
    {},
    options,
  );
  return data.registry;
}

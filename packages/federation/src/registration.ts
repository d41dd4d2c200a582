import { callRegistry, type RemoteCallOptions } from "./remote-registry.ts";

/** Who a registry is (the API's RegistryInfo): what a child learns of its parent, and a probe finds. */
export interface RegistryInfo {
  id: string;
  namespace: string;
  version: string;
  /** Registry ids of its ancestors, the root first. */
  ancestors: string[];
  /** Its public signing keys (JWKs): what the tokens it signs are verified with. */
  keys: Record<string, unknown>[];
}

/** What a child sends to register with its parent (the API's RegisterChildRegistryInput). */
export interface Registration {
  registryId: string;
  name: string;
  url: string;
  sdl: string;
  version: string;
  /** The parent's enrollment token: what a registry id registering for the first time shows. */
  token: string | null;
  /**
   * Signed with this registry's keys (a JWS, registration-proof.ts): what a registry id the parent
   * knows shows instead; null when this registry knows no parent to prove itself to.
   */
  proof: string | null;
  /** Its public signing keys (JWKs): the parent pins them. */
  keys: Record<string, unknown>[];
}

/** A refusal as the other registry gave it: its userErrors, passed on as they are. */
export interface RemoteUserError {
  code: string;
  field: string[];
  message: string;
}

export type RegistrationOutcome =
  { accepted: true; parent: RegistryInfo } | { accepted: false; userErrors: RemoteUserError[] };

const INFO = `id namespace version ancestors keys`;
const USER_ERRORS = `userErrors { code field message }`;

/** Registers with the parent at `parentUrl` (again: registering is idempotent for a registry id). */
export async function registerWithParent(
  parentUrl: string,
  registration: Registration,
  options: RemoteCallOptions,
): Promise<RegistrationOutcome> {
  const data = await callRegistry<{
    registerChildRegistry: {
      parent: RegistryInfo | null;
      userErrors: RemoteUserError[];
    };
  }>(
    parentUrl,
    `mutation RegisterChildRegistry($input: RegisterChildRegistryInput!) {
      registerChildRegistry(input: $input) { parent { ${INFO} } ${USER_ERRORS} } }`,
    { input: registration },
    options,
  );
  const { parent, userErrors } = data.registerChildRegistry;
  return parent && userErrors.length === 0 ? { accepted: true, parent } : { accepted: false, userErrors };
}

/**
 * Unregisters from the parent at `parentUrl`, with a proof signed by this registry's keys;
 * unregistering what it does not know is success.
 */
export async function unregisterFromParent(
  parentUrl: string,
  child: { registryId: string; proof: string },
  options: RemoteCallOptions,
): Promise<RemoteUserError[]> {
  const data = await callRegistry<{ unregisterChildRegistry: { userErrors: RemoteUserError[] } }>(
    parentUrl,
    `mutation UnregisterChildRegistry($input: UnregisterChildRegistryInput!) {
      unregisterChildRegistry(input: $input) { ${USER_ERRORS} } }`,
    { input: child },
    options,
  );
  return data.unregisterChildRegistry.userErrors;
}

/** What a parent holds of a child: where it calls it, under which name, at which version, with which keys. */
export interface RegisteredChild {
  name: string;
  url: string;
  version: string;
  keys: Record<string, unknown>[];
}

/** The parent as it is now, and what it holds of the child `registryId` (null: nothing). */
export async function checkParent(
  parentUrl: string,
  registryId: string,
  options: RemoteCallOptions,
): Promise<{ parent: RegistryInfo; child: RegisteredChild | null }> {
  const data = await callRegistry<{ registry: RegistryInfo; childRegistry: RegisteredChild | null }>(
    parentUrl,
    `query CheckParent($id: String!) {
      registry { ${INFO} } childRegistry(registryId: $id) { name url version keys } }`,
    { id: registryId },
    options,
  );
  return { parent: data.registry, child: data.childRegistry };
}

/** Who answers at `url` (a parent's health probe of a child). */
export async function probeRegistry(url: string, options: RemoteCallOptions): Promise<RegistryInfo> {
  const data = await callRegistry<{ registry: RegistryInfo }>(
    url,
    `query ProbeRegistry { registry { ${INFO} } }`,
    {},
    options,
  );
  return data.registry;
}

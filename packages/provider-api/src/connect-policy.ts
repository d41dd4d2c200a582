/**
 * Where the registry lets a provider connect: its operator's allow-list (REGISTRY_CONNECT_ALLOW,
 * docs/security.md, "Where the registry connects"), given to each provider at start
 * (StreamProvider.registryWillStart). The registry checks the endpoints a cluster's config names
 * (clusterEndpoints) before the provider sees the config; a provider whose client goes on to
 * addresses the platform tells it (Kafka's advertised brokers) asks the policy before each.
 */
export interface ConnectPolicy {
  /** Whether a list is set; without one every address is allowed and nothing needs asking. */
  readonly restricted: boolean;
  /**
   * Whether the provider may connect to `host` (a name or an IP address, IPv6 without brackets)
   * at `port`. A name the list does not name is resolved, as the registry's rule says.
   */
  allows(host: string, port: number): Promise<boolean>;
}

/** What the registry gives a provider at start. */
export interface ProviderRuntime {
  connect: ConnectPolicy;
}

/** No allow-list: every address is allowed (a provider's default until the registry says more). */
export const UNRESTRICTED_CONNECT: ConnectPolicy = {
  restricted: false,
  allows: () => Promise.resolve(true),
};

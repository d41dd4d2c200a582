import { createAcmeProvider } from "./acme-provider.ts";

/** Acme's Kafka provider; clusters name it with provider "acme". Load it with REGISTRY_PROVIDERS=@stream-registry/provider-acme. */
export const acmeProvider = createAcmeProvider();

export { createAcmeProvider } from "./acme-provider.ts";
export {
  ACME_MAP,
  ACME_SECRET_KEYS,
  acmeConfigMap,
  acmeLabels,
  acmeStreamIssues,
} from "./acme-config-map.ts";

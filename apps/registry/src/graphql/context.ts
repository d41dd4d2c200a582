import type { Logger } from "../logger.ts";
import type { Services } from "../services/services.ts";
import type { Loaders } from "./loaders.ts";

/** Built per request by the HTTP layer. */
export interface GraphQLContext {
  requestId: string;
  /** Who is asking (the `x-actor` header); recorded in the change log. */
  actor: string;
  namespace: string;
  services: Services;
  loaders: Loaders;
  logger: Logger;
}

import { BindingService } from "./binding-service.ts";
import { Catalog } from "./catalog.ts";
import { ClusterService } from "./cluster-service.ts";
import type { ServiceDeps } from "./deps.ts";
import { StreamService } from "./stream-service.ts";

export interface Services {
  clusters: ClusterService;
  streams: StreamService;
  bindings: BindingService;
  catalog: Catalog;
}

export function createServices(deps: ServiceDeps): Services {
  return {
    clusters: new ClusterService(deps),
    streams: new StreamService(deps),
    bindings: new BindingService(deps),
    catalog: new Catalog(deps),
  };
}

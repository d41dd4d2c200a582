import type { ClusterPresets } from "../cluster-presets.ts";
import { BindingService } from "./binding-service.ts";
import { Catalog } from "./catalog.ts";
import { ClusterService } from "./cluster-service.ts";
import type { ServiceDeps } from "./deps.ts";
import { HealthService } from "./health-service.ts";
import { StreamService } from "./stream-service.ts";

export interface Services {
  clusters: ClusterService;
  streams: StreamService;
  bindings: BindingService;
  catalog: Catalog;
  health: HealthService;
}

export function createServices(
  deps: ServiceDeps,
  options: { healthIntervalMs?: number; clusterPresets?: ClusterPresets } = {},
): Services {
  return {
    clusters: new ClusterService(deps, options.clusterPresets),
    streams: new StreamService(deps),
    bindings: new BindingService(deps),
    catalog: new Catalog(deps),
    health: new HealthService(options.healthIntervalMs ?? 0),
  };
}

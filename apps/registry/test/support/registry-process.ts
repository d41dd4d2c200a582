// A registry as its own OS process: the testkit's, which the CLI's tests use too.
export {
  launchRegistry,
  spawnRegistry,
  type LaunchedRegistry,
  type Launcher,
  type RegistryProcess,
} from "@stream-registry/testkit";

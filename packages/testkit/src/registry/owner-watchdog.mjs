// Preloaded (node --import) into every registry process a test starts, never into a user's: when
// the test process that started it is gone (REGISTRY_TEST_OWNER_PID, checked every second), the
// registry is stopped as an operator would (SIGTERM), and killed if it has not exited 15 s later.
// So a Vitest worker that crashed, timed out or was killed leaves no registry behind, as a broker's
// watchdog leaves no broker (../kafka/broker-process.ts). Plain JavaScript: `npm start` loads it
// through NODE_OPTIONS into npm's node as well, before any TypeScript loader, so it acts only in
// the registry itself.
const owner = Number(process.env.REGISTRY_TEST_OWNER_PID);
// The registry's entry point, or what `npm start` runs it with (its build, bin/start.mjs).
const isRegistry = /[\\/]apps[\\/]registry[\\/](src[\\/]main\.ts|bin[\\/]start\.mjs)$/.test(
  process.argv[1] ?? "",
);

if (owner > 0 && isRegistry) watch();

function watch() {
  setTimeout(() => {
    if (alive(owner)) return watch();
    process.kill(process.pid, "SIGTERM");
    setTimeout(() => process.kill(process.pid, "SIGKILL"), 15_000).unref();
  }, 1_000).unref();
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

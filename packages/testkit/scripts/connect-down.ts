// npm run connect:down [-- --purge] — stops the worker of `npm run connect:up`; --purge also deletes its files.
import { rm } from "node:fs/promises";
import { devConnectDir, existingDevWorker } from "./dev-connect.ts";

const worker = await existingDevWorker();
if (worker === undefined) {
  console.log("No developer Connect worker (nothing to stop).");
} else {
  const wasRunning = worker.isRunning();
  await worker.stop();
  console.log(`connect (${worker.url}): ${wasRunning ? "stopped" : "was not running"}`);
}
if (process.argv.includes("--purge")) {
  await rm(devConnectDir, { recursive: true, force: true });
  console.log(`Removed ${devConnectDir}`);
}

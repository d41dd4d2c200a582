import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { eventually } from "./eventually.ts";

const mainScript = fileURLToPath(new URL("../../src/main.ts", import.meta.url));

/** A registry running as its own OS process, as `npm start` runs it. */
export interface RegistryProcess {
  url: string;
  pid: number;
  logs: string[];
  /** Log lines parsed as JSON (non-JSON lines skipped). */
  entries(): Record<string, unknown>[];
  kill(signal: NodeJS.Signals): void;
  exited: Promise<number | null>;
}

export async function spawnRegistry(env: Record<string, string>): Promise<RegistryProcess> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", mainScript], {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "debug", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const logs: string[] = [];
  let buffered = "";
  const collect = (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    logs.push(...lines.filter(Boolean));
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const entries = () =>
    logs.flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  let done = false;
  void exited.then(() => (done = true));
  const url = await eventually(
    async () => {
      if (done) throw new Error(`registry exited during start-up:\n${logs.join("\n")}`);
      return entries().find((e) => e.msg === "registry started")?.url as string | undefined;
    },
    60_000,
    "the registry process to start",
  );
  return { url, pid: child.pid!, logs, entries, kill: (signal) => child.kill(signal), exited };
}

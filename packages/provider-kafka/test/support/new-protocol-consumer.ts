import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { kafkaLibDir } from "@stream-registry/testkit";

/**
 * A Java consumer on Kafka 4's consumer group protocol (KIP-848): kafkajs speaks only the classic
 * one. Runs NewProtocolConsumer.java with Java's source launcher on the brokers' own jars
 * (kafka-clients 4.4.0); resolves once it has committed `max` records. Dispose to stop it (its
 * standard input closes, and it exits; killed if it does not).
 */
export async function startNewProtocolConsumer(
  bootstrapServers: string,
  group: string,
  topic: string,
  max: number,
  timeoutMs = 60_000,
): Promise<AsyncDisposable> {
  const source = join(import.meta.dirname, "NewProtocolConsumer.java");
  const child = spawn(
    "java",
    ["-Xmx128m", "-cp", `${kafkaLibDir()}/*`, source, bootstrapServers, group, topic, String(max)],
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  const stop = () => stopChild(child);
  let output = "";
  child.stderr.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the consumer did not commit ${max} records in ${timeoutMs} ms:\n${output}`)),
        timeoutMs,
      );
      child.stdout.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("committed")) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`the consumer exited (${code}) before it committed:\n${output}`));
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { [Symbol.asyncDispose]: stop };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.stdin?.end();
  const kill = setTimeout(() => child.kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(kill);
}

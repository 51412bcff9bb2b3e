import { readFileSync } from "node:fs";
import { ToolgramError } from "../errors.js";

/** Where a command reads and writes; tests pass their own, the CLI passes the process's. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** The text of a file, or of standard input for "-". */
  readText(path: string): Promise<string>;
}

export const processIO: CliIO = {
  stdout: (t) => void process.stdout.write(t),
  stderr: (t) => void process.stderr.write(t),
  readText: async (path) => {
    try {
      if (path === "-") return await readStdin();
      return readFileSync(path, "utf8");
    } catch (e) {
      throw new ToolgramError(
        "INVALID_INPUT",
        `cannot read ${path === "-" ? "standard input" : path}: ${(e as Error).message}`,
      );
    }
  },
};

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** A usage mistake (unknown flag, missing value): exit code 2, like a bad declaration. */
export class UsageError extends Error {}

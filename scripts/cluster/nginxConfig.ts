import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The template in the repository that {@link nginxConfig} fills. */
export const NGINX_TEMPLATE = join(
  import.meta.dirname,
  "..",
  "..",
  "deploy",
  "nginx",
  "toolgram-cluster.conf.template",
);

/** What the template leaves open: where nginx keeps its files, where it listens, and the instances it balances. */
export interface NginxConfigFields {
  /** nginx's own folder: pid, logs and temporary files. */
  readonly prefix: string;
  /** `host:port` nginx listens on. */
  readonly listen: string;
  /** `host:port` of each `toolgram serve` instance. */
  readonly instances: readonly string[];
  /**
   * The `user` directive's `user group`, only when nginx starts as root (its workers then drop to that user);
   * otherwise nginx runs as whoever starts it and the directive is left out.
   */
  readonly workerUser?: string;
  /** The largest request body, the instances' `--max-body-bytes`. @defaultValue 4 MiB, toolgram's default */
  readonly maxBodyBytes?: number;
}

/** The nginx configuration for the instances, from the repository's template. */
export function nginxConfig(fields: NginxConfigFields): string {
  if (fields.instances.length === 0) throw new Error("nginx needs at least one toolgram instance to balance");
  const values: Record<string, string> = {
    user: fields.workerUser === undefined ? "" : `user ${fields.workerUser};`,
    prefix: fields.prefix,
    listen: fields.listen,
    servers: fields.instances.map((a) => `        server ${a} max_fails=1 fail_timeout=10s;`).join("\n"),
    // every instance once at most
    tries: String(fields.instances.length),
    maxBodyBytes: String(fields.maxBodyBytes ?? 4 * 1024 * 1024),
  };
  const text = readFileSync(NGINX_TEMPLATE, "utf8").replace(/\{\{(\w+)\}\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${NGINX_TEMPLATE}: unknown field ${whole}`);
    return value;
  });
  return text;
}

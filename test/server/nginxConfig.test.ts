import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { nginxConfig } from "../../scripts/cluster/nginxConfig.js";
import { findNginx } from "../../scripts/cluster/startCluster.js";

/**
 * The balancer's configuration as `npm run serve:cluster` writes it from deploy/nginx/toolgram-cluster.conf.template:
 * every instance listed, every field filled, and nginx itself accepts it (`nginx -t`, when nginx is installed). The
 * balancer at work is test/server/cluster.long.test.ts.
 */
const nginx = findNginx();
const prefix = mkdtempSync(join(tmpdir(), "toolgram-nginx-config-"));
chmodSync(prefix, 0o755);
const instances = ["127.0.0.1:41001", "127.0.0.1:41002", "10.0.0.12:8080"];
const text = nginxConfig({ prefix, listen: "127.0.0.1:41000", instances });

afterAll(() => rmSync(prefix, { recursive: true, force: true }));

describe("the nginx configuration of serve:cluster", () => {
  it("lists each instance once, fills every field, and retries a POST only on a failed connection", () => {
    for (const a of instances) expect(text.split(`server ${a} `).length - 1).toBe(1);
    expect(text).not.toMatch(/\{\{\w+\}\}/);
    expect(text).toContain(`proxy_next_upstream_tries ${instances.length};`);
    expect(text).toMatch(/proxy_buffering off;/);
    expect(text).not.toMatch(/^\s*proxy_next_upstream [^;]*non_idempotent/m);
    // no user directive unless nginx starts as root
    expect(text).not.toMatch(/^user /m);
    expect(nginxConfig({ prefix, listen: "127.0.0.1:1", instances, workerUser: "nobody nogroup" })).toMatch(
      /^user nobody nogroup;$/m,
    );
  });

  it("refuses an empty instance list", () => {
    expect(() => nginxConfig({ prefix, listen: "127.0.0.1:1", instances: [] })).toThrow(/at least one/);
  });

  it.skipIf(nginx === undefined)("nginx -t accepts it", () => {
    // the configuration as a start without root writes it (no user directive)
    const conf = join(prefix, "nginx.conf");
    writeFileSync(conf, text);
    const r = spawnSync(nginx!, ["-t", "-p", prefix, "-c", conf, "-e", join(prefix, "error.log")], {
      encoding: "utf8",
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/syntax is ok/);
  });
});

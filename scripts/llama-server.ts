/**
 * Builds llama-server (CPU only, static, no web UI download) from the llama.cpp source bundled in node-llama-cpp,
 * once per bundle hash, into the toolgram cache, and prints the binary's path.
 *
 *   npm run llama-server            build if missing, print the path
 *   npm run llama-server -- --force rebuild
 *
 * A cold build takes about 15 minutes on 2 cores; with ccache on PATH a rebuild takes seconds.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cacheDir } from "../src/cacheDir.js";
import { llamaCppBundlePath, llamaServerCachePath } from "../src/llama-cpp/llamaServerBinary.js";

function run(command: string, args: string[], cwd?: string): void {
  process.stderr.write(`$ ${command} ${args.join(" ")}\n`);
  // ccache keeps its objects in the toolgram cache too, unless the user chose a place.
  const env = { ...process.env, CCACHE_DIR: process.env.CCACHE_DIR ?? join(cacheDir(), "ccache") };
  const result = spawnSync(command, args, { cwd, env, stdio: ["ignore", "inherit", "inherit"] });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} exited with status ${result.status}`);
}

function onPath(command: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

async function main(): Promise<number> {
  const force = process.argv.includes("--force");
  const bundle = llamaCppBundlePath();
  if (bundle === undefined) {
    process.stderr.write(
      "node-llama-cpp is not installed (or ships no llama/gitRelease.bundle): nothing to build from.\n",
    );
    return 1;
  }
  const { dir, binary } = await llamaServerCachePath(bundle);
  if (existsSync(binary) && !force) {
    process.stdout.write(`${binary}\n`);
    return 0;
  }
  for (const tool of ["git", "cmake", "ninja", "c++"]) {
    if (!onPath(tool)) {
      process.stderr.write(`${tool} is needed to build llama-server; install it and retry.\n`);
      return 1;
    }
  }
  const started = Date.now();
  const work = mkdtempSync(join(tmpdir(), "toolgram-llama-server-"));
  try {
    const src = join(work, "src");
    run("git", ["clone", "--quiet", bundle, src]);
    const cmakeArgs = [
      "-B",
      "build",
      "-G",
      "Ninja",
      "-DCMAKE_BUILD_TYPE=Release",
      "-DGGML_NATIVE=OFF",
      "-DBUILD_SHARED_LIBS=OFF",
      "-DLLAMA_BUILD_TESTS=OFF",
      "-DLLAMA_BUILD_EXAMPLES=OFF",
      "-DLLAMA_BUILD_SERVER=ON",
      "-DLLAMA_BUILD_APP=OFF",
      "-DLLAMA_BUILD_UI=OFF",
      // On by default, and it would download the web UI at build time.
      "-DLLAMA_USE_PREBUILT_UI=OFF",
      "-DLLAMA_OPENSSL=OFF",
      "-DLLAMA_CURL=OFF",
      // ggml's own ccache detection is replaced by the launcher below, so that ccache is used exactly when on PATH.
      "-DGGML_CCACHE=OFF",
    ];
    if (onPath("ccache")) {
      cmakeArgs.push("-DCMAKE_C_COMPILER_LAUNCHER=ccache", "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache");
    }
    run("cmake", cmakeArgs, src);
    run("cmake", ["--build", "build", "--target", "llama-server", "-j2"], src);
    mkdirSync(join(dir, "bin"), { recursive: true });
    // Copy under a temporary name and rename, so a concurrent reader never sees a half-written binary.
    const partial = `${binary}.partial`;
    copyFileSync(join(src, "build", "bin", "llama-server"), partial);
    chmodSync(partial, 0o755);
    run("mv", [partial, binary]);
    process.stderr.write(`built llama-server in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
    process.stdout.write(`${binary}\n`);
    return 0;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

process.exitCode = await main();

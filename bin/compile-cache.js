// Node's compile cache keeps the type-stripped sources (and V8's code for them) on disk: a
// process that finds every module there never loads Node's type stripper (swc compiled to
// WebAssembly: the serving process 6–10 MB smaller at rest) and starts sooner. It lives beside
// the project's packages, so only who may change the code may change it (`npm install` fills
// it: scripts/warm-compile-cache.ts). NODE_COMPILE_CACHE names another folder;
// NODE_DISABLE_COMPILE_CACHE=1 turns it off.
import module from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * Turns the cache on for this process and, through the environment, for the processes and
 * worker threads it starts (the server's re-execution, src/server/v8-flags.ts).
 */
export function enableCompileCache() {
  process.env.NODE_COMPILE_CACHE ??= fileURLToPath(new URL('../node_modules/.cache/content-site', import.meta.url));
  module.enableCompileCache(process.env.NODE_COMPILE_CACHE);
}

// The console as others may use it: the host's HTTP adapter mounts it.
export { registerConsole } from './index.ts';

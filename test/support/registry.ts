// Helpers for tests generated from the route registry.

/** A concrete path for a route pattern: each named group replaced by a value its regex accepts. */
export function samplePath(pattern: string): string {
  return pattern.replace(/\(\?P<(\w+)>([^)]*)\)/g, (_m, name: string, re: string) => {
    if (name === 'initiator_type') return 'cms';
    if (re.includes('\\d,')) return '1,2';
    if (re.includes('\\d')) return '1';
    return 'global';
  });
}

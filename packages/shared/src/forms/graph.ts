/**
 * Dependency order of fields (show-if and calculation references). Tarjan's strongly connected components, iterative
 * (no recursion limit), deterministic: components come dependencies first, in the nodes' order otherwise.
 */

export type Component = {
  nodes: string[];
  /** More than one node, or one node that depends on itself. */
  cyclic: boolean;
};

export function dependencyOrder(nodes: readonly string[], depsOf: (node: string) => readonly string[]): Component[] {
  const known = new Set(nodes);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: Component[] = [];
  let counter = 0;
  const order = new Map(nodes.map((n, i) => [n, i]));

  for (const root of nodes) {
    if (index.has(root)) continue;
    const work: { node: string; deps: string[]; next: number }[] = [];
    const open = (node: string) => {
      index.set(node, counter);
      low.set(node, counter);
      counter++;
      stack.push(node);
      onStack.add(node);
      work.push({ node, deps: depsOf(node).filter((d) => known.has(d)), next: 0 });
    };
    open(root);
    while (work.length > 0) {
      const frame = work[work.length - 1] as (typeof work)[number];
      if (frame.next < frame.deps.length) {
        const dep = frame.deps[frame.next++] as string;
        if (!index.has(dep)) open(dep);
        else if (onStack.has(dep)) low.set(frame.node, Math.min(low.get(frame.node) ?? 0, index.get(dep) ?? 0));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node) ?? 0, low.get(frame.node) ?? 0));
      if (low.get(frame.node) === index.get(frame.node)) {
        const members: string[] = [];
        for (;;) {
          const member = stack.pop() as string;
          onStack.delete(member);
          members.push(member);
          if (member === frame.node) break;
        }
        members.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
        const cyclic = members.length > 1 || frame.deps.includes(frame.node);
        out.push({ nodes: members, cyclic });
      }
    }
  }
  return out;
}

/** One cycle through `start` inside a cyclic component, as `a → b → a`. */
export function describeCycle(
  start: string,
  members: ReadonlySet<string>,
  depsOf: (node: string) => readonly string[],
): string[] {
  const path = [start];
  const seen = new Set([start]);
  let current = start;
  for (;;) {
    const deps = depsOf(current).filter((d) => members.has(d));
    if (deps.includes(start)) return [...path, start];
    const next = deps.find((d) => !seen.has(d)) ?? deps[0];
    if (next === undefined) return [...path, start];
    if (seen.has(next)) return [...path.slice(path.indexOf(next)), next];
    path.push(next);
    seen.add(next);
    current = next;
  }
}

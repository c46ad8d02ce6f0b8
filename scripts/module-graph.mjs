// The server's module graph must be acyclic: `node scripts/module-graph.mjs` reads the import specifiers of
// apps/server/src/modules/<module>/** and apps/server/src/domain/<area>/** (static, type-only, re-exports and dynamic
// imports alike; tests and test support left out), builds the graph between those folders and exits 1 on a cycle
// that apps/server/module-cycles.allow.json does not list (a list of known cycles, each as its sorted folder names).
// Step `lint` of scripts/test.mjs runs it; apps/server/test/boundaries.test.ts proves it on a broken example.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TEST_FILE = /\.(test|test-factory|test-support)\.ts$/;
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith('.ts') && !TEST_FILE.test(entry.name)) yield path;
  }
}

/** The node of a file under `src`: `modules/<name>` or `domain/<name>`, else undefined (lib, plugins, db, ...). */
function nodeOf(src, file) {
  const [top, name] = relative(src, file).split(sep);
  return (top === 'modules' || top === 'domain') && name && !name.endsWith('.ts') ? `${top}/${name}` : undefined;
}

/** The graph between the folders of `src/modules` and `src/domain`: node → the set of nodes it imports. */
export function moduleGraph(src) {
  const graph = new Map();
  for (const top of ['modules', 'domain']) {
    if (!existsSync(join(src, top))) continue;
    for (const file of sourceFiles(join(src, top))) {
      const from = nodeOf(src, file);
      if (!from) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      const text = readFileSync(file, 'utf8');
      for (const [, specifier] of text.matchAll(SPECIFIER)) {
        if (!specifier.startsWith('.')) continue;
        const to = nodeOf(src, resolve(dirname(file), specifier));
        if (to && to !== from) graph.get(from).add(to);
      }
    }
  }
  return graph;
}

/** The strongly connected components of more than one node (Tarjan), each sorted, the list sorted. */
export function findCycles(graph) {
  let index = 0;
  const stack = [];
  const meta = new Map();
  const cycles = [];
  const visit = (v) => {
    meta.set(v, { index, low: index, onStack: true });
    index++;
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!meta.has(w)) {
        visit(w);
        meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).low);
      } else if (meta.get(w).onStack) meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).index);
    }
    if (meta.get(v).low === meta.get(v).index) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        meta.get(w).onStack = false;
        component.push(w);
      } while (w !== v);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!meta.has(v)) visit(v);
  return cycles.sort((a, b) => a.join().localeCompare(b.join()));
}

/** One import path that closes a cycle through `component`, e.g. `a → b → a`, for the message. */
export function cyclePath(graph, component) {
  const inside = new Set(component);
  const start = component[0];
  const queue = [[start]];
  const seen = new Set();
  while (queue.length > 0) {
    const path = queue.shift();
    for (const next of graph.get(path.at(-1)) ?? []) {
      if (next === start) return [...path, start].join(' → ');
      if (inside.has(next) && !seen.has(next)) {
        seen.add(next);
        queue.push([...path, next]);
      }
    }
  }
  return component.join(' ↔ ');
}

/** The cycles of `src` that the allow-list file does not name; `allowed` lists known ones still present. */
export function checkModuleGraph(src, allowFile) {
  const graph = moduleGraph(src);
  const allowList = allowFile && existsSync(allowFile) ? JSON.parse(readFileSync(allowFile, 'utf8')).cycles : [];
  const known = new Set(allowList.map((c) => [...c].sort().join(',')));
  const cycles = findCycles(graph);
  return {
    graph,
    cycles: cycles.filter((c) => !known.has(c.join(','))),
    allowed: cycles.filter((c) => known.has(c.join(','))),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const server = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'apps', 'server');
  const { graph, cycles, allowed } = checkModuleGraph(join(server, 'src'), join(server, 'module-cycles.allow.json'));
  for (const c of allowed) console.log(`! known cycle (module-cycles.allow.json): ${cyclePath(graph, c)}`);
  for (const c of cycles) console.error(`✗ module cycle: ${cyclePath(graph, c)}`);
  if (cycles.length > 0) process.exit(1);
  console.log(`module graph: ${graph.size} folders, no cycle${allowed.length ? ' beyond the allowed ones' : ''}`);
}

import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';

/**
 * The team's shared folder (`shared/`, beside the checkout): large third-party fixtures that are not part of the
 * repository (a public REDCap dictionary, the CDISC ODM XML Schema). The default suite never needs it — it runs on
 * the project's own fixtures in `test/fixtures/` — and the tests that read it run in addition where it is found.
 *
 * Where: `$REGISTRY_SHARED_DIR`, else `../shared` beside the repository root, else (in a `git worktree`) `../shared`
 * beside the main checkout the worktree belongs to. With `CI=true` or `REQUIRE_SHARED=1` a missing folder is a
 * failing test, never a silent omission.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The main checkout of a `git worktree` (its `.git` is a file naming `<main>/.git/worktrees/<name>`), else null. */
function mainCheckoutOf(root: string): string | null {
  try {
    const dotGit = path.join(root, '.git');
    if (!statSync(dotGit).isFile()) return null;
    const gitDir = path.resolve(root, /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim() ?? '');
    const commonDir = path.resolve(gitDir, readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim());
    return path.basename(commonDir) === '.git' ? path.dirname(commonDir) : null;
  } catch {
    return null;
  }
}

function candidates(): string[] {
  const fromEnv = process.env.REGISTRY_SHARED_DIR;
  if (fromEnv) return [path.resolve(fromEnv)];
  const main = mainCheckoutOf(repoRoot);
  return [path.join(repoRoot, '..', 'shared'), ...(main ? [path.join(main, '..', 'shared')] : [])];
}

/** Whether this run must have the shared folder (CI): its absence then fails the suite. */
export const sharedRequired = process.env.CI === 'true' || process.env.REQUIRE_SHARED === '1';

/** Where the shared folder was looked for, for messages. */
export const sharedLookedIn = candidates();

/** The absolute path of `relative` inside the shared folder, or null when no shared folder holds it. */
export function sharedPath(relative: string): string | null {
  for (const dir of sharedLookedIn) {
    const file = path.join(dir, relative);
    if (existsSync(file)) return file;
  }
  return null;
}

/**
 * `describe(name, fn(path))` when the shared folder holds `relative`. Without it: in CI (`sharedRequired`) one failing
 * test that says what is missing; elsewhere nothing is registered (a fresh clone runs the default suite alone).
 */
export function describeWithShared(name: string, relative: string, fn: (file: string) => void): void {
  const file = sharedPath(relative);
  if (file) {
    describe(name, () => fn(file));
  } else if (sharedRequired) {
    describe(name, () => {
      it(`should find ${relative} in the shared folder (CI=true or REQUIRE_SHARED=1 requires it)`, () => {
        throw new Error(
          `共享目录中缺少 ${relative}，CI 不允许跳过。 / ${relative} is not in the shared folder (looked in ` +
            `${sharedLookedIn.join(', ')}); set REGISTRY_SHARED_DIR or place the team's shared folder beside the checkout.`,
        );
      });
    });
  }
}

import { useEffect, useState } from 'react';
import type { FormDefinition } from '@registry/shared/forms/definition';
import { patternEngineReady, registerPatternEngine } from '@registry/shared/forms/pattern';

/**
 * The RE2 engine of format patterns (re2js, about 47 KiB gzip) in the browser: loaded with a dynamic import only when
 * a form with a format pattern is shown (the web build resolves `pattern-eager.ts` to nothing, see vite.config.ts),
 * so the CRF pages' first JavaScript does without it. The same engine as the server's, never another one: until it is
 * in, the record check reports a pattern field's value as not checked (`record.ts`).
 */

export type PatternEngineState = 'ready' | 'loading' | 'failed';

let loading: Promise<void> | null = null;

/** Loads and registers the engine (once; again after a failure). */
export function loadPatternEngine(): Promise<void> {
  if (patternEngineReady()) return Promise.resolve();
  loading ??= import('@registry/shared/forms/pattern-re2').then(
    (module) => registerPatternEngine(module.re2PatternEngine),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** Whether a form has a format pattern (a field's or a group column's). */
export function formHasPatterns(form: FormDefinition): boolean {
  return form.fields.some(
    (field) => field.pattern !== undefined || (field.fields ?? []).some((column) => column.pattern !== undefined),
  );
}

/** The engine's state for a form: loads it when `needed` (the form has patterns); 'ready' when not needed. */
export function usePatternEngine(needed: boolean): { state: PatternEngineState; retry: () => void } {
  const [state, setState] = useState<PatternEngineState>(() => (patternEngineReady() ? 'ready' : 'loading'));
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!needed || patternEngineReady()) return;
    let live = true;
    loadPatternEngine().then(
      () => live && setState('ready'),
      () => live && setState('failed'),
    );
    return () => {
      live = false;
    };
  }, [needed, attempt]);
  return {
    state: !needed || patternEngineReady() ? 'ready' : state,
    retry: () => {
      setState('loading');
      setAttempt((n) => n + 1);
    },
  };
}

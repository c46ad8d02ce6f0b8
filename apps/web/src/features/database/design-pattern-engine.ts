import { registerPatternEngine } from '@registry/shared/forms/pattern';
import { re2PatternEngine } from '@registry/shared/forms/pattern-re2';

/**
 * The designer judges every pattern as it is typed and checks the whole definition on each save: it registers the RE2
 * engine when its page loads (the CRF pages load it on demand, src/lib/pattern-engine.ts).
 */
registerPatternEngine(re2PatternEngine);

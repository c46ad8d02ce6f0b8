import { describe, expect, it } from 'vitest';
import { hasAnyPermission } from './permissions';

describe('hasAnyPermission', () => {
  it('should pass when the user holds one of the listed codes', () => {
    expect(hasAnyPermission(['sys.list', 'patient.list'], ['patient.edit', 'patient.list'])).toBe(true);
  });
  it('should fail when the user holds none of them', () => {
    expect(hasAnyPermission(['sys.list'], ['patient.edit'])).toBe(false);
  });
  it('should fail for an empty list of held codes', () => {
    expect(hasAnyPermission([], ['patient.edit'])).toBe(false);
  });
});

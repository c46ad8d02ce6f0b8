import { describe, expect, it } from 'vitest';
import { canonicalEvent, headSignature, sealMac, type SealableEvent } from './audit-seal-mac';

const key = { key: Buffer.alloc(32, 3) };

const event: SealableEvent = {
  id: '42',
  txId: '1234567',
  tenantId: '7b0f0d2e-2f49-4a8e-9d7c-0a8f2c9e1b11',
  projectId: null,
  actorId: '5a1c3e4b-9f0d-4c2b-8a7e-6d5f4e3c2b1a',
  at: '2026-03-01T08:00:00.123456Z',
  action: 'user.update',
  entityType: 'user',
  entityId: '5a1c3e4b-9f0d-4c2b-8a7e-6d5f4e3c2b1a',
  oldValue: '{"name": "甲"}',
  newValue: '{"name": "乙"}',
  reason: null,
  requestId: 'req-1',
  ip: '10.0.0.1',
};

describe('canonical serialisation of an audit event', () => {
  it('should stay byte for byte what seals already cover (a change here breaks every existing seal)', () => {
    expect(canonicalEvent(event)).toBe(
      '["audit-event/1","42","1234567","7b0f0d2e-2f49-4a8e-9d7c-0a8f2c9e1b11",null,' +
        '"5a1c3e4b-9f0d-4c2b-8a7e-6d5f4e3c2b1a","2026-03-01T08:00:00.123456Z","user.update","user",' +
        '"5a1c3e4b-9f0d-4c2b-8a7e-6d5f4e3c2b1a","{\\"name\\": \\"甲\\"}","{\\"name\\": \\"乙\\"}",null,"req-1","10.0.0.1"]',
    );
    // computed apart from this code: Python's hmac over json.dumps(['audit-seal/1', tenant, '1', None, canonical])
    expect(sealMac(key, { tenantKey: event.tenantId ?? '-', seq: 1, prevMac: null }, event)).toBe(
      '469a6188da789468d3d3daf66dc6306e59bdff9ffbc7871b4f26b3a3e3ec16f0',
    );
  });

  it('should not depend on the order the fields were given in', () => {
    const reversed = Object.fromEntries(Object.entries(event).reverse()) as SealableEvent;
    expect(canonicalEvent(reversed)).toBe(canonicalEvent(event));
  });

  it('should tell apart values that only a naive join would confuse', () => {
    const a = canonicalEvent({ ...event, reason: 'a","b', requestId: null });
    const b = canonicalEvent({ ...event, reason: 'a', requestId: 'b' });
    expect(a).not.toBe(b);
    expect(canonicalEvent({ ...event, projectId: null })).not.toBe(canonicalEvent({ ...event, projectId: 'null' }));
    expect(canonicalEvent({ ...event, entityId: '' })).not.toBe(canonicalEvent({ ...event, entityId: null }));
  });

  it('should give another mac for another position, chain or predecessor', () => {
    const base = { tenantKey: 'x', seq: 2, prevMac: 'a'.repeat(64) };
    const mac = sealMac(key, base, event);
    expect(sealMac(key, { ...base, seq: 3 }, event)).not.toBe(mac);
    expect(sealMac(key, { ...base, tenantKey: '-' }, event)).not.toBe(mac);
    expect(sealMac(key, { ...base, prevMac: 'b'.repeat(64) }, event)).not.toBe(mac);
    expect(sealMac({ key: Buffer.alloc(32, 4) }, base, event)).not.toBe(mac);
  });

  it('should sign a head over its chain, position, mac and time', () => {
    const head = { tenantKey: '-', seq: 7, mac: 'c'.repeat(64), signedAt: new Date('2026-03-01T08:00:00.000Z') };
    const signature = headSignature(key, head);
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(headSignature(key, { ...head, seq: 8 })).not.toBe(signature);
    expect(headSignature(key, { ...head, signedAt: new Date('2026-03-01T08:00:00.001Z') })).not.toBe(signature);
  });
});
